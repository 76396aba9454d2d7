/* clarify-question-stack.h: a request's questions, in one form or one page each
 *
 * Up to three short questions share one form; anything else pages.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-question-page.h"
#include "clarify-request.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_QUESTION_STACK (clarify_question_stack_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyQuestionStack, clarify_question_stack, CLARIFY, QUESTION_STACK, AdwBin)

ClarifyRequest      *clarify_question_stack_get_request  (ClarifyQuestionStack *self);
/* Builds the pages; a stack takes one request only. With @previous, an
 * answer the agent refused, each input starts from what it answered. */
void                 clarify_question_stack_set_request  (ClarifyQuestionStack *self,
                                                          ClarifyRequest       *request,
                                                          ClarifyResponse      *previous);
/* One page per question (TRUE), or all questions in one form (FALSE). */
gboolean             clarify_question_stack_get_paged    (ClarifyQuestionStack *self);
guint                clarify_question_stack_get_n_pages  (ClarifyQuestionStack *self);
ClarifyQuestionPage *clarify_question_stack_get_page     (ClarifyQuestionStack *self,
                                                          guint                 position);
gboolean             clarify_question_stack_find_page    (ClarifyQuestionStack *self,
                                                          ClarifyQuestionPage  *page,
                                                          guint                *position);
/* Paged: the page showing; always 0 in a form. */
guint                clarify_question_stack_get_visible  (ClarifyQuestionStack *self);
/* Paged: shows the page at @position. The caller moves the focus into it. */
void                 clarify_question_stack_set_visible  (ClarifyQuestionStack *self,
                                                          guint                 position);
/* Paged: the page showing. Form: the page holding the focus, else the
 * first one not done. */
guint                clarify_question_stack_get_current  (ClarifyQuestionStack *self);
/* Every question is answered or skipped. */
gboolean             clarify_question_stack_get_all_done (ClarifyQuestionStack *self);

G_END_DECLS
