/* clarify-demo-agent.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "clarify-demo-agent.h"
#include "clarify-demo-script.h"
#include "clarify-json.h"

struct _ClarifyDemoAgent
{
  GObject         parent_instance;

  SoupServer     *server;
  char           *events_url;
  /* Open GET /events responses; each removes itself when it finishes. */
  GPtrArray      *streams;
  guint           current;
  /* The current request as Clarify will see it, to check answers against. */
  ClarifyRequest *current_request;
  char           *current_json;
  guint           n_received;
};

G_DEFINE_FINAL_TYPE (ClarifyDemoAgent, clarify_demo_agent, G_TYPE_OBJECT)

enum {
  RECEIVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* One SSE frame; the JSON text has no newlines, so one data line suffices. */
static GBytes *
format_event (const char *type,
              const char *data)
{
  char *frame = g_strdup_printf ("event: %s\ndata: %s\n\n", type, data);

  return g_bytes_new_take (frame, strlen (frame));
}

static void
stream_send (SoupServerMessage *msg,
             GBytes            *bytes)
{
  soup_message_body_append_bytes (soup_server_message_get_response_body (msg), bytes);
  soup_server_message_unpause (msg);
}

/* Prepares step @index of the script (or nothing past the end) and sends it
 * to every open stream. */
static void
clarify_demo_agent_advance_to (ClarifyDemoAgent *self,
                               guint             index)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) frame = NULL;

  self->current = index;
  g_clear_object (&self->current_request);
  g_clear_pointer (&self->current_json, g_free);

  if (index >= clarify_demo_script_get_n_requests ())
    {
      g_message ("Demo agent: that was the last question, thank you.");
      return;
    }

  node = clarify_demo_script_build_request (index);
  self->current_json = clarify_json_to_string (node);

  /* Our own table must pass Clarify's own checks; anything else is a bug here. */
  self->current_request = clarify_request_new_from_json (node, &error);
  if (self->current_request == NULL)
    g_critical ("Demo request %s is invalid: %s", clarify_demo_script_get_id (index), error->message);

  frame = format_event ("request", self->current_json);
  for (guint i = 0; i < self->streams->len; i++)
    stream_send (g_ptr_array_index (self->streams, i), frame);
}

static void
on_stream_finished (SoupServerMessage *msg,
                    ClarifyDemoAgent  *self)
{
  g_ptr_array_remove (self->streams, msg);
}

static void
handle_events (ClarifyDemoAgent  *self,
               SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  SoupMessageBody *body = soup_server_message_get_response_body (msg);
  static const char greeting[] = ": Clarify demo agent\n\n";

  if (g_strcmp0 (soup_server_message_get_method (msg), SOUP_METHOD_GET) != 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (body, FALSE);

  /* A comment first, so the client sees the stream open even when there
   * is nothing to ask (any more). */
  soup_message_body_append (body, SOUP_MEMORY_STATIC, greeting, strlen (greeting));

  /* Every new stream gets what is pending: that is how a reconnecting
   * Clarify catches up. */
  if (self->current_json != NULL)
    {
      g_autoptr(GBytes) frame = format_event ("request", self->current_json);

      soup_message_body_append_bytes (body, frame);
    }

  g_ptr_array_add (self->streams, msg);
  g_signal_connect_object (msg, "finished", G_CALLBACK (on_stream_finished), self, G_CONNECT_DEFAULT);
}

static void
reply_json (SoupServerMessage *msg,
            guint              status,
            const char        *member,
            const char        *text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *json = NULL;
  gsize length;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, member);
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  json = clarify_json_to_string (node);
  length = strlen (json);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE,
                                    g_steal_pointer (&json), length);
}

static void
handle_response (ClarifyDemoAgent  *self,
                 SoupServerMessage *msg,
                 const char        *request_id)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree char *summary = NULL;

  if (g_strcmp0 (soup_server_message_get_method (msg), SOUP_METHOD_POST) != 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  if (self->current_request == NULL ||
      g_strcmp0 (request_id, clarify_request_get_id (self->current_request)) != 0)
    {
      reply_json (msg, SOUP_STATUS_NOT_FOUND, "error", "No such request is waiting for an answer");
      return;
    }

  response = clarify_response_new_from_data (body->data, body->length, &error);
  if (response == NULL)
    {
      reply_json (msg, SOUP_STATUS_BAD_REQUEST, "error", error->message);
      return;
    }

  if (g_strcmp0 (clarify_response_get_request_id (response), request_id) != 0)
    {
      reply_json (msg, SOUP_STATUS_BAD_REQUEST, "error", "The answer names a different request");
      return;
    }

  if (!clarify_demo_script_check_response (self->current_request, response, &message))
    {
      reply_json (msg, SOUP_STATUS_BAD_REQUEST, "error", message);
      return;
    }

  request = g_object_ref (self->current_request);
  summary = clarify_demo_script_summarize (request, response);
  self->n_received++;

  g_message ("Demo agent received: %s", summary);
  reply_json (msg, SOUP_STATUS_OK, "received", summary);

  g_signal_emit (self, signals[RECEIVED], 0, request_id, response, summary);

  clarify_demo_agent_advance_to (self, self->current + 1);
}

