/* clarify-phoenix-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-phoenix-backend.h"
#include "clarify-phoenix-codec.h"
#include "clarify-recent.h"
#include "clarify-secret.h"
#include "clarify-sse-client.h"

#define DEFAULT_POLL_S        10
/* Longer than a slow agent takes to answer: a post given up on may have
 * been taken, and its retry would then meet "already answered". */
#define API_TIMEOUT_S         90
/* Phoenix sends ": ping" every 15 s: three missed ones mean a dead stream. */
#define STALL_LIMIT_MS        45000
#define BACKOFF_INITIAL_MS    1000
#define BACKOFF_MAX_MS        30000
#define MAX_LOGGED_BODY_CHARS 300
/* Each watched conversation holds a connection open. */
#define MAX_STREAMS           64
/* Every stream starts with an init holding the conversation's every
 * message: a long session's passes a megabyte, and a dropped init is a
 * question never shown. Still a bound on what one event may take. */
#define MAX_INIT_BYTES        (64 * 1024 * 1024)

typedef struct _Conversation Conversation;

struct _ClarifyPhoenixBackend
{
  ClarifyBackend  parent_instance;

  SoupSession    *api_session;
  SoupSession    *stream_session;
  char           *base_url;
  char           *authorization;

  GHashTable     *conversations;  /* id → Conversation, the watched ones */
  GCancellable   *cancellable;    /* the listing in flight */
  guint           timer;          /* the next listing: poll or retry */
  guint           n_failures;
  guint           max_streams;    /* MAX_STREAMS; fewer in tests */
  guint           n_left_out;     /* busy conversations past it, last said */
  ClarifyRecent  *vanished;       /* request ids gone with a restart */

  guint           poll_ms;
  guint           backoff_initial_ms;
  guint           backoff_max_ms;

  guint           running : 1;
  guint           came_back : 1;  /* the listing could not reach the server, now it can */
};

struct _Conversation
{
  ClarifyPhoenixBackend *self;     /* owns us */
  char                  *id;
  char                  *title;
  char                  *cwd;
  ClarifySseClient      *client;
  char                  *pending;  /* the request id shown, or NULL */
  char                  *answered; /* the last one we answered */
  gint64                 floor;    /* the last sequence_id applied */
  gboolean               busy;
  gboolean               restarted; /* this snapshot follows an outage */
};

/* Test: the list of conversations, as the backend reads it first. */
const ClarifyProbeSpec clarify_phoenix_probe = {
  "/api/conversations", CLARIFY_PROBE_AUTH_BEARER, NULL, "application/json", NULL, NULL,
};

G_DEFINE_FINAL_TYPE (ClarifyPhoenixBackend, clarify_phoenix_backend, CLARIFY_TYPE_BACKEND)

static void list_conversations (ClarifyPhoenixBackend *self);

static const char *
connection_name (ClarifyPhoenixBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection != NULL ? clarify_connection_get_name (connection) : "?";
}

static SoupMessage *
api_message_new (ClarifyPhoenixBackend *self,
                 const char            *method,
                 const char            *path)
{
  g_autofree char *url = g_strconcat (self->base_url, path, NULL);
  SoupMessage *message = soup_message_new (method, url);

  if (message != NULL && self->authorization != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "Authorization", self->authorization);

  return message;
}

static void
set_str (char       **slot,
         const char  *value)
{
  if (g_strcmp0 (*slot, value) == 0)
    return;
  g_free (*slot);
  *slot = g_strdup (value);
}

/* The only place that withdraws: the conversation left awaiting_user_response
 * by itself (answered or declined in the web UI, cancelled, deleted), or
 * the server came back from an outage without it: it restarted and lost
 * it, and nobody answered. */
