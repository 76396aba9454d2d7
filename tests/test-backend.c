/* test-backend.c: the backend base class, the registry and the "clarify" JSON backend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-json-backend.h"
#include "clarify-backend-registry.h"
#include "clarify-error.h"
#include "clarify-inbox-private.h"
#include "clarify-json.h"
#include "clarify-test-inbox.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"
#include "clarify-test-signals.h"

#define WAIT_MS 5000

/* ---- the base class, through a minimal subclass ---- */

#define TEST_TYPE_PLAIN_BACKEND (test_plain_backend_get_type ())
G_DECLARE_FINAL_TYPE (TestPlainBackend, test_plain_backend, TEST, PLAIN_BACKEND, ClarifyBackend)

struct _TestPlainBackend
{
  ClarifyBackend parent_instance;
  guint          n_started;
  guint          n_stopped;
};

G_DEFINE_FINAL_TYPE (TestPlainBackend, test_plain_backend, CLARIFY_TYPE_BACKEND)

static void
test_plain_backend_start (ClarifyBackend *backend)
{
  TEST_PLAIN_BACKEND (backend)->n_started++;
}

static void
test_plain_backend_stop (ClarifyBackend *backend)
{
  TEST_PLAIN_BACKEND (backend)->n_stopped++;
}

static void
test_plain_backend_class_init (TestPlainBackendClass *klass)
{
  CLARIFY_BACKEND_CLASS (klass)->start = test_plain_backend_start;
  CLARIFY_BACKEND_CLASS (klass)->stop = test_plain_backend_stop;
}

static void
test_plain_backend_init (TestPlainBackend *self)
{
}

static ClarifyRequest *
make_request (const char *id)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");

  clarify_request_add_question (request, question);

  return request;
}

static void
count_withdrawn (ClarifyRequest   *request,
                 ClarifyEndReason  reason,
                 const char       *detail,
                 guint            *counter)
{
  (*counter)++;
}

static void
test_base_dedup (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("laptop", "clarify", "http://127.0.0.1:1/events");
  g_autoptr(TestPlainBackend) backend = g_object_new (TEST_TYPE_PLAIN_BACKEND, "connection", connection, NULL);
  g_autoptr(ClarifyRequest) first = make_request ("r1");
  g_autoptr(ClarifyRequest) again = make_request ("r1");
  g_autoptr(ClarifyRequest) other = make_request ("r2");
  GListModel *requests = clarify_backend_get_requests (CLARIFY_BACKEND (backend));
  guint n_added = 0;

  g_signal_connect_swapped (backend, "request-added", G_CALLBACK (clarify_test_count_emission), &n_added);

  g_assert_true (clarify_backend_get_connection (CLARIFY_BACKEND (backend)) == connection);
  g_assert_cmpuint (g_list_model_get_n_items (requests), ==, 0);

  g_assert_true (clarify_backend_add_request (CLARIFY_BACKEND (backend), first));
  g_assert_cmpuint (n_added, ==, 1);
  g_assert_cmpstr (clarify_request_get_connection_name (first), ==, "laptop");
  g_assert_cmpstr (clarify_request_get_connection_kind (first), ==, "clarify");
  g_assert_cmpint (clarify_request_get_received_at (first), >, 0);

  /* The same id again (a resync after a reconnect) is not a new question. */
  g_assert_false (clarify_backend_add_request (CLARIFY_BACKEND (backend), again));
  g_assert_cmpuint (n_added, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (requests), ==, 1);
  g_assert_true (clarify_backend_lookup_request (CLARIFY_BACKEND (backend), "r1") == first);

  g_assert_true (clarify_backend_add_request (CLARIFY_BACKEND (backend), other));
  g_assert_cmpuint (n_added, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (requests), ==, 2);
  g_assert_true (g_list_model_get_item (requests, 1) == (gpointer) other);
  g_object_unref (other);

  g_assert_null (clarify_backend_lookup_request (CLARIFY_BACKEND (backend), "r3"));
  g_assert_null (clarify_backend_lookup_request (CLARIFY_BACKEND (backend), NULL));

  clarify_backend_start (CLARIFY_BACKEND (backend));
  clarify_backend_stop (CLARIFY_BACKEND (backend));
  g_assert_cmpuint (backend->n_started, ==, 1);
  g_assert_cmpuint (backend->n_stopped, ==, 1);
}

