/* clarify-ag3ntum-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-ag3ntum-backend.h"
#include "clarify-ag3ntum-codec.h"
#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-inbox.h"
#include "clarify-json.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"

#define API_TIMEOUT_S         30
/* The web client counts a stream stale after 45 s; heartbeats come every 30 s. */
#define DEFAULT_STALL_LIMIT_S 45
/* /events/history returns at most this many events per call. */
#define HISTORY_PAGE          1000
/* Log in again this long before the token runs out (it lasts 7 days). */
#define RELOGIN_MARGIN_S      600

struct _ClarifyAg3ntumBackend
{
  ClarifyStreamBackend  parent_instance;

  SoupSession          *api_session;
  SoupSession          *stream_session;
  ClarifySseClient     *user_stream;     /* owned by the parent */
  GHashTable           *watches;         /* session id → Watch */
  GHashTable           *finished;        /* question ids answered or withdrawn */
  GPtrArray            *login_waiters;   /* GTasks */
  GCancellable         *cancellable;     /* what start() began; stop() cancels it */

  char                 *base_url;
  char                 *host;
  char                 *email;
  char                 *password;
  char                 *model;
  char                 *token;
  char                 *authorization;
  gint64                token_expires_at;
  guint                 stall_ms;
  guint                 backoff_initial_ms;
  guint                 backoff_max_ms;
  guint                 relogin_source;

  guint                 logging_in : 1;
  guint                 listing : 1;
  guint                 list_again : 1;
  guint                 relogged_since_connect : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyAg3ntumBackend, clarify_ag3ntum_backend, CLARIFY_TYPE_STREAM_BACKEND)

typedef struct
{
  ClarifyAg3ntumBackend *self;
  char                  *session_id;
  char                  *model;
  ClarifySseClient      *client;       /* NULL until the history is read */
  GCancellable          *cancellable;
  gint64                 after;
} Watch;

static void update_timer (ClarifyAg3ntumBackend *self);

static const char *
connection_name (ClarifyAg3ntumBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection != NULL ? clarify_connection_get_name (connection) : "?";
}

/* The one place that withdraws a request. */
static void
withdraw_question (ClarifyAg3ntumBackend *self,
                   const char            *question_id)
{
  g_hash_table_add (self->finished, g_strdup (question_id));
  clarify_backend_withdraw_request (CLARIFY_BACKEND (self), question_id,
                                    CLARIFY_END_REASON_ANSWERED_ELSEWHERE, NULL);
}

static void
show_question (ClarifyAg3ntumBackend *self,
               const char            *session_id,
               JsonObject            *data)
{
  const char *question_id = clarify_json_get_string_member (data, "question_id");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  if (question_id == NULL || g_hash_table_contains (self->finished, question_id))
    return;

  request = clarify_ag3ntum_decode_question (session_id, question_id,
                                             clarify_json_get_array_member (data, "questions"), &error);
  if (request == NULL)
    {
      g_message ("Connection “%s”: ignored a question of session %s: %s",
                 connection_name (self), session_id, error->message);
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

/* HTTP */

static SoupMessage *
api_message_new (ClarifyAg3ntumBackend *self,
                 const char            *method,
                 const char            *path,
                 const char            *body)
{
  g_autofree char *url = g_strconcat (self->base_url, path, NULL);
  SoupMessage *message;
  SoupMessageHeaders *headers;

  if (g_str_equal (method, SOUP_METHOD_POST))
    message = clarify_opencode_post_new (url, body);
  else
    message = soup_message_new (method, url);
  if (message == NULL)
    return NULL;

  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Host", self->host);
  if (self->authorization != NULL && !g_str_has_prefix (path, "/api/v1/auth/login"))
    soup_message_headers_replace (headers, "Authorization", self->authorization);

  return message;
}

static void
set_token (ClarifyAg3ntumBackend *self,
           const char            *token,
           gint64                 expires_in_s)
{
  g_autofree char *escaped = NULL;
  g_autofree char *url = NULL;
  GHashTableIter iter;
  Watch *watch;

  g_clear_pointer (&self->token, clarify_secret_free);
  g_clear_pointer (&self->authorization, clarify_secret_free);
  self->token = g_strdup (token);
  self->authorization = g_strconcat ("Bearer ", token, NULL);
  self->token_expires_at = expires_in_s > 0 ? g_get_monotonic_time () + expires_in_s * G_USEC_PER_SEC : 0;

  /* The user stream takes the token only in its query. */
  escaped = g_uri_escape_string (token, NULL, FALSE);
  url = g_strconcat (self->base_url, "/api/v1/auth/me/events?token=", escaped, NULL);
  clarify_sse_client_set_url (self->user_stream, url);
  explicit_bzero (url, strlen (url));

  g_hash_table_iter_init (&iter, self->watches);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &watch))
    if (watch->client != NULL)
      clarify_sse_client_set_header (watch->client, "Authorization", self->authorization);

  update_timer (self);
}

