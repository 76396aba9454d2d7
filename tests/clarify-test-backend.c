/* clarify-test-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-test-backend.h"

struct _ClarifyTestBackend
{
  ClarifyBackend   parent_instance;

  GPtrArray       *delivered;   /* ClarifyResponse */
  GQueue           held;        /* GTask, oldest first */
  ClarifyError     fail_code;
  guint            fail_times;
  guint            n_attempts;
  guint            n_finished;
  guint            n_resyncs;
  gboolean         hold;
};

G_DEFINE_FINAL_TYPE (ClarifyTestBackend, clarify_test_backend, CLARIFY_TYPE_BACKEND)

/* The caller of one delivery: the test's own callback runs first, so that
 * n_finished counts only results the caller has seen. */
typedef struct
{
  GAsyncReadyCallback callback;
  gpointer            user_data;
} Caller;

static void
clarify_test_backend_start (ClarifyBackend *backend)
{
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
clarify_test_backend_stop (ClarifyBackend *backend)
{
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_IDLE, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
delivery_finished_cb (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Caller *caller = user_data;

  if (caller->callback != NULL)
    caller->callback (source, result, caller->user_data);
  CLARIFY_TEST_BACKEND (source)->n_finished++;
  g_free (caller);
}

static void
complete (ClarifyTestBackend *self,
          GTask              *task)
{
  ClarifyResponse *response = g_task_get_task_data (task);

  if (self->fail_times > 0)
    {
      self->fail_times--;
      g_task_return_new_error (task, CLARIFY_ERROR, self->fail_code, "Refused by the test (%d)", self->fail_code);
      return;
    }

  g_ptr_array_add (self->delivered, g_object_ref (response));
  g_task_return_boolean (task, TRUE);
}

static void
clarify_test_backend_deliver_async (ClarifyBackend      *backend,
                                    ClarifyRequest      *request,
                                    ClarifyResponse     *response,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  ClarifyTestBackend *self = CLARIFY_TEST_BACKEND (backend);
  Caller *caller = g_new0 (Caller, 1);
  g_autoptr(GTask) task = NULL;

  caller->callback = callback;
  caller->user_data = user_data;
  task = g_task_new (backend, cancellable, delivery_finished_cb, caller);
  g_task_set_task_data (task, g_object_ref (response), g_object_unref);

  self->n_attempts++;
  if (self->hold)
    g_queue_push_tail (&self->held, g_steal_pointer (&task));
  else
    complete (self, task);
}

static void
clarify_test_backend_finalize (GObject *object)
{
  ClarifyTestBackend *self = CLARIFY_TEST_BACKEND (object);

  /* A held task keeps the backend alive: none is left here. */
  g_clear_pointer (&self->delivered, g_ptr_array_unref);

  G_OBJECT_CLASS (clarify_test_backend_parent_class)->finalize (object);
}

static void
clarify_test_backend_resync (ClarifyBackend *backend)
{
  CLARIFY_TEST_BACKEND (backend)->n_resyncs++;
}

static void
clarify_test_backend_class_init (ClarifyTestBackendClass *klass)
{
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = clarify_test_backend_finalize;
  backend_class->start = clarify_test_backend_start;
  backend_class->stop = clarify_test_backend_stop;
  backend_class->deliver_async = clarify_test_backend_deliver_async;
  backend_class->resync = clarify_test_backend_resync;
}

static void
clarify_test_backend_init (ClarifyTestBackend *self)
{
  self->delivered = g_ptr_array_new_with_free_func (g_object_unref);
  g_queue_init (&self->held);
}

ClarifyBackend *
clarify_test_backend_new (const char *name)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new (name, "clarify", "http://127.0.0.1:9/events");

  return g_object_new (CLARIFY_TYPE_TEST_BACKEND, "connection", connection, NULL);
}

void
clarify_test_backend_fail_next (ClarifyTestBackend *self,
                                ClarifyError        code,
                                guint               times)
{
  self->fail_code = code;
  self->fail_times = times;
}

ClarifyResponse *
clarify_test_backend_get_response (ClarifyTestBackend *self)
{
  if (self->delivered->len == 0)
    return NULL;

  return g_ptr_array_index (self->delivered, self->delivered->len - 1);
}

guint
clarify_test_backend_get_n_attempts (ClarifyTestBackend *self)
{
  return self->n_attempts;
}

void
clarify_test_backend_set_hold (ClarifyTestBackend *self,
                               gboolean            hold)
{
  self->hold = hold;
}

guint
clarify_test_backend_get_n_held (ClarifyTestBackend *self)
{
  return g_queue_get_length (&self->held);
}

void
clarify_test_backend_release (ClarifyTestBackend *self)
{
  g_autoptr(GTask) task = g_queue_pop_head (&self->held);

  g_assert_nonnull (task);
  complete (self, task);
}

guint
clarify_test_backend_get_n_finished (ClarifyTestBackend *self)
{
  return self->n_finished;
}

GPtrArray *
clarify_test_backend_get_delivered (ClarifyTestBackend *self)
{
  return self->delivered;
}

guint
clarify_test_backend_count_delivered (ClarifyTestBackend *self,
                                      const char         *request_id)
{
  guint n = 0;

  for (guint i = 0; i < self->delivered->len; i++)
    {
      if (g_strcmp0 (clarify_response_get_request_id (g_ptr_array_index (self->delivered, i)), request_id) == 0)
        n++;
    }

  return n;
}

guint
clarify_test_backend_get_n_resyncs (ClarifyTestBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_TEST_BACKEND (self), 0);

  return self->n_resyncs;
}