static void
withdraw (ClarifyPhoenixBackend *self,
          const char            *request_id,
          gboolean               restarted)
{
  if (restarted)
    clarify_recent_add (self->vanished, request_id, NULL);
  clarify_backend_withdraw_request (CLARIFY_BACKEND (self), request_id,
                                    restarted ? CLARIFY_END_REASON_AGENT_RESTARTED
                                              : CLARIFY_END_REASON_ANSWERED_ELSEWHERE, NULL);
}

/* Conversations */

static void
conversation_free (gpointer data)
{
  Conversation *conversation = data;

  if (conversation->client != NULL)
    {
      g_signal_handlers_disconnect_by_data (conversation->client, conversation);
      clarify_sse_client_stop (conversation->client);
      /* We may be inside one of the client's own signals. */
      g_idle_add_once (g_object_unref, g_steal_pointer (&conversation->client));
    }
  g_free (conversation->id);
  g_free (conversation->title);
  g_free (conversation->cwd);
  g_free (conversation->pending);
  g_free (conversation->answered);
  g_free (conversation);
}

static void
clear_pending (Conversation *conversation)
{
  g_autofree char *pending = g_steal_pointer (&conversation->pending);

  if (pending != NULL)
    withdraw (conversation->self, pending, conversation->restarted);
}

/* Lets go of a conversation that went quiet or away; the listing picks it
 * up again once it is busy. */
static void
release (Conversation *conversation)
{
  ClarifyPhoenixBackend *self = conversation->self;

  clear_pending (conversation);
  g_debug ("Connection “%s”: no longer watching conversation %s", connection_name (self), conversation->id);
  g_hash_table_remove (self->conversations, conversation->id);
}

static gboolean
state_is_busy (const char *display_state,
               const char *state_type)
{
  if (display_state != NULL)
    return !g_str_equal (display_state, "idle") && !g_str_equal (display_state, "terminal");

  return state_type != NULL && !g_str_equal (state_type, "idle") && !g_str_equal (state_type, "terminal");
}

/* @state is a ConvState: {"type":…, …}. */
static void
apply_state (Conversation *conversation,
             JsonObject   *state,
             const char   *display_state)
{
  ClarifyPhoenixBackend *self = conversation->self;
  const char *type = clarify_json_get_string_member (state, "type");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  conversation->busy = state_is_busy (display_state, type);

  if (g_strcmp0 (type, "awaiting_user_response") != 0)
    {
      clear_pending (conversation);
      return;
    }

  request = clarify_phoenix_decode_question (state, conversation->id, &error);
  if (request == NULL)
    {
      g_message ("Connection “%s”: ignored a question of conversation %s: %s",
                 connection_name (self), conversation->id, error->message);
      return;
    }

  /* Our answer is on its way or in: the state has not caught up yet. */
  if (g_strcmp0 (conversation->answered, clarify_request_get_id (request)) == 0)
    return;

  if (g_strcmp0 (conversation->pending, clarify_request_get_id (request)) != 0)
    {
      clear_pending (conversation);
      conversation->pending = g_strdup (clarify_request_get_id (request));
    }

  clarify_request_set_title (request, conversation->title);
  clarify_request_set_project (request, conversation->cwd);
  /* The inbox drops the id it holds: the repeated state_change, a new init. */
  clarify_backend_add_request (CLARIFY_BACKEND (self), request);
}

static gint64
sequence_id (JsonObject *object)
{
  JsonNode *node = json_object_get_member (object, "sequence_id");

  return node != NULL && json_node_get_value_type (node) == G_TYPE_INT64 ? json_node_get_int (node) : -1;
}

static void
remember_conversation (Conversation *conversation,
                       JsonObject   *record)
{
  const char *title = clarify_json_get_string_member (record, "title");
  const char *cwd = clarify_json_get_string_member (record, "cwd");

  if (title != NULL)
    set_str (&conversation->title, title);
  if (cwd != NULL)
    set_str (&conversation->cwd, cwd);
}