static void
test_base_withdraw (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("laptop", "clarify", "http://127.0.0.1:1/events");
  g_autoptr(TestPlainBackend) backend = g_object_new (TEST_TYPE_PLAIN_BACKEND, "connection", connection, NULL);
  g_autoptr(ClarifyRequest) request = make_request ("r1");
  g_autoptr(ClarifyRequest) answered = make_request ("r2");
  GListModel *requests = clarify_backend_get_requests (CLARIFY_BACKEND (backend));
  guint n_withdrawn = 0;
  guint n_answered_withdrawn = 0;

  clarify_backend_add_request (CLARIFY_BACKEND (backend), request);
  clarify_backend_add_request (CLARIFY_BACKEND (backend), answered);
  g_signal_connect (request, "withdrawn", G_CALLBACK (count_withdrawn), &n_withdrawn);
  g_signal_connect (answered, "withdrawn", G_CALLBACK (count_withdrawn), &n_answered_withdrawn);

  clarify_backend_withdraw_request (CLARIFY_BACKEND (backend), "r1",
                                    CLARIFY_END_REASON_AGENT_WITHDREW, "Answered in the terminal");
  g_assert_cmpuint (n_withdrawn, ==, 1);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_WITHDRAWN);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_WITHDREW);
  g_assert_cmpstr (clarify_request_get_end_detail (request), ==, "Answered in the terminal");
  g_assert_null (clarify_backend_lookup_request (CLARIFY_BACKEND (backend), "r1"));
  g_assert_cmpuint (g_list_model_get_n_items (requests), ==, 1);

  /* Twice, or for an unknown id: nothing happens. */
  clarify_backend_withdraw_request (CLARIFY_BACKEND (backend), "r1", CLARIFY_END_REASON_SESSION_ENDED, "again");
  clarify_backend_withdraw_request (CLARIFY_BACKEND (backend), "nope", CLARIFY_END_REASON_SESSION_ENDED, "again");
  g_assert_cmpuint (n_withdrawn, ==, 1);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_WITHDREW);
  g_assert_cmpstr (clarify_request_get_end_detail (request), ==, "Answered in the terminal");

  /* Forgetting an answered request removes it without a withdrawal. */
  clarify_backend_forget_request (CLARIFY_BACKEND (backend), "r2");
  g_assert_cmpuint (n_answered_withdrawn, ==, 0);
  g_assert_false (clarify_request_is_withdrawn (answered));
  g_assert_cmpuint (g_list_model_get_n_items (requests), ==, 0);

  g_assert_cmpint (clarify_request_get_end (answered), ==, CLARIFY_REQUEST_END_ANSWERED);

  /* A forgotten id may come back as a new request. */
  {
    g_autoptr(ClarifyRequest) again = make_request ("r2");

    g_assert_true (clarify_backend_add_request (CLARIFY_BACKEND (backend), again));
  }
}

static void
test_base_state (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("laptop", "clarify", "http://127.0.0.1:1/events");
  g_autoptr(TestPlainBackend) backend = g_object_new (TEST_TYPE_PLAIN_BACKEND, "connection", connection, NULL);
  ClarifyBackend *base = CLARIFY_BACKEND (backend);
  guint n_state = 0;
  guint n_note = 0;
  guint state = 99;

  g_signal_connect_swapped (backend, "notify::state", G_CALLBACK (clarify_test_count_emission), &n_state);
  g_signal_connect_swapped (backend, "notify::note", G_CALLBACK (clarify_test_count_emission), &n_note);

  g_assert_cmpint (clarify_backend_get_state (base), ==, CLARIFY_CONNECTION_STATE_IDLE);
  g_assert_cmpint (clarify_backend_get_note (base), ==, CLARIFY_BACKEND_NOTE_NONE);

  /* Notified on change only. */
  clarify_backend_set_state (base, CLARIFY_CONNECTION_STATE_CONNECTING, CLARIFY_BACKEND_NOTE_LOGGING_IN, NULL, NULL);
  clarify_backend_set_state (base, CLARIFY_CONNECTION_STATE_CONNECTING, CLARIFY_BACKEND_NOTE_LOGGING_IN, NULL, NULL);
  g_assert_cmpuint (n_state, ==, 1);
  g_assert_cmpuint (n_note, ==, 1);

  /* The subject and the error text are part of the note. */
  clarify_backend_set_state (base, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR, "ws-1", "gone");
  g_assert_cmpuint (n_state, ==, 2);
  g_assert_cmpuint (n_note, ==, 2);
  clarify_backend_set_state (base, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR, "ws-1", "lost");
  g_assert_cmpuint (n_state, ==, 2);
  g_assert_cmpuint (n_note, ==, 3);
  g_assert_cmpstr (clarify_backend_get_note_subject (base), ==, "ws-1");
  g_assert_cmpstr (clarify_backend_get_error_text (base), ==, "lost");

  clarify_backend_set_state (base, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
  g_assert_cmpuint (n_note, ==, 4);
  g_assert_null (clarify_backend_get_note_subject (base));
  g_assert_null (clarify_backend_get_error_text (base));
  g_object_get (backend, "state", &state, NULL);
  g_assert_cmpuint (state, ==, CLARIFY_CONNECTION_STATE_CONNECTED);
}

/* ---- the registry ---- */

static void
test_registry (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("agent", "clarify", "http://127.0.0.1:1/events");
  g_autoptr(ClarifyConnection) unknown = clarify_connection_new ("agent", "carrier-pigeon", "http://127.0.0.1:1/");
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyBackend) none = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree const char **kinds = NULL;
  const ClarifyBackendInfo *info;

  info = clarify_backend_registry_lookup ("clarify");
  g_assert_nonnull (info);
  g_assert_cmpstr (info->kind, ==, "clarify");
  g_assert_nonnull (info->display_name);
  g_assert_true (info->get_type () == CLARIFY_TYPE_JSON_BACKEND);
  g_assert_null (clarify_backend_registry_lookup ("carrier-pigeon"));
  g_assert_null (clarify_backend_registry_lookup (NULL));

  kinds = clarify_backend_registry_list_kinds ();
  g_assert_true (g_strv_contains (kinds, "clarify"));
  for (guint i = 0; kinds[i] != NULL; i++)
    g_assert_nonnull (clarify_backend_registry_lookup (kinds[i]));

  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  g_assert_true (CLARIFY_IS_JSON_BACKEND (backend));
  g_assert_true (clarify_backend_get_connection (backend) == connection);
  g_assert_cmpint (clarify_backend_get_state (backend), ==, CLARIFY_CONNECTION_STATE_IDLE);

  none = clarify_backend_registry_create (unknown, &error);
  g_assert_null (none);
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "carrier-pigeon"));
}

