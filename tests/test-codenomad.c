/* test-codenomad.c: the "codenomad" backend against a fake CodeNomad server
 * that replays the fixtures of the ihub-and-codenomad protocol notes (B7)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"
#include "clarify-codenomad-backend.h"
#include "clarify-sse-client.h"

#include "clarify-test-log.h"
#include "clarify-test-opencode.h"

#define NOTES "protocols/ihub-and-codenomad/"
#define WORKSPACE "mkkd2vy8"
#define INSTANCE "/workspaces/" WORKSPACE "/worktrees/root/instance"
#define QUESTION_ID "que_01JH00000000000000000000Q1"
#define CLIENT_ID "2f1c3a5e-7b9d-4c1e-8f2a-0b4d6e8f1a3c"
#define CONNECTION_ID "9ab0c1d2-e3f4-4a5b-9c6d-7e8f9a0b1c2d"
#define WAIT_MS 5000

typedef struct
{
  ClarifyTestServer *server;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyTestWatch   watch;
} Fixture;

/* What the fake CodeNomad serves; again after a restart on the same port. */
static void
add_routes (Fixture       *fixture,
            gconstpointer  data)
{
  clarify_test_server_add_sse (fixture->server, "/api/events");
  /* Tests that queue their own workspace replies pass data. */
  if (data == NULL)
    clarify_test_server_add_json (fixture->server, "GET", "/api/workspaces", 200, "application/json",
                                  "[{\"id\":\"" WORKSPACE "\",\"path\":\"/home/dev/project\",\"status\":\"ready\"}]");
  clarify_test_server_add_json (fixture->server, "GET", INSTANCE "/question", 200, "application/json", "[]");
  clarify_test_server_add_json (fixture->server, "GET", INSTANCE "/permission", 200, "application/json", "[]");
  clarify_test_server_add_json (fixture->server, "POST", "/api/client-connections/pong", 204, NULL, "");
}

static void
set_up_with (Fixture           *fixture,
             ClarifyTestServer *server,
             gconstpointer      data)
{
  g_autofree char *url = NULL;

  fixture->server = server;
  add_routes (fixture, data);
  url = clarify_test_server_get_url (fixture->server, "");
  fixture->connection = clarify_connection_new ("nomad", "codenomad", url);
  clarify_connection_set_option (fixture->connection, "client-id", CLIENT_ID);
  clarify_connection_set_option (fixture->connection, "connection-id", CONNECTION_ID);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  set_up_with (fixture, clarify_test_server_new (), data);
}

/* CodeNomad's HTTPS port, with the certificate it made itself. */
static void
fixture_set_up_https (Fixture       *fixture,
                      gconstpointer  data)
{
  set_up_with (fixture, clarify_test_server_new_https (), data);
}

static void
fixture_start (Fixture *fixture)
{
  fixture->backend = clarify_codenomad_backend_new (fixture->connection);
  clarify_sse_client_set_backoff (clarify_codenomad_backend_get_sse_client (CLARIFY_CODENOMAD_BACKEND (fixture->backend)),
                                  20, 100);
  clarify_test_watch_init (&fixture->watch, fixture->backend);
  clarify_backend_start (fixture->backend);
}

static void
connect_and_resync (Fixture *fixture)
{
  fixture_start (fixture);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, "/api/events", 1, WAIT_MS));
  clarify_test_watch_wait_resynced (&fixture->watch, 1);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  clarify_test_watch_clear (&fixture->watch);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->connection);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
}

/* F-CN-1: one SSE event as it is on the wire (the block holds its data
 * line; the blank line that ends it closes the block). */
static char *
question_frame (void)
{
  g_autofree char *block = clarify_test_fixture_block (NOTES "f-cn-1.sse");

  return g_strconcat (block, "\n", NULL);
}

/* F-CN-2, line by line: ping event (0-2), pong (3), reply (4-5), reject (6),
 * question.replied frame (7). */
static char *
fixture_line (const char *file,
              guint       n)
{
  g_autofree char *path = g_strconcat (NOTES, file, NULL);
  g_autofree char *block = clarify_test_fixture_block (path);

  return clarify_test_line (block, n);
}

