/* bench-idle.c: what idle "clarify" connections cost one Clarify process
 *
 * Not a test: it prints figures to compare between changes.
 *
 *   bench-idle [--connections 1,10,50] [--idle-seconds 2] [--heartbeat-seconds 10]
 *              [--stall-ms 0]
 *
 * The agent is a second process (this program with --agent: the tests'
 * fake SSE server plus a heartbeat every --heartbeat-seconds), so that
 * nothing of the agent shows up in the figures. Each N runs in a fresh
 * process (--one) so that the RSS of one run does not hide in the next.
 *
 * During the idle window the main loop is driven by hand (prepare, query,
 * poll, check, dispatch: all public GLib API), which tells how often it
 * woke, why, and for how long poll() was told to sleep; -1 means "until a
 * descriptor is ready", i.e. no timer is pending.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clarify-json-backend.h"
#include "bench-util.h"
#include "clarify-backend-registry.h"
#include "clarify-test-server.h"

#define CONNECT_TIMEOUT_MS 30000
#define REQUEST_TIMEOUT_MS 10000

static char *opt_connections = NULL;
static double opt_idle_seconds = 2.0;
static int opt_heartbeat_seconds = 10;
static int opt_stall_ms = 0;
static gboolean opt_agent = FALSE;
static gboolean opt_one = FALSE;

static const GOptionEntry entries[] = {
  { "connections", 'n', 0, G_OPTION_ARG_STRING, &opt_connections,
    "Connection counts to measure, each in its own process (default 1,10,50)", "N[,N…]" },
  { "idle-seconds", 's', 0, G_OPTION_ARG_DOUBLE, &opt_idle_seconds,
    "Length of the measured idle window (default 2)", "S" },
  { "heartbeat-seconds", 'b', 0, G_OPTION_ARG_INT, &opt_heartbeat_seconds,
    "The agent's heartbeat period; 0 for none (default 10)", "S" },
  { "stall-ms", 0, 0, G_OPTION_ARG_INT, &opt_stall_ms,
    "Arm each stream's stall check like the opencode backend (30000) does (default 0: off, as for \"clarify\")", "MS" },
  { "agent", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opt_agent, NULL, NULL },
  { "one", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opt_one, NULL, NULL },
  { NULL }
};

/* ---- the agent process ---------------------------------------------- */

static const char heartbeat_frame[] = "event: heartbeat\ndata: {}\n\n";

typedef struct
{
  ClarifyTestServer *server;
  GMainLoop         *loop;
  GString           *input;
  guint              n_sent;
} Agent;

static gboolean
agent_heartbeat_cb (gpointer data)
{
  Agent *agent = data;

  clarify_test_server_sse_send (agent->server, "/events", heartbeat_frame, -1);

  return G_SOURCE_CONTINUE;
}

static void
agent_send_request (Agent *agent)
{
  g_autofree char *frame = NULL;

  agent->n_sent++;
  frame = g_strdup_printf ("event: request\n"
                           "data: {\"id\":\"bench-%u\",\"title\":\"Deployment\","
                           "\"questions\":[{\"id\":\"go\",\"kind\":\"confirm\","
                           "\"text\":\"Deploy the new version now?\"}]}\n\n",
                           agent->n_sent);
  clarify_test_server_sse_send (agent->server, "/events", frame, -1);
}

/* One command per line on stdin; end of input ends the agent. */
static gboolean
agent_stdin_cb (int          fd,
                GIOCondition condition,
                gpointer     data)
{
  Agent *agent = data;
  char buffer[256];
  gssize n;
  char *newline;

  n = read (fd, buffer, sizeof buffer);
  if (n < 0 && errno == EINTR)
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      g_main_loop_quit (agent->loop);
      return G_SOURCE_REMOVE;
    }

  g_string_append_len (agent->input, buffer, n);
  while ((newline = memchr (agent->input->str, '\n', agent->input->len)) != NULL)
    {
      gsize line_len = newline - agent->input->str;

      if (line_len == strlen ("request") && memcmp (agent->input->str, "request", line_len) == 0)
        agent_send_request (agent);
      g_string_erase (agent->input, 0, line_len + 1);
    }

  return G_SOURCE_CONTINUE;
}

