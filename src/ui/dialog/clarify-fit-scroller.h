/* clarify-fit-scroller.h: a bin for a GtkScrolledWindow that is as tall as its
 * content up to a limit, and can make its window grow to show all of it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_FIT_SCROLLER (clarify_fit_scroller_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyFitScroller, clarify_fit_scroller, CLARIFY, FIT_SCROLLER, AdwBin)

/* From an idle, grows the window by what the content now needs beyond the
 * height it has (once mapped, not when maximized). */
void clarify_fit_scroller_queue_grow (ClarifyFitScroller *self);

G_END_DECLS
