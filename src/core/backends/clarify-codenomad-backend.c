/* clarify-codenomad-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-api-call.h"
#include "clarify-codenomad-backend.h"
#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-opencode-encoder.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"

/* The server pings every 15 s and drops a client that stays silent for 45 s. */
#define DEFAULT_STALL_LIMIT_S 45
/* Longer than a slow agent takes to answer: a post given up on may have
 * been taken, and its retry would then meet "already answered". */
#define API_TIMEOUT_S 90
#define PING_EVENT "codenomad.client.ping"

typedef enum
{
  AUTH_NONE,
  AUTH_PASSWORD,
  AUTH_TOKEN,
} AuthMode;

struct _ClarifyCodenomadBackend
{
  ClarifyStreamBackend    parent_instance;

  SoupSession            *stream_session;
  SoupSession            *api_session;
  SoupCookieJar          *cookies;
  ClarifySseClient       *sse_client;
  /* The login of start(), until it is done: stop() cancels it. */
  GCancellable           *start_cancellable;
  ClarifyOpencodeTracker *tracker;
  ClarifyOpencodeRound    round;

  char                   *base_url;
  char                   *client_id;
  char                   *connection_id;
  char                   *username;
  char                   *secret;
  AuthMode                auth;

  guint                   logging_in : 1;
  guint                   relogged_since_connect : 1;
  guint                   was_connected : 1;
};

/* Test: the login the backend sends first (password login). */
static char *
probe_login_body (ClarifyConnection *connection,
                  const char        *secret)
{
  const char *username = clarify_connection_get_option (connection, "username");
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "username");
  json_builder_add_string_value (builder, username != NULL && *username != '\0' ? username : "codenomad");
  json_builder_set_member_name (builder, "password");
  json_builder_add_string_value (builder, secret);
  json_builder_end_object (builder);

  return clarify_json_builder_to_string (builder);
}

const ClarifyProbeSpec clarify_codenomad_probe = {
  "/api/auth/login", CLARIFY_PROBE_AUTH_LOGIN, NULL, "application/json", probe_login_body, NULL, TRUE,
};

G_DEFINE_FINAL_TYPE (ClarifyCodenomadBackend, clarify_codenomad_backend, CLARIFY_TYPE_STREAM_BACKEND)