static int
run_agent (void)
{
  Agent agent = { 0 };
  g_autofree char *url = NULL;

  agent.server = clarify_test_server_new ();
  agent.loop = g_main_loop_new (NULL, FALSE);
  agent.input = g_string_new (NULL);
  clarify_test_server_add_sse (agent.server, "/events");

  url = clarify_test_server_get_url (agent.server, "/events");
  printf ("%s\n", url);
  fflush (stdout);

  if (opt_heartbeat_seconds > 0)
    g_timeout_add ((guint) opt_heartbeat_seconds * 1000, agent_heartbeat_cb, &agent);
  g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, agent_stdin_cb, &agent);

  g_main_loop_run (agent.loop);

  clarify_test_server_free (agent.server);
  g_main_loop_unref (agent.loop);
  g_string_free (agent.input, TRUE);

  return 0;
}

/* ---- one measurement: N connections in this process --------------------- */

typedef struct
{
  ClarifyBackend *backend;
  guint           n_events;
  guint           n_reconnects;  /* left CONNECTED after having reached it */
  gboolean        was_connected;
  gint64          request_at;    /* monotonic µs of ::request-added, 0 before */
} Client;

static void
on_event (ClarifySseClient *sse_client,
          const char       *type,
          const char       *data,
          const char       *id,
          Client           *client)
{
  client->n_events++;
}

static void
on_request_added (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Client         *client)
{
  if (client->request_at == 0)
    client->request_at = g_get_monotonic_time ();
}

static void
on_state_changed (ClarifyBackend *backend,
                  GParamSpec     *pspec,
                  Client         *client)
{
  gboolean connected = clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_CONNECTED;

  if (client->was_connected && !connected)
    client->n_reconnects++;
  client->was_connected = connected;
}

static Client *
client_new (const char *url,
            guint       index)
{
  Client *client = g_new0 (Client, 1);
  g_autofree char *name = g_strdup_printf ("bench-%u", index);
  g_autoptr(ClarifyConnection) connection = clarify_connection_new (name, "clarify", url);
  g_autoptr(GError) error = NULL;
  ClarifySseClient *sse_client;

  client->backend = clarify_backend_registry_create (connection, &error);
  if (client->backend == NULL)
    g_error ("Cannot create a \"clarify\" backend: %s", error->message);

  sse_client = clarify_json_backend_get_sse_client (CLARIFY_JSON_BACKEND (client->backend));
  if (opt_stall_ms > 0)
    clarify_sse_client_set_stall_timeout (sse_client, (guint) opt_stall_ms);
  g_signal_connect (sse_client, "event", G_CALLBACK (on_event), client);
  g_signal_connect (client->backend, "request-added", G_CALLBACK (on_request_added), client);
  g_signal_connect (client->backend, "notify::state", G_CALLBACK (on_state_changed), client);

  clarify_backend_start (client->backend);

  return client;
}

static void
client_free (gpointer data)
{
  Client *client = data;

  clarify_backend_stop (client->backend);
  g_clear_object (&client->backend);
  g_free (client);
}

typedef struct
{
  guint   n_connected;
  guint   n_with_request;
  guint   n_reconnects;
  guint64 n_events;
} Tally;

static Tally
tally (GPtrArray *clients)
{
  Tally sum = { 0 };

  for (guint i = 0; i < clients->len; i++)
    {
      Client *client = g_ptr_array_index (clients, i);

      sum.n_connected += clarify_backend_get_state (client->backend) == CLARIFY_CONNECTION_STATE_CONNECTED;
      sum.n_with_request += client->request_at != 0;
      sum.n_reconnects += client->n_reconnects;
      sum.n_events += client->n_events;
    }

  return sum;
}

static gboolean
all_connected (gpointer data)
{
  GPtrArray *clients = data;

  return tally (clients).n_connected == clients->len;
}

static gboolean
all_have_request (gpointer data)
{
  GPtrArray *clients = data;

  return tally (clients).n_with_request == clients->len;
}

