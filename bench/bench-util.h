/* bench-util.h: what the benchmarks measure the same way
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A "Key:" line of /proc/self/status (process-wide, e.g. "VmRSS") or of
 * /proc/thread-self/status (this thread only, e.g. "voluntary_ctxt_switches"),
 * as a number: kB for the Vm* keys. -1 when it cannot be read. */
gint64  bench_proc_status     (gboolean    this_thread,
                               const char *key);
/* The same of another process's /proc/PID/status. */
gint64  bench_pid_status      (GPid        pid,
                               const char *key);
/* A TcpExt counter of /proc/net/netstat (e.g. "ListenOverflows"), -1 if unknown. */
gint64  bench_tcp_counter     (const char *name);
/* Open file descriptors of this process. */
guint   bench_count_fds       (void);

/* The sources attached to @context, found by id (GLib has no public walk).
 * Timeouts are g_timeout_add()-style sources, armed or not; a source is
 * armed when it has a ready time, i.e. it will wake the loop by itself
 * (a timeout, or a socket with an I/O timeout). */
typedef struct
{
  guint       n_sources;
  guint       n_timeouts;
  guint       n_armed;
  gint64      next_wakeup_us;  /* from now, of the earliest armed source; -1: none */
  GHashTable *armed_names;     /* name → GUINT_TO_POINTER (count) */
} BenchSources;

void    bench_sources_count   (GMainContext *context,
                               BenchSources *sources);
void    bench_sources_clear   (BenchSources *sources);
/* "none" or "50 × GSocket, 1 × [clarify] sse stall"; free it. */
char   *bench_sources_describe_armed (const BenchSources *sources);

/* Runs @context (acquired here) for @seconds, driving it by hand (prepare,
 * query, poll, check, dispatch: all public API) so that every wakeup is
 * seen, with why it happened and how long poll() was told to sleep. */
typedef struct
{
  guint64 iterations;           /* poll() returned, apart from the one that ends the window */
  guint64 dispatched;           /* … and at least one source ran */
  guint64 timer_wakeups;        /* poll() slept its full timeout: a timer was due */
  guint64 fd_wakeups;           /* a descriptor became ready */
  guint64 no_wait;              /* a source was ready before polling (timeout 0) */
  gint    first_timeout_ms;     /* what poll() was told when the window opened */
  gint    shortest_timeout_ms;  /* -1: never a finite timeout */
} BenchLoopStats;

void    bench_run_idle_window (GMainContext   *context,
                               double          seconds,
                               BenchLoopStats *stats);

/* Sorts @values in place; @fraction 0.5 is the median, 0.95 the p95
 * (nearest rank). NAN when empty. */
double  bench_percentile      (GArray     *values,
                               double      fraction);

/* Drops debug/info/message log lines (the demo agent narrates every answer)
 * and lets warnings and errors through. Call before anything logs. */
void    bench_quiet_logs      (void);

G_END_DECLS
