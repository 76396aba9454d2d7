/* test-mcp-sdk.c: the reference MCP client waits 75 s for the user
 *
 * The TypeScript SDK (@modelcontextprotocol/sdk, pinned from npm into the
 * build dir, run by node from PATH through tests/mcp-sdk-client.cjs) calls
 * ask_user twice at once with a 20 s timeout: once with onprogress and
 * resetTimeoutOnProgress, once without. The dialogs are answered through
 * their widgets; the first after 75 s, at the real progress interval of
 * 10 s. Asserted: the call without progress fails at 20 s, as any call
 * would without Clarify's notifications (and its dialog goes away); the
 * call with them gets the user's answer after 75 s, having heard progress
 * all along. Over HTTP (the endpoint in this process) and over stdio
 * (`mcp-stdio`, this binary run as the CLI, reaching a D-Bus backend in
 * this process on a private bus). And what the client makes of a Clarify
 * killed under its calls (the endpoint in a child, `--serve-mcp`).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <string.h>

#include "clarify-cli.h"
#include "clarify-dbus-backend.h"
#include "clarify-mcp-server.h"
#include "clarify-test-answer.h"
#include "clarify-test-cli.h"
#include "clarify-test-log.h"
#include "clarify-test-npm.h"

#define SDK_VERSION     "1.32.2"
#define CLIENT_TIMEOUT  "20000"
#define ANSWER_AFTER_MS 75000
/* How long npm's first install, node's start and the SDK's connecting may take. */
#define SLOW_MS         60000

#define ASKED_WITH      "Which database, asked with progress?"
#define ASKED_WITHOUT   "Which database, asked without progress?"
#define PROGRESS_PATTERN "^Waiting for the user's answer in Clarify \\([0-9]+ s\\)$"

static char *test_binary;

typedef struct
{
  ClarifyBackend       *backend;
  ClarifyRequestDialog *with;      /* weak */
  ClarifyRequestDialog *without;   /* weak */
  GDataInputStream     *out;
  GPtrArray            *lines;     /* JsonObject: every line the client printed */
  gboolean              out_closed;
  gboolean              exited;
} Run;

static void
request_added_cb (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Run            *run)
{
  ClarifyRequestDialog *dialog = clarify_test_answer_dialog_new (backend, request);
  const char *text = clarify_question_get_text (clarify_request_get_question (request, 0));

  if (g_str_equal (text, ASKED_WITH))
    g_set_weak_pointer (&run->with, dialog);
  else
    {
      g_assert_cmpstr (text, ==, ASKED_WITHOUT);
      g_set_weak_pointer (&run->without, dialog);
    }
  gtk_window_present (GTK_WINDOW (dialog));
}

static void read_next_line (Run *run);

static void
line_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autoptr(JsonNode) node = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  g_assert_no_error (error);
  if (line == NULL)
    {
      run->out_closed = TRUE;
      return;
    }

  g_test_message ("client: %s", line);
  node = json_from_string (line, &error);
  g_assert_no_error (error);
  g_ptr_array_add (run->lines, json_object_ref (json_node_get_object (node)));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "event"), !=, "fatal");
  read_next_line (run);
}

static void
read_next_line (Run *run)
{
  g_data_input_stream_read_line_async (run->out, G_PRIORITY_DEFAULT, NULL, line_cb, run);
}

typedef struct
{
  Run        *run;
  const char *event;
  const char *call;
  JsonObject *found;
} LineWait;

static gboolean
has_line (gpointer data)
{
  LineWait *wait = data;

  for (guint i = 0; i < wait->run->lines->len && wait->found == NULL; i++)
    {
      JsonObject *line = wait->run->lines->pdata[i];

      if (g_str_equal (json_object_get_string_member (line, "event"), wait->event) &&
          (wait->call == NULL || g_strcmp0 (json_object_get_string_member_with_default (line, "call", NULL),
                                            wait->call) == 0))
        wait->found = line;
    }

  return wait->found != NULL || wait->run->out_closed;
}

/* The client's first line of @event (for @call, unless NULL), waiting for it. */
static JsonObject *
wait_for_line (Run        *run,
               const char *event,
               const char *call,
               guint       timeout_ms)
{
  LineWait wait = { run, event, call, NULL };

  g_assert_true (clarify_test_wait_until (has_line, &wait, timeout_ms));
  g_assert_nonnull (wait.found);

  return wait.found;
}

