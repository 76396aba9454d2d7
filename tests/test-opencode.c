/* test-opencode.c: the "opencode" backend against a fake `opencode serve`
 * that replays the frames of the opencode-mcp-claude protocol notes
 * (tests/fixtures/protocols/opencode-mcp-claude)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-error.h"
#include "clarify-opencode-encoder.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"
#include "clarify-opencode-backend.h"

#include "clarify-test-inbox.h"
#include "clarify-test-log.h"
#include "clarify-test-opencode.h"

#define NOTES "protocols/opencode-mcp-claude/"
#define DIR "/home/dev/project"
#define DIR_QUERY "directory=%2Fhome%2Fdev%2Fproject"
#define QUESTION_ID "que_2002871fe001Lqadf0jbNBl4s6"
#define PERMISSION_ID "per_2002877d9001iW7A5dIz75kfpK"
#define WAIT_MS 5000

typedef struct
{
  ClarifyTestServer *server;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyTestWatch   watch;
} Fixture;

static void
set_listing (Fixture    *fixture,
             const char *questions,
             const char *permissions)
{
  clarify_test_server_set_json (fixture->server, "GET", "/question", 200, "application/json", questions);
  clarify_test_server_set_json (fixture->server, "GET", "/permission", 200, "application/json", permissions);
}

/* The routes every test's fake OpenCode serves. */
static void
add_routes (Fixture *fixture)
{
  set_listing (fixture, "[]", "[]");

  clarify_test_server_add_sse (fixture->server, "/global/event");
  clarify_test_server_set_sse_greeting (fixture->server, "/global/event",
                                        "data: {\"payload\":{\"id\":\"evt_2001085ae001SEvYPWBBs2qQ2Z\",\"type\":\"server.connected\",\"properties\":{}}}\n\n");
  clarify_test_server_add_sse (fixture->server, "/event");
  clarify_test_server_add_json (fixture->server, "GET", "/project", 200, "application/json", "[]");
  clarify_test_server_add_json (fixture->server, "GET", "/path", 200, "application/json",
                                "{\"home\":\"/home/dev\",\"state\":\"/s\",\"config\":\"/c\",\"worktree\":\"" DIR "\",\"directory\":\"" DIR "\"}");
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = NULL;

  fixture->server = clarify_test_server_new ();
  add_routes (fixture);
  url = clarify_test_server_get_url (fixture->server, "/");
  fixture->connection = clarify_connection_new ("work", "opencode", url);
}

static void
fixture_start (Fixture *fixture)
{
  fixture->backend = clarify_opencode_backend_new (fixture->connection);
  clarify_sse_client_set_backoff (clarify_opencode_backend_get_sse_client (CLARIFY_OPENCODE_BACKEND (fixture->backend)),
                                  20, 100);
  clarify_test_watch_init (&fixture->watch, fixture->backend);
  clarify_backend_start (fixture->backend);
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

static void
send_global (Fixture    *fixture,
             const char *payload)
{
  g_autofree char *frame = clarify_test_global_frame (DIR, payload);

  clarify_test_server_sse_send (fixture->server, "/global/event", frame, -1);
}

static void
connect_and_resync (Fixture *fixture)
{
  fixture_start (fixture);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, "/global/event", 1, WAIT_MS));
  clarify_test_watch_wait_resynced (&fixture->watch, 1);
}

static char *
question_payload (void)
{
  return clarify_test_fixture_block (NOTES "a2-question-asked.json");
}

static char *
permission_payload (void)
{
  return clarify_test_fixture_block (NOTES "a5-permission-asked.json");
}

/* A3's "Events:" block: 0 question.replied, 1 question.rejected. */
static char *
event_line (guint n)
{
  g_autofree char *block = clarify_test_fixture_block (NOTES "a3-events.jsonl");

  return clarify_test_line (block, n);
}

/* The global stream: question.asked decoded exactly, the answer posted
 * with labels (custom text last) and ?directory=. */
static void
test_question_global (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autofree char *replied = event_line (0);
  g_autofree char *reply_body = clarify_test_fixture_block (NOTES "a3-reply-body.json");
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "PostgreSQL", NULL };
  const char *extras[] = { "Docker", "CI", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  ClarifyQuestion *question;

  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reply", 200, "application/json", "true");
  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  g_assert_cmpstr (clarify_request_get_id (request), ==, QUESTION_ID);
  g_assert_cmpstr (clarify_request_get_project (request), ==, DIR);
  g_assert_cmpstr (clarify_request_get_session (request), ==, "ses_dffd799eaffeGncNzFSIPjwM93");
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "work");
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "question");
  g_assert_true (clarify_request_get_cancellable (request));
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);

  question = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "Which database should I use for the new service?");
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Database");
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 2);
  clarify_test_assert_option (question, 0, "PostgreSQL", "PostgreSQL", "Relational, robust, default choice");
  clarify_test_assert_option (question, 1, "SQLite", "SQLite", "Embedded, zero-config");

  question = clarify_request_get_question (request, 1);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Extras");
  clarify_test_assert_option (question, 1, "CI", "CI", "Add a CI workflow");

  clarify_response_add_answer (response, clarify_question_get_id (clarify_request_get_question (request, 0)),
                               database, NULL, FALSE);
  clarify_response_add_answer (response, clarify_question_get_id (question), extras, NULL, FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_no_error (error);

  /* The notes' own reply (A3's table), byte for byte. */
  clarify_test_assert_next_request (fixture->server, "POST", "/question/" QUESTION_ID "/reply", DIR_QUERY,
                                    reply_body);
  g_assert_null (clarify_backend_lookup_request (fixture->backend, QUESTION_ID));
  g_assert_false (clarify_request_is_withdrawn (request));

  /* Our own echo neither withdraws nor shows anything. */
  send_global (fixture, replied);
  clarify_test_loop_for (100);
  g_assert_false (clarify_request_is_withdrawn (request));
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
}

