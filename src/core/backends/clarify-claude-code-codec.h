/* clarify-claude-code-codec.h: Claude Code's hooks on their wire
 *
 * A command hook gets one JSON object on stdin and may print one on stdout
 * (shared/protocols/opencode-mcp-claude.md, section E). Clarify answers
 * three of them:
 *
 *   PermissionRequest, tool AskUserQuestion   the questions, answered with
 *       {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":
 *         {"behavior":"allow","updatedInput":{questions…,"answers":{…}}}}}
 *   PermissionRequest, any other tool          a permission: allow (once),
 *       allow with "updatedPermissions" (always), or deny with a message
 *   Elicitation                                an MCP form:
 *       {"hookSpecificOutput":{"hookEventName":"Elicitation","action":
 *         "accept"|"decline","content":{…}}}
 *
 * and turns Notification's idle_prompt into a note for the desktop. An
 * empty output prints nothing: Claude Code's own terminal prompt then
 * stays (PermissionRequest) or comes back (Elicitation).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* The name and kind of the connection every hook request carries. */
#define CLARIFY_CLAUDE_CODE_NAME "Claude Code"
#define CLARIFY_CLAUDE_CODE_KIND "claude-code"
/* The member `clarify hook` adds to a PermissionRequest's input: the
 * transcript's size in bytes when the hook began. */
#define CLARIFY_CLAUDE_HOOK_TRANSCRIPT_SIZE "clarify_transcript_size"

typedef enum
{
  CLARIFY_CLAUDE_HOOK_ASK,          /* a request to show: hook->request */
  CLARIFY_CLAUDE_HOOK_IDLE_PROMPT,  /* Claude waits for the person's next prompt */
  CLARIFY_CLAUDE_HOOK_IGNORED,      /* nothing for Clarify (another notification) */
} ClarifyClaudeHookAction;

/* One hook call, decoded. */
typedef struct
{
  ClarifyClaudeHookAction  action;
  /* With ASK: the request, validated, connection not yet set. */
  ClarifyRequest          *request;
  char                    *session_id;
  /* The folder name of the session's working directory, or NULL. */
  char                    *project;
  /* With a PermissionRequest: the JSONL transcript Claude Code appends the
   * tool call and its result to, and the call to look for there. NULL
   * otherwise (an elicitation holds the terminal until it is answered). */
  char                    *transcript_path;
  /* Its size when `clarify hook` began (CLARIFY_CLAUDE_HOOK_TRANSCRIPT_SIZE,
   * which Clarify's own client adds), else 0. */
  goffset                  transcript_size;
  char                    *tool_name;
  JsonNode                *tool_input;
  /* With IDLE_PROMPT: Claude Code's own words, or NULL. */
  char                    *message;
} ClarifyClaudeHook;

/* Decodes one hook's stdin. The request gets @request_id. Errors are
 * CLARIFY_ERROR_INVALID with an English sentence for the hook's stderr:
 * not JSON, not an object, an unknown hook_event_name, missing fields. */
ClarifyClaudeHook *clarify_claude_hook_decode (const char        *input,
                                               gssize             length,
                                               const char        *request_id,
                                               GError           **error);
void               clarify_claude_hook_free   (ClarifyClaudeHook *hook);

/* The hook's stdout for @response to a request decoded here: a JSON
 * object, or "" to print nothing. */
char              *clarify_claude_hook_encode (ClarifyRequest    *request,
                                               ClarifyResponse   *response,
                                               GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyClaudeHook, clarify_claude_hook_free)

G_END_DECLS
