/* clarify-mcp-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <string.h>
#include <sys/socket.h>

#include "clarify-mcp-config.h"
#include "clarify-mcp-gate.h"
#include "clarify-mcp-listener.h"
#include "clarify-mcp-protocol.h"
#include "clarify-mcp-server.h"
#include "clarify-mcp-token.h"
#include "clarify-secret.h"

/* Sessions are cheap markers; the oldest are forgotten past this many
 * (their clients get 404 and simply initialize again). */
#define MAX_SESSIONS 256

struct _ClarifyMcpServer
{
  ClarifyLocalBackend  parent_instance;

  ClarifyMcpListener  *listener;
  /* After stop: the old one, kept until the last reply has gone out. */
  ClarifyMcpListener  *draining;
  /* Paused requests and replies not yet written. */
  guint                n_replying;
  ClarifyMcpProtocol  *protocol;
  /* The token and the port requests must name; kept for the draining one. */
  ClarifyMcpGate      *gate;
  guint                port;
  /* Read before it was made (clarify_mcp_server_new_async), else NULL;
   * or why it could not be. */
  char                *token;
  GError              *token_error;

  GHashTable          *sessions;
  GQueue               session_order;
};

G_DEFINE_FINAL_TYPE (ClarifyMcpServer, clarify_mcp_server, CLARIFY_TYPE_LOCAL_BACKEND)

enum {
  PROP_0,
  PROP_PORT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The port listened on changed (0: none); the window shows it. */
static void
set_listening_port (ClarifyMcpServer *self,
                    guint             port)
{
  if (self->port == port)
    return;

  self->port = port;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PORT]);
}

/* One HTTP request waiting for its reply. */
typedef struct
{
  ClarifyMcpServer  *server;
  SoupServerMessage *msg;
  GCancellable      *cancellable;
  GSource           *socket_source;
  gulong             finished_id;
  /* The client is gone, as its socket or libsoup tells. */
  gboolean           finished;
  /* libsoup is done with msg: nothing may touch it any more. */
  gboolean           soup_finished;
  /* The reply is an event stream whose headers have gone out. */
  gboolean           streaming;
  char              *session_id;
} Exchange;

static void
exchange_free (Exchange *exchange)
{
  if (exchange->socket_source != NULL)
    {
      g_source_destroy (exchange->socket_source);
      g_clear_pointer (&exchange->socket_source, g_source_unref);
    }
  g_clear_signal_handler (&exchange->finished_id, exchange->msg);
  g_clear_object (&exchange->msg);
  g_clear_object (&exchange->cancellable);
  g_free (exchange->session_id);
  g_free (exchange);
}

static void
exchange_client_gone (Exchange *exchange)
{
  exchange->finished = TRUE;
  if (exchange->socket_source != NULL)
    {
      g_source_destroy (exchange->socket_source);
      g_clear_pointer (&exchange->socket_source, g_source_unref);
    }
  g_cancellable_cancel (exchange->cancellable);
}

static void
exchange_finished_cb (SoupServerMessage *msg,
                      Exchange          *exchange)
{
  /* Before our reply: the connection closed or the server went down. */
  exchange->soup_finished = TRUE;
  exchange_client_gone (exchange);
}

/* Whether the client takes an event stream as the reply: its Accept must
 * name text/event-stream (MCP clients send "application/json,
 * text/event-stream"); anything else gets application/json. */
static gboolean
accepts_event_stream (SoupMessageHeaders *headers)
{
  const char *accept = soup_message_headers_get_list (headers, "Accept");
  GSList *acceptable;
  gboolean found = FALSE;

  if (accept == NULL)
    return FALSE;

  acceptable = soup_header_parse_quality_list (accept, NULL);
  for (GSList *l = acceptable; l != NULL && !found; l = l->next)
    found = g_ascii_strcasecmp (l->data, "text/event-stream") == 0;
  soup_header_free_list (acceptable);

  return found;
}

/* One SSE event carrying one JSON-RPC message, framed as the reference
 * SDK's server frames it. JSON text from json-glib has no raw newlines. */
static void
exchange_send_event (Exchange   *exchange,
                     const char *json)
{
  char *event = g_strdup_printf ("event: message\ndata: %s\n\n", json);
  gsize length = strlen (event);

  soup_message_body_append (soup_server_message_get_response_body (exchange->msg),
                            SOUP_MEMORY_TAKE, event, length);
  soup_server_message_unpause (exchange->msg);
}

