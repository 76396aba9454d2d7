/* test-outbox-store.c: answers kept on disk survive Clarify being killed
 *
 * The end-to-end case runs the inbox in a child process (this program,
 * re-run with CLARIFY_TEST_OUTBOX_CHILD set) against a fake "clarify"
 * agent that cannot take answers, kills it with SIGKILL once its answer is
 * on disk, and starts again in the test process against the agent, back
 * up: the agent gets the answer once, and no dialog asks again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "clarify-ag3ntum-codec.h"
#include "clarify-backend-registry.h"
#include "clarify-error.h"
#include "clarify-inbox.h"
#include "clarify-json-backend.h"
#include "clarify-json.h"
#include "clarify-opencode-decoder.h"
#include "clarify-opencode-encoder.h"
#include "clarify-phoenix-codec.h"
#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-server.h"

#define WAIT_MS      10000
#define EVENTS_PATH  "/agent/events"
#define ANSWER_PATH  "/agent/requests/r1/response"
#define TOKEN        "s3cret-token"
#define REQUEST_R1   "{\"id\":\"r1\",\"title\":\"Deploy\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which branch?\"}]}"
#define REQUEST_R2   "{\"id\":\"r2\",\"questions\":[{\"id\":\"q1\",\"kind\":\"confirm\",\"text\":\"Go?\"}]}"
#define FRAME(json)  "event: request\ndata: " json "\n\n"
#define ANSWER_BODY  "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"q1\",\"values\":[\"main\"]}]}"

static ClarifyResponse *
make_answer (const char *request_id)
{
  ClarifyResponse *response = clarify_response_new (request_id, CLARIFY_OUTCOME_ANSWERED);
  const char *values[] = { "main", NULL };

  clarify_response_add_answer (response, "q1", values, NULL, FALSE);
  return response;
}

static ClarifyBackend *
make_backend (const char *url)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("work", "clarify", url);
  g_autoptr(GError) error = NULL;
  ClarifyBackend *backend;

  clarify_connection_set_option (connection, "token", TOKEN);
  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  clarify_sse_client_set_backoff (clarify_json_backend_get_sse_client (CLARIFY_JSON_BACKEND (backend)), 20, 100);

  return backend;
}

/* An inbox that keeps its answers in @dir, with the "clarify" agent at @url. */
static ClarifyInbox *
make_inbox (const char      *dir,
            const char      *url,
            ClarifyBackend **backend)
{
  ClarifyInbox *inbox = clarify_inbox_new ();
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);

  clarify_outbox_set_store (clarify_inbox_get_outbox (inbox), store);
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (inbox), 50, 200);
  *backend = make_backend (url);

  return inbox;
}

static char *
first_file (const char *dir,
            const char *suffix)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, suffix))
      return g_build_filename (dir, name, NULL);

  return NULL;
}

/* The child: answers what the agent asks, and waits to be killed. */
static void
child_answer (ClarifyInbox   *inbox,
              ClarifyRequest *request,
              gpointer        user_data)
{
  g_autoptr(ClarifyResponse) response = make_answer (clarify_request_get_id (request));

  clarify_inbox_answer (inbox, request, response);
}

static int
run_child (const char *url,
           const char *dir)
{
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = make_inbox (dir, url, &backend);

  g_signal_connect (inbox, "request-added", G_CALLBACK (child_answer), NULL);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);

  for (;;)
    g_main_context_iteration (NULL, TRUE);

  return 0;
}

static gboolean
has_pending (gpointer data)
{
  return clarify_inbox_get_n_pending (data) > 0;
}

typedef struct
{
  ClarifyInbox   *inbox;
  ClarifyBackend *backend;
  const char     *id;
} Lookup;

static gboolean
is_gone (gpointer data)
{
  Lookup *lookup = data;

  return clarify_inbox_lookup (lookup->inbox, lookup->backend, lookup->id) == NULL;
}

static gboolean
is_waiting (gpointer data)
{
  return clarify_request_get_end_reason (data) == CLARIFY_END_REASON_WAITING_FOR_AGENT;
}

typedef struct
{
  const char *dir;
  guint       n;
} FileWait;

static gboolean
has_n_files (gpointer data)
{
  FileWait *wait = data;

  return clarify_test_outbox_count (wait->dir, ".json") == wait->n;
}

