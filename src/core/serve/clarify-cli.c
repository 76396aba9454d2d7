/* clarify-cli.c: the commands that need the whole core (clarify-tools)
 *
 * `clarify ask` and `clarify hook` are in clarify-cli-client.c, which
 * `clarify` itself links.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

#include "clarify-ask-user.h"
#include "clarify-chat-cli.h"
#include "clarify-dbus-backend.h"
#include "clarify-cli.h"
#include "clarify-cli-private.h"
#include "clarify-found-agent.h"
#include "clarify-mcp-server.h"
#include "clarify-mcp-token.h"
#include "clarify-secret.h"

/* ---------------------------------------------------------------------- */
/* clarify --mcp-info */

/* The entry "Add Clarify" writes into opencode.json, in its place there. */
static void
print_opencode_config (const char *url,
                       const char *token)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;
  JsonObject *servers = json_object_new ();
  JsonObject *config = json_object_new ();

  json_object_set_member (servers, "clarify", clarify_found_agent_mcp_entry ("opencode", url, token));
  json_object_set_object_member (config, "mcp", servers);
  json_node_take_object (root, config);

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

/* The port the running Clarify serves the endpoint on, or 0 when none runs
 * (never started for this: the answer is about now). */
static guint
running_mcp_port (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) value = NULL;

  if (bus == NULL)
    return 0;

  reply = g_dbus_connection_call_sync (bus, CLARIFY_DBUS_NAME, CLARIFY_DBUS_PATH,
                                       "org.freedesktop.DBus.Properties", "Get",
                                       g_variant_new ("(ss)", CLARIFY_DBUS_NAME, "McpPort"),
                                       G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                       2000, NULL, NULL);
  if (reply == NULL)
    return 0;

  g_variant_get (reply, "(v)", &value);

  return g_variant_is_of_type (value, G_VARIANT_TYPE_UINT16) ? g_variant_get_uint16 (value) : 0;
}

static int
run_mcp_info (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *url = NULL;
  guint interval = CLARIFY_ASK_USER_PROGRESS_INTERVAL_MS;
  guint configured;
  guint serving;

  /* Kept in the running Clarify's memory only: a token made here would be
   * one its endpoint refuses. */
  if (clarify_secret_get_fallback () == CLARIFY_SECRET_FALLBACK_MEMORY)
    {
      token = clarify_secret_lookup (CLARIFY_MCP_TOKEN_KEY, &error);
      if (token == NULL && error == NULL)
        {
          g_printerr (_("Clarify keeps its MCP token in memory only (no keyring answers, and secrets\n"
                        "are not to be stored in a file), so no other program can show it. Clients\n"
                        "that start stdio servers can run “clarify mcp-stdio”, which needs no token.\n"));
          return 1;
        }
    }
  else
    {
      token = clarify_mcp_token_ensure (&error);
    }

  if (token == NULL)
    {
      g_printerr (_("Cannot read or create the MCP access token: %s\n"), error->message);
      return 1;
    }

  configured = clarify_mcp_config_get_port ();
  serving = running_mcp_port ();
  url = g_strdup_printf ("http://127.0.0.1:%u" CLARIFY_MCP_PATH, serving != 0 ? serving : configured);

  /* The user asked for the token: this is its one place to be shown. */
  g_print (_("MCP endpoint: %s\n"), url);
  if (serving != 0 && serving != configured)
    g_print (_("(Clarify serves on port %u for this run, not on its configured port %u:\n"
               "clients set up with this address lose it when Clarify starts again.)\n"),
             serving, configured);
  g_print (_("Token: %s\n"), token);
  g_print ("\n");
  g_print (_("OpenCode (opencode.json):\n"));
  print_opencode_config (url, token);
  /* Translators: the numbers are seconds and milliseconds */
  g_print (_("OpenCode waits for the answer as long as Clarify reports progress,\n"
             "every %u seconds while the dialog is open. A \"timeout\" (ms) set for\n"
             "this server applies to each request: leave it out, or keep it above %u.\n"),
           interval / 1000, interval + 5000);
  g_print ("\n");
  g_print (_("Claude Code:\n"));
  g_print ("claude mcp add --transport http clarify %s --header \"Authorization: Bearer %s\"\n", url, token);
  g_print (_("Claude Code waits as long as Clarify reports progress; without it, it\n"
             "gives up after 300 seconds (CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT, in ms).\n"
             "MCP_TOOL_TIMEOUT and a per-server \"timeout\" are limits that progress\n"
             "does not extend: leave them unset, or above the longest question you\n"
             "allow (ask_user's timeout, at most 30 minutes).\n"));
  g_print (_("After 120 seconds (Claude Code 2.1.332), Claude Code moves a call that\n"
             "is still running to the background: the model gets a placeholder, and\n"
             "your answer only later, as a background-task notification that Claude\n"
             "Code tells it is not your input. To keep the answer in the tool's\n"
             "result, set CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS=0 in Claude Code's\n"
             "environment, or in the \"env\" of its settings.json.\n"));
  g_print ("\n");
  g_print (_("Other clients of the MCP TypeScript SDK wait 60 seconds unless they\n"
             "call the tool with onprogress and resetTimeoutOnProgress: true, or\n"
             "with a longer timeout.\n"));
  g_print ("\n");
  /* In a Flatpak the host starts it through flatpak run, as the hooks. */
  g_print (_("Hosts that only start stdio servers run this command (the same\n"
             "progress, and no token):\n"));
  g_print ("  %s\n", g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS)
                      ? "flatpak run --command=clarify " APP_ID " mcp-stdio" : "clarify mcp-stdio");

  return 0;
}

