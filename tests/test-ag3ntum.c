/* test-ag3ntum.c: the "ag3ntum" backend against a fake Ag3ntum API server
 * that replays the fixtures of the ag3ntum-and-phoenix protocol notes (Part A)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-ag3ntum-backend.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-secret.h"
#include "clarify-sse-client.h"

#include "clarify-test-log.h"
#include "clarify-test-opencode.h"

#define NOTES "protocols/ag3ntum-and-phoenix/"
#define SID "20260103_210631_ecc41d66"
#define SESSION "/api/v1/sessions/" SID
#define EVENTS SESSION "/events"
#define USER_EVENTS "/api/v1/auth/me/events"
#define QUESTION_ID "3f2b8c1e-9d4a-4b6f-8e21-7a5c0d9e4f13"
#define FIRST_TOKEN "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI..."
#define SECOND_TOKEN "eyJzZWNvbmQi.fresh"
#define NOT_PENDING "{\"has_pending_question\": false}"
#define NO_SESSIONS "{\"sessions\": [], \"total\": 0}"
#define WAIT_MS 5000

typedef struct
{
  ClarifyTestServer *server;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyTestWatch   watch;
  gint               n_logins;   /* counted in the server thread */
} Fixture;

static char *
fixture_text (const char *name)
{
  return clarify_test_load_fixture (name);
}

/* A fixture's JSON as the web client's JSON.stringify() writes it. */
static char *
compact (const char *name)
{
  g_autofree char *text = fixture_text (name);
  g_autoptr(JsonNode) node = clarify_json_parse (text, -1, NULL);

  g_assert_nonnull (node);
  return clarify_json_to_string (node);
}

/* Ag3ntum checks Host before anything else; the login also hands out a
 * new token each time. */
static void
login_handler (const ClarifyTestRequest  *request,
               guint                     *status,
               char                     **content_type,
               char                     **body,
               gpointer                   user_data)
{
  Fixture *fixture = user_data;

  if (g_strcmp0 (clarify_test_request_get_header (request, "Host"), "127.0.0.1") != 0)
    {
      *status = 400;
      *content_type = g_strdup ("text/plain");
      *body = g_strdup ("Invalid Host header");
      return;
    }

  *status = 200;
  *content_type = g_strdup ("application/json");
  if (g_atomic_int_add (&fixture->n_logins, 1) == 0)
    *body = fixture_text (NOTES "a1-login-reply.json");
  else
    *body = g_strdup ("{\"access_token\": \"" SECOND_TOKEN "\", \"token_type\": \"bearer\", "
                      "\"user_id\": \"7c1e2f9a-5b8d-4e0f-9a51-2d3c4b5a6f70\", \"expires_in\": 604800}");
}

/* GET /api/v1/sessions: the notes' session (waiting for input) in a
 * SessionListResponse. */
static char *
session_list (void)
{
  g_autofree char *session = fixture_text (NOTES "a4-session.json");

  g_strchomp (session);
  return g_strdup_printf ("{\"sessions\": [%s], \"total\": 1}", session);
}

/* What the fake Ag3ntum answers; again after a restart on the same port. */
static void
add_routes (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *sessions = session_list ();
  g_autofree char *tool_start = fixture_text (NOTES "a1-tool-start.sse");
  g_autofree char *history = NULL;

  clarify_test_server_add_handler (fixture->server, "POST", "/api/v1/auth/login", login_handler, fixture);
  clarify_test_server_add_sse (fixture->server, USER_EVENTS);
  clarify_test_server_add_sse (fixture->server, EVENTS);
  if (data == NULL)
    clarify_test_server_add_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", sessions);
  /* The history: up to the tool_start of fixture A1 (sequence 14). */
  history = g_strdup_printf ("[%.*s]", (int) (strrchr (tool_start, '}') - strstr (tool_start, "{") + 1),
                             strstr (tool_start, "{"));
  clarify_test_server_add_json (fixture->server, "GET", SESSION "/events/history", 200, "application/json", history);
  clarify_test_server_add_json (fixture->server, "GET", SESSION "/pending-question", 200, "application/json", NOT_PENDING);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = NULL;
  g_autoptr(GError) error = NULL;

  fixture->server = clarify_test_server_new ();
  add_routes (fixture, data);

  url = clarify_test_server_get_url (fixture->server, "");
  fixture->connection = clarify_connection_new ("ag", "ag3ntum", url);
  clarify_connection_set_option (fixture->connection, "email", "admin@example.com");
  g_assert_true (clarify_secret_store ("connection:ag", "test", "s3cret", &error));
}

