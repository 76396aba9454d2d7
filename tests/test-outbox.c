/* test-outbox.c: answers are delivered once, retried on trouble, dropped when gone
 *
 * The answers go in through the inbox, which owns the outbox and turns its
 * results into the request's state.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-inbox.h"
#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-server.h"
#include "clarify-test-signals.h"

/* A backend whose answers succeed or fail as the test scripts them. */
#define TEST_TYPE_SCRIPTED_BACKEND (test_scripted_backend_get_type ())
G_DECLARE_FINAL_TYPE (TestScriptedBackend, test_scripted_backend, TEST, SCRIPTED_BACKEND, ClarifyBackend)

struct _TestScriptedBackend
{
  ClarifyBackend  parent_instance;
  GQueue          script;     /* GError * to fail with, NULL to succeed */
  guint           n_calls;
  guint           n_in_flight;
  guint           max_in_flight;
  GPtrArray      *posted_ids;
};

G_DEFINE_FINAL_TYPE (TestScriptedBackend, test_scripted_backend, CLARIFY_TYPE_BACKEND)

static gboolean
finish_scripted_call (gpointer user_data)
{
  GTask *task = user_data;
  TestScriptedBackend *self = g_task_get_source_object (task);
  GError *error = g_task_get_task_data (task);

  self->n_in_flight--;
  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_boolean (task, TRUE);

  return G_SOURCE_REMOVE;
}

static void
test_scripted_backend_deliver_async (ClarifyBackend      *backend,
                                     ClarifyRequest      *request,
                                     ClarifyResponse     *response,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  TestScriptedBackend *self = TEST_SCRIPTED_BACKEND (backend);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  GError *error = g_queue_is_empty (&self->script) ? NULL : g_queue_pop_head (&self->script);

  self->n_calls++;
  self->n_in_flight++;
  self->max_in_flight = MAX (self->max_in_flight, self->n_in_flight);
  g_ptr_array_add (self->posted_ids, g_strdup (clarify_request_get_id (request)));

  g_task_set_task_data (task, error, error ? (GDestroyNotify) g_error_free : NULL);
  /* Finish a little later, like a real round trip, so overlapping posts would show. */
  g_timeout_add_full (G_PRIORITY_DEFAULT, 5, finish_scripted_call, task, g_object_unref);
}

static void
test_scripted_backend_start (ClarifyBackend *backend)
{
}

static void
test_scripted_backend_finalize (GObject *object)
{
  TestScriptedBackend *self = TEST_SCRIPTED_BACKEND (object);

  /* Unused script entries; NULL ones stand for success. */
  while (!g_queue_is_empty (&self->script))
    {
      GError *error = g_queue_pop_head (&self->script);

      g_clear_error (&error);
    }
  g_ptr_array_unref (self->posted_ids);

  G_OBJECT_CLASS (test_scripted_backend_parent_class)->finalize (object);
}

static void
test_scripted_backend_class_init (TestScriptedBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_scripted_backend_finalize;
  CLARIFY_BACKEND_CLASS (klass)->start = test_scripted_backend_start;
  CLARIFY_BACKEND_CLASS (klass)->deliver_async = test_scripted_backend_deliver_async;
  CLARIFY_BACKEND_CLASS (klass)->save_delivery = clarify_backend_save_nothing;
  CLARIFY_BACKEND_CLASS (klass)->restore_delivery = clarify_backend_restore_nothing;
}

static void
test_scripted_backend_init (TestScriptedBackend *self)
{
  g_queue_init (&self->script);
  self->posted_ids = g_ptr_array_new_with_free_func (g_free);
}

static void
script_error (TestScriptedBackend *self,
              GQuark               domain,
              int                  code)
{
  g_queue_push_tail (&self->script, g_error_new (domain, code, "scripted failure %d", code));
}

static void
script_success (TestScriptedBackend *self)
{
  g_queue_push_tail (&self->script, NULL);
}

typedef struct
{
  TestScriptedBackend *backend;
  ClarifyInbox        *inbox;
  ClarifyOutbox       *outbox;
  ClarifyRequest      *request;
  ClarifyResponse     *response;
  guint                n_delivered;
  guint                n_failed;
  GError              *failure;
} Fixture;

