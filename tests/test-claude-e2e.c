/* test-claude-e2e.c: the real Claude Code answered in Clarify's dialogs
 *
 * Claude Code (pinned, from npm) runs in tmux with --permission-mode
 * default against the fake Messages API of clarify-test-claude-real.h;
 * its hooks are the ones `clarify setup claude-code --user` wrote into
 * its private HOME, so each question and permission prompt goes through
 * the built `clarify hook claude-code` to the application running in this
 * process. The dialogs are answered through their buttons and chips, the
 * terminal through its keys, and what counts is what the model gets: the
 * tool results the fake API records. A D-Bus monitor shows what Clarify
 * told each hook to print; Claude Code's transcript shows which decisions
 * it took from a hook. The figures logged (round trips) are for the
 * report; nothing waits on them beyond a generous timeout.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-permission-input.h"
#include "clarify-test-claude-e2e.h"
#include "clarify-test-gtk-utils.h"

#define SLOW_MS CLARIFY_TEST_CLAUDE_SLOW_MS
#define WAIT_MS CLARIFY_TEST_E2E_WAIT_MS

#define FEATURES "Which features should the CLI support?"
#define DATABASE "Which database should we use?"

#define QUESTIONS_INPUT                                                                                       \
  "{\"questions\":["                                                                                          \
  "{\"question\":\"" FEATURES "\",\"header\":\"Features\",\"multiSelect\":true,"                              \
  "\"options\":[{\"label\":\"Export to CSV\",\"description\":\"Write results as CSV\"},"                      \
  "{\"label\":\"Dark mode\",\"description\":\"A dark theme\"},"                                               \
  "{\"label\":\"Sync\",\"description\":\"Sync between machines\"}]},"                                          \
  "{\"question\":\"" DATABASE "\",\"header\":\"Database\",\"multiSelect\":false,"                             \
  "\"options\":[{\"label\":\"SQLite\",\"description\":\"Embedded\"},"                                         \
  "{\"label\":\"Postgres\",\"description\":\"A server\"}]}]}"

static const ClarifyTestClaudeCall ask_script[] = { { "AskUserQuestion", QUESTIONS_INPUT } };

typedef struct
{
  const char *path;
  const char *tool_use_id;
} TranscriptWait;

static gboolean
has_tool_result (gpointer data)
{
  TranscriptWait *wait = data;
  g_autofree char *contents = NULL;
  const char *needle = "\"type\":\"tool_result\",\"content\"";
  g_autofree char *id = g_strdup_printf ("\"tool_use_id\":\"%s\"", wait->tool_use_id);
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (wait->path, &contents, NULL, NULL))
    return FALSE;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "{\"parentUuid\"") && strstr (lines[i], needle) != NULL && strstr (lines[i], id) != NULL)
      return TRUE;
  return FALSE;
}

/* The PermissionRequest decisions Claude Code took from a hook for
 * @tool_use_id, as its transcript records them ("allow", "deny"),
 * joined by spaces; once the transcript holds the call's result (Claude
 * Code writes it in batches), so that the list is complete. */
static char *
hook_decisions (const char *transcript_path,
                const char *tool_use_id)
{
  TranscriptWait wait = { transcript_path, tool_use_id };
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) decisions = g_string_new (NULL);

  g_assert_true (clarify_test_wait_until (has_tool_result, &wait, WAIT_MS));
  g_assert_true (g_file_get_contents (transcript_path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *line, *attachment;

      if (strstr (lines[i], "\"hook_permission_decision\"") == NULL ||
          !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      line = json_node_get_object (json_parser_get_root (parser));
      attachment = json_object_get_object_member (line, "attachment");
      if (attachment != NULL &&
          g_strcmp0 (json_object_get_string_member_with_default (attachment, "type", NULL), "hook_permission_decision") == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (attachment, "toolUseID", NULL), tool_use_id) == 0)
        g_string_append_printf (decisions, "%s%s", decisions->len > 0 ? " " : "",
                                json_object_get_string_member_with_default (attachment, "decision", "?"));
    }
  return g_string_free (g_steal_pointer (&decisions), FALSE);
}

/* The @n-th Hook call of @claude's session, a PermissionRequest, once
 * Clarify has replied to it. */
