/* clarify-row-text.h: text in an AdwActionRow, shown as written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Sets @row's title and subtitle (both nullable) so that they show exactly
 * as written, whatever markup characters agent text holds. */
void clarify_row_set_texts (AdwActionRow *row,
                            const char   *title,
                            const char   *subtitle);
/* The subtitle alone, for a row whose title is the application's own. */
void clarify_row_set_subtitle (AdwActionRow *row,
                               const char   *subtitle);

G_END_DECLS
