/* clarify-application.c
 *
 * One process serves every connection: it runs a backend per connection,
 * turns each request into a dialog without stealing focus from the one the
 * user is answering, and posts the answers back through the outbox.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#if HAVE_LIBPORTAL
#include <libportal-gtk4/portal-gtk4.h>
#endif

#include "clarify-backend-registry.h"
#include "clarify-connection-store.h"
#include "clarify-dbus-backend.h"
#include "clarify-demo-agent.h"
#include "clarify-error.h"
#include "clarify-mcp-server.h"
#include "clarify-outbox.h"
#include "clarify-application-private.h"
#include "clarify-request-row.h"
#include "clarify-tray.h"
#include "clarify-window.h"

#define DEMO_CONNECTION_NAME "Demo"
#define DEMO_CONNECTION_KIND "clarify"
#define NOTIFICATION_SUMMARY_CHARS 80

/* A request waiting for the user, with the dialog that asks it. */
typedef struct
{
  ClarifyApplication   *app;      /* unowned */
  char                 *key;
  ClarifyBackend       *backend;  /* NULL: the caller of present_request() answers */
  ClarifyRequest       *request;
  ClarifyRequestDialog *dialog;   /* weak; GTK owns it until it is destroyed */
  gboolean              notified;
} PendingEntry;

struct _ClarifyApplication
{
  AdwApplication          parent_instance;

  ClarifyConnectionStore *store;
  GListStore             *backends;   /* ClarifyBackend, by connection name */
  GHashTable             *temporary;  /* names of connections not in the store */
  GListStore             *requests;   /* ClarifyRequest waiting for the user */
  GHashTable             *entries;    /* key → PendingEntry */
  GQueue                  queue;      /* PendingEntry behind the active dialog */
  ClarifyOutbox          *outbox;
  ClarifyDemoAgent       *demo_agent;
  /* The Ask API for scripts: requests like any agent's, but no connection
   * to list, and nothing to keep the process alive for (D-Bus activation
   * starts it again). */
  ClarifyBackend         *dbus_backend;

  ClarifyWindow          *window;     /* weak */
  ClarifyRequestDialog   *presenting; /* weak: presented, focus not yet seen */
  ClarifyTray            *tray;       /* NULL without a session bus */

  guint                   backends_started : 1;
  guint                   held : 1;
  guint                   background_requested : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyApplication, clarify_application, ADW_TYPE_APPLICATION)

static ClarifyRequestDialog *present_entry (ClarifyApplication *self,
                                            PendingEntry       *entry);

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
  { "mcp-port", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Serve the MCP endpoint on this port for this run"), N_("PORT") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show the version and exit"), NULL },
  { NULL }
};

static ClarifyWindow *
ensure_window (ClarifyApplication *self);

/* Helpers */

static const char *
connection_name_of (ClarifyBackend *backend)
{
  return clarify_connection_get_name (clarify_backend_get_connection (backend));
}

static gboolean
find_backend (ClarifyApplication *self,
              const char         *name,
              guint              *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->backends));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (G_LIST_MODEL (self->backends), i);

      if (g_strcmp0 (connection_name_of (backend), name) == 0)
        {
          *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

static int
compare_backends (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  return g_utf8_collate (connection_name_of ((ClarifyBackend *) a),
                         connection_name_of ((ClarifyBackend *) b));
}

static gboolean
is_clarify_dialog_blocking (ClarifyApplication *self,
                            GtkWindow          *window)
{
  if (!CLARIFY_IS_REQUEST_DIALOG (window) || !gtk_widget_get_visible (GTK_WIDGET (window)))
    return FALSE;

  /* Right after gtk_window_present() the window manager has not focused the
   * dialog yet; it still counts as the one the user is about to answer. */
  return gtk_window_is_active (window) || window == GTK_WINDOW (self->presenting);
}

static gboolean
has_blocking_dialog (ClarifyApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (is_clarify_dialog_blocking (self, l->data))
        return TRUE;
    }

  return FALSE;
}

static gboolean
has_active_window (ClarifyApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (gtk_widget_get_visible (l->data) && gtk_window_is_active (l->data))
        return TRUE;
    }

  return FALSE;
}

/* Tells the user something that is not tied to a dialog: a toast when the
 * main window is on screen, a notification otherwise. */
