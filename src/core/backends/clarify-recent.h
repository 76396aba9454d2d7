/* clarify-recent.h: the last N ids a backend saw end, with a value each
 *
 * Backends remember the questions they finished, so that an agent that
 * lists one again does not get a second dialog. An agent lists what is
 * pending, so only recent ids matter; the oldest go first, and a
 * connection that runs for weeks holds no more than its capacity. Ids
 * are kept as digests, 35–40 bytes each, so they cannot be listed back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ClarifyRecent ClarifyRecent;

/* What a backend keeps of finished questions. */
#define CLARIFY_RECENT_FINISHED_IDS 4096

ClarifyRecent *clarify_recent_new      (guint           capacity,
                                        GDestroyNotify  value_free);
void           clarify_recent_free     (ClarifyRecent  *self);

/* Adds @id as the newest, with @value (owned; may be NULL), replacing what
 * @id had; forgets the oldest past the capacity. */
void           clarify_recent_add      (ClarifyRecent  *self,
                                        const char     *id,
                                        gpointer        value);
gboolean       clarify_recent_contains (ClarifyRecent  *self,
                                        const char     *id);
/* The value of @id, or NULL. */
gpointer       clarify_recent_lookup   (ClarifyRecent  *self,
                                        const char     *id);
void           clarify_recent_remove   (ClarifyRecent  *self,
                                        const char     *id);
guint          clarify_recent_get_size (ClarifyRecent  *self);
/* The value of the oldest id, the next to go past the capacity, or NULL. */
gpointer       clarify_recent_peek_oldest (ClarifyRecent *self);
/* Calls @func for the value of every id, oldest first. */
void           clarify_recent_foreach  (ClarifyRecent  *self,
                                        GFunc           func,
                                        gpointer        user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyRecent, clarify_recent_free)

G_END_DECLS
