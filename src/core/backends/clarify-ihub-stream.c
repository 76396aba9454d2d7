/* clarify-ihub-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-ihub-stream.h"
#include "clarify-json.h"
#include "clarify-sse-parser.h"

#define READ_SIZE 8192

struct _ClarifyIhubStream
{
  GObject             parent_instance;

  ClarifyIhubBackend *backend; /* weak */
  char               *path;
  GCancellable       *cancellable;
  ClarifySseParser   *parser;
  GInputStream       *stream;
  guint               stall_id;
  gboolean            relogged;
  gboolean            posted;
  gboolean            closed;
  gboolean            refused;
};

G_DEFINE_FINAL_TYPE (ClarifyIhubStream, clarify_ihub_stream, G_TYPE_OBJECT)

enum {
  EVENT,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
fail (ClarifyIhubStream *self,
      ClarifyIhubEnd     end,
      const char        *detail)
{
  g_autoptr(ClarifyIhubStream) hold = g_object_ref (self);

  if (self->closed)
    return;
  clarify_ihub_stream_close (self);
  g_signal_emit (self, signals[FAILED], 0, end, detail);
}

/* A connection the port refused is told apart (see get_refused()). */
static void
fail_on_error (ClarifyIhubStream *self,
               const GError      *error)
{
  self->refused = clarify_error_is_unreachable (error);
  fail (self, CLARIFY_IHUB_END_CONNECTION_LOST, error->message);
}

static gboolean
stall_cb (gpointer user_data)
{
  ClarifyIhubStream *self = user_data;

  self->stall_id = 0;
  fail (self, CLARIFY_IHUB_END_CONNECTION_LOST, NULL);
  return G_SOURCE_REMOVE;
}

/* Heartbeats come every 30 s: silence for longer is a lost connection. */
static void
arm_stall (ClarifyIhubStream *self)
{
  guint stall_ms = self->backend != NULL ? clarify_ihub_backend_get_stall_ms (self->backend) : 0;

  g_clear_handle_id (&self->stall_id, g_source_remove);
  if (stall_ms > 0 && !self->closed)
    self->stall_id = g_timeout_add (stall_ms, stall_cb, self);
}

static void
parser_event_cb (const char *type,
                 const char *data,
                 gsize       data_len,
                 const char *last_event_id,
                 gpointer    user_data)
{
  ClarifyIhubStream *self = user_data;

  if (!self->closed)
    g_signal_emit (self, signals[EVENT], 0, type, data);
}

static void read_cb (GObject *object, GAsyncResult *result, gpointer user_data);

/* Takes @self's reference for the read. */
static void
read_next (ClarifyIhubStream *self)
{
  g_input_stream_read_bytes_async (self->stream, READ_SIZE, G_PRIORITY_DEFAULT, self->cancellable,
                                   read_cb, self);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(ClarifyIhubStream) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (self->closed)
    return;
  if (bytes == NULL)
    {
      fail (self, CLARIFY_IHUB_END_CONNECTION_LOST, error->message);
      return;
    }
  if (g_bytes_get_size (bytes) == 0)
    {
      /* The server drops streams that carried no event for 5 minutes. */
      fail (self, CLARIFY_IHUB_END_STREAM_CLOSED, NULL);
      return;
    }

  arm_stall (self);
  clarify_sse_parser_feed (self->parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (!self->closed)
    read_next (g_steal_pointer (&self));
}

static void send_get (ClarifyIhubStream *self);

static void
login_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(ClarifyIhubStream) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!clarify_ihub_backend_log_in_finish (CLARIFY_IHUB_BACKEND (object), result, &error))
    {
      if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH))
        fail (self, CLARIFY_IHUB_END_LOGIN_FAILED, error->message);
      else
        fail_on_error (self, error);
      return;
    }

  if (!self->closed)
    send_get (self);
}

/* TRUE for a success; otherwise fails (or logs in again) and returns FALSE. */
static gboolean
check_status (ClarifyIhubStream *self,
              SoupMessage       *message)
{
  guint status = soup_message_get_status (message);
  g_autofree char *text = NULL;

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    return TRUE;

  if (status == SOUP_STATUS_UNAUTHORIZED && !self->relogged && !self->posted &&
      self->backend != NULL && clarify_ihub_backend_can_log_in (self->backend))
    {
      /* The session expired: log in again, once. */
      self->relogged = TRUE;
      clarify_ihub_backend_log_in_async (self->backend, TRUE, self->cancellable, login_cb, g_object_ref (self));
      return FALSE;
    }

  text = g_strdup_printf ("HTTP %u %s", status, soup_message_get_reason_phrase (message));
  if (status == SOUP_STATUS_UNAUTHORIZED)
    fail (self, CLARIFY_IHUB_END_LOGIN_REQUIRED, text);
  else if (status == SOUP_STATUS_FORBIDDEN)
    fail (self, CLARIFY_IHUB_END_ACCESS_DENIED, text);
  else
    fail (self, CLARIFY_IHUB_END_SERVER_ERROR, text);
  return FALSE;
}