/* Custom text goes after the labels; Dismiss rejects with no body. */
static void
test_question_custom_and_dismiss (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autoptr(ClarifyResponse) answer = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) dismiss = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_CANCELLED);
  const char *extras[] = { "Docker", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reply", 500, "application/json", "{}");
  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reject", 200, "application/json", "true");
  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  clarify_response_add_answer (answer, "q1", NULL, "MariaDB, please", FALSE);
  clarify_response_add_answer (answer, "q2", extras, "A Makefile", FALSE);
  /* A 500 is worth retrying: the request stays pending. */
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, answer, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT);
  g_clear_error (&error);
  clarify_test_assert_next_request (fixture->server, "POST", "/question/" QUESTION_ID "/reply", DIR_QUERY,
               "{\"answers\":[[\"MariaDB, please\"],[\"Docker\",\"A Makefile\"]]}");
  g_assert_true (clarify_backend_lookup_request (fixture->backend, QUESTION_ID) == request);

  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, dismiss, &error));
  g_assert_no_error (error);
  clarify_test_assert_next_request (fixture->server, "POST", "/question/" QUESTION_ID "/reject", DIR_QUERY, "");
}

/* question.replied / question.rejected from another client close the dialog. */
static void
test_answered_elsewhere (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autofree char *replied = event_line (0);
  g_autofree char *rejected = event_line (1);
  g_autofree char *permission = permission_payload ();
  g_autofree char *rejected_payload = NULL;
  ClarifyRequest *request;

  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  send_global (fixture, replied);
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_ANSWERED_ELSEWHERE);
  g_assert_null (clarify_backend_lookup_request (fixture->backend, QUESTION_ID));

  /* The notes' question.rejected names another request: point it at a fresh one. */
  rejected_payload = g_strdup (payload);
  memcpy (strstr (rejected_payload, "que_2002871fe001"), "que_20011caa8001iWDS14IheDBl5t", strlen ("que_20011caa8001iWDS14IheDBl5t"));
  send_global (fixture, rejected_payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 2);
  g_assert_cmpstr (clarify_request_get_id (request), ==, "que_20011caa8001iWDS14IheDBl5t");
  send_global (fixture, rejected);
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));

  send_global (fixture, permission);
  request = clarify_test_watch_wait_request (&fixture->watch, 3);
  send_global (fixture, "{\"type\":\"permission.replied\",\"properties\":{\"sessionID\":\"ses_dffd78a34ffeVp29E8GMwyMs4j\",\"requestID\":\"" PERMISSION_ID "\",\"reply\":\"once\"}}");
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);
}

/* permission.asked: what it is, then once / always / reject (+ message). */
static void
test_permission (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *payload = permission_payload ();
  g_autoptr(ClarifyResponse) once = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) reject = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) refused = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) cancel = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_CANCELLED);
  const char *once_value[] = { "once", NULL };
  const char *reject_value[] = { "reject", NULL };
  const char *message[] = { "Use printf instead", NULL };
  const char *blank[] = { "  ", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  ClarifyQuestion *question;
  const char *context;

  clarify_test_server_add_json (fixture->server, "POST", "/permission/" PERMISSION_ID "/reply", 200, "application/json", "true");
  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  g_assert_cmpstr (clarify_request_get_id (request), ==, PERMISSION_ID);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "permission");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Allow “bash”?");
  context = clarify_request_get_context (request);
  g_assert_null (context);
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);
  question = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_PERMISSION);
  g_assert_cmpstr (clarify_question_get_subject (question), ==, "echo hello-from-fake");
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 3);
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (question, 0)), ==, "Allow once");
  g_assert_cmpstr (clarify_option_get_value (clarify_question_get_option (question, 0)), ==, "once");
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (question, 1)), ==, "Always allow");
  g_assert_cmpstr (clarify_option_get_value (clarify_question_get_option (question, 1)), ==, "always");
  g_assert_cmpstr (clarify_option_get_description (clarify_question_get_option (question, 1)), ==, "Also allow “echo *” from now on");
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (question, 2)), ==, "Reject");
  g_assert_cmpstr (clarify_option_get_value (clarify_question_get_option (question, 2)), ==, "reject");

  clarify_response_add_answer (once, CLARIFY_OPENCODE_PERMISSION_REPLY, once_value, NULL, FALSE);
  clarify_response_add_answer (once, CLARIFY_OPENCODE_PERMISSION_MESSAGE, blank, NULL, FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, once, &error));
  g_assert_no_error (error);
  clarify_test_assert_next_request (fixture->server, "POST", "/permission/" PERMISSION_ID "/reply", DIR_QUERY, "{\"reply\":\"once\"}");

  clarify_response_add_answer (reject, CLARIFY_OPENCODE_PERMISSION_REPLY, reject_value, NULL, FALSE);
  clarify_response_add_answer (reject, CLARIFY_OPENCODE_PERMISSION_MESSAGE, message, NULL, FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, reject, &error));
  clarify_test_assert_next_request (fixture->server, "POST", "/permission/" PERMISSION_ID "/reply", DIR_QUERY,
               "{\"reply\":\"reject\",\"message\":\"Use printf instead\"}");

  /* As the permission dialog answers: the message is the refusal's own. */
  clarify_response_add_answer (refused, CLARIFY_OPENCODE_PERMISSION_REPLY, reject_value, message[0], FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, refused, &error));
  clarify_test_assert_next_request (fixture->server, "POST", "/permission/" PERMISSION_ID "/reply", DIR_QUERY,
               "{\"reply\":\"reject\",\"message\":\"Use printf instead\"}");

  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, cancel, &error));
  clarify_test_assert_next_request (fixture->server, "POST", "/permission/" PERMISSION_ID "/reply", DIR_QUERY, "{\"reply\":\"reject\"}");
}

