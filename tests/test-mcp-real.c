/* test-mcp-real.c: Clarify's ask_user as a remote MCP server of the real
 * `opencode serve`
 *
 * OpenCode (clarify-test-opencode-real.c: pinned from npm, offline, with a
 * fake model) gets Clarify's MCP endpoint in its opencode.json, with the
 * bearer token. The fake model calls the tool OpenCode offers for it twice;
 * the dialogs are answered through their widgets (submitted, then
 * cancelled). Asserted: the tool as the model is offered it, the exact tool
 * results the model gets back, and OpenCode's completed tool parts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-ask-user.h"
#include "clarify-mcp-server.h"
#include "clarify-test-answer.h"
#include "clarify-test-log.h"
#include "clarify-test-opencode-real.h"

#define SLOW_MS CLARIFY_TEST_OPENCODE_SLOW_MS
#define TOOL    "clarify_ask_user"

#define DEPLOY_ARGS                                                                                  \
  "{\"title\":\"Deploy\",\"questions\":["                                                            \
  "{\"question\":\"Which environment?\",\"type\":\"select\",\"options\":[\"staging\",\"production\"]}," \
  "{\"question\":\"Notes?\",\"type\":\"text\",\"required\":false}]}"
#define ROLLBACK_ARGS "{\"questions\":[{\"id\":\"rollback\",\"question\":\"Roll back production now?\",\"type\":\"confirm\"}]}"

static const ClarifyTestToolCall script[] = {
  { "call_deploy", TOOL, DEPLOY_ARGS },
  { "call_rollback", TOOL, ROLLBACK_ARGS },
};

typedef struct
{
  guint                 n_asked;
  ClarifyRequestDialog *dialog; /* weak: the latest */
} Asked;

