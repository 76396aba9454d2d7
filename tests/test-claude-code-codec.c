/* test-claude-code-codec.c: Claude Code's hook inputs and outputs
 *
 * The hook inputs are section E's stdin samples (tests/fixtures/claude-code,
 * see the README there); each is decoded into a request, answered as the
 * dialog would, and the hook's stdout compared byte for byte with the shape
 * section E records.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-claude-code-codec.h"
#include "clarify-error.h"
#include "clarify-test-claude-code.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"
#include "clarify-validate.h"

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
  clarify_test_add_answer (picked, "q1", NULL, "Plugins", "Export to CSV", NULL);
  clarify_test_add_answer (picked, "q2", NULL, "SQLite", NULL);
  picked_out = encode (hook->request, picked);
  g_assert_cmpstr (picked_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" CLARIFY_TEST_AUQ_QUESTIONS ","
                   "\"answers\":{\"Which features should the CLI support?\":\"Plugins, Export to CSV\","
                   "\"Which database should we use?\":\"SQLite\"},"
                   "\"annotations\":{\"Which database should we use?\":{\"preview\":\"db = sqlite3.connect(\\\"app.db\\\")\"}}}}}}");

  /* "Other": the typed text is the answer, alone or after the labels. */
  clarify_test_add_answer (other, "q1", "Sync", "Dark mode", NULL);
  clarify_test_add_answer (other, "q2", "  MariaDB ", NULL);
  other_out = encode (hook->request, other);
  g_assert_cmpstr (other_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" CLARIFY_TEST_AUQ_QUESTIONS ","
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

/* A note goes in annotations[question].notes, trimmed, before the picked
 * option's preview; a question without a note gets no entry. */
static void
test_ask_user_question_notes (void)
{
  g_autoptr(ClarifyClaudeHook) hook = decode_fixture ("permission-ask-user-question.json");
  g_autoptr(ClarifyResponse) both = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) one = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) blank = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autofree char *both_out = NULL;
  g_autofree char *one_out = NULL;
  g_autofree char *blank_out = NULL;

  for (guint i = 0; i < clarify_request_get_n_questions (hook->request); i++)
    g_assert_true (clarify_question_get_takes_note (clarify_request_get_question (hook->request, i)));

  clarify_test_add_answer (both, "q1", NULL, "Dark mode", NULL);
  clarify_response_set_note (both, "q1", "  only if it is cheap\n");
  clarify_test_add_answer (both, "q2", NULL, "SQLite", NULL);
  clarify_response_set_note (both, "q2", "for the prototype");
  both_out = encode (hook->request, both);
  g_assert_cmpstr (both_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" CLARIFY_TEST_AUQ_QUESTIONS ","
                   "\"answers\":{\"Which features should the CLI support?\":\"Dark mode\","
                   "\"Which database should we use?\":\"SQLite\"},"
                   "\"annotations\":{\"Which features should the CLI support?\":{\"notes\":\"only if it is cheap\"},"
                   "\"Which database should we use?\":{\"notes\":\"for the prototype\","
                   "\"preview\":\"db = sqlite3.connect(\\\"app.db\\\")\"}}}}}}");

  /* A note on a question whose answer has no preview, and none on the other. */
  clarify_test_add_answer (one, "q1", NULL, "Plugins", NULL);
  clarify_test_add_answer (one, "q2", NULL, "Postgres", NULL);
  clarify_response_set_note (one, "q2", "Ünïcode “quotes”");
  one_out = encode (hook->request, one);
  g_assert_cmpstr (one_out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" CLARIFY_TEST_AUQ_QUESTIONS ","
                   "\"answers\":{\"Which features should the CLI support?\":\"Plugins\","
                   "\"Which database should we use?\":\"Postgres\"},"
                   "\"annotations\":{\"Which database should we use?\":{\"notes\":\"Ünïcode “quotes”\"}}}}}}");

  /* A blank note is none: no annotations at all. */
  clarify_test_add_answer (blank, "q1", NULL, "Plugins", NULL);
  clarify_response_set_note (blank, "q1", " \t ");
  clarify_test_add_answer (blank, "q2", NULL, "Postgres", NULL);
  blank_out = encode (hook->request, blank);
  g_assert_null (strstr (blank_out, "annotations"));
  g_assert_null (clarify_response_lookup_answer (blank, "q1")->note);
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

  clarify_test_add_answer (once, "permission", NULL, CLARIFY_PERMISSION_ONCE, NULL);
  out = encode (request, once);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}");
  g_clear_pointer (&out, g_free);

  /* Always: the suggestions, verbatim. */
  clarify_test_add_answer (always, "permission", NULL, CLARIFY_PERMISSION_ALWAYS, NULL);
  out = encode (request, always);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\","
                   "\"updatedPermissions\":[{\"type\":\"addRules\",\"rules\":["
                   "{\"toolName\":\"Bash\",\"ruleContent\":\"curl -s http://127.0.0.1:9/\"},"
                   "{\"toolName\":\"Bash\",\"ruleContent\":\"touch ran-in-proj *\"}],"
                   "\"behavior\":\"allow\",\"destination\":\"localSettings\"}]}}}");
  g_clear_pointer (&out, g_free);

  clarify_test_add_answer (denied, "permission", NULL, CLARIFY_PERMISSION_REJECT, NULL);
  out = encode (request, denied);
  g_assert_cmpstr (out, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"deny\",\"message\":\"Denied in Clarify\"}}}");
  g_clear_pointer (&out, g_free);

  clarify_test_add_answer (told, "permission", "Use wget, not curl ", CLARIFY_PERMISSION_REJECT, NULL);
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
  clarify_test_add_answer (accepted, "env", NULL, "staging", NULL);
  clarify_test_add_answer (accepted, "count", NULL, "2", NULL);
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
  clarify_test_add_answer (response, "name", NULL, "Ada Lovelace", NULL);
  clarify_test_add_answer (response, "email", NULL, "ada@example.org", NULL);
  clarify_test_add_answer (response, "site", NULL, "https://example.org/", NULL);
  clarify_test_add_answer (response, "birthday", NULL, "1815-12-10", NULL);
  clarify_test_add_answer (response, "meeting", NULL, "2026-11-25T14:30:00Z", NULL);
  clarify_test_add_answer (response, "age", NULL, "36.5", NULL);
  clarify_test_add_answer (response, "seats", NULL, "3", NULL);
  clarify_test_add_answer (response, "newsletter", NULL, "no", NULL);
  clarify_test_add_answer (response, "color", NULL, "Green", NULL);
  clarify_test_add_answer (response, "hex", NULL, "#00FF00", NULL);
  clarify_test_add_answer (response, "colors", NULL, "Blue", "Red", NULL);
  clarify_response_add_answer (response, "hexes", NULL, NULL, TRUE);
  clarify_test_add_answer (response, "size", NULL, "l", NULL);
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
  g_autoptr(ClarifyResponse) opened = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) declined = response_new (CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) cancelled = response_new (CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(ClarifyResponse) skipped = response_new (CLARIFY_OUTCOME_SKIPPED);
  ClarifyQuestion *question = clarify_request_get_question (hook->request, 0);
  g_autofree char *opened_out = NULL;
  g_autofree char *declined_out = NULL;
  g_autofree char *cancelled_out = NULL;
  g_autofree char *skipped_out = NULL;
  g_autofree char *message = NULL;

  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_LINK);
  g_assert_cmpstr (clarify_question_get_subject (question), ==, "https://pay.example.com/checkout?session=abc");
  g_assert_cmpstr (clarify_request_get_context (hook->request), ==, "Finish the payment in your browser");
  /* The link's own Decline, and Esc cancels: the dialog's Cancel keeps its word. */
  g_assert_true (clarify_request_get_cancellable (hook->request));
  g_assert_null (clarify_request_get_cancel_label (hook->request));
  g_assert_false (clarify_question_check_answer (question, (const char *[]) { "yes", NULL }, NULL, &message));

  /* Accept once the dialog opened it (no content in URL mode). */
  clarify_test_add_answer (opened, "open", NULL, CLARIFY_LINK_OPEN, NULL);
  opened_out = encode (hook->request, opened);
  g_assert_cmpstr (opened_out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\"}}");
  clarify_test_add_answer (declined, "open", NULL, CLARIFY_LINK_DECLINE, NULL);
  declined_out = encode (hook->request, declined);
  g_assert_cmpstr (declined_out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"decline\"}}");
  cancelled_out = encode (hook->request, cancelled);
  g_assert_cmpstr (cancelled_out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"cancel\"}}");
  /* "Answer in the Terminal" gives the terminal its own prompt back. */
  skipped_out = encode (hook->request, skipped);
  g_assert_cmpstr (skipped_out, ==, "");
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