/* The headers go out now, so that the client knows the call is alive
 * (Claude Code gives up on a reply without headers after 60 s); the
 * JSON-RPC reply follows as the stream's last event. */
static void
exchange_open_stream (Exchange *exchange)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (exchange->msg);

  soup_server_message_set_status (exchange->msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  exchange->streaming = TRUE;
  soup_server_message_unpause (exchange->msg);
}

static void
exchange_event_cb (ClarifyMcpEvent  event,
                   const char      *message,
                   gpointer         user_data)
{
  Exchange *exchange = user_data;

  if (exchange->finished)
    return;

  if (event == CLARIFY_MCP_EVENT_WAITING && !exchange->streaming)
    exchange_open_stream (exchange);
  else if (event == CLARIFY_MCP_EVENT_NOTIFICATION && exchange->streaming)
    exchange_send_event (exchange, message);
}

/* A paused message is not read, so libsoup would not notice the client
 * closing its end; the socket tells us. */
static gboolean
exchange_socket_cb (GSocket      *socket,
                    GIOCondition  condition,
                    gpointer      data)
{
  Exchange *exchange = data;
  char byte;
  gssize n;

  if (condition & (G_IO_HUP | G_IO_ERR))
    {
      g_clear_pointer (&exchange->socket_source, g_source_unref);
      exchange_client_gone (exchange);
      return G_SOURCE_REMOVE;
    }

  n = recv (g_socket_get_fd (socket), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
    {
      g_clear_pointer (&exchange->socket_source, g_source_unref);
      exchange_client_gone (exchange);
      return G_SOURCE_REMOVE;
    }

  if (n > 0)
    {
      /* A pipelined request: the client is alive, and the bytes are libsoup's. */
      g_clear_pointer (&exchange->socket_source, g_source_unref);
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static void
clarify_mcp_server_add_session (ClarifyMcpServer *self,
                                const char       *session_id)
{
  g_hash_table_add (self->sessions, g_strdup (session_id));
  g_queue_push_tail (&self->session_order, g_strdup (session_id));

  while (g_queue_get_length (&self->session_order) > MAX_SESSIONS)
    {
      g_autofree char *oldest = g_queue_pop_head (&self->session_order);

      g_hash_table_remove (self->sessions, oldest);
      clarify_mcp_protocol_set_client (self->protocol, oldest, NULL);
    }
}

static void
clarify_mcp_server_remove_session (ClarifyMcpServer *self,
                                   const char       *session_id)
{
  GList *link = g_queue_find_custom (&self->session_order, session_id, (GCompareFunc) g_strcmp0);

  if (link != NULL)
    {
      g_free (link->data);
      g_queue_delete_link (&self->session_order, link);
    }
  g_hash_table_remove (self->sessions, session_id);
  clarify_mcp_protocol_set_client (self->protocol, session_id, NULL);
}

static void
clarify_mcp_server_drain (ClarifyMcpServer *self)
{
  if (self->draining != NULL && self->n_replying == 0)
    {
      clarify_mcp_listener_disconnect (self->draining);
      g_clear_object (&self->draining);
    }
}

static gboolean
drain_idle_cb (gpointer data)
{
  clarify_mcp_server_drain (data);
  return G_SOURCE_REMOVE;
}

static void
reply_finished_cb (SoupServerMessage *msg,
                   ClarifyMcpServer  *self)
{
  g_signal_handlers_disconnect_by_func (msg, reply_finished_cb, self);
  self->n_replying--;
  /* Not from inside the message's own signal: disconnecting frees it. */
  if (self->draining != NULL && self->n_replying == 0)
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, drain_idle_cb, g_object_ref (self), g_object_unref);
  g_object_unref (self);
}

static void
handle_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Exchange *exchange = user_data;
  ClarifyMcpServer *self = exchange->server;
  ClarifyMcpReplyFlags flags = CLARIFY_MCP_REPLY_NONE;
  g_autofree char *reply = NULL;

  reply = clarify_mcp_protocol_handle_finish (CLARIFY_MCP_PROTOCOL (object), result, &flags);

  if (exchange->streaming && !exchange->soup_finished)
    {
      /* The last event, then the end of the stream. To a client that has
       * left this write fails, which is how libsoup lets go of it. */
      if (reply != NULL)
        exchange_send_event (exchange, reply);
      soup_message_body_complete (soup_server_message_get_response_body (exchange->msg));
      g_signal_connect (exchange->msg, "finished", G_CALLBACK (reply_finished_cb), g_object_ref (self));
      soup_server_message_unpause (exchange->msg);
    }

  else if (!exchange->finished)
    {
      SoupMessageHeaders *headers = soup_server_message_get_response_headers (exchange->msg);

      if (flags & CLARIFY_MCP_REPLY_INITIALIZED)
        {
          g_autofree char *session_id = clarify_mcp_token_random (18);

          clarify_mcp_server_add_session (self, session_id);
          soup_message_headers_replace (headers, "Mcp-Session-Id", session_id);
          /* The client is known by its session from now on. */
          clarify_mcp_protocol_set_client (self->protocol, session_id,
                                           clarify_mcp_protocol_get_client_name (self->protocol, result));
          clarify_mcp_protocol_set_client (self->protocol, NULL, NULL);
        }

      if (reply == NULL)
        soup_server_message_set_status (exchange->msg, SOUP_STATUS_ACCEPTED, NULL);
      else
        {
          gsize length = strlen (reply);

          soup_server_message_set_status (exchange->msg,
                                          (flags & CLARIFY_MCP_REPLY_INVALID) ? SOUP_STATUS_BAD_REQUEST : SOUP_STATUS_OK,
                                          NULL);
          soup_server_message_set_response (exchange->msg, "application/json", SOUP_MEMORY_TAKE,
                                            g_steal_pointer (&reply), length);
        }

      /* Still counted until written, so that stopping does not cut it off. */
      g_signal_connect (exchange->msg, "finished", G_CALLBACK (reply_finished_cb), g_object_ref (self));
      soup_server_message_unpause (exchange->msg);
    }

  else
    {
      self->n_replying--;
      clarify_mcp_server_drain (self);
    }

  exchange_free (exchange);
  g_object_unref (self);
}

static void
clarify_mcp_server_handle_post (ClarifyMcpServer  *self,
                                SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *session_id = soup_message_headers_get_one (headers, "Mcp-Session-Id");
  const char *version = soup_message_headers_get_one (headers, "MCP-Protocol-Version");
  g_autoptr(GBytes) body = NULL;
  Exchange *exchange;
  GSocket *socket;

  if (version != NULL && !clarify_mcp_protocol_supports_version (version))
    {
      clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_BAD_REQUEST, "Unsupported MCP-Protocol-Version\n");
      return;
    }

  if (session_id != NULL && !g_hash_table_contains (self->sessions, session_id))
    {
      clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_NOT_FOUND, "Unknown or expired session\n");
      return;
    }

  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  if (g_bytes_get_size (body) > CLARIFY_MCP_MAX_BODY_BYTES)
    {
      clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "Request too large\n");
      return;
    }

  exchange = g_new0 (Exchange, 1);
  exchange->server = g_object_ref (self);
  exchange->msg = g_object_ref (msg);
  exchange->cancellable = g_cancellable_new ();
  exchange->session_id = g_strdup (session_id);
  exchange->finished_id = g_signal_connect (msg, "finished", G_CALLBACK (exchange_finished_cb), exchange);

  socket = clarify_mcp_listener_get_message_socket (msg);
  if (socket != NULL)
    {
      exchange->socket_source = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
      g_source_set_callback (exchange->socket_source, (GSourceFunc) (GCallback) exchange_socket_cb,
                             exchange, NULL);
      g_source_attach (exchange->socket_source, g_main_context_get_thread_default ());
    }

  soup_server_message_pause (msg);
  self->n_replying++;

  clarify_mcp_protocol_handle_async (self->protocol, session_id,
                                     g_bytes_get_data (body, NULL), g_bytes_get_size (body),
                                     exchange->cancellable,
                                     accepts_event_stream (headers) ? exchange_event_cb : NULL,
                                     handle_cb, exchange);
}

