/* clarify-test-server.c: a fake HTTP backend in its own thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

#include <string.h>

#include "clarify-test-server.h"

typedef struct
{
  guint   status;
  char   *content_type;
  GBytes *body;
  GStrv   headers;
} Reply;

typedef struct
{
  GPtrArray             *replies;
  guint                  n_served;
  ClarifyTestHandlerFunc func;
  gpointer               user_data;
} Route;

typedef struct _Stream Stream;

typedef struct
{
  guint      status;
  char      *content_type;
  GBytes    *greeting;
  GPtrArray *streams;
} SseEndpoint;

struct _Stream
{
  ClarifyTestServer *server;
  SseEndpoint       *endpoint;
  SoupServerMessage *msg;
  GSource           *hangup_source;
};

/* A recorded response replayed verbatim on a connection taken from libsoup. */
typedef struct
{
  GBytes    *head;
  GPtrArray *connections;  /* GIOStream */
} RawEndpoint;

typedef struct
{
  ClarifyTestRequest *request;
  gboolean            claimed;
} LogEntry;

struct _ClarifyTestServer
{
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  SoupServer   *server;
  guint         port;
  GTlsCertificate *certificate; /* HTTPS with it, or NULL: plain HTTP */

  /* Guards everything below and the streams arrays; the server thread
   * writes, the test thread reads and configures. */
  GMutex        mutex;
  GCond         cond;
  gboolean      ready;
  GHashTable   *routes;   /* "METHOD path" → Route */
  GHashTable   *sse;      /* path → SseEndpoint */
  GHashTable   *raw;      /* path → RawEndpoint */
  GHashTable   *stalls;   /* path → ms the next request waits */
  GPtrArray    *log;      /* LogEntry */
  GPtrArray    *waiters;  /* GMainContext to wake when something happens */
};

static void
reply_free (gpointer data)
{
  Reply *reply = data;

  g_free (reply->content_type);
  g_bytes_unref (reply->body);
  g_strfreev (reply->headers);
  g_free (reply);
}

static void
route_free (gpointer data)
{
  Route *route = data;

  g_ptr_array_unref (route->replies);
  g_free (route);
}

static void
stream_free (gpointer data)
{
  Stream *stream = data;

  if (stream->hangup_source != NULL)
    {
      g_source_destroy (stream->hangup_source);
      g_source_unref (stream->hangup_source);
    }
  g_signal_handlers_disconnect_by_data (stream->msg, stream);
  g_object_unref (stream->msg);
  g_free (stream);
}

static void
sse_endpoint_free (gpointer data)
{
  SseEndpoint *endpoint = data;

  g_ptr_array_unref (endpoint->streams);
  g_free (endpoint->content_type);
  g_clear_pointer (&endpoint->greeting, g_bytes_unref);
  g_free (endpoint);
}

static void
raw_endpoint_free (gpointer data)
{
  RawEndpoint *endpoint = data;

  g_bytes_unref (endpoint->head);
  g_ptr_array_unref (endpoint->connections);
  g_free (endpoint);
}

static void
raw_close_all (RawEndpoint *endpoint)
{
  for (guint i = 0; i < endpoint->connections->len; i++)
    g_io_stream_close (endpoint->connections->pdata[i], NULL, NULL);
  g_ptr_array_set_size (endpoint->connections, 0);
}

static void
raw_write (GIOStream  *connection,
           const void *bytes,
           gsize       len)
{
  /* A client that went away is not an error: it reconnects. */
  g_output_stream_write_all (g_io_stream_get_output_stream (connection), bytes, len, NULL, NULL, NULL);
  g_output_stream_flush (g_io_stream_get_output_stream (connection), NULL, NULL);
}

static void
log_entry_free (gpointer data)
{
  LogEntry *entry = data;

  clarify_test_request_free (entry->request);
  g_free (entry);
}

ClarifyTestRequest *
clarify_test_request_copy (const ClarifyTestRequest *request)
{
  ClarifyTestRequest *copy = g_new0 (ClarifyTestRequest, 1);

  copy->method = g_strdup (request->method);
  copy->path = g_strdup (request->path);
  copy->query = g_strdup (request->query);
  copy->headers = soup_message_headers_ref (request->headers);
  copy->body = g_memdup2 (request->body, request->body_len + 1);
  copy->body_len = request->body_len;

  return copy;
}

