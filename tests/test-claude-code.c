/* test-claude-code.c: Claude Code's hooks, from stdin to stdout
 *
 * The hook inputs are section E's stdin samples (tests/fixtures/claude-code,
 * README there); each is decoded into a request, answered as the dialog
 * would, and the hook's stdout compared byte for byte with the shape section
 * E records. The backend then runs them end to end: the terminal answering
 * first (a transcript the test appends to), the hook going away, several
 * sessions at once. `clarify hook claude-code` itself runs as this binary
 * (main() hands `hook …` to clarify_cli_handle(), as src/main.c does) on a
 * private session bus, against this process or a stand-in app started the
 * ways the real one is: D-Bus activation, or spawned by the hook.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <signal.h>
#include <string.h>

#include "clarify-claude-code-backend.h"
#include "clarify-claude-code-codec.h"
#include "clarify-cli.h"
#include "clarify-dbus-backend.h"
#include "clarify-error.h"
#include "clarify-inbox.h"
#include "clarify-json.h"
#include "clarify-test-cli.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"
#include "clarify-validate.h"

#define WAIT_MS 10000

static char *test_binary;
/* While it exists, the stand-in app that D-Bus activation starts refuses
 * to run: the bus then has no way to start Clarify. */
static char *refuse_flag;

/* ---------------------------------------------------------------------- */
/* Helpers */

static ClarifyClaudeHook *
decode_fixture (const char *name)
{
  g_autofree char *path = g_build_filename ("claude-code", name, NULL);
  g_autofree char *input = clarify_test_load_fixture (path);
  g_autoptr(GError) error = NULL;
  ClarifyClaudeHook *hook;

  hook = clarify_claude_hook_decode (input, -1, "claude-code-1", &error);
  g_assert_no_error (error);
  g_assert_nonnull (hook);

  return hook;
}

static ClarifyResponse *
response_new (ClarifyOutcome outcome)
{
  return clarify_response_new ("claude-code-1", outcome);
}

static void
add_answer (ClarifyResponse *response,
            const char      *question_id,
            const char      *custom_text,
            ...)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  const char *value;
  va_list ap;

  va_start (ap, custom_text);
  while ((value = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (values, (gpointer) value);
  va_end (ap);
  g_ptr_array_add (values, NULL);

  clarify_response_add_answer (response, question_id, (const char * const *) values->pdata, custom_text, FALSE);
}

static char *
encode (ClarifyRequest  *request,
        ClarifyResponse *response)
{
  g_autoptr(GError) error = NULL;
  char *output = clarify_claude_hook_encode (request, response, &error);

  g_assert_no_error (error);
  g_assert_nonnull (output);

  return output;
}

/* ---------------------------------------------------------------------- */
/* AskUserQuestion */

#define AUQ_QUESTIONS \
  "[{\"question\":\"Which features should the CLI support?\",\"header\":\"Features\",\"options\":[" \
  "{\"label\":\"Export to CSV\",\"description\":\"write a .csv file\"}," \
  "{\"label\":\"Dark mode\",\"description\":\"a dark theme\"}," \
  "{\"label\":\"Plugins\",\"description\":\"load extensions\"}],\"multiSelect\":true}," \
  "{\"question\":\"Which database should we use?\",\"header\":\"Database\",\"options\":[" \
  "{\"label\":\"SQLite\",\"description\":\"embedded\",\"preview\":\"db = sqlite3.connect(\\\"app.db\\\")\"}," \
  "{\"label\":\"Postgres\",\"description\":\"server\"}],\"multiSelect\":false}]"

static void
test_ask_user_question_decode (void)
{
  g_autoptr(ClarifyClaudeHook) hook = decode_fixture ("permission-ask-user-question.json");
  ClarifyRequest *request = hook->request;
  ClarifyQuestion *features, *database;

  g_assert_cmpint (hook->action, ==, CLARIFY_CLAUDE_HOOK_ASK);
  g_assert_cmpstr (hook->tool_name, ==, "AskUserQuestion");
  g_assert_cmpstr (hook->transcript_path, ==,
                   "/home/u/.claude/projects/-home-u-proj/d2a870ca-3f1e-4b7a-9c55-1f0e2d3c4b5a.jsonl");
  g_assert_cmpstr (hook->session_id, ==, "d2a870ca-3f1e-4b7a-9c55-1f0e2d3c4b5a");

  /* One request for all questions of the call. */
  g_assert_cmpstr (clarify_request_get_id (request), ==, "claude-code-1");
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);
  g_assert_cmpstr (clarify_request_get_project (request), ==, "proj");
  g_assert_cmpstr (clarify_request_get_session (request), ==, "d2a870ca");
  g_assert_null (clarify_request_get_title (request));
  g_assert_null (clarify_request_get_context (request));
  g_assert_true (clarify_request_get_skippable (request));
  g_assert_cmpstr (clarify_request_get_skip_label (request), ==, "Answer in the Terminal");
  g_assert_true (clarify_request_get_cancellable (request));
  g_assert_null (clarify_request_get_cancel_label (request));

  features = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (features), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_text (features), ==, "Which features should the CLI support?");
  g_assert_cmpstr (clarify_question_get_header (features), ==, "Features");
  g_assert_true (clarify_question_get_allow_other (features));
  g_assert_false (clarify_question_get_skippable (features));
  g_assert_cmpuint (clarify_question_get_n_options (features), ==, 3);
  clarify_test_assert_option (features, 0, "Export to CSV", "Export to CSV", "write a .csv file");
  clarify_test_assert_option (features, 2, "Plugins", "Plugins", "load extensions");

  database = clarify_request_get_question (request, 1);
  g_assert_cmpint (clarify_question_get_kind (database), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_header (database), ==, "Database");
  g_assert_true (clarify_question_get_allow_other (database));
  clarify_test_assert_option (database, 0, "SQLite", "SQLite", "embedded");
  g_assert_cmpstr (clarify_option_get_preview (clarify_question_get_option (database, 0)), ==,
                   "db = sqlite3.connect(\"app.db\")");
  g_assert_null (clarify_option_get_preview (clarify_question_get_option (database, 1)));
}

