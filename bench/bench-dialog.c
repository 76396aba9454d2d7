/* bench-dialog.c: how fast ClarifyRequestDialog opens, filters and lets go;
 * and the main window's history, full
 *
 * Not a test: it prints figures to compare between changes. Needs a display:
 *
 *   xvfb-run -a dbus-run-session -- bench-dialog [--repeat 5] [--rounds 2]
 *                                               [--key-interval-ms 60] [--dialogs 20]
 *                                               [--idle-seconds 1] [--set-text]
 *                                               [--only text|chips|list|paged|history]
 *
 * Times are monotonic wall clock in the main thread. "First frame" is the
 * frame clock's first ::after-paint once the window is mapped and sized:
 * the whole dialog has been laid out, snapshotted and rendered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <malloc.h>
#include <stdio.h>

#include "bench-util.h"
#include "clarify-history-view.h"
#include "clarify-json.h"
#include "clarify-option-list.h"
#include "clarify-request-dialog.h"
#include "clarify-test-gtk-utils.h"

#define WAIT_MS 10000

static int opt_repeat = 5;
static int opt_rounds = 2;
static int opt_key_interval_ms = 60;
static int opt_dialogs = 20;
static double opt_idle_seconds = 1.0;
static gboolean opt_set_text = FALSE;
static char *opt_only = NULL;

static const GOptionEntry entries[] = {
  { "repeat", 'r', 0, G_OPTION_ARG_INT, &opt_repeat,
    "Opens per request size (default 5; the first is reported apart)", "N" },
  { "rounds", 0, 0, G_OPTION_ARG_INT, &opt_rounds,
    "Times to type and erase the search text (default 2)", "N" },
  { "key-interval-ms", 0, 0, G_OPTION_ARG_INT, &opt_key_interval_ms,
    "Pause between keystrokes, like a person typing (default 60)", "MS" },
  { "dialogs", 'd', 0, G_OPTION_ARG_INT, &opt_dialogs,
    "Dialogs open at once for the memory figures (default 20)", "N" },
  { "idle-seconds", 's', 0, G_OPTION_ARG_DOUBLE, &opt_idle_seconds,
    "How long one open dialog is left alone to count its wakeups (default 1)", "S" },
  { "set-text", 0, 0, G_OPTION_ARG_NONE, &opt_set_text,
    "Replace the whole search text per keystroke (gtk_editable_set_text) instead of typing one character", NULL },
  { "only", 0, 0, G_OPTION_ARG_STRING, &opt_only,
    "Only open dialogs of one request, or the window's history, and nothing else: for a profiler (text, chips, list, paged or history)", "WHAT" },
  { NULL }
};

/* ---- requests of increasing size --------------------------------------- */

static const char * const cities[] = {
  "Amsterdam", "Athens", "Barcelona", "Berlin", "Bratislava", "Brussels", "Bucharest",
  "Budapest", "Copenhagen", "Dublin", "Düsseldorf", "Frankfurt", "Genève", "Hamburg",
  "Helsinki", "København", "Köln", "Lisbon", "Ljubljana", "London",
};

static const char * const sizes[] = {
  "nano", "micro", "small", "medium", "large", "xlarge", "2xlarge", "gpu", "highmem", "arm",
};

/* {"label":"Berlin large","value":"berlin-large","description":"…"} × @n */
static void
append_options (GString *json,
                guint    n)
{
  g_string_append (json, "\"options\":[");
  for (guint i = 0; i < n; i++)
    {
      const char *city = cities[i % G_N_ELEMENTS (cities)];
      const char *size = sizes[(i / G_N_ELEMENTS (cities)) % G_N_ELEMENTS (sizes)];

      g_string_append_printf (json,
                              "%s{\"label\":\"%s %s\",\"value\":\"opt-%u\","
                              "\"description\":\"%u vCPU, %u GB memory, hourly billing\"}",
                              i > 0 ? "," : "", city, size, i,
                              1u << (i % 6), 2u << (i % 7));
    }
  g_string_append (json, "]");
}

