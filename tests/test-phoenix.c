/* test-phoenix.c: the "phoenix" backend against a fake Phoenix IDE that
 * replays the bytes recorded from the real server, chunk framing and all
 * (tests/fixtures/protocols/phoenix-captured)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-error.h"
#include "clarify-inbox.h"
#include "clarify-phoenix-backend.h"
#include "clarify-secret.h"

#include "clarify-test-log.h"
#include "clarify-test-phoenix.h"

typedef struct
{
  ClarifyTestServer *server;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyTestWatch   watch;
  Recording         *recording;
  char              *stream_path;
} Fixture;

static void
serve_stream (Fixture  *fixture,
              gboolean  with_head,
              guint     from,
              guint     to)
{
  g_autoptr(GBytes) bytes = recording_cut (fixture->recording, with_head, from, to);

  if (with_head)
    clarify_test_server_add_raw (fixture->server, fixture->stream_path,
                                 g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  else
    clarify_test_server_raw_send (fixture->server, fixture->stream_path,
                                  g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

static void
set_listing (Fixture    *fixture,
             const char *listing)
{
  clarify_test_server_set_json (fixture->server, "GET", "/api/conversations", 200, "application/json", listing);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *name = data != NULL ? data : "sse_respond_path.raw";
  g_autofree char *url = NULL;

  fixture->server = clarify_test_server_new ();
  fixture->recording = recording_load (name);
  fixture->stream_path = g_strdup_printf ("/api/conversations/%s/stream",
                                          g_str_has_prefix (name, "with-password") ? CONV_PW : CONV);
  url = clarify_test_server_get_url (fixture->server, "/");
  fixture->connection = clarify_connection_new ("ide", "phoenix", url);
}

static void
fixture_start (Fixture *fixture)
{
  fixture->backend = clarify_phoenix_backend_new (fixture->connection);
  clarify_phoenix_backend_set_timing (CLARIFY_PHOENIX_BACKEND (fixture->backend), 50, 20, 100);
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
  g_clear_pointer (&fixture->recording, recording_free);
  g_clear_pointer (&fixture->stream_path, g_free);
}

static gboolean
watches_none (gpointer data)
{
  return clarify_phoenix_backend_get_n_watched (data) == 0;
}

static void
assert_question (ClarifyRequest *request,
                 const char     *id)
{
  ClarifyQuestion *question;

  g_assert_cmpstr (clarify_request_get_id (request), ==, id);
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "ide");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Add Date Parsing");
  g_assert_cmpstr (clarify_request_get_project (request), ==, "/tmp");
  g_assert_true (clarify_request_get_cancellable (request));
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);

  question = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Date lib");
  g_assert_cmpstr (clarify_question_get_text (question), ==, "Which date library should I use?");
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 2);
  clarify_test_assert_option (question, 0, "date-fns", "date-fns", "Modular, tree-shakeable");
  clarify_test_assert_option (question, 1, "luxon", "luxon", "Immutable DateTime objects");
  g_assert_cmpstr (clarify_option_get_preview (clarify_question_get_option (question, 1)), ==,
                   "import { DateTime } from 'luxon';\nDateTime.fromISO('2026-05-06');");

  question = clarify_request_get_question (request, 1);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Features");
  g_assert_cmpstr (clarify_question_get_text (question), ==, "Which features should the CLI support?");
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 3);
  clarify_test_assert_option (question, 0, "Export to CSV", "Export to CSV", NULL);
  clarify_test_assert_option (question, 1, "Dark mode", "Dark mode", "ANSI colour themes");
  g_assert_null (clarify_option_get_preview (clarify_question_get_option (question, 1)));
  clarify_test_assert_option (question, 2, "Reminders", "Reminders", NULL);
}

static ClarifyResponse *
the_answer (ClarifyRequest *request)
{
  ClarifyResponse *response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  const char *library[] = { "date-fns", NULL };
  const char *features[] = { "Export to CSV", "Reminders", NULL };

  clarify_response_add_answer (response, "q1", library, NULL, FALSE);
  /* The web client trims the Other text and puts it last. */
  clarify_response_add_answer (response, "q2", features, "  iCal import ", FALSE);

  return response;
}