static void
tell_user (ClarifyApplication *self,
           const char         *notification_id,
           const char         *text)
{
  if (self->window != NULL && gtk_widget_get_visible (GTK_WIDGET (self->window)))
    {
      clarify_window_show_toast (self->window, text);
    }
  else
    {
      g_autoptr(GNotification) notification = g_notification_new (text);

      g_notification_set_default_action (notification, "app.show-window");
      g_application_send_notification (G_APPLICATION (self), notification_id, notification);
    }
}

/* Staying alive in the background */

#if HAVE_LIBPORTAL
static void
request_background_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!xdp_portal_request_background_finish (XDP_PORTAL (object), result, &error))
    g_message ("Running in the background was not allowed: %s", error->message);
}

static void
request_background (ClarifyApplication *self)
{
  g_autoptr(XdpPortal) portal = NULL;
  g_autoptr(GPtrArray) commandline = NULL;
  XdpParent *parent = NULL;

  if (self->background_requested || !xdp_portal_running_under_flatpak ())
    return;

  self->background_requested = TRUE;
  portal = xdp_portal_new ();
  commandline = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (commandline, g_strdup ("clarify"));
  g_ptr_array_add (commandline, g_strdup ("--background"));

  if (self->window != NULL)
    parent = xdp_parent_new_gtk (GTK_WINDOW (self->window));

  xdp_portal_request_background (portal, parent,
                                 _("Clarify keeps listening to your agents and shows their questions."),
                                 commandline,
                                 XDP_BACKGROUND_FLAG_AUTOSTART,
                                 NULL, request_background_cb, NULL);
  g_clear_pointer (&parent, xdp_parent_free);
}
#endif

/* Each connection needs the process: hold it while any backend runs. */
static void
update_hold (ClarifyApplication *self)
{
  gboolean want = g_list_model_get_n_items (G_LIST_MODEL (self->backends)) > 0;

  if (want == self->held)
    return;

  self->held = want;
  if (want)
    {
      g_application_hold (G_APPLICATION (self));
#if HAVE_LIBPORTAL
      request_background (self);
#endif
    }
  else
    {
      g_application_release (G_APPLICATION (self));
    }
}

/* Notifications */

static void
send_request_notification (ClarifyApplication *self,
                           PendingEntry       *entry)
{
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *title = NULL;
  const char *text = clarify_request_row_summarize (entry->request);
  const char *connection = clarify_request_get_connection_name (entry->request);

  if (g_utf8_strlen (text, -1) > NOTIFICATION_SUMMARY_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (text, 0, NOTIFICATION_SUMMARY_CHARS - 1);

      summary = g_strconcat (cut, "…", NULL);
    }
  else
    {
      summary = g_strdup (text);
    }

  /* Only the title: notification bodies may be read as markup by some
   * servers, and agent text must never be. */
  /* Translators: "<connection> asks: <question>", in a notification */
  title = g_strdup_printf (_("%s asks: %s"), connection ? connection : "", summary);
  notification = g_notification_new (title);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_notification_set_default_action_and_target (notification, "app.open-request", "s", entry->key);
  g_application_send_notification (G_APPLICATION (self), entry->key, notification);
  entry->notified = TRUE;
}

/* Pending entries */

static void
pending_entry_free (PendingEntry *entry)
{
  if (entry->notified)
    g_application_withdraw_notification (G_APPLICATION (entry->app), entry->key);

  g_signal_handlers_disconnect_by_data (entry->request, entry);
  if (entry->dialog != NULL)
    g_signal_handlers_disconnect_by_data (entry->dialog, entry);

  g_clear_weak_pointer (&entry->dialog);
  g_clear_object (&entry->request);
  g_clear_object (&entry->backend);
  g_free (entry->key);
  g_free (entry);
}

/* Forgets @entry; with @close_dialog its dialog goes too, unless it is on
 * screen (a dialog on screen closes itself when it is done). */
