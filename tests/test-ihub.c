/* test-ihub.c: the "ihub" backend and its conversations against a fake iHub
 * that replays the streams recorded from the real server (ihub-captured)
 *
 * Each case: the chat GETs the stream (the fake greets it with the recorded
 * `connected` frame), POSTs the message, and the test sends the rest of the
 * recorded stream byte for byte. Answers go through the inbox, and every
 * POSTed body must be exactly the one the recording holds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "clarify-error.h"
#include "clarify-ihub-backend.h"
#include "clarify-inbox.h"
#include "clarify-outbox.h"
#include "clarify-secret.h"

#include "clarify-test-ihub.h"
#include "clarify-test-log.h"
#include "clarify-test-signals.h"

#define CAPTURED IHUB_CAPTURED
#define APP IHUB_APP
#define WAIT_MS IHUB_WAIT_MS
/* A server that answers only after 30 s. */
#define SLOW_MS 31000
/* How long the port refuses in /ihub/outage: the minute, well past
 * the 15 s the outbox's doubling back-off would reach, were a refused port
 * not tried every 2 s. */
#define OUTAGE_MS 60000
/* Those 2 s, and a second for a busy machine. */
#define BACK_WITHIN_MS 3000

typedef struct
{
  ClarifyTestServer *server;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyIhubChat   *chat;
  GString           *text;
  GPtrArray         *requests;
  ClarifyIhubEnd     end;
  char              *end_detail;
  guint              n_ended;
  guint              n_errors;
} Fixture;

static void
text_cb (ClarifyIhubChat *chat,
         const char      *chunk,
         Fixture         *fixture)
{
  g_string_append (fixture->text, chunk);
}

static void
clarification_cb (ClarifyIhubChat *chat,
                  ClarifyRequest  *request,
                  Fixture         *fixture)
{
  g_ptr_array_add (fixture->requests, g_object_ref (request));
}

static void
error_cb (ClarifyIhubChat *chat,
          ClarifyIhubEnd   end,
          const char      *detail,
          Fixture         *fixture)
{
  fixture->n_errors++;
}

static void
turn_ended_cb (ClarifyIhubChat *chat,
               ClarifyIhubEnd   end,
               const char      *detail,
               Fixture         *fixture)
{
  fixture->end = end;
  g_free (fixture->end_detail);
  fixture->end_detail = g_strdup (detail);
  fixture->n_ended++;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = NULL;

  fixture->server = clarify_test_server_new ();
  clarify_test_server_add_json (fixture->server, "GET", "/api/apps", 200, "application/json", IHUB_APPS);
  url = clarify_test_server_get_url (fixture->server, "");
  fixture->connection = clarify_connection_new ("corp", "ihub", url);
  clarify_connection_set_option (fixture->connection, "language", "en");
  fixture->text = g_string_new (NULL);
  fixture->requests = g_ptr_array_new_with_free_func (g_object_unref);
}

static void
fixture_start (Fixture    *fixture,
               const char *chat_id)
{
  fixture->backend = clarify_ihub_backend_new (fixture->connection);
  fixture->chat = clarify_ihub_backend_open_chat (CLARIFY_IHUB_BACKEND (fixture->backend), APP, chat_id);
  clarify_ihub_chat_set_model_id (fixture->chat, "fake-llm");
  g_signal_connect (fixture->chat, "text", G_CALLBACK (text_cb), fixture);
  g_signal_connect (fixture->chat, "clarification", G_CALLBACK (clarification_cb), fixture);
  g_signal_connect (fixture->chat, "error", G_CALLBACK (error_cb), fixture);
  g_signal_connect (fixture->chat, "turn-ended", G_CALLBACK (turn_ended_cb), fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->chat != NULL)
    g_signal_handlers_disconnect_by_data (fixture->chat, fixture);
  if (fixture->backend != NULL)
    clarify_backend_stop (fixture->backend);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->connection);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_string_free (fixture->text, TRUE);
  g_ptr_array_unref (fixture->requests);
  g_free (fixture->end_detail);
}

