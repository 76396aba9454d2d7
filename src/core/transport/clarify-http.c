/* clarify-http.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"

/* What one send-and-read keeps until the body is in. */
typedef struct
{
  SoupMessage  *message;
  GInputStream *stream;
  GByteArray   *body;
  int           priority;
} HttpRead;

static void
http_read_free (HttpRead *read)
{
  g_clear_object (&read->message);
  g_clear_object (&read->stream);
  g_clear_pointer (&read->body, g_byte_array_unref);
  g_free (read);
}

static void
return_too_large (GTask *task)
{
  g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                           "the reply is larger than %u MiB: refused",
                           (guint) (CLARIFY_HTTP_MAX_BODY / (1024 * 1024)));
  g_object_unref (task);
}

static void read_next (GTask *task);

static void
read_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  HttpRead *read = g_task_get_task_data (task);
  g_autoptr(GBytes) chunk = NULL;
  GError *error = NULL;

  chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (chunk == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  if (g_bytes_get_size (chunk) == 0)
    {
      g_task_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&read->body)),
                             (GDestroyNotify) g_bytes_unref);
      g_object_unref (task);
      return;
    }

  /* A hostile agent may stream without end: stop at the cap. */
  if (read->body->len + g_bytes_get_size (chunk) > CLARIFY_HTTP_MAX_BODY)
    {
      return_too_large (task);
      return;
    }

  g_byte_array_append (read->body, g_bytes_get_data (chunk, NULL), g_bytes_get_size (chunk));
  read_next (task);
}

static void
read_next (GTask *task)
{
  HttpRead *read = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (read->stream, 64 * 1024, read->priority,
                                   g_task_get_cancellable (task), read_cb, task);
}

static void
send_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  HttpRead *read = g_task_get_task_data (task);
  SoupMessageHeaders *headers;
  GError *error = NULL;

  read->stream = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  if (read->stream == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  headers = soup_message_get_response_headers (read->message);
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > CLARIFY_HTTP_MAX_BODY)
    {
      return_too_large (task);
      return;
    }

  read_next (task);
}

void
clarify_http_send_and_read_async (SoupSession         *session,
                                  SoupMessage         *message,
                                  int                  priority,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GTask *task = g_task_new (session, cancellable, callback, user_data);
  HttpRead *read = g_new0 (HttpRead, 1);

  read->message = g_object_ref (message);
  read->body = g_byte_array_new ();
  read->priority = priority;
  g_task_set_source_tag (task, clarify_http_send_and_read_async);
  g_task_set_task_data (task, read, (GDestroyNotify) http_read_free);
  soup_session_send_async (session, message, priority, cancellable, send_cb, task);
}

SoupMessage *
clarify_http_get_message (GAsyncResult *result)
{
  HttpRead *read;

  g_return_val_if_fail (G_IS_TASK (result), NULL);
  read = g_task_get_task_data (G_TASK (result));

  return read->message;
}

GBytes *
clarify_http_read_finish (SoupSession   *session,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  GBytes *body;

  g_return_val_if_fail (g_task_is_valid (result, session), NULL);

  body = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (body != NULL)
    return body;

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      local_error->domain == CLARIFY_ERROR)
    g_propagate_error (error, g_steal_pointer (&local_error));
  else
    g_set_error (error, CLARIFY_ERROR,
                 clarify_error_is_unreachable (local_error)
                 ? CLARIFY_ERROR_UNREACHABLE : CLARIFY_ERROR_TRANSIENT,
                 "%s", local_error->message);

  return NULL;
}

static ClarifyError
error_for_status (guint status)
{
  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
    case SOUP_STATUS_FORBIDDEN:
      return CLARIFY_ERROR_AUTH;

    /* The agent has no such request any more, or it was answered already. */
    case SOUP_STATUS_NOT_FOUND:
    case SOUP_STATUS_CONFLICT:
    case SOUP_STATUS_GONE:
      return CLARIFY_ERROR_GONE;

    case SOUP_STATUS_BAD_REQUEST:
    case SOUP_STATUS_UNPROCESSABLE_ENTITY:
      return CLARIFY_ERROR_REJECTED;

    case SOUP_STATUS_REQUEST_TIMEOUT:
    case 429: /* Too Many Requests */
      return CLARIFY_ERROR_TRANSIENT;

    default:
      if (SOUP_STATUS_IS_SERVER_ERROR (status))
        return CLARIFY_ERROR_TRANSIENT;
      /* Not taken, for a reason no agent gives (a redirect, 405, 413): a
       * refusal too, so that an answer comes back to the user rather than
       * end unsent while the agent still waits. */
      if (SOUP_STATUS_IS_REDIRECTION (status) || SOUP_STATUS_IS_CLIENT_ERROR (status))
        return CLARIFY_ERROR_REJECTED;
      return CLARIFY_ERROR_PROTOCOL;
    }
}