static void
finish_entry (ClarifyApplication *self,
              PendingEntry       *entry,
              gboolean            close_dialog)
{
  ClarifyRequestDialog *dialog = entry->dialog;
  guint position;

  /* Out of the queue first: closing the dialog presents the next one. */
  g_queue_remove (&self->queue, entry);
  if (g_list_store_find (self->requests, entry->request, &position))
    g_list_store_remove (self->requests, position);

  g_hash_table_remove (self->entries, entry->key);

  if (close_dialog && dialog != NULL && !gtk_widget_get_visible (GTK_WIDGET (dialog)))
    gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
present_next_queued (ClarifyApplication *self)
{
  PendingEntry *entry;

  if (has_blocking_dialog (self))
    return;

  entry = g_queue_pop_head (&self->queue);
  if (entry != NULL)
    present_entry (self, entry);
}

static void
dialog_response_cb (ClarifyRequestDialog *dialog,
                    ClarifyResponse      *response,
                    PendingEntry         *entry)
{
  ClarifyApplication *self = entry->app;

  if (entry->backend != NULL)
    clarify_outbox_post (self->outbox, entry->backend, entry->request, response);

  finish_entry (self, entry, FALSE);
}

static void
dialog_is_active_cb (ClarifyRequestDialog *dialog,
                     GParamSpec           *pspec,
                     ClarifyApplication   *self)
{
  if (gtk_window_is_active (GTK_WINDOW (dialog)) && self->presenting == dialog)
    g_clear_weak_pointer (&self->presenting);
}

static void
dialog_closed (ClarifyApplication   *self,
               ClarifyRequestDialog *dialog)
{
  if (self->presenting == dialog)
    g_clear_weak_pointer (&self->presenting);

  present_next_queued (self);
}

static void
dialog_visible_cb (ClarifyRequestDialog *dialog,
                   GParamSpec           *pspec,
                   ClarifyApplication   *self)
{
  if (!gtk_widget_get_visible (GTK_WIDGET (dialog)))
    dialog_closed (self, dialog);
}

/* gtk_window_destroy() does not notify :visible, so both are watched. */
static void
dialog_destroy_cb (ClarifyRequestDialog *dialog,
                   ClarifyApplication   *self)
{
  dialog_closed (self, dialog);
}

static void
entry_dialog_destroy_cb (ClarifyRequestDialog *dialog,
                         PendingEntry         *entry)
{
  /* The request stays pending without its dialog; the list reopens it. */
  g_signal_handlers_disconnect_by_data (dialog, entry);
  g_clear_weak_pointer (&entry->dialog);
}

static void
request_withdrawn_cb (ClarifyRequest *request,
                      const char     *reason,
                      PendingEntry   *entry)
{
  /* A dialog on screen shows the reason and closes itself; one still
   * waiting in the queue just goes. */
  finish_entry (entry->app, entry, TRUE);
}

static ClarifyRequestDialog *
ensure_dialog (ClarifyApplication *self,
               PendingEntry       *entry)
{
  if (entry->dialog != NULL)
    return entry->dialog;

  g_set_weak_pointer (&entry->dialog, clarify_request_dialog_new (GTK_APPLICATION (self), entry->request));
  g_signal_connect (entry->dialog, "response", G_CALLBACK (dialog_response_cb), entry);
  g_signal_connect (entry->dialog, "destroy", G_CALLBACK (entry_dialog_destroy_cb), entry);
  g_signal_connect_object (entry->dialog, "notify::visible",
                           G_CALLBACK (dialog_visible_cb), self, 0);
  g_signal_connect_object (entry->dialog, "notify::is-active",
                           G_CALLBACK (dialog_is_active_cb), self, 0);
  g_signal_connect_object (entry->dialog, "destroy",
                           G_CALLBACK (dialog_destroy_cb), self, 0);

  return entry->dialog;
}

/* Returns the dialog on screen, or NULL when the request ended instead
 * (then @entry is freed). */
static ClarifyRequestDialog *
present_entry (ClarifyApplication *self,
               PendingEntry       *entry)
{
  ClarifyRequestDialog *dialog;
  gint64 deadline = clarify_request_get_deadline (entry->request);

  g_queue_remove (&self->queue, entry);

  /* It timed out while it waited in the queue. */
  if (deadline != 0 && deadline <= g_get_monotonic_time () && entry->backend != NULL)
    {
      g_autoptr(ClarifyResponse) response =
        clarify_response_new (clarify_request_get_id (entry->request), CLARIFY_OUTCOME_TIMED_OUT);

      clarify_outbox_post (self->outbox, entry->backend, entry->request, response);
      finish_entry (self, entry, TRUE);
      present_next_queued (self);
      return NULL;
    }

  dialog = ensure_dialog (self, entry);
  g_set_weak_pointer (&self->presenting, dialog);
  gtk_window_present (GTK_WINDOW (dialog));

  return dialog;
}

static PendingEntry *
add_entry (ClarifyApplication *self,
           ClarifyBackend     *backend,
           ClarifyRequest     *request)
{
  PendingEntry *entry = g_new0 (PendingEntry, 1);

  entry->app = self;
  entry->key = clarify_application_dup_request_key (request);
  entry->backend = backend ? g_object_ref (backend) : NULL;
  entry->request = g_object_ref (request);
  g_signal_connect (request, "withdrawn", G_CALLBACK (request_withdrawn_cb), entry);

  g_hash_table_insert (self->entries, entry->key, entry);
  g_list_store_append (self->requests, request);

  return entry;
}

static void
remove_entries_of_backend (ClarifyApplication *self,
                           ClarifyBackend     *backend)
{
  GHashTableIter iter;
  PendingEntry *entry;
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    {
      if (entry->backend == backend)
        g_ptr_array_add (gone, entry);
    }

  /* Out of the queue first, so that closing one does not present another. */
  for (guint i = 0; i < gone->len; i++)
    g_queue_remove (&self->queue, g_ptr_array_index (gone, i));

  for (guint i = 0; i < gone->len; i++)
    {
      ClarifyRequestDialog *dialog;

      entry = g_ptr_array_index (gone, i);
      dialog = entry->dialog;
      finish_entry (self, entry, FALSE);
      if (dialog != NULL)
        gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

/* Backends */

static void
backend_request_added_cb (ClarifyBackend     *backend,
                          ClarifyRequest     *request,
                          ClarifyApplication *self)
{
  clarify_application_present_request (self, backend, request);
}

static void
backend_confirmed_cb (ClarifyBackend     *backend,
                      const char         *request_id,
                      const char         *summary,
                      ClarifyApplication *self)
{
  g_autofree char *text = NULL;

  if (summary == NULL || *summary == '\0')
    return;

  g_message ("%s received: %s", connection_name_of (backend), summary);
  /* Translators: "<connection> received: <what the agent says it understood>" */
  text = g_strdup_printf (_("%s received: %s"), connection_name_of (backend), summary);
  tell_user (self, "confirmed", text);
}

static void
outbox_delivered_cb (ClarifyOutbox      *outbox,
                     ClarifyRequest     *request,
                     ClarifyResponse    *response,
                     ClarifyApplication *self)
{
  g_debug ("Delivered the answer to %s of %s",
           clarify_request_get_id (request),
           clarify_request_get_connection_name (request));
}

static void
outbox_failed_cb (ClarifyOutbox      *outbox,
                  ClarifyRequest     *request,
                  ClarifyResponse    *response,
                  const GError       *error,
                  ClarifyApplication *self)
{
  g_autofree char *key = clarify_application_dup_request_key (request);
  g_autofree char *notification_id = g_strconcat ("failed\x1f", key, NULL);
  g_autofree char *text = NULL;

  g_message ("Could not deliver the answer to %s of %s: %s",
             clarify_request_get_id (request),
             clarify_request_get_connection_name (request),
             error->message);

  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE))
    text = g_strdup (_("Already answered elsewhere"));
  else
    /* Translators: the first %s is a connection name, the second an error message */
    text = g_strdup_printf (_("Could not send your answer to %s: %s"),
                            clarify_request_get_connection_name (request),
                            error->message);

  tell_user (self, notification_id, text);
}

static void
remove_backend_at (ClarifyApplication *self,
                   guint               position)
{
  g_autoptr(ClarifyBackend) backend = g_list_model_get_item (G_LIST_MODEL (self->backends), position);

  g_signal_handlers_disconnect_by_data (backend, self);
  clarify_backend_stop (backend);
  remove_entries_of_backend (self, backend);
  g_hash_table_remove (self->temporary, connection_name_of (backend));
  g_list_store_remove (self->backends, position);
}

static void
add_backend (ClarifyApplication *self,
             ClarifyBackend     *backend,
             gboolean            temporary)
{
  const char *name = connection_name_of (backend);
  guint position;

  if (find_backend (self, name, &position))
    remove_backend_at (self, position);

  g_signal_connect_object (backend, "request-added",
                           G_CALLBACK (backend_request_added_cb), self, 0);
  /* Backends whose agents confirm what they got (the "clarify" kind). */
  if (g_signal_lookup ("confirmed", G_OBJECT_TYPE (backend)) != 0)
    g_signal_connect_object (backend, "confirmed",
                             G_CALLBACK (backend_confirmed_cb), self, 0);

  if (temporary)
    g_hash_table_add (self->temporary, g_strdup (name));

  g_list_store_insert_sorted (self->backends, backend, compare_backends, NULL);
  update_hold (self);
  clarify_backend_start (backend);
}

static gboolean
start_connection (ClarifyApplication  *self,
                  ClarifyConnection   *connection,
                  GError             **error)
{
  g_autoptr(ClarifyBackend) backend = clarify_backend_registry_create (connection, error);

  if (backend == NULL)
    return FALSE;

  add_backend (self, backend, FALSE);
  return TRUE;
}

/* The ask_user endpoint for MCP clients, listed like a connection. */
static void
start_mcp_server (ClarifyApplication *self,
                  guint               port_override)
{
  g_autoptr(ClarifyBackend) mcp = NULL;

  if (port_override == 0 && !clarify_mcp_server_get_configured_enabled ())
    return;

  mcp = clarify_mcp_server_new_default (port_override);
  add_backend (self, mcp, TRUE);
}

static void
ensure_backends_started (ClarifyApplication *self)
{
  GListModel *connections;
  guint n;

  if (self->backends_started)
    return;

  self->backends_started = TRUE;
  connections = clarify_connection_store_get_connections (self->store);
  n = g_list_model_get_n_items (connections);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyConnection) connection = g_list_model_get_item (connections, i);
      g_autoptr(GError) error = NULL;

      if (!start_connection (self, connection, &error))
        g_warning ("Cannot start connection “%s”: %s",
                   clarify_connection_get_name (connection), error->message);
    }

  start_mcp_server (self, 0);
}

