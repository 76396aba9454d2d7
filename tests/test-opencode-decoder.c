/* test-opencode-decoder.c: OpenCode's requests and events decoded, and the
 * replies encoded, straight from the recorded frames in tests/fixtures: no server,
 * no backend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-opencode-decoder.h"
#include "clarify-opencode-encoder.h"

#include "clarify-test-log.h"
#include "clarify-test-opencode.h"

#define OPENCODE_NOTES "protocols/opencode-mcp-claude/"
#define CODENOMAD_NOTES "protocols/ihub-and-codenomad/"
#define DIR "/home/dev/project"
#define QUESTION_ID "que_2002871fe001Lqadf0jbNBl4s6"
#define PERMISSION_ID "per_2002877d9001iW7A5dIz75kfpK"
#define WORKSPACE "mkkd2vy8"
#define INSTANCE "/workspaces/" WORKSPACE "/worktrees/root/instance"
#define NOMAD_QUESTION_ID "que_01JH00000000000000000000Q1"

/* A frame's JSON object; keep the node, the event borrows from it. */
static JsonNode *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = clarify_json_parse (json, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return node;
}

static JsonNode *
opencode_block (const char *fixture)
{
  g_autofree char *block = clarify_test_fixture_block (fixture);

  return parse_object (block);
}

/* A3's "Events:" block: 0 question.replied, 1 question.rejected. */
static JsonNode *
replied_event (guint n)
{
  g_autofree char *block = clarify_test_fixture_block (OPENCODE_NOTES "a3-events.jsonl");
  g_autofree char *line = clarify_test_line (block, n);

  return parse_object (line);
}

/* The JSON of a "data: {…}" line of a CodeNomad block. */
static JsonNode *
codenomad_data (const char *fixture,
                guint       n)
{
  g_autofree char *block = clarify_test_fixture_block (fixture);
  g_autofree char *line = clarify_test_line (block, n);

  g_assert_true (g_str_has_prefix (line, "data: "));
  return parse_object (line + strlen ("data: "));
}

static ClarifyOpencodeEvent
decode (JsonNode *node)
{
  ClarifyOpencodeEvent event;

  clarify_opencode_event_decode (json_node_get_object (node), &event);
  return event;
}

/* A decoded ASKED event, made into a request in @directory. */
static ClarifyRequest *
asked_request (JsonNode   *node,
               const char *directory,
               const char *workspace_id)
{
  ClarifyOpencodeEvent event = decode (node);
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_ASKED);
  request = clarify_opencode_request_decode (event.kind, event.properties, directory, workspace_id, &error);
  g_assert_no_error (error);
  g_assert_nonnull (request);
  g_assert_cmpstr (clarify_request_get_id (request), ==, event.request_id);
  return request;
}

static void
assert_reply (ClarifyRequest  *request,
              ClarifyResponse *response,
              const char      *expected_path,
              const char      *expected_body)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;

  g_assert_true (clarify_opencode_encode_reply (request, response, &path, &body, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, expected_path);
  g_assert_cmpstr (body, ==, expected_body);
}

/* A2: the question.asked event, verbatim. */
static void
test_question_asked (void)
{
  g_autoptr(JsonNode) node = opencode_block (OPENCODE_NOTES "a2-question-asked.json");
  ClarifyOpencodeEvent event = decode (node);
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyOpencodeRequestInfo *info;
  ClarifyQuestion *question;

  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_ASKED);
  g_assert_cmpstr (event.type, ==, "question.asked");
  g_assert_cmpint (event.kind, ==, CLARIFY_OPENCODE_REQUEST_QUESTION);
  g_assert_cmpstr (event.request_id, ==, QUESTION_ID);

  request = asked_request (node, DIR, NULL);
  g_assert_cmpstr (clarify_request_get_project (request), ==, DIR);
  g_assert_cmpstr (clarify_request_get_session (request), ==, "ses_dffd799eaffeGncNzFSIPjwM93");
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "question");
  g_assert_true (clarify_request_get_cancellable (request));
  g_assert_false (clarify_request_get_skippable (request));

  info = clarify_opencode_request_get_info (request);
  g_assert_nonnull (info);
  g_assert_cmpint (info->kind, ==, CLARIFY_OPENCODE_REQUEST_QUESTION);
  g_assert_cmpstr (info->id, ==, QUESTION_ID);
  g_assert_cmpstr (info->session_id, ==, "ses_dffd799eaffeGncNzFSIPjwM93");
  g_assert_cmpstr (info->directory, ==, DIR);
  g_assert_null (info->workspace_id);
  g_assert_false (info->answering);

  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);
  question = clarify_request_get_question (request, 0);
  g_assert_cmpstr (clarify_question_get_id (question), ==, "q1");
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "Which database should I use for the new service?");
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Database");
  /* "custom" is absent: the typed answer is allowed. */
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 2);
  clarify_test_assert_option (question, 0, "PostgreSQL", "PostgreSQL", "Relational, robust, default choice");
  clarify_test_assert_option (question, 1, "SQLite", "SQLite", "Embedded, zero-config");

  question = clarify_request_get_question (request, 1);
  g_assert_cmpstr (clarify_question_get_id (question), ==, "q2");
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_header (question), ==, "Extras");
  clarify_test_assert_option (question, 0, "Docker", "Docker", "Add a Dockerfile");
  clarify_test_assert_option (question, 1, "CI", "CI", "Add a CI workflow");
}