static char *
exchange_line (guint n)
{
  return fixture_line ("f-cn-2.txt", n);
}

/* The body of a line like "POST …   {…}   -> 204", as the notes show it. */
static char *
body_of (const char *line)
{
  const char *start = strchr (line, '{');
  const char *end = strstr (line, "   ->");

  g_assert_nonnull (start);
  g_assert_nonnull (end);
  return g_strndup (start, end - start);
}

static void
test_question_and_reply (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *frame = question_frame ();
  g_autofree char *reply_line = exchange_line (5);
  g_autofree char *expected = body_of (reply_line);
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *styling[] = { "Tailwind (Recommended)", NULL };
  const char *features[] = { "Loading state", "Accessibility", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  ClarifyQuestion *question;

  clarify_test_server_add_json (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reply", 200, "application/json", "true");
  connect_and_resync (fixture);
  clarify_test_server_sse_send (fixture->server, "/api/events", frame, -1);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  g_assert_cmpstr (clarify_request_get_id (request), ==, QUESTION_ID);
  g_assert_cmpstr (clarify_request_get_project (request), ==, "/home/dev/project");
  g_assert_cmpstr (clarify_request_get_session (request), ==, "ses_01JH00000000000000000000S1");
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "codenomad");
  g_assert_cmpstr (clarify_opencode_request_get_info (request)->workspace_id, ==, WORKSPACE);
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);
  question = clarify_request_get_question (request, 1);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Features");
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 3);
  g_assert_true (clarify_question_get_allow_other (question));

  clarify_response_add_answer (response, "q1", styling, NULL, FALSE);
  clarify_response_add_answer (response, "q2", features, "Storybook story", FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_no_error (error);
  /* Byte for byte the notes' reply, through the workspace proxy. */
  g_assert_cmpstr (expected, ==, "{\"answers\":[[\"Tailwind (Recommended)\"],[\"Loading state\",\"Accessibility\",\"Storybook story\"]]}");
  clarify_test_assert_next_request (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reply", NULL, expected);
}

static void
test_reject_and_answered_elsewhere (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autofree char *frame = question_frame ();
  g_autofree char *echo = exchange_line (7);
  g_autofree char *echo_frame = g_strconcat (echo, "\n\n", NULL);
  g_autoptr(ClarifyResponse) dismiss = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  clarify_test_server_add_json (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reject", 404, "application/json",
                                "{\"_tag\":\"QuestionNotFoundError\"}");
  connect_and_resync (fixture);
  clarify_test_server_sse_send (fixture->server, "/api/events", frame, -1);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  /* Answered in CodeNomad's own UI: the echo withdraws ours. */
  clarify_test_server_sse_send (fixture->server, "/api/events", echo_frame, -1);
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_ANSWERED_ELSEWHERE);

  /* Dismissing it anyway: the server no longer has it. */
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, dismiss, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  clarify_test_assert_next_request (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reject", NULL, "");
}

/* Every ping gets its pong at once, with the ids and the ping's own ts. */
static void
test_ping_pong (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *event_line = exchange_line (0);
  g_autofree char *data_line = exchange_line (1);
  g_autofree char *ping = g_strdup_printf ("%s\n%s\n\n", event_line, data_line);
  g_autoptr(ClarifyTestRequest) stream = NULL;

  connect_and_resync (fixture);
  stream = clarify_test_server_get_request (fixture->server, "GET", "/api/events", 0);
  g_assert_cmpstr (stream->query, ==, "clientId=" CLIENT_ID "&connectionId=" CONNECTION_ID);

  clarify_test_server_sse_send (fixture->server, "/api/events", ping, -1);
  clarify_test_assert_next_request (fixture->server, "POST", "/api/client-connections/pong", NULL,
                                    "{\"clientId\":\"" CLIENT_ID "\",\"connectionId\":\"" CONNECTION_ID "\",\"pingTs\":1767225600000}");
  clarify_test_server_sse_send (fixture->server, "/api/events", "event: codenomad.client.ping\ndata: {\"ts\":1767225615000}\n\n", -1);
  clarify_test_assert_next_request (fixture->server, "POST", "/api/client-connections/pong", NULL,
                                    "{\"clientId\":\"" CLIENT_ID "\",\"connectionId\":\"" CONNECTION_ID "\",\"pingTs\":1767225615000}");
}

/* Without a pong the server closes the stream at 45 s: the client comes
 * back with the same ids and resyncs. */
static void
test_server_closes (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(ClarifyTestRequest) second = NULL;

  connect_and_resync (fixture);
  clarify_test_server_sse_close (fixture->server, "/api/events");
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/api/events", 2, WAIT_MS));
  second = clarify_test_server_get_request (fixture->server, "GET", "/api/events", 1);
  g_assert_cmpstr (second->query, ==, "clientId=" CLIENT_ID "&connectionId=" CONNECTION_ID);
  clarify_test_watch_wait_resynced (&fixture->watch, 2);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/workspaces"), ==, 2);
}

/* Without configured ids they are derived: UUID-shaped and stable. */
static void
test_stable_ids (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("nomad", "codenomad", "http://127.0.0.1:9899");
  g_autoptr(ClarifyConnection) other = clarify_connection_new ("other", "codenomad", "http://127.0.0.1:9899");
  g_autoptr(ClarifyBackend) a = clarify_codenomad_backend_new (connection);
  g_autoptr(ClarifyBackend) b = clarify_codenomad_backend_new (connection);
  g_autoptr(ClarifyBackend) c = clarify_codenomad_backend_new (other);
  const char *client = clarify_codenomad_backend_get_client_id (CLARIFY_CODENOMAD_BACKEND (a));
  const char *conn = clarify_codenomad_backend_get_connection_id (CLARIFY_CODENOMAD_BACKEND (a));

  g_assert_true (g_uuid_string_is_valid (client));
  g_assert_true (g_uuid_string_is_valid (conn));
  g_assert_cmpstr (client, !=, conn);
  g_assert_cmpstr (client, ==, clarify_codenomad_backend_get_client_id (CLARIFY_CODENOMAD_BACKEND (b)));
  g_assert_cmpstr (conn, ==, clarify_codenomad_backend_get_connection_id (CLARIFY_CODENOMAD_BACKEND (b)));
  g_assert_cmpstr (client, !=, clarify_codenomad_backend_get_client_id (CLARIFY_CODENOMAD_BACKEND (c)));
}

/* Login first; the codenomad_session cookie then rides on every request. */
static void
test_cookie_login (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *set_cookie[] = { "Set-Cookie: codenomad_session=s3ss10n; Path=/; HttpOnly; SameSite=Lax", NULL };
  g_autoptr(ClarifyTestRequest) login = NULL;
  g_autoptr(ClarifyTestRequest) stream = NULL;
  g_autoptr(ClarifyTestRequest) listing = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_secret_store ("connection:nomad", "test", "pa55word", &error));
  clarify_test_server_add_reply (fixture->server, "POST", "/api/auth/login", 200, "application/json", "{\"ok\":true}", set_cookie);
  connect_and_resync (fixture);

  login = clarify_test_server_get_request (fixture->server, "POST", "/api/auth/login", 0);
  g_assert_cmpstr (login->body, ==, "{\"username\":\"codenomad\",\"password\":\"pa55word\"}");
  stream = clarify_test_server_get_request (fixture->server, "GET", "/api/events", 0);
  listing = clarify_test_server_get_request (fixture->server, "GET", "/api/workspaces", 0);
  g_assert_cmpstr (clarify_test_request_get_header (stream, "Cookie"), ==, "codenomad_session=s3ss10n");
  g_assert_cmpstr (clarify_test_request_get_header (listing, "Cookie"), ==, "codenomad_session=s3ss10n");
  g_assert_true (clarify_secret_clear ("connection:nomad", NULL));
}