static GSubprocess *
spawn_agent (const char   *self_exe,
             char        **url)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *heartbeat = g_strdup_printf ("%d", opt_heartbeat_seconds);
  g_autoptr(GDataInputStream) lines = NULL;
  GSubprocess *agent;

  agent = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                            self_exe, "--agent", "--heartbeat-seconds", heartbeat, NULL);
  if (agent == NULL)
    g_error ("Cannot start the agent: %s", error->message);

  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (agent));
  *url = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  if (*url == NULL)
    g_error ("The agent did not say where it listens: %s", error ? error->message : "end of output");

  return agent;
}

static void
agent_command (GSubprocess *agent,
               const char  *command)
{
  g_autoptr(GError) error = NULL;
  GOutputStream *input = g_subprocess_get_stdin_pipe (agent);

  if (!g_output_stream_write_all (input, command, strlen (command), NULL, NULL, &error) ||
      !g_output_stream_flush (input, NULL, &error))
    g_error ("Cannot talk to the agent: %s", error->message);
}

static double
us_to_ms (gint64 us)
{
  return us / 1000.0;
}

static int
run_one (const char *self_exe,
         guint       n_connections)
{
  GMainContext *context = g_main_context_default ();
  g_autoptr(GSubprocess) agent = NULL;
  g_autoptr(GPtrArray) clients = g_ptr_array_new_with_free_func (client_free);
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *url = NULL;
  g_autofree char *armed_before = NULL;
  g_autofree char *armed_after = NULL;
  BenchSources sources_before, sources_after;
  struct rusage usage_before, usage_after;
  gint64 rss_base, hwm_base, rss_connected, hwm_connected, threads_connected, threads_idle;
  gint64 vcsw_before, ivcsw_before, vcsw_after, ivcsw_after;
  guint fds_base, fds_connected;
  guint64 events_before, events_after;
  gint64 overflows_before, overflows_after;
  gint64 start, connected_at, first_at = G_MAXINT64, last_at = 0;
  gboolean got_all;
  BenchLoopStats stats;

  agent = spawn_agent (self_exe, &url);

  /* Warm-up: one connection opened and closed again, so that one-time
   * costs (types, the proxy resolver, libsoup's machinery) stay out of the
   * per-connection figures. */
  {
    g_autoptr(GPtrArray) warm = g_ptr_array_new_with_free_func (client_free);

    g_ptr_array_add (warm, client_new (url, 0));
    if (!clarify_test_loop_until (all_connected, warm, CONNECT_TIMEOUT_MS))
      g_error ("The warm-up connection did not connect");
  }
  clarify_test_loop_for (100);

  rss_base = bench_proc_status (FALSE, "VmRSS");
  hwm_base = bench_proc_status (FALSE, "VmHWM");
  fds_base = bench_count_fds ();

  overflows_before = bench_tcp_counter ("ListenOverflows");
  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_connections; i++)
    g_ptr_array_add (clients, client_new (url, i + 1));
  if (!clarify_test_loop_until (all_connected, clients, CONNECT_TIMEOUT_MS))
    g_error ("Not all %u connections connected within %d ms", n_connections, CONNECT_TIMEOUT_MS);
  connected_at = g_get_monotonic_time ();
  overflows_after = bench_tcp_counter ("ListenOverflows");

  /* Let the connection work drain before the window opens. */
  clarify_test_loop_for (200);

  rss_connected = bench_proc_status (FALSE, "VmRSS");
  hwm_connected = bench_proc_status (FALSE, "VmHWM");
  threads_connected = bench_proc_status (FALSE, "Threads");
  fds_connected = bench_count_fds ();

  bench_sources_count (context, &sources_before);
  events_before = tally (clients).n_events;
  vcsw_before = bench_proc_status (TRUE, "voluntary_ctxt_switches");
  ivcsw_before = bench_proc_status (TRUE, "nonvoluntary_ctxt_switches");
  getrusage (RUSAGE_SELF, &usage_before);

  bench_run_idle_window (context, opt_idle_seconds, &stats);

  getrusage (RUSAGE_SELF, &usage_after);
  vcsw_after = bench_proc_status (TRUE, "voluntary_ctxt_switches");
  ivcsw_after = bench_proc_status (TRUE, "nonvoluntary_ctxt_switches");
  events_after = tally (clients).n_events;
  threads_idle = bench_proc_status (FALSE, "Threads");
  bench_sources_count (context, &sources_after);

  /* Time to the first request after the idle window. */
  {
    gint64 sent_at = g_get_monotonic_time ();

    agent_command (agent, "request\n");
    got_all = clarify_test_loop_until (all_have_request, clients, REQUEST_TIMEOUT_MS);
    for (guint i = 0; i < clients->len; i++)
      {
        Client *client = g_ptr_array_index (clients, i);
        double ms;

        if (client->request_at == 0)
          continue;
        ms = us_to_ms (client->request_at - sent_at);
        g_array_append_val (latencies, ms);
        first_at = MIN (first_at, client->request_at - sent_at);
        last_at = MAX (last_at, client->request_at - sent_at);
      }
  }

  armed_before = bench_sources_describe_armed (&sources_before);
  armed_after = bench_sources_describe_armed (&sources_after);

  printf ("connections=%u\n", n_connections);
  printf ("connect_ms=%.1f\n", us_to_ms (connected_at - start));
  printf ("listen_overflows=%" G_GINT64_FORMAT "\n",
          overflows_before >= 0 && overflows_after >= 0 ? overflows_after - overflows_before : -1);
  printf ("rss_base_kib=%" G_GINT64_FORMAT "\n", rss_base);
  printf ("rss_kib=%" G_GINT64_FORMAT "\n", rss_connected);
  printf ("hwm_base_kib=%" G_GINT64_FORMAT "\n", hwm_base);
  printf ("hwm_kib=%" G_GINT64_FORMAT "\n", hwm_connected);
  printf ("threads=%" G_GINT64_FORMAT "\n", threads_connected);
  printf ("threads_idle=%" G_GINT64_FORMAT "\n", threads_idle);
  printf ("fds_base=%u\n", fds_base);
  printf ("fds=%u\n", fds_connected);
  printf ("idle_s=%.2f\n", opt_idle_seconds);
  printf ("iterations=%" G_GUINT64_FORMAT "\n", stats.iterations);
  printf ("dispatched=%" G_GUINT64_FORMAT "\n", stats.dispatched);
  printf ("fd_wakeups=%" G_GUINT64_FORMAT "\n", stats.fd_wakeups);
  printf ("timer_wakeups=%" G_GUINT64_FORMAT "\n", stats.timer_wakeups);
  printf ("no_wait=%" G_GUINT64_FORMAT "\n", stats.no_wait);
  printf ("first_timeout_ms=%d\n", stats.first_timeout_ms);
  printf ("shortest_timeout_ms=%d\n", stats.shortest_timeout_ms);
  printf ("events=%" G_GUINT64_FORMAT "\n", events_after - events_before);
  printf ("main_vcsw=%" G_GINT64_FORMAT "\n", vcsw_after - vcsw_before);
  printf ("main_ivcsw=%" G_GINT64_FORMAT "\n", ivcsw_after - ivcsw_before);
  printf ("process_vcsw=%ld\n", usage_after.ru_nvcsw - usage_before.ru_nvcsw);
  printf ("process_ivcsw=%ld\n", usage_after.ru_nivcsw - usage_before.ru_nivcsw);
  printf ("sources=%u\n", sources_before.n_sources);
  printf ("timeouts=%u\n", sources_before.n_timeouts);
  printf ("armed_after=%u\n", sources_after.n_timeouts);
  printf ("armed=%u\n", sources_before.n_armed);
  printf ("next_wakeup_s=%.1f\n", sources_before.next_wakeup_us / (double) G_USEC_PER_SEC);
  printf ("armed_names=%s\n", armed_before);
  printf ("armed_names_after=%s\n", armed_after);
  printf ("reconnects=%u\n", tally (clients).n_reconnects);
  printf ("requests=%u\n", latencies->len);
  printf ("request_first_ms=%.2f\n", latencies->len > 0 ? us_to_ms (first_at) : -1.0);
  printf ("request_median_ms=%.2f\n", bench_percentile (latencies, 0.5));
  printf ("request_last_ms=%.2f\n", latencies->len > 0 ? us_to_ms (last_at) : -1.0);
  fflush (stdout);

  bench_sources_clear (&sources_before);
  bench_sources_clear (&sources_after);

  g_ptr_array_set_size (clients, 0);
  g_output_stream_close (g_subprocess_get_stdin_pipe (agent), NULL, NULL);
  g_subprocess_wait (agent, NULL, NULL);

  return got_all ? 0 : 1;
}

