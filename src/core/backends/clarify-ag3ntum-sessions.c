/* clarify-ag3ntum-sessions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-ag3ntum-api.h"
#include "clarify-ag3ntum-codec.h"
#include "clarify-ag3ntum-sessions.h"
#include "clarify-http.h"
#include "clarify-error.h"
#include "clarify-json.h"

/* /events/history returns at most this many events per call. */
#define HISTORY_PAGE 1000

/* The one place that withdraws a request: answered elsewhere, or lost
 * when the server restarted (nobody answered it). */
static void
withdraw_question (ClarifyAg3ntumBackend *self,
                   const char            *question_id,
                   gboolean               restarted)
{
  clarify_recent_add (self->finished, question_id, NULL);
  if (restarted)
    clarify_recent_add (self->vanished, question_id, NULL);
  clarify_backend_withdraw_request (CLARIFY_BACKEND (self), question_id,
                                    restarted ? CLARIFY_END_REASON_AGENT_RESTARTED
                                              : CLARIFY_END_REASON_ANSWERED_ELSEWHERE, NULL);
}

static void
show_question (ClarifyAg3ntumBackend *self,
               const char            *session_id,
               JsonObject            *data)
{
  const char *question_id = clarify_json_get_string_member (data, "question_id");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  if (question_id == NULL || clarify_recent_contains (self->finished, question_id))
    return;

  request = clarify_ag3ntum_decode_question (session_id, question_id,
                                             clarify_json_get_array_member (data, "questions"), &error);
  if (request == NULL)
    {
      g_message ("Connection “%s”: ignored a question of session %s: %s",
                 clarify_ag3ntum_connection_name (self), session_id, error->message);
      return;
    }

  clarify_backend_add_request (CLARIFY_BACKEND (self), request);
}

/* Whether one of our requests of @session_id waits (or is being answered). */
static gboolean
has_requests (ClarifyAg3ntumBackend *self,
              const char            *session_id)
{
  GListModel *requests = clarify_backend_get_requests (CLARIFY_BACKEND (self));

  for (guint i = 0; i < g_list_model_get_n_items (requests); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);

      if (g_strcmp0 (clarify_request_get_session (request), session_id) == 0)
        return TRUE;
    }

  return FALSE;
}

/* A call about one session: finds the watch again, if it is still there. */

typedef struct
{
  ClarifyAg3ntumBackend *self;
  char                  *session_id;
  gboolean               after_run;
  gboolean               restarted;  /* asked after the server came back */
} SessionCall;

static SessionCall *
session_call_new (ClarifyAg3ntumBackend *self,
                  const char            *session_id)
{
  SessionCall *call = g_new0 (SessionCall, 1);

  call->self = g_object_ref (self);
  call->session_id = g_strdup (session_id);
  return call;
}

static void
session_call_free (SessionCall *call)
{
  g_object_unref (call->self);
  g_free (call->session_id);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SessionCall, session_call_free)

/* Sessions */

void
clarify_ag3ntum_watch_free (Watch *watch)
{
  g_cancellable_cancel (watch->cancellable);
  g_clear_object (&watch->cancellable);
  if (watch->client != NULL)
    {
      g_signal_handlers_disconnect_by_data (watch->client, watch);
      clarify_sse_client_stop (watch->client);
      g_clear_object (&watch->client);
    }
  g_free (watch->session_id);
  g_free (watch->model);
  g_free (watch);
}

static void
unwatch (ClarifyAg3ntumBackend *self,
         const char            *session_id)
{
  if (g_hash_table_remove (self->watches, session_id))
    {
      g_debug ("Connection “%s”: no longer watching session %s", clarify_ag3ntum_connection_name (self), session_id);
      clarify_ag3ntum_update_timer (self);
    }
}

