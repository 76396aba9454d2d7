/* test-outbox-app.c: the real `clarify` keeps an answer across SIGKILL
 *
 * An earlier run left the user's answer to r1 in the outbox. `clarify
 * --background` starts while the agent cannot take it, and is killed with
 * SIGKILL while it retries. The agent comes back at another address (the
 * old one is gone, with whatever was in flight to it); `clarify` starts
 * again, pointed there: the agent gets the answer once, the file goes, no
 * dialog asks r1 again, and a notification says it arrived late. Runs on a
 * session bus of its own, with a fake notification server.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>

#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-server.h"

#define WAIT_MS     20000
#define EVENTS_PATH "/agent/events"
#define ANSWER_PATH "/agent/requests/r1/response"
#define REQUEST_R1  "{\"id\":\"r1\",\"title\":\"Deploy\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which branch?\"}]}"
#define REQUEST_R2  "{\"id\":\"r2\",\"questions\":[{\"id\":\"q1\",\"kind\":\"confirm\",\"text\":\"Go?\"}]}"
#define FRAME(json) "event: request\ndata: " json "\n\n"
#define NOTIFICATION_ID "replayed\x1fwork\x1fr1"

static char *binary;

static gboolean
nothing_kept (gpointer data)
{
  return clarify_test_outbox_count (data, ".json") == 0;
}

static gboolean
notified (gpointer data)
{
  return g_hash_table_contains (clarify_test_notifications_shown, data);
}

static GSubprocess *
start_clarify (const char *outbox,
               const char *url,
               const char *log)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autofree char *connect = g_strconcat ("work=clarify:", url, NULL);
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_subprocess_launcher_setenv (launcher, "CLARIFY_OUTBOX_DIR", outbox, TRUE);
  g_subprocess_launcher_set_stderr_file_path (launcher, log);
  process = g_subprocess_launcher_spawn (launcher, &error, binary, "--background", "--connect", connect, NULL);
  g_assert_no_error (error);

  return process;
}

static void
test_killed_and_restarted (void)
{
  g_autoptr(ClarifyTestServer) down = clarify_test_server_new ();
  g_autoptr(ClarifyTestServer) back = clarify_test_server_new ();
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-app-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autofree char *first_log = g_build_filename (dir, "first.log", NULL);
  g_autofree char *second_log = g_build_filename (dir, "second.log", NULL);
  g_autofree char *down_url = NULL;
  g_autofree char *back_url = NULL;
  g_autofree char *log = NULL;
  g_autoptr(GSubprocess) first = NULL;
  g_autoptr(GSubprocess) second = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(GVariant) notification = NULL;
  g_autoptr(GError) error = NULL;
  const char *title = NULL;

  clarify_test_server_add_sse (down, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (down, EVENTS_PATH, FRAME (REQUEST_R1) FRAME (REQUEST_R2));
  clarify_test_server_add_json (down, "POST", ANSWER_PATH, 503, "text/plain", "restarting");
  down_url = clarify_test_server_get_url (down, EVENTS_PATH);
  clarify_test_outbox_keep_answer (outbox, down_url, REQUEST_R1);

  /* Clarify starts; the agent cannot take the answer; Clarify is killed. */
  first = start_clarify (outbox, down_url, first_log);
  g_assert_true (clarify_test_server_wait_for_n_requests (down, "POST", ANSWER_PATH, 1, WAIT_MS));
  g_subprocess_send_signal (first, SIGKILL);
  g_subprocess_wait (first, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (first));
  g_assert_cmpuint (clarify_test_outbox_count (outbox, ".json"), ==, 1);
  g_clear_pointer (&down, clarify_test_server_free);

  /* The agent is back, elsewhere, still listing r1; Clarify starts again. */
  clarify_test_server_add_sse (back, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (back, EVENTS_PATH, FRAME (REQUEST_R1) FRAME (REQUEST_R2));
  clarify_test_server_add_json (back, "POST", ANSWER_PATH, 200, "application/json", "{}");
  back_url = clarify_test_server_get_url (back, EVENTS_PATH);
  second = start_clarify (outbox, back_url, second_log);

  g_assert_true (clarify_test_wait_until (nothing_kept, outbox, WAIT_MS));
  g_assert_cmpuint (clarify_test_server_get_n_requests (back, "POST", ANSWER_PATH), ==, 1);
  post = clarify_test_server_get_request (back, "POST", ANSWER_PATH, 0);
  g_assert_nonnull (strstr (post->body, "\"values\":[\"main\"]"));

  /* The user is told; r2, after r1 on the stream, gets its dialog's
   * notification, r1 none. */
  g_assert_true (clarify_test_wait_until (notified, (gpointer) NOTIFICATION_ID, WAIT_MS));
  notification = g_variant_ref (g_hash_table_lookup (clarify_test_notifications_shown, NOTIFICATION_ID));
  g_assert_true (g_variant_lookup (notification, "title", "&s", &title));
  g_assert_cmpstr (title, ==, "Your answer to “Deploy” reached work late, after a restart");

  g_subprocess_send_signal (second, SIGTERM);
  g_subprocess_wait (second, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (clarify_test_server_get_n_requests (back, "POST", ANSWER_PATH), ==, 1);
  /* It was still running, nothing went wrong in it, and SIGTERM ended it
   * as Quit does: cleanly, status 0. */
  g_assert_true (g_subprocess_get_if_exited (second));
  g_assert_cmpint (g_subprocess_get_exit_status (second), ==, 0);

  g_file_get_contents (second_log, &log, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (log, "The answer to r1 of work, kept across a restart, was delivered late"));
  g_assert_null (strstr (log, "CRITICAL"));
  g_assert_null (strstr (log, "WARNING"));

  clarify_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));
  g_autofree char *home = NULL;
  /* Static: only stopped, never finalized, it stays reachable, not a leak
   * to LeakSanitizer. */
  static GTestDBus *bus;
  int status;

  clarify_test_log_init ();
  /* Before anything caches the user dirs or connects to a bus. */
  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  /* GTestDBus unsets it; the program under test needs it. */
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);
  clarify_test_gtk_init (&argc, &argv);

  g_assert_nonnull (g_getenv ("CLARIFY_BINARY"));
  binary = g_canonicalize_filename (g_getenv ("CLARIFY_BINARY"), NULL);
  clarify_test_notifications_start (NULL);

  g_test_add_func ("/outbox-app/killed-and-restarted", test_killed_and_restarted);

  status = g_test_run ();

  /* Only stopped: finalizing waits for the shared connection to go. */
  g_test_dbus_stop (bus);
  clarify_test_remove_tree (home);
  g_free (binary);

  return status;
}
