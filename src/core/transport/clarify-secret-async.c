/* clarify-secret-async.c: the secret store without blocking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <libsecret/secret.h>

#include "clarify-secret-private.h"
#include "clarify-secret.h"

/* libsecret's own async calls, on the caller's main context; without a
 * Secret Service the same fallback as the blocking calls, and the same
 * deadline: past it the caller gets TIMED_OUT.
 *
 * Cancelled by its caller or past its deadline, a call answers at once and
 * libsecret's late answer is dropped. libsecret's call is cancelled too,
 * except where that hangs (clarify_secret_new_call_cancellable()). All on
 * the main thread: callers cancel there. */

typedef struct
{
  char         *key;
  char         *label;
  char         *secret;
  GCancellable *call_cancellable;  /* libsecret's; NULL in a portal */
  GCancellable *caller_cancellable;
  gulong        caller_handler;
  guint         deadline_id;
  gboolean      started;   /* libsecret has the call */
  gboolean      answered;  /* the caller has its answer */
} SecretCall;

static void
secret_call_free (SecretCall *call)
{
  g_clear_handle_id (&call->deadline_id, g_source_remove);
  if (call->caller_cancellable != NULL)
    g_cancellable_disconnect (call->caller_cancellable, call->caller_handler);
  g_clear_object (&call->caller_cancellable);
  g_clear_object (&call->call_cancellable);
  g_free (call->key);
  g_free (call->label);
  clarify_secret_free (call->secret);
  g_free (call);
}

static void first_call_finished (void);

static gboolean
deadline_cb (gpointer data)
{
  GTask *task = data;
  SecretCall *call = g_task_get_task_data (task);
  GError *error = NULL;

  call->deadline_id = 0;
  /* A first call that never ends would hold the others forever. */
  if (call->started)
    first_call_finished ();
  if (call->answered)
    return G_SOURCE_REMOVE;

  call->answered = TRUE;
  clarify_secret_set_no_answer_error (&error);
  g_task_return_error (task, error);
  /* A write must not land after the caller heard "not stored". */
  if (call->call_cancellable != NULL)
    g_cancellable_cancel (call->call_cancellable);

  return G_SOURCE_REMOVE;
}

static void
caller_cancelled_cb (GCancellable *caller,
                     GTask        *task)
{
  SecretCall *call = g_task_get_task_data (task);

  if (call->answered)
    return;

  /* GTask answers a cancelled task from an idle, outside this emission. */
  call->answered = g_task_return_error_if_cancelled (task);
  if (call->answered && call->call_cancellable != NULL)
    g_cancellable_cancel (call->call_cancellable);
}

/* Called by every libsecret callback before it answers: FALSE when the
 * caller already has its answer, and libsecret's must be dropped. */
static gboolean
secret_call_take_answer (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);

  first_call_finished ();
  g_clear_handle_id (&call->deadline_id, g_source_remove);
  if (call->answered)
    return FALSE;

  call->answered = TRUE;
  return TRUE;
}

static GTask *
secret_call_new (const char          *key,
                 const char          *label,
                 const char          *secret,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data,
                 gpointer             source_tag)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  SecretCall *call = g_new0 (SecretCall, 1);

  call->key = g_strdup (key);
  call->label = g_strdup (label != NULL ? label : key);
  call->secret = g_strdup (secret);
  call->call_cancellable = clarify_secret_new_call_cancellable ();
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, (GDestroyNotify) secret_call_free);
  /* From now: a call waiting behind the first waits no longer in all. */
  call->deadline_id = g_timeout_add_seconds (CLARIFY_SECRET_DEADLINE_S, deadline_cb, task);
  if (cancellable != NULL)
    {
      call->caller_cancellable = g_object_ref (cancellable);
      call->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb), task, NULL);
    }

  return task;
}

/* In a Flatpak, libsecret 0.20's file backend first asks the Secret portal
 * for the app's key, with one fixed request token: backends made at once
 * (calls made before the first has its backend) lose all answers but one,
 * and wait forever. So the first call goes alone; the others wait for it,
 * or for its deadline. */
typedef void (*SecretStart) (GTask *task);

typedef struct
{
  GTask       *task;
  SecretStart  start;
} SecretWaiting;

static enum { FIRST_CALL_NONE, FIRST_CALL_RUNNING, FIRST_CALL_DONE } first_call;
static GQueue waiting_calls = G_QUEUE_INIT;

/* Takes @task. */
static void
run_call (GTask       *task,
          SecretStart  start)
{
  SecretCall *call = g_task_get_task_data (task);
  SecretWaiting *waiting;

  /* Cancelled or past its deadline while it waited. */
  if (call->answered)
    {
      g_object_unref (task);
      return;
    }

  if (first_call != FIRST_CALL_RUNNING)
    {
      if (first_call == FIRST_CALL_NONE)
        first_call = FIRST_CALL_RUNNING;
      call->started = TRUE;
      start (task);
      return;
    }

  waiting = g_new (SecretWaiting, 1);
  waiting->task = task;
  waiting->start = start;
  g_queue_push_tail (&waiting_calls, waiting);
}

