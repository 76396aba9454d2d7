/* clarify-end-reason.h: the words for why a request ended
 *
 * The core hands the UI a ClarifyEndReason and, at most, some untranslated
 * detail; this is the one place that turns them into a sentence.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-request.h"

G_BEGIN_DECLS

/* A translated sentence for @reason, or NULL for CLARIFY_END_REASON_NONE.
 * @detail (nullable) is clarify_request_get_end_detail(). */
char *clarify_end_reason_describe (ClarifyEndReason  reason,
                                   const char       *detail);

/* What the user hears when their answer to the question @summary did not
 * reach @agent (NULL: a program on this computer, not named): @error is
 * the outbox's, whose CLARIFY_ERROR_GONE and CLARIFY_ERROR_AGENT_RESTARTED
 * say why in the user's words. */
char *clarify_end_reason_describe_undelivered (const char   *summary,
                                               const char   *agent,
                                               const GError *error);

G_END_DECLS
