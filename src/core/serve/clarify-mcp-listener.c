/* clarify-mcp-listener.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "clarify-mcp-listener.h"

#define RETRY_FIRST_MS 250
#define RETRY_MAX_MS   30000
/* Accepted in one go before the loop gets a turn again. */
#define ACCEPT_BATCH   64
/* Idle connections closed at once when descriptors run out. */
#define EVICT_BATCH    16
#define CONN_KEY       "clarify-mcp-connection"

/* One accepted connection. Found from a message through its remote
 * address, the object libsoup was given and keeps. */
typedef struct
{
  ClarifyMcpListener *listener;
  GSocket            *socket;
  GSocketAddress     *remote;
  /* Weak: libsoup owns it, and letting go of it is how a connection ends. */
  GSocketConnection  *stream;
  /* In listener->idle while not inside a call, oldest first. */
  GList              *idle_link;
  gint64              idle_since;
} Connection;

struct _ClarifyMcpListener
{
  GObject     parent_instance;

  SoupServer *server;
  GSocket    *socket;
  GSource    *accept_source;
  guint       port;
  gboolean    listening;
  char       *error;

  /* Every live connection (a set), and the idle ones, oldest first. */
  GHashTable *connections;
  GQueue      idle;
  guint       idle_source_id;

  guint       retry_source_id;
  guint       retry_ms;

  guint       idle_timeout_ms;
  guint       max_connections;
  /* Logged once per episode, not once per client. */
  gboolean    refusing_logged;
};

G_DEFINE_FINAL_TYPE (ClarifyMcpListener, clarify_mcp_listener, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LISTENING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean accept_cb (GSocket      *socket,
                           GIOCondition  condition,
                           gpointer      data);
static void     arm_idle_timer (ClarifyMcpListener *self);

static void
set_listening (ClarifyMcpListener *self,
               gboolean            listening,
               const char         *error)
{
  if (listening)
    error = NULL;
  if (self->listening == listening && g_strcmp0 (self->error, error) == 0)
    return;

  self->listening = listening;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LISTENING]);
}

static void
connection_free (Connection *connection)
{
  ClarifyMcpListener *self = connection->listener;

  if (connection->idle_link != NULL)
    g_queue_delete_link (&self->idle, g_steal_pointer (&connection->idle_link));
  g_object_set_data (G_OBJECT (connection->remote), CONN_KEY, NULL);
  g_clear_object (&connection->remote);
  g_clear_object (&connection->socket);
  g_free (connection);
}

/* libsoup let go of the stream: the connection is over. Its descriptor is
 * closed here too, for a stream taken over and dropped without closing. */
static void
connection_gone_cb (gpointer  data,
                    GObject  *where_the_object_was)
{
  Connection *connection = data;

  connection->stream = NULL;
  g_socket_close (connection->socket, NULL);
  g_hash_table_remove (connection->listener->connections, connection);
}

/* Shut down, not closed: libsoup still polls the descriptor, and sees the
 * end of the stream there, and lets go of it in its own time. */
static void
connection_evict (Connection *connection)
{
  g_socket_shutdown (connection->socket, TRUE, TRUE, NULL);
  if (connection->stream != NULL)
    g_object_weak_unref (G_OBJECT (connection->stream), connection_gone_cb, connection);
  g_hash_table_remove (connection->listener->connections, connection);
}

static void
connection_set_idle (Connection *connection,
                     gboolean    idle)
{
  ClarifyMcpListener *self = connection->listener;

  if (connection->idle_link != NULL)
    g_queue_delete_link (&self->idle, g_steal_pointer (&connection->idle_link));

  if (idle)
    {
      connection->idle_since = g_get_monotonic_time ();
      g_queue_push_tail (&self->idle, connection);
      connection->idle_link = self->idle.tail;
      arm_idle_timer (self);
    }
}

static gboolean
idle_timeout_cb (gpointer data)
{
  ClarifyMcpListener *self = data;
  gint64 deadline = g_get_monotonic_time () - (gint64) self->idle_timeout_ms * 1000;
  Connection *oldest;

  self->idle_source_id = 0;
  while ((oldest = g_queue_peek_head (&self->idle)) != NULL && oldest->idle_since <= deadline)
    connection_evict (oldest);
  arm_idle_timer (self);

  return G_SOURCE_REMOVE;
}

