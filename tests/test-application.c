/* test-application.c: the application shell, in-process and as a second instance
 *
 * The tests share one registered ClarifyApplication, the way a session has one
 * Clarify: the empty window, then `clarify --demo` sent from a second process,
 * the demo's questions answered through the dialogs' widgets, a second request
 * that must wait (with a notification) behind the dialog being answered, and
 * the command line of a second instance. A fake org.gtk.Notifications server on
 * the test's session bus records what the app notifies.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clarify-test-app.h"
#include "clarify-test-dbus.h"
#include "clarify-test-inbox.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-window.h"

#include "clarify-backend-registry.h"
#include "clarify-json.h"
#include "clarify-mcp-listener.h"
#include "clarify-mcp-server.h"
#include "clarify-application-private.h"
#include "clarify-connection-row.h"
#include "clarify-input.h"
#include "clarify-request-dialog-private.h"
#include "clarify-request-row.h"
#include "clarify-text-input.h"
#include "clarify-backend-state.h"
#include "clarify-test-backend.h"
#include "clarify-window.h"

#define WAIT_MS 15000

/* The shared application */

static ClarifyApplication *app;

static void
ensure_app (void)
{
  g_autoptr(GError) error = NULL;

  if (app != NULL)
    return;

  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
}

static ClarifyWindow *
find_main_window (void)
{
  return (ClarifyWindow *) clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_WINDOW, NULL);
}

static ClarifyRequestDialog *
find_dialog (const char *request_id)
{
  return clarify_test_find_request_dialog (GTK_APPLICATION (app), request_id);
}

static gboolean
dialog_is_shown (gpointer data)
{
  ClarifyRequestDialog *dialog = find_dialog (data);

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static ClarifyRequestDialog *
wait_for_dialog (const char *request_id)
{
  g_test_message ("waiting for the dialog of %s", request_id);
  g_assert_true (clarify_test_wait_until (dialog_is_shown, (gpointer) request_id, WAIT_MS));
  clarify_test_present_and_wait (GTK_WINDOW (find_dialog (request_id)));

  return find_dialog (request_id);
}

static void
type_text (ClarifyRequestDialog *dialog,
           guint                 position,
           const char           *text)
{
  ClarifyInput *input = clarify_request_dialog_get_input (dialog, position);

  clarify_test_set_field_text (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (input)), text);
}

static void
click_submit (ClarifyRequestDialog *dialog)
{
  GtkWidget *submit = clarify_test_find_button (GTK_WIDGET (dialog), "Submit");

  g_assert_nonnull (submit);
  g_assert_true (clarify_request_dialog_is_submit_sensitive (dialog));
  g_signal_emit_by_name (submit, "clicked");
}

static char *
response_json (ClarifyResponse *response)
{
  g_autoptr(JsonNode) node = clarify_response_to_json (response);

  return clarify_json_to_string (node);
}

/* What the demo agent received, in order */

static GPtrArray *received_json;

static void
demo_received_cb (ClarifyDemoAgent *agent,
                  const char       *request_id,
                  ClarifyResponse  *response,
                  const char       *summary,
                  gpointer          user_data)
{
  g_ptr_array_add (received_json, response_json (response));
}

static gboolean
n_received_reached (gpointer data)
{
  return received_json->len >= GPOINTER_TO_UINT (data);
}

/* Running the real binary, as a user would from a terminal */

typedef struct
{
  gboolean  done;
  char     *out;
  char     *err;
  int       status;
} RunResult;

static void
run_result_clear (RunResult *result)
{
  g_clear_pointer (&result->out, g_free);
  g_clear_pointer (&result->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunResult, run_result_clear)

static void
communicate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  RunResult *run = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_exit_status (G_SUBPROCESS (object));
  run->done = TRUE;
}

/* Starts the real binary with @input (NULL: none) on its stdin; the main
 * loop must run until @run->done: a second instance hands its command line
 * to the app in this process. */
static void
run_clarify_start_with_input (RunResult          *run,
                              const char * const *args,
                              const char         *input)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new ((input != NULL ? G_SUBPROCESS_FLAGS_STDIN_PIPE : 0) |
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *binary = g_test_build_filename (G_TEST_BUILT, "..", "src", "clarify", NULL);

  /* The children share this process' private config dir (see main()). */
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "en", TRUE);

  g_ptr_array_add (argv, binary);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);

  memset (run, 0, sizeof *run);
  g_subprocess_communicate_utf8_async (process, input, NULL, communicate_cb, run);
}

static void
run_clarify_start (RunResult          *run,
                   const char * const *args)
{
  run_clarify_start_with_input (run, args, NULL);
}

static void
run_clarify_finish (RunResult *run)
{
  g_assert_true (clarify_test_wait_until (clarify_test_dbus_is_true, &run->done, WAIT_MS));
  g_test_message ("clarify → %d\nstdout: %s\nstderr: %s", run->status, run->out, run->err);
}

static void
run_clarify (RunResult          *run,
             const char * const *args)
{
  run_clarify_start (run, args);
  run_clarify_finish (run);
}

/* Tests */

static guint configured_mcp_port;   /* the port in the private mcp.ini */

static gboolean
port_accepts (gpointer data)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection =
    g_socket_client_connect_to_host (client, "127.0.0.1", GPOINTER_TO_UINT (data), NULL, NULL);

  return connection != NULL;
}

static void
run_exited_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  RunResult *run = user_data;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &run->out, &run->err, NULL);
  run->done = TRUE;
}

/* `clarify --mcp-port N` listens on N first: the configured port, held here
 * by someone else, is never tried (it used to be, and the log said it was
 * busy). The child has no session bus, so it is a first instance of its own. */
static void
test_mcp_port_first (void)
{
  g_autoptr(GSocketListener) holder = g_socket_listener_new ();
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *binary = g_test_build_filename (G_TEST_BUILT, "..", "src", "clarify", NULL);
  g_autofree char *port_arg = NULL;
  g_autofree char *held = NULL;
  g_auto(RunResult) run = { 0, };
  guint port = clarify_test_free_port ();

  g_assert_true (g_socket_listener_add_inet_port (holder, configured_mcp_port, NULL, &error));
  g_assert_no_error (error);
  port_arg = g_strdup_printf ("--mcp-port=%u", port);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "en", TRUE);
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, binary, port_arg, "--background", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, run_exited_cb, &run);

  g_assert_true (clarify_test_wait_until (port_accepts, GUINT_TO_POINTER (port), WAIT_MS));
  g_subprocess_send_signal (process, SIGTERM);
  g_assert_true (clarify_test_wait_until (clarify_test_dbus_is_true, &run.done, WAIT_MS));
  g_test_message ("stderr: %s", run.err);

  held = g_strdup_printf ("127.0.0.1:%u", configured_mcp_port);
  g_assert_null (strstr (run.err, held));
  g_socket_listener_close (holder);
}

static void
check_bad_command_lines (void)
{
  g_auto(RunResult) run = { 0, };

  run_clarify (&run, (const char *[]) { "--connect", "no-spec-here", NULL });
  g_assert_cmpint (run.status, ==, CLARIFY_EXIT_USAGE);
  g_assert_nonnull (strstr (run.err, "NAME=KIND:URL"));
  run_result_clear (&run);

  run_clarify (&run, (const char *[]) { "--connect", "x=nosuchkind:http://127.0.0.1:9/events", NULL });
  g_assert_cmpint (run.status, ==, CLARIFY_EXIT_USAGE);
  g_assert_nonnull (strstr (run.err, "“nosuchkind”"));
  /* The message lists the kinds that do exist. */
  g_assert_nonnull (strstr (run.err, "clarify"));
  run_result_clear (&run);

  /* A typo once opened the window and exited 0. */
  run_clarify (&run, (const char *[]) { "bogus", NULL });
  g_assert_cmpint (run.status, ==, CLARIFY_EXIT_USAGE);
  g_assert_nonnull (strstr (run.err, "Unknown command “bogus”"));
  run_result_clear (&run);

  /* 0 once passed unseen, and a word failed with GLib's own message. */
  for (guint i = 0; i < 3; i++)
    {
      const char *ports[] = { "--mcp-port=0", "--mcp-port=abc", "--mcp-port=65536" };

      run_clarify (&run, (const char *[]) { ports[i], "--background", NULL });
      g_assert_cmpint (run.status, ==, CLARIFY_EXIT_USAGE);
      g_assert_nonnull (strstr (run.err, "--mcp-port takes a port from 1 to 65535"));
      run_result_clear (&run);
    }

  run_clarify (&run, (const char *[]) { "--disconnect", "nobody", NULL });
  g_assert_cmpint (run.status, ==, CLARIFY_EXIT_USAGE);
  g_assert_nonnull (strstr (run.err, "“nobody”"));
}