enum {
  RESYNCED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
connection_name (ClarifyCodenomadBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection != NULL ? clarify_connection_get_name (connection) : "?";
}

static gboolean
has_credentials (ClarifyCodenomadBackend *self)
{
  return self->auth != AUTH_NONE && self->secret != NULL;
}

static SoupMessage *
api_message_new (gpointer    owner,
                 const char *method,
                 const char *path,
                 const char *body)
{
  ClarifyCodenomadBackend *self = owner;
  g_autofree char *url = g_strconcat (self->base_url, path, NULL);

  if (g_str_equal (method, SOUP_METHOD_POST))
    return clarify_opencode_post_new (url, body);
  return soup_message_new (method, url);
}

/* Login: the codenomad_session cookie lands in the jar both sessions share. */

static void
login_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyCodenomadBackend *self = g_task_get_source_object (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  self->logging_in = FALSE;
  node = clarify_opencode_call_finish (result, &error);
  if (node == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_message ("Connection “%s”: login failed: %s", connection_name (self), error->message);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
login_async (ClarifyCodenomadBackend *self,
             GCancellable            *cancellable,
             GAsyncReadyCallback      callback,
             gpointer                 user_data)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autofree char *body = NULL;
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  json_builder_begin_object (builder);
  if (self->auth == AUTH_TOKEN)
    {
      json_builder_set_member_name (builder, "token");
      json_builder_add_string_value (builder, self->secret);
    }
  else
    {
      json_builder_set_member_name (builder, "username");
      json_builder_add_string_value (builder, self->username);
      json_builder_set_member_name (builder, "password");
      json_builder_add_string_value (builder, self->secret);
    }
  json_builder_end_object (builder);
  body = clarify_json_builder_to_string (builder);

  message = api_message_new (self, SOUP_METHOD_POST,
                             self->auth == AUTH_TOKEN ? "/api/auth/token" : "/api/auth/login", body);
  g_clear_pointer (&body, clarify_secret_free);
  self->logging_in = TRUE;
  clarify_opencode_call_async (self->api_session, message, cancellable, login_cb, task);
}

static gboolean
login_finish (ClarifyCodenomadBackend  *self,
              GAsyncResult             *result,
              GError                  **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* API calls that log in again once when the session expired. */

static SoupSession *
api_session (gpointer owner)
{
  return CLARIFY_CODENOMAD_BACKEND (owner)->api_session;
}

static gboolean
api_can_log_in (gpointer owner)
{
  return has_credentials (owner);
}

static void
api_login_async (gpointer             owner,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  login_async (owner, cancellable, callback, user_data);
}

static gboolean
api_login_finish (gpointer       owner,
                  GAsyncResult  *result,
                  GError       **error)
{
  return login_finish (owner, result, error);
}

static const ClarifyApiLogin api_login = {
  .session = api_session,
  .message_new = api_message_new,
  .can_log_in = api_can_log_in,
  .login_async = api_login_async,
  .login_finish = api_login_finish,
};

static void
api_call_async (ClarifyCodenomadBackend *self,
                const char              *method,
                const char              *path,
                const char              *body,
                GCancellable            *cancellable,
                GAsyncReadyCallback      callback,
                gpointer                 user_data)
{
  clarify_api_call_async (self, &api_login, method, path, body, cancellable, callback, user_data);
}

/* Where OpenCode's own API of a workspace is reached. */
static char *
instance_path (const char *workspace_id,
               const char *path)
{
  g_autofree char *escaped = g_uri_escape_string (workspace_id, NULL, FALSE);

  return g_strconcat ("/workspaces/", escaped, "/worktrees/root/instance", path, NULL);
}

/* Resync */

typedef struct
{
  ClarifyCodenomadBackend    *self;
  guint                       round;
  ClarifyOpencodeRequestKind  kind;
  char                       *workspace_id;
  char                       *directory;
  gint64                      listed_at;
} Listing;

static void
listing_free (Listing *listing)
{
  g_object_unref (listing->self);
  g_free (listing->workspace_id);
  g_free (listing->directory);
  g_free (listing);
}

static void
call_done (ClarifyCodenomadBackend *self,
           guint                    round)
{
  if (clarify_opencode_round_done (&self->round, round))
    {
      clarify_opencode_tracker_synced (self->tracker);
      g_signal_emit (self, signals[RESYNCED], 0);
    }
}

static void
listing_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Listing *listing = user_data;
  ClarifyCodenomadBackend *self = listing->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = clarify_api_call_finish (result, &error);
  if (clarify_opencode_round_is_stale (&self->round, listing->round, error))
    {
      listing_free (listing);
      return;
    }

  if (node == NULL)
    g_message ("Connection “%s”: listing the pending requests of workspace %s failed: %s",
               connection_name (self), listing->workspace_id, error->message);
  else if (JSON_NODE_HOLDS_ARRAY (node))
    clarify_opencode_tracker_resync (self->tracker, listing->kind, json_node_get_array (node),
                                     listing->directory, listing->workspace_id, listing->listed_at);

  call_done (self, listing->round);
  listing_free (listing);
}

static void
list_workspace (ClarifyCodenomadBackend *self,
                const char              *workspace_id,
                const char              *directory)
{
  static const ClarifyOpencodeRequestKind kinds[] = {
    CLARIFY_OPENCODE_REQUEST_QUESTION,
    CLARIFY_OPENCODE_REQUEST_PERMISSION,
  };

  if (self->round.cancellable == NULL || workspace_id == NULL)
    return;
  /* Its id goes into the path of every call to the workspace. */
  if (!clarify_http_can_be_segment (workspace_id))
    {
      g_message ("Connection “%s”: skipped workspace “%s”: its id cannot be part of a URL",
                 connection_name (self), workspace_id);
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *path = instance_path (workspace_id, kinds[i] == CLARIFY_OPENCODE_REQUEST_QUESTION
                                                             ? "/question" : "/permission");
      Listing *listing = g_new0 (Listing, 1);

      listing->self = g_object_ref (self);
      listing->round = clarify_opencode_round_add (&self->round);
      listing->kind = kinds[i];
      listing->workspace_id = g_strdup (workspace_id);
      listing->directory = g_strdup (directory);
      listing->listed_at = g_get_monotonic_time ();
      api_call_async (self, SOUP_METHOD_GET, path, NULL, self->round.cancellable, listing_cb, listing);
    }
}

static void
workspaces_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Listing *call = user_data;
  ClarifyCodenomadBackend *self = call->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *workspaces = NULL;
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);

  node = clarify_api_call_finish (result, &error);
  if (clarify_opencode_round_is_stale (&self->round, call->round, error))
    {
      listing_free (call);
      return;
    }

