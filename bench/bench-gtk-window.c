/* bench-gtk-window.c: the references bench-onscreen measures Clarify against
 *
 * The least a GTK 4 program does to show a question: one window, one label,
 * one entry, presented at once. No GResource, no D-Bus name. Built twice:
 * bench-gtk-window with GTK alone, and bench-adw-window (WITH_LIBADWAITA)
 * which calls adw_init() first, as every libadwaita application does, so
 * that the cost of libadwaita's style sheet is seen apart from Clarify's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifdef WITH_LIBADWAITA
#include <adwaita.h>
#else
#include <gtk/gtk.h>
#endif

int
main (int    argc,
      char **argv)
{
  GtkWidget *window;
  GtkWidget *box;

  gtk_init ();
#ifdef WITH_LIBADWAITA
  adw_init ();
#endif

  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "New project");
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_box_append (GTK_BOX (box), gtk_label_new ("What should the new project be called?"));
  gtk_box_append (GTK_BOX (box), gtk_entry_new ());
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));

  while (g_list_model_get_n_items (gtk_window_get_toplevels ()) > 0)
    g_main_context_iteration (NULL, TRUE);

  return 0;
}
