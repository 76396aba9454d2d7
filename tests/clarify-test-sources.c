/* clarify-test-sources.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-backend-registry.h"
#include "clarify-json.h"
#include "clarify-phoenix-backend.h"
#include "clarify-secret.h"

#include "clarify-test-phoenix.h"
#include "clarify-test-sources.h"

#define OPENCODE_DIR   "/home/dev/project"
#define OPENCODE_Q     "que_2002871fe001Lqadf0jbNBl4s6"
#define NOMAD_INSTANCE "/workspaces/mkkd2vy8/worktrees/root/instance"
#define NOMAD_Q        "que_01JH00000000000000000000Q1"
#define AG3NTUM_SID    "20260103_210631_ecc41d66"
#define AG3NTUM        "/api/v1/sessions/" AG3NTUM_SID
#define AG3NTUM_Q      "3f2b8c1e-9d4a-4b6f-8e21-7a5c0d9e4f13"
/* OpenCode's reply to an answer for a question it no longer has. */
#define QUESTION_GONE(id) \
  "{\"_tag\":\"QuestionNotFoundError\",\"requestID\":\"" id "\",\"message\":\"Question request not found: " id "\"}"

/* The properties of the question.asked event in @json, as a listing. */
static char *
listing_of (const char *json,
            const char *event_member)
{
  g_autoptr(JsonNode) node = clarify_json_parse (json, -1, NULL);
  JsonObject *event = json_node_get_object (node);
  g_autoptr(JsonNode) array = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonArray) items = json_array_new ();

  if (event_member != NULL)
    event = clarify_json_get_object_member (event, event_member);
  json_array_add_object_element (items, json_object_ref (clarify_json_get_object_member (event, "properties")));
  json_node_set_array (array, items);
  return clarify_json_to_string (array);
}

static void
add_answer (ClarifyResponse *response,
            ClarifyRequest  *request,
            guint            n,
            const char      *first,
            const char      *second,
            const char      *other)
{
  const char *values[] = { first, second, NULL };

  clarify_response_add_answer (response, clarify_question_get_id (clarify_request_get_question (request, n)),
                               first != NULL ? values : NULL, other, FALSE);
}

static ClarifyResponse *
new_answer (ClarifyRequest *request)
{
  return clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
}

/* OpenCode: the question pending in its listing (opencode-mcp-claude, A2). */
static void
serve_opencode (ClarifyTestServer *server)
{
  g_autofree char *event = clarify_test_load_fixture ("protocols/opencode-mcp-claude/a2-question-asked.json");
  g_autofree char *listing = listing_of (event, NULL);

  clarify_test_server_add_sse (server, "/global/event");
  clarify_test_server_add_sse (server, "/event");
  clarify_test_server_add_json (server, "GET", "/question", 200, "application/json", listing);
  clarify_test_server_add_json (server, "GET", "/permission", 200, "application/json", "[]");
  clarify_test_server_add_json (server, "GET", "/project", 200, "application/json", "[]");
  clarify_test_server_add_json (server, "GET", "/path", 200, "application/json",
                                "{\"home\":\"/home/dev\",\"state\":\"/s\",\"config\":\"/c\",\"worktree\":\"" OPENCODE_DIR
                                "\",\"directory\":\"" OPENCODE_DIR "\"}");
}

static void
forget_opencode (ClarifyTestServer *server)
{
  clarify_test_server_set_json (server, "GET", "/question", 200, "application/json", "[]");
}

static void
serve_opencode_taken (ClarifyTestServer *server)
{
  serve_opencode (server);
  forget_opencode (server);
}

static ClarifyResponse *
answer_opencode (ClarifyRequest *request)
{
  ClarifyResponse *response = new_answer (request);

  add_answer (response, request, 0, "PostgreSQL", NULL, NULL);
  add_answer (response, request, 1, "Docker", "CI", NULL);
  return response;
}

