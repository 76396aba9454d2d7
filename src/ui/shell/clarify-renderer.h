/* clarify-renderer.h: Clarify draws with cairo unless the user chose a renderer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Before GTK starts: turns GL off unless GSK_RENDERER is set. */
void     clarify_renderer_choose              (void);
/* After GTK started: gives the environment back its own values, so that
 * what Clarify launches (a browser) is not affected. */
void     clarify_renderer_restore_environment (void);

G_END_DECLS
