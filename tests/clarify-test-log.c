/* clarify-test-log.c: Clarify's own log lines in tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-test-log.h"

/* Backends log from worker threads too. */
static GMutex     log_lock;
static GPtrArray *captured;
static GPtrArray *seen;

static GLogWriterOutput
clarify_test_log_writer (GLogLevelFlags   log_level,
                         const GLogField *fields,
                         gsize            n_fields,
                         gpointer         user_data)
{
  const char *domain = NULL;
  const char *message = NULL;
  gboolean    ours;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE"))
        message = fields[i].value;
    }
  ours = g_strcmp0 (domain, CLARIFY_TEST_LOG_DOMAIN) == 0;

  g_mutex_lock (&log_lock);
  if (message != NULL)
    g_ptr_array_add (seen, g_strdup (message));
  if (ours && captured != NULL && (log_level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE)) != 0)
    {
      g_ptr_array_add (captured,
                       g_strdup_printf ("%s: %s",
                                        (log_level & G_LOG_LEVEL_WARNING) ? "WARNING" : "MESSAGE",
                                        message));
      g_mutex_unlock (&log_lock);
      return G_LOG_WRITER_HANDLED;
    }
  g_mutex_unlock (&log_lock);

  /* Not expected: our warnings fail the test like criticals do. */
  if (ours && (log_level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL)) != 0)
    log_level |= G_LOG_FLAG_FATAL;

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

void
clarify_test_log_init (void)
{
  seen = g_ptr_array_new_with_free_func (g_free);
  g_log_set_writer_func (clarify_test_log_writer, NULL, NULL);
}

void
clarify_test_log_start (void)
{
  g_mutex_lock (&log_lock);
  g_clear_pointer (&captured, g_ptr_array_unref);
  captured = g_ptr_array_new_with_free_func (g_free);
  g_mutex_unlock (&log_lock);
}

char **
clarify_test_log_stop (void)
{
  GPtrArray *lines;

  g_mutex_lock (&log_lock);
  lines = g_steal_pointer (&captured);
  g_mutex_unlock (&log_lock);

  g_assert_nonnull (lines);
  g_ptr_array_add (lines, NULL);

  return (char **) g_ptr_array_free (lines, FALSE);
}

gboolean
clarify_test_log_seen (const char *pattern)
{
  g_autoptr(GPatternSpec) spec = g_pattern_spec_new (pattern);
  gboolean found = FALSE;

  g_mutex_lock (&log_lock);
  for (guint i = 0; i < seen->len && !found; i++)
    found = g_pattern_spec_match_string (spec, g_ptr_array_index (seen, i));
  g_mutex_unlock (&log_lock);

  return found;
}