static void
test_killed_while_agent_down (void)
{
  g_autoptr(ClarifyTestServer) down = clarify_test_server_new ();
  g_autoptr(ClarifyTestServer) back = NULL;
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autofree char *url = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(GError) error = NULL;
  FileWait one_file = { outbox, 1 };
  FileWait no_file = { outbox, 0 };
  ClarifyTestSeen seen;
  GStatBuf st;

  /* The agent asks, but cannot take answers: it is going down. */
  clarify_test_server_add_sse (down, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (down, EVENTS_PATH, FRAME (REQUEST_R1));
  clarify_test_server_add_json (down, "POST", ANSWER_PATH, 503, "text/plain", "restarting");
  url = clarify_test_server_get_url (down, EVENTS_PATH);

  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_OUTBOX_CHILD", url, TRUE);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_OUTBOX_DIR", outbox, TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, "/proc/self/exe", NULL);
  g_assert_no_error (error);

  /* The user answered; the agent refused it at least once; it is on disk. */
  g_assert_true (clarify_test_server_wait_for_n_requests (down, "POST", ANSWER_PATH, 1, WAIT_MS));
  g_assert_true (clarify_test_loop_until (has_n_files, &one_file, WAIT_MS));

  g_subprocess_send_signal (child, SIGKILL);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));
  g_assert_cmpint (g_subprocess_get_term_sig (child), ==, SIGKILL);

  /* Private to the user, and no secret in it. */
  kept = first_file (outbox, ".json");
  g_assert_cmpint (g_stat (outbox, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpint (g_stat (kept, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_file_get_contents (kept, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (strstr (text, TOKEN));
  g_assert_nonnull (strstr (text, "\"connection\":\"work\""));
  g_assert_nonnull (strstr (text, "\"main\""));
  g_clear_pointer (&down, clarify_test_server_free);

  /* The agent is back (elsewhere) and still lists the question, with another. */
  back = clarify_test_server_new ();
  clarify_test_server_add_sse (back, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (back, EVENTS_PATH, FRAME (REQUEST_R1) FRAME (REQUEST_R2));
  clarify_test_server_add_json (back, "POST", ANSWER_PATH, 200, "application/json", "{\"received\":\"main\"}");
  g_clear_pointer (&url, g_free);
  url = clarify_test_server_get_url (back, EVENTS_PATH);

  /* Clarify starts again. */
  inbox = make_inbox (outbox, url, &backend);
  clarify_test_seen_init (&seen, inbox);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);

  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_replayed, &seen, WAIT_MS));
  g_assert_cmpstr (seen.replayed->pdata[0], ==, "r1=delivered");
  /* r2 comes after r1 on the stream: once it is here, r1's resync was seen. */
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_added, &seen, WAIT_MS));
  g_assert_cmpuint (seen.added->len, ==, 1);
  g_assert_cmpstr (seen.added->pdata[0], ==, "r2");

  /* Once, with the user's answer, and nothing left on disk. */
  g_assert_cmpuint (clarify_test_server_get_n_requests (back, "POST", ANSWER_PATH), ==, 1);
  post = clarify_test_server_get_request (back, "POST", ANSWER_PATH, 0);
  g_assert_cmpstr (post->body, ==, ANSWER_BODY);
  g_assert_true (clarify_test_loop_until (has_n_files, &no_file, WAIT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (inbox)), ==, 1);

  clarify_backend_stop (backend);
  clarify_test_seen_clear (&seen);
  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

static void
test_replay_not_needed (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *url = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyTestSeen seen;

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 404, "application/json", "{\"error\":\"no such request\"}");
  url = clarify_test_server_get_url (server, EVENTS_PATH);
  clarify_test_outbox_keep_answer (dir, url, REQUEST_R1);

  inbox = make_inbox (dir, url, &backend);
  clarify_test_seen_init (&seen, inbox);
  clarify_inbox_add_backend (inbox, backend);

  /* While it is on its way, the window lists it as waiting. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (inbox)), ==, 1);
  request = g_list_model_get_item (G_LIST_MODEL (inbox), 0);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_SENDING);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_WAITING_FOR_AGENT);
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "work");

  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_replayed, &seen, WAIT_MS));
  g_assert_cmpstr (seen.replayed->pdata[0], ==, "r1=not needed");
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_DONE);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_NOT_NEEDED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 1);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 0);
  g_assert_cmpuint (seen.added->len, ==, 0);

  clarify_test_seen_clear (&seen);
  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

/* At start the backend may not have logged in yet: a kept answer the agent
 * refuses with 401 waits for that, instead of asking the user again. */
static void
test_replay_waits_for_login (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *url = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  ClarifyTestSeen seen;

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 401, "application/json", "{\"error\":\"log in\"}");
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");
  url = clarify_test_server_get_url (server, EVENTS_PATH);
  clarify_test_outbox_keep_answer (dir, url, REQUEST_R1);

  inbox = make_inbox (dir, url, &backend);
  clarify_test_seen_init (&seen, inbox);
  clarify_inbox_add_backend (inbox, backend);

  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_replayed, &seen, WAIT_MS));
  g_assert_cmpstr (seen.replayed->pdata[0], ==, "r1=delivered");
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 2);
  g_assert_cmpuint (seen.added->len, ==, 0);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 0);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 0);

  clarify_test_seen_clear (&seen);
  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

