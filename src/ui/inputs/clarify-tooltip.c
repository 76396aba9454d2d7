/* clarify-tooltip.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-tooltip.h"

static gboolean
is_or_holds (GtkWidget *widget,
             GtkWidget *held)
{
  return held != NULL && (held == widget || gtk_widget_is_ancestor (held, widget));
}

/* A widget hidden even for a moment loses its window's focus and default
 * widget at the window's first frame (GTK 4.8), shown again or not. */
static gboolean
holds_focus_or_default (GtkWidget *widget,
                        GtkRoot   *root)
{
  return is_or_holds (widget, gtk_root_get_focus (root)) ||
         (GTK_IS_WINDOW (root) && is_or_holds (widget, gtk_window_get_default_widget (GTK_WINDOW (root))));
}

/* Not in a window on screen or about to be, nothing that shows itself
 * when shown, and nothing to take from its window. */
static gboolean
can_hide_for_a_moment (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);

  if (!gtk_widget_get_visible (widget) || GTK_IS_NATIVE (widget))
    return FALSE;
  if (root == NULL)
    return TRUE;

  return !gtk_widget_get_realized (GTK_WIDGET (root)) && !holds_focus_or_default (widget, root);
}

void
clarify_tooltip_set_text (GtkWidget  *widget,
                          const char *text)
{
  g_autoptr(GtkWidget) keep = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text != NULL && text[0] == '\0')
    text = NULL;
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) == 0)
    return;

  if (!can_hide_for_a_moment (widget))
    {
      gtk_widget_set_tooltip_text (widget, text);
      return;
    }

  /* Hidden, it is not asked where the pointer is. */
  keep = g_object_ref (widget);
  gtk_widget_set_visible (widget, FALSE);
  gtk_widget_set_tooltip_text (widget, text);
  gtk_widget_set_visible (widget, TRUE);
}
