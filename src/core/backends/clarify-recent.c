/* clarify-recent.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-recent.h"

struct _ClarifyRecent
{
  guint           capacity;
  GDestroyNotify  value_free;
  GHashTable     *entries; /* id → Entry */
  GQueue          order;   /* of ids (owned by the entries), oldest first */
};

typedef struct
{
  GList    *link;
  gpointer  value;
} Entry;

static void
entry_free (ClarifyRecent *self,
            Entry         *entry)
{
  if (entry->value != NULL && self->value_free != NULL)
    self->value_free (entry->value);
  g_free (entry);
}

ClarifyRecent *
clarify_recent_new (guint          capacity,
                    GDestroyNotify value_free)
{
  ClarifyRecent *self = g_new0 (ClarifyRecent, 1);

  g_return_val_if_fail (capacity > 0, NULL);

  self->capacity = capacity;
  self->value_free = value_free;
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&self->order);

  return self;
}

void
clarify_recent_free (ClarifyRecent *self)
{
  GHashTableIter iter;
  gpointer entry;

  if (self == NULL)
    return;

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, &entry))
    entry_free (self, entry);
  g_hash_table_unref (self->entries);
  g_queue_clear (&self->order);
  g_free (self);
}

void
clarify_recent_remove (ClarifyRecent *self,
                       const char    *id)
{
  Entry *entry;

  g_return_if_fail (self != NULL);

  entry = g_hash_table_lookup (self->entries, id);
  if (entry == NULL)
    return;

  g_queue_delete_link (&self->order, entry->link);
  g_hash_table_remove (self->entries, id);
  entry_free (self, entry);
}

void
clarify_recent_add (ClarifyRecent *self,
                    const char    *id,
                    gpointer       value)
{
  Entry *entry;
  char *key;

  g_return_if_fail (self != NULL);
  g_return_if_fail (id != NULL);

  clarify_recent_remove (self, id);
  while (self->order.length >= self->capacity)
    clarify_recent_remove (self, g_queue_peek_head (&self->order));

  key = g_strdup (id);
  entry = g_new0 (Entry, 1);
  entry->value = value;
  g_queue_push_tail (&self->order, key);
  entry->link = self->order.tail;
  g_hash_table_insert (self->entries, key, entry);
}

gboolean
clarify_recent_contains (ClarifyRecent *self,
                         const char    *id)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return id != NULL && g_hash_table_contains (self->entries, id);
}

gpointer
clarify_recent_lookup (ClarifyRecent *self,
                       const char    *id)
{
  Entry *entry;

  g_return_val_if_fail (self != NULL, NULL);

  entry = id != NULL ? g_hash_table_lookup (self->entries, id) : NULL;

  return entry != NULL ? entry->value : NULL;
}

guint
clarify_recent_get_size (ClarifyRecent *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->order.length;
}

void
clarify_recent_foreach (ClarifyRecent *self,
                        GHFunc         func,
                        gpointer       user_data)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (func != NULL);

  for (GList *link = self->order.head; link != NULL; link = link->next)
    {
      Entry *entry = g_hash_table_lookup (self->entries, link->data);

      func (link->data, entry->value, user_data);
    }
}