static void
clarify_mcp_server_handler (SoupServer        *server,
                            SoupServerMessage *msg,
                            const char        *path,
                            GHashTable        *query,
                            gpointer           user_data)
{
  ClarifyMcpServer *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *response_headers = soup_server_message_get_response_headers (msg);
  const char *method = soup_server_message_get_method (msg);

  if (g_strcmp0 (path, CLARIFY_MCP_PATH) != 0)
    {
      clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_NOT_FOUND, "Not found\n");
      return;
    }

  if (!clarify_mcp_gate_origin_allowed (soup_message_headers_get_one (headers, "Origin")))
    {
      clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_FORBIDDEN, "Origin not allowed\n");
      return;
    }

  if (!clarify_mcp_gate_check_auth (self->gate, msg))
    {
      soup_message_headers_replace (response_headers, "WWW-Authenticate", "Bearer realm=\"clarify\"");
      clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_UNAUTHORIZED, "Missing or wrong bearer token\n");
      return;
    }

  if (g_str_equal (method, "POST"))
    clarify_mcp_server_handle_post (self, msg);
  else if (g_str_equal (method, "DELETE"))
    {
      const char *session_id = soup_message_headers_get_one (headers, "Mcp-Session-Id");

      if (session_id == NULL)
        clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_BAD_REQUEST, "Mcp-Session-Id required\n");
      else if (!g_hash_table_contains (self->sessions, session_id))
        clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_NOT_FOUND, "Unknown or expired session\n");
      else
        {
          clarify_mcp_server_remove_session (self, session_id);
          soup_server_message_set_status (msg, SOUP_STATUS_NO_CONTENT, NULL);
        }
    }
  else
    {
      /* No server-initiated stream (GET): every reply travels with its request. */
      soup_message_headers_replace (response_headers, "Allow", "POST, DELETE");
      clarify_mcp_gate_set_plain_reply (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "Method not allowed\n");
    }
}