/* ---- the "clarify" JSON backend against a fake agent ---- */

#define EVENTS_PATH   "/agent/events"
#define RESPONSE_PATH "/agent/requests/r1/response"

#define REQUEST_R1 "{\"id\":\"r1\",\"title\":\"Setup\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Name?\"}]}"
#define REQUEST_R2 "{\"id\":\"r2\",\"questions\":[{\"id\":\"q1\",\"kind\":\"confirm\",\"text\":\"Go?\"}]}"

typedef struct
{
  ClarifyTestServer *server;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyTestWatch   watch;
  GPtrArray         *confirmed;  /* "id=summary" */
  /* Only for the tests that run the backend in an inbox. */
  ClarifyInbox          *inbox;
  ClarifyTestInboxWatch  life;
} JsonFixture;

static void
on_confirmed (ClarifyBackend *backend,
              const char     *request_id,
              const char     *summary,
              JsonFixture    *fixture)
{
  g_ptr_array_add (fixture->confirmed, g_strdup_printf ("%s=%s", request_id, summary));
}

static void
json_fixture_setup (JsonFixture   *fixture,
                    gconstpointer  data)
{
  g_autofree char *url = NULL;
  g_autoptr(GError) error = NULL;

  fixture->server = clarify_test_server_new ();
  clarify_test_server_add_sse (fixture->server, EVENTS_PATH);
  url = clarify_test_server_get_url (fixture->server, EVENTS_PATH);

  fixture->connection = clarify_connection_new ("fake-agent", "clarify", url);
  clarify_connection_set_option (fixture->connection, "token", "s3cret-token");

  fixture->backend = clarify_backend_registry_create (fixture->connection, &error);
  g_assert_no_error (error);
  clarify_sse_client_set_backoff (clarify_json_backend_get_sse_client (CLARIFY_JSON_BACKEND (fixture->backend)),
                                  20, 100);

  clarify_test_watch_init (&fixture->watch, fixture->backend);
  fixture->confirmed = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (fixture->backend, "confirmed", G_CALLBACK (on_confirmed), fixture);
}

static void
json_fixture_teardown (JsonFixture   *fixture,
                       gconstpointer  data)
{
  clarify_test_watch_clear (&fixture->watch);
  g_assert_finalize_object (fixture->backend);
  g_clear_object (&fixture->connection);
  g_clear_pointer (&fixture->confirmed, g_ptr_array_unref);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
}

static void
json_fixture_connect (JsonFixture *fixture)
{
  clarify_backend_start (fixture->backend);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS_PATH, 1, WAIT_MS));
}

static void
send_event (JsonFixture *fixture,
            const char  *type,
            const char  *data)
{
  g_autofree char *frame = g_strdup_printf ("event: %s\ndata: %s\n\n", type, data);

  clarify_test_server_sse_send (fixture->server, EVENTS_PATH, frame, -1);
}

static void
wait_for_added (JsonFixture *fixture,
                guint        n)
{
  clarify_test_watch_wait_request_for (&fixture->watch, n, WAIT_MS);
}

static gboolean
is_connected (gpointer data)
{
  return clarify_backend_get_state (data) == CLARIFY_CONNECTION_STATE_CONNECTED;
}

static void
test_json_request_event (JsonFixture   *fixture,
                         gconstpointer  data)
{
  g_autoptr(ClarifyTestRequest) get = NULL;
  ClarifyRequest *request;

  json_fixture_connect (fixture);
  g_assert_true (clarify_test_loop_until (is_connected, fixture->backend, WAIT_MS));
  g_assert_cmpint (clarify_backend_get_note (fixture->backend), ==, CLARIFY_BACKEND_NOTE_NONE);

  get = clarify_test_server_get_request (fixture->server, "GET", EVENTS_PATH, 0);
  g_assert_nonnull (get);
  g_assert_cmpstr (clarify_test_request_get_header (get, "Authorization"), ==, "Bearer s3cret-token");

  send_event (fixture, "request", REQUEST_R1);
  wait_for_added (fixture, 1);

  request = g_ptr_array_index (fixture->watch.added, 0);
  g_assert_cmpstr (clarify_request_get_id (request), ==, "r1");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Setup");
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "fake-agent");
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "clarify");
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);
  g_assert_true (clarify_backend_lookup_request (fixture->backend, "r1") == request);

  /* The token goes on the wire, never into the log. */
  g_assert_false (clarify_test_log_seen ("*s3cret-token*"));
}