/* CodeNomad: the question pending in its workspace's listing (F-CN-1). */
static void
serve_codenomad (ClarifyTestServer *server)
{
  g_autofree char *frame = clarify_test_load_fixture ("protocols/ihub-and-codenomad/f-cn-1.sse");
  g_autofree char *listing = listing_of (frame + strlen ("data: "), "event");

  clarify_test_server_add_sse (server, "/api/events");
  clarify_test_server_add_json (server, "GET", "/api/workspaces", 200, "application/json",
                                "[{\"id\":\"mkkd2vy8\",\"path\":\"/home/dev/project\",\"status\":\"ready\"}]");
  clarify_test_server_add_json (server, "GET", NOMAD_INSTANCE "/question", 200, "application/json", listing);
  clarify_test_server_add_json (server, "GET", NOMAD_INSTANCE "/permission", 200, "application/json", "[]");
  clarify_test_server_add_json (server, "POST", "/api/client-connections/pong", 204, NULL, "");
}

static void
forget_codenomad (ClarifyTestServer *server)
{
  clarify_test_server_set_json (server, "GET", NOMAD_INSTANCE "/question", 200, "application/json", "[]");
}

static void
serve_codenomad_taken (ClarifyTestServer *server)
{
  serve_codenomad (server);
  forget_codenomad (server);
}

static ClarifyResponse *
answer_codenomad (ClarifyRequest *request)
{
  ClarifyResponse *response = new_answer (request);

  add_answer (response, request, 0, "Tailwind (Recommended)", NULL, NULL);
  add_answer (response, request, 1, "Loading state", "Accessibility", "Storybook story");
  return response;
}

/* Phoenix: a conversation awaiting the answer, its stream's init showing
 * the question (phoenix-captured, sse_init_while_pending.raw: its first chunk). */