/* The permission.updated of older servers answers through the session route. */
static void
test_legacy_permission (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(ClarifyResponse) always = clarify_response_new ("per_old1", CLARIFY_OUTCOME_ANSWERED);
  const char *always_value[] = { "always", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  clarify_test_server_add_json (fixture->server, "POST", "/session/ses_old/permissions/per_old1", 200, "application/json", "true");
  connect_and_resync (fixture);
  send_global (fixture, "{\"id\":\"evt_1\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_old1\",\"type\":\"edit\",\"pattern\":[\"src/*.c\"],\"sessionID\":\"ses_old\",\"messageID\":\"msg_1\",\"title\":\"Edit src/main.c\",\"metadata\":{\"filepath\":\"src/main.c\"},\"time\":{\"created\":1}}}");
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Allow “edit”?");
  g_assert_cmpstr (clarify_request_get_context (request), ==, "Edit src/main.c\nfilepath: src/main.c");
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);

  clarify_response_add_answer (always, CLARIFY_OPENCODE_PERMISSION_REPLY, always_value, NULL, FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, always, &error));
  g_assert_no_error (error);
  clarify_test_assert_next_request (fixture->server, "POST", "/session/ses_old/permissions/per_old1", DIR_QUERY, "{\"response\":\"always\"}");

  /* Its reply event names the permission "permissionID". */
  send_global (fixture, "{\"id\":\"evt_2\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_old2\",\"type\":\"bash\",\"sessionID\":\"ses_old\",\"messageID\":\"msg_1\",\"title\":\"Run ls\",\"metadata\":{},\"time\":{\"created\":2}}}");
  request = clarify_test_watch_wait_request (&fixture->watch, 2);
  send_global (fixture, "{\"id\":\"evt_3\",\"type\":\"permission.replied\",\"properties\":{\"sessionID\":\"ses_old\",\"permissionID\":\"per_old2\",\"response\":\"once\"}}");
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
}

/* An abort leaves the question listed with no event but session.error and
 * session.idle: the dialog goes, and a resync does not bring it back. */
static void
test_aborted_session (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autofree char *listing = g_strdup_printf ("[%s]", strstr (payload, "\"properties\":") + strlen ("\"properties\":"));
  ClarifyRequest *request;

  /* The listing item is question.asked's properties: cut the event's closing brace. */
  listing[strlen (listing) - 2] = ']';
  listing[strlen (listing) - 1] = '\0';

  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  set_listing (fixture, listing, "[]");

  send_global (fixture, "{\"id\":\"evt_a\",\"type\":\"session.error\",\"properties\":{\"sessionID\":\"ses_dffd799eaffeGncNzFSIPjwM93\",\"error\":{\"name\":\"MessageAbortedError\",\"data\":{\"message\":\"Aborted\"}}}}");
  send_global (fixture, "{\"id\":\"evt_b\",\"type\":\"session.idle\",\"properties\":{\"sessionID\":\"ses_dffd799eaffeGncNzFSIPjwM93\"}}");
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_SESSION_ENDED);

  clarify_test_server_sse_close (fixture->server, "/global/event");
  clarify_test_watch_wait_resynced (&fixture->watch, 2);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);
}

/* session.status idle ends a session as well. */
static void
test_session_status_idle (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *payload = permission_payload ();
  ClarifyRequest *request;

  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  send_global (fixture, "{\"id\":\"evt_s\",\"type\":\"session.status\",\"properties\":{\"sessionID\":\"ses_other\",\"status\":{\"type\":\"idle\"}}}");
  send_global (fixture, "{\"id\":\"evt_t\",\"type\":\"session.status\",\"properties\":{\"sessionID\":\"ses_dffd78a34ffeVp29E8GMwyMs4j\",\"status\":{\"type\":\"busy\"}}}");
  clarify_test_loop_for (100);
  g_assert_false (clarify_request_is_withdrawn (request));
  send_global (fixture, "{\"id\":\"evt_u\",\"type\":\"session.status\",\"properties\":{\"sessionID\":\"ses_dffd78a34ffeVp29E8GMwyMs4j\",\"status\":{\"type\":\"idle\"}}}");
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
}

/* 404: answered elsewhere (GONE, forgotten); 400: our bug, logged;
 * 200 text/html: the web UI's catch-all, a protocol error. */
