/* clarify-option-list.h: many choices as a searchable list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-choice-view.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_OPTION_LIST (clarify_option_list_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyOptionList, clarify_option_list, CLARIFY, OPTION_LIST, ClarifyChoiceView)

/* @options: a GListModel of ClarifyOption. The search ignores case and
 * accents and looks at labels and descriptions. Single choice selects one
 * row; multiple choice is a checklist with a "N selected" count. With
 * @with_other, a last row "Other…" stays visible whatever the search.
 * The search and the list are one stop each for Tab; the arrow keys move
 * between the rows. */
GtkWidget         *clarify_option_list_new              (GListModel        *options,
                                                         gboolean           multiple,
                                                         gboolean           with_other);

GtkWidget         *clarify_option_list_get_search_entry (ClarifyOptionList *self);
GtkWidget         *clarify_option_list_get_list_view    (ClarifyOptionList *self);
/* The rows as shown (after the search), Other last; a GtkSingleSelection
 * for single choice, a GtkNoSelection for the checklist. */
GtkSelectionModel *clarify_option_list_get_model        (ClarifyOptionList *self);
/* A long list shows the rows that fill it first and adds the others a few
 * each frame once it is on screen: TRUE until all are in the model. */
gboolean           clarify_option_list_get_filling      (ClarifyOptionList *self);

/* ::activate-default (see ClarifyChoiceView) on Enter in the search when
 * nothing is left to pick, and on activating (double-click, Enter) a row of
 * a single choice. */

G_END_DECLS
