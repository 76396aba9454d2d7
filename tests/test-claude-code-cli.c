/* test-claude-code-cli.c: `clarify hook claude-code` over a session bus
 *
 * The command runs as this binary (main() hands `hook …` to
 * clarify_cli_handle(), as src/main.c does) on a private session bus,
 * against this process as the running app, or a stand-in app (this binary
 * with --gapplication-service) started the ways the real one is: by D-Bus
 * activation, or by the hook itself; one that never comes up and one that
 * goes away mid-call.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "clarify-claude-code-backend.h"
#include "clarify-cli.h"
#include "clarify-dbus-backend.h"
#include "clarify-inbox-private.h"
#include "clarify-test-claude-code.h"
#include "clarify-test-cli.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 10000

static char *test_binary;
/* While it exists, the stand-in app that D-Bus activation starts refuses
 * to run: the bus then has no way to start Clarify. */
static char *refuse_flag;

/* The stand-in app: the D-Bus API with the Claude Code backend, as the
 * application exports them. Started by D-Bus activation (with --activated)
 * or by the hook itself, it allows the first request once and leaves; with
 * CLARIFY_TEST_SERVE=hold it answers nothing and says "asked" instead;
 * with CLARIFY_TEST_SERVE=release it also gives up its name then, and stays
 * on the bus without a word (no error reply reaches the caller); with
 * CLARIFY_TEST_SERVE=mute it never owns the name. */
typedef struct
{
  ClarifyInbox *inbox;
  GMainLoop    *loop;
  gboolean      hold;
  gboolean      release;
  guint         owner_id;
} Serve;

static void
serve_request_added_cb (ClarifyInbox   *inbox,
                        ClarifyRequest *request,
                        Serve          *serve)
{
  g_autoptr(ClarifyResponse) response = NULL;

  if (serve->hold || serve->release)
    {
      /* Only then is a test reading; else stdout may be the test's TAP. */
      g_print ("asked\n");
      fflush (stdout);
      if (serve->release)
        g_clear_handle_id (&serve->owner_id, g_bus_unown_name);
      return;
    }

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_test_add_answer (response, "permission", NULL, CLARIFY_PERMISSION_ONCE, NULL);
  clarify_inbox_answer (inbox, request, response);
}

static void
serve_delivered_cb (ClarifyOutbox   *outbox,
                    ClarifyRequest  *request,
                    ClarifyResponse *response,
                    Serve           *serve)
{
  /* Let the reply go out, then leave. */
  g_timeout_add (300, (GSourceFunc) (GCallback) g_main_loop_quit, serve->loop);
}

static int
serve (int    argc,
       char **argv)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(ClarifyBackend) api = NULL;
  g_autoptr(ClarifyBackend) hooks = NULL;
  Serve serve = { 0 };

  if (argc == 4 && g_str_equal (argv[2], "--activated") && g_file_test (argv[3], G_FILE_TEST_EXISTS))
    return 1;
  /* An app that starts but never gets as far as its bus name. */
  if (g_strcmp0 (g_getenv ("CLARIFY_TEST_SERVE"), "mute") == 0)
    {
      g_usleep (3 * G_USEC_PER_SEC);
      return 0;
    }

  /* Activated, the bus to use is the starter's. */
  bus = g_bus_get_sync (g_getenv ("DBUS_STARTER_ADDRESS") != NULL ? G_BUS_TYPE_STARTER : G_BUS_TYPE_SESSION,
                        NULL, NULL);
  if (bus == NULL)
    return 1;

  serve.inbox = clarify_inbox_new ();
  serve.loop = g_main_loop_new (NULL, FALSE);
  serve.hold = g_strcmp0 (g_getenv ("CLARIFY_TEST_SERVE"), "hold") == 0;
  serve.release = g_strcmp0 (g_getenv ("CLARIFY_TEST_SERVE"), "release") == 0;
  g_signal_connect (serve.inbox, "request-added", G_CALLBACK (serve_request_added_cb), &serve);
  g_signal_connect (clarify_inbox_get_outbox (serve.inbox), "delivered", G_CALLBACK (serve_delivered_cb), &serve);

  api = clarify_dbus_backend_new (bus, NULL);
  hooks = clarify_claude_code_backend_new ();
  clarify_backend_set_inbox (api, serve.inbox);
  clarify_backend_set_inbox (hooks, serve.inbox);
  clarify_dbus_backend_set_hook_backend (CLARIFY_DBUS_BACKEND (api), CLARIFY_CLAUDE_CODE_BACKEND (hooks));
  clarify_backend_start (hooks);
  clarify_backend_start (api);
  serve.owner_id = g_bus_own_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
                                                 NULL, NULL, NULL, NULL);

  /* Never linger if the test went away. */
  g_timeout_add_seconds (30, (GSourceFunc) (GCallback) g_main_loop_quit, serve.loop);
  g_main_loop_run (serve.loop);

  g_signal_handlers_disconnect_by_data (serve.inbox, &serve);
  g_signal_handlers_disconnect_by_data (clarify_inbox_get_outbox (serve.inbox), &serve);
  clarify_backend_stop (api);
  clarify_backend_stop (hooks);
  g_dbus_connection_flush_sync (bus, NULL, NULL);
  g_clear_object (&serve.inbox);
  g_main_loop_unref (serve.loop);

  return 0;
}