static void
test_command_line_first_instance (void)
{
  g_auto(RunResult) run = { 0, };

  g_assert_null (app);

  check_bad_command_lines ();

  run_clarify (&run, (const char *[]) { "--help", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "--connect=NAME=KIND:URL"));
  g_assert_nonnull (strstr (run.out, "--demo"));
  g_assert_nonnull (strstr (run.out, "--disconnect=NAME"));
  /* The commands that are no options are named too (they were not). */
  for (const char * const *command = (const char * const []) { "clarify ask ", "clarify setup claude-code ",
                                                               "clarify hook claude-code ", "clarify mcp-stdio ",
                                                               "clarify set-password NAME ", "clarify chat ",
                                                               "clarify --mcp-info ", NULL };
       *command != NULL; command++)
    g_assert_nonnull (strstr (run.out, *command));
  run_result_clear (&run);

  run_clarify (&run, (const char *[]) { "--version", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "clarify " PACKAGE_VERSION "\n");
}

static void
test_parse_connect_spec (void)
{
  g_autoptr(ClarifyConnection) good = NULL;
  g_autoptr(ClarifyConnection) bad_kind = NULL;
  g_autoptr(ClarifyConnection) bad_syntax = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree const char **kinds = clarify_backend_registry_list_kinds ();

  good = clarify_application_parse_connect_spec ("work=clarify:http://127.0.0.1:4096/events", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (clarify_connection_get_name (good), ==, "work");
  g_assert_cmpstr (clarify_connection_get_kind (good), ==, "clarify");

  bad_kind = clarify_application_parse_connect_spec ("work=smoke-signals:http://127.0.0.1:1/", &error);
  g_assert_null (bad_kind);
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  for (guint i = 0; kinds[i] != NULL; i++)
    g_assert_nonnull (strstr (error->message, kinds[i]));
  g_clear_error (&error);

  bad_syntax = clarify_application_parse_connect_spec ("work", &error);
  g_assert_null (bad_syntax);
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* The names of Clarify's own questions: such a connection replaced them
   * ("Claude Code", with its space, is no connection name anyway). */
  for (guint i = 0; i < 2; i++)
    {
      const char *specs[] = { "MCP=opencode:http://127.0.0.1:1", "D-Bus=clarify:http://127.0.0.1:1/" };
      g_autoptr(ClarifyConnection) builtin = clarify_application_parse_connect_spec (specs[i], &error);

      g_assert_null (builtin);
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      g_assert_true (g_str_has_suffix (error->message, "is the name of Clarify’s own questions; please choose another name."));
      g_clear_error (&error);
    }
}

static gboolean
mcp_listening (gpointer data)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (app, "MCP");

  return backend != NULL &&
         clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_CONNECTED;
}

/* The endpoint starts with the backends, on the first activation; a test
 * run alone (-p) has had none. */
static ClarifyMcpServer *
ensure_mcp_listening (void)
{
  ensure_app ();
  clarify_application_ensure_backends_started (app);
  g_assert_true (clarify_test_wait_until (mcp_listening, NULL, WAIT_MS));

  return CLARIFY_MCP_SERVER (clarify_application_lookup_backend (app, "MCP"));
}

static void
test_empty_window (void)
{
  ClarifyWindow *window;
  GtkWidget *stack;
  g_autofree char *shot = NULL;

  ensure_app ();
  g_assert_cmpuint (g_list_model_get_n_items (clarify_application_get_backends (app)), ==, 0);

  g_application_activate (G_APPLICATION (app));
  window = find_main_window ();
  g_assert_nonnull (window);
  clarify_test_present_and_wait (GTK_WINDOW (window));

  stack = clarify_test_find_widget (GTK_WIDGET (window), "stack");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  g_assert_nonnull (clarify_test_find_button (GTK_WIDGET (window), "_Try the Demo"));

  shot = clarify_test_save_screenshot (GTK_WIDGET (window), "main-window-empty-en");
  g_assert_nonnull (shot);

  /* The MCP endpoint is serving, which is not an agent connection of the
   * user's: still the empty page. Closing only hides the window, since the
   * endpoint keeps Clarify running. */
  g_assert_true (clarify_test_wait_until (mcp_listening, NULL, WAIT_MS));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  gtk_widget_activate_action (GTK_WIDGET (window), "window.close", NULL);
  g_assert_true (find_main_window () == window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window)));
}

static ClarifyConnectionRow *
find_connection_row (const char *name)
{
  return clarify_test_find_connection_row (GTK_APPLICATION (app), name);
}

static gboolean
connection_row_shown (gpointer data)
{
  return find_connection_row (data) != NULL;
}

static gboolean
demo_row_connected (gpointer data)
{
  ClarifyConnectionRow *row = find_connection_row ("Demo");

  return row != NULL && g_strcmp0 (clarify_connection_row_get_state_text (row), "Connected") == 0;
}

static void
test_demo (void)
{
  g_auto(RunResult) run = { 0, };
  g_auto(GStrv) log = NULL;
  ClarifyRequestDialog *dialog;
  ClarifyDemoAgent *agent;
  ClarifyBackend *backend;
  gboolean confirmed = FALSE;

  ensure_app ();

  /* A second `clarify --demo` hands its command line to this process. */
  run_clarify (&run, (const char *[]) { "--demo", NULL });
  g_assert_cmpint (run.status, ==, 0);

  agent = clarify_application_get_demo_agent (app);
  g_assert_nonnull (agent);
  g_signal_connect (agent, "received", G_CALLBACK (demo_received_cb), NULL);

  backend = clarify_application_lookup_backend (app, "Demo");
  g_assert_nonnull (backend);
  g_assert_cmpstr (clarify_connection_get_kind (clarify_backend_get_connection (backend)), ==, "clarify");
  g_assert_nonnull (find_main_window ());
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (find_main_window ())));
  g_assert_true (clarify_test_wait_until (demo_row_connected, NULL, WAIT_MS));

  /* The first question opens its dialog; answer it through the widgets. */
  dialog = wait_for_dialog ("demo-project-name");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (clarify_application_get_inbox (app))), ==, 1);
  type_text (dialog, 0, "my-app");
  clarify_test_log_start ();
  click_submit (dialog);

  g_assert_true (clarify_test_wait_until (n_received_reached, GUINT_TO_POINTER (1), WAIT_MS));
  g_assert_cmpstr (g_ptr_array_index (received_json, 0), ==,
                   "{\"id\":\"demo-project-name\",\"outcome\":\"answered\","
                   "\"answers\":[{\"question_id\":\"project-name\",\"values\":[\"my-app\"]}]}");

  /* The next question follows, and the agent's confirmation was logged. */
  dialog = wait_for_dialog ("demo-database");
  g_assert_nonnull (dialog);
  log = clarify_test_log_stop ();
  for (guint i = 0; log[i] != NULL; i++)
    {
      /* Captured means expected: a warning here is still a failure. */
      g_assert_false (g_str_has_prefix (log[i], "WARNING: "));
      if (g_str_has_prefix (log[i], "MESSAGE: Demo received: "))
        confirmed = TRUE;
    }
  g_assert_true (confirmed);
  g_assert_null (find_dialog ("demo-project-name"));
}

