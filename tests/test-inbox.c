/* test-inbox.c: every way a request ends leaves everything agreeing
 *
 * Each test drives one request of a ClarifyTestBackend to one end (answered,
 * skipped, cancelled, timed out, withdrawn, answered elsewhere, refused and
 * answered again, failed, its backend removed) and checks with
 * clarify_test_inbox_assert() that the inbox's list, its pending view and
 * count, the backend's view and lookup, the request and the inbox's signals
 * agree, and that the backend got each answer it should, once. The last
 * test times out 1,000 requests from the inbox's one timer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-inbox-private.h"
#include "clarify-test-backend.h"
#include "clarify-test-inbox.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 5000

typedef struct
{
  ClarifyInbox          *inbox;
  ClarifyBackend        *backend;
  ClarifyTestBackend    *agent;   /* the same backend, for its test API */
  ClarifyTestInboxWatch  watch;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->inbox = clarify_inbox_new ();
  f->backend = clarify_test_backend_new ("A");
  f->agent = CLARIFY_TEST_BACKEND (f->backend);
  clarify_inbox_add_backend (f->inbox, f->backend);
  clarify_test_inbox_watch_init (&f->watch, f->inbox);
  /* Retries come quickly unless a test wants one to wait. */
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (f->inbox), 10, 10);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  /* A held delivery would keep the backend alive. */
  g_assert_cmpuint (clarify_test_backend_get_n_held (f->agent), ==, 0);
  clarify_test_inbox_watch_clear (&f->watch);
  g_clear_object (&f->inbox);
  g_clear_object (&f->backend);
}

static ClarifyRequest *
new_request (const char *id,
             guint       timeout_ms)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question =
    clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, "Which branch?");

  clarify_request_add_question (request, question);
  clarify_request_set_timeout_ms (request, timeout_ms);

  return request;
}

/* Adds a new request @id to @backend and checks it is pending everywhere. */
static ClarifyRequest *
add_request (Fixture        *f,
             ClarifyBackend *backend,
             const char     *id,
             guint           timeout_ms)
{
  ClarifyRequest *request = new_request (id, timeout_ms);

  g_assert_true (clarify_backend_add_request (backend, request));
  clarify_test_inbox_assert (&f->watch, backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);

  return request;
}

/* The user's answer (or skip, or cancel) goes on its way. */
static void
answer (Fixture        *f,
        ClarifyRequest *request,
        ClarifyOutcome  outcome)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request), outcome);

  clarify_inbox_answer (f->inbox, request, response);
  clarify_test_inbox_assert (&f->watch, clarify_inbox_get_backend_of (f->inbox, request), request,
                             CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
}

typedef struct
{
  Fixture *f;
  guint    n;
} CountWait;

static gboolean
finished_reached (gpointer data)
{
  CountWait *wait = data;

  return clarify_test_backend_get_n_finished (wait->f->agent) >= wait->n;
}

/* Until the outbox has heard the result of @n deliveries in all. */
static void
wait_finished (Fixture *f,
               guint    n)
{
  CountWait wait = { f, n };

  g_assert_true (clarify_test_loop_until (finished_reached, &wait, WAIT_MS));
}

static gboolean
refused_reached (gpointer data)
{
  CountWait *wait = data;

  return wait->f->watch.refused->len >= wait->n;
}

/* The backend took exactly one answer to @request, with @outcome. */
static void
assert_delivered_once (Fixture        *f,
                       ClarifyRequest *request,
                       ClarifyOutcome  outcome)
{
  GPtrArray *delivered = clarify_test_backend_get_delivered (f->agent);
  const char *id = clarify_request_get_id (request);

  g_assert_cmpuint (clarify_test_backend_count_delivered (f->agent, id), ==, 1);
  for (guint i = 0; i < delivered->len; i++)
    {
      ClarifyResponse *response = g_ptr_array_index (delivered, i);

      if (g_strcmp0 (clarify_response_get_request_id (response), id) == 0)
        g_assert_cmpint (clarify_response_get_outcome (response), ==, outcome);
    }
}

/* Answered, skipped, cancelled by the user */

typedef struct
{
  ClarifyOutcome    outcome;
  ClarifyRequestEnd end;
} UserEnd;