void
clarify_test_request_free (ClarifyTestRequest *request)
{
  if (request == NULL)
    return;

  g_free (request->method);
  g_free (request->path);
  g_free (request->query);
  soup_message_headers_unref (request->headers);
  g_free (request->body);
  g_free (request);
}

const char *
clarify_test_request_get_header (const ClarifyTestRequest *request,
                                 const char               *name)
{
  return soup_message_headers_get_one (request->headers, name);
}

/* Called with the mutex held. */
static void
wake_waiters (ClarifyTestServer *self)
{
  for (guint i = 0; i < self->waiters->len; i++)
    g_main_context_wakeup (g_ptr_array_index (self->waiters, i));
}

/* Runs @func in the server thread and returns once it has run. */
typedef struct
{
  ClarifyTestServer *self;
  GSourceFunc        func;
  gpointer           data;
  gboolean           done;
} ServerCall;

static gboolean
server_call_cb (gpointer user_data)
{
  ServerCall *call = user_data;

  call->func (call->data);

  g_mutex_lock (&call->self->mutex);
  call->done = TRUE;
  g_cond_broadcast (&call->self->cond);
  g_mutex_unlock (&call->self->mutex);

  return G_SOURCE_REMOVE;
}

static void
run_in_server_thread (ClarifyTestServer *self,
                      GSourceFunc        func,
                      gpointer           data)
{
  ServerCall call = { self, func, data, FALSE };
  GSource *source = g_idle_source_new ();

  g_source_set_callback (source, server_call_cb, &call, NULL);
  g_source_attach (source, self->context);
  g_source_unref (source);

  g_mutex_lock (&self->mutex);
  while (!call.done)
    g_cond_wait (&self->cond, &self->mutex);
  g_mutex_unlock (&self->mutex);
}

/* Server thread. Called with the mutex held; the stream leaves its list. */
static void
stream_end (Stream *stream)
{
  SoupServerMessage *msg = g_object_ref (stream->msg);

  g_ptr_array_remove (stream->endpoint->streams, stream);
  soup_message_body_complete (soup_server_message_get_response_body (msg));
  soup_server_message_unpause (msg);
  g_object_unref (msg);
}

static void
stream_finished_cb (SoupServerMessage *msg,
                    Stream            *stream)
{
  ClarifyTestServer *self = stream->server;

  g_mutex_lock (&self->mutex);
  g_ptr_array_remove (stream->endpoint->streams, stream);
  wake_waiters (self);
  g_mutex_unlock (&self->mutex);
}

/* The client went away while the stream was idle: libsoup notices only on
 * the next write, so peek at the socket to keep get_n_streams() honest. */
static gboolean
stream_hangup_cb (GSocket      *socket,
                  GIOCondition  condition,
                  gpointer      user_data)
{
  Stream *stream = user_data;
  ClarifyTestServer *self = stream->server;
  char byte;
  GInputVector vector = { &byte, 1 };
  int flags = G_SOCKET_MSG_PEEK;
  gssize n;

  n = g_socket_receive_message (socket, NULL, &vector, 1, NULL, NULL, &flags, NULL, NULL);
  if (n > 0)
    {
      /* Pipelined data is not ours to read; stop watching. */
      g_clear_pointer (&stream->hangup_source, g_source_unref);
      return G_SOURCE_REMOVE;
    }

  g_mutex_lock (&self->mutex);
  g_clear_pointer (&stream->hangup_source, g_source_unref);
  stream_end (stream);
  wake_waiters (self);
  g_mutex_unlock (&self->mutex);

  return G_SOURCE_REMOVE;
}