static void
test_json_bad_event_ignored (JsonFixture   *fixture,
                             gconstpointer  data)
{
  g_autoptr(ClarifyTestRequest) refusal = NULL;

  clarify_test_server_add_json (fixture->server, "POST", "/agent/requests/empty/response", 200, "application/json", "{}");
  json_fixture_connect (fixture);

  send_event (fixture, "request", "{\"id\":\"broken\",\"questions\":[");
  send_event (fixture, "request", "{\"id\":\"empty\",\"questions\":[]}");
  send_event (fixture, "ping", "{}");
  send_event (fixture, "request", REQUEST_R2);
  wait_for_added (fixture, 1);

  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpstr (clarify_request_get_id (g_ptr_array_index (fixture->watch.added, 0)), ==, "r2");
  /* Each rejected event left a line that names the connection. */
  g_assert_true (clarify_test_log_seen ("*“fake-agent”: ignored a request*"));
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 1);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);

  /* The one with an id is told why, where its answer would have gone;
   * the broken one has no id to tell. */
  refusal = clarify_test_server_wait_for_request (fixture->server, "POST", "/agent/requests/empty/response", WAIT_MS);
  g_assert_nonnull (refusal);
  g_assert_cmpstr (refusal->body, ==,
                   "{\"id\":\"empty\",\"outcome\":\"refused\","
                   "\"error\":{\"code\":\"invalid_request\",\"message\":\"the request has no questions\"}}");
  g_assert_cmpstr (clarify_test_request_get_header (refusal, "Authorization"), ==, "Bearer s3cret-token");
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/agent/requests/broken/response"), ==, 0);
}

/* Past the inbox's cap the agent is told so, where the answer would have
 * gone, and may send the request again later; the first stays. */
static void
test_json_refused_when_full (JsonFixture   *fixture,
                             gconstpointer  data)
{
  g_autoptr(ClarifyTestRequest) refusal = NULL;

  clarify_inbox_set_limits (clarify_backend_get_inbox (fixture->backend), 1, 1000);
  clarify_test_server_add_json (fixture->server, "POST", "/agent/requests/r2/response", 200, "application/json", "{}");
  json_fixture_connect (fixture);

  send_event (fixture, "request", REQUEST_R1);
  send_event (fixture, "request", REQUEST_R2);

  refusal = clarify_test_server_wait_for_request (fixture->server, "POST", "/agent/requests/r2/response", WAIT_MS);
  g_assert_nonnull (refusal);
  g_assert_cmpstr (refusal->body, ==,
                   "{\"id\":\"r2\",\"outcome\":\"refused\",\"error\":{\"code\":\"too_many_requests\","
                   "\"message\":\"Too many questions from this connection wait for the user (1 at most); ask again later\"}}");
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpstr (clarify_request_get_id (g_ptr_array_index (fixture->watch.added, 0)), ==, "r1");
  g_assert_null (clarify_backend_lookup_request (fixture->backend, "r2"));
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/agent/requests/r1/response"), ==, 0);
}

static gboolean
is_withdrawn (gpointer data)
{
  return clarify_request_is_withdrawn (data);
}

static void
test_json_withdraw_event (JsonFixture   *fixture,
                          gconstpointer  data)
{
  ClarifyRequest *r1;
  ClarifyRequest *r2;

  json_fixture_connect (fixture);
  send_event (fixture, "request", REQUEST_R1);
  send_event (fixture, "request", REQUEST_R2);
  wait_for_added (fixture, 2);
  r1 = g_ptr_array_index (fixture->watch.added, 0);
  r2 = g_ptr_array_index (fixture->watch.added, 1);

  send_event (fixture, "withdraw", "{\"id\":\"r1\",\"reason\":\"Answered in the terminal\"}");
  send_event (fixture, "withdraw", "{\"id\":\"r2\"}");
  g_assert_true (clarify_test_loop_until (is_withdrawn, r2, WAIT_MS));

  g_assert_true (clarify_request_is_withdrawn (r1));
  g_assert_cmpint (clarify_request_get_end_reason (r1), ==, CLARIFY_END_REASON_AGENT_WITHDREW);
  g_assert_cmpstr (clarify_request_get_end_detail (r1), ==, "Answered in the terminal");
  /* Without words of its own the UI says what the code means. */
  g_assert_cmpint (clarify_request_get_end_reason (r2), ==, CLARIFY_END_REASON_AGENT_WITHDREW);
  g_assert_null (clarify_request_get_end_detail (r2));
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);
}