static void
test_ask_user_question_answers (void)
{
  g_autoptr(ClarifyClaudeHook) hook = decode_fixture ("permission-ask-user-question.json");
  g_autoptr(ClarifyResponse) picked = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) other = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) cancelled = response_new (CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(ClarifyResponse) skipped = response_new (CLARIFY_OUTCOME_SKIPPED);
  g_autofree char *picked_out = NULL;
  g_autofree char *other_out = NULL;
  g_autofree char *cancelled_out = NULL;
  g_autofree char *skipped_out = NULL;

  /* Multi-select labels in the order they were picked, joined by ", "; the
   * picked option's preview goes back as an annotation. */
  add_answer (picked, "q1", NULL, "Plugins", "Export to CSV", NULL);
  add_answer (picked, "q2", NULL, "SQLite", NULL);
  picked_out = encode (hook->request, picked);
  g_assert_cmpstr (picked_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" AUQ_QUESTIONS ","
                   "\"answers\":{\"Which features should the CLI support?\":\"Plugins, Export to CSV\","
                   "\"Which database should we use?\":\"SQLite\"},"
                   "\"annotations\":{\"Which database should we use?\":{\"preview\":\"db = sqlite3.connect(\\\"app.db\\\")\"}}}}}}");

  /* "Other": the typed text is the answer, alone or after the labels. */
  add_answer (other, "q1", "Sync", "Dark mode", NULL);
  add_answer (other, "q2", "  MariaDB ", NULL);
  other_out = encode (hook->request, other);
  g_assert_cmpstr (other_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" AUQ_QUESTIONS ","
                   "\"answers\":{\"Which features should the CLI support?\":\"Dark mode, Sync\","
                   "\"Which database should we use?\":\"MariaDB\"}}}}}");

  /* Cancel is the terminal's Esc: declined, and Claude's turn ends. */
  cancelled_out = encode (hook->request, cancelled);
  g_assert_cmpstr (cancelled_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"deny\",\"message\":\"The user declined to answer in Clarify\",\"interrupt\":true}}}");

  /* "Answer in the Terminal" prints nothing: the terminal's prompt stays. */
  skipped_out = encode (hook->request, skipped);
  g_assert_cmpstr (skipped_out, ==, "");
}

/* ---------------------------------------------------------------------- */
/* Permissions */

static void
test_permission_bash (void)
{
  g_autoptr(ClarifyClaudeHook) hook = decode_fixture ("permission-bash.json");
  g_autoptr(ClarifyResponse) once = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) always = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) denied = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) told = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) skipped = response_new (CLARIFY_OUTCOME_SKIPPED);
  g_autofree char *out = NULL;
  ClarifyRequest *request = hook->request;
  ClarifyQuestion *question;
  g_autofree char *message = NULL;

  g_assert_cmpstr (clarify_request_get_project (request), ==, "proj");
  g_assert_cmpstr (clarify_request_get_session (request), ==, "67dc81a7");
  g_assert_cmpstr (clarify_request_get_context (request), ==, "fetch something");
  g_assert_true (clarify_request_get_skippable (request));
  g_assert_cmpstr (clarify_request_get_skip_label (request), ==, "Answer in the Terminal");
  g_assert_false (clarify_request_get_cancellable (request));
  g_assert_cmpstr (clarify_request_get_summary (request), ==, "Run this command?");

  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);
  question = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_PERMISSION);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "Run this command?");
  g_assert_cmpstr (clarify_question_get_subject (question), ==, "curl -s http://127.0.0.1:9/ ; touch ran-in-proj");
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_cmpstr (clarify_question_get_default_values (question)[0], ==, CLARIFY_PERMISSION_ONCE);
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 3);
  clarify_test_assert_option (question, 0, "Allow once", CLARIFY_PERMISSION_ONCE, NULL);
  clarify_test_assert_option (question, 1, "Always allow", CLARIFY_PERMISSION_ALWAYS,
                 "Adds Bash(curl -s http://127.0.0.1:9/), Bash(touch ran-in-proj *) to "
                 "this project’s local settings (.claude/settings.local.json)");
  clarify_test_assert_option (question, 2, "Deny", CLARIFY_PERMISSION_REJECT, NULL);

  /* A message goes only with a refusal. */
  g_assert_false (clarify_question_check_answer (question, (const char *[]) { CLARIFY_PERMISSION_ONCE, NULL },
                                                 "why", &message));

  add_answer (once, "permission", NULL, CLARIFY_PERMISSION_ONCE, NULL);
  out = encode (request, once);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}");
  g_clear_pointer (&out, g_free);

  /* Always: the suggestions, verbatim. */
  add_answer (always, "permission", NULL, CLARIFY_PERMISSION_ALWAYS, NULL);
  out = encode (request, always);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\","
                   "\"updatedPermissions\":[{\"type\":\"addRules\",\"rules\":["
                   "{\"toolName\":\"Bash\",\"ruleContent\":\"curl -s http://127.0.0.1:9/\"},"
                   "{\"toolName\":\"Bash\",\"ruleContent\":\"touch ran-in-proj *\"}],"
                   "\"behavior\":\"allow\",\"destination\":\"localSettings\"}]}}}");
  g_clear_pointer (&out, g_free);

  add_answer (denied, "permission", NULL, CLARIFY_PERMISSION_REJECT, NULL);
  out = encode (request, denied);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"deny\",\"message\":\"Denied in Clarify\"}}}");
  g_clear_pointer (&out, g_free);

  add_answer (told, "permission", "Use wget, not curl ", CLARIFY_PERMISSION_REJECT, NULL);
  out = encode (request, told);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"deny\",\"message\":\"Use wget, not curl\"}}}");
  g_clear_pointer (&out, g_free);

  out = encode (request, skipped);
  g_assert_cmpstr (out, ==, "");
}

static void
test_permission_tools (void)
{
  struct {
    const char *fixture;
    const char *text;
    const char *subject;
    const char *context;
    const char *always;  /* NULL: no "Always allow" */
  } cases[] = {
    { "permission-edit.json", "Edit this file?", "/home/u/proj/src/main.c", NULL,
      "Switches Claude Code to the permission mode “acceptEdits”" },
    { "permission-write.json", "Edit this file?", "/home/u/proj/NOTES.md", NULL, NULL },
    { "permission-mcp-tool.json", "Use “create_issue” from “github”?",
      "{\n  \"title\" : \"Crash on start\",\n  \"labels\" : [\n    \"bug\"\n  ]\n}", NULL,
      "Adds mcp__github__create_issue to your user settings (~/.claude/settings.json)" },
    { "permission-read-subagent.json", "Allow “Read”?", "{\n  \"file_path\" : \"/tmp/x.log\"\n}",
      "Asked by the sub-agent “Explore”", "Adds /tmp for the rest of this session" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ClarifyClaudeHook) hook = decode_fixture (cases[i].fixture);
      ClarifyQuestion *question = clarify_request_get_question (hook->request, 0);
      guint n_options = clarify_question_get_n_options (question);

      g_test_message ("%s", cases[i].fixture);
      g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_PERMISSION);
      g_assert_cmpstr (clarify_question_get_text (question), ==, cases[i].text);
      g_assert_cmpstr (clarify_question_get_subject (question), ==, cases[i].subject);
      g_assert_cmpstr (clarify_request_get_context (hook->request), ==, cases[i].context);
      clarify_test_assert_option (question, 0, "Allow once", CLARIFY_PERMISSION_ONCE, NULL);
      if (cases[i].always != NULL)
        {
          g_assert_cmpuint (n_options, ==, 3);
          clarify_test_assert_option (question, 1, "Always allow", CLARIFY_PERMISSION_ALWAYS, cases[i].always);
        }
      else
        {
          g_assert_cmpuint (n_options, ==, 2);
        }
      clarify_test_assert_option (question, n_options - 1, "Deny", CLARIFY_PERMISSION_REJECT, NULL);
    }
}