/* Stopped while logging in: the login that finishes later opens no stream. */
static void
test_stop_while_logging_in (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_secret_store ("connection:nomad", "test", "pa55word", &error));
  clarify_test_server_add_json (fixture->server, "POST", "/api/auth/login", 200, "application/json", "{\"ok\":true}");
  fixture_start (fixture);
  clarify_backend_stop (fixture->backend);

  /* Long enough for a login on loopback to finish and its stream to open. */
  clarify_test_loop_for (300);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/events"), ==, 0);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_IDLE);
  g_assert_true (clarify_secret_clear ("connection:nomad", NULL));
}

/* A 401 (session expired) logs in again and retries once. */
static void
test_relogin (Fixture       *fixture,
              gconstpointer  data)
{
  const char *set_cookie[] = { "Set-Cookie: codenomad_session=fresh; Path=/", NULL };
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_secret_store ("connection:nomad", "test", "tok3n", &error));
  clarify_connection_set_option (fixture->connection, "auth", "token");
  clarify_test_server_add_reply (fixture->server, "POST", "/api/auth/token", 200, "application/json", "{\"ok\":true}", set_cookie);
  clarify_test_server_add_json (fixture->server, "GET", "/api/workspaces", 401, "application/json", "{\"error\":\"Unauthorized\"}");
  clarify_test_server_add_json (fixture->server, "GET", "/api/workspaces", 200, "application/json",
                                "[{\"id\":\"" WORKSPACE "\",\"path\":\"/home/dev/project\"}]");
  clarify_test_server_set_json (fixture->server, "GET", INSTANCE "/question", 200, "application/json",
                                "[{\"id\":\"" QUESTION_ID "\",\"sessionID\":\"ses_1\",\"questions\":[{\"question\":\"Go?\",\"header\":\"Go\",\"options\":[{\"label\":\"Yes\",\"description\":\"go\"}]}]}]");

  connect_and_resync (fixture);
  clarify_test_watch_wait_request (&fixture->watch, 1);
  /* First login at start, the second after the 401. */
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/auth/token"), ==, 2);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/workspaces"), ==, 2);
  {
    g_autoptr(ClarifyTestRequest) token = clarify_test_server_get_request (fixture->server, "POST", "/api/auth/token", 0);

    g_assert_cmpstr (token->body, ==, "{\"token\":\"tok3n\"}");
  }
  g_assert_true (clarify_secret_clear ("connection:nomad", NULL));
}