static void
fixture_start (Fixture *fixture)
{
  fixture->backend = clarify_ag3ntum_backend_new (fixture->connection);
  clarify_ag3ntum_backend_set_backoff (CLARIFY_AG3NTUM_BACKEND (fixture->backend), 20, 100);
  clarify_test_watch_init (&fixture->watch, fixture->backend);
  clarify_backend_start (fixture->backend);
}

/* Logged in, the user stream open and the session's stream open. */
static void
connect_session (Fixture *fixture)
{
  fixture_start (fixture);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, USER_EVENTS, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", SESSION "/pending-question", 1, WAIT_MS));
  clarify_test_loop_for (50);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  clarify_test_watch_clear (&fixture->watch);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->connection);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_assert_true (clarify_secret_clear ("connection:ag", NULL));
}

static void
send_fixture (Fixture    *fixture,
              const char *path,
              const char *name)
{
  g_autofree char *frames = fixture_text (name);

  clarify_test_server_sse_send (fixture->server, path, frames, -1);
}

static ClarifyResponse *
notes_answer (void)
{
  ClarifyResponse *response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *languages[] = { "Python", "Go", NULL };
  const char *level[] = { "Beginner", NULL };

  clarify_response_add_answer (response, "q1", languages, NULL, FALSE);
  clarify_response_add_answer (response, "q2", level, NULL, FALSE);
  clarify_response_add_answer (response, "comments", NULL, "  I mostly build CLIs \n", FALSE);
  return response;
}

static void
assert_api_headers (const ClarifyTestRequest *request,
                    const char               *token)
{
  g_autofree char *bearer = g_strconcat ("Bearer ", token, NULL);

  g_assert_cmpstr (clarify_test_request_get_header (request, "Authorization"), ==, bearer);
  g_assert_cmpstr (clarify_test_request_get_header (request, "Host"), ==, "127.0.0.1");
}

