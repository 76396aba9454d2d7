/* clarify-ihub-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-ihub-backend.h"
#include "clarify-ihub-chat-private.h"
#include "clarify-json.h"
#include "clarify-normalize.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"

/* Longer than a slow agent takes to answer: a post given up on may have
 * been taken, and its retry would then meet "already answered". */
#define API_TIMEOUT_S 90
/* The server beats every 30 s. */
#define DEFAULT_STALL_LIMIT_S 90

typedef enum
{
  AUTH_NONE,
  AUTH_PASSWORD,
  AUTH_TOKEN,
} AuthMode;

struct _ClarifyIhubBackend
{
  ClarifyBackend  parent_instance;

  /* Without a timeout: streams, and POSTs that last as long as a turn. */
  SoupSession    *session;
  SoupSession    *api_session;
  SoupCookieJar  *cookies;
  GCancellable   *cancellable;
  GListStore     *chats;
  GPtrArray      *apps;

  char           *base_url;
  char           *username;
  char           *secret;
  AuthMode        auth;
  guint           stall_ms;
  gboolean        logged_in;
  gboolean        loaded;
};

/* Test: the list of apps, as the backend reads it first. */
const ClarifyProbeSpec clarify_ihub_probe = {
  "/api/apps", CLARIFY_PROBE_AUTH_BEARER, NULL, "application/json", NULL, NULL,
};

G_DEFINE_FINAL_TYPE (ClarifyIhubBackend, clarify_ihub_backend, CLARIFY_TYPE_BACKEND)

typedef struct
{
  char *chat_id;
} RequestData;

static void
request_data_free (RequestData *data)
{
  g_free (data->chat_id);
  g_free (data);
}

void
clarify_ihub_app_free (ClarifyIhubApp *app)
{
  g_free (app->id);
  g_free (app->name);
  g_free (app->description);
  g_free (app->preferred_model);
  g_free (app);
}

static const char *
connection_name (ClarifyIhubBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection != NULL ? clarify_connection_get_name (connection) : "?";
}

/* HTTP */

SoupSession *
clarify_ihub_backend_get_session (ClarifyIhubBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (self), NULL);

  return self->session;
}

guint
clarify_ihub_backend_get_stall_ms (ClarifyIhubBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (self), 0);

  return self->stall_ms;
}

SoupMessage *
clarify_ihub_backend_new_message (ClarifyIhubBackend *self,
                                  const char         *method,
                                  const char         *path,
                                  const char         *body)
{
  g_autofree char *url = NULL;
  SoupMessage *message;

  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (self), NULL);

  url = g_strconcat (self->base_url, path, NULL);
  if (g_str_equal (method, SOUP_METHOD_POST))
    message = clarify_opencode_post_new (url, body);
  else
    message = soup_message_new (method, url);

  /* The header wins over the cookie on the server, as for the web client. */
  if (self->auth == AUTH_TOKEN && self->secret != NULL)
    {
      g_autofree char *value = g_strconcat ("Bearer ", self->secret, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", value);
      explicit_bzero (value, strlen (value));
    }

  return message;
}

/* Login: POST /api/auth/local/login puts the authToken cookie in our jar. */

gboolean
clarify_ihub_backend_can_log_in (ClarifyIhubBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (self), FALSE);

  return self->auth == AUTH_PASSWORD;
}

static void
login_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyIhubBackend *self = g_task_get_source_object (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = clarify_opencode_call_finish (result, &error);
  if (node == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_message ("Connection “%s”: login failed: %s", connection_name (self), error->message);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->logged_in = TRUE;
  g_task_return_boolean (task, TRUE);
}

void
clarify_ihub_backend_log_in_async (ClarifyIhubBackend  *self,
                                   gboolean             force,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(SoupMessage) message = NULL;
  char *body;

  g_return_if_fail (CLARIFY_IS_IHUB_BACKEND (self));

  if (self->auth != AUTH_PASSWORD || (self->logged_in && !force))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (self->secret == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_AUTH, "no password is stored");
      return;
    }

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "username");
  json_builder_add_string_value (builder, self->username);
  json_builder_set_member_name (builder, "password");
  json_builder_add_string_value (builder, self->secret);
  json_builder_end_object (builder);
  body = clarify_json_builder_to_string (builder);
  message = clarify_ihub_backend_new_message (self, SOUP_METHOD_POST, "/api/auth/local/login", body);
  clarify_secret_free (body);

  self->logged_in = FALSE;
  clarify_opencode_call_async (self->api_session, message, cancellable, login_cb, g_steal_pointer (&task));
}

