/* clarify-sse-client.c: a reconnecting EventSource on libsoup 3
 *
 * One Attempt per connection: it owns the message, the body stream and the
 * read buffer, and every pending async call holds a reference to it. Stopping
 * cuts the Attempt loose (attempt->self = NULL) and cancels it, so callbacks
 * that arrive later touch nothing but the Attempt, and the client may be
 * finalized while a request is in flight.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-sse-client.h"
#include "clarify-sse-parser.h"

#define READ_BUFFER_SIZE (16 * 1024)
/* A stream that stayed up this long resets the backoff. */
#define HEALTHY_PERIOD_US (60 * G_USEC_PER_SEC)
#define DEFAULT_BACKOFF_INITIAL_MS 1000
#define DEFAULT_BACKOFF_MAX_MS 30000
/* Refused: nobody listens, as while an agent restarts. Trying again costs
 * one packet, so a server that is back is reached within this. */
#define REFUSED_BACKOFF_MAX_MS 2000
/* The first try after an open stream ended: one packet, and a server that
 * died then refuses it, so that its restart is seen. */
#define ENDED_STREAM_RETRY_MS 100
#define ENDED_STREAM_MIN_OPEN_US G_USEC_PER_SEC
/* How long a server may take to answer the GET with its headers, for
 * clients without a stall timeout (an agent without heartbeats). */
#define DEFAULT_RESPONSE_TIMEOUT_MS 30000

typedef struct
{
  ClarifySseClient *self;         /* NULL once cut loose */
  GCancellable     *cancellable;
  SoupMessage      *msg;
  GInputStream     *stream;
  guint8            buffer[READ_BUFFER_SIZE];
} Attempt;

struct _ClarifySseClient
{
  GObject                 parent_instance;

  SoupSession            *session;
  char                   *url;
  SoupMessageHeaders     *extra_headers;
  guint                   stall_ms;
  guint                   response_timeout_ms;
  guint                   backoff_initial_ms;
  guint                   backoff_max_ms;

  ClarifySseParser       *parser;
  Attempt                *attempt;
  guint                   retry_source;
  guint                   stall_source;
  gint64                  last_activity;    /* monotonic µs of the last byte (or of connecting) */
  gint64                  connected_at;     /* monotonic µs, 0 while not connected */
  guint                   n_failures;       /* in a row; the backoff exponent */
  guint64                 server_retry_ms;  /* from "retry:", 0 = none */
  gboolean                unreachable;      /* the last failure reached no server */
  gboolean                refused;          /* … because the connection was refused */
  gboolean                outage;           /* unreachable at some attempt since the last stream */
  gboolean                came_back;        /* this stream follows such an outage */

  ClarifyConnectionState  state;
  char                   *state_reason;
  gint64                  retry_at;
  gboolean                running;
};

G_DEFINE_FINAL_TYPE (ClarifySseClient, clarify_sse_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_URL,
  PROP_STATE,
  PROP_STATE_REASON,
  PROP_RETRY_AT,
  N_PROPS
};

enum {
  SIGNAL_EVENT,
  SIGNAL_CONNECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void connect_now (ClarifySseClient *self);

static Attempt *
attempt_new (ClarifySseClient *self)
{
  Attempt *attempt = g_rc_box_new0 (Attempt);

  attempt->self = self;
  attempt->cancellable = g_cancellable_new ();

  return attempt;
}

static void
attempt_clear (gpointer data)
{
  Attempt *attempt = data;

  g_clear_object (&attempt->stream);
  g_clear_object (&attempt->msg);
  g_clear_object (&attempt->cancellable);
}

static void
attempt_unref (Attempt *attempt)
{
  g_rc_box_release_full (attempt, attempt_clear);
}

/* Cuts the current Attempt loose: no callback of it will reach us again. */
static void
drop_attempt (ClarifySseClient *self)
{
  Attempt *attempt = g_steal_pointer (&self->attempt);

  g_clear_handle_id (&self->stall_source, g_source_remove);
  self->connected_at = 0;

  if (attempt == NULL)
    return;

  attempt->self = NULL;
  g_cancellable_cancel (attempt->cancellable);
  attempt_unref (attempt);
}

static void
set_state (ClarifySseClient       *self,
           ClarifyConnectionState  state,
           const char             *reason,
           gint64                  retry_at)
{
  gboolean state_changed = self->state != state;
  gboolean reason_changed = g_strcmp0 (self->state_reason, reason) != 0;
  gboolean retry_at_changed = self->retry_at != retry_at;

  /* Everything is in place before the first notify: handlers of
   * notify::state read the reason and retry_at. */
  self->state = state;
  if (reason_changed)
    {
      g_free (self->state_reason);
      self->state_reason = g_strdup (reason);
    }
  self->retry_at = retry_at;

  g_object_freeze_notify (G_OBJECT (self));
  if (state_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  if (reason_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE_REASON]);
  if (retry_at_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRY_AT]);
  g_object_thaw_notify (G_OBJECT (self));
}

