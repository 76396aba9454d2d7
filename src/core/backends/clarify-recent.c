/* clarify-recent.c
 *
 * An id is kept as the first 16 bytes of its SHA-256, in arrays that
 * double as the table fills: 35–40 bytes an id at the capacity, in a
 * few large blocks rather than three small ones an id, and a long id costs
 * no more than a short one. Two ids that differ are told apart with
 * certainty for any practical purpose.
 *
 * The ids live in a ring, oldest first, found through an index with open
 * addressing (linear probing, at most half full). Removing an id (or
 * adding it again) leaves a hole in the ring. The ring has a quarter more
 * slots than the capacity, so that the holes are closed up at most once
 * every capacity / 4 additions, and the oldest id goes only when the
 * table holds as many as its capacity.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-recent.h"

#define DIGEST_SIZE 16

typedef struct
{
  guint8 bytes[DIGEST_SIZE];
} Digest;

struct _ClarifyRecent
{
  guint           capacity;
  guint           max_slots;
  GDestroyNotify  value_free;

  /* The ring: allocated slots, the oldest at first, used of them taken
   * (holes included), size of them holding an id. */
  guint           allocated;
  Digest         *digests;
  gpointer       *values;
  guint8         *held;
  guint           first;
  guint           used;
  guint           size;

  /* The index: a ring slot + 1 per bucket, or 0. */
  guint32        *buckets;
  guint           mask;
};

static void
digest_of (const char *id,
           Digest     *digest)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 full[32];
  gsize length = sizeof full;

  g_checksum_update (checksum, (const guchar *) id, -1);
  g_checksum_get_digest (checksum, full, &length);
  memcpy (digest->bytes, full, DIGEST_SIZE);
}

static guint
home_bucket (ClarifyRecent *self,
             const Digest  *digest)
{
  guint32 start;

  memcpy (&start, digest->bytes, sizeof start);

  return start & self->mask;
}

/* The bucket that holds @digest, or -1. */
static gint64
find_bucket (ClarifyRecent *self,
             const Digest  *digest)
{
  for (guint b = home_bucket (self, digest); self->buckets[b] != 0; b = (b + 1) & self->mask)
    if (memcmp (&self->digests[self->buckets[b] - 1], digest, DIGEST_SIZE) == 0)
      return b;

  return -1;
}

static void
index_slot (ClarifyRecent *self,
            guint          slot)
{
  guint b = home_bucket (self, &self->digests[slot]);

  while (self->buckets[b] != 0)
    b = (b + 1) & self->mask;
  self->buckets[b] = slot + 1;
}

/* Empties bucket @b and moves later ones of the same run back, so that
 * every id stays reachable from its home bucket without tombstones. */
static void
unindex_bucket (ClarifyRecent *self,
                guint          b)
{
  guint hole = b;

  self->buckets[hole] = 0;
  for (guint next = (hole + 1) & self->mask; self->buckets[next] != 0; next = (next + 1) & self->mask)
    {
      guint home = home_bucket (self, &self->digests[self->buckets[next] - 1]);
      /* Whether home lies cyclically in (hole, next]: then it stays. */
      gboolean stays = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next);

      if (stays)
        continue;
      self->buckets[hole] = self->buckets[next];
      self->buckets[next] = 0;
      hole = next;
    }
}

static void
release_slot (ClarifyRecent *self,
              guint          slot)
{
  if (self->values[slot] != NULL && self->value_free != NULL)
    self->value_free (self->values[slot]);
  self->values[slot] = NULL;
  self->held[slot] = FALSE;
  self->size--;
}

/* Moves the ids, in their order and without the holes, into new arrays
 * of @allocated slots (at least the ids held), and indexes them again. */
static void
relay (ClarifyRecent *self,
       guint          allocated)
{
  Digest *digests = g_new (Digest, allocated);
  gpointer *values = g_new0 (gpointer, allocated);
  guint8 *held = g_new0 (guint8, allocated);
  guint n_buckets = 2;
  guint kept = 0;

  g_assert (allocated >= self->size);

  for (guint i = 0; i < self->used; i++)
    {
      guint from = (self->first + i) % self->allocated;

      if (!self->held[from])
        continue;
      digests[kept] = self->digests[from];
      values[kept] = self->values[from];
      held[kept] = TRUE;
      kept++;
    }

  g_free (self->digests);
  g_free (self->values);
  g_free (self->held);
  g_free (self->buckets);
  self->digests = digests;
  self->values = values;
  self->held = held;
  self->allocated = allocated;
  self->first = 0;
  self->used = kept;

  /* Holes are not indexed: the index is sized for the ids. */
  while (n_buckets < 2 * MIN (allocated, self->capacity))
    n_buckets *= 2;
  self->buckets = g_new0 (guint32, n_buckets);
  self->mask = n_buckets - 1;
  for (guint slot = 0; slot < kept; slot++)
    index_slot (self, slot);
}