static const UserEnd answered = { CLARIFY_OUTCOME_ANSWERED, CLARIFY_REQUEST_END_ANSWERED };
static const UserEnd skipped = { CLARIFY_OUTCOME_SKIPPED, CLARIFY_REQUEST_END_ANSWERED };
static const UserEnd cancelled = { CLARIFY_OUTCOME_CANCELLED, CLARIFY_REQUEST_END_CANCELLED };

static void
test_user_ends (Fixture       *f,
                gconstpointer  data)
{
  const UserEnd *user_end = data;
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 0);

  answer (f, request, user_end->outcome);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_inbox_assert (&f->watch, f->backend, request, CLARIFY_REQUEST_DONE, user_end->end, CLARIFY_END_REASON_NONE, NULL);
  assert_delivered_once (f, request, user_end->outcome);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 1);
  /* The user ended it: nothing withdrew it from under a dialog. */
  g_assert_false (clarify_request_is_withdrawn (request));
}

/* Timed out */

static void
test_timed_out (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 100);

  g_assert_true (clarify_inbox_has_timer (f->inbox));
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_TIMED_OUT, CLARIFY_END_REASON_TIME_RAN_OUT, NULL);
  assert_delivered_once (f, request, CLARIFY_OUTCOME_TIMED_OUT);
  /* A dialog still asking closes with the reason. */
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_TIME_RAN_OUT);
  g_assert_false (clarify_inbox_has_timer (f->inbox));
}

static gboolean
deadline_passed (gpointer data)
{
  return g_get_monotonic_time () > clarify_request_get_deadline (data);
}

/* The deadline passes while the user's answer is on its way: that answer
 * decides. Refused, the request is pending past its deadline and times out. */
static void
test_timed_out_answer_in_flight (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(ClarifyRequest) taken = add_request (f, f->backend, "taken", 200);
  g_autoptr(ClarifyRequest) refused = add_request (f, f->backend, "refused", 200);

  clarify_test_backend_set_hold (f->agent, TRUE);
  answer (f, taken, CLARIFY_OUTCOME_ANSWERED);
  answer (f, refused, CLARIFY_OUTCOME_ANSWERED);
  /* Nothing pending has a deadline. */
  g_assert_false (clarify_inbox_has_timer (f->inbox));

  g_assert_true (clarify_test_loop_until (deadline_passed, taken, WAIT_MS));
  g_assert_true (clarify_test_loop_until (deadline_passed, refused, WAIT_MS));
  clarify_test_inbox_assert (&f->watch, f->backend, taken,
                             CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  clarify_test_inbox_assert (&f->watch, f->backend, refused,
                             CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (clarify_test_backend_get_n_held (f->agent), ==, 2);

  clarify_test_backend_set_hold (f->agent, FALSE);
  clarify_test_backend_release (f->agent);
  clarify_test_inbox_wait_state (taken, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&f->watch, f->backend, taken,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  assert_delivered_once (f, taken, CLARIFY_OUTCOME_ANSWERED);

  clarify_test_backend_fail_next (f->agent, CLARIFY_ERROR_REJECTED, 1);
  clarify_test_backend_release (f->agent);
  clarify_test_inbox_wait_state (refused, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&f->watch, f->backend, refused,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_TIMED_OUT, CLARIFY_END_REASON_TIME_RAN_OUT, NULL);
  g_assert_cmpuint (f->watch.refused->len, ==, 1);
  assert_delivered_once (f, refused, CLARIFY_OUTCOME_TIMED_OUT);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 3);
  g_assert_false (clarify_inbox_has_timer (f->inbox));
}

/* Withdrawn by the agent */

static void
test_withdrawn_pending (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 60000);

  clarify_backend_withdraw_request (f->backend, "r1", CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed");

  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN, CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed");
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 0);
  g_assert_false (clarify_inbox_has_timer (f->inbox));
  /* Once is enough: a second withdrawal finds nothing. */
  clarify_backend_withdraw_request (f->backend, "r1", CLARIFY_END_REASON_AGENT_WITHDREW, "Again");
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN, CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed");
}

/* The answer failed once (TRANSIENT) and waits for its retry: withdrawing
 * drops it, and it is never sent again. */
static void
test_withdrawn_awaiting_retry (Fixture       *f,
                               gconstpointer  data)
{
  ClarifyOutbox *outbox = clarify_inbox_get_outbox (f->inbox);
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 0);

  clarify_outbox_set_backoff (outbox, 60000, 60000);
  clarify_test_backend_fail_next (f->agent, CLARIFY_ERROR_TRANSIENT, 1);
  answer (f, request, CLARIFY_OUTCOME_ANSWERED);
  wait_finished (f, 1);
  /* The window says the answer waits for the agent. */
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_WAITING_FOR_AGENT, NULL);
  g_assert_cmpuint (clarify_outbox_get_n_pending (outbox), ==, 1);

  clarify_backend_withdraw_request (f->backend, "r1", CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed");

  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN, CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed");
  g_assert_cmpuint (clarify_outbox_get_n_pending (outbox), ==, 0);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 1);
  g_assert_cmpuint (clarify_test_backend_count_delivered (f->agent, "r1"), ==, 0);
}

