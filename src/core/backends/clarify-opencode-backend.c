/* clarify-opencode-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-opencode-backend.h"
#include "clarify-opencode-encoder.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"

/* OpenCode sends a heartbeat every 10 s: three missed ones mean a dead stream. */
#define DEFAULT_STALL_LIMIT_S 30
/* Longer than a slow agent takes to answer: a post given up on may have
 * been taken, and its retry would then meet "already answered". */
#define API_TIMEOUT_S 90

struct _ClarifyOpencodeBackend
{
  ClarifyStreamBackend    parent_instance;

  SoupSession            *stream_session;
  SoupSession            *api_session;
  ClarifySseClient       *sse_client;
  ClarifyOpencodeTracker *tracker;
  ClarifyOpencodeRound    round;

  char                   *base_url;
  char                   *authorization;
  char                   *fallback_directory;

  GHashTable             *directories;   /* every instance directory seen */
  GHashTable             *listed;        /* directories listed this round */
  /* session id → its title, or → NULL while GET /session/{id} is out */
  GHashTable             *session_titles;
  GCancellable           *titles_cancellable;

  guint                   fallback : 1;
  guint                   probing : 1;
  guint                   streamed : 1;  /* a stream was open before this one */
};

/* Test: the stream every OpenCode serves, behind its basic auth. */
const ClarifyProbeSpec clarify_opencode_probe = {
  "/global/event", CLARIFY_PROBE_AUTH_BASIC, "opencode", "text/event-stream", NULL, NULL,
};

G_DEFINE_FINAL_TYPE (ClarifyOpencodeBackend, clarify_opencode_backend, CLARIFY_TYPE_STREAM_BACKEND)

enum {
  RESYNCED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef void (*DiscoveryFunc) (ClarifyOpencodeBackend *self,
                               JsonNode               *node);

/* One call of a resync round: a listing, or a discovery of directories. */
typedef struct
{
  ClarifyOpencodeBackend     *self;
  guint                       round;
  DiscoveryFunc               discovery;
  ClarifyOpencodeRequestKind  kind;
  char                       *directory;
  gint64                      listed_at;
} Listing;

static void
listing_free (Listing *listing)
{
  g_object_unref (listing->self);
  g_free (listing->directory);
  g_free (listing);
}

static const char *
connection_name (ClarifyOpencodeBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection != NULL ? clarify_connection_get_name (connection) : "?";
}

/* @path may carry a query; @directory is appended as ?directory= when set. */
static SoupMessage *
api_message_new (ClarifyOpencodeBackend *self,
                 const char             *method,
                 const char             *path,
                 const char             *directory,
                 const char             *body)
{
  g_autofree char *escaped = directory != NULL ? g_uri_escape_string (directory, NULL, FALSE) : NULL;
  g_autofree char *url = g_strconcat (self->base_url, path,
                                      escaped != NULL ? "?directory=" : NULL, escaped, NULL);
  SoupMessage *message;

  if (g_str_equal (method, SOUP_METHOD_POST))
    message = clarify_opencode_post_new (url, body);
  else
    message = soup_message_new (method, url);

  if (message != NULL && self->authorization != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "Authorization", self->authorization);

  return message;
}

static char *
stream_url (ClarifyOpencodeBackend *self)
{
  g_autofree char *escaped = NULL;

  if (!self->fallback)
    return g_strconcat (self->base_url, "/global/event", NULL);

  if (self->fallback_directory == NULL)
    return g_strconcat (self->base_url, "/event", NULL);

  escaped = g_uri_escape_string (self->fallback_directory, NULL, FALSE);
  return g_strconcat (self->base_url, "/event?directory=", escaped, NULL);
}

/* Resync */

static void
call_done (ClarifyOpencodeBackend *self,
           guint                   round)
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
  ClarifyOpencodeBackend *self = listing->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = clarify_opencode_call_finish (result, &error);
  if (clarify_opencode_round_is_stale (&self->round, listing->round, error))
    {
      listing_free (listing);
      return;
    }

