/* test-list-head.c: ClarifyListHead, the first items of a list model
 *
 * A mirror applies every ::items-changed as a list view would, reading the
 * items it is told were added at the time it is told; after each change it
 * must hold exactly the first items of the model. No display needed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-list-head.h"

typedef struct
{
  GListStore      *store;
  ClarifyListHead *head;
  GPtrArray       *mirror;
  GString         *signals;  /* "(position,removed,added)" of each */
} Fixture;

static void
head_items_changed_cb (GListModel *head,
                       guint       position,
                       guint       removed,
                       guint       added,
                       Fixture    *f)
{
  g_assert_cmpuint (position + removed, <=, f->mirror->len);
  g_ptr_array_remove_range (f->mirror, position, removed);
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (head, position + i);

      g_assert_nonnull (item);
      g_ptr_array_insert (f->mirror, position + i, g_steal_pointer (&item));
    }
  g_assert_cmpuint (f->mirror->len, ==, g_list_model_get_n_items (head));
  g_string_append_printf (f->signals, "(%u,%u,%u)", position, removed, added);
}

/* The mirror is the model's first items, as many as the head's size. */
static void
assert_mirror (Fixture *f)
{
  guint n = MIN (clarify_list_head_get_size (f->head), g_list_model_get_n_items (G_LIST_MODEL (f->store)));

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->head)), ==, n);
  g_assert_cmpuint (f->mirror->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (f->store), i);

      g_assert_true (g_ptr_array_index (f->mirror, i) == item);
    }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (f->head), n));
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->store = g_list_store_new (G_TYPE_OBJECT);
  for (guint i = 0; i < 10; i++)
    {
      g_autoptr(GObject) item = g_object_new (G_TYPE_OBJECT, NULL);

      g_list_store_append (f->store, item);
    }
  f->head = clarify_list_head_new (g_object_ref (G_LIST_MODEL (f->store)), 4);
  /* Holding its items: a freed one's address could come back. */
  f->mirror = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (f->head)); i++)
    g_ptr_array_add (f->mirror, g_list_model_get_item (G_LIST_MODEL (f->head), i));
  f->signals = g_string_new (NULL);
  g_signal_connect (f->head, "items-changed", G_CALLBACK (head_items_changed_cb), f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->head);
  g_clear_object (&f->store);
  g_ptr_array_unref (f->mirror);
  g_string_free (f->signals, TRUE);
}

static void
insert_new (Fixture *f,
            guint    position)
{
  g_autoptr(GObject) item = g_object_new (G_TYPE_OBJECT, NULL);

  g_list_store_insert (f->store, position, item);
}

/* What a list view sees of what it shows. */
static void
test_moves (Fixture       *f,
            gconstpointer  data)
{
  assert_mirror (f);

  /* An item at the front of a full head: one in, the last out. */
  insert_new (f, 0);
  g_assert_cmpstr (f->signals->str, ==, "(0,0,1)(4,1,0)");
  assert_mirror (f);

  /* One taken out of the head: one out, the next one in at the end. */
  g_string_truncate (f->signals, 0);
  g_list_store_remove (f->store, 1);
  g_assert_cmpstr (f->signals->str, ==, "(1,1,0)(3,0,1)");
  assert_mirror (f);

  /* Beyond the head: nothing. */
  g_string_truncate (f->signals, 0);
  g_list_store_remove (f->store, 6);
  insert_new (f, 5);
  g_assert_cmpstr (f->signals->str, ==, "");
  assert_mirror (f);

  /* Grown: the next ones at the end; past the model's end: only what is. */
  clarify_list_head_set_size (f->head, 6);
  g_assert_cmpstr (f->signals->str, ==, "(4,0,2)");
  clarify_list_head_set_size (f->head, 100);
  assert_mirror (f);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->head)), ==, 10);

  /* Shrunk, and everything gone. */
  g_string_truncate (f->signals, 0);
  clarify_list_head_set_size (f->head, 3);
  g_assert_cmpstr (f->signals->str, ==, "(3,7,0)");
  g_list_store_remove_all (f->store);
  g_assert_cmpstr (f->signals->str, ==, "(3,7,0)(0,3,0)");
  assert_mirror (f);

  /* A head not full takes what comes, wherever it comes. */
  g_string_truncate (f->signals, 0);
  insert_new (f, 0);
  insert_new (f, 1);
  g_assert_cmpstr (f->signals->str, ==, "(0,0,1)(1,0,1)");
  assert_mirror (f);
}

static void
grow_once_cb (ClarifyListHead *head)
{
  g_signal_handlers_disconnect_by_func (head, grow_once_cb, NULL);
  clarify_list_head_set_size (head, 8);
}

/* Grown by a listener while it reports a change: the head takes it. */
static void
test_grown_meanwhile (Fixture       *f,
                      gconstpointer  data)
{
  g_signal_connect (f->head, "items-changed", G_CALLBACK (grow_once_cb), NULL);
  insert_new (f, 0);
  g_assert_cmpstr (f->signals->str, ==, "(0,0,1)(5,0,3)");
  g_assert_cmpuint (clarify_list_head_get_size (f->head), ==, 8);
  assert_mirror (f);
}

/* Any change, as a filter or a history's cap makes them, leaves the mirror
 * right. */
static void
test_random (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (38);

  for (guint step = 0; step < 2000; step++)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (f->store));
      guint position = g_rand_int_range (rand, 0, n + 1);
      guint removed = g_rand_int_range (rand, 0, n - position + 1);
      guint added = g_rand_int_range (rand, 0, 4);
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

      if (g_rand_int_range (rand, 0, 10) == 0)
        {
          clarify_list_head_set_size (f->head, g_rand_int_range (rand, 0, 12));
          assert_mirror (f);
          continue;
        }
      /* Keeps the model between a few and a few dozen items. */
      if (n > 30)
        added = 0;
      for (guint i = 0; i < added; i++)
        g_ptr_array_add (items, g_object_new (G_TYPE_OBJECT, NULL));
      g_list_store_splice (f->store, position, removed, items->pdata, added);
      assert_mirror (f);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/list-head/moves", Fixture, NULL, fixture_set_up, test_moves, fixture_tear_down);
  g_test_add ("/list-head/grown-meanwhile", Fixture, NULL, fixture_set_up, test_grown_meanwhile, fixture_tear_down);
  g_test_add ("/list-head/random", Fixture, NULL, fixture_set_up, test_random, fixture_tear_down);

  return g_test_run ();
}