static void
assert_respond (ClarifyTestRequest *post,
                const char         *conversation,
                const char         *authorization)
{
  g_autofree char *path = g_strdup_printf ("/api/conversations/%s/respond", conversation);

  g_assert_nonnull (post);
  g_assert_cmpstr (post->path, ==, path);
  g_assert_cmpstr (post->body, ==, ANSWER_BODY);
  g_assert_cmpstr (clarify_test_request_get_header (post, "Content-Type"), ==, "application/json");
  g_assert_cmpstr (clarify_test_request_get_header (post, "Authorization"), ==, authorization);
}

/* The whole recorded respond path on one stream: an idle init, the question
 * twice, our answer with the web client's body, the server's own echo, the
 * duplicate respond's error event, agent_done and ": ping"; then a repeat
 * respond gets the recorded 409 wrong_state. */
static void
test_respond_path (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  set_listing (fixture, LISTING (CONV, WORKING));
  serve_stream (fixture, TRUE, 0, 8);
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/respond", 200, "application/json", SUCCESS);
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/respond", 409, "application/json", WRONG_STATE);
  fixture_start (fixture);

  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  assert_question (request, CONV ":toolu_fake0001");
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  /* The state_change came twice: one dialog. */
  clarify_test_loop_for (100);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);

  response = the_answer (request);
  clarify_test_watch_answer (&fixture->watch, request, response);
  post = clarify_test_server_wait_for_request (fixture->server, "POST", "/api/conversations/" CONV "/respond", WAIT_MS);
  assert_respond (post, CONV, NULL);

  /* What follows the answer, down to agent_done and a ping: no withdrawal. */
  set_listing (fixture, LISTING (CONV, IDLE));
  serve_stream (fixture, FALSE, 9, 17);
  /* Idle after agent_done: the stream is let go, and the ended stream is
   * not reopened while the listing says idle. */
  g_assert_true (clarify_test_loop_until (watches_none, fixture->backend, WAIT_MS));
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);
  g_assert_false (clarify_request_is_withdrawn (request));
  clarify_test_server_raw_close (fixture->server, fixture->stream_path);
  clarify_test_loop_for (300);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", fixture->stream_path), ==, 1);

  /* A second respond for the same question: answered elsewhere. */
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
}

/* The recorded second round: Cancel is a POST /cancel with no body and no
 * Content-Type; a repeat is a no_op, i.e. the question is gone. */
static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(ClarifyResponse) cancel = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) second = NULL;
  ClarifyRequest *request;

  set_listing (fixture, LISTING (CONV, WORKING));
  /* The same stream's init, then the events of the second question. */
  second = recording_cut (fixture->recording, TRUE, 0, 0);
  {
    g_autoptr(GBytes) rest = recording_cut (fixture->recording, FALSE, 18, 25);
    GByteArray *all = g_byte_array_new ();

    g_byte_array_append (all, g_bytes_get_data (second, NULL), g_bytes_get_size (second));
    g_byte_array_append (all, g_bytes_get_data (rest, NULL), g_bytes_get_size (rest));
    g_clear_pointer (&second, g_bytes_unref);
    second = g_byte_array_free_to_bytes (all);
  }
  clarify_test_server_add_raw (fixture->server, fixture->stream_path,
                               g_bytes_get_data (second, NULL), g_bytes_get_size (second));
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/cancel", 200, "application/json", CANCEL_OK);
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/cancel", 200, "application/json", NO_OP);
  fixture_start (fixture);

  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  assert_question (request, CONV ":toolu_fake0002");

  cancel = clarify_response_new (CONV ":toolu_fake0002", CLARIFY_OUTCOME_CANCELLED);
  clarify_test_watch_answer (&fixture->watch, request, cancel);
  post = clarify_test_server_wait_for_request (fixture->server, "POST", "/api/conversations/" CONV "/cancel", WAIT_MS);
  g_assert_nonnull (post);
  g_assert_cmpstr (post->body, ==, "");
  g_assert_null (clarify_test_request_get_header (post, "Content-Type"));

  /* The decline's echo: "I declined to answer…", llm_requesting, agent_done. */
  set_listing (fixture, LISTING (CONV, IDLE));
  serve_stream (fixture, FALSE, 26, 32);
  g_assert_true (clarify_test_loop_until (watches_none, fixture->backend, WAIT_MS));
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);

  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, cancel, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/cancel"), ==, 2);
}

/* Connecting while a question is pending: the init snapshot shows it; the
 * stream drops and comes back with the same init: still one request, and
 * one answer. */
