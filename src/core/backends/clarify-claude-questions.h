/* clarify-claude-questions.h: Claude's AskUserQuestion questions and answers
 *
 * Claude Code's AskUserQuestion tool and Phoenix IDE's ask_user_question
 * (seed 004 copies its schema) ask 1–4 questions, each with a short
 * `header`, 2–4 `options` {label, description, preview?}, `multiSelect`,
 * and the free-text "Other" the client always adds. Both take the answers
 * as {"answers":{question text: label, labels joined by ", " or the Other
 * text}} with optional `annotations` (the user's notes, the picked option's
 * preview). One decoder and one encoder serve both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* What answering needs beyond the ClarifyRequest. */
typedef struct _ClarifyClaudeQuestions ClarifyClaudeQuestions;

/* Adds one question ("q1"…) per entry of @questions to @request and returns
 * what the answers need, or NULL with a CLARIFY_ERROR_INVALID. */
ClarifyClaudeQuestions *clarify_claude_questions_decode      (JsonArray               *questions,
                                                              ClarifyRequest          *request,
                                                              GError                 **error);
void                    clarify_claude_questions_free        (ClarifyClaudeQuestions  *self);

/* Adds the members "answers" and, when the user wrote a note or an answered
 * single-select option has a preview, "annotations" {question text:
 * {notes?, preview?}} to the object
 * @builder is building. Skipped questions answer "". Fails (adding nothing)
 * when @request is not the one @self was decoded into. */
gboolean                clarify_claude_questions_add_answers (ClarifyClaudeQuestions  *self,
                                                              ClarifyRequest          *request,
                                                              ClarifyResponse         *response,
                                                              JsonBuilder             *builder,
                                                              GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyClaudeQuestions, clarify_claude_questions_free)

G_END_DECLS
