/* clarify-history-row.h: one question that ended, in the history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-history.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_HISTORY_ROW (clarify_history_row_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyHistoryRow, clarify_history_row, CLARIFY, HISTORY_ROW, GtkWidget)

/* The content of a GtkListView's row: the question, then who asked, what
 * became of it and when; the answer in full as the tooltip. Plain text. */
GtkWidget           *clarify_history_row_new          (void);
/* @entry may be NULL: the row shows nothing until it gets one. */
void                 clarify_history_row_set_entry    (ClarifyHistoryRow   *self,
                                                       ClarifyHistoryEntry *entry);
ClarifyHistoryEntry *clarify_history_row_get_entry    (ClarifyHistoryRow   *self);
const char          *clarify_history_row_get_title    (ClarifyHistoryRow   *self);
const char          *clarify_history_row_get_subtitle (ClarifyHistoryRow   *self);

G_END_DECLS