static gboolean
both_asked (gpointer data)
{
  Run *run = data;

  return run->with != NULL && run->without != NULL;
}

static gboolean
without_gone (gpointer data)
{
  return ((Run *) data)->without == NULL;
}

static gboolean
client_done (gpointer data)
{
  Run *run = data;

  return run->exited && run->out_closed;
}

static void
exited_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_assert_true (g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL));
  ((Run *) user_data)->exited = TRUE;
}

/* Runs the client against @backend (started, listening), with @target the
 * transport's arguments ("http" URL, or "stdio" COMMAND ARG…). */
static void
run_client (ClarifyBackend     *backend,
            const char * const *target,
            const char         *token,
            const char         *screenshot_name)
{
  g_autofree char *sdk_dir = clarify_test_npm_install ("mcp-sdk-npm", "@modelcontextprotocol/sdk", SDK_VERSION, NULL);
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "mcp-sdk-client.cjs", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  Run run = { backend, NULL, NULL, NULL, g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref), FALSE, FALSE };
  JsonObject *line;
  JsonArray *names;
  gint64 asked_at;
  gint64 previous = 0;
  guint n_progress = 0;

  if (sdk_dir == NULL)
    {
      g_ptr_array_unref (run.lines);
      return;
    }

  g_signal_connect (backend, "request-added", G_CALLBACK (request_added_cb), &run);

  g_ptr_array_add (argv, "node");
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, sdk_dir);
  for (guint i = 0; target[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) target[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_SDK_TIMEOUT_MS", CLIENT_TIMEOUT, TRUE);
  if (token != NULL)
    g_subprocess_launcher_setenv (launcher, "CLARIFY_SDK_TOKEN", token, TRUE);
  /* The real interval: this test shows what 10 s does to a 20 s timeout. */
  g_subprocess_launcher_unsetenv (launcher, "CLARIFY_MCP_TEST_PROGRESS_INTERVAL_MS");
  client = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  run.out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (client));
  read_next_line (&run);
  g_subprocess_wait_async (client, NULL, exited_cb, &run);

  /* The client sees the tool, and both questions come up. */
  line = wait_for_line (&run, "tools", NULL, SLOW_MS);
  names = json_object_get_array_member (line, "names");
  g_assert_cmpuint (json_array_get_length (names), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (names, 0), ==, "ask_user");
  g_assert_true (clarify_test_wait_until (both_asked, &run, SLOW_MS));
  asked_at = g_get_monotonic_time ();
  clarify_test_present_and_wait (GTK_WINDOW (run.with));

  /* Without progress the client gives up at its 20 s, and cancels the
   * call: that dialog goes. This is what the other call is spared. */
  line = wait_for_line (&run, "error", "without-progress", SLOW_MS);
  g_assert_cmpint (json_object_get_int_member (line, "code"), ==, -32001);
  g_assert_cmpstr (json_object_get_string_member (line, "message"), ==, "MCP error -32001: Request timed out");
  g_assert_cmpint (json_object_get_int_member (line, "t"), >=, 20000);
  g_assert_true (clarify_test_wait_until (without_gone, &run, SLOW_MS));

  /* The person takes 75 s over the other question, then answers it. */
  clarify_test_spin (MAX (0, ANSWER_AFTER_MS - (g_get_monotonic_time () - asked_at) / 1000));
  g_assert_nonnull (run.with);
  {
    g_autofree char *shot = clarify_test_save_screenshot (GTK_WIDGET (run.with), screenshot_name);

    g_assert_true (g_file_test (shot, G_FILE_TEST_EXISTS));
  }
  clarify_test_answer_click_choice (run.with, 0, "SQLite");
  clarify_test_spin (50);
  if (run.with != NULL)
    clarify_test_answer_press (run.with, "submit_button");

  line = wait_for_line (&run, "result", "with-progress", SLOW_MS);
  g_assert_false (json_object_get_boolean_member (line, "isError"));
  g_assert_cmpstr (json_object_get_string_member (line, "text"), ==,
                   "{\"answered\":true,\"cancelled\":false,\"timedOut\":false,"
                   "\"answers\":[{\"questionId\":\"db\",\"values\":[\"SQLite\"]}]}");
  g_assert_cmpint (json_object_get_int_member (line, "t"), >=, ANSWER_AFTER_MS);

  /* What kept it waiting: a notification every 10 s, counting up. */
  for (guint i = 0; i < run.lines->len; i++)
    {
      JsonObject *progress = run.lines->pdata[i];

      if (!g_str_equal (json_object_get_string_member (progress, "event"), "progress"))
        continue;
      g_assert_cmpstr (json_object_get_string_member (progress, "call"), ==, "with-progress");
      g_assert_cmpint (json_object_get_int_member (progress, "progress"), ==, ++n_progress);
      g_assert_true (g_regex_match_simple (PROGRESS_PATTERN, json_object_get_string_member (progress, "message"), 0, 0));
      g_assert_cmpint (json_object_get_int_member (progress, "t") - previous, <, 20000);
      previous = json_object_get_int_member (progress, "t");
    }
  g_assert_cmpuint (n_progress, >=, ANSWER_AFTER_MS / 10000 - 1);

  g_assert_true (clarify_test_wait_until (client_done, &run, SLOW_MS));
  g_assert_true (g_subprocess_get_if_exited (client));
  g_assert_cmpint (g_subprocess_get_exit_status (client), ==, 0);

  g_signal_handlers_disconnect_by_data (backend, &run);
  g_clear_object (&run.out);
  g_ptr_array_unref (run.lines);
}

