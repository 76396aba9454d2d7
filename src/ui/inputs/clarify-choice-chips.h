/* clarify-choice-chips.h: a few choices as wrapping pill toggle buttons
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-choice-view.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CHOICE_CHIPS (clarify_choice_chips_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyChoiceChips, clarify_choice_chips, CLARIFY, CHOICE_CHIPS, ClarifyChoiceView)

/* @options: a GListModel of ClarifyOption. Single choice behaves like radio
 * buttons and shows a round mark, multiple choice a square one that is
 * checked on the active chips. With @with_other, a last chip "Other…" joins
 * the group. The chips are one stop for Tab, the arrow keys move between
 * them, Space picks and Enter emits ::activate-default; each of the first
 * nine shows the digit that picks it while the chips have the focus. */
GtkWidget *clarify_choice_chips_new             (GListModel         *options,
                                                 gboolean            multiple,
                                                 gboolean            with_other);
/* Equal-width chips, all on one line (Yes / No). */
void       clarify_choice_chips_set_homogeneous (ClarifyChoiceChips *self,
                                                 gboolean            homogeneous);
/* The chip of the n-th option (the Other chip comes last), or NULL. */
GtkWidget *clarify_choice_chips_get_chip        (ClarifyChoiceChips *self,
                                                 guint               index);

G_END_DECLS