static void
get_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(ClarifyIhubStream) self = user_data;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (self->closed)
    return;
  if (stream == NULL)
    {
      fail_on_error (self, error);
      return;
    }
  if (!check_status (self, message))
    return;

  self->stream = g_steal_pointer (&stream);
  clarify_sse_parser_reset (self->parser);
  arm_stall (self);
  read_next (g_steal_pointer (&self));
}

static void
send_get (ClarifyIhubStream *self)
{
  g_autoptr(SoupMessage) message = NULL;

  if (self->backend == NULL)
    {
      fail (self, CLARIFY_IHUB_END_CONNECTION_LOST, NULL);
      return;
    }

  message = clarify_ihub_backend_new_message (self->backend, SOUP_METHOD_GET, self->path, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "text/event-stream");
  arm_stall (self);
  soup_session_send_async (clarify_ihub_backend_get_session (self->backend), message, G_PRIORITY_DEFAULT,
                           self->cancellable, get_cb, g_object_ref (self));
}

void
clarify_ihub_stream_open (ClarifyIhubStream *self)
{
  g_return_if_fail (CLARIFY_IS_IHUB_STREAM (self));

  if (self->backend == NULL)
    {
      fail (self, CLARIFY_IHUB_END_CONNECTION_LOST, NULL);
      return;
    }

  arm_stall (self);
  clarify_ihub_backend_log_in_async (self->backend, FALSE, self->cancellable, login_cb, g_object_ref (self));
}

static void
post_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(ClarifyIhubStream) self = user_data;
  SoupMessage *message = clarify_http_get_message (result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  body = clarify_http_read_finish (SOUP_SESSION (object), result, &error);
  if (self->closed)
    return;
  if (body == NULL)
    {
      fail_on_error (self, error);
      return;
    }
  if (!check_status (self, message))
    return;

  /* A turn that could not be prepared is a 200 with status "error". */
  node = clarify_http_parse_json (message, body, NULL);
  reply = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  if (g_strcmp0 (clarify_json_get_string_member (reply, "status"), "error") == 0)
    fail (self, CLARIFY_IHUB_END_SERVER_ERROR, clarify_json_get_string_member (reply, "message"));
}

void
clarify_ihub_stream_post (ClarifyIhubStream *self,
                          const char        *body)
{
  g_autoptr(SoupMessage) message = NULL;
  g_autofree char *session_id = NULL;

  g_return_if_fail (CLARIFY_IS_IHUB_STREAM (self));

  if (self->posted || self->closed || self->backend == NULL)
    return;
  self->posted = TRUE;

  /* It returns when the turn is over: the stream tells the rest. */
  message = clarify_ihub_backend_new_message (self->backend, SOUP_METHOD_POST, self->path, body);
  session_id = g_strdup_printf ("session-%" G_GINT64_FORMAT "-%08x", g_get_real_time () / 1000, g_random_int ());
  soup_message_headers_replace (soup_message_get_request_headers (message), "X-Session-ID", session_id);
  clarify_http_send_and_read_async (clarify_ihub_backend_get_session (self->backend), message, G_PRIORITY_DEFAULT,
                                    self->cancellable, post_cb, g_object_ref (self));
}

gboolean
clarify_ihub_stream_get_refused (ClarifyIhubStream *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_STREAM (self), FALSE);

  return self->refused;
}

void
clarify_ihub_stream_close (ClarifyIhubStream *self)
{
  g_return_if_fail (CLARIFY_IS_IHUB_STREAM (self));

  self->closed = TRUE;
  g_clear_handle_id (&self->stall_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
}

ClarifyIhubStream *
clarify_ihub_stream_new (ClarifyIhubBackend *backend,
                         const char         *path)
{
  ClarifyIhubStream *self;

  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (backend), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (CLARIFY_TYPE_IHUB_STREAM, NULL);
  self->backend = backend;
  g_object_add_weak_pointer (G_OBJECT (backend), (gpointer *) &self->backend);
  self->path = g_strdup (path);

  return self;
}

static void
clarify_ihub_stream_dispose (GObject *object)
{
  ClarifyIhubStream *self = CLARIFY_IHUB_STREAM (object);

  clarify_ihub_stream_close (self);
  if (self->backend != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->backend), (gpointer *) &self->backend);
  self->backend = NULL;
  g_clear_object (&self->stream);

  G_OBJECT_CLASS (clarify_ihub_stream_parent_class)->dispose (object);
}

static void
clarify_ihub_stream_finalize (GObject *object)
{
  ClarifyIhubStream *self = CLARIFY_IHUB_STREAM (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->parser, clarify_sse_parser_free);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (clarify_ihub_stream_parent_class)->finalize (object);
}

static void
clarify_ihub_stream_class_init (ClarifyIhubStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_ihub_stream_dispose;
  object_class->finalize = clarify_ihub_stream_finalize;

  signals[EVENT] =
    g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  signals[FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_IHUB_END, G_TYPE_STRING);
}

static void
clarify_ihub_stream_init (ClarifyIhubStream *self)
{
  self->cancellable = g_cancellable_new ();
  self->parser = clarify_sse_parser_new (parser_event_cb, NULL, self);
}