typedef struct
{
  Fixture *fixture;
  guint    n;
} Wait;

static gboolean
has_ended (gpointer data)
{
  Wait *wait = data;

  return wait->fixture->n_ended >= wait->n;
}

static void
wait_turn (Fixture *fixture,
           guint    n)
{
  Wait wait = { fixture, n };

  g_assert_true (clarify_test_loop_until (has_ended, &wait, WAIT_MS));
}

static void
replay_turn (Fixture    *fixture,
             const char *chat_id,
             const char *name,
             guint       n_post)
{
  clarify_test_ihub_replay_turn (fixture->server, chat_id, name, n_post);
}

static ClarifyRequest *
ask (Fixture    *fixture,
     const char *chat_id,
     const char *name,
     const char *text)
{
  g_assert_true (clarify_ihub_chat_send (fixture->chat, text));
  g_assert_cmpint (clarify_ihub_chat_get_state (fixture->chat), ==, CLARIFY_IHUB_CHAT_RUNNING);
  replay_turn (fixture, chat_id, name, 1);
  wait_turn (fixture, 1);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_CLARIFICATION);
  g_assert_cmpint (clarify_ihub_chat_get_state (fixture->chat), ==, CLARIFY_IHUB_CHAT_ASKING);
  g_assert_cmpuint (fixture->requests->len, ==, 1);
  g_assert_true (clarify_ihub_chat_get_clarification (fixture->chat) == fixture->requests->pdata[0]);
  g_assert_cmpuint (clarify_inbox_get_n_pending (clarify_backend_get_inbox (fixture->backend)), ==, 1);

  return fixture->requests->pdata[0];
}

static void
answer (Fixture            *fixture,
        ClarifyRequest     *request,
        ClarifyOutcome      outcome,
        const char * const *values,
        const char         *custom_text)
{
  ClarifyQuestion *question = clarify_request_get_question (request, 0);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request), outcome);

  if (outcome == CLARIFY_OUTCOME_ANSWERED)
    clarify_response_add_answer (response, clarify_question_get_id (question), values, custom_text, FALSE);
  clarify_inbox_answer (clarify_backend_get_inbox (fixture->backend), request, response);
}

/* A whole recorded case: ask, answer, and the model's reply. */
static void
run_case (Fixture            *fixture,
          const char         *chat_id,
          const char         *name,
          const char         *text,
          ClarifyQuestionKind kind,
          ClarifyOutcome      outcome,
          const char * const *values,
          const char         *reply)
{
  g_autofree char *first = g_strconcat (name, ".1", NULL);
  g_autofree char *second = g_strconcat (name, ".2", NULL);
  ClarifyRequest *request;

  fixture_start (fixture, chat_id);
  request = ask (fixture, chat_id, first, text);
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 0)), ==, kind);
  g_assert_cmpstr (clarify_request_get_project (request), ==, APP);

  answer (fixture, request, outcome, values, NULL);
  replay_turn (fixture, chat_id, second, 2);
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_COMPLETE);
  g_assert_cmpstr (fixture->text->str, ==, reply);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_DONE);
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  g_assert_cmpint (clarify_ihub_chat_get_state (fixture->chat), ==, CLARIFY_IHUB_CHAT_IDLE);
  g_assert_null (clarify_ihub_chat_get_clarification (fixture->chat));
  /* user, assistant "", user answer, assistant reply */
  g_assert_cmpuint (clarify_ihub_chat_get_n_messages (fixture->chat), ==, 4);
  g_assert_cmpstr (clarify_ihub_chat_get_message (fixture->chat, 3, NULL), ==, reply);
}