/* A5: permission.asked, verbatim. */
static void
test_permission_asked (void)
{
  g_autoptr(JsonNode) node = opencode_block (OPENCODE_NOTES "a5-permission-asked.json");
  ClarifyOpencodeEvent event = decode (node);
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *question;

  g_assert_cmpstr (event.type, ==, "permission.asked");
  g_assert_cmpint (event.kind, ==, CLARIFY_OPENCODE_REQUEST_PERMISSION);
  g_assert_cmpstr (event.request_id, ==, PERMISSION_ID);

  request = asked_request (node, DIR, NULL);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "permission");
  g_assert_cmpint (clarify_opencode_request_get_info (request)->kind, ==, CLARIFY_OPENCODE_REQUEST_PERMISSION);
  g_assert_cmpstr (clarify_request_get_session (request), ==, "ses_dffd78a34ffeVp29E8GMwyMs4j");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Allow “bash”?");
  /* The command is the subject; its metadata copy is not said again. */
  g_assert_null (clarify_request_get_context (request));

  /* One permission question: the patterns are its subject, and a refusal
   * may carry a message. */
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);
  question = clarify_request_get_question (request, 0);
  g_assert_cmpstr (clarify_question_get_id (question), ==, CLARIFY_OPENCODE_PERMISSION_REPLY);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_PERMISSION);
  g_assert_cmpstr (clarify_question_get_subject (question), ==, "echo hello-from-fake");
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 3);
  clarify_test_assert_option (question, 0, "Allow once", CLARIFY_PERMISSION_ONCE, "Only this time");
  clarify_test_assert_option (question, 1, "Always allow", CLARIFY_PERMISSION_ALWAYS, "Also allow “echo *” from now on");
  clarify_test_assert_option (question, 2, "Reject", CLARIFY_PERMISSION_REJECT, "The agent does not get to do this");
}

/* The permission.updated of older servers (A5's field list): no message. */
static void
test_permission_updated (void)
{
  g_autoptr(JsonNode) node = parse_object ("{\"id\":\"evt_1\",\"type\":\"permission.updated\",\"properties\":{\"id\":\"per_old1\",\"type\":\"edit\",\"pattern\":[\"src/*.c\"],\"sessionID\":\"ses_old\",\"messageID\":\"msg_1\",\"title\":\"Edit src/main.c\",\"metadata\":{\"filepath\":\"src/main.c\"},\"time\":{\"created\":1}}}");
  ClarifyOpencodeEvent event = decode (node);
  g_autoptr(ClarifyRequest) request = NULL;

  g_assert_cmpint (event.kind, ==, CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION);
  request = asked_request (node, NULL, NULL);
  g_assert_null (clarify_request_get_project (request));
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Allow “edit”?");
  g_assert_cmpstr (clarify_request_get_context (request), ==, "Edit src/main.c\nfilepath: src/main.c");
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 0)), ==, CLARIFY_QUESTION_KIND_PERMISSION);
  g_assert_cmpstr (clarify_question_get_subject (clarify_request_get_question (request, 0)), ==, "src/*.c");
  g_assert_false (clarify_question_get_allow_other (clarify_request_get_question (request, 0)));
}