/* ---- the overview: one child process per N ------------------------------ */

static GHashTable *
parse_figures (const char *text)
{
  GHashTable *figures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *equals = strchr (lines[i], '=');

      if (equals != NULL)
        g_hash_table_replace (figures, g_strndup (lines[i], equals - lines[i]), g_strdup (equals + 1));
    }

  return figures;
}

static double
figure (GHashTable *figures,
        const char *key)
{
  const char *value = g_hash_table_lookup (figures, key);

  return value ? g_ascii_strtod (value, NULL) : NAN;
}

static const char *
text_figure (GHashTable *figures,
             const char *key)
{
  const char *value = g_hash_table_lookup (figures, key);

  return value ? value : "?";
}

static GHashTable *
measure_in_child (const char *self_exe,
                  guint       n_connections)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *n = g_strdup_printf ("%u", n_connections);
  g_autofree char *idle = g_strdup_printf ("%g", opt_idle_seconds);
  g_autofree char *heartbeat = g_strdup_printf ("%d", opt_heartbeat_seconds);
  g_autofree char *stall = g_strdup_printf ("%d", opt_stall_ms);
  g_autofree char *output = NULL;
  const char *argv[] = {
    self_exe, "--one", "--connections", n, "--idle-seconds", idle,
    "--heartbeat-seconds", heartbeat, "--stall-ms", stall, NULL
  };
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                     &output, NULL, &status, &error))
    g_error ("Cannot run %s: %s", self_exe, error->message);
  if (!g_spawn_check_wait_status (status, &error))
    g_printerr ("The run with %u connections failed: %s\n", n_connections, error->message);

  return parse_figures (output ? output : "");
}

