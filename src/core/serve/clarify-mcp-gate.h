/* clarify-mcp-gate.h: what the MCP endpoint refuses from a request's
 * headers, before a byte of its body is read
 *
 * A Host other than the loopback names with our port (DNS rebinding), a
 * foreign Origin, a missing or wrong bearer token and a body over
 * CLARIFY_MCP_MAX_BODY_BYTES, announced or chunked, are answered at once
 * and their connection closed: libsoup would read the whole body first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

#define CLARIFY_MCP_MAX_BODY_BYTES (1024 * 1024)

#define CLARIFY_TYPE_MCP_GATE (clarify_mcp_gate_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyMcpGate, clarify_mcp_gate, CLARIFY, MCP_GATE, GObject)

/* Requests must carry "Authorization: Bearer @token". */
ClarifyMcpGate *clarify_mcp_gate_new             (const char        *token);
/* The port a Host header may name (0: none passes with a port). */
void            clarify_mcp_gate_set_port        (ClarifyMcpGate    *self,
                                                  guint              port);
/* Checks the headers of every request @server reads from now on. */
void            clarify_mcp_gate_watch           (ClarifyMcpGate    *self,
                                                  SoupServer        *server);

gboolean        clarify_mcp_gate_check_auth      (ClarifyMcpGate    *self,
                                                  SoupServerMessage *msg);
/* No Origin, or one served from this machine's loopback. */
gboolean        clarify_mcp_gate_origin_allowed  (const char        *origin);
/* A text/plain reply with @status. */
void            clarify_mcp_gate_set_plain_reply (SoupServerMessage *msg,
                                                  guint              status,
                                                  const char        *text);

G_END_DECLS
