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

  ClarifyResponse *response;
  ClarifyError     fail_code;
  guint            fail_times;
  guint            n_attempts;
};

G_DEFINE_FINAL_TYPE (ClarifyTestBackend, clarify_test_backend, CLARIFY_TYPE_BACKEND)

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
clarify_test_backend_deliver_async (ClarifyBackend      *backend,
                                    ClarifyRequest      *request,
                                    ClarifyResponse     *response,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  ClarifyTestBackend *self = CLARIFY_TEST_BACKEND (backend);
  g_autoptr(GTask) task = g_task_new (backend, cancellable, callback, user_data);

  self->n_attempts++;
  if (self->fail_times > 0)
    {
      self->fail_times--;
      g_task_return_new_error (task, CLARIFY_ERROR, self->fail_code, "Refused by the test (%d)", self->fail_code);
      return;
    }

  g_set_object (&self->response, response);
  g_task_return_boolean (task, TRUE);
}

static void
clarify_test_backend_finalize (GObject *object)
{
  g_clear_object (&CLARIFY_TEST_BACKEND (object)->response);

  G_OBJECT_CLASS (clarify_test_backend_parent_class)->finalize (object);
}

static void
clarify_test_backend_class_init (ClarifyTestBackendClass *klass)
{
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = clarify_test_backend_finalize;
  backend_class->start = clarify_test_backend_start;
  backend_class->stop = clarify_test_backend_stop;
  backend_class->deliver_async = clarify_test_backend_deliver_async;
}

static void
clarify_test_backend_init (ClarifyTestBackend *self)
{
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
  return self->response;
}

guint
clarify_test_backend_get_n_attempts (ClarifyTestBackend *self)
{
  return self->n_attempts;
}