/* One timer, for the oldest idle connection; none while there is none. */
static void
arm_idle_timer (ClarifyMcpListener *self)
{
  Connection *oldest = g_queue_peek_head (&self->idle);
  gint64 due_ms;

  if (self->idle_source_id != 0 || oldest == NULL)
    return;

  /* A little late, so that connections idle since about the same time go
   * in one wakeup. */
  due_ms = (oldest->idle_since - g_get_monotonic_time ()) / 1000 + self->idle_timeout_ms +
           self->idle_timeout_ms / 16 + 1;
  self->idle_source_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) CLAMP (due_ms, 0, G_MAXUINT),
                                             idle_timeout_cb, self, NULL);
}

static Connection *
lookup_connection (SoupServerMessage *msg)
{
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);

  return remote != NULL ? g_object_get_data (G_OBJECT (remote), CONN_KEY) : NULL;
}

/* The request is read and about to be handled: a call, not idle. */
static void
request_read_cb (SoupServer         *server,
                 SoupServerMessage  *msg,
                 ClarifyMcpListener *self)
{
  Connection *connection = lookup_connection (msg);

  if (connection != NULL && connection->listener == self)
    connection_set_idle (connection, FALSE);
}

/* The reply is written (or the call broke off): idle again, if still open. */
static void
request_done_cb (SoupServer         *server,
                 SoupServerMessage  *msg,
                 ClarifyMcpListener *self)
{
  Connection *connection = lookup_connection (msg);

  if (connection != NULL && connection->listener == self && connection->idle_link == NULL)
    connection_set_idle (connection, TRUE);
}

/* Every connection is inside a call: the newcomer is told so and let go.
 * A few bytes into a fresh socket's empty send buffer do not block. */
static void
refuse_connection (ClarifyMcpListener *self,
                   GSocket            *client)
{
  static const char reply[] = "HTTP/1.1 503 Service Unavailable\r\n"
                              "Content-Type: text/plain; charset=utf-8\r\n"
                              "Content-Length: 18\r\n"
                              "Retry-After: 5\r\n"
                              "Connection: close\r\n\r\n"
                              "Too many clients.\n";

  if (!self->refusing_logged)
    g_message ("MCP endpoint: %u clients are waiting for answers; refusing more",
               g_hash_table_size (self->connections));
  self->refusing_logged = TRUE;

  g_socket_set_blocking (client, FALSE);
  g_socket_send (client, reply, strlen (reply), NULL, NULL);
  g_socket_close (client, NULL);
}

static void
admit (ClarifyMcpListener *self,
       GSocket            *client)
{
  g_autoptr(GSocketConnection) stream = NULL;
  g_autoptr(GSocketAddress) local = NULL;
  g_autoptr(GSocketAddress) remote = NULL;
  Connection *connection;

  while (g_hash_table_size (self->connections) >= self->max_connections && self->idle.head != NULL)
    connection_evict (g_queue_peek_head (&self->idle));

  if (g_hash_table_size (self->connections) >= self->max_connections)
    {
      refuse_connection (self, client);
      return;
    }
  self->refusing_logged = FALSE;

  local = g_socket_get_local_address (client, NULL);
  remote = g_socket_get_remote_address (client, NULL);
  if (local == NULL || remote == NULL)
    {
      /* Gone before it was taken in. */
      g_socket_close (client, NULL);
      return;
    }

  g_socket_set_option (client, IPPROTO_TCP, TCP_NODELAY, TRUE, NULL);
  /* A client that stops reading its reply (its window shut) holds the
   * server's writing as long as it likes: the kernel drops it once its
   * data could not go out for the idle limit. Nothing pending (a call
   * waiting for the user) is not affected. */
  g_socket_set_option (client, IPPROTO_TCP, TCP_USER_TIMEOUT, (gint) MIN (self->idle_timeout_ms, G_MAXINT), NULL);
  stream = g_socket_connection_factory_create_connection (client);

  connection = g_new0 (Connection, 1);
  connection->listener = self;
  connection->socket = g_object_ref (client);
  connection->remote = g_object_ref (remote);
  connection->stream = stream;
  g_object_weak_ref (G_OBJECT (stream), connection_gone_cb, connection);
  g_object_set_data (G_OBJECT (remote), CONN_KEY, connection);
  g_hash_table_add (self->connections, connection);
  connection_set_idle (connection, TRUE);

  soup_server_accept_iostream (self->server, G_IO_STREAM (stream), local, remote, NULL);
}