/* Windows */

static void
main_window_visible_cb (ClarifyWindow      *window,
                        GParamSpec         *pspec,
                        ClarifyApplication *self)
{
  /* With nothing to listen to, a hidden window would only keep an idle
   * process alive. */
  if (!gtk_widget_get_visible (GTK_WIDGET (window)) &&
      g_list_model_get_n_items (G_LIST_MODEL (self->backends)) == 0 &&
      g_hash_table_size (self->entries) == 0)
    gtk_window_destroy (GTK_WINDOW (window));
}

static ClarifyWindow *
ensure_window (ClarifyApplication *self)
{
  if (self->window == NULL)
    {
      g_set_weak_pointer (&self->window, clarify_window_new (self));
      g_signal_connect_object (self->window, "notify::visible",
                               G_CALLBACK (main_window_visible_cb), self, 0);
    }

  return self->window;
}

static void
update_demo_action (ClarifyApplication *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "demo");

  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->demo_agent == NULL);
}

/* Command line */

static void
print_connections (ClarifyApplication      *self,
                   GApplicationCommandLine *command_line)
{
  GListModel *connections = clarify_connection_store_get_connections (self->store);
  guint n_stored = g_list_model_get_n_items (connections);
  guint n_running = g_list_model_get_n_items (G_LIST_MODEL (self->backends));
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < n_running; i++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (G_LIST_MODEL (self->backends), i);
      g_autofree char *spec = clarify_connection_to_spec (clarify_backend_get_connection (backend));
      ClarifyConnectionState connection_state = clarify_backend_get_state (backend);
      const char *message = clarify_backend_get_state_message (backend);
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
      if (g_hash_table_contains (self->temporary, connection_name_of (backend)))
        g_string_append_printf (out, "\t%s", _("temporary"));
      g_string_append_c (out, '\n');
    }

  /* Stored connections this process does not run (it only answers --list). */
  for (guint i = 0; i < n_stored; i++)
    {
      g_autoptr(ClarifyConnection) connection = g_list_model_get_item (connections, i);
      g_autofree char *spec = NULL;
      guint position;

      if (find_backend (self, clarify_connection_get_name (connection), &position))
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

static gboolean
disconnect (ClarifyApplication  *self,
            const char          *name,
            GError             **error)
{
  gboolean known = FALSE;
  guint position;

  if (clarify_connection_store_remove (self->store, name))
    {
      known = TRUE;
      if (!clarify_connection_store_save (self->store, error))
        return FALSE;
    }

  if (find_backend (self, name, &position))
    {
      known = TRUE;
      remove_backend_at (self, position);
    }

  if (g_strcmp0 (name, DEMO_CONNECTION_NAME) == 0 && self->demo_agent != NULL)
    {
      clarify_demo_agent_stop (self->demo_agent);
      g_clear_object (&self->demo_agent);
      update_demo_action (self);
    }

  if (!known)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("There is no connection named “%s”."), name);
      return FALSE;
    }

  update_hold (self);
  return TRUE;
}