/* Server thread, mutex held. */
static void
open_stream (ClarifyTestServer *self,
             SseEndpoint       *endpoint,
             SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  SoupMessageBody *body = soup_server_message_get_response_body (msg);
  GSocket *socket;
  Stream *stream;

  soup_server_message_set_status (msg, endpoint->status, NULL);
  soup_message_headers_replace (headers, "Content-Type", endpoint->content_type);

  if (!SOUP_STATUS_IS_SUCCESSFUL (endpoint->status))
    {
      const char *phrase = soup_status_get_phrase (endpoint->status);

      soup_message_body_append (body, SOUP_MEMORY_COPY, phrase, strlen (phrase));
      return;
    }

  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (body, FALSE);
  if (endpoint->greeting != NULL)
    soup_message_body_append_bytes (body, endpoint->greeting);

  stream = g_new0 (Stream, 1);
  stream->server = self;
  stream->endpoint = endpoint;
  stream->msg = g_object_ref (msg);
  g_signal_connect (msg, "finished", G_CALLBACK (stream_finished_cb), stream);

  socket = soup_server_message_get_socket (msg);
  if (socket != NULL)
    {
      stream->hangup_source = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
      g_source_set_callback (stream->hangup_source, G_SOURCE_FUNC (stream_hangup_cb), stream, NULL);
      g_source_attach (stream->hangup_source, self->context);
    }

  g_ptr_array_add (endpoint->streams, stream);
}

static void
send_reply (SoupServerMessage *msg,
            guint              status,
            const char        *content_type,
            const char        *body,
            gsize              body_len,
            const char * const *headers)
{
  SoupMessageHeaders *response_headers = soup_server_message_get_response_headers (msg);

  soup_server_message_set_status (msg, status, NULL);
  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (headers[i], ":", 2);

      if (pair[0] != NULL && pair[1] != NULL)
        soup_message_headers_append (response_headers, g_strstrip (pair[0]), g_strstrip (pair[1]));
    }
  if (content_type != NULL)
    soup_server_message_set_response (msg, content_type, SOUP_MEMORY_COPY, body, body_len);
  else if (body_len > 0)
    soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_COPY, body, body_len);
}

static void
copy_header (const char *name,
             const char *value,
             gpointer    user_data)
{
  soup_message_headers_append (user_data, name, value);
}

static ClarifyTestRequest *
request_from_message (SoupServerMessage *msg,
                      const char        *path)
{
  ClarifyTestRequest *request = g_new0 (ClarifyTestRequest, 1);
  g_autoptr(GBytes) body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  GUri *uri = soup_server_message_get_uri (msg);
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  request->method = g_strdup (soup_server_message_get_method (msg));
  request->path = g_strdup (path);
  request->query = g_strdup (g_uri_get_query (uri));
  request->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  soup_message_headers_foreach (soup_server_message_get_request_headers (msg), copy_header, request->headers);
  request->body = g_malloc (len + 1);
  if (len > 0)
    memcpy (request->body, data, len);
  request->body[len] = '\0';
  request->body_len = len;

  return request;
}

static void
handle_request (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  ClarifyTestServer *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  g_autofree char *key = g_strdup_printf ("%s %s", method, path);
  ClarifyTestRequest *request = request_from_message (msg, path);
  LogEntry *entry = g_new0 (LogEntry, 1);
  ClarifyTestHandlerFunc func = NULL;
  gpointer func_data = NULL;
  SseEndpoint *endpoint;
  RawEndpoint *raw;
  Route *route;
  guint stall_ms;

  /* A hung server: this thread, and so every request, waits. */
  g_mutex_lock (&self->mutex);
  stall_ms = GPOINTER_TO_UINT (g_hash_table_lookup (self->stalls, path));
  g_hash_table_remove (self->stalls, path);
  g_mutex_unlock (&self->mutex);
  if (stall_ms > 0)
    g_usleep ((gulong) stall_ms * 1000);

  g_mutex_lock (&self->mutex);

  entry->request = request;
  g_ptr_array_add (self->log, entry);

  endpoint = g_hash_table_lookup (self->sse, path);
  route = g_hash_table_lookup (self->routes, key);
  raw = g_hash_table_lookup (self->raw, path);

  if (raw != NULL && g_str_equal (method, "GET"))
    {
      GIOStream *connection = soup_server_message_steal_connection (msg);
      gsize len;
      const void *head = g_bytes_get_data (raw->head, &len);

      raw_write (connection, head, len);
      g_ptr_array_add (raw->connections, connection);
    }
  else if (endpoint != NULL && g_str_equal (method, "GET"))
    {
      open_stream (self, endpoint, msg);
    }
  else if (route != NULL && route->func != NULL)
    {
      func = route->func;
      func_data = route->user_data;
    }
  else if (route != NULL && route->replies->len > 0)
    {
      Reply *reply = g_ptr_array_index (route->replies, MIN (route->n_served, route->replies->len - 1));
      gsize len;
      const char *body = g_bytes_get_data (reply->body, &len);

      route->n_served++;
      send_reply (msg, reply->status, reply->content_type, body, len,
                  (const char * const *) reply->headers);
    }
  else
    {
      send_reply (msg, SOUP_STATUS_NOT_FOUND, "text/plain", "not found", 9, NULL);
    }

  wake_waiters (self);
  g_mutex_unlock (&self->mutex);

  /* User code runs without our lock; the request is owned by the log. */
  if (func != NULL)
    {
      guint status = SOUP_STATUS_OK;
      g_autofree char *content_type = NULL;
      g_autofree char *body = NULL;

      func (request, &status, &content_type, &body, func_data);
      send_reply (msg, status, content_type ? content_type : "application/json",
                  body ? body : "", body ? strlen (body) : 0, NULL);
    }
}