static const ClarifyTestE2eHookCall *
hook_reply (ClarifyTestClaude *claude,
            guint              n)
{
  const ClarifyTestE2eHookCall *call = clarify_test_e2e_wait_for_hook_reply (claude, n, WAIT_MS);

  g_assert_nonnull (call);
  g_assert_cmpstr (call->event, ==, "PermissionRequest");
  g_assert_null (call->error);
  return call;
}

static guint
count_hook_calls (ClarifyTestClaude *claude)
{
  g_autoptr(GPtrArray) calls = clarify_test_e2e_hook_calls_of (claude);

  return calls->len;
}

/* The dialog's subtitle names the project; the raw session id is only in
 * the title's tooltip (issue 12: no ids in titles). */
static void
assert_names_project (ClarifyRequestDialog *dialog,
                      const char           *project)
{
  GtkWidget *title = clarify_test_find_descendant (GTK_WIDGET (dialog), ADW_TYPE_WINDOW_TITLE);

  g_assert_nonnull (title);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (title)), ==, "Claude Code");
  g_assert_cmpstr (adw_window_title_get_subtitle (ADW_WINDOW_TITLE (title)), ==, project);
}

/* When the question reached the bus and the dialog, counted from when the
 * fake model sent the call; and from when the test saw it on the terminal
 * (@on_screen, 0: not looked at). */
static void
log_round_trip (ClarifyTestClaude *claude,
                guint              call,
                ClarifyRequest    *request,
                gint64             on_screen)
{
  ClarifyTestClaudeApi *api = clarify_test_claude_get_api (claude);
  gint64 streamed = clarify_test_claude_api_get_call_time (api, call);
  g_autoptr(GPtrArray) hooks = clarify_test_e2e_hook_calls_of (claude);
  gint64 hooked = hooks->len > 0 ? ((ClarifyTestE2eHookCall *) hooks->pdata[hooks->len - 1])->called_at : 0;

  g_test_message ("round trip, from the tool call streamed by the API: Hook call on the bus +%.0f ms, "
                  "dialog shown +%.0f ms", clarify_test_e2e_ms (streamed, hooked),
                  clarify_test_e2e_ms (streamed, clarify_test_e2e_shown_at (request)));
  if (on_screen != 0)
    g_test_message ("question seen on the terminal +%.0f ms (the dialog %+.0f ms after that)",
                    clarify_test_e2e_ms (streamed, on_screen),
                    clarify_test_e2e_ms (on_screen, clarify_test_e2e_shown_at (request)));
}

static void
log_answer_trip (const char                    *what,
                 gint64                         clicked,
                 const ClarifyTestClaudeResult *result)
{
  g_test_message ("%s → tool result at the API: %.0f ms", what, clarify_test_e2e_ms (clicked, result->received_at));
}