/* "state/note", by their enum nicks: "reconnecting/retrying". */
static void
record_state (ClarifyBackend *backend,
              GParamSpec     *pspec,
              GPtrArray      *states)
{
  g_autoptr(GEnumClass) state_class = g_type_class_ref (CLARIFY_TYPE_CONNECTION_STATE);
  g_autoptr(GEnumClass) note_class = g_type_class_ref (CLARIFY_TYPE_BACKEND_NOTE);

  g_ptr_array_add (states, g_strdup_printf ("%s/%s",
                                            g_enum_get_value (state_class, clarify_backend_get_state (backend))->value_nick,
                                            g_enum_get_value (note_class, clarify_backend_get_note (backend))->value_nick));
}

static void
test_json_resend_after_reconnect (JsonFixture   *fixture,
                                  gconstpointer  data)
{
  GListModel *requests = clarify_backend_get_requests (fixture->backend);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (fixture->backend, "notify::state", G_CALLBACK (record_state), messages);
  json_fixture_connect (fixture);
  send_event (fixture, "request", REQUEST_R1);
  wait_for_added (fixture, 1);

  /* The agent restarts its stream; Clarify reconnects, the agent re-sends
   * what is pending, and then something new. */
  clarify_test_server_sse_close (fixture->server, EVENTS_PATH);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", EVENTS_PATH, 2, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS_PATH, 1, WAIT_MS));
  send_event (fixture, "request", REQUEST_R1);
  send_event (fixture, "request", REQUEST_R2);
  wait_for_added (fixture, 2);

  g_assert_cmpuint (fixture->watch.added->len, ==, 2);
  g_assert_cmpstr (clarify_request_get_id (g_ptr_array_index (fixture->watch.added, 0)), ==, "r1");
  g_assert_cmpstr (clarify_request_get_id (g_ptr_array_index (fixture->watch.added, 1)), ==, "r2");
  g_assert_cmpuint (g_list_model_get_n_items (requests), ==, 2);

  /* The state followed the stream (the backoff is 20 ms here). */
  g_signal_handlers_disconnect_by_func (fixture->backend, record_state, messages);
  g_assert_cmpuint (messages->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (messages, 0), ==, "connecting/none");
  g_assert_cmpstr (g_ptr_array_index (messages, 1), ==, "connected/none");
  g_assert_cmpstr (g_ptr_array_index (messages, 2), ==, "reconnecting/retrying");
  g_assert_cmpstr (g_ptr_array_index (messages, 3), ==, "connecting/none");
  g_assert_cmpstr (g_ptr_array_index (messages, 4), ==, "connected/none");
}

static void
on_respond_done (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
is_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

static gboolean
post_answer (JsonFixture      *fixture,
             ClarifyResponse  *response,
             GError          **error)
{
  g_autoptr(ClarifyRequest) request = make_request ("r1");

  return clarify_test_watch_respond (&fixture->watch, request, response, error);
}

static ClarifyResponse *
make_response (void)
{
  ClarifyResponse *response = clarify_response_new ("r1", CLARIFY_OUTCOME_ANSWERED);

  clarify_response_add_answer (response, "q1", (const char *[]) { "Grüße aus Köln", NULL }, NULL, FALSE);

  return response;
}

static void
test_json_post_body (JsonFixture   *fixture,
                     gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = make_response ();
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, 200, "application/json",
                                "{\"received\":\"Name: Grüße aus Köln\"}");

  g_assert_true (post_answer (fixture, response, &error));
  g_assert_no_error (error);

  post = clarify_test_server_get_request (fixture->server, "POST", RESPONSE_PATH, 0);
  g_assert_nonnull (post);
  node = clarify_response_to_json (response);
  expected = clarify_json_to_string (node);
  /* Exactly the JSON form, byte for byte, and nothing else. */
  g_assert_cmpstr (post->body, ==,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":"
                   "[{\"question_id\":\"q1\",\"values\":[\"Grüße aus Köln\"]}]}");
  g_assert_cmpstr (post->body, ==, expected);
  g_assert_cmpuint (post->body_len, ==, strlen (expected));
  g_assert_cmpstr (post->method, ==, "POST");
  g_assert_cmpstr (clarify_test_request_get_header (post, "Content-Type"), ==, "application/json");
  g_assert_cmpstr (clarify_test_request_get_header (post, "Authorization"), ==, "Bearer s3cret-token");

  /* What the agent said it understood reaches the app. */
  g_assert_cmpuint (fixture->confirmed->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->confirmed, 0), ==, "r1=Name: Grüße aus Köln");
}

typedef struct
{
  guint        status;
  const char  *content_type;
  const char  *body;
  gboolean     delivered;
  int          code;
} ReplyCase;

