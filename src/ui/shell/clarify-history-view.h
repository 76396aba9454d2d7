/* clarify-history-view.h: the questions that ended, in the main window
 *
 * A group of the window's page: a search field, the list of a
 * ClarifyHistory (newest first: the question, who asked, what was answered
 * or how it ended, and when) filtered by the search, and a Clear button
 * that asks before it forgets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-history.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_HISTORY_VIEW (clarify_history_view_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyHistoryView, clarify_history_view, CLARIFY, HISTORY_VIEW, AdwPreferencesGroup)

GtkWidget      *clarify_history_view_new         (void);
ClarifyHistory *clarify_history_view_get_history (ClarifyHistoryView *self);
void            clarify_history_view_set_history (ClarifyHistoryView *self,
                                                  ClarifyHistory     *history);
/* The rows shown now (after the search). */
guint           clarify_history_view_get_n_shown (ClarifyHistoryView *self);

G_END_DECLS