static void
on_event (ClarifySseClient *client,
          const char       *type,
          const char       *data,
          const char       *id,
          Conversation     *conversation)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *event;
  gint64 sequence;

  node = clarify_json_parse (data, -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: ignored a %s event that is not a JSON object",
                 connection_name (conversation->self), type);
      return;
    }
  event = json_node_get_object (node);
  sequence = sequence_id (event);

  if (g_strcmp0 (type, "init") == 0)
    {
      JsonObject *record = clarify_json_get_object_member (event, "conversation");
      JsonNode *last = json_object_get_member (event, "last_sequence_id");

      /* A new snapshot: the floor may even go down after a server restart.
       * One after an outage that lacks the question: the restart lost it. */
      conversation->restarted = conversation->restarted || clarify_sse_client_came_back (client);
      conversation->floor = last != NULL && json_node_get_value_type (last) == G_TYPE_INT64
                              ? json_node_get_int (last) : sequence;
      remember_conversation (conversation, record);
      /* Even an idle snapshot keeps the stream: the listing that opened it
       * saw the conversation busy, and the next one lets go if it is not. */
      apply_state (conversation, clarify_json_get_object_member (record, "state"),
                   clarify_json_get_string_member (event, "display_state"));
      conversation->restarted = FALSE;
      return;
    }

  /* The web client applies nothing at or below what it has seen. */
  if (sequence >= 0 && sequence <= conversation->floor)
    return;
  if (sequence >= 0)
    conversation->floor = sequence;

  if (g_strcmp0 (type, "state_change") == 0)
    apply_state (conversation, clarify_json_get_object_member (event, "state"),
                 clarify_json_get_string_member (event, "display_state"));
  else if (g_strcmp0 (type, "agent_done") == 0 || g_strcmp0 (type, "conversation_hard_deleted") == 0 ||
           g_strcmp0 (type, "conversation_became_terminal") == 0)
    release (conversation);
  else if (g_strcmp0 (type, "error") == 0)
    g_message ("Connection “%s”: conversation %s reports: %s", connection_name (conversation->self),
               conversation->id, clarify_json_get_string_member (event, "message"));
}

static void
on_stream_state (ClarifySseClient *client,
                 GParamSpec       *pspec,
                 Conversation     *conversation)
{
  ClarifyPhoenixBackend *self = conversation->self;
  ClarifyConnectionState state = clarify_sse_client_get_state (client);

  if (state != CLARIFY_CONNECTION_STATE_RECONNECTING && state != CLARIFY_CONNECTION_STATE_FAILED)
    return;
  /* Nobody listened: whatever goes missing now went with a restart. */
  if (clarify_sse_client_had_outage (client))
    conversation->restarted = TRUE;

  /* A quiet conversation's stream may end: the listing reopens it when busy. */
  if (!conversation->busy && conversation->pending == NULL)
    {
      release (conversation);
      return;
    }

  if (state == CLARIFY_CONNECTION_STATE_FAILED)
    clarify_backend_set_state (CLARIFY_BACKEND (self), state, CLARIFY_BACKEND_NOTE_NONE, NULL,
                               clarify_sse_client_get_state_reason (client));
}

static void
watch (ClarifyPhoenixBackend *self,
       const char            *id,
       JsonObject            *record)
{
  g_autofree char *escaped = NULL;
  g_autofree char *url = NULL;
  Conversation *conversation;

  escaped = clarify_http_escape_segment (id, NULL);
  if (escaped == NULL)
    {
      g_message ("Connection “%s”: not watching conversation “%s”: its id cannot be part of a URL",
                 connection_name (self), id);
      return;
    }
  url = g_strconcat (self->base_url, "/api/conversations/", escaped, "/stream", NULL);

  conversation = g_new0 (Conversation, 1);
  conversation->self = self;
  conversation->id = g_strdup (id);
  conversation->floor = -1;
  conversation->busy = TRUE;
  remember_conversation (conversation, record);

  conversation->client = clarify_sse_client_new (self->stream_session, url);
  clarify_sse_client_set_stall_timeout (conversation->client, STALL_LIMIT_MS);
  clarify_sse_client_set_max_event_size (conversation->client, MAX_INIT_BYTES);
  clarify_sse_client_set_backoff (conversation->client, self->backoff_initial_ms, self->backoff_max_ms);
  if (self->authorization != NULL)
    clarify_sse_client_set_header (conversation->client, "Authorization", self->authorization);
  g_signal_connect (conversation->client, "event", G_CALLBACK (on_event), conversation);
  g_signal_connect (conversation->client, "notify::state", G_CALLBACK (on_stream_state), conversation);

  g_hash_table_insert (self->conversations, conversation->id, conversation);
  g_debug ("Connection “%s”: watching conversation %s", connection_name (self), id);
  clarify_sse_client_start (conversation->client);
}

