/* clarify-option-texts.h: an option row's label and description, or any
 * list view row's title and subtitle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_OPTION_TEXTS (clarify_option_texts_get_type ())

G_DECLARE_FINAL_TYPE (ClarifyOptionTexts, clarify_option_texts, CLARIFY, OPTION_TEXTS, GtkWidget)

/* With @estimate_height, a question for the height without a width gets
 * clarify_option_texts_least_height() instead of an unwrapped layout: for a
 * list so long that its height does not depend on its rows. */
GtkWidget *clarify_option_texts_new (gboolean            estimate_height);
/* The least height the texts of an option with @description can have. */
int        clarify_option_texts_least_height (const char *description);
/* Agent text, shown literally; no @description hides the second line. */
void       clarify_option_texts_set (ClarifyOptionTexts *self,
                                     const char         *label,
                                     const char         *description);
/* At most @label_lines and @description_lines, ellipsized; 0: no limit. */
void       clarify_option_texts_set_lines       (ClarifyOptionTexts *self,
                                                 int                 label_lines,
                                                 int                 description_lines);
const char *clarify_option_texts_get_label       (ClarifyOptionTexts *self);
const char *clarify_option_texts_get_description (ClarifyOptionTexts *self);
/* Names @widget for screen readers by these texts: GTK 4.8 names a widget
 * by its label property only, not by the labels it holds. */
void        clarify_option_texts_describe        (ClarifyOptionTexts *self,
                                                  GtkWidget          *widget);

G_END_DECLS
