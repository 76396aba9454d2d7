/* clarify-text-frame.h: agent text as the agent laid it out, in monospace
 *
 * A card holding a label that asks for its whole height at the width it
 * gets, up to a limit, and scrolls past it: a command never looks cut
 * where a GtkScrolledWindow (4.8) would guess its height without a width.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_TEXT_FRAME (clarify_text_frame_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyTextFrame, clarify_text_frame, CLARIFY, TEXT_FRAME, GtkWidget)

/* @wrap: long lines wrap anywhere; else they scroll sideways.
 * @max_height: taller text scrolls. */
GtkWidget *clarify_text_frame_new       (gboolean          wrap,
                                         int               max_height);
/* Running text rather than text laid out by the agent: the usual font,
 * dimmed, without the card around it. */
void       clarify_text_frame_set_prose (ClarifyTextFrame *self);
GtkWidget *clarify_text_frame_get_label (ClarifyTextFrame *self);
/* Plain text, never markup. */
void       clarify_text_frame_set_text  (ClarifyTextFrame *self,
                                         const char       *text);

G_END_DECLS