static void
ask_func (ClarifyRequest      *request,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             callback_data,
          gpointer             user_data)
{
  clarify_local_backend_ask_async (CLARIFY_LOCAL_BACKEND (user_data), request, cancellable,
                                   callback, callback_data);
}

static ClarifyResponse *
ask_finish_func (GAsyncResult  *result,
                 gpointer       user_data,
                 GError       **error)
{
  return clarify_local_backend_ask_finish (CLARIFY_LOCAL_BACKEND (user_data), result, error);
}

static guint
clarify_mcp_server_get_wanted_port (ClarifyMcpServer  *self,
                                    GError           **error)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_autoptr(GUri) uri = NULL;
  const char *url = connection != NULL ? clarify_connection_get_url (connection) : NULL;
  gint port;

  if (url == NULL)
    return CLARIFY_MCP_DEFAULT_PORT;

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, error);
  if (uri == NULL)
    return G_MAXUINT;

  port = g_uri_get_port (uri);

  return port < 0 ? CLARIFY_MCP_DEFAULT_PORT : (guint) port;
}

/* New clients cannot get in: the state says so until they can again. */
static void
listening_cb (ClarifyMcpListener *listener,
              GParamSpec         *pspec,
              ClarifyMcpServer   *self)
{
  ClarifyBackend *backend = CLARIFY_BACKEND (self);
  g_autofree char *address = NULL;

  if (listener != self->listener)
    return;

  if (clarify_mcp_listener_get_listening (listener))
    {
      clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_LISTENING, NULL, NULL);
      return;
    }

  /* Calls already taken are still answered: not "reconnecting", whose
   * dialogs would say the agent cannot be reached. */
  address = g_strdup_printf ("127.0.0.1:%u", self->port);
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTING, CLARIFY_BACKEND_NOTE_CANNOT_LISTEN,
                             address, clarify_mcp_listener_get_error (listener));
}

/* A server and its listener on 127.0.0.1:@port, sharing the gate. */
static ClarifyMcpListener *
clarify_mcp_server_listen (ClarifyMcpServer  *self,
                           guint              port,
                           GError           **error)
{
  g_autoptr(SoupServer) server = soup_server_new ("server-header", "clarify ", NULL);
  g_autoptr(ClarifyMcpListener) listener = NULL;

  soup_server_add_handler (server, CLARIFY_MCP_PATH, clarify_mcp_server_handler, self, NULL);
  clarify_mcp_gate_watch (self->gate, server);
  listener = clarify_mcp_listener_new (server);

  /* Loopback and IPv4 only: the URL clients are given is 127.0.0.1. */
  if (!clarify_mcp_listener_listen (listener, port, error))
    {
      clarify_mcp_listener_disconnect (listener);
      return NULL;
    }

  g_signal_connect_object (listener, "notify::listening", G_CALLBACK (listening_cb), self, 0);

  return g_steal_pointer (&listener);
}

