/* clarify-tooltip.h: tooltips set without a round trip to the display
 *
 * gtk_widget_set_tooltip_text() on a visible widget asks the display where
 * the pointer is (GTK 4.8), even for a widget that is not on screen yet,
 * and even when the text is the same. On X11 that is a round trip to the
 * server, 0.17-0.24 ms a call under Xvfb: building the history's 500 rows
 * took 120 ms longer (docs/benchmarks.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Sets @widget's tooltip (and so its accessible description) to @text, or
 * none for NULL or "". Nothing is done for the text it has.
 *
 * A widget in no window, or in one not realized yet, is hidden for the
 * moment it takes the tooltip, which GTK then sets without asking. Its
 * parent sees it hidden and shown: not for the pages of a stack, and
 * mark a widget hidden to screen readers after its tooltip. Any other
 * widget, and one holding its window's focus or default, pays the
 * question. */
void clarify_tooltip_set_text (GtkWidget  *widget,
                               const char *text);

G_END_DECLS