/* ---------------------------------------------------------------------- */
/* Elicitation */

static void
test_elicitation_recorded (void)
{
  g_autoptr(ClarifyClaudeHook) hook = decode_fixture ("elicitation-deploy.json");
  g_autoptr(ClarifyResponse) accepted = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) declined = response_new (CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(ClarifyResponse) skipped = response_new (CLARIFY_OUTCOME_SKIPPED);
  ClarifyRequest *request = hook->request;
  ClarifyQuestion *env, *count;
  const ClarifyValidation *validation;
  g_autofree char *out = NULL;

  /* It holds the terminal: no transcript to watch. */
  g_assert_null (hook->transcript_path);
  g_assert_cmpstr (clarify_request_get_title (request), ==, "The MCP server “elic” asks for your input");
  g_assert_cmpstr (clarify_request_get_context (request), ==, "Deploy where?");
  g_assert_cmpstr (clarify_request_get_skip_label (request), ==, "Answer in the Terminal");
  g_assert_cmpstr (clarify_request_get_cancel_label (request), ==, "Decline");
  g_assert_true (clarify_request_get_skippable (request));
  g_assert_true (clarify_request_get_cancellable (request));

  env = clarify_request_get_question (request, 0);
  g_assert_cmpstr (clarify_question_get_id (env), ==, "env");
  g_assert_cmpint (clarify_question_get_kind (env), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_text (env), ==, "Environment");
  g_assert_false (clarify_question_get_skippable (env));
  clarify_test_assert_option (env, 1, "production", "production", NULL);

  count = clarify_request_get_question (request, 1);
  g_assert_cmpint (clarify_question_get_kind (count), ==, CLARIFY_QUESTION_KIND_NUMBER);
  g_assert_cmpstr (clarify_question_get_text (count), ==, "Replicas");
  g_assert_true (clarify_question_get_skippable (count));
  validation = clarify_question_get_validation (count);
  g_assert_true (validation->has_min && validation->min == 1);
  g_assert_true (validation->has_max && validation->max == 5);
  g_assert_cmpfloat (validation->step, ==, 1);

  /* Exactly what section E saw reach the server. */
  add_answer (accepted, "env", NULL, "staging", NULL);
  add_answer (accepted, "count", NULL, "2", NULL);
  out = encode (request, accepted);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\","
                   "\"content\":{\"env\":\"staging\",\"count\":2}}}");
  g_clear_pointer (&out, g_free);

  out = encode (request, declined);
  g_assert_cmpstr (out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"decline\"}}");
  g_clear_pointer (&out, g_free);

  out = encode (request, skipped);
  g_assert_cmpstr (out, ==, "");
}

static ClarifyQuestion *
question_by_id (ClarifyRequest *request,
                const char     *id)
{
  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    if (g_str_equal (clarify_question_get_id (clarify_request_get_question (request, i)), id))
      return clarify_request_get_question (request, i);

  g_assert_not_reached ();
}

static gboolean
accepts (ClarifyQuestion *question,
         const char      *value)
{
  const char *values[] = { value, NULL };
  g_autofree char *message = NULL;

  return clarify_question_check_answer (question, values, NULL, &message);
}

static void
test_elicitation_shapes (void)
{
  g_autoptr(ClarifyClaudeHook) hook = decode_fixture ("elicitation-all-shapes.json");
  g_autoptr(ClarifyResponse) response = response_new (CLARIFY_OUTCOME_ANSWERED);
  ClarifyRequest *request = hook->request;
  ClarifyQuestion *q;
  const char * const *defaults;
  g_autofree char *out = NULL;
  g_autofree char *message = NULL;

  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 13);
  g_assert_cmpstr (clarify_request_get_project (request), ==, "shop");

  /* Strings: the description is the question when there is no title. */
  q = question_by_id (request, "name");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_text (q), ==, "Your full name");
  g_assert_false (clarify_question_get_skippable (q));
  g_assert_cmpint (clarify_question_get_validation (q)->min_length, ==, 2);
  g_assert_cmpint (clarify_question_get_validation (q)->max_length, ==, 80);

  q = question_by_id (request, "email");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_true (accepts (q, "ada@example.org"));
  g_assert_false (clarify_question_check_answer (q, (const char *[]) { "ada at example", NULL }, NULL, &message));
  g_assert_cmpstr (message, ==, "Please enter an email address.");
  g_clear_pointer (&message, g_free);

  q = question_by_id (request, "site");
  g_assert_cmpstr (clarify_question_get_text (q), ==, "Website");
  g_assert_true (clarify_question_get_skippable (q));
  g_assert_true (accepts (q, "https://example.org/a"));
  g_assert_false (accepts (q, "example org"));

  q = question_by_id (request, "birthday");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_DATE);
  g_assert_cmpstr (clarify_question_get_default_values (q)[0], ==, "2000-01-31");

  q = question_by_id (request, "meeting");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_placeholder (q), ==, "2026-11-25T14:30:00Z");
  g_assert_true (accepts (q, "2026-11-25T14:30:00+01:00"));
  g_assert_true (accepts (q, "2026-11-25T14:30Z"));
  g_assert_false (accepts (q, "2026-11-25 14:30"));

  /* Numbers, with bounds; integers in whole steps. */
  q = question_by_id (request, "age");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_NUMBER);
  g_assert_false (clarify_question_get_skippable (q));
  g_assert_false (accepts (q, "17"));
  g_assert_true (accepts (q, "18.5"));

  q = question_by_id (request, "seats");
  g_assert_cmpstr (clarify_question_get_header (q), ==, "Seats");
  g_assert_cmpstr (clarify_question_get_text (q), ==, "How many seats to book");
  g_assert_cmpstr (clarify_question_get_default_values (q)[0], ==, "2");
  g_assert_false (accepts (q, "2.5"));
  g_assert_false (accepts (q, "9"));

  q = question_by_id (request, "newsletter");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_CONFIRM);
  g_assert_cmpstr (clarify_question_get_default_values (q)[0], ==, "yes");

  /* The five enum shapes of 2025-11-25. */
  q = question_by_id (request, "color");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpuint (clarify_question_get_n_options (q), ==, 3);
  g_assert_cmpstr (clarify_question_get_default_values (q)[0], ==, "Red");

  q = question_by_id (request, "hex");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_SINGLE);
  clarify_test_assert_option (q, 1, "Green", "#00FF00", NULL);
  g_assert_cmpstr (clarify_question_get_default_values (q)[0], ==, "#FF0000");

  q = question_by_id (request, "colors");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_MULTI);
  defaults = clarify_question_get_default_values (q);
  g_assert_cmpuint (g_strv_length ((char **) defaults), ==, 2);
  g_assert_false (clarify_question_check_answer (q, (const char *[]) { "Red", "Green", "Blue", NULL }, NULL, &message));
  g_assert_cmpstr (message, ==, "Please choose at most 2 options.");
  g_clear_pointer (&message, g_free);

  q = question_by_id (request, "hexes");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_MULTI);
  clarify_test_assert_option (q, 0, "Red", "#FF0000", NULL);

  q = question_by_id (request, "size");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_SINGLE);
  clarify_test_assert_option (q, 1, "Large", "l", NULL);

  /* Typed content; what was skipped is left out. */
  add_answer (response, "name", NULL, "Ada Lovelace", NULL);
  add_answer (response, "email", NULL, "ada@example.org", NULL);
  add_answer (response, "site", NULL, "https://example.org/", NULL);
  add_answer (response, "birthday", NULL, "1815-12-10", NULL);
  add_answer (response, "meeting", NULL, "2026-11-25T14:30:00Z", NULL);
  add_answer (response, "age", NULL, "36.5", NULL);
  add_answer (response, "seats", NULL, "3", NULL);
  add_answer (response, "newsletter", NULL, "no", NULL);
  add_answer (response, "color", NULL, "Green", NULL);
  add_answer (response, "hex", NULL, "#00FF00", NULL);
  add_answer (response, "colors", NULL, "Blue", "Red", NULL);
  clarify_response_add_answer (response, "hexes", NULL, NULL, TRUE);
  add_answer (response, "size", NULL, "l", NULL);
  out = encode (request, response);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\",\"content\":{"
                   "\"name\":\"Ada Lovelace\",\"email\":\"ada@example.org\",\"site\":\"https://example.org/\","
                   "\"birthday\":\"1815-12-10\",\"meeting\":\"2026-11-25T14:30:00Z\",\"age\":36.5,\"seats\":3,"
                   "\"newsletter\":false,\"color\":\"Green\",\"hex\":\"#00FF00\",\"colors\":[\"Blue\",\"Red\"],"
                   "\"size\":\"l\"}}}");
}

