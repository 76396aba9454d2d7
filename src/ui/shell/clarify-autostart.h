/* clarify-autostart.h: starting Clarify at login, when the user chose it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_AUTOSTART (clarify_autostart_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyAutostart, clarify_autostart, CLARIFY, AUTOSTART, GObject)

ClarifyAutostart *clarify_autostart_new              (void);
/* Asks for it (@enabled) or withdraws it: the Background portal in a
 * Flatpak, the user's autostart folder elsewhere. */
void              clarify_autostart_apply            (ClarifyAutostart *self,
                                                      gboolean          enabled,
                                                      GtkWindow        *parent);
char             *clarify_autostart_get_desktop_path (void);
/* For tests: the portal outside a Flatpak too (or not, inside one). */
void              clarify_autostart_set_use_portal   (ClarifyAutostart *self,
                                                      gboolean          use_portal);

G_END_DECLS
