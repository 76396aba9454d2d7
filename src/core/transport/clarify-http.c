/* clarify-http.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"

GBytes *
clarify_http_read_finish (SoupSession   *session,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  GBytes *body;

  body = soup_session_send_and_read_finish (session, result, &local_error);
  if (body != NULL)
    return body;

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_steal_pointer (&local_error));
  else
    g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT, "%s", local_error->message);

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
      return SOUP_STATUS_IS_SERVER_ERROR (status) ? CLARIFY_ERROR_TRANSIENT : CLARIFY_ERROR_PROTOCOL;
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
