/* clarify-cli.c
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
#include "clarify-cli.h"
#include "clarify-cli-private.h"
#include "clarify-dbus-backend.h"
#include "clarify-mcp-server.h"
#include "clarify-secret.h"

/* ---------------------------------------------------------------------- */
/* D-Bus: the one way to the running app */

/* The app's Ask API. The proxy loads, watches and starts nothing itself:
 * the call auto-starts, so D-Bus activation launches the app if needed. */
#define APP_PROXY_FLAGS (G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |   \
                         G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS |   \
                         G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION)

ClarifyDbusApi *
clarify_cli_app_proxy_new (GError **error)
{
  return clarify_dbus_api_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION, APP_PROXY_FLAGS,
                                                  CLARIFY_DBUS_NAME, CLARIFY_DBUS_PATH,
                                                  NULL, error);
}

/* Does no I/O: the flags leave nothing to load. */
ClarifyDbusApi *
clarify_cli_app_proxy_new_on (GDBusConnection  *connection,
                              GError          **error)
{
  return clarify_dbus_api_proxy_new_sync (connection, APP_PROXY_FLAGS,
                                          CLARIFY_DBUS_NAME, CLARIFY_DBUS_PATH,
                                          NULL, error);
}

/* No call timeout: the user may take as long as the request allows. */
void
clarify_cli_ask_app_async (ClarifyDbusApi      *app,
                           const char          *request_json,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  clarify_dbus_api_call_ask (app, request_json, G_DBUS_CALL_FLAGS_NONE, G_MAXINT,
                             cancellable, callback, user_data);
}

char *
clarify_cli_ask_app_finish (GObject       *proxy,
                            GAsyncResult  *result,
                            GError       **error)
{
  char *response_json = NULL;

  if (!clarify_dbus_api_call_ask_finish (CLARIFY_DBUS_API (proxy), &response_json, result, error))
    return NULL;

  return response_json;
}

typedef struct
{
  GCancellable *cancellable;
  gboolean      seen;
} OwnerWatch;

static void
owner_watch_free (gpointer data)
{
  OwnerWatch *watch = data;

  g_object_unref (watch->cancellable);
  g_free (watch);
}

static void
owner_appeared_cb (GDBusConnection *bus,
                   const char      *name,
                   const char      *owner,
                   gpointer         data)
{
  ((OwnerWatch *) data)->seen = TRUE;
}

static void
owner_vanished_cb (GDBusConnection *bus,
                   const char      *name,
                   gpointer         data)
{
  OwnerWatch *watch = data;

  /* Not yet owned (activation may still start it) is not "gone". */
  if (watch->seen)
    g_cancellable_cancel (watch->cancellable);
}

guint
clarify_cli_watch_owner (GDBusConnection *bus,
                         GCancellable    *cancellable)
{
  OwnerWatch *watch = g_new0 (OwnerWatch, 1);

  watch->cancellable = g_object_ref (cancellable);
  return g_bus_watch_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                         owner_appeared_cb, owner_vanished_cb,
                                         watch, owner_watch_free);
}

gboolean
clarify_cli_is_owner_gone (const GError *error)
{
  /* Cancelled by the watch, or the bus's own word for a peer that died
   * with our call unanswered (there is no call timeout to cause it). */
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY);
}

GStrv
clarify_cli_args_new (const char  *name,
                      int          argc,
                      char       **argv)
{
  GStrv args = g_new0 (char *, MAX (argc, 1) + 1);

  args[0] = g_strdup (name);
  for (int i = 1; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  return args;
}

/* ---------------------------------------------------------------------- */
/* clarify --mcp-info */

static int
run_mcp_info (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = clarify_mcp_server_ensure_token (&error);
  g_autofree char *url = NULL;
  guint interval = CLARIFY_ASK_USER_PROGRESS_INTERVAL_MS;

  if (token == NULL)
    {
      g_printerr (_("Cannot read or create the MCP access token: %s\n"), error->message);
      return 1;
    }

  url = g_strdup_printf ("http://127.0.0.1:%u" CLARIFY_MCP_PATH, clarify_mcp_server_get_configured_port ());

  /* The user asked for the token: this is its one place to be shown. */
  g_print (_("MCP endpoint: %s\n"), url);
  g_print (_("Token: %s\n"), token);
  g_print ("\n");
  g_print (_("OpenCode (opencode.json):\n"));
  g_print ("{\n"
           "  \"mcp\": {\n"
           "    \"clarify\": {\n"
           "      \"type\": \"remote\",\n"
           "      \"url\": \"%s\",\n"
           "      \"headers\": { \"Authorization\": \"Bearer %s\" }\n"
           "    }\n"
           "  }\n"
           "}\n", url, token);
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
  g_print (_("Hosts that only start stdio servers: clarify mcp-stdio (the same\n"
             "progress, and no token).\n"));

  return 0;
}

/* ---------------------------------------------------------------------- */
/* clarify set-password NAME */

static gboolean
is_connection_name (const char *name)
{
  if (name == NULL || *name == '\0')
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
        return FALSE;
    }

  return TRUE;
}

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

static int
run_set_password (int    argc,
                  char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  g_autofree char *label = NULL;
  char *password;
  gboolean ok;

  if (argc != 2 || !is_connection_name (argv[1]))
    {
      g_printerr ("%s\n", _("Usage: clarify set-password NAME (the password is read from standard input; an empty one removes it)"));
      return CLARIFY_CLI_EXIT_BAD_ARGS;
    }

  key = g_strdup_printf ("connection:%s", argv[1]);
  password = read_secret_line ();
  if (password == NULL || *password == '\0')
    {
      clarify_secret_free (password);
      ok = clarify_secret_clear (key, &error);
      if (ok)
        g_print (_("Removed the password of “%s”.\n"), argv[1]);
    }
  else
    {
      /* Translators: the label of the stored password in the user's keyring */
      label = g_strdup_printf (_("Clarify: password of “%s”"), argv[1]);
      ok = clarify_secret_store (key, label, password, &error);
      clarify_secret_free (password);
      if (ok)
        g_print (_("Stored the password of “%s”. Restart the connection to use it.\n"), argv[1]);
    }

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

  if (argc < 2 || argv[1] == NULL)
    return FALSE;

  if (g_str_equal (argv[1], "ask"))
    *exit_status = clarify_cli_run_ask (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "chat"))
    *exit_status = clarify_chat_cli_run (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "hook"))
    *exit_status = clarify_cli_run_hook (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "mcp-stdio"))
    *exit_status = clarify_cli_run_mcp_stdio (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "setup"))
    *exit_status = clarify_cli_run_setup (argv[0], argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "--mcp-info"))
    *exit_status = run_mcp_info ();
  else if (g_str_equal (argv[1], "set-password"))
    *exit_status = run_set_password (argc - 1, argv + 1);
  else
    return FALSE;

  return TRUE;
}
