/* test-cli-start.c: `clarify ask` and `clarify mcp-stdio` from the build
 * tree start Clarify when it does not run
 *
 * A private session bus (GTestDBus) with no service file for Clarify, as
 * in a build tree: the real `build/src/clarify` must spawn itself as the
 * app, wait for its name and ask. The dialog the real clarify-gui then
 * shows on the test's X display is answered with the keyboard (xdotool
 * sends "1", Yes, and Return until the answer comes back), and the answer
 * is checked as the caller prints it. Afterwards the Clarify that was
 * started is ended by its process id, which the bus tells.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "clarify-dbus-backend.h"
#include "clarify-test-cli.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 60000
/* Each try: the keys, then a pause for the answer to come back, longer
 * each time: the dialog swallows keys for 0.7 s after it opens, and each
 * key it swallows starts that again, however slow the machine. */
#define KEY_PAUSE_FIRST_MS 250
#define KEY_PAUSE_MAX_MS 8000
#define KEY_TRIES 30

static GTestDBus *test_bus;

/* Whether Clarify's name has an owner, as a watch of it last said. */
static gboolean owned;

static void
name_appeared_cb (GDBusConnection *bus,
                  const char      *name,
                  const char      *owner,
                  gpointer         data)
{
  owned = TRUE;
}

static void
name_vanished_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  owned = FALSE;
}

static gboolean
name_owned (gpointer data)
{
  return owned == GPOINTER_TO_INT (data);
}

/* Presses Yes and Return in the dialog titled @title until @done. */
static void
answer_yes_until (const char  *title,
                  gboolean   (*done) (gpointer data),
                  gpointer     data)
{
  g_autofree char *pattern = g_strdup_printf ("^%s$", title);
  const char *argv[] = { "xdotool", "search", "--onlyvisible", "--name", pattern,
                         "windowfocus", "key", "1", "key", "Return", NULL };

  guint pause_ms = KEY_PAUSE_FIRST_MS;

  for (guint i = 0; i < KEY_TRIES && !done (data); i++)
    {
      /* Fails while no such window is there yet: tried again. */
      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                    NULL, NULL, NULL, NULL, NULL, NULL);
      clarify_test_loop_until (done, data, pause_ms);
      pause_ms = MIN (pause_ms * 2, KEY_PAUSE_MAX_MS);
    }
  g_assert_true (done (data));
}

/* The id of the process that owns Clarify's name; 0 with @error set when
 * nobody owns it. */
static guint32
name_owner_pid (GError **error)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  guint32 pid = 0;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "GetConnectionUnixProcessID", g_variant_new ("(s)", CLARIFY_DBUS_NAME),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, error);
  if (reply != NULL)
    g_variant_get (reply, "(u)", &pid);

  return pid;
}

static guint32
started_clarify_pid (void)
{
  g_autoptr(GError) error = NULL;
  guint32 pid = name_owner_pid (&error);

  g_assert_no_error (error);
  g_assert_cmpuint (pid, >, 0);

  return pid;
}

/* Ends the Clarify the command started, by the id of the process that
 * owns the name, unless it has quit by itself (a D-Bus service does,
 * once nobody called it for a while). */