  if (node == NULL)
    g_message ("Connection “%s”: listing pending %s of %s failed: %s",
               connection_name (self),
               listing->kind == CLARIFY_OPENCODE_REQUEST_QUESTION ? "questions" : "permissions",
               listing->directory != NULL ? listing->directory : "the default directory",
               error->message);
  else if (!JSON_NODE_HOLDS_ARRAY (node))
    g_message ("Connection “%s”: a listing of pending requests is not an array",
               connection_name (self));
  else
    clarify_opencode_tracker_resync (self->tracker, listing->kind, json_node_get_array (node),
                                     listing->directory, NULL, listing->listed_at);

  call_done (self, listing->round);
  listing_free (listing);
}

static void
list_kind (ClarifyOpencodeBackend     *self,
           ClarifyOpencodeRequestKind  kind,
           const char                 *directory)
{
  g_autoptr(SoupMessage) message = NULL;
  Listing *listing;

  message = api_message_new (self, SOUP_METHOD_GET,
                             kind == CLARIFY_OPENCODE_REQUEST_QUESTION ? "/question" : "/permission",
                             directory, NULL);
  g_return_if_fail (message != NULL);

  listing = g_new0 (Listing, 1);
  listing->self = g_object_ref (self);
  listing->round = clarify_opencode_round_add (&self->round);
  listing->kind = kind;
  listing->directory = g_strdup (directory);
  listing->listed_at = g_get_monotonic_time ();

  clarify_opencode_call_async (self->api_session, message, self->round.cancellable, listing_cb, listing);
}

/* Each directory is listed once per round, however often it is learned. */
static void
list_directory (ClarifyOpencodeBackend *self,
                const char             *directory)
{
  if (self->round.cancellable == NULL)
    return;
  if (directory != NULL && g_hash_table_contains (self->listed, directory))
    return;
  if (directory != NULL)
    g_hash_table_add (self->listed, g_strdup (directory));

  list_kind (self, CLARIFY_OPENCODE_REQUEST_QUESTION, directory);
  list_kind (self, CLARIFY_OPENCODE_REQUEST_PERMISSION, directory);
}

static void
learn_directory (ClarifyOpencodeBackend *self,
                 const char             *directory)
{
  /* "/" is the catch-all project of folders outside git, never an instance. */
  if (directory == NULL || *directory != '/' || g_str_equal (directory, "/"))
    return;

  if (!g_hash_table_contains (self->directories, directory))
    g_hash_table_add (self->directories, g_strdup (directory));
  list_directory (self, directory);
}

static void
discovery_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Listing *call = user_data;
  ClarifyOpencodeBackend *self = call->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = clarify_opencode_call_finish (result, &error);
  if (clarify_opencode_round_is_stale (&self->round, call->round, error))
    {
      listing_free (call);
      return;
    }

  if (node != NULL)
    call->discovery (self, node);
  else
    g_message ("Connection “%s”: looking for directories failed: %s",
               connection_name (self), error->message);

  call_done (self, call->round);
  listing_free (call);
}

static void
discover (ClarifyOpencodeBackend *self,
          const char             *path,
          DiscoveryFunc           func)
{
  g_autoptr(SoupMessage) message = api_message_new (self, SOUP_METHOD_GET, path, NULL, NULL);
  Listing *call = g_new0 (Listing, 1);

  call->self = g_object_ref (self);
  call->round = clarify_opencode_round_add (&self->round);
  call->discovery = func;
  clarify_opencode_call_async (self->api_session, message, self->round.cancellable, discovery_cb, call);
}

