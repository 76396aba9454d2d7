/* clarify-coalesce.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-coalesce.h"

#define FRAME_US (G_USEC_PER_SEC / 60)

struct _ClarifyCoalesce
{
  GFunc    update;
  gpointer data;
  guint    source_id;
  gint64   last_run;   /* monotonic µs; 0: never */
};

ClarifyCoalesce *
clarify_coalesce_new (GFunc    update,
                      gpointer data)
{
  ClarifyCoalesce *self = g_new0 (ClarifyCoalesce, 1);

  g_return_val_if_fail (update != NULL, NULL);

  self->update = update;
  self->data = data;
  return self;
}

static void
run (ClarifyCoalesce *self)
{
  self->last_run = g_get_monotonic_time ();
  self->update (self->data, NULL);
}

static gboolean
run_cb (gpointer user_data)
{
  ClarifyCoalesce *self = user_data;

  self->source_id = 0;
  run (self);
  return G_SOURCE_REMOVE;
}

void
clarify_coalesce_queue (ClarifyCoalesce *self)
{
  gint64 wait_us;

  g_return_if_fail (self != NULL);

  if (self->source_id != 0)
    return;

  /* 0 ms: after whatever else the main loop has ready, this burst's
   * remaining changes among it. */
  wait_us = self->last_run == 0 ? 0 : self->last_run + FRAME_US - g_get_monotonic_time ();
  self->source_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) (MAX (wait_us, 0) + 999) / 1000,
                                        run_cb, self, NULL);
  g_source_set_name_by_id (self->source_id, "[clarify] coalesced update");
}

gboolean
clarify_coalesce_flush (ClarifyCoalesce *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->source_id == 0)
    return FALSE;

  g_clear_handle_id (&self->source_id, g_source_remove);
  run (self);
  return TRUE;
}

void
clarify_coalesce_free (ClarifyCoalesce *self)
{
  if (self == NULL)
    return;

  g_clear_handle_id (&self->source_id, g_source_remove);
  g_free (self);
}