static void
stop_accepting (ClarifyMcpListener *self)
{
  if (self->accept_source != NULL)
    {
      g_source_destroy (self->accept_source);
      g_clear_pointer (&self->accept_source, g_source_unref);
    }
}

static void
start_accepting (ClarifyMcpListener *self)
{
  stop_accepting (self);
  self->accept_source = g_socket_create_source (self->socket, G_IO_IN | G_IO_ERR | G_IO_HUP, NULL);
  g_source_set_callback (self->accept_source, (GSourceFunc) (GCallback) accept_cb, self, NULL);
  g_source_attach (self->accept_source, g_main_context_get_thread_default ());
}

/* GIO says "Error binding to address 127.0.0.1:7111: Address already in
 * use"; whoever shows the error names the address already. IPv4 only, so
 * the text after the last ": " is the reason. */
static void
strip_address (GError **error)
{
  const char *reason;

  if (error == NULL || *error == NULL)
    return;

  reason = g_strrstr ((*error)->message, ": ");
  if (reason != NULL && reason[2] != '\0')
    {
      char *message = g_strdup (reason + 2);

      g_free ((*error)->message);
      (*error)->message = message;
    }
}

static GSocket *
open_socket (guint    port,
             GError **error)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, port);
  g_autoptr(GSocket) socket = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  if (socket == NULL)
    return NULL;

  /* GLib's backlog is 10: a burst of agents' calls would meet resets. */
  g_socket_set_listen_backlog (socket, SOMAXCONN);
  g_socket_set_blocking (socket, FALSE);
  if (!g_socket_bind (socket, address, TRUE, error) || !g_socket_listen (socket, error))
    {
      strip_address (error);
      return NULL;
    }

  return g_steal_pointer (&socket);
}

static gboolean retry_cb (gpointer data);

/* New clients cannot get in: say so, and try again later. The socket goes
 * when it no longer listens; otherwise the trouble is passing (no
 * descriptors left) and room is made by closing the oldest idle clients. */
static void
fault (ClarifyMcpListener *self,
       const char         *error)
{
  gboolean lost = TRUE;

  stop_accepting (self);

  if (self->socket != NULL)
    {
      GError *local_error = NULL;
      gint accepting = 0;

      lost = !g_socket_get_option (self->socket, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &local_error) || !accepting;
      g_clear_error (&local_error);
      if (lost)
        {
          g_socket_close (self->socket, NULL);
          g_clear_object (&self->socket);
        }
    }

  if (!lost)
    for (guint i = 0; i < EVICT_BATCH && self->idle.head != NULL; i++)
      connection_evict (g_queue_peek_head (&self->idle));

  if (self->listening)
    g_message ("MCP endpoint on 127.0.0.1:%u: %s (%s); trying again", self->port, error,
               lost ? "listening socket lost" : "cannot accept clients");
  set_listening (self, FALSE, error);

  self->retry_ms = self->retry_ms == 0 ? RETRY_FIRST_MS : MIN (self->retry_ms * 2, RETRY_MAX_MS);
  g_clear_handle_id (&self->retry_source_id, g_source_remove);
  self->retry_source_id = g_timeout_add (self->retry_ms, retry_cb, self);
}

static gboolean
retry_cb (gpointer data)
{
  ClarifyMcpListener *self = data;
  g_autoptr(GError) error = NULL;

  self->retry_source_id = 0;

  if (self->socket == NULL)
    self->socket = open_socket (self->port, &error);

  if (self->socket == NULL)
    {
      fault (self, error->message);
      return G_SOURCE_REMOVE;
    }

  /* An accept at once tells whether the trouble is over; on failure it
   * has scheduled the next try. */
  start_accepting (self);
  accept_cb (self->socket, G_IO_IN, self);
  return G_SOURCE_REMOVE;
}