/* A3's events and A5's permission.replied, old and new. */
static void
test_replied (void)
{
  g_autoptr(JsonNode) replied = replied_event (0);
  g_autoptr(JsonNode) rejected = replied_event (1);
  g_autoptr(JsonNode) permission = NULL;
  g_autoptr(JsonNode) legacy = parse_object ("{\"id\":\"evt_3\",\"type\":\"permission.replied\",\"properties\":{\"sessionID\":\"ses_old\",\"permissionID\":\"per_old2\",\"response\":\"once\"}}");
  g_autoptr(JsonNode) anonymous = parse_object ("{\"type\":\"question.replied\",\"properties\":{\"sessionID\":\"ses_1\"}}");
  g_autofree char *block = clarify_test_fixture_block (OPENCODE_NOTES "a5-permission-replied.json");
  g_autofree char *line = clarify_test_line (block, 0);
  ClarifyOpencodeEvent event;

  event = decode (replied);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_WITHDRAW);
  g_assert_cmpstr (event.type, ==, "question.replied");
  g_assert_cmpstr (event.request_id, ==, QUESTION_ID);
  g_assert_cmpint (event.reason, ==, CLARIFY_END_REASON_ANSWERED_ELSEWHERE);

  event = decode (rejected);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_WITHDRAW);
  g_assert_cmpstr (event.request_id, ==, "que_20011caa8001iWDS14IheDBl5t");

  permission = parse_object (line);
  event = decode (permission);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_WITHDRAW);
  g_assert_cmpstr (event.request_id, ==, "per_…");

  event = decode (legacy);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_WITHDRAW);
  g_assert_cmpstr (event.request_id, ==, "per_old2");

  /* Nothing to withdraw without an id. */
  event = decode (anonymous);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_NONE);
  g_assert_cmpstr (event.type, ==, "question.replied");
}

static void
test_session_ended (void)
{
  const char *ending[] = {
    "{\"id\":\"evt_a\",\"type\":\"session.error\",\"properties\":{\"sessionID\":\"ses_1\",\"error\":{\"name\":\"MessageAbortedError\",\"data\":{\"message\":\"Aborted\"}}}}",
    "{\"id\":\"evt_b\",\"type\":\"session.idle\",\"properties\":{\"sessionID\":\"ses_1\"}}",
    "{\"id\":\"evt_c\",\"type\":\"session.deleted\",\"properties\":{\"sessionID\":\"ses_1\",\"info\":{}}}",
    "{\"id\":\"evt_d\",\"type\":\"session.status\",\"properties\":{\"sessionID\":\"ses_1\",\"status\":{\"type\":\"idle\"}}}",
  };
  const char *going_on[] = {
    "{\"id\":\"evt_e\",\"type\":\"session.status\",\"properties\":{\"sessionID\":\"ses_1\",\"status\":{\"type\":\"busy\"}}}",
    "{\"id\":\"evt_f\",\"type\":\"session.status\",\"properties\":{\"sessionID\":\"ses_1\"}}",
    "{\"id\":\"evt_g\",\"type\":\"session.idle\",\"properties\":{}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ending); i++)
    {
      g_autoptr(JsonNode) node = parse_object (ending[i]);
      ClarifyOpencodeEvent event = decode (node);

      g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_SESSION_ENDED);
      g_assert_cmpstr (event.session_id, ==, "ses_1");
      g_assert_cmpint (event.reason, ==, CLARIFY_END_REASON_SESSION_ENDED);
    }

  for (guint i = 0; i < G_N_ELEMENTS (going_on); i++)
    {
      g_autoptr(JsonNode) node = parse_object (going_on[i]);
      ClarifyOpencodeEvent event = decode (node);

      g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_NONE);
      g_assert_true (g_str_has_prefix (event.type, "session."));
    }
}

