/* test-claude-real.c: the real Claude Code, offline, driven in tmux
 *
 * Installs @anthropic-ai/claude-code (pinned) from npm into the build dir
 * and runs its interactive TUI against a fake Anthropic Messages API (the
 * harness in clarify-test-claude-real.c). These tests prove the harness:
 * a scripted tool call reaches Claude Code, its PermissionRequest hook gets
 * the call on stdin, the terminal can be answered with keys, the tool
 * result comes back to the fake API, two sessions run side by side, an MCP
 * server is offered, and nothing leaves 127.0.0.1 unseen.
 *
 * The hooks here are shell one-liners that record their stdin and print a
 * fixed answer, or nothing: they test the harness, not Clarify. The tests
 * of `clarify hook claude-code` build on the same harness.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "clarify-test-claude-real.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define SLOW_MS CLARIFY_TEST_CLAUDE_SLOW_MS

#define QUESTIONS_INPUT                                                                                       \
  "{\"questions\":["                                                                                          \
  "{\"question\":\"Which features should the CLI support?\",\"header\":\"Features\",\"multiSelect\":true,"     \
  "\"options\":[{\"label\":\"Export to CSV\",\"description\":\"Write results as CSV\"},"                      \
  "{\"label\":\"Dark mode\",\"description\":\"A dark theme\"},"                                               \
  "{\"label\":\"Sync\",\"description\":\"Sync between machines\"}]},"                                          \
  "{\"question\":\"Which database should we use?\",\"header\":\"Database\",\"multiSelect\":false,"             \
  "\"options\":[{\"label\":\"SQLite\",\"description\":\"Embedded\"},"                                         \
  "{\"label\":\"Postgres\",\"description\":\"A server\"}]}]}"

#define BASH_INPUT "{\"command\":\"curl -s http://127.0.0.1:9/ ; touch ran-in-project\",\"description\":\"Fetch, then leave a marker\"}"

/* Hooks that print a fixed decision: fine here, where they test the
 * harness; Clarify's own hook is what the tests built on it run. */
#define DENY_OUTPUT                                                                                           \
  "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\","                                        \
  "\"decision\":{\"behavior\":\"deny\",\"message\":\"Denied in Clarify\"}}}"

#define ALLOW_OUTPUT                                                                                          \
  "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}"

#define FETCH_INPUT "{\"url\":\"https://example.com/\",\"prompt\":\"What is on this page?\"}"

static const ClarifyTestClaudeCall ask_script[] = { { "AskUserQuestion", QUESTIONS_INPUT } };
static const ClarifyTestClaudeCall bash_script[] = { { "Bash", BASH_INPUT } };

static JsonNode *
parse (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

static JsonObject *
object (JsonNode *node)
{
  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_node_get_object (node);
}

static void
assert_no_strays (ClarifyTestClaude *claude)
{
  g_auto(GStrv) strays = clarify_test_claude_api_get_strays (clarify_test_claude_get_api (claude));
  g_autofree char *list = g_strjoinv (", ", strays);

  g_assert_cmpstr (list, ==, "");
}

/* Processes in process group @group that have not ended (zombies have:
 * they wait for init, their parent being gone). */
static guint
count_live_in_group (GPid group)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *end;
      char state;
      int parent, pgrp;

      /* "pid (comm) state ppid pgrp …"; comm may hold anything but ends at the last ')'. */
      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &stat, NULL, NULL) ||
          (end = strrchr (stat, ')')) == NULL || sscanf (end + 1, " %c %d %d", &state, &parent, &pgrp) != 3)
        continue;
      if (pgrp == group && state != 'Z')
        n++;
    }
  return n;
}

/* Stops @claude and checks that Claude Code and what it started are gone. */
static void
stop (ClarifyTestClaude *claude)
{
  GPid pid = clarify_test_claude_get_pid (claude);

  g_assert_cmpuint (count_live_in_group (pid), >, 0);
  clarify_test_claude_stop (claude);
  g_assert_cmpuint (count_live_in_group (pid), ==, 0);
}

/* The permission hook's input for a call of @tool in @claude's session. */
static JsonObject *
assert_permission_request (JsonNode          *input,
                           const char        *tool,
                           ClarifyTestClaude *claude)
{
  JsonObject *request = object (input);

  g_assert_cmpstr (json_object_get_string_member (request, "hook_event_name"), ==, "PermissionRequest");
  g_assert_cmpstr (json_object_get_string_member (request, "tool_name"), ==, tool);
  g_assert_cmpstr (json_object_get_string_member (request, "cwd"), ==, clarify_test_claude_get_project (claude));
  g_assert_cmpstr (json_object_get_string_member (request, "session_id"), ==, clarify_test_claude_get_session_id (claude));
  g_assert_cmpstr (json_object_get_string_member (request, "permission_mode"), ==, "default");
  g_assert_true (g_file_test (json_object_get_string_member (request, "transcript_path"), G_FILE_TEST_IS_REGULAR));
  return request;
}

