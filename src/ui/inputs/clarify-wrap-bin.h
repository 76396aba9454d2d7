/* clarify-wrap-bin.h: a bin for wrapped text whose width does not depend
 * on its height
 *
 * GTK 4.8 asks for a widget's width at a given height in many places: a
 * horizontal GtkBox of its children on every size request, GtkStack of
 * its visible child when allocating, GtkWindow of its content for the
 * least size, and gtk_widget_allocate() of any widget not aligned to fill.
 * A wrapped label answers with a search over its widths; a box of them
 * searches over widths too, measuring everything inside at each one. For
 * a dialog of wrapped text that was hundreds of text layouts per label,
 * most of the time it took to appear.
 *
 * In this bin the child is asked its width without a height, and its
 * height for the width it gets, as wrapped text is meant to be. Align the
 * bin, not the child: an aligned child is measured again on allocation.
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