static void
test_bad_input (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (clarify_test_bad_hook_inputs); i++)
    {
      g_autofree char *path = g_build_filename ("claude-code", clarify_test_bad_hook_inputs[i].fixture, NULL);
      g_autofree char *input = clarify_test_load_fixture (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyClaudeHook) hook = clarify_claude_hook_decode (input, -1, "claude-code-1", &error);

      g_assert_null (hook);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, clarify_test_bad_hook_inputs[i].message));
    }
}

/* Found by fuzz-claude-code: an AskUserQuestion option with an empty label
 * was shown, and the answer kept on disk could not be read back. */
static void
test_empty_label (void)
{
  const char *input =
    "{\"session_id\":\"s\",\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"AskUserQuestion\","
    "\"tool_input\":{\"questions\":[{\"question\":\"Which database?\",\"header\":\"Database\","
    "\"options\":[{\"label\":\"SQLite\"},{\"label\":\"\",\"description\":\"load extensions\"}],"
    "\"multiSelect\":false}]}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyClaudeHook) hook = clarify_claude_hook_decode (input, -1, "claude-code-1", &error);

  g_assert_null (hook);
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "option 2 has no label"));
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/claude-code/ask-user-question/decode", test_ask_user_question_decode);
  g_test_add_func ("/claude-code/ask-user-question/answers", test_ask_user_question_answers);
  g_test_add_func ("/claude-code/ask-user-question/notes", test_ask_user_question_notes);
  g_test_add_func ("/claude-code/permission/bash", test_permission_bash);
  g_test_add_func ("/claude-code/permission/tools", test_permission_tools);
  g_test_add_func ("/claude-code/elicitation/recorded", test_elicitation_recorded);
  g_test_add_func ("/claude-code/elicitation/shapes", test_elicitation_shapes);
  g_test_add_func ("/claude-code/elicitation/url", test_elicitation_url);
  g_test_add_func ("/claude-code/notifications", test_notifications);
  g_test_add_func ("/claude-code/bad-input", test_bad_input);
  g_test_add_func ("/claude-code/empty-label", test_empty_label);

  return g_test_run ();
}
