/* clarify-input-factory.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-confirm-input.h"
#include "clarify-date-input.h"
#include "clarify-date-range-input.h"
#include "clarify-input-factory.h"
#include "clarify-link-input.h"
#include "clarify-multi-input.h"
#include "clarify-number-input.h"
#include "clarify-permission-input.h"
#include "clarify-single-input.h"
#include "clarify-text-input.h"

/**
 * clarify_input_new_for_question:
 * @question: the question to answer
 * @initial_values: (nullable): what the input starts with, for a question
 *   asked again after the agent refused the answer; NULL: its defaults
 *
 * Returns: (transfer floating): the input subclass for @question's kind
 */
ClarifyInput *
clarify_input_new_for_question (ClarifyQuestion    *question,
                                const char * const *initial_values)
{
  GType type = G_TYPE_INVALID;

  g_return_val_if_fail (CLARIFY_IS_QUESTION (question), NULL);

  switch (clarify_question_get_kind (question))
    {
    case CLARIFY_QUESTION_KIND_TEXT:
      type = CLARIFY_TYPE_TEXT_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_SINGLE:
      type = CLARIFY_TYPE_SINGLE_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_MULTI:
      type = CLARIFY_TYPE_MULTI_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_CONFIRM:
      type = CLARIFY_TYPE_CONFIRM_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_NUMBER:
      type = CLARIFY_TYPE_NUMBER_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_DATE:
      type = CLARIFY_TYPE_DATE_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_DATE_RANGE:
      type = CLARIFY_TYPE_DATE_RANGE_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_PERMISSION:
      type = CLARIFY_TYPE_PERMISSION_INPUT;
      break;

    case CLARIFY_QUESTION_KIND_LINK:
      type = CLARIFY_TYPE_LINK_INPUT;
      break;

    default:
      /* The model maps unknown kinds to text already; stay safe anyway. */
      type = CLARIFY_TYPE_TEXT_INPUT;
      break;
    }

  return g_object_new (type, "question", question, "initial-values", initial_values, NULL);
}