/* GET /project: [{worktree, sandboxes:[…]}, …] */
static void
learn_projects (ClarifyOpencodeBackend *self,
                JsonNode               *node)
{
  JsonArray *projects = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  guint n = projects != NULL ? json_array_get_length (projects) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (projects, i);
      JsonObject *project = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonNode *sandboxes;

      if (project == NULL)
        continue;
      learn_directory (self, clarify_json_get_string_member (project, "worktree"));

      sandboxes = json_object_get_member (project, "sandboxes");
      if (sandboxes != NULL && JSON_NODE_HOLDS_ARRAY (sandboxes))
        {
          JsonArray *array = json_node_get_array (sandboxes);

          for (guint j = 0; j < json_array_get_length (array); j++)
            {
              JsonNode *sandbox = json_array_get_element (array, j);

              if (json_node_get_value_type (sandbox) == G_TYPE_STRING)
                learn_directory (self, json_node_get_string (sandbox));
            }
        }
    }
}

/* GET /path: {directory, …} of the server's default instance */
static void
learn_default_directory (ClarifyOpencodeBackend *self,
                         JsonNode               *node)
{
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  JsonNode *directory = object != NULL ? json_object_get_member (object, "directory") : NULL;

  if (directory != NULL && json_node_get_value_type (directory) == G_TYPE_STRING)
    learn_directory (self, json_node_get_string (directory));
}

static void
begin_round (ClarifyOpencodeBackend *self)
{
  GHashTableIter iter;
  gpointer directory;

  /* Held open until every call of the round is out. */
  clarify_opencode_round_begin (&self->round);
  g_hash_table_remove_all (self->listed);

  if (self->fallback)
    list_directory (self, self->fallback_directory);
  else
    {
      g_autoptr(GPtrArray) known = g_ptr_array_new_with_free_func (g_free);

      g_hash_table_iter_init (&iter, self->directories);
      while (g_hash_table_iter_next (&iter, &directory, NULL))
        g_ptr_array_add (known, g_strdup (directory));
      for (guint i = 0; i < known->len; i++)
        list_directory (self, known->pdata[i]);

      discover (self, "/project", learn_projects);
      discover (self, "/path", learn_default_directory);
    }

  call_done (self, self->round.number);
}

/* Stream */

static void
handle_frame (ClarifyOpencodeBackend *self,
              const char             *data)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonObject *event = NULL;
  const char *directory = NULL;

  node = clarify_json_parse (data, -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: ignored a frame that is not a JSON object%s%s",
                 connection_name (self), error != NULL ? ": " : "", error != NULL ? error->message : "");
      return;
    }

  root = json_node_get_object (node);

  if (self->fallback)
    {
      event = root;
      directory = self->fallback_directory;
    }
  else
    {
      /* {directory, project, payload}; heartbeats come without a directory. */
      JsonNode *payload = json_object_get_member (root, "payload");
      JsonNode *where = json_object_get_member (root, "directory");

      if (payload == NULL || !JSON_NODE_HOLDS_OBJECT (payload))
        return;
      event = json_node_get_object (payload);
      if (where != NULL && json_node_get_value_type (where) == G_TYPE_STRING)
        {
          directory = json_node_get_string (where);
          learn_directory (self, directory);
        }
    }

  clarify_opencode_tracker_handle_event (self->tracker, event, directory, NULL);
}

static void
clarify_opencode_backend_event (ClarifyStreamBackend *backend,
                                const char           *type,
                                const char           *data,
                                const char           *id)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (backend);
  handle_frame (self, data);
}

/* The inbox has room again for questions it turned away: they are only
 * in the listings (the stream said them once). */
static void
clarify_opencode_backend_resync (ClarifyBackend *backend)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (backend);

  if (clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_CONNECTED)
    begin_round (self);
}