/* 1. Two questions, the first multiple, answered in Clarify's dialog. */
static void
test_ask_answered_in_clarify (void)
{
  static const char *projects[] = { "shop", NULL };
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  const ClarifyTestClaudeResult *result;
  const ClarifyTestE2eHookCall *hook;
  ClarifyRequestDialog *dialog;
  ClarifyTestClaudeApi *api;
  ClarifyTestClaude *claude;
  ClarifyRequest *request;
  g_autofree char *screen = NULL;
  g_autofree char *decisions = NULL;
  gint64 on_screen, clicked;

  if (home == NULL)
    return;
  clarify_test_e2e_app ();

  claude = clarify_test_claude_start (home, "shop", ask_script, G_N_ELEMENTS (ask_script), "Ask me");
  api = clarify_test_claude_get_api (claude);
  clarify_test_e2e_see (claude, FEATURES);
  on_screen = g_get_monotonic_time ();

  request = clarify_test_e2e_wait_for_request (claude, 1, SLOW_MS);
  g_assert_nonnull (request);
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 2);
  dialog = clarify_test_e2e_wait_for_dialog (request);
  log_round_trip (claude, 1, request, on_screen);
  assert_names_project (dialog, "shop");

  /* Two features, the second one first; then the database. */
  clarify_test_e2e_click (clarify_test_e2e_chip (dialog, 0, "Dark mode"));
  clarify_test_e2e_click (clarify_test_e2e_chip (dialog, 0, "Export to CSV"));
  clarify_test_e2e_click (clarify_test_e2e_chip (dialog, 1, "Postgres"));
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "claude-e2e-ask-en"));

  clicked = g_get_monotonic_time ();
  clarify_test_e2e_click (clarify_test_e2e_action (dialog, "submit_button"));
  result = clarify_test_claude_api_wait_for_result (api, 1, SLOW_MS);
  g_assert_nonnull (result);
  log_answer_trip ("Submit", clicked, result);

  /* What the model reads: exactly these answers, multi-select labels in
   * the order picked, joined as the terminal joins them. */
  g_assert_cmpstr (result->tool_use_id, ==, "toolu_clarify_1");
  g_assert_false (result->is_error);
  g_assert_cmpstr (result->content, ==,
                   "Your questions have been answered: \"" FEATURES "\"=\"Dark mode, Export to CSV\", \""
                   DATABASE "\"=\"Postgres\". You can now continue with these answers in mind.");
  hook = hook_reply (claude, 1);
  g_assert_cmpstr (hook->tool_name, ==, "AskUserQuestion");
  g_assert_true (g_str_has_prefix (hook->output, "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\","
                                                 "\"decision\":{\"behavior\":\"allow\",\"updatedInput\":"));
  decisions = hook_decisions (hook->transcript_path, "toolu_clarify_1");
  g_assert_cmpstr (decisions, ==, "allow");

  /* The terminal shows them as answered, and the turn went on. */
  clarify_test_e2e_see (claude, "All done.");
  screen = clarify_test_claude_capture (claude);
  g_assert_nonnull (strstr (screen, FEATURES " → Dark mode, Export to CSV"));
  g_assert_nonnull (strstr (screen, DATABASE " → Postgres"));
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (api), ==, 1);
  g_assert_true (clarify_test_e2e_wait_gone (request, WAIT_MS));
  g_assert_cmpuint (count_hook_calls (claude), ==, 1);

  clarify_test_e2e_assert_no_strays (claude);
  clarify_test_claude_stop (claude);
  clarify_test_claude_home_free (home);
}

#define DENIED_INPUT  "{\"command\":\"touch denied-marker\",\"description\":\"Leave a marker\"}"
#define ALLOWED_INPUT "{\"command\":\"touch allowed-marker\",\"description\":\"Leave another marker\"}"

static const ClarifyTestClaudeCall deny_then_allow_script[] = {
  { "Bash", DENIED_INPUT },
  { "Bash", ALLOWED_INPUT },
};

static ClarifyPermissionInput *
permission_input (ClarifyRequestDialog *dialog)
{
  ClarifyInput *input = clarify_request_dialog_get_input (dialog, 0);

  g_assert_true (CLARIFY_IS_PERMISSION_INPUT (input));
  return CLARIFY_PERMISSION_INPUT (input);
}

