/* clarify-mcp-server.h: the MCP endpoint, kind "mcp"
 *
 * Streamable HTTP on http://127.0.0.1:PORT/mcp serving the tool ask_user
 * (seed 001). It is a backend like any agent's: each valid tools/call
 * becomes a pending ClarifyRequest (::request-added), and
 * clarify_backend_deliver_async() sends the HTTP reply the client has been
 * waiting for. Every request must carry "Authorization: Bearer TOKEN"; a
 * foreign Origin is refused (DNS rebinding).
 *
 * A tools/call that waits for the user is answered with an event stream
 * when the client's Accept names text/event-stream: headers at once,
 * notifications/progress while the dialog is open (when the call carries a
 * progressToken), the result as the last event. Everything else, and every
 * reply to a client that takes only JSON, is application/json. There is no
 * server-initiated stream (GET /mcp is 405) and no resuming a broken one,
 * so a client that leaves mid-stream withdraws its question.
 * A session id is issued on initialize; requests without one are accepted,
 * requests with an unknown one get 404 so that the client re-initializes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-local-backend.h"
#include "clarify-mcp-config.h"
#include "clarify-mcp-listener.h"
#include "clarify-mcp-token.h"

G_BEGIN_DECLS

/* Above 1024, below Linux's ephemeral range (32768+), and clear of the
 * agents' own ports (OpenCode 4096, CodeNomad 9899, MCP Inspector 6274/6277)
 * and of common dev servers (3000, 5173, 8000, 8080). */
#define CLARIFY_MCP_PATH         "/mcp"
/* The name it is listed under, like a connection. */
#define CLARIFY_MCP_CONNECTION_NAME "MCP"

#define CLARIFY_TYPE_MCP_SERVER (clarify_mcp_server_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyMcpServer, clarify_mcp_server, CLARIFY, MCP_SERVER, ClarifyLocalBackend)

/* The port comes from @connection's URL (0 picks a free one, for tests). */
ClarifyBackend    *clarify_mcp_server_new                 (ClarifyConnection *connection);
/* The same with its token read (or made and stored) first, without
 * blocking: a slow keyring must not freeze the window. Fails only when
 * cancelled; without a token its start fails and says why. */
void               clarify_mcp_server_new_async           (ClarifyConnection   *connection,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
ClarifyBackend    *clarify_mcp_server_new_finish          (GAsyncResult        *result,
                                                           GError             **error);
/* The endpoint as configured: port @port_override when non-zero, else the
 * configured one (clarify_mcp_config_get_port). */
ClarifyBackend    *clarify_mcp_server_new_default         (guint              port_override);
/* "MCP", kind "mcp", http://127.0.0.1:@port/mcp */
ClarifyConnection *clarify_mcp_server_new_connection      (guint              port);

/* The port actually listened on, or 0 while not listening (:port notifies). */
guint              clarify_mcp_server_get_port            (ClarifyMcpServer  *self);
/* http://127.0.0.1:PORT/mcp while listening, else NULL. */
char              *clarify_mcp_server_get_url             (ClarifyMcpServer  *self);

/* Listens on @port from now on. The old port takes no new clients and
 * closes once the calls taken there are answered; when @port cannot be
 * listened on, the old one serves on and @error says why. Fails too while
 * the endpoint is not started. */
gboolean           clarify_mcp_server_set_port            (ClarifyMcpServer  *self,
                                                           guint              port,
                                                           GError           **error);

/* The listening socket and its connections while started, else NULL; for
 * tests. */
ClarifyMcpListener *clarify_mcp_server_get_listener       (ClarifyMcpServer  *self);

G_END_DECLS
