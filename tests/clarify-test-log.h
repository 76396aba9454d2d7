/* clarify-test-log.h: capture Clarify's own log lines in core tests
 *
 * g_test_expect_message() does not see structured logging in GLib 2.74, so
 * tests install this writer and assert on what it captured.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

static GPtrArray *clarify_test_log_lines;

static GLogWriterOutput
clarify_test_log_writer (GLogLevelFlags   log_level,
                         const GLogField *fields,
                         gsize            n_fields,
                         gpointer         user_data)
{
  const char *domain = NULL;
  const char *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE"))
        message = fields[i].value;
    }

  if (clarify_test_log_lines != NULL && g_strcmp0 (domain, "Clarify") == 0 &&
      (log_level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE)) != 0)
    {
      g_ptr_array_add (clarify_test_log_lines,
                       g_strdup_printf ("%s: %s",
                                        (log_level & G_LOG_LEVEL_WARNING) ? "WARNING" : "MESSAGE",
                                        message));
      return G_LOG_WRITER_HANDLED;
    }

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

/* Call once, before g_test_init(). */
static inline void
clarify_test_log_init (void)
{
  g_log_set_writer_func (clarify_test_log_writer, NULL, NULL);
}

/* Captures Clarify's warnings and messages until clarify_test_log_stop(). */
static inline void
clarify_test_log_start (void)
{
  g_clear_pointer (&clarify_test_log_lines, g_ptr_array_unref);
  clarify_test_log_lines = g_ptr_array_new_with_free_func (g_free);
}

/* Returns the captured lines ("WARNING: …", "MESSAGE: …"), NULL-terminated. */
static inline char **
clarify_test_log_stop (void)
{
  GPtrArray *lines = g_steal_pointer (&clarify_test_log_lines);

  g_ptr_array_add (lines, NULL);

  return (char **) g_ptr_array_free (lines, FALSE);
}