static gboolean
file_exists (ClarifyTestClaude *claude,
             const char        *name)
{
  g_autofree char *path = g_build_filename (clarify_test_claude_get_project (claude), name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* 2. A Bash command denied with a message (in German), another allowed once. */
static void
test_bash_denied_then_allowed (void)
{
  static const char *projects[] = { "tools", NULL };
  static const char message[] = "Bitte erst nach dem Review.";
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  const ClarifyTestClaudeResult *result;
  ClarifyPermissionInput *input;
  ClarifyRequestDialog *dialog;
  ClarifyTestClaudeApi *api;
  ClarifyTestClaude *claude;
  ClarifyRequest *request;
  GtkWidget *expander, *entry;
  gint64 clicked;

  if (home == NULL)
    return;
  clarify_test_e2e_app ();
  /* The request is worded in the app, when it arrives. */
  clarify_test_set_language ("de");

  claude = clarify_test_claude_start (home, "tools", deny_then_allow_script,
                                      G_N_ELEMENTS (deny_then_allow_script), "Run them");
  api = clarify_test_claude_get_api (claude);
  request = clarify_test_e2e_wait_for_request (claude, 1, SLOW_MS);
  g_assert_nonnull (request);
  dialog = clarify_test_e2e_wait_for_dialog (request);
  log_round_trip (claude, 1, request, 0);
  input = permission_input (dialog);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (clarify_permission_input_get_subject_label (input))), ==,
                   "touch denied-marker");
  assert_names_project (dialog, "tools");

  /* "Add a message…" from the keyboard, the message typed, then Deny. */
  expander = clarify_permission_input_get_message_expander (input);
  entry = clarify_permission_input_get_message_entry (input);
  g_assert_true (gtk_widget_grab_focus (expander));
  g_assert_true (clarify_test_send_key (GTK_WIDGET (dialog), GDK_KEY_Return, 0));
  g_assert_true (clarify_test_wait_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, entry, WAIT_MS));
  gtk_editable_set_text (GTK_EDITABLE (entry), message);
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "claude-e2e-deny-de"));
  clicked = g_get_monotonic_time ();
  clarify_test_e2e_click (clarify_permission_input_get_button (input, CLARIFY_PERMISSION_REJECT));

  result = clarify_test_claude_api_wait_for_result (api, 1, SLOW_MS);
  g_assert_nonnull (result);
  log_answer_trip ("Deny", clicked, result);
  g_assert_true (result->is_error);
  g_assert_cmpstr (result->content, ==, message);
  g_assert_false (file_exists (claude, "denied-marker"));

  /* The next call: Allow Once, the button with the focus. */
  request = clarify_test_e2e_wait_for_request (claude, 2, SLOW_MS);
  g_assert_nonnull (request);
  dialog = clarify_test_e2e_wait_for_dialog (request);
  input = permission_input (dialog);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (clarify_permission_input_get_subject_label (input))), ==,
                   "touch allowed-marker");
  g_assert_true (gtk_root_get_focus (GTK_ROOT (dialog)) == clarify_permission_input_get_default_button (input));
  clicked = g_get_monotonic_time ();
  g_assert_true (clarify_test_send_key (GTK_WIDGET (dialog), GDK_KEY_Return, 0));

  result = clarify_test_claude_api_wait_for_result (api, 2, SLOW_MS);
  g_assert_nonnull (result);
  log_answer_trip ("Allow Once", clicked, result);
  g_assert_false (result->is_error);
  g_assert_true (file_exists (claude, "allowed-marker"));
  g_assert_false (file_exists (claude, "denied-marker"));
  clarify_test_set_language ("en");

  clarify_test_e2e_see (claude, "All done.");
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (api), ==, 2);
  g_assert_cmpuint (count_hook_calls (claude), ==, 2);

  clarify_test_e2e_assert_no_strays (claude);
  clarify_test_claude_stop (claude);
  clarify_test_claude_home_free (home);
}

/* A command Claude Code suggests rules for (a lone touch gets a mode instead). */
#define ALWAYS_INPUT "{\"command\":\"curl -s http://127.0.0.1:9/ ; touch always-marker\",\"description\":\"Fetch, then leave a marker\"}"

static const ClarifyTestClaudeCall always_script[] = {
  { "Bash", ALWAYS_INPUT },
  { "Bash", ALWAYS_INPUT },
};

#define RULES "Bash(curl -s http://127.0.0.1:9/), Bash(touch always-marker *)"

/* permissions.allow of a settings file, joined by ", ". */
static char *
allow_rules (const char *settings)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) rules = g_string_new (NULL);
  JsonObject *permissions;
  JsonArray *allow;

  json_parser_load_from_data (parser, settings, -1, &error);
  g_assert_no_error (error);
  permissions = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "permissions");
  g_assert_nonnull (permissions);
  allow = json_object_get_array_member (permissions, "allow");
  for (guint i = 0; allow != NULL && i < json_array_get_length (allow); i++)
    g_string_append_printf (rules, "%s%s", i > 0 ? ", " : "", json_array_get_string_element (allow, i));
  return g_string_free (g_steal_pointer (&rules), FALSE);
}