/* Login: every caller that needs a fresh token waits for the same one. */

static void
login_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(ClarifyAg3ntumBackend) self = user_data;
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->login_waiters);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;
  const char *token = NULL;

  self->login_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->logging_in = FALSE;

  node = clarify_opencode_call_finish (result, &error);
  reply = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  token = clarify_json_get_string_member (reply, "access_token");
  if (node != NULL && token == NULL)
    g_set_error (&error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL, "the login reply has no access_token");

  if (token != NULL)
    {
      JsonNode *expires = json_object_get_member (reply, "expires_in");
      gint64 expires_in = expires != NULL && JSON_NODE_HOLDS_VALUE (expires) ? json_node_get_int (expires) : 0;

      set_token (self, token, expires_in);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("Connection “%s”: login failed: %s", connection_name (self), error->message);

  for (guint i = 0; i < waiters->len; i++)
    {
      GTask *task = waiters->pdata[i];

      if (token != NULL)
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, g_error_copy (error));
    }
}

static void
login_async (ClarifyAg3ntumBackend *self,
             GCancellable          *cancellable,
             GAsyncReadyCallback    callback,
             gpointer               user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(SoupMessage) message = NULL;
  char *body;

  if (self->email == NULL || self->password == NULL)
    {
      if (self->email == NULL)
        g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_AUTH, "%s",
                                 _("No email address to log in with: set “email” for the connection "
                                   "or put it into the address as its user part."));
      else
        g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_AUTH,
                                 _("No password stored: run “clarify set-password %s”."),
                                 connection_name (self));
      g_object_unref (task);
      return;
    }

  g_ptr_array_add (self->login_waiters, task);
  if (self->logging_in)
    return;

  body = clarify_ag3ntum_login_body (self->email, self->password);
  message = api_message_new (self, SOUP_METHOD_POST, "/api/v1/auth/login", body);
  clarify_secret_free (body);
  self->logging_in = TRUE;
  clarify_opencode_call_async (self->api_session, message, self->cancellable, login_cb, g_object_ref (self));
}

