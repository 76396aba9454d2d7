/* clarify-tray.h: the tray icon (StatusNotifierItem with a dbusmenu)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_TRAY (clarify_tray_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyTray, clarify_tray, CLARIFY, TRAY, GObject)

/* Exports org.kde.StatusNotifierItem at /StatusNotifierItem and its menu
 * (com.canonical.dbusmenu) at /MenuBar on @connection, and
 * registers with org.kde.StatusNotifierWatcher whenever one runs. Clicks go
 * to the actions "show-window", "open-request" (s: the request key) and
 * "quit" of @actions (held weakly: it is usually the application that owns
 * the tray). @requests is the GListModel of pending ClarifyRequests, oldest
 * first. The objects stay exported until the tray is disposed. */
ClarifyTray *clarify_tray_new            (GDBusConnection *connection,
                                          GActionGroup    *actions,
                                          GListModel      *requests);
/* Whether a watcher accepted the item (it then shows as a tray icon). */
gboolean     clarify_tray_get_registered (ClarifyTray     *self);

G_END_DECLS