gboolean
clarify_ihub_backend_log_in_finish (ClarifyIhubBackend  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Apps */

static GPtrArray *
parse_apps (JsonNode *node)
{
  GPtrArray *apps = g_ptr_array_new_with_free_func ((GDestroyNotify) clarify_ihub_app_free);
  JsonArray *array = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      ClarifyIhubApp *app;

      if (clarify_json_get_string_member (object, "id") == NULL)
        continue;

      app = g_new0 (ClarifyIhubApp, 1);
      app->id = g_strdup (clarify_json_get_string_member (object, "id"));
      /* Names and descriptions are {"en":…,"de":…}; the user's language first. */
      app->name = clarify_localized_member (object, "name", NULL);
      if (app->name == NULL)
        app->name = g_strdup (app->id);
      app->description = clarify_localized_member (object, "description", NULL);
      app->preferred_model = g_strdup (clarify_json_get_string_member (object, "preferredModel"));
      g_ptr_array_add (apps, app);
    }

  return apps;
}

static void
apps_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyIhubBackend *self = g_task_get_source_object (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = clarify_opencode_call_finish (result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_clear_pointer (&self->apps, g_ptr_array_unref);
  self->apps = parse_apps (node);
  g_task_return_pointer (task, g_ptr_array_ref (self->apps), (GDestroyNotify) g_ptr_array_unref);
}

static void
apps_login_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (object);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!clarify_ihub_backend_log_in_finish (self, result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  cancellable = g_task_get_cancellable (task);
  message = clarify_ihub_backend_new_message (self, SOUP_METHOD_GET, "/api/apps", NULL);
  clarify_opencode_call_async (self->api_session, message, cancellable, apps_cb, g_steal_pointer (&task));
}

void
clarify_ihub_backend_list_apps_async (ClarifyIhubBackend  *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (CLARIFY_IS_IHUB_BACKEND (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_ihub_backend_list_apps_async);
  clarify_ihub_backend_log_in_async (self, FALSE, cancellable, apps_login_cb, task);
}

GPtrArray *
clarify_ihub_backend_list_apps_finish (ClarifyIhubBackend  *self,
                                       GAsyncResult        *result,
                                       GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Chats */

GListModel *
clarify_ihub_backend_get_chats (ClarifyIhubBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (self), NULL);

  return G_LIST_MODEL (self->chats);
}

ClarifyIhubChat *
clarify_ihub_backend_lookup_chat (ClarifyIhubBackend *self,
                                  const char         *chat_id)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (self), NULL);

  for (guint i = 0; chat_id != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->chats)); i++)
    {
      g_autoptr(ClarifyIhubChat) chat = g_list_model_get_item (G_LIST_MODEL (self->chats), i);

      if (g_strcmp0 (clarify_ihub_chat_get_id (chat), chat_id) == 0)
        return chat;
    }

  return NULL;
}

static void
apply_settings (ClarifyIhubBackend *self,
                ClarifyIhubChat    *chat)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  const char *language = clarify_connection_get_option (connection, "language");

  if (language != NULL && *language != '\0')
    clarify_ihub_chat_set_language (chat, language);

  for (guint i = 0; self->apps != NULL && i < self->apps->len; i++)
    {
      ClarifyIhubApp *app = g_ptr_array_index (self->apps, i);

      if (g_strcmp0 (app->id, clarify_ihub_chat_get_app_id (chat)) == 0 &&
          clarify_ihub_chat_get_model_id (chat) == NULL)
        clarify_ihub_chat_set_model_id (chat, app->preferred_model);
    }
}

static ClarifyIhubChat *
load_chat (ClarifyIhubBackend *self,
           const char         *chat_id)
{
  g_autofree char *dir = clarify_ihub_chat_dup_dir (connection_name (self));
  g_autofree char *name = g_strconcat (chat_id, ".json", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  ClarifyIhubChat *chat;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;

  chat = clarify_ihub_chat_new_from_file (self, path, &error);
  if (chat == NULL)
    g_message ("Connection “%s”: cannot read a kept conversation: %s", connection_name (self), error->message);
  return chat;
}

ClarifyIhubChat *
clarify_ihub_backend_open_chat (ClarifyIhubBackend *self,
                                const char         *app_id,
                                const char         *chat_id)
{
  g_autoptr(ClarifyIhubChat) chat = NULL;
  ClarifyIhubChat *known;

  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (self), NULL);
  g_return_val_if_fail (app_id != NULL || chat_id != NULL, NULL);

  /* Both go into URLs as path segments: "." or ".." would change them. */
  if ((app_id != NULL && !clarify_http_can_be_segment (app_id)) ||
      (chat_id != NULL && !clarify_http_can_be_segment (chat_id)))
    {
      g_message ("Connection “%s”: refused the app “%s” and conversation “%s”: an id cannot be “”, “.” or “..”",
                 connection_name (self), app_id ? app_id : "(none)", chat_id ? chat_id : "(none)");
      return NULL;
    }

  known = clarify_ihub_backend_lookup_chat (self, chat_id);
  if (known != NULL)
    return known;

  /* A chat id that names no file starts a conversation under that id. */
  /* A file name too: no "/" and not hidden. */
  if (chat_id != NULL && strchr (chat_id, '/') == NULL && chat_id[0] != '.')
    chat = load_chat (self, chat_id);
  if (chat == NULL && app_id == NULL)
    return NULL;
  if (chat == NULL)
    chat = clarify_ihub_chat_new (self, app_id, chat_id);

  apply_settings (self, chat);
  g_list_store_append (self->chats, chat);
  return chat;
}

