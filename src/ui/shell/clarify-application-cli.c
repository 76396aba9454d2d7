/* clarify-application-cli.c: the command line of ClarifyApplication
 *
 * The primary instance runs every command line, its own and those of later
 * `clarify` calls, so --connect and --list work while Clarify is open.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-application-private.h"
#include "clarify-backend-state.h"
#include "clarify-backend-registry.h"
#include "clarify-command-line.h"

#define COMMAND_LINE_INTERFACE "io.github.clarify.Clarify.CommandLine"

/* Private to Clarify: a later instance's command line and what it prints. */
static const char command_line_xml[] =
  "<node>"
  "  <interface name='" COMMAND_LINE_INTERFACE "'>"
  "    <method name='Run'>"
  "      <arg type='aay' name='arguments' direction='in'/>"
  "      <arg type='a{sv}' name='platform_data' direction='in'/>"
  "      <arg type='s' name='out' direction='out'/>"
  "      <arg type='s' name='err' direction='out'/>"
  "      <arg type='i' name='status' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static const GOptionEntry option_entries[] = {
  { "connect", 'c', 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("Add or replace a connection and connect to it (repeatable)"), N_("NAME=KIND:URL") },
  { "disconnect", 'd', 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("Remove a connection (repeatable)"), N_("NAME") },
  { "list", 'l', 0, G_OPTION_ARG_NONE, NULL,
    N_("List the connections and their state, then exit"), NULL },
  { "demo", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Start the built-in demo agent and answer its questions"), NULL },
  { "background", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Start without showing the window"), NULL },
  /* A string: GApplication leaves an integer option of 0 out of the
   * options, so "--mcp-port=0" would pass unseen. */
  { "mcp-port", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Serve the MCP endpoint on this port for this run"), N_("PORT") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show the version and exit"), NULL },
  /* Words that are no option, so that a typo is said, not ignored. */
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL, NULL, NULL },
  { NULL }
};

void
clarify_application_add_options (ClarifyApplication *self)
{
  g_autofree char *known_kinds = NULL;
  g_autofree const char **kinds = clarify_backend_registry_list_kinds ();
  g_autofree char *connections = NULL;
  g_autofree char *description = NULL;

  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Shows the questions of AI agents as native dialogs."));
  known_kinds = g_strjoinv (", ", (char **) kinds);
  /* Translators: %s is a list of connection kinds, e.g. "clarify, opencode" */
  connections = g_strdup_printf (_("Connection kinds: %s\n"
                                   "\n"
                                   "Examples:\n"
                                   "  clarify --demo\n"
                                   "  clarify --connect work=opencode:http://127.0.0.1:4096\n"
                                   "  clarify ask --question \"Deploy now?\" --type confirm"),
                                 known_kinds);
  /* The commands `clarify` runs without the application, each with its
   * own --help: otherwise nothing in --help would name them. */
  description = g_strconcat (_("Commands:\n"
                               "  clarify ask                 Ask the user a question through Clarify\n"
                               "  clarify setup claude-code   Let Claude Code ask through Clarify\n"
                               "  clarify hook claude-code    The command Claude Code's hooks run\n"
                               "  clarify mcp-stdio           An MCP server on standard input and output\n"
                               "  clarify set-password NAME   Store a connection's password in the keyring\n"
                               "  clarify chat CONNECTION     Chat with an iHub app in the terminal\n"
                               "  clarify COMMAND --help      More about each of them\n"
                               "  clarify --mcp-info          The MCP endpoint's address and token\n"),
                             "\n", connections, NULL);
  g_application_set_option_context_description (G_APPLICATION (self), description);
}


/* NAME=KIND:URL, the URL as its row shows it. */
static char *
running_spec (ClarifyBackend *backend)
{
  ClarifyConnection *connection = clarify_backend_get_connection (backend);
  g_autofree char *url = clarify_backend_state_dup_url (backend);

  return g_strdup_printf ("%s=%s:%s", clarify_connection_get_name (connection),
                          clarify_connection_get_kind (connection), url);
}