static void
test_init_and_reconnect (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  ClarifyRequest *request;

  set_listing (fixture, LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  serve_stream (fixture, TRUE, 0, 0);
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/respond", 200, "application/json", SUCCESS);
  fixture_start (fixture);

  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  assert_question (request, CONV ":toolu_fake0001");

  clarify_test_server_raw_close (fixture->server, fixture->stream_path);
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", fixture->stream_path, 2, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, fixture->stream_path, 1, WAIT_MS));
  clarify_test_loop_for (200);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);

  response = the_answer (request);
  clarify_test_watch_answer (&fixture->watch, request, response);
  post = clarify_test_server_wait_for_request (fixture->server, "POST", "/api/conversations/" CONV "/respond", WAIT_MS);
  assert_respond (post, CONV, NULL);

  /* The rest of the recording: the answer's echo, a ping. */
  serve_stream (fixture, FALSE, 1, 9);
  clarify_test_loop_for (200);
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/respond"), ==, 1);
}

/* A long conversation: its init holds every message, here 3 MB of them.
 * The question in it is shown (the 1 MiB cap of one event once dropped the
 * init, and the dialog never came). */
static void
test_long_init (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GString) frame = g_string_new (NULL);
  g_autofree char *text = g_strnfill (5000, 'x');
  ClarifyRequest *request;

  g_string_append (frame, "event: init\ndata: {\"type\":\"init\",\"sequence_id\":600,\"conversation\":{\"id\":\"" CONV "\","
                   "\"slug\":\"add-date-parsing\",\"title\":\"Add Date Parsing\",\"cwd\":\"/tmp\","
                   "\"state\":{\"type\":\"awaiting_user_response\",\"questions\":[{\"question\":\"Which date library should I use?\","
                   "\"header\":\"Date lib\",\"options\":[{\"label\":\"date-fns\"},{\"label\":\"luxon\"}],\"multiSelect\":false}],"
                   "\"tool_use_id\":\"toolu_long\"}},\"messages\":[");
  for (guint i = 1; i <= 600; i++)
    g_string_append_printf (frame, "%s{\"sequence_id\":%u,\"message_type\":\"user\",\"content\":{\"text\":\"%s\"}}",
                            i > 1 ? "," : "", i, text);
  g_string_append (frame, "],\"agent_working\":false,\"display_state\":\"awaiting_approval\",\"last_sequence_id\":600}\n\n");
  g_assert_cmpuint (frame->len, >, 3000000);

  set_listing (fixture, LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  clarify_test_server_add_sse (fixture->server, fixture->stream_path);
  fixture_start (fixture);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, fixture->stream_path, 1, WAIT_MS));
  clarify_test_server_sse_send (fixture->server, fixture->stream_path, frame->str, frame->len);

  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_request_get_id (request), ==, CONV ":toolu_long");
  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==,
                   "Which date library should I use?");
}

/* Answered in the web UI: the conversation moves on by itself and the
 * dialog is withdrawn. */
static void
test_answered_elsewhere (Fixture       *fixture,
                         gconstpointer  data)
{
  ClarifyRequest *request;

  set_listing (fixture, LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  serve_stream (fixture, TRUE, 0, 0);
  fixture_start (fixture);

  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  serve_stream (fixture, FALSE, 1, 3);
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/respond"), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/cancel"), ==, 0);
}

/* New conversations come from the listing, polled only while running; one
 * that leaves the listing (archived, deleted) takes its question along. */