/* The agent's withdrawal arrives while the answer is in flight (it may be
 * the echo of that answer): the answer's result decides. */
typedef struct
{
  ClarifyError      code;     /* 0: the answer is taken */
  ClarifyRequestEnd end;
  ClarifyEndReason  reason;
  const char       *detail;
} InFlightEnd;

static const InFlightEnd in_flight_taken = { 0, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL };
static const InFlightEnd in_flight_gone = { CLARIFY_ERROR_GONE, CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE,
                                            CLARIFY_END_REASON_ANSWERED_ELSEWHERE, NULL };
/* Refused after the agent withdrew it: nobody is asked again. */
static const InFlightEnd in_flight_refused = { CLARIFY_ERROR_REJECTED, CLARIFY_REQUEST_END_WITHDRAWN,
                                               CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed" };
/* Failed in a way worth another try: none is made for a question withdrawn. */
static const InFlightEnd in_flight_transient = { CLARIFY_ERROR_TRANSIENT, CLARIFY_REQUEST_END_WITHDRAWN,
                                                 CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed" };

static void
test_withdrawn_in_flight (Fixture       *f,
                          gconstpointer  data)
{
  const InFlightEnd *in_flight = data;
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 0);

  clarify_test_backend_set_hold (f->agent, TRUE);
  answer (f, request, CLARIFY_OUTCOME_ANSWERED);
  clarify_backend_withdraw_request (f->backend, "r1", CLARIFY_END_REASON_AGENT_WITHDREW, "No longer needed");
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);

  if (in_flight->code != 0)
    clarify_test_backend_fail_next (f->agent, in_flight->code, 1);
  clarify_test_backend_release (f->agent);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, in_flight->end, in_flight->reason, in_flight->detail);
  g_assert_cmpuint (f->watch.refused->len, ==, 0);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 1);
  g_assert_cmpuint (clarify_test_backend_count_delivered (f->agent, "r1"), ==, in_flight->code == 0 ? 1 : 0);
  g_assert_cmpuint (clarify_outbox_get_n_pending (clarify_inbox_get_outbox (f->inbox)), ==, 0);
}

/* Answered elsewhere, failed: the agent's final word on the answer */

typedef struct
{
  ClarifyError      code;
  ClarifyRequestEnd end;
  ClarifyEndReason  reason;   /* DELIVERY_FAILED comes with the backend's own message */
} FinalFailure;

static const FinalFailure gone = { CLARIFY_ERROR_GONE, CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE,
                                   CLARIFY_END_REASON_ANSWERED_ELSEWHERE };
/* Gone with a restart: not delivered, kept with the reason, never "answered elsewhere". */
static const FinalFailure restarted = { CLARIFY_ERROR_AGENT_RESTARTED, CLARIFY_REQUEST_END_FAILED,
                                        CLARIFY_END_REASON_AGENT_RESTARTED };
static const FinalFailure protocol = { CLARIFY_ERROR_PROTOCOL, CLARIFY_REQUEST_END_FAILED,
                                       CLARIFY_END_REASON_DELIVERY_FAILED };

static void
test_final_failure (Fixture       *f,
                    gconstpointer  data)
{
  const FinalFailure *failure = data;
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 0);
  g_autofree char *message = g_strdup_printf ("Refused by the test (%d)", failure->code);

  clarify_test_backend_fail_next (f->agent, failure->code, 1);
  answer (f, request, CLARIFY_OUTCOME_ANSWERED);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);

  clarify_test_inbox_assert (&f->watch, f->backend, request, CLARIFY_REQUEST_DONE,
                             failure->end, failure->reason, failure->reason == CLARIFY_END_REASON_DELIVERY_FAILED ? message : NULL);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 1);
  g_assert_cmpuint (clarify_test_backend_count_delivered (f->agent, "r1"), ==, 0);
  g_assert_cmpuint (f->watch.refused->len, ==, 0);
}