typedef struct
{
  gboolean owned;
} NameState;

static void
name_appeared_cb (GDBusConnection *bus,
                  const char      *name,
                  const char      *owner,
                  gpointer         data)
{
  ((NameState *) data)->owned = TRUE;
}

static void
name_vanished_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  ((NameState *) data)->owned = FALSE;
}

static gboolean
name_is_owned (gpointer data)
{
  return ((NameState *) data)->owned;
}

static gboolean
name_is_free (gpointer data)
{
  return !((NameState *) data)->owned;
}

/* Waits until Clarify's name is (or is not) owned, as @owned says. */
static void
wait_name (gboolean owned)
{
  NameState state = { !owned };
  guint watch = g_bus_watch_name (G_BUS_TYPE_SESSION, CLARIFY_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                  name_appeared_cb, name_vanished_cb, &state, NULL);

  g_assert_true (clarify_test_loop_until (owned ? name_is_owned : name_is_free, &state, WAIT_MS));
  g_bus_unwatch_name (watch);
}

/* `test-claude-code hook claude-code` with @input; @no_start keeps it
 * from starting the app itself. */
static ClarifyTestRun *
start_hook_cli (const char *input,
                gboolean    no_start)
{
  const char *argv[] = { test_binary, "hook", "claude-code", NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);

  if (no_start)
    g_subprocess_launcher_setenv (launcher, "CLARIFY_HOOK_TEST_NO_START", "1", TRUE);

  return clarify_test_run_spawn (launcher, input, argv);
}

/* This process is the running app. */
typedef struct
{
  GDBusConnection *bus;
  ClarifyInbox    *inbox;
  ClarifyBackend  *api;
  ClarifyBackend  *hooks;
  GPtrArray       *added;
  guint            owner_id;
  NameState        name;
} AppFixture;

static void
app_request_added (ClarifyInbox   *inbox,
                   ClarifyRequest *request,
                   AppFixture     *f)
{
  g_ptr_array_add (f->added, g_object_ref (request));
}

static void
name_acquired_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  ((NameState *) data)->owned = TRUE;
}

static void
app_set_up (AppFixture    *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  f->inbox = clarify_inbox_new ();
  f->added = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (f->inbox, "request-added", G_CALLBACK (app_request_added), f);

  /* The objects first, then the name: as the application does. */
  f->api = clarify_dbus_backend_new (f->bus, NULL);
  f->hooks = clarify_claude_code_backend_new ();
  clarify_backend_set_inbox (f->api, f->inbox);
  clarify_backend_set_inbox (f->hooks, f->inbox);
  clarify_dbus_backend_set_hook_backend (CLARIFY_DBUS_BACKEND (f->api), CLARIFY_CLAUDE_CODE_BACKEND (f->hooks));
  clarify_backend_start (f->hooks);
  clarify_backend_start (f->api);
  f->owner_id = g_bus_own_name_on_connection (f->bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
                                              name_acquired_cb, NULL, &f->name, NULL);
  g_assert_true (clarify_test_loop_until (name_is_owned, &f->name, WAIT_MS));
}

