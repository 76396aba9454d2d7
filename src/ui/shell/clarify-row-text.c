/* clarify-row-text.c
 *
 * libadwaita 1.2 parses an action row's subtitle as Pango markup whatever
 * use-markup says (later versions honour it). Rows therefore always take
 * markup, and every text is escaped: literal on every version. The rows
 * of a GtkListView hold plain labels, which need no escaping.
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
clarify_group_set_description (AdwPreferencesGroup *group,
                               const char          *description)
{
  g_autofree char *escaped = description != NULL ? g_markup_escape_text (description, -1) : NULL;

  g_return_if_fail (ADW_IS_PREFERENCES_GROUP (group));

  adw_preferences_group_set_description (group, escaped);
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

/* The texts ask for no width (ClarifyOptionTexts says why): GtkListView
 * (4.8) measures every row across at each layout, and labels that wrap,
 * laid out as narrow as they go, cost a 1,000-question flood with the
 * window open half its CPU (docs/benchmarks.md). */
ClarifyOptionTexts *
clarify_row_add_texts (GtkWidget *row,
                       int        title_lines,
                       int        subtitle_lines)
{
  GtkWidget *texts;

  g_return_val_if_fail (GTK_IS_WIDGET (row), NULL);

  texts = clarify_option_texts_new (FALSE);
  clarify_option_texts_set_lines (CLARIFY_OPTION_TEXTS (texts), title_lines, subtitle_lines);
  /* As libadwaita's "row > box.header > box.title" (the texts are no box). */
  gtk_widget_set_margin_top (texts, 6);
  gtk_widget_set_margin_bottom (texts, 6);
  gtk_widget_add_css_class (row, "header");
  gtk_widget_set_parent (texts, row);

  return CLARIFY_OPTION_TEXTS (texts);
}