static gpointer
server_thread_func (gpointer data)
{
  ClarifyTestServer *self = data;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (self->context);

  self->server = soup_server_new ("server-header", "clarify-test-server ",
                                  "tls-certificate", self->certificate, NULL);
  soup_server_add_handler (self->server, NULL, handle_request, self, NULL);
  if (!soup_server_listen_local (self->server, self->port,
                                 SOUP_SERVER_LISTEN_IPV4_ONLY | (self->certificate ? SOUP_SERVER_LISTEN_HTTPS : 0),
                                 &error))
    g_error ("test server cannot listen: %s", error->message);

  uris = soup_server_get_uris (self->server);
  g_assert_nonnull (uris);
  self->port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  g_mutex_lock (&self->mutex);
  self->ready = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);

  g_main_loop_run (self->loop);

  g_clear_object (&self->server);
  g_main_context_pop_thread_default (self->context);

  return NULL;
}


static ClarifyTestServer *
server_new (guint            port,
            GTlsCertificate *certificate)
{
  ClarifyTestServer *self = g_new0 (ClarifyTestServer, 1);

  self->port = port;
  self->certificate = certificate;

  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  self->routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, route_free);
  self->sse = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, sse_endpoint_free);
  self->raw = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, raw_endpoint_free);
  self->stalls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->log = g_ptr_array_new_with_free_func (log_entry_free);
  self->waiters = g_ptr_array_new ();

  self->thread = g_thread_new ("clarify-test-server", server_thread_func, self);

  g_mutex_lock (&self->mutex);
  while (!self->ready)
    g_cond_wait (&self->cond, &self->mutex);
  g_mutex_unlock (&self->mutex);

  return self;
}

ClarifyTestServer *
clarify_test_server_new (void)
{
  return server_new (0, NULL);
}

ClarifyTestServer *
clarify_test_server_new_on_port (guint port)
{
  return server_new (port, NULL);
}

ClarifyTestServer *
clarify_test_server_new_https (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "tls", "self-signed.pem", NULL);
  g_autoptr(GError) error = NULL;
  GTlsCertificate *certificate = g_tls_certificate_new_from_file (path, &error);

  g_assert_no_error (error);
  return server_new (0, certificate);
}

static gboolean
shutdown_cb (gpointer data)
{
  ClarifyTestServer *self = data;
  GHashTableIter iter;
  SseEndpoint *endpoint;
  gpointer raw;

  g_mutex_lock (&self->mutex);
  g_hash_table_iter_init (&iter, self->sse);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &endpoint))
    while (endpoint->streams->len > 0)
      stream_end (g_ptr_array_index (endpoint->streams, 0));
  g_hash_table_iter_init (&iter, self->raw);
  while (g_hash_table_iter_next (&iter, NULL, &raw))
    raw_close_all (raw);
  g_mutex_unlock (&self->mutex);

  soup_server_disconnect (self->server);
  g_main_loop_quit (self->loop);

  return G_SOURCE_REMOVE;
}