static int
clarify_application_command_line (GApplication            *application,
                                  GApplicationCommandLine *command_line)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autofree const char **connect_specs = NULL;
  g_autofree const char **disconnect_names = NULL;
  g_autoptr(GPtrArray) connections = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean list = g_variant_dict_contains (options, "list");
  gboolean demo = g_variant_dict_contains (options, "demo");
  gboolean background = g_variant_dict_contains (options, "background");
  gint mcp_port = 0;
  g_autoptr(GError) error = NULL;

  g_variant_dict_lookup (options, "connect", "^a&s", &connect_specs);
  g_variant_dict_lookup (options, "disconnect", "^a&s", &disconnect_names);

  if (g_variant_dict_lookup (options, "mcp-port", "i", &mcp_port) &&
      (mcp_port < 1 || mcp_port > 65535))
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
      if (!disconnect (self, disconnect_names[i], &error))
        {
          g_application_command_line_printerr (command_line, "clarify: %s\n", error->message);
          return g_error_matches (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE) ? CLARIFY_EXIT_USAGE : 1;
        }
      g_application_command_line_print (command_line, _("Removed connection “%s”.\n"), disconnect_names[i]);
    }

  for (guint i = 0; i < connections->len; i++)
    {
      ClarifyConnection *connection = g_ptr_array_index (connections, i);

      clarify_connection_store_add (self->store, connection);
      if (!clarify_connection_store_save (self->store, &error))
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

  ensure_backends_started (self);
  if (mcp_port != 0)
    start_mcp_server (self, (guint) mcp_port);

  for (guint i = 0; i < connections->len; i++)
    {
      ClarifyConnection *connection = g_ptr_array_index (connections, i);

      if (!start_connection (self, connection, &error))
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

  if (!background)
    g_application_activate (application);

  return 0;
}

static int
clarify_application_handle_local_options (GApplication *application,
                                          GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("clarify %s\n", PACKAGE_VERSION);
      return 0;
    }

  return -1;
}