/* Listing */

static guint
retry_delay_ms (ClarifyPhoenixBackend *self)
{
  guint delay = self->backoff_initial_ms;

  for (guint i = 1; i < self->n_failures && delay < self->backoff_max_ms; i++)
    delay *= 2;

  return MIN (delay, self->backoff_max_ms);
}

static gboolean
timer_cb (gpointer user_data)
{
  ClarifyPhoenixBackend *self = user_data;

  self->timer = 0;
  list_conversations (self);

  return G_SOURCE_REMOVE;
}

static void
arm_timer (ClarifyPhoenixBackend *self,
           guint                  ms)
{
  g_clear_handle_id (&self->timer, g_source_remove);
  self->timer = g_timeout_add (ms, timer_cb, self);
  g_source_set_name_by_id (self->timer, "[clarify] phoenix listing");
}

static gboolean
record_asks (JsonObject *record)
{
  JsonObject *state = clarify_json_get_object_member (record, "state");

  return g_strcmp0 (clarify_json_get_string_member (state, "type"), "awaiting_user_response") == 0;
}

/* Room for one more stream: when full, a conversation that asks takes the
 * place of one that is only busy (watched again once there is room). */
static gboolean
make_room (ClarifyPhoenixBackend *self,
           gboolean               asks,
           GHashTable            *asking)
{
  GHashTableIter iter;
  gpointer key, value;

  if (g_hash_table_size (self->conversations) < self->max_streams)
    return TRUE;
  if (!asks)
    return FALSE;

  g_hash_table_iter_init (&iter, self->conversations);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Conversation *conversation = value;

      if (conversation->pending == NULL && !g_hash_table_contains (asking, key))
        {
          release (conversation);
          return TRUE;
        }
    }

  return FALSE;
}

static void
apply_listing (ClarifyPhoenixBackend *self,
               JsonArray             *records)
{
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) asking = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) to_watch = g_ptr_array_new ();   /* JsonObject: those that ask first */
  GHashTableIter iter;
  gpointer key;
  guint n_asking = 0;
  guint n_left_out = 0;

  for (guint i = 0; i < json_array_get_length (records); i++)
    {
      JsonNode *node = json_array_get_element (records, i);
      JsonObject *record = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *id = clarify_json_get_string_member (record, "id");
      JsonObject *state = clarify_json_get_object_member (record, "state");
      Conversation *conversation;
      gboolean busy;

      if (id == NULL)
        continue;
      g_hash_table_add (listed, (gpointer) id);

      /* Sub-agents cannot ask (REQ-AUQ-006). */
      if (clarify_json_get_string_member (record, "parent_conversation_id") != NULL)
        continue;
      conversation = g_hash_table_lookup (self->conversations, id);
      busy = state_is_busy (clarify_json_get_string_member (record, "display_state"),
                            clarify_json_get_string_member (state, "type"));
      if (record_asks (record))
        g_hash_table_add (asking, (gpointer) id);
      if (conversation == NULL && busy && record_asks (record))
        g_ptr_array_insert (to_watch, n_asking++, record);
      else if (conversation == NULL && busy)
        g_ptr_array_add (to_watch, record);
      else if (conversation != NULL && !busy && !conversation->busy && conversation->pending == NULL)
        g_ptr_array_add (gone, g_strdup (id));
    }

  /* Quiet, archived or deleted: the question went with it. */
  g_hash_table_iter_init (&iter, self->conversations);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (listed, key))
      g_ptr_array_add (gone, g_strdup (key));
  for (guint i = 0; i < gone->len; i++)
    {
      Conversation *conversation = g_hash_table_lookup (self->conversations, gone->pdata[i]);

      /* A listing may name one twice. After an outage, it went with a restart. */
      if (conversation == NULL)
        continue;
      conversation->restarted = conversation->restarted || self->came_back;
      release (conversation);
    }

  /* A stream each, up to max_streams at once. */
  for (guint i = 0; i < to_watch->len; i++)
    {
      JsonObject *record = to_watch->pdata[i];
      const char *id = clarify_json_get_string_member (record, "id");

      if (g_hash_table_contains (self->conversations, id))
        continue;
      if (make_room (self, i < n_asking, asking))
        watch (self, id, record);
      else
        n_left_out++;
    }
  /* Said when it changes, not at every listing. */
  if (n_left_out > 0 && n_left_out != self->n_left_out)
    g_message ("Connection “%s”: watching %u busy conversations, the most at once; %u more wait",
               connection_name (self), self->max_streams, n_left_out);
  self->n_left_out = n_left_out;
}