static char *
build_single (guint n_options)
{
  GString *json = g_string_new (NULL);

  g_string_append_printf (json,
                          "{\"id\":\"bench-single-%u\",\"title\":\"Staging server\","
                          "\"context\":\"The agent is about to provision a machine for the staging environment.\","
                          "\"questions\":[{\"id\":\"machine\",\"kind\":\"single\","
                          "\"text\":\"Which machine should the staging server run on?\",",
                          n_options);
  append_options (json, n_options);
  g_string_append (json, "}]}");

  return g_string_free (json, FALSE);
}

static char *
build_text (void)
{
  return g_strdup ("{\"id\":\"bench-text\",\"title\":\"New project\","
                   "\"questions\":[{\"id\":\"name\",\"text\":\"What should the new project be called?\","
                   "\"placeholder\":\"my-project\"}]}");
}

static char *
build_mixed (void)
{
  GString *json = g_string_new (NULL);

  g_string_append (json,
                   "{\"id\":\"bench-mixed\",\"title\":\"Release 2.0\","
                   "\"context\":\"Ten things to settle before the release goes out.\",\"questions\":["
                   "{\"id\":\"name\",\"text\":\"What is the release called?\",\"placeholder\":\"Aurora\"},"
                   "{\"id\":\"channel\",\"kind\":\"single\",\"text\":\"Which channel?\","
                   "\"options\":[\"Stable\",\"Beta\",\"Nightly\"]},"
                   "{\"id\":\"checks\",\"kind\":\"multi\",\"text\":\"Which checks must pass?\","
                   "\"options\":[\"Unit tests\",\"Linter\",\"Type checks\",\"Audit\",\"Fuzzing\"]},"
                   "{\"id\":\"notes\",\"kind\":\"confirm\",\"text\":\"Publish the release notes?\"},"
                   "{\"id\":\"workers\",\"kind\":\"number\",\"text\":\"How many build workers?\","
                   "\"validation\":{\"min\":1,\"max\":64,\"step\":1},\"default\":\"8\"},"
                   "{\"id\":\"freeze\",\"kind\":\"date\",\"text\":\"When does the freeze begin?\"},"
                   "{\"id\":\"on-call\",\"kind\":\"date_range\",\"text\":\"Who is on call when?\"},"
                   "{\"id\":\"server\",\"kind\":\"single\",\"text\":\"Which build server?\",");
  append_options (json, 30);
  g_string_append (json,
                   "},"
                   "{\"id\":\"version\",\"text\":\"Which version number?\","
                   "\"validation\":{\"pattern\":\"^[0-9]+\\\\.[0-9]+\\\\.[0-9]+$\",\"message\":\"Use MAJOR.MINOR.PATCH\"}},"
                   "{\"id\":\"mirrors\",\"kind\":\"multi\",\"text\":\"Which mirrors get the files?\",");
  append_options (json, 12);
  g_string_append (json, "}]}");

  return g_string_free (json, FALSE);
}

static ClarifyRequest *
request_from_json (const char *json)
{
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request = clarify_request_new_from_data (json, -1, &error);

  if (request == NULL)
    g_error ("The bench's own request is invalid: %s", error->message);

  return request;
}

/* ---- frames ------------------------------------------------------------- */

typedef struct
{
  GtkWidget *window;
  guint      n_frames;    /* ::after-paint with the window mapped and sized */
  gint64     first_frame_at;
  gint64     last_frame_at;
} FrameWatch;

/* The renderer the first dialog got, for the report. */
static const char *renderer_name;

static void
after_paint_cb (GdkFrameClock *clock,
                FrameWatch    *watch)
{
  if (!gtk_widget_get_mapped (watch->window) || gtk_widget_get_width (watch->window) <= 0)
    return;

  watch->last_frame_at = g_get_monotonic_time ();
  if (watch->n_frames++ == 0)
    watch->first_frame_at = watch->last_frame_at;
}

static gboolean
has_frames (gpointer data)
{
  FrameWatch *watch = data;

  return watch->n_frames > 0;
}

typedef struct
{
  FrameWatch *watch;
  guint       n;
} FrameWait;

