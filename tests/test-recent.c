/* test-recent.c: the bounded memory of finished ids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-recent.h"
#include "clarify-test-log.h"

static guint n_freed;

static void
count_free (gpointer data)
{
  n_freed++;
  g_free (data);
}

static void
test_oldest_go_first (void)
{
  g_autoptr(ClarifyRecent) recent = clarify_recent_new (3, count_free);

  n_freed = 0;
  clarify_recent_add (recent, "a", g_strdup ("A"));
  clarify_recent_add (recent, "b", g_strdup ("B"));
  clarify_recent_add (recent, "c", g_strdup ("C"));
  g_assert_cmpuint (clarify_recent_get_size (recent), ==, 3);

  clarify_recent_add (recent, "d", g_strdup ("D"));
  g_assert_cmpuint (clarify_recent_get_size (recent), ==, 3);
  g_assert_false (clarify_recent_contains (recent, "a"));
  g_assert_null (clarify_recent_lookup (recent, "a"));
  g_assert_cmpstr (clarify_recent_lookup (recent, "b"), ==, "B");
  g_assert_cmpstr (clarify_recent_lookup (recent, "d"), ==, "D");
  g_assert_cmpuint (n_freed, ==, 1);

  /* Added again, "b" is the newest: "c" goes next. */
  clarify_recent_add (recent, "b", g_strdup ("B2"));
  g_assert_cmpuint (n_freed, ==, 2);
  clarify_recent_add (recent, "e", NULL);
  g_assert_false (clarify_recent_contains (recent, "c"));
  g_assert_cmpstr (clarify_recent_lookup (recent, "b"), ==, "B2");
  g_assert_true (clarify_recent_contains (recent, "e"));
  g_assert_null (clarify_recent_lookup (recent, "e"));
  g_assert_cmpuint (n_freed, ==, 3);

  clarify_recent_remove (recent, "d");
  clarify_recent_remove (recent, "never-added");
  g_assert_false (clarify_recent_contains (recent, "d"));
  g_assert_cmpuint (clarify_recent_get_size (recent), ==, 2);
  g_assert_cmpuint (n_freed, ==, 4);
  g_assert_false (clarify_recent_contains (recent, NULL));

  g_clear_pointer (&recent, clarify_recent_free);
  g_assert_cmpuint (n_freed, ==, 5);
}

/* A connection that runs for weeks holds no more than its capacity. */
static void
test_bounded (void)
{
  g_autoptr(ClarifyRecent) recent = clarify_recent_new (CLARIFY_RECENT_FINISHED_IDS, NULL);

  for (guint i = 0; i < 10 * CLARIFY_RECENT_FINISHED_IDS; i++)
    {
      g_autofree char *id = g_strdup_printf ("que_%08u", i);

      clarify_recent_add (recent, id, NULL);
    }

  g_assert_cmpuint (clarify_recent_get_size (recent), ==, CLARIFY_RECENT_FINISHED_IDS);
  g_assert_false (clarify_recent_contains (recent, "que_00000000"));
  g_assert_true (clarify_recent_contains (recent, "que_00040959"));
  g_assert_true (clarify_recent_contains (recent, "que_00036864"));
  g_assert_false (clarify_recent_contains (recent, "que_00036863"));
}

/* The same operations on the table and on a plain list of ids in their
 * order: a random mix of adds (new ids and old ones again), removals and
 * lookups, with a capacity small enough that the oldest go, holes are
 * closed up and the index's runs wrap around. */
static void
collect_value (gpointer value,
               gpointer user_data)
{
  g_ptr_array_add (user_data, value);
}

static void
test_as_a_list (void)
{
  const guint capacities[] = { 1, 2, 7, 37 };

  for (guint c = 0; c < G_N_ELEMENTS (capacities); c++)
    {
      guint capacity = capacities[c];
      g_autoptr(ClarifyRecent) recent = clarify_recent_new (capacity, g_free);
      g_autoptr(GRand) rand = g_rand_new_with_seed (31 + c);
      /* The ids in the table, oldest first, as the model has them. */
      g_autoptr(GPtrArray) model = g_ptr_array_new_with_free_func (g_free);

      for (guint step = 0; step < 20000; step++)
        {
          g_autofree char *id = g_strdup_printf ("id-%u", g_rand_int_range (rand, 0, 3 * capacity + 2));
          guint found = G_MAXUINT;
          gint32 what = g_rand_int_range (rand, 0, 10);

          for (guint i = 0; i < model->len; i++)
            if (g_str_equal (model->pdata[i], id))
              found = i;

          if (what < 6)
            {
              if (found != G_MAXUINT)
                g_ptr_array_remove_index (model, found);
              while (model->len >= capacity)
                g_ptr_array_remove_index (model, 0);
              g_ptr_array_add (model, g_strdup (id));
              /* The value is the id, to see which one a lookup finds. */
              clarify_recent_add (recent, id, g_strdup (id));
            }
          else if (what < 8)
            {
              if (found != G_MAXUINT)
                g_ptr_array_remove_index (model, found);
              clarify_recent_remove (recent, id);
            }
          else
            {
              g_assert_cmpint (clarify_recent_contains (recent, id), ==, found != G_MAXUINT);
              if (found != G_MAXUINT)
                g_assert_cmpstr (clarify_recent_lookup (recent, id), ==, id);
              else
                g_assert_null (clarify_recent_lookup (recent, id));
            }

          g_assert_cmpuint (clarify_recent_get_size (recent), ==, model->len);
          g_assert_cmpstr (clarify_recent_peek_oldest (recent), ==, model->len > 0 ? model->pdata[0] : NULL);
          if (step % 97 == 0)
            {
              g_autoptr(GPtrArray) values = g_ptr_array_new ();

              clarify_recent_foreach (recent, collect_value, values);
              g_assert_cmpuint (values->len, ==, model->len);
              for (guint i = 0; i < model->len; i++)
                g_assert_cmpstr (values->pdata[i], ==, model->pdata[i]);
            }
        }

      /* Every id the model holds is found, and no other. */
      for (guint n = 0; n < 3 * capacity + 2; n++)
        {
          g_autofree char *id = g_strdup_printf ("id-%u", n);
          gboolean held = FALSE;

          for (guint i = 0; i < model->len; i++)
            held = held || g_str_equal (model->pdata[i], id);
          g_assert_cmpint (clarify_recent_contains (recent, id), ==, held);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/recent/oldest-go-first", test_oldest_go_first);
  g_test_add_func ("/recent/bounded", test_bounded);
  g_test_add_func ("/recent/as-a-list", test_as_a_list);

  return g_test_run ();
}
