/* clarify-wrap-bin.h: a bin for wrapped text whose width does not depend
 * on its height
 *
 * GTK 4.8's horizontal GtkBox, measured for a height, searches for the
 * width at which each height-for-width child fits: for a wrapped label
 * beside a button, that is hundreds of text layouts per dialog, most of
 * the time a dialog takes to appear. In this bin the child is asked its
 * width without a height, and its height for the width it gets, as a
 * label that wraps is meant to be.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_WRAP_BIN (clarify_wrap_bin_get_type ())

G_DECLARE_FINAL_TYPE (ClarifyWrapBin, clarify_wrap_bin, CLARIFY, WRAP_BIN, AdwBin)

GtkWidget *clarify_wrap_bin_new (GtkWidget *child);

G_END_DECLS