static void
test_reply_errors (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "PostgreSQL", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reply", 200, "text/html", "<!doctype html><html></html>");
  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reply", 400, "application/json",
                                "{\"name\":\"BadRequest\",\"data\":{\"message\":\"Expected array, got \\\"PostgreSQL\\\"\\n  at [\\\"answers\\\"]\",\"kind\":\"Payload\"}}");
  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reply", 404, "application/json",
                                "{\"_tag\":\"QuestionNotFoundError\",\"requestID\":\"" QUESTION_ID "\",\"message\":\"Question request not found: " QUESTION_ID "\"}");
  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  clarify_response_add_answer (response, "q1", database, NULL, FALSE);

  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL);
  g_clear_error (&error);

  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED);
  g_clear_error (&error);
  g_assert_true (clarify_test_log_seen ("*Expected array, got \\\"PostgreSQL\\\"*"));
  g_assert_true (clarify_backend_lookup_request (fixture->backend, QUESTION_ID) == request);

  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_assert_null (clarify_backend_lookup_request (fixture->backend, QUESTION_ID));
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/question/" QUESTION_ID "/reply"), ==, 3);
}

/* Through the inbox: the server refuses the first reply (400), the question
 * is pending again with the reason, and the second reply is taken, once. */
static void
test_reply_refused (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "PostgreSQL", NULL };
  const char *reply = "/question/" QUESTION_ID "/reply";
  g_auto(ClarifyTestInboxWatch) inbox_watch = { 0, };
  ClarifyInbox *inbox;
  ClarifyRequest *request;

  clarify_test_server_add_json (fixture->server, "POST", reply, 400, "application/json",
                                "{\"name\":\"BadRequest\",\"data\":{\"message\":\"Expected array\",\"kind\":\"Payload\"}}");
  clarify_test_server_add_json (fixture->server, "POST", reply, 200, "application/json", "true");
  connect_and_resync (fixture);
  inbox = clarify_backend_get_inbox (fixture->backend);
  clarify_test_inbox_watch_init (&inbox_watch, inbox);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  clarify_test_inbox_assert (&inbox_watch, fixture->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  clarify_response_add_answer (response, "q1", database, NULL, FALSE);

  clarify_inbox_answer (inbox, request, response);
  g_assert_true (clarify_test_loop_until (clarify_test_inbox_has_refused, &inbox_watch, WAIT_MS));
  clarify_test_inbox_assert (&inbox_watch, fixture->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE,
                             CLARIFY_END_REASON_ANSWER_REFUSED, "HTTP 400 Bad Request");
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 1);

  clarify_inbox_answer (inbox, request, response);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&inbox_watch, fixture->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (inbox_watch.refused->len, ==, 1);
  g_assert_cmpuint (clarify_outbox_get_n_pending (clarify_inbox_get_outbox (inbox)), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", reply), ==, 2);
}

/* The inbox full: a listed question is turned away (OpenCode has no way to
 * hear it), and fetched again from the listing once there is room. */
static void
test_refused_listed_again (Fixture       *fixture,
                           gconstpointer  data)
{
  fixture_start (fixture);
  clarify_test_refused_listed_again (fixture->server, &fixture->watch, "/question");
}

/* Kill the stream while a question is pending: the reconnect lists it again,
 * it is shown once, and the answer reaches the server once. A request that
 * vanished from the listing meanwhile is withdrawn as gone with a restart:
 * OpenCode ends its streams only when it stops, and the restart may have
 * been faster than the reconnect (the soak's "untrue endings"). */
static void
test_resync (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autofree char *permission = permission_payload ();
  g_autofree char *listing = g_strdup_printf ("[%s]", strstr (payload, "\"properties\":") + strlen ("\"properties\":"));
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "SQLite", NULL };
  const char *extras[] = { "CI", NULL };
  g_autoptr(ClarifyTestRequest) list = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  ClarifyRequest *gone;

  listing[strlen (listing) - 2] = ']';
  listing[strlen (listing) - 1] = '\0';
  set_listing (fixture, listing, "[]");
  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reply", 200, "application/json", "true");

  /* Pending before we connected: only the listing knows it. */
  connect_and_resync (fixture);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_request_get_id (request), ==, QUESTION_ID);
  g_assert_cmpstr (clarify_request_get_project (request), ==, DIR);
  list = clarify_test_server_wait_for_request (fixture->server, "GET", "/question", WAIT_MS);
  g_assert_cmpstr (list->query, ==, DIR_QUERY);

  /* A permission arrives by event; the server forgets it while we are away,
   * and no port ever refused. */
  send_global (fixture, permission);
  gone = clarify_test_watch_wait_request (&fixture->watch, 2);

  clarify_test_server_sse_close (fixture->server, "/global/event");
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/global/event", 2, WAIT_MS));
  clarify_test_watch_wait_resynced (&fixture->watch, 2);

  g_assert_cmpuint (fixture->watch.added->len, ==, 2);
  g_assert_false (clarify_request_is_withdrawn (request));
  g_assert_true (clarify_request_is_withdrawn (gone));
  g_assert_cmpint (clarify_request_get_end_reason (gone), ==, CLARIFY_END_REASON_AGENT_RESTARTED);

  clarify_response_add_answer (response, "q1", database, NULL, FALSE);
  clarify_response_add_answer (response, "q2", extras, NULL, FALSE);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_no_error (error);

  /* Still listed by a slow server after our answer: never shown again. */
  clarify_test_server_sse_close (fixture->server, "/global/event");
  clarify_test_watch_wait_resynced (&fixture->watch, 3);
  g_assert_cmpuint (fixture->watch.added->len, ==, 2);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/question/" QUESTION_ID "/reply"), ==, 1);
  clarify_test_assert_next_request (fixture->server, "POST", "/question/" QUESTION_ID "/reply", DIR_QUERY,
               "{\"answers\":[[\"SQLite\"],[\"CI\"]]}");
}