static gboolean
login_finish (ClarifyAg3ntumBackend  *self,
              GAsyncResult           *result,
              GError                **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static gboolean
relogin_timeout_cb (gpointer user_data)
{
  ClarifyAg3ntumBackend *self = user_data;

  self->relogin_source = 0;
  login_async (self, NULL, NULL, NULL);

  return G_SOURCE_REMOVE;
}

/* One timer, only while logged in and some session is watched. */
static void
update_timer (ClarifyAg3ntumBackend *self)
{
  gint64 wait_s;

  /* A dead user stream matters only while something runs; while nothing
   * does, no timer at all. */
  clarify_sse_client_set_stall_timeout (self->user_stream,
                                        g_hash_table_size (self->watches) > 0 ? self->stall_ms : 0);

  if (self->token == NULL || self->token_expires_at == 0 || self->cancellable == NULL ||
      g_hash_table_size (self->watches) == 0)
    {
      g_clear_handle_id (&self->relogin_source, g_source_remove);
      return;
    }
  if (self->relogin_source != 0)
    return;

  wait_s = (self->token_expires_at - g_get_monotonic_time ()) / G_USEC_PER_SEC;
  wait_s = CLAMP (wait_s - MIN (RELOGIN_MARGIN_S, wait_s / 10), 1, G_MAXUINT / 2);
  self->relogin_source = g_timeout_add_seconds ((guint) wait_s, relogin_timeout_cb, self);
  g_source_set_name_by_id (self->relogin_source, "[clarify] ag3ntum relogin");
}

/* API calls that log in first when there is no token, and again once on 401. */

typedef struct
{
  char     *method;
  char     *path;
  char     *body;
  gboolean  retried;
} ApiCall;

static void
api_call_free (ApiCall *call)
{
  g_free (call->method);
  g_free (call->path);
  g_free (call->body);
  g_free (call);
}

static void api_send (GTask *task);

static void
api_login_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!login_finish (CLARIFY_AG3NTUM_BACKEND (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    api_send (g_steal_pointer (&task));
}

static void
api_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyAg3ntumBackend *self = g_task_get_source_object (task);
  ApiCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  node = clarify_opencode_call_finish (result, &error);
  if (node != NULL)
    {
      g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
      return;
    }

  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH) && !call->retried)
    {
      GCancellable *cancellable = g_task_get_cancellable (task);

      call->retried = TRUE;
      login_async (self, cancellable, api_login_cb, g_steal_pointer (&task));
      return;
    }

  g_task_return_error (task, g_steal_pointer (&error));
}

static void
api_send (GTask *task)
{
  ClarifyAg3ntumBackend *self = g_task_get_source_object (task);
  ApiCall *call = g_task_get_task_data (task);
  g_autoptr(SoupMessage) message = NULL;

  if (self->token == NULL && !call->retried)
    {
      call->retried = TRUE;
      login_async (self, g_task_get_cancellable (task), api_login_cb, task);
      return;
    }

  message = api_message_new (self, call->method, call->path, call->body);
  clarify_opencode_call_async (self->api_session, message, g_task_get_cancellable (task), api_cb, task);
}

static void
api_call_async (ClarifyAg3ntumBackend *self,
                const char            *method,
                const char            *path,
                const char            *body,
                GCancellable          *cancellable,
                GAsyncReadyCallback    callback,
                gpointer               user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  ApiCall *call = g_new0 (ApiCall, 1);

  call->method = g_strdup (method);
  call->path = g_strdup (path);
  call->body = g_strdup (body);
  g_task_set_task_data (task, call, (GDestroyNotify) api_call_free);
  api_send (task);
}

static JsonNode *
api_call_finish (GAsyncResult  *result,
                 GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static char *
session_path (const char *session_id,
              const char *tail)
{
  g_autofree char *escaped = g_uri_escape_string (session_id, NULL, FALSE);

  return g_strconcat ("/api/v1/sessions/", escaped, tail, NULL);
}

/* A call about one session: finds the watch again, if it is still there. */

typedef struct
{
  ClarifyAg3ntumBackend *self;
  char                  *session_id;
  gboolean               after_run;
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

static void
watch_free (Watch *watch)
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
      g_debug ("Connection “%s”: no longer watching session %s", connection_name (self), session_id);
      update_timer (self);
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

  node = api_call_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      !g_hash_table_contains (self->watches, call->session_id))
    return;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: asking session %s for its question failed: %s",
                 connection_name (self), call->session_id, error != NULL ? error->message : "not an object");
      return;
    }

  reply = json_node_get_object (node);
  pending_id = json_object_get_boolean_member_with_default (reply, "has_pending_question", FALSE)
               ? clarify_json_get_string_member (reply, "question_id") : NULL;
  if (pending_id != NULL)
    show_question (self, call->session_id, reply);

  /* A question no longer pending was answered elsewhere. */
  requests = clarify_backend_get_requests (CLARIFY_BACKEND (self));
  for (guint i = 0; i < g_list_model_get_n_items (requests); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);

      if (g_strcmp0 (clarify_request_get_session (request), call->session_id) == 0 &&
          g_strcmp0 (clarify_request_get_id (request), pending_id) != 0 &&
          clarify_request_get_state (request) == CLARIFY_REQUEST_PENDING)
        g_ptr_array_add (stale, g_strdup (clarify_request_get_id (request)));
    }
  for (guint i = 0; i < stale->len; i++)
    withdraw_question (self, stale->pdata[i]);

  /* A run ended without a question: nothing more to watch until it runs again. */
  if (call->after_run && pending_id == NULL && !has_requests (self, call->session_id))
    unwatch (self, call->session_id);
}