  /* A plain array, or {"workspaces":[…]}. */
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    workspaces = json_node_get_array (node);
  else if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    workspaces = clarify_json_get_array_member (json_node_get_object (node), "workspaces");

  if (workspaces == NULL)
    g_message ("Connection “%s”: listing the workspaces failed: %s",
               connection_name (self), error != NULL ? error->message : "not a list");

  for (guint i = 0; workspaces != NULL && i < json_array_get_length (workspaces); i++)
    {
      JsonNode *element = json_array_get_element (workspaces, i);
      JsonObject *workspace = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *id = clarify_json_get_string_member (workspace, "id");

      if (id != NULL)
        g_hash_table_add (listed, (gpointer) id);
      if (workspace != NULL)
        list_workspace (self, id, clarify_json_get_string_member (workspace, "path"));
    }
  /* A restart does not restore workspaces (B1a): their questions went too. */
  if (workspaces != NULL)
    clarify_opencode_tracker_keep_workspaces (self->tracker, listed);

  call_done (self, call->round);
  listing_free (call);
}

static void
begin_round (ClarifyCodenomadBackend *self)
{
  Listing *call;

  /* The listing of the workspaces holds the round open. */
  clarify_opencode_round_begin (&self->round);
  call = g_new0 (Listing, 1);
  call->self = g_object_ref (self);
  call->round = self->round.number;
  api_call_async (self, SOUP_METHOD_GET, "/api/workspaces", NULL, self->round.cancellable, workspaces_cb, call);
}

/* Stream */

static void
pong_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(ClarifyCodenomadBackend) self = user_data;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = clarify_api_call_finish (result, &error);
  if (node == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("Connection “%s”: pong failed: %s", connection_name (self), error->message);
}

static void
answer_ping (ClarifyCodenomadBackend *self,
             JsonObject              *ping)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *body = NULL;
  JsonNode *ts = ping != NULL ? json_object_get_member (ping, "ts") : NULL;

  if (ts == NULL || !JSON_NODE_HOLDS_VALUE (ts))
    return;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "clientId");
  json_builder_add_string_value (builder, self->client_id);
  json_builder_set_member_name (builder, "connectionId");
  json_builder_add_string_value (builder, self->connection_id);
  /* Echo the server's timestamp exactly as it came. */
  json_builder_set_member_name (builder, "pingTs");
  json_builder_add_value (builder, json_node_copy (ts));
  json_builder_end_object (builder);
  body = clarify_json_builder_to_string (builder);

  api_call_async (self, SOUP_METHOD_POST, "/api/client-connections/pong", body, NULL,
                  pong_cb, g_object_ref (self));
}

static void
show_instance_status (ClarifyCodenomadBackend *self,
                      JsonObject              *payload)
{
  const char *instance = clarify_json_get_string_member (payload, "instanceId");
  const char *status = clarify_json_get_string_member (payload, "status");
  const char *reason = clarify_json_get_string_member (payload, "reason");
  ClarifyBackendNote note;

  if (clarify_backend_get_state (CLARIFY_BACKEND (self)) != CLARIFY_CONNECTION_STATE_CONNECTED)
    return;

  if (g_strcmp0 (status, "connected") == 0)
    note = CLARIFY_BACKEND_NOTE_NONE;
  else if (g_strcmp0 (status, "connecting") == 0)
    note = CLARIFY_BACKEND_NOTE_WORKSPACE_CONNECTING;
  else if (g_strcmp0 (status, "disconnected") == 0)
    note = CLARIFY_BACKEND_NOTE_WORKSPACE_DISCONNECTED;
  else
    note = CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR;

  /* An unknown status is news too: its own word stands in for a reason. */
  if (note == CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR && reason == NULL && g_strcmp0 (status, "error") != 0)
    reason = status;

  if (note == CLARIFY_BACKEND_NOTE_NONE)
    clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_CONNECTED, note, NULL, NULL);
  else
    clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_CONNECTED, note,
                               instance != NULL ? instance : "?", reason);
}