ClarifyRecent *
clarify_recent_new (guint          capacity,
                    GDestroyNotify value_free)
{
  ClarifyRecent *self;

  g_return_val_if_fail (capacity > 0 && capacity < G_MAXUINT32 / 8, NULL);

  self = g_new0 (ClarifyRecent, 1);
  self->capacity = capacity;
  self->max_slots = capacity + MAX (capacity / 4, 1);
  self->value_free = value_free;
  relay (self, MIN (self->max_slots, 16));

  return self;
}

void
clarify_recent_free (ClarifyRecent *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->used; i++)
    {
      guint slot = (self->first + i) % self->allocated;

      if (self->held[slot])
        release_slot (self, slot);
    }
  g_free (self->digests);
  g_free (self->values);
  g_free (self->held);
  g_free (self->buckets);
  g_free (self);
}

static void
remove_digest (ClarifyRecent *self,
               const Digest  *digest)
{
  gint64 b = find_bucket (self, digest);
  guint slot;

  if (b < 0)
    return;

  slot = self->buckets[b] - 1;
  unindex_bucket (self, b);
  release_slot (self, slot);
}

void
clarify_recent_remove (ClarifyRecent *self,
                       const char    *id)
{
  Digest digest;

  g_return_if_fail (self != NULL);

  if (id == NULL)
    return;

  digest_of (id, &digest);
  remove_digest (self, &digest);
}

void
clarify_recent_add (ClarifyRecent *self,
                    const char    *id,
                    gpointer       value)
{
  Digest digest;
  guint slot;

  g_return_if_fail (self != NULL);
  g_return_if_fail (id != NULL);

  digest_of (id, &digest);
  remove_digest (self, &digest);

  /* As many as it may hold: the oldest goes. */
  if (self->size == self->capacity)
    {
      Digest oldest;

      while (!self->held[self->first])
        {
          self->first = (self->first + 1) % self->allocated;
          self->used--;
        }
      oldest = self->digests[self->first];
      remove_digest (self, &oldest);
      self->first = (self->first + 1) % self->allocated;
      self->used--;
    }

  /* No slot left: grow while the ids fill more than half the ring,
   * otherwise close the holes. */
  if (self->used == self->allocated)
    {
      if (self->allocated < self->max_slots && self->size > self->allocated / 2)
        relay (self, MIN (self->max_slots, 2 * self->allocated));
      else
        relay (self, self->allocated);
    }

  slot = (self->first + self->used) % self->allocated;
  self->digests[slot] = digest;
  self->values[slot] = value;
  self->held[slot] = TRUE;
  self->used++;
  self->size++;
  index_slot (self, slot);
}

gboolean
clarify_recent_contains (ClarifyRecent *self,
                         const char    *id)
{
  Digest digest;

  g_return_val_if_fail (self != NULL, FALSE);

  if (id == NULL)
    return FALSE;

  digest_of (id, &digest);

  return find_bucket (self, &digest) >= 0;
}

gpointer
clarify_recent_lookup (ClarifyRecent *self,
                       const char    *id)
{
  Digest digest;
  gint64 b;

  g_return_val_if_fail (self != NULL, NULL);

  if (id == NULL)
    return NULL;

  digest_of (id, &digest);
  b = find_bucket (self, &digest);

  return b >= 0 ? self->values[self->buckets[b] - 1] : NULL;
}

guint
clarify_recent_get_size (ClarifyRecent *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->size;
}

gpointer
clarify_recent_peek_oldest (ClarifyRecent *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->used; i++)
    {
      guint slot = (self->first + i) % self->allocated;

      if (self->held[slot])
        return self->values[slot];
    }

  return NULL;
}

void
clarify_recent_foreach (ClarifyRecent *self,
                        GFunc          func,
                        gpointer       user_data)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (func != NULL);

  for (guint i = 0; i < self->used; i++)
    {
      guint slot = (self->first + i) % self->allocated;

      if (self->held[slot])
        func (self->values[slot], user_data);
    }
}