static void
check_pending (ClarifyAg3ntumBackend *self,
               Watch                 *watch,
               gboolean               after_run)
{
  g_autofree char *path = session_path (watch->session_id, "/pending-question");
  SessionCall *call = session_call_new (self, watch->session_id);

  call->after_run = after_run;
  api_call_async (self, SOUP_METHOD_GET, path, NULL, watch->cancellable, pending_cb, call);
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
                 connection_name (self), watch->session_id);
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
        withdraw_question (self, question_id);
    }
  else if (g_strcmp0 (event_type, "agent_complete") == 0 ||
           g_strcmp0 (event_type, "error") == 0 ||
           g_strcmp0 (event_type, "cancelled") == 0)
    {
      /* The stream ends here. A question_pending may have lost its sequence
       * number to a neighbour, so ask the server what is pending. */
      check_pending (self, watch, TRUE);
    }
}

static void
session_connected_cb (ClarifySseClient *client,
                      Watch            *watch)
{
  watch->self->relogged_since_connect = FALSE;
  /* A question asked while we were away. */
  check_pending (watch->self, watch, FALSE);
}

static void
stream_relogin_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (object);
  g_autoptr(GError) error = NULL;

  /* Down rather than refused: try again after the next failure. */
  if (!login_finish (self, result, &error) && !g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH))
    self->relogged_since_connect = FALSE;
}

/* A refused stream may be an expired token: log in again, once, before
 * the stream's next attempt. */
static void
stream_failed (ClarifyAg3ntumBackend  *self,
               ClarifyConnectionState  state)
{
  if (state == CLARIFY_CONNECTION_STATE_FAILED && self->cancellable != NULL &&
      !self->logging_in && !self->relogged_since_connect)
    {
      self->relogged_since_connect = TRUE;
      login_async (self, self->cancellable, stream_relogin_cb, NULL);
    }
}

static void
session_state_cb (ClarifySseClient *client,
                  GParamSpec       *pspec,
                  Watch            *watch)
{
  stream_failed (watch->self, clarify_sse_client_get_state (client));
}

static void
open_session_stream (ClarifyAg3ntumBackend *self,
                     Watch                 *watch)
{
  g_autofree char *path = session_path (watch->session_id, "/events");
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

  node = api_call_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  watch = g_hash_table_lookup (self->watches, call->session_id);
  if (watch == NULL)
    return;

  events = node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (events == NULL)
    g_message ("Connection “%s”: reading the history of session %s failed: %s",
               connection_name (self), call->session_id, error != NULL ? error->message : "not a list");

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
  g_autofree char *path = session_path (watch->session_id, "/events/history");
  g_autofree char *query = NULL;

  if (watch->after > 0)
    query = g_strdup_printf ("%s?after=%" G_GINT64_FORMAT, path, watch->after);
  api_call_async (self, SOUP_METHOD_GET, query != NULL ? query : path, NULL, watch->cancellable,
                  history_cb, session_call_new (self, watch->session_id));
}