static gboolean
server_away (const GError *error)
{
  return clarify_error_is_unreachable (error) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
}

static void
listed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ClarifyPhoenixBackend *self = user_data;
  SoupMessage *message = clarify_http_get_message (result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *records = NULL;

  body = clarify_http_read_finish (SOUP_SESSION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);

  if (body != NULL && clarify_http_check_status (message, &error))
    node = clarify_http_parse_json (message, body, &error);
  if (node != NULL)
    {
      records = clarify_json_get_array_member (JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL,
                                               "conversations");
      if (records == NULL)
        g_set_error (&error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL, "the listing has no conversations array");
    }

  if (records == NULL)
    {
      gint64 retry_at;
      guint delay;

      self->n_failures++;
      /* Nobody listening: a restart, which may lose conversations, and
       * questions of those we watch, even where the stream came back too
       * fast to see the port refuse. */
      if (server_away (error))
        {
          GHashTableIter iter;
          Conversation *conversation;

          self->came_back = TRUE;
          g_hash_table_iter_init (&iter, self->conversations);
          while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &conversation))
            conversation->restarted = TRUE;
        }
      delay = retry_delay_ms (self);
      retry_at = g_get_monotonic_time () + (gint64) delay * 1000;
      g_debug ("Connection “%s”: listing conversations failed: %s", connection_name (self), error->message);

      if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH))
        clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_FAILED,
                                   CLARIFY_BACKEND_NOTE_NONE, NULL, error->message);
      else
        {
          clarify_backend_set_retry_at (CLARIFY_BACKEND (self), retry_at);
          clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_RECONNECTING,
                                     CLARIFY_BACKEND_NOTE_RETRYING, NULL, error->message);
        }
      /* A password set meanwhile, a server started later: keep trying. */
      arm_timer (self, delay);
      return;
    }

  self->n_failures = 0;
  clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_CONNECTED,
                             CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
  apply_listing (self, records);
  self->came_back = FALSE;
  arm_timer (self, self->poll_ms);
}

/* GET /api/conversations: {"conversations":[record, …]}, as the web
 * client's sidebar reads it; archived ones are not in it. */
static void
list_conversations (ClarifyPhoenixBackend *self)
{
  g_autoptr(SoupMessage) message = NULL;

  if (!self->running || self->cancellable != NULL)
    return;

  message = api_message_new (self, SOUP_METHOD_GET, "/api/conversations");
  if (message == NULL)
    {
      clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_FAILED,
                                 CLARIFY_BACKEND_NOTE_BAD_ADDRESS, NULL, NULL);
      return;
    }

  self->cancellable = g_cancellable_new ();
  clarify_http_send_and_read_async (self->api_session, message, G_PRIORITY_DEFAULT, self->cancellable,
                                    listed_cb, self);
}