void
clarify_test_server_free (ClarifyTestServer *self)
{
  if (self == NULL)
    return;

  run_in_server_thread (self, shutdown_cb, self);
  g_thread_join (self->thread);

  g_hash_table_unref (self->routes);
  g_hash_table_unref (self->sse);
  g_hash_table_unref (self->raw);
  g_hash_table_unref (self->stalls);
  g_ptr_array_unref (self->log);
  g_ptr_array_unref (self->waiters);
  g_main_loop_unref (self->loop);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);
  g_clear_object (&self->certificate);
  g_free (self);
}

char *
clarify_test_server_get_url (ClarifyTestServer *self,
                             const char        *path)
{
  return g_strdup_printf ("%s://127.0.0.1:%u%s", self->certificate ? "https" : "http", self->port, path ? path : "/");
}

guint
clarify_test_server_get_port (ClarifyTestServer *self)
{
  return self->port;
}

/* Called with the mutex held. */
static Route *
ensure_route (ClarifyTestServer *self,
              const char        *method,
              const char        *path)
{
  g_autofree char *key = g_strdup_printf ("%s %s", method, path);
  Route *route = g_hash_table_lookup (self->routes, key);

  if (route == NULL)
    {
      route = g_new0 (Route, 1);
      route->replies = g_ptr_array_new_with_free_func (reply_free);
      g_hash_table_insert (self->routes, g_steal_pointer (&key), route);
    }

  return route;
}

static void
add_reply (ClarifyTestServer  *self,
           const char         *method,
           const char         *path,
           gboolean            replace,
           guint               status,
           const char         *content_type,
           const char         *body,
           const char * const *headers)
{
  Reply *reply = g_new0 (Reply, 1);
  Route *route;

  reply->status = status;
  reply->content_type = g_strdup (content_type);
  reply->body = g_bytes_new (body ? body : "", body ? strlen (body) : 0);
  reply->headers = g_strdupv ((char **) headers);

  g_mutex_lock (&self->mutex);
  route = ensure_route (self, method, path);
  route->func = NULL;
  if (replace)
    {
      g_ptr_array_set_size (route->replies, 0);
      route->n_served = 0;
    }
  g_ptr_array_add (route->replies, reply);
  g_mutex_unlock (&self->mutex);
}

void
clarify_test_server_add_reply (ClarifyTestServer  *self,
                               const char         *method,
                               const char         *path,
                               guint               status,
                               const char         *content_type,
                               const char         *body,
                               const char * const *headers)
{
  add_reply (self, method, path, FALSE, status, content_type, body, headers);
}

void
clarify_test_server_set_json (ClarifyTestServer *self,
                              const char        *method,
                              const char        *path,
                              guint              status,
                              const char        *content_type,
                              const char        *body)
{
  add_reply (self, method, path, TRUE, status, content_type, body, NULL);
}

void
clarify_test_server_add_json (ClarifyTestServer *self,
                              const char        *method,
                              const char        *path,
                              guint              status,
                              const char        *content_type,
                              const char        *body)
{
  clarify_test_server_add_reply (self, method, path, status, content_type, body, NULL);
}

void
clarify_test_server_stall_next (ClarifyTestServer *self,
                                const char        *path,
                                guint              ms)
{
  g_mutex_lock (&self->mutex);
  g_hash_table_insert (self->stalls, g_strdup (path), GUINT_TO_POINTER (ms));
  g_mutex_unlock (&self->mutex);
}

void
clarify_test_server_add_handler (ClarifyTestServer      *self,
                                 const char             *method,
                                 const char             *path,
                                 ClarifyTestHandlerFunc  func,
                                 gpointer                user_data)
{
  Route *route;

  g_mutex_lock (&self->mutex);
  route = ensure_route (self, method, path);
  g_ptr_array_set_size (route->replies, 0);
  route->func = func;
  route->user_data = user_data;
  g_mutex_unlock (&self->mutex);
}