static gboolean
request_has_query (Fixture    *fixture,
                   const char *path,
                   const char *query)
{
  guint n = clarify_test_server_get_n_requests (fixture->server, "GET", path);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyTestRequest) request = clarify_test_server_get_request (fixture->server, "GET", path, i);

      if (g_strcmp0 (request->query, query) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Directories come from GET /project (worktrees and sandboxes), GET /path
 * and the frames; each is listed on every connect. */
static void
test_directories (Fixture       *fixture,
                  gconstpointer  data)
{
  clarify_test_server_set_json (fixture->server, "GET", "/project", 200, "application/json",
                                "[{\"id\":\"global\",\"worktree\":\"/\",\"sandboxes\":[],\"time\":{\"created\":1}},"
                                "{\"id\":\"p1\",\"worktree\":\"/srv/app\",\"sandboxes\":[\"/srv/app-sandbox\"],\"time\":{\"created\":1}}]");
  connect_and_resync (fixture);

  g_assert_true (request_has_query (fixture, "/question", "directory=%2Fsrv%2Fapp"));
  g_assert_true (request_has_query (fixture, "/permission", "directory=%2Fsrv%2Fapp"));
  g_assert_true (request_has_query (fixture, "/question", "directory=%2Fsrv%2Fapp-sandbox"));
  g_assert_true (request_has_query (fixture, "/question", DIR_QUERY));
  g_assert_false (request_has_query (fixture, "/question", "directory=%2F"));

  /* A new directory in a frame is listed at once. */
  {
    g_autofree char *frame = clarify_test_global_frame ("/tmp/other", "{\"id\":\"evt_x\",\"type\":\"session.updated\",\"properties\":{}}");

    clarify_test_server_sse_send (fixture->server, "/global/event", frame, -1);
  }
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/permission", 4, WAIT_MS));
  g_assert_true (request_has_query (fixture, "/permission", "directory=%2Ftmp%2Fother"));
}

/* Heartbeats keep the stream; silence past the stall limit reconnects. */
static void
test_heartbeats (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *block = clarify_test_fixture_block (NOTES "a1-event-streams.sse");
  g_autofree char *heartbeat = g_strdup_printf ("%s\n\n", strstr (block, "data: {\"payload\""));

  clarify_connection_set_option (fixture->connection, "stall-limit", "1.5");
  connect_and_resync (fixture);

  for (guint i = 0; i < 20; i++)
    {
      clarify_test_server_sse_send (fixture->server, "/global/event", heartbeat, -1);
      clarify_test_loop_for (100);
    }
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/global/event"), ==, 1);

  /* No more heartbeats: a second stream. */
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/global/event", 2, WAIT_MS));
  clarify_test_watch_wait_resynced (&fixture->watch, 2);
}

/* A server without /global/event (404, or the web UI's text/html) is
 * streamed per directory through /event?directory=. */
static void
test_fallback (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *block = clarify_test_fixture_block (NOTES "a1-event-streams.sse");
  g_autofree char *first_line = clarify_test_line (block, 0);
  g_autofree char *connected = g_strdup_printf ("%s\n\n", first_line);
  g_autofree char *payload = question_payload ();
  g_autofree char *frame = clarify_test_sse_frame (payload);
  g_autoptr(ClarifyTestRequest) stream = NULL;
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  guint status = GPOINTER_TO_UINT (data);

  clarify_test_server_set_sse_response (fixture->server, "/global/event", status,
                                        status == 404 ? "application/json" : "text/html");
  clarify_test_server_set_sse_greeting (fixture->server, "/event", connected);
  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reject", 200, "application/json", "true");
  clarify_connection_set_option (fixture->connection, "directory", DIR);
  fixture_start (fixture);

  stream = clarify_test_server_wait_for_request (fixture->server, "GET", "/event", WAIT_MS);
  g_assert_nonnull (stream);
  g_assert_cmpstr (stream->query, ==, DIR_QUERY);
  g_assert_true (clarify_opencode_backend_is_fallback (CLARIFY_OPENCODE_BACKEND (fixture->backend)));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, "/event", 1, WAIT_MS));
  clarify_test_watch_wait_resynced (&fixture->watch, 1);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_cmpint (clarify_backend_get_note (fixture->backend), ==, CLARIFY_BACKEND_NOTE_ONE_DIRECTORY);

  clarify_test_server_sse_send (fixture->server, "/event", frame, -1);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_request_get_project (request), ==, DIR);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_no_error (error);
  clarify_test_assert_next_request (fixture->server, "POST", "/question/" QUESTION_ID "/reject", DIR_QUERY, "");
}