static void
test_json_reply_statuses (JsonFixture   *fixture,
                          gconstpointer  data)
{
  static const ReplyCase cases[] = {
    { 200, "application/json", "{}", TRUE, 0 },
    { 204, NULL, NULL, TRUE, 0 },
    { 200, NULL, NULL, TRUE, 0 },
    { 404, "application/json", "{\"error\":\"unknown\"}", FALSE, CLARIFY_ERROR_GONE },
    { 410, "text/plain", "gone", FALSE, CLARIFY_ERROR_GONE },
    { 400, "application/json", "{\"error\":\"values must be an array\"}", FALSE, CLARIFY_ERROR_REJECTED },
    { 422, "application/json", "{}", FALSE, CLARIFY_ERROR_REJECTED },
    { 401, "text/plain", "who are you", FALSE, CLARIFY_ERROR_AUTH },
    { 403, "text/plain", "no", FALSE, CLARIFY_ERROR_AUTH },
    { 500, "text/plain", "oops", FALSE, CLARIFY_ERROR_TRANSIENT },
    { 503, NULL, NULL, FALSE, CLARIFY_ERROR_TRANSIENT },
    { 408, "text/plain", "too slow", FALSE, CLARIFY_ERROR_TRANSIENT },
    { 429, "text/plain", "slow down", FALSE, CLARIFY_ERROR_TRANSIENT },
    { 409, "application/json", "{\"error\":\"already answered\"}", FALSE, CLARIFY_ERROR_GONE },
    /* Not taken, for reasons no agent gives: refused, so the user can answer again. */
    { 307, "text/plain", "elsewhere", FALSE, CLARIFY_ERROR_REJECTED },
    { 405, "text/plain", "POST not allowed", FALSE, CLARIFY_ERROR_REJECTED },
    { 413, "text/plain", "too large", FALSE, CLARIFY_ERROR_REJECTED },
    /* An unknown route of a web UI: 200, but nobody took the answer. */
    { 200, "text/html", "<!doctype html><html></html>", FALSE, CLARIFY_ERROR_PROTOCOL },
    { 200, "application/json", "not json", FALSE, CLARIFY_ERROR_PROTOCOL },
    { 200, "application/json", NULL, FALSE, CLARIFY_ERROR_PROTOCOL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ClarifyResponse) response = make_response ();
      g_autoptr(GError) error = NULL;
      gboolean delivered;

      g_test_message ("case %u: %u %s", i, cases[i].status, cases[i].content_type);
      clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH,
                                    cases[i].status, cases[i].content_type, cases[i].body);
      delivered = post_answer (fixture, response, &error);

      g_assert_cmpint (delivered, ==, cases[i].delivered);
      if (cases[i].delivered)
        g_assert_no_error (error);
      else
        g_assert_error (error, CLARIFY_ERROR, cases[i].code);
    }

  /* A rejected answer leaves its evidence in the log. */
  g_assert_true (clarify_test_log_seen ("*“fake-agent”*values must be an array*"));
}

/* A refused port is its own kind of network trouble: still worth trying
 * again, and soon (the outbox tries it every 2 s for a while). */
static void
test_json_unreachable_is_transient (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *url = clarify_test_server_get_url (server, EVENTS_PATH);
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyRequest) request = make_request ("r1");
  g_autoptr(ClarifyResponse) response = make_response ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  /* A port that just closed: connection refused. */
  g_clear_pointer (&server, clarify_test_server_free);
  connection = clarify_connection_new ("gone-agent", "clarify", url);
  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);

  clarify_backend_deliver_async (backend, request, response, NULL, on_respond_done, &result);
  g_assert_true (clarify_test_loop_until (is_set, &result, WAIT_MS));
  g_assert_false (clarify_backend_deliver_finish (backend, result, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_UNREACHABLE);
  g_assert_true (clarify_error_is_transient (error));
}

/* A quiet agent's stream must not die of libsoup's 60 s I/O timeout,
 * while answers still give up on an agent that never replies. */
static void
test_json_stream_has_no_io_timeout (void)
{
  g_autoptr(ClarifyConnection) connection =
    clarify_connection_new ("quiet-agent", "clarify", "http://127.0.0.1:9/events");
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(SoupSession) stream_session = NULL;
  g_autoptr(GError) error = NULL;

  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  g_object_get (clarify_json_backend_get_sse_client (CLARIFY_JSON_BACKEND (backend)),
                "session", &stream_session, NULL);
  g_assert_nonnull (stream_session);
  g_assert_cmpuint (soup_session_get_timeout (stream_session), ==, 0);
  g_assert_nonnull (soup_session_get_feature (stream_session, SOUP_TYPE_COOKIE_JAR));
}

/* ---- every way a request of the JSON backend ends, seen from the inbox ---- */

#define REFUSED_DETAIL "HTTP 422 Unprocessable Entity"
/* "answers" is always written (docs/json-form.md). */
#define TIMED_OUT_BODY "{\"id\":\"r1\",\"outcome\":\"timed_out\",\"answers\":[]}"
#define ANSWER_BODY "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":" \
                    "[{\"question_id\":\"q1\",\"values\":[\"Grüße aus Köln\"]}]}"

static void
json_inbox_fixture_setup (JsonFixture   *fixture,
                          gconstpointer  data)
{
  json_fixture_setup (fixture, data);
  fixture->inbox = clarify_inbox_new ();
  clarify_inbox_add_backend (fixture->inbox, fixture->backend);
  clarify_test_inbox_watch_init (&fixture->life, fixture->inbox);
  json_fixture_connect (fixture);
}

