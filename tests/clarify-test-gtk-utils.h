/* clarify-test-gtk-utils.h: shared helpers for the UI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "clarify-test-server.h"

G_BEGIN_DECLS

/* gtk_test_init(), the gettext domain bound to the build tree, libadwaita
 * and Clarify's styles, and no animations. Call first in main(). */
void     clarify_test_gtk_init          (int         *argc,
                                         char      ***argv);
/* Switches our catalog and the locale (de_DE.UTF-8 or C.UTF-8) to
 * @language ("en", "de") for the following widgets. */
void     clarify_test_set_language      (const char  *language);
/* The first of @application's windows of @type, and how many there are. */
GtkWindow *clarify_test_find_app_window (GtkApplication *application,
                                         GType           type,
                                         guint          *n_found);
/* Presents @window and waits until it has drawn. */
void     clarify_test_present_and_wait  (GtkWindow   *window);
/* Presents @window and waits until it has the focus, as a user clicking it. */
void     clarify_test_present_and_focus (GtkWindow   *window);
/* Gives the focus to a window of no application, as a user switching to
 * another program: no Clarify window has it afterwards. */
void     clarify_test_focus_elsewhere   (void);
/* Renders @widget's window in-process and writes $CLARIFY_SCREENSHOT_DIR/@name.png.
 * Returns the path written (free it). */
char    *clarify_test_save_screenshot   (GtkWidget   *widget,
                                         const char  *name);
/* Iterates the default main context until @condition(@data) is TRUE or
 * @timeout_ms passes; returns the condition's last value. */
gboolean clarify_test_wait_until        (gboolean   (*condition) (gpointer data),
                                         gpointer     data,
                                         guint        timeout_ms);
/* Whether the popover of @menu_button (a GtkMenuButton) is on screen; for
 * clarify_test_wait_until(). */
gboolean clarify_test_popover_is_open   (gpointer     menu_button);
/* Waits until the idle work GTK does after a frame has run (GtkTextView
 * lays out the lines it does not show yet at GTK_TEXT_VIEW_PRIORITY_VALIDATE),
 * @widget is allocated the natural height it then asks for (a window that
 * grows gets its new size from the display server a frame later) and a
 * frame was drawn with it. For widgets their parents give their natural
 * height; returns FALSE if that did not happen within @timeout_ms. */
gboolean clarify_test_wait_for_natural_height (GtkWidget *widget,
                                               guint      timeout_ms);
/* Iterates the main context for about @ms milliseconds. */
void     clarify_test_spin              (guint        ms);
/* The first descendant of @root whose buildable id or widget name is @name,
 * or whose accessible/button label equals @label when @name is NULL. */
GtkWidget *clarify_test_find_widget     (GtkWidget   *root,
                                         const char  *name);
GtkWidget *clarify_test_find_button     (GtkWidget   *root,
                                         const char  *label);
/* @root itself or its first descendant that is a @type, or NULL. */
GtkWidget *clarify_test_find_descendant (GtkWidget   *root,
                                         GType        type);
/* Waits until the first ClarifyOptionList in @root, if any, has all its
 * rows: a long one gets them a batch a frame once shown. */
gboolean   clarify_test_wait_list_filled (GtkWidget  *root,
                                          guint       timeout_ms);
/* @root itself or its first descendant that is a GtkLabel showing exactly
 * @text, visible or not; NULL when there is none. */
GtkWidget *clarify_test_find_label      (GtkWidget   *root,
                                         const char  *text);
/* Whether @trigger fires for @keyval with exactly @modifiers. */
gboolean   clarify_test_trigger_matches (GtkShortcutTrigger *trigger,
                                         guint               keyval,
                                         GdkModifierType     modifiers);
/* Runs what @window's focus widget and its ancestors bind to the key, in
 * the order a key press reaches them (capture from the window down, then
 * bubble up), as the key press would; returns whether a binding took it. */
gboolean   clarify_test_send_key        (GtkWidget          *window,
                                         guint               keyval,
                                         GdkModifierType     modifiers);
/* Replaces what a GtkEditable (an entry) or a GtkTextView holds with @text,
 * the cursor at its end, as selecting all and typing it would. */
void       clarify_test_set_field_text  (GtkWidget          *field,
                                         const char         *text);
/* A new private config dir for this process and the instances it starts
 * (XDG_CONFIG_HOME, secrets kept in a file there) holding @mcp_ini as
 * clarify/mcp.ini. Call before anything caches the user dirs.
 * Returns its path (free it); remove it with clarify_test_remove_tree(). */
char      *clarify_test_private_config_home (const char *mcp_ini);
G_END_DECLS