static void
end_started_clarify (void)
{
  g_autoptr(GError) error = NULL;
  guint32 pid = name_owner_pid (&error);

  if (!g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
    {
      g_assert_no_error (error);
      g_assert_cmpuint (pid, >, 0);
      /* It may be quitting by itself this very moment. */
      g_assert_true (kill ((pid_t) pid, SIGTERM) == 0 || errno == ESRCH);
    }
  /* Gone either way once the watch has heard so. */
  g_assert_true (clarify_test_loop_until (name_owned, GINT_TO_POINTER (FALSE), WAIT_MS));
}

/* The value of @name in the environment @pid was started with, or NULL. */
static char *
started_environment_get (guint32     pid,
                         const char *name)
{
  g_autofree char *path = g_strdup_printf ("/proc/%u/environ", pid);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;
  gsize name_length = strlen (name);

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  for (gsize at = 0; at < length; at += strlen (contents + at) + 1)
    if (strncmp (contents + at, name, name_length) == 0 && contents[at + name_length] == '=')
      return g_strdup (contents + at + name_length + 1);

  return NULL;
}

/* Older GLib keeps freed objects' memory in slice caches: clarify starts
 * the app (@pid) with plain malloc, which later GLib uses anyway, and keeps
 * a G_SLICE of the user's (the ASan runs set one). */
static void
assert_slice_setting (guint32 pid)
{
  g_autofree char *slice = started_environment_get (pid, "G_SLICE");
  g_autofree char *set_by_clarify = started_environment_get (pid, "CLARIFY_SET_G_SLICE");

  if (g_getenv ("G_SLICE") != NULL || glib_check_version (2, 76, 0) == NULL)
    {
      g_assert_cmpstr (slice, ==, g_getenv ("G_SLICE"));
      g_assert_null (set_by_clarify);
    }
  else
    {
      g_assert_cmpstr (slice, ==, "always-malloc");
      g_assert_cmpstr (set_by_clarify, ==, "1");
    }
}

static void
test_ask_starts_clarify (void)
{
  const char *argv[] = { g_getenv ("CLARIFY_BINARY"), "ask", "--title", "Release check",
                         "--question", "Deploy the release now?", "--type", "confirm", NULL };
  g_autoptr(ClarifyTestRun) run = NULL;
  int status;

  g_assert_true (name_owned (GINT_TO_POINTER (FALSE)));
  /* As from Claude Code's hook: its key and session in the environment. */
  g_setenv ("ANTHROPIC_API_KEY", "sk-ant-test", TRUE);
  g_setenv ("CLAUDE_CODE_SESSION_ID", "session-1", TRUE);
  g_setenv ("OPENCODE_SERVER_PASSWORD", "hunter2", TRUE);
  g_setenv ("CLAUDE_CONFIG_DIR", g_get_home_dir (), TRUE);
  run = clarify_test_run_spawn (NULL, NULL, argv);
  g_unsetenv ("ANTHROPIC_API_KEY");
  g_unsetenv ("CLAUDE_CODE_SESSION_ID");
  g_unsetenv ("OPENCODE_SERVER_PASSWORD");
  g_unsetenv ("CLAUDE_CONFIG_DIR");

  /* Clarify came up by itself, and its dialog takes the answer. */
  g_assert_true (clarify_test_loop_until (name_owned, GINT_TO_POINTER (TRUE), WAIT_MS));
  assert_slice_setting (started_clarify_pid ());
  /* It outlives the caller, and keeps none of its secrets nor its folder,
   * as D-Bus activation would start it. */
  {
    guint32 pid = started_clarify_pid ();
    g_autofree char *cwd_link = g_strdup_printf ("/proc/%u/cwd", pid);
    g_autofree char *cwd = g_file_read_link (cwd_link, NULL);
    g_autofree char *key = started_environment_get (pid, "ANTHROPIC_API_KEY");
    g_autofree char *session = started_environment_get (pid, "CLAUDE_CODE_SESSION_ID");
    g_autofree char *password = started_environment_get (pid, "OPENCODE_SERVER_PASSWORD");
    g_autofree char *display = started_environment_get (pid, "DISPLAY");
    g_autofree char *config_dir = started_environment_get (pid, "CLAUDE_CONFIG_DIR");

    g_assert_null (key);
    g_assert_null (session);
    g_assert_null (password);
    g_assert_cmpstr (display, ==, g_getenv ("DISPLAY"));
    g_assert_cmpstr (config_dir, ==, g_get_home_dir ());
    g_assert_cmpstr (cwd, ==, g_get_home_dir ());
  }
  answer_yes_until ("Release check", clarify_test_run_is_done, run);
  status = clarify_test_run_finish (run, WAIT_MS);
  g_test_message ("clarify ask said: %s", run->err);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (run->out, ==, "yes\n");

  end_started_clarify ();
}

static void
test_mcp_stdio_starts_clarify (void)
{
  const char *argv[] = { g_getenv ("CLARIFY_BINARY"), "mcp-stdio", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyTestLineWait wait = { NULL, FALSE };
  GOutputStream *in;
  g_autofree char *reply = NULL;

  g_assert_true (name_owned (GINT_TO_POINTER (FALSE)));
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  in = g_subprocess_get_stdin_pipe (process);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));

  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                 "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
  reply = clarify_test_read_line (out, WAIT_MS);
  g_assert_true (g_str_has_prefix (reply, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"));
  g_clear_pointer (&reply, g_free);
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

  /* Nothing runs yet: the call starts Clarify, whose dialog answers it. */
  g_assert_true (name_owned (GINT_TO_POINTER (FALSE)));
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                 "\"arguments\":{\"title\":\"Via stdio\",\"questions\":[{\"id\":\"go\",\"question\":\"Deploy now?\","
                 "\"type\":\"confirm\"}]}}}");
  g_data_input_stream_read_line_async (out, G_PRIORITY_DEFAULT, NULL, clarify_test_line_cb, &wait);
  g_assert_true (clarify_test_loop_until (name_owned, GINT_TO_POINTER (TRUE), WAIT_MS));
  answer_yes_until ("Via stdio", clarify_test_line_done, &wait);
  g_assert_nonnull (wait.line);
  g_test_message ("reply: %s", wait.line);
  g_assert_true (g_str_has_prefix (wait.line, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\","
                                              "\"text\":\"{\\\"answered\\\":true,"));
  g_assert_nonnull (strstr (wait.line, "\\\"questionId\\\":\\\"go\\\",\\\"values\\\":[\\\"yes\\\"]"));
  g_free (wait.line);

  g_output_stream_close (in, NULL, NULL);
  g_assert_true (g_subprocess_wait (process, NULL, NULL));
  end_started_clarify ();
}

/* The application's actions are exported just after it owns the name, and
 * answered from its main loop, which runs once its start-up is done. */
static gboolean
lists_actions (gpointer data)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;

  reply = g_dbus_connection_call_sync (bus, CLARIFY_DBUS_NAME, CLARIFY_DBUS_PATH, "org.gtk.Actions", "List",
                                       NULL, G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE, WAIT_MS, NULL, NULL);

  return reply != NULL;
}

