/* clarify-local-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-local-backend.h"

/* One caller waiting for its answer. */
typedef struct
{
  ClarifyLocalBackend *backend;
  char                *request_id;
  GTask               *task;
  GCancellable        *cancellable;
  gulong               cancelled_id;
  guint                cancelled_idle_id;
} Waiter;

typedef struct
{
  /* request id → Waiter */
  GHashTable *waiters;
  guint       last_id;
} ClarifyLocalBackendPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ClarifyLocalBackend, clarify_local_backend, CLARIFY_TYPE_BACKEND)

static void
waiter_free (Waiter *waiter)
{
  g_clear_handle_id (&waiter->cancelled_idle_id, g_source_remove);
  if (waiter->cancellable != NULL && waiter->cancelled_id != 0)
    g_cancellable_disconnect (waiter->cancellable, waiter->cancelled_id);
  g_clear_object (&waiter->cancellable);
  g_clear_object (&waiter->task);
  g_free (waiter->request_id);
  g_free (waiter);
}

/* Ends @request_id's wait: with @response, or with @error. A @withdraw_reason
 * closes the dialog with a notice; with NONE the dialog has already
 * answered and the request is merely forgotten. */
static void
clarify_local_backend_finish_waiter (ClarifyLocalBackend *self,
                                     const char          *request_id,
                                     ClarifyResponse     *response,
                                     GError              *error,
                                     ClarifyEndReason     withdraw_reason)
{
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);
  g_autofree char *key = NULL;
  g_autoptr(GTask) task = NULL;
  Waiter *waiter = NULL;

  if (!g_hash_table_steal_extended (priv->waiters, request_id, (gpointer *) &key, (gpointer *) &waiter))
    {
      g_clear_error (&error);
      return;
    }

  task = g_steal_pointer (&waiter->task);
  waiter_free (waiter);

  if (withdraw_reason != CLARIFY_END_REASON_NONE)
    clarify_backend_withdraw_request (CLARIFY_BACKEND (self), key, withdraw_reason, NULL);
  else
    clarify_backend_forget_request (CLARIFY_BACKEND (self), key);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_object_ref (response), g_object_unref);
}

static gboolean
clarify_local_backend_cancelled_idle_cb (gpointer data)
{
  Waiter *waiter = data;
  g_autofree char *request_id = g_strdup (waiter->request_id);

  waiter->cancelled_idle_id = 0;

  clarify_local_backend_finish_waiter (waiter->backend, request_id, NULL,
                                       g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                            "The caller went away"),
                                       CLARIFY_END_REASON_CALLER_LEFT);

  return G_SOURCE_REMOVE;
}

static void
clarify_local_backend_cancelled_cb (GCancellable *cancellable,
                                    gpointer      data)
{
  Waiter *waiter = data;

  /* Deferred: a GCancellable handler must not disconnect itself. */
  if (waiter->cancelled_idle_id == 0)
    waiter->cancelled_idle_id = g_idle_add (clarify_local_backend_cancelled_idle_cb, waiter);
}

static void
clarify_local_backend_fail_all (ClarifyLocalBackend *self,
                                const char          *message,
                                ClarifyEndReason     withdraw_reason)
{
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);
  g_autofree gpointer *ids = NULL;
  guint n_ids = 0;

  ids = g_hash_table_get_keys_as_array (priv->waiters, &n_ids);
  for (guint i = 0; i < n_ids; i++)
    {
      g_autofree char *id = g_strdup (ids[i]);

      clarify_local_backend_finish_waiter (self, id, NULL,
                                           g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CLOSED, message),
                                           withdraw_reason);
    }
}

static void
clarify_local_backend_stop (ClarifyBackend *backend)
{
  clarify_local_backend_fail_all (CLARIFY_LOCAL_BACKEND (backend),
                                  "Clarify stopped listening",
                                  CLARIFY_END_REASON_STOPPED_LISTENING);
}

static void
clarify_local_backend_deliver_async (ClarifyBackend      *backend,
                                     ClarifyRequest      *request,
                                     ClarifyResponse     *response,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  ClarifyLocalBackend *self = CLARIFY_LOCAL_BACKEND (backend);
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);
  g_autoptr(GTask) task = NULL;
  const char *request_id = clarify_request_get_id (request);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_local_backend_deliver_async);

  if (!g_hash_table_contains (priv->waiters, request_id))
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_GONE,
                               "Nobody waits for an answer to %s any more", request_id);
      return;
    }

  clarify_local_backend_finish_waiter (self, request_id, response, NULL, CLARIFY_END_REASON_NONE);
  g_task_return_boolean (task, TRUE);
}

