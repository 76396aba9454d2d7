/* clarify-row-text.h: a row's text, shown as written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-option-texts.h"

G_BEGIN_DECLS

/* Sets @row's title and subtitle (both nullable) so that they show exactly
 * as written, whatever markup characters agent text holds. */
void clarify_row_set_texts (AdwActionRow *row,
                            const char   *title,
                            const char   *subtitle);
/* The subtitle alone, for a row whose title is the application's own. */
void clarify_row_set_subtitle (AdwActionRow *row,
                               const char   *subtitle);
/* A group's description (nullable), shown as written: libadwaita 1.2
 * parses it as markup too. */
void clarify_group_set_description (AdwPreferencesGroup *group,
                                    const char          *description);
/* For the content of a GtkListView's row (@row, a box-layout widget with
 * the CSS name "box"): its title and subtitle, where an action row has
 * them, at most @title_lines and @subtitle_lines (0: no limit). */
ClarifyOptionTexts *clarify_row_add_texts (GtkWidget *row,
                                           int        title_lines,
                                           int        subtitle_lines);

G_END_DECLS
