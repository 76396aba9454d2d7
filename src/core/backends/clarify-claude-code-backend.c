/* clarify-claude-code-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-claude-code-backend.h"
#include "clarify-claude-code-codec.h"
#include "clarify-claude-code-transcript.h"
#include "clarify-error.h"

struct _ClarifyClaudeCodeBackend
{
  ClarifyLocalBackend  parent_instance;

  /* path → ClarifyClaudeCodeTranscript, while a request of its session is open */
  GHashTable          *transcripts;
};

G_DEFINE_FINAL_TYPE (ClarifyClaudeCodeBackend, clarify_claude_code_backend, CLARIFY_TYPE_LOCAL_BACKEND)

enum {
  IDLE_PROMPT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* One hook call whose request is open: the GTask's data. */
typedef struct
{
  ClarifyRequest *request;
  char           *transcript_path;  /* watched for the terminal's answer, or NULL */
} HookCall;

static void
hook_call_free (HookCall *call)
{
  g_clear_object (&call->request);
  g_free (call->transcript_path);
  g_free (call);
}

static void
transcript_answered_cb (ClarifyClaudeCodeTranscript *transcript,
                        const char                  *request_id,
                        ClarifyClaudeCodeBackend    *self)
{
  g_debug ("Claude Code's terminal answered %s first", request_id);
  clarify_local_backend_withdraw (CLARIFY_LOCAL_BACKEND (self), request_id,
                                  CLARIFY_END_REASON_ANSWERED_IN_TERMINAL);
}

static ClarifyClaudeCodeTranscript *
ensure_transcript (ClarifyClaudeCodeBackend *self,
                   const char               *path)
{
  ClarifyClaudeCodeTranscript *transcript = g_hash_table_lookup (self->transcripts, path);

  if (transcript == NULL)
    {
      transcript = clarify_claude_code_transcript_new (path);
      g_signal_connect_object (transcript, "answered", G_CALLBACK (transcript_answered_cb), self, 0);
      g_hash_table_insert (self->transcripts, g_strdup (path), transcript);
    }

  return transcript;
}

/* Ends @request_id's watch; a transcript nobody waits on is dropped, and
 * with it its file monitor. */
static void
unwatch (ClarifyClaudeCodeBackend *self,
         const char               *path,
         const char               *request_id)
{
  ClarifyClaudeCodeTranscript *transcript;

  if (path == NULL)
    return;

  transcript = g_hash_table_lookup (self->transcripts, path);
  if (transcript == NULL)
    return;

  clarify_claude_code_transcript_unwatch (transcript, request_id);
  if (clarify_claude_code_transcript_get_n_watches (transcript) == 0)
    g_hash_table_remove (self->transcripts, path);
}

static void
ask_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  ClarifyClaudeCodeBackend *self = CLARIFY_CLAUDE_CODE_BACKEND (object);
  g_autoptr(GTask) task = user_data;
  HookCall *call = g_task_get_task_data (task);
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  char *output;

  response = clarify_local_backend_ask_finish (CLARIFY_LOCAL_BACKEND (self), result, &error);
  unwatch (self, call->transcript_path, clarify_request_get_id (call->request));

  if (response == NULL)
    {
      /* Answered in the terminal: the hook prints nothing. */
      if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE))
        g_task_return_pointer (task, g_strdup (""), g_free);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  output = clarify_claude_hook_encode (call->request, response, &error);
  if (output == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, output, g_free);
}