static gboolean
retry_cb (gpointer user_data)
{
  ClarifySseClient *self = user_data;

  self->retry_source = 0;
  connect_now (self);

  return G_SOURCE_REMOVE;
}

/* Exponential from the server's retry: (or our initial delay), capped, with
 * up to 25 % taken off at random so that many clients do not return at once. */
static guint
next_delay_ms (ClarifySseClient *self)
{
  guint64 base = self->server_retry_ms > 0 ? self->server_retry_ms : self->backoff_initial_ms;
  /* A server's retry: beyond our cap (a typo, or 4000000000) would leave
   * the connection waiting for days: it is honoured up to the cap. */
  guint64 cap = self->backoff_max_ms;
  guint64 delay = MIN (base, cap);

  if (self->refused)
    cap = MIN (cap, (guint64) REFUSED_BACKOFF_MAX_MS);

  for (guint i = 1; i < self->n_failures && delay < cap; i++)
    delay *= 2;
  delay = MIN (delay, cap);

  return (guint) (delay * g_random_double_range (0.75, 1.0));
}

/* Drops the stream and schedules the next attempt. @state is RECONNECTING,
 * or FAILED when retrying is unlikely to help without the user. */
static void
schedule_reconnect (ClarifySseClient       *self,
                    ClarifyConnectionState  state,
                    const char             *reason)
{
  gint64 now = g_get_monotonic_time ();
  gboolean stream_ended;
  guint delay_ms;

  if (self->connected_at != 0 && now - self->connected_at >= HEALTHY_PERIOD_US)
    self->n_failures = 0;
  self->n_failures++;
  /* A stream that stayed open a while: not a server that closes every one
   * at once. Each end in a row asks twice as long of it, so an agent that
   * restarts twice within a minute is still seen, and one whose streams
   * keep ending after a second backs off. */
  stream_ended = self->attempt != NULL && self->attempt->stream != NULL &&
                 now - self->connected_at >= ENDED_STREAM_MIN_OPEN_US << MIN (self->n_failures - 1, 6);

  drop_attempt (self);
  clarify_sse_parser_reset (self->parser);
  g_clear_handle_id (&self->retry_source, g_source_remove);

  delay_ms = next_delay_ms (self);
  if (stream_ended)
    delay_ms = MIN (delay_ms, ENDED_STREAM_RETRY_MS);
  /* Without the query: some servers take a token there. */
  g_debug ("SSE %.*s: %s; reconnecting in %u ms",
           (int) strcspn (self->url, "?"), self->url, reason, delay_ms);

  self->retry_source = g_timeout_add (delay_ms, retry_cb, self);
  g_source_set_name_by_id (self->retry_source, "[clarify] sse reconnect");

  set_state (self, state, reason, now + (gint64) delay_ms * 1000);
}

static void arm_stall_timer (ClarifySseClient *self,
                             guint             ms);

static gboolean
awaits_response (ClarifySseClient *self)
{
  return self->attempt != NULL && self->attempt->stream == NULL;
}

/* How long the current attempt may stay silent: until the response, a
 * server that accepts and never answers has to be left even on a stream
 * without heartbeats. 0: no limit. */
static guint
silence_limit_ms (ClarifySseClient *self)
{
  if (awaits_response (self) && self->stall_ms == 0)
    return self->response_timeout_ms;

  return self->stall_ms;
}

static gboolean
stall_cb (gpointer user_data)
{
  ClarifySseClient *self = user_data;
  gint64 idle_us = g_get_monotonic_time () - self->last_activity;
  guint limit_ms = silence_limit_ms (self);
  gint64 limit_us = (gint64) limit_ms * 1000;

  self->stall_source = 0;

  /* Reads only stamp the time; the timer wakes once per stall period. */
  if (limit_ms == 0)
    {
      return G_SOURCE_REMOVE;
    }
  else if (idle_us < limit_us)
    {
      arm_stall_timer (self, (guint) ((limit_us - idle_us + 999) / 1000));
    }
  else
    {
      g_autofree char *reason = NULL;

      if (awaits_response (self))
        reason = g_strdup_printf ("no response for %u ms", limit_ms);
      else
        reason = g_strdup_printf ("no data for %u ms", limit_ms);
      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_RECONNECTING, reason);
    }

  return G_SOURCE_REMOVE;
}

