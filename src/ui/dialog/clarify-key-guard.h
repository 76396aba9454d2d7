/* clarify-key-guard.h: keys ignored for a moment after a window appears
 *
 * A dialog that pops up while the person types elsewhere must not turn
 * their next Enter into an answer. The guard swallows every key press in
 * the capture phase while it is armed, and each key it swallows arms it
 * again, so a person who keeps typing never answers by accident. Its
 * one-shot timer exists only while it is armed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_KEY_GUARD (clarify_key_guard_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyKeyGuard, clarify_key_guard, CLARIFY, KEY_GUARD, GObject)

/* Watches @widget's key presses (before any shortcut or focused child). */
ClarifyKeyGuard *clarify_key_guard_new           (GtkWidget       *widget,
                                                  guint            duration_ms);
void             clarify_key_guard_set_duration  (ClarifyKeyGuard *self,
                                                  guint            duration_ms);
/* From now, for the duration; again from now if already armed. */
void             clarify_key_guard_arm           (ClarifyKeyGuard *self);
void             clarify_key_guard_disarm        (ClarifyKeyGuard *self);
gboolean         clarify_key_guard_get_armed     (ClarifyKeyGuard *self);
/* How many key presses it swallowed so far. */
guint            clarify_key_guard_get_n_ignored (ClarifyKeyGuard *self);

G_END_DECLS