static void
test_text (Fixture       *fixture,
           gconstpointer  data)
{
  ClarifyRequest *request;
  ClarifyQuestion *question;
  const ClarifyValidation *validation;
  g_autoptr(ClarifyResponse) bad = NULL;

  fixture_start (fixture, "chat-selftest-text");
  request = ask (fixture, "chat-selftest-text", "text.1", "Please help ask:text");
  question = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "What does 'DM' refer to?");
  g_assert_cmpstr (clarify_question_get_placeholder (question), ==, "e.g., Direct Message, Data Manager...");
  g_assert_cmpstr (clarify_request_get_context (request), ==, "The abbreviation 'DM' has multiple meanings");
  validation = clarify_question_get_validation (question);
  g_assert_cmpstr (validation->pattern, ==, "^[A-Za-z ,.-]+$");
  g_assert_cmpint (validation->min_length, ==, 2);
  g_assert_cmpint (validation->max_length, ==, 80);
  g_assert_cmpstr (validation->message, ==, "Letters only, 2-80 characters");

  /* An answer the pattern refuses never leaves: the user may answer again. */
  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "DM 42", NULL }, NULL);
  clarify_test_loop_for (100);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/apps/" APP "/chat/chat-selftest-text"), ==, 1);

  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "Direct Message", NULL }, NULL);
  replay_turn (fixture, "chat-selftest-text", "text.2", 2);
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_COMPLETE);
  g_assert_cmpstr (fixture->text->str, ==, "You answered: Direct Message");
}

/* A server that leaves out session.start (a proxy, another version): the
 * question itself shows the message was taken, and the answer goes with
 * the conversation so far, as the recorded second turn has it. */
static void
test_no_session_start (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-text");
  g_autofree char *rest = NULL;
  g_autoptr(GString) stream = NULL;
  const char *start;
  const char *end;
  ClarifyRequest *request;

  fixture_start (fixture, "chat-selftest-text");
  g_assert_true (clarify_ihub_chat_send (fixture->chat, "Please help ask:text"));
  rest = clarify_test_ihub_serve_turn (fixture->server, "chat-selftest-text", "text.1", 1);
  start = strstr (rest, "event: session.start\n");
  g_assert_nonnull (start);
  end = strstr (start, "\n\n");
  g_assert_nonnull (end);
  stream = g_string_new_len (rest, start - rest);
  g_string_append (stream, end + 2);
  clarify_test_server_sse_send (fixture->server, path, stream->str, -1);
  wait_turn (fixture, 1);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_CLARIFICATION);
  g_assert_cmpuint (clarify_ihub_chat_get_n_messages (fixture->chat), ==, 2);
  request = fixture->requests->pdata[0];

  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "Direct Message", NULL }, NULL);
  replay_turn (fixture, "chat-selftest-text", "text.2", 2);
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_COMPLETE);
  g_assert_cmpuint (clarify_ihub_chat_get_n_messages (fixture->chat), ==, 4);
}

static void
test_select (Fixture       *fixture,
             gconstpointer  data)
{
  run_case (fixture, "chat-selftest-select", "select", "Please help ask:select",
            CLARIFY_QUESTION_KIND_SINGLE, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "fr", NULL },
            "You answered: fr");
}

static void
test_multiselect (Fixture       *fixture,
                  gconstpointer  data)
{
  run_case (fixture, "chat-selftest-multiselect", "multiselect", "Please help ask:multiselect",
            CLARIFY_QUESTION_KIND_MULTI, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "pm", "admins", NULL },
            "You answered: pm,admins");
}

static void
test_multiselect_skip (Fixture       *fixture,
                       gconstpointer  data)
{
  run_case (fixture, "chat-selftest-multiselect_skip", "multiselect_skip", "Please help ask:multiselect",
            CLARIFY_QUESTION_KIND_MULTI, CLARIFY_OUTCOME_SKIPPED, NULL, "You answered: [Skipped]");
}

static void
test_number (Fixture       *fixture,
             gconstpointer  data)
{
  run_case (fixture, "chat-selftest-number", "number", "Please help ask:number",
            CLARIFY_QUESTION_KIND_NUMBER, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "42", NULL },
            "You answered: 42");
}

static void
test_date (Fixture       *fixture,
           gconstpointer  data)
{
  run_case (fixture, "chat-selftest-date", "date", "Please help ask:date",
            CLARIFY_QUESTION_KIND_DATE, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "2026-03-15", NULL },
            "You answered: 2026-03-15");
}