static void
test_elicitation_url (void)
{
  g_autoptr(ClarifyClaudeHook) hook = decode_fixture ("elicitation-url.json");
  g_autoptr(ClarifyResponse) yes = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) no = response_new (CLARIFY_OUTCOME_ANSWERED);
  ClarifyQuestion *question = clarify_request_get_question (hook->request, 0);
  g_autofree char *yes_out = NULL;
  g_autofree char *no_out = NULL;

  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_CONFIRM);
  g_assert_cmpstr (clarify_question_get_subject (question), ==, "https://pay.example.com/checkout?session=abc");
  g_assert_cmpstr (clarify_request_get_context (hook->request), ==, "Finish the payment in your browser");

  add_answer (yes, "open", NULL, "yes", NULL);
  yes_out = encode (hook->request, yes);
  g_assert_cmpstr (yes_out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\"}}");
  add_answer (no, "open", NULL, "no", NULL);
  no_out = encode (hook->request, no);
  g_assert_cmpstr (no_out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"decline\"}}");
}

/* ---------------------------------------------------------------------- */
/* Notifications and bad input */

static void
test_notifications (void)
{
  g_autoptr(ClarifyClaudeHook) idle = decode_fixture ("notification-idle.json");
  g_autoptr(ClarifyClaudeHook) other = decode_fixture ("notification-permission.json");

  g_assert_cmpint (idle->action, ==, CLARIFY_CLAUDE_HOOK_IDLE_PROMPT);
  g_assert_null (idle->request);
  g_assert_cmpstr (idle->project, ==, "proj");
  g_assert_cmpstr (idle->message, ==, "Claude is waiting for your input");
  g_assert_cmpint (other->action, ==, CLARIFY_CLAUDE_HOOK_IGNORED);
  g_assert_null (other->request);
}

static const struct {
  const char *fixture;
  const char *message;
} bad_inputs[] = {
  { "bad-not-json.txt", "The hook input is not JSON: " },
  { "bad-array.json", "The hook input is not a JSON object" },
  { "bad-no-event.json", "The hook input has no “hook_event_name”" },
  { "bad-unknown-event.json", "Clarify does not answer the hook “PostToolUse” (only PermissionRequest, Elicitation and Notification)" },
  { "bad-no-tool-input.json", "The PermissionRequest hook input has no “tool_input”" },
  { "bad-nested-form.json", "the field “address” has the type “object”, which a form cannot ask for" },
};

static void
test_bad_input (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      g_autofree char *path = g_build_filename ("claude-code", bad_inputs[i].fixture, NULL);
      g_autofree char *input = clarify_test_load_fixture (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyClaudeHook) hook = clarify_claude_hook_decode (input, -1, "claude-code-1", &error);

      g_assert_null (hook);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, bad_inputs[i].message));
    }
}

/* ---------------------------------------------------------------------- */
/* The backend */

typedef struct
{
  ClarifyInbox   *inbox;
  ClarifyBackend *backend;
  GPtrArray      *added;      /* ClarifyRequest */
  char           *dir;
} Fixture;

/* One hook call in flight. */
typedef struct
{
  gboolean  done;
  char     *output;
  GError   *error;
} HookRun;

static void
on_request_added (ClarifyInbox   *inbox,
                  ClarifyRequest *request,
                  Fixture        *f)
{
  g_ptr_array_add (f->added, g_object_ref (request));
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->inbox = clarify_inbox_new ();
  f->backend = clarify_claude_code_backend_new ();
  clarify_backend_set_inbox (f->backend, f->inbox);
  clarify_backend_start (f->backend);
  f->added = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (f->inbox, "request-added", G_CALLBACK (on_request_added), f);
  f->dir = g_dir_make_tmp ("clarify-test-claude-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
remove_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (f->inbox, f);
  clarify_backend_stop (f->backend);
  g_assert_finalize_object (f->backend);
  g_clear_object (&f->inbox);
  g_clear_pointer (&f->added, g_ptr_array_unref);
  remove_dir (f->dir);
  g_free (f->dir);
}

static void
hook_run_free (HookRun *run)
{
  g_free (run->output);
  g_clear_error (&run->error);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HookRun, hook_run_free)

static void
hook_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  HookRun *run = data;

  run->output = clarify_claude_code_backend_handle_hook_finish (CLARIFY_CLAUDE_CODE_BACKEND (object), result, &run->error);
  run->done = TRUE;
}