/* Login, the streams, the question, the answer and the resume, byte for byte. */
static void
test_question_and_answer (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = notes_answer ();
  g_autoptr(ClarifyTestRequest) login = NULL;
  g_autoptr(ClarifyTestRequest) user_stream = NULL;
  g_autoptr(ClarifyTestRequest) stream = NULL;
  g_autoptr(ClarifyTestRequest) answer = NULL;
  g_autoptr(ClarifyTestRequest) task = NULL;
  g_autofree char *answer_body = compact (NOTES "a4-answer-body.json");
  g_autofree char *task_body = compact (NOTES "a4-task-body.json");
  g_autofree char *answer_reply = fixture_text (NOTES "a4-answer-reply.json");
  g_autofree char *task_reply = fixture_text (NOTES "a4-task-reply.json");
  g_autofree char *login_body = compact (NOTES "a1-login-body.json");
  g_autofree char *pending = fixture_text (NOTES "a4-pending-question.json");
  g_autofree char *token_query = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  ClarifyQuestion *question;

  clarify_test_server_add_json (fixture->server, "POST", SESSION "/answer", 200, "application/json", answer_reply);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/answer", 404, "application/json",
                                "{\"detail\":\"No pending question found with ID: latest\"}");
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/task", 200, "application/json", task_reply);
  connect_session (fixture);

  /* The web client's JSON.stringify(), with the notes' values. */
  login = clarify_test_server_get_request (fixture->server, "POST", "/api/v1/auth/login", 0);
  g_assert_cmpstr (login->body, ==, "{\"email\":\"admin@example.com\",\"password\":\"s3cret\"}");
  g_assert_cmpstr (login->body, ==, login_body);
  g_assert_null (clarify_test_request_get_header (login, "Authorization"));

  /* The user stream takes the token in its query only. */
  user_stream = clarify_test_server_get_request (fixture->server, "GET", USER_EVENTS, 0);
  token_query = g_strconcat ("token=", FIRST_TOKEN, NULL);
  g_assert_cmpstr (user_stream->query, ==, token_query);
  g_assert_cmpstr (clarify_test_request_get_header (user_stream, "Host"), ==, "127.0.0.1");

  /* The session's stream goes on after the history's last sequence. */
  stream = clarify_test_server_get_request (fixture->server, "GET", EVENTS, 0);
  g_assert_cmpstr (stream->query, ==, "after=14");
  assert_api_headers (stream, FIRST_TOKEN);
  g_assert_null (clarify_test_request_get_header (stream, "Last-Event-ID"));

  send_fixture (fixture, EVENTS, NOTES "a1-tool-start.sse");
  send_fixture (fixture, EVENTS, NOTES "a2-question-pending.sse");
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  g_assert_cmpstr (clarify_request_get_id (request), ==, QUESTION_ID);
  g_assert_cmpstr (clarify_request_get_session (request), ==, SID);
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "ag3ntum");
  g_assert_false (clarify_request_get_cancellable (request));
  g_assert_nonnull (strstr (clarify_request_get_context (request), "cannot decline"));
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 3);
  question = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "What programming language would you like to use?");
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Language");
  g_assert_false (clarify_question_get_allow_other (question));
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 3);
  clarify_test_assert_option (question, 0, "Python", "Python", "Recommended for beginners");
  clarify_test_assert_option (question, 2, "Go", "Go", "Fast and efficient");
  question = clarify_request_get_question (request, 1);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Experience");
  question = clarify_request_get_question (request, 2);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "Additional Comments");
  g_assert_true (clarify_question_get_skippable (question));

  /* The run ends and the stream with it; the question stays pending. */
  clarify_test_server_set_json (fixture->server, "GET", SESSION "/pending-question", 200, "application/json", pending);
  send_fixture (fixture, EVENTS, NOTES "a3-complete.sse");
  clarify_test_server_sse_close (fixture->server, EVENTS);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", EVENTS, 2, WAIT_MS));
  {
    g_autoptr(ClarifyTestRequest) again = clarify_test_server_get_request (fixture->server, "GET", EVENTS, 1);

    g_assert_cmpstr (clarify_test_request_get_header (again, "Last-Event-ID"), ==, "19");
  }
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", SESSION "/pending-question", 3, WAIT_MS));
  clarify_test_loop_for (50);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);

  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_no_error (error);
  answer = clarify_test_server_wait_for_request (fixture->server, "POST", SESSION "/answer", WAIT_MS);
  g_assert_cmpstr (answer->body, ==,
                   "{\"question_id\":\"latest\",\"answer\":\"Python, Go\\nBeginner\\n\\nAdditional Comments: I mostly build CLIs\"}");
  g_assert_cmpstr (answer->body, ==, answer_body);
  g_assert_cmpstr (clarify_test_request_get_header (answer, "Content-Type"), ==, "application/json");
  assert_api_headers (answer, FIRST_TOKEN);
  /* Then the resume, with the session's model. */
  task = clarify_test_server_wait_for_request (fixture->server, "POST", SESSION "/task", WAIT_MS);
  g_assert_cmpstr (task->body, ==, "{\"task\":\"Continue with the user's answer.\",\"config\":{\"model\":\"claude-sonnet-4-5-20250929\"}}");
  g_assert_cmpstr (task->body, ==, task_body);
  assert_api_headers (task, FIRST_TOKEN);

  /* Once more: the server has nothing pending, so it was answered already. */
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", SESSION "/task"), ==, 1);
}

/* Frames cut anywhere by the chunked body, heartbeats without id: one request. */
static void
test_chunks_and_heartbeat (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *heartbeat = fixture_text (NOTES "a5-heartbeat.sse");
  g_autofree char *question = fixture_text (NOTES "a2-question-pending.sse");
  gsize len = strlen (question);

  connect_session (fixture);
  clarify_test_server_sse_send (fixture->server, EVENTS, heartbeat, 7);
  clarify_test_server_sse_send (fixture->server, EVENTS, heartbeat + 7, -1);
  clarify_test_server_sse_send (fixture->server, EVENTS, question, 3);
  clarify_test_server_sse_send (fixture->server, EVENTS, question + 3, len / 2 - 3);
  clarify_test_loop_for (50);
  g_assert_cmpuint (fixture->watch.added->len, ==, 0);
  clarify_test_server_sse_send (fixture->server, EVENTS, question + len / 2, -1);
  clarify_test_server_sse_send (fixture->server, EVENTS, heartbeat, -1);
  clarify_test_watch_wait_request (&fixture->watch, 1);
  /* The same frame again (a collision of sequences): still one. */
  clarify_test_server_sse_send (fixture->server, EVENTS, question, -1);
  clarify_test_loop_for (100);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
}