/* iHub sends the model's confirm as a single_select without options. */
static void
test_confirm (Fixture       *fixture,
              gconstpointer  data)
{
  run_case (fixture, "chat-selftest-confirm", "confirm", "Please help ask:confirm",
            CLARIFY_QUESTION_KIND_CONFIRM, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "yes", NULL },
            "You answered: yes");
}


/* Refused tool calls and the 11th question: the text still streams, the
 * turn ends with a code, and the chat takes the next message. */
static void
run_refused (Fixture        *fixture,
             const char     *name,
             ClarifyIhubEnd  expected,
             const char     *detail_start)
{
  g_autofree char *fixture_name = g_strconcat (CAPTURED, name, ".sse", NULL);
  g_autofree char *stream = clarify_test_load_fixture (fixture_name);
  g_autofree char *chat_id = clarify_test_ihub_recorded_chat_id (stream);
  g_autofree char *text = g_strconcat ("ask:", name, NULL);

  fixture_start (fixture, chat_id);
  g_assert_true (clarify_ihub_chat_send (fixture->chat, text));
  replay_turn (fixture, chat_id, name, 1);
  wait_turn (fixture, 1);
  g_assert_cmpint (fixture->end, ==, expected);
  g_assert_true (g_str_has_prefix (fixture->end_detail, detail_start));
  g_assert_cmpuint (fixture->n_errors, ==, 1);
  g_assert_cmpuint (fixture->requests->len, ==, 0);
  g_assert_true (g_str_has_prefix (fixture->text->str, "The ask_user tool returned: {"));
  g_assert_cmpint (clarify_ihub_chat_get_state (fixture->chat), ==, CLARIFY_IHUB_CHAT_IDLE);
  g_assert_cmpstr (clarify_ihub_chat_get_message (fixture->chat, 1, NULL), ==, fixture->text->str);
}

static void
test_refused (Fixture       *fixture,
              gconstpointer  data)
{
  const char *name = data;

  if (g_str_equal (name, "limit.11"))
    run_refused (fixture, name, CLARIFY_IHUB_END_LIMIT_REACHED, "Maximum clarification limit (10)");
  else
    run_refused (fixture, name, CLARIFY_IHUB_END_INVALID_QUESTION, "Invalid clarification request:");
}

/* Two ask_user calls in one turn: iHub asks the first only. */
static void
test_double (Fixture       *fixture,
             gconstpointer  data)
{
  ClarifyRequest *request;

  fixture_start (fixture, "chat-selftest-double");
  request = ask (fixture, "chat-selftest-double", "double", "ask:double");
  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==, "First question?");
}

static void
test_server_closes (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-closed");

  fixture_start (fixture, "chat-closed");
  clarify_test_server_add_sse (fixture->server, path);
  clarify_test_server_set_sse_greeting (fixture->server, path,
                                        "event: connected\ndata: {\"event\":\"connected\",\"chatId\":\"chat-closed\"}\n\n");
  clarify_test_server_add_json (fixture->server, "POST", path, 200, "application/json", "{}");
  g_assert_true (clarify_ihub_chat_send (fixture->chat, "hello"));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 1, WAIT_MS));
  clarify_test_server_sse_send (fixture->server, path,
                                "event: error\ndata: {\"event\":\"error\",\"chatId\":\"chat-closed\",\"message\":\"No API key\"}\n\n", -1);
  wait_turn (fixture, 1);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_SERVER_ERROR);
  g_assert_cmpstr (fixture->end_detail, ==, "No API key");

  /* Still usable: the next turn's stream is closed by the server. */
  g_assert_true (clarify_ihub_chat_send (fixture->chat, "again"));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 2, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, path, 1, WAIT_MS));
  clarify_test_server_sse_close (fixture->server, path);
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_STREAM_CLOSED);
  g_assert_cmpint (clarify_ihub_chat_get_state (fixture->chat), ==, CLARIFY_IHUB_CHAT_IDLE);
}