static void
on_delivered (ClarifyOutbox   *outbox,
              ClarifyRequest  *request,
              ClarifyResponse *response,
              Fixture         *fixture)
{
  g_assert_true (request == fixture->request);
  g_assert_true (response == fixture->response);
  fixture->n_delivered++;
}

static void
on_failed (ClarifyOutbox   *outbox,
           ClarifyRequest  *request,
           ClarifyResponse *response,
           const GError    *error,
           Fixture         *fixture)
{
  g_assert_true (request == fixture->request);
  g_assert_nonnull (error);
  fixture->n_failed++;
  g_clear_error (&fixture->failure);
  fixture->failure = g_error_copy (error);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(ClarifyQuestion) question = NULL;

  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("agent", "clarify", "http://127.0.0.1:9/events");

  fixture->backend = g_object_new (TEST_TYPE_SCRIPTED_BACKEND, "connection", connection, NULL);
  fixture->inbox = clarify_inbox_new ();
  clarify_inbox_add_backend (fixture->inbox, CLARIFY_BACKEND (fixture->backend));
  fixture->outbox = g_object_ref (clarify_inbox_get_outbox (fixture->inbox));
  clarify_outbox_set_backoff (fixture->outbox, 10, 40);
  g_signal_connect (fixture->outbox, "delivered", G_CALLBACK (on_delivered), fixture);
  g_signal_connect (fixture->outbox, "failed", G_CALLBACK (on_failed), fixture);

  fixture->request = clarify_request_new ("req-1");
  question = clarify_question_new ("q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  clarify_request_add_question (fixture->request, question);
  g_assert_true (clarify_backend_add_request (CLARIFY_BACKEND (fixture->backend), fixture->request));

  fixture->response = clarify_response_new ("req-1", CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (fixture->response, "q1", (const char *[]) { "clarify", NULL }, NULL, FALSE);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_error (&fixture->failure);
  g_clear_object (&fixture->response);
  g_clear_object (&fixture->request);
  g_clear_object (&fixture->outbox);
  g_assert_finalize_object (fixture->inbox);
  g_assert_finalize_object (fixture->backend);
}

static gboolean
outbox_is_empty (gpointer data)
{
  return clarify_outbox_get_n_pending (data) == 0;
}

static gboolean
is_pending (Fixture *fixture)
{
  return clarify_backend_lookup_request (CLARIFY_BACKEND (fixture->backend), "req-1") != NULL;
}

static void
test_delivered (Fixture       *fixture,
                gconstpointer  data)
{
  script_success (fixture->backend);

  clarify_inbox_answer (fixture->inbox, fixture->request, fixture->response);
  g_assert_cmpuint (clarify_outbox_get_n_pending (fixture->outbox), ==, 1);

  g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, 5000));
  g_assert_cmpuint (fixture->n_delivered, ==, 1);
  g_assert_cmpuint (fixture->n_failed, ==, 0);
  g_assert_cmpuint (fixture->backend->n_calls, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->backend->posted_ids, 0), ==, "req-1");
  /* Delivered means answered: the backend no longer lists it. */
  g_assert_false (is_pending (fixture));
  g_assert_cmpint (clarify_request_get_state (fixture->request), ==, CLARIFY_REQUEST_DONE);
  g_assert_cmpint (clarify_request_get_end (fixture->request), ==, CLARIFY_REQUEST_END_ANSWERED);
}

static void
test_transient_then_success (Fixture       *fixture,
                             gconstpointer  data)
{
  script_error (fixture->backend, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT);
  script_error (fixture->backend, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
  script_error (fixture->backend, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT);
  script_success (fixture->backend);

  clarify_inbox_answer (fixture->inbox, fixture->request, fixture->response);

  g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, 5000));
  g_assert_cmpuint (fixture->n_delivered, ==, 1);
  g_assert_cmpuint (fixture->n_failed, ==, 0);
  g_assert_cmpuint (fixture->backend->n_calls, ==, 4);
  g_assert_cmpuint (fixture->backend->max_in_flight, ==, 1);
  g_assert_false (is_pending (fixture));

  /* Nothing waits any more, so nothing is posted again. */
  clarify_test_loop_for (200);
  g_assert_cmpuint (fixture->backend->n_calls, ==, 4);
  g_assert_cmpuint (fixture->n_delivered, ==, 1);
}