static void
app_tear_down (AppFixture    *f,
               gconstpointer  data)
{
  g_bus_unown_name (f->owner_id);
  wait_name (FALSE);
  g_signal_handlers_disconnect_by_data (f->inbox, f);
  clarify_backend_stop (f->api);
  clarify_backend_stop (f->hooks);
  g_clear_object (&f->api);
  g_clear_object (&f->hooks);
  g_clear_object (&f->inbox);
  g_clear_pointer (&f->added, g_ptr_array_unref);
  g_clear_object (&f->bus);
}

static gboolean
app_has_request (gpointer data)
{
  return ((AppFixture *) data)->added->len > 0;
}

static void
test_cli_answered (AppFixture    *f,
                   gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyRequest *request;

  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "Claude Code");
  g_assert_cmpstr (clarify_request_get_project (request), ==, "proj");

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_test_add_answer (response, "permission", "Not on this machine", CLARIFY_PERMISSION_REJECT, NULL);
  clarify_inbox_answer (f->inbox, request, response);

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"deny\",\"message\":\"Not on this machine\"}}}\n");
  g_assert_cmpstr (run->err, ==, "");
}

/* Printing nothing: the terminal's own prompt stays. */
static void
test_cli_terminal (AppFixture    *f,
                   gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/elicitation-deploy.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyRequest *request;

  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];
  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_SKIPPED);
  clarify_inbox_answer (f->inbox, request, response);

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "");
}

/* Claude Code gave up on the hook (its timeout) or was interrupted. */
static void
test_cli_hook_killed (AppFixture    *f,
                      gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-ask-user-question.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);
  ClarifyRequest *request;

  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];
  g_subprocess_send_signal (run->process, SIGTERM);
  g_assert_true (clarify_test_loop_until (clarify_test_request_is_done, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_CALLER_LEFT);
  g_assert_true (clarify_test_loop_until (clarify_test_run_is_done, run, WAIT_MS));
}

/* Claude Code killed (SIGKILL) while the dialog is open: nobody can read
 * the hook's answer any more. The hook lets the question go and Clarify
 * withdraws it; it stayed open, and an answer then was recorded as given. */
static void
test_cli_reader_gone (AppFixture    *f,
                      gconstpointer  data)
{
  const char *argv[] = { test_binary, "hook", "claude-code", NULL };
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-ask-user-question.json");
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  g_subprocess_launcher_setenv (launcher, "CLARIFY_HOOK_TEST_NO_START", "1", TRUE);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (process), input, strlen (input),
                                            NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (process), NULL, &error));

  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];
  clarify_test_loop_for (200);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);

  /* The reading end goes, as when Claude Code dies. */
  g_assert_true (g_input_stream_close (g_subprocess_get_stdout_pipe (process), NULL, &error));
  g_assert_true (clarify_test_loop_until (clarify_test_request_is_done, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_CALLER_LEFT);
  g_assert_true (g_subprocess_wait (process, NULL, &error));
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
}

/* Past the inbox's caps: the hook lets the terminal ask, `clarify ask`
 * says why with its own exit status; neither waits. */
