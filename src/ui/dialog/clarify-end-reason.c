/* clarify-end-reason.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-end-reason.h"
#include "clarify-error.h"

char *
clarify_end_reason_describe (ClarifyEndReason  reason,
                             const char       *detail)
{
  gboolean has_detail = detail != NULL && *detail != '\0';

  switch (reason)
    {
    case CLARIFY_END_REASON_NONE:
      return NULL;

    case CLARIFY_END_REASON_AGENT_WITHDREW:
      /* The agent's own words say it best, in the agent's language. */
      if (has_detail)
        return g_strdup (detail);
      return g_strdup (_("The agent withdrew this question."));

    case CLARIFY_END_REASON_ANSWERED_ELSEWHERE:
      return g_strdup (_("This question was answered elsewhere."));

    case CLARIFY_END_REASON_ANSWERED_IN_TERMINAL:
      return g_strdup (_("Answered in the terminal"));

    case CLARIFY_END_REASON_SESSION_ENDED:
      return g_strdup (_("The session ended"));

    case CLARIFY_END_REASON_CALLER_LEFT:
      return g_strdup (_("The agent stopped waiting for an answer"));

    case CLARIFY_END_REASON_STOPPED_LISTENING:
      return g_strdup (_("Clarify stopped listening for this agent"));

    case CLARIFY_END_REASON_TIME_RAN_OUT:
      return g_strdup (_("The time to answer ran out"));

    case CLARIFY_END_REASON_CONNECTION_REMOVED:
      return g_strdup (_("The connection was removed"));

    case CLARIFY_END_REASON_REMOVED_BEFORE_DELIVERY:
      return g_strdup (_("The connection was removed before the answer was delivered"));

    case CLARIFY_END_REASON_ANSWER_REFUSED:
      if (has_detail)
        /* Translators: %s is the agent's error message, often in English */
        return g_strdup_printf (_("The agent refused the answer: %s"), detail);
      return g_strdup (_("The agent refused the answer"));

    case CLARIFY_END_REASON_DELIVERY_FAILED:
      if (has_detail)
        /* Translators: %s is an error message, often in English */
        return g_strdup_printf (_("The answer could not be delivered: %s"), detail);
      return g_strdup (_("The answer could not be delivered"));

    case CLARIFY_END_REASON_WAITING_FOR_AGENT:
      return g_strdup (_("The agent has not received the answer yet; Clarify keeps trying, also after a restart"));

    case CLARIFY_END_REASON_NOT_NEEDED:
      return g_strdup (_("The agent no longer needed this answer"));

    case CLARIFY_END_REASON_AGENT_RESTARTED:
      return g_strdup (_("The agent restarted; this question is gone"));

    default:
      g_return_val_if_reached (NULL);
    }
}

char *
clarify_end_reason_describe_undelivered (const char   *summary,
                                         const char   *agent,
                                         const GError *error)
{
  gboolean gone, restarted;

  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (error != NULL, NULL);

  gone = g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  restarted = g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED);

  if (agent == NULL)
    {
      if (gone)
        /* Translators: %s is a question */
        return g_strdup_printf (_("“%s” was answered elsewhere before your answer arrived"), summary);
      if (restarted)
        /* Translators: %s is a question */
        return g_strdup_printf (_("Your answer to “%s” was not delivered: the program that asked is gone"),
                                summary);
      /* Translators: the first %s is a question, the second an error message */
      return g_strdup_printf (_("Your answer to “%s” could not be sent: %s"), summary, error->message);
    }

  if (gone)
    /* Translators: the first %s is a question, the second an agent's name */
    return g_strdup_printf (_("“%s” was answered elsewhere before your answer reached %s"), summary, agent);
  if (restarted)
    /* Translators: the first %s is a question, the second an agent's name */
    return g_strdup_printf (_("Your answer to “%s” was not delivered: %s restarted and no longer asks it"),
                            summary, agent);

  /* Translators: the first %s is a question, the second an agent's name,
   * the third an error message (often in English) */
  return g_strdup_printf (_("Your answer to “%s” could not be sent to %s: %s"), summary, agent, error->message);
}