/* HTTP Basic with the stored password, on the stream and on every call. */
static void
test_basic_auth (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(ClarifyTestRequest) stream = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(ClarifyTestRequest) list = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  const char *expected = data;

  if (g_str_equal (expected, "Basic bWU6czNjcmV0"))
    clarify_connection_set_option (fixture->connection, "username", "me");
  g_assert_true (clarify_secret_store ("connection:work", "test", "s3cret", &error));
  g_assert_no_error (error);
  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reject", 200, "application/json", "true");

  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_true (clarify_test_watch_respond (&fixture->watch, request, response, &error));

  stream = clarify_test_server_get_request (fixture->server, "GET", "/global/event", 0);
  list = clarify_test_server_get_request (fixture->server, "GET", "/question", 0);
  post = clarify_test_server_get_request (fixture->server, "POST", "/question/" QUESTION_ID "/reject", 0);
  g_assert_cmpstr (clarify_test_request_get_header (stream, "Authorization"), ==, expected);
  g_assert_cmpstr (clarify_test_request_get_header (list, "Authorization"), ==, expected);
  g_assert_cmpstr (clarify_test_request_get_header (post, "Authorization"), ==, expected);
  /* The password never reaches the log. */
  g_assert_false (clarify_test_log_seen ("*s3cret*"));
  g_assert_true (clarify_secret_clear ("connection:work", NULL));
}

/* Without a password nothing is sent. */
static void
test_no_auth (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(ClarifyTestRequest) stream = NULL;

  connect_and_resync (fixture);
  stream = clarify_test_server_get_request (fixture->server, "GET", "/global/event", 0);
  g_assert_null (clarify_test_request_get_header (stream, "Authorization"));
}

/* Requests that cannot be shown honestly are dropped, not crashed on. */
static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autoptr(GString) deep = g_string_new ("data: ");

  /* Members of the wrong type in a listing. */
  clarify_test_server_set_json (fixture->server, "GET", "/project", 200, "application/json",
                                "[{\"worktree\":{\"x\":1},\"sandboxes\":\"/srv\"},{\"worktree\":5},7]");
  connect_and_resync (fixture);
  /* Nesting deep enough to overflow json-glib's stack. */
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (deep, '[');
  g_string_append (deep, "\n\n");
  clarify_test_server_sse_send (fixture->server, "/global/event", deep->str, deep->len);
  send_global (fixture, "{\"id\":\"evt_m\",\"type\":\"question.asked\",\"properties\":{\"id\":\"que_bad\",\"sessionID\":\"ses_1\"}}");
  send_global (fixture, "{\"id\":\"evt_n\",\"type\":\"question.asked\",\"properties\":{\"id\":\"que_bad2\",\"sessionID\":\"ses_1\",\"questions\":[{\"question\":\"Pick\",\"header\":\"H\",\"options\":[{\"description\":\"no label\"}]}]}}");
  clarify_test_server_sse_send (fixture->server, "/global/event", "data: not json\n\n", -1);
  send_global (fixture, payload);
  clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpstr (clarify_request_get_id (fixture->watch.added->pdata[0]), ==, QUESTION_ID);
}

/* custom:false hides "Other"; a question without options is plain text. */
static void
test_question_shapes (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyResponse) response = clarify_response_new ("que_s", CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  const char *text[] = { "Blue", NULL };

  g_assert_true (json_parser_load_from_data (parser,
    "{\"id\":\"que_s\",\"sessionID\":\"ses_s\",\"questions\":["
    "{\"question\":\"Size?\",\"header\":\"Size\",\"options\":[{\"label\":\"S\",\"description\":\"small\"}],\"custom\":false},"
    "{\"question\":\"Colour?\",\"header\":\"Colour\",\"options\":[]},"
    "{\"question\":\"Skip me\",\"header\":\"Skip\",\"options\":[{\"label\":\"A\",\"description\":\"a\"}],\"multiple\":true}]}", -1, NULL));
  request = clarify_opencode_question_new (json_node_get_object (json_parser_get_root (parser)), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (clarify_question_get_allow_other (clarify_request_get_question (request, 0)));
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 1)), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_null (clarify_request_get_project (request));

  clarify_response_add_answer (response, "q1", NULL, NULL, TRUE);
  clarify_response_add_answer (response, "q2", text, NULL, FALSE);
  g_assert_true (clarify_opencode_encode_reply (request, response, &path, &body, &error));
  g_assert_cmpstr (path, ==, "/question/que_s/reply");
  /* Skipped and unanswered questions are empty arrays ("Unanswered" for the LLM). */
  g_assert_cmpstr (body, ==, "{\"answers\":[[],[\"Blue\"],[]]}");
}

static gboolean
has_session_title (gpointer data)
{
  return clarify_request_get_session_title (data) != NULL;
}

/* The dialog names the session as OpenCode's UI does: GET /session/{id}
 * once per session, and the title reaches every request of it. Without
 * one (404) the folder's name stays. */