static void
print_overview (const char *self_exe,
                guint      *counts,
                guint       n_counts)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autofree char *heartbeat = NULL;
  g_autofree char *stall = NULL;

  heartbeat = opt_heartbeat_seconds > 0 ? g_strdup_printf ("every %d s", opt_heartbeat_seconds) : g_strdup ("off");
  stall = opt_stall_ms > 0 ? g_strdup_printf ("every %d ms", opt_stall_ms) : g_strdup ("off");
  printf ("bench-idle: %u run(s), idle window %.1f s, agent heartbeat %s, stall check %s\n",
          n_counts, opt_idle_seconds, heartbeat, stall);
  printf ("(each run: a fresh process, one warm-up connection opened and closed first)\n\n");

  for (guint i = 0; i < n_counts; i++)
    g_ptr_array_add (runs, measure_in_child (self_exe, counts[i]));

  printf ("%-44s", "connections");
  for (guint i = 0; i < runs->len; i++)
    printf ("%12u", counts[i]);
  printf ("\n");

#define ROW(label, format, expr)                                  \
  G_STMT_START {                                                  \
    printf ("%-44s", label);                                      \
    for (guint i = 0; i < runs->len; i++)                         \
      {                                                           \
        GHashTable *f = g_ptr_array_index (runs, i);              \
        double n = counts[i];                                     \
        (void) n;                                                 \
        printf (format, (expr));                                  \
      }                                                           \
    printf ("\n");                                                \
  } G_STMT_END

  printf ("-- connecting\n");
  ROW ("time until all connected (ms)", "%12.1f", figure (f, "connect_ms"));
  ROW ("agent's listen queue overflowed (SYNs)", "%12.0f", figure (f, "listen_overflows"));
  printf ("-- memory and resources (connected, idle)\n");
  ROW ("VmRSS (KiB)", "%12.0f", figure (f, "rss_kib"));
  ROW ("VmRSS growth per connection (KiB)", "%12.1f", (figure (f, "rss_kib") - figure (f, "rss_base_kib")) / n);
  ROW ("VmHWM (KiB)", "%12.0f", figure (f, "hwm_kib"));
  ROW ("threads in the process", "%12.0f", figure (f, "threads"));
  ROW ("  … after the idle window", "%12.0f", figure (f, "threads_idle"));
  ROW ("open fds per connection", "%12.2f", (figure (f, "fds") - figure (f, "fds_base")) / n);
  printf ("-- main context at the start of the idle window\n");
  ROW ("sources attached", "%12.0f", figure (f, "sources"));
  ROW ("timeout sources (armed or not)", "%12.0f", figure (f, "timeouts"));
  ROW ("armed sources (will wake the loop)", "%12.0f", figure (f, "armed"));
  ROW ("earliest armed wakeup due in (s)", "%12.1f", figure (f, "next_wakeup_s"));
  ROW ("poll timeout when idle began (ms; -1 = none)", "%12.0f", figure (f, "first_timeout_ms"));
  printf ("-- during the idle window\n");
  ROW ("main loop wakeups", "%12.0f", figure (f, "iterations"));
  ROW ("main loop wakeups per second", "%12.2f", figure (f, "iterations") / opt_idle_seconds);
  ROW ("  … woken by a timer", "%12.0f", figure (f, "timer_wakeups"));
  ROW ("  … woken by a socket", "%12.0f", figure (f, "fd_wakeups"));
  ROW ("  … with a source already ready", "%12.0f", figure (f, "no_wait"));
  ROW ("  … that dispatched a source", "%12.0f", figure (f, "dispatched"));
  ROW ("shortest poll timeout (ms; -1 = none)", "%12.0f", figure (f, "shortest_timeout_ms"));
  ROW ("reconnects", "%12.0f", figure (f, "reconnects"));
  ROW ("SSE events received (heartbeats)", "%12.0f", figure (f, "events"));
  ROW ("main thread voluntary ctx switches", "%12.0f", figure (f, "main_vcsw"));
  ROW ("process voluntary ctx switches", "%12.0f", figure (f, "process_vcsw"));
  printf ("-- a request after the idle window (agent writes → ::request-added)\n");
  ROW ("first connection (ms)", "%12.2f", figure (f, "request_first_ms"));
  ROW ("median connection (ms)", "%12.2f", figure (f, "request_median_ms"));
  ROW ("last connection (ms)", "%12.2f", figure (f, "request_last_ms"));
  ROW ("connections that got it", "%12.0f", figure (f, "requests"));