/* The conversations of earlier runs, each with its question if it had one. */
static void
load_chats (ClarifyIhubBackend *self)
{
  g_autofree char *dir_path = clarify_ihub_chat_dup_dir (connection_name (self));
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (self->loaded)
    return;
  self->loaded = TRUE;

  dir = g_dir_open (dir_path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *chat_id = NULL;
      ClarifyIhubChat *chat;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      chat_id = g_strndup (name, strlen (name) - strlen (".json"));
      chat = clarify_ihub_backend_open_chat (self, NULL, chat_id);
      if (chat != NULL)
        clarify_ihub_chat_ask_again (chat);
    }
}

void
clarify_ihub_backend_add_clarification (ClarifyIhubBackend *self,
                                        ClarifyIhubChat    *chat,
                                        ClarifyRequest     *request)
{
  RequestData *data = g_new0 (RequestData, 1);
  ClarifyIhubApp *app = NULL;

  g_return_if_fail (CLARIFY_IS_IHUB_BACKEND (self));

  for (guint i = 0; self->apps != NULL && i < self->apps->len; i++)
    {
      if (g_strcmp0 (((ClarifyIhubApp *) g_ptr_array_index (self->apps, i))->id,
                     clarify_ihub_chat_get_app_id (chat)) == 0)
        app = g_ptr_array_index (self->apps, i);
    }

  data->chat_id = g_strdup (clarify_ihub_chat_get_id (chat));
  clarify_request_set_backend_data (request, data, (GDestroyNotify) request_data_free);
  clarify_request_set_project (request, app != NULL ? app->name : clarify_ihub_chat_get_app_id (chat));
  clarify_backend_add_request (CLARIFY_BACKEND (self), request);
}

/* The one place that withdraws: the conversation moved on without the answer. */
void
clarify_ihub_backend_drop_clarification (ClarifyIhubBackend *self,
                                         const char         *request_id)
{
  g_return_if_fail (CLARIFY_IS_IHUB_BACKEND (self));

  clarify_backend_withdraw_request (CLARIFY_BACKEND (self), request_id,
                                    CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
}

/* Backend */

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (object);
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyBackendNote note = CLARIFY_BACKEND_NOTE_NONE;

  apps = clarify_ihub_backend_list_apps_finish (self, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (apps == NULL)
    {
      if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH))
        note = self->auth == AUTH_PASSWORD && !self->logged_in ? CLARIFY_BACKEND_NOTE_LOGIN_FAILED
                                                               : CLARIFY_BACKEND_NOTE_ACCESS_DENIED;
      clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_FAILED, note, NULL,
                                 error->message);
      return;
    }

  clarify_backend_set_state (CLARIFY_BACKEND (self), CLARIFY_CONNECTION_STATE_CONNECTED,
                             CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
  load_chats (self);
}

static void
clarify_ihub_backend_start (ClarifyBackend *backend)
{
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (backend);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTING,
                             self->auth == AUTH_PASSWORD ? CLARIFY_BACKEND_NOTE_LOGGING_IN : CLARIFY_BACKEND_NOTE_NONE,
                             NULL, NULL);
  /* There is no stream to watch: listing the apps shows that we get in. */
  clarify_ihub_backend_list_apps_async (self, self->cancellable, start_cb, NULL);
}