/* Asked while Clarify was away: shown on connect; the stream drops and
 * comes back while it is pending: still one request, and one answer. */
static void
test_pending_on_connect (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = notes_answer ();
  g_autofree char *answer_reply = fixture_text (NOTES "a4-answer-reply.json");
  g_autofree char *task_reply = fixture_text (NOTES "a4-task-reply.json");
  g_autofree char *pending = fixture_text (NOTES "a4-pending-question.json");
  ClarifyRequest *request;

  clarify_test_server_set_json (fixture->server, "GET", SESSION "/pending-question", 200, "application/json", pending);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/answer", 200, "application/json", answer_reply);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/task", 200, "application/json", task_reply);
  connect_session (fixture);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_request_get_id (request), ==, QUESTION_ID);
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 3);

  clarify_test_server_sse_close (fixture->server, EVENTS);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", SESSION "/pending-question", 2, WAIT_MS));
  send_fixture (fixture, EVENTS, NOTES "a2-question-pending.sse");
  clarify_test_loop_for (100);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);

  clarify_test_watch_answer (&fixture->watch, request, response);
  clarify_test_loop_for (100);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", SESSION "/answer"), ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", SESSION "/task"), ==, 1);
}

/* Answered in the web client: question_answered withdraws ours; answering
 * anyway meets a 404, which means answered elsewhere. */
static void
test_answered_elsewhere (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = notes_answer ();
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  clarify_test_server_add_json (fixture->server, "POST", SESSION "/answer", 404, "application/json",
                                "{\"detail\":\"No pending question found with ID: latest\"}");
  connect_session (fixture);
  send_fixture (fixture, EVENTS, NOTES "a2-question-pending.sse");
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  send_fixture (fixture, EVENTS, NOTES "a6-answered.sse");
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_ANSWERED_ELSEWHERE);

  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", SESSION "/task"), ==, 0);

  /* Replayed later: not shown again. */
  send_fixture (fixture, EVENTS, NOTES "a2-question-pending.sse");
  clarify_test_loop_for (100);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
}

/* An expired token (401) logs in again and the call is made once more. */
static void
test_relogin (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *sessions = session_list ();
  g_autoptr(ClarifyTestRequest) first = NULL;
  g_autoptr(ClarifyTestRequest) second = NULL;

  clarify_test_server_add_json (fixture->server, "GET", "/api/v1/sessions", 401, "application/json",
                                "{\"detail\":\"Invalid or expired token\"}");
  clarify_test_server_add_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", sessions);
  connect_session (fixture);

  g_assert_cmpint (g_atomic_int_get (&fixture->n_logins), ==, 2);
  first = clarify_test_server_get_request (fixture->server, "GET", "/api/v1/sessions", 0);
  second = clarify_test_server_get_request (fixture->server, "GET", "/api/v1/sessions", 1);
  assert_api_headers (first, FIRST_TOKEN);
  assert_api_headers (second, SECOND_TOKEN);
  {
    g_autoptr(ClarifyTestRequest) stream = clarify_test_server_get_request (fixture->server, "GET", EVENTS, 0);

    assert_api_headers (stream, SECOND_TOKEN);
  }
  g_assert_true (clarify_ag3ntum_backend_has_timer (CLARIFY_AG3NTUM_BACKEND (fixture->backend)));
}

/* No session runs: no session stream, no timer. One starts: the user
 * stream says so and it is watched. It ends without a question: let go. */