/* The connection is replaced (same name, the agent moved) while a kept
 * answer waits: the new backend sends it. Removing the connection drops
 * what it still owed. */
static void
test_connection_replaced (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *url = NULL;
  g_autoptr(ClarifyBackend) old = NULL;
  g_autoptr(ClarifyBackend) moved = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);
  ClarifyTestSeen seen;

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");
  url = clarify_test_server_get_url (server, EVENTS_PATH);
  clarify_test_outbox_keep_answer (dir, "http://127.0.0.1:1/agent/events", REQUEST_R1);

  inbox = make_inbox (dir, "http://127.0.0.1:1/agent/events", &old);
  clarify_test_seen_init (&seen, inbox);
  clarify_inbox_add_backend (inbox, old);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (inbox)), ==, 1);

  moved = make_backend (url);
  clarify_inbox_add_backend (inbox, moved);
  g_assert_true (clarify_test_loop_until (clarify_test_seen_has_replayed, &seen, WAIT_MS));
  g_assert_cmpstr (seen.replayed->pdata[0], ==, "r1=delivered");
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 1);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 0);

  clarify_test_outbox_keep_answer (dir, url, REQUEST_R1);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 1);
  clarify_outbox_store_forget_connection (store, "other");
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 1);
  clarify_outbox_store_forget_connection (store, "work");
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 0);

  clarify_test_seen_clear (&seen);
  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

static void
test_unreadable_set_aside (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *garbage = g_build_filename (dir, "0123.json", NULL);
  g_autofree char *foreign = g_build_filename (dir, "4567.json", NULL);
  g_autofree char *partial = g_build_filename (dir, "89ab.json.XYZ123", NULL);
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (garbage, "{\"version\":1,\"connection\":", -1, &error);
  g_assert_no_error (error);
  /* Valid JSON, but the request in it is not. */
  g_file_set_contents (foreign, "{\"version\":1,\"connection\":\"work\",\"kind\":\"clarify\",\"request\":{},"
                       "\"delivery\":{},\"response\":{}}", -1, &error);
  g_assert_no_error (error);
  /* What an interrupted atomic write leaves: not read, not touched. */
  g_file_set_contents (partial, "{", -1, &error);
  g_assert_no_error (error);

  inbox = make_inbox (dir, "http://127.0.0.1:1/agent/events", &backend);
  clarify_test_log_start ();
  clarify_inbox_add_backend (inbox, backend);
  lines = clarify_test_log_stop ();

  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_true (g_str_has_prefix (lines[0], "WARNING: Cannot read the kept answer"));
  g_assert_nonnull (strstr (lines[0], ".bad"));
  g_assert_true (g_str_has_prefix (lines[1], "WARNING: Cannot read the kept answer"));
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 0);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json.bad"), ==, 2);
  g_assert_true (g_file_test (partial, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (inbox)), ==, 0);

  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

typedef struct
{
  guint   n;
  GError *error;
} NotSaved;

static void
on_not_saved (ClarifyOutbox  *outbox,
              ClarifyRequest *request,
              const GError   *error,
              NotSaved       *not_saved)
{
  not_saved->n++;
  g_clear_error (&not_saved->error);
  not_saved->error = g_error_copy (error);
}

static gboolean
has_no_request (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) == 0;
}

