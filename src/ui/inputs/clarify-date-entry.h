/* clarify-date-entry.h: an entry for one date, with a calendar popover
 *
 * Shows the date in the user's locale; accepts ISO YYYY-MM-DD and the
 * locale's own format when typed (clarify-date-text.h), and says in words
 * which date it understood.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_DATE_ENTRY (clarify_date_entry_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyDateEntry, clarify_date_entry, CLARIFY, DATE_ENTRY, GtkWidget)

GtkWidget  *clarify_date_entry_new              (void);

/* The date as ISO YYYY-MM-DD (free it), or NULL when empty or no date. */
char       *clarify_date_entry_get_iso          (ClarifyDateEntry *self);
/* What is typed, as it is. */
const char *clarify_date_entry_get_text         (ClarifyDateEntry *self);
/* Fills in @date (ISO or the locale's format) and shows it in the locale's
 * format; NULL clears. Returns whether it was a date. */
gboolean    clarify_date_entry_set_date         (ClarifyDateEntry *self,
                                                 const char       *date);
/* The month the calendar opens on while the entry is empty (ISO, or NULL
 * for today); the end of a range opens where the start is. */
void        clarify_date_entry_set_calendar_hint (ClarifyDateEntry *self,
                                                  const char       *iso);

GtkWidget  *clarify_date_entry_get_entry        (ClarifyDateEntry *self);
GtkWidget  *clarify_date_entry_get_calendar     (ClarifyDateEntry *self);
GtkWidget  *clarify_date_entry_get_button       (ClarifyDateEntry *self);
/* A label with the date understood in words ("Tue, 1 December 2026"),
 * hidden while there is none. Not a child: the input places it, below the
 * field, so that its width never moves the field. */
GtkWidget  *clarify_date_entry_get_words        (ClarifyDateEntry *self);

/* Signals: ::changed when the text changes; ::activate on Enter. */

G_END_DECLS