/* Pending before we connected: listed once; the stream drops and comes
 * back: still one; answered: posted once. */
static void
test_resync (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *frame = question_frame ();
  g_autofree char *properties = g_strdup (strstr (frame, "\"properties\":") + strlen ("\"properties\":"));
  g_autofree char *listing = NULL;
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *styling[] = { "CSS Modules", NULL };
  const char *features[] = { "Error handling", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  char *end;

  /* The properties object ends where ,"directory" of the event begins. */
  end = strstr (properties, ",\"directory\":");
  g_assert_nonnull (end);
  *end = '\0';
  listing = g_strdup_printf ("[%s]", properties);
  clarify_test_server_set_json (fixture->server, "GET", INSTANCE "/question", 200, "application/json", listing);
  clarify_test_server_add_json (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reply", 200, "application/json", "true");

  connect_and_resync (fixture);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_opencode_request_get_info (request)->workspace_id, ==, WORKSPACE);

  clarify_test_server_sse_close (fixture->server, "/api/events");
  clarify_test_watch_wait_resynced (&fixture->watch, 2);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_false (clarify_request_is_withdrawn (request));

  clarify_response_add_answer (response, "q1", styling, NULL, FALSE);
  clarify_response_add_answer (response, "q2", features, NULL, FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_no_error (error);
  clarify_test_server_sse_close (fixture->server, "/api/events");
  clarify_test_watch_wait_resynced (&fixture->watch, 3);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reply"), ==, 1);

  /* A replayed question.asked of an answered question shows nothing. */
  clarify_test_server_sse_send (fixture->server, "/api/events", frame, -1);
  clarify_test_loop_for (100);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
}

/* The inbox full: a listed question is turned away, and fetched again from
 * the workspace's listing once there is room. */
static void
test_refused_listed_again (Fixture       *fixture,
                           gconstpointer  data)
{
  fixture_start (fixture);
  clarify_test_refused_listed_again (fixture->server, &fixture->watch, INSTANCE "/question");
}

/* instance.eventStatus shows in the connection's state message. */
static void
test_instance_status (Fixture       *fixture,
                      gconstpointer  data)
{
  connect_and_resync (fixture);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  clarify_test_server_sse_send (fixture->server, "/api/events",
                                "data: {\"type\":\"instance.eventStatus\",\"instanceId\":\"" WORKSPACE "\",\"status\":\"error\",\"reason\":\"spawn opencode ENOENT\"}\n\n", -1);
  clarify_test_loop_for (100);
  g_assert_cmpint (clarify_backend_get_note (fixture->backend), ==, CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR);
  g_assert_cmpstr (clarify_backend_get_note_subject (fixture->backend), ==, WORKSPACE);
  g_assert_cmpstr (clarify_backend_get_error_text (fixture->backend), ==, "spawn opencode ENOENT");
  clarify_test_server_sse_send (fixture->server, "/api/events",
                                "data: {\"type\":\"instance.eventStatus\",\"instanceId\":\"" WORKSPACE "\",\"status\":\"connected\"}\n\n", -1);
  clarify_test_loop_for (100);
  g_assert_cmpint (clarify_backend_get_note (fixture->backend), ==, CLARIFY_BACKEND_NOTE_NONE);
}

/* Members of the wrong JSON type are an agent's bug: logged and skipped,
 * never a crash or a critical, and the stream goes on. */
static void
test_wrong_types (Fixture       *fixture,
                  gconstpointer  data)
{
  static const char *frames[] = {
    "data: {\"type\":5}\n\n",
    "data: {\"type\":{}}\n\n",
    "data: {\"type\":[\"instance.event\"]}\n\n",
    "data: {\"type\":\"instance.eventStatus\",\"instanceId\":\"" WORKSPACE "\",\"status\":7}\n\n",
    "data: {\"type\":\"instance.eventStatus\",\"instanceId\":{},\"status\":{\"a\":1},\"reason\":[]}\n\n",
    "data: {\"type\":\"instance.event\",\"instanceId\":3,\"event\":{\"directory\":{},\"type\":\"question.asked\",\"properties\":{}}}\n\n",
  };
  g_autofree char *frame = question_frame ();

  clarify_test_server_set_json (fixture->server, "GET", "/api/workspaces", 200, "application/json",
                                "{\"workspaces\":{\"id\":\"" WORKSPACE "\"}}");
  connect_and_resync (fixture);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    clarify_test_server_sse_send (fixture->server, "/api/events", frames[i], -1);
  clarify_test_loop_for (100);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);

  clarify_test_server_sse_send (fixture->server, "/api/events", frame, -1);
  g_assert_cmpstr (clarify_request_get_id (clarify_test_watch_wait_request (&fixture->watch, 1)), ==, QUESTION_ID);
}

/* A workspace id becomes a path segment of every call to the workspace: one
 * that cannot stay one is skipped, and the other workspaces are listed. */
static void
test_dot_workspace (Fixture       *fixture,
                    gconstpointer  data)
{
  clarify_test_server_set_json (fixture->server, "GET", "/api/workspaces", 200, "application/json",
                                "[{\"id\":\"..\",\"path\":\"/home/dev/elsewhere\",\"status\":\"ready\"},"
                                "{\"id\":\"" WORKSPACE "\",\"path\":\"/home/dev/project\",\"status\":\"ready\"}]");
  connect_and_resync (fixture);

  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", INSTANCE "/question"), ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/worktrees/root/instance/question"), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/workspaces/../worktrees/root/instance/question"), ==, 0);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
}