static void
test_silence (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-silent");

  clarify_connection_set_option (fixture->connection, "stall-limit", "0.3");
  fixture_start (fixture, "chat-silent");
  clarify_test_server_add_sse (fixture->server, path);
  g_assert_true (clarify_ihub_chat_send (fixture->chat, "hello"));
  wait_turn (fixture, 1);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_CONNECTION_LOST);
  g_assert_cmpuint (clarify_ihub_chat_get_n_messages (fixture->chat), ==, 0);
}

static void
test_login (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-login");
  g_autoptr(ClarifyTestRequest) login = NULL;
  g_autoptr(ClarifyTestRequest) get = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_assert_true (clarify_secret_store ("connection:corp", "test", "s3cret", &error));
  clarify_connection_set_option (fixture->connection, "username", "user");
  clarify_test_server_add_reply (fixture->server, "POST", "/api/auth/local/login", 200, "application/json",
                                 "{\"success\":true,\"user\":{\"id\":\"user\"},\"expiresIn\":28800}",
                                 (const char *[]) { "Set-Cookie: authToken=jwt-1; Path=/; HttpOnly", NULL });
  fixture_start (fixture, "chat-selftest-login");
  ask (fixture, "chat-selftest-login", "login", "ask:date");

  login = clarify_test_server_get_request (fixture->server, "POST", "/api/auth/local/login", 0);
  g_assert_cmpstr (login->body, ==, "{\"username\":\"user\",\"password\":\"s3cret\"}");
  get = clarify_test_server_get_request (fixture->server, "GET", path, 0);
  g_assert_cmpstr (clarify_test_request_get_header (get, "Cookie"), ==, "authToken=jwt-1");
  g_assert_null (clarify_test_request_get_header (get, "Authorization"));

  /* An expired session: one more login, then a code the UI can word. */
  clarify_test_server_set_sse_response (fixture->server, path, 401, "application/json");
  g_assert_true (clarify_ihub_chat_send (fixture->chat, "again"));
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_LOGIN_REQUIRED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/auth/local/login"), ==, 2);

  clarify_test_server_set_sse_response (fixture->server, path, 403, "application/json");
  g_assert_true (clarify_ihub_chat_send (fixture->chat, "again"));
  wait_turn (fixture, 3);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_ACCESS_DENIED);
}

static void
test_bad_password (Fixture       *fixture,
                   gconstpointer  data)
{
  g_auto(GStrv) logged = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_assert_true (clarify_secret_store ("connection:corp", "test", "wrong", &error));
  clarify_connection_set_option (fixture->connection, "username", "user");
  clarify_test_server_add_json (fixture->server, "POST", "/api/auth/local/login", 401, "application/json",
                                "{\"error\":\"Invalid credentials\"}");
  fixture_start (fixture, "chat-bad");
  clarify_test_log_start ();
  g_assert_true (clarify_ihub_chat_send (fixture->chat, "hello"));
  wait_turn (fixture, 1);
  logged = clarify_test_log_stop ();
  g_assert_true (g_strv_length (logged) == 1 && strstr (logged[0], "login failed") != NULL);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_LOGIN_FAILED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", NULL), ==, 0);
}

static void
test_bearer (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-date");
  g_autoptr(ClarifyTestRequest) get = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_assert_true (clarify_secret_store ("connection:corp", "test", "tok-1", &error));
  clarify_connection_set_option (fixture->connection, "auth", "token");
  fixture_start (fixture, "chat-selftest-date");
  ask (fixture, "chat-selftest-date", "date.1", "Please help ask:date");
  get = clarify_test_server_get_request (fixture->server, "GET", path, 0);
  g_assert_cmpstr (clarify_test_request_get_header (get, "Authorization"), ==, "Bearer tok-1");
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/auth/local/login"), ==, 0);
}

