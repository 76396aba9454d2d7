/* clarify-countdown.h: the time left to answer, as a bar and "4:59 left"
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The warning style (css class "warning") starts this many seconds before the end. */
#define CLARIFY_COUNTDOWN_WARNING_SECONDS 30

#define CLARIFY_TYPE_COUNTDOWN (clarify_countdown_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyCountdown, clarify_countdown, CLARIFY, COUNTDOWN, GtkWidget)

ClarifyCountdown *clarify_countdown_new           (void);

/* Counts down to @deadline_us (g_get_monotonic_time() based) over a total of
 * @duration_us. While the widget is mapped one timer wakes when the shown
 * second changes; while realized but hidden one timer waits for the deadline
 * only; unrealized (before the window is shown, after it is destroyed) there
 * is no timer. ::expired is emitted once, from the main loop, right after
 * realizing when the deadline has already passed. */
void              clarify_countdown_start         (ClarifyCountdown *self,
                                                   gint64            deadline_us,
                                                   gint64            duration_us);
/* Removes the timer; ::expired will not be emitted. */
void              clarify_countdown_stop          (ClarifyCountdown *self);

gboolean          clarify_countdown_get_running   (ClarifyCountdown *self);
/* Whole seconds left as shown (rounded up), 0 once expired. */
guint             clarify_countdown_get_seconds   (ClarifyCountdown *self);
gboolean          clarify_countdown_get_warning   (ClarifyCountdown *self);
/* The text shown for @seconds left, e.g. "4:59 left". */
char             *clarify_countdown_format        (guint             seconds);

/* Signals: ::expired when the deadline is reached. */

G_END_DECLS