/* Actions */

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  static const char *developers[] = { "The Clarify Authors", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", ensure_window (self),
                        "application-icon", APP_ID,
                        "application-name", _("Clarify"),
                        "developer-name", _("The Clarify Authors"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Answer your AI agents’ questions in native dialogs"),
                        "website", "https://github.com/clarify/clarify",
                        "issue-url", "https://github.com/clarify/clarify/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© 2026 The Clarify Authors",
                        "developers", developers,
                        /* Translators: your names, one per line */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
demo_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!clarify_application_start_demo (self, &error))
    tell_user (self, "demo-failed", error->message);
}

static void
show_window_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  g_application_activate (G_APPLICATION (user_data));
}

static void
open_request_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  PendingEntry *entry = g_hash_table_lookup (self->entries, g_variant_get_string (parameter, NULL));

  /* A notification may outlive its request. */
  if (entry == NULL)
    {
      g_application_activate (G_APPLICATION (self));
      return;
    }

  /* The user asked for this one: it goes first. */
  present_entry (self, entry);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
  { "demo", demo_action },
  { "show-window", show_window_action },
  { "open-request", open_request_action, "s" },
};

/* GApplication */

static gboolean
clarify_application_dbus_register (GApplication     *application,
                                   GDBusConnection  *connection,
                                   const char       *object_path,
                                   GError          **error)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);

  if (!G_APPLICATION_CLASS (clarify_application_parent_class)->dbus_register (application, connection,
                                                                              object_path, error))
    return FALSE;

  self->dbus_backend = clarify_dbus_backend_new (connection, object_path);
  g_signal_connect_object (self->dbus_backend, "request-added",
                           G_CALLBACK (backend_request_added_cb), self, 0);
  clarify_backend_start (self->dbus_backend);

  return TRUE;
}