/* 3. Always Allow: Claude Code keeps the suggested rule and asks no more. */
static void
test_always_allow (void)
{
  static const char *projects[] = { "site", NULL };
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  const ClarifyTestClaudeResult *result;
  ClarifyPermissionInput *input;
  ClarifyRequestDialog *dialog;
  ClarifyTestClaudeApi *api;
  ClarifyTestClaude *claude;
  ClarifyRequest *request;
  GtkWidget *always;
  g_autofree char *local = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *allowed = NULL;
  gint64 clicked;

  if (home == NULL)
    return;
  clarify_test_e2e_app ();

  claude = clarify_test_claude_start (home, "site", always_script, G_N_ELEMENTS (always_script), "Run it twice");
  api = clarify_test_claude_get_api (claude);
  request = clarify_test_e2e_wait_for_request (claude, 1, SLOW_MS);
  g_assert_nonnull (request);
  dialog = clarify_test_e2e_wait_for_dialog (request);
  input = permission_input (dialog);
  always = clarify_permission_input_get_button (input, CLARIFY_PERMISSION_ALWAYS);
  g_assert_nonnull (always);
  /* The rules Claude Code suggested, and where it keeps them. */
  g_assert_cmpstr (gtk_widget_get_tooltip_text (always), ==,
                   "Adds " RULES " to this project’s local settings (.claude/settings.local.json)");
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "claude-e2e-always-en"));
  clicked = g_get_monotonic_time ();
  clarify_test_e2e_click (always);

  result = clarify_test_claude_api_wait_for_result (api, 1, SLOW_MS);
  g_assert_nonnull (result);
  log_answer_trip ("Always Allow", clicked, result);
  g_assert_false (result->is_error);
  g_assert_true (file_exists (claude, "always-marker"));

  local = g_build_filename (clarify_test_claude_get_project (claude), ".claude", "settings.local.json", NULL);
  g_assert_true (g_file_get_contents (local, &contents, NULL, NULL));
  allowed = allow_rules (contents);
  g_assert_cmpstr (allowed, ==, RULES);

  result = clarify_test_claude_api_wait_for_result (api, 2, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_false (result->is_error);
  clarify_test_e2e_see (claude, "All done.");
  g_assert_cmpuint (count_hook_calls (claude), ==, 1);
  g_assert_null (clarify_test_e2e_wait_for_request (claude, 2, 0));

  clarify_test_e2e_assert_no_strays (claude);
  clarify_test_claude_stop (claude);
  clarify_test_claude_home_free (home);
}

#define LICENSE "Which license should the project use?"
#define LICENSE_INPUT                                                                                         \
  "{\"questions\":[{\"question\":\"" LICENSE "\",\"header\":\"License\",\"multiSelect\":false,"               \
  "\"options\":[{\"label\":\"MIT\",\"description\":\"Short and permissive\"},"                                \
  "{\"label\":\"Apache-2.0\",\"description\":\"Permissive, with a patent grant\"}]}]}"

static const ClarifyTestClaudeCall license_script[] = { { "AskUserQuestion", LICENSE_INPUT } };

/* The processes running `clarify hook claude-code`. */
static GArray *
find_hook_processes (void)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (GPid));
  const char *name;

  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *cmdline = NULL;
      gsize length;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &cmdline, &length, NULL) || length == 0)
        continue;
      /* NUL-separated: argv[0], then "hook", then "claude-code". */
      if (g_str_equal (cmdline, clarify_test_e2e_binary ()) &&
          strlen (cmdline) + 1 < length && g_str_equal (cmdline + strlen (cmdline) + 1, "hook"))
        {
          GPid pid = (GPid) g_ascii_strtoll (name, NULL, 10);

          g_array_append_val (pids, pid);
        }
    }
  return pids;
}

