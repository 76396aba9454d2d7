/* clarify-claude-code-transcript.h: a Claude Code session's transcript,
 * watched for the terminal's answers
 *
 * Claude Code appends every message of a session to a JSONL file (the
 * hooks' `transcript_path`): the assistant's `tool_use` {id, name, input}
 * as soon as the model asks for a tool, the user's `tool_result`
 * {tool_use_id} the moment the call is answered, in the terminal or by a
 * hook. When the person answers in the terminal first, Claude Code does not
 * tell the hook; this file does. A PermissionRequest hook's input has no
 * tool_use_id, so a watch names the call by its tool name and input.
 *
 * A GFileMonitor reports each append; only the bytes appended since the
 * last read are read. One object per file, shared by the watches of its
 * session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_CLAUDE_CODE_TRANSCRIPT (clarify_claude_code_transcript_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyClaudeCodeTranscript, clarify_claude_code_transcript, CLARIFY, CLAUDE_CODE_TRANSCRIPT, GObject)

ClarifyClaudeCodeTranscript *clarify_claude_code_transcript_new           (const char                  *path);

/* Watches for the answer to the call of @tool_name with @tool_input, under
 * @key; ::answered (@key) tells when it comes. Reads what the file holds
 * now first: returns TRUE, watching nothing, when the call was answered
 * already, by a result after @hook_began_at (the file's size when the hook
 * began; 0 when not known, and then any equal call answered counts). */
gboolean                     clarify_claude_code_transcript_watch         (ClarifyClaudeCodeTranscript *self,
                                                                           const char                  *key,
                                                                           const char                  *tool_name,
                                                                           JsonNode                    *tool_input,
                                                                           goffset                      hook_began_at);
void                         clarify_claude_code_transcript_unwatch       (ClarifyClaudeCodeTranscript *self,
                                                                           const char                  *key);
guint                        clarify_claude_code_transcript_get_n_watches (ClarifyClaudeCodeTranscript *self);

G_END_DECLS
