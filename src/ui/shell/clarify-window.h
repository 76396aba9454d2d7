/* clarify-window.h: the main window (connections and open questions)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-application.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_WINDOW (clarify_window_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyWindow, clarify_window, CLARIFY, WINDOW, AdwApplicationWindow)

ClarifyWindow *clarify_window_new        (ClarifyApplication *application);
/* Shows @text (plain, never markup) as a toast. */
void           clarify_window_show_toast (ClarifyWindow      *self,
                                          const char         *text);

G_END_DECLS
