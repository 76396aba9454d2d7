/* clarify-mcp-protocol.h: MCP's JSON-RPC 2.0 messages, transport aside
 *
 * Answers initialize, ping, tools/list and tools/call (the one tool
 * ask_user), accepts notifications, and hands each valid ask_user call to
 * an ask function: the MCP backend over HTTP, D-Bus in `clarify mcp-stdio`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-request.h"
#include "clarify-response.h"

#include "clarify-serve-enums.h"

G_BEGIN_DECLS

/* The protocol versions we speak, oldest first. */
#define CLARIFY_MCP_PROTOCOL_VERSIONS "2024-11-05", "2025-03-26", "2025-06-18"
#define CLARIFY_MCP_LATEST_PROTOCOL_VERSION "2025-06-18"

typedef enum
{
  CLARIFY_MCP_REPLY_NONE        = 0,
  /* The body was no JSON-RPC message at all (bad JSON, not an object, a
   * batch): an HTTP transport answers 400 with the error reply. */
  CLARIFY_MCP_REPLY_INVALID     = 1 << 0,
  /* A successful initialize: an HTTP transport opens a session. */
  CLARIFY_MCP_REPLY_INITIALIZED = 1 << 1,
} ClarifyMcpReplyFlags;

/* What a transport hears about a message before its reply. */
typedef enum
{
  /* A tools/call now waits for the user (@message is NULL): an HTTP
   * transport answers with an event stream from here on. */
  CLARIFY_MCP_EVENT_WAITING,
  /* @message, a JSON-RPC notification about the waiting call (its
   * notifications/progress), to send before the reply. */
  CLARIFY_MCP_EVENT_NOTIFICATION,
} ClarifyMcpEvent;

typedef void             (*ClarifyMcpEventFunc)     (ClarifyMcpEvent      event,
                                                     const char          *message,
                                                     gpointer             user_data);

/* Shows @request and completes with the user's ClarifyResponse. */
typedef void             (*ClarifyMcpAskFunc)       (ClarifyRequest      *request,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             callback_data,
                                                     gpointer             user_data);
typedef ClarifyResponse *(*ClarifyMcpAskFinishFunc) (GAsyncResult        *result,
                                                     gpointer             user_data,
                                                     GError             **error);

#define CLARIFY_TYPE_MCP_PROTOCOL (clarify_mcp_protocol_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyMcpProtocol, clarify_mcp_protocol, CLARIFY, MCP_PROTOCOL, GObject)

ClarifyMcpProtocol *clarify_mcp_protocol_new           (ClarifyMcpAskFunc        ask,
                                                        ClarifyMcpAskFinishFunc  ask_finish,
                                                        gpointer                 user_data);

/* Handles one message. @scope keys in-flight calls for
 * notifications/cancelled (the session id, or NULL). Cancelling
 * @cancellable (the client went away) withdraws a pending ask_user.
 * @event (may be NULL: the transport can carry nothing but the reply) is
 * called with @user_data while a tools/call waits: once WAITING, then, if
 * the call's params._meta.progressToken was given, a notifications/progress
 * every clarify_ask_user_get_progress_interval() until the reply is ready.
 * Its timer runs only while such a call waits. */
void                clarify_mcp_protocol_handle_async  (ClarifyMcpProtocol      *self,
                                                        const char              *scope,
                                                        const char              *data,
                                                        gsize                    length,
                                                        GCancellable            *cancellable,
                                                        ClarifyMcpEventFunc      event,
                                                        GAsyncReadyCallback      callback,
                                                        gpointer                 user_data);
/* The reply's JSON text, or NULL when there is none to send (a
 * notification, or a client's response). Never fails. */
char               *clarify_mcp_protocol_handle_finish (ClarifyMcpProtocol      *self,
                                                        GAsyncResult            *result,
                                                        ClarifyMcpReplyFlags    *flags);

/* Whether @version is one of CLARIFY_MCP_PROTOCOL_VERSIONS. */
gboolean            clarify_mcp_protocol_supports_version (const char           *version);


/* The clientInfo.name an initialize (the message of @result) carried, or
 * NULL. Valid while @result is. */
const char         *clarify_mcp_protocol_get_client_name (ClarifyMcpProtocol *self,
                                                          GAsyncResult       *result);
/* Names the client of @scope (NULL: the one client of a transport without
 * sessions); its ask_user requests carry it as their caller. An initialize
 * sets it for the scope it came in; a NULL @client_name forgets it. */
void                clarify_mcp_protocol_set_client      (ClarifyMcpProtocol *self,
                                                          const char         *scope,
                                                          const char         *client_name);

G_END_DECLS