static gboolean
run_done (gpointer data)
{
  return ((HookRun *) data)->done;
}

/* The fixture's stdin with its transcript in the test's folder. */
static char *
input_with_transcript (Fixture    *f,
                       const char *fixture,
                       const char *transcript)
{
  g_autofree char *relative = g_build_filename ("claude-code", fixture, NULL);
  g_autofree char *input = clarify_test_load_fixture (relative);
  g_autoptr(JsonNode) node = clarify_json_parse (input, -1, NULL);
  g_autofree char *path = g_build_filename (f->dir, transcript, NULL);

  json_object_set_string_member (json_node_get_object (node), "transcript_path", path);

  return clarify_json_to_string (node);
}

static HookRun *
start_hook (Fixture      *f,
            const char   *input,
            GCancellable *cancellable)
{
  HookRun *run = g_new0 (HookRun, 1);

  clarify_claude_code_backend_handle_hook_async (CLARIFY_CLAUDE_CODE_BACKEND (f->backend), input, cancellable,
                                                 hook_done_cb, run);

  return run;
}

typedef struct
{
  Fixture *f;
  guint    n;
} AddedWait;

static gboolean
has_added (gpointer data)
{
  AddedWait *wait = data;

  return wait->f->added->len >= wait->n;
}

/* The @n-th request shown (1-based), once it is there. */
static ClarifyRequest *
wait_request (Fixture *f,
              guint    n)
{
  AddedWait wait = { f, n };

  g_assert_true (clarify_test_loop_until (has_added, &wait, WAIT_MS));

  return f->added->pdata[n - 1];
}

static char *
finish_hook (HookRun *run)
{
  g_assert_true (clarify_test_loop_until (run_done, run, WAIT_MS));
  g_assert_no_error (run->error);
  g_assert_nonnull (run->output);

  return g_steal_pointer (&run->output);
}

static void
append_line (Fixture    *f,
             const char *transcript,
             const char *fixture)
{
  g_autofree char *path = g_build_filename (f->dir, transcript, NULL);
  g_autofree char *relative = g_build_filename ("claude-code", fixture, NULL);
  g_autofree char *line = clarify_test_load_fixture (relative);
  FILE *file = fopen (path, "a");

  /* As Claude Code appends: open, write, close. */
  g_assert_nonnull (file);
  g_assert_cmpint (fputs (line, file), >=, 0);
  g_assert_cmpint (fclose (file), ==, 0);
}

static gboolean
request_is_done (gpointer data)
{
  return clarify_request_get_state (data) == CLARIFY_REQUEST_DONE;
}

static void
assert_answered_in_terminal (ClarifyRequest *request)
{
  g_assert_true (clarify_test_loop_until (request_is_done, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_WITHDRAWN);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_ANSWERED_IN_TERMINAL);
}

static void
test_backend_answered (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-ask-user-question.json");
  g_autoptr(HookRun) run = start_hook (f, input, NULL);
  g_autoptr(ClarifyResponse) response = NULL;
  g_autofree char *output = NULL;
  ClarifyRequest *request = wait_request (f, 1);

  g_assert_cmpstr (clarify_request_get_id (request), ==, "claude-code-1");
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "Claude Code");
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "claude-code");
  g_assert_cmpuint (clarify_inbox_get_n_pending (f->inbox), ==, 1);

  response = clarify_response_new ("claude-code-1", CLARIFY_OUTCOME_ANSWERED);
  add_answer (response, "q1", NULL, "Dark mode", NULL);
  add_answer (response, "q2", NULL, "Postgres", NULL);
  clarify_inbox_answer (f->inbox, request, response);

  output = finish_hook (run);
  g_assert_cmpstr (output, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" AUQ_QUESTIONS ","
                   "\"answers\":{\"Which features should the CLI support?\":\"Dark mode\","
                   "\"Which database should we use?\":\"Postgres\"}}}}}");
  g_assert_true (clarify_test_loop_until (request_is_done, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_ANSWERED);
  /* Its session's transcript is no longer watched. */
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 0);
}

static void
idle_prompt_cb (ClarifyBackend *backend,
                const char     *project,
                const char     *session_id,
                const char     *message,
                GPtrArray      *seen)
{
  g_ptr_array_add (seen, g_strdup_printf ("%s|%s|%s", project, session_id, message));
}

static void
test_backend_notifications (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *idle = clarify_test_load_fixture ("claude-code/notification-idle.json");
  g_autofree char *other = clarify_test_load_fixture ("claude-code/notification-permission.json");
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(HookRun) idle_run = NULL;
  g_autoptr(HookRun) other_run = NULL;
  g_autofree char *idle_out = NULL;
  g_autofree char *other_out = NULL;

  g_signal_connect (f->backend, "idle-prompt", G_CALLBACK (idle_prompt_cb), seen);
  idle_run = start_hook (f, idle, NULL);
  other_run = start_hook (f, other, NULL);
  idle_out = finish_hook (idle_run);
  other_out = finish_hook (other_run);
  g_signal_handlers_disconnect_by_data (f->backend, seen);

  g_assert_cmpstr (idle_out, ==, "");
  g_assert_cmpstr (other_out, ==, "");
  g_assert_cmpuint (seen->len, ==, 1);
  g_assert_cmpstr (seen->pdata[0], ==, "proj|67dc81a7-0b1c-4d2e-8f3a-5b6c7d8e9f01|Claude is waiting for your input");
  g_assert_cmpuint (f->added->len, ==, 0);
}

static void
test_backend_bad_input (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(HookRun) run = start_hook (f, "{\"hook_event_name\":\"Stop\"}", NULL);

  g_assert_true (clarify_test_loop_until (run_done, run, WAIT_MS));
  g_assert_error (run->error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  g_assert_cmpuint (f->added->len, ==, 0);
}

/* The terminal answers while the dialog is open: the tool call is in the
 * transcript already when the hook comes (section E: Claude Code writes it
 * at once), its result only afterwards. */
static void
test_terminal_first (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *input = input_with_transcript (f, "permission-bash.json", "s1.jsonl");
  g_autoptr(HookRun) run = NULL;
  g_autofree char *output = NULL;
  ClarifyRequest *request;

  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  run = start_hook (f, input, NULL);
  request = wait_request (f, 1);
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 1);

  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  assert_answered_in_terminal (request);
  output = finish_hook (run);
  g_assert_cmpstr (output, ==, "");
  /* The monitor went with the last request of its session. */
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 0);
}