static void
first_call_finished (void)
{
  SecretWaiting *waiting;

  first_call = FIRST_CALL_DONE;
  while ((waiting = g_queue_pop_head (&waiting_calls)) != NULL)
    {
      run_call (waiting->task, waiting->start);
      g_free (waiting);
    }
}

/* Takes @task: without a Secret Service at all, @fallback answers it at
 * once; otherwise @start makes the call, in turn. */
static void
begin_call (GTask       *task,
            SecretStart  fallback,
            SecretStart  start)
{
  SecretCall *call = g_task_get_task_data (task);

  if (clarify_secret_use_file_only ())
    {
      if (!call->answered)
        {
          call->answered = TRUE;
          fallback (task);
        }
      g_object_unref (task);
      return;
    }

  run_call (task, start);
}

static void
return_fallback_lookup (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *secret = clarify_secret_fallback_lookup (call->key, &error);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, secret, (GDestroyNotify) clarify_secret_free);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  char *secret = secret_password_lookup_finish (result, &error);

  if (!secret_call_take_answer (task))
    {
      secret_password_free (secret);
      return;
    }
  if (error != NULL && !clarify_secret_service_unavailable (error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (error != NULL)
    g_debug ("Secret Service unavailable (%s); using %s", error->message, "the fallback");

  if (secret != NULL)
    {
      char *copy = g_strdup (secret);

      secret_password_free (secret);
      g_task_return_pointer (task, copy, (GDestroyNotify) clarify_secret_free);
      return;
    }

  return_fallback_lookup (task);
}

static void
start_lookup (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);

  secret_password_lookup (clarify_secret_get_schema (), call->call_cancellable, lookup_cb, task,
                          "key", call->key,
                          NULL);
}

void
clarify_secret_lookup_async (const char          *key,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (key != NULL);

  task = secret_call_new (key, NULL, NULL, cancellable, callback, user_data, clarify_secret_lookup_async);
  begin_call (g_steal_pointer (&task), return_fallback_lookup, start_lookup);
}

char *
clarify_secret_lookup_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
return_fallback_store (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!clarify_secret_fallback_store (call->key, call->label, call->secret, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SecretCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean stored = secret_password_store_finish (result, &error);

  if (!secret_call_take_answer (task))
    return;
  if (stored)
    {
      g_autoptr(GError) clear_error = NULL;

      /* Leave no stale copy behind in the file or in memory. */
      if (!clarify_secret_fallback_clear (call->key, &clear_error))
        g_debug ("Could not clear the secrets file entry: %s", clear_error->message);
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (!clarify_secret_service_unavailable (error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_debug ("Secret Service unavailable (%s); using %s", error->message, "the fallback");
  return_fallback_store (task);
}

static void
start_store (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);

  secret_password_store (clarify_secret_get_schema (), SECRET_COLLECTION_DEFAULT,
                         call->label, call->secret, call->call_cancellable, store_cb, task,
                         "key", call->key,
                         NULL);
}

void
clarify_secret_store_async (const char          *key,
                            const char          *label,
                            const char          *secret,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (key != NULL);
  g_return_if_fail (secret != NULL);

  task = secret_call_new (key, label, secret, cancellable, callback, user_data, clarify_secret_store_async);
  begin_call (g_steal_pointer (&task), return_fallback_store, start_store);
}

gboolean
clarify_secret_store_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
return_fallback_clear (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!clarify_secret_fallback_clear (call->key, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  secret_password_clear_finish (result, &error);
  if (!secret_call_take_answer (task))
    return;
  if (error != NULL && !clarify_secret_service_unavailable (error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  return_fallback_clear (task);
}

static void
start_clear (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);

  secret_password_clear (clarify_secret_get_schema (), call->call_cancellable, clear_cb, task,
                         "key", call->key,
                         NULL);
}

void
clarify_secret_clear_async (const char          *key,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (key != NULL);

  task = secret_call_new (key, NULL, NULL, cancellable, callback, user_data, clarify_secret_clear_async);
  begin_call (g_steal_pointer (&task), return_fallback_clear, start_clear);
}

gboolean
clarify_secret_clear_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
check_service_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  char *secret = secret_password_lookup_finish (result, &error);

  secret_password_free (secret);
  if (!secret_call_take_answer (task))
    return;
  if (error != NULL)
    g_debug ("No Secret Service: %s", error->message);
  g_task_return_boolean (task, error == NULL || !clarify_secret_service_unavailable (error));
}

static void
return_no_service (GTask *task)
{
  g_task_return_boolean (task, FALSE);
}

static void
start_check (GTask *task)
{
  SecretCall *call = g_task_get_task_data (task);

  secret_password_lookup (clarify_secret_get_schema (), call->call_cancellable, check_service_cb, task,
                          "key", call->key,
                          NULL);
}

void
clarify_secret_check_service_async (GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = secret_call_new ("clarify-check", NULL, NULL, cancellable, callback, user_data,
                                           clarify_secret_check_service_async);

  /* The same call a real lookup makes (libsecret 0.20's secret_service_get()
   * frees its cached service when opening a session fails). */
  begin_call (g_steal_pointer (&task), return_no_service, start_check);
}

gboolean
clarify_secret_check_service_finish (GAsyncResult *result)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), NULL);
}