static void
serve_phoenix (ClarifyTestServer *server)
{
  g_autoptr(Recording) recording = recording_load ("sse_init_while_pending.raw");
  g_autoptr(GBytes) init = recording_cut (recording, TRUE, 0, 0);

  clarify_test_server_add_json (server, "GET", "/api/conversations", 200, "application/json",
                                LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  clarify_test_server_add_raw (server, "/api/conversations/" CONV "/stream",
                               g_bytes_get_data (init, NULL), g_bytes_get_size (init));
}

/* The conversation went back to work with the answer. */
static void
forget_phoenix (ClarifyTestServer *server)
{
  clarify_test_server_set_json (server, "GET", "/api/conversations", 200, "application/json",
                                LISTING (CONV, WORKING));
}

/* The same, and no stream that shows the question. */
static void
serve_phoenix_taken (ClarifyTestServer *server)
{
  forget_phoenix (server);
}

static ClarifyResponse *
answer_phoenix (ClarifyRequest *request)
{
  ClarifyResponse *response = new_answer (request);

  add_answer (response, request, 0, "date-fns", NULL, NULL);
  add_answer (response, request, 1, "Export to CSV", "Reminders", "  iCal import ");
  return response;
}

/* Ag3ntum: a session waiting for input, its question pending (A4). */
static void
serve_ag3ntum (ClarifyTestServer *server)
{
  g_autofree char *login = clarify_test_load_fixture ("protocols/ag3ntum-and-phoenix/a1-login-reply.json");
  g_autofree char *session = clarify_test_load_fixture ("protocols/ag3ntum-and-phoenix/a4-session.json");
  g_autofree char *sessions = g_strdup_printf ("{\"sessions\": [%s], \"total\": 1}", g_strchomp (session));
  g_autofree char *pending = clarify_test_load_fixture ("protocols/ag3ntum-and-phoenix/a4-pending-question.json");
  g_autofree char *task = clarify_test_load_fixture ("protocols/ag3ntum-and-phoenix/a4-task-reply.json");

  clarify_test_server_add_json (server, "POST", "/api/v1/auth/login", 200, "application/json", login);
  clarify_test_server_add_sse (server, "/api/v1/auth/me/events");
  clarify_test_server_add_sse (server, AG3NTUM "/events");
  clarify_test_server_add_json (server, "GET", "/api/v1/sessions", 200, "application/json", sessions);
  clarify_test_server_add_json (server, "GET", AG3NTUM "/events/history", 200, "application/json", "[]");
  clarify_test_server_add_json (server, "GET", AG3NTUM "/pending-question", 200, "application/json", pending);
  clarify_test_server_add_json (server, "POST", AG3NTUM "/task", 200, "application/json", task);
}

static void
forget_ag3ntum (ClarifyTestServer *server)
{
  clarify_test_server_set_json (server, "GET", AG3NTUM "/pending-question", 200, "application/json",
                                "{\"has_pending_question\": false}");
}

static void
serve_ag3ntum_taken (ClarifyTestServer *server)
{
  serve_ag3ntum (server);
  forget_ag3ntum (server);
}

static ClarifyResponse *
answer_ag3ntum (ClarifyRequest *request)
{
  ClarifyResponse *response = new_answer (request);

  add_answer (response, request, 0, "Python", "Go", NULL);
  add_answer (response, request, 1, "Beginner", NULL, NULL);
  add_answer (response, request, 2, NULL, NULL, "  I mostly build CLIs \n");
  return response;
}

/* Clarify's own protocol: every new stream sends what is pending. */
static void
serve_clarify (ClarifyTestServer *server)
{
  clarify_test_server_add_sse (server, "/agent/events");
  clarify_test_server_set_sse_greeting (server, "/agent/events", "event: request\ndata: " CLARIFY_TEST_SOURCES_CLARIFY_REQUEST "\n\n");
}

static void
forget_clarify (ClarifyTestServer *server)
{
  clarify_test_server_set_sse_greeting (server, "/agent/events", NULL);
}

static void
serve_clarify_taken (ClarifyTestServer *server)
{
  clarify_test_server_add_sse (server, "/agent/events");
}

static ClarifyResponse *
answer_clarify (ClarifyRequest *request)
{
  ClarifyResponse *response = new_answer (request);

  add_answer (response, request, 0, "main", NULL, NULL);
  return response;
}

const ClarifyTestSource clarify_test_sources[] = {
  { "clarify", "/agent/events", NULL, "r1", "/agent/requests/r1/response", NULL,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"q1\",\"values\":[\"main\"]}]}",
    "{\"received\":\"main\"}", "/agent/events", serve_clarify, serve_clarify_taken, forget_clarify,
    404, "{\"error\":\"no such request\"}", answer_clarify },
  { "opencode", "/", NULL, OPENCODE_Q, "/question/" OPENCODE_Q "/reply", "directory=%2Fhome%2Fdev%2Fproject",
    "{\"answers\":[[\"PostgreSQL\"],[\"Docker\",\"CI\"]]}", "true", "/global/event", serve_opencode, serve_opencode_taken, forget_opencode,
    404, QUESTION_GONE (OPENCODE_Q), answer_opencode },
  { "codenomad", "", NULL, NOMAD_Q, NOMAD_INSTANCE "/question/" NOMAD_Q "/reply", NULL,
    "{\"answers\":[[\"Tailwind (Recommended)\"],[\"Loading state\",\"Accessibility\",\"Storybook story\"]]}",
    "true", "/api/events", serve_codenomad, serve_codenomad_taken, forget_codenomad, 404, QUESTION_GONE (NOMAD_Q), answer_codenomad },
  { "phoenix", "/", NULL, CONV ":toolu_fake0001", "/api/conversations/" CONV "/respond", NULL, ANSWER_BODY, SUCCESS,
    "/api/conversations/" CONV "/stream", serve_phoenix, serve_phoenix_taken, forget_phoenix, 409, WRONG_STATE, answer_phoenix },
  { "ag3ntum", "", "s3cret", AG3NTUM_Q, AG3NTUM "/answer", NULL,
    "{\"question_id\":\"latest\",\"answer\":\"Python, Go\\nBeginner\\n\\nAdditional Comments: I mostly build CLIs\"}",
    "{\"success\": true, \"message\": \"Answer submitted successfully. You can now resume the session.\", \"can_resume\": true}",
    "/api/v1/auth/me/events", serve_ag3ntum, serve_ag3ntum_taken, forget_ag3ntum,
    404, "{\"detail\":\"No pending question found with ID: latest\"}", answer_ag3ntum },
};

const guint clarify_test_n_sources = G_N_ELEMENTS (clarify_test_sources);

const ClarifyTestSource *
clarify_test_source_find (const char *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (clarify_test_sources); i++)
    if (g_strcmp0 (clarify_test_sources[i].kind, kind) == 0)
      return &clarify_test_sources[i];

  g_assert_not_reached ();
}

