/* test-claude-e2e-mcp.c: the real Claude Code and an ask_user question
 * answered after 150 s
 *
 * Clarify's MCP endpoint (of the application in this process) is an HTTP
 * MCP server of Claude Code sessions whose hooks `clarify setup
 * claude-code --user` wrote. Clarify answers tools/call as an event stream
 * with progress every 10 s, which keeps Claude Code's call alive past the
 * 60 s that end a silent one. Claude Code 2.1.332 has a second limit,
 * though: after 120 s it moves a running MCP call to the background and
 * gives the model a placeholder as the tool's result; the answer comes
 * later as a background-task notification, which Claude Code tells the
 * model is not the user's input. Two sessions at once show both:
 *
 *  - one as it comes, whose tool call is allowed in Clarify's permission
 *    dialog (through the hook): the placeholder at 120 s, then the answer
 *    as a task notification;
 *  - one whose project settings set CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS to
 *    0, as the docs tell Clarify's users to: the answer is the tool result.
 *
 * Its own meson test: it takes minutes and runs beside others (its session
 * bus is its own).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-mcp-server.h"
#include "clarify-permission-input.h"
#include "clarify-test-claude-e2e.h"
#include "clarify-test-gtk-utils.h"

#define SLOW_MS  CLARIFY_TEST_CLAUDE_SLOW_MS
#define WAIT_MS  CLARIFY_TEST_E2E_WAIT_MS
/* Longer than Claude Code's 60 s for a reply that brings nothing. */
#define PERSON_MS 150000

#define PORT_QUESTION "Which port should the dev server use?"
#define ASK_INPUT                                                                                             \
  "{\"title\":\"Dev server\",\"questions\":[{\"question\":\"" PORT_QUESTION "\",\"type\":\"select\","         \
  "\"options\":[\"3000\",\"8080\"]}]}"

static const ClarifyTestClaudeCall ask_script[] = { { "mcp__clarify__ask_user", ASK_INPUT } };

static gboolean
mcp_listening (gpointer data)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (clarify_test_e2e_app (), "MCP");

  return backend != NULL && clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_CONNECTED;
}

/* {"type": "http", "url": …, "headers": {"Authorization": "Bearer …"}} */
static char *
server_config (void)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (clarify_test_e2e_app (), "MCP");
  g_autofree char *url = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (backend));
  g_autofree char *token = NULL;
  g_autoptr(GError) error = NULL;

  token = clarify_mcp_token_ensure (&error);
  g_assert_no_error (error);
  return g_strdup_printf ("{\"type\":\"http\",\"url\":\"%s\",\"headers\":{\"Authorization\":\"Bearer %s\"}}", url, token);
}

/* The first text of the last message of @claude's latest request. */
static char *
last_text (ClarifyTestClaude *claude)
{
  ClarifyTestClaudeApi *api = clarify_test_claude_get_api (claude);
  g_autoptr(JsonNode) body = clarify_test_claude_api_get_request (api, clarify_test_claude_api_get_n_requests (api) - 1);
  JsonArray *messages = json_object_get_array_member (json_node_get_object (body), "messages");
  JsonObject *last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  JsonArray *blocks = json_object_get_array_member (last, "content");

  g_assert_nonnull (blocks);
  return g_strdup (json_object_get_string_member_with_default (json_array_get_object_element (blocks, 0), "text", ""));
}

/* What ask_user returns for @request answered with @port. */
static char *
ask_user_result (ClarifyRequest *request,
                 const char     *port)
{
  return g_strdup_printf ("{\"answered\":true,\"cancelled\":false,\"timedOut\":false,\"answers\":["
                          "{\"questionId\":\"%s\",\"values\":[\"%s\"]}]}",
                          clarify_question_get_id (clarify_request_get_question (request, 0)), port);
}

/* Starts a session in @project and has its model call ask_user. */
static ClarifyTestClaude *
start_asking (ClarifyTestClaudeHome *home,
              const char            *project)
{
  ClarifyTestClaude *claude = clarify_test_claude_start (home, project, ask_script, G_N_ELEMENTS (ask_script), NULL);

  g_assert_true (clarify_test_claude_wait_for_mcp (claude, "clarify", SLOW_MS));
  clarify_test_e2e_see (claude, "? for shortcuts");
  clarify_test_claude_prompt (claude, "Ask me about the port");
  return claude;
}

static void
answer_port (ClarifyRequest *request,
             const char     *port)
{
  ClarifyRequestDialog *dialog = clarify_test_e2e_wait_for_dialog (request);

  clarify_test_e2e_click (clarify_test_e2e_chip (dialog, 0, port));
  clarify_test_e2e_click (clarify_test_e2e_action (dialog, "submit_button"));
}

typedef struct
{
  ClarifyTestClaudeApi *api;
  guint                 n;
} RequestsWait;

static gboolean
has_more_requests (gpointer data)
{
  RequestsWait *wait = data;

  return clarify_test_claude_api_get_n_requests (wait->api) > wait->n;
}

