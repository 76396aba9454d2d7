/* clarify-ag3ntum-api.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-ag3ntum-api.h"
#include "clarify-ag3ntum-codec.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-opencode-events.h"
#include "clarify-secret.h"

/* Log in again this long before the token runs out (it lasts 7 days). */
#define RELOGIN_MARGIN_S 600

static SoupMessage *
api_message_new (gpointer    owner,
                 const char *method,
                 const char *path,
                 const char *body)
{
  ClarifyAg3ntumBackend *self = owner;
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

  clarify_ag3ntum_update_timer (self);
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
    g_message ("Connection “%s”: login failed: %s", clarify_ag3ntum_connection_name (self), error->message);

  for (guint i = 0; i < waiters->len; i++)
    {
      GTask *task = waiters->pdata[i];

      if (token != NULL)
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, g_error_copy (error));
    }
}

void
clarify_ag3ntum_login_async (ClarifyAg3ntumBackend *self,
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
                                 clarify_ag3ntum_connection_name (self));
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

gboolean
clarify_ag3ntum_login_finish (ClarifyAg3ntumBackend  *self,
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
  clarify_ag3ntum_login_async (self, NULL, NULL, NULL);

  return G_SOURCE_REMOVE;
}

/* One timer, only while logged in and some session is watched. */
void
clarify_ag3ntum_update_timer (ClarifyAg3ntumBackend *self)
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

static SoupSession *
api_session (gpointer owner)
{
  return CLARIFY_AG3NTUM_BACKEND (owner)->api_session;
}

static gboolean
has_no_token (gpointer owner)
{
  return CLARIFY_AG3NTUM_BACKEND (owner)->token == NULL;
}

static void
api_login_async (gpointer             owner,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  clarify_ag3ntum_login_async (owner, cancellable, callback, user_data);
}

static gboolean
api_login_finish (gpointer       owner,
                  GAsyncResult  *result,
                  GError       **error)
{
  return clarify_ag3ntum_login_finish (owner, result, error);
}

static const ClarifyApiLogin api_login = {
  .session = api_session,
  .message_new = api_message_new,
  .must_log_in = has_no_token,
  .login_async = api_login_async,
  .login_finish = api_login_finish,
};

void
clarify_ag3ntum_api_call_async (ClarifyAg3ntumBackend *self,
                                const char            *method,
                                const char            *path,
                                const char            *body,
                                GCancellable          *cancellable,
                                GAsyncReadyCallback    callback,
                                gpointer               user_data)
{
  clarify_api_call_async (self, &api_login, method, path, body, cancellable, callback, user_data);
}

char *
clarify_ag3ntum_session_path (const char *session_id,
                              const char *tail)
{
  g_autofree char *escaped = g_uri_escape_string (session_id, NULL, FALSE);

  return g_strconcat ("/api/v1/sessions/", escaped, tail, NULL);
}