/* Called with the mutex held. */
static SseEndpoint *
ensure_sse (ClarifyTestServer *self,
            const char        *path)
{
  SseEndpoint *endpoint = g_hash_table_lookup (self->sse, path);

  if (endpoint == NULL)
    {
      endpoint = g_new0 (SseEndpoint, 1);
      endpoint->status = SOUP_STATUS_OK;
      endpoint->content_type = g_strdup ("text/event-stream");
      endpoint->streams = g_ptr_array_new_with_free_func (stream_free);
      g_hash_table_insert (self->sse, g_strdup (path), endpoint);
    }

  return endpoint;
}

void
clarify_test_server_add_sse (ClarifyTestServer *self,
                             const char        *path)
{
  g_mutex_lock (&self->mutex);
  ensure_sse (self, path);
  g_mutex_unlock (&self->mutex);
}

void
clarify_test_server_set_sse_response (ClarifyTestServer *self,
                                      const char        *path,
                                      guint              status,
                                      const char        *content_type)
{
  SseEndpoint *endpoint;

  g_mutex_lock (&self->mutex);
  endpoint = ensure_sse (self, path);
  endpoint->status = status;
  g_free (endpoint->content_type);
  endpoint->content_type = g_strdup (content_type ? content_type : "text/plain");
  g_mutex_unlock (&self->mutex);
}

void
clarify_test_server_set_sse_greeting (ClarifyTestServer *self,
                                      const char        *path,
                                      const char        *bytes)
{
  SseEndpoint *endpoint;

  g_mutex_lock (&self->mutex);
  endpoint = ensure_sse (self, path);
  g_clear_pointer (&endpoint->greeting, g_bytes_unref);
  if (bytes != NULL)
    endpoint->greeting = g_bytes_new (bytes, strlen (bytes));
  g_mutex_unlock (&self->mutex);
}

guint
clarify_test_server_get_n_streams (ClarifyTestServer *self,
                                   const char        *path)
{
  SseEndpoint *endpoint;
  guint n = 0;

  RawEndpoint *raw;

  g_mutex_lock (&self->mutex);
  endpoint = g_hash_table_lookup (self->sse, path);
  if (endpoint != NULL)
    n = endpoint->streams->len;
  raw = g_hash_table_lookup (self->raw, path);
  if (raw != NULL)
    n += raw->connections->len;
  g_mutex_unlock (&self->mutex);

  return n;
}

void
clarify_test_server_add_raw (ClarifyTestServer *self,
                             const char        *path,
                             const char        *head,
                             gssize             len)
{
  RawEndpoint *endpoint = g_new0 (RawEndpoint, 1);

  endpoint->head = g_bytes_new (head, len < 0 ? strlen (head) : (gsize) len);
  endpoint->connections = g_ptr_array_new_with_free_func (g_object_unref);

  g_mutex_lock (&self->mutex);
  g_hash_table_replace (self->raw, g_strdup (path), endpoint);
  g_mutex_unlock (&self->mutex);
}

void
clarify_test_server_raw_send (ClarifyTestServer *self,
                              const char        *path,
                              const char        *bytes,
                              gssize             len)
{
  RawEndpoint *endpoint;

  g_mutex_lock (&self->mutex);
  endpoint = g_hash_table_lookup (self->raw, path);
  for (guint i = 0; endpoint != NULL && i < endpoint->connections->len; i++)
    raw_write (endpoint->connections->pdata[i], bytes, len < 0 ? strlen (bytes) : (gsize) len);
  g_mutex_unlock (&self->mutex);
}

void
clarify_test_server_raw_close (ClarifyTestServer *self,
                               const char        *path)
{
  RawEndpoint *endpoint;

  g_mutex_lock (&self->mutex);
  endpoint = g_hash_table_lookup (self->raw, path);
  if (endpoint != NULL)
    raw_close_all (endpoint);
  wake_waiters (self);
  g_mutex_unlock (&self->mutex);
}

typedef struct
{
  ClarifyTestServer *self;
  const char        *path;
  GBytes            *bytes;  /* NULL: close */
} StreamCall;

