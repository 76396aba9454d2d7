/* clarify-ag3ntum-backend.c
 *
 * Ties the parts together: the user stream, start(), stop() and the
 * answers. The login and API calls are in clarify-ag3ntum-api.c, the
 * sessions' streams in clarify-ag3ntum-sessions.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-ag3ntum-api.h"
#include "clarify-ag3ntum-codec.h"
#include "clarify-ag3ntum-sessions.h"
#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"

/* Longer than a slow agent takes to answer: a post given up on may have
 * been taken, and its retry would then meet "already answered". */
#define API_TIMEOUT_S         90
/* The web client counts a stream stale after 45 s; heartbeats come every 30 s. */
#define DEFAULT_STALL_LIMIT_S 45
/* Streams at once: the user's, and one per active session. */
#define MAX_STREAMS           65

/* Test: the login the backend sends first. */
static char *
probe_login_body (ClarifyConnection *connection,
                  const char        *secret)
{
  const char *email = clarify_connection_get_option (connection, "email");

  return clarify_ag3ntum_login_body (email != NULL ? email : "", secret);
}

const ClarifyProbeSpec clarify_ag3ntum_probe = {
  "/api/v1/auth/login", CLARIFY_PROBE_AUTH_LOGIN, NULL, "application/json", probe_login_body, NULL,
};

G_DEFINE_FINAL_TYPE (ClarifyAg3ntumBackend, clarify_ag3ntum_backend, CLARIFY_TYPE_STREAM_BACKEND)

const char *
clarify_ag3ntum_connection_name (ClarifyAg3ntumBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection != NULL ? clarify_connection_get_name (connection) : "?";
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
    clarify_ag3ntum_list_sessions (self);
}

static void
clarify_ag3ntum_backend_connected (ClarifyStreamBackend *backend)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (backend);

  self->relogged_since_connect = FALSE;
  if (clarify_sse_client_came_back (clarify_stream_backend_get_client (backend)))
    clarify_ag3ntum_came_back (self);
  clarify_ag3ntum_list_sessions (self);
}

static void
clarify_ag3ntum_backend_stream_state (ClarifyStreamBackend   *backend,
                                      ClarifyConnectionState  state)
{
  clarify_ag3ntum_stream_failed (CLARIFY_AG3NTUM_BACKEND (backend), state);
}

/* Backend */

static void
start_login_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (object);
  g_autoptr(GError) error = NULL;

  if (!clarify_ag3ntum_login_finish (self, result, &error))
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
  clarify_ag3ntum_login_async (self, self->cancellable, start_login_cb, NULL);
}

static void
clarify_ag3ntum_backend_stop (ClarifyBackend *backend)
{
  ClarifyAg3ntumBackend *self = CLARIFY_AG3NTUM_BACKEND (backend);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_hash_table_remove_all (self->watches);
  self->listing = self->list_again = FALSE;
  clarify_ag3ntum_update_timer (self);
  CLARIFY_BACKEND_CLASS (clarify_ag3ntum_backend_parent_class)->stop (backend);
}

/* Answering: POST …/answer, then resume with POST …/task. */

typedef struct
{
  char *session_id;
  char *request_id;
  char *model;
} Delivery;

static void
delivery_free (Delivery *delivery)
{
  g_free (delivery->session_id);
  g_free (delivery->request_id);
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
  node = clarify_api_call_finish (result, &error);
  if (node == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("Connection “%s”: resuming session %s failed: %s",
               clarify_ag3ntum_connection_name (self), delivery->session_id, error->message);

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

  node = clarify_api_call_finish (result, &error);
  /* 404 for a question (or session) the restarted server lost: nobody
   * answered it. */
  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE) &&
      clarify_recent_contains (self->vanished, delivery->request_id))
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED,
                               "the agent restarted: %s", error->message);
      return;
    }
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

  path = clarify_ag3ntum_session_path (delivery->session_id, "/task");
  body = clarify_ag3ntum_resume_body (delivery->model);
  cancellable = g_task_get_cancellable (task);
  clarify_ag3ntum_api_call_async (self, SOUP_METHOD_POST, path, body, cancellable, resumed_cb, g_steal_pointer (&task));
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
  g_autofree char *segment = NULL;
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
  /* The session id becomes a path segment: refuse what cannot stay one. */
  if (answer != NULL)
    segment = clarify_http_escape_segment (session_id, &error);
  if (answer == NULL || segment == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  delivery = g_new0 (Delivery, 1);
  delivery->session_id = g_strdup (session_id);
  delivery->request_id = g_strdup (clarify_request_get_id (request));
  delivery->model = g_strdup (self->model != NULL ? self->model
                              : watch != NULL ? watch->model : NULL);
  g_task_set_task_data (task, delivery, (GDestroyNotify) delivery_free);

  path = clarify_ag3ntum_session_path (session_id, "/answer");
  body = clarify_ag3ntum_answer_body (answer);
  clarify_ag3ntum_api_call_async (self, SOUP_METHOD_POST, path, body, cancellable, answered_cb, g_steal_pointer (&task));
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

  self->password = clarify_backend_dup_secret (CLARIFY_BACKEND (self), &error);
  if (error != NULL)
    g_message ("Connection “%s”: cannot read its password: %s", clarify_ag3ntum_connection_name (self), error->message);

  self->api_session = clarify_opencode_session_new (API_TIMEOUT_S);
  /* A connection per stream: libsoup's default of two per host let the
   * user stream and one session's take both, and the others waited. */
  self->stream_session = soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                                        "timeout", 0,
                                                        "max-conns", MAX_STREAMS,
                                                        "max-conns-per-host", MAX_STREAMS,
                                                        NULL);

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
  g_clear_pointer (&self->finished, clarify_recent_free);
  g_clear_pointer (&self->vanished, clarify_recent_free);
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
  /* The session and the questions are all an answer needs. */
  backend_class->save_delivery = clarify_backend_save_nothing;
  backend_class->restore_delivery = clarify_backend_restore_nothing;

  stream_class->event = clarify_ag3ntum_backend_event;
  stream_class->connected = clarify_ag3ntum_backend_connected;
  stream_class->stream_state = clarify_ag3ntum_backend_stream_state;
}

static void
clarify_ag3ntum_backend_init (ClarifyAg3ntumBackend *self)
{
  self->watches = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) clarify_ag3ntum_watch_free);
  self->finished = clarify_recent_new (CLARIFY_RECENT_FINISHED_IDS, NULL);
  self->vanished = clarify_recent_new (CLARIFY_RECENT_FINISHED_IDS, NULL);
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

/* ---------------------------------------------------------------------- */
/* Discovery: the Ag3ntum API listens on 40080, and GET /api/v1/health
 * answers {"status":"ok","version":…,"timestamp":…} without a login. */

static gboolean
recognise_ag3ntum (guint       status,
                   JsonObject *body)
{
  return status == 200 && body != NULL &&
         g_strcmp0 (json_object_get_string_member_with_default (body, "status", NULL), "ok") == 0 &&
         json_object_has_member (body, "version") &&
         json_object_has_member (body, "timestamp");
}

const ClarifyBackendProbe clarify_ag3ntum_backend_probe = {
  "http", { 40080 }, "/api/v1/health", recognise_ag3ntum,
};
