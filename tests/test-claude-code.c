/* test-claude-code.c: Claude Code's hooks answered by the backend
 *
 * ClarifyClaudeCodeBackend runs hook inputs end to end: answered in
 * Clarify, answered in the terminal first (a transcript the test appends
 * to, as Claude Code does, while the backend watches it), the hook going
 * away, several sessions at once, and the idle_prompt notification.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>

#include "clarify-claude-code-backend.h"
#include "clarify-claude-code-codec.h"
#include "clarify-error.h"
#include "clarify-inbox.h"
#include "clarify-json.h"
#include "clarify-test-claude-code.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 10000

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

/* The same, with the transcript's size now, as `clarify hook` adds it. */
static char *
input_as_sent (Fixture    *f,
               const char *fixture,
               const char *transcript)
{
  g_autofree char *input = input_with_transcript (f, fixture, transcript);
  g_autoptr(JsonNode) node = clarify_json_parse (input, -1, NULL);
  g_autofree char *path = g_build_filename (f->dir, transcript, NULL);
  GStatBuf status;

  g_assert_cmpint (g_stat (path, &status), ==, 0);
  json_object_set_int_member (json_node_get_object (node), CLARIFY_CLAUDE_HOOK_TRANSCRIPT_SIZE, status.st_size);

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

static void
assert_answered_in_terminal (ClarifyRequest *request)
{
  g_assert_true (clarify_test_loop_until (clarify_test_request_is_done, request, WAIT_MS));
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
  clarify_test_add_answer (response, "q1", NULL, "Dark mode", NULL);
  clarify_test_add_answer (response, "q2", NULL, "Postgres", NULL);
  clarify_inbox_answer (f->inbox, request, response);

  output = finish_hook (run);
  g_assert_cmpstr (output, ==,
                   "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                   "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" CLARIFY_TEST_AUQ_QUESTIONS ","
                   "\"answers\":{\"Which features should the CLI support?\":\"Dark mode\","
                   "\"Which database should we use?\":\"Postgres\"}}}}}");
  g_assert_true (clarify_test_loop_until (clarify_test_request_is_done, request, WAIT_MS));
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
answer_in_terminal_first (Fixture    *f,
                          const char *input_fixture,
                          const char *tool_use_fixture,
                          const char *tool_result_fixture)
{
  g_autofree char *input = input_with_transcript (f, input_fixture, "s1.jsonl");
  g_autoptr(HookRun) run = NULL;
  g_autofree char *output = NULL;
  ClarifyRequest *request;

  append_line (f, "s1.jsonl", tool_use_fixture);
  run = start_hook (f, input, NULL);
  request = wait_request (f, 1);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 1);

  append_line (f, "s1.jsonl", tool_result_fixture);
  assert_answered_in_terminal (request);
  output = finish_hook (run);
  g_assert_cmpstr (output, ==, "");
  /* The monitor went with the last request of its session. */
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 0);
}

static void
test_terminal_first (Fixture       *f,
                     gconstpointer  data)
{
  answer_in_terminal_first (f, "permission-bash.json", "transcript-bash-tool-use.jsonl",
                            "transcript-bash-tool-result.jsonl");
}

/* The same with lines recorded from the real 2.1.332 (test-claude-e2e,
 * an AskUserQuestion answered with the terminal's keys): the call and the
 * result between the lines of other types Claude Code writes around them. */
static void
test_terminal_first_recorded (Fixture       *f,
                              gconstpointer  data)
{
  answer_in_terminal_first (f, "permission-ask-license.json", "transcript-ask-license-tool-use.jsonl",
                            "transcript-ask-license-tool-result.jsonl");
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

/* The agent asks the same again (a command denied, a question cancelled):
 * the transcript holds the equal call answered before this hook began.
 * The question is shown (nothing was, the earlier answer taken for this
 * one), and this call's own answer in the terminal still ends it. */
static void
test_asked_again (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autoptr(HookRun) run = NULL;
  g_autofree char *output = NULL;
  ClarifyRequest *request;

  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  input = input_as_sent (f, "permission-bash.json", "s1.jsonl");
  run = start_hook (f, input, NULL);
  request = wait_request (f, 1);
  clarify_test_loop_for (200);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);

  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  assert_answered_in_terminal (request);
  output = finish_hook (run);
  g_assert_cmpstr (output, ==, "");
}

/* Asked again, and answered in the terminal after the hook began but
 * before it reached Clarify: nothing is shown. */
static void
test_asked_again_terminal_first (Fixture       *f,
                                 gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autoptr(HookRun) run = NULL;
  g_autofree char *output = NULL;

  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  input = input_as_sent (f, "permission-bash.json", "s1.jsonl");
  append_line (f, "s1.jsonl", "transcript-bash-tool-use.jsonl");
  append_line (f, "s1.jsonl", "transcript-bash-tool-result.jsonl");
  run = start_hook (f, input, NULL);
  output = finish_hook (run);

  g_assert_cmpstr (output, ==, "");
  g_assert_cmpuint (f->added->len, ==, 0);
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
  clarify_test_add_answer (response, "permission", NULL, CLARIFY_PERMISSION_ALWAYS, NULL);
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
  g_assert_true (clarify_test_loop_until (clarify_test_request_is_done, request, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_CALLER_LEFT);
  g_assert_true (clarify_test_loop_until (run_done, run, WAIT_MS));
  g_assert_error (run->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (clarify_claude_code_backend_get_n_transcripts (CLARIFY_CLAUDE_CODE_BACKEND (f->backend)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/claude-code/backend/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("answered", test_backend_answered);
  ADD ("notifications", test_backend_notifications);
  ADD ("bad-input", test_backend_bad_input);
  ADD ("terminal-first", test_terminal_first);
  ADD ("terminal-first-recorded", test_terminal_first_recorded);
  ADD ("terminal-first-late-call", test_terminal_first_late_call);
  ADD ("terminal-already-answered", test_terminal_already_answered);
  ADD ("asked-again", test_asked_again);
  ADD ("asked-again-terminal-first", test_asked_again_terminal_first);
  ADD ("two-sessions", test_two_sessions);
  ADD ("caller-left", test_caller_left);
#undef ADD

  return g_test_run ();
}