/* The tool call reaches the transcript only after the hook. */
static void
test_terminal_first_late_call (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *input = input_with_transcript (f, "permission-bash.json", "s1.jsonl");
  g_autoptr(HookRun) run = start_hook (f, input, NULL);
  g_autofree char *output = NULL;
  ClarifyRequest *request = wait_request (f, 1);

  /* No file yet: the monitor sees it created. */
  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  assert_answered_in_terminal (request);
  output = finish_hook (run);
  g_assert_cmpstr (output, ==, "");
}

/* The terminal was quicker than the hook: nothing is shown at all. */
static void
test_terminal_already_answered (Fixture       *f,
                                gconstpointer  data)
{
  g_autofree char *input = input_with_transcript (f, "permission-bash.json", "s1.jsonl");
  g_autoptr(HookRun) run = NULL;
  g_autofree char *output = NULL;

  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  run = start_hook (f, input, NULL);
  output = finish_hook (run);

  g_assert_cmpstr (output, ==, "");
  g_assert_cmpuint (f->added->len, ==, 0);
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 0);
}

/* Two sessions at once: each its own request and transcript; one answered
 * in its terminal, the other in Clarify. */
static void
test_two_sessions (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *bash = input_with_transcript (f, "permission-bash.json", "s1.jsonl");
  g_autofree char *edit = input_with_transcript (f, "permission-edit.json", "s2.jsonl");
  g_autoptr(HookRun) bash_run = NULL;
  g_autoptr(HookRun) edit_run = NULL;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autofree char *bash_out = NULL;
  g_autofree char *edit_out = NULL;
  ClarifyRequest *bash_request, *edit_request;

  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  bash_run = start_hook (f, bash, NULL);
  edit_run = start_hook (f, edit, NULL);
  bash_request = wait_request (f, 1);
  edit_request = wait_request (f, 2);
  g_assert_cmpstr (clarify_request_get_id (bash_request), !=, clarify_request_get_id (edit_request));
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 2);

  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  assert_answered_in_terminal (bash_request);
  bash_out = finish_hook (bash_run);
  g_assert_cmpstr (bash_out, ==, "");
  g_assert_cmpint (clarify_request_get_state (edit_request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 1);

  response = clarify_response_new (clarify_request_get_id (edit_request), CLARIFY_OUTCOME_ANSWERED);
  add_answer (response, "permission", NULL, CLARIFY_PERMISSION_ALWAYS, NULL);
  clarify_inbox_answer (f->inbox, edit_request, response);
  edit_out = finish_hook (edit_run);
  g_assert_cmpstr (edit_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\","
                   "\"updatedPermissions\":[{\"type\":\"setMode\",\"mode\":\"acceptEdits\",\"destination\":\"session\"}]}}}");
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 0);
}

/* The hook process went away (Claude Code's timeout, an interrupt). */
static void
test_caller_left (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *input = input_with_transcript (f, "permission-bash.json", "s1.jsonl");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(HookRun) run = start_hook (f, input, cancellable);
  ClarifyRequest *request = wait_request (f, 1);

  g_cancellable_cancel (cancellable);
  g_assert_true (clarify_test_loop_until (request_is_done, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_CALLER_LEFT);
  g_assert_true (clarify_test_loop_until (run_done, run, WAIT_MS));
  g_assert_error (run->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 0);
}

/* ---------------------------------------------------------------------- */
/* `clarify hook claude-code` over the session bus */

#define ALLOW_ONCE \
  "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}\n"

/* The stand-in app: the D-Bus API with the Claude Code backend, as the
 * application exports them. Started by D-Bus activation (with --activated)
 * or by the hook itself, it allows the first request once and leaves; with
 * CLARIFY_TEST_SERVE=hold it answers nothing and says "asked" instead;
 * with CLARIFY_TEST_SERVE=mute it never owns the name. */
typedef struct
{
  ClarifyInbox *inbox;
  GMainLoop    *loop;
  gboolean      hold;
} Serve;

static void
serve_request_added_cb (ClarifyInbox   *inbox,
                        ClarifyRequest *request,
                        Serve          *serve)
{
  g_autoptr(ClarifyResponse) response = NULL;

  g_print ("asked\n");
  fflush (stdout);
  if (serve->hold)
    return;

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  add_answer (response, "permission", NULL, CLARIFY_PERMISSION_ONCE, NULL);
  clarify_inbox_answer (inbox, request, response);
}

static void
serve_delivered_cb (ClarifyOutbox   *outbox,
                    ClarifyRequest  *request,
                    ClarifyResponse *response,
                    Serve           *serve)
{
  /* Let the reply go out, then leave. */
  g_timeout_add (300, (GSourceFunc) (GCallback) g_main_loop_quit, serve->loop);
}

static int
serve (int    argc,
       char **argv)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(ClarifyBackend) api = NULL;
  g_autoptr(ClarifyBackend) hooks = NULL;
  Serve serve = { 0 };

  if (argc == 4 && g_str_equal (argv[2], "--activated") && g_file_test (argv[3], G_FILE_TEST_EXISTS))
    return 1;
  /* An app that starts but never gets as far as its bus name. */
  if (g_strcmp0 (g_getenv ("CLARIFY_TEST_SERVE"), "mute") == 0)
    {
      g_usleep (3 * G_USEC_PER_SEC);
      return 0;
    }

  /* Activated, the bus to use is the starter's. */
  bus = g_bus_get_sync (g_getenv ("DBUS_STARTER_ADDRESS") != NULL ? G_BUS_TYPE_STARTER : G_BUS_TYPE_SESSION,
                        NULL, NULL);
  if (bus == NULL)
    return 1;

  serve.inbox = clarify_inbox_new ();
  serve.loop = g_main_loop_new (NULL, FALSE);
  serve.hold = g_strcmp0 (g_getenv ("CLARIFY_TEST_SERVE"), "hold") == 0;
  g_signal_connect (serve.inbox, "request-added", G_CALLBACK (serve_request_added_cb), &serve);
  g_signal_connect (clarify_inbox_get_outbox (serve.inbox), "delivered", G_CALLBACK (serve_delivered_cb), &serve);

  api = clarify_dbus_backend_new (bus, NULL);
  hooks = clarify_claude_code_backend_new ();
  clarify_backend_set_inbox (api, serve.inbox);
  clarify_backend_set_inbox (hooks, serve.inbox);
  clarify_dbus_backend_set_hook_backend (CLARIFY_DBUS_BACKEND (api), CLARIFY_CLAUDE_CODE_BACKEND (hooks));
  clarify_backend_start (hooks);
  clarify_backend_start (api);
  g_bus_own_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL, NULL, NULL);

  /* Never linger if the test went away. */
  g_timeout_add_seconds (30, (GSourceFunc) (GCallback) g_main_loop_quit, serve.loop);
  g_main_loop_run (serve.loop);

  g_signal_handlers_disconnect_by_data (serve.inbox, &serve);
  g_signal_handlers_disconnect_by_data (clarify_inbox_get_outbox (serve.inbox), &serve);
  clarify_backend_stop (api);
  clarify_backend_stop (hooks);
  g_dbus_connection_flush_sync (bus, NULL, NULL);
  g_clear_object (&serve.inbox);
  g_main_loop_unref (serve.loop);

  return 0;
}