/* Waits for @text on the terminal. */
static void
see (ClarifyTestClaude *claude,
     const char        *text)
{
  g_assert_true (clarify_test_claude_wait_for_text (claude, text, SLOW_MS));
}

/* A home with one project, "project", whose permission hook records its
 * input as "permission" and prints @output (NULL: nothing), and a session
 * there that plays @call. NULL when the test was skipped. */
static ClarifyTestClaude *
start_one (ClarifyTestClaudeHome       **home,
           const ClarifyTestClaudeCall  *call,
           const char                   *output)
{
  static const char *projects[] = { "project", NULL };
  g_autofree char *hook = NULL;

  *home = clarify_test_claude_home_new (projects);
  if (*home == NULL)
    return NULL;
  hook = clarify_test_claude_home_recording_hook (*home, "permission", output);
  clarify_test_claude_home_add_hook (*home, "PermissionRequest", "", hook);
  return clarify_test_claude_start (*home, "project", call, 1, "Go ahead");
}

/* AskUserQuestion: the hook sees it, the terminal asks, keys answer. */
static void
test_ask_in_terminal (void)
{
  ClarifyTestClaudeHome *home = NULL;
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(JsonNode) expected = parse (QUESTIONS_INPUT);
  const ClarifyTestClaudeResult *result;
  ClarifyTestClaudeApi *api;
  ClarifyTestClaude *claude;
  JsonObject *request;

  /* Records, prints nothing: the terminal keeps its own question. */
  claude = start_one (&home, ask_script, NULL);
  if (claude == NULL)
    return;
  api = clarify_test_claude_get_api (claude);

  g_assert_true (clarify_test_claude_api_wait_for_requests (api, 1, SLOW_MS));
  g_test_message ("start to the first Messages request: %.1f s",
                  (g_get_monotonic_time () - clarify_test_claude_get_start_time (claude)) / 1e6);

  see (claude, "Which features should the CLI support?");
  g_test_message ("start to the question on screen: %.1f s",
                  (g_get_monotonic_time () - clarify_test_claude_get_start_time (claude)) / 1e6);
  input = clarify_test_claude_home_wait_for_hook_input (home, "permission", 1, SLOW_MS);
  request = assert_permission_request (input, "AskUserQuestion", claude);
  g_assert_true (json_node_equal (json_object_get_member (request, "tool_input"), expected));
  g_assert_false (json_object_has_member (request, "permission_suggestions"));

  /* Ticks two features, moves on, picks a database, submits the review. */
  clarify_test_claude_send_keys (claude, "Enter", NULL);
  see (claude, "[✔] Export to CSV");
  clarify_test_claude_send_keys (claude, "Down", NULL);
  see (claude, "❯ 2. [ ] Dark mode");
  clarify_test_claude_send_keys (claude, "Enter", NULL);
  see (claude, "[✔] Dark mode");
  clarify_test_claude_send_keys (claude, "Tab", NULL);
  see (claude, "Which database should we use?");
  clarify_test_claude_send_keys (claude, "Down", NULL);
  see (claude, "❯ 2. Postgres");
  clarify_test_claude_send_keys (claude, "Enter", NULL);
  see (claude, "Review your answers");
  clarify_test_claude_send_keys (claude, "Enter", NULL);

  result = clarify_test_claude_api_wait_for_result (api, 1, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_cmpstr (result->tool_use_id, ==, "toolu_clarify_1");
  g_assert_false (result->is_error);
  g_assert_nonnull (strstr (result->content, "\"Which features should the CLI support?\"=\"Export to CSV, Dark mode\""));
  g_assert_nonnull (strstr (result->content, "\"Which database should we use?\"=\"Postgres\""));
  /* The model's reply to the result ends the turn. */
  see (claude, "All done.");
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (api), ==, 1);
  /* The hook ran once, for the one call. */
  g_assert_null (clarify_test_claude_home_wait_for_hook_input (home, "permission", 2, 0));

  assert_no_strays (claude);
  stop (claude);
  clarify_test_claude_home_free (home);
}