static void
json_inbox_fixture_teardown (JsonFixture   *fixture,
                             gconstpointer  data)
{
  clarify_test_inbox_watch_clear (&fixture->life);
  /* The inbox holds the backend; it must let go for the finalize check. */
  g_clear_object (&fixture->inbox);
  json_fixture_teardown (fixture, data);
}

typedef struct
{
  ClarifyTestInboxWatch *life;
  guint                  n;
} LifeWait;

static gboolean
life_has_added (gpointer data)
{
  LifeWait *wait = data;

  return wait->life->added->len >= wait->n;
}

/* Sends @event and returns the @n-th request the inbox announced, pending. */
static ClarifyRequest *
json_inbox_add (JsonFixture *fixture,
                const char  *event,
                guint        n)
{
  LifeWait wait = { &fixture->life, n };
  ClarifyRequest *request;

  send_event (fixture, "request", event);
  g_assert_true (clarify_test_loop_until (life_has_added, &wait, WAIT_MS));
  request = g_ptr_array_index (fixture->life.added, n - 1);
  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);

  return request;
}

/* The user answers @request through the inbox, as the dialog does. */
static void
json_inbox_answer (JsonFixture    *fixture,
                   ClarifyRequest *request)
{
  g_autoptr(ClarifyResponse) response = make_response ();

  clarify_inbox_answer (fixture->inbox, request, response);
  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
}

/* The @index-th answer POSTed was exactly @body. */
static void
assert_posted (JsonFixture *fixture,
               guint        index,
               const char  *body)
{
  g_autoptr(ClarifyTestRequest) post = clarify_test_server_get_request (fixture->server, "POST", RESPONSE_PATH, index);

  g_assert_nonnull (post);
  g_assert_cmpstr (post->body, ==, body);
}

/* The agent's one reply ends the request: it took the answer (200), or
 * someone else answered (404). Either way nothing is sent again. */
typedef struct
{
  guint             status;
  const char       *body;
  ClarifyRequestEnd end;
  ClarifyEndReason  reason;
} FinalReply;

static const FinalReply reply_taken = { 200, "{\"received\":\"Name: Grüße aus Köln\"}",
                                        CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE };
static const FinalReply reply_gone = { 404, "{\"error\":\"unknown\"}",
                                       CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE, CLARIFY_END_REASON_ANSWERED_ELSEWHERE };

static void
test_json_inbox_final_reply (JsonFixture   *fixture,
                             gconstpointer  data)
{
  const FinalReply *reply = data;
  ClarifyRequest *request = json_inbox_add (fixture, REQUEST_R1, 1);

  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, reply->status, "application/json", reply->body);
  json_inbox_answer (fixture, request);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_DONE, reply->end, reply->reason, NULL);
  g_assert_cmpuint (fixture->life.refused->len, ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", RESPONSE_PATH), ==, 1);
  assert_posted (fixture, 0, ANSWER_BODY);
  g_assert_false (clarify_request_is_withdrawn (request));
}

/* 4xx: the agent refused this answer, the user may answer again. */
static void
test_json_inbox_refused (JsonFixture   *fixture,
                         gconstpointer  data)
{
  ClarifyRequest *request = json_inbox_add (fixture, REQUEST_R1, 1);

  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, 422, "application/json",
                                "{\"error\":\"values must be an array\"}");
  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, 200, "application/json", "{}");
  json_inbox_answer (fixture, request);
  g_assert_true (clarify_test_loop_until (clarify_test_inbox_has_refused, &fixture->life, WAIT_MS));

  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_ANSWER_REFUSED,
                             REFUSED_DETAIL);
  g_assert_true (g_ptr_array_index (fixture->life.refused, 0) == request);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", RESPONSE_PATH), ==, 1);

  json_inbox_answer (fixture, request);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (fixture->life.refused->len, ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", RESPONSE_PATH), ==, 2);
  assert_posted (fixture, 0, ANSWER_BODY);
  assert_posted (fixture, 1, ANSWER_BODY);
}

static void
test_json_inbox_withdrawn (JsonFixture   *fixture,
                           gconstpointer  data)
{
  ClarifyRequest *request = json_inbox_add (fixture, REQUEST_R1, 1);

  send_event (fixture, "withdraw", "{\"id\":\"r1\",\"reason\":\"Answered in the terminal\"}");
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN,
                             CLARIFY_END_REASON_AGENT_WITHDREW, "Answered in the terminal");
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", RESPONSE_PATH), ==, 0);
}

/* The inbox's deadline ends it, and the agent hears "timed_out". */
static void
test_json_inbox_timed_out (JsonFixture   *fixture,
                           gconstpointer  data)
{
  ClarifyRequest *request = NULL;

  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, 200, "application/json", "{}");
  request = json_inbox_add (fixture, "{\"id\":\"r1\",\"timeout_ms\":100,"
                                     "\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Name?\"}]}", 1);
  g_assert_true (clarify_inbox_has_timer (fixture->inbox));
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_TIMED_OUT, CLARIFY_END_REASON_TIME_RAN_OUT, NULL);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", RESPONSE_PATH, 1, WAIT_MS));
  assert_posted (fixture, 0, TIMED_OUT_BODY);
  g_assert_false (clarify_inbox_has_timer (fixture->inbox));
}

