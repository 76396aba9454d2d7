/* test-outbox-kill.c: Clarify killed (SIGKILL) while it delivers an answer,
 * for each source whose answers the outbox keeps on disk
 *
 * One table row per source: what its fake agent serves (the question
 * pending, before and after), where the answer goes and its exact body.
 * The inbox first runs in a child process (this program, re-run with
 * CLARIFY_TEST_KILL_SOURCE set) against the agent, which lists the
 * question but answers 503 to the answer; once the answer is on disk the
 * child is killed. The agent comes back (elsewhere, still asking), a new
 * inbox starts in the test process: the answer is posted once with the
 * same body, nobody is asked again, and nothing is left on disk.
 * /outbox-kill/after-taken/ kills it later: the agent took the answer,
 * and the child dies before the agent's reply reached it.
 * (Clarify's own protocol has a row too; test-outbox-store's
 * killed-while-agent-down kills it the same way.)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <sys/prctl.h>
#include <string.h>

#include "clarify-inbox.h"

#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-sources.h"

#define WAIT_MS 5000

/* The child: the person answers what the agent asks (after it was shown),
 * and Clarify waits to be killed. */
typedef struct
{
  ClarifyInbox   *inbox;
  ClarifyRequest *request;
  const ClarifyTestSource *source;
} ChildAnswer;

static gboolean
child_answer (gpointer data)
{
  ChildAnswer *pending = data;
  g_autoptr(ClarifyResponse) response = pending->source->answer (pending->request);

  clarify_inbox_answer (pending->inbox, pending->request, response);
  g_object_unref (pending->request);
  g_free (pending);
  return G_SOURCE_REMOVE;
}

static void
child_shown (ClarifyInbox   *inbox,
             ClarifyRequest *request,
             const ClarifyTestSource *source)
{
  ChildAnswer *pending = g_new0 (ChildAnswer, 1);

  pending->inbox = inbox;
  pending->request = g_object_ref (request);
  pending->source = source;
  g_idle_add (child_answer, pending);
}

static int
run_child (const char *kind,
           const char *url,
           const char *dir)
{
  const ClarifyTestSource *source = clarify_test_source_find (kind);
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = clarify_test_source_inbox_new (source, "agent", dir, url, TRUE, &backend);

  /* A test that failed before killing it leaves no child behind. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  g_signal_connect (inbox, "request-added", G_CALLBACK (child_shown), (gpointer) source);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);

  for (;;)
    g_main_context_iteration (NULL, TRUE);

  return 0;
}

typedef struct
{
  ClarifyTestSeen  seen;
  const char      *dir;
  guint            resynced;
} Seen;

static void
on_resynced (ClarifyBackend *backend,
             Seen           *seen)
{
  seen->resynced++;
}

static gboolean
has_resynced (gpointer data)
{
  return ((Seen *) data)->resynced > 0;
}

static gboolean
has_one_file (gpointer data)
{
  return clarify_test_outbox_count (((Seen *) data)->dir, ".json") == 1;
}

static gboolean
has_no_file (gpointer data)
{
  return clarify_test_outbox_count (((Seen *) data)->dir, ".json") == 0;
}

/* Clarify runs in a child against @server, the person answers, the agent
 * refuses it (503); once it is on disk the child is killed. */
static void
answer_and_die (const ClarifyTestSource *source,
                ClarifyTestServer *server,
                Seen              *seen)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = clarify_test_server_get_url (server, "");
  g_autofree char *text = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(GDir) handle = NULL;
  g_autoptr(ClarifyTestRequest) refused = NULL;

  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_KILL_SOURCE", source->kind, TRUE);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_KILL_URL", url, TRUE);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_KILL_DIR", seen->dir, TRUE);
  /* The test's own folders (its environment has /dev/null): the secrets. */
  g_subprocess_launcher_setenv (launcher, "HOME", g_get_home_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, "/proc/self/exe", NULL);
  g_assert_no_error (error);

  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", source->answer_path, 1, WAIT_MS));
  g_assert_true (clarify_test_loop_until (has_one_file, seen, WAIT_MS));
  refused = clarify_test_server_get_request (server, "POST", source->answer_path, 0);
  g_assert_cmpstr (refused->query, ==, source->answer_query);
  g_assert_cmpstr (refused->body, ==, source->answer_body);

  g_subprocess_send_signal (child, SIGKILL);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));
  g_assert_cmpint (g_subprocess_get_term_sig (child), ==, SIGKILL);

  /* The answer is in the file; the password is not. */
  handle = g_dir_open (seen->dir, 0, &error);
  g_assert_no_error (error);
  kept = g_build_filename (seen->dir, g_dir_read_name (handle), NULL);
  g_file_get_contents (kept, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "\"connection\":\"agent\""));
  g_assert_nonnull (strstr (text, source->request_id));
  if (source->password != NULL)
    g_assert_null (strstr (text, source->password));
}