/* Kept on disk (0600, no secrets): a new run answers the old question. */
static void
test_kept (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *file = g_build_filename (g_get_user_data_dir (), "clarify", "ihub", "corp",
                                            "chat-selftest-select.json", NULL);
  g_autoptr(ClarifyRequest) request = NULL;
  GStatBuf st;

  fixture_start (fixture, "chat-selftest-select");
  ask (fixture, "chat-selftest-select", "select.1", "Please help ask:select");
  g_assert_cmpint (g_stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* A restart. */
  g_signal_handlers_disconnect_by_data (fixture->chat, fixture);
  clarify_backend_stop (fixture->backend);
  g_clear_object (&fixture->backend);
  g_ptr_array_set_size (fixture->requests, 0);
  fixture->n_ended = 0;

  fixture->backend = clarify_ihub_backend_new (fixture->connection);
  clarify_backend_start (fixture->backend);
  g_assert_true (clarify_test_loop_until ((gboolean (*) (gpointer)) clarify_inbox_get_n_pending,
                                          clarify_backend_get_inbox (fixture->backend), WAIT_MS));
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  fixture->chat = clarify_ihub_backend_lookup_chat (CLARIFY_IHUB_BACKEND (fixture->backend), "chat-selftest-select");
  g_assert_nonnull (fixture->chat);
  g_assert_cmpstr (clarify_ihub_chat_get_model_id (fixture->chat), ==, "fake-llm");
  g_signal_connect (fixture->chat, "turn-ended", G_CALLBACK (turn_ended_cb), fixture);
  g_signal_connect (fixture->chat, "text", G_CALLBACK (text_cb), fixture);
  request = g_object_ref (clarify_ihub_chat_get_clarification (fixture->chat));
  g_assert_nonnull (request);

  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "fr", NULL }, NULL);
  replay_turn (fixture, "chat-selftest-select", "select.2", 2);
  wait_turn (fixture, 1);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_COMPLETE);
}

static gboolean
is_delivered (gpointer data)
{
  return clarify_request_get_state (data) == CLARIFY_REQUEST_DONE;
}

/* iHub restarts while its question is open: nothing of the chat lives on
 * the server (A1), so the answer, refused at the door while it is down,
 * waits and is sent once to the server that comes back. */