typedef struct
{
  gboolean owned;
} NameState;

static void
name_appeared_cb (GDBusConnection *bus,
                  const char      *name,
                  const char      *owner,
                  gpointer         data)
{
  ((NameState *) data)->owned = TRUE;
}

static void
name_vanished_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  ((NameState *) data)->owned = FALSE;
}

static gboolean
name_is_owned (gpointer data)
{
  return ((NameState *) data)->owned;
}

static gboolean
name_is_free (gpointer data)
{
  return !((NameState *) data)->owned;
}

/* Waits until Clarify's name is (or is not) owned, as @owned says. */
static void
wait_name (gboolean owned)
{
  NameState state = { !owned };
  guint watch = g_bus_watch_name (G_BUS_TYPE_SESSION, CLARIFY_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                  name_appeared_cb, name_vanished_cb, &state, NULL);

  g_assert_true (clarify_test_loop_until (owned ? name_is_owned : name_is_free, &state, WAIT_MS));
  g_bus_unwatch_name (watch);
}

/* `test-claude-code hook claude-code` with @input; @no_start keeps it
 * from starting the app itself. */
static ClarifyTestRun *
start_hook_cli (const char *input,
                gboolean    no_start)
{
  const char *argv[] = { test_binary, "hook", "claude-code", NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);

  if (no_start)
    g_subprocess_launcher_setenv (launcher, "CLARIFY_HOOK_TEST_NO_START", "1", TRUE);

  return clarify_test_run_spawn (launcher, input, argv);
}

/* This process is the running app. */
typedef struct
{
  GDBusConnection *bus;
  ClarifyInbox    *inbox;
  ClarifyBackend  *api;
  ClarifyBackend  *hooks;
  GPtrArray       *added;
  guint            owner_id;
  NameState        name;
} AppFixture;

static void
app_request_added (ClarifyInbox   *inbox,
                   ClarifyRequest *request,
                   AppFixture     *f)
{
  g_ptr_array_add (f->added, g_object_ref (request));
}

static void
name_acquired_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  ((NameState *) data)->owned = TRUE;
}

static void
app_set_up (AppFixture    *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  f->inbox = clarify_inbox_new ();
  f->added = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (f->inbox, "request-added", G_CALLBACK (app_request_added), f);

  /* The objects first, then the name: as the application does. */
  f->api = clarify_dbus_backend_new (f->bus, NULL);
  f->hooks = clarify_claude_code_backend_new ();
  clarify_backend_set_inbox (f->api, f->inbox);
  clarify_backend_set_inbox (f->hooks, f->inbox);
  clarify_dbus_backend_set_hook_backend (CLARIFY_DBUS_BACKEND (f->api), CLARIFY_CLAUDE_CODE_BACKEND (f->hooks));
  clarify_backend_start (f->hooks);
  clarify_backend_start (f->api);
  f->owner_id = g_bus_own_name_on_connection (f->bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
                                              name_acquired_cb, NULL, &f->name, NULL);
  g_assert_true (clarify_test_loop_until (name_is_owned, &f->name, WAIT_MS));
}

static void
app_tear_down (AppFixture    *f,
               gconstpointer  data)
{
  g_bus_unown_name (f->owner_id);
  wait_name (FALSE);
  g_signal_handlers_disconnect_by_data (f->inbox, f);
  clarify_backend_stop (f->api);
  clarify_backend_stop (f->hooks);
  g_clear_object (&f->api);
  g_clear_object (&f->hooks);
  g_clear_object (&f->inbox);
  g_clear_pointer (&f->added, g_ptr_array_unref);
  g_clear_object (&f->bus);
}

static gboolean
app_has_request (gpointer data)
{
  return ((AppFixture *) data)->added->len > 0;
}

static void
test_cli_answered (AppFixture    *f,
                   gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyRequest *request;

  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "Claude Code");
  g_assert_cmpstr (clarify_request_get_project (request), ==, "proj");

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  add_answer (response, "permission", "Not on this machine", CLARIFY_PERMISSION_REJECT, NULL);
  clarify_inbox_answer (f->inbox, request, response);

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"deny\",\"message\":\"Not on this machine\"}}}\n");
  g_assert_cmpstr (run->err, ==, "");
}

/* Printing nothing: the terminal's own prompt stays. */
static void
test_cli_terminal (AppFixture    *f,
                   gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/elicitation-deploy.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyRequest *request;

  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];
  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_SKIPPED);
  clarify_inbox_answer (f->inbox, request, response);

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "");
}

/* Claude Code gave up on the hook (its timeout) or was interrupted. */
static void
test_cli_hook_killed (AppFixture    *f,
                      gconstpointer  data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-ask-user-question.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);
  ClarifyRequest *request;

  g_assert_true (clarify_test_loop_until (app_has_request, f, WAIT_MS));
  request = f->added->pdata[0];
  g_subprocess_send_signal (run->process, SIGTERM);
  g_assert_true (clarify_test_loop_until (request_is_done, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_CALLER_LEFT);
  g_assert_true (clarify_test_loop_until (clarify_test_run_is_done, run, WAIT_MS));
}

/* Bad input: a clear message, nothing printed, exit 0, Clarify untouched. */
static void
test_cli_bad_input (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      g_autofree char *path = g_build_filename ("claude-code", bad_inputs[i].fixture, NULL);
      g_autofree char *input = clarify_test_load_fixture (path);
      g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);

      g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
      g_assert_cmpstr (run->out, ==, "");
      g_assert_true (g_str_has_prefix (run->err, "clarify hook: "));
      g_assert_nonnull (strstr (run->err, bad_inputs[i].message));
    }
}

/* Not even misconfigured hooks block Claude Code (exit 2 would deny). */
static void
test_cli_bad_arguments (void)
{
  const char *argv[] = { test_binary, "hook", "codex", NULL };
  g_autoptr(ClarifyTestRun) run = clarify_test_run_spawn (NULL, "{}", argv);

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "unknown agent “codex”"));
}