static void
clarify_local_backend_dispose (GObject *object)
{
  ClarifyLocalBackend *self = CLARIFY_LOCAL_BACKEND (object);

  clarify_local_backend_fail_all (self, "Clarify stopped listening", CLARIFY_END_REASON_NONE);

  G_OBJECT_CLASS (clarify_local_backend_parent_class)->dispose (object);
}

static void
clarify_local_backend_finalize (GObject *object)
{
  ClarifyLocalBackend *self = CLARIFY_LOCAL_BACKEND (object);
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);

  g_clear_pointer (&priv->waiters, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_local_backend_parent_class)->finalize (object);
}

static void
clarify_local_backend_class_init (ClarifyLocalBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  object_class->dispose = clarify_local_backend_dispose;
  object_class->finalize = clarify_local_backend_finalize;

  backend_class->stop = clarify_local_backend_stop;
  backend_class->deliver_async = clarify_local_backend_deliver_async;
}

static void
clarify_local_backend_init (ClarifyLocalBackend *self)
{
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);

  priv->waiters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) waiter_free);
}

char *
clarify_local_backend_next_request_id (ClarifyLocalBackend *self)
{
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);
  ClarifyConnection *connection;
  const char *kind = NULL;

  g_return_val_if_fail (CLARIFY_IS_LOCAL_BACKEND (self), NULL);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  if (connection != NULL)
    kind = clarify_connection_get_kind (connection);

  for (;;)
    {
      char *id = g_strdup_printf ("%s-%u", kind != NULL ? kind : "local", ++priv->last_id);

      if (!g_hash_table_contains (priv->waiters, id) &&
          clarify_backend_lookup_request (CLARIFY_BACKEND (self), id) == NULL)
        return id;

      g_free (id);
    }
}

void
clarify_local_backend_ask_async (ClarifyLocalBackend *self,
                                 ClarifyRequest      *request,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  const char *request_id;
  Waiter *waiter;

  g_return_if_fail (CLARIFY_IS_LOCAL_BACKEND (self));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_local_backend_ask_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  request_id = clarify_request_get_id (request);
  if (g_hash_table_contains (priv->waiters, request_id) ||
      clarify_backend_lookup_request (CLARIFY_BACKEND (self), request_id) != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_EXISTS,
                               "A request with the id “%s” is already pending", request_id);
      return;
    }

  waiter = g_new0 (Waiter, 1);
  waiter->backend = self;
  waiter->request_id = g_strdup (request_id);
  waiter->task = g_steal_pointer (&task);
  g_hash_table_insert (priv->waiters, g_strdup (request_id), waiter);

  if (cancellable != NULL)
    {
      waiter->cancellable = g_object_ref (cancellable);
      waiter->cancelled_id = g_cancellable_connect (cancellable,
                                                    G_CALLBACK (clarify_local_backend_cancelled_cb),
                                                    waiter, NULL);
    }

  /* Last: a ::request-added handler may answer at once, which frees @waiter.
   * Past the inbox's caps, the caller hears CLARIFY_ERROR_BUSY. */
  if (!clarify_backend_add_request_full (CLARIFY_BACKEND (self), request, &error))
    clarify_local_backend_finish_waiter (self, request_id, NULL, g_steal_pointer (&error),
                                         CLARIFY_END_REASON_NONE);
}

ClarifyResponse *
clarify_local_backend_ask_finish (ClarifyLocalBackend  *self,
                                  GAsyncResult         *result,
                                  GError              **error)
{
  g_return_val_if_fail (CLARIFY_IS_LOCAL_BACKEND (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
clarify_local_backend_withdraw (ClarifyLocalBackend *self,
                                const char          *request_id,
                                ClarifyEndReason     reason)
{
  g_return_if_fail (CLARIFY_IS_LOCAL_BACKEND (self));
  g_return_if_fail (request_id != NULL);
  g_return_if_fail (reason != CLARIFY_END_REASON_NONE);

  clarify_local_backend_finish_waiter (self, request_id, NULL,
                                       g_error_new (CLARIFY_ERROR, CLARIFY_ERROR_GONE,
                                                    "%s was answered elsewhere", request_id),
                                       reason);
}

guint
clarify_local_backend_get_n_waiting (ClarifyLocalBackend *self)
{
  ClarifyLocalBackendPrivate *priv = clarify_local_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_LOCAL_BACKEND (self), 0);

  return g_hash_table_size (priv->waiters);
}
