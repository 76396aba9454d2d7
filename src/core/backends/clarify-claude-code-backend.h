/* clarify-claude-code-backend.h: Claude Code's hooks, kind "claude-code"
 *
 * `clarify hook claude-code` hands each hook's stdin to the running app
 * (the D-Bus method Hook) and prints what comes back. This backend turns
 * the input into a request (clarify-claude-code-codec.h), waits for the
 * person like every local caller, and gives back the hook's stdout.
 *
 * Claude Code keeps its own prompt on screen beside a PermissionRequest
 * hook and takes whichever answer comes first, without telling the hook
 * when the person answered in the terminal. The session's transcript does
 * (clarify-claude-code-transcript.h): the dialog is then withdrawn,
 * "Answered in the terminal", and the hook prints nothing.
 *
 * The Notification hook's idle_prompt (Claude waits for the next prompt)
 * is no request: ::idle-prompt (project, session_id, message) lets the
 * application tell the person on the desktop.
 *
 * Like the D-Bus Ask API it is no connection the user adds: the
 * application creates it and sends its requests to the inbox.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-local-backend.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CLAUDE_CODE_BACKEND (clarify_claude_code_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyClaudeCodeBackend, clarify_claude_code_backend, CLARIFY, CLAUDE_CODE_BACKEND, ClarifyLocalBackend)

ClarifyBackend *clarify_claude_code_backend_new                (void);

/* Answers one hook call: @hook_json is the hook's stdin. Completes with
 * the hook's stdout, "" to print nothing; with CLARIFY_ERROR_INVALID (an
 * English sentence) for input that is no hook of Claude Code's; with
 * G_IO_ERROR_CANCELLED when @cancellable fired (the hook went away; its
 * dialog is withdrawn). */
void            clarify_claude_code_backend_handle_hook_async  (ClarifyClaudeCodeBackend  *self,
                                                                const char                *hook_json,
                                                                GCancellable              *cancellable,
                                                                GAsyncReadyCallback        callback,
                                                                gpointer                   user_data);
char           *clarify_claude_code_backend_handle_hook_finish (ClarifyClaudeCodeBackend  *self,
                                                                GAsyncResult              *result,
                                                                GError                   **error);

/* How many transcripts are watched now (one per session with an open
 * permission request). */
guint           clarify_claude_code_backend_get_n_transcripts  (ClarifyClaudeCodeBackend  *self);

G_END_DECLS