static gboolean
has_n_frames (gpointer data)
{
  FrameWait *wait = data;

  return wait->watch->n_frames >= wait->n;
}

typedef struct
{
  GtkWidget *dialog;
  gulong     paint_id;
  FrameWatch watch;
  double     construct_ms;  /* clarify_request_dialog_new () */
  double     open_ms;       /* new () → first frame */
  double     filled_ms;     /* new () → the frame with every list row */
} OpenDialog;

static void
open_dialog (OpenDialog     *open,
             ClarifyRequest *request)
{
  gint64 start = g_get_monotonic_time ();
  gint64 constructed;
  GdkFrameClock *clock;

  open->dialog = GTK_WIDGET (clarify_request_dialog_new (NULL, request));
  constructed = g_get_monotonic_time ();

  /* Nothing paints before the loop runs again, so connecting after
   * present() misses no frame. */
  gtk_window_present (GTK_WINDOW (open->dialog));
  clock = gtk_widget_get_frame_clock (open->dialog);
  open->watch = (FrameWatch) { open->dialog, 0, 0, 0 };
  open->paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &open->watch);

  if (!clarify_test_wait_until (has_frames, &open->watch, WAIT_MS))
    g_error ("The dialog drew no frame within %d ms", WAIT_MS);

  /* A long list gets its rows a batch a frame, each drawn in its frame: the
   * tick that adds the last batch runs in the same frame clock cycle as
   * that frame's paint, so the last frame seen then has them all. */
  if (!clarify_test_wait_list_filled (open->dialog, WAIT_MS))
    g_error ("The list was not filled within %d ms", WAIT_MS);
  open->filled_ms = (open->watch.last_frame_at - start) / 1000.0;

  if (renderer_name == NULL)
    renderer_name = G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (open->dialog)));
  open->construct_ms = (constructed - start) / 1000.0;
  open->open_ms = (open->watch.first_frame_at - start) / 1000.0;
}

static gboolean
is_zero (gpointer data)
{
  return *(guint *) data == 0;
}

static void
count_finalized (gpointer  data,
                 GObject  *where_the_object_was)
{
  (*(guint *) data)--;
}

/* Destroys the dialogs and waits until they are finalized. Returns how many
 * are still alive after @timeout_ms (0 when all went). */
static guint
close_dialogs (OpenDialog *opens,
               guint       n)
{
  guint n_alive = n;

  for (guint i = 0; i < n; i++)
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (opens[i].dialog);

      if (clock != NULL)
        g_signal_handler_disconnect (clock, opens[i].paint_id);
      g_object_weak_ref (G_OBJECT (opens[i].dialog), count_finalized, &n_alive);
      gtk_window_destroy (GTK_WINDOW (opens[i].dialog));
    }

  clarify_test_wait_until (is_zero, &n_alive, 2000);

  return n_alive;
}

/* ---- the figures --------------------------------------------------------- */

static void
bench_open (const char *label,
            const char *json)
{
  g_autoptr(ClarifyRequest) request = request_from_json (json);
  g_autoptr(GArray) construct = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) filled = g_array_new (FALSE, FALSE, sizeof (double));
  double first_construct = 0, first_open = 0, first_filled = 0;

  for (int i = 0; i < opt_repeat; i++)
    {
      OpenDialog dialog;

      open_dialog (&dialog, request);
      if (i == 0)
        {
          first_construct = dialog.construct_ms;
          first_open = dialog.open_ms;
          first_filled = dialog.filled_ms;
        }
      else
        {
          g_array_append_val (construct, dialog.construct_ms);
          g_array_append_val (open, dialog.open_ms);
          g_array_append_val (filled, dialog.filled_ms);
        }
      if (close_dialogs (&dialog, 1) != 0)
        g_printerr ("%s: a closed dialog was not finalized\n", label);
    }

  printf ("%-30s %10.1f %10.1f %12.1f %12.1f %10.1f %10.1f %12.1f\n", label,
          first_construct, first_open,
          bench_percentile (construct, 0.5), bench_percentile (open, 0.5),
          bench_percentile (open, 1.0), first_filled, bench_percentile (filled, 0.5));
}