/* ---------------------------------------------------------------------- */
/* clarify set-password NAME */

/* One line from stdin; on a terminal without echo, so the password stays
 * off the screen and out of the shell history. */
static char *
read_secret_line (void)
{
  gboolean tty = isatty (STDIN_FILENO);
  struct termios saved, quiet;
  char buffer[4096];
  char *line;

  if (tty)
    {
      g_printerr (_("Password: "));
      tcgetattr (STDIN_FILENO, &saved);
      quiet = saved;
      quiet.c_lflag &= ~(tcflag_t) ECHO;
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
    }

  line = fgets (buffer, sizeof buffer, stdin);

  if (tty)
    {
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved);
      g_printerr ("\n");
    }

  if (line == NULL)
    return NULL;

  buffer[strcspn (buffer, "\r\n")] = '\0';
  line = g_strdup (buffer);
  explicit_bzero (buffer, sizeof buffer);

  return line;
}

typedef enum
{
  HANDED_OVER,
  NOT_RUNNING,     /* or a Clarify too old to take it */
  HAND_OVER_FAILED,
} HandOver;

/* How long the running Clarify may take to store it: its keyring may ask
 * to be unlocked first. */
#define HAND_OVER_TIMEOUT_MS 60000

/* While Clarify runs, the password goes to it, and only to it: a call on
 * its bus name, never starting it. It stores the password with its own
 * secret store and reconnects at once (in a Flatpak a store made here
 * would reach it only after a restart: libsecret there reads its keyring
 * file once per process). */
static HandOver
hand_to_running (const char  *name,
                 const char  *password,
                 gboolean    *reconnected,
                 GError     **error)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(ClarifyDbusApi) app = NULL;
  g_autoptr(GError) local_error = NULL;

  /* No session bus: no Clarify to reach either. */
  if (bus == NULL)
    return NOT_RUNNING;

  app = clarify_cli_app_proxy_new_on (bus, error);
  if (app == NULL)
    return HAND_OVER_FAILED;

  if (clarify_dbus_api_call_set_password_sync (app, name, password, G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                               HAND_OVER_TIMEOUT_MS, reconnected, NULL, &local_error))
    return HANDED_OVER;

  if (g_error_matches (local_error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
      g_error_matches (local_error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
      g_error_matches (local_error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD))
    return NOT_RUNNING;

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                         _("The running Clarify did not confirm the password in time: "
                           "its keyring may wait to be unlocked, or be stuck."));
  else
    {
      g_dbus_error_strip_remote_error (local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
    }

  return HAND_OVER_FAILED;
}

static int
run_set_password (int    argc,
                  char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  g_autofree char *label = NULL;
  const char *name = argv[1];
  gboolean reconnected = FALSE;
  gboolean removing;
  char *password;
  HandOver hand_over;
  gboolean ok;

  const char *usage = _("Usage: clarify set-password NAME (the password is read from standard input; an empty one removes it)");

  if (argc == 2 && (g_str_equal (name, "--help") || g_str_equal (name, "-h")))
    {
      g_print ("%s\n", usage);
      return 0;
    }
  /* An option is never a name: "--help" must not read a password for it. */
  if (argc != 2 || name[0] == '-' || !clarify_connection_name_is_valid (name))
    {
      g_printerr ("%s\n", usage);
      return CLARIFY_CLI_EXIT_BAD_ARGS;
    }

  password = read_secret_line ();
  removing = password == NULL || *password == '\0';

  hand_over = hand_to_running (name, removing ? "" : password, &reconnected, &error);
  if (hand_over == HANDED_OVER)
    {
      clarify_secret_free (password);
      if (removing)
        g_print (_("Removed the password of “%s”.\n"), name);
      else if (reconnected)
        g_print (_("Stored the password of “%s”; Clarify reconnects with it now.\n"), name);
      else
        g_print (_("Stored the password of “%s”.\n"), name);
      return 0;
    }
  if (hand_over == HAND_OVER_FAILED)
    {
      clarify_secret_free (password);
      g_printerr ("clarify: %s\n", error->message);
      return 1;
    }

  key = clarify_secret_connection_key (name);
  if (removing)
    {
      ok = clarify_secret_clear (key, &error);
      if (ok)
        g_print (_("Removed the password of “%s”.\n"), name);
    }
  else
    {
      label = clarify_secret_connection_label (name);
      ok = clarify_secret_store (key, label, password, &error);
      if (ok)
        g_print (_("Stored the password of “%s”. Clarify uses it from its next start.\n"), name);
    }
  clarify_secret_free (password);

  if (!ok)
    {
      g_printerr ("clarify: %s\n", error->message);
      return 1;
    }

  return 0;
}

gboolean
clarify_cli_handle (int    argc,
                    char **argv,
                    int   *exit_status)
{
  g_return_val_if_fail (exit_status != NULL, FALSE);

  if (clarify_cli_handle_client (argc, argv, exit_status))
    return TRUE;

  if (!clarify_cli_is_core_command (argv[1]))
    return FALSE;

  if (g_str_equal (argv[1], "chat"))
    *exit_status = clarify_chat_cli_run (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "mcp-stdio"))
    *exit_status = clarify_cli_run_mcp_stdio (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "setup"))
    *exit_status = clarify_cli_run_setup (argv[0], argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "--mcp-info"))
    *exit_status = run_mcp_info ();
  else if (g_str_equal (argv[1], "set-password"))
    *exit_status = run_set_password (argc - 1, argv + 1);
  else
    g_return_val_if_reached (FALSE);

  return TRUE;
}