/* Bash in default mode: the hook denies it with a message. */
static void
test_bash_denied_by_hook (void)
{
  ClarifyTestClaudeHome *home = NULL;
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(JsonNode) expected = parse (BASH_INPUT);
  g_autofree char *marker = NULL;
  const ClarifyTestClaudeResult *result;
  ClarifyTestClaude *claude;
  JsonObject *request;
  JsonObject *suggestion;
  JsonArray *suggestions;

  claude = start_one (&home, bash_script, DENY_OUTPUT);
  if (claude == NULL)
    return;

  input = clarify_test_claude_home_wait_for_hook_input (home, "permission", 1, SLOW_MS);
  request = assert_permission_request (input, "Bash", claude);
  g_assert_true (json_node_equal (json_object_get_member (request, "tool_input"), expected));
  suggestions = json_object_get_array_member (request, "permission_suggestions");
  g_assert_nonnull (suggestions);
  g_assert_cmpuint (json_array_get_length (suggestions), >, 0);
  suggestion = json_array_get_object_element (suggestions, 0);
  g_assert_cmpstr (json_object_get_string_member (suggestion, "type"), ==, "addRules");
  g_assert_cmpstr (json_object_get_string_member (suggestion, "behavior"), ==, "allow");

  result = clarify_test_claude_api_wait_for_result (clarify_test_claude_get_api (claude), 1, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_cmpstr (result->tool_use_id, ==, "toolu_clarify_1");
  g_assert_true (result->is_error);
  g_assert_nonnull (strstr (result->content, "Denied in Clarify"));
  see (claude, "All done.");

  marker = g_build_filename (clarify_test_claude_get_project (claude), "ran-in-project", NULL);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));

  assert_no_strays (claude);
  stop (claude);
  clarify_test_claude_home_free (home);
}

/* Two sessions at once, each with its own API and project, one home. */
static void
test_two_sessions (void)
{
  static const char *projects[] = { "left", "right", NULL };
  ClarifyTestClaudeHome *home = clarify_test_claude_home_new (projects);
  g_autofree char *deny = NULL;
  g_autofree char *record = NULL;
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) second = NULL;
  const ClarifyTestClaudeResult *result;
  ClarifyTestClaude *left;
  ClarifyTestClaude *right;

  if (home == NULL)
    return;

  /* Bash is denied, questions stay in the terminal. */
  deny = clarify_test_claude_home_recording_hook (home, "permission", DENY_OUTPUT);
  record = clarify_test_claude_home_recording_hook (home, "permission", NULL);
  clarify_test_claude_home_add_hook (home, "PermissionRequest", "Bash", deny);
  clarify_test_claude_home_add_hook (home, "PermissionRequest", "AskUserQuestion", record);
  left = clarify_test_claude_start (home, "left", ask_script, G_N_ELEMENTS (ask_script), "Ask me");
  right = clarify_test_claude_start (home, "right", bash_script, G_N_ELEMENTS (bash_script), "Run it");

  /* The right one is denied while the left one still asks. */
  result = clarify_test_claude_api_wait_for_result (clarify_test_claude_get_api (right), 1, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_true (result->is_error);
  see (left, "Which features should the CLI support?");
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (clarify_test_claude_get_api (left)), ==, 0);

  /* One input each, in either order. */
  first = clarify_test_claude_home_wait_for_hook_input (home, "permission", 1, SLOW_MS);
  second = clarify_test_claude_home_wait_for_hook_input (home, "permission", 2, SLOW_MS);
  g_assert_nonnull (second);
  if (g_strcmp0 (json_object_get_string_member (object (first), "tool_name"), "Bash") == 0)
    {
      assert_permission_request (first, "Bash", right);
      assert_permission_request (second, "AskUserQuestion", left);
    }
  else
    {
      assert_permission_request (first, "AskUserQuestion", left);
      assert_permission_request (second, "Bash", right);
    }

  /* The left one is still there after the right one has gone. */
  stop (right);
  clarify_test_claude_send_keys (left, "Escape", NULL);
  see (left, "Declined to answer");
  assert_no_strays (left);
  stop (left);
  clarify_test_claude_home_free (home);
}

static void
got_reply_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);

  *(gboolean *) user_data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* @url through @session, with the main loop running; any outcome. */
static void
fetch (SoupSession *session,
       const char  *url)
{
  g_autoptr(SoupMessage) message = soup_message_new ("GET", url);
  gboolean done = FALSE;

  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, got_reply_cb, &done);
  g_assert_true (clarify_test_loop_until (is_true, &done, 10000));
}

/* The strays: what a client that honours the proxy tries elsewhere, and
 * API paths the fake does not know. */