static void
test_gone_is_final (Fixture       *fixture,
                    gconstpointer  data)
{
  script_error (fixture->backend, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  script_success (fixture->backend);

  clarify_inbox_answer (fixture->inbox, fixture->request, fixture->response);

  g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, 5000));
  g_assert_cmpuint (fixture->n_failed, ==, 1);
  g_assert_error (fixture->failure, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_assert_cmpuint (fixture->n_delivered, ==, 0);
  g_assert_false (is_pending (fixture));
  g_assert_cmpint (clarify_request_get_end (fixture->request), ==, CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE);

  clarify_test_loop_for (200);
  g_assert_cmpuint (fixture->backend->n_calls, ==, 1);
}

static void
test_rejected_keeps_request (Fixture       *fixture,
                             gconstpointer  data)
{
  script_error (fixture->backend, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED);

  clarify_inbox_answer (fixture->inbox, fixture->request, fixture->response);

  g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, 5000));
  g_assert_error (fixture->failure, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED);
  g_assert_cmpuint (fixture->backend->n_calls, ==, 1);
  /* The user may answer again, e.g. after fixing the value. */
  g_assert_true (is_pending (fixture));
  g_assert_cmpint (clarify_request_get_state (fixture->request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpint (clarify_request_get_end_reason (fixture->request), ==, CLARIFY_END_REASON_ANSWER_REFUSED);
  g_assert_cmpstr (clarify_request_get_end_detail (fixture->request), ==, "scripted failure 3");
  g_assert_cmpuint (clarify_inbox_get_n_pending (fixture->inbox), ==, 1);
}

static void
test_one_post_at_a_time (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(ClarifyResponse) second = clarify_response_new ("req-1", CLARIFY_OUTCOME_SKIPPED);

  script_error (fixture->backend, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT);
  script_success (fixture->backend);

  clarify_inbox_answer (fixture->inbox, fixture->request, fixture->response);
  clarify_inbox_answer (fixture->inbox, fixture->request, second);
  g_assert_cmpuint (clarify_outbox_get_n_pending (fixture->outbox), ==, 1);

  g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, 5000));
  g_assert_cmpuint (fixture->backend->n_calls, ==, 2);
  g_assert_cmpuint (fixture->backend->max_in_flight, ==, 1);
  g_assert_cmpuint (fixture->n_delivered, ==, 1);
}

static gboolean
first_call_done (gpointer data)
{
  TestScriptedBackend *backend = data;

  return backend->n_calls == 1 && backend->n_in_flight == 0;
}

static void
test_withdrawn_while_waiting (Fixture       *fixture,
                              gconstpointer  data)
{
  script_error (fixture->backend, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT);
  script_success (fixture->backend);
  /* Long enough that the withdrawal lands while the retry waits. */
  clarify_outbox_set_backoff (fixture->outbox, 300, 300);

  clarify_inbox_answer (fixture->inbox, fixture->request, fixture->response);
  g_assert_true (clarify_test_loop_until (first_call_done, fixture->backend, 5000));

  clarify_backend_withdraw_request (CLARIFY_BACKEND (fixture->backend), "req-1",
                                    CLARIFY_END_REASON_AGENT_WITHDREW, "answered in the terminal");

  /* The waiting answer is dropped at once, and never posted again. */
  g_assert_cmpuint (clarify_outbox_get_n_pending (fixture->outbox), ==, 0);
  g_assert_cmpint (clarify_request_get_end (fixture->request), ==, CLARIFY_REQUEST_END_WITHDRAWN);
  clarify_test_loop_for (400);
  g_assert_cmpuint (fixture->backend->n_calls, ==, 1);
  g_assert_cmpuint (fixture->n_delivered, ==, 0);
  g_assert_cmpuint (fixture->n_failed, ==, 0);
}