/* 4. The person answers in the terminal first: the dialog goes away. */
static void
test_answered_in_terminal (void)
{
  static const char *projects[] = { "notes", NULL };
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  const ClarifyTestClaudeResult *result;
  const ClarifyTestE2eHookCall *hook;
  ClarifyRequestDialog *dialog;
  ClarifyTestClaudeApi *api;
  ClarifyTestClaude *claude;
  ClarifyRequest *request;
  g_autoptr(GArray) hooks = NULL;
  g_autofree char *decisions = NULL;
  GPid hook_pid;
  gint64 pressed;

  if (home == NULL)
    return;
  clarify_test_e2e_app ();

  claude = clarify_test_claude_start (home, "notes", license_script, G_N_ELEMENTS (license_script), "Pick one");
  api = clarify_test_claude_get_api (claude);
  request = clarify_test_e2e_wait_for_request (claude, 1, SLOW_MS);
  g_assert_nonnull (request);
  dialog = clarify_test_e2e_wait_for_dialog (request);
  hooks = find_hook_processes ();
  g_assert_cmpuint (hooks->len, ==, 1);
  hook_pid = g_array_index (hooks, GPid, 0);

  clarify_test_e2e_see (claude, LICENSE);
  clarify_test_claude_send_keys (claude, "Down", NULL);
  clarify_test_e2e_see (claude, "❯ 2. Apache-2.0");
  pressed = g_get_monotonic_time ();
  clarify_test_claude_send_keys (claude, "Enter", NULL);

  /* Only the state is asserted; the figure is for the report. */
  g_assert_true (clarify_test_e2e_wait_gone (request, WAIT_MS));
  g_test_message ("Enter in the terminal → request left the inbox: %.0f ms",
                  clarify_test_e2e_ms (pressed, clarify_test_e2e_left_at (request)));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_ANSWERED_IN_TERMINAL);
  g_assert_true (clarify_request_dialog_get_withdrawn (dialog));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "claude-e2e-answered-in-terminal-en"));

  /* The hook was told to print nothing, and ended. */
  hook = hook_reply (claude, 1);
  g_assert_cmpstr (hook->output, ==, "");
  g_assert_true (clarify_test_wait_until (clarify_test_e2e_process_gone, GINT_TO_POINTER (hook_pid), WAIT_MS));
  /* Claude Code took no decision from it. */
  decisions = hook_decisions (hook->transcript_path, "toolu_clarify_1");
  g_assert_cmpstr (decisions, ==, "");

  /* The model got the terminal's answer, once. */
  result = clarify_test_claude_api_wait_for_result (api, 1, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_cmpstr (result->content, ==,
                   "Your questions have been answered: \"" LICENSE "\"=\"Apache-2.0\". "
                   "You can now continue with these answers in mind.");
  clarify_test_e2e_see (claude, "All done.");
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (api), ==, 1);

  clarify_test_e2e_assert_no_strays (claude);
  clarify_test_claude_stop (claude);
  clarify_test_claude_home_free (home);
}

#define RIGHT_INPUT "{\"command\":\"touch right-marker\",\"description\":\"Leave a marker\"}"

static const ClarifyTestClaudeCall right_script[] = { { "Bash", RIGHT_INPUT } };

/* Answers the left session's license question with MIT. */
static void
answer_license (ClarifyRequestDialog *dialog)
{
  clarify_test_e2e_click (clarify_test_e2e_chip (dialog, 0, "MIT"));
  clarify_test_e2e_click (clarify_test_e2e_action (dialog, "submit_button"));
}

/* Allows the right session's command once. */
static void
allow_touch (ClarifyRequestDialog *dialog)
{
  ClarifyPermissionInput *input = permission_input (dialog);

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (clarify_permission_input_get_subject_label (input))), ==,
                   "touch right-marker");
  clarify_test_e2e_click (clarify_permission_input_get_default_button (input));
}