static void
test_cli_refused_when_full (AppFixture    *f,
                            gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) held = NULL;
  g_autoptr(ClarifyTestRun) hook = NULL;
  g_autoptr(ClarifyTestRun) ask = NULL;
  g_autoptr(ClarifyResponse) response = NULL;
  const char *ask_argv[] = { test_binary, "ask", "--question", "Deploy now?", NULL };
  ClarifyRequest *request;

  clarify_inbox_set_limits (f->inbox, 1, 1);
  held = start_hook_cli (input, TRUE);
  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];

  hook = start_hook_cli (input, TRUE);
  g_assert_cmpint (clarify_test_run_finish (hook, WAIT_MS), ==, 0);
  g_assert_cmpstr (hook->out, ==, "");
  g_assert_true (g_str_has_prefix (hook->err, "clarify hook: Too many questions"));

  ask = clarify_test_run_spawn (NULL, "", ask_argv);
  g_assert_cmpint (clarify_test_run_finish (ask, WAIT_MS), ==, CLARIFY_CLI_EXIT_BUSY);
  g_assert_cmpstr (ask->out, ==, "");
  g_assert_true (g_str_has_prefix (ask->err, "clarify ask: Clarify did not ask: Too many questions"));
  g_assert_cmpuint (f->added->len, ==, 1);

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_SKIPPED);
  clarify_inbox_answer (f->inbox, request, response);
  g_assert_cmpint (clarify_test_run_finish (held, WAIT_MS), ==, 0);
}

/* Bad input: a clear message, nothing printed, exit 0, Clarify untouched. */
static void
test_cli_bad_input (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (clarify_test_bad_hook_inputs); i++)
    {
      g_autofree char *path = g_build_filename ("claude-code", clarify_test_bad_hook_inputs[i].fixture, NULL);
      g_autofree char *input = clarify_test_load_fixture (path);
      g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);

      g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
      g_assert_cmpstr (run->out, ==, "");
      g_assert_true (g_str_has_prefix (run->err, "clarify hook: "));
      g_assert_nonnull (strstr (run->err, clarify_test_bad_hook_inputs[i].message));
    }
}

/* Misconfigured hooks do not block Claude Code (exit 2 would deny), but
 * they fail where Claude Code shows it (any other status). */
static void
test_cli_bad_arguments (void)
{
  const char *argv[] = { test_binary, "hook", "codex", NULL };
  const char *no_agent[] = { test_binary, "hook", NULL };
  /* No input: the hook refuses before it reads any, and input written to
   * a hook that has already exited fails the write (a flaky EPIPE). */
  g_autoptr(ClarifyTestRun) run = clarify_test_run_spawn (NULL, NULL, argv);
  g_autoptr(ClarifyTestRun) bare = NULL;

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 1);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "unknown agent “codex”"));

  bare = clarify_test_run_spawn (NULL, NULL, no_agent);
  g_assert_cmpint (clarify_test_run_finish (bare, WAIT_MS), ==, 1);
  g_assert_nonnull (strstr (bare->err, "Usage: clarify hook claude-code"));
}

/* Notifications Clarify does not show need no Clarify. */
static void
test_cli_ignored (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/notification-permission.json");
  g_autoptr(ClarifyTestRun) run = NULL;

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  run = start_hook_cli (input, TRUE);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "");
  g_unlink (refuse_flag);
}

/* Nobody owns the name: D-Bus activation starts the app. */
static void
test_cli_activation (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, CLARIFY_TEST_ALLOW_ONCE);
  wait_name (FALSE);
}

/* No activation (no service file works): the hook starts this same
 * program as the app, `--gapplication-service`, itself. */
static void
test_cli_starts_clarify (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = NULL;

  /* The hook gives the Clarify it starts one second (REACH_TIMEOUT_MS); a
   * sanitized one needs about that long to start (tools/run-tests-asan). */
  if (g_getenv ("CLARIFY_TEST_SANITIZED") != NULL)
    {
      g_test_skip ("a sanitized Clarify starts too slowly for the hook's one second");
      return;
    }

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  run = start_hook_cli (input, FALSE);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, CLARIFY_TEST_ALLOW_ONCE);
  g_unlink (refuse_flag);
  wait_name (FALSE);
}

