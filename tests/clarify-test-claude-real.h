/* clarify-test-claude-real.h: the real Claude Code, offline, for tests
 *
 * @anthropic-ai/claude-code (pinned) from npm, cached in the build dir. Each
 * session runs the interactive TUI in a detached tmux of fixed size (its own
 * server and socket) against a fake Anthropic Messages API on 127.0.0.1
 * whose tool calls the test scripts; the tool results Claude Code sends back
 * are recorded. Sessions share a private HOME with a ~/.claude.json that
 * skips the first-run prompts and trusts the project folders, and a
 * ~/.claude/settings.json with the hooks the test chooses.
 *
 * Nothing may leave loopback: the switches that keep Claude Code from
 * calling out are set, and HTTP(S)_PROXY points at the fake API, so that any
 * attempt that is left shows up among its strays.
 *
 * Needs no GTK: every wait iterates the thread-default main context, so
 * windows keep running meanwhile. If the test dies, a watchdog outside its
 * process group kills the tmux server, and with it Claude Code.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CLARIFY_TEST_CLAUDE_VERSION "2.1.332"
/* Starting, or a turn with its hooks, may take this long on a busy machine. */
#define CLARIFY_TEST_CLAUDE_SLOW_MS 60000
/* The terminal: wide and tall enough that a question with four options and
 * its descriptions is neither wrapped nor scrolled. */
#define CLARIFY_TEST_CLAUDE_COLUMNS 120
#define CLARIFY_TEST_CLAUDE_ROWS    40

/* One tool call the fake model makes. */
typedef struct
{
  const char *tool;   /* as Claude Code offers it: "AskUserQuestion", "Bash", "mcp__clarify__ask_user" */
  const char *input;  /* a JSON object, as text */
} ClarifyTestClaudeCall;

/* A tool result Claude Code sent back. */
typedef struct
{
  char     *tool_use_id;  /* "toolu_clarify_N" for the script's N-th call (1-based) */
  char     *content;      /* the text: the content string, or its text blocks joined by newlines */
  gboolean  is_error;
  gint64    received_at;  /* g_get_monotonic_time() when the request carrying it arrived */
} ClarifyTestClaudeResult;

/* The fake Messages API ----------------------------------------------------- */

/* The script: a request that offers the next call's tool makes that call
 * (streamed as Claude's API does: message_start, a tool_use block with its
 * input as input_json_delta, message_delta with stop_reason "tool_use",
 * message_stop); the first call on a user turn without results, call k + 1
 * after the result of call k. After the last result, the turn ends with the
 * text "All done.". Any other request (a side query, a turn without the tool
 * on offer) gets the text "OK.", streamed or not as asked. */
typedef struct _ClarifyTestClaudeApi ClarifyTestClaudeApi;

/* @script stays the caller's. Its server runs in a thread of its own and
 * wakes the caller's thread-default context on every request. */
ClarifyTestClaudeApi          *clarify_test_claude_api_new              (const ClarifyTestClaudeCall *script,
                                                                          guint                        n_script);
void                           clarify_test_claude_api_free             (ClarifyTestClaudeApi        *api);
/* http://127.0.0.1:PORT, Claude Code's ANTHROPIC_BASE_URL. */
const char                    *clarify_test_claude_api_get_url          (ClarifyTestClaudeApi        *api);

/* POST /v1/messages requests received so far. */
guint                          clarify_test_claude_api_get_n_requests   (ClarifyTestClaudeApi        *api);
/* The @index-th (0-based) such request's body, or NULL. */
JsonNode                      *clarify_test_claude_api_get_request      (ClarifyTestClaudeApi        *api,
                                                                          guint                        index);
/* When the script's @n-th (1-based) call was first streamed to Claude
 * Code, or 0. */
gint64                         clarify_test_claude_api_get_call_time    (ClarifyTestClaudeApi        *api,
                                                                          guint                        n);
/* Waits until @n such requests have arrived; whether they did in time. */
gboolean                       clarify_test_claude_api_wait_for_requests (ClarifyTestClaudeApi       *api,
                                                                          guint                        n,
                                                                          guint                        timeout_ms);

/* Tool results received so far, each once, in order. */
guint                          clarify_test_claude_api_get_n_results    (ClarifyTestClaudeApi        *api);
/* The @n-th (1-based) tool result once it has arrived (it stays the API's),
 * or NULL after @timeout_ms. */
const ClarifyTestClaudeResult *clarify_test_claude_api_wait_for_result  (ClarifyTestClaudeApi        *api,
                                                                          guint                        n,
                                                                          guint                        timeout_ms);

/* Every request that was neither POST /v1/messages nor
 * POST /v1/messages/count_tokens: "METHOD path" for API paths the fake does
 * not know (it answers 404) and, through the proxy, any attempt to reach
 * another host ("CONNECT host" with the client's Host header, or
 * "METHOD hostpath" for plain HTTP). Empty when everything stayed here. */
char                         **clarify_test_claude_api_get_strays       (ClarifyTestClaudeApi        *api);

/* The private HOME ---------------------------------------------------------- */

typedef struct _ClarifyTestClaudeHome ClarifyTestClaudeHome;

/* Installs Claude Code if needed and makes a temporary root with HOME, the
 * XDG dirs and one folder for each of @projects (NULL-terminated names),
 * trusted in ~/.claude.json. NULL when the test was skipped because npm
 * cannot reach the registry. */
