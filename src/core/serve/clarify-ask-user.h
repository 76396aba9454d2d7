/* clarify-ask-user.h: the MCP tool "ask_user" (seed 001)
 *
 * One place for its definition, its input validation and its output, shared
 * by the HTTP endpoint and `clarify mcp-stdio`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

#define CLARIFY_ASK_USER_TOOL_NAME          "ask_user"
#define CLARIFY_ASK_USER_MIN_TIMEOUT_MS     10000
#define CLARIFY_ASK_USER_MAX_TIMEOUT_MS     1800000
#define CLARIFY_ASK_USER_DEFAULT_TIMEOUT_MS 300000
#define CLARIFY_ASK_USER_MAX_QUESTIONS      10
#define CLARIFY_ASK_USER_MAX_TITLE_CHARS    100
#define CLARIFY_ASK_USER_MAX_QUESTION_CHARS 1000
/* notifications/progress while a call waits: often enough for a client
 * whose timeout restarts on progress (the SDK's default is 60 s, and 20 s
 * still leaves room), rare enough to be no noise. */
#define CLARIFY_ASK_USER_PROGRESS_INTERVAL_MS 10000

/* {"name":"ask_user","description":…,"_meta":…,"inputSchema":…} for
 * tools/list; inputSchema is seed 001's, member for member. A new node each
 * call. */
JsonNode        *clarify_ask_user_get_tool         (void);

/* Validates tools/call arguments and builds the request (id @request_id,
 * timeout set, questions without an id named "q_…"). On a violation returns
 * NULL with CLARIFY_ERROR_INVALID and seed 001's text as the message
 * ("questions array must have at least 1 item", …). */
ClarifyRequest  *clarify_ask_user_parse            (JsonNode        *arguments,
                                                    const char      *request_id,
                                                    GError         **error);

/* The smallest timeout callers may ask for: 10000 ms, unless the test-only
 * environment variable CLARIFY_MCP_TEST_MIN_TIMEOUT_MS (read once) lowers it. */
guint            clarify_ask_user_get_min_timeout  (void);

/* How often a waiting call reports progress: 10000 ms, unless the
 * test-only environment variable CLARIFY_MCP_TEST_PROGRESS_INTERVAL_MS
 * (read once) lowers it. */
guint            clarify_ask_user_get_progress_interval (void);

/* {"answered","cancelled","timedOut","answers":[{"questionId","values",
 * "customText"?,"skipped"?}]} for @response to @request. A skipped question
 * has "values": [] and "skipped": true. */
JsonNode        *clarify_ask_user_build_output     (ClarifyRequest  *request,
                                                    ClarifyResponse *response);

/* A CallToolResult: {"content":[{"type":"text","text":@text}]}, plus
 * "isError": true when @is_error. */
JsonNode        *clarify_ask_user_tool_result      (const char      *text,
                                                    gboolean         is_error);

G_END_DECLS