static void
clarify_application_dbus_unregister (GApplication    *application,
                                     GDBusConnection *connection,
                                     const char      *object_path)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);

  if (self->dbus_backend != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->dbus_backend, self);
      clarify_backend_stop (self->dbus_backend);
      remove_entries_of_backend (self, self->dbus_backend);
      g_clear_object (&self->dbus_backend);
    }

  G_APPLICATION_CLASS (clarify_application_parent_class)->dbus_unregister (application, connection, object_path);
}

static void
clarify_application_startup (GApplication *application)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);
  static const char *quit_accels[] = { "<Control>q", NULL };
  g_autoptr(GError) error = NULL;

  G_APPLICATION_CLASS (clarify_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);

  /* The tray icon, on desktops that show one. */
  if (g_application_get_dbus_connection (application) != NULL)
    self->tray = clarify_tray_new (g_application_get_dbus_connection (application),
                                   G_ACTION_GROUP (self), G_LIST_MODEL (self->requests));

  if (!clarify_connection_store_load (self->store, &error))
    g_warning ("Cannot read the stored connections: %s", error->message);

  /* D-Bus activation (--gapplication-service) brings no command line. */
  if (g_application_get_flags (application) & G_APPLICATION_IS_SERVICE)
    ensure_backends_started (self);
}

static void
clarify_application_activate (GApplication *application)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);

  ensure_backends_started (self);
  gtk_window_present (GTK_WINDOW (ensure_window (self)));
}

static void
clarify_application_shutdown (GApplication *application)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);

  g_clear_object (&self->tray);
  while (g_list_model_get_n_items (G_LIST_MODEL (self->backends)) > 0)
    remove_backend_at (self, 0);
  update_hold (self);

  if (self->demo_agent != NULL)
    clarify_demo_agent_stop (self->demo_agent);

  G_APPLICATION_CLASS (clarify_application_parent_class)->shutdown (application);
}

static void
clarify_application_dispose (GObject *object)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (object);

  g_queue_clear (&self->queue);
  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_weak_pointer (&self->window);
  g_clear_weak_pointer (&self->presenting);
  g_clear_object (&self->tray);
  g_clear_object (&self->demo_agent);
  g_clear_object (&self->dbus_backend);
  g_clear_object (&self->outbox);
  g_clear_object (&self->requests);
  g_clear_object (&self->backends);
  g_clear_pointer (&self->temporary, g_hash_table_unref);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (clarify_application_parent_class)->dispose (object);
}

static void
clarify_application_class_init (ClarifyApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = clarify_application_dispose;

  app_class->startup = clarify_application_startup;
  app_class->activate = clarify_application_activate;
  app_class->command_line = clarify_application_command_line;
  app_class->handle_local_options = clarify_application_handle_local_options;
  app_class->shutdown = clarify_application_shutdown;
  app_class->dbus_register = clarify_application_dbus_register;
  app_class->dbus_unregister = clarify_application_dbus_unregister;
}

static void
clarify_application_init (ClarifyApplication *self)
{
  g_autofree char *known_kinds = NULL;
  g_autofree const char **kinds = clarify_backend_registry_list_kinds ();
  g_autofree char *description = NULL;

  self->store = clarify_connection_store_new (NULL);
  self->backends = g_list_store_new (CLARIFY_TYPE_BACKEND);
  self->temporary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->requests = g_list_store_new (CLARIFY_TYPE_REQUEST);
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) pending_entry_free);
  g_queue_init (&self->queue);

  self->outbox = clarify_outbox_new ();
  g_signal_connect_object (self->outbox, "delivered", G_CALLBACK (outbox_delivered_cb), self, 0);
  g_signal_connect_object (self->outbox, "failed", G_CALLBACK (outbox_failed_cb), self, 0);

  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Shows the questions of AI agents as native dialogs."));
  known_kinds = g_strjoinv (", ", (char **) kinds);
  /* Translators: %s is a list of connection kinds, e.g. "clarify, opencode" */
  description = g_strdup_printf (_("Connection kinds: %s\n"
                                   "\n"
                                   "Examples:\n"
                                   "  clarify --demo\n"
                                   "  clarify --connect work=opencode:http://127.0.0.1:4096\n"
                                   "  clarify ask --question \"Deploy now?\" --type confirm"),
                                 known_kinds);
  g_application_set_option_context_description (G_APPLICATION (self), description);
}

/* Public API */

