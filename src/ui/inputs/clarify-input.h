/* clarify-input.h: base class of the per-kind answer widgets
 *
 * One input kind is one subclass: ClarifyTextInput, ClarifySingleInput,
 * ClarifyMultiInput, ClarifyConfirmInput, ClarifyNumberInput,
 * ClarifyDateInput, ClarifyDateRangeInput, ClarifyPermissionInput;
 * clarify-input-factory.h picks the one for a question.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "clarify-question.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_INPUT (clarify_input_get_type ())
G_DECLARE_DERIVABLE_TYPE (ClarifyInput, clarify_input, CLARIFY, INPUT, GtkWidget)

struct _ClarifyInputClass
{
  GtkWidgetClass parent_class;

  /* Called once the "question" property is set: build the controls. */
  void     (*setup)   (ClarifyInput *self,
                       ClarifyQuestion *question);
  /* Append the answer's values (owned strings) to @values and set
   * @custom_text to the "Other…" text, if any. */
  void     (*collect) (ClarifyInput *self,
                       GPtrArray    *values,
                       char        **custom_text);
  /* Keyboard 1–9: pick the n-th (0-based) choice. FALSE if there is none. */
  gboolean (*pick)    (ClarifyInput *self,
                       guint         index);

  gpointer padding[4];
};

ClarifyQuestion *clarify_input_get_question     (ClarifyInput    *self);
/* For subclasses' setup: what the input starts with, the values of
 * :initial-values (a refused answer's) when set, else the question's
 * defaults. Never NULL. */
const char * const *clarify_input_get_initial_values (ClarifyInput *self);

/* Whether the current answer passes clarify_question_check_answer(). */
gboolean         clarify_input_get_valid        (ClarifyInput    *self);
/* The localized reason it does not, or NULL; shown inline by the dialog
 * once the user has touched the input. */
const char      *clarify_input_get_error        (ClarifyInput    *self);
/* Whether the user has changed anything yet (errors stay quiet before). */
gboolean         clarify_input_get_touched      (ClarifyInput    *self);

void             clarify_input_collect          (ClarifyInput    *self,
                                                 GPtrArray       *values,
                                                 char           **custom_text);
gboolean         clarify_input_pick             (ClarifyInput    *self,
                                                 guint            index);

/* For subclasses: call after every change. It collects, runs
 * clarify_question_check_answer() and updates :valid / :error / :touched. */
void             clarify_input_changed          (ClarifyInput    *self);
/* For subclasses: the question text as accessible label and the request
 * context as description, on the widget the user types into or picks from. */
void             clarify_input_label_accessible (ClarifyInput    *self,
                                                 GtkWidget       *target);
/* The request context, for accessible descriptions (may be NULL). */
void             clarify_input_set_context      (ClarifyInput    *self,
                                                 const char      *context);
const char      *clarify_input_get_context      (ClarifyInput    *self);

/* Signals: ::activate-default when the user presses Enter in a one-line
 * control, so the dialog can move to the next page or submit;
 * ::grown when the input shows more without a change of the answer. */

G_END_DECLS
