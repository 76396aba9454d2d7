/* clarify-list-head.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-list-head.h"

struct _ClarifyListHead
{
  GObject     parent_instance;

  GListModel *model;
  GType       item_type;
  guint       size;
  /* What the listeners were told last: between the two signals of one
   * change it is not MIN (size, items in the model). */
  guint       n_items;
};

static GType
clarify_list_head_get_item_type (GListModel *list)
{
  return CLARIFY_LIST_HEAD (list)->item_type;
}

static guint
clarify_list_head_get_n_items (GListModel *list)
{
  return CLARIFY_LIST_HEAD (list)->n_items;
}

static gpointer
clarify_list_head_get_item (GListModel *list,
                            guint       position)
{
  ClarifyListHead *self = CLARIFY_LIST_HEAD (list);

  if (position >= self->n_items || self->model == NULL)
    return NULL;

  return g_list_model_get_item (self->model, position);
}

static void
clarify_list_head_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = clarify_list_head_get_item_type;
  iface->get_n_items = clarify_list_head_get_n_items;
  iface->get_item = clarify_list_head_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (ClarifyListHead, clarify_list_head, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, clarify_list_head_list_model_init))

/* Tells the listeners that the head now has @n_items, as its end changed. */
static void
settle_end (ClarifyListHead *self,
            guint            n_items)
{
  guint old = self->n_items;

  if (n_items == old)
    return;

  self->n_items = n_items;
  if (n_items < old)
    g_list_model_items_changed (G_LIST_MODEL (self), n_items, old - n_items, 0);
  else
    g_list_model_items_changed (G_LIST_MODEL (self), old, 0, n_items - old);
}

static void
model_items_changed_cb (ClarifyListHead *self,
                        guint            position,
                        guint            removed,
                        guint            added,
                        GListModel      *model)
{
  guint n_after = MIN (self->size, g_list_model_get_n_items (model));
  guint old = self->n_items;

  if (position >= old)
    {
      settle_end (self, n_after);
      return;
    }

  /* A change inside the head: itself, then the end moved in or out. The
   * model's items before the end are the head's in between. */
  if (position + removed <= old && position + added <= self->size)
    {
      self->n_items = old - removed + added;
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
      /* Counted again: a listener may have resized the head. */
      settle_end (self, MIN (self->size, g_list_model_get_n_items (model)));
      return;
    }

  /* One that reaches past the end: all from @position. */
  self->n_items = n_after;
  g_list_model_items_changed (G_LIST_MODEL (self), position, old - position, n_after - position);
}

static void
clarify_list_head_dispose (GObject *object)
{
  ClarifyListHead *self = CLARIFY_LIST_HEAD (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
  self->n_items = 0;

  G_OBJECT_CLASS (clarify_list_head_parent_class)->dispose (object);
}

static void
clarify_list_head_class_init (ClarifyListHeadClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = clarify_list_head_dispose;
}

static void
clarify_list_head_init (ClarifyListHead *self)
{
}

ClarifyListHead *
clarify_list_head_new (GListModel *model,
                       guint       size)
{
  ClarifyListHead *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);

  self = g_object_new (CLARIFY_TYPE_LIST_HEAD, NULL);
  self->model = model;
  self->item_type = g_list_model_get_item_type (model);
  self->size = size;
  self->n_items = MIN (size, g_list_model_get_n_items (model));
  g_signal_connect_object (model, "items-changed", G_CALLBACK (model_items_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

guint
clarify_list_head_get_size (ClarifyListHead *self)
{
  g_return_val_if_fail (CLARIFY_IS_LIST_HEAD (self), 0);

  return self->size;
}

void
clarify_list_head_set_size (ClarifyListHead *self,
                            guint            size)
{
  g_return_if_fail (CLARIFY_IS_LIST_HEAD (self));

  self->size = size;
  if (self->model != NULL)
    settle_end (self, MIN (size, g_list_model_get_n_items (self->model)));
}