/* Clarify starts again against @back, with the answer kept in @seen's
 * folder: it is posted once more with the same path, query and body, and
 * settles as @outcome ("delivered", "not needed"); nobody is asked, and
 * nothing is left on disk. The agent's listing is read (OpenCode and
 * CodeNomad say when; the others read once the agent served it). */
static void
restart_and_settle (const ClarifyTestSource *source,
                    ClarifyTestServer       *back,
                    Seen                    *seen,
                    const char              *outcome)
{
  g_autofree char *url = clarify_test_server_get_url (back, "");
  g_autofree char *expected = g_strconcat (source->request_id, "=", outcome, NULL);
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  gboolean resyncs = FALSE;

  inbox = clarify_test_source_inbox_new (source, "agent", seen->dir, url, TRUE, &backend);
  clarify_test_seen_init (&seen->seen, inbox);
  resyncs = g_signal_lookup ("resynced", G_OBJECT_TYPE (backend)) != 0;
  if (resyncs)
    g_signal_connect (backend, "resynced", G_CALLBACK (on_resynced), seen);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);

  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_replayed, &seen->seen, WAIT_MS));
  g_assert_cmpuint (seen->seen.replayed->len, ==, 1);
  g_assert_cmpstr (seen->seen.replayed->pdata[0], ==, expected);
  if (resyncs)
    g_assert_true (clarify_test_loop_until (has_resynced, seen, WAIT_MS));
  clarify_test_loop_for (300);
  g_assert_cmpuint (seen->seen.added->len, ==, 0);
  g_assert_cmpuint (seen->seen.replayed->len, ==, 1);

  g_assert_cmpuint (clarify_test_server_get_n_requests (back, "POST", source->answer_path), ==, 1);
  post = clarify_test_server_get_request (back, "POST", source->answer_path, 0);
  g_assert_cmpstr (post->query, ==, source->answer_query);
  g_assert_cmpstr (post->body, ==, source->answer_body);
  g_assert_true (clarify_test_loop_until (has_no_file, seen, WAIT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (inbox)), ==, 0);

  clarify_backend_stop (backend);
  g_clear_object (&inbox);
  clarify_test_seen_clear (&seen->seen);
}

static void
test_killed_while_agent_down (gconstpointer data)
{
  const ClarifyTestSource *source = data;
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autoptr(ClarifyTestServer) down = clarify_test_server_new ();
  g_autoptr(ClarifyTestServer) back = clarify_test_server_new ();
  Seen seen = { { NULL, NULL }, outbox, 0 };

  clarify_test_source_store_password (source, "agent");

  /* The agent asks, but cannot take answers: it is going down. */
  source->serve (down);
  clarify_test_server_add_json (down, "POST", source->answer_path, 503, "text/plain", "restarting");
  answer_and_die (source, down, &seen);
  g_clear_pointer (&down, clarify_test_server_free);

  /* It is back (elsewhere), still asking; Clarify starts again. */
  source->serve (back);
  clarify_test_server_add_json (back, "POST", source->answer_path, 200, "application/json", source->taken);
  restart_and_settle (source, back, &seen, "delivered");

  clarify_test_source_clear_password (source, "agent");
  clarify_test_remove_tree (dir);
}

/* The agent that takes the answer (its one effect) and is slow to say so:
 * the reply waits until the test has killed Clarify. SERVER thread. */
typedef struct
{
  const ClarifyTestSource *source;
  gint          effects;   /* answers the agent acted on */
  gint          released;  /* Clarify is dead: the reply may go */
} Taker;

static void
take_and_hold (const ClarifyTestRequest  *request,
               guint                     *status,
               char                     **content_type,
               char                     **body,
               gpointer                   user_data)
{
  Taker *taker = user_data;

  g_atomic_int_inc (&taker->effects);
  while (!g_atomic_int_get (&taker->released))
    g_usleep (5000);
  *status = 200;
  *content_type = g_strdup ("application/json");
  *body = g_strdup (taker->source->taken);
}

/* Clarify killed after the agent took the answer, before it heard so. At
 * the next start the kept answer is posted again; the agent, which no
 * longer asks, says it is gone (404 or 409), and Clarify ends it as not
 * needed: no dialog, no third post, and the agent acted on it once. */
static void
test_killed_after_taken (gconstpointer data)
{
  const ClarifyTestSource *source = data;
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autoptr(ClarifyTestServer) taking = clarify_test_server_new ();
  g_autoptr(ClarifyTestServer) back = clarify_test_server_new ();
  Seen seen = { { NULL, NULL }, outbox, 0 };
  Taker taker = { source, 0, 0 };

  clarify_test_source_store_password (source, "agent");

  source->serve (taking);
  clarify_test_server_add_handler (taking, "POST", source->answer_path, take_and_hold, &taker);
  answer_and_die (source, taking, &seen);
  g_atomic_int_set (&taker.released, 1);
  g_clear_pointer (&taking, clarify_test_server_free);
  g_assert_cmpint (taker.effects, ==, 1);

  /* Back (elsewhere) with the answer acted on, no longer asking: the same
   * answer again is gone (404, 409). Nothing more acted on. */
  source->serve_taken (back);
  clarify_test_server_add_json (back, "POST", source->answer_path, source->gone_status, "application/json",
                                source->gone_body);
  restart_and_settle (source, back, &seen, "not needed");
  g_assert_cmpint (taker.effects, ==, 1);

  clarify_test_source_clear_password (source, "agent");
  clarify_test_remove_tree (dir);
}