static void
clarify_ihub_backend_stop (ClarifyBackend *backend)
{
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (backend);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->chats)); i++)
    {
      g_autoptr(ClarifyIhubChat) chat = g_list_model_get_item (G_LIST_MODEL (self->chats), i);

      clarify_ihub_chat_shutdown (chat);
    }
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_IDLE, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
answered_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (clarify_ihub_chat_answer_finish (CLARIFY_IHUB_CHAT (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
clarify_ihub_backend_deliver_async (ClarifyBackend      *backend,
                                    ClarifyRequest      *request,
                                    ClarifyResponse     *response,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (backend);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  RequestData *data = clarify_request_get_backend_data (request);
  ClarifyIhubChat *chat = data != NULL ? clarify_ihub_backend_lookup_chat (self, data->chat_id) : NULL;

  g_task_set_source_tag (task, clarify_ihub_backend_deliver_async);

  if (chat == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_GONE, "the conversation is gone");
      return;
    }

  /* iHub cannot be told "no": the question stays in the conversation. */
  if (clarify_response_get_outcome (response) == CLARIFY_OUTCOME_CANCELLED ||
      clarify_response_get_outcome (response) == CLARIFY_OUTCOME_TIMED_OUT)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  clarify_ihub_chat_answer_async (chat, request, response, cancellable, answered_cb, g_steal_pointer (&task));
}

static void
clarify_ihub_backend_constructed (GObject *object)
{
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (object);
  ClarifyConnection *connection;
  const char *auth;
  const char *username;

  G_OBJECT_CLASS (clarify_ihub_backend_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_return_if_fail (connection != NULL);

  /* A deployment base path ("https://host/ihub/") prefixes every path. */
  self->base_url = clarify_opencode_base_url (connection);
  self->stall_ms = clarify_opencode_stall_limit_ms (connection, DEFAULT_STALL_LIMIT_S);

  auth = clarify_connection_get_option (connection, "auth");
  username = clarify_connection_get_option (connection, "username");
  if (g_strcmp0 (auth, "token") == 0)
    self->auth = AUTH_TOKEN;
  else if (g_strcmp0 (auth, "none") != 0 && username != NULL && *username != '\0')
    self->auth = AUTH_PASSWORD;
  else
    self->auth = AUTH_NONE;
  self->username = g_strdup (username);

  if (self->auth != AUTH_NONE)
    {
      g_autoptr(GError) error = NULL;

      self->secret = clarify_backend_dup_secret (CLARIFY_BACKEND (self), &error);
      if (error != NULL)
        g_message ("Connection “%s”: cannot read its secret: %s", connection_name (self), error->message);
    }

  self->cookies = soup_cookie_jar_new ();
  self->session = clarify_opencode_session_new (0);
  self->api_session = clarify_opencode_session_new (API_TIMEOUT_S);
  soup_session_add_feature (self->session, SOUP_SESSION_FEATURE (self->cookies));
  soup_session_add_feature (self->api_session, SOUP_SESSION_FEATURE (self->cookies));
}

static void
clarify_ihub_backend_dispose (GObject *object)
{
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  for (guint i = 0; self->chats != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->chats)); i++)
    {
      g_autoptr(ClarifyIhubChat) chat = g_list_model_get_item (G_LIST_MODEL (self->chats), i);

      clarify_ihub_chat_shutdown (chat);
    }
  g_clear_object (&self->chats);
  clarify_http_clear_session (&self->session);
  clarify_http_clear_session (&self->api_session);
  g_clear_object (&self->cookies);
  g_clear_pointer (&self->apps, g_ptr_array_unref);

  G_OBJECT_CLASS (clarify_ihub_backend_parent_class)->dispose (object);
}

static void
clarify_ihub_backend_finalize (GObject *object)
{
  ClarifyIhubBackend *self = CLARIFY_IHUB_BACKEND (object);

  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->username, g_free);
  g_clear_pointer (&self->secret, clarify_secret_free);

  G_OBJECT_CLASS (clarify_ihub_backend_parent_class)->finalize (object);
}

static void
clarify_ihub_backend_class_init (ClarifyIhubBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  object_class->constructed = clarify_ihub_backend_constructed;
  object_class->dispose = clarify_ihub_backend_dispose;
  object_class->finalize = clarify_ihub_backend_finalize;

  backend_class->start = clarify_ihub_backend_start;
  backend_class->stop = clarify_ihub_backend_stop;
  backend_class->deliver_async = clarify_ihub_backend_deliver_async;
}

static void
clarify_ihub_backend_init (ClarifyIhubBackend *self)
{
  self->chats = g_list_store_new (CLARIFY_TYPE_IHUB_CHAT);
}

ClarifyBackend *
clarify_ihub_backend_new (ClarifyConnection *connection)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);

  return g_object_new (CLARIFY_TYPE_IHUB_BACKEND, "connection", connection, NULL);
}

/* ---------------------------------------------------------------------- */
/* Discovery: iHub Apps listens on 3000, and GET /api/health answers
 * {"status":"OK",…,"basePathConfig":{…}} without a login. */

static gboolean
recognise_ihub (guint       status,
                JsonObject *body)
{
  return status == 200 && body != NULL &&
         g_strcmp0 (json_object_get_string_member_with_default (body, "status", NULL), "OK") == 0 &&
         json_object_has_member (body, "basePathConfig");
}

const ClarifyBackendProbe clarify_ihub_backend_probe = {
  "http", { 3000 }, "/api/health", recognise_ihub,
};
