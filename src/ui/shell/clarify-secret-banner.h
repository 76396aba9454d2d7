/* clarify-secret-banner.h: says so when no keyring answers, and lets the
 * user choose where passwords and tokens go instead
 *
 * Visible only while no Secret Service (or portal) answers and the user
 * has not chosen: a file readable only by them, or nowhere on disk (kept
 * until Clarify quits, asked for again after a restart).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_SECRET_BANNER (clarify_secret_banner_get_type ())
G_DECLARE_FINAL_TYPE (ClarifySecretBanner, clarify_secret_banner, CLARIFY, SECRET_BANNER, GtkBox)

GtkWidget *clarify_secret_banner_new (void);
/* Asks the Secret Service again and shows or hides the banner. */
void       clarify_secret_banner_refresh (ClarifySecretBanner *self);

G_END_DECLS