static void
store_result_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
result_arrived (gpointer data)
{
  GAsyncResult **result = data;

  return *result != NULL;
}

/* The running app serves ask_user to MCP clients, with its token. */
static void
test_mcp_endpoint (void)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *authorization = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  ClarifyBackend *backend;
  const char *request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";

  backend = CLARIFY_BACKEND (ensure_mcp_listening ());
  url = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (backend));
  g_assert_nonnull (url);
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));

  token = clarify_mcp_token_ensure (&error);
  g_assert_no_error (error);
  authorization = g_strdup_printf ("Bearer %s", token);

  message = soup_message_new ("POST", url);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", authorization);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json, text/event-stream");
  body = g_bytes_new_static (request, strlen (request));
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  /* The endpoint lives on this thread's main loop: ask asynchronously. */
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL,
                                    store_result_cb, &result);
  g_assert_true (clarify_test_wait_until (result_arrived, &result, WAIT_MS));
  reply = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  g_assert_nonnull (strstr (g_bytes_get_data (reply, NULL), "\"name\":\"ask_user\""));

  /* A connection named MCP, or removing "MCP", no longer ends it. */
  {
    g_auto(RunResult) run = { 0, };

    run_clarify (&run, (const char *[]) { "--connect", "MCP=opencode:http://127.0.0.1:1", NULL });
    g_assert_cmpint (run.status, ==, CLARIFY_EXIT_USAGE);
    g_assert_nonnull (strstr (run.err, "“MCP” is the name of Clarify’s own questions"));
    run_result_clear (&run);
    run_clarify (&run, (const char *[]) { "--disconnect", "MCP", NULL });
    g_assert_cmpint (run.status, ==, CLARIFY_EXIT_USAGE);
    g_assert_true (clarify_application_lookup_backend (app, "MCP") == backend);
    g_assert_true (mcp_listening (NULL));
    run_result_clear (&run);

    /* One stored under such a name before names were checked can go;
     * Clarify's own stays. */
    {
      g_autoptr(ClarifyConnection) stored = clarify_connection_new ("D-Bus", "opencode", "http://127.0.0.1:1");
      ClarifyBackend *own = clarify_application_lookup_backend (app, "D-Bus");

      g_assert_true (clarify_application_keep_connection (app, stored, NULL));
      g_assert_nonnull (clarify_connection_store_lookup (app->store, "D-Bus"));
      run_clarify (&run, (const char *[]) { "--disconnect", "D-Bus", NULL });
      g_assert_cmpint (run.status, ==, 0);
      g_assert_null (clarify_connection_store_lookup (app->store, "D-Bus"));
      g_assert_true (clarify_application_lookup_backend (app, "D-Bus") == own);
    }
  }
}

static gboolean
mcp_serves_on (gpointer data)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (app, "MCP");

  return CLARIFY_IS_MCP_SERVER (backend) &&
         clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (backend)) == GPOINTER_TO_UINT (data);
}

/* `clarify --mcp-info` gives the address the running Clarify serves, also
 * when a later `clarify --mcp-port` moved it for this run. */
static void
test_mcp_info (void)
{
  g_auto(RunResult) run = { 0, };
  guint moved = clarify_test_free_port ();
  g_autofree char *configured_line = g_strdup_printf ("MCP endpoint: http://127.0.0.1:%u/mcp\n", configured_mcp_port);
  g_autofree char *moved_line = g_strdup_printf ("MCP endpoint: http://127.0.0.1:%u/mcp\n", moved);
  g_autofree char *moved_arg = g_strdup_printf ("--mcp-port=%u", moved);
  g_autofree char *configured_arg = g_strdup_printf ("--mcp-port=%u", configured_mcp_port);

  ensure_mcp_listening ();
  run_clarify (&run, (const char *[]) { "--mcp-info", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, configured_line));
  g_assert_null (strstr (run.out, "for this run"));
  run_result_clear (&run);

  run_clarify (&run, (const char *[]) { moved_arg, "--background", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (clarify_test_wait_until (mcp_serves_on, GUINT_TO_POINTER (moved), WAIT_MS));
  run_result_clear (&run);
  run_clarify (&run, (const char *[]) { "--mcp-info", NULL });
  g_assert_true (g_str_has_prefix (run.out, moved_line));
  g_assert_nonnull (strstr (run.out, "for this run"));
  run_result_clear (&run);

  /* Back where the tests after this one expect it. */
  run_clarify (&run, (const char *[]) { configured_arg, "--background", NULL });
  g_assert_true (clarify_test_wait_until (mcp_serves_on, GUINT_TO_POINTER (configured_mcp_port), WAIT_MS));
}

static gboolean
mcp_port_taken (gpointer data)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (app, "MCP");
  const char *error = backend != NULL ? clarify_backend_get_error_text (backend) : NULL;

  return error != NULL && strstr (error, "in use") != NULL;
}

/* The endpoint's listening socket is lost while another program holds its
 * port: `clarify --list` and the window's row both say that MCP clients
 * cannot get in, and why, until the socket is made again on that port. */
static void
test_mcp_listener_lost (void)
{
  ClarifyBackend *backend;
  ClarifyConnectionRow *row;
  ClarifyWindow *window;
  g_auto(RunResult) run = { 0, };
  g_autofree char *reason = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *state = NULL;
  g_autofree char *shot = NULL;
  g_autoptr(GError) error = NULL;
  int squatter;
  guint port, moved_to;

  backend = CLARIFY_BACKEND (ensure_mcp_listening ());
  port = clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (backend));
  g_assert_cmpint (shutdown (g_socket_get_fd (clarify_mcp_listener_get_socket (
                     clarify_mcp_server_get_listener (CLARIFY_MCP_SERVER (backend)))), SHUT_RDWR), ==, 0);
  squatter = clarify_test_hold_port (port);
  g_assert_true (clarify_test_wait_until (mcp_port_taken, NULL, WAIT_MS));

  run_clarify (&run, (const char *[]) { "--list", NULL });
  g_assert_cmpint (run.status, ==, 0);
  reason = g_strdup_printf ("Cannot listen on 127.0.0.1:%u for MCP clients: ", port);
  expected = g_strdup_printf ("MCP=mcp:http://127.0.0.1:%u/mcp\tconnecting (%s", port, reason);
  g_test_message ("--list: %s", run.out);
  g_assert_nonnull (strstr (run.out, expected));
  run_result_clear (&run);

  g_application_activate (G_APPLICATION (app));
  window = find_main_window ();
  clarify_test_present_and_wait (GTK_WINDOW (window));
  row = find_connection_row ("MCP");
  g_assert_nonnull (row);
  /* The address once, and the reason as the system gives it. */
  state = g_strconcat (reason, "Address already in use", NULL);
  g_assert_cmpstr (clarify_connection_row_get_state_text (row), ==, state);
  shot = clarify_test_save_screenshot (GTK_WIDGET (window), "main-window-mcp-lost-en");
  g_assert_nonnull (shot);

  /* The port free again: the endpoint listens on it, and says so. */
  close (squatter);
  g_assert_true (clarify_test_wait_until (mcp_listening, NULL, 4 * WAIT_MS));
  g_assert_cmpuint (clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (backend)), ==, port);
  run_clarify (&run, (const char *[]) { "--list", NULL });
  g_assert_nonnull (strstr (run.out, "/mcp\tconnected"));
  run_result_clear (&run);

  /* Moved (Preferences): --list gives the port it listens on now. */
  moved_to = clarify_test_free_port ();
  g_assert_true (clarify_mcp_server_set_port (CLARIFY_MCP_SERVER (backend), moved_to, &error));
  g_assert_no_error (error);
  run_clarify (&run, (const char *[]) { "--list", NULL });
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("MCP=mcp:http://127.0.0.1:%u/mcp\tconnected", moved_to);
  g_test_message ("--list: %s", run.out);
  g_assert_nonnull (strstr (run.out, expected));
  g_assert_true (clarify_mcp_server_set_port (CLARIFY_MCP_SERVER (backend), port, &error));
  g_assert_no_error (error);
  gtk_widget_set_visible (GTK_WIDGET (window), FALSE);
}