/* Backend */

static void
clarify_phoenix_backend_start (ClarifyBackend *backend)
{
  ClarifyPhoenixBackend *self = CLARIFY_PHOENIX_BACKEND (backend);

  if (self->running)
    return;

  self->running = TRUE;
  self->n_failures = 0;
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTING, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
  list_conversations (self);
}

static void
clarify_phoenix_backend_stop (ClarifyBackend *backend)
{
  ClarifyPhoenixBackend *self = CLARIFY_PHOENIX_BACKEND (backend);

  self->running = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->timer, g_source_remove);
  g_hash_table_remove_all (self->conversations);
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_IDLE, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

typedef struct
{
  char     *conversation_id;
  char     *request_id;
  gboolean  declining;
} Delivery;

static void
delivery_free (gpointer data)
{
  Delivery *delivery = data;

  g_free (delivery->conversation_id);
  g_free (delivery->request_id);
  g_free (delivery);
}

/* What Phoenix says when the question is no longer there: 409 wrong_state
 * to /respond, {"ok":true,"no_op":true} to /cancel. */
static gboolean
is_gone (SoupMessage *message,
         GBytes      *body,
         gboolean     declining)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  JsonNode *no_op;
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  node = len > 0 ? clarify_json_parse (data, len, NULL) : NULL;
  object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  if (object == NULL)
    return FALSE;

  if (soup_message_get_status (message) == SOUP_STATUS_CONFLICT)
    return g_strcmp0 (clarify_json_get_string_member (object, "error_type"), "wrong_state") == 0;

  no_op = json_object_get_member (object, "no_op");
  return declining && SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)) &&
         no_op != NULL && json_node_get_value_type (no_op) == G_TYPE_BOOLEAN && json_node_get_boolean (no_op);
}

static void
delivered_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyPhoenixBackend *self = g_task_get_source_object (task);
  Delivery *delivery = g_task_get_task_data (task);
  SoupMessage *message = clarify_http_get_message (result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  Conversation *conversation;

  body = clarify_http_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Lost in a restart (the conversation unknown, or no longer asking): not
   * answered by anyone else. */
  if ((is_gone (message, body, delivery->declining) ||
       soup_message_get_status (message) == SOUP_STATUS_NOT_FOUND) &&
      (self->came_back || clarify_recent_contains (self->vanished, delivery->request_id)))
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED,
                               "conversation %s lost this question in a restart", delivery->conversation_id);
      return;
    }
  if (is_gone (message, body, delivery->declining))
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_GONE,
                               "conversation %s is no longer awaiting this answer", delivery->conversation_id);
      return;
    }

  if (!clarify_http_check_status (message, &error))
    {
      g_autofree char *text = clarify_http_excerpt (body, MAX_LOGGED_BODY_CHARS);

      g_message ("Connection “%s”: %s to conversation %s failed (HTTP %u): %s", connection_name (self),
                 delivery->declining ? "declining" : "answering", delivery->conversation_id,
                 soup_message_get_status (message), text);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The state_change that follows is the echo of this, not news. */
  conversation = g_hash_table_lookup (self->conversations, delivery->conversation_id);
  if (conversation != NULL)
    {
      set_str (&conversation->answered, delivery->request_id);
      if (g_strcmp0 (conversation->pending, delivery->request_id) == 0)
        g_clear_pointer (&conversation->pending, g_free);
    }

  g_task_return_boolean (task, TRUE);
}