static void
arm_stall_timer (ClarifySseClient *self,
                 guint             ms)
{
  g_clear_handle_id (&self->stall_source, g_source_remove);

  if (silence_limit_ms (self) == 0)
    return;

  self->stall_source = g_timeout_add (MAX (ms, 1), stall_cb, self);
  g_source_set_name_by_id (self->stall_source, "[clarify] sse stall");
}

static void
on_parser_event (const char *event_type,
                 const char *data,
                 gsize       data_len,
                 const char *last_event_id,
                 gpointer    user_data)
{
  ClarifySseClient *self = user_data;

  if (self->attempt == NULL)
    return;

  g_signal_emit (self, signals[SIGNAL_EVENT], 0, event_type, data, last_event_id);
}

static void
on_parser_retry (guint64  retry_ms,
                 gpointer user_data)
{
  ClarifySseClient *self = user_data;

  self->server_retry_ms = retry_ms;
}

static void read_next (Attempt *attempt);

static void
read_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Attempt *attempt = user_data;
  ClarifySseClient *self = attempt->self;
  g_autoptr(GError) error = NULL;
  gssize n_read;

  n_read = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);

  if (self == NULL)
    goto out;

  if (n_read < 0)
    {
      g_autofree char *reason = g_strdup_printf ("read error: %s", error->message);

      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_RECONNECTING, reason);
      goto out;
    }

  if (n_read == 0)
    {
      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_RECONNECTING, "the server closed the stream");
      goto out;
    }

  self->last_activity = g_get_monotonic_time ();
  g_object_ref (self);
  clarify_sse_parser_feed (self->parser, (const char *) attempt->buffer, n_read);
  /* An ::event handler may have stopped us or asked for a new stream. */
  if (attempt->self == self)
    read_next (attempt);
  g_object_unref (self);

out:
  attempt_unref (attempt);
}

static void
read_next (Attempt *attempt)
{
  /* libsoup's chunked decoder needs reads of more than 2 bytes; ours are 16 KiB. */
  g_input_stream_read_async (attempt->stream, attempt->buffer, sizeof attempt->buffer,
                             G_PRIORITY_DEFAULT, attempt->cancellable,
                             read_cb, g_rc_box_acquire (attempt));
}

static gboolean
is_event_stream (SoupMessage  *msg,
                 char        **reason)
{
  const char *type = soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL);

  if (type != NULL && g_ascii_strcasecmp (type, "text/event-stream") == 0)
    return TRUE;

  if (type == NULL)
    *reason = g_strdup ("missing content type");
  else
    *reason = g_strdup_printf ("unexpected content type %s", type);

  return FALSE;
}

static void
send_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Attempt *attempt = user_data;
  ClarifySseClient *self = attempt->self;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (source), result, &error);

  if (self == NULL)
    goto out;

  if (stream == NULL)
    {
      self->unreachable = self->outage = TRUE;
      self->refused = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
      reason = g_strdup (error->message);
      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_RECONNECTING, reason);
      goto out;
    }

  /* The server answers again (a restart, the end of an outage): whatever it
   * says next, the back-off starts over rather than where the outage left it. */
  if (self->unreachable)
    self->n_failures = 0;
  self->unreachable = self->refused = FALSE;

  status = soup_message_get_status (attempt->msg);
  if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
    {
      /* Still retried: a backend may refresh its login meanwhile. */
      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_FAILED, "authentication failed");
      goto out;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      reason = g_strdup_printf ("HTTP %u %s", status, soup_message_get_reason_phrase (attempt->msg));
      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_RECONNECTING, reason);
      goto out;
    }
  if (!is_event_stream (attempt->msg, &reason))
    {
      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_FAILED, reason);
      goto out;
    }

  attempt->stream = g_steal_pointer (&stream);
  self->came_back = self->outage;
  self->outage = FALSE;
  self->connected_at = self->last_activity = g_get_monotonic_time ();
  clarify_sse_parser_reset (self->parser);
  /* From here on only the stall timeout limits the silence. */
  arm_stall_timer (self, self->stall_ms);

  g_object_ref (self);
  set_state (self, CLARIFY_CONNECTION_STATE_CONNECTED, NULL, 0);
  if (attempt->self == self)
    g_signal_emit (self, signals[SIGNAL_CONNECTED], 0);
  if (attempt->self == self)
    read_next (attempt);
  g_object_unref (self);

