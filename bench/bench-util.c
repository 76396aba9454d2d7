/* bench-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"

/* A "Key:" line of a /proc status file as a number. */
static gint64
bench_status_of (const char *path,
                 const char *key)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize key_len = strlen (key);

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return -1;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strncmp (lines[i], key, key_len) == 0 && lines[i][key_len] == ':')
      return g_ascii_strtoll (lines[i] + key_len + 1, NULL, 10);

  return -1;
}

gint64
bench_proc_status (gboolean    this_thread,
                   const char *key)
{
  return bench_status_of (this_thread ? "/proc/thread-self/status" : "/proc/self/status", key);
}

gint64
bench_pid_status (GPid        pid,
                  const char *key)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);

  return bench_status_of (path, key);
}

gint64
bench_tcp_counter (const char *name)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/net/netstat", &contents, NULL, NULL))
    return -1;

  /* Pairs of lines: "TcpExt: Name1 Name2 …" then "TcpExt: 12 34 …". */
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i + 1] != NULL; i++)
    {
      g_auto(GStrv) names = NULL;
      g_auto(GStrv) values = NULL;

      if (!g_str_has_prefix (lines[i], "TcpExt:") || !g_str_has_prefix (lines[i + 1], "TcpExt:"))
        continue;

      names = g_strsplit (lines[i], " ", -1);
      values = g_strsplit (lines[i + 1], " ", -1);
      for (guint j = 1; names[j] != NULL && values[j] != NULL; j++)
        if (g_str_equal (names[j], name))
          return g_ascii_strtoll (values[j], NULL, 10);

      return -1;
    }

  return -1;
}

guint
bench_count_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  if (dir == NULL)
    return 0;

  while (g_dir_read_name (dir) != NULL)
    n++;

  /* The GDir's own descriptor. */
  return n > 0 ? n - 1 : 0;
}

void
bench_sources_count (GMainContext *context,
                     BenchSources *sources)
{
  GSource *probe = g_idle_source_new ();
  gint64 now = g_get_monotonic_time ();
  guint next_id;

  sources->n_sources = 0;
  sources->n_timeouts = 0;
  sources->n_armed = 0;
  sources->next_wakeup_us = -1;
  sources->armed_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* Ids count up within a context: a fresh source's id bounds the search. */
  next_id = g_source_attach (probe, context);
  g_source_destroy (probe);
  g_source_unref (probe);

  for (guint id = 1; id < next_id; id++)
    {
      GSource *source = g_main_context_find_source_by_id (context, id);
      gint64 ready_time;
      const char *name;
      gpointer count;

      if (source == NULL || g_source_is_destroyed (source))
        continue;

      sources->n_sources++;
      if (source->source_funcs == &g_timeout_funcs)
        sources->n_timeouts++;

      ready_time = g_source_get_ready_time (source);
      if (ready_time < 0)
        continue;

      sources->n_armed++;
      if (sources->next_wakeup_us < 0 || ready_time - now < sources->next_wakeup_us)
        sources->next_wakeup_us = MAX (ready_time - now, 0);

      name = g_source_get_name (source);
      if (name == NULL)
        name = "(unnamed)";
      count = g_hash_table_lookup (sources->armed_names, name);
      g_hash_table_replace (sources->armed_names, g_strdup (name),
                            GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
    }
}

void
bench_sources_clear (BenchSources *sources)
{
  g_clear_pointer (&sources->armed_names, g_hash_table_unref);
}

char *
bench_sources_describe_armed (const BenchSources *sources)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GHashTableIter iter;
  gpointer name, count;

  if (sources->armed_names == NULL || g_hash_table_size (sources->armed_names) == 0)
    return g_strdup ("none");

  g_hash_table_iter_init (&iter, sources->armed_names);
  while (g_hash_table_iter_next (&iter, &name, &count))
    g_string_append_printf (text, "%s%u × %s", text->len > 0 ? ", " : "",
                            GPOINTER_TO_UINT (count), (const char *) name);

  return g_string_free (g_steal_pointer (&text), FALSE);
}

typedef struct
{
  GMainContext *context;
  gulong        window_us;
  gint          done;
} Stopper;

static gpointer
stopper_thread (gpointer data)
{
  Stopper *stopper = data;

  g_usleep (stopper->window_us);
  g_atomic_int_set (&stopper->done, TRUE);
  g_main_context_wakeup (stopper->context);

  return NULL;
}

void
bench_run_idle_window (GMainContext   *context,
                       double          seconds,
                       BenchLoopStats *stats)
{
  Stopper stopper = { context, (gulong) (seconds * G_USEC_PER_SEC), FALSE };
  GPollFunc poll_func = g_main_context_get_poll_func (context);
  g_autofree GPollFD *fds = NULL;
  gint n_alloc = 16;
  GThread *thread;

  memset (stats, 0, sizeof *stats);
  stats->first_timeout_ms = G_MININT;
  stats->shortest_timeout_ms = -1;
  fds = g_new (GPollFD, n_alloc);

  if (!g_main_context_acquire (context))
    g_error ("Cannot acquire the main context");

  thread = g_thread_new ("bench-stopper", stopper_thread, &stopper);

  while (TRUE)
    {
      gint max_priority, timeout_ms, n_fds;
      gint ready;

      g_main_context_prepare (context, &max_priority);
      while ((n_fds = g_main_context_query (context, max_priority, &timeout_ms, fds, n_alloc)) > n_alloc)
        {
          n_alloc = n_fds;
          fds = g_renew (GPollFD, fds, n_alloc);
        }

      if (stats->first_timeout_ms == G_MININT)
        stats->first_timeout_ms = timeout_ms;
      if (timeout_ms > 0 && (stats->shortest_timeout_ms < 0 || timeout_ms < stats->shortest_timeout_ms))
        stats->shortest_timeout_ms = timeout_ms;

      ready = poll_func (fds, n_fds, timeout_ms);

      if (g_atomic_int_get (&stopper.done))
        {
          /* The stopper's wakeup; what else is ready runs after the window. */
          if (g_main_context_check (context, max_priority, fds, n_fds))
            g_main_context_dispatch (context);
          break;
        }

      stats->iterations++;
      if (timeout_ms == 0)
        stats->no_wait++;
      else if (ready == 0)
        stats->timer_wakeups++;
      else
        stats->fd_wakeups++;
      if (g_main_context_check (context, max_priority, fds, n_fds))
        {
          g_main_context_dispatch (context);
          stats->dispatched++;
        }
    }

  g_thread_join (thread);
  g_main_context_release (context);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

double
bench_percentile (GArray *values,
                  double  fraction)
{
  guint rank;

  if (values->len == 0)
    return NAN;

  g_array_sort (values, compare_doubles);
  rank = (guint) ceil (fraction * values->len);
  rank = CLAMP (rank, 1, values->len);

  return g_array_index (values, double, rank - 1);
}

static GLogWriterOutput
quiet_writer (GLogLevelFlags   log_level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  if ((log_level & (G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG)) != 0)
    return G_LOG_WRITER_HANDLED;

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

void
bench_quiet_logs (void)
{
  g_log_set_writer_func (quiet_writer, NULL, NULL);
}