static void
pending_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SessionCall) call = user_data;
  ClarifyAg3ntumBackend *self = call->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) stale = g_ptr_array_new_with_free_func (g_free);
  GListModel *requests;
  JsonObject *reply;
  const char *pending_id;

  node = clarify_api_call_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      !g_hash_table_contains (self->watches, call->session_id))
    return;
  /* Back without the session ("Session not found"): its questions went too. */
  if (call->restarted && g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE))
    g_clear_error (&error);
  else if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: asking session %s for its question failed: %s",
                 clarify_ag3ntum_connection_name (self), call->session_id, error != NULL ? error->message : "not an object");
      return;
    }

  reply = node != NULL ? json_node_get_object (node) : NULL;
  pending_id = reply != NULL && json_object_get_boolean_member_with_default (reply, "has_pending_question", FALSE)
               ? clarify_json_get_string_member (reply, "question_id") : NULL;
  if (pending_id != NULL)
    show_question (self, call->session_id, reply);

  /* A question no longer pending was answered elsewhere, or, just after the
   * server came back, lost in its restart; an answer on its way to one is
   * then told the same when it fails. */
  requests = clarify_backend_get_requests (CLARIFY_BACKEND (self));
  for (guint i = 0; i < g_list_model_get_n_items (requests); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);
      const char *id = clarify_request_get_id (request);

      if (g_strcmp0 (clarify_request_get_session (request), call->session_id) != 0 ||
          g_strcmp0 (id, pending_id) == 0)
        continue;
      if (clarify_request_get_state (request) == CLARIFY_REQUEST_PENDING)
        g_ptr_array_add (stale, g_strdup (id));
      else if (call->restarted)
        clarify_recent_add (self->vanished, id, NULL);
    }
  for (guint i = 0; i < stale->len; i++)
    withdraw_question (self, stale->pdata[i], call->restarted);

  /* A run ended without a question: nothing more to watch until it runs again. */
  if (call->after_run && pending_id == NULL && !has_requests (self, call->session_id))
    unwatch (self, call->session_id);
}

static void
check_pending (ClarifyAg3ntumBackend *self,
               Watch                 *watch,
               gboolean               after_run,
               gboolean               restarted)
{
  g_autofree char *path = clarify_ag3ntum_session_path (watch->session_id, "/pending-question");
  SessionCall *call = session_call_new (self, watch->session_id);

  call->after_run = after_run;
  call->restarted = restarted;
  clarify_ag3ntum_api_call_async (self, SOUP_METHOD_GET, path, NULL, watch->cancellable, pending_cb, call);
}

static void
session_event_cb (ClarifySseClient *client,
                  const char       *type,
                  const char       *data,
                  const char       *id,
                  Watch            *watch)
{
  ClarifyAg3ntumBackend *self = watch->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *event;
  JsonObject *payload;
  const char *event_type;

  node = clarify_json_parse (data, -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: ignored an event of session %s that is not a JSON object",
                 clarify_ag3ntum_connection_name (self), watch->session_id);
      return;
    }

  /* Every frame is a "message"; the envelope's type says what it is. */
  event = json_node_get_object (node);
  event_type = clarify_json_get_string_member (event, "type");
  payload = clarify_json_get_object_member (event, "data");

  if (g_strcmp0 (event_type, "question_pending") == 0)
    show_question (self, watch->session_id, payload);
  else if (g_strcmp0 (event_type, "question_answered") == 0)
    {
      const char *question_id = clarify_json_get_string_member (payload, "question_id");

      if (question_id != NULL)
        withdraw_question (self, question_id, FALSE);
    }
  else if (g_strcmp0 (event_type, "agent_complete") == 0 ||
           g_strcmp0 (event_type, "error") == 0 ||
           g_strcmp0 (event_type, "cancelled") == 0)
    {
      /* The stream ends here. A question_pending may have lost its sequence
       * number to a neighbour, so ask the server what is pending. */
      check_pending (self, watch, TRUE, FALSE);
    }
}

static void
session_connected_cb (ClarifySseClient *client,
                      Watch            *watch)
{
  ClarifySseClient *user_stream = clarify_stream_backend_get_client (CLARIFY_STREAM_BACKEND (watch->self));
  /* This stream, or the user stream still waiting to reconnect, found
   * nobody listening meanwhile. */
  gboolean restarted = clarify_sse_client_came_back (client) || watch->server_away ||
                       (user_stream != NULL && clarify_sse_client_had_outage (user_stream));

  watch->self->relogged_since_connect = FALSE;
  watch->server_away = FALSE;
  /* A question asked while we were away; after an outage, one the
   * restarted server no longer has is gone. */
  check_pending (watch->self, watch, FALSE, restarted);
}

