/* clarify-validate.h: what agents send is checked here before any UI sees it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-pattern.h"
#include "clarify-request.h"

G_BEGIN_DECLS

/* Caps that protect the UI; longer input is truncated with "…" and logged. */
#define CLARIFY_MAX_TITLE_CHARS        200
#define CLARIFY_MAX_QUESTION_CHARS     2000
#define CLARIFY_MAX_CONTEXT_CHARS      4000
#define CLARIFY_MAX_HEADER_CHARS       40
#define CLARIFY_MAX_PLACEHOLDER_CHARS  200
#define CLARIFY_MAX_OPTIONS            200
#define CLARIFY_MAX_OPTION_LABEL_CHARS 200
#define CLARIFY_MAX_QUESTIONS          20
#define CLARIFY_MAX_PATTERN_CHARS      200
/* Number bounds and steps past ±this are taken as ±this. */
#define CLARIFY_MAX_NUMBER             1e15
#define CLARIFY_MAX_PREVIEW_CHARS      4000
/* Not truncated but refused: a command is shown whole or not at all. */
#define CLARIFY_MAX_SUBJECT_CHARS      16000

/* Applies the caps (truncating, dropping options past the cap) and rejects
 * what cannot be shown honestly: no questions, a choice without options, an
 * unsafe pattern, min > max, a date range default whose start is after its end. */
gboolean clarify_request_validate          (ClarifyRequest  *request,
                                            GError         **error);

/* Checks one answer against its question. On failure sets @message to a
 * localized sentence for the user and returns FALSE. An empty answer to a
 * question is invalid (the dialog offers Skip for skippable ones). */
gboolean clarify_question_check_answer     (ClarifyQuestion    *question,
                                            const char * const *values,
                                            const char         *custom_text,
                                            char              **message);

/* Whether @text is NULL, empty or only whitespace: what counts as no answer. */
gboolean clarify_text_is_blank             (const char      *text);

/* Truncates @text in place to @max_chars characters (not bytes), ending in "…".
 * Returns TRUE when it cut. */
gboolean clarify_truncate_text             (char            *text,
                                            guint            max_chars);

G_END_DECLS
