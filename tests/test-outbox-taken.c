/* test-outbox-taken.c: the answers a `clarify` agent took outlive a restart
 *
 * A `clarify` agent that sends a request again after it took the answer
 * (its list was behind, or it lost the answer) gets the same answer posted
 * again, not a second dialog (test-backend's resent-after-answer). Those
 * answers are kept on disk beside the outbox's, so that this still holds
 * when Clarify was restarted in between. The file is written when the
 * agent takes the answer, not at quit: dropping the first inbox without a
 * word is what a kill leaves behind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "clarify-backend-registry.h"
#include "clarify-inbox.h"
#include "clarify-json.h"
#include "clarify-json-backend.h"
#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-server.h"

#define WAIT_MS      10000
#define EVENTS_PATH  "/agent/events"
#define ANSWER_PATH  "/agent/requests/r1/response"
#define TOKEN        "s3cret-token"
#define REQUEST_R1   "{\"id\":\"r1\",\"title\":\"Deploy\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which branch?\"}]}"
#define OTHER_R1     "{\"id\":\"r1\",\"questions\":[{\"id\":\"q1\",\"kind\":\"confirm\",\"text\":\"Deploy now?\"}]}"
#define FRAME(json)  "event: request\ndata: " json "\n\n"
#define ANSWER_BODY  "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"q1\",\"values\":[\"main\"]}]}"

typedef struct
{
  ClarifyInbox    *inbox;
  ClarifyBackend  *backend;
  ClarifyTestSeen  seen;
} Run;

/* One run of Clarify: an inbox keeping its answers in @dir, with the
 * agent at @server. */
static void
run_start (Run               *run,
           const char        *dir,
           ClarifyTestServer *server)
{
  g_autofree char *url = clarify_test_server_get_url (server, EVENTS_PATH);
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("work", "clarify", url);
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);
  g_autoptr(GError) error = NULL;

  clarify_connection_set_option (connection, "token", TOKEN);
  run->inbox = clarify_inbox_new ();
  clarify_outbox_set_store (clarify_inbox_get_outbox (run->inbox), store);
  run->backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  clarify_sse_client_set_backoff (clarify_json_backend_get_sse_client (CLARIFY_JSON_BACKEND (run->backend)), 20, 100);
  clarify_test_seen_init (&run->seen, run->inbox);
  clarify_inbox_add_backend (run->inbox, run->backend);
  clarify_backend_start (run->backend);
}

static void
run_stop (Run *run)
{
  clarify_backend_stop (run->backend);
  g_clear_object (&run->backend);
  g_clear_object (&run->inbox);
  clarify_test_seen_clear (&run->seen);
}

/* The folder of the answers "work" took: taken/ and the first 32 hex
 * digits of the name's SHA-256. */
static char *
taken_dir (const char *dir)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "work", -1);
  g_autofree char *name = g_strndup (hash, 32);

  return g_build_filename (dir, "taken", name, NULL);
}

/* The one file in it, or NULL. */
static char *
taken_file (const char *dir)
{
  g_autofree char *taken = taken_dir (dir);
  g_autoptr(GDir) handle = g_dir_open (taken, 0, NULL);
  const char *name = handle != NULL ? g_dir_read_name (handle) : NULL;

  g_assert_true (name == NULL || g_dir_read_name (handle) == NULL);

  return name != NULL ? g_build_filename (taken, name, NULL) : NULL;
}

static gboolean
outbox_is_empty (gpointer dir)
{
  return clarify_test_outbox_count (dir, ".json") == 0;
}

static void
assert_posted (ClarifyTestServer *server,
               guint              n)
{
  g_autoptr(ClarifyTestRequest) post = NULL;

  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", ANSWER_PATH, n, WAIT_MS));
  post = clarify_test_server_get_request (server, "POST", ANSWER_PATH, n - 1);
  g_assert_cmpstr (post->body, ==, ANSWER_BODY);
}

/* The person answers, the agent takes it; Clarify restarts; the agent
 * sends the request again: it gets the same answer, nobody is asked. */