static void
bench_filter (const char *json)
{
  static const char query[] = "berlin xl";
  g_autoptr(ClarifyRequest) request = request_from_json (json);
  g_autoptr(GArray) filter_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) frame_ms = g_array_new (FALSE, FALSE, sizeof (double));
  GtkSelectionModel *rows;
  GtkWidget *list, *entry;
  OpenDialog dialog;
  g_autoptr(GString) first_round = g_string_new (NULL);
  guint fewest_rows = G_MAXUINT;
  gsize query_len = strlen (query);

  open_dialog (&dialog, request);
  list = clarify_test_find_descendant (dialog.dialog, CLARIFY_TYPE_OPTION_LIST);
  if (list == NULL)
    g_error ("The 200-option question shows no searchable list");
  entry = clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (list));
  rows = clarify_option_list_get_model (CLARIFY_OPTION_LIST (list));
  gtk_widget_grab_focus (entry);

  for (int round = 0; round < opt_rounds; round++)
    {
      /* Type the query, then erase it again: 2 × its length keystrokes. */
      for (gsize step = 1; step <= 2 * query_len; step++)
        {
          gsize len = step <= query_len ? step : 2 * query_len - step;
          g_autofree char *text = g_strndup (query, len);
          FrameWait wait;
          gint64 start, filtered;
          guint n_rows;
          double ms;

          clarify_test_spin ((guint) opt_key_interval_ms);

          wait = (FrameWait) { &dialog.watch, dialog.watch.n_frames + 1 };
          start = g_get_monotonic_time ();
          /* One character in or out at the end, as GtkText does for a key;
           * gtk_editable_set_text () deletes all, then inserts. */
          if (opt_set_text)
            {
              gtk_editable_set_text (GTK_EDITABLE (entry), text);
            }
          else if (step <= query_len)
            {
              int position = (int) len - 1;

              gtk_editable_insert_text (GTK_EDITABLE (entry), query + len - 1, 1, &position);
            }
          else
            {
              gtk_editable_delete_text (GTK_EDITABLE (entry), (int) len, (int) len + 1);
            }
          filtered = g_get_monotonic_time ();
          n_rows = g_list_model_get_n_items (G_LIST_MODEL (rows));
          fewest_rows = MIN (fewest_rows, n_rows);

          if (!clarify_test_wait_until (has_n_frames, &wait, WAIT_MS))
            g_error ("No frame after a keystroke within %d ms", WAIT_MS);

          ms = (filtered - start) / 1000.0;
          g_array_append_val (filter_ms, ms);
          ms = (dialog.watch.last_frame_at - start) / 1000.0;
          g_array_append_val (frame_ms, ms);

          if (round == 0)
            {
              g_autofree char *quoted = g_strdup_printf ("\"%s\"", text);

              g_string_append_printf (first_round, "  %-12s %5u rows %8.2f ms filtered %8.2f ms to the frame\n",
                                      quoted, n_rows, (filtered - start) / 1000.0, ms);
            }
        }
    }

  printf ("\nfiltering the 200-option list: %u keystrokes (%s \"%s\", %d ms apart); "
          "%u rows left at \"%s\"\n",
          filter_ms->len, opt_set_text ? "setting the text to each prefix of" : "typing and erasing",
          query, opt_key_interval_ms, fewest_rows, query);
  printf ("%-40s %9s %9s %9s %9s\n", "ms per keystroke", "min", "median", "p95", "max");
  printf ("%-40s %9.2f %9.2f %9.2f %9.2f\n", "key → list filtered",
          bench_percentile (filter_ms, 0.0), bench_percentile (filter_ms, 0.5),
          bench_percentile (filter_ms, 0.95), bench_percentile (filter_ms, 1.0));
  printf ("%-40s %9.2f %9.2f %9.2f %9.2f\n", "key → next frame drawn",
          bench_percentile (frame_ms, 0.0), bench_percentile (frame_ms, 0.5),
          bench_percentile (frame_ms, 0.95), bench_percentile (frame_ms, 1.0));
  printf ("the first round, keystroke by keystroke (rows: what the list holds right after the key;\n"
          " where the search lets many more through, the rest come in over the next frames):\n%s",
          first_round->str);

  close_dialogs (&dialog, 1);
}