/* A1's heartbeats and malformed events concern no request. */
static void
test_other_events (void)
{
  g_autofree char *block = clarify_test_fixture_block (OPENCODE_NOTES "a1-event-streams.sse");
  g_autofree char *connected = clarify_test_line (block, 0);
  g_autofree char *heartbeat = clarify_test_line (block, 2);
  g_autoptr(JsonNode) connected_node = parse_object (connected + strlen ("data: "));
  g_autoptr(JsonNode) heartbeat_node = parse_object (heartbeat + strlen ("data: "));
  const char *malformed[] = {
    "{}",
    "{\"type\":\"question.asked\"}",
    "{\"type\":7,\"properties\":{}}",
    "{\"type\":\"question.asked\",\"properties\":[]}",
  };
  ClarifyOpencodeEvent event;

  event = decode (connected_node);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_NONE);
  g_assert_cmpstr (event.type, ==, "server.connected");

  /* /global/event wraps it in {"payload":…}. */
  clarify_opencode_event_decode (clarify_json_get_object_member (json_node_get_object (heartbeat_node), "payload"), &event);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_NONE);
  g_assert_cmpstr (event.type, ==, "server.heartbeat");

  for (guint i = 0; i < G_N_ELEMENTS (malformed); i++)
    {
      g_autoptr(JsonNode) node = parse_object (malformed[i]);

      event = decode (node);
      g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_NONE);
      g_assert_cmpstr (event.type, ==, "");
    }
}

/* What cannot be shown honestly is an error, not a half request. */
static void
test_malformed_requests (void)
{
  const struct
  {
    ClarifyOpencodeRequestKind  kind;
    const char                 *json;
  } cases[] = {
    { CLARIFY_OPENCODE_REQUEST_QUESTION, "{\"sessionID\":\"ses_1\",\"questions\":[]}" },
    { CLARIFY_OPENCODE_REQUEST_QUESTION, "{\"id\":\"que_bad\",\"sessionID\":\"ses_1\"}" },
    { CLARIFY_OPENCODE_REQUEST_QUESTION, "{\"id\":\"que_bad\",\"questions\":[{\"header\":\"H\",\"options\":[]}]}" },
    { CLARIFY_OPENCODE_REQUEST_QUESTION, "{\"id\":\"que_bad\",\"questions\":[{\"question\":\"Pick\",\"header\":\"H\",\"options\":[{\"description\":\"no label\"}]}]}" },
    { CLARIFY_OPENCODE_REQUEST_PERMISSION, "{\"id\":\"per_bad\",\"sessionID\":\"ses_1\"}" },
    { CLARIFY_OPENCODE_REQUEST_PERMISSION, "{\"permission\":\"bash\",\"sessionID\":\"ses_1\"}" },
    { CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION, "{\"id\":\"per_bad\",\"permission\":\"bash\"}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = parse_object (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyRequest) request = NULL;

      request = clarify_opencode_request_decode (cases[i].kind, json_node_get_object (node), NULL, NULL, &error);
      g_assert_null (request);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
    }
}

/* B7 F-CN-1 and F-CN-2: the same events inside CodeNomad's instance.event. */
static void
test_codenomad_frames (void)
{
  g_autoptr(JsonNode) asked = codenomad_data (CODENOMAD_NOTES "f-cn-1.sse", 0);
  g_autoptr(JsonNode) replied = codenomad_data (CODENOMAD_NOTES "f-cn-2.txt", 7);
  JsonObject *envelope = json_node_get_object (asked);
  JsonObject *inner = clarify_json_get_object_member (envelope, "event");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyOpencodeEvent event;

  g_assert_cmpstr (clarify_json_get_string_member (envelope, "type"), ==, "instance.event");
  clarify_opencode_event_decode (inner, &event);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_ASKED);
  g_assert_cmpstr (event.request_id, ==, NOMAD_QUESTION_ID);
  request = clarify_opencode_request_decode (event.kind, event.properties,
                                             clarify_json_get_string_member (inner, "directory"),
                                             clarify_json_get_string_member (envelope, "instanceId"),
                                             &error);
  g_assert_no_error (error);
  g_assert_cmpstr (clarify_request_get_project (request), ==, DIR);
  g_assert_cmpstr (clarify_opencode_request_get_info (request)->workspace_id, ==, WORKSPACE);
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);
  g_assert_cmpuint (clarify_question_get_n_options (clarify_request_get_question (request, 1)), ==, 3);

  clarify_opencode_event_decode (clarify_json_get_object_member (json_node_get_object (replied), "event"), &event);
  g_assert_cmpint (event.action, ==, CLARIFY_OPENCODE_EVENT_WITHDRAW);
  g_assert_cmpstr (event.request_id, ==, NOMAD_QUESTION_ID);
}