static void
test_sessions_come_and_go (Fixture       *fixture,
                           gconstpointer  data)
{
  ClarifyAg3ntumBackend *backend;
  g_autofree char *sessions = session_list ();
#define CHANGE "data: {\"type\": \"session_status_change\", \"data\": {\"id\": \"" SID "\", " \
               "\"old_status\": \"%s\", \"new_status\": \"%s\", \"queue_position\": null}, " \
               "\"timestamp\": \"2026-01-03T21:06:31.120044+00:00\"}\n\n"
  g_autofree char *started = g_strdup_printf (CHANGE, "pending", "running");
  g_autofree char *ended = g_strdup_printf (CHANGE, "running", "complete");
#undef CHANGE

  clarify_test_server_set_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", NO_SESSIONS);
  fixture_start (fixture);
  backend = CLARIFY_AG3NTUM_BACKEND (fixture->backend);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, USER_EVENTS, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/api/v1/sessions", 1, WAIT_MS));
  clarify_test_loop_for (100);
  g_assert_cmpuint (clarify_ag3ntum_backend_get_n_sessions (backend), ==, 0);
  g_assert_false (clarify_ag3ntum_backend_has_timer (backend));
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);

  clarify_test_server_set_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", sessions);
  clarify_test_server_sse_send (fixture->server, USER_EVENTS, started, -1);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS, 1, WAIT_MS));
  g_assert_cmpuint (clarify_ag3ntum_backend_get_n_sessions (backend), ==, 1);
  g_assert_true (clarify_ag3ntum_backend_has_timer (backend));

  /* The run ends with nothing pending. */
  clarify_test_server_set_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", NO_SESSIONS);
  send_fixture (fixture, EVENTS, NOTES "a3-complete.sse");
  clarify_test_server_sse_send (fixture->server, USER_EVENTS, ended, -1);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS, 0, WAIT_MS));
  clarify_test_loop_for (200);
  g_assert_cmpuint (clarify_ag3ntum_backend_get_n_sessions (backend), ==, 0);
  g_assert_false (clarify_ag3ntum_backend_has_timer (backend));
  g_assert_cmpuint (clarify_test_server_get_n_streams (fixture->server, EVENTS), ==, 0);
}

/* Every active session has its stream, however many there are: libsoup's
 * default of two connections to one host let the user stream and the
 * first session's take both, and the others waited for good. */
static void
test_many_sessions (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *session = fixture_text (NOTES "a4-session.json");
  g_autoptr(GString) listing = g_string_new ("{\"sessions\": [");
  const guint n_sessions = 5;

  g_strchomp (session);
  for (guint i = 0; i < n_sessions; i++)
    {
      g_autofree char *id = g_strdup_printf ("%s%u", SID, i);
      g_autofree char *path = g_strdup_printf ("/api/v1/sessions/%s", id);
      g_autofree char *events = g_strconcat (path, "/events", NULL);
      g_autofree char *history = g_strconcat (path, "/events/history", NULL);
      g_autofree char *pending = g_strconcat (path, "/pending-question", NULL);
      g_auto(GStrv) parts = g_strsplit (session, SID, -1);
      g_autofree char *renamed = g_strjoinv (id, parts);

      g_string_append_printf (listing, "%s%s", i > 0 ? ", " : "", renamed);
      clarify_test_server_add_sse (fixture->server, events);
      clarify_test_server_add_json (fixture->server, "GET", history, 200, "application/json", "[]");
      clarify_test_server_add_json (fixture->server, "GET", pending, 200, "application/json", NOT_PENDING);
    }
  g_string_append_printf (listing, "], \"total\": %u}", n_sessions);
  clarify_test_server_set_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", listing->str);

  fixture_start (fixture);
  for (guint i = 0; i < n_sessions; i++)
    {
      g_autofree char *events = g_strdup_printf ("/api/v1/sessions/%s%u/events", SID, i);

      g_test_message ("waiting for %s", events);
      g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, events, 1, WAIT_MS));
    }
  g_assert_cmpuint (clarify_ag3ntum_backend_get_n_sessions (CLARIFY_AG3NTUM_BACKEND (fixture->backend)), ==, n_sessions);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, USER_EVENTS, 1, WAIT_MS));
}

/* A session id becomes a path segment of every call about the session: one
 * that cannot stay one is not watched, and nothing is fetched for it. */
static void
test_dot_session (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *sessions = session_list ();
  g_autofree char *dotted = NULL;
  g_auto(GStrv) parts = g_strsplit (sessions, SID, -1);

  dotted = g_strjoinv ("..", parts);
  clarify_test_server_set_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", dotted);
  fixture_start (fixture);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, USER_EVENTS, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/api/v1/sessions", 1, WAIT_MS));
  clarify_test_loop_for (100);

  g_assert_cmpuint (clarify_ag3ntum_backend_get_n_sessions (CLARIFY_AG3NTUM_BACKEND (fixture->backend)), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/v1/events/history"), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/v1/sessions/../events/history"), ==, 0);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
}

/* Without a password there is nothing to log in with: failed, and said so. */
static void
test_no_password (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (clarify_secret_clear ("connection:ag", NULL));
  fixture_start (fixture);
  clarify_test_loop_for (100);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_FAILED);
  g_assert_nonnull (strstr (clarify_backend_get_error_text (fixture->backend), "clarify set-password ag"));
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, NULL, "/api/v1/auth/login"), ==, 0);
}