/* Watches @session_id: its history first, for where the stream starts. */
static void
watch_session (ClarifyAg3ntumBackend *self,
               const char            *session_id,
               const char            *model)
{
  Watch *watch = g_hash_table_lookup (self->watches, session_id);

  if (watch == NULL)
    {
      watch = g_new0 (Watch, 1);
      watch->self = self;
      watch->session_id = g_strdup (session_id);
      watch->cancellable = g_cancellable_new ();
      g_hash_table_insert (self->watches, watch->session_id, watch);
      g_debug ("Connection “%s”: watching session %s", connection_name (self), session_id);
      read_history (self, watch);
      update_timer (self);
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

static void list_sessions (ClarifyAg3ntumBackend *self);

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
  node = api_call_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  sessions = node != NULL && JSON_NODE_HOLDS_OBJECT (node)
             ? clarify_json_get_array_member (json_node_get_object (node), "sessions") : NULL;
  if (sessions == NULL)
    {
      g_message ("Connection “%s”: listing the sessions failed: %s",
                 connection_name (self), error != NULL ? error->message : "no list");
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
    list_sessions (self);
}

static void
list_sessions (ClarifyAg3ntumBackend *self)
{
  /* One listing at a time; news during it asks for one more. */
  if (self->listing)
    {
      self->list_again = TRUE;
      return;
    }

  self->listing = TRUE;
  self->list_again = FALSE;
  api_call_async (self, SOUP_METHOD_GET, "/api/v1/sessions", NULL, self->cancellable,
                  sessions_cb, g_object_ref (self));
}

/* The user stream */

static void
clarify_ag3ntum_backend_event (ClarifyStreamBackend *backend,
                               const char           *type,
                               const char           *data,
                               const char           *id)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (backend);
  g_autoptr(JsonNode) node = clarify_json_parse (data, -1, NULL);
  JsonObject *event = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

  /* A session started, paused or ended: the listing says which to watch. */
  if (g_strcmp0 (clarify_json_get_string_member (event, "type"), "session_status_change") == 0)
    list_sessions (self);
}

static void
clarify_ag3ntum_backend_connected (ClarifyStreamBackend *backend)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (backend);

  self->relogged_since_connect = FALSE;
  list_sessions (self);
}

static void
clarify_ag3ntum_backend_stream_state (ClarifyStreamBackend   *backend,
                                      ClarifyConnectionState  state)
{
  stream_failed (CLARIFY_AG3NTUM_BACKEND (backend), state);
}

/* Backend */

static void
start_login_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (object);
  g_autoptr(GError) error = NULL;

  if (!login_finish (self, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_FAILED,
                                   CLARIFY_BACKEND_NOTE_NONE, NULL, error->message);
      return;
    }

  self->relogged_since_connect = TRUE;
  clarify_stream_backend_connect (CLARIFY_STREAM_BACKEND (self));
}

static void
clarify_ag3ntum_backend_start (ClarifyBackend *backend)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (backend);

  if (self->cancellable != NULL)
    return;

  self->cancellable = g_cancellable_new ();
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTING,
                             CLARIFY_BACKEND_NOTE_LOGGING_IN, NULL, NULL);
  login_async (self, self->cancellable, start_login_cb, NULL);
}

static void
clarify_ag3ntum_backend_stop (ClarifyBackend *backend)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (backend);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_hash_table_remove_all (self->watches);
  self->listing = self->list_again = FALSE;
  update_timer (self);
  CLARIFY_BACKEND_CLASS (clarify_ag3ntum_backend_parent_class)->stop (backend);
}

/* Answering: POST …/answer, then resume with POST …/task. */

typedef struct
{
  char *session_id;
  char *model;
} Delivery;

static void
delivery_free (Delivery *delivery)
{
  g_free (delivery->session_id);
  g_free (delivery->model);
  g_free (delivery);
}

static void
resumed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyAg3ntumBackend *self = g_task_get_source_object (task);
  Delivery *delivery = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  /* The answer is in; a session that does not resume is news for the log only. */
  node = api_call_finish (result, &error);
  if (node == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("Connection “%s”: resuming session %s failed: %s",
               connection_name (self), delivery->session_id, error->message);

  g_task_return_boolean (task, TRUE);
}

static void
answered_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyAg3ntumBackend *self = g_task_get_source_object (task);
  Delivery *delivery = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  GCancellable *cancellable;
  JsonObject *reply;

  node = api_call_finish (result, &error);
  if (node == NULL)
    {
      /* 404: nothing pending any more, so someone answered first. */
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  reply = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  if (reply == NULL || !json_object_get_boolean_member_with_default (reply, "can_resume", FALSE))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  path = session_path (delivery->session_id, "/task");
  body = clarify_ag3ntum_resume_body (delivery->model);
  cancellable = g_task_get_cancellable (task);
  api_call_async (self, SOUP_METHOD_POST, path, body, cancellable, resumed_cb, g_steal_pointer (&task));
}