/* The agent refuses the answer (REJECTED, AUTH): the request is pending
 * again, with the reason, and the next answer is taken. */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  ClarifyError code = GPOINTER_TO_INT (data);
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 60000);
  g_autofree char *reason = g_strdup_printf ("Refused by the test (%d)", code);
  CountWait wait = { f, 1 };

  clarify_test_backend_fail_next (f->agent, code, 1);
  answer (f, request, CLARIFY_OUTCOME_ANSWERED);
  g_assert_false (clarify_inbox_has_timer (f->inbox));
  g_assert_true (clarify_test_loop_until (refused_reached, &wait, WAIT_MS));

  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE,
                             CLARIFY_END_REASON_ANSWER_REFUSED, reason);
  g_assert_true (g_ptr_array_index (f->watch.refused, 0) == request);
  g_assert_false (clarify_request_is_withdrawn (request));
  /* Its deadline counts again. */
  g_assert_true (clarify_inbox_has_timer (f->inbox));
  g_assert_cmpuint (clarify_test_backend_count_delivered (f->agent, "r1"), ==, 0);

  answer (f, request, CLARIFY_OUTCOME_ANSWERED);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  assert_delivered_once (f, request, CLARIFY_OUTCOME_ANSWERED);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 2);
  g_assert_cmpuint (f->watch.refused->len, ==, 1);
}

/* The backend goes away */

static void
test_backend_removed_pending (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 60000);

  clarify_inbox_remove_backend (f->inbox, f->backend);

  clarify_test_inbox_assert (&f->watch, f->backend, request, CLARIFY_REQUEST_DONE,
                             CLARIFY_REQUEST_END_WITHDRAWN, CLARIFY_END_REASON_CONNECTION_REMOVED, NULL);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_false (clarify_inbox_has_timer (f->inbox));
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_inbox_get_backends (f->inbox)), ==, 0);
}

/* Removed while its answer is in flight: the request ends now, and the late
 * result changes nothing. */
static void
test_backend_removed_sending (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 0);

  clarify_test_backend_set_hold (f->agent, TRUE);
  answer (f, request, CLARIFY_OUTCOME_ANSWERED);
  clarify_inbox_remove_backend (f->inbox, f->backend);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_FAILED,
                             CLARIFY_END_REASON_REMOVED_BEFORE_DELIVERY, NULL);

  clarify_test_backend_release (f->agent);
  wait_finished (f, 1);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_FAILED,
                             CLARIFY_END_REASON_REMOVED_BEFORE_DELIVERY, NULL);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 1);
}

/* Ids and arrival */