static void
clarify_phoenix_backend_deliver_async (ClarifyBackend      *backend,
                                       ClarifyRequest      *request,
                                       ClarifyResponse     *response,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  ClarifyPhoenixBackend *self = CLARIFY_PHOENIX_BACKEND (backend);
  const char *conversation_id = clarify_phoenix_request_get_conversation (request);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *path = NULL;
  Delivery *delivery;

  g_task_set_source_tag (task, clarify_phoenix_backend_deliver_async);

  if (conversation_id == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                               "request %s is not a Phoenix question", clarify_request_get_id (request));
      return;
    }

  delivery = g_new0 (Delivery, 1);
  delivery->conversation_id = g_strdup (conversation_id);
  delivery->request_id = g_strdup (clarify_request_get_id (request));
  delivery->declining = clarify_response_get_outcome (response) != CLARIFY_OUTCOME_ANSWERED;
  g_task_set_task_data (task, delivery, delivery_free);

  escaped = clarify_http_escape_segment (conversation_id, &error);
  if (escaped == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  path = g_strconcat ("/api/conversations/", escaped, delivery->declining ? "/cancel" : "/respond", NULL);
  message = api_message_new (self, SOUP_METHOD_POST, path);
  if (message == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL, "cannot build a URL from %s", self->base_url);
      return;
    }

  /* The web client's decline is a POST with no body and no Content-Type. */
  if (!delivery->declining)
    {
      char *body = clarify_phoenix_encode_answers (request, response, &error);
      g_autoptr(GBytes) bytes = NULL;

      if (body == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      bytes = g_bytes_new_take (body, strlen (body));
      soup_message_set_request_body_from_bytes (message, "application/json", bytes);
    }

  clarify_http_send_and_read_async (self->api_session, message, G_PRIORITY_DEFAULT, cancellable,
                                    delivered_cb, g_steal_pointer (&task));
}

static char *
bearer_authorization (ClarifyPhoenixBackend *self,
                      ClarifyConnection     *connection)
{
  g_autoptr(GError) error = NULL;
  char *password;
  char *authorization;

  password = clarify_backend_dup_secret (CLARIFY_BACKEND (self), &error);
  if (error != NULL)
    g_message ("Connection “%s”: cannot read its password: %s", connection_name (self), error->message);
  /* What the server itself reads, handy when both run in one shell. */
  if (password == NULL && g_getenv ("PHOENIX_PASSWORD") != NULL)
    password = g_strdup (g_getenv ("PHOENIX_PASSWORD"));
  if (password == NULL || *password == '\0')
    {
      clarify_secret_free (password);
      return NULL;
    }

  authorization = g_strconcat ("Bearer ", password, NULL);
  clarify_secret_free (password);

  return authorization;
}

static void
clarify_phoenix_backend_constructed (GObject *object)
{
  ClarifyPhoenixBackend *self = CLARIFY_PHOENIX_BACKEND (object);
  ClarifyConnection *connection;
  const char *poll;
  gsize len;

  G_OBJECT_CLASS (clarify_phoenix_backend_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_return_if_fail (connection != NULL);

  self->base_url = g_strdup (clarify_connection_get_url (connection));
  len = strlen (self->base_url);
  while (len > 0 && self->base_url[len - 1] == '/')
    self->base_url[--len] = '\0';

  poll = clarify_connection_get_option (connection, "poll-interval");
  if (poll != NULL && g_ascii_strtod (poll, NULL) >= 1 && g_ascii_strtod (poll, NULL) <= 3600)
    self->poll_ms = (guint) (g_ascii_strtod (poll, NULL) * 1000);

  self->authorization = bearer_authorization (self, connection);

  /* The streams never time out on their own (stall detection instead) and
   * need a connection each; the API calls must time out. */
  self->api_session = soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                                     "timeout", API_TIMEOUT_S,
                                                     NULL);
  self->stream_session = soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                                        "timeout", 0,
                                                        "max-conns", MAX_STREAMS,
                                                        "max-conns-per-host", MAX_STREAMS,
                                                        NULL);
}