static void
test_session_title (Fixture       *fixture,
                    gconstpointer  data)
{
  ClarifyRequest *first, *second, *unknown;

  clarify_test_server_add_json (fixture->server, "GET", "/session/ses_old", 200, "application/json",
                                "{\"id\":\"ses_old\",\"slug\":\"old\",\"title\":\"Refactor the parser\","
                                "\"directory\":\"/home/u/proj\",\"time\":{\"created\":1,\"updated\":2}}");
  connect_and_resync (fixture);
  send_global (fixture, "{\"id\":\"evt_1\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_old1\",\"type\":\"edit\",\"pattern\":[\"src/*.c\"],\"sessionID\":\"ses_old\",\"messageID\":\"msg_1\",\"title\":\"Edit src/main.c\",\"metadata\":{},\"time\":{\"created\":1}}}");
  send_global (fixture, "{\"id\":\"evt_2\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_old2\",\"type\":\"bash\",\"sessionID\":\"ses_old\",\"messageID\":\"msg_1\",\"title\":\"Run ls\",\"metadata\":{},\"time\":{\"created\":2}}}");
  first = clarify_test_watch_wait_request (&fixture->watch, 1);
  second = clarify_test_watch_wait_request (&fixture->watch, 2);
  g_assert_true (clarify_test_loop_until (has_session_title, first, WAIT_MS));
  g_assert_true (clarify_test_loop_until (has_session_title, second, WAIT_MS));
  g_assert_cmpstr (clarify_request_get_session_title (first), ==, "Refactor the parser");
  g_assert_cmpstr (clarify_request_get_session_title (second), ==, "Refactor the parser");
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/session/ses_old"), ==, 1);

  send_global (fixture, "{\"id\":\"evt_3\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_new\",\"type\":\"bash\",\"sessionID\":\"ses_gone\",\"messageID\":\"msg_2\",\"title\":\"Run ls\",\"metadata\":{},\"time\":{\"created\":3}}}");
  unknown = clarify_test_watch_wait_request (&fixture->watch, 3);
  {
    g_autoptr(ClarifyTestRequest) get = clarify_test_server_wait_for_request (fixture->server, "GET", "/session/ses_gone",
                                                                             WAIT_MS);

    g_assert_nonnull (get);
  }
  clarify_test_loop_for (100);
  g_assert_null (clarify_request_get_session_title (unknown));

  /* A session id that cannot stay one path segment gets no title, and no
   * GET elsewhere on the server; ses_dot (after it) gets its GET. */
  send_global (fixture, "{\"id\":\"evt_4\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_dots\",\"type\":\"bash\",\"sessionID\":\"..\",\"messageID\":\"msg_3\",\"title\":\"Run ls\",\"metadata\":{},\"time\":{\"created\":4}}}");
  send_global (fixture, "{\"id\":\"evt_5\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_dot\",\"type\":\"bash\",\"sessionID\":\"ses_dot\",\"messageID\":\"msg_4\",\"title\":\"Run ls\",\"metadata\":{},\"time\":{\"created\":5}}}");
  clarify_test_watch_wait_request (&fixture->watch, 5);
  {
    g_autoptr(ClarifyTestRequest) get = clarify_test_server_wait_for_request (fixture->server, "GET", "/session/ses_dot",
                                                                             WAIT_MS);

    g_assert_nonnull (get);
  }
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/session/.."), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/"), ==, 0);
}

static gboolean
stream_refused (gpointer data)
{
  Fixture *fixture = data;
  const char *reason =
    clarify_sse_client_get_state_reason (clarify_opencode_backend_get_sse_client (CLARIFY_OPENCODE_BACKEND (fixture->backend)));

  return reason != NULL && strstr (reason, "refused") != NULL;
}

/* OpenCode restarts while a question is open: its port refuses for a while,
 * and the server that comes back no longer lists the question (pending
 * questions live in memory). It is withdrawn as gone with the restart, not
 * "answered elsewhere", and an answer sent anyway (404) is told the same. */
static void
test_restart (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autofree char *listing = g_strdup_printf ("[%s]", strstr (payload, "\"properties\":") + strlen ("\"properties\":"));
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "SQLite", NULL };
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;
  guint port;

  listing[strlen (listing) - 2] = ']';
  listing[strlen (listing) - 1] = '\0';
  set_listing (fixture, listing, "[]");
  connect_and_resync (fixture);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);

  port = clarify_test_server_get_port (fixture->server);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (stream_refused, fixture, WAIT_MS));
  g_assert_false (clarify_request_is_withdrawn (request));

  fixture->server = clarify_test_server_new_on_port (port);
  add_routes (fixture);
  clarify_test_server_add_json (fixture->server, "POST", "/question/" QUESTION_ID "/reply", 404, "application/json",
                                "{\"_tag\":\"QuestionNotFoundError\"}");
  g_assert_true (clarify_test_loop_until (clarify_test_request_withdrawn, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);

  clarify_response_add_answer (response, "q1", database, NULL, FALSE);
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED);
}

static gboolean
waits_for_agent (gpointer data)
{
  return clarify_request_get_end_reason (data) == CLARIFY_END_REASON_WAITING_FOR_AGENT;
}

/* OpenCode restarts faster than the stream reconnects: the user's answer
 * meets the server going down (503) and is kept for a retry; the stream
 * drops and comes back at once, never seeing the port refuse, and the
 * listing no longer has the question. It ends as gone with the restart,
 * the answer kept with it; not "answered elsewhere". A retry that reaches
 * the restarted server (404) is told the same. */
static void
test_fast_restart (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autofree char *listing = g_strdup_printf ("[%s]", strstr (payload, "\"properties\":") + strlen ("\"properties\":"));
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "SQLite", NULL };
  const char *reply = "/question/" QUESTION_ID "/reply";
  ClarifyInbox *inbox;
  ClarifyRequest *request;

  listing[strlen (listing) - 2] = ']';
  listing[strlen (listing) - 1] = '\0';
  set_listing (fixture, listing, "[]");
  clarify_test_server_add_json (fixture->server, "POST", reply, 503, "text/plain", "shutting down");
  clarify_test_server_add_json (fixture->server, "POST", reply, 404, "application/json",
                                "{\"_tag\":\"QuestionNotFoundError\"}");
  connect_and_resync (fixture);
  inbox = clarify_backend_get_inbox (fixture->backend);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  clarify_response_add_answer (response, "q1", database, NULL, FALSE);

  /* Data (non-NULL): the stream comes back before the retry; else the
   * retry reaches the restarted server first. */
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (inbox), data != NULL ? 60000 : 20, data != NULL ? 60000 : 20);
  clarify_inbox_answer (inbox, request, response);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", reply, 1, WAIT_MS));
  if (data != NULL)
    {
      g_assert_true (clarify_test_loop_until (waits_for_agent, request, WAIT_MS));
      set_listing (fixture, "[]", "[]");
      clarify_test_server_sse_close (fixture->server, "/global/event");
    }
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);
  /* Not delivered: never shown as answered. */
  g_assert_cmpint (clarify_request_get_end (request), !=, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpuint (clarify_outbox_get_n_pending (clarify_inbox_get_outbox (inbox)), ==, 0);
}

