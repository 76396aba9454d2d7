/* clarify-window.h: the main window (connections and open questions)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-connection-store.h"
#include "clarify-history.h"
#include "clarify-inbox.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_WINDOW (clarify_window_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyWindow, clarify_window, CLARIFY, WINDOW, AdwApplicationWindow)

/* The window shows @inbox's requests and connections. */
ClarifyWindow *clarify_window_new        (GtkApplication     *application,
                                          ClarifyInbox       *inbox);
/* Shows @text (plain, never markup) as a toast. */
void           clarify_window_show_toast (ClarifyWindow      *self,
                                          const char         *text);
/* Lists @history's questions below the open ones. */
void           clarify_window_set_history (ClarifyWindow     *self,
                                           ClarifyHistory    *history);

/* The stored connections, whose rows open their editor (app.edit-connection). */
void           clarify_window_set_connection_store (ClarifyWindow          *self,
                                                    ClarifyConnectionStore *store);

G_END_DECLS