static void
print_connections (ClarifyApplication      *self,
                   GApplicationCommandLine *command_line)
{
  GListModel *connections = clarify_connection_store_get_connections (self->store);
  guint n_stored = g_list_model_get_n_items (connections);
  guint n_running = g_list_model_get_n_items (clarify_inbox_get_backends (self->inbox));
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < n_running; i++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (clarify_inbox_get_backends (self->inbox), i);
      g_autofree char *spec = running_spec (backend);
      ClarifyConnectionState connection_state = clarify_backend_get_state (backend);
      g_autofree char *message = clarify_backend_state_describe (backend);
      const char *state;

      switch (connection_state)
        {
        case CLARIFY_CONNECTION_STATE_CONNECTING:   state = _("connecting"); break;
        case CLARIFY_CONNECTION_STATE_CONNECTED:    state = _("connected"); break;
        case CLARIFY_CONNECTION_STATE_RECONNECTING: state = _("reconnecting"); break;
        case CLARIFY_CONNECTION_STATE_FAILED:       state = _("failed"); break;
        case CLARIFY_CONNECTION_STATE_IDLE:
        default:                                    state = _("idle"); break;
        }

      g_string_append_printf (out, "%s\t%s", spec, state);
      /* Why it is not connected ("Reconnecting in 4 s", "Failed: …"). */
      if (connection_state != CLARIFY_CONNECTION_STATE_CONNECTED && message != NULL && *message != '\0')
        g_string_append_printf (out, " (%s)", message);
      if (g_hash_table_contains (self->temporary, clarify_connection_get_name (clarify_backend_get_connection (backend))))
        g_string_append_printf (out, "\t%s", _("temporary"));
      g_string_append_c (out, '\n');
    }

  /* Stored connections this process does not run (it only answers --list). */
  for (guint i = 0; i < n_stored; i++)
    {
      g_autoptr(ClarifyConnection) connection = g_list_model_get_item (connections, i);
      g_autofree char *spec = NULL;

      if (clarify_inbox_lookup_backend (self->inbox, clarify_connection_get_name (connection)) != NULL)
        continue;

      spec = clarify_connection_to_spec (connection);
      g_string_append_printf (out, "%s\t%s\n", spec, _("not running"));
    }

  if (out->len == 0)
    g_application_command_line_printerr (command_line, "%s\n",
                                         _("No connections. Add one with “clarify --connect NAME=KIND:URL”."));
  else
    g_application_command_line_print (command_line, "%s", out->str);
}

int
clarify_application_run_command_line (ClarifyApplication      *self,
                                      GApplicationCommandLine *command_line)
{
  GApplication *application = G_APPLICATION (self);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autofree const char **connect_specs = NULL;
  g_autofree const char **disconnect_names = NULL;
  g_autoptr(GPtrArray) connections = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean list = g_variant_dict_contains (options, "list");
  gboolean demo = g_variant_dict_contains (options, "demo");
  gboolean background = g_variant_dict_contains (options, "background");
  const char *mcp_port_text = NULL;
  guint64 mcp_port = 0;
  gboolean first_start;
  g_autoptr(GError) error = NULL;

  g_variant_dict_lookup (options, "connect", "^a&s", &connect_specs);
  g_variant_dict_lookup (options, "disconnect", "^a&s", &disconnect_names);

  if (g_variant_dict_lookup (options, "mcp-port", "&s", &mcp_port_text) &&
      !g_ascii_string_to_unsigned (mcp_port_text, 10, 1, 65535, &mcp_port, NULL))
    {
      g_application_command_line_printerr (command_line, "clarify: %s\n",
                                           _("--mcp-port takes a port from 1 to 65535"));
      return CLARIFY_EXIT_USAGE;
    }

  /* Check every spec before changing anything: a typo leaves all as it was. */
  for (guint i = 0; connect_specs != NULL && connect_specs[i] != NULL; i++)
    {
      ClarifyConnection *connection = clarify_application_parse_connect_spec (connect_specs[i], &error);

      if (connection == NULL)
        {
          g_application_command_line_printerr (command_line, "clarify: %s\n", error->message);
          return CLARIFY_EXIT_USAGE;
        }
      g_ptr_array_add (connections, connection);
    }

  for (guint i = 0; disconnect_names != NULL && disconnect_names[i] != NULL; i++)
    {
      if (!clarify_application_disconnect (self, disconnect_names[i], &error))
        {
          g_application_command_line_printerr (command_line, "clarify: %s\n", error->message);
          return g_error_matches (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE) ? CLARIFY_EXIT_USAGE : 1;
        }
      g_application_command_line_print (command_line, _("Removed connection “%s”.\n"), disconnect_names[i]);
    }

  for (guint i = 0; i < connections->len; i++)
    {
      ClarifyConnection *connection = g_ptr_array_index (connections, i);

      if (!clarify_application_keep_connection (self, connection, &error))
        {
          g_application_command_line_printerr (command_line, "clarify: %s\n", error->message);
          return 1;
        }
    }

  /* Only listing or removing: answer and leave the backends alone. */
  if (list && connections->len == 0 && !demo)
    {
      print_connections (self, command_line);
      return 0;
    }
  if (disconnect_names != NULL && connections->len == 0 && !demo)
    return 0;

  /* The first start listens on --mcp-port straight away, without trying the
   * configured port first; a later --mcp-port moves the running endpoint. */
  first_start = !self->backends_started;
  if (first_start)
    self->mcp_port = (guint) mcp_port;
  else if (mcp_port != 0)
    clarify_application_start_mcp_server (self, (guint) mcp_port);
  clarify_application_ensure_backends_started (self);

  for (guint i = 0; i < connections->len; i++)
    {
      ClarifyConnection *connection = g_ptr_array_index (connections, i);
      /* The first start just began every stored one, these too: a second
       * backend would replace the first and connect (and replay) again. */
      gboolean started = first_start &&
                         (clarify_inbox_lookup_backend (self->inbox, clarify_connection_get_name (connection)) != NULL ||
                          clarify_application_is_starting (self, clarify_connection_get_name (connection)));

      if (!started && !clarify_application_start_connection (self, connection, &error))
        {
          g_application_command_line_printerr (command_line, "clarify: %s\n", error->message);
          return 1;
        }
      g_application_command_line_print (command_line, _("Connecting to “%s” at %s.\n"),
                                        clarify_connection_get_name (connection),
                                        clarify_connection_get_url (connection));
    }

  if (demo && !clarify_application_start_demo (self, &error))
    {
      g_application_command_line_printerr (command_line, "clarify: %s\n", error->message);
      return 1;
    }

  if (list)
    print_connections (self, command_line);

  /* Connecting is done where the user typed it; the window shows the new
   * connection the next time it is opened. */
  if (!background && connections->len == 0)
    g_application_activate (application);

  return 0;
}

