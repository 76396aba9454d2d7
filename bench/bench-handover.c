/* bench-handover.c: what `clarify ask` and `clarify hook claude-code` cost
 *
 * Not a test: it prints figures to compare between changes. Needs a session
 * bus, no display:
 *
 *   dbus-run-session -- bench-handover [--runs 20] [--clarify build/src/clarify]
 *
 * An agent starts one of these processes per question; all it does is hand
 * the question to the running Clarify over D-Bus and wait for the answer.
 * This process plays the running Clarify as far as the client can tell: it
 * owns io.github.clarify.Clarify and serves the D-Bus API and the Claude
 * Code hook backend of the core (what the application exports). Each run
 * spawns the real `clarify` binary and times:
 *
 *   hand-over  spawn → the request in the inbox (exec, linking, GLib and
 *              D-Bus set-up, the call);
 *   total      spawn → the process gone, the answer given at once;
 *
 * with the child's peak RSS (wait4's ru_maxrss), its VmRSS when the request
 * arrived, its CPU, and the shared objects it had mapped then (and whether
 * GTK was among them). The first run warms the page cache and is not counted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "bench-util.h"
#include "clarify-claude-code-backend.h"
#include "clarify-dbus-backend.h"
#include "clarify-inbox.h"

static int opt_runs = 20;
static char *opt_clarify = NULL;

static const GOptionEntry entries[] = {
  { "runs", 'n', 0, G_OPTION_ARG_INT, &opt_runs, "Runs of each command (default 20)", "N" },
  { "clarify", 'c', 0, G_OPTION_ARG_FILENAME, &opt_clarify, "The clarify binary (default: the one built beside)", "PATH" },
  { NULL }
};

/* A Claude Code PermissionRequest hook event, as Claude Code writes it to stdin. */
static const char hook_input[] =
  "{\"session_id\":\"bench\",\"transcript_path\":\"/nonexistent/bench.jsonl\",\"cwd\":\"/tmp/proj\","
  "\"permission_mode\":\"default\",\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"Bash\","
  "\"tool_input\":{\"command\":\"make check\",\"description\":\"run the tests\"}}";

typedef struct
{
  ClarifyInbox   *inbox;
  ClarifyRequest *arrived;
  GPid            pid;
  gint64          arrived_at;
  gint64          rss_at_arrival_kb;
  guint           n_objects;
  gboolean        gtk_mapped;
} Bench;

typedef struct
{
  GPid          pid;
  int           status;
  struct rusage usage;
  gint64        ended_at;
  gboolean      done;
} Reaped;

static gint64
child_status_kb (GPid        pid,
                 const char *key)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *text = NULL;
  size_t key_len = strlen (key);

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return -1;
  for (char *line = text; line != NULL && *line != '\0'; line = strchr (line, '\n') ? strchr (line, '\n') + 1 : NULL)
    if (strncmp (line, key, key_len) == 0 && line[key_len] == ':')
      return g_ascii_strtoll (line + key_len + 1, NULL, 10);

  return -1;
}

/* Shared objects in /proc/PID/maps, counted once each. */
static guint
count_objects (GPid      pid,
               gboolean *gtk_mapped)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/maps", (int) pid);
  g_autofree char *text = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) lines = NULL;

  *gtk_mapped = FALSE;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *file = strchr (lines[i], '/');

      if (file == NULL || strstr (file, ".so") == NULL)
        continue;
      g_hash_table_add (seen, file);
      if (strstr (file, "libgtk-4") != NULL || strstr (file, "libadwaita") != NULL)
        *gtk_mapped = TRUE;
    }

  return g_hash_table_size (seen);
}

static void
request_added_cb (ClarifyInbox   *inbox,
                  ClarifyRequest *request,
                  Bench          *bench)
{
  bench->arrived_at = g_get_monotonic_time ();
  /* While the client waits for its answer: what it took to get here. */
  bench->rss_at_arrival_kb = child_status_kb (bench->pid, "VmRSS");
  bench->n_objects = count_objects (bench->pid, &bench->gtk_mapped);
  g_set_object (&bench->arrived, request);
}