static void
server_callback (SoupServer        *server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  ClarifyDemoAgent *self = user_data;
  g_autofree char *request_id = NULL;
  const char *start;
  const char *end;

  if (g_strcmp0 (path, "/events") == 0)
    {
      handle_events (self, msg);
      return;
    }

  /* /requests/<id>/response */
  if (g_str_has_prefix (path, "/requests/") && g_str_has_suffix (path, "/response"))
    {
      start = path + strlen ("/requests/");
      end = path + strlen (path) - strlen ("/response");
      if (end > start && memchr (start, '/', end - start) == NULL)
        {
          g_autofree char *escaped = g_strndup (start, end - start);

          request_id = g_uri_unescape_string (escaped, NULL);
        }
    }

  if (request_id == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  handle_response (self, msg, request_id);
}

static void
clarify_demo_agent_dispose (GObject *object)
{
  ClarifyDemoAgent *self = CLARIFY_DEMO_AGENT (object);

  clarify_demo_agent_stop (self);

  G_OBJECT_CLASS (clarify_demo_agent_parent_class)->dispose (object);
}

static void
clarify_demo_agent_finalize (GObject *object)
{
  ClarifyDemoAgent *self = CLARIFY_DEMO_AGENT (object);

  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_pointer (&self->current_json, g_free);
  g_clear_pointer (&self->events_url, g_free);

  G_OBJECT_CLASS (clarify_demo_agent_parent_class)->finalize (object);
}

static void
clarify_demo_agent_class_init (ClarifyDemoAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_demo_agent_dispose;
  object_class->finalize = clarify_demo_agent_finalize;

  /**
   * ClarifyDemoAgent::received:
   * @request_id: the answered request
   * @response: the ClarifyResponse as the agent decoded it
   * @summary: the confirmation the agent sent back
   */
  signals[RECEIVED] =
    g_signal_new ("received",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, CLARIFY_TYPE_RESPONSE, G_TYPE_STRING);
}

static void
clarify_demo_agent_init (ClarifyDemoAgent *self)
{
  self->streams = g_ptr_array_new ();
}

ClarifyDemoAgent *
clarify_demo_agent_new (void)
{
  return g_object_new (CLARIFY_TYPE_DEMO_AGENT, NULL);
}

gboolean
clarify_demo_agent_start (ClarifyDemoAgent  *self,
                          GError           **error)
{
  g_autoslist(GUri) uris = NULL;

  g_return_val_if_fail (CLARIFY_IS_DEMO_AGENT (self), FALSE);
  g_return_val_if_fail (self->server == NULL, FALSE);

  self->server = soup_server_new ("server-header", "clarify-demo-agent", NULL);
  soup_server_add_handler (self->server, NULL, server_callback, self, NULL);

  /* Loopback only: the demo must never be reachable from the network. */
  if (!soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, error))
    {
      g_clear_object (&self->server);
      return FALSE;
    }

  uris = soup_server_get_uris (self->server);
  g_assert (uris != NULL);
  self->events_url = g_strdup_printf ("http://127.0.0.1:%d/events", g_uri_get_port (uris->data));

  clarify_demo_agent_advance_to (self, 0);

  return TRUE;
}

void
clarify_demo_agent_stop (ClarifyDemoAgent *self)
{
  g_return_if_fail (CLARIFY_IS_DEMO_AGENT (self));

  if (self->server == NULL)
    return;

  for (guint i = 0; i < self->streams->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->streams, i), self);
  g_ptr_array_set_size (self->streams, 0);

  soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_clear_object (&self->current_request);
  g_clear_pointer (&self->current_json, g_free);
  g_clear_pointer (&self->events_url, g_free);
}

const char *
clarify_demo_agent_get_events_url (ClarifyDemoAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_DEMO_AGENT (self), NULL);

  return self->events_url;
}

guint
clarify_demo_agent_get_n_requests (ClarifyDemoAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_DEMO_AGENT (self), 0);

  return clarify_demo_script_get_n_requests ();
}

guint
clarify_demo_agent_get_n_received (ClarifyDemoAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_DEMO_AGENT (self), 0);

  return self->n_received;
}

const char *
clarify_demo_agent_get_current_id (ClarifyDemoAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_DEMO_AGENT (self), NULL);

  if (self->server == NULL || self->current >= clarify_demo_script_get_n_requests ())
    return NULL;

  return clarify_demo_script_get_id (self->current);
}