/* A3: labels in question order, custom text last; Dismiss rejects bodiless. */
static void
test_encode_question (void)
{
  g_autoptr(JsonNode) node = opencode_block (OPENCODE_NOTES "a2-question-asked.json");
  g_autoptr(ClarifyRequest) request = asked_request (node, DIR, NULL);
  g_autoptr(ClarifyResponse) answered = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) custom = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) dismissed = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(ClarifyResponse) partial = clarify_response_new (QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autofree char *reply_body = clarify_test_fixture_block (OPENCODE_NOTES "a3-reply-body.json");
  const char *database[] = { "PostgreSQL", NULL };
  const char *extras[] = { "Docker", "CI", NULL };
  const char *docker[] = { "Docker", NULL };

  clarify_response_add_answer (answered, "q1", database, NULL, FALSE);
  clarify_response_add_answer (answered, "q2", extras, NULL, FALSE);
  /* The notes' own body, byte for byte. */
  g_strchomp (reply_body);
  assert_reply (request, answered, "/question/" QUESTION_ID "/reply", reply_body);

  clarify_response_add_answer (custom, "q1", NULL, "MariaDB, please", FALSE);
  clarify_response_add_answer (custom, "q2", docker, "A Makefile", FALSE);
  assert_reply (request, custom, "/question/" QUESTION_ID "/reply", "{\"answers\":[[\"MariaDB, please\"],[\"Docker\",\"A Makefile\"]]}");

  /* Skipped and unanswered questions are empty arrays. */
  clarify_response_add_answer (partial, "q1", database, NULL, TRUE);
  assert_reply (request, partial, "/question/" QUESTION_ID "/reply", "{\"answers\":[[],[]]}");

  assert_reply (request, dismissed, "/question/" QUESTION_ID "/reject", NULL);
}

/* F-CN-2: the same encoder, under CodeNomad's instance prefix. */
static void
test_encode_codenomad (void)
{
  g_autoptr(JsonNode) node = codenomad_data (CODENOMAD_NOTES "f-cn-1.sse", 0);
  g_autoptr(ClarifyRequest) request = asked_request (json_object_get_member (json_node_get_object (node), "event"),
                                                     DIR, WORKSPACE);
  g_autoptr(ClarifyResponse) answered = clarify_response_new (NOMAD_QUESTION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) dismissed = clarify_response_new (NOMAD_QUESTION_ID, CLARIFY_OUTCOME_CANCELLED);
  g_autofree char *block = clarify_test_fixture_block (CODENOMAD_NOTES "f-cn-2.txt");
  g_autofree char *reply_line = clarify_test_line (block, 4);
  g_autofree char *body_line = clarify_test_line (block, 5);
  g_autofree char *reject_line = clarify_test_line (block, 6);
  g_autofree char *body = NULL;
  const char *styling[] = { "Tailwind (Recommended)", NULL };
  const char *features[] = { "Loading state", "Accessibility", NULL };

  /* "     {…}   -> 200 true" */
  body = g_strndup (strchr (body_line, '{'), strstr (body_line, "   ->") - strchr (body_line, '{'));
  clarify_response_add_answer (answered, "q1", styling, NULL, FALSE);
  clarify_response_add_answer (answered, "q2", features, "Storybook story", FALSE);
  g_assert_cmpstr (reply_line, ==, "POST " INSTANCE "/question/" NOMAD_QUESTION_ID "/reply");
  assert_reply (request, answered, "/question/" NOMAD_QUESTION_ID "/reply", body);

  g_assert_true (g_str_has_prefix (reject_line, "POST " INSTANCE "/question/" NOMAD_QUESTION_ID "/reject   -> "));
  assert_reply (request, dismissed, "/question/" NOMAD_QUESTION_ID "/reject", NULL);
}