static void
stream_relogin_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (object);
  g_autoptr(GError) error = NULL;

  /* Down rather than refused: try again after the next failure. */
  if (!clarify_ag3ntum_login_finish (self, result, &error) && !g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH))
    self->relogged_since_connect = FALSE;
}

/* A refused stream may be an expired token: log in again, once, before
 * the stream's next attempt. */
void
clarify_ag3ntum_stream_failed (ClarifyAg3ntumBackend  *self,
                               ClarifyConnectionState  state)
{
  if (state == CLARIFY_CONNECTION_STATE_FAILED && self->cancellable != NULL &&
      !self->logging_in && !self->relogged_since_connect)
    {
      self->relogged_since_connect = TRUE;
      clarify_ag3ntum_login_async (self, self->cancellable, stream_relogin_cb, NULL);
    }
}

static void
session_state_cb (ClarifySseClient *client,
                  GParamSpec       *pspec,
                  Watch            *watch)
{
  ClarifyConnectionState state = clarify_sse_client_get_state (client);

  if (clarify_sse_client_had_outage (client))
    watch->server_away = TRUE;
  /* Refused after nobody listened: the restarted server may have lost the
   * session; ask it what is pending. */
  if (state == CLARIFY_CONNECTION_STATE_FAILED && clarify_sse_client_had_outage (client))
    check_pending (watch->self, watch, FALSE, TRUE);
  clarify_ag3ntum_stream_failed (watch->self, state);
}

static void
open_session_stream (ClarifyAg3ntumBackend *self,
                     Watch                 *watch)
{
  g_autofree char *path = clarify_ag3ntum_session_path (watch->session_id, "/events");
  g_autofree char *url = NULL;

  /* Without "after" the server replays from the start and stops at the
   * first old agent_complete. Reconnects send Last-Event-ID, which wins. */
  url = watch->after > 0
        ? g_strdup_printf ("%s%s?after=%" G_GINT64_FORMAT, self->base_url, path, watch->after)
        : g_strconcat (self->base_url, path, NULL);
  watch->client = clarify_sse_client_new (self->stream_session, url);
  clarify_sse_client_set_header (watch->client, "Host", self->host);
  if (self->authorization != NULL)
    clarify_sse_client_set_header (watch->client, "Authorization", self->authorization);
  clarify_sse_client_set_stall_timeout (watch->client, self->stall_ms);
  if (self->backoff_initial_ms > 0)
    clarify_sse_client_set_backoff (watch->client, self->backoff_initial_ms, self->backoff_max_ms);
  g_signal_connect (watch->client, "event", G_CALLBACK (session_event_cb), watch);
  g_signal_connect (watch->client, "connected", G_CALLBACK (session_connected_cb), watch);
  g_signal_connect (watch->client, "notify::state", G_CALLBACK (session_state_cb), watch);
  clarify_sse_client_start (watch->client);
}

static void read_history (ClarifyAg3ntumBackend *self,
                          Watch                 *watch);

static void
history_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SessionCall) call = user_data;
  ClarifyAg3ntumBackend *self = call->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  Watch *watch;
  JsonArray *events;
  guint n;

  node = clarify_api_call_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  watch = g_hash_table_lookup (self->watches, call->session_id);
  if (watch == NULL)
    return;

  events = node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (events == NULL)
    g_message ("Connection “%s”: reading the history of session %s failed: %s",
               clarify_ag3ntum_connection_name (self), call->session_id, error != NULL ? error->message : "not a list");

  n = events != NULL ? json_array_get_length (events) : 0;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (events, i);
      JsonObject *event = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonNode *sequence = event != NULL ? json_object_get_member (event, "sequence") : NULL;

      if (sequence != NULL && JSON_NODE_HOLDS_VALUE (sequence) &&
          json_node_get_value_type (sequence) == G_TYPE_INT64)
        watch->after = MAX (watch->after, json_node_get_int (sequence));
    }

  if (n >= HISTORY_PAGE)
    read_history (self, watch);
  else
    open_session_stream (self, watch);
}