static void
clarify_ag3ntum_backend_deliver_async (ClarifyBackend      *backend,
                                       ClarifyRequest      *request,
                                       ClarifyResponse     *response,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (backend);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  const char *session_id = clarify_request_get_session (request);
  Watch *watch = session_id != NULL ? g_hash_table_lookup (self->watches, session_id) : NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *body = NULL;
  g_autofree char *path = NULL;
  Delivery *delivery;

  g_task_set_source_tag (task, clarify_ag3ntum_backend_deliver_async);

  if (clarify_response_get_outcome (response) != CLARIFY_OUTCOME_ANSWERED || session_id == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                               "Ag3ntum takes only answers to a session's question");
      return;
    }
  answer = clarify_ag3ntum_encode_answer (request, response, &error);
  if (answer == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  delivery = g_new0 (Delivery, 1);
  delivery->session_id = g_strdup (session_id);
  delivery->model = g_strdup (self->model != NULL ? self->model
                              : watch != NULL ? watch->model : NULL);
  g_task_set_task_data (task, delivery, (GDestroyNotify) delivery_free);

  path = session_path (session_id, "/answer");
  body = clarify_ag3ntum_answer_body (answer);
  api_call_async (self, SOUP_METHOD_POST, path, body, cancellable, answered_cb, g_steal_pointer (&task));
}

/* Setup */

static char *
host_of (GUri *uri)
{
  const char *host = g_uri_get_host (uri);

  if (host == NULL)
    return g_strdup ("localhost");
  /* Without the port: Ag3ntum accepts its names with ":40080" or none. */
  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("[%s]", host);
  return g_strdup (host);
}

static void
clarify_ag3ntum_backend_constructed (GObject *object)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (object);
  ClarifyConnection *connection;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GUri) bare = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  g_autofree char *url = NULL;
  const char *option;

  G_OBJECT_CLASS (clarify_ag3ntum_backend_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_return_if_fail (connection != NULL);

  url = clarify_opencode_base_url (connection);
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri != NULL)
    {
      /* The user part is the email, never sent as such. */
      bare = g_uri_build (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                          g_uri_get_port (uri), g_uri_get_path (uri), NULL, NULL);
      self->base_url = g_uri_to_string (bare);
      self->email = g_strdup (g_uri_get_userinfo (uri));
      self->host = host_of (uri);
    }
  else
    {
      self->base_url = g_steal_pointer (&url);
      self->host = g_strdup ("localhost");
    }

  option = clarify_connection_get_option (connection, "email");
  if (option != NULL && option[0] != '\0')
    {
      g_free (self->email);
      self->email = g_strdup (option);
    }
  if (self->email != NULL && self->email[0] == '\0')
    g_clear_pointer (&self->email, g_free);
  option = clarify_connection_get_option (connection, "host");
  if (option != NULL && option[0] != '\0')
    {
      g_free (self->host);
      self->host = g_strdup (option);
    }
  self->model = g_strdup (clarify_connection_get_option (connection, "model"));
  self->stall_ms = clarify_opencode_stall_limit_ms (connection, DEFAULT_STALL_LIMIT_S);

  key = g_strconcat ("connection:", clarify_connection_get_name (connection), NULL);
  self->password = clarify_secret_lookup (key, &error);
  if (error != NULL)
    g_message ("Connection “%s”: cannot read its password: %s", connection_name (self), error->message);

  self->api_session = clarify_opencode_session_new (API_TIMEOUT_S);
  self->stream_session = clarify_opencode_session_new (0);

  g_clear_pointer (&url, g_free);
  url = g_strconcat (self->base_url, "/api/v1/auth/me/events", NULL);
  self->user_stream = clarify_stream_backend_open (CLARIFY_STREAM_BACKEND (self), self->stream_session, url);
  clarify_sse_client_set_header (self->user_stream, "Host", self->host);
}