static ClarifyRequest *
new_test_request (const char *id)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question =
    clarify_question_new ("branch", CLARIFY_QUESTION_KIND_TEXT, "Which branch should I merge into?");

  clarify_request_set_context (request, "Two branches look like release branches.");
  clarify_request_add_question (request, question);

  return request;
}

static gboolean
test_backend_answered (gpointer data)
{
  return clarify_test_backend_get_response (CLARIFY_TEST_BACKEND (data)) != NULL;
}

static ClarifyRequestRow *
find_request_row (const char *request_id)
{
  return clarify_test_find_request_row (GTK_WIDGET (find_main_window ()), request_id);
}

static void
take_main_window_screenshot (const char *language)
{
  ClarifyWindow *window;
  g_autofree char *name = g_strdup_printf ("main-window-%s", language);
  g_autofree char *shot = NULL;

  /* Strings are set when widgets are built: a new window speaks @language. */
  clarify_test_set_language (language);
  if ((window = find_main_window ()) != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
  g_application_activate (G_APPLICATION (app));
  window = find_main_window ();
  clarify_test_present_and_wait (GTK_WINDOW (window));
  shot = clarify_test_save_screenshot (GTK_WIDGET (window), name);
  g_assert_nonnull (shot);
  clarify_test_set_language ("en");
}

static void
test_second_request_waits (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) request = new_test_request ("t-1");
  g_autoptr(GRegex) time_left = g_regex_new ("^[45]:[0-5][0-9] left$", 0, 0, NULL);
  g_autoptr(GRegex) time_left_de = g_regex_new ("^noch [45]:[0-5][0-9]$", 0, 0, NULL);
  ClarifyRequestRow *row;
  GtkWidget *heading;
  g_autofree char *key = NULL;
  g_autofree char *answer = NULL;
  ClarifyRequestDialog *database, *queued;
  GVariant *notification;
  const char *title = NULL, *body = NULL, *action = NULL;
  g_autoptr(GVariant) target = NULL;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();
  database = wait_for_dialog ("demo-database");

  clarify_application_add_backend (app, backend);
  clarify_request_set_timeout_ms (request, 5 * 60 * 1000);
  g_assert_true (clarify_backend_add_request (backend, request));
  key = clarify_inbox_dup_key (request);
  g_assert_cmpstr (key, ==, "Tests\x1ft-1");

  /* It waits: the dialog being answered keeps the focus, and a request in
   * line is data, not widgets, until its turn comes … */
  g_assert_null (find_dialog ("t-1"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (database)));
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (clarify_application_get_inbox (app))), ==, 2);

  /* … the dialog on screen says one more waits … */
  g_assert_cmpstr (clarify_request_dialog_get_waiting_text (database), ==, "1 more question is waiting");

  /* … and once the user is in another program, a notification says who
   * asks and what, and opens it when clicked. */
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, key, WAIT_MS));
  notification = g_hash_table_lookup (clarify_test_notifications_shown, key);
  g_assert_true (g_variant_lookup (notification, "title", "&s", &title));
  g_assert_cmpstr (title, ==, "Tests asks");
  g_assert_true (g_variant_lookup (notification, "body", "&s", &body));
  g_assert_cmpstr (body, ==, "Which branch should I merge into?");
  g_assert_true (g_variant_lookup (notification, "default-action", "&s", &action));
  g_assert_cmpstr (action, ==, "app.open-request");
  target = g_variant_lookup_value (notification, "default-action-target", NULL);
  g_assert_nonnull (target);
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, key);

  /* German first: the rest of the test reads the English window's rows. */
  take_main_window_screenshot ("de");
  /* No main loop turn since the German window was drawn: its texts stand. */
  heading = clarify_test_find_widget (GTK_WIDGET (find_main_window ()), "requests_list");
  heading = gtk_widget_get_ancestor (heading, ADW_TYPE_PREFERENCES_GROUP);
  g_assert_cmpstr (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (heading)), ==, "Offene Fragen");
  g_assert_true (g_regex_match (time_left_de, clarify_request_row_get_time_left (find_request_row ("t-1")), 0, NULL));
  take_main_window_screenshot ("en");

  /* The list shows both, the waiting one with the time it has left. */
  g_assert_nonnull (find_request_row ("demo-database"));
  g_assert_null (clarify_request_row_get_time_left (find_request_row ("demo-database")));
  row = find_request_row ("t-1");
  g_assert_nonnull (row);
  g_assert_cmpstr (clarify_request_row_get_title (row), ==, "Which branch should I merge into?");
  g_assert_true (g_regex_match (time_left, clarify_request_row_get_time_left (row), 0, NULL));
  /* The list item around the row takes the focus: a screen reader names it. */
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (gtk_widget_get_parent (GTK_WIDGET (row))),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Which branch should I merge into?");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (gtk_widget_get_parent (GTK_WIDGET (row))),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, clarify_request_row_get_subtitle (row));
  database = find_dialog ("demo-database");

  /* Answering the first one brings the waiting one up. */
  clarify_input_pick (clarify_request_dialog_get_input (database, 0), 0);
  click_submit (database);
  g_assert_true (clarify_test_wait_until (n_received_reached, GUINT_TO_POINTER (2), WAIT_MS));
  g_assert_cmpstr (g_ptr_array_index (received_json, 1), ==,
                   "{\"id\":\"demo-database\",\"outcome\":\"answered\","
                   "\"answers\":[{\"question_id\":\"database\",\"values\":[\"postgresql\"]}]}");

  queued = wait_for_dialog ("t-1");

  /* The agent goes away while its question is open: the dialog says that
   * the answer is kept, and stops saying it when the agent is back. */
  g_assert_null (clarify_request_dialog_get_agent_away (queued));
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_RECONNECTING, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
  g_assert_cmpstr (clarify_request_dialog_get_agent_away (queued), ==,
                   "“Tests” cannot be reached right now. Clarify keeps your answer and sends it when the agent is back.");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (queued));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (queued), "dialog-agent-away-en"));
  /* Its password refused: an answer would be too, so nothing is promised. */
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_FAILED, CLARIFY_BACKEND_NOTE_LOGIN_FAILED, NULL,
                             "HTTP 401 Unauthorized");
  g_assert_cmpstr (clarify_request_dialog_get_agent_away (queued), ==,
                   "“Tests” does not accept Clarify's password. Set it with “clarify set-password Tests”, then answer.");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (queued));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (queued), "dialog-password-refused-en"));
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
  g_assert_null (clarify_request_dialog_get_agent_away (queued));

  type_text (queued, 0, "main");
  click_submit (queued);
  g_assert_true (clarify_test_wait_until (test_backend_answered, backend, WAIT_MS));
  answer = response_json (clarify_test_backend_get_response (CLARIFY_TEST_BACKEND (backend)));
  g_assert_cmpstr (answer, ==,
                   "{\"id\":\"t-1\",\"outcome\":\"answered\","
                   "\"answers\":[{\"question_id\":\"branch\",\"values\":[\"main\"]}]}");

  /* Answered: its notification goes away. */
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, key, WAIT_MS));
  g_assert_false (g_hash_table_contains (clarify_test_notifications_shown, key));

  clarify_application_remove_backend (app, backend);
  g_assert_null (clarify_application_lookup_backend (app, "Tests"));
}