static void
clarify_opencode_backend_connected (ClarifyStreamBackend *backend)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (backend);

  /* OpenCode never ends a stream it serves: one that ended, or a server
   * unreachable meanwhile, is a restart (often faster than our reconnect),
   * and a question the listing lacks now was forgotten with it. */
  if (self->streamed || clarify_sse_client_came_back (clarify_stream_backend_get_client (backend)))
    clarify_opencode_tracker_went_away (self->tracker, NULL);
  self->streamed = TRUE;
  /* The stream has no replay: whatever happened while we were away is only
   * in the listings. */
  begin_round (self);
}

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(ClarifyOpencodeBackend) self = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  const char *content_type;
  guint status;

  self->probing = FALSE;
  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    return;
  g_input_stream_close (stream, NULL, NULL);

  status = soup_message_get_status (message);
  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (message), NULL);

  /* Older servers have no /global/event: 404, or the web UI's 200 text/html. */
  if (status == SOUP_STATUS_NOT_FOUND ||
      (SOUP_STATUS_IS_SUCCESSFUL (status) && g_strcmp0 (content_type, "text/event-stream") != 0))
    {
      g_autofree char *url = NULL;

      g_message ("Connection “%s”: the server has no /global/event (%u %s); streaming one directory",
                 connection_name (self), status, content_type != NULL ? content_type : "");
      self->fallback = TRUE;
      url = stream_url (self);
      clarify_sse_client_set_url (self->sse_client, url);
      clarify_sse_client_reconnect (self->sse_client);
    }
}

/* Only asked when the global stream fails, so a healthy start costs nothing. */
static void
probe_global_stream (ClarifyOpencodeBackend *self)
{
  g_autoptr(SoupMessage) message = NULL;

  if (self->fallback || self->probing)
    return;

  message = api_message_new (self, SOUP_METHOD_GET, "/global/event", NULL, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "text/event-stream");
  self->probing = TRUE;
  soup_session_send_async (self->api_session, message, G_PRIORITY_DEFAULT, NULL,
                           probe_cb, g_object_ref (self));
}

static void
clarify_opencode_backend_stream_state (ClarifyStreamBackend   *backend,
                                       ClarifyConnectionState  state)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (backend);

  if (state == CLARIFY_CONNECTION_STATE_RECONNECTING || state == CLARIFY_CONNECTION_STATE_FAILED)
    {
      /* It never ends a stream it serves: a restart, seen before we are back. */
      if (self->streamed)
        clarify_opencode_tracker_went_away (self->tracker, NULL);
      probe_global_stream (self);
    }
  else if (state == CLARIFY_CONNECTION_STATE_CONNECTED && self->fallback)
    clarify_backend_set_state (CLARIFY_BACKEND (self), state, CLARIFY_BACKEND_NOTE_ONE_DIRECTORY, NULL, NULL);
}

/* Backend */

static void
clarify_opencode_backend_stop (ClarifyBackend *backend)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (backend);

  clarify_opencode_round_cancel (&self->round);
  CLARIFY_BACKEND_CLASS (clarify_opencode_backend_parent_class)->stop (backend);
}

static void
replied_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyOpencodeBackend *self = g_task_get_source_object (task);

  clarify_opencode_complete_reply (self->tracker, task, result);
}