void
clarify_claude_code_backend_handle_hook_async (ClarifyClaudeCodeBackend *self,
                                               const char               *hook_json,
                                               GCancellable             *cancellable,
                                               GAsyncReadyCallback       callback,
                                               gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(ClarifyClaudeHook) hook = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *request_id = NULL;
  HookCall *call;

  g_return_if_fail (CLARIFY_IS_CLAUDE_CODE_BACKEND (self));
  g_return_if_fail (hook_json != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_claude_code_backend_handle_hook_async);

  request_id = clarify_local_backend_next_request_id (CLARIFY_LOCAL_BACKEND (self));
  hook = clarify_claude_hook_decode (hook_json, -1, request_id, &error);
  if (hook == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  switch (hook->action)
    {
    case CLARIFY_CLAUDE_HOOK_IDLE_PROMPT:
      g_signal_emit (self, signals[IDLE_PROMPT], 0, hook->project, hook->session_id, hook->message);
      g_task_return_pointer (task, g_strdup (""), g_free);
      return;

    case CLARIFY_CLAUDE_HOOK_IGNORED:
      g_task_return_pointer (task, g_strdup (""), g_free);
      return;

    case CLARIFY_CLAUDE_HOOK_ASK:
    default:
      break;
    }

  call = g_new0 (HookCall, 1);
  call->request = g_object_ref (hook->request);
  g_task_set_task_data (task, call, (GDestroyNotify) hook_call_free);

  if (hook->transcript_path != NULL)
    {
      ClarifyClaudeCodeTranscript *transcript = ensure_transcript (self, hook->transcript_path);

      call->transcript_path = g_strdup (hook->transcript_path);
      if (clarify_claude_code_transcript_watch (transcript, request_id, hook->tool_name, hook->tool_input,
                                                hook->transcript_size))
        {
          /* The terminal was quicker than this hook reached Clarify. */
          g_debug ("Claude Code's terminal answered %s before it arrived", request_id);
          unwatch (self, call->transcript_path, request_id);
          g_task_return_pointer (task, g_strdup (""), g_free);
          return;
        }
    }

  clarify_local_backend_ask_async (CLARIFY_LOCAL_BACKEND (self), hook->request, cancellable,
                                   ask_cb, g_steal_pointer (&task));
}

char *
clarify_claude_code_backend_handle_hook_finish (ClarifyClaudeCodeBackend  *self,
                                                GAsyncResult              *result,
                                                GError                   **error)
{
  g_return_val_if_fail (CLARIFY_IS_CLAUDE_CODE_BACKEND (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
clarify_claude_code_backend_get_n_transcripts (ClarifyClaudeCodeBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_CLAUDE_CODE_BACKEND (self), 0);

  return g_hash_table_size (self->transcripts);
}

static void
clarify_claude_code_backend_start (ClarifyBackend *backend)
{
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTED,
                             CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
clarify_claude_code_backend_stop (ClarifyBackend *backend)
{
  ClarifyClaudeCodeBackend *self = CLARIFY_CLAUDE_CODE_BACKEND (backend);

  CLARIFY_BACKEND_CLASS (clarify_claude_code_backend_parent_class)->stop (backend);

  g_hash_table_remove_all (self->transcripts);
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_IDLE, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
clarify_claude_code_backend_dispose (GObject *object)
{
  ClarifyClaudeCodeBackend *self = CLARIFY_CLAUDE_CODE_BACKEND (object);

  /* The waiters end first (parent), then nothing is watched any more. */
  G_OBJECT_CLASS (clarify_claude_code_backend_parent_class)->dispose (object);

  if (self->transcripts != NULL)
    g_hash_table_remove_all (self->transcripts);
}

static void
clarify_claude_code_backend_finalize (GObject *object)
{
  ClarifyClaudeCodeBackend *self = CLARIFY_CLAUDE_CODE_BACKEND (object);

  g_clear_pointer (&self->transcripts, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_claude_code_backend_parent_class)->finalize (object);
}

static void
clarify_claude_code_backend_class_init (ClarifyClaudeCodeBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  object_class->dispose = clarify_claude_code_backend_dispose;
  object_class->finalize = clarify_claude_code_backend_finalize;

  backend_class->start = clarify_claude_code_backend_start;
  backend_class->stop = clarify_claude_code_backend_stop;

  /**
   * ClarifyClaudeCodeBackend::idle-prompt:
   * @project: (nullable): the folder name of the session's directory
   * @session_id: (nullable): the session
   * @message: (nullable): Claude Code's own words, in English
   *
   * Claude has finished and waits for the person's next prompt in the
   * terminal (the Notification hook's idle_prompt).
   */
  signals[IDLE_PROMPT] =
    g_signal_new ("idle-prompt",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
}

static void
clarify_claude_code_backend_init (ClarifyClaudeCodeBackend *self)
{
  self->transcripts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

ClarifyBackend *
clarify_claude_code_backend_new (void)
{
  g_autoptr(ClarifyConnection) connection = NULL;

  /* Shown in the dialog as who asks. */
  connection = clarify_connection_new (CLARIFY_CLAUDE_CODE_NAME, CLARIFY_CLAUDE_CODE_KIND,
                                       "hook:" CLARIFY_CLAUDE_CODE_KIND);

  return g_object_new (CLARIFY_TYPE_CLAUDE_CODE_BACKEND,
                       "connection", connection,
                       NULL);
}