#undef ROW

  printf ("\narmed sources while idle, by name:\n");
  for (guint i = 0; i < runs->len; i++)
    printf ("  %3u connections: %s\n", counts[i], text_figure (g_ptr_array_index (runs, i), "armed_names"));

  if (runs->len >= 2)
    {
      GHashTable *small = g_ptr_array_index (runs, 0);
      GHashTable *large = g_ptr_array_index (runs, runs->len - 1);
      double delta_n = counts[runs->len - 1] - (double) counts[0];

      if (delta_n > 0)
        printf ("\nmarginal VmRSS per connection between %u and %u connections: %.1f KiB\n",
                counts[0], counts[runs->len - 1],
                (figure (large, "rss_kib") - figure (small, "rss_kib")) / delta_n);
    }
}

static guint *
parse_counts (const char *text,
              guint      *n_counts)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);
  guint *counts = g_new0 (guint, g_strv_length (parts) + 1);

  *n_counts = 0;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 value;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 1, 10000, &value, NULL))
        g_error ("Not a connection count: %s", parts[i]);
      counts[(*n_counts)++] = (guint) value;
    }

  return counts;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) options = g_option_context_new ("- idle cost of \"clarify\" connections");
  g_autoptr(GError) error = NULL;
  g_autofree char *self_exe = NULL;
  g_autofree guint *counts = NULL;
  guint n_counts;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (opt_agent)
    return run_agent ();

  self_exe = g_file_read_link ("/proc/self/exe", NULL);
  if (self_exe == NULL)
    self_exe = g_strdup (argv[0]);

  counts = parse_counts (opt_connections ? opt_connections : "1,10,50", &n_counts);

  if (opt_one)
    return run_one (self_exe, counts[0]);

  print_overview (self_exe, counts, n_counts);

  return 0;
}
