/* clarify-row-text.c
 *
 * libadwaita 1.2 parses an action row's subtitle as Pango markup whatever
 * use-markup says (later versions honour it). Rows therefore always take
 * markup, and every text is escaped: literal on every version.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-row-text.h"

void
clarify_row_set_subtitle (AdwActionRow *row,
                          const char   *subtitle)
{
  g_autofree char *escaped = g_markup_escape_text (subtitle != NULL ? subtitle : "", -1);

  g_return_if_fail (ADW_IS_ACTION_ROW (row));

  adw_action_row_set_subtitle (row, escaped);
}

void
clarify_row_set_texts (AdwActionRow *row,
                       const char   *title,
                       const char   *subtitle)
{
  g_autofree char *escaped_title = g_markup_escape_text (title != NULL ? title : "", -1);

  g_return_if_fail (ADW_IS_ACTION_ROW (row));

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), TRUE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_title);
  clarify_row_set_subtitle (row, subtitle);
}