static void
print_sources (const char *when)
{
  BenchSources sources;
  g_autofree char *armed = NULL;

  bench_sources_count (g_main_context_default (), &sources);
  armed = bench_sources_describe_armed (&sources);
  printf ("  %-36s %4u sources, %3u timeout sources, %3u armed: %s\n", when,
          sources.n_sources, sources.n_timeouts, sources.n_armed, armed);
  bench_sources_clear (&sources);
}

static void
bench_memory (const char *json)
{
  g_autoptr(ClarifyRequest) request = request_from_json (json);
  g_autofree OpenDialog *opens = g_new0 (OpenDialog, opt_dialogs);
  g_autofree char *open_label = g_strdup_printf ("%d dialogs open:", opt_dialogs);
  gint64 before, opened, closed, trimmed, reopened, reclosed;
  guint n_alive;

  /* One open and close first, so that one-time costs are not counted. */
  open_dialog (&opens[0], request);
  close_dialogs (&opens[0], 1);
  clarify_test_spin (200);
  malloc_trim (0);

  printf ("\nmain-context sources (timers are what wake an idle process):\n");
  print_sources ("no dialog open:");

  before = bench_proc_status (FALSE, "VmRSS");
  for (int i = 0; i < opt_dialogs; i++)
    open_dialog (&opens[i], request);
  clarify_test_spin (200);
  opened = bench_proc_status (FALSE, "VmRSS");
  print_sources (open_label);

  n_alive = close_dialogs (opens, opt_dialogs);
  clarify_test_spin (200);
  closed = bench_proc_status (FALSE, "VmRSS");
  print_sources ("all closed again:");
  malloc_trim (0);
  trimmed = bench_proc_status (FALSE, "VmRSS");

  /* A second batch shows whether the first one's memory is reused. */
  for (int i = 0; i < opt_dialogs; i++)
    open_dialog (&opens[i], request);
  clarify_test_spin (200);
  reopened = bench_proc_status (FALSE, "VmRSS");
  n_alive += close_dialogs (opens, opt_dialogs);
  clarify_test_spin (200);
  malloc_trim (0);
  reclosed = bench_proc_status (FALSE, "VmRSS");

  printf ("\nmemory: %d dialogs of the 10-question request open at once\n", opt_dialogs);
  printf ("  VmRSS before                  %8" G_GINT64_FORMAT " KiB\n", before);
  printf ("  VmRSS with them open          %8" G_GINT64_FORMAT " KiB  (+%.0f KiB per dialog)\n",
          opened, (opened - before) / (double) opt_dialogs);
  printf ("  VmRSS after closing           %8" G_GINT64_FORMAT " KiB  (%.0f%% of the growth released)\n",
          closed, 100.0 * (opened - closed) / MAX (opened - before, 1));
  printf ("  VmRSS after malloc_trim (0)   %8" G_GINT64_FORMAT " KiB  (%.0f%% released)\n",
          trimmed, 100.0 * (opened - trimmed) / MAX (opened - before, 1));
  printf ("  a second batch open           %8" G_GINT64_FORMAT " KiB  (%+.0f KiB per dialog over the first batch)\n",
          reopened, (reopened - opened) / (double) opt_dialogs);
  printf ("  … closed and trimmed          %8" G_GINT64_FORMAT " KiB\n", reclosed);
  printf ("  dialogs finalized             %8d of %d\n", 2 * opt_dialogs - (int) n_alive, 2 * opt_dialogs);
  printf ("  VmHWM                         %8" G_GINT64_FORMAT " KiB\n", bench_proc_status (FALSE, "VmHWM"));
}