/* The old listener takes no new clients and goes once its last reply is out. */
static void
clarify_mcp_server_retire_listener (ClarifyMcpServer *self)
{
  if (self->listener == NULL)
    return;

  if (self->draining != NULL)
    clarify_mcp_listener_disconnect (self->draining);
  g_clear_object (&self->draining);
  /* Set aside first: its "not listening" is no news about the endpoint. */
  self->draining = g_steal_pointer (&self->listener);
  clarify_mcp_listener_close (self->draining);
}

static void
clarify_mcp_server_start (ClarifyBackend *backend)
{
  ClarifyMcpServer *self = CLARIFY_MCP_SERVER (backend);
  g_autoptr(GError) error = NULL;
  char *token;
  g_autofree char *address = NULL;
  guint wanted_port;

  if (self->listener != NULL)
    return;

  if (self->draining != NULL)
    {
      clarify_mcp_listener_disconnect (self->draining);
      g_clear_object (&self->draining);
    }

  wanted_port = clarify_mcp_server_get_wanted_port (self, &error);
  if (wanted_port == G_MAXUINT)
    {
      clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_FAILED,
                                 CLARIFY_BACKEND_NOTE_BAD_ADDRESS, NULL, error->message);
      return;
    }

  /* Made with its token (the application's way), nothing waits for the
   * keyring here; else (tests) it is read now. */
  if (self->token_error != NULL)
    {
      error = g_error_copy (self->token_error);
      token = NULL;
    }
  else
    {
      token = self->token != NULL ? g_strdup (self->token) : clarify_mcp_token_ensure (&error);
    }
  if (token == NULL)
    {
      g_message ("Cannot create the MCP access token: %s", error->message);
      clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_FAILED,
                                 CLARIFY_BACKEND_NOTE_NO_TOKEN, NULL, error->message);
      return;
    }

  g_clear_object (&self->gate);
  self->gate = clarify_mcp_gate_new (token);
  clarify_secret_free (token);

  self->listener = clarify_mcp_server_listen (self, wanted_port, &error);
  if (self->listener == NULL)
    {
      address = g_strdup_printf ("127.0.0.1:%u", wanted_port);
      g_message ("Cannot listen on %s for MCP clients: %s", address, error->message);
      clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_FAILED,
                                 CLARIFY_BACKEND_NOTE_CANNOT_LISTEN, address, error->message);
      return;
    }

  set_listening_port (self, clarify_mcp_listener_get_port (self->listener));
  clarify_mcp_gate_set_port (self->gate, self->port);
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_LISTENING, NULL, NULL);
}

static void
clarify_mcp_server_stop (ClarifyBackend *backend)
{
  ClarifyMcpServer *self = CLARIFY_MCP_SERVER (backend);

  /* No new clients; those waiting get their (error) replies, and the
   * server goes once the last one is written. */
  clarify_mcp_server_retire_listener (self);
  set_listening_port (self, 0);
  if (self->gate != NULL)
    clarify_mcp_gate_set_port (self->gate, 0);

  CLARIFY_BACKEND_CLASS (clarify_mcp_server_parent_class)->stop (backend);
  clarify_mcp_server_drain (self);

  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_IDLE, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
clarify_mcp_server_dispose (GObject *object)
{
  ClarifyMcpServer *self = CLARIFY_MCP_SERVER (object);

  if (self->listener != NULL)
    clarify_mcp_listener_disconnect (self->listener);
  g_clear_object (&self->listener);
  if (self->draining != NULL)
    clarify_mcp_listener_disconnect (self->draining);
  g_clear_object (&self->draining);

  G_OBJECT_CLASS (clarify_mcp_server_parent_class)->dispose (object);
}

static void
clarify_mcp_server_finalize (GObject *object)
{
  ClarifyMcpServer *self = CLARIFY_MCP_SERVER (object);

  g_clear_object (&self->gate);
  g_clear_object (&self->protocol);
  g_clear_pointer (&self->token, clarify_secret_free);
  g_clear_error (&self->token_error);
  g_clear_pointer (&self->sessions, g_hash_table_unref);
  g_queue_clear_full (&self->session_order, g_free);

  G_OBJECT_CLASS (clarify_mcp_server_parent_class)->finalize (object);
}

static void
clarify_mcp_server_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  ClarifyMcpServer *self = CLARIFY_MCP_SERVER (object);

  switch (prop_id)
    {
    case PROP_PORT:
      g_value_set_uint (value, self->port);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_mcp_server_class_init (ClarifyMcpServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  object_class->dispose = clarify_mcp_server_dispose;
  object_class->finalize = clarify_mcp_server_finalize;
  object_class->get_property = clarify_mcp_server_get_property;

  properties[PROP_PORT] =
    g_param_spec_uint ("port", NULL, NULL, 0, 65535, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  backend_class->start = clarify_mcp_server_start;
  backend_class->stop = clarify_mcp_server_stop;
}

static void
clarify_mcp_server_init (ClarifyMcpServer *self)
{
  self->protocol = clarify_mcp_protocol_new (ask_func, ask_finish_func, self);
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&self->session_order);
}

ClarifyConnection *
clarify_mcp_server_new_connection (guint port)
{
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u" CLARIFY_MCP_PATH, port);

  return clarify_connection_new (CLARIFY_MCP_CONNECTION_NAME, "mcp", url);
}

ClarifyBackend *
clarify_mcp_server_new (ClarifyConnection *connection)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);

  return g_object_new (CLARIFY_TYPE_MCP_SERVER,
                       "connection", connection,
                       NULL);
}

