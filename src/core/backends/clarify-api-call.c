/* clarify-api-call.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-api-call.h"
#include "clarify-error.h"
#include "clarify-opencode-events.h"

typedef struct
{
  const ClarifyApiLogin *login;
  char                  *method;
  char                  *path;
  char                  *body;
  gboolean               retried;
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
  ApiCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!call->login->login_finish (object, result, &error))
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
  gpointer owner = g_task_get_source_object (task);
  ApiCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  node = clarify_opencode_call_finish (result, &error);
  if (node != NULL)
    {
      g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
      return;
    }

  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH) && !call->retried &&
      (call->login->can_log_in == NULL || call->login->can_log_in (owner)))
    {
      GCancellable *cancellable = g_task_get_cancellable (task);

      call->retried = TRUE;
      call->login->login_async (owner, cancellable, api_login_cb, g_steal_pointer (&task));
      return;
    }

  g_task_return_error (task, g_steal_pointer (&error));
}

static void
api_send (GTask *task)
{
  gpointer owner = g_task_get_source_object (task);
  ApiCall *call = g_task_get_task_data (task);
  g_autoptr(SoupMessage) message = NULL;

  if (!call->retried && call->login->must_log_in != NULL && call->login->must_log_in (owner))
    {
      call->retried = TRUE;
      call->login->login_async (owner, g_task_get_cancellable (task), api_login_cb, task);
      return;
    }

  message = call->login->message_new (owner, call->method, call->path, call->body);
  clarify_opencode_call_async (call->login->session (owner), message, g_task_get_cancellable (task), api_cb, task);
}

void
clarify_api_call_async (gpointer               owner,
                        const ClarifyApiLogin *login,
                        const char            *method,
                        const char            *path,
                        const char            *body,
                        GCancellable          *cancellable,
                        GAsyncReadyCallback    callback,
                        gpointer               user_data)
{
  GTask *task = g_task_new (owner, cancellable, callback, user_data);
  ApiCall *call = g_new0 (ApiCall, 1);

  call->login = login;
  call->method = g_strdup (method);
  call->path = g_strdup (path);
  call->body = g_strdup (body);
  g_task_set_task_data (task, call, (GDestroyNotify) api_call_free);
  api_send (task);
}

JsonNode *
clarify_api_call_finish (GAsyncResult  *result,
                         GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