/* The data dir cannot be written (here: a file stands where a folder
 * should be, which refuses even root): the answer goes out from memory. */
static void
test_unwritable_dir (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *blocker = g_build_filename (dir, "data", NULL);
  g_autofree char *outbox = g_build_filename (blocker, "outbox", NULL);
  g_autofree char *url = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  g_autoptr(ClarifyResponse) response = make_answer ("r1");
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  NotSaved not_saved = { 0, NULL };

  g_file_set_contents (blocker, "", -1, &error);
  g_assert_no_error (error);

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1));
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");
  url = clarify_test_server_get_url (server, EVENTS_PATH);

  inbox = make_inbox (outbox, url, &backend);
  g_signal_connect (clarify_inbox_get_outbox (inbox), "not-saved", G_CALLBACK (on_not_saved), &not_saved);
  /* Nothing kept can be read from there either; it says so. */
  clarify_test_log_start ();
  clarify_inbox_add_backend (inbox, backend);
  lines = clarify_test_log_stop ();
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_true (g_str_has_prefix (lines[0], "WARNING: Cannot read the kept answers in"));
  g_clear_pointer (&lines, g_strfreev);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_loop_until (has_pending, inbox, WAIT_MS));
  request = g_list_model_get_item (clarify_inbox_get_pending (inbox), 0);

  clarify_test_log_start ();
  clarify_inbox_answer (inbox, request, response);
  lines = clarify_test_log_stop ();

  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_true (g_str_has_prefix (lines[0], "WARNING: Cannot keep the answer to r1 on disk, sending it from memory"));
  g_assert_cmpuint (not_saved.n, ==, 1);
  g_assert_error (not_saved.error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);

  g_clear_pointer (&lines, g_strfreev);

  /* Taken, it cannot be kept for a request sent again after a restart
   * either (test-outbox-taken): the log says so, nothing else changes. */
  clarify_test_log_start ();
  g_assert_true (clarify_test_loop_until (has_no_request, inbox, WAIT_MS));
  lines = clarify_test_log_stop ();
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_true (g_str_has_prefix (lines[0], "WARNING: Connection “work”: cannot keep the answer the agent took on disk"));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 1);

  clarify_backend_stop (backend);
  g_object_unref (request);
  g_clear_error (&not_saved.error);
  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

/* The disk fills up as the answer is kept: the kernel refuses the write
 * (a file-size limit stands in for a full disk: the same failed write,
 * without root or a small file system). The user is told, the log says
 * so, and the answer is sent from memory, retried while the agent answers
 * 503, and delivered once. */