static void
server_token_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  char *token = clarify_mcp_token_ensure_finish (result, &error);
  ClarifyMcpServer *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Without a token it is made all the same: its start says why it
   * cannot serve, where the user sees connections. */
  self = CLARIFY_MCP_SERVER (clarify_mcp_server_new (g_task_get_task_data (task)));
  self->token = token;
  self->token_error = g_steal_pointer (&error);
  g_task_return_pointer (task, self, g_object_unref);
}

void
clarify_mcp_server_new_async (ClarifyConnection   *connection,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (CLARIFY_IS_CONNECTION (connection));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_mcp_server_new_async);
  g_task_set_task_data (task, g_object_ref (connection), g_object_unref);
  clarify_mcp_token_ensure_async (cancellable, server_token_cb, task);
}

ClarifyBackend *
clarify_mcp_server_new_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

ClarifyBackend *
clarify_mcp_server_new_default (guint port_override)
{
  g_autoptr(ClarifyConnection) connection = NULL;

  connection = clarify_mcp_server_new_connection (port_override != 0
                                                  ? port_override
                                                  : clarify_mcp_config_get_port ());

  return clarify_mcp_server_new (connection);
}

guint
clarify_mcp_server_get_port (ClarifyMcpServer *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_SERVER (self), 0);

  return self->port;
}

char *
clarify_mcp_server_get_url (ClarifyMcpServer *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_SERVER (self), NULL);

  if (self->port == 0)
    return NULL;

  return g_strdup_printf ("http://127.0.0.1:%u" CLARIFY_MCP_PATH, self->port);
}

/* Started with its token, but its port was taken. */
static gboolean
cannot_listen (ClarifyMcpServer *self)
{
  ClarifyBackend *backend = CLARIFY_BACKEND (self);

  return clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_FAILED &&
         clarify_backend_get_note (backend) == CLARIFY_BACKEND_NOTE_CANNOT_LISTEN;
}

gboolean
clarify_mcp_server_set_port (ClarifyMcpServer  *self,
                             guint              port,
                             GError           **error)
{
  g_autoptr(ClarifyMcpListener) listener = NULL;

  g_return_val_if_fail (CLARIFY_IS_MCP_SERVER (self), FALSE);
  g_return_val_if_fail (port > 0 && port <= 65535, FALSE);

  /* Not serving: the port applies at the next start. One whose port was
   * taken is started, though: the new port is what it waits for. */
  if (self->gate == NULL || (self->listener == NULL && !cannot_listen (self)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED, "The MCP endpoint is not running");
      return FALSE;
    }
  if (self->listener != NULL && port == self->port)
    return TRUE;

  listener = clarify_mcp_server_listen (self, port, error);
  if (listener == NULL)
    return FALSE;

  /* Calls taken on the old port are still answered there. */
  clarify_mcp_server_retire_listener (self);
  self->listener = g_steal_pointer (&listener);
  set_listening_port (self, clarify_mcp_listener_get_port (self->listener));
  clarify_mcp_gate_set_port (self->gate, self->port);
  clarify_mcp_server_drain (self);
  clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_CONNECTED,
                             CLARIFY_BACKEND_NOTE_LISTENING, NULL, NULL);

  return TRUE;
}

ClarifyMcpListener *
clarify_mcp_server_get_listener (ClarifyMcpServer *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_SERVER (self), NULL);

  return self->listener;
}