/* OpenCode restarts while the user's answer is on its way: the restarted
 * server says 404 for the question, and the old stream's end may be read
 * before or after that 404. Either way the question ends as gone with the
 * restart, never "answered elsewhere". Without the restart (data NULL: the
 * stream stays) the same 404 means someone else answered. */
static void
test_gone_verdict (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "SQLite", NULL };
  const char *reply = "/question/" QUESTION_ID "/reply";
  gboolean restart = data != NULL;
  ClarifyInbox *inbox;
  ClarifyRequest *request;

  clarify_test_server_add_json (fixture->server, "POST", reply, 404, "application/json",
                                "{\"_tag\":\"QuestionNotFoundError\"}");
  connect_and_resync (fixture);
  send_global (fixture, payload);
  inbox = clarify_backend_get_inbox (fixture->backend);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  clarify_response_add_answer (response, "q1", database, NULL, FALSE);

  clarify_inbox_answer (inbox, request, response);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", reply, 1, WAIT_MS));
  if (restart)
    clarify_test_server_sse_close (fixture->server, "/global/event");
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==,
                   restart ? CLARIFY_END_REASON_AGENT_RESTARTED : CLARIFY_END_REASON_ANSWERED_ELSEWHERE);
  g_assert_cmpint (clarify_request_get_end (request), !=, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", reply), ==, 1);
  g_assert_cmpuint (clarify_outbox_get_n_pending (clarify_inbox_get_outbox (inbox)), ==, 0);
}

/* The server thread: takes the answer after 31 s, as a slow agent would. */
static void
slow_reply (const ClarifyTestRequest  *request,
            guint                     *status,
            char                     **content_type,
            char                     **body,
            gpointer                   user_data)
{
  g_usleep (31 * G_USEC_PER_SEC);
  *status = 200;
  *content_type = g_strdup ("application/json");
  *body = g_strdup ("true");
}

/* An agent that answers only after 30 s: the post is waited for, not
 * given up on and sent again, and the answer arrives once. */
static void
test_slow_reply (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *payload = question_payload ();
  g_autoptr(ClarifyResponse) response = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  const char *database[] = { "SQLite", NULL };
  const char *reply = "/question/" QUESTION_ID "/reply";
  ClarifyRequest *request;

  clarify_test_server_add_handler (fixture->server, "POST", reply, slow_reply, NULL);
  connect_and_resync (fixture);
  send_global (fixture, payload);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  clarify_response_add_answer (response, "q1", database, NULL, FALSE);

  clarify_inbox_answer (clarify_backend_get_inbox (fixture->backend), request, response);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, 60000);
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", reply), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_unsetenv ("OPENCODE_SERVER_PASSWORD");

#define ADD(name, func, data) \
  g_test_add ("/opencode/" name, Fixture, data, fixture_set_up, func, fixture_tear_down)

  ADD ("question/global", test_question_global, NULL);
  ADD ("question/custom-and-dismiss", test_question_custom_and_dismiss, NULL);
  ADD ("question/answered-elsewhere", test_answered_elsewhere, NULL);
  ADD ("question/malformed", test_malformed, NULL);
  ADD ("permission/asked", test_permission, NULL);
  ADD ("permission/legacy", test_legacy_permission, NULL);
  ADD ("session/aborted", test_aborted_session, NULL);
  ADD ("session/status-idle", test_session_status_idle, NULL);
  ADD ("session/title", test_session_title, NULL);
  ADD ("reply/errors", test_reply_errors, NULL);
  ADD ("reply/refused", test_reply_refused, NULL);
  ADD ("reply/slow", test_slow_reply, NULL);
  ADD ("resync", test_resync, NULL);
  ADD ("refused-listed-again", test_refused_listed_again, NULL);
  ADD ("restart", test_restart, NULL);
  ADD ("restart/fast-retry", test_fast_restart, NULL);
  ADD ("restart/fast-resync", test_fast_restart, "resync");
  ADD ("restart/gone-while-answering", test_gone_verdict, "restart");
  ADD ("reply/gone-elsewhere", test_gone_verdict, NULL);
  ADD ("directories", test_directories, NULL);
  ADD ("stream/heartbeats", test_heartbeats, NULL);
  ADD ("stream/fallback-404", test_fallback, GUINT_TO_POINTER (404));
  ADD ("stream/fallback-html", test_fallback, GUINT_TO_POINTER (200));
  ADD ("auth/basic", test_basic_auth, "Basic b3BlbmNvZGU6czNjcmV0");
  ADD ("auth/basic-username", test_basic_auth, "Basic bWU6czNjcmV0");
  ADD ("auth/none", test_no_auth, NULL);
  g_test_add_func ("/opencode/question/shapes", test_question_shapes);

  return g_test_run ();
}