ClarifyTestClaudeHome *clarify_test_claude_home_new       (const char * const    *projects);
/* Removes the root. Stop its sessions first. */
void                   clarify_test_claude_home_free      (ClarifyTestClaudeHome *home);
/* $HOME of the sessions. */
const char            *clarify_test_claude_home_get_dir   (ClarifyTestClaudeHome *home);
/* The folder of project @name (newly allocated). */
char                  *clarify_test_claude_home_get_project (ClarifyTestClaudeHome *home,
                                                           const char            *name);
/* For the sessions started after this: sets @name to @value (NULL: unsets)
 * in their environment, after the harness's own settings. The hooks Claude
 * Code runs inherit it: XDG_CONFIG_HOME for a Clarify the hook may start,
 * ENABLE_TOOL_SEARCH (false by default: the fake model calls MCP tools by
 * name and cannot search), MCP_TOOL_TIMEOUT … */
void                   clarify_test_claude_home_setenv    (ClarifyTestClaudeHome *home,
                                                           const char            *name,
                                                           const char            *value);
/* Adds a command hook for @event ("PermissionRequest", "PostToolUse" …)
 * with @matcher ("" matches every tool) to ~/.claude/settings.json, with
 * Claude Code's default timeout of 600 s. */
void                   clarify_test_claude_home_add_hook  (ClarifyTestClaudeHome *home,
                                                           const char            *event,
                                                           const char            *matcher,
                                                           const char            *command);
/* For the sessions started after this (their --mcp-config): the MCP
 * server @name, @server_json its configuration ({"type": "http", "url": …}). */
void                   clarify_test_claude_home_add_mcp_server (ClarifyTestClaudeHome *home,
                                                           const char            *name,
                                                           const char            *server_json);
/* The same for a stdio server that runs @argv (NULL-terminated). */
void                   clarify_test_claude_home_add_mcp_stdio (ClarifyTestClaudeHome *home,
                                                           const char            *name,
                                                           const char * const    *argv);
/* A hook command that appends its stdin, as one line, to the record @name
 * and prints @output (NULL: nothing); exits 0. */
char                  *clarify_test_claude_home_recording_hook (ClarifyTestClaudeHome *home,
                                                           const char            *name,
                                                           const char            *output);
/* The @n-th (1-based) input the record @name got, parsed, once it is there;
 * NULL after @timeout_ms. */
JsonNode              *clarify_test_claude_home_wait_for_hook_input (ClarifyTestClaudeHome *home,
                                                           const char            *name,
                                                           guint                  n,
                                                           guint                  timeout_ms);

/* A session ------------------------------------------------------------------ */

typedef struct _ClarifyTestClaude ClarifyTestClaude;

/* Starts `claude --session-id … [--mcp-config …] --permission-mode default
 * @prompt` in @home's project @project with a fake API of its own playing
 * @script (which stays the caller's). The prompt is the first user turn: the
 * script's first call follows at once. With MCP servers, whose tools Claude
 * Code offers only once they have connected, pass NULL and send the prompt
 * after clarify_test_claude_wait_for_mcp(). Several sessions may run at once. */
ClarifyTestClaude    *clarify_test_claude_start         (ClarifyTestClaudeHome       *home,
                                                         const char                  *project,
                                                         const ClarifyTestClaudeCall *script,
                                                         guint                        n_script,
                                                         const char                  *prompt);
/* Ends the session: kills its tmux server and waits until Claude Code and
 * its process group are gone, then stops the fake API. */
void                  clarify_test_claude_stop          (ClarifyTestClaude           *self);

ClarifyTestClaudeApi *clarify_test_claude_get_api       (ClarifyTestClaude           *self);
const char           *clarify_test_claude_get_project   (ClarifyTestClaude           *self);
/* The session id it was given (hooks get it as session_id). */
const char           *clarify_test_claude_get_session_id (ClarifyTestClaude          *self);
/* Claude Code's process id. */
GPid                  clarify_test_claude_get_pid       (ClarifyTestClaude           *self);
/* When it was started (g_get_monotonic_time()). */
gint64                clarify_test_claude_get_start_time (ClarifyTestClaude          *self);

/* The terminal's text now, wrapped lines joined. */
char                 *clarify_test_claude_capture       (ClarifyTestClaude           *self);
/* Waits until the terminal shows @text, looking again whenever Claude Code
 * writes to it; whether it did within @timeout_ms. */
gboolean              clarify_test_claude_wait_for_text (ClarifyTestClaude           *self,
                                                         const char                  *text,
                                                         guint                       timeout_ms);
/* Sends tmux key names ("Down", "Enter", "Tab", "Escape", "C-c"), one
 * after the other; NULL-terminated. */
void                  clarify_test_claude_send_keys     (ClarifyTestClaude           *self,
                                                         const char                  *key,
                                                         ...) G_GNUC_NULL_TERMINATED;
/* Types @text literally. */
void                  clarify_test_claude_send_text     (ClarifyTestClaude           *self,
                                                         const char                  *text);
/* Types @text into the empty prompt and sends it: a user turn. */
void                  clarify_test_claude_prompt        (ClarifyTestClaude           *self,
                                                         const char                  *text);
/* Waits until Claude Code has connected to the MCP server @name (as its
 * MCP log for this session says); whether it did within @timeout_ms. */
gboolean              clarify_test_claude_wait_for_mcp  (ClarifyTestClaude           *self,
                                                         const char                  *name,
                                                         guint                        timeout_ms);

G_END_DECLS