static void
test_withdrawn_while_queued (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) request = new_test_request ("t-2");
  g_autofree char *key = NULL;
  g_autofree char *current = NULL;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();
  /* Whatever the demo asks now has a dialog, and the user is in it: the
   * request waits in line, with a notification once the user is in
   * another program. */
  current = g_strdup (clarify_demo_agent_get_current_id (clarify_application_get_demo_agent (app)));
  g_assert_true (clarify_test_wait_until (dialog_is_shown, (gpointer) current, WAIT_MS));
  clarify_test_present_and_focus (GTK_WINDOW (find_dialog (current)));

  clarify_application_add_backend (app, backend);
  g_assert_true (clarify_backend_add_request (backend, request));
  key = clarify_inbox_dup_key (request);
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, 1);
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, key, WAIT_MS));

  /* The agent takes it back before the user got to it. */
  clarify_backend_withdraw_request (backend, "t-2", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, 0);
  g_assert_null (find_dialog ("t-2"));
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, key, WAIT_MS));
  g_assert_null (clarify_test_backend_get_response (CLARIFY_TEST_BACKEND (backend)));

  clarify_application_remove_backend (app, backend);
}

static gboolean
inbox_is_empty (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (clarify_application_get_inbox (app))) == 0;
}

/* @backend heard "timed_out" for @request_id, and its dialog is gone. */
static void
assert_timed_out (ClarifyBackend *backend,
                  const char     *request_id)
{
  g_autofree char *answer = NULL;
  g_autofree char *expected = g_strdup_printf ("{\"id\":\"%s\",\"outcome\":\"timed_out\",\"answers\":[]}",
                                               request_id);

  g_assert_true (clarify_test_wait_until (test_backend_answered, backend, WAIT_MS));
  answer = response_json (clarify_test_backend_get_response (CLARIFY_TEST_BACKEND (backend)));
  g_assert_cmpstr (answer, ==, expected);
  g_assert_null (find_dialog (request_id));
}

/* A request whose time ran out before it reached the screen (a resync after
 * a long reconnect, a tiny timeout) is answered "timed_out" at once, and no
 * dialog is left behind. */
static void
test_expired_on_arrival (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Late");
  g_autoptr(ClarifyRequest) request = new_test_request ("late-1");

  ensure_app ();
  g_assert_null (clarify_application_get_demo_agent (app));

  clarify_request_set_timeout_ms (request, 1000);
  clarify_request_set_received_at (request, g_get_monotonic_time () - 2 * G_USEC_PER_SEC);
  clarify_application_add_backend (app, backend);
  g_assert_true (clarify_backend_add_request (backend, request));

  assert_timed_out (backend, "late-1");
  g_assert_true (clarify_test_wait_until (inbox_is_empty, NULL, WAIT_MS));

  clarify_application_remove_backend (app, backend);
}

static gboolean
no_dialog_of (gpointer data)
{
  return find_dialog (data) == NULL;
}

/* Everything agrees on @request, the window's list too: it has a row while
 * the inbox holds the request. */
static void
assert_window_agrees (ClarifyTestInboxWatch *watch,
                      ClarifyBackend        *backend,
                      ClarifyRequest        *request,
                      ClarifyRequestState    state,
                      ClarifyRequestEnd      end,
                      ClarifyEndReason       reason,
                      const char            *detail)
{
  clarify_test_inbox_assert (watch, backend, request, state, end, reason, detail);
  if (state == CLARIFY_REQUEST_DONE)
    g_assert_null (find_request_row (clarify_request_get_id (request)));
  else
    g_assert_nonnull (find_request_row (clarify_request_get_id (request)));
}

/* The agent refuses the first answer: the question is pending again, in the
 * list and the tray's count, its dialog comes back, and the second answer
 * is delivered once. Then withdrawn and timed out: the row goes with it. */
static void
test_request_ends (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Strict");
  ClarifyTestBackend *agent = CLARIFY_TEST_BACKEND (backend);
  g_autoptr(ClarifyRequest) refused = new_test_request ("strict-1");
  g_autoptr(ClarifyRequest) withdrawn = new_test_request ("strict-2");
  g_autoptr(ClarifyRequest) timed_out = NULL;
  g_auto(ClarifyTestInboxWatch) watch = { 0, };
  g_autofree char *reason = g_strdup_printf ("Refused by the test (%d)", CLARIFY_ERROR_REJECTED);
  g_autofree char *shot = NULL;
  g_autofree char *answer = NULL;
  ClarifyInbox *inbox;
  ClarifyRequestDialog *dialog;

  ensure_app ();
  g_assert_null (clarify_application_get_demo_agent (app));
  inbox = clarify_application_get_inbox (app);
  clarify_test_inbox_watch_init (&watch, inbox);
  g_application_activate (G_APPLICATION (app));
  clarify_test_present_and_wait (GTK_WINDOW (find_main_window ()));

  clarify_application_add_backend (app, backend);
  clarify_test_backend_fail_next (agent, CLARIFY_ERROR_REJECTED, 1);
  g_assert_true (clarify_backend_add_request (backend, refused));
  assert_window_agrees (&watch, backend, refused, CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 1);

  dialog = wait_for_dialog ("strict-1");
  type_text (dialog, 0, "release");
  click_submit (dialog);
  assert_window_agrees (&watch, backend, refused, CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 0);

  g_assert_true (clarify_test_wait_until (clarify_test_inbox_has_refused, &watch, WAIT_MS));
  assert_window_agrees (&watch, backend, refused, CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_ANSWER_REFUSED, reason);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 1);
  g_assert_null (clarify_test_backend_get_response (agent));

  /* The question comes back to be answered again, saying why, and holding
   * what the user answered (it came back empty). */
  dialog = wait_for_dialog ("strict-1");
  answer = g_strdup_printf ("The agent refused the answer: %s", reason);
  g_assert_cmpstr (clarify_request_dialog_get_agent_away (dialog), ==, answer);
  g_clear_pointer (&answer, g_free);
  {
    g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *custom_text = NULL;

    clarify_input_collect (clarify_request_dialog_get_input (dialog, 0), values, &custom_text);
    g_assert_cmpuint (values->len, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (values, 0), ==, "release");
  }
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "dialog-answer-refused-en"));
  /* Gone unanswered (as a dialog that cannot decline closes) and opened
   * again from the list: still holding it. */
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (clarify_test_wait_until (no_dialog_of, "strict-1", WAIT_MS));
  dialog = clarify_application_present_request (app, refused);
  g_assert_nonnull (dialog);
  {
    g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *custom_text = NULL;

    clarify_input_collect (clarify_request_dialog_get_input (dialog, 0), values, &custom_text);
    g_assert_cmpuint (values->len, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (values, 0), ==, "release");
  }
  clarify_test_present_and_wait (GTK_WINDOW (find_main_window ()));
  shot = clarify_test_save_screenshot (GTK_WIDGET (find_main_window ()), "main-window-refused-en");
  g_assert_nonnull (shot);
  dialog = wait_for_dialog ("strict-1");
  type_text (dialog, 0, "main");
  click_submit (dialog);
  clarify_test_inbox_wait_state (refused, CLARIFY_REQUEST_DONE, WAIT_MS);
  assert_window_agrees (&watch, backend, refused, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (clarify_test_backend_count_delivered (agent, "strict-1"), ==, 1);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (agent), ==, 2);
  answer = response_json (clarify_test_backend_get_response (agent));
  g_assert_cmpstr (answer, ==,
                   "{\"id\":\"strict-1\",\"outcome\":\"answered\","
                   "\"answers\":[{\"question_id\":\"branch\",\"values\":[\"main\"]}]}");
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 0);

  /* Withdrawn by the agent: its dialog says why and goes. */
  g_assert_true (clarify_backend_add_request (backend, withdrawn));
  wait_for_dialog ("strict-2");
  clarify_backend_withdraw_request (backend, "strict-2", CLARIFY_END_REASON_AGENT_WITHDREW, "The agent moved on");
  assert_window_agrees (&watch, backend, withdrawn,
                        CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN, CLARIFY_END_REASON_AGENT_WITHDREW, "The agent moved on");
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 0);
  g_assert_true (clarify_test_wait_until (no_dialog_of, "strict-2", WAIT_MS));

  /* Timed out; its countdown starts when it is made. */
  timed_out = new_test_request ("strict-3");
  clarify_request_set_timeout_ms (timed_out, 500);
  g_assert_true (clarify_backend_add_request (backend, timed_out));
  assert_window_agrees (&watch, backend, timed_out, CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  clarify_test_inbox_wait_state (timed_out, CLARIFY_REQUEST_DONE, WAIT_MS);
  assert_window_agrees (&watch, backend, timed_out, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_TIMED_OUT, CLARIFY_END_REASON_TIME_RAN_OUT, NULL);
  g_assert_cmpuint (clarify_test_backend_count_delivered (agent, "strict-3"), ==, 1);
  g_assert_cmpuint (clarify_test_backend_count_delivered (agent, "strict-2"), ==, 0);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 0);
  g_assert_true (clarify_test_wait_until (no_dialog_of, "strict-3", WAIT_MS));

  clarify_application_remove_backend (app, backend);
}