/* Connected while the session's question (@pending) waits; the request. */
static ClarifyRequest *
start_asking (Fixture    *fixture,
              const char *pending)
{
  clarify_test_server_set_json (fixture->server, "GET", SESSION "/pending-question", 200, "application/json", pending);
  connect_session (fixture);
  return clarify_test_watch_wait_request (&fixture->watch, 1);
}

/* Its port refused the user stream at least once. */
static gboolean
is_down (gpointer data)
{
  const char *reason = clarify_sse_client_get_state_reason (clarify_stream_backend_get_client (data));

  return reason != NULL && strstr (reason, "refused") != NULL;
}

/* Ag3ntum stops while its question is open: the port refuses until a new
 * server answers on it, which lists its question (@pending) or not. */
static void
restart_server (Fixture    *fixture,
                const char *pending)
{
  guint port = clarify_test_server_get_port (fixture->server);

  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (is_down, fixture->backend, WAIT_MS));
  fixture->server = clarify_test_server_new_on_port (port);
  add_routes (fixture, NULL);
  clarify_test_server_set_json (fixture->server, "GET", SESSION "/pending-question", 200, "application/json", pending);
}

/* The restarted server no longer has the question (its store was lost):
 * withdrawn as gone with the restart, not "answered elsewhere"; a late
 * answer's 404 is told the same. */
static void
test_restart_lost (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = notes_answer ();
  g_autofree char *pending = fixture_text (NOTES "a4-pending-question.json");
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  request = start_asking (fixture, pending);

  restart_server (fixture, NOT_PENDING);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/answer", 404, "application/json",
                                "{\"detail\":\"No pending question found with ID: latest\"}");
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);

  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", SESSION "/task"), ==, 0);
}

/* The restarted server lost the whole session: its stream and its
 * pending-question answer 404 "Session not found". */
static void
test_restart_session_gone (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *pending = fixture_text (NOTES "a4-pending-question.json");
  ClarifyRequest *request;

  request = start_asking (fixture, pending);

  restart_server (fixture, NOT_PENDING);
  clarify_test_server_set_sse_response (fixture->server, EVENTS, 404, "application/json");
  clarify_test_server_set_json (fixture->server, "GET", SESSION "/pending-question", 404, "application/json",
                                "{\"detail\":\"Session not found: " SID "\"}");
  clarify_test_server_set_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", NO_SESSIONS);
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);
}

/* Ag3ntum keeps questions in SQLite across a restart: the same question
 * is still pending, the dialog stays, and the answer is posted once. */
static void
test_restart_kept (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = notes_answer ();
  g_autofree char *answer_reply = fixture_text (NOTES "a4-answer-reply.json");
  g_autofree char *task_reply = fixture_text (NOTES "a4-task-reply.json");
  g_autofree char *pending = fixture_text (NOTES "a4-pending-question.json");
  ClarifyRequest *request;

  request = start_asking (fixture, pending);

  restart_server (fixture, pending);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/answer", 200, "application/json", answer_reply);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/task", 200, "application/json", task_reply);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", SESSION "/pending-question", 1, WAIT_MS));
  clarify_test_loop_for (100);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);

  clarify_test_watch_answer (&fixture->watch, request, response);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", SESSION "/answer"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

#define ADD(name, func, data) \
  g_test_add ("/ag3ntum/" name, Fixture, data, fixture_set_up, func, fixture_tear_down)

  ADD ("question-and-answer", test_question_and_answer, NULL);
  ADD ("chunks-and-heartbeat", test_chunks_and_heartbeat, NULL);
  ADD ("pending-on-connect", test_pending_on_connect, NULL);
  ADD ("answered-elsewhere", test_answered_elsewhere, NULL);
  ADD ("relogin", test_relogin, "own listing");
  ADD ("sessions-come-and-go", test_sessions_come_and_go, NULL);
  ADD ("many-sessions", test_many_sessions, NULL);
  ADD ("dot-session", test_dot_session, "own listing");
  ADD ("no-password", test_no_password, NULL);
  ADD ("restart/lost", test_restart_lost, NULL);
  ADD ("restart/session-gone", test_restart_session_gone, NULL);
  ADD ("restart/kept", test_restart_kept, NULL);

  return g_test_run ();
}