ClarifyInbox *
clarify_test_source_inbox_new (const ClarifyTestSource  *source,
                               const char               *name,
                               const char               *dir,
                               const char               *server_url,
                               gboolean                  fast,
                               ClarifyBackend          **backend)
{
  g_autofree char *url = g_strconcat (server_url, source->path, NULL);
  g_autoptr(ClarifyConnection) connection = clarify_connection_new (name, source->kind, url);
  g_autoptr(GError) error = NULL;
  ClarifyInbox *inbox = clarify_inbox_new ();

  /* Ag3ntum's login; the others have no such option. */
  clarify_connection_set_option (connection, "email", "admin@example.com");
  *backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  if (fast && CLARIFY_IS_PHOENIX_BACKEND (*backend))
    clarify_phoenix_backend_set_timing (CLARIFY_PHOENIX_BACKEND (*backend), 50, 20, 100);
  if (dir != NULL)
    {
      g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);

      clarify_outbox_set_store (clarify_inbox_get_outbox (inbox), store);
    }
  if (fast)
    clarify_outbox_set_backoff (clarify_inbox_get_outbox (inbox), 50, 200);

  return inbox;
}

static char *
secret_key (const char *name)
{
  return g_strconcat ("connection:", name, NULL);
}

void
clarify_test_source_store_password (const ClarifyTestSource *source,
                                    const char              *name)
{
  g_autofree char *key = secret_key (name);
  g_autoptr(GError) error = NULL;

  if (source->password != NULL)
    g_assert_true (clarify_secret_store (key, "test", source->password, &error));
  g_assert_no_error (error);
}

void
clarify_test_source_clear_password (const ClarifyTestSource *source,
                                    const char              *name)
{
  g_autofree char *key = secret_key (name);

  if (source->password != NULL)
    g_assert_true (clarify_secret_clear (key, NULL));
}

static void
shown_withdrawn (ClarifyRequest   *request,
                 ClarifyEndReason  reason,
                 const char       *detail,
                 ClarifyTestShown *shown)
{
  shown->withdrawn++;
}

static void
shown_added (ClarifyInbox     *inbox,
             ClarifyRequest   *request,
             ClarifyTestShown *shown)
{
  g_ptr_array_add (shown->added, g_object_ref (request));
  g_signal_connect (request, "withdrawn", G_CALLBACK (shown_withdrawn), shown);
}

void
clarify_test_shown_watch (ClarifyTestShown *shown,
                          ClarifyInbox     *inbox)
{
  shown->added = g_ptr_array_new_with_free_func (g_object_unref);
  shown->withdrawn = 0;
  g_signal_connect (inbox, "request-added", G_CALLBACK (shown_added), shown);
}

void
clarify_test_shown_clear (ClarifyTestShown *shown)
{
  for (guint i = 0; shown->added != NULL && i < shown->added->len; i++)
    g_signal_handlers_disconnect_by_data (shown->added->pdata[i], shown);
  g_clear_pointer (&shown->added, g_ptr_array_unref);
}

void
clarify_test_sources_env_init (void)
{
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_unsetenv ("PHOENIX_PASSWORD");
  g_unsetenv ("OPENCODE_SERVER_PASSWORD");
}

void
clarify_test_sources_add (const char   *prefix,
                          GTestDataFunc func)
{
  for (guint i = 0; i < G_N_ELEMENTS (clarify_test_sources); i++)
    {
      g_autofree char *name = g_strconcat (prefix, clarify_test_sources[i].kind, NULL);

      g_test_add_data_func (name, &clarify_test_sources[i], func);
    }
}
