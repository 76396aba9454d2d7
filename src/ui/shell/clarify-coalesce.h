/* clarify-coalesce.h: one update for a burst of changes, at most one a frame
 *
 * The tray's count and menu follow the inbox, whose requests may come and go
 * by the hundred in one resync. Each change queues the update; it runs once
 * the burst is handled (a 0 ms source), and never sooner than a frame
 * (16 ms) after the previous one. No source exists while nothing is queued.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ClarifyCoalesce ClarifyCoalesce;

ClarifyCoalesce *clarify_coalesce_new   (GFunc            update,
                                         gpointer         data);
/* Asks for the update; several calls before it runs make one. */
void             clarify_coalesce_queue (ClarifyCoalesce *self);
/* Runs a queued update now (before answering someone who reads the
 * result); FALSE when none was queued. */
gboolean         clarify_coalesce_flush (ClarifyCoalesce *self);
void             clarify_coalesce_free  (ClarifyCoalesce *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyCoalesce, clarify_coalesce_free)

G_END_DECLS