out:
  attempt_unref (attempt);
}

static void
copy_header (const char *name,
             const char *value,
             gpointer    user_data)
{
  soup_message_headers_replace (user_data, name, value);
}

static void
connect_now (ClarifySseClient *self)
{
  SoupMessageHeaders *headers;
  const char *last_event_id;
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = NULL;

  drop_attempt (self);
  g_clear_handle_id (&self->retry_source, g_source_remove);
  self->refused = FALSE;

  uri = g_uri_parse (self->url, SOUP_HTTP_URI_FLAGS, &error);
  if (uri == NULL)
    {
      g_autofree char *reason = g_strdup_printf ("invalid URL: %s", error->message);

      /* Keeps trying: the URL may be replaced with set_url() meanwhile. */
      schedule_reconnect (self, CLARIFY_CONNECTION_STATE_FAILED, reason);
      return;
    }

  self->attempt = attempt_new (self);
  self->attempt->msg = soup_message_new_from_uri (SOUP_METHOD_GET, uri);
  headers = soup_message_get_request_headers (self->attempt->msg);
  soup_message_headers_replace (headers, "Accept", "text/event-stream");
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_foreach (self->extra_headers, copy_header, headers);
  last_event_id = clarify_sse_parser_get_last_event_id (self->parser);
  if (last_event_id[0] != '\0')
    soup_message_headers_replace (headers, "Last-Event-ID", last_event_id);

  /* A server that accepts but never answers is left too. */
  self->last_activity = g_get_monotonic_time ();
  arm_stall_timer (self, silence_limit_ms (self));

  set_state (self, CLARIFY_CONNECTION_STATE_CONNECTING, NULL, 0);

  soup_session_send_async (self->session, self->attempt->msg, G_PRIORITY_DEFAULT,
                           self->attempt->cancellable, send_cb,
                           g_rc_box_acquire (self->attempt));
}

static void
clarify_sse_client_dispose (GObject *object)
{
  ClarifySseClient *self = CLARIFY_SSE_CLIENT (object);

  self->running = FALSE;
  drop_attempt (self);
  g_clear_handle_id (&self->retry_source, g_source_remove);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (clarify_sse_client_parent_class)->dispose (object);
}

static void
clarify_sse_client_finalize (GObject *object)
{
  ClarifySseClient *self = CLARIFY_SSE_CLIENT (object);

  g_clear_pointer (&self->parser, clarify_sse_parser_free);
  g_clear_pointer (&self->extra_headers, soup_message_headers_unref);
  g_free (self->url);
  g_free (self->state_reason);

  G_OBJECT_CLASS (clarify_sse_client_parent_class)->finalize (object);
}

static void
clarify_sse_client_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  ClarifySseClient *self = CLARIFY_SSE_CLIENT (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    case PROP_URL:
      g_value_set_string (value, self->url);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_STATE_REASON:
      g_value_set_string (value, self->state_reason);
      break;

    case PROP_RETRY_AT:
      g_value_set_int64 (value, self->retry_at);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_sse_client_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  ClarifySseClient *self = CLARIFY_SSE_CLIENT (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;

    case PROP_URL:
      clarify_sse_client_set_url (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_sse_client_class_init (ClarifySseClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_sse_client_dispose;
  object_class->finalize = clarify_sse_client_finalize;
  object_class->get_property = clarify_sse_client_get_property;
  object_class->set_property = clarify_sse_client_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         SOUP_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       CLARIFY_TYPE_CONNECTION_STATE,
                       CLARIFY_CONNECTION_STATE_IDLE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE_REASON] =
    g_param_spec_string ("state-reason", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RETRY_AT] =
    g_param_spec_int64 ("retry-at", NULL, NULL,
                        0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_EVENT] =
    g_signal_new ("event",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_CONNECTED] =
    g_signal_new ("connected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
clarify_sse_client_init (ClarifySseClient *self)
{
  self->parser = clarify_sse_parser_new (on_parser_event, on_parser_retry, self);
  self->extra_headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  self->backoff_initial_ms = DEFAULT_BACKOFF_INITIAL_MS;
  self->backoff_max_ms = DEFAULT_BACKOFF_MAX_MS;
  self->response_timeout_ms = DEFAULT_RESPONSE_TIMEOUT_MS;
  self->state = CLARIFY_CONNECTION_STATE_IDLE;
}

ClarifySseClient *
clarify_sse_client_new (SoupSession *session,
                        const char  *url)
{
  g_return_val_if_fail (SOUP_IS_SESSION (session), NULL);
  g_return_val_if_fail (url != NULL, NULL);

  return g_object_new (CLARIFY_TYPE_SSE_CLIENT,
                       "session", session,
                       "url", url,
                       NULL);
}

const char *
clarify_sse_client_get_url (ClarifySseClient *self)
{
  g_return_val_if_fail (CLARIFY_IS_SSE_CLIENT (self), NULL);

  return self->url;
}

/* The log names the stream by its address, without a user name in it. */
static void
set_parser_name (ClarifySseClient *self)
{
  g_autoptr(GUri) uri = g_uri_parse (self->url, G_URI_FLAGS_ENCODED, NULL);
  g_autofree char *shown = uri != NULL ? g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO) : NULL;

  clarify_sse_parser_set_name (self->parser, shown);
}

void
clarify_sse_client_set_url (ClarifySseClient *self,
                            const char       *url)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));

  g_return_if_fail (url != NULL);

  if (g_strcmp0 (self->url, url) == 0)
    return;

  g_free (self->url);
  self->url = g_strdup (url);
  set_parser_name (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_URL]);
}

