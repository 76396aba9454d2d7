/* test-source-faults.c: every stream source with a disk that refuses its
 * answers, and Clarify's own protocol with its agent killed
 *
 * One fake agent per source (clarify-test-sources.c). The disk cases keep
 * the outbox in a folder that cannot take the answer: the disk is full
 * (a file-size limit stands in for it, as in test-outbox-store) or a file
 * stands where the data folder should be (which refuses root too). The
 * agent refuses the first post (503) and takes the second: the answer
 * must come from memory, once, and the user is told it was not saved.
 *
 * The kill cases stop the `clarify` agent while its question is open (its
 * port refuses) and bring it back on the same port, still asking or no
 * longer asking, as test-opencode's /opencode/restart does for OpenCode.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "clarify-error.h"
#include "clarify-json-backend.h"

#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-sources.h"

#define WAIT_MS 10000

typedef struct
{
  const ClarifyTestSource *source;
  ClarifyTestServer       *server;
  ClarifyInbox            *inbox;
  ClarifyBackend          *backend;
  ClarifyTestShown         shown;
  guint                    not_saved;
  GError                  *not_saved_error;
  gint                     posts;      /* answers received (SERVER thread) */
} Agent;

static void
on_not_saved (ClarifyOutbox  *outbox,
              ClarifyRequest *request,
              const GError   *error,
              Agent          *agent)
{
  agent->not_saved++;
  g_clear_error (&agent->not_saved_error);
  agent->not_saved_error = g_error_copy (error);
}

/* The first answer meets a server going down (503); the next is taken,
 * and the agent stops asking. SERVER thread. */
static void
refuse_then_take (const ClarifyTestRequest  *request,
                  guint                     *status,
                  char                     **content_type,
                  char                     **body,
                  gpointer                   user_data)
{
  Agent *agent = user_data;

  if (g_atomic_int_add (&agent->posts, 1) == 0)
    {
      *status = 503;
      *content_type = g_strdup ("text/plain");
      *body = g_strdup ("restarting");
      return;
    }
  agent->source->forget (agent->server);
  *status = 200;
  *content_type = g_strdup ("application/json");
  *body = g_strdup (agent->source->taken);
}

static void
agent_start (Agent                   *agent,
             const ClarifyTestSource *source,
             const char              *dir)
{
  g_autofree char *url = NULL;

  agent->source = source;
  agent->server = clarify_test_server_new ();
  source->serve (agent->server);
  clarify_test_source_store_password (source, "agent");

  url = clarify_test_server_get_url (agent->server, "");
  agent->inbox = clarify_test_source_inbox_new (source, "agent", dir, url, TRUE, &agent->backend);
  clarify_test_shown_watch (&agent->shown, agent->inbox);
  g_signal_connect (clarify_inbox_get_outbox (agent->inbox), "not-saved", G_CALLBACK (on_not_saved), agent);
}

static void
agent_clear (Agent *agent)
{
  clarify_test_shown_clear (&agent->shown);
  clarify_backend_stop (agent->backend);
  g_clear_object (&agent->backend);
  g_clear_object (&agent->inbox);
  g_clear_pointer (&agent->server, clarify_test_server_free);
  g_clear_error (&agent->not_saved_error);
  clarify_test_source_clear_password (agent->source, "agent");
}

static gboolean
is_shown (gpointer data)
{
  return ((Agent *) data)->shown.added->len > 0;
}

static gboolean
is_done (gpointer data)
{
  Agent *agent = data;

  return agent->shown.added->len > 0 && clarify_request_get_state (agent->shown.added->pdata[0]) == CLARIFY_REQUEST_DONE;
}

/* Among @lines, one that starts with @prefix. */
static gboolean
has_line (char       **lines,
          const char  *prefix)
{
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return TRUE;
  return FALSE;
}

/* The person answers while the disk refuses (@full: the write fails as on
 * a full disk). The user is told, the log says so, and the answer reaches
 * the agent once, past its 503, with the exact body; nothing is on disk. */
