/* clarify-json-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-json-backend.h"

/* How much of a rejected answer's reply body goes into the log. */
#define MAX_LOGGED_BODY_CHARS 500
/* An agent that takes longer to accept an answer is retried by the outbox. */
#define ANSWER_TIMEOUT_S      30

struct _ClarifyJsonBackend
{
  ClarifyStreamBackend  parent_instance;

  SoupSession          *session;         /* answers: they time out */
  SoupSession          *stream_session;  /* the event stream: stall detection instead */
  ClarifySseClient     *sse_client;      /* owned by the parent */
  char                 *authorization;
};

G_DEFINE_FINAL_TYPE (ClarifyJsonBackend, clarify_json_backend, CLARIFY_TYPE_STREAM_BACKEND)

enum {
  CONFIRMED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
clarify_json_backend_get_name (ClarifyJsonBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection ? clarify_connection_get_name (connection) : "?";
}

static char *clarify_json_backend_build_response_url (ClarifyJsonBackend  *self,
                                                      const char          *request_id,
                                                      GError             **error);
static SoupMessage *clarify_json_backend_post_new (ClarifyJsonBackend *self,
                                                   const char         *url,
                                                   char               *json);

static void
on_refusal_posted (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GBytes) body = clarify_http_read_finish (SOUP_SESSION (source), result, NULL);
  SoupMessage *message = clarify_http_get_message (result);

  g_debug ("The agent took the refusal with HTTP %u", soup_message_get_status (message));
}

/* The request's id, when the event is an object that has one. */
static char *
dup_request_id (const char *data)
{
  g_autoptr(JsonNode) node = clarify_json_parse (data, -1, NULL);
  const char *id = node != NULL && JSON_NODE_HOLDS_OBJECT (node)
                     ? clarify_json_get_string_member (json_node_get_object (node), "id") : NULL;

  return id != NULL && *id != '\0' ? g_strdup (id) : NULL;
}

/* Tells the agent why its request is not shown, at the address its answer
 * would have gone to: {"id","outcome":"refused","error":{"code","message"}}
 * (docs/clarify-protocol.md). What it replies changes nothing. */
static void
post_refusal (ClarifyJsonBackend *self,
              const char         *request_id,
              const GError       *reason)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autofree char *url = clarify_json_backend_build_response_url (self, request_id, NULL);

  if (url == NULL)
    return;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, request_id);
  json_builder_set_member_name (builder, "outcome");
  json_builder_add_string_value (builder, "refused");
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  if (g_error_matches (reason, CLARIFY_ERROR, CLARIFY_ERROR_UNSAFE_PATTERN))
    json_builder_add_string_value (builder, "unsafe_pattern");
  else if (g_error_matches (reason, CLARIFY_ERROR, CLARIFY_ERROR_BUSY))
    json_builder_add_string_value (builder, "too_many_requests");
  else
    json_builder_add_string_value (builder, "invalid_request");
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, reason->message);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  message = clarify_json_backend_post_new (self, url, clarify_json_builder_to_string (builder));
  if (message != NULL)
    clarify_http_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, NULL,
                                      on_refusal_posted, NULL);
}

static void
clarify_json_backend_handle_request (ClarifyJsonBackend *self,
                                     const char         *data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  request = clarify_request_new_from_data (data, -1, &error);
  if (request == NULL)
    {
      g_autofree char *id = dup_request_id (data);

      /* One bad request must not take the others down with it. */
      g_message ("Connection “%s”: ignored a request the agent sent: %s%s",
                 clarify_json_backend_get_name (self), error->message,
                 id != NULL ? " (the agent was told why)" : "");
      if (id != NULL)
        post_refusal (self, id, error);
      return;
    }

  /* Past the inbox's caps the agent hears so, and may send it again later. */
  if (!clarify_backend_add_request_full (CLARIFY_BACKEND (self), request, &error) &&
      g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_BUSY))
    post_refusal (self, clarify_request_get_id (request), error);
}