static gboolean
stream_call_cb (gpointer data)
{
  StreamCall *call = data;
  SseEndpoint *endpoint;

  g_mutex_lock (&call->self->mutex);
  endpoint = g_hash_table_lookup (call->self->sse, call->path);
  if (endpoint != NULL && call->bytes == NULL)
    {
      while (endpoint->streams->len > 0)
        stream_end (g_ptr_array_index (endpoint->streams, 0));
      wake_waiters (call->self);
    }
  else if (endpoint != NULL)
    {
      for (guint i = 0; i < endpoint->streams->len; i++)
        {
          Stream *stream = g_ptr_array_index (endpoint->streams, i);

          soup_message_body_append_bytes (soup_server_message_get_response_body (stream->msg), call->bytes);
          soup_server_message_unpause (stream->msg);
        }
    }
  g_mutex_unlock (&call->self->mutex);

  return G_SOURCE_REMOVE;
}

void
clarify_test_server_sse_send (ClarifyTestServer *self,
                              const char        *path,
                              const char        *bytes,
                              gssize             len)
{
  g_autoptr(GBytes) data = g_bytes_new (bytes, len < 0 ? strlen (bytes) : (gsize) len);
  StreamCall call = { self, path, data };

  g_return_if_fail (g_bytes_get_size (data) > 0);

  run_in_server_thread (self, stream_call_cb, &call);
}

void
clarify_test_server_sse_close (ClarifyTestServer *self,
                               const char        *path)
{
  StreamCall call = { self, path, NULL };

  run_in_server_thread (self, stream_call_cb, &call);
}

static gboolean
request_matches (const ClarifyTestRequest *request,
                 const char               *method,
                 const char               *path)
{
  return (method == NULL || g_str_equal (request->method, method)) &&
         g_str_equal (request->path, path);
}

guint
clarify_test_server_get_n_requests (ClarifyTestServer *self,
                                    const char        *method,
                                    const char        *path)
{
  guint n = 0;

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->log->len; i++)
    {
      LogEntry *entry = g_ptr_array_index (self->log, i);

      if (request_matches (entry->request, method, path))
        n++;
    }
  g_mutex_unlock (&self->mutex);

  return n;
}

GPtrArray *
clarify_test_server_get_requests (ClarifyTestServer *self)
{
  GPtrArray *requests = g_ptr_array_new_with_free_func ((GDestroyNotify) clarify_test_request_free);

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->log->len; i++)
    g_ptr_array_add (requests, clarify_test_request_copy (((LogEntry *) self->log->pdata[i])->request));
  g_mutex_unlock (&self->mutex);

  return requests;
}

ClarifyTestRequest *
clarify_test_server_get_request (ClarifyTestServer *self,
                                 const char        *method,
                                 const char        *path,
                                 guint              index)
{
  ClarifyTestRequest *copy = NULL;
  guint n = 0;

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->log->len && copy == NULL; i++)
    {
      LogEntry *entry = g_ptr_array_index (self->log, i);

      if (request_matches (entry->request, method, path) && n++ == index)
        copy = clarify_test_request_copy (entry->request);
    }
  g_mutex_unlock (&self->mutex);

  return copy;
}

static gboolean
timeout_reached_cb (gpointer data)
{
  gboolean *reached = data;

  *reached = TRUE;

  return G_SOURCE_REMOVE;
}

guint
clarify_test_scaled_ms (guint ms)
{
  /* Sanitized builds run several times slower (tests/meson.build's asan setup). */
  const char *scale = g_getenv ("CLARIFY_TEST_TIMEOUT_SCALE");

  return ms * (scale != NULL ? MAX (1, atoi (scale)) : 1);
}

static gboolean
iterate_until (GMainContext *context,
               gboolean    (*condition) (gpointer data),
               gpointer      data,
               guint         timeout_ms)
{
  GSource *timeout = g_timeout_source_new (clarify_test_scaled_ms (timeout_ms));
  gboolean timed_out = FALSE;
  gboolean reached;

  g_source_set_callback (timeout, timeout_reached_cb, &timed_out, NULL);
  g_source_attach (timeout, context);

  while (!(reached = condition (data)) && !timed_out)
    g_main_context_iteration (context, TRUE);

  g_source_destroy (timeout);
  g_source_unref (timeout);

  return reached;
}

gboolean
clarify_test_loop_until (gboolean (*condition) (gpointer data),
                         gpointer   data,
                         guint      timeout_ms)
{
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();

  return iterate_until (context, condition, data, timeout_ms);
}