/* A request with a time limit that waits behind the dialog being answered
 * still ends at its deadline: the agent (or `clarify ask --timeout`) hears
 * "timed_out" then, not whenever the user gets to the first dialog. */
static void
test_timeout_while_queued (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) request = new_test_request ("t-3");
  g_autofree char *key = NULL;
  g_autofree char *current = NULL;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();
  current = g_strdup (clarify_demo_agent_get_current_id (clarify_application_get_demo_agent (app)));
  g_assert_true (clarify_test_wait_until (dialog_is_shown, (gpointer) current, WAIT_MS));
  clarify_test_present_and_focus (GTK_WINDOW (find_dialog (current)));

  clarify_application_add_backend (app, backend);
  clarify_request_set_timeout_ms (request, 4000);
  g_assert_true (clarify_backend_add_request (backend, request));
  key = clarify_inbox_dup_key (request);
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, 1);
  /* The user at the dialog sees it wait there; once in another program,
   * a notification says it came. */
  g_assert_false (clarify_test_notification_sent_by_now (G_APPLICATION (app), key));
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, key, WAIT_MS));

  assert_timed_out (backend, "t-3");
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, 0);
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, key, WAIT_MS));

  /* The dialog being answered stays where it was. */
  g_assert_true (dialog_is_shown ((gpointer) current));

  clarify_application_remove_backend (app, backend);
}

static ClarifyRequestDialog *
find_dialog_of_kind (const char *kind)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    {
      if (CLARIFY_IS_REQUEST_DIALOG (l->data) &&
          g_strcmp0 (clarify_request_get_connection_kind (clarify_request_dialog_get_request (l->data)), kind) == 0)
        return l->data;
    }

  return NULL;
}

/* The pending request of connection kind @kind in the app's inbox, or NULL. */
static ClarifyRequest *
find_request_of_kind (const char *kind)
{
  GListModel *requests = clarify_inbox_get_pending (clarify_application_get_inbox (app));

  for (guint i = 0; i < g_list_model_get_n_items (requests); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);

      if (g_strcmp0 (clarify_request_get_connection_kind (request), kind) == 0)
        return request;
    }

  return NULL;
}

static gboolean
dbus_request_pending (gpointer data)
{
  return find_request_of_kind ("dbus") != NULL;
}

/* `clarify ask` reaches the app's own D-Bus API; its dialog waits behind the
 * demo's and comes up through the notification's action. */
static void
test_ask_over_dbus (void)
{
  g_auto(RunResult) run = { 0, };
  ClarifyRequestDialog *dialog;
  g_autofree char *key = NULL;
  g_autofree char *current = NULL;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();
  /* The user answers the demo's dialog. */
  current = g_strdup (clarify_demo_agent_get_current_id (clarify_application_get_demo_agent (app)));
  g_assert_true (clarify_test_wait_until (dialog_is_shown, (gpointer) current, WAIT_MS));
  clarify_test_present_and_focus (GTK_WINDOW (find_dialog (current)));

  run_clarify_start (&run, (const char *[]) { "ask", "--title", "Deploy", "--question", "Deploy to staging now?",
                                              "--type", "confirm", NULL });
  g_assert_true (clarify_test_wait_until (dbus_request_pending, NULL, WAIT_MS));
  key = clarify_inbox_dup_key (find_request_of_kind ("dbus"));
  /* In line behind the demo's dialog: no dialog yet; a notification once
   * the user is in another program. */
  g_assert_null (find_dialog_of_kind ("dbus"));
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, key, WAIT_MS));

  g_action_group_activate_action (G_ACTION_GROUP (app), "open-request", g_variant_new_string (key));
  dialog = find_dialog_of_kind ("dbus");
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  clarify_test_present_and_wait (GTK_WINDOW (dialog));

  g_assert_true (clarify_input_pick (clarify_request_dialog_get_input (dialog, 0), 0));
  click_submit (dialog);

  run_clarify_finish (&run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "yes\n");
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, key, WAIT_MS));
}

static gboolean
claude_code_request_pending (gpointer data)
{
  return find_request_of_kind ("claude-code") != NULL;
}

/* `clarify hook claude-code` reaches the app's own Claude Code backend
 * through the D-Bus API: the permission comes up in a dialog that names
 * Claude Code and the project, and the choice is the hook's output. */
static void
answer_claude_code_permission (const char *language)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autofree char *name = g_strdup_printf ("claude-code-permission-%s", language);
  g_autofree char *shot = NULL;
  g_autofree char *key = NULL;
  g_auto(RunResult) run = { 0, };
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyRequestDialog *dialog;
  ClarifyRequest *request;

  /* The request is worded in the app, when it arrives. */
  clarify_test_set_language (language);
  run_clarify_start_with_input (&run, (const char *[]) { "hook", "claude-code", NULL }, input);
  g_assert_true (clarify_test_wait_until (claude_code_request_pending, NULL, WAIT_MS));
  request = find_request_of_kind ("claude-code");
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "Claude Code");
  g_assert_cmpstr (clarify_request_get_project (request), ==, "proj");
  key = clarify_inbox_dup_key (request);

  g_action_group_activate_action (G_ACTION_GROUP (app), "open-request", g_variant_new_string (key));
  dialog = find_dialog_of_kind ("claude-code");
  g_assert_nonnull (dialog);
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  shot = clarify_test_save_screenshot (GTK_WIDGET (dialog), name);
  g_assert_nonnull (shot);
  clarify_test_set_language ("en");

  /* Allow once, through the inbox: the permission's own buttons are the
   * dialog's business (test-dialog). */
  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, "permission", (const char *[]) { "once", NULL }, NULL, FALSE);
  clarify_inbox_answer (clarify_application_get_inbox (app), request, response);

  run_clarify_finish (&run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}\n");
}

static void
test_claude_code_hook (void)
{
  g_autofree char *idle = clarify_test_load_fixture ("claude-code/notification-idle.json");
  const char *key = "claude-idle\x1f" "67dc81a7-0b1c-4d2e-8f3a-5b6c7d8e9f01";
  g_auto(RunResult) run = { 0, };
  GVariant *notification;
  const char *title, *body;

  ensure_app ();
  answer_claude_code_permission ("en");
  answer_claude_code_permission ("de");

  /* Claude waits for the next prompt: a desktop notification names the project. */
  run_clarify_start_with_input (&run, (const char *[]) { "hook", "claude-code", NULL }, idle);
  run_clarify_finish (&run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, (gpointer) key, WAIT_MS));
  notification = g_hash_table_lookup (clarify_test_notifications_shown, key);
  g_assert_true (g_variant_lookup (notification, "title", "&s", &title));
  g_assert_cmpstr (title, ==, "Claude is waiting for your input in “proj”");
  /* No body: servers may read it as markup. */
  g_assert_false (g_variant_lookup (notification, "body", "&s", &body));
}

