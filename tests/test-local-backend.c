/* test-local-backend.c: every way a local caller's request ends
 *
 * A caller waits in clarify_local_backend_ask_async() (the MCP endpoint and
 * the D-Bus API do); each test ends its request one way (answered, the
 * caller gone, timed out by the inbox, the backend stopped) and checks with
 * clarify_test_inbox_assert() that everything that shows it agrees, and
 * that the caller heard how it ended.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-inbox.h"
#include "clarify-local-backend.h"
#include "clarify-test-inbox.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 5000

/* The local backend is abstract; its subclasses add only a transport. */
#define TEST_TYPE_LOCAL_BACKEND (test_local_backend_get_type ())
G_DECLARE_FINAL_TYPE (TestLocalBackend, test_local_backend, TEST, LOCAL_BACKEND, ClarifyLocalBackend)

struct _TestLocalBackend
{
  ClarifyLocalBackend parent_instance;
};

G_DEFINE_FINAL_TYPE (TestLocalBackend, test_local_backend, CLARIFY_TYPE_LOCAL_BACKEND)

static void
test_local_backend_class_init (TestLocalBackendClass *klass)
{
}

static void
test_local_backend_init (TestLocalBackend *self)
{
}

typedef struct
{
  ClarifyInbox          *inbox;
  ClarifyBackend        *backend;
  ClarifyTestInboxWatch  watch;
  ClarifyTestWatch       caller;  /* its result is the caller's */
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("local", "local", "local:");

  f->inbox = clarify_inbox_new ();
  f->backend = g_object_new (TEST_TYPE_LOCAL_BACKEND, "connection", connection, NULL);
  clarify_inbox_add_backend (f->inbox, f->backend);
  clarify_test_inbox_watch_init (&f->watch, f->inbox);
  clarify_test_watch_init (&f->caller, f->backend);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  clarify_test_inbox_watch_clear (&f->watch);
  clarify_test_watch_clear (&f->caller);
  g_clear_object (&f->inbox);
  g_assert_finalize_object (f->backend);
}

/* A caller asks "l1" and waits; the request is pending everywhere. */
static ClarifyRequest *
ask (Fixture      *f,
     guint         timeout_ms,
     GCancellable *cancellable)
{
  ClarifyRequest *request = clarify_request_new ("l1");
  g_autoptr(ClarifyQuestion) question =
    clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, "Which branch?");

  clarify_request_add_question (request, question);
  clarify_request_set_timeout_ms (request, timeout_ms);
  clarify_local_backend_ask_async (CLARIFY_LOCAL_BACKEND (f->backend), request, cancellable,
                                   clarify_test_watch_respond_cb, &f->caller);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_null (f->caller.result);
  g_assert_cmpuint (clarify_local_backend_get_n_waiting (CLARIFY_LOCAL_BACKEND (f->backend)), ==, 1);

  return request;
}

/* What the caller got back, once it is back. */
static ClarifyResponse *
wait_caller (Fixture  *f,
             GError  **error)
{
  g_assert_true (clarify_test_loop_until (clarify_test_watch_has_result, &f->caller, WAIT_MS));
  g_assert_cmpuint (clarify_local_backend_get_n_waiting (CLARIFY_LOCAL_BACKEND (f->backend)), ==, 0);

  return clarify_local_backend_ask_finish (CLARIFY_LOCAL_BACKEND (f->backend), f->caller.result, error);
}

static void
test_answered (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = ask (f, 0, NULL);
  g_autoptr(ClarifyResponse) answer = clarify_response_new ("l1", CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) heard = NULL;
  g_autoptr(GError) error = NULL;

  clarify_response_add_answer (answer, "q", (const char *[]) { "main", NULL }, NULL, FALSE);
  clarify_inbox_answer (f->inbox, request, answer);
  heard = wait_caller (f, &error);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  g_assert_no_error (error);
  /* The caller gets the user's answer itself. */
  g_assert_true (heard == answer);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  g_assert_false (clarify_request_is_withdrawn (request));
}

/* The inbox's deadline ends it; the caller hears "timed out". */
static void
test_timed_out (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = ask (f, 100, NULL);
  g_autoptr(ClarifyResponse) heard = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_inbox_has_timer (f->inbox));
  heard = wait_caller (f, &error);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  g_assert_no_error (error);
  g_assert_nonnull (heard);
  g_assert_cmpstr (clarify_response_get_request_id (heard), ==, "l1");
  g_assert_cmpint (clarify_response_get_outcome (heard), ==, CLARIFY_OUTCOME_TIMED_OUT);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_TIMED_OUT, CLARIFY_END_REASON_TIME_RAN_OUT, NULL);
  g_assert_false (clarify_inbox_has_timer (f->inbox));
}

/* The caller goes away (its GCancellable), or Clarify stops listening: the
 * dialog closes saying why, and the caller gets an error, not an answer. */
typedef struct
{
  gboolean         stop;    /* else the caller cancels */
  int              code;    /* G_IO_ERROR_* */
  ClarifyEndReason reason;
} Withdrawal;

static const Withdrawal caller_left = { FALSE, G_IO_ERROR_CANCELLED, CLARIFY_END_REASON_CALLER_LEFT };
static const Withdrawal stopped = { TRUE, G_IO_ERROR_CLOSED, CLARIFY_END_REASON_STOPPED_LISTENING };

static void
test_withdrawn (Fixture       *f,
                gconstpointer  data)
{
  const Withdrawal *withdrawal = data;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(ClarifyRequest) request = ask (f, 60000, cancellable);
  g_autoptr(ClarifyResponse) heard = NULL;
  g_autoptr(GError) error = NULL;

  if (withdrawal->stop)
    clarify_backend_stop (f->backend);
  else
    g_cancellable_cancel (cancellable);
  heard = wait_caller (f, &error);

  g_assert_null (heard);
  g_assert_error (error, G_IO_ERROR, withdrawal->code);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN, withdrawal->reason, NULL);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_false (clarify_inbox_has_timer (f->inbox));
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, data, func) \
  g_test_add ("/local-backend/" path, Fixture, data, fixture_set_up, func, fixture_tear_down)
  ADD ("answered", NULL, test_answered);
  ADD ("caller-left", &caller_left, test_withdrawn);
  ADD ("timed-out", NULL, test_timed_out);
  ADD ("stopped", &stopped, test_withdrawn);
#undef ADD

  return g_test_run ();
}