static void
test_http (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (0);
  g_autoptr(ClarifyBackend) backend = clarify_mcp_server_new (connection);
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *url = NULL;

  clarify_backend_start (backend);
  g_assert_cmpuint (clarify_backend_get_state (backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  token = clarify_mcp_token_ensure (&error);
  g_assert_no_error (error);
  url = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (backend));

  run_client (backend, (const char *[]) { "http", url, NULL }, token, "mcp-sdk-http-75s-en");
  clarify_backend_stop (backend);
}

/* The endpoint alone, in a child (`--serve-mcp`): its URL, then "asked"
 * for each call, on stdout. The test kills it. */
static void
serve_request_added_cb (ClarifyBackend *backend,
                        ClarifyRequest *request,
                        gpointer        data)
{
  g_print ("asked\n");
}

static int
serve_mcp (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (0);
  g_autoptr(ClarifyBackend) backend = clarify_mcp_server_new (connection);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autofree char *url = NULL;

  g_signal_connect (backend, "request-added", G_CALLBACK (serve_request_added_cb), NULL);
  clarify_backend_start (backend);
  url = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (backend));
  g_print ("%s\n", url);
  /* Never linger if the test went away. */
  g_timeout_add_seconds (120, (GSourceFunc) (GCallback) g_main_loop_quit, loop);
  g_main_loop_run (loop);

  return 0;
}

/* Clarify is killed (SIGKILL) while the SDK's two calls wait, each with
 * the 20 s timeout, the call with progress having heard from it: a dead
 * server cannot end a call, and the SDK does not end a call whose event
 * stream was cut (it only reports the stream's error), so each ends by
 * the client's own timeout, counted from the last progress it heard: no
 * later, never a hang. */
