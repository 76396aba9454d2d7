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

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/recent/oldest-go-first", test_oldest_go_first);
  g_test_add_func ("/recent/bounded", test_bounded);

  return g_test_run ();
}