/* The running instance's side. */
static void
command_line_method_cb (GDBusConnection       *connection,
                        const char            *sender,
                        const char            *object_path,
                        const char            *interface_name,
                        const char            *method_name,
                        GVariant              *parameters,
                        GDBusMethodInvocation *invocation,
                        gpointer               user_data)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (user_data);
  GApplicationClass *app_class = G_APPLICATION_GET_CLASS (self);
  g_autoptr(GVariant) arguments = NULL;
  g_autoptr(GVariant) platform_data = NULL;
  g_autoptr(ClarifyCommandLine) command_line = NULL;
  int status;

  g_variant_get (parameters, "(@aay@a{sv})", &arguments, &platform_data);
  command_line = clarify_command_line_new (arguments, platform_data);

  /* As GApplication does for its own remote command lines (startup id). */
  app_class->before_emit (G_APPLICATION (self), platform_data);
  status = clarify_application_run_command_line (self, G_APPLICATION_COMMAND_LINE (command_line));
  app_class->after_emit (G_APPLICATION (self), platform_data);

  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(ssi)",
                                                        clarify_command_line_get_out (command_line),
                                                        clarify_command_line_get_err (command_line),
                                                        status));
}

gboolean
clarify_application_export_command_line (ClarifyApplication  *self,
                                         GDBusConnection     *connection,
                                         const char          *object_path,
                                         GError             **error)
{
  static const GDBusInterfaceVTable vtable = { command_line_method_cb, NULL, NULL, { 0 } };
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (command_line_xml, NULL);

  self->command_line_export_id =
    g_dbus_connection_register_object (connection, object_path, info->interfaces[0],
                                       &vtable, self, NULL, error);

  return self->command_line_export_id != 0;
}

void
clarify_application_unexport_command_line (ClarifyApplication *self,
                                           GDBusConnection    *connection)
{
  if (self->command_line_export_id != 0)
    g_dbus_connection_unregister_object (connection, self->command_line_export_id);
  self->command_line_export_id = 0;
}

/* The later instance's side: prints what the running one answered and
 * returns its status, or -1 to leave it to GApplication (a running
 * Clarify too old to have the method). */
int
clarify_application_run_remote (ClarifyApplication *self,
                                GVariantDict       *options)
{
  GApplication *application = G_APPLICATION (self);
  const char *argv0 = g_get_prgname () != NULL ? g_get_prgname () : "clarify";
  g_autofree char *cwd = g_get_current_dir ();
  g_auto(GVariantBuilder) platform_data = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *out, *err;
  int status;

  g_variant_builder_add (&platform_data, "{sv}", "cwd", g_variant_new_bytestring (cwd));
  g_variant_builder_add (&platform_data, "{sv}", "options", g_variant_dict_end (options));
  G_APPLICATION_GET_CLASS (application)->add_platform_data (application, &platform_data);

  reply = g_dbus_connection_call_sync (g_application_get_dbus_connection (application),
                                       g_application_get_application_id (application),
                                       g_application_get_dbus_object_path (application),
                                       COMMAND_LINE_INTERFACE, "Run",
                                       g_variant_new ("(^aay@a{sv})", (const char *[]) { argv0, NULL },
                                                      g_variant_builder_end (&platform_data)),
                                       G_VARIANT_TYPE ("(ssi)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                       -1, NULL, &error);
  if (reply == NULL)
    {
      if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
          g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE) ||
          g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT))
        return -1;
      g_printerr ("clarify: %s\n", error->message);
      return 1;
    }

  g_variant_get (reply, "(&s&si)", &out, &err, &status);
  g_print ("%s", out);
  g_printerr ("%s", err);

  return status;
}