/* Ids are unique per backend only. */
static void
test_same_id_two_backends (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(ClarifyBackend) other = clarify_test_backend_new ("B");
  g_autoptr(ClarifyRequest) mine = NULL;
  g_autoptr(ClarifyRequest) theirs = NULL;

  clarify_inbox_add_backend (f->inbox, other);
  mine = add_request (f, f->backend, "same", 0);
  theirs = add_request (f, other, "same", 0);
  clarify_test_inbox_assert (&f->watch, f->backend, mine,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (clarify_inbox_get_n_pending (f->inbox), ==, 2);

  answer (f, mine, CLARIFY_OUTCOME_ANSWERED);
  clarify_test_inbox_wait_state (mine, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&f->watch, f->backend, mine,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  clarify_test_inbox_assert (&f->watch, other, theirs,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (CLARIFY_TEST_BACKEND (other)), ==, 0);

  clarify_backend_withdraw_request (other, "same", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  clarify_test_inbox_assert (&f->watch, other, theirs,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN, CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  assert_delivered_once (f, mine, CLARIFY_OUTCOME_ANSWERED);
  clarify_inbox_remove_backend (f->inbox, other);
}

/* A resync repeats what the agent still asks: an id pending or sending is
 * not added twice. */
static void
test_readd_ignored (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = add_request (f, f->backend, "r1", 0);
  g_autoptr(ClarifyRequest) again = new_request ("r1", 0);
  g_autoptr(ClarifyRequest) while_sending = new_request ("r1", 0);

  g_assert_false (clarify_backend_add_request (f->backend, again));
  g_assert_cmpuint (clarify_test_inbox_count_in_model (G_LIST_MODEL (f->inbox), again), ==, 0);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);

  clarify_test_backend_set_hold (f->agent, TRUE);
  answer (f, request, CLARIFY_OUTCOME_ANSWERED);
  g_assert_false (clarify_backend_add_request (f->backend, while_sending));
  g_assert_cmpuint (clarify_test_inbox_count_in_model (G_LIST_MODEL (f->inbox), while_sending), ==, 0);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  g_assert_cmpuint (f->watch.added->len, ==, 1);

  clarify_test_backend_set_hold (f->agent, FALSE);
  clarify_test_backend_release (f->agent);
  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
  assert_delivered_once (f, request, CLARIFY_OUTCOME_ANSWERED);
}

/* Its time ran out before it arrived (a resync after a long outage): the
 * agent hears "timed_out", and nobody was asked. */
static void
test_expired_on_arrival (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = new_request ("late", 1000);

  clarify_request_set_received_at (request, g_get_monotonic_time () - 2 * G_USEC_PER_SEC);
  clarify_test_inbox_expect_unannounced (&f->watch, request);
  g_assert_true (clarify_backend_add_request (f->backend, request));
  g_assert_cmpuint (f->watch.added->len, ==, 0);

  clarify_test_inbox_wait_state (request, CLARIFY_REQUEST_DONE, WAIT_MS);
  clarify_test_inbox_assert (&f->watch, f->backend, request,
                             CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_TIMED_OUT, CLARIFY_END_REASON_TIME_RAN_OUT, NULL);
  assert_delivered_once (f, request, CLARIFY_OUTCOME_TIMED_OUT);
  g_assert_false (clarify_inbox_has_timer (f->inbox));
}

/* One timer for 1,000 deadlines */

#define N_TIMED 1000
#define N_UNTIMED 10

/* Sources attached to the default main context now. */
static guint
count_sources (void)
{
  GSource *probe = g_idle_source_new ();
  guint last = g_source_attach (probe, NULL);
  guint n = 0;

  g_source_destroy (probe);
  g_source_unref (probe);
  for (guint id = 1; id < last; id++)
    n += g_main_context_find_source_by_id (NULL, id) != NULL;

  return n;
}

static guint
count_pending_with_deadline (ClarifyInbox *inbox)
{
  GListModel *pending = clarify_inbox_get_pending (inbox);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (pending); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (pending, i);

      n += clarify_request_get_deadline (request) != 0;
    }

  return n;
}

static void
timer_ended_cb (ClarifyInbox   *inbox,
                ClarifyRequest *request,
                gpointer        user_data)
{
  /* Never early, and the timer is armed exactly while a deadline waits. */
  g_assert_cmpint (g_get_monotonic_time (), >=, clarify_request_get_deadline (request));
  g_assert_cmpint (clarify_inbox_has_timer (inbox), ==, count_pending_with_deadline (inbox) > 0);
}

static gboolean
all_timed_out (gpointer data)
{
  Fixture *f = data;

  return f->watch.ended->len >= N_TIMED;
}

static int
compare_deadline_then_arrival (gconstpointer a,
                               gconstpointer b)
{
  ClarifyRequest *ra = *(ClarifyRequest **) a;
  ClarifyRequest *rb = *(ClarifyRequest **) b;
  gint64 da = clarify_request_get_deadline (ra);
  gint64 db = clarify_request_get_deadline (rb);
  guint64 ia = g_ascii_strtoull (clarify_request_get_id (ra) + 1, NULL, 10);
  guint64 ib = g_ascii_strtoull (clarify_request_get_id (rb) + 1, NULL, 10);

  if (da != db)
    return da < db ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

static void
test_timer_order (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) untimed = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *delivered = clarify_test_backend_get_delivered (f->agent);
  gint64 start = g_get_monotonic_time ();
  guint sources_before = count_sources ();
  guint n_ties = 0;

  /* The timer, not the caps (tested below), is what this is about. */
  clarify_inbox_set_limits (f->inbox, 2 * N_TIMED, 2 * N_TIMED);

  for (guint i = 0; i < N_TIMED; i++)
    {
      g_autofree char *id = g_strdup_printf ("t%u", i);
      /* 1–2 s in 5 ms steps: many share a deadline. */
      ClarifyRequest *request = new_request (id, 1000 + 5 * g_test_rand_int_range (0, 201));

      clarify_request_set_received_at (request, start);
      g_assert_true (clarify_backend_add_request (f->backend, request));
      g_ptr_array_add (expected, request);
      if (i % (N_TIMED / N_UNTIMED) == 0)
        {
          g_autofree char *untimed_id = g_strdup_printf ("u%u", i);

          g_ptr_array_add (untimed, new_request (untimed_id, 0));
          g_assert_true (clarify_backend_add_request (f->backend, g_ptr_array_index (untimed, untimed->len - 1)));
        }
    }
  g_assert_cmpuint (clarify_inbox_get_n_pending (f->inbox), ==, N_TIMED + N_UNTIMED);
  g_assert_true (clarify_inbox_has_timer (f->inbox));
  /* One timer for all of them, not one each. */
  g_assert_cmpuint (count_sources (), ==, sources_before + 1);

  g_ptr_array_sort (expected, compare_deadline_then_arrival);
  for (guint i = 1; i < expected->len; i++)
    n_ties += clarify_request_get_deadline (expected->pdata[i]) == clarify_request_get_deadline (expected->pdata[i - 1]);
  /* The seed must give the ties this test is about. */
  g_assert_cmpuint (n_ties, >, 0);

  g_signal_connect (f->inbox, "request-ended", G_CALLBACK (timer_ended_cb), NULL);
  g_assert_true (clarify_test_loop_until (all_timed_out, f, 20000));
  g_signal_handlers_disconnect_by_func (f->inbox, timer_ended_cb, NULL);
  g_test_message ("%u requests timed out in %.2f s, the latest deadline at %.2f s",
                  N_TIMED, (g_get_monotonic_time () - start) / 1e6,
                  (clarify_request_get_deadline (expected->pdata[N_TIMED - 1]) - start) / 1e6);

  /* In deadline order, ties in arrival order, each answered "timed_out" once. */
  g_assert_cmpuint (f->watch.ended->len, ==, N_TIMED);
  g_assert_cmpuint (delivered->len, ==, N_TIMED);
  for (guint i = 0; i < N_TIMED; i++)
    {
      ClarifyRequest *request = expected->pdata[i];

      g_assert_true (f->watch.ended->pdata[i] == request);
      g_assert_cmpstr (clarify_response_get_request_id (delivered->pdata[i]), ==, clarify_request_get_id (request));
      g_assert_cmpint (clarify_response_get_outcome (delivered->pdata[i]), ==, CLARIFY_OUTCOME_TIMED_OUT);
      g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_TIMED_OUT);
    }

  /* Only requests without a deadline wait now: no timer. */
  g_assert_false (clarify_inbox_has_timer (f->inbox));
  g_assert_cmpuint (clarify_inbox_get_n_pending (f->inbox), ==, N_UNTIMED);
  for (guint i = 0; i < untimed->len; i++)
    clarify_test_inbox_assert (&f->watch, f->backend, untimed->pdata[i],
                               CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
}

/* Caps ------------------------------------------------------------------------ */

typedef struct
{
  guint           n;
  ClarifyBackend *backend;  /* of the last emission */
  guint           limit;
} Refusals;

static void
requests_refused_cb (ClarifyInbox   *inbox,
                     ClarifyBackend *backend,
                     guint           limit,
                     Refusals       *refusals)
{
  refusals->n++;
  refusals->backend = backend;
  refusals->limit = limit;
}

/* Adds @id to @backend, which must refuse it as one too many. */
static void
assert_refused (Fixture        *f,
                ClarifyBackend *backend,
                const char     *id)
{
  g_autoptr(ClarifyRequest) request = new_request (id, 0);
  g_autoptr(GError) error = NULL;
  guint n_added = f->watch.added->len;

  g_assert_false (clarify_backend_add_request_full (backend, request, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_BUSY);
  g_assert_null (clarify_backend_lookup_request (backend, id));
  g_assert_cmpuint (f->watch.added->len, ==, n_added);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
}

static void
withdraw (Fixture        *f,
          ClarifyBackend *backend,
          const char     *id)
{
  clarify_backend_withdraw_request (backend, id, CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  g_assert_null (clarify_backend_lookup_request (backend, id));
}

/* One connection holds at most its cap: the rest is refused with BUSY, the
 * user hears of it once per episode, and other connections go on. */
static void
test_cap_per_connection (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(ClarifyBackend) other = clarify_test_backend_new ("B");
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ClarifyRequest) again = NULL;
  g_autoptr(ClarifyRequest) theirs = NULL;
  g_autoptr(GError) error = NULL;
  Refusals refusals = { 0, };

  clarify_inbox_set_limits (f->inbox, 4, 100);
  g_signal_connect (f->inbox, "requests-refused", G_CALLBACK (requests_refused_cb), &refusals);
  clarify_inbox_add_backend (f->inbox, other);

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *id = g_strdup_printf ("a%u", i);

      g_ptr_array_add (held, add_request (f, f->backend, id, 0));
    }
  g_assert_cmpuint (refusals.n, ==, 0);

  assert_refused (f, f->backend, "a4");
  assert_refused (f, f->backend, "a5");
  g_assert_cmpuint (refusals.n, ==, 1);
  g_assert_true (refusals.backend == f->backend);
  g_assert_cmpuint (refusals.limit, ==, 4);

  /* A resync of what it holds is still a duplicate, not a refusal. */
  again = new_request ("a0", 0);
  g_assert_false (clarify_backend_add_request_full (f->backend, again, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);

  /* Another connection is not held back. */
  theirs = add_request (f, other, "b0", 0);

  /* One slot free: taken again, and the next refusal is the same episode. */
  withdraw (f, f->backend, "a0");
  g_ptr_array_add (held, add_request (f, f->backend, "a6", 0));
  assert_refused (f, f->backend, "a7");
  g_assert_cmpuint (refusals.n, ==, 1);

  /* Down to half its cap, the episode is over: the connection is asked to
   * fetch again what was turned away (once), and the next overflow is told. */
  withdraw (f, f->backend, "a1");
  g_assert_cmpuint (clarify_test_backend_get_n_resyncs (f->agent), ==, 0);
  withdraw (f, f->backend, "a2");
  g_assert_cmpuint (clarify_test_backend_get_n_resyncs (f->agent), ==, 1);
  g_assert_cmpuint (clarify_test_backend_get_n_resyncs (CLARIFY_TEST_BACKEND (other)), ==, 0);
  g_ptr_array_add (held, add_request (f, f->backend, "a8", 0));
  g_ptr_array_add (held, add_request (f, f->backend, "a9", 0));
  assert_refused (f, f->backend, "a10");
  g_assert_cmpuint (refusals.n, ==, 2);

  /* Nothing was sent to the agent for the refused ones. */
  g_assert_cmpuint (clarify_test_backend_get_n_attempts (f->agent), ==, 0);

  clarify_inbox_remove_backend (f->inbox, other);
  clarify_inbox_remove_backend (f->inbox, f->backend);
  g_signal_handlers_disconnect_by_data (f->inbox, &refusals);
}

static gboolean
held_reached (gpointer data)
{
  return clarify_test_backend_get_n_held (data) > 0;
}

/* The whole inbox holds at most its cap, whichever connection asks. */
static void
test_cap_in_all (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(ClarifyBackend) other = clarify_test_backend_new ("B");
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  Refusals refusals = { 0, };

  clarify_inbox_set_limits (f->inbox, 100, 5);
  g_signal_connect (f->inbox, "requests-refused", G_CALLBACK (requests_refused_cb), &refusals);
  clarify_inbox_add_backend (f->inbox, other);

  g_ptr_array_add (held, add_request (f, f->backend, "a0", 0));
  g_ptr_array_add (held, add_request (f, f->backend, "a1", 0));
  g_ptr_array_add (held, add_request (f, f->backend, "a2", 0));
  g_ptr_array_add (held, add_request (f, other, "b0", 0));
  g_ptr_array_add (held, add_request (f, other, "b1", 0));

  assert_refused (f, other, "b2");
  assert_refused (f, f->backend, "a3");
  g_assert_cmpuint (refusals.n, ==, 1);
  g_assert_null (refusals.backend);
  g_assert_cmpuint (refusals.limit, ==, 5);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->inbox)), ==, 5);

  /* An answer in flight still counts: it is held until delivered. */
  clarify_test_backend_set_hold (f->agent, TRUE);
  answer (f, g_ptr_array_index (held, 0), CLARIFY_OUTCOME_ANSWERED);
  assert_refused (f, f->backend, "a4");
  clarify_test_backend_set_hold (f->agent, FALSE);
  g_assert_true (clarify_test_loop_until (held_reached, f->agent, WAIT_MS));
  clarify_test_backend_release (f->agent);
  clarify_test_inbox_wait_state (g_ptr_array_index (held, 0), CLARIFY_REQUEST_DONE, WAIT_MS);
  g_ptr_array_add (held, add_request (f, other, "b3", 0));
  g_assert_cmpuint (refusals.n, ==, 1);

  /* Down to half the cap: each connection that was turned away is asked
   * once to fetch again what its agent still asks. */
  withdraw (f, f->backend, "a1");
  withdraw (f, f->backend, "a2");
  g_assert_cmpuint (clarify_test_backend_get_n_resyncs (f->agent), ==, 0);
  withdraw (f, other, "b0");
  g_assert_cmpuint (clarify_test_backend_get_n_resyncs (f->agent), ==, 1);
  g_assert_cmpuint (clarify_test_backend_get_n_resyncs (CLARIFY_TEST_BACKEND (other)), ==, 1);

  clarify_inbox_remove_backend (f->inbox, other);
  clarify_inbox_remove_backend (f->inbox, f->backend);
  g_signal_handlers_disconnect_by_data (f->inbox, &refusals);
}