static void
clarify_opencode_backend_deliver_async (ClarifyBackend      *backend,
                                        ClarifyRequest      *request,
                                        ClarifyResponse     *response,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (backend);
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;

  g_task_set_source_tag (task, clarify_opencode_backend_deliver_async);
  g_task_set_task_data (task, g_object_ref (request), g_object_unref);

  if (!clarify_opencode_encode_reply (request, response, &path, &body, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Instances are per directory: without it the server does not find the request. */
  message = api_message_new (self, SOUP_METHOD_POST, path, info->directory, body);
  clarify_opencode_tracker_begin_answer (self->tracker, request);
  clarify_opencode_call_async (self->api_session, message, cancellable, replied_cb, g_steal_pointer (&task));
}

static char *
basic_authorization (ClarifyOpencodeBackend *self,
                     ClarifyConnection      *connection)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *password = NULL;
  g_autofree char *credentials = NULL;
  g_autofree char *encoded = NULL;
  const char *username = clarify_connection_get_option (connection, "username");

  password = clarify_backend_dup_secret (CLARIFY_BACKEND (self), &error);
  if (error != NULL)
    g_message ("Connection “%s”: cannot read its password: %s", connection_name (self), error->message);
  /* What `opencode serve` itself reads, handy when both run in one shell. */
  if (password == NULL && g_getenv ("OPENCODE_SERVER_PASSWORD") != NULL)
    password = g_strdup (g_getenv ("OPENCODE_SERVER_PASSWORD"));
  if (password == NULL || *password == '\0')
    return NULL;

  credentials = g_strconcat (username != NULL && *username != '\0' ? username : "opencode", ":", password, NULL);
  encoded = g_base64_encode ((const guchar *) credentials, strlen (credentials));
  g_clear_pointer (&credentials, clarify_secret_free);
  g_clear_pointer (&password, clarify_secret_free);

  return g_strconcat ("Basic ", encoded, NULL);
}

/* Session titles ------------------------------------------------------------- */

typedef struct
{
  ClarifyOpencodeBackend *self;
  char                   *session_id;
} TitleCall;

static void
title_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  TitleCall *call = user_data;
  ClarifyOpencodeBackend *self = call->self;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *session;
  const char *title = NULL;
  GListModel *requests;

  node = clarify_opencode_call_finish (result, &error);
  session = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  title = clarify_json_get_string_member (session, "title");

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    goto out;
  if (title == NULL || title[0] == '\0')
    {
      /* The folder's name stays; the next request of the session asks again. */
      g_message ("Connection “%s”: the title of session %s is unknown%s%s", connection_name (self),
                 call->session_id, error != NULL ? ": " : "", error != NULL ? error->message : "");
      g_hash_table_remove (self->session_titles, call->session_id);
      goto out;
    }

  g_hash_table_replace (self->session_titles, g_strdup (call->session_id), g_strdup (title));
  requests = clarify_backend_get_requests (CLARIFY_BACKEND (self));
  for (guint i = 0; i < g_list_model_get_n_items (requests); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);

      if (g_strcmp0 (clarify_request_get_session (request), call->session_id) == 0)
        clarify_request_set_session_title (request, title);
    }

out:
  g_object_unref (call->self);
  g_free (call->session_id);
  g_free (call);
}

/* The session's title as OpenCode's own UI shows it: asked once per
 * session, then kept; it reaches the request (and its dialog) when it
 * comes. */
static void
request_added_cb (ClarifyOpencodeBackend *self,
                  ClarifyRequest         *request)
{
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);
  const char *session_id = clarify_request_get_session (request);
  g_autofree char *path = NULL;
  g_autofree char *escaped = NULL;
  g_autoptr(SoupMessage) message = NULL;
  TitleCall *call;

  /* A title is nice to have: not worth a GET to another path. */
  if (!clarify_http_can_be_segment (session_id))
    return;
  if (g_hash_table_contains (self->session_titles, session_id))
    {
      /* Known (or on its way: the answer sets it on every request then). */
      clarify_request_set_session_title (request, g_hash_table_lookup (self->session_titles, session_id));
      return;
    }

  escaped = g_uri_escape_string (session_id, NULL, FALSE);
  path = g_strconcat ("/session/", escaped, NULL);
  message = api_message_new (self, SOUP_METHOD_GET, path, info != NULL ? info->directory : NULL, NULL);
  if (message == NULL)
    return;

  g_hash_table_insert (self->session_titles, g_strdup (session_id), NULL);
  call = g_new0 (TitleCall, 1);
  call->self = g_object_ref (self);
  call->session_id = g_strdup (session_id);
  clarify_opencode_call_async (self->api_session, message, self->titles_cancellable, title_cb, call);
}

static void
clarify_opencode_backend_constructed (GObject *object)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (object);
  ClarifyConnection *connection;
  g_autofree char *url = NULL;

  G_OBJECT_CLASS (clarify_opencode_backend_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_return_if_fail (connection != NULL);

  self->base_url = clarify_opencode_base_url (connection);
  self->fallback_directory = g_strdup (clarify_connection_get_option (connection, "directory"));
  self->authorization = basic_authorization (self, connection);

  /* The stream must never time out on its own; the API calls must. */
  self->stream_session = clarify_opencode_session_new (0);
  self->api_session = clarify_opencode_session_new (API_TIMEOUT_S);

  url = stream_url (self);
  self->sse_client = clarify_stream_backend_open (CLARIFY_STREAM_BACKEND (self), self->stream_session, url);
  clarify_sse_client_set_stall_timeout (self->sse_client,
                                        clarify_opencode_stall_limit_ms (connection, DEFAULT_STALL_LIMIT_S));
  if (self->authorization != NULL)
    clarify_sse_client_set_header (self->sse_client, "Authorization", self->authorization);

  g_signal_connect (self, "request-added", G_CALLBACK (request_added_cb), NULL);
}