static void
test_disk_full (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *outbox = g_build_filename (dir, "outbox", NULL);
  g_autofree char *url = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  g_autoptr(ClarifyResponse) response = make_answer ("r1");
  g_auto(GStrv) lines = NULL;
  ClarifyRequest *request;
  NotSaved not_saved = { 0, NULL };
  struct rlimit old_limit;
  struct rlimit tiny;
  void (*old_handler) (int);

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1));
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 503, "text/plain", "busy");
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 200, "application/json", "{}");
  url = clarify_test_server_get_url (server, EVENTS_PATH);

  inbox = make_inbox (outbox, url, &backend);
  g_signal_connect (clarify_inbox_get_outbox (inbox), "not-saved", G_CALLBACK (on_not_saved), &not_saved);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_loop_until (has_pending, inbox, WAIT_MS));
  request = g_list_model_get_item (clarify_inbox_get_pending (inbox), 0);

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  tiny.rlim_cur = 16;
  tiny.rlim_max = old_limit.rlim_max;
  old_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &tiny), ==, 0);
  clarify_test_log_start ();
  clarify_inbox_answer (inbox, request, response);
  lines = clarify_test_log_stop ();
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  signal (SIGXFSZ, old_handler);

  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_true (g_str_has_prefix (lines[0], "WARNING: Cannot keep the answer to r1 on disk, sending it from memory"));
  g_assert_cmpuint (not_saved.n, ==, 1);
  g_assert_nonnull (not_saved.error);
  g_test_message ("the refusal: %s", not_saved.error->message);

  g_assert_true (clarify_test_loop_until (has_no_request, inbox, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", ANSWER_PATH), ==, 2);
  /* Nothing left but the folder of answers taken (test-outbox-taken). */
  g_assert_cmpuint (clarify_test_outbox_count (outbox, ""), ==, 1);
  g_assert_cmpuint (clarify_test_outbox_count (outbox, "taken"), ==, 1);

  clarify_backend_stop (backend);
  g_object_unref (request);
  g_clear_error (&not_saved.error);
  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

/* The agent withdraws the question while its answer waits to be retried:
 * the kept answer goes too. Clarify quitting keeps it. */
static void
test_withdrawn_and_quit (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autofree char *url = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  g_autoptr(ClarifyResponse) response = make_answer ("r1");
  FileWait one_file = { dir, 1 };
  Lookup r1 = { NULL, NULL, "r1" };
  ClarifyRequest *request;

  clarify_test_server_add_sse (server, EVENTS_PATH);
  clarify_test_server_set_sse_greeting (server, EVENTS_PATH, FRAME (REQUEST_R1) FRAME (REQUEST_R2));
  clarify_test_server_add_json (server, "POST", ANSWER_PATH, 503, "text/plain", "busy");
  url = clarify_test_server_get_url (server, EVENTS_PATH);

  inbox = make_inbox (dir, url, &backend);
  r1.inbox = inbox;
  r1.backend = backend;
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (inbox), 60000, 60000);
  clarify_inbox_add_backend (inbox, backend);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_loop_until (has_pending, inbox, WAIT_MS));
  request = clarify_inbox_lookup (inbox, backend, "r1");
  g_assert_nonnull (request);

  clarify_inbox_answer (inbox, request, response);
  g_assert_true (clarify_test_loop_until (has_n_files, &one_file, WAIT_MS));
  /* The first try failed: the window says it waits. */
  g_assert_true (clarify_test_loop_until (is_waiting, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_SENDING);

  clarify_test_server_sse_send (server, EVENTS_PATH, "event: withdraw\ndata: {\"id\":\"r1\"}\n\n", -1);
  g_assert_true (clarify_test_loop_until (is_gone, &r1, WAIT_MS));
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 0);

  /* r2 answered, its post failing; then Clarify quits. */
  request = clarify_inbox_lookup (inbox, backend, "r2");
  g_assert_nonnull (request);
  g_clear_object (&response);
  response = make_answer ("r2");
  clarify_inbox_answer (inbox, request, response);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 1);

  clarify_backend_stop (backend);
  g_clear_object (&inbox);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 1);

  clarify_test_remove_tree (dir);
}

/* What a backend posts for @response: path and body, or body alone. */
typedef char *(*EncodeFunc) (ClarifyRequest  *request,
                             ClarifyResponse *response);

static char *
encode_opencode (ClarifyRequest  *request,
                 ClarifyResponse *response)
{
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_opencode_encode_reply (request, response, &path, &body, &error));
  g_assert_no_error (error);
  return g_strconcat (path, " ", body, " ", clarify_opencode_request_get_info (request)->directory, NULL);
}

static char *
encode_phoenix (ClarifyRequest  *request,
                ClarifyResponse *response)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *body = clarify_phoenix_encode_answers (request, response, &error);

  g_assert_no_error (error);
  return g_strconcat (clarify_phoenix_request_get_conversation (request), " ", body, NULL);
}

static char *
encode_ag3ntum (ClarifyRequest  *request,
                ClarifyResponse *response)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = clarify_ag3ntum_encode_answer (request, response, &error);

  g_assert_no_error (error);
  return g_strconcat (clarify_request_get_session (request), " ", answer, NULL);
}

/* @request of a backend of @kind comes back from disk able to post the same. */
static void
assert_round_trip (const char      *kind,
                   ClarifyRequest  *request,
                   const char      *question_id,
                   const char      *value,
                   EncodeFunc       encode)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("laptop", kind, "http://127.0.0.1:1");
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char *values[] = { value, NULL };
  ClarifyOutboxSaved *item;

  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  clarify_response_add_answer (response, question_id, values, NULL, FALSE);
  before = encode (request, response);

  name = clarify_outbox_store_save (store, backend, request, response, &error);
  g_assert_no_error (error);
  g_assert_nonnull (name);

  saved = clarify_outbox_store_load (store, backend);
  g_assert_cmpuint (saved->len, ==, 1);
  item = g_ptr_array_index (saved, 0);
  g_assert_cmpstr (item->name, ==, name);
  g_assert_cmpstr (clarify_request_get_id (item->request), ==, clarify_request_get_id (request));
  after = encode (item->request, item->response);
  g_assert_cmpstr (after, ==, before);

  clarify_test_remove_tree (dir);
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = clarify_json_parse (json, -1, &error);

  g_assert_no_error (error);
  return node;
}