gboolean
clarify_http_check_status (SoupMessage  *message,
                           GError      **error)
{
  guint status = soup_message_get_status (message);
  const char *reason = soup_message_get_reason_phrase (message);

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    return TRUE;

  if (reason == NULL || *reason == '\0')
    reason = soup_status_get_phrase (status);
  g_set_error (error, CLARIFY_ERROR, error_for_status (status), "HTTP %u %s", status, reason);

  return FALSE;
}

static gboolean
is_json (const char *content_type)
{
  return content_type != NULL &&
         (g_ascii_strcasecmp (content_type, "application/json") == 0 ||
          g_str_has_suffix (content_type, "+json"));
}

JsonNode *
clarify_http_parse_json (SoupMessage  *message,
                         GBytes       *body,
                         GError      **error)
{
  const char *content_type;
  JsonNode *node;
  g_autoptr(GError) local_error = NULL;
  gsize size = 0;
  const char *data = body != NULL ? g_bytes_get_data (body, &size) : NULL;

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (message), NULL);

  if (soup_message_get_status (message) == SOUP_STATUS_NO_CONTENT ||
      (size == 0 && !is_json (content_type)))
    return json_node_new (JSON_NODE_NULL);

  if (!is_json (content_type))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                   "%s answered %s instead of JSON",
                   g_uri_get_path (soup_message_get_uri (message)),
                   content_type != NULL ? content_type : "no content type");
      return NULL;
    }

  node = clarify_json_parse (data != NULL ? data : "", size, &local_error);
  if (node == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                   "malformed JSON from %s: %s",
                   g_uri_get_path (soup_message_get_uri (message)), local_error->message);
      return NULL;
    }

  return node;
}

gboolean
clarify_http_can_be_segment (const char *segment)
{
  /* GUri and libsoup resolve "." and ".." (even as %2E) out of a path, and
   * "" makes "//": none of them can stay one segment. */
  return segment != NULL && *segment != '\0' &&
         !g_str_equal (segment, ".") && !g_str_equal (segment, "..");
}

char *
clarify_http_escape_segment (const char  *segment,
                             GError     **error)
{
  if (!clarify_http_can_be_segment (segment))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "the id “%s” cannot be part of a URL", segment != NULL ? segment : "");
      return NULL;
    }

  return g_uri_escape_string (segment, NULL, FALSE);
}

static gboolean
is_loopback (GUri *uri)
{
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  return g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "::1") == 0 ||
         g_strcmp0 (host, "[::1]") == 0 || g_strcmp0 (host, "localhost") == 0;
}

static gboolean
accept_loopback_cb (SoupMessage          *message,
                    GTlsCertificate      *certificate,
                    GTlsCertificateFlags  errors,
                    gpointer              user_data)
{
  /* Reaching this port is the trust: anyone who could bind it could have
   * served plain HTTP there as well. */
  return is_loopback (soup_message_get_uri (message));
}

void
clarify_http_message_accept_loopback_certificate (SoupMessage *message)
{
  g_return_if_fail (SOUP_IS_MESSAGE (message));

  g_signal_connect (message, "accept-certificate", G_CALLBACK (accept_loopback_cb), NULL);
}

static void
request_queued_cb (SoupSession *session,
                   SoupMessage *message,
                   gpointer     user_data)
{
  clarify_http_message_accept_loopback_certificate (message);
}

void
clarify_http_accept_loopback_certificates (SoupSession *session)
{
  g_return_if_fail (SOUP_IS_SESSION (session));

  g_signal_connect (session, "request-queued", G_CALLBACK (request_queued_cb), NULL);
}

void
clarify_http_clear_session (SoupSession **session)
{
  if (*session != NULL)
    soup_session_abort (*session);
  g_clear_object (session);
}

char *
clarify_http_excerpt (GBytes *body,
                      gsize   max_chars)
{
  gsize size = 0;
  const char *data = body != NULL ? g_bytes_get_data (body, &size) : NULL;
  char *text = g_utf8_make_valid (data != NULL ? data : "", size);

  if (g_utf8_strlen (text, -1) > (glong) max_chars)
    *g_utf8_offset_to_pointer (text, max_chars) = '\0';

  return text;
}
