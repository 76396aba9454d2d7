/* clarify-question-page.h: one question of a request, with its answer
 *
 * The header and question text, the input for the question's kind, an
 * optional Skip toggle on the question's line, the error once the user
 * has touched the input and, where the agent reads one, "Add a note…".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "clarify-input.h"
#include "clarify-response.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_QUESTION_PAGE (clarify_question_page_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyQuestionPage, clarify_question_page, CLARIFY, QUESTION_PAGE, GtkBox)

/* @context: the request's context, for accessible descriptions (may be NULL).
 * @has_skip_toggle: whether the question gets its own Skip.
 * @initial_values: what its input starts with (a refused answer's), or NULL
 * for the question's defaults. */
ClarifyQuestionPage *clarify_question_page_new             (ClarifyQuestion     *question,
                                                            const char          *context,
                                                            gboolean             has_skip_toggle,
                                                            const char * const  *initial_values);
ClarifyQuestion     *clarify_question_page_get_question    (ClarifyQuestionPage *self);
ClarifyInput        *clarify_question_page_get_input       (ClarifyQuestionPage *self);
GtkLabel            *clarify_question_page_get_error_label (ClarifyQuestionPage *self);
/* "Add a note…" and its field; the expander is NULL when the question
 * takes no note. */
GtkExpander         *clarify_question_page_get_note_expander (ClarifyQuestionPage *self);
GtkEntry            *clarify_question_page_get_note_entry  (ClarifyQuestionPage *self);
/* NULL without has-skip-toggle. */
GtkToggleButton     *clarify_question_page_get_skip_toggle (ClarifyQuestionPage *self);

gboolean             clarify_question_page_get_skip_active (ClarifyQuestionPage *self);
void                 clarify_question_page_set_skip_active (ClarifyQuestionPage *self,
                                                            gboolean             skip_active);
/* Skipped with its toggle, or optional and left empty. */
gboolean             clarify_question_page_is_skipped      (ClarifyQuestionPage *self);
/* Skipped, or validly answered: Next and Submit may go on. */
gboolean             clarify_question_page_is_done         (ClarifyQuestionPage *self);
/* Validly answered or skipped with its toggle, not merely left empty. */
gboolean             clarify_question_page_is_answered     (ClarifyQuestionPage *self);
/* Whether the focus is inside the page. */
gboolean             clarify_question_page_has_focus       (ClarifyQuestionPage *self);
/* Moves the focus to where the user answers. */
void                 clarify_question_page_focus           (ClarifyQuestionPage *self);
/* Keyboard 1–9 on the input; FALSE while skipped. */
gboolean             clarify_question_page_pick            (ClarifyQuestionPage *self,
                                                            guint                index);
void                 clarify_question_page_add_answer      (ClarifyQuestionPage *self,
                                                            ClarifyResponse     *response);

/* Signals:
 *   ::changed when the input's :valid, :error or :touched changes, or it
 *     grows (the dialog may have to grow with it);
 *   ::activate-default when the user presses Enter in a one-line control.
 * :skip-active notifies when the Skip toggle changes. */

G_END_DECLS