/* B1a, line by line: the shutdown frame (0), the proxy's answer for a
 * workspace that is gone (1), the stream's answer before a new login (2). */
static char *
restart_line (guint n)
{
  return fixture_line ("b1a-restart.txt", n);
}

/* The server after a restart: another workspace, nothing pending, and
 * the proxy's answer for the workspace that is gone. */
static void
serve_new_instance (Fixture *fixture)
{
  g_autofree char *gone = restart_line (1);

  clarify_test_server_set_json (fixture->server, "GET", "/api/workspaces", 200, "application/json",
                                "[{\"id\":\"mkkd9new\",\"path\":\"/home/dev/project\",\"status\":\"ready\"}]");
  clarify_test_server_add_json (fixture->server, "GET", "/workspaces/mkkd9new/worktrees/root/instance/question",
                                200, "application/json", "[]");
  clarify_test_server_add_json (fixture->server, "GET", "/workspaces/mkkd9new/worktrees/root/instance/permission",
                                200, "application/json", "[]");
  g_assert_true (g_str_has_prefix (gone, "404 "));
  clarify_test_server_add_json (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reply",
                                404, "application/json", gone + 4);
}

/* CodeNomad restarts while a question is open: the workspace's instance
 * disconnects, the stream ends, and the server that comes back lists only a
 * new workspace. The question is withdrawn as gone with the restart, and an
 * answer sent anyway is told the same, never "answered elsewhere". */