void
clarify_sse_client_set_header (ClarifySseClient *self,
                               const char       *name,
                               const char       *value)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));
  g_return_if_fail (name != NULL);

  if (value != NULL)
    soup_message_headers_replace (self->extra_headers, name, value);
  else
    soup_message_headers_remove (self->extra_headers, name);
}

void
clarify_sse_client_set_stall_timeout (ClarifySseClient *self,
                                      guint             stall_ms)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));

  self->stall_ms = stall_ms;
  if (self->attempt != NULL)
    arm_stall_timer (self, silence_limit_ms (self));
}

void
clarify_sse_client_set_response_timeout (ClarifySseClient *self,
                                         guint             response_ms)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));
  g_return_if_fail (response_ms > 0);

  self->response_timeout_ms = response_ms;
  if (awaits_response (self))
    arm_stall_timer (self, silence_limit_ms (self));
}

void
clarify_sse_client_set_max_event_size (ClarifySseClient *self,
                                       gsize             max_bytes)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));

  clarify_sse_parser_set_max_event_size (self->parser, max_bytes);
}

void
clarify_sse_client_set_backoff (ClarifySseClient *self,
                                guint             initial_ms,
                                guint             max_ms)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));
  g_return_if_fail (initial_ms > 0);

  self->backoff_initial_ms = initial_ms;
  self->backoff_max_ms = MAX (initial_ms, max_ms);
}

void
clarify_sse_client_start (ClarifySseClient *self)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));

  if (self->running)
    return;

  self->running = TRUE;
  self->n_failures = 0;
  self->unreachable = self->outage = self->came_back = FALSE;
  connect_now (self);
}

void
clarify_sse_client_stop (ClarifySseClient *self)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));

  if (!self->running)
    return;

  self->running = FALSE;
  drop_attempt (self);
  clarify_sse_parser_reset (self->parser);
  g_clear_handle_id (&self->retry_source, g_source_remove);
  set_state (self, CLARIFY_CONNECTION_STATE_IDLE, NULL, 0);
}

void
clarify_sse_client_reconnect (ClarifySseClient *self)
{
  g_return_if_fail (CLARIFY_IS_SSE_CLIENT (self));

  if (!self->running)
    return;

  schedule_reconnect (self, CLARIFY_CONNECTION_STATE_RECONNECTING, "reconnect requested");
}

ClarifyConnectionState
clarify_sse_client_get_state (ClarifySseClient *self)
{
  g_return_val_if_fail (CLARIFY_IS_SSE_CLIENT (self), CLARIFY_CONNECTION_STATE_IDLE);

  return self->state;
}

const char *
clarify_sse_client_get_state_reason (ClarifySseClient *self)
{
  g_return_val_if_fail (CLARIFY_IS_SSE_CLIENT (self), NULL);

  return self->state_reason;
}

gint64
clarify_sse_client_get_retry_at (ClarifySseClient *self)
{
  g_return_val_if_fail (CLARIFY_IS_SSE_CLIENT (self), 0);

  return self->retry_at;
}

gboolean
clarify_sse_client_came_back (ClarifySseClient *self)
{
  g_return_val_if_fail (CLARIFY_IS_SSE_CLIENT (self), FALSE);

  return self->came_back;
}

gboolean
clarify_sse_client_had_outage (ClarifySseClient *self)
{
  g_return_val_if_fail (CLARIFY_IS_SSE_CLIENT (self), FALSE);

  return self->outage;
}