/* The stream drops and the agent re-sends what is pending: still one request,
 * and it ends once. */
static void
test_json_inbox_resent (JsonFixture   *fixture,
                        gconstpointer  data)
{
  ClarifyRequest *request = json_inbox_add (fixture, REQUEST_R1, 1);
  ClarifyRequest *marker;

  clarify_test_server_sse_close (fixture->server, EVENTS_PATH);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", EVENTS_PATH, 2, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS_PATH, 1, WAIT_MS));
  send_event (fixture, "request", REQUEST_R1);
  /* Events are handled in order: once r2 is there, r1 was seen again. */
  marker = json_inbox_add (fixture, REQUEST_R2, 2);
  g_assert_cmpstr (clarify_request_get_id (marker), ==, "r2");

  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (fixture->life.added->len, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->inbox)), ==, 2);
  g_assert_cmpuint (clarify_inbox_get_n_pending (fixture->inbox), ==, 2);

  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, 200, "application/json", "{}");
  json_inbox_answer (fixture, request);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&fixture->life, fixture->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  clarify_test_inbox_assert (&fixture->life, fixture->backend, marker,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", RESPONSE_PATH), ==, 1);
  assert_posted (fixture, 0, ANSWER_BODY);
}

/* The agent took the answer, then lists the request again (its list was
 * behind, or it lost the answer): it gets the same answer, not a second
 * dialog. The same id with other questions is a new request. */
static void
test_json_inbox_resent_after_answer (JsonFixture   *fixture,
                                     gconstpointer  data)
{
  ClarifyRequest *request = json_inbox_add (fixture, REQUEST_R1, 1);
  ClarifyRequest *reused;

  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, 200, "application/json", "{}");
  json_inbox_answer (fixture, request);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_server_add_json (fixture->server, "POST", RESPONSE_PATH, 200, "application/json", "{}");
  send_event (fixture, "request", REQUEST_R1);
  /* Events are handled in order: once r2 is there, r1 was seen again. */
  g_assert_cmpstr (clarify_request_get_id (json_inbox_add (fixture, REQUEST_R2, 2)), ==, "r2");
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", RESPONSE_PATH, 2, WAIT_MS));
  assert_posted (fixture, 0, ANSWER_BODY);
  assert_posted (fixture, 1, ANSWER_BODY);
  g_assert_cmpuint (fixture->life.added->len, ==, 2);

  reused = json_inbox_add (fixture, "{\"id\":\"r1\",\"questions\":"
                                    "[{\"id\":\"q1\",\"kind\":\"confirm\",\"text\":\"Deploy?\"}]}", 3);
  g_assert_true (reused != request);
  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (reused, 0)), ==, "Deploy?");
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", RESPONSE_PATH), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/backend/base/dedup", test_base_dedup);
  g_test_add_func ("/backend/base/withdraw", test_base_withdraw);
  g_test_add_func ("/backend/base/state", test_base_state);
  g_test_add_func ("/backend/registry", test_registry);

#define ADD(path, func) \
  g_test_add (path, JsonFixture, NULL, json_fixture_setup, func, json_fixture_teardown)
  ADD ("/backend/json/request-event", test_json_request_event);
  ADD ("/backend/json/bad-event-ignored", test_json_bad_event_ignored);
  ADD ("/backend/json/refused-when-full", test_json_refused_when_full);
  ADD ("/backend/json/withdraw-event", test_json_withdraw_event);
  ADD ("/backend/json/resend-after-reconnect", test_json_resend_after_reconnect);
  ADD ("/backend/json/post-body", test_json_post_body);
  ADD ("/backend/json/reply-statuses", test_json_reply_statuses);
#undef ADD
#define ADD(path, data, func) \
  g_test_add ("/backend/json/inbox/" path, JsonFixture, data, json_inbox_fixture_setup, func, json_inbox_fixture_teardown)
  ADD ("answered", &reply_taken, test_json_inbox_final_reply);
  ADD ("refused", NULL, test_json_inbox_refused);
  ADD ("answered-elsewhere", &reply_gone, test_json_inbox_final_reply);
  ADD ("withdrawn", NULL, test_json_inbox_withdrawn);
  ADD ("timed-out", NULL, test_json_inbox_timed_out);
  ADD ("resent-after-reconnect", NULL, test_json_inbox_resent);
  ADD ("resent-after-answer", NULL, test_json_inbox_resent_after_answer);
#undef ADD
  g_test_add_func ("/backend/json/unreachable-is-transient", test_json_unreachable_is_transient);
  g_test_add_func ("/backend/json/stream-has-no-io-timeout", test_json_stream_has_no_io_timeout);

  return g_test_run ();
}
