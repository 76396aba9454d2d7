/* clarify-mcp-listener.h: the MCP endpoint's listening socket and its
 * connections
 *
 * libsoup 3.2 has no idle timeout and no cap on connections, and its own
 * listener stops for good at the first accept that fails (EMFILE). This one
 * accepts on 127.0.0.1 itself and hands each connection to the SoupServer
 * (soup_server_accept_iostream), counting them:
 *
 *  - a connection that is not inside a call is idle: it must bring a whole
 *    request within the idle timeout of being accepted or of its last
 *    reply, or it is closed. A call being answered (its body read, its
 *    reply or event stream not yet written) is never cut off;
 *  - a reply its client does not read (the client's window stays shut)
 *    is given up once nothing could be sent for the idle timeout
 *    (TCP_USER_TIMEOUT), and the connection with it;
 *  - past the cap on connections the oldest idle one is closed for each
 *    newcomer; when every one is inside a call the newcomer gets 503;
 *  - an accept that fails for want of descriptors backs off and retries,
 *    closing idle connections to make room; a listening socket that is
 *    lost is made again on the same port, with back-off.
 *
 * ::notify::listening tells the endpoint's owner when new clients cannot
 * get in, and clarify_mcp_listener_get_error() why. Timers run only while
 * idle connections exist or a retry is due.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

#define CLARIFY_MCP_IDLE_TIMEOUT_MS   30000
#define CLARIFY_MCP_MAX_CONNECTIONS   1024

#define CLARIFY_TYPE_MCP_LISTENER (clarify_mcp_listener_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyMcpListener, clarify_mcp_listener, CLARIFY, MCP_LISTENER, GObject)

/* Connections accepted go to @server, which this holds. Raises the
 * process's soft limit on open files to the hard one, and caps connections
 * at half of it at most. */
ClarifyMcpListener *clarify_mcp_listener_new             (SoupServer          *server);
/* Listens on 127.0.0.1:@port (0 picks a free port), IPv4 only. */
gboolean            clarify_mcp_listener_listen          (ClarifyMcpListener  *self,
                                                          guint                port,
                                                          GError             **error);
/* Stops accepting; the connections there are live on. */
void                clarify_mcp_listener_close           (ClarifyMcpListener  *self);
/* Closes everything, the server's connections too. */
void                clarify_mcp_listener_disconnect      (ClarifyMcpListener  *self);

SoupServer         *clarify_mcp_listener_get_server      (ClarifyMcpListener  *self);
/* The port listened on, kept while the socket is being made again; 0
 * before the first listen and after close. */
guint               clarify_mcp_listener_get_port        (ClarifyMcpListener  *self);
/* Whether new clients get in right now. */
gboolean            clarify_mcp_listener_get_listening   (ClarifyMcpListener  *self);
/* Why they do not, while they do not. */
const char         *clarify_mcp_listener_get_error       (ClarifyMcpListener  *self);
guint               clarify_mcp_listener_get_n_connections (ClarifyMcpListener *self);

/* The socket @msg arrived on, when a ClarifyMcpListener accepted it. */
GSocket            *clarify_mcp_listener_get_message_socket (SoupServerMessage *msg);

/* For tests: shorter limits, and the listening socket itself. */
void                clarify_mcp_listener_set_limits      (ClarifyMcpListener  *self,
                                                          guint                idle_timeout_ms,
                                                          guint                max_connections);
GSocket            *clarify_mcp_listener_get_socket      (ClarifyMcpListener  *self);

G_END_DECLS