typedef struct
{
  GPtrArray  *added;
  const char *id;
} ShownWait;

/* Whether the latest request shown is @id. */
static gboolean
is_shown_last (gpointer data)
{
  ShownWait *wait = data;

  return wait->added->len > 0 && g_str_equal (wait->added->pdata[wait->added->len - 1], wait->id);
}

/* Sends @request_json on the agent's stream, then a new request: shown
 * once the stream's events before it were handled. */
static void
send_then_new (ClarifyTestServer *server,
               Seen              *seen,
               const char        *request_json,
               const char        *new_id)
{
  g_autofree char *events = g_strdup_printf ("event: request\ndata: %s\n\n"
                                             "event: request\ndata: {\"id\":\"%s\",\"questions\":"
                                             "[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Next?\"}]}\n\n",
                                             request_json, new_id);

  ShownWait wait = { seen->seen.added, new_id };

  clarify_test_server_sse_send (server, "/agent/events", events, -1);
  g_assert_true (clarify_test_loop_until (is_shown_last, &wait, WAIT_MS));
}

/* Clarify's own protocol. The kept answer is posted while the agent's new
 * stream opens; the stream then lists the question, in a listing older
 * than the answer: it is not answered twice. The agent sending it again
 * on that stream is asking again, and gets the same answer again. */
static void
test_listing_older_than_answer (void)
{
  const ClarifyTestSource *source = clarify_test_source_find ("clarify");
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autoptr(ClarifyTestServer) down = clarify_test_server_new ();
  g_autoptr(ClarifyTestServer) back = clarify_test_server_new ();
  g_autofree char *url = clarify_test_server_get_url (back, "");
  g_autoptr(ClarifyTestRequest) again = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  Seen seen = { { NULL, NULL }, outbox, 0 };

  source->serve (down);
  clarify_test_server_add_json (down, "POST", source->answer_path, 503, "text/plain", "restarting");
  answer_and_die (source, down, &seen);
  g_clear_pointer (&down, clarify_test_server_free);

  /* Back; its stream lists nothing until the test says so. */
  source->serve_taken (back);
  clarify_test_server_set_json (back, "POST", source->answer_path, 200, "application/json", source->taken);
  inbox = clarify_test_source_inbox_new (source, "agent", seen.dir, url, TRUE, &backend);
  clarify_test_seen_init (&seen.seen, inbox);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_replayed, &seen.seen, WAIT_MS));
  g_assert_cmpstr (seen.seen.replayed->pdata[0], ==, "r1=delivered");
  g_assert_true (clarify_test_server_wait_for_n_streams (back, "/agent/events", 1, WAIT_MS));

  /* The listing, then the agent asking again: one more post in all (the
   * old reading posted once for each), and no dialog. */
  send_then_new (back, &seen, CLARIFY_TEST_SOURCES_CLARIFY_REQUEST, "r2");
  send_then_new (back, &seen, CLARIFY_TEST_SOURCES_CLARIFY_REQUEST, "r3");
  g_assert_true (clarify_test_server_wait_for_n_requests (back, "POST", source->answer_path, 2, WAIT_MS));
  clarify_test_loop_for (300);
  g_assert_cmpuint (clarify_test_server_get_n_requests (back, "POST", source->answer_path), ==, 2);
  again = clarify_test_server_get_request (back, "POST", source->answer_path, 1);
  g_assert_cmpstr (again->body, ==, source->answer_body);
  g_assert_cmpuint (seen.seen.added->len, ==, 2);

  clarify_backend_stop (backend);
  g_clear_object (&inbox);
  clarify_test_seen_clear (&seen.seen);
  clarify_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_sources_env_init ();
  if (g_getenv ("CLARIFY_TEST_KILL_SOURCE") != NULL)
    return run_child (g_getenv ("CLARIFY_TEST_KILL_SOURCE"), g_getenv ("CLARIFY_TEST_KILL_URL"),
                      g_getenv ("CLARIFY_TEST_KILL_DIR"));

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  clarify_test_sources_add ("/outbox-kill/", test_killed_while_agent_down);
  clarify_test_sources_add ("/outbox-kill/after-taken/", test_killed_after_taken);
  g_test_add_func ("/outbox-kill/listing-older-than-answer", test_listing_older_than_answer);

  return g_test_run ();
}