static void
handle_payload (ClarifyCodenomadBackend *self,
                JsonObject              *payload)
{
  const char *type = clarify_json_get_string_member (payload, "type");
  const char *instance = clarify_json_get_string_member (payload, "instanceId");

  if (g_strcmp0 (type, "instance.eventStatus") == 0 && instance != NULL &&
      g_strcmp0 (clarify_json_get_string_member (payload, "status"), "disconnected") == 0)
    clarify_opencode_tracker_went_away (self->tracker, instance);

  if (g_strcmp0 (type, "instance.event") == 0)
    {
      JsonNode *event = json_object_get_member (payload, "event");

      if (event != NULL && JSON_NODE_HOLDS_OBJECT (event))
        clarify_opencode_tracker_handle_event (self->tracker, json_node_get_object (event),
                                               clarify_json_get_string_member (json_node_get_object (event), "directory"),
                                               instance);
    }
  else if (g_strcmp0 (type, "instance.eventStatus") == 0)
    {
      show_instance_status (self, payload);
      /* A reconnected instance may hold questions asked meanwhile. */
      if (instance != NULL && g_strcmp0 (clarify_json_get_string_member (payload, "status"), "connected") == 0)
        {
          guint round = clarify_opencode_round_add (&self->round);

          list_workspace (self, instance, NULL);
          call_done (self, round);
        }
    }
}

static void
clarify_codenomad_backend_event (ClarifyStreamBackend *backend,
                                 const char           *type,
                                 const char           *data,
                                 const char           *id)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (backend);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  node = clarify_json_parse (data, -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: ignored an event that is not a JSON object%s%s",
                 connection_name (self), error != NULL ? ": " : "", error != NULL ? error->message : "");
      return;
    }
  object = json_node_get_object (node);

  if (g_strcmp0 (type, PING_EVENT) == 0)
    answer_ping (self, object);
  else
    handle_payload (self, object);
}

/* The inbox has room again for questions it turned away: they are only
 * in the listings (the stream said them once). */
static void
clarify_codenomad_backend_resync (ClarifyBackend *backend)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (backend);

  if (clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_CONNECTED)
    begin_round (self);
}

static void
clarify_codenomad_backend_connected (ClarifyStreamBackend *backend)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (backend);

  self->relogged_since_connect = FALSE;
  if (clarify_sse_client_came_back (clarify_stream_backend_get_client (backend)))
    clarify_opencode_tracker_went_away (self->tracker, NULL);
  begin_round (self);
}

static void
stream_relogin_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (object);
  g_autoptr(GError) error = NULL;

  /* Down rather than refused: try again after the next failure. */
  if (!login_finish (self, result, &error) && !g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH))
    self->relogged_since_connect = FALSE;
}

static void
clarify_codenomad_backend_stream_state (ClarifyStreamBackend   *backend,
                                        ClarifyConnectionState  state)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (backend);

  /* A dropped stream may be an expired session: log in again, once, before
   * the client's next attempt. */
  /* Sessions live in memory (B1a): refused after a stream was open, the
   * server restarted, and forgot its workspaces' questions. */
  if (state == CLARIFY_CONNECTION_STATE_FAILED && self->was_connected)
    clarify_opencode_tracker_went_away (self->tracker, NULL);
  if (state == CLARIFY_CONNECTION_STATE_CONNECTED)
    self->was_connected = TRUE;

  /* Refused by a server that came back after nobody listened: whatever
   * login came before went with the old process. */
  if (state == CLARIFY_CONNECTION_STATE_FAILED &&
      clarify_sse_client_had_outage (clarify_stream_backend_get_client (backend)))
    self->relogged_since_connect = FALSE;

  if ((state == CLARIFY_CONNECTION_STATE_RECONNECTING || state == CLARIFY_CONNECTION_STATE_FAILED) &&
      has_credentials (self) && !self->logging_in && !self->relogged_since_connect)
    {
      self->relogged_since_connect = TRUE;
      login_async (self, NULL, stream_relogin_cb, NULL);
    }
}

/* Backend */

static void
start_login_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (object);
  g_autoptr(GError) error = NULL;

  /* Stopped meanwhile; a later start() may have begun a login of its own. */
  if (!login_finish (self, result, &error) && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->start_cancellable);
  /* Even after a failed login: the stream reports the state, and retries. */
  self->relogged_since_connect = TRUE;
  clarify_stream_backend_connect (CLARIFY_STREAM_BACKEND (self));
}

static void
clarify_codenomad_backend_start (ClarifyBackend *backend)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (backend);

  if (has_credentials (self))
    {
      if (self->start_cancellable != NULL)
        return;
      self->start_cancellable = g_cancellable_new ();
      clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTING,
                                 CLARIFY_BACKEND_NOTE_LOGGING_IN, NULL, NULL);
      login_async (self, self->start_cancellable, start_login_cb, NULL);
    }
  else
    clarify_stream_backend_connect (CLARIFY_STREAM_BACKEND (self));
}