/* Runs in GDBus' worker thread. */
static GDBusMessage *
count_private_print_cb (GDBusConnection *connection,
                        GDBusMessage    *message,
                        gboolean         incoming,
                        gpointer         user_data)
{
  if (!incoming && g_strcmp0 (g_dbus_message_get_interface (message), "org.gtk.private.CommandLine") == 0)
    g_atomic_int_inc ((int *) user_data);

  return message;
}

static void
test_command_line_second_instance (void)
{
  g_auto(RunResult) run = { 0, };
  GDBusConnection *bus;
  int private_calls = 0;
  guint filter;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();

  /* Flatpak's D-Bus proxy denies GApplication's call back into the later
   * instance (org.gtk.private.CommandLine.Print): the output must not need it. */
  bus = g_application_get_dbus_connection (G_APPLICATION (app));
  filter = g_dbus_connection_add_filter (bus, count_private_print_cb, &private_calls, NULL);

  /* Errors come back from the running instance with the same status. */
  check_bad_command_lines ();

  run_clarify (&run, (const char *[]) { "--list", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "Demo=clarify:http://127.0.0.1:"));
  g_assert_nonnull (strstr (run.out, "\tconnected\ttemporary\n"));
  run_result_clear (&run);

  run_clarify (&run, (const char *[]) { "--connect", "extra=clarify:http://127.0.0.1:9/events", "--background", NULL });
  g_assert_cmpint (run.status, ==, 0);
  /* It starts once the keyring has said whether it holds a token. */
  g_assert_true (clarify_test_wait_until (connection_row_shown, (gpointer) "extra", WAIT_MS));
  g_assert_nonnull (clarify_application_lookup_backend (app, "extra"));
  run_result_clear (&run);

  /* Without --background too, --connect leaves a closed window closed; the
   * connection is in its list at once. */
  gtk_widget_set_visible (GTK_WIDGET (find_main_window ()), FALSE);
  run_clarify (&run, (const char *[]) { "--connect", "other=clarify:http://127.0.0.1:9/events", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (clarify_test_wait_until (connection_row_shown, (gpointer) "other", WAIT_MS));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (find_main_window ())));
  run_result_clear (&run);
  run_clarify (&run, (const char *[]) { "--disconnect", "other", NULL });
  g_assert_cmpint (run.status, ==, 0);
  run_result_clear (&run);
  /* Anything else still brings the window up, as a launcher would. */
  run_clarify (&run, (const char *[]) { "--list", "--demo", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (find_main_window ())));
  run_result_clear (&run);

  run_clarify (&run, (const char *[]) { "--disconnect", "extra", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "Removed connection “extra”.\n");
  g_assert_null (clarify_application_lookup_backend (app, "extra"));
  g_assert_null (find_connection_row ("extra"));

  g_dbus_connection_remove_filter (bus, filter);
  g_assert_cmpint (g_atomic_int_get (&private_calls), ==, 0);
}

/* `clarify set-password` while Clarify runs: the running instance stores
 * the password and the connection starts again with it at once, with no
 * restart (the real binary as the later process). */
static void
test_set_password_running (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(ClarifyTestRequest) before = NULL;
  g_autoptr(ClarifyTestRequest) after = NULL;
  g_auto(RunResult) run = { 0, };
  g_autofree char *url = NULL;
  g_autofree char *spec = NULL;

  ensure_app ();
  clarify_test_server_add_sse (server, "/events");
  url = clarify_test_server_get_url (server, "/events");
  spec = g_strconcat ("locked=clarify:", url, NULL);
  run_clarify (&run, (const char *[]) { "--connect", spec, "--background", NULL });
  g_assert_cmpint (run.status, ==, 0);
  run_result_clear (&run);
  before = clarify_test_server_wait_for_request (server, "GET", "/events", WAIT_MS);
  g_assert_nonnull (before);
  g_assert_null (clarify_test_request_get_header (before, "Authorization"));

  run_clarify_start_with_input (&run, (const char *[]) { "set-password", "locked", NULL }, "n3w\n");
  run_clarify_finish (&run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "Stored the password of “locked”; Clarify reconnects with it now.\n");
  after = clarify_test_server_wait_for_request (server, "GET", "/events", WAIT_MS);
  g_assert_nonnull (after);
  g_assert_cmpstr (clarify_test_request_get_header (after, "Authorization"), ==, "Bearer n3w");
  run_result_clear (&run);

  run_clarify (&run, (const char *[]) { "--disconnect", "locked", NULL });
  g_assert_cmpint (run.status, ==, 0);
}

static void
test_start_at_login (void)
{
  g_autofree char *desktop = clarify_autostart_get_desktop_path ();
  GSettings *settings;
  g_autofree char *contents = NULL;
  g_autoptr(GVariant) state = NULL;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();
  settings = clarify_application_get_settings (app);

  /* Running and holding its connections did not start it at login, but
   * asked once: a notification with both answers. */
  state = g_action_group_get_action_state (G_ACTION_GROUP (app), "start-at-login");
  g_assert_false (g_variant_get_boolean (state));
  g_assert_false (g_file_test (desktop, G_FILE_TEST_EXISTS));
  g_assert_true (g_settings_get_boolean (settings, "start-at-login-asked"));
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, (gpointer) "start-at-login", WAIT_MS));

  /* The question's "Start at Login" button writes it … */
  g_action_group_activate_action (G_ACTION_GROUP (app), "start-at-login", g_variant_new_boolean (TRUE));
  g_assert_true (g_settings_get_boolean (settings, "start-at-login"));
  g_assert_true (g_file_get_contents (desktop, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "Exec=clarify --background\n"));
  g_clear_pointer (&state, g_variant_unref);
  state = g_action_group_get_action_state (G_ACTION_GROUP (app), "start-at-login");
  g_assert_true (g_variant_get_boolean (state));

  /* … and turning it off takes it back. */
  g_action_group_change_action_state (G_ACTION_GROUP (app), "start-at-login", g_variant_new_boolean (FALSE));
  g_assert_false (g_settings_get_boolean (settings, "start-at-login"));
  g_assert_false (g_file_test (desktop, G_FILE_TEST_EXISTS));
}

static void
test_about_and_accels (void)
{
  g_auto(GStrv) accels = NULL;
  GListModel *toplevels;
  GtkWindow *about = NULL;

  ensure_app ();
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.quit");
  g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>q"));

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (window))
        about = window;
    }
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==, PACKAGE_VERSION);
  g_assert_cmpstr (adw_about_window_get_application_icon (ADW_ABOUT_WINDOW (about)), ==, APP_ID);
  g_assert_true (gtk_window_get_transient_for (about) == GTK_WINDOW (find_main_window ()));
  clarify_test_present_and_wait (about);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (about), "about-en"));
  gtk_window_destroy (about);
}

static GtkWindow *
find_quit_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) &&
          g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)), "Quit Clarify?") == 0)
        {
          g_assert_null (found);
          found = window;
        }
    }
  return found;
}

static gboolean
quit_dialog_gone (gpointer data)
{
  return find_quit_dialog () == NULL;
}