static void
test_strays (void)
{
  static const ClarifyTestClaudeCall no_calls[] = { { "Bash", "{}" } };
  ClarifyTestClaudeApi *api = clarify_test_claude_api_new (no_calls, 0);
  g_autoptr(GProxyResolver) resolver = g_simple_proxy_resolver_new (clarify_test_claude_api_get_url (api), NULL);
  g_autoptr(SoupSession) session = soup_session_new_with_options ("proxy-resolver", resolver, NULL);
  g_autoptr(SoupSession) direct = soup_session_new ();
  g_autofree char *models = g_strconcat (clarify_test_claude_api_get_url (api), "/v1/models", NULL);
  g_auto(GStrv) strays = NULL;
  g_autofree char *list = NULL;

  fetch (session, "https://statsig.anthropic.com/v1/initialize");
  fetch (direct, models);
  strays = clarify_test_claude_api_get_strays (api);
  list = g_strjoinv (", ", strays);
  g_assert_cmpstr (list, ==, "CONNECT statsig.anthropic.com, GET /v1/models");
  g_assert_cmpuint (clarify_test_claude_api_get_n_requests (api), ==, 0);

  clarify_test_claude_api_free (api);
}

/* What Claude Code itself tries to reach elsewhere is seen: WebFetch asks
 * Anthropic whether the domain is safe first, through the proxy. */
static void
test_outbound_seen (void)
{
  static const ClarifyTestClaudeCall fetch_script[] = { { "WebFetch", FETCH_INPUT } };
  ClarifyTestClaudeHome *home = NULL;
  g_auto(GStrv) strays = NULL;
  g_autofree char *list = NULL;
  const ClarifyTestClaudeResult *result;
  ClarifyTestClaude *claude;

  claude = start_one (&home, fetch_script, ALLOW_OUTPUT);
  if (claude == NULL)
    return;

  result = clarify_test_claude_api_wait_for_result (clarify_test_claude_get_api (claude), 1, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_true (result->is_error);
  strays = clarify_test_claude_api_get_strays (clarify_test_claude_get_api (claude));
  list = g_strjoinv (", ", strays);
  g_assert_cmpstr (list, ==, "CONNECT api.anthropic.com:443");

  stop (claude);
  clarify_test_claude_home_free (home);
}

/* An MCP server from --mcp-config is offered to the model by name (tool
 * search is off): Clarify's own `clarify mcp-stdio`. */
static void
test_mcp_offered (void)
{
  static const char *projects[] = { "delta", NULL };
  ClarifyTestClaudeHome *home = clarify_test_claude_home_new (projects);
  g_autofree char *built = g_test_build_filename (G_TEST_BUILT, "..", "src", "clarify", NULL);
  g_autofree char *clarify = g_canonicalize_filename (built, NULL);
  const char *argv[] = { clarify, "mcp-stdio", NULL };
  g_autoptr(JsonNode) request = NULL;
  ClarifyTestClaude *claude;
  JsonArray *tools;
  gboolean offered = FALSE;

  if (home == NULL)
    return;

  clarify_test_claude_home_add_mcp_stdio (home, "clarify", argv);
  claude = clarify_test_claude_start (home, "delta", NULL, 0, NULL);
  g_assert_true (clarify_test_claude_wait_for_mcp (claude, "clarify", SLOW_MS));
  see (claude, "? for shortcuts");
  clarify_test_claude_prompt (claude, "Hello");

  g_assert_true (clarify_test_claude_api_wait_for_requests (clarify_test_claude_get_api (claude), 1, SLOW_MS));
  request = clarify_test_claude_api_get_request (clarify_test_claude_get_api (claude), 0);
  tools = json_object_get_array_member (object (request), "tools");
  for (guint i = 0; i < json_array_get_length (tools); i++)
    offered |= g_strcmp0 (json_object_get_string_member (json_array_get_object_element (tools, i), "name"),
                          "mcp__clarify__ask_user") == 0;
  g_assert_true (offered);
  see (claude, "OK.");

  assert_no_strays (claude);
  stop (claude);
  clarify_test_claude_home_free (home);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/claude-real/strays", test_strays);
  g_test_add_func ("/claude-real/ask-in-terminal", test_ask_in_terminal);
  g_test_add_func ("/claude-real/bash-denied-by-hook", test_bash_denied_by_hook);
  g_test_add_func ("/claude-real/two-sessions", test_two_sessions);
  g_test_add_func ("/claude-real/outbound-seen", test_outbound_seen);
  g_test_add_func ("/claude-real/mcp-offered", test_mcp_offered);

  return g_test_run ();
}