/* Notifications Clarify does not show need no Clarify. */
static void
test_cli_ignored (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/notification-permission.json");
  g_autoptr(ClarifyTestRun) run = NULL;

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  run = start_hook_cli (input, TRUE);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "");
  g_unlink (refuse_flag);
}

/* Nobody owns the name: D-Bus activation starts the app. */
static void
test_cli_activation (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = start_hook_cli (input, TRUE);

  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, ALLOW_ONCE);
  wait_name (FALSE);
}

/* No activation (no service file works): the hook starts this same
 * program as the app, `--gapplication-service`, itself. */
static void
test_cli_starts_clarify (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = NULL;

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  run = start_hook_cli (input, FALSE);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, ALLOW_ONCE);
  g_unlink (refuse_flag);
  wait_name (FALSE);
}

/* Clarify cannot be reached: the terminal alone asks, as before. */
static void
test_cli_unreachable (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(ClarifyTestRun) run = NULL;
  gint64 start;

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  start = g_get_monotonic_time ();
  run = start_hook_cli (input, TRUE);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_test_message ("gave up after %.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "cannot start Clarify"));
  g_unlink (refuse_flag);
}

/* Clarify starts but is not there within the second the hook allows. */
static void
test_cli_slow_start (void)
{
  const char *argv[] = { test_binary, "hook", "claude-code", NULL };
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(ClarifyTestRun) run = NULL;
  gint64 start;

  g_assert_true (g_file_set_contents (refuse_flag, "", 0, NULL));
  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_SERVE", "mute", TRUE);
  start = g_get_monotonic_time ();
  run = clarify_test_run_spawn (launcher, input, argv);
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_test_message ("gave up after %.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "did not start in time"));
  g_unlink (refuse_flag);
}

/* Clarify goes away while the hook waits: nothing printed, exit 0. */
static void
test_cli_clarify_gone (void)
{
  const char *argv[] = { test_binary, "--gapplication-service", NULL };
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-bash.json");
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) server_out = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *asked = NULL;

  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_SERVE", "hold", TRUE);
  server = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  wait_name (TRUE);

  run = start_hook_cli (input, TRUE);
  /* It says "asked" once the request is there (read while the loop
   * feeds the hook its input). */
  server_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  asked = clarify_test_read_line (server_out, WAIT_MS);
  g_assert_cmpstr (asked, ==, "asked");

  g_subprocess_force_exit (server);
  g_assert_true (g_subprocess_wait (server, NULL, NULL));
  g_assert_cmpint (clarify_test_run_finish (run, WAIT_MS), ==, 0);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_true (g_str_has_prefix (run->err, "clarify hook: "));
  wait_name (FALSE);
}

/* ---------------------------------------------------------------------- */

int
main (int   argc,
      char *argv[])
{
  GTestDBus *test_bus;
  g_autofree char *service_dir = NULL;
  g_autofree char *service_file = NULL;
  g_autofree char *service = NULL;
  int exit_status;
  int result;

  setlocale (LC_ALL, "");
  /* Run as the stand-in app (the way `clarify` is started: D-Bus
   * activation or the hook) or as `clarify hook …`, as src/main.c does. */
  if (argc > 1 && g_str_equal (argv[1], "--gapplication-service"))
    {
      clarify_test_log_init ();
      return serve (argc, argv);
    }
  if (clarify_cli_handle (argc, argv, &exit_status))
    return exit_status;

  test_binary = g_canonicalize_filename (argv[0], NULL);

  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* A private session bus whose service file starts this binary as the app. */
  service_dir = g_dir_make_tmp ("clarify-test-claude-bus-XXXXXX", NULL);
  g_assert_nonnull (service_dir);
  refuse_flag = g_build_filename (service_dir, "refuse", NULL);
  service_file = g_build_filename (service_dir, CLARIFY_DBUS_NAME ".service", NULL);
  service = g_strdup_printf ("[D-BUS Service]\nName=%s\nExec=%s --gapplication-service --activated %s\n",
                             CLARIFY_DBUS_NAME, test_binary, refuse_flag);
  g_assert_true (g_file_set_contents (service_file, service, -1, NULL));
  test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (test_bus, service_dir);
  g_test_dbus_up (test_bus);

  g_test_add_func ("/claude-code/ask-user-question/decode", test_ask_user_question_decode);
  g_test_add_func ("/claude-code/ask-user-question/answers", test_ask_user_question_answers);
  g_test_add_func ("/claude-code/permission/bash", test_permission_bash);
  g_test_add_func ("/claude-code/permission/tools", test_permission_tools);
  g_test_add_func ("/claude-code/elicitation/recorded", test_elicitation_recorded);
  g_test_add_func ("/claude-code/elicitation/shapes", test_elicitation_shapes);
  g_test_add_func ("/claude-code/elicitation/url", test_elicitation_url);
  g_test_add_func ("/claude-code/notifications", test_notifications);
  g_test_add_func ("/claude-code/bad-input", test_bad_input);

#define ADD(path, func) g_test_add ("/claude-code/backend/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("answered", test_backend_answered);
  ADD ("notifications", test_backend_notifications);
  ADD ("bad-input", test_backend_bad_input);
  ADD ("terminal-first", test_terminal_first);
  ADD ("terminal-first-late-call", test_terminal_first_late_call);
  ADD ("terminal-already-answered", test_terminal_already_answered);
  ADD ("two-sessions", test_two_sessions);
  ADD ("caller-left", test_caller_left);
#undef ADD

#define ADD(path, func) g_test_add ("/claude-code/cli/" path, AppFixture, NULL, app_set_up, func, app_tear_down)
  ADD ("answered", test_cli_answered);
  ADD ("terminal", test_cli_terminal);
  ADD ("hook-killed", test_cli_hook_killed);
#undef ADD
  g_test_add_func ("/claude-code/cli/bad-input", test_cli_bad_input);
  g_test_add_func ("/claude-code/cli/bad-arguments", test_cli_bad_arguments);
  g_test_add_func ("/claude-code/cli/ignored", test_cli_ignored);
  g_test_add_func ("/claude-code/cli/activation", test_cli_activation);
  g_test_add_func ("/claude-code/cli/starts-clarify", test_cli_starts_clarify);
  g_test_add_func ("/claude-code/cli/unreachable", test_cli_unreachable);
  g_test_add_func ("/claude-code/cli/slow-start", test_cli_slow_start);
  g_test_add_func ("/claude-code/cli/clarify-gone", test_cli_clarify_gone);

  result = g_test_run ();
  /* Only stopped, never finalized: finalizing waits for the shared
   * connection to go, which GDBus keeps alive past the last test. */
  g_test_dbus_stop (test_bus);
  g_unlink (service_file);
  g_rmdir (service_dir);

  return result;
}
