/* clarify-preferences-window.h: the preferences, each applied at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-application.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_PREFERENCES_WINDOW (clarify_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyPreferencesWindow, clarify_preferences_window, CLARIFY, PREFERENCES_WINDOW, AdwPreferencesWindow)

ClarifyPreferencesWindow *clarify_preferences_window_new (ClarifyApplication *application);

G_END_DECLS