/* wait4() in a thread: GLib's child watch reaps without the rusage. */
static gpointer
reap_thread (gpointer data)
{
  Reaped *reaped = data;

  while (wait4 (reaped->pid, &reaped->status, 0, &reaped->usage) < 0)
    ;
  reaped->ended_at = g_get_monotonic_time ();
  g_atomic_int_set (&reaped->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

/* The answer the user would give: the first option, or "yes". */
static ClarifyResponse *
answer_for (ClarifyRequest *request)
{
  ClarifyResponse *response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  ClarifyQuestion *question = clarify_request_get_question (request, 0);
  const char *value = "yes";

  if (clarify_question_get_n_options (question) > 0)
    value = clarify_option_get_value (clarify_question_get_option (question, 0));
  clarify_response_add_answer (response, clarify_question_get_id (question),
                               (const char * const[]) { value, NULL }, NULL, FALSE);

  return response;
}

typedef struct
{
  GArray *handover_ms, *total_ms, *maxrss_kb, *rss_kb, *cpu_ms;
  guint   n_objects;
  gboolean gtk_mapped;
  guint   failed;
} Figures;

static void
run_once (Bench       *bench,
          const char  *const *argv,
          const char  *input,
          Figures     *figures)
{
  g_autoptr(GError) error = NULL;
  Reaped reaped = { 0 };
  GThread *thread;
  int stdin_fd;
  gint64 start;
  double ms;

  g_clear_object (&bench->arrived);
  start = g_get_monotonic_time ();
  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 NULL, NULL, &bench->pid, &stdin_fd, NULL, NULL, &error))
    g_error ("Cannot start %s: %s", argv[0], error->message);
  if (input != NULL && write (stdin_fd, input, strlen (input)) != (ssize_t) strlen (input))
    g_error ("Cannot write the hook's input");
  close (stdin_fd);

  reaped.pid = bench->pid;
  thread = g_thread_new ("reap", reap_thread, &reaped);
  while (bench->arrived == NULL && !g_atomic_int_get (&reaped.done))
    g_main_context_iteration (NULL, TRUE);

  if (bench->arrived != NULL)
    {
      g_autoptr(ClarifyResponse) response = answer_for (bench->arrived);

      clarify_inbox_answer (bench->inbox, bench->arrived, response);
    }
  while (!g_atomic_int_get (&reaped.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);

  if (bench->arrived == NULL || !WIFEXITED (reaped.status) || WEXITSTATUS (reaped.status) != 0)
    {
      figures->failed++;
      return;
    }

  ms = (bench->arrived_at - start) / 1000.0;
  g_array_append_val (figures->handover_ms, ms);
  ms = (reaped.ended_at - start) / 1000.0;
  g_array_append_val (figures->total_ms, ms);
  ms = reaped.usage.ru_maxrss;
  g_array_append_val (figures->maxrss_kb, ms);
  ms = bench->rss_at_arrival_kb;
  g_array_append_val (figures->rss_kb, ms);
  ms = (reaped.usage.ru_utime.tv_sec + reaped.usage.ru_stime.tv_sec) * 1000.0 +
       (reaped.usage.ru_utime.tv_usec + reaped.usage.ru_stime.tv_usec) / 1000.0;
  g_array_append_val (figures->cpu_ms, ms);
  figures->n_objects = bench->n_objects;
  figures->gtk_mapped |= bench->gtk_mapped;
}

static void
print_row (const char *what,
           GArray     *values,
           double      scale,
           const char *unit)
{
  printf ("  %-32s median %7.2f  p95 %7.2f  min %7.2f  max %7.2f %s\n", what,
          bench_percentile (values, 0.5) * scale, bench_percentile (values, 0.95) * scale,
          bench_percentile (values, 0.0) * scale, bench_percentile (values, 1.0) * scale, unit);
}

static void
measure (Bench              *bench,
         const char         *name,
         const char * const *argv,
         const char         *input)
{
  Figures figures = { 0 };

  figures.handover_ms = g_array_new (FALSE, FALSE, sizeof (double));
  figures.total_ms = g_array_new (FALSE, FALSE, sizeof (double));
  figures.maxrss_kb = g_array_new (FALSE, FALSE, sizeof (double));
  figures.rss_kb = g_array_new (FALSE, FALSE, sizeof (double));
  figures.cpu_ms = g_array_new (FALSE, FALSE, sizeof (double));

  run_once (bench, argv, input, &figures);  /* warm-up */
  g_array_set_size (figures.handover_ms, 0);
  g_array_set_size (figures.total_ms, 0);
  g_array_set_size (figures.maxrss_kb, 0);
  g_array_set_size (figures.rss_kb, 0);
  g_array_set_size (figures.cpu_ms, 0);
  for (int i = 0; i < opt_runs; i++)
    run_once (bench, argv, input, &figures);

  printf ("%s: %u runs, %u failed; %u shared objects mapped at hand-over, GTK %s\n",
          name, figures.handover_ms->len, figures.failed, figures.n_objects,
          figures.gtk_mapped ? "MAPPED" : "not mapped");
  print_row ("hand-over (spawn → in the inbox)", figures.handover_ms, 1, "ms");
  print_row ("total (spawn → exited, answered)", figures.total_ms, 1, "ms");
  print_row ("CPU (user + system)", figures.cpu_ms, 1, "ms");
  print_row ("VmRSS at hand-over", figures.rss_kb, 1 / 1024.0, "MiB");
  print_row ("peak RSS (ru_maxrss)", figures.maxrss_kb, 1 / 1024.0, "MiB");

  g_array_unref (figures.handover_ms);
  g_array_unref (figures.total_ms);
  g_array_unref (figures.maxrss_kb);
  g_array_unref (figures.rss_kb);
  g_array_unref (figures.cpu_ms);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- what handing a question over costs the client");
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(ClarifyBackend) api = NULL;
  g_autoptr(ClarifyBackend) hooks = NULL;
  g_autoptr(GError) error = NULL;
  Bench bench = { 0 };
  const char *clarify;
  guint owner_id;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  clarify = opt_clarify != NULL ? opt_clarify : CLARIFY_BINARY;
  bench_quiet_logs ();

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    {
      g_printerr ("No session bus (run under dbus-run-session): %s\n", error->message);
      return 77;
    }

  /* The objects first, then the name: as the application does. */
  bench.inbox = clarify_inbox_new ();
  g_signal_connect (bench.inbox, "request-added", G_CALLBACK (request_added_cb), &bench);
  api = clarify_dbus_backend_new (bus, NULL);
  hooks = clarify_claude_code_backend_new ();
  clarify_backend_set_inbox (api, bench.inbox);
  clarify_backend_set_inbox (hooks, bench.inbox);
  clarify_dbus_backend_set_hook_backend (CLARIFY_DBUS_BACKEND (api), CLARIFY_CLAUDE_CODE_BACKEND (hooks));
  clarify_backend_start (hooks);
  clarify_backend_start (api);
  owner_id = g_bus_own_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
                                           NULL, NULL, NULL, NULL);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_dbus_connection_flush_sync (bus, NULL, NULL);

  printf ("bench-handover: %s, %d runs each after one warm-up\n", clarify, opt_runs);
  measure (&bench, "clarify ask",
           (const char * const[]) { clarify, "ask", "--title", "Deploy", "--question", "Deploy to staging now?",
                                    "--type", "confirm", NULL },
           NULL);
  measure (&bench, "clarify hook claude-code",
           (const char * const[]) { clarify, "hook", "claude-code", NULL },
           hook_input);

  g_bus_unown_name (owner_id);
  clarify_backend_stop (api);
  clarify_backend_stop (hooks);
  g_clear_object (&bench.arrived);
  g_clear_object (&bench.inbox);

  return 0;
}