static void
clarify_codenomad_backend_stop (ClarifyBackend *backend)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (backend);

  g_cancellable_cancel (self->start_cancellable);
  g_clear_object (&self->start_cancellable);
  clarify_opencode_round_cancel (&self->round);
  CLARIFY_BACKEND_CLASS (clarify_codenomad_backend_parent_class)->stop (backend);
}

static void
replied_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyCodenomadBackend *self = g_task_get_source_object (task);

  clarify_opencode_complete_reply (self->tracker, task, result);
}

static void
clarify_codenomad_backend_deliver_async (ClarifyBackend      *backend,
                                         ClarifyRequest      *request,
                                         ClarifyResponse     *response,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (backend);
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  g_autofree char *proxied = NULL;
  g_autofree char *segment = NULL;

  g_task_set_source_tag (task, clarify_codenomad_backend_deliver_async);
  g_task_set_task_data (task, g_object_ref (request), g_object_unref);

  if (!clarify_opencode_encode_reply (request, response, &path, &body, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (info->workspace_id == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                               "request %s belongs to no workspace", info->id);
      return;
    }

  /* The workspace id becomes a path segment: refuse what cannot stay one. */
  segment = clarify_http_escape_segment (info->workspace_id, &error);
  if (segment == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  proxied = instance_path (info->workspace_id, path);
  clarify_opencode_tracker_begin_answer (self->tracker, request);
  api_call_async (self, SOUP_METHOD_POST, proxied, body, cancellable, replied_cb, g_steal_pointer (&task));
}

/* A UUID that stays the same for this user and connection, so that a new
 * stream replaces our old one on the server instead of adding a client. */
static char *
stable_uuid (ClarifyConnection *connection,
             const char        *purpose)
{
  g_autofree char *seed = g_strjoin ("\n", "clarify", g_get_user_name (), clarify_connection_get_name (connection),
                                     clarify_connection_get_url (connection), purpose, NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, seed, -1);

  /* Shaped as a version-4 variant-1 UUID. */
  hash[12] = '4';
  hash[16] = "89ab"[g_ascii_xdigit_value (hash[16]) & 3];
  return g_strdup_printf ("%.8s-%.4s-%.4s-%.4s-%.12s", hash, hash + 8, hash + 12, hash + 16, hash + 20);
}

static void
clarify_codenomad_backend_constructed (GObject *object)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (object);
  ClarifyConnection *connection;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *client = NULL;
  g_autofree char *conn = NULL;
  const char *option;

  G_OBJECT_CLASS (clarify_codenomad_backend_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_return_if_fail (connection != NULL);

  self->base_url = clarify_opencode_base_url (connection);

  option = clarify_connection_get_option (connection, "client-id");
  self->client_id = option != NULL ? g_strdup (option) : stable_uuid (connection, "client");
  option = clarify_connection_get_option (connection, "connection-id");
  self->connection_id = option != NULL ? g_strdup (option) : stable_uuid (connection, "connection");

  option = clarify_connection_get_option (connection, "username");
  self->username = g_strdup (option != NULL && *option != '\0' ? option : "codenomad");
  option = clarify_connection_get_option (connection, "auth");
  self->auth = g_strcmp0 (option, "token") == 0 ? AUTH_TOKEN
               : g_strcmp0 (option, "none") == 0 ? AUTH_NONE
                                                 : AUTH_PASSWORD;
  if (self->auth != AUTH_NONE)
    {
      self->secret = clarify_backend_dup_secret (CLARIFY_BACKEND (self), &error);
      if (error != NULL)
        g_message ("Connection “%s”: cannot read its secret: %s", connection_name (self), error->message);
    }

  /* One jar for both sessions: the login's cookie rides on the stream too. */
  self->cookies = soup_cookie_jar_new ();
  self->stream_session = clarify_opencode_session_new (0);
  self->api_session = clarify_opencode_session_new (API_TIMEOUT_S);
  soup_session_add_feature (self->stream_session, SOUP_SESSION_FEATURE (self->cookies));
  soup_session_add_feature (self->api_session, SOUP_SESSION_FEATURE (self->cookies));
  /* Its HTTPS port (9898) serves a certificate CodeNomad made itself. */
  clarify_http_accept_loopback_certificates (self->stream_session);
  clarify_http_accept_loopback_certificates (self->api_session);

  client = g_uri_escape_string (self->client_id, NULL, FALSE);
  conn = g_uri_escape_string (self->connection_id, NULL, FALSE);
  url = g_strdup_printf ("%s/api/events?clientId=%s&connectionId=%s", self->base_url, client, conn);
  self->sse_client = clarify_stream_backend_open (CLARIFY_STREAM_BACKEND (self), self->stream_session, url);
  clarify_sse_client_set_stall_timeout (self->sse_client,
                                        clarify_opencode_stall_limit_ms (connection, DEFAULT_STALL_LIMIT_S));

}

static void
clarify_codenomad_backend_dispose (GObject *object)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (object);

  g_cancellable_cancel (self->start_cancellable);
  g_clear_object (&self->start_cancellable);
  clarify_stream_backend_close (CLARIFY_STREAM_BACKEND (self));
  self->sse_client = NULL;
  clarify_opencode_round_cancel (&self->round);
  clarify_http_clear_session (&self->api_session);
  clarify_http_clear_session (&self->stream_session);
  g_clear_object (&self->cookies);

  G_OBJECT_CLASS (clarify_codenomad_backend_parent_class)->dispose (object);
}

static void
clarify_codenomad_backend_finalize (GObject *object)
{
  ClarifyCodenomadBackend *self = CLARIFY_CODENOMAD_BACKEND (object);

  g_clear_pointer (&self->tracker, clarify_opencode_tracker_free);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->client_id, g_free);
  g_clear_pointer (&self->connection_id, g_free);
  g_clear_pointer (&self->username, g_free);
  g_clear_pointer (&self->secret, clarify_secret_free);

  G_OBJECT_CLASS (clarify_codenomad_backend_parent_class)->finalize (object);
}