static void
answer_on_bad_disk (Agent      *agent,
                    const char *outbox,
                    gboolean    full)
{
  g_autoptr(ClarifyResponse) response = NULL;
  g_autofree char *warning = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_auto(GStrv) lines = NULL;
  ClarifyRequest *request;
  struct rlimit old_limit;
  struct rlimit tiny;
  void (*old_handler) (int) = NULL;

  clarify_test_server_add_handler (agent->server, "POST", agent->source->answer_path, refuse_then_take, agent);
  /* What an earlier run kept cannot be read from a folder that is a file. */
  clarify_test_log_start ();
  clarify_inbox_add_backend (agent->inbox, agent->backend);
  lines = clarify_test_log_stop ();
  g_assert_cmpuint (g_strv_length (lines), ==, full ? 0 : 1);
  if (!full)
    g_assert_true (g_str_has_prefix (lines[0], "WARNING: Cannot read the kept answers in"));
  g_clear_pointer (&lines, g_strfreev);
  clarify_backend_start (agent->backend);
  g_assert_true (clarify_test_loop_until (is_shown, agent, WAIT_MS));
  request = agent->shown.added->pdata[0];
  response = agent->source->answer (request);

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  if (full)
    {
      tiny.rlim_cur = 16;
      tiny.rlim_max = old_limit.rlim_max;
      old_handler = signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &tiny), ==, 0);
    }
  clarify_test_log_start ();
  clarify_inbox_answer (agent->inbox, request, response);
  lines = clarify_test_log_stop ();
  if (full)
    {
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
      signal (SIGXFSZ, old_handler);
    }

  warning = g_strdup_printf ("WARNING: Cannot keep the answer to %s on disk, sending it from memory",
                             agent->source->request_id);
  g_assert_true (has_line (lines, warning));
  g_assert_cmpuint (agent->not_saved, ==, 1);
  g_assert_nonnull (agent->not_saved_error);
  if (!full)
    g_assert_error (agent->not_saved_error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
  g_test_message ("the refusal: %s", agent->not_saved_error->message);

  /* Clarify's protocol also warns that the answers taken cannot be kept. */
  clarify_test_log_start ();
  g_assert_true (clarify_test_loop_until (is_done, agent, WAIT_MS));
  clarify_test_loop_for (300);
  g_strfreev (clarify_test_log_stop ());

  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpuint (agent->shown.added->len, ==, 1);
  g_assert_cmpuint (agent->shown.withdrawn, ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (agent->server, "POST", agent->source->answer_path), ==, 2);
  post = clarify_test_server_get_request (agent->server, "POST", agent->source->answer_path, 1);
  g_assert_cmpstr (post->query, ==, agent->source->answer_query);
  g_assert_cmpstr (post->body, ==, agent->source->answer_body);
  g_assert_cmpuint (clarify_test_outbox_count (outbox, ".json"), ==, 0);
}

static void
test_disk_full (gconstpointer data)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  Agent agent = { 0 };

  agent_start (&agent, data, outbox);
  answer_on_bad_disk (&agent, outbox, TRUE);
  agent_clear (&agent);
  clarify_test_remove_tree (dir);
}

static void
test_unwritable_dir (gconstpointer data)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *blocker = g_build_filename (dir, "data", NULL);
  g_autofree char *outbox = g_build_filename (blocker, "outbox", NULL);
  g_autoptr(GError) error = NULL;
  Agent agent = { 0 };

  g_file_set_contents (blocker, "", -1, &error);
  g_assert_no_error (error);
  agent_start (&agent, data, outbox);
  answer_on_bad_disk (&agent, outbox, FALSE);
  agent_clear (&agent);
  clarify_test_remove_tree (dir);
}

static gboolean
stream_refused (gpointer data)
{
  Agent *agent = data;
  const char *reason =
    clarify_sse_client_get_state_reason (clarify_json_backend_get_sse_client (CLARIFY_JSON_BACKEND (agent->backend)));

  return reason != NULL && strstr (reason, "refused") != NULL;
}