static void
test_quit_asks (void)
{
  ClarifyInbox *inbox;
  GtkWindow *dialog;
  guint n_pending;
  g_autofree char *expected = NULL;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();
  inbox = clarify_application_get_inbox (app);
  n_pending = clarify_inbox_get_n_pending (inbox);
  g_assert_cmpuint (n_pending, >, 0);

  /* Ctrl+Q with questions open asks first, once however often pressed. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  dialog = find_quit_dialog ();
  g_assert_nonnull (dialog);
  expected = g_strdup_printf (n_pending == 1
                              ? "%u question is still waiting for your answer. The agent that asked it gets no answer from Clarify while it is closed."
                              : "%u questions are still waiting for your answer. The agents that asked them get no answer from Clarify while it is closed.",
                              n_pending);
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, expected);
  g_assert_cmpstr (adw_message_dialog_get_default_response (ADW_MESSAGE_DIALOG (dialog)), ==, "cancel");
  clarify_test_present_and_wait (dialog);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "quit-asks-en"));

  /* Closing it (Escape, Cancel) keeps every question where it was. */
  gtk_window_close (dialog);
  g_assert_true (clarify_test_wait_until (quit_dialog_gone, NULL, WAIT_MS));
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, n_pending);
}

static void
test_close_hides (void)
{
  ClarifyWindow *window;

  ensure_app ();
  if (clarify_application_get_demo_agent (app) == NULL)
    test_demo ();

  g_application_activate (G_APPLICATION (app));
  window = find_main_window ();
  g_assert_nonnull (window);

  /* Ctrl+W and the close button only hide it while agents are connected. */
  gtk_widget_activate_action (GTK_WIDGET (window), "window.close", NULL);
  g_assert_true (find_main_window () == window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window)));

  g_application_activate (G_APPLICATION (app));
  g_assert_true (find_main_window () == window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
}

/* A port nobody holds right now: the user's own Clarify may hold the
 * default one, and port 0 would show as ":0" in the window. */

/* Agent text in the window's rows is shown as written, never as markup
 * (libadwaita 1.2 rows would log "Failed to set text from markup", which
 * fails the test, or swallow the tags). */
static void
test_rows_literal (void)
{
  const char *title = "Tom & Jerry <b>bold</b> <span size=\"50000\">x</span>";
  const char *text = "Merge <i>main</i> & \"release\"?";
  g_autoptr(ClarifyRequest) request = clarify_request_new ("markup-1");
  g_autoptr(ClarifyQuestion) first = clarify_question_new ("q1", CLARIFY_QUESTION_KIND_TEXT, text);
  g_autoptr(ClarifyQuestion) second = clarify_question_new ("q2", CLARIFY_QUESTION_KIND_TEXT, "Why?");
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("A&B <b>agent</b>");
  g_autofree char *subtitle = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *list = gtk_list_box_new ();

  clarify_request_set_title (request, title);
  clarify_request_add_question (request, first);
  clarify_request_add_question (request, second);
  clarify_request_set_connection (request, "A&B <b>agent</b>", "clarify");

  gtk_list_box_append (GTK_LIST_BOX (list), clarify_request_row_new (request));
  gtk_list_box_append (GTK_LIST_BOX (list), clarify_connection_row_new (backend));
  gtk_window_set_child (GTK_WINDOW (window), list);
  clarify_test_present_and_wait (GTK_WINDOW (window));

  g_assert_nonnull (clarify_test_find_label (list, title));
  subtitle = g_strdup_printf ("A&B <b>agent</b>%s2 questions", " · ");
  g_assert_nonnull (clarify_test_find_label (list, subtitle));
  g_assert_nonnull (clarify_test_find_label (list, "A&B <b>agent</b>"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Core reports a state by code; the words are the UI's, in the user's language. */
static void
test_backend_state_words (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Nomad");
  g_autofree char *en = NULL;
  g_autofree char *de = NULL;
  g_autofree char *listen = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *retrying = NULL;
  g_autofree char *retrying_de = NULL;

  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTED,
                             CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR, "ws-1", "spawn opencode ENOENT");
  en = clarify_backend_state_describe (backend);
  g_assert_cmpstr (en, ==, "Workspace ws-1: error (spawn opencode ENOENT)");
  clarify_test_set_language ("de");
  de = clarify_backend_state_describe (backend);
  clarify_test_set_language ("en");
  g_assert_cmpstr (de, ==, "Arbeitsbereich ws-1: Fehler (spawn opencode ENOENT)");

  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_FAILED,
                             CLARIFY_BACKEND_NOTE_CANNOT_LISTEN, "127.0.0.1:7111", "Address already in use");
  listen = clarify_backend_state_describe (backend);
  g_assert_cmpstr (listen, ==, "Cannot listen on 127.0.0.1:7111 for MCP clients: Address already in use");

  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_FAILED, CLARIFY_BACKEND_NOTE_NONE, NULL, "Connection refused");
  plain = clarify_backend_state_describe (backend);
  g_assert_cmpstr (plain, ==, "Failed: Connection refused");

  /* Reconnecting says why too. */
  clarify_backend_set_retry_at (backend, g_get_monotonic_time () + 3500 * 1000);
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_RECONNECTING, CLARIFY_BACKEND_NOTE_RETRYING,
                             NULL, "HTTP 503 Service Unavailable");
  retrying = clarify_backend_state_describe (backend);
  g_assert_cmpstr (retrying, ==, "Reconnecting in 4 s… (HTTP 503 Service Unavailable)");
  clarify_test_set_language ("de");
  retrying_de = clarify_backend_state_describe (backend);
  clarify_test_set_language ("en");
  g_assert_cmpstr (retrying_de, ==, "Neue Verbindung in 4 s … (HTTP 503 Service Unavailable)");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *mcp_ini = NULL;
  g_autofree char *home = NULL;
  int status;

  configured_mcp_port = clarify_test_free_port ();
  mcp_ini = g_strdup_printf ("[mcp]\nport=%u\n", configured_mcp_port);
  /* The stored connections must not touch the user's own (gtk_test_init()
   * does not isolate them). */
  home = clarify_test_private_config_home (mcp_ini);

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);
  received_json = g_ptr_array_new_with_free_func (g_free);

  clarify_test_notifications_start (NULL);

  /* One level deep, so GTest keeps this order: the first runs before this
   * process registers the app. */
  g_test_add_func ("/application/first-instance-command-line", test_command_line_first_instance);
  g_test_add_func ("/application/mcp-port-first", test_mcp_port_first);
  g_test_add_func ("/application/parse-connect-spec", test_parse_connect_spec);
  g_test_add_func ("/application/empty-window", test_empty_window);
  g_test_add_func ("/application/expired-on-arrival", test_expired_on_arrival);
  g_test_add_func ("/application/request-ends", test_request_ends);
  g_test_add_func ("/application/demo", test_demo);
  g_test_add_func ("/application/mcp-endpoint", test_mcp_endpoint);
  g_test_add_func ("/application/mcp-info", test_mcp_info);
  g_test_add_func ("/application/mcp-listener-lost", test_mcp_listener_lost);
  g_test_add_func ("/application/second-request-waits", test_second_request_waits);
  g_test_add_func ("/application/withdrawn-while-queued", test_withdrawn_while_queued);
  g_test_add_func ("/application/timeout-while-queued", test_timeout_while_queued);
  g_test_add_func ("/application/ask-over-dbus", test_ask_over_dbus);
  g_test_add_func ("/application/claude-code-hook", test_claude_code_hook);
  g_test_add_func ("/application/second-instance-command-line", test_command_line_second_instance);
  g_test_add_func ("/application/set-password-running", test_set_password_running);
  g_test_add_func ("/application/start-at-login", test_start_at_login);
  g_test_add_func ("/application/about-and-accels", test_about_and_accels);
  g_test_add_func ("/application/quit-asks", test_quit_asks);
  g_test_add_func ("/application/close-hides", test_close_hides);
  g_test_add_func ("/application/backend-state-words", test_backend_state_words);
  g_test_add_func ("/application/rows-literal", test_rows_literal);

  status = g_test_run ();
  clarify_test_remove_tree (home);

  return status;
}