/* Logging out sends SIGTERM, a terminal SIGINT or SIGHUP: Clarify quits as
 * Quit does (its history and undelivered answers written, its
 * notifications taken back) and exits 0; before, each signal killed it. */
static void
test_signal_quits (gconstpointer data)
{
  int signal_number = GPOINTER_TO_INT (data);
  /* The endpoint keeps it running (with nothing to serve it would end). */
  g_autofree char *port = g_strdup_printf ("--mcp-port=%u", clarify_test_free_port ());
  const char *argv[] = { g_getenv ("CLARIFY_BINARY"), "--background", port, NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (name_owned (GINT_TO_POINTER (FALSE)));
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (clarify_test_loop_until (name_owned, GINT_TO_POINTER (TRUE), WAIT_MS));
  /* `clarify` became the application: the same process. */
  g_assert_cmpuint (started_clarify_pid (), ==, (guint32) atoi (g_subprocess_get_identifier (process)));
  /* Up: it answers on the bus once its start-up is done (a signal during
   * start-up ends it the default way). */
  g_assert_true (clarify_test_loop_until (lists_actions, NULL, WAIT_MS));

  g_subprocess_send_signal (process, signal_number);
  g_assert_true (g_subprocess_wait (process, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_subprocess_get_if_signaled (process));
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_true (clarify_test_loop_until (name_owned, GINT_TO_POINTER (FALSE), WAIT_MS));
}

/* Whether a window named as @pattern is on screen, asked every 100 ms
 * (the X server tells this process nothing by itself). */
static gboolean
wait_window_shown (const char *pattern)
{
  const char *argv[] = { "xdotool", "search", "--onlyvisible", "--name", pattern, NULL };
  gint64 deadline = g_get_monotonic_time () + (gint64) WAIT_MS * 1000;

  while (g_get_monotonic_time () < deadline)
    {
      int status = 1;

      if (g_spawn_sync (NULL, (char **) argv, NULL,
                        G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                        NULL, NULL, NULL, NULL, &status, NULL) &&
          g_spawn_check_wait_status (status, NULL))
        return TRUE;
      clarify_test_loop_for (100);
    }

  return FALSE;
}

/* Quitting (SIGTERM here, as at logout) with an agent's question still
 * open (the demo agent's): the history keeps what ended, and nothing of
 * Clarify's own quitting (the open question was listed "Withdrawn by the
 * agent", once per quit). */
static void
test_quit_leaves_history_alone (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-quit-history-XXXXXX", NULL);
  g_autofree char *history_path = g_build_filename (dir, "history.json", NULL);
  g_autofree char *port = g_strdup_printf ("--mcp-port=%u", clarify_test_free_port ());
  const char *binary = g_getenv ("CLARIFY_BINARY");
  const char *start_argv[] = { binary, "--background", port, NULL };
  const char *demo_argv[] = { binary, "--demo", NULL };
  const char *answered_argv[] = { binary, "ask", "--title", "Answered first", "--question", "Deploy the release?",
                                  "--type", "confirm", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(ClarifyTestRun) answered = NULL;
  g_autoptr(ClarifyTestRun) demo = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *history = NULL;

  g_assert_true (name_owned (GINT_TO_POINTER (FALSE)));
  g_setenv ("CLARIFY_HISTORY_FILE", history_path, TRUE);
  process = g_subprocess_newv (start_argv, G_SUBPROCESS_FLAGS_NONE, &error);
  g_unsetenv ("CLARIFY_HISTORY_FILE");
  g_assert_no_error (error);
  g_assert_true (clarify_test_loop_until (name_owned, GINT_TO_POINTER (TRUE), WAIT_MS));
  g_assert_true (clarify_test_loop_until (lists_actions, NULL, WAIT_MS));

  answered = clarify_test_run_spawn (NULL, NULL, answered_argv);
  answer_yes_until ("Answered first", clarify_test_run_is_done, answered);
  g_assert_cmpint (clarify_test_run_finish (answered, WAIT_MS), ==, 0);
  demo = clarify_test_run_spawn (NULL, NULL, demo_argv);
  g_assert_cmpint (clarify_test_run_finish (demo, WAIT_MS), ==, 0);
  g_assert_true (wait_window_shown ("^New project$"));

  g_subprocess_send_signal (process, SIGTERM);
  g_assert_true (g_subprocess_wait (process, NULL, &error));
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_true (clarify_test_loop_until (name_owned, GINT_TO_POINTER (FALSE), WAIT_MS));

  g_assert_true (g_file_get_contents (history_path, &history, NULL, &error));
  g_assert_no_error (error);
  /* Listed by their titles. */
  g_assert_nonnull (strstr (history, "Answered first"));
  g_assert_null (strstr (history, "New project"));

  clarify_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *config = NULL;
  g_autofree char *mcp_ini = NULL;
  g_autofree char *display = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  guint watch_id;
  int result;

  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  /* The Clarify started here serves no MCP port (another's may run) and
   * keeps its settings in a folder of its own. */
  config = g_dir_make_tmp ("clarify-cli-start-XXXXXX", NULL);
  g_assert_nonnull (config);
  mcp_ini = g_build_filename (config, "clarify", NULL);
  g_assert_cmpint (g_mkdir_with_parents (mcp_ini, 0700), ==, 0);
  g_free (mcp_ini);
  mcp_ini = g_build_filename (config, "clarify", "mcp.ini", NULL);
  g_assert_true (g_file_set_contents (mcp_ini, "[mcp]\nenabled=false\n", -1, NULL));
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

  /* No service folder: nothing can D-Bus activate Clarify. GTestDBus
   * unsets DISPLAY, which the Clarify started here needs. */
  display = g_strdup (g_getenv ("DISPLAY"));
  test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (test_bus);
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_assert_nonnull (bus);
  watch_id = g_bus_watch_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                             name_appeared_cb, name_vanished_cb, NULL, NULL);

  g_test_add_func ("/cli-start/ask", test_ask_starts_clarify);
  g_test_add_func ("/cli-start/mcp-stdio", test_mcp_stdio_starts_clarify);
  g_test_add_data_func ("/cli-start/sigterm-quits", GINT_TO_POINTER (SIGTERM), test_signal_quits);
  g_test_add_data_func ("/cli-start/sigint-quits", GINT_TO_POINTER (SIGINT), test_signal_quits);
  g_test_add_data_func ("/cli-start/sighup-quits", GINT_TO_POINTER (SIGHUP), test_signal_quits);
  g_test_add_func ("/cli-start/quit-leaves-history-alone", test_quit_leaves_history_alone);
  result = g_test_run ();
  g_bus_unwatch_name (watch_id);

  g_test_dbus_stop (test_bus);
  clarify_test_remove_tree (config);

  return result;
}
