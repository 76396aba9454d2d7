/* clarify-choice-input.h: what single and multiple choice inputs share
 *
 * Chips for a few options, else ClarifyOptionList (see
 * clarify_choice_input_uses_chips()), plus the entry that "Other…" reveals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CHOICE_INPUT (clarify_choice_input_get_type ())
G_DECLARE_DERIVABLE_TYPE (ClarifyChoiceInput, clarify_choice_input, CLARIFY, CHOICE_INPUT, ClarifyInput)

struct _ClarifyChoiceInputClass
{
  ClarifyInputClass parent_class;

  /* Set by the subclass's class_init. */
  gboolean          multiple;
};

/* Whether @question's options show as chips (up to four) rather than as a
 * searchable list. The request dialog also asks, to lay out short questions. */
gboolean   clarify_choice_input_uses_chips      (ClarifyQuestion    *question);
/* The ClarifyChoiceChips or ClarifyOptionList in use. */
GtkWidget *clarify_choice_input_get_view        (ClarifyChoiceInput *self);
/* The entry that "Other…" reveals, or NULL without allow_other. */
GtkWidget *clarify_choice_input_get_other_entry (ClarifyChoiceInput *self);
/* The label showing the highlighted option's preview, in a frame below the
 * options that shows only while there is one; NULL when no option has one. */
GtkWidget *clarify_choice_input_get_preview     (ClarifyChoiceInput *self);

G_END_DECLS