static void
clarify_phoenix_backend_dispose (GObject *object)
{
  ClarifyPhoenixBackend *self = CLARIFY_PHOENIX_BACKEND (object);

  self->running = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->timer, g_source_remove);
  if (self->conversations != NULL)
    g_hash_table_remove_all (self->conversations);
  clarify_http_clear_session (&self->api_session);
  clarify_http_clear_session (&self->stream_session);

  G_OBJECT_CLASS (clarify_phoenix_backend_parent_class)->dispose (object);
}

static void
clarify_phoenix_backend_finalize (GObject *object)
{
  ClarifyPhoenixBackend *self = CLARIFY_PHOENIX_BACKEND (object);

  g_clear_pointer (&self->conversations, g_hash_table_unref);
  g_clear_pointer (&self->vanished, clarify_recent_free);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->authorization, clarify_secret_free);

  G_OBJECT_CLASS (clarify_phoenix_backend_parent_class)->finalize (object);
}

static void
clarify_phoenix_backend_class_init (ClarifyPhoenixBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  object_class->constructed = clarify_phoenix_backend_constructed;
  object_class->dispose = clarify_phoenix_backend_dispose;
  object_class->finalize = clarify_phoenix_backend_finalize;

  backend_class->start = clarify_phoenix_backend_start;
  backend_class->stop = clarify_phoenix_backend_stop;
  backend_class->deliver_async = clarify_phoenix_backend_deliver_async;
  backend_class->save_delivery = clarify_phoenix_save_delivery;
  backend_class->restore_delivery = clarify_phoenix_restore_delivery;
}

static void
clarify_phoenix_backend_init (ClarifyPhoenixBackend *self)
{
  self->conversations = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, conversation_free);
  self->vanished = clarify_recent_new (CLARIFY_RECENT_FINISHED_IDS, NULL);
  self->poll_ms = DEFAULT_POLL_S * 1000;
  self->backoff_initial_ms = BACKOFF_INITIAL_MS;
  self->backoff_max_ms = BACKOFF_MAX_MS;
  self->max_streams = MAX_STREAMS;
}

ClarifyBackend *
clarify_phoenix_backend_new (ClarifyConnection *connection)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);

  return g_object_new (CLARIFY_TYPE_PHOENIX_BACKEND, "connection", connection, NULL);
}

void
clarify_phoenix_backend_set_timing (ClarifyPhoenixBackend *self,
                                    guint                  poll_ms,
                                    guint                  backoff_initial_ms,
                                    guint                  backoff_max_ms)
{
  g_return_if_fail (CLARIFY_IS_PHOENIX_BACKEND (self));

  self->poll_ms = MAX (poll_ms, 1);
  self->backoff_initial_ms = MAX (backoff_initial_ms, 1);
  self->backoff_max_ms = MAX (backoff_max_ms, self->backoff_initial_ms);
}

void
clarify_phoenix_backend_set_max_streams (ClarifyPhoenixBackend *self,
                                         guint                  max_streams)
{
  g_return_if_fail (CLARIFY_IS_PHOENIX_BACKEND (self));
  g_return_if_fail (max_streams > 0 && max_streams <= MAX_STREAMS);

  self->max_streams = max_streams;
}

guint
clarify_phoenix_backend_get_n_watched (ClarifyPhoenixBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_PHOENIX_BACKEND (self), 0);

  return g_hash_table_size (self->conversations);
}

/* ---------------------------------------------------------------------- */
/* Discovery: Phoenix IDE listens on 8000 ($PHOENIX_PORT), and
 * GET /api/auth/status answers {"auth_required":…,"authenticated":…}
 * with or without a password set. */

static gboolean
recognise_phoenix (guint       status,
                   JsonObject *body)
{
  return status == 200 && body != NULL &&
         json_object_has_member (body, "auth_required") &&
         json_object_has_member (body, "authenticated");
}

const ClarifyBackendProbe clarify_phoenix_backend_probe = {
  "http", { 8000 }, "/api/auth/status", recognise_phoenix,
};