static gboolean
accept_cb (GSocket      *socket,
           GIOCondition  condition,
           gpointer      data)
{
  ClarifyMcpListener *self = data;

  for (guint i = 0; i < ACCEPT_BATCH; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GSocket) client = g_socket_accept (socket, NULL, &error);

      if (client == NULL)
        {
          /* Linux takes a descriptor before it looks for a client: this
           * means there is room for the next one. */
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            {
              self->retry_ms = 0;
              set_listening (self, TRUE, NULL);
              break;
            }

          /* Destroys this source: nothing below may touch it. */
          fault (self, error->message);
          return G_SOURCE_REMOVE;
        }

      self->retry_ms = 0;
      set_listening (self, TRUE, NULL);
      admit (self, client);
    }

  return G_SOURCE_CONTINUE;
}

gboolean
clarify_mcp_listener_listen (ClarifyMcpListener  *self,
                             guint                port,
                             GError             **error)
{
  g_autoptr(GSocketAddress) address = NULL;

  g_return_val_if_fail (CLARIFY_IS_MCP_LISTENER (self), FALSE);
  g_return_val_if_fail (self->socket == NULL, FALSE);

  self->socket = open_socket (port, error);
  if (self->socket == NULL)
    return FALSE;

  address = g_socket_get_local_address (self->socket, error);
  if (address == NULL)
    {
      g_clear_object (&self->socket);
      return FALSE;
    }

  self->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address));
  start_accepting (self);
  set_listening (self, TRUE, NULL);

  return TRUE;
}

void
clarify_mcp_listener_close (ClarifyMcpListener *self)
{
  g_return_if_fail (CLARIFY_IS_MCP_LISTENER (self));

  stop_accepting (self);
  g_clear_handle_id (&self->retry_source_id, g_source_remove);
  if (self->socket != NULL)
    g_socket_close (self->socket, NULL);
  g_clear_object (&self->socket);
  self->port = 0;
  set_listening (self, FALSE, NULL);
}

void
clarify_mcp_listener_disconnect (ClarifyMcpListener *self)
{
  GHashTableIter iter;
  Connection *connection;

  g_return_if_fail (CLARIFY_IS_MCP_LISTENER (self));

  clarify_mcp_listener_close (self);
  g_clear_handle_id (&self->idle_source_id, g_source_remove);

  /* libsoup closes them, and lets go of every stream. */
  g_hash_table_iter_init (&iter, self->connections);
  while (g_hash_table_iter_next (&iter, (gpointer *) &connection, NULL))
    if (connection->stream != NULL)
      {
        g_object_weak_unref (G_OBJECT (connection->stream), connection_gone_cb, connection);
        connection->stream = NULL;
      }
  g_hash_table_remove_all (self->connections);
  soup_server_disconnect (self->server);
}

/* libsoup keeps a connection open after a reply only while it has a
 * listener of its own (request_finished() in 3.2 checks for one), and
 * connections handed to it are not on one. It gets a socket nobody can
 * reach: a unix socket made in a private folder and unlinked at once. */
static void
give_soup_a_listener (SoupServer *server)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("clarify-mcp-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) address = NULL;

  if (folder == NULL)
    goto out;

  path = g_build_filename (folder, "unreachable", NULL);
  address = g_unix_socket_address_new (path);
  socket = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, &error);
  if (socket != NULL && g_socket_bind (socket, address, FALSE, &error) && g_socket_listen (socket, &error))
    soup_server_listen_socket (server, socket, 0, &error);
  g_unlink (path);
  g_rmdir (folder);

out:
  if (error != NULL)
    g_message ("MCP endpoint: keep-alive off: %s", error->message);
}

static void
clarify_mcp_listener_dispose (GObject *object)
{
  ClarifyMcpListener *self = CLARIFY_MCP_LISTENER (object);

  if (self->server != NULL)
    {
      clarify_mcp_listener_disconnect (self);
      g_signal_handlers_disconnect_by_data (self->server, self);
      g_clear_object (&self->server);
    }

  G_OBJECT_CLASS (clarify_mcp_listener_parent_class)->dispose (object);
}

static void
clarify_mcp_listener_finalize (GObject *object)
{
  ClarifyMcpListener *self = CLARIFY_MCP_LISTENER (object);

  g_clear_pointer (&self->connections, g_hash_table_unref);
  g_free (self->error);

  G_OBJECT_CLASS (clarify_mcp_listener_parent_class)->finalize (object);
}