static void
read_history (ClarifyAg3ntumBackend *self,
              Watch                 *watch)
{
  g_autofree char *path = clarify_ag3ntum_session_path (watch->session_id, "/events/history");
  g_autofree char *query = NULL;

  if (watch->after > 0)
    query = g_strdup_printf ("%s?after=%" G_GINT64_FORMAT, path, watch->after);
  clarify_ag3ntum_api_call_async (self, SOUP_METHOD_GET, query != NULL ? query : path, NULL, watch->cancellable,
                                  history_cb, session_call_new (self, watch->session_id));
}

/* Watches @session_id: its history first, for where the stream starts. */
static void
watch_session (ClarifyAg3ntumBackend *self,
               const char            *session_id,
               const char            *model)
{
  Watch *watch = g_hash_table_lookup (self->watches, session_id);

  /* Its id goes into every path of the session's calls. */
  if (watch == NULL && !clarify_http_can_be_segment (session_id))
    {
      g_message ("Connection “%s”: not watching session “%s”: its id cannot be part of a URL",
                 clarify_ag3ntum_connection_name (self), session_id);
      return;
    }

  if (watch == NULL)
    {
      watch = g_new0 (Watch, 1);
      watch->self = self;
      watch->session_id = g_strdup (session_id);
      watch->cancellable = g_cancellable_new ();
      g_hash_table_insert (self->watches, watch->session_id, watch);
      g_debug ("Connection “%s”: watching session %s", clarify_ag3ntum_connection_name (self), session_id);
      read_history (self, watch);
      clarify_ag3ntum_update_timer (self);
    }

  if (model != NULL)
    {
      g_free (watch->model);
      watch->model = g_strdup (model);
    }
}

static gboolean
is_active (const char *status)
{
  return g_strcmp0 (status, "running") == 0 || g_strcmp0 (status, "queued") == 0 ||
         g_strcmp0 (status, "waiting_for_input") == 0;
}

static void
sessions_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(ClarifyAg3ntumBackend) self = user_data;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) active = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) done = g_ptr_array_new ();
  JsonArray *sessions;
  GHashTableIter iter;
  const char *session_id;

  self->listing = FALSE;
  node = clarify_api_call_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  sessions = node != NULL && JSON_NODE_HOLDS_OBJECT (node)
             ? clarify_json_get_array_member (json_node_get_object (node), "sessions") : NULL;
  if (sessions == NULL)
    {
      g_message ("Connection “%s”: listing the sessions failed: %s",
                 clarify_ag3ntum_connection_name (self), error != NULL ? error->message : "no list");
      return;
    }

  for (guint i = 0; i < json_array_get_length (sessions); i++)
    {
      JsonNode *element = json_array_get_element (sessions, i);
      JsonObject *session = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *id = clarify_json_get_string_member (session, "id");

      if (id == NULL || !is_active (clarify_json_get_string_member (session, "status")))
        continue;
      g_hash_table_add (active, (gpointer) id);
      watch_session (self, id, clarify_json_get_string_member (session, "model"));
    }

  /* Let go of finished sessions, unless a question of theirs still waits. */
  g_hash_table_iter_init (&iter, self->watches);
  while (g_hash_table_iter_next (&iter, (gpointer *) &session_id, NULL))
    if (!g_hash_table_contains (active, session_id) && !has_requests (self, session_id))
      g_ptr_array_add (done, (gpointer) session_id);
  for (guint i = 0; i < done->len; i++)
    unwatch (self, done->pdata[i]);

  if (self->list_again)
    clarify_ag3ntum_list_sessions (self);
}

void
clarify_ag3ntum_list_sessions (ClarifyAg3ntumBackend *self)
{
  /* One listing at a time; news during it asks for one more. */
  if (self->listing)
    {
      self->list_again = TRUE;
      return;
    }

  self->listing = TRUE;
  self->list_again = FALSE;
  clarify_ag3ntum_api_call_async (self, SOUP_METHOD_GET, "/api/v1/sessions", NULL, self->cancellable,
                                  sessions_cb, g_object_ref (self));
}

void
clarify_ag3ntum_came_back (ClarifyAg3ntumBackend *self)
{
  GHashTableIter iter;
  Watch *watch;

  g_hash_table_iter_init (&iter, self->watches);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &watch))
    check_pending (self, watch, FALSE, TRUE);
}
