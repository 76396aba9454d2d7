/* clarify-request-source.h: where a request comes from, in the title bar
 *
 * The agent as its own UI names it ("OpenCode", "Claude Code") as title,
 * the project folder's name as subtitle; the connection, its kind, the whole
 * path and the session's id as tooltip.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-request.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_REQUEST_SOURCE (clarify_request_source_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequestSource, clarify_request_source, CLARIFY, REQUEST_SOURCE, AdwBin)

ClarifyRequest *clarify_request_source_get_request (ClarifyRequestSource *self);
void            clarify_request_source_set_request (ClarifyRequestSource *self,
                                                    ClarifyRequest       *request);
/* The agent's name as shown, or NULL when it is not known. */
const char     *clarify_request_source_get_name    (ClarifyRequestSource *self);

/* Who asks, in one short name for a list row or a notification: the
 * calling program as its users know it (an MCP client's clientInfo.name),
 * "A program on this computer" for other local callers (as the dialog
 * names them), else the connection's name. */
const char     *clarify_request_source_get_asker   (ClarifyRequest       *request);
/* The same as a name for a sentence: NULL for an unnamed local caller. */
const char     *clarify_request_source_get_agent_name (ClarifyRequest    *request);
/* An MCP client's id ("opencode") as its users know the program ("OpenCode"). */
const char     *clarify_request_source_name_caller (const char           *caller);
/* A connection's name as the dialog names its asker: the built-in
 * D-Bus and MCP connections are "A program on this computer". */
const char     *clarify_request_source_name_connection (const char       *connection);

G_END_DECLS