/* One dialog left alone: what wakes the process while a question waits. */
static void
bench_dialog_idle (const char *label,
                   const char *json)
{
  g_autoptr(ClarifyRequest) request = request_from_json (json);
  BenchLoopStats stats;
  BenchSources sources;
  g_autofree char *armed = NULL;
  OpenDialog dialog;
  guint n_frames;

  open_dialog (&dialog, request);
  clarify_test_spin (100);

  bench_sources_count (g_main_context_default (), &sources);
  armed = bench_sources_describe_armed (&sources);
  n_frames = dialog.watch.n_frames;
  bench_run_idle_window (g_main_context_default (), opt_idle_seconds, &stats);
  n_frames = dialog.watch.n_frames - n_frames;

  printf ("\none dialog (%s) left alone for %.1f s:\n", label, opt_idle_seconds);
  printf ("  armed sources when left alone   %u: %s\n", sources.n_armed, armed);
  printf ("  main loop wakeups               %" G_GUINT64_FORMAT " (%.1f per second): %" G_GUINT64_FORMAT
          " by a timer, %" G_GUINT64_FORMAT " by a descriptor, %" G_GUINT64_FORMAT " with a source ready\n",
          stats.iterations, stats.iterations / opt_idle_seconds,
          stats.timer_wakeups, stats.fd_wakeups, stats.no_wait);
  printf ("  frames drawn                    %u (%.1f per second)\n", n_frames, n_frames / opt_idle_seconds);

  bench_sources_clear (&sources);
  close_dialogs (&dialog, 1);
}

/* The main window's history, full: CLARIFY_HISTORY_MAX entries read from a
 * file as at start, each question long enough to wrap. */
static char *
write_full_history (const char *dir)
{
  g_autoptr(GString) json = g_string_new ("{\"version\":1,\"entries\":[");
  g_autofree char *path = g_build_filename (dir, "history.json", NULL);
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_real_time ();

  for (guint i = 0; i < CLARIFY_HISTORY_MAX; i++)
    g_string_append_printf (json,
                            "%s{\"ended_at\":%" G_GINT64_FORMAT ",\"outcome\":\"answered\",\"connection\":\"work\","
                            "\"caller\":\"opencode\",\"question\":\"Which region should part %u of the release "
                            "go to, given what we said about latency and cost?\",\"answer\":\"%s\"}",
                            i == 0 ? "" : ",", now - i * 60 * G_USEC_PER_SEC, i, cities[i % G_N_ELEMENTS (cities)]);
  g_string_append (json, "]}");
  if (!g_file_set_contents (path, json->str, json->len, &error))
    g_error ("Cannot write %s: %s", path, error->message);

  return g_steal_pointer (&path);
}

static void
bench_history (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bench-dialog-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(ClarifyHistory) history = NULL;
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) grown = g_array_new (FALSE, FALSE, sizeof (double));
  double first_open = 0;
  gint64 first_grown = 0;

  g_assert_no_error (error);
  path = write_full_history (dir);
  history = clarify_history_new (path);

  for (int i = 0; i < opt_repeat; i++)
    {
      GtkWidget *window = gtk_window_new ();
      GtkWidget *page = adw_preferences_page_new ();
      GtkWidget *view;
      FrameWatch watch = { window, 0, 0, 0 };
      gint64 start, before;
      gulong paint_id;
      double open_ms;

      clarify_test_spin (100);
      malloc_trim (0);
      before = bench_proc_status (FALSE, "VmRSS");
      gtk_window_set_default_size (GTK_WINDOW (window), 560, 700);
      start = g_get_monotonic_time ();
      view = clarify_history_view_new ();
      clarify_history_view_set_history (CLARIFY_HISTORY_VIEW (view), history);
      adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (view));
      gtk_window_set_child (GTK_WINDOW (window), page);
      gtk_window_present (GTK_WINDOW (window));
      paint_id = g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                                   G_CALLBACK (after_paint_cb), &watch);
      if (!clarify_test_wait_until (has_frames, &watch, WAIT_MS))
        g_error ("The history drew no frame within %d ms", WAIT_MS);
      open_ms = (watch.first_frame_at - start) / 1000.0;
      clarify_test_spin (200);
      g_signal_handler_disconnect (gtk_widget_get_frame_clock (window), paint_id);
      if (i == 0)
        {
          first_open = open_ms;
          first_grown = bench_proc_status (FALSE, "VmRSS") - before;
        }
      else
        {
          double kib = bench_proc_status (FALSE, "VmRSS") - before;

          g_array_append_val (open, open_ms);
          g_array_append_val (grown, kib);
        }
      gtk_window_destroy (GTK_WINDOW (window));
    }

  printf ("\nthe window's history, %u entries read from a file (a window of 560×700):\n", CLARIFY_HISTORY_MAX);
  printf ("  new() → first frame      first %.1f ms, median %.1f ms, max %.1f ms\n",
          first_open, bench_percentile (open, 0.5), bench_percentile (open, 1.0));
  printf ("  VmRSS while it is open   first +%" G_GINT64_FORMAT " KiB, median +%.0f KiB\n",
          first_grown, bench_percentile (grown, 0.5));

  g_clear_object (&history);
  g_remove (path);
  g_rmdir (dir);
}

