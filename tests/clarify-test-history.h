/* clarify-test-history.h: questions that end through a real inbox, for the
 * history's tests (test-history.c, test-history-ui.c)
 *
 * Header-only (static inline): tests/meson.build links no extra test sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-inbox.h"
#include "clarify-test-server.h"

#define CLARIFY_TEST_HISTORY_WAIT_MS 10000

/* A request of one question "q"; a single choice gets the options
 * @options lists as label, value, label, value, …, NULL. */
static inline ClarifyRequest *
clarify_test_history_request (const char          *id,
                              ClarifyQuestionKind  kind,
                              const char          *text,
                              const char * const  *options)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q", kind, text);

  for (guint i = 0; options != NULL && options[i] != NULL && options[i + 1] != NULL; i += 2)
    {
      g_autoptr(ClarifyOption) option = clarify_option_new (options[i], options[i + 1], NULL);

      clarify_question_add_option (question, option);
    }
  clarify_request_add_question (request, question);

  return request;
}

static inline gboolean
clarify_test_history_request_done (gpointer request)
{
  return clarify_request_get_state (request) == CLARIFY_REQUEST_DONE;
}

/* Answers @request through @inbox with @outcome (and @value, @custom for
 * "q" when either is set), and waits until it ended. */
static inline void
clarify_test_history_answer (ClarifyInbox   *inbox,
                             ClarifyRequest *request,
                             ClarifyOutcome  outcome,
                             const char     *value,
                             const char     *custom)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request), outcome);

  if (value != NULL || custom != NULL)
    {
      const char *values[] = { value, NULL };

      clarify_response_add_answer (response, "q", values, custom, FALSE);
    }
  clarify_inbox_answer (inbox, request, response);
  g_assert_true (clarify_test_loop_until (clarify_test_history_request_done, request, CLARIFY_TEST_HISTORY_WAIT_MS));
}