static void
test_http_clarify_killed (void)
{
  g_autofree char *sdk_dir = clarify_test_npm_install ("mcp-sdk-npm", "@modelcontextprotocol/sdk", SDK_VERSION, NULL);
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "mcp-sdk-client.cjs", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GSubprocess) client = NULL;
  g_autoptr(GDataInputStream) server_out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  Run run = { NULL, NULL, NULL, NULL, g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref), FALSE, FALSE };
  JsonObject *progress;
  JsonObject *line;
  gint64 timeout_ms = g_ascii_strtoll (CLIENT_TIMEOUT, NULL, 10);

  if (sdk_dir == NULL)
    {
      g_ptr_array_unref (run.lines);
      return;
    }

  server = g_subprocess_launcher_spawn (launcher, &error, test_binary, "--serve-mcp", NULL);
  g_assert_no_error (error);
  server_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  url = clarify_test_read_line (server_out, SLOW_MS);
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));
  token = clarify_mcp_token_ensure (&error);
  g_assert_no_error (error);

  g_subprocess_launcher_setenv (launcher, "CLARIFY_SDK_TIMEOUT_MS", CLIENT_TIMEOUT, TRUE);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_SDK_TOKEN", token, TRUE);
  client = g_subprocess_launcher_spawn (launcher, &error, "node", script, sdk_dir, "http", url, NULL);
  g_assert_no_error (error);
  run.out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (client));
  read_next_line (&run);
  g_subprocess_wait_async (client, NULL, exited_cb, &run);

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *asked = clarify_test_read_line (server_out, SLOW_MS);

      g_assert_cmpstr (asked, ==, "asked");
    }
  progress = wait_for_line (&run, "progress", "with-progress", SLOW_MS);
  g_subprocess_force_exit (server);
  g_assert_true (g_subprocess_wait (server, NULL, NULL));

  /* The call without progress: its own 20 s from the start. */
  line = wait_for_line (&run, "error", "without-progress", 2 * timeout_ms);
  g_assert_cmpstr (json_object_get_string_member (line, "message"), ==, "MCP error -32001: Request timed out");
  g_assert_cmpint (json_object_get_int_member (line, "t"), <, timeout_ms + 5000);

  /* The call with progress: 20 s after the last progress it heard. */
  line = wait_for_line (&run, "error", "with-progress", 2 * timeout_ms);
  g_assert_cmpstr (json_object_get_string_member (line, "message"), ==, "MCP error -32001: Request timed out");
  g_assert_cmpint (json_object_get_int_member (line, "t") - json_object_get_int_member (progress, "t"), >=, timeout_ms);
  g_assert_cmpint (json_object_get_int_member (line, "t") - json_object_get_int_member (progress, "t"), <, timeout_ms + 5000);

  g_assert_true (clarify_test_wait_until (client_done, &run, SLOW_MS));
  g_assert_cmpint (g_subprocess_get_exit_status (client), ==, 0);
  g_clear_object (&run.out);
  g_ptr_array_unref (run.lines);
}

static void
name_acquired_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
test_stdio (void)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(GError) error = NULL;
  gboolean acquired = FALSE;
  guint owner_id;

  /* The running app's side of `clarify mcp-stdio`, on the private bus. */
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  backend = clarify_dbus_backend_new (bus, NULL);
  clarify_backend_start (backend);
  owner_id = g_bus_own_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
                                           name_acquired_cb, NULL, &acquired, NULL);
  g_assert_true (clarify_test_wait_until (is_true, &acquired, SLOW_MS));

  run_client (backend, (const char *[]) { "stdio", test_binary, "mcp-stdio", NULL }, NULL, "mcp-sdk-stdio-75s-en");

  g_bus_unown_name (owner_id);
  clarify_backend_stop (backend);
}

int
main (int   argc,
      char *argv[])
{
  /* Static: never finalized, it stays reachable, not a leak to LeakSanitizer. */
  static GTestDBus *test_bus;
  g_autofree char *config = NULL;
  g_autofree char *display = NULL;
  int exit_status;
  int result;

  /* Run as `clarify mcp-stdio` by the client, as src/main.c would. */
  setlocale (LC_ALL, "");
  if (argc > 1 && g_str_equal (argv[1], "--serve-mcp"))
    return serve_mcp ();
  if (clarify_cli_handle (argc, argv, &exit_status))
    return exit_status;

  test_binary = g_canonicalize_filename (argv[0], NULL);
  /* The token goes to a 0600 file in a config dir of our own, not a keyring. */
  config = clarify_test_private_config_home ("");

  clarify_test_log_init ();
  /* A private session bus, inherited by the client and its mcp-stdio; up
   * before GTK, so that this process knows no other. */
  display = g_strdup (g_getenv ("DISPLAY"));
  test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (test_bus);
  /* GTestDBus unsets it, against X11's starting a bus of its own. */
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/mcp-sdk/http", test_http);
  g_test_add_func ("/mcp-sdk/stdio", test_stdio);
  g_test_add_func ("/mcp-sdk/http/clarify-killed", test_http_clarify_killed);

  result = g_test_run ();
  /* Only stopped, never finalized: finalizing waits for the shared
   * connection to go, which GDBus keeps alive past the last test. */
  g_test_dbus_stop (test_bus);
  clarify_test_remove_tree (config);
  g_free (test_binary);

  return result;
}