/* 5. Two sessions at once, each answered in its own dialog. */
static void
test_two_sessions (void)
{
  static const char *projects[] = { "left", "right", NULL };
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  const ClarifyTestClaudeResult *result;
  ClarifyRequestDialog *first_dialog, *second_dialog;
  ClarifyRequest *first, *second, *left_request, *right_request;
  ClarifyTestClaude *left, *right;
  ClarifyApplication *app;

  if (home == NULL)
    return;
  app = clarify_test_e2e_app ();

  left = clarify_test_claude_start (home, "left", license_script, G_N_ELEMENTS (license_script), "Pick one");
  right = clarify_test_claude_start (home, "right", right_script, G_N_ELEMENTS (right_script), "Run it");
  left_request = clarify_test_e2e_wait_for_request (left, 1, SLOW_MS);
  right_request = clarify_test_e2e_wait_for_request (right, 1, SLOW_MS);
  g_assert_nonnull (left_request);
  g_assert_nonnull (right_request);
  g_assert_true (left_request != right_request);

  /* One dialog at a time: the one that came first; the other waits. */
  if (clarify_test_e2e_arrived_at (left_request) <= clarify_test_e2e_arrived_at (right_request))
    first = left_request, second = right_request;
  else
    first = right_request, second = left_request;
  first_dialog = clarify_test_e2e_wait_for_dialog (first);
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, 1);
  g_assert_cmpint (clarify_test_e2e_shown_at (second), ==, 0);
  assert_names_project (first_dialog, first == left_request ? "left" : "right");
  g_free (clarify_test_save_screenshot (GTK_WIDGET (first_dialog), "claude-e2e-two-sessions-first-en"));
  if (first == left_request)
    answer_license (first_dialog);
  else
    allow_touch (first_dialog);

  /* Then the other one's own dialog. */
  second_dialog = clarify_test_e2e_wait_for_dialog (second);
  g_assert_true (second_dialog != first_dialog);
  assert_names_project (second_dialog, second == left_request ? "left" : "right");
  g_free (clarify_test_save_screenshot (GTK_WIDGET (second_dialog), "claude-e2e-two-sessions-second-en"));
  if (second == left_request)
    answer_license (second_dialog);
  else
    allow_touch (second_dialog);

  /* Each model got its own answer. */
  result = clarify_test_claude_api_wait_for_result (clarify_test_claude_get_api (left), 1, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_cmpstr (result->content, ==,
                   "Your questions have been answered: \"" LICENSE "\"=\"MIT\". "
                   "You can now continue with these answers in mind.");
  result = clarify_test_claude_api_wait_for_result (clarify_test_claude_get_api (right), 1, SLOW_MS);
  g_assert_nonnull (result);
  g_assert_false (result->is_error);
  g_assert_true (file_exists (right, "right-marker"));
  g_assert_false (file_exists (left, "right-marker"));
  clarify_test_e2e_see (left, "All done.");
  clarify_test_e2e_see (right, "All done.");
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (clarify_test_claude_get_api (left)), ==, 1);
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (clarify_test_claude_get_api (right)), ==, 1);

  clarify_test_e2e_assert_no_strays (left);
  clarify_test_e2e_assert_no_strays (right);
  clarify_test_claude_stop (left);
  clarify_test_claude_stop (right);
  clarify_test_claude_home_free (home);
}

/* The blocks of the last message of @claude's latest Messages request,
 * as "type: text" lines ("tool_result error: …" for a failed tool). */
static char *
describe_last_message (ClarifyTestClaude *claude)
{
  ClarifyTestClaudeApi *api = clarify_test_claude_get_api (claude);
  g_autoptr(JsonNode) body = clarify_test_claude_api_get_request (api, clarify_test_claude_api_get_n_requests (api) - 1);
  JsonArray *messages = json_object_get_array_member (json_node_get_object (body), "messages");
  JsonObject *last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  JsonArray *blocks = json_object_get_array_member (last, "content");
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_cmpstr (json_object_get_string_member (last, "role"), ==, "user");
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *block = json_array_get_object_element (blocks, i);
      const char *type = json_object_get_string_member (block, "type");

      if (g_str_equal (type, "tool_result"))
        g_string_append_printf (out, "tool_result%s %s: %s\n",
                                json_object_get_boolean_member_with_default (block, "is_error", FALSE) ? " error" : "",
                                json_object_get_string_member (block, "tool_use_id"),
                                json_object_get_string_member (block, "content"));
      else
        g_string_append_printf (out, "%s: %s\n", type, json_object_get_string_member_with_default (block, "text", ""));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Waits until the question is declined and the turn over, then prompts
 * again: what the model gets on the next turn. */
static char *
decline_and_go_on (ClarifyTestClaude    *claude,
                   ClarifyTestClaudeHome *home)
{
  g_autoptr(GPtrArray) hooks = clarify_test_e2e_hook_calls_of (claude);
  g_autofree char *decisions = NULL;

  clarify_test_e2e_see (claude, "Declined to answer Claude's questions");
  g_assert_cmpuint (hooks->len, ==, 1);
  decisions = hook_decisions (((ClarifyTestE2eHookCall *) hooks->pdata[0])->transcript_path, "toolu_clarify_1");
  /* Once the result is written, the model had no turn after it. */
  g_assert_cmpuint (clarify_test_claude_api_get_n_requests (clarify_test_claude_get_api (claude)), ==, 1);
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (clarify_test_claude_get_api (claude)), ==, 0);
  clarify_test_claude_prompt (claude, "Go on");
  g_assert_nonnull (clarify_test_claude_api_wait_for_result (clarify_test_claude_get_api (claude), 1, SLOW_MS));
  clarify_test_e2e_see (claude, "All done.");
  return describe_last_message (claude);
}