static void
load_app_styles (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  /* ClarifyApplication (an AdwApplication) loads it for every window. Not
   * clarify_test_gtk_init (): gtk_test_init () would take --help, make
   * warnings fatal and so abort rather than exit 77 without a display, and
   * the tests turn animations off, which the app does not. */
  gtk_css_provider_load_from_resource (provider, APP_PATH "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) options = g_option_context_new ("- open, filter and close request dialogs");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = build_text ();
  g_autofree char *single_4 = build_single (4);
  g_autofree char *single_200 = build_single (200);
  g_autofree char *mixed = build_mixed ();
  const struct { const char *name, *label, *json; } requests[] = {
    { "text", "1 text question", text },
    { "chips", "single, 4 options (chips)", single_4 },
    { "list", "single, 200 options (list)", single_200 },
    { "paged", "10 questions, mixed (paged)", mixed },
  };
  const char *localedir = g_getenv ("CLARIFY_LOCALEDIR");
  gint64 start = g_get_monotonic_time ();

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  opt_repeat = MAX (opt_repeat, 2);
  opt_rounds = MAX (opt_rounds, 1);
  opt_dialogs = MAX (opt_dialogs, 1);
  opt_key_interval_ms = MAX (opt_key_interval_ms, 0);

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  for (guint i = 0; opt_only != NULL && !g_str_equal (opt_only, "history") && !g_str_equal (opt_only, requests[i].name); i++)
    {
      if (i + 1 == G_N_ELEMENTS (requests))
        {
          g_printerr ("--only takes text, chips, list, paged or history\n");
          return 2;
        }
    }

  if (!gtk_init_check ())
    {
      g_printerr ("bench-dialog needs a display; run it under xvfb-run -a dbus-run-session\n");
      return 77;
    }
  adw_init ();
  load_app_styles ();

  printf ("bench-dialog: GTK %u.%u.%u, libadwaita %u.%u.%u, display %s, GSK_RENDERER=%s\n",
          gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version (),
          adw_get_major_version (), adw_get_minor_version (), adw_get_micro_version (),
          G_OBJECT_TYPE_NAME (gdk_display_get_default ()),
          g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "(default)");
  printf ("(the first open of the first size also pays for loading the theme and fonts)\n\n");

  if (g_strcmp0 (opt_only, "history") == 0)
    {
      bench_history ();
      return 0;
    }

  printf ("%-30s %10s %10s %12s %12s %10s %10s %12s\n", "ms", "1st new()", "1st frame",
          "new() median", "frame median", "frame max", "1st all", "all median");
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      if (opt_only == NULL || g_str_equal (opt_only, requests[i].name))
        bench_open (requests[i].label, requests[i].json);
    }
  printf ("(\"frame\" is new() → first frame drawn; \"all\" → the first frame with every row of a\n"
          " long list, which fills in a batch a frame; median and max over the %d opens after the first)\n",
          opt_repeat - 1);
  if (opt_only != NULL)
    return 0;

  bench_filter (single_200);
  bench_dialog_idle ("1 text question, the focus in its text field", text);
  bench_dialog_idle ("single, 4 options: no text field", single_4);
  bench_memory (mixed);
  bench_history ();

  printf ("\nrenderer %s; total %.1f s\n", renderer_name, (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);

  return 0;
}
