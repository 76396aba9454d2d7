/* clarify-backend-probe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-backend-probe.h"
#include "clarify-http.h"
#include "clarify-secret.h"

#define PROBE_TIMEOUT_S  10
/* Enough of a reply to tell one server's JSON from another's. */
#define PROBE_MAX_BODY   (64 * 1024)

typedef struct
{
  const ClarifyProbeSpec *spec;
  SoupSession            *session;
  SoupMessage            *message;
  GInputStream           *stream;
  guint8                 *buffer;
  gsize                   length;
  char                   *detail;
} Probe;

static void
probe_free (Probe *probe)
{
  g_clear_object (&probe->stream);
  g_clear_object (&probe->message);
  g_clear_object (&probe->session);
  g_clear_pointer (&probe->buffer, g_free);
  g_clear_pointer (&probe->detail, g_free);
  g_free (probe);
}

static void
probe_return (GTask               *task,
              ClarifyProbeVerdict  verdict,
              const char          *detail)
{
  Probe *probe = g_task_get_task_data (task);

  g_free (probe->detail);
  probe->detail = g_strdup (detail);
  if (probe->stream != NULL)
    g_input_stream_close (probe->stream, NULL, NULL);
  g_task_return_int (task, verdict);
}

static char *
status_text (SoupMessage *message)
{
  return g_strdup_printf ("HTTP %u %s", soup_message_get_status (message),
                          soup_message_get_reason_phrase (message) != NULL ? soup_message_get_reason_phrase (message) : "");
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Probe *probe = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (object), result, &probe->length, &error))
    {
      probe_return (task, CLARIFY_PROBE_UNREACHABLE, error->message);
      return;
    }

  if (!json_parser_load_from_data (parser, (const char *) probe->buffer, (gssize) probe->length, &error))
    {
      probe_return (task, CLARIFY_PROBE_WRONG_KIND, error->message);
      return;
    }

  if (probe->spec->recognize != NULL && !probe->spec->recognize (json_parser_get_root (parser)))
    {
      probe_return (task, CLARIFY_PROBE_WRONG_KIND, "unexpected JSON");
      return;
    }

  probe_return (task, CLARIFY_PROBE_REACHABLE, NULL);
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Probe *probe = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;
  GCancellable *cancellable;
  const char *content_type;
  guint code;

  probe->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (probe->stream == NULL)
    {
      if (error->domain == G_TLS_ERROR)
        probe_return (task, CLARIFY_PROBE_TLS_ERROR, error->message);
      else
        probe_return (task, CLARIFY_PROBE_UNREACHABLE, error->message);
      return;
    }

  code = soup_message_get_status (probe->message);
  status = status_text (probe->message);
  if (code == SOUP_STATUS_UNAUTHORIZED || code == SOUP_STATUS_FORBIDDEN)
    {
      probe_return (task, CLARIFY_PROBE_AUTH_FAILED, status);
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (code))
    {
      probe_return (task, CLARIFY_PROBE_WRONG_KIND, status);
      return;
    }

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (probe->message), NULL);
  if (g_strcmp0 (content_type, probe->spec->content_type) != 0)
    {
      probe_return (task, CLARIFY_PROBE_WRONG_KIND, content_type != NULL ? content_type : "no content type");
      return;
    }

  /* An event stream never ends: its headers say enough. */
  if (g_strcmp0 (content_type, "application/json") != 0)
    {
      probe_return (task, CLARIFY_PROBE_REACHABLE, NULL);
      return;
    }

  probe->buffer = g_malloc (PROBE_MAX_BODY);
  cancellable = g_task_get_cancellable (task);
  g_input_stream_read_all_async (probe->stream, probe->buffer, PROBE_MAX_BODY, G_PRIORITY_DEFAULT,
                                 cancellable, read_cb, g_steal_pointer (&task));
}

static char *
probe_url (const ClarifyProbeSpec *spec,
           ClarifyConnection      *connection)
{
  g_autofree char *base = g_strdup (clarify_connection_get_url (connection));
  gsize length = strlen (base);

  if (spec->path == NULL)
    return g_steal_pointer (&base);

  while (length > 0 && base[length - 1] == '/')
    base[--length] = '\0';

  return g_strconcat (base, spec->path, NULL);
}

void
clarify_backend_probe_async (const ClarifyProbeSpec *spec,
                             ClarifyConnection      *connection,
                             const char             *secret,
                             GCancellable           *cancellable,
                             GAsyncReadyCallback     callback,
                             gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *url = NULL;
  SoupMessageHeaders *headers;
  Probe *probe;

  g_return_if_fail (spec != NULL);
  g_return_if_fail (CLARIFY_IS_CONNECTION (connection));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_backend_probe_async);
  probe = g_new0 (Probe, 1);
  probe->spec = spec;
  g_task_set_task_data (task, probe, (GDestroyNotify) probe_free);

  url = probe_url (spec, connection);
  probe->message = soup_message_new (spec->auth == CLARIFY_PROBE_AUTH_LOGIN ? SOUP_METHOD_POST : SOUP_METHOD_GET, url);
  if (probe->message == NULL)
    {
      probe_return (task, CLARIFY_PROBE_UNREACHABLE, url);
      return;
    }
  if (spec->loopback_certificates)
    clarify_http_message_accept_loopback_certificate (probe->message);

  headers = soup_message_get_request_headers (probe->message);
  soup_message_headers_replace (headers, "Accept", spec->content_type);
  if (secret != NULL && *secret != '\0')
    {
      if (spec->auth == CLARIFY_PROBE_AUTH_BEARER)
        {
          g_autofree char *value = g_strconcat ("Bearer ", secret, NULL);

          soup_message_headers_replace (headers, "Authorization", value);
          explicit_bzero (value, strlen (value));
        }
      else if (spec->auth == CLARIFY_PROBE_AUTH_BASIC)
        {
          const char *user = clarify_connection_get_option (connection, "username");
          g_autofree char *credentials = g_strconcat (user != NULL && *user != '\0' ? user : spec->default_user,
                                                      ":", secret, NULL);
          g_autofree char *encoded = g_base64_encode ((const guchar *) credentials, strlen (credentials));
          g_autofree char *value = g_strconcat ("Basic ", encoded, NULL);

          soup_message_headers_replace (headers, "Authorization", value);
          explicit_bzero (credentials, strlen (credentials));
        }
    }
  if (spec->auth == CLARIFY_PROBE_AUTH_LOGIN)
    {
      char *body = spec->login_body (connection, secret != NULL ? secret : "");
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (probe->message, "application/json", bytes);
      clarify_secret_free (body);
    }

  probe->session = soup_session_new_with_options ("timeout", PROBE_TIMEOUT_S, NULL);
  soup_session_send_async (probe->session, probe->message, G_PRIORITY_DEFAULT, cancellable,
                           sent_cb, g_steal_pointer (&task));
}

ClarifyProbeVerdict
clarify_backend_probe_finish (GAsyncResult  *result,
                              char         **detail)
{
  Probe *probe;
  g_autoptr(GError) error = NULL;
  gssize verdict;

  g_return_val_if_fail (g_task_is_valid (result, NULL), CLARIFY_PROBE_UNREACHABLE);

  probe = g_task_get_task_data (G_TASK (result));
  verdict = g_task_propagate_int (G_TASK (result), &error);
  if (error != NULL)
    {
      if (detail != NULL)
        *detail = g_strdup (error->message);
      return CLARIFY_PROBE_UNREACHABLE;
    }

  if (detail != NULL)
    *detail = g_strdup (probe->detail);

  return (ClarifyProbeVerdict) verdict;
}