/* A5: {"reply","message"?}; a blank message is left out, Cancel rejects. */
static void
test_encode_permission (void)
{
  g_autoptr(JsonNode) node = opencode_block (OPENCODE_NOTES "a5-permission-asked.json");
  g_autoptr(ClarifyRequest) request = asked_request (node, DIR, NULL);
  g_autoptr(ClarifyResponse) once = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) reject = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) refused = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) bare = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) cancel = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(ClarifyResponse) bogus = clarify_response_new (PERMISSION_ID, CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  const char *once_value[] = { "once", NULL };
  const char *reject_value[] = { "reject", NULL };
  const char *bogus_value[] = { "sometimes", NULL };
  const char *message[] = { "Use printf instead", NULL };
  const char *blank[] = { "  ", NULL };

  clarify_response_add_answer (once, CLARIFY_OPENCODE_PERMISSION_REPLY, once_value, NULL, FALSE);
  clarify_response_add_answer (once, CLARIFY_OPENCODE_PERMISSION_MESSAGE, blank, NULL, FALSE);
  assert_reply (request, once, "/permission/" PERMISSION_ID "/reply", "{\"reply\":\"once\"}");

  clarify_response_add_answer (reject, CLARIFY_OPENCODE_PERMISSION_REPLY, reject_value, NULL, FALSE);
  clarify_response_add_answer (reject, CLARIFY_OPENCODE_PERMISSION_MESSAGE, message, NULL, FALSE);
  assert_reply (request, reject, "/permission/" PERMISSION_ID "/reply", "{\"reply\":\"reject\",\"message\":\"Use printf instead\"}");

  /* As the permission dialog answers: the message is the refusal's own. */
  clarify_response_add_answer (refused, CLARIFY_OPENCODE_PERMISSION_REPLY, reject_value, message[0], FALSE);
  assert_reply (request, refused, "/permission/" PERMISSION_ID "/reply", "{\"reply\":\"reject\",\"message\":\"Use printf instead\"}");
  clarify_response_add_answer (bare, CLARIFY_OPENCODE_PERMISSION_REPLY, reject_value, "  ", FALSE);
  assert_reply (request, bare, "/permission/" PERMISSION_ID "/reply", "{\"reply\":\"reject\"}");

  assert_reply (request, cancel, "/permission/" PERMISSION_ID "/reply", "{\"reply\":\"reject\"}");

  clarify_response_add_answer (bogus, CLARIFY_OPENCODE_PERMISSION_REPLY, bogus_value, NULL, FALSE);
  g_assert_false (clarify_opencode_encode_reply (request, bogus, &path, &body, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
}

/* Older servers: the session route, {"response"}, never a message. */
static void
test_encode_legacy_permission (void)
{
  g_autoptr(JsonNode) node = parse_object ("{\"id\":\"per_old1\",\"type\":\"edit\",\"sessionID\":\"ses_old\",\"title\":\"Edit\"}");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyResponse) always = clarify_response_new ("per_old1", CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(GError) error = NULL;
  const char *always_value[] = { "always", NULL };
  const char *message[] = { "not sent", NULL };

  request = clarify_opencode_request_decode (CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION, json_node_get_object (node), NULL, NULL, &error);
  g_assert_no_error (error);
  clarify_response_add_answer (always, CLARIFY_OPENCODE_PERMISSION_REPLY, always_value, NULL, FALSE);
  clarify_response_add_answer (always, CLARIFY_OPENCODE_PERMISSION_MESSAGE, message, NULL, FALSE);
  assert_reply (request, always, "/session/ses_old/permissions/per_old1", "{\"response\":\"always\"}");
}

/* A request from another backend has no OpenCode route. */
static void
test_encode_foreign (void)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new ("req_1");
  g_autoptr(ClarifyResponse) response = clarify_response_new ("req_1", CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;

  g_assert_null (clarify_opencode_request_get_info (request));
  g_assert_false (clarify_opencode_encode_reply (request, response, &path, &body, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/opencode-decoder/event/question-asked", test_question_asked);
  g_test_add_func ("/opencode-decoder/event/permission-asked", test_permission_asked);
  g_test_add_func ("/opencode-decoder/event/permission-updated", test_permission_updated);
  g_test_add_func ("/opencode-decoder/event/replied", test_replied);
  g_test_add_func ("/opencode-decoder/event/session-ended", test_session_ended);
  g_test_add_func ("/opencode-decoder/event/other", test_other_events);
  g_test_add_func ("/opencode-decoder/event/codenomad", test_codenomad_frames);
  g_test_add_func ("/opencode-decoder/request/malformed", test_malformed_requests);
  g_test_add_func ("/opencode-encoder/question", test_encode_question);
  g_test_add_func ("/opencode-encoder/codenomad", test_encode_codenomad);
  g_test_add_func ("/opencode-encoder/permission", test_encode_permission);
  g_test_add_func ("/opencode-encoder/legacy-permission", test_encode_legacy_permission);
  g_test_add_func ("/opencode-encoder/foreign", test_encode_foreign);

  return g_test_run ();
}