static void
test_listing (Fixture       *fixture,
              gconstpointer  data)
{
  ClarifyPhoenixBackend *phoenix;
  ClarifyRequest *request;
  guint n_listed;

  set_listing (fixture, "{\"conversations\":[]}");
  serve_stream (fixture, TRUE, 0, 0);
  fixture_start (fixture);
  phoenix = CLARIFY_PHOENIX_BACKEND (fixture->backend);

  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/api/conversations", 2, WAIT_MS));
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_cmpuint (clarify_phoenix_backend_get_n_watched (phoenix), ==, 0);

  set_listing (fixture, LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpuint (clarify_phoenix_backend_get_n_watched (phoenix), ==, 1);

  set_listing (fixture, "{\"conversations\":[]}");
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_true (clarify_test_loop_until (watches_none, phoenix, WAIT_MS));

  /* Stopped: no timer, no more listings. */
  clarify_backend_stop (fixture->backend);
  n_listed = clarify_test_server_get_n_requests (fixture->server, "GET", "/api/conversations");
  clarify_test_loop_for (300);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/conversations"), ==, n_listed);
}

/* Two conversations whose models both named their tool use
 * "toolu_fake0001" (a fake or local model numbers them per conversation):
 * two questions, each answered to its own conversation. They were one
 * request to the inbox, and the second was never shown. */
static void
test_same_tool_use_id (Fixture       *fixture,
                       gconstpointer  data)
{
#define CONV_2 "0b9a7c1e-2f3d-4e5a-8b6c-7d8e9f0a1b2c"
  const char *one_listing = LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval");
  g_autofree char *one = g_strndup (strchr (one_listing, '[') + 1, strrchr (one_listing, ']') - strchr (one_listing, '[') - 1);
  g_auto(GStrv) parts = g_strsplit (one, CONV, -1);
  g_autofree char *two = g_strjoinv (CONV_2, parts);
  g_autofree char *listing = g_strdup_printf ("{\"conversations\":[%s,%s]}", one, two);
  g_autoptr(GBytes) bytes = recording_cut (fixture->recording, TRUE, 0, 0);
  g_autoptr(ClarifyResponse) first_answer = NULL;
  g_autoptr(ClarifyResponse) second_answer = NULL;
  ClarifyRequest *first, *second;

  set_listing (fixture, listing);
  serve_stream (fixture, TRUE, 0, 0);
  clarify_test_server_add_raw (fixture->server, "/api/conversations/" CONV_2 "/stream",
                               g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/respond", 200, "application/json", SUCCESS);
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV_2 "/respond", 200, "application/json", SUCCESS);
  fixture_start (fixture);

  first = clarify_test_watch_wait_request (&fixture->watch, 1);
  second = clarify_test_watch_wait_request (&fixture->watch, 2);
  g_assert_cmpstr (clarify_request_get_id (first), !=, clarify_request_get_id (second));
  g_assert_true (g_str_has_suffix (clarify_request_get_id (first), ":toolu_fake0001"));
  g_assert_true (g_str_has_suffix (clarify_request_get_id (second), ":toolu_fake0001"));

  first_answer = the_answer (first);
  clarify_test_watch_answer (&fixture->watch, first, first_answer);
  second_answer = the_answer (second);
  clarify_test_watch_answer (&fixture->watch, second, second_answer);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/respond"), ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV_2 "/respond"), ==, 1);
#undef CONV_2
}

/* The listing's record of conversation @id: asking, or busy working. */
static char *
listed_record (const char *id,
               gboolean    asks)
{
  const char *listing = asks ? LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval")
                             : LISTING (CONV, WORKING);
  g_autofree char *record = g_strndup (strchr (listing, '[') + 1, strrchr (listing, ']') - strchr (listing, '[') - 1);
  g_auto(GStrv) parts = g_strsplit (record, CONV, -1);

  return g_strjoinv (id, parts);
}

/* Past the most streams at once, a conversation that asks still gets one:
 * in place of one that is only busy. It waited behind 64 busy ones, its
 * question never shown. */
static void
test_asking_first (Fixture       *fixture,
                   gconstpointer  data)
{
#define BUSY_1 "0b9a7c1e-0000-4e5a-8b6c-000000000001"
#define BUSY_2 "0b9a7c1e-0000-4e5a-8b6c-000000000002"
  g_autofree char *busy_1 = listed_record (BUSY_1, FALSE);
  g_autofree char *busy_2 = listed_record (BUSY_2, FALSE);
  g_autofree char *asks = listed_record (CONV, TRUE);
  g_autofree char *two_busy = g_strdup_printf ("{\"conversations\":[%s,%s]}", busy_1, busy_2);
  g_autofree char *and_one_asks = g_strdup_printf ("{\"conversations\":[%s,%s,%s]}", busy_1, busy_2, asks);
  ClarifyPhoenixBackend *phoenix;
  ClarifyRequest *request;

  clarify_test_server_add_sse (fixture->server, "/api/conversations/" BUSY_1 "/stream");
  clarify_test_server_add_sse (fixture->server, "/api/conversations/" BUSY_2 "/stream");
  serve_stream (fixture, TRUE, 0, 0);
  set_listing (fixture, two_busy);
  fixture_start (fixture);
  phoenix = CLARIFY_PHOENIX_BACKEND (fixture->backend);
  clarify_phoenix_backend_set_max_streams (phoenix, 2);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, "/api/conversations/" BUSY_2 "/stream", 1, WAIT_MS));
  g_assert_cmpuint (clarify_phoenix_backend_get_n_watched (phoenix), ==, 2);

  set_listing (fixture, and_one_asks);
  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_request_get_id (request), ==, CONV ":toolu_fake0001");
  g_assert_cmpuint (clarify_phoenix_backend_get_n_watched (phoenix), ==, 2);