static void
clarify_json_backend_handle_withdraw (ClarifyJsonBackend *self,
                                      const char         *data)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  const char *id;
  const char *reason;

  node = clarify_json_parse (data, -1, &error);
  if (node == NULL)
    {
      g_message ("Connection “%s”: ignored a withdraw event: %s",
                 clarify_json_backend_get_name (self), error->message);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: ignored a withdraw event that is not a JSON object",
                 clarify_json_backend_get_name (self));
      return;
    }

  object = json_node_get_object (node);
  id = clarify_json_get_string_member (object, "id");
  reason = clarify_json_get_string_member (object, "reason");

  if (id == NULL)
    {
      g_message ("Connection “%s”: ignored a withdraw event without an id",
                 clarify_json_backend_get_name (self));
      return;
    }

  /* The agent's own words, if any, are data the UI shows as they are. */
  clarify_backend_withdraw_request (CLARIFY_BACKEND (self), id,
                                    CLARIFY_END_REASON_AGENT_WITHDREW, reason);
}

static void
clarify_json_backend_event (ClarifyStreamBackend *backend,
                            const char           *type,
                            const char           *data,
                            const char           *id)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (backend);

  if (g_strcmp0 (type, "request") == 0)
    clarify_json_backend_handle_request (self, data);
  else if (g_strcmp0 (type, "withdraw") == 0)
    clarify_json_backend_handle_withdraw (self, data);
  else
    g_debug ("Connection “%s”: ignored event “%s”", clarify_json_backend_get_name (self), type);
}

static void
clarify_json_backend_connected (ClarifyStreamBackend *backend)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (backend);

  /* Nothing to fetch: the agent re-sends what is pending on every new
   * stream, and clarify_backend_add_request() drops what we already have. */
  g_debug ("Connection “%s”: stream open", clarify_json_backend_get_name (self));
}

/* POST <stream URL minus its last segment>/requests/<id>/response */
static char *
clarify_json_backend_build_response_url (ClarifyJsonBackend *self,
                                         const char         *request_id,
                                         GError            **error)
{
  g_autofree char *escaped_id = clarify_http_escape_segment (request_id, error);
  g_autofree char *directory = NULL;

  if (escaped_id == NULL)
    return NULL;

  /* RFC 3986 resolution drops the last segment and the query, which is
   * exactly "the stream URL's directory". The id is added after it, so
   * that resolution cannot treat it as a dot segment. */
  directory = g_uri_resolve_relative (clarify_sse_client_get_url (self->sse_client),
                                      "requests/", G_URI_FLAGS_NONE, error);
  if (directory == NULL)
    return NULL;

  return g_strconcat (directory, escaped_id, "/response", NULL);
}

/* A JSON POST to the agent, with its token; takes @json. NULL for a bad URL. */
static SoupMessage *
clarify_json_backend_post_new (ClarifyJsonBackend *self,
                               const char         *url,
                               char               *json)
{
  SoupMessage *message = soup_message_new ("POST", url);
  g_autoptr(GBytes) bytes = g_bytes_new_take (json, strlen (json));

  if (message == NULL)
    return NULL;

  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");
  if (self->authorization != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "Authorization", self->authorization);

  return message;
}

static void
log_rejection (ClarifyJsonBackend *self,
               SoupMessage        *message,
               GBytes             *body)
{
  g_autofree char *text = clarify_http_excerpt (body, MAX_LOGGED_BODY_CHARS);

  /* A rejected answer is a bug on one side or the other: keep the evidence. */
  g_message ("Connection “%s”: the agent rejected the answer (HTTP %u): %s",
             clarify_json_backend_get_name (self), soup_message_get_status (message), text);
}