static void
test_restart_forgets (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *frame = question_frame ();
  g_autofree char *shutdown = restart_line (0);
  g_autofree char *shutdown_frame = g_strconcat (shutdown, "\n\n", NULL);
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *styling[] = { "CSS Modules", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  connect_and_resync (fixture);
  clarify_test_server_sse_send (fixture->server, "/api/events", frame, -1);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  serve_new_instance (fixture);

  clarify_test_server_sse_send (fixture->server, "/api/events", shutdown_frame, -1);
  clarify_test_server_sse_close (fixture->server, "/api/events");
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);

  /* Answered in a dialog that was still open: the agent forgot it. */
  clarify_response_add_answer (response, "q1", styling, NULL, FALSE);
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED);
}

/* The question's properties as GET …/question lists them (F-CN-1). */
static char *
question_listing (void)
{
  g_autofree char *frame = question_frame ();
  g_autoptr(JsonNode) node = clarify_json_parse (frame + strlen ("data: "), -1, NULL);
  JsonObject *event = clarify_json_get_object_member (json_node_get_object (node), "event");
  g_autoptr(JsonNode) array = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonArray) items = json_array_new ();

  json_array_add_object_element (items, json_object_ref (clarify_json_get_object_member (event, "properties")));
  json_node_set_array (array, items);
  return clarify_json_to_string (array);
}

static gboolean
resynced_n_times (gpointer data)
{
  ClarifyTestWatchWait *wait = data;

  return wait->watch->resynced >= wait->n;
}

/* 100 reconnects, each with its resync listing the question and the stream
 * sending it again: one request, never withdrawn, and one answer POST. */
static void
test_resync_cycles (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *frame = question_frame ();
  g_autofree char *listing = question_listing ();
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *styling[] = { "Tailwind (Recommended)", NULL };
  const char *features[] = { "Loading state", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  clarify_test_server_set_json (fixture->server, "GET", INSTANCE "/question", 200, "application/json", listing);
  clarify_test_server_add_json (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reply", 200, "application/json", "true");
  connect_and_resync (fixture);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  for (guint i = 0; i < 100; i++)
    {
      ClarifyTestWatchWait wait = { &fixture->watch, i + 2 };

      clarify_test_server_sse_close (fixture->server, "/api/events");
      g_assert_true (clarify_test_loop_until (resynced_n_times, &wait, WAIT_MS));
      clarify_test_server_sse_send (fixture->server, "/api/events", frame, -1);
    }
  /* Let the last frame arrive. */
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, "/api/events", 1, WAIT_MS));
  clarify_test_loop_for (100);

  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);
  g_assert_false (clarify_request_is_withdrawn (request));
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/workspaces"), ==, 101);

  clarify_response_add_answer (response, "q1", styling, NULL, FALSE);
  clarify_response_add_answer (response, "q2", features, NULL, FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", INSTANCE "/question/" QUESTION_ID "/reply"), ==, 1);
}

static gboolean
stream_refused (gpointer data)
{
  Fixture *fixture = data;
  const char *reason =
    clarify_sse_client_get_state_reason (clarify_codenomad_backend_get_sse_client (CLARIFY_CODENOMAD_BACKEND (fixture->backend)));

  return reason != NULL && strstr (reason, "refused") != NULL;
}

/* CodeNomad is killed while a question is open: no shutdown frame, the
 * stream just breaks and the port refuses. What comes back is a new
 * instance, without the workspace (B1a): the question is withdrawn as
 * gone with the restart, and the answer sent anyway is told the same. */
