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

static GtkLabel *
add_label (GtkWidget  *box,
           const char *css_class,
           int         lines)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (label), lines);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, css_class);
  gtk_box_append (GTK_BOX (box), label);

  return GTK_LABEL (label);
}

/* libadwaita's rules for "row > box.header" then style them. */
void
clarify_row_add_title_labels (GtkWidget  *row,
                              int         title_lines,
                              int         subtitle_lines,
                              GtkLabel  **title_label,
                              GtkLabel  **subtitle_label)
{
  GtkWidget *title_box;

  g_return_if_fail (GTK_IS_WIDGET (row));

  title_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_add_css_class (row, "header");
  gtk_widget_add_css_class (title_box, "title");
  gtk_widget_set_hexpand (title_box, TRUE);
  gtk_widget_set_valign (title_box, GTK_ALIGN_CENTER);
  gtk_widget_set_parent (title_box, row);
  *title_label = add_label (title_box, "title", title_lines);
  *subtitle_label = add_label (title_box, "subtitle", subtitle_lines);
}