static void
test_backoff_defaults_are_bounded (void)
{
  /* A stand-alone outbox with its default 1 s / 60 s backoff must still
   * deliver at once when nothing fails. */
  g_autoptr(ClarifyOutbox) outbox = clarify_outbox_new ();
  g_autoptr(TestScriptedBackend) backend = g_object_new (TEST_TYPE_SCRIPTED_BACKEND, NULL);
  g_autoptr(ClarifyRequest) request = clarify_request_new ("only");
  g_autoptr(ClarifyResponse) response = clarify_response_new ("only", CLARIFY_OUTCOME_CANCELLED);

  clarify_outbox_post (outbox, CLARIFY_BACKEND (backend), request, response);
  g_assert_true (clarify_test_loop_until (outbox_is_empty, outbox, 5000));
  g_assert_cmpuint (backend->n_calls, ==, 1);
}

static gboolean
replay_delivered (gpointer data)
{
  TestScriptedBackend *moved = data;

  return moved->n_calls == 1 && moved->n_in_flight == 0;
}

/* The connection is edited while its answer is posted; the old backend,
 * stopped, cancels the post (Ag3ntum's shared login does). The agent never
 * got it: the connection's new backend sends the kept answer. */
static void
test_replaced_while_posting (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("agent", "clarify", "http://127.0.0.1:9/events");
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);
  g_autoptr(ClarifyInbox) inbox = clarify_inbox_new ();
  g_autoptr(TestScriptedBackend) old = g_object_new (TEST_TYPE_SCRIPTED_BACKEND, "connection", connection, NULL);
  g_autoptr(TestScriptedBackend) moved = g_object_new (TEST_TYPE_SCRIPTED_BACKEND, "connection", connection, NULL);
  g_autoptr(ClarifyRequest) request = clarify_request_new ("req-1");
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  g_autoptr(ClarifyResponse) response = clarify_response_new ("req-1", CLARIFY_OUTCOME_ANSWERED);
  ClarifyOutbox *outbox = clarify_inbox_get_outbox (inbox);
  guint n_delivered = 0, n_replay_ended = 0;

  clarify_outbox_set_store (outbox, store);
  clarify_outbox_set_backoff (outbox, 10, 40);
  g_signal_connect_swapped (outbox, "delivered", G_CALLBACK (clarify_test_count_emission), &n_delivered);
  g_signal_connect_swapped (inbox, "replay-ended", G_CALLBACK (clarify_test_count_emission), &n_replay_ended);
  clarify_inbox_add_backend (inbox, CLARIFY_BACKEND (old));
  clarify_request_add_question (request, question);
  g_assert_true (clarify_backend_add_request (CLARIFY_BACKEND (old), request));
  clarify_response_add_answer (response, "q1", (const char *[]) { "clarify", NULL }, NULL, FALSE);

  script_error (old, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  script_success (moved);
  clarify_inbox_answer (inbox, request, response);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 1);

  clarify_inbox_remove_backend (inbox, CLARIFY_BACKEND (old));
  clarify_inbox_add_backend (inbox, CLARIFY_BACKEND (moved));
  g_assert_true (clarify_test_loop_until (replay_delivered, moved, 5000));
  g_assert_true (clarify_test_loop_until (outbox_is_empty, outbox, 5000));
  g_assert_cmpuint (old->n_calls, ==, 1);
  g_assert_cmpuint (n_delivered, ==, 1);
  g_assert_cmpuint (n_replay_ended, ==, 1);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 0);

  clarify_inbox_remove_backend (inbox, CLARIFY_BACKEND (moved));
  g_clear_object (&inbox);
  clarify_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/outbox/delivered", test_delivered);
  ADD ("/outbox/transient-then-success", test_transient_then_success);
  ADD ("/outbox/gone-is-final", test_gone_is_final);
  ADD ("/outbox/rejected-keeps-request", test_rejected_keeps_request);
  ADD ("/outbox/one-post-at-a-time", test_one_post_at_a_time);
  ADD ("/outbox/withdrawn-while-waiting", test_withdrawn_while_waiting);
#undef ADD
  g_test_add_func ("/outbox/default-backoff", test_backoff_defaults_are_bounded);
  g_test_add_func ("/outbox/replaced-while-posting", test_replaced_while_posting);

  return g_test_run ();
}