static void
test_resent_after_restart (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-taken-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(ClarifyResponse) response = clarify_response_new ("r1", CLARIFY_OUTCOME_ANSWERED);
  g_autofree char *file = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  const char *values[] = { "main", NULL };
  ClarifyRequest *request;
  struct stat info;
  Run run = { 0 };

  /* Every new stream sends what the agent has pending: r1, even answered. */
  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1));
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");

  run_start (&run, outbox, server);
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_added, &run.seen, WAIT_MS));
  request = clarify_inbox_lookup (run.inbox, run.backend, "r1");
  g_assert_nonnull (request);
  clarify_response_add_answer (response, "q1", values, NULL, FALSE);
  clarify_inbox_answer (run.inbox, request, response);
  assert_posted (server, 1);
  g_assert_true (clarify_test_loop_until (outbox_is_empty, outbox, WAIT_MS));

  /* Kept beside the outbox: 0600, the answer in it, the token not. */
  file = taken_file (outbox);
  g_assert_nonnull (file);
  g_assert_cmpint (g_stat (file, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);
  g_file_get_contents (file, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "main"));
  g_assert_null (strstr (text, TOKEN));
  run_stop (&run);

  /* Clarify starts again; the agent's new stream sends r1 again. */
  run_start (&run, outbox, server);
  assert_posted (server, 2);
  clarify_test_loop_for (300);
  g_assert_cmpuint (run.seen.added->len, ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 2);
  run_stop (&run);

  /* The same id with other questions is a new request, even now; and it
   * is no longer kept as taken. */
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (OTHER_R1));
  run_start (&run, outbox, server);
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_added, &run.seen, WAIT_MS));
  request = clarify_inbox_lookup (run.inbox, run.backend, "r1");
  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==, "Deploy now?");
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 2);
  g_clear_pointer (&file, g_free);
  g_assert_null (file = taken_file (outbox));
  run_stop (&run);

  clarify_test_remove_tree (dir);
}

#define N_ASKED      260
#define ANSWERS_KEPT 256
#define BATCH        130

static void
answer_pending (Run *run)
{
  for (guint i = 0; i < run->seen.added->len; i++)
    {
      const char *id = g_ptr_array_index (run->seen.added, i);
      g_autoptr(ClarifyResponse) response = clarify_response_new (id, CLARIFY_OUTCOME_ANSWERED);
      const char *values[] = { id, NULL };

      clarify_response_add_answer (response, "q1", values, NULL, FALSE);
      clarify_inbox_answer (run->inbox, clarify_inbox_lookup (run->inbox, run->backend, id), response);
    }
  g_ptr_array_set_size (run->seen.added, 0);
}

static gboolean
has_batch (gpointer data)
{
  return ((ClarifyTestSeen *) data)->added->len == BATCH;
}

static guint
count_posts (ClarifyTestServer *server,
             guint              i)
{
  g_autofree char *path = g_strdup_printf ("/agent/requests/n%u/response", i);

  return clarify_test_server_get_n_requests (server, "POST", path);
}

/* What is kept is bounded, on disk too: past 256 answers the oldest file
 * goes, and a request sent again after that is asked again, while a
 * newer one still gets its answer. */
static void
test_oldest_go (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-taken-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autofree char *taken = taken_dir (outbox);
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(GString) frames = g_string_new (NULL);
  g_autoptr(ClarifyTestRequest) post = NULL;
  Run run = { 0 };

  clarify_test_server_add_sse (server, EVENTS_PATH);
  for (guint i = 0; i < N_ASKED; i++)
    {
      g_autofree char *path = g_strdup_printf ("/agent/requests/n%u/response", i);

      clarify_test_server_add_json (server, "POST", path, 200, "application/json", "{}");
    }

  run_start (&run, outbox, server);
  g_assert_true (clarify_test_server_wait_for_n_streams (server, EVENTS_PATH, 1, WAIT_MS));
  for (guint i = 0; i < N_ASKED; i++)
    {
      g_string_append_printf (frames, "event: request\ndata: {\"id\":\"n%u\",\"questions\":"
                              "[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which tag?\"}]}\n\n", i);
      if ((i + 1) % BATCH != 0)
        continue;
      clarify_test_server_sse_send (server, EVENTS_PATH, frames->str, frames->len);
      g_string_truncate (frames, 0);
      g_assert_true (clarify_test_loop_until (has_batch, &run.seen, WAIT_MS));
      answer_pending (&run);
      for (guint j = i + 1 - BATCH; j <= i; j++)
        {
          g_autofree char *path = g_strdup_printf ("/agent/requests/n%u/response", j);

          g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", path, 1, WAIT_MS));
        }
    }
  g_assert_true (clarify_test_loop_until (outbox_is_empty, outbox, WAIT_MS));
  g_assert_cmpuint (clarify_test_outbox_count (taken, ".json"), ==, ANSWERS_KEPT);
  run_stop (&run);

  /* The first four are forgotten; the fifth is still known. */
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH,
                                        "event: request\ndata: {\"id\":\"n3\",\"questions\":"
                                        "[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which tag?\"}]}\n\n"
                                        "event: request\ndata: {\"id\":\"n4\",\"questions\":"
                                        "[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which tag?\"}]}\n\n");
  run_start (&run, outbox, server);
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_added, &run.seen, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", "/agent/requests/n4/response", 2, WAIT_MS));
  clarify_test_loop_for (300);
  g_assert_cmpuint (run.seen.added->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (run.seen.added, 0), ==, "n3");
  g_assert_cmpuint (count_posts (server, 3), ==, 1);
  g_assert_cmpuint (count_posts (server, 4), ==, 2);
  post = clarify_test_server_get_request (server, "POST", "/agent/requests/n4/response", 1);
  g_assert_cmpstr (post->body, ==, "{\"id\":\"n4\",\"outcome\":\"answered\",\"answers\":"
                                   "[{\"question_id\":\"q1\",\"values\":[\"n4\"]}]}");
  run_stop (&run);

  clarify_test_remove_tree (dir);
}