static void
test_restart (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-select");
  ClarifyRequest *request;
  guint port;

  fixture_start (fixture, "chat-selftest-select");
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (clarify_backend_get_inbox (fixture->backend)), 50, 200);
  request = ask (fixture, "chat-selftest-select", "select.1", "Please help ask:select");

  port = clarify_test_server_get_port (fixture->server);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "fr", NULL }, NULL);
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_CONNECTION_LOST);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_SENDING);

  fixture->server = clarify_test_server_new_on_port (port);
  clarify_test_server_add_json (fixture->server, "GET", "/api/apps", 200, "application/json", IHUB_APPS);
  replay_turn (fixture, "chat-selftest-select", "select.2", 1);
  g_assert_true (clarify_test_loop_until (is_delivered, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  clarify_test_loop_for (200);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", path), ==, 1);
}

/* The server ends the answer's stream with `disconnected` before taking
 * the message (it is shutting down): the answer is sent again, once, and
 * never described as answered elsewhere. */
static void
test_disconnected (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-select");
  ClarifyRequest *request;

  fixture_start (fixture, "chat-selftest-select");
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (clarify_backend_get_inbox (fixture->backend)), 50, 200);
  request = ask (fixture, "chat-selftest-select", "select.1", "Please help ask:select");

  clarify_test_server_set_json (fixture->server, "POST", path, 200, "application/json", "{}");
  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "fr", NULL }, NULL);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 2, WAIT_MS));
  clarify_test_server_sse_send (fixture->server, path,
                                "event: disconnected\ndata: {\"event\":\"disconnected\",\"chatId\":\"chat-selftest-select\"}\n\n", -1);
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_CONNECTION_LOST);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_SENDING);

  replay_turn (fixture, "chat-selftest-select", "select.2", 3);
  g_assert_true (clarify_test_loop_until (is_delivered, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
}

/* The port refuses for OUTAGE_MS while the person answers, with the
 * outbox's real back-off: every try fails at the door, none ends the
 * question or asks it again, and the server that comes back gets the
 * answer once, within 2 s. Nothing watches an iHub server between turns,
 * so that is the outbox trying a refused port every 2 s, where its
 * doubling back-off (1 s, 2 s, 4 s … 32 s) would leave ever longer gaps. */
static void
test_outage (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-select");
  ClarifyRequest *request;
  guint port;

  fixture_start (fixture, "chat-selftest-select");
  request = ask (fixture, "chat-selftest-select", "select.1", "Please help ask:select");

  port = clarify_test_server_get_port (fixture->server);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "fr", NULL }, NULL);
  clarify_test_loop_for (OUTAGE_MS);
  g_test_message ("%u turns ended while the port refused", fixture->n_ended - 1);
  /* The question's turn and a refused try every 2 s or sooner (30 in the
   * minute; a few spare for a busy machine): the doubling back-off would
   * have made 6. */
  g_assert_cmpuint (fixture->n_ended, >=, 26);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_CONNECTION_LOST);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_SENDING);
  g_assert_cmpuint (fixture->requests->len, ==, 1);

  fixture->server = clarify_test_server_new_on_port (port);
  clarify_test_server_add_json (fixture->server, "GET", "/api/apps", 200, "application/json", IHUB_APPS);
  {
    g_autofree char *stream = clarify_test_load_fixture (CAPTURED "select.2.sse");
    g_autofree char *post = clarify_test_load_fixture (CAPTURED "select.2.sse.post");
    gsize greeting = clarify_test_ihub_greeting_length (stream);
    g_autofree char *connected = g_strndup (stream, greeting);

    clarify_test_server_add_sse (fixture->server, path);
    clarify_test_server_set_sse_greeting (fixture->server, path, connected);
    clarify_test_server_set_json (fixture->server, "POST", path, 200, "application/json", post);
    g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 1, BACK_WITHIN_MS));
    g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, path, 1, WAIT_MS));
    clarify_test_server_sse_send (fixture->server, path, stream + greeting, -1);
  }
  g_assert_true (clarify_test_loop_until (is_delivered, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  clarify_test_loop_for (300);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", path), ==, 1);
  g_assert_cmpuint (fixture->requests->len, ==, 1);
}

/* The server answers the answer's POST only after 31 s, and nothing else
 * meanwhile (its stream open, but silent): the answer is waited for, not
 * posted a second time, and the turn goes on once the server does. (The
 * fault tests' table has no iHub row: its questions come from a chat
 * Clarify drives.) */
static void
test_slow_answer (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-select");
  g_autofree char *stream = clarify_test_load_fixture (CAPTURED "select.2.sse");
  g_autofree char *post = clarify_test_load_fixture (CAPTURED "select.2.sse.post");
  gsize greeting = clarify_test_ihub_greeting_length (stream);
  ClarifyRequest *request;

  fixture_start (fixture, "chat-selftest-select");
  request = ask (fixture, "chat-selftest-select", "select.1", "Please help ask:select");

  /* The answer's stream opens, and says `connected` once the server hangs. */
  clarify_test_server_set_sse_greeting (fixture->server, path, NULL);
  clarify_test_server_set_json (fixture->server, "POST", path, 200, "application/json", post);
  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "fr", NULL }, NULL);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", path, 2, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, path, 1, WAIT_MS));
  clarify_test_server_stall_next (fixture->server, path, SLOW_MS);
  clarify_test_server_sse_send (fixture->server, path, stream, greeting);

  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 2, SLOW_MS + 4 * WAIT_MS));
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_SENDING);
  clarify_test_server_sse_send (fixture->server, path, stream + greeting, -1);
  g_assert_true (clarify_test_loop_until (is_delivered, request, WAIT_MS));
  wait_turn (fixture, 2);
  g_assert_cmpint (fixture->end, ==, CLARIFY_IHUB_END_COMPLETE);
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  clarify_test_loop_for (300);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", path), ==, 2);
  g_assert_cmpuint (fixture->requests->len, ==, 1);
}

typedef struct
{
  ClarifyInbox   *inbox;
  ClarifyBackend *backend;
  gboolean        done;
} Removal;

/* From a main loop source, as the window or D-Bus removes a connection. */
static gboolean
remove_backend_cb (gpointer data)
{
  Removal *removal = data;

  clarify_inbox_remove_backend (removal->inbox, removal->backend);
  removal->done = TRUE;

  return G_SOURCE_REMOVE;
}