/* The `clarify` agent is killed while its question is open: its port
 * refuses, the question stays. It comes back on the same port, @asking
 * or having lost the question. */
static ClarifyRequest *
kill_and_restart (Agent    *agent,
                  gboolean  asking)
{
  ClarifyRequest *request;
  guint port;

  clarify_inbox_add_backend (agent->inbox, agent->backend);
  clarify_backend_start (agent->backend);
  g_assert_true (clarify_test_loop_until (is_shown, agent, WAIT_MS));
  request = agent->shown.added->pdata[0];

  port = clarify_test_server_get_port (agent->server);
  g_clear_pointer (&agent->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (stream_refused, agent, WAIT_MS));
  clarify_test_loop_for (300);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpuint (agent->shown.withdrawn, ==, 0);

  agent->server = clarify_test_server_new_on_port (port);
  if (asking)
    agent->source->serve (agent->server);
  else
    agent->source->serve_taken (agent->server);
  g_assert_true (clarify_test_server_wait_for_n_streams (agent->server, agent->source->stream_path, 1, WAIT_MS));
  clarify_test_loop_for (300);

  return request;
}

/* Back still asking: one dialog, answered once. */
static void
test_killed_back_asking (gconstpointer data)
{
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  Agent agent = { 0 };
  ClarifyRequest *request;

  agent_start (&agent, data, NULL);
  request = kill_and_restart (&agent, TRUE);
  clarify_test_server_add_handler (agent.server, "POST", agent.source->answer_path, refuse_then_take, &agent);
  g_atomic_int_set (&agent.posts, 1);

  response = agent.source->answer (request);
  clarify_inbox_answer (agent.inbox, request, response);
  g_assert_true (clarify_test_loop_until (is_done, &agent, WAIT_MS));
  clarify_test_loop_for (300);

  g_assert_cmpuint (agent.shown.added->len, ==, 1);
  g_assert_cmpuint (agent.shown.withdrawn, ==, 0);
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (agent.server, "POST", agent.source->answer_path), ==, 1);
  post = clarify_test_server_get_request (agent.server, "POST", agent.source->answer_path, 0);
  g_assert_cmpstr (post->body, ==, agent.source->answer_body);
  agent_clear (&agent);
}

/* Back without the question: the stream does not send it again, and the
 * answer meets a 404. Nobody else answered it: it ends with the restart
 * reason, not "answered elsewhere", and is not asked again. */
static void
test_killed_back_forgot (gconstpointer data)
{
  g_autoptr(ClarifyResponse) response = NULL;
  Agent agent = { 0 };
  ClarifyRequest *request;

  agent_start (&agent, data, NULL);
  request = kill_and_restart (&agent, FALSE);
  clarify_test_server_add_json (agent.server, "POST", agent.source->answer_path, agent.source->gone_status,
                                "application/json", agent.source->gone_body);
  /* The protocol marks no end of what a new stream sends again: the
   * question stays until the answer tells. */
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);

  response = agent.source->answer (request);
  clarify_inbox_answer (agent.inbox, request, response);
  g_assert_true (clarify_test_loop_until (is_done, &agent, WAIT_MS));
  clarify_test_loop_for (300);

  g_assert_cmpuint (agent.shown.added->len, ==, 1);
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_FAILED);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (agent.server, "POST", agent.source->answer_path), ==, 1);
  agent_clear (&agent);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_sources_env_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  clarify_test_sources_add ("/source-faults/disk-full/", test_disk_full);
  clarify_test_sources_add ("/source-faults/unwritable-dir/", test_unwritable_dir);
  g_test_add_data_func ("/source-faults/killed/clarify/back-asking", clarify_test_source_find ("clarify"),
                        test_killed_back_asking);
  g_test_add_data_func ("/source-faults/killed/clarify/back-forgot", clarify_test_source_find ("clarify"),
                        test_killed_back_forgot);

  return g_test_run ();
}