static void
clarify_mcp_listener_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  ClarifyMcpListener *self = CLARIFY_MCP_LISTENER (object);

  switch (prop_id)
    {
    case PROP_LISTENING:
      g_value_set_boolean (value, self->listening);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_mcp_listener_class_init (ClarifyMcpListenerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_mcp_listener_dispose;
  object_class->finalize = clarify_mcp_listener_finalize;
  object_class->get_property = clarify_mcp_listener_get_property;

  properties[PROP_LISTENING] =
    g_param_spec_boolean ("listening", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

/* Every client costs a file descriptor: a thousand idle sockets under a
 * soft limit of 1024 once took the endpoint down. The hard limit is the
 * one that counts (GLib polls, it never uses select()). */
static void
raise_descriptor_limit (void)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max)
    {
      limit.rlim_cur = limit.rlim_max;
      if (setrlimit (RLIMIT_NOFILE, &limit) != 0)
        g_message ("Cannot raise the limit on open files: %s", g_strerror (errno));
    }
}

static void
clarify_mcp_listener_init (ClarifyMcpListener *self)
{
  struct rlimit limit;

  raise_descriptor_limit ();

  self->connections = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) connection_free, NULL);
  g_queue_init (&self->idle);
  self->idle_timeout_ms = CLARIFY_MCP_IDLE_TIMEOUT_MS;
  /* Half the descriptors at most: the rest of Clarify needs some too. */
  self->max_connections = CLARIFY_MCP_MAX_CONNECTIONS;
  if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    self->max_connections = CLAMP (limit.rlim_cur / 2, 16, CLARIFY_MCP_MAX_CONNECTIONS);
}

ClarifyMcpListener *
clarify_mcp_listener_new (SoupServer *server)
{
  ClarifyMcpListener *self;

  g_return_val_if_fail (SOUP_IS_SERVER (server), NULL);

  self = g_object_new (CLARIFY_TYPE_MCP_LISTENER, NULL);
  self->server = g_object_ref (server);
  give_soup_a_listener (server);
  g_signal_connect_object (server, "request-read", G_CALLBACK (request_read_cb), self, 0);
  g_signal_connect_object (server, "request-finished", G_CALLBACK (request_done_cb), self, 0);
  g_signal_connect_object (server, "request-aborted", G_CALLBACK (request_done_cb), self, 0);

  return self;
}

SoupServer *
clarify_mcp_listener_get_server (ClarifyMcpListener *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_LISTENER (self), NULL);

  return self->server;
}

guint
clarify_mcp_listener_get_port (ClarifyMcpListener *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_LISTENER (self), 0);

  return self->port;
}

gboolean
clarify_mcp_listener_get_listening (ClarifyMcpListener *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_LISTENER (self), FALSE);

  return self->listening;
}

const char *
clarify_mcp_listener_get_error (ClarifyMcpListener *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_LISTENER (self), NULL);

  return self->error;
}

guint
clarify_mcp_listener_get_n_connections (ClarifyMcpListener *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_LISTENER (self), 0);

  return g_hash_table_size (self->connections);
}

GSocket *
clarify_mcp_listener_get_message_socket (SoupServerMessage *msg)
{
  Connection *connection;

  g_return_val_if_fail (SOUP_IS_SERVER_MESSAGE (msg), NULL);

  connection = lookup_connection (msg);
  return connection != NULL ? connection->socket : NULL;
}

void
clarify_mcp_listener_set_limits (ClarifyMcpListener *self,
                                 guint               idle_timeout_ms,
                                 guint               max_connections)
{
  g_return_if_fail (CLARIFY_IS_MCP_LISTENER (self));
  g_return_if_fail (max_connections > 0);

  self->idle_timeout_ms = idle_timeout_ms;
  self->max_connections = max_connections;
  g_clear_handle_id (&self->idle_source_id, g_source_remove);
  arm_idle_timer (self);
}

GSocket *
clarify_mcp_listener_get_socket (ClarifyMcpListener *self)
{
  g_return_val_if_fail (CLARIFY_IS_MCP_LISTENER (self), NULL);

  return self->socket;
}