/* Clarify cannot be reached: the terminal alone asks, as before. */
static void
test_cli_unreachable (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = NULL;
  gint64 start;

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  start = g_get_monotonic_time ();
  run = start_hook_cli (input, TRUE);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_test_message ("gave up after %.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "cannot start Clarify"));
  g_unlink (refuse_flag);
}

/* Clarify starts but is not there within the second the hook allows. */
static void
test_cli_slow_start (void)
{
  const char *argv[] = { test_binary, "hook", "claude-code", NULL };
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(ClarifyTestRun) run = NULL;
  gint64 start;

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_SERVE", "mute", TRUE);
  start = g_get_monotonic_time ();
  run = clarify_test_run_spawn (launcher, input, argv);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_test_message ("gave up after %.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "did not start in time"));
  g_unlink (refuse_flag);
}

/* Clarify goes away while the hook waits: nothing printed, exit 0. Killed
 * (SIGKILL: the bus answers the call for it), or gone from its name
 * without a reply ever coming (only the hook's watch of the name sees it). */
static void
test_cli_clarify_gone (gconstpointer data)
{
  const char *mode = data;
  const char *argv[] = { test_binary, "--gapplication-service", NULL };
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) server_out = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *asked = NULL;

  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_SERVE", mode, TRUE);
  server = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  wait_name (TRUE);

  run = start_hook_cli (input, TRUE);
  /* It says "asked" once the request is there (read while the loop
   * feeds the hook its input). */
  server_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  asked = clarify_test_read_line (server_out, WAIT_MS);
  g_assert_cmpstr (asked, ==, "asked");

  if (g_str_equal (mode, "hold"))
    g_subprocess_force_exit (server);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "clarify hook: Clarify quit before answering; the terminal asks instead.\n");
  g_subprocess_force_exit (server);
  g_assert_true (g_subprocess_wait (server, NULL, NULL));
  wait_name (FALSE);
}

int
main (int   argc,
      char *argv[])
{
  /* Static: never finalized (clarify_test_session_bus_down()), it stays
   * reachable, not a leak to LeakSanitizer. */
  static GTestDBus *test_bus;
  g_autofree char *service_dir = NULL;
  g_autofree char *exec = NULL;
  int exit_status;
  int result;

  setlocale (LC_ALL, "");
  /* Run as the stand-in app (the way `clarify` is started: D-Bus
   * activation or the hook) or as `clarify hook …`, as src/main.c does. */
  if (argc > 1 && g_str_equal (argv[1], "--gapplication-service"))
    {
      clarify_test_log_init ();
      return serve (argc, argv);
    }
  if (clarify_cli_handle (argc, argv, &exit_status))
    return exit_status;

  test_binary = g_canonicalize_filename (argv[0], NULL);

  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* A private session bus whose service file starts this binary as the app. */
  service_dir = g_dir_make_tmp ("clarify-test-claude-bus-XXXXXX", NULL);
  g_assert_nonnull (service_dir);
  refuse_flag = g_build_filename (service_dir, "refuse", NULL);
  exec = g_strdup_printf ("%s --gapplication-service --activated %s", test_binary, refuse_flag);
  test_bus = clarify_test_session_bus_up (exec, &service_dir);

#define ADD(path, func) g_test_add ("/claude-code/cli/" path, AppFixture, NULL, app_set_up, func, app_tear_down)
  ADD ("answered", test_cli_answered);
  ADD ("terminal", test_cli_terminal);
  ADD ("hook-killed", test_cli_hook_killed);
  ADD ("reader-gone", test_cli_reader_gone);
  ADD ("refused-when-full", test_cli_refused_when_full);
#undef ADD
  g_test_add_func ("/claude-code/cli/bad-input", test_cli_bad_input);
  g_test_add_func ("/claude-code/cli/bad-arguments", test_cli_bad_arguments);
  g_test_add_func ("/claude-code/cli/ignored", test_cli_ignored);
  g_test_add_func ("/claude-code/cli/activation", test_cli_activation);
  g_test_add_func ("/claude-code/cli/starts-clarify", test_cli_starts_clarify);
  g_test_add_func ("/claude-code/cli/unreachable", test_cli_unreachable);
  g_test_add_func ("/claude-code/cli/slow-start", test_cli_slow_start);
  g_test_add_data_func ("/claude-code/cli/clarify-gone", "hold", test_cli_clarify_gone);
  g_test_add_data_func ("/claude-code/cli/clarify-gone-silently", "release", test_cli_clarify_gone);

  result = g_test_run ();
  clarify_test_session_bus_down (test_bus, service_dir);

  return result;
}