static void
clarify_opencode_backend_dispose (GObject *object)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (object);

  clarify_stream_backend_close (CLARIFY_STREAM_BACKEND (self));
  self->sse_client = NULL;
  clarify_opencode_round_cancel (&self->round);
  g_cancellable_cancel (self->titles_cancellable);
  clarify_http_clear_session (&self->api_session);
  clarify_http_clear_session (&self->stream_session);

  G_OBJECT_CLASS (clarify_opencode_backend_parent_class)->dispose (object);
}

static void
clarify_opencode_backend_finalize (GObject *object)
{
  ClarifyOpencodeBackend *self = CLARIFY_OPENCODE_BACKEND (object);

  g_clear_pointer (&self->tracker, clarify_opencode_tracker_free);
  g_clear_pointer (&self->directories, g_hash_table_unref);
  g_clear_pointer (&self->listed, g_hash_table_unref);
  g_clear_pointer (&self->session_titles, g_hash_table_unref);
  g_clear_object (&self->titles_cancellable);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->authorization, clarify_secret_free);
  g_clear_pointer (&self->fallback_directory, g_free);

  G_OBJECT_CLASS (clarify_opencode_backend_parent_class)->finalize (object);
}

static void
clarify_opencode_backend_class_init (ClarifyOpencodeBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);
  ClarifyStreamBackendClass *stream_class = CLARIFY_STREAM_BACKEND_CLASS (klass);

  object_class->constructed = clarify_opencode_backend_constructed;
  object_class->dispose = clarify_opencode_backend_dispose;
  object_class->finalize = clarify_opencode_backend_finalize;

  backend_class->stop = clarify_opencode_backend_stop;
  backend_class->deliver_async = clarify_opencode_backend_deliver_async;
  backend_class->save_delivery = clarify_opencode_save_delivery;
  backend_class->restore_delivery = clarify_opencode_restore_delivery;
  backend_class->resync = clarify_opencode_backend_resync;

  stream_class->event = clarify_opencode_backend_event;
  stream_class->connected = clarify_opencode_backend_connected;
  stream_class->stream_state = clarify_opencode_backend_stream_state;

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
clarify_opencode_backend_init (ClarifyOpencodeBackend *self)
{
  self->tracker = clarify_opencode_tracker_new (CLARIFY_BACKEND (self));
  self->directories = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->session_titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->titles_cancellable = g_cancellable_new ();
}

ClarifyBackend *
clarify_opencode_backend_new (ClarifyConnection *connection)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);

  return g_object_new (CLARIFY_TYPE_OPENCODE_BACKEND, "connection", connection, NULL);
}

ClarifySseClient *
clarify_opencode_backend_get_sse_client (ClarifyOpencodeBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPENCODE_BACKEND (self), NULL);

  return self->sse_client;
}

gboolean
clarify_opencode_backend_is_fallback (ClarifyOpencodeBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPENCODE_BACKEND (self), FALSE);

  return self->fallback;
}

/* ---------------------------------------------------------------------- */
/* Discovery: `opencode serve` listens on 4096 unless told otherwise, and
 * GET /global/health answers {"healthy":true,"version":"…"}. Unknown
 * paths answer 200 with the web UI, so the body must say it. */

static gboolean
recognise_opencode (guint       status,
                    JsonObject *body)
{
  return status == 200 && body != NULL &&
         json_object_get_boolean_member_with_default (body, "healthy", FALSE) &&
         json_object_has_member (body, "version");
}

const ClarifyBackendProbe clarify_opencode_backend_probe = {
  "http", { 4096 }, "/global/health", recognise_opencode,
};