static gboolean
never (gpointer data)
{
  return FALSE;
}

void
clarify_test_loop_for (guint ms)
{
  clarify_test_loop_until (never, NULL, ms);
}

/* Iterates the caller's context, woken by the server thread on every change. */
static gboolean
server_wait_until (ClarifyTestServer *self,
                   gboolean         (*condition) (gpointer data),
                   gpointer           data,
                   guint              timeout_ms)
{
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();
  gboolean reached;

  g_mutex_lock (&self->mutex);
  g_ptr_array_add (self->waiters, context);
  g_mutex_unlock (&self->mutex);

  reached = iterate_until (context, condition, data, timeout_ms);

  g_mutex_lock (&self->mutex);
  g_ptr_array_remove (self->waiters, context);
  g_mutex_unlock (&self->mutex);

  return reached;
}

typedef struct
{
  ClarifyTestServer  *self;
  const char         *method;
  const char         *path;
  guint               n;
  ClarifyTestRequest *found;
} WaitData;

static gboolean
claim_request (gpointer data)
{
  WaitData *wait = data;

  g_mutex_lock (&wait->self->mutex);
  for (guint i = 0; i < wait->self->log->len && wait->found == NULL; i++)
    {
      LogEntry *entry = g_ptr_array_index (wait->self->log, i);

      if (!entry->claimed && request_matches (entry->request, wait->method, wait->path))
        {
          entry->claimed = TRUE;
          wait->found = clarify_test_request_copy (entry->request);
        }
    }
  g_mutex_unlock (&wait->self->mutex);

  return wait->found != NULL;
}

ClarifyTestRequest *
clarify_test_server_wait_for_request (ClarifyTestServer *self,
                                      const char        *method,
                                      const char        *path,
                                      guint              timeout_ms)
{
  WaitData wait = { self, method, path, 0, NULL };

  server_wait_until (self, claim_request, &wait, timeout_ms);

  return wait.found;
}

static gboolean
has_n_requests (gpointer data)
{
  WaitData *wait = data;

  return clarify_test_server_get_n_requests (wait->self, wait->method, wait->path) >= wait->n;
}

gboolean
clarify_test_server_wait_for_n_requests (ClarifyTestServer *self,
                                         const char        *method,
                                         const char        *path,
                                         guint              n,
                                         guint              timeout_ms)
{
  WaitData wait = { self, method, path, n, NULL };

  return server_wait_until (self, has_n_requests, &wait, timeout_ms);
}

static gboolean
has_n_streams (gpointer data)
{
  WaitData *wait = data;

  return clarify_test_server_get_n_streams (wait->self, wait->path) == wait->n;
}

gboolean
clarify_test_server_wait_for_n_streams (ClarifyTestServer *self,
                                        const char        *path,
                                        guint              n,
                                        guint              timeout_ms)
{
  WaitData wait = { self, NULL, path, n, NULL };

  return server_wait_until (self, has_n_streams, &wait, timeout_ms);
}

char *
clarify_test_load_fixture (const char *relative_path)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", relative_path, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &error))
    g_error ("Cannot read fixture %s: %s", path, error->message);

  return contents;
}

static void
remove_file_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children =
    g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  GFileInfo *info;

  while (children != NULL && (info = g_file_enumerator_next_file (children, NULL, NULL)) != NULL)
    {
      g_autoptr(GFile) child = g_file_get_child (file, g_file_info_get_name (info));

      remove_file_tree (child);
      g_object_unref (info);
    }

  g_file_delete (file, NULL, NULL);
}

void
clarify_test_remove_tree (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  remove_file_tree (file);
}

guint
clarify_test_free_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (socket);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

int
clarify_test_hold_port (guint port)
{
  struct sockaddr_in address = { 0 };
  int holder = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;

  g_assert_cmpint (holder, >=, 0);
  address.sin_family = AF_INET;
  address.sin_port = htons (port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  setsockopt (holder, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  g_assert_cmpint (bind (holder, (struct sockaddr *) &address, sizeof address), ==, 0);
  g_assert_cmpint (listen (holder, 1), ==, 0);

  return holder;
}