static void
clarify_codenomad_backend_class_init (ClarifyCodenomadBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);
  ClarifyStreamBackendClass *stream_class = CLARIFY_STREAM_BACKEND_CLASS (klass);

  object_class->constructed = clarify_codenomad_backend_constructed;
  object_class->dispose = clarify_codenomad_backend_dispose;
  object_class->finalize = clarify_codenomad_backend_finalize;

  backend_class->start = clarify_codenomad_backend_start;
  backend_class->stop = clarify_codenomad_backend_stop;
  backend_class->deliver_async = clarify_codenomad_backend_deliver_async;
  backend_class->save_delivery = clarify_opencode_save_delivery;
  backend_class->restore_delivery = clarify_opencode_restore_delivery;
  backend_class->resync = clarify_codenomad_backend_resync;

  stream_class->event = clarify_codenomad_backend_event;
  stream_class->connected = clarify_codenomad_backend_connected;
  stream_class->stream_state = clarify_codenomad_backend_stream_state;

  signals[RESYNCED] =
    g_signal_new ("resynced",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);
}

static void
clarify_codenomad_backend_init (ClarifyCodenomadBackend *self)
{
  self->tracker = clarify_opencode_tracker_new (CLARIFY_BACKEND (self));
}

ClarifyBackend *
clarify_codenomad_backend_new (ClarifyConnection *connection)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);

  return g_object_new (CLARIFY_TYPE_CODENOMAD_BACKEND, "connection", connection, NULL);
}

ClarifySseClient *
clarify_codenomad_backend_get_sse_client (ClarifyCodenomadBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_CODENOMAD_BACKEND (self), NULL);

  return self->sse_client;
}

const char *
clarify_codenomad_backend_get_client_id (ClarifyCodenomadBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_CODENOMAD_BACKEND (self), NULL);

  return self->client_id;
}

const char *
clarify_codenomad_backend_get_connection_id (ClarifyCodenomadBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_CODENOMAD_BACKEND (self), NULL);

  return self->connection_id;
}

/* ---------------------------------------------------------------------- */
/* Discovery: the CodeNomad server listens on 9899 in plain HTTP and on
 * 9898 in HTTPS with a certificate of its own. GET /api/meta describes the server
 * ({"localUrl":…}), or answers 401 {"error":"Unauthorized"} until logged in. */

static gboolean
recognise_codenomad (guint       status,
                     JsonObject *body)
{
  if (body == NULL)
    return FALSE;
  if (status == 200)
    return json_object_has_member (body, "localUrl");
  return status == 401 &&
         g_strcmp0 (json_object_get_string_member_with_default (body, "error", NULL), "Unauthorized") == 0;
}

const ClarifyBackendProbe clarify_codenomad_backend_probe = {
  "http", { 9899 }, "/api/meta", recognise_codenomad, { 9898 },
};