/* Requests that are large by themselves are held up to a memory budget,
 * however few they are. */
static void
test_cap_bytes (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ClarifyRequest) probe = new_request ("probe", 0);
  Refusals refusals = { 0, };

  clarify_inbox_set_max_bytes (f->inbox, 3 * clarify_inbox_estimate_bytes (probe) + 10);
  g_signal_connect (f->inbox, "requests-refused", G_CALLBACK (requests_refused_cb), &refusals);

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *id = g_strdup_printf ("a%u", i);

      g_ptr_array_add (held, add_request (f, f->backend, id, 0));
    }
  assert_refused (f, f->backend, "a3");
  g_assert_cmpuint (refusals.n, ==, 1);
  g_assert_null (refusals.backend);
  g_assert_cmpuint (refusals.limit, ==, 3);

  /* What a request holds is given back when it ends; above half the
   * budget, the episode goes on. */
  withdraw (f, f->backend, "a0");
  g_ptr_array_add (held, add_request (f, f->backend, "a4", 0));
  assert_refused (f, f->backend, "a5");
  g_assert_cmpuint (refusals.n, ==, 1);

  g_signal_handlers_disconnect_by_data (f->inbox, &refusals);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

#define ADD(path, data, func) \
  g_test_add ("/inbox/" path, Fixture, data, fixture_set_up, func, fixture_tear_down)

  ADD ("answered", &answered, test_user_ends);
  ADD ("skipped", &skipped, test_user_ends);
  ADD ("cancelled", &cancelled, test_user_ends);
  ADD ("timed-out", NULL, test_timed_out);
  ADD ("timed-out-answer-in-flight", NULL, test_timed_out_answer_in_flight);
  ADD ("withdrawn/pending", NULL, test_withdrawn_pending);
  ADD ("withdrawn/awaiting-retry", NULL, test_withdrawn_awaiting_retry);
  ADD ("withdrawn/in-flight-taken", &in_flight_taken, test_withdrawn_in_flight);
  ADD ("withdrawn/in-flight-gone", &in_flight_gone, test_withdrawn_in_flight);
  ADD ("withdrawn/in-flight-refused", &in_flight_refused, test_withdrawn_in_flight);
  ADD ("withdrawn/in-flight-transient", &in_flight_transient, test_withdrawn_in_flight);
  ADD ("answered-elsewhere", &gone, test_final_failure);
  ADD ("agent-restarted", &restarted, test_final_failure);
  ADD ("refused/rejected", GINT_TO_POINTER (CLARIFY_ERROR_REJECTED), test_refused);
  ADD ("refused/auth", GINT_TO_POINTER (CLARIFY_ERROR_AUTH), test_refused);
  ADD ("failed", &protocol, test_final_failure);
  ADD ("backend-removed/pending", NULL, test_backend_removed_pending);
  ADD ("backend-removed/sending", NULL, test_backend_removed_sending);
  ADD ("same-id-two-backends", NULL, test_same_id_two_backends);
  ADD ("readd-ignored", NULL, test_readd_ignored);
  ADD ("expired-on-arrival", NULL, test_expired_on_arrival);
  ADD ("timer-order", NULL, test_timer_order);
  ADD ("cap/per-connection", NULL, test_cap_per_connection);
  ADD ("cap/in-all", NULL, test_cap_in_all);
  ADD ("cap/bytes", NULL, test_cap_bytes);

#undef ADD

  return g_test_run ();
}