/* An earlier version kept a connection's answers taken in one file,
 * written whole for each answer. It is read once more, split into a
 * file per answer, and removed. */
static void
test_old_single_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-taken-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "work", -1);
  g_autofree char *old_name = g_strdup_printf ("%.32s.json", hash);
  g_autofree char *old_dir = g_build_filename (outbox, "taken", NULL);
  g_autofree char *old_file = g_build_filename (old_dir, old_name, NULL);
  g_autofree char *digest = NULL;
  g_autofree char *escaped = g_strescape (ANSWER_BODY, NULL);
  g_autofree char *text = NULL;
  g_autofree char *file = NULL;
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { 0 };

  /* The request's digest as Clarify computes it: its JSON form. */
  node = clarify_json_parse (REQUEST_R1, -1, &error);
  g_assert_no_error (error);
  request = clarify_request_new_from_json (node, &error);
  g_assert_no_error (error);
  g_clear_pointer (&node, json_node_unref);
  node = clarify_request_to_json (request);
  text = clarify_json_to_string (node);
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  g_free (text);
  text = g_strdup_printf ("{\"version\":1,\"connection\":\"work\",\"taken\":"
                          "[{\"id\":\"r1\",\"request_digest\":\"%s\",\"answer\":\"%s\"}]}",
                          digest, escaped);
  g_assert_cmpint (g_mkdir_with_parents (old_dir, 0700), ==, 0);
  g_file_set_contents (old_file, text, -1, &error);
  g_assert_no_error (error);

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1));
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");
  run_start (&run, outbox, server);
  assert_posted (server, 1);
  clarify_test_loop_for (300);
  g_assert_cmpuint (run.seen.added->len, ==, 0);
  g_assert_false (g_file_test (old_file, G_FILE_TEST_EXISTS));
  file = taken_file (outbox);
  g_assert_nonnull (file);
  run_stop (&run);

  clarify_test_remove_tree (dir);
}

#define REQUEST_R2   "{\"id\":\"r2\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which tag?\"}]}"
#define ANSWER_R2    "/agent/requests/r2/response"

static gboolean
has_two (gpointer data)
{
  return ((ClarifyTestSeen *) data)->added->len == 2;
}

/* The connection is removed (as clarify_application_disconnect() does:
 * its backend goes, then what the store keeps for it): the file of
 * answers taken goes with it, and an answer whose post was still on its
 * way when it went does not write it again. */