#undef BUSY_1
#undef BUSY_2
}

/* A conversation id becomes a path segment of its stream: one that cannot
 * stay one is not watched, and nothing is fetched for it. */
static void
test_listing_dot_id (Fixture       *fixture,
                     gconstpointer  data)
{
  set_listing (fixture, LISTING ("..", "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  serve_stream (fixture, TRUE, 0, 0);
  fixture_start (fixture);

  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/api/conversations", 2, WAIT_MS));
  g_assert_cmpuint (clarify_phoenix_backend_get_n_watched (CLARIFY_PHOENIX_BACKEND (fixture->backend)), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/stream"), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", "/api/conversations/stream"), ==, 0);
  g_assert_cmpint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
}

static gboolean
is_failed (gpointer data)
{
  return clarify_backend_get_state (data) == CLARIFY_CONNECTION_STATE_FAILED;
}

/* Without the password: the recorded 401, a failed state, no stream. */
static void
test_auth_required (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(ClarifyTestRequest) listing = NULL;

  clarify_test_server_set_json (fixture->server, "GET", "/api/conversations", 401, "application/json", AUTH_REQUIRED);
  fixture_start (fixture);

  g_assert_true (clarify_test_loop_until (is_failed, fixture->backend, WAIT_MS));
  g_assert_cmpint (clarify_backend_get_note (fixture->backend), ==, CLARIFY_BACKEND_NOTE_NONE);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "GET", fixture->stream_path), ==, 0);
  /* Retried slowly, in case the password is set meanwhile. */
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/api/conversations", 2, WAIT_MS));
  listing = clarify_test_server_get_request (fixture->server, "GET", "/api/conversations", 0);
  g_assert_null (clarify_test_request_get_header (listing, "Authorization"));
}

static void
bearer_listing (const ClarifyTestRequest *request,
                guint                    *status,
                char                    **content_type,
                char                    **body,
                gpointer                  user_data)
{
  gboolean ok = g_strcmp0 (clarify_test_request_get_header (request, "Authorization"), "Bearer s3cret") == 0;

  *status = ok ? 200 : 401;
  *content_type = g_strdup ("application/json");
  *body = g_strdup (ok ? LISTING (CONV_PW, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval") : AUTH_REQUIRED);
}

/* With the password in the keyring: Bearer on the listing, the stream and
 * the answer (the with-password recording). */
static void
test_bearer (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(ClarifyTestRequest) stream = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  g_assert_true (clarify_secret_store ("connection:ide", "test", "s3cret", &error));
  g_assert_no_error (error);
  clarify_test_server_add_handler (fixture->server, "GET", "/api/conversations", bearer_listing, NULL);
  serve_stream (fixture, TRUE, 0, 0);
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV_PW "/respond", 200, "application/json", SUCCESS);
  fixture_start (fixture);

  request = clarify_test_watch_wait_request (&fixture->watch, 1);
  g_assert_cmpstr (clarify_request_get_id (request), ==, CONV_PW ":toolu_fake0001");
  response = the_answer (request);
  clarify_test_watch_answer (&fixture->watch, request, response);

  stream = clarify_test_server_get_request (fixture->server, "GET", fixture->stream_path, 0);
  g_assert_cmpstr (clarify_test_request_get_header (stream, "Authorization"), ==, "Bearer s3cret");
  post = clarify_test_server_wait_for_request (fixture->server, "POST", "/api/conversations/" CONV_PW "/respond", WAIT_MS);
  assert_respond (post, CONV_PW, "Bearer s3cret");
  g_assert_false (clarify_test_log_seen ("*s3cret*"));
  g_assert_true (clarify_secret_clear ("connection:ide", NULL));
}

/* Phoenix asks (the recorded init of a pending question); the request. */
static ClarifyRequest *
start_asking (Fixture *fixture)
{
  set_listing (fixture, LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  serve_stream (fixture, TRUE, 0, 0);
  fixture_start (fixture);
  return clarify_test_watch_wait_request (&fixture->watch, 1);
}

static gboolean
is_down (gpointer data)
{
  return clarify_backend_get_state (data) == CLARIFY_CONNECTION_STATE_RECONNECTING;
}

/* Phoenix stops while a question is open: the port refuses until a new
 * server answers on it. */
static void
restart_server (Fixture    *fixture,
                const char *listing)
{
  guint port = clarify_test_server_get_port (fixture->server);

  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (is_down, fixture->backend, WAIT_MS));
  fixture->server = clarify_test_server_new_on_port (port);
  set_listing (fixture, listing);
}

/* The server comes back, and its snapshot of the conversation no longer
 * asks (its state was lost): the question is withdrawn as gone with the
 * restart, never "answered elsewhere", and a late answer, refused with the
 * recorded 409 wrong_state, is told the same. */
static void
test_restart_lost (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(Recording) idle = recording_load ("sse_respond_path.raw");
  g_autoptr(GBytes) init = recording_cut (idle, TRUE, 0, 0);
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  request = start_asking (fixture);

  restart_server (fixture, LISTING (CONV, WORKING));
  clarify_test_server_add_raw (fixture->server, fixture->stream_path,
                               g_bytes_get_data (init, NULL), g_bytes_get_size (init));
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/respond", 409,
                                "application/json", WRONG_STATE);
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);

  response = the_answer (request);
  g_assert_false (clarify_test_watch_respond (&fixture->watch, request, response, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED);
}