static void
clarify_ag3ntum_backend_dispose (GObject *object)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->relogin_source, g_source_remove);
  if (self->watches != NULL)
    g_hash_table_remove_all (self->watches);
  clarify_stream_backend_close (CLARIFY_STREAM_BACKEND (self));
  self->user_stream = NULL;
  clarify_http_clear_session (&self->api_session);
  clarify_http_clear_session (&self->stream_session);

  G_OBJECT_CLASS (clarify_ag3ntum_backend_parent_class)->dispose (object);
}

static void
clarify_ag3ntum_backend_finalize (GObject *object)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (object);

  g_clear_pointer (&self->watches, g_hash_table_unref);
  g_clear_pointer (&self->finished, g_hash_table_unref);
  g_clear_pointer (&self->login_waiters, g_ptr_array_unref);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->host, g_free);
  g_clear_pointer (&self->email, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->password, clarify_secret_free);
  g_clear_pointer (&self->token, clarify_secret_free);
  g_clear_pointer (&self->authorization, clarify_secret_free);

  G_OBJECT_CLASS (clarify_ag3ntum_backend_parent_class)->finalize (object);
}

static void
clarify_ag3ntum_backend_class_init (ClarifyAg3ntumBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);
  ClarifyStreamBackendClass *stream_class = CLARIFY_STREAM_BACKEND_CLASS (klass);

  object_class->constructed = clarify_ag3ntum_backend_constructed;
  object_class->dispose = clarify_ag3ntum_backend_dispose;
  object_class->finalize = clarify_ag3ntum_backend_finalize;

  backend_class->start = clarify_ag3ntum_backend_start;
  backend_class->stop = clarify_ag3ntum_backend_stop;
  backend_class->deliver_async = clarify_ag3ntum_backend_deliver_async;

  stream_class->event = clarify_ag3ntum_backend_event;
  stream_class->connected = clarify_ag3ntum_backend_connected;
  stream_class->stream_state = clarify_ag3ntum_backend_stream_state;
}

static void
clarify_ag3ntum_backend_init (ClarifyAg3ntumBackend *self)
{
  self->watches = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) watch_free);
  self->finished = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->login_waiters = g_ptr_array_new_with_free_func (g_object_unref);
}

ClarifyBackend *
clarify_ag3ntum_backend_new (ClarifyConnection *connection)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);

  return g_object_new (CLARIFY_TYPE_AG3NTUM_BACKEND, "connection", connection, NULL);
}

ClarifySseClient *
clarify_ag3ntum_backend_get_user_stream (ClarifyAg3ntumBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_AG3NTUM_BACKEND (self), NULL);

  return self->user_stream;
}

ClarifySseClient *
clarify_ag3ntum_backend_get_session_stream (ClarifyAg3ntumBackend *self,
                                            const char            *session_id)
{
  Watch *watch;

  g_return_val_if_fail (CLARIFY_IS_AG3NTUM_BACKEND (self), NULL);

  watch = g_hash_table_lookup (self->watches, session_id);
  return watch != NULL ? watch->client : NULL;
}

guint
clarify_ag3ntum_backend_get_n_sessions (ClarifyAg3ntumBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_AG3NTUM_BACKEND (self), 0);

  return g_hash_table_size (self->watches);
}

gboolean
clarify_ag3ntum_backend_has_timer (ClarifyAg3ntumBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_AG3NTUM_BACKEND (self), FALSE);

  return self->relogin_source != 0;
}

void
clarify_ag3ntum_backend_set_backoff (ClarifyAg3ntumBackend *self,
                                     guint                  initial_ms,
                                     guint                  max_ms)
{
  GHashTableIter iter;
  Watch *watch;

  g_return_if_fail (CLARIFY_IS_AG3NTUM_BACKEND (self));

  self->backoff_initial_ms = initial_ms;
  self->backoff_max_ms = max_ms;
  clarify_sse_client_set_backoff (self->user_stream, initial_ms, max_ms);
  g_hash_table_iter_init (&iter, self->watches);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &watch))
    if (watch->client != NULL)
      clarify_sse_client_set_backoff (watch->client, initial_ms, max_ms);
}