/* Each ask_user call gets its dialog, as ClarifyApplication would show it. */
static void
request_added_cb (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Asked          *asked)
{
  ClarifyRequestDialog *dialog = clarify_test_answer_dialog_new (backend, request);

  asked->n_asked++;
  g_set_weak_pointer (&asked->dialog, dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

typedef struct
{
  Asked *asked;
  guint  n;
} DialogWait;

static gboolean
has_dialog (gpointer data)
{
  DialogWait *wait = data;

  return wait->asked->n_asked >= wait->n && wait->asked->dialog != NULL;
}

/* The dialog of the @n-th call (1-based), shown and drawn. */
static ClarifyRequestDialog *
wait_for_dialog (Asked *asked,
                 guint  n)
{
  DialogWait wait = { asked, n };

  g_assert_true (clarify_test_wait_until (has_dialog, &wait, SLOW_MS));
  clarify_test_present_and_wait (GTK_WINDOW (asked->dialog));
  return asked->dialog;
}

static gboolean
dialog_gone (gpointer data)
{
  return ((Asked *) data)->dialog == NULL;
}

/* "mcp": {"clarify": …} for opencode.json. */
static char *
mcp_config (ClarifyMcpServer *server,
            const char       *token)
{
  g_autofree char *url = clarify_mcp_server_get_url (server);

  return g_strdup_printf ("\"mcp\": { \"clarify\": { \"type\": \"remote\", \"url\": \"%s\", "
                          "\"headers\": { \"Authorization\": \"Bearer %s\" } } }",
                          url, token);
}

/* The tool is offered under OpenCode's name for it, with seed 001's schema. */
static void
assert_tool_offered (ClarifyTestFakeModel *fake)
{
  g_autoptr(JsonNode) ours = clarify_ask_user_get_tool ();
  JsonObject *ours_object = json_node_get_object (ours);
  JsonObject *offered = clarify_test_fake_model_wait_for_tool (fake, TOOL);
  g_autoptr(JsonNode) parameters = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *seen = NULL;

  g_assert_nonnull (offered);
  g_assert_cmpstr (json_object_get_string_member (offered, "description"), ==,
                   json_object_get_string_member (ours_object, "description"));

  /* OpenCode closes the top-level object for the model; the rest is ours,
   * member for member and in order. */
  parameters = json_node_copy (json_object_get_member (offered, "parameters"));
  g_assert_false (json_object_get_boolean_member (json_node_get_object (parameters), "additionalProperties"));
  json_object_remove_member (json_node_get_object (parameters), "additionalProperties");
  seen = clarify_test_to_json (parameters);
  expected = clarify_test_to_json (json_object_get_member (ours_object, "inputSchema"));
  g_assert_cmpstr (seen, ==, expected);
}

static void
test_ask_user_through_opencode (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (0);
  g_autoptr(ClarifyBackend) backend = clarify_mcp_server_new (connection);
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *extra_config = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *expected = NULL;
  Asked asked = { 0, NULL };
  ClarifyTestOpencode server;
  ClarifyTestFakeModel *fake;
  ClarifyRequestDialog *dialog;
  ClarifyRequest *request;
  ClarifyQuestion *environment;
  ClarifyQuestion *notes;
  JsonObject *part;
  JsonObject *state;
  g_autofree char *screenshot = NULL;

  /* Clarify's endpoint first: OpenCode needs its URL and token. */
  g_signal_connect (backend, "request-added", G_CALLBACK (request_added_cb), &asked);
  clarify_backend_start (backend);
  g_assert_cmpuint (clarify_backend_get_state (backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  token = clarify_mcp_token_ensure (&error);
  g_assert_no_error (error);
  extra_config = mcp_config (CLARIFY_MCP_SERVER (backend), token);

  if (!clarify_test_opencode_start (&server, script, G_N_ELEMENTS (script), extra_config))
    {
      clarify_backend_stop (backend);
      return;
    }
  fake = server.model;

  session_id = clarify_test_opencode_create_session (&server, "{\"title\":\"clarify-mcp\"}");
  clarify_test_opencode_prompt (&server, session_id, "Ask me where to deploy");
  assert_tool_offered (fake);

  /* The first call: pick staging, write a note, submit. */
  dialog = wait_for_dialog (&asked, 1);
  request = clarify_request_dialog_get_request (dialog);
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Deploy");
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "mcp");
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);
  environment = clarify_request_get_question (request, 0);
  notes = clarify_request_get_question (request, 1);
  g_assert_true (g_str_has_prefix (clarify_question_get_id (environment), "q_"));
  g_assert_true (g_str_has_prefix (clarify_question_get_id (notes), "q_"));
  g_assert_cmpstr (clarify_question_get_id (environment), !=, clarify_question_get_id (notes));

  /* The ids were made up by Clarify (the caller gave none); the request
   * goes with the dialog once answered. */
  expected = g_strdup_printf ("{\"answered\":true,\"cancelled\":false,\"timedOut\":false,\"answers\":["
                              "{\"questionId\":\"%s\",\"values\":[\"staging\"]},"
                              "{\"questionId\":\"%s\",\"values\":[\"Only after the smoke tests\"]}]}",
                              clarify_question_get_id (environment), clarify_question_get_id (notes));

  screenshot = clarify_test_save_screenshot (GTK_WIDGET (dialog), "mcp-opencode-dialog-en");
  g_assert_true (g_file_test (screenshot, G_FILE_TEST_EXISTS));
  clarify_test_answer_click_choice (dialog, 0, "staging");
  clarify_test_answer_next_page (dialog);
  clarify_test_answer_type_text (dialog, 1, "Only after the smoke tests");
  clarify_test_spin (50);
  clarify_test_answer_press (dialog, "submit_button");

  clarify_test_fake_model_wait_for_tool_results (fake, 1);
  g_assert_cmpstr (fake->tool_results->pdata[0], ==, expected);

  part = clarify_test_opencode_wait_for_tool_part (&server, "call_deploy", "completed");
  g_assert_cmpstr (json_object_get_string_member (part, "tool"), ==, TOOL);
  state = json_object_get_object_member (part, "state");
  g_assert_cmpstr (json_object_get_string_member (state, "output"), ==, expected);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (state, "input"), "title"), ==, "Deploy");
  g_assert_true (clarify_test_wait_until (dialog_gone, &asked, SLOW_MS));

  /* The second call: Cancel. */
  dialog = wait_for_dialog (&asked, 2);
  g_assert_cmpstr (clarify_question_get_id (clarify_request_get_question (clarify_request_dialog_get_request (dialog), 0)),
                   ==, "rollback");
  clarify_test_answer_press (dialog, "cancel_button");

  clarify_test_fake_model_wait_for_tool_results (fake, 2);
  g_assert_cmpstr (fake->tool_results->pdata[1], ==,
                   "{\"answered\":false,\"cancelled\":true,\"timedOut\":false,\"answers\":[]}");
  part = clarify_test_opencode_wait_for_tool_part (&server, "call_rollback", "completed");
  g_assert_cmpstr (json_object_get_string_member (part, "tool"), ==, TOOL);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (part, "state"), "output"), ==,
                   "{\"answered\":false,\"cancelled\":true,\"timedOut\":false,\"answers\":[]}");
  g_assert_true (clarify_test_wait_until (dialog_gone, &asked, SLOW_MS));
  g_assert_cmpuint (asked.n_asked, ==, 2);

  /* OpenCode first: it holds a connection to the endpoint. */
  clarify_test_opencode_stop (&server);
  clarify_backend_stop (backend);
  g_signal_handlers_disconnect_by_data (backend, &asked);
}

int
main (int   argc,
      char *argv[])
{
  /* The token goes to a 0600 file in the isolated config dir, not a keyring. */
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/mcp-real/ask-user-through-opencode", test_ask_user_through_opencode);

  return g_test_run ();
}
