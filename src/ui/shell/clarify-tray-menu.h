/* clarify-tray-menu.h: the tray icon's menu (com.canonical.dbusmenu)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_TRAY_MENU (clarify_tray_menu_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyTrayMenu, clarify_tray_menu, CLARIFY, TRAY_MENU, GObject)

/* "Show Clarify", the oldest of @requests (the GListModel of pending
 * ClarifyRequests, oldest first) and "Quit". Clicks go to the actions
 * "show-window", "open-request" (s: the request key) and "quit" of
 * @actions, held weakly. */
ClarifyTrayMenu *clarify_tray_menu_new      (GActionGroup     *actions,
                                             GListModel       *requests);
gboolean         clarify_tray_menu_export   (ClarifyTrayMenu  *self,
                                             GDBusConnection  *connection,
                                             const char       *object_path,
                                             GError          **error);
void             clarify_tray_menu_unexport (ClarifyTrayMenu  *self);

G_END_DECLS
