/* clarify-autostart.h: starting Clarify at login, when the user chose it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_AUTOSTART (clarify_autostart_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyAutostart, clarify_autostart, CLARIFY, AUTOSTART, GObject)

ClarifyAutostart *clarify_autostart_new         (void);
gboolean          clarify_autostart_get_enabled (ClarifyAutostart *self);
void              clarify_autostart_set_enabled (ClarifyAutostart *self,
                                                 gboolean          enabled,
                                                 GtkWindow        *parent);
void              clarify_autostart_apply       (ClarifyAutostart *self,
                                                 GtkWindow        *parent);
char             *clarify_autostart_get_desktop_path (void);

G_END_DECLS