static gboolean
is_removed (gpointer data)
{
  return ((Removal *) data)->done;
}

/* The connection is removed while the server has not taken the answer
 * yet: Clarify stopped, nobody answered elsewhere. The question is not
 * asked again on the connection that goes, and nothing more is sent. */
static void
test_removed_mid_answer (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *path = clarify_test_ihub_path ("chat-selftest-select");
  g_autoptr(ClarifyInbox) inbox = clarify_inbox_new ();
  Removal removal = { inbox, NULL, FALSE };
  guint n_failed = 0, n_added = 0;
  ClarifyRequest *request;

  fixture_start (fixture, "chat-selftest-select");
  clarify_inbox_add_backend (inbox, fixture->backend);
  request = ask (fixture, "chat-selftest-select", "select.1", "Please help ask:select");
  g_signal_connect_swapped (clarify_inbox_get_outbox (inbox), "failed", G_CALLBACK (clarify_test_count_emission), &n_failed);
  g_signal_connect_swapped (inbox, "request-added", G_CALLBACK (clarify_test_count_emission), &n_added);

  /* The answer's stream opens; the server says nothing yet. */
  clarify_test_server_set_sse_greeting (fixture->server, path, NULL);
  answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, (const char *[]) { "fr", NULL }, NULL);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", path, 2, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, path, 1, WAIT_MS));

  removal.backend = fixture->backend;
  g_idle_add (remove_backend_cb, &removal);
  g_assert_true (clarify_test_loop_until (is_removed, &removal, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_FAILED);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_REMOVED_BEFORE_DELIVERY);
  g_assert_cmpuint (n_failed, ==, 0);
  g_assert_cmpuint (n_added, ==, 0);

  clarify_test_loop_for (1500);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", path), ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", path), ==, 2);
}

/* App and conversation ids go into URLs as path segments: ones that would
 * change the path are refused before any request. */
static void
test_dot_ids (Fixture       *fixture,
              gconstpointer  data)
{
  ClarifyIhubBackend *backend;

  fixture->backend = clarify_ihub_backend_new (fixture->connection);
  backend = CLARIFY_IHUB_BACKEND (fixture->backend);

  g_assert_null (clarify_ihub_backend_open_chat (backend, "..", NULL));
  g_assert_null (clarify_ihub_backend_open_chat (backend, ".", "chat-1"));
  g_assert_null (clarify_ihub_backend_open_chat (backend, APP, ".."));
  g_assert_null (clarify_ihub_backend_open_chat (backend, APP, ""));
  g_assert_nonnull (clarify_ihub_backend_open_chat (backend, APP, "chat-1"));
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) g_test_add ("/ihub/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("text", test_text);
  ADD ("no-session-start", test_no_session_start);
  ADD ("select", test_select);
  ADD ("multiselect", test_multiselect);
  ADD ("multiselect-skip", test_multiselect_skip);
  ADD ("number", test_number);
  ADD ("date", test_date);
  ADD ("confirm", test_confirm);
  ADD ("double", test_double);
  ADD ("error-then-closed", test_server_closes);
  ADD ("silence", test_silence);
  ADD ("login", test_login);
  ADD ("bad-password", test_bad_password);
  ADD ("bearer", test_bearer);
  ADD ("kept", test_kept);
  ADD ("restart", test_restart);
  ADD ("disconnected", test_disconnected);
  ADD ("slow-answer", test_slow_answer);
  ADD ("removed-mid-answer", test_removed_mid_answer);
  ADD ("outage", test_outage);
  ADD ("dot-ids", test_dot_ids);
#undef ADD
  g_test_add ("/ihub/refused/bad25", Fixture, "bad25", fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/ihub/refused/badregex", Fixture, "badregex", fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/ihub/refused/badtype", Fixture, "badtype", fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/ihub/refused/noopts", Fixture, "noopts", fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/ihub/refused/limit", Fixture, "limit.11", fixture_set_up, test_refused, fixture_tear_down);

  return g_test_run ();
}