/* The server comes back without the conversation at all (its stream 404,
 * the listing empty): withdrawn with the restart too. */
static void
test_restart_forgotten (Fixture       *fixture,
                        gconstpointer  data)
{
  ClarifyRequest *request;

  request = start_asking (fixture);

  restart_server (fixture, "{\"conversations\":[]}");
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_AGENT_RESTARTED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/respond"), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/cancel"), ==, 0);
}

/* Phoenix keeps a pending question across a restart (B3, P3): the same
 * snapshot comes back, the dialog stays, and the answer is posted once. */
static void
test_restart_kept (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  ClarifyRequest *request;

  request = start_asking (fixture);

  restart_server (fixture, LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  serve_stream (fixture, TRUE, 0, 0);
  clarify_test_server_add_json (fixture->server, "POST", "/api/conversations/" CONV "/respond", 200,
                                "application/json", SUCCESS);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, fixture->stream_path, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "GET", "/api/conversations", 2, WAIT_MS));
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);

  response = the_answer (request);
  clarify_test_watch_answer (&fixture->watch, request, response);
  post = clarify_test_server_wait_for_request (fixture->server, "POST", "/api/conversations/" CONV "/respond", WAIT_MS);
  assert_respond (post, CONV, NULL);
  g_assert_cmpuint (clarify_test_server_get_n_requests (fixture->server, "POST", "/api/conversations/" CONV "/respond"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_unsetenv ("PHOENIX_PASSWORD");

#define ADD(name, func, data) \
  g_test_add ("/phoenix/" name, Fixture, data, fixture_set_up, func, fixture_tear_down)

  ADD ("respond-path", test_respond_path, NULL);
  ADD ("cancel", test_cancel, NULL);
  ADD ("init-and-reconnect", test_init_and_reconnect, "sse_init_while_pending.raw");
  ADD ("long-init", test_long_init, NULL);
  ADD ("answered-elsewhere", test_answered_elsewhere, "sse_init_while_pending.raw");
  ADD ("listing", test_listing, "sse_init_while_pending.raw");
  ADD ("listing-dot-id", test_listing_dot_id, "sse_init_while_pending.raw");
  ADD ("same-tool-use-id", test_same_tool_use_id, "sse_init_while_pending.raw");
  ADD ("asking-first", test_asking_first, "sse_init_while_pending.raw");
  ADD ("restart/lost", test_restart_lost, "sse_init_while_pending.raw");
  ADD ("restart/forgotten", test_restart_forgotten, "sse_init_while_pending.raw");
  ADD ("restart/kept", test_restart_kept, "sse_init_while_pending.raw");
  ADD ("auth/required", test_auth_required, NULL);
  ADD ("auth/bearer", test_bearer, "with-password/sse_init_while_pending.raw");

  return g_test_run ();
}
