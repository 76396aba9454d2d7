/* clarify-claude-settings.h: Clarify's hooks in Claude Code's settings.json
 *
 * `clarify setup claude-code` adds one command hook to each of three events
 * (PermissionRequest for every tool, Elicitation for every MCP server,
 * Notification for idle_prompt), each in a matcher group of its own, and
 * `--remove` takes out exactly those. Everything else in the file (other
 * keys, other events, other groups, other commands) is kept as it was, in its
 * order; only json-glib's formatting of the file changes.
 *
 * Clarify's entries are recognised by their command: `… hook claude-code`
 * run by a program named clarify, or by `flatpak run` of Clarify's app id.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Seconds Claude Code gives a hook: enough for a person (its own default). */
#define CLARIFY_CLAUDE_HOOK_TIMEOUT_S 600

typedef enum
{
  CLARIFY_CLAUDE_HOOK_PERMISSION_REQUEST,
  CLARIFY_CLAUDE_HOOK_ELICITATION,
  CLARIFY_CLAUDE_HOOK_IDLE_NOTIFICATION,
  CLARIFY_CLAUDE_N_HOOKS
} ClarifyClaudeHook;

/* What one update did to one hook. */
typedef enum
{
  CLARIFY_CLAUDE_CHANGE_NONE,     /* already as wanted (or, removing, not there) */
  CLARIFY_CLAUDE_CHANGE_ADDED,
  CLARIFY_CLAUDE_CHANGE_UPDATED,  /* ours was there with another command */
  CLARIFY_CLAUDE_CHANGE_REMOVED,
} ClarifyClaudeChange;

typedef struct
{
  ClarifyClaudeChange changes[CLARIFY_CLAUDE_N_HOOKS];
  gboolean            written;      /* the file was (re)written */
  char               *backup_path;  /* the previous file's copy, when one was made */
} ClarifyClaudeSetupResult;

void        clarify_claude_setup_result_clear    (ClarifyClaudeSetupResult *result);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ClarifyClaudeSetupResult, clarify_claude_setup_result_clear)

/* The event ("PermissionRequest" …) and matcher ("" …) of @hook. */
const char *clarify_claude_hook_event            (ClarifyClaudeHook  hook);
const char *clarify_claude_hook_matcher          (ClarifyClaudeHook  hook);

/* $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json. */
char       *clarify_claude_settings_user_path    (void);
/* @project_dir/.claude/settings.json */
char       *clarify_claude_settings_project_path (const char        *project_dir);

/* The hook command: @program (an absolute path) followed by
 * `hook claude-code`, quoted for the shell when it needs to be; in
 * Flatpak, `flatpak run --command=clarify APP_ID hook claude-code`. */
char       *clarify_claude_hook_command          (const char        *program,
                                                  gboolean           flatpak);
gboolean    clarify_claude_hook_command_is_ours  (const char        *command);

/* On the parsed file: add @command's hooks (@command non-NULL) or remove
 * Clarify's (@command NULL), filling @changes. A file of another shape than
 * Claude Code's fails with G_IO_ERROR_INVALID_DATA and leaves @root as it was. */
gboolean    clarify_claude_settings_apply        (JsonNode          *root,
                                                  const char        *command,
                                                  ClarifyClaudeChange changes[CLARIFY_CLAUDE_N_HOOKS],
                                                  GError           **error);

/* The same on the file at @path: created with its folders when missing
 * (and adding), written atomically with its mode kept, the previous content
 * copied to PATH.clarify-backup first, and not touched at all when nothing
 * changes or on error. A symbolic link is followed, not replaced. */
gboolean    clarify_claude_settings_update       (const char        *path,
                                                  const char        *command,
                                                  ClarifyClaudeSetupResult *result,
                                                  GError           **error);

/* Whether the file at @path holds any of Clarify's hooks. */
gboolean    clarify_claude_settings_has_ours     (const char        *path);

G_END_DECLS