static void
test_long_question (void)
{
  static const char *projects[] = { "background", "foreground", NULL };
  static const char foreground_settings[] =
    "{\"env\":{\"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS\":\"0\"},"
    "\"permissions\":{\"allow\":[\"mcp__clarify__ask_user\"]}}";
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  const ClarifyTestClaudeResult *result;
  ClarifyRequestDialog *dialog;
  ClarifyPermissionInput *permission;
  ClarifyTestClaude *background, *foreground;
  ClarifyTestClaudeApi *background_api, *foreground_api;
  ClarifyRequest *background_request, *foreground_request, *allow;
  g_autofree char *config = NULL;
  g_autofree char *project = NULL;
  g_autofree char *settings_dir = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *notification = NULL;
  RequestsWait more;
  gint64 asked, clicked;
  gint64 left_ms;

  if (home == NULL)
    return;
  clarify_test_e2e_app ();
  g_assert_true (clarify_test_wait_until (mcp_listening, NULL, WAIT_MS));
  config = server_config ();
  clarify_test_claude_home_add_mcp_server (home, "clarify", config);

  /* As it comes: Claude Code asks whether the tool may run, in Clarify. */
  background = start_asking (home, "background");
  background_api = clarify_test_claude_get_api (background);
  allow = clarify_test_e2e_wait_for_request (background, 1, SLOW_MS);
  g_assert_nonnull (allow);
  dialog = clarify_test_e2e_wait_for_dialog (allow);
  permission = CLARIFY_PERMISSION_INPUT (clarify_request_dialog_get_input (dialog, 0));
  g_assert_true (CLARIFY_IS_PERMISSION_INPUT (permission));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "claude-e2e-mcp-permission-en"));
  clarify_test_e2e_click (clarify_permission_input_get_default_button (permission));
  background_request = clarify_test_e2e_wait_for_kind ("mcp", 1, SLOW_MS);
  g_assert_nonnull (background_request);
  g_assert_cmpstr (clarify_request_get_title (background_request), ==, "Dev server");
  dialog = clarify_test_e2e_wait_for_dialog (background_request);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "claude-e2e-mcp-question-en"));

  /* With the setting the docs give: its question waits behind the first. */
  project = clarify_test_claude_home_get_project (home, "foreground");
  settings_dir = g_build_filename (project, ".claude", NULL);
  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  settings = g_build_filename (settings_dir, "settings.local.json", NULL);
  g_assert_true (g_file_set_contents (settings, foreground_settings, -1, NULL));
  foreground = start_asking (home, "foreground");
  foreground_api = clarify_test_claude_get_api (foreground);
  foreground_request = clarify_test_e2e_wait_for_kind ("mcp", 2, SLOW_MS);
  g_assert_nonnull (foreground_request);
  asked = clarify_test_e2e_arrived_at (foreground_request);
  g_assert_null (clarify_test_e2e_wait_for_request (foreground, 1, 0));

  /* The person takes 150 s. The first call goes to the background at
   * 120 s: the model gets a placeholder as the tool's result. */
  left_ms = PERSON_MS - clarify_test_e2e_ms (asked, g_get_monotonic_time ());
  result = clarify_test_claude_api_wait_for_result (background_api, 1, left_ms);
  g_assert_nonnull (result);
  g_test_message ("without the setting: a result %.1f s after the question arrived: %s",
                  clarify_test_e2e_ms (clarify_test_e2e_arrived_at (background_request), result->received_at) / 1000,
                  result->content);
  g_assert_true (g_str_has_prefix (result->content, "MCP tool \"clarify/ask_user\" is still running after 120s. "
                                                    "It was moved to the background as task "));
  g_assert_cmpint (clarify_request_get_state (background_request), ==, CLARIFY_REQUEST_PENDING);
  /* The other one keeps waiting, result-less. */
  left_ms = PERSON_MS - clarify_test_e2e_ms (asked, g_get_monotonic_time ());
  g_assert_null (clarify_test_claude_api_wait_for_result (foreground_api, 1, MAX (left_ms, 0)));
  g_assert_cmpint (clarify_request_get_state (foreground_request), ==, CLARIFY_REQUEST_PENDING);

  /* Answered: the first model gets it as a task notification. */
  more.api = background_api;
  more.n = clarify_test_claude_api_get_n_requests (background_api);
  answer_port (background_request, "8080");
  g_assert_true (clarify_test_wait_until (has_more_requests, &more, SLOW_MS));
  notification = last_text (background);
  g_test_message ("without the setting, the answer reached the model as:\n%s", notification);
  expected = ask_user_result (background_request, "8080");
  g_assert_nonnull (strstr (notification, "<task-notification>"));
  g_assert_nonnull (strstr (notification, expected));
  g_clear_pointer (&expected, g_free);

  /* The second, with the setting: the answer is the tool's result. */
  clicked = g_get_monotonic_time ();
  answer_port (foreground_request, "3000");
  result = clarify_test_claude_api_wait_for_result (foreground_api, 1, SLOW_MS);
  g_assert_nonnull (result);
  g_test_message ("with the setting: question shown → answered %.1f s; Submit → tool result at the API: %.0f ms",
                  clarify_test_e2e_ms (asked, clicked) / 1000, clarify_test_e2e_ms (clicked, result->received_at));
  g_assert_false (result->is_error);
  expected = ask_user_result (foreground_request, "3000");
  g_assert_cmpstr (result->content, ==, expected);
  clarify_test_e2e_see (foreground, "All done.");
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (foreground_api), ==, 1);

  clarify_test_e2e_assert_no_strays (background);
  clarify_test_e2e_assert_no_strays (foreground);
  clarify_test_claude_stop (background);
  clarify_test_claude_stop (foreground);
  clarify_test_claude_home_free (home);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  clarify_test_e2e_init (&argc, &argv);

  g_test_add_func ("/claude-e2e/mcp-long-question", test_long_question);

  status = g_test_run ();
  clarify_test_e2e_shutdown ();
  return status;
}