static void
on_response_posted (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  SoupSession *session = SOUP_SESSION (source);
  g_autoptr(GTask) task = user_data;
  ClarifyJsonBackend *self = g_task_get_source_object (task);
  SoupMessage *message = clarify_http_get_message (result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *summary = NULL;

  body = clarify_http_read_finish (session, result, &error);
  if (body != NULL && !clarify_http_check_status (message, &error) &&
      g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED))
    log_rejection (self, message, body);
  if (error == NULL)
    reply = clarify_http_parse_json (message, body, &error);
  if (reply == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The agent's summary of what it received, if it gives one. */
  if (JSON_NODE_HOLDS_OBJECT (reply))
    summary = clarify_json_get_string_member (json_node_get_object (reply), "received");
  if (summary != NULL)
    g_signal_emit (self, signals[CONFIRMED], 0, g_task_get_task_data (task), summary);

  g_task_return_boolean (task, TRUE);
}

static void
clarify_json_backend_deliver_async (ClarifyBackend      *backend,
                                    ClarifyRequest      *request,
                                    ClarifyResponse     *response,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (backend);
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_json_backend_deliver_async);
  g_task_set_task_data (task, g_strdup (clarify_request_get_id (request)), g_free);

  url = clarify_json_backend_build_response_url (self, clarify_request_get_id (request), &error);
  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  node = clarify_response_to_json (response);
  if (url != NULL)
    message = clarify_json_backend_post_new (self, url, clarify_json_to_string (node));
  if (message == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                               "Cannot build the answer URL from “%s”: %s",
                               clarify_sse_client_get_url (self->sse_client),
                               error ? error->message : "invalid URL");
      return;
    }

  clarify_http_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, cancellable,
                                    on_response_posted, g_steal_pointer (&task));
}

static void
clarify_json_backend_constructed (GObject *object)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (object);
  ClarifyConnection *connection;
  g_autoptr(SoupCookieJar) jar = NULL;
  const char *token;

  G_OBJECT_CLASS (clarify_json_backend_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_return_if_fail (connection != NULL);

  /* One cookie jar per backend: its cookies belong to this connection only.
   * A quiet agent may send nothing for minutes, so the stream's session has
   * no I/O timeout (libsoup's default of 60 s would cut it and reconnect). */
  jar = soup_cookie_jar_new ();
  self->session = soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                                 "timeout", ANSWER_TIMEOUT_S,
                                                 NULL);
  self->stream_session = soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                                        "timeout", 0,
                                                        NULL);
  soup_session_add_feature (self->session, SOUP_SESSION_FEATURE (jar));
  soup_session_add_feature (self->stream_session, SOUP_SESSION_FEATURE (jar));

  self->sse_client = clarify_stream_backend_open (CLARIFY_STREAM_BACKEND (self), self->stream_session,
                                                  clarify_connection_get_url (connection));

  token = clarify_connection_get_option (connection, "token");
  if (token != NULL && *token != '\0')
    {
      self->authorization = g_strconcat ("Bearer ", token, NULL);
      clarify_sse_client_set_header (self->sse_client, "Authorization", self->authorization);
    }
}

static void
clarify_json_backend_dispose (GObject *object)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (object);

  clarify_stream_backend_close (CLARIFY_STREAM_BACKEND (self));
  self->sse_client = NULL;
  clarify_http_clear_session (&self->session);
  clarify_http_clear_session (&self->stream_session);

  G_OBJECT_CLASS (clarify_json_backend_parent_class)->dispose (object);
}

static void
clarify_json_backend_finalize (GObject *object)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (object);

  g_clear_pointer (&self->authorization, g_free);

  G_OBJECT_CLASS (clarify_json_backend_parent_class)->finalize (object);
}

static void
clarify_json_backend_class_init (ClarifyJsonBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);
  ClarifyStreamBackendClass *stream_class = CLARIFY_STREAM_BACKEND_CLASS (klass);

  object_class->constructed = clarify_json_backend_constructed;
  object_class->dispose = clarify_json_backend_dispose;
  object_class->finalize = clarify_json_backend_finalize;

  backend_class->deliver_async = clarify_json_backend_deliver_async;
  /* The answer goes to requests/ID/response beside the stream: the id is all it needs. */
  backend_class->save_delivery = clarify_backend_save_nothing;
  backend_class->restore_delivery = clarify_backend_restore_nothing;

  stream_class->event = clarify_json_backend_event;
  stream_class->connected = clarify_json_backend_connected;

  /**
   * ClarifyJsonBackend::confirmed:
   * @request_id: the answered request
   * @summary: the agent's own words for what it received
   */
  signals[CONFIRMED] =
    g_signal_new ("confirmed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
clarify_json_backend_init (ClarifyJsonBackend *self)
{
}

ClarifySseClient *
clarify_json_backend_get_sse_client (ClarifyJsonBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_JSON_BACKEND (self), NULL);

  return self->sse_client;
}