static void
test_connection_removed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-taken-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(ClarifyResponse) first = clarify_response_new ("r1", CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) second = clarify_response_new ("r2", CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyOutboxStore) store = NULL;
  g_autofree char *file = NULL;
  const char *values[] = { "main", NULL };
  Run run = { 0 };

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1) FRAME (REQUEST_R2));
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");
  clarify_test_server_add_json (server, "POST", ANSWER_R2, 200, "application/json", "{}");

  run_start (&run, outbox, server);
  store = g_object_ref (clarify_outbox_get_store (clarify_inbox_get_outbox (run.inbox)));
  g_assert_true (clarify_test_loop_until (has_two, &run.seen, WAIT_MS));
  clarify_response_add_answer (first, "q1", values, NULL, FALSE);
  clarify_inbox_answer (run.inbox, clarify_inbox_lookup (run.inbox, run.backend, "r1"), first);
  assert_posted (server, 1);
  g_assert_true (clarify_test_loop_until (outbox_is_empty, outbox, WAIT_MS));
  file = taken_file (outbox);
  g_assert_nonnull (file);

  /* r2's answer is on its way (the agent holds its reply) as the
   * connection is removed. */
  clarify_test_server_stall_next (server, ANSWER_R2, 1000);
  clarify_response_add_answer (second, "q1", values, NULL, FALSE);
  clarify_inbox_answer (run.inbox, clarify_inbox_lookup (run.inbox, run.backend, "r2"), second);
  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", ANSWER_R2, 1, WAIT_MS));
  clarify_inbox_remove_backend (run.inbox, run.backend);
  clarify_outbox_store_forget_connection (store, "work");
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));

  /* The agent takes r2 after all; nothing comes back on disk. */
  clarify_test_loop_for (1500);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (clarify_test_outbox_count (outbox, ".json"), ==, 0);
  run_stop (&run);

  clarify_test_remove_tree (dir);
}

/* No store (CLARIFY_OUTBOX_DIR empty): nothing is written, not even to
 * the default place. */
static void
test_no_store (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "clarify", NULL);
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = clarify_inbox_new ();
  g_autoptr(ClarifyResponse) response = clarify_response_new ("r1", CLARIFY_OUTCOME_ANSWERED);
  g_autofree char *url = clarify_test_server_get_url (server, EVENTS_PATH);
  g_autoptr(GError) error = NULL;
  const char *values[] = { "main", NULL };
  ClarifyTestSeen seen;

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1));
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");
  connection = clarify_connection_new ("work", "clarify", url);
  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  clarify_test_seen_init (&seen, inbox);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_added, &seen, WAIT_MS));
  clarify_response_add_answer (response, "q1", values, NULL, FALSE);
  clarify_inbox_answer (inbox, clarify_inbox_lookup (inbox, backend, "r1"), response);
  assert_posted (server, 1);
  clarify_test_loop_for (100);
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));

  clarify_backend_stop (backend);
  clarify_test_seen_clear (&seen);
}

/* Files that cannot be used are set aside once, as NAME.bad, with a
 * warning; the request is asked as a new one. */
static void
test_unreadable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-taken-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autofree char *taken = taken_dir (outbox);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "work", -1);
  g_autofree char *old_name = g_strdup_printf ("%.32s.json", hash);
  g_autofree char *taken_root = g_build_filename (outbox, "taken", NULL);
  g_autofree char *old_file = g_build_filename (taken_root, old_name, NULL);
  g_autofree char *broken = g_build_filename (taken, "broken.json", NULL);
  g_autofree char *no_digest = g_build_filename (taken, "no-digest.json", NULL);
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (taken, 0700), ==, 0);
  g_file_set_contents (old_file, "{\"version\":1,\"connection\":\"work\",\"taken\":", -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (broken, "not json", -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (no_digest, "{\"version\":1,\"connection\":\"work\",\"id\":\"r1\","
                       "\"request_digest\":\"abc\",\"taken_at\":1,\"answer\":\"{}\"}", -1, &error);
  g_assert_no_error (error);

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1));
  clarify_test_log_start ();
  run_start (&run, outbox, server);
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_added, &run.seen, WAIT_MS));
  lines = clarify_test_log_stop ();
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_true (g_str_has_prefix (lines[i], "WARNING: Cannot read the kept answer"));
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 0);
  run_stop (&run);

  g_assert_false (g_file_test (old_file, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (broken, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (no_digest, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (clarify_test_outbox_count (taken, ".bad"), ==, 2);
  g_assert_cmpuint (clarify_test_outbox_count (taken_root, ".bad"), ==, 1);

  clarify_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/outbox-taken/resent-after-restart", test_resent_after_restart);
  g_test_add_func ("/outbox-taken/no-store", test_no_store);
  g_test_add_func ("/outbox-taken/connection-removed", test_connection_removed);
  g_test_add_func ("/outbox-taken/oldest-go", test_oldest_go);
  g_test_add_func ("/outbox-taken/old-single-file", test_old_single_file);
  g_test_add_func ("/outbox-taken/unreadable", test_unreadable);

  return g_test_run ();
}