#define COLOURS "[{\"question\":\"Colour?\",\"header\":\"Colour\",\"multiSelect\":false,\"options\":" \
                "[{\"label\":\"Blue\",\"description\":\"calm\"},{\"label\":\"Red\",\"description\":\"loud\"}]}]"

static void
test_round_trip_opencode (void)
{
  g_autoptr(JsonNode) node = parse ("{\"id\":\"que_1\",\"sessionID\":\"ses_9\",\"questions\":" COLOURS "}");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  request = clarify_opencode_question_new (json_node_get_object (node), "/home/me/project", NULL, &error);
  g_assert_no_error (error);
  assert_round_trip ("opencode", request, clarify_question_get_id (clarify_request_get_question (request, 0)),
                     "Blue", encode_opencode);
}

/* Older servers answer a permission through its session: that comes back too. */
static void
test_round_trip_opencode_permission (void)
{
  g_autoptr(JsonNode) node = parse ("{\"id\":\"per_old1\",\"type\":\"edit\",\"pattern\":[\"src/*.c\"],"
                                    "\"sessionID\":\"ses_old\",\"messageID\":\"msg_1\",\"title\":\"Edit src/main.c\","
                                    "\"metadata\":{\"filepath\":\"src/main.c\"},\"time\":{\"created\":1}}");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  request = clarify_opencode_permission_new (json_node_get_object (node), TRUE, "/home/me/project", NULL, &error);
  g_assert_no_error (error);
  assert_round_trip ("opencode", request, CLARIFY_OPENCODE_PERMISSION_REPLY, CLARIFY_PERMISSION_ONCE, encode_opencode);
}

static void
test_round_trip_phoenix (void)
{
  g_autoptr(JsonNode) node = parse ("{\"type\":\"awaiting_user_response\",\"tool_use_id\":\"toolu_7\","
                                    "\"questions\":" COLOURS "}");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  request = clarify_phoenix_decode_question (json_node_get_object (node), "conv-3", &error);
  g_assert_no_error (error);
  assert_round_trip ("phoenix", request, "q1", "Red", encode_phoenix);
}

static void
test_round_trip_ag3ntum (void)
{
  g_autoptr(JsonNode) node = parse (COLOURS);
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  request = clarify_ag3ntum_decode_question ("sess-5", "question-1", json_node_get_array (node), &error);
  g_assert_no_error (error);
  assert_round_trip ("ag3ntum", request, "q1", "Blue", encode_ag3ntum);
}

int
main (int   argc,
      char *argv[])
{
  if (g_getenv ("CLARIFY_TEST_OUTBOX_CHILD") != NULL)
    return run_child (g_getenv ("CLARIFY_TEST_OUTBOX_CHILD"), g_getenv ("CLARIFY_TEST_OUTBOX_DIR"));

  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/outbox-store/killed-while-agent-down", test_killed_while_agent_down);
  g_test_add_func ("/outbox-store/replay-not-needed", test_replay_not_needed);
  g_test_add_func ("/outbox-store/replay-waits-for-login", test_replay_waits_for_login);
  g_test_add_func ("/outbox-store/connection-replaced", test_connection_replaced);
  g_test_add_func ("/outbox-store/unreadable-set-aside", test_unreadable_set_aside);
  g_test_add_func ("/outbox-store/unwritable-dir", test_unwritable_dir);
  g_test_add_func ("/outbox-store/disk-full", test_disk_full);
  g_test_add_func ("/outbox-store/withdrawn-and-quit", test_withdrawn_and_quit);
  g_test_add_func ("/outbox-store/round-trip/opencode", test_round_trip_opencode);
  g_test_add_func ("/outbox-store/round-trip/opencode-permission", test_round_trip_opencode_permission);
  g_test_add_func ("/outbox-store/round-trip/phoenix", test_round_trip_phoenix);
  g_test_add_func ("/outbox-store/round-trip/ag3ntum", test_round_trip_ag3ntum);

  return g_test_run ();
}