ClarifyApplication *
clarify_application_new (void)
{
  return g_object_new (CLARIFY_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", APP_PATH,
                       NULL);
}

GListModel *
clarify_application_get_backends (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return G_LIST_MODEL (self->backends);
}

ClarifyBackend *
clarify_application_lookup_backend (ClarifyApplication *self,
                                    const char         *name)
{
  ClarifyBackend *backend;
  guint position;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  if (!find_backend (self, name, &position))
    return NULL;

  /* The list store keeps it alive. */
  backend = g_list_model_get_item (G_LIST_MODEL (self->backends), position);
  g_object_unref (backend);
  return backend;
}

GListModel *
clarify_application_get_requests (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return G_LIST_MODEL (self->requests);
}

void
clarify_application_add_backend (ClarifyApplication *self,
                                 ClarifyBackend     *backend)
{
  g_return_if_fail (CLARIFY_IS_APPLICATION (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));

  add_backend (self, backend, TRUE);
}

void
clarify_application_remove_backend (ClarifyApplication *self,
                                    ClarifyBackend     *backend)
{
  guint position;

  g_return_if_fail (CLARIFY_IS_APPLICATION (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));

  if (g_list_store_find (self->backends, backend, &position))
    {
      remove_backend_at (self, position);
      update_hold (self);
    }
}

ClarifyRequestDialog *
clarify_application_present_request (ClarifyApplication *self,
                                     ClarifyBackend     *backend,
                                     ClarifyRequest     *request)
{
  g_autofree char *key = NULL;
  PendingEntry *entry;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (backend == NULL || CLARIFY_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  key = clarify_application_dup_request_key (request);
  entry = g_hash_table_lookup (self->entries, key);
  if (entry != NULL)
    return present_entry (self, entry);

  if (clarify_request_is_withdrawn (request))
    return NULL;

  entry = add_entry (self, backend, request);
  ensure_dialog (self, entry);

  if (has_blocking_dialog (self))
    {
      /* Never steal the focus from the question being answered. */
      g_queue_push_tail (&self->queue, entry);
      send_request_notification (self, entry);
    }
  else
    {
      /* The user is elsewhere: the dialog alone could go unnoticed. */
      if (!has_active_window (self))
        send_request_notification (self, entry);
      return present_entry (self, entry);
    }

  return entry->dialog;
}

ClarifyConnection *
clarify_application_parse_connect_spec (const char  *spec,
                                        GError     **error)
{
  g_autoptr(ClarifyConnection) connection = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  connection = clarify_connection_new_from_spec (spec, error);
  if (connection == NULL)
    return NULL;

  if (clarify_backend_registry_lookup (clarify_connection_get_kind (connection)) == NULL)
    {
      g_autofree const char **kinds = clarify_backend_registry_list_kinds ();
      g_autofree char *known = g_strjoinv (", ", (char **) kinds);

      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: the first %s is a connection kind, the second a list of them */
                   _("Unknown connection kind “%s”. Known kinds: %s."),
                   clarify_connection_get_kind (connection), known);
      return NULL;
    }

  return g_steal_pointer (&connection);
}

gboolean
clarify_application_start_demo (ClarifyApplication  *self,
                                GError             **error)
{
  g_autoptr(ClarifyDemoAgent) agent = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), FALSE);

  if (self->demo_agent != NULL)
    return TRUE;

  agent = clarify_demo_agent_new ();
  if (!clarify_demo_agent_start (agent, error))
    return FALSE;

  connection = clarify_connection_new (DEMO_CONNECTION_NAME, DEMO_CONNECTION_KIND,
                                       clarify_demo_agent_get_events_url (agent));
  backend = clarify_backend_registry_create (connection, error);
  if (backend == NULL)
    {
      clarify_demo_agent_stop (agent);
      return FALSE;
    }

  self->demo_agent = g_steal_pointer (&agent);
  update_demo_action (self);
  add_backend (self, backend, TRUE);

  return TRUE;
}

char *
clarify_application_dup_request_key (ClarifyRequest *request)
{
  const char *connection;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  connection = clarify_request_get_connection_name (request);
  return g_strconcat (connection ? connection : "", "\x1f", clarify_request_get_id (request), NULL);
}

ClarifyDemoAgent *
clarify_application_get_demo_agent (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return self->demo_agent;
}

guint
clarify_application_get_n_queued (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), 0);

  return g_queue_get_length (&self->queue);
}