/* 8. Cancel in Clarify's question dialog does what Esc in the terminal
 * does: the turn ends, and the model's next turn says so. */
static void
test_ask_cancelled (void)
{
  static const char *projects[] = { "docs", "esc", NULL };
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  const ClarifyTestE2eHookCall *hook;
  ClarifyRequestDialog *dialog;
  ClarifyTestClaude *cancelled, *escaped;
  ClarifyRequest *request;
  g_autofree char *after_cancel = NULL;
  g_autofree char *after_esc = NULL;

  if (home == NULL)
    return;
  clarify_test_e2e_app ();

  /* Cancel in Clarify. */
  cancelled = clarify_test_claude_start (home, "docs", license_script, G_N_ELEMENTS (license_script), "Pick one");
  request = clarify_test_e2e_wait_for_request (cancelled, 1, SLOW_MS);
  g_assert_nonnull (request);
  dialog = clarify_test_e2e_wait_for_dialog (request);
  clarify_test_e2e_click (clarify_test_e2e_action (dialog, "cancel_button"));
  hook = hook_reply (cancelled, 1);
  g_assert_cmpstr (hook->output, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\","
                   "\"message\":\"The user declined to answer in Clarify\",\"interrupt\":true}}}");
  after_cancel = decline_and_go_on (cancelled, home);

  /* Esc in the terminal, the dialog open meanwhile. */
  escaped = clarify_test_claude_start (home, "esc", license_script, G_N_ELEMENTS (license_script), "Pick one");
  request = clarify_test_e2e_wait_for_request (escaped, 1, SLOW_MS);
  g_assert_nonnull (request);
  clarify_test_e2e_wait_for_dialog (request);
  clarify_test_e2e_see (escaped, LICENSE);
  clarify_test_claude_send_keys (escaped, "Escape", NULL);
  /* Esc ends the turn, and with it the hook, before the transcript has
   * the result: the caller left. */
  g_assert_true (clarify_test_e2e_wait_gone (request, WAIT_MS));
  g_test_message ("Esc: the dialog's request ended for reason %d", clarify_request_get_end_reason (request));
  g_assert_true (clarify_request_get_end_reason (request) == CLARIFY_END_REASON_CALLER_LEFT ||
                 clarify_request_get_end_reason (request) == CLARIFY_END_REASON_ANSWERED_IN_TERMINAL);
  after_esc = decline_and_go_on (escaped, home);

  g_test_message ("after Cancel in Clarify:\n%s", after_cancel);
  g_assert_cmpstr (after_cancel, ==, after_esc);
  g_assert_true (g_str_has_prefix (after_cancel, "tool_result error toolu_clarify_1: "));
  g_assert_nonnull (strstr (after_cancel, "\ntext: [Request interrupted by user for tool use]\n\ntext: Go on\n"));

  clarify_test_e2e_assert_no_strays (cancelled);
  clarify_test_e2e_assert_no_strays (escaped);
  clarify_test_claude_stop (cancelled);
  clarify_test_claude_stop (escaped);
  clarify_test_claude_home_free (home);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  clarify_test_e2e_init (&argc, &argv);

  g_test_add_func ("/claude-e2e/ask-answered-in-clarify", test_ask_answered_in_clarify);
  g_test_add_func ("/claude-e2e/bash-denied-then-allowed", test_bash_denied_then_allowed);
  g_test_add_func ("/claude-e2e/always-allow", test_always_allow);
  g_test_add_func ("/claude-e2e/answered-in-terminal", test_answered_in_terminal);
  g_test_add_func ("/claude-e2e/two-sessions", test_two_sessions);
  g_test_add_func ("/claude-e2e/ask-cancelled", test_ask_cancelled);

  status = g_test_run ();
  clarify_test_e2e_shutdown ();
  return status;
}