static void
test_killed_forgets (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *frame = question_frame ();
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *styling[] = { "CSS Modules", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  guint port;

  connect_and_resync (fixture);
  clarify_test_server_sse_send (fixture->server, "/api/events", frame, -1);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  port = clarify_test_server_get_port (fixture->server);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (stream_refused, fixture, WAIT_MS));
  /* Down, not yet back: the question stays open. */
  g_assert_false (clarify_request_is_withdrawn (request));

  fixture->server = clarify_test_server_new_on_port (port);
  add_routes (fixture, "own workspaces");
  serve_new_instance (fixture);

  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);

  clarify_response_add_answer (response, "q1", styling, NULL, FALSE);
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED);
}

/* CodeNomad restarts: while it shuts down, the dropped stream's login is
 * still taken (by a server about to forget it); the server that comes
 * back refuses the stream (401) until Clarify logs in again, which it does
 * at once rather than never. */
static void
test_relogin_after_restart (Fixture       *fixture,
                            gconstpointer  data)
{
  const char *set_cookie[] = { "Set-Cookie: codenomad_session=s3ss10n; Path=/; HttpOnly; SameSite=Lax", NULL };
  g_autoptr(ClarifyTestRequest) login = NULL;
  g_autoptr(GError) error = NULL;
  guint port;

  g_assert_true (clarify_secret_store ("connection:nomad", "test", "pa55word", &error));
  clarify_test_server_add_reply (fixture->server, "POST", "/api/auth/login", 200, "application/json", "{\"ok\":true}", set_cookie);
  connect_and_resync (fixture);

  /* Shutting down: the stream ends, the login after it is taken, new
   * streams are turned away. */
  clarify_test_server_set_sse_response (fixture->server, "/api/events", 503, "text/plain");
  clarify_test_server_sse_close (fixture->server, "/api/events");
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", "/api/auth/login", 2, WAIT_MS));

  port = clarify_test_server_get_port (fixture->server);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (stream_refused, fixture, WAIT_MS));

  /* Back, with no sessions: the stream is refused until a login. */
  fixture->server = clarify_test_server_new_on_port (port);
  add_routes (fixture, NULL);
  clarify_test_server_set_sse_response (fixture->server, "/api/events", 401, "application/json");
  clarify_test_server_add_reply (fixture->server, "POST", "/api/auth/login", 200, "application/json", "{\"ok\":true}", set_cookie);
  login = clarify_test_server_wait_for_request (fixture->server, "POST", "/api/auth/login", WAIT_MS);
  g_assert_nonnull (login);
  clarify_test_server_set_sse_response (fixture->server, "/api/events", 200, "text/event-stream");
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, "/api/events", 1, WAIT_MS));
  g_assert_true (clarify_secret_clear ("connection:nomad", NULL));
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

#define ADD(name, func) \
  g_test_add ("/codenomad/" name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("question-and-reply", test_question_and_reply);
  g_test_add ("/codenomad/https/question-and-reply", Fixture, NULL, fixture_set_up_https, test_question_and_reply,
              fixture_tear_down);
  ADD ("reject-and-answered-elsewhere", test_reject_and_answered_elsewhere);
  ADD ("ping-pong", test_ping_pong);
  ADD ("server-closes", test_server_closes);
  ADD ("cookie-login", test_cookie_login);
  ADD ("stop-while-logging-in", test_stop_while_logging_in);
  g_test_add ("/codenomad/relogin", Fixture, "own workspaces", fixture_set_up, test_relogin, fixture_tear_down);
  ADD ("resync", test_resync);
  ADD ("refused-listed-again", test_refused_listed_again);
  g_test_add ("/codenomad/dot-workspace", Fixture, "own workspaces", fixture_set_up, test_dot_workspace, fixture_tear_down);
  ADD ("instance-status", test_instance_status);
  ADD ("wrong-types", test_wrong_types);
  ADD ("restart-forgets", test_restart_forgets);
  ADD ("killed-forgets", test_killed_forgets);
  ADD ("relogin-after-restart", test_relogin_after_restart);
  ADD ("resync-cycles", test_resync_cycles);
  g_test_add_func ("/codenomad/stable-ids", test_stable_ids);

  return g_test_run ();
}
