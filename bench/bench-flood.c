/* bench-flood.c: what a flood of pending requests costs the application
 *
 * Not a test: it prints figures to compare between changes. Needs a display
 * and a session bus:
 *
 *   xvfb-run -a dbus-run-session -- bench-flood [--requests 1000] [--questions 20] [--options 200]
 *
 * The real ClarifyApplication (its inbox, dialog queue and notifications;
 * a fake notification server; no window until asked, no MCP endpoint) gets --requests requests at the
 * size caps, decoded from the JSON form an agent sends, from as many
 * connections as the inbox's per-connection cap needs. The application
 * then settles (the first request's dialog is presented and drawn).
 * Printed: RSS and CPU (user + system) per request at 10 % and at the end,
 * the dialogs built, the requests refused, after closing the dialog on
 * screen, and after every request was withdrawn.
 *
 * With --paced, one agent asks --requests questions (1 question of 4
 * options unless told) evenly over --seconds, and withdraws each
 * --withdraw-ms after asking; --window opens the main window first.
 * Printed: the main loop's longest stall (from the end of a poll() to the
 * start of the next iteration: the time it could answer nothing), how many
 * iterations took over 16 ms, the dialogs built, and RSS before, at the end
 * and --settle-seconds later.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/resource.h>

#include "bench-util.h"
#include "clarify-application-private.h"
#include "clarify-inbox-private.h"
#include "clarify-json.h"
#include "clarify-renderer.h"
#include "clarify-request-dialog.h"
#include "clarify-test-backend.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-window.h"

static int opt_requests = 1000;
static int opt_questions = -1;
static int opt_options = -1;
static gboolean opt_paced = FALSE;
static int opt_seconds = 60;
static int opt_withdraw_ms = 200;
static int opt_settle_seconds = 30;
static gboolean opt_window = FALSE;

static const GOptionEntry entries[] = {
  { "requests", 'n', 0, G_OPTION_ARG_INT, &opt_requests, "Requests to send (default 1000)", "N" },
  { "questions", 'q', 0, G_OPTION_ARG_INT, &opt_questions, "Questions per request (default 20, the cap; 1 with --paced)", "N" },
  { "options", 'o', 0, G_OPTION_ARG_INT, &opt_options, "Options per question (default 200, the cap; 4 with --paced)", "N" },
  { "paced", 0, 0, G_OPTION_ARG_NONE, &opt_paced, "One agent asking evenly over --seconds, withdrawing each question", NULL },
  { "seconds", 0, 0, G_OPTION_ARG_INT, &opt_seconds, "With --paced: over how long (default 60)", "S" },
  { "withdraw-ms", 0, 0, G_OPTION_ARG_INT, &opt_withdraw_ms, "With --paced: withdrawn after (default 200)", "MS" },
  { "settle-seconds", 0, 0, G_OPTION_ARG_INT, &opt_settle_seconds, "With --paced: RSS measured again after (default 30)", "S" },
  { "window", 0, 0, G_OPTION_ARG_NONE, &opt_window, "With --paced: the main window open", NULL },
  { NULL }
};

static ClarifyApplication *app;

/* A request as an agent sends it: @n_questions single choices of
 * @n_options options, labels and descriptions of some length. */
static char *
build_request_json (const char *id)
{
  GString *json = g_string_new (NULL);

  g_string_append_printf (json, "{\"id\":\"%s\",\"title\":\"Set up the new service\","
                                "\"context\":\"The agent needs a few decisions before it goes on.\",\"questions\":[", id);
  for (int q = 0; q < opt_questions; q++)
    {
      g_string_append_printf (json, "%s{\"id\":\"q%d\",\"kind\":\"single\",\"header\":\"Step %d\","
                                    "\"text\":\"Which variant should step %d use?\",\"options\":[",
                              q > 0 ? "," : "", q, q, q);
      for (int o = 0; o < opt_options; o++)
        g_string_append_printf (json, "%s{\"label\":\"Variant %d of step %d\",\"value\":\"v%d\","
                                      "\"description\":\"What variant %d does, in a sentence\"}",
                                o > 0 ? "," : "", o, q, o, o);
      g_string_append (json, "]}");
    }
  g_string_append (json, "]}");

  return g_string_free (json, FALSE);
}

static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static guint
count_dialogs (void)
{
  guint n;

  clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_REQUEST_DIALOG, &n);
  return n;
}

/* Lets the main loop run what the requests set off: the dialog presented
 * and drawn, notifications sent. */
static void
settle (void)
{
  GtkWindow *dialog = clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_REQUEST_DIALOG, NULL);

  if (dialog != NULL)
    clarify_test_present_and_wait (dialog);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
report (const char *when,
        guint       n,
        gint64      rss_start_kb,
        double      cpu_start)
{
  gint64 rss = bench_proc_status (FALSE, "VmRSS");
  double cpu = cpu_seconds () - cpu_start;

  printf ("%-34s %5u requests  RSS %7.1f MiB (+%6.1f MiB, %5.1f KiB/request)  CPU %6.2f s (%5.2f ms/request)  "
          "dialogs %u, pending %u\n",
          when, n, rss / 1024.0, (rss - rss_start_kb) / 1024.0,
          n > 0 ? (double) (rss - rss_start_kb) / n : 0.0,
          cpu, n > 0 ? 1000.0 * cpu / n : 0.0,
          count_dialogs (), clarify_inbox_get_n_pending (clarify_application_get_inbox (app)));
}


/* The paced flood (--paced) */

#define MAX_LONG_STALLS 16

/* Watches the main loop from inside: check() runs right after poll()
 * returns, prepare() when the next iteration starts; what lies between is
 * dispatching, during which nothing else is answered. */
typedef struct
{
  GSource  source;
  gint64   polled_at;   /* 0: not between a poll and the next prepare */
  gint64   longest_us;
  guint64  over_frame;  /* iterations busy for more than 16 ms */
  guint64  iterations;
  /* The first of those, when they began (µs of the monotonic clock) and
   * how long they took: which of a question's steps they were. */
  gint64   long_at[MAX_LONG_STALLS];
  gint64   long_us[MAX_LONG_STALLS];
} StallSource;

static gboolean
stall_prepare (GSource *source,
               int     *timeout)
{
  StallSource *stall = (StallSource *) source;

  if (stall->polled_at != 0)
    {
      gint64 busy = g_get_monotonic_time () - stall->polled_at;

      stall->longest_us = MAX (stall->longest_us, busy);
      if (busy > G_USEC_PER_SEC / 60)
        {
          if (stall->over_frame < MAX_LONG_STALLS)
            {
              stall->long_at[stall->over_frame] = stall->polled_at;
              stall->long_us[stall->over_frame] = busy;
            }
          stall->over_frame++;
        }
      stall->iterations++;
      stall->polled_at = 0;
    }
  *timeout = -1;
  return FALSE;
}

static gboolean
stall_check (GSource *source)
{
  ((StallSource *) source)->polled_at = g_get_monotonic_time ();
  return FALSE;
}

static GSourceFuncs stall_funcs = { stall_prepare, stall_check, NULL, NULL, NULL, NULL };

typedef struct
{
  ClarifyBackend *backend;
  int             sent;
  int             withdrawn;
  guint           max_dialogs;
} Paced;

typedef struct
{
  Paced *paced;
  char  *id;
} Withdrawal;

static gboolean
withdraw_cb (gpointer data)
{
  Withdrawal *withdrawal = data;

  clarify_backend_withdraw_request (withdrawal->paced->backend, withdrawal->id,
                                    CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  withdrawal->paced->withdrawn++;
  g_free (withdrawal->id);
  g_free (withdrawal);
  return G_SOURCE_REMOVE;
}

static gboolean
ask_cb (gpointer data)
{
  Paced *paced = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = g_strdup_printf ("p%d", paced->sent);
  g_autofree char *json = build_request_json (id);
  g_autoptr(ClarifyRequest) request = clarify_request_new_from_data (json, -1, &error);
  Withdrawal *withdrawal = g_new0 (Withdrawal, 1);

  g_assert_no_error (error);
  if (!clarify_backend_add_request (paced->backend, request))
    g_printerr ("request %s refused\n", id);
  withdrawal->paced = paced;
  withdrawal->id = g_steal_pointer (&id);
  g_timeout_add (opt_withdraw_ms, withdraw_cb, withdrawal);
  paced->max_dialogs = MAX (paced->max_dialogs, count_dialogs ());

  return ++paced->sent < opt_requests ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for @seconds, as the app idles. */
static void
run_for (guint seconds)
{
  gboolean done = FALSE;

  g_timeout_add_seconds (seconds, set_true, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Anonymous memory is the process's own; file pages (libraries' code,
 * fonts, icon caches) are shared and the kernel can take them back. */
static void
print_rss_split (void)
{
  printf (" [anon %.1f, file %.1f, shmem %.1f]", bench_proc_status (FALSE, "RssAnon") / 1024.0,
          bench_proc_status (FALSE, "RssFile") / 1024.0, bench_proc_status (FALSE, "RssShmem") / 1024.0);
}

static int
run_paced (void)
{
  Paced paced = { 0 };
  StallSource *stall;
  gint64 rss_start, rss_end, rss_settled;
  double cpu_start;
  guint interval_ms = MAX (1, opt_seconds * 1000 / MAX (1, opt_requests));
  gint64 paced_start;

  paced.backend = clarify_test_backend_new ("Agent");
  clarify_application_add_backend (app, paced.backend);
  if (opt_window)
    {
      g_application_activate (G_APPLICATION (app));
      clarify_test_present_and_wait (clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_WINDOW, NULL));
    }
  settle ();
  malloc_trim (0);
  rss_start = bench_proc_status (FALSE, "VmRSS");
  cpu_start = cpu_seconds ();

  printf ("bench-flood --paced: %d requests of %d × %d over %d s (one every %u ms), each withdrawn after %d ms; "
          "window %s; GSK_RENDERER=%s\n",
          opt_requests, opt_questions, opt_options, opt_seconds, interval_ms, opt_withdraw_ms,
          opt_window ? "open" : "closed",
          g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "(unset: GL off, as the app)");
  printf ("RSS at start %.1f MiB", rss_start / 1024.0);
  print_rss_split ();
  printf ("\n");

  stall = (StallSource *) g_source_new (&stall_funcs, sizeof (StallSource));
  g_source_set_priority ((GSource *) stall, G_PRIORITY_HIGH);
  g_source_attach ((GSource *) stall, NULL);

  paced_start = g_get_monotonic_time ();
  g_timeout_add (interval_ms, ask_cb, &paced);
  while (paced.withdrawn < opt_requests)
    g_main_context_iteration (NULL, TRUE);
  settle ();

  g_source_destroy ((GSource *) stall);
  rss_end = bench_proc_status (FALSE, "VmRSS");
  printf ("%d asked, %d withdrawn, %u dialogs at most at once, %u now; CPU %.2f s (%.2f ms/request)\n",
          paced.sent, paced.withdrawn, paced.max_dialogs, count_dialogs (),
          cpu_seconds () - cpu_start, 1000.0 * (cpu_seconds () - cpu_start) / MAX (1, paced.sent));
  printf ("main loop: %" G_GUINT64_FORMAT " iterations, longest stall %.1f ms, %" G_GUINT64_FORMAT " over 16 ms\n",
          stall->iterations, stall->longest_us / 1000.0, stall->over_frame);
  for (guint i = 0; i < MIN (stall->over_frame, MAX_LONG_STALLS); i++)
    printf ("  over 16 ms: %.1f ms at %.3f s (monotonic %.6f s)\n", stall->long_us[i] / 1000.0,
            (stall->long_at[i] - paced_start) / (double) G_USEC_PER_SEC,
            stall->long_at[i] / (double) G_USEC_PER_SEC);
  g_source_unref ((GSource *) stall);
  printf ("RSS at the end %.1f MiB (+%.1f)", rss_end / 1024.0, (rss_end - rss_start) / 1024.0);
  print_rss_split ();
  printf ("\n");

  run_for (opt_settle_seconds);
  rss_settled = bench_proc_status (FALSE, "VmRSS");
  printf ("RSS %d s later %.1f MiB (+%.1f)", opt_settle_seconds, rss_settled / 1024.0,
          (rss_settled - rss_start) / 1024.0);
  malloc_trim (0);
  printf (", after malloc_trim() %.1f MiB; peak (VmHWM) %.1f MiB; dialogs %u, pending %u\n",
          bench_proc_status (FALSE, "VmRSS") / 1024.0, bench_proc_status (FALSE, "VmHWM") / 1024.0,
          count_dialogs (), clarify_inbox_get_n_pending (clarify_application_get_inbox (app)));

  clarify_application_remove_backend (app, paced.backend);
  g_object_unref (paced.backend);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- what a flood of pending requests costs");
  g_autoptr(GPtrArray) backends = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *home = NULL;
  ClarifyInbox *inbox;
  GtkWindow *dialog;
  guint n_refused = 0;
  gint64 rss_start;
  double cpu_start;
  guint checkpoint;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");
  /* What the app draws with, so the figures are the app's. */
  clarify_renderer_choose ();
  clarify_test_gtk_init (&argc, &argv);
  /* A notification server, as a desktop has (its cost is the app's too). */
  clarify_test_notifications_start (NULL);

  app = clarify_application_new ();
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      g_printerr ("Cannot register the application (run under dbus-run-session): %s\n", error->message);
      return 1;
    }
  inbox = clarify_application_get_inbox (app);

  if (opt_questions < 0)
    opt_questions = opt_paced ? 1 : 20;
  if (opt_options < 0)
    opt_options = opt_paced ? 4 : 200;
  if (opt_paced)
    {
      int status = run_paced ();

      g_clear_object (&app);
      clarify_test_remove_tree (home);
      return status;
    }

  printf ("bench-flood: %d requests of %d questions × %d options; GSK_RENDERER=%s\n",
          opt_requests, opt_questions, opt_options, g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "(unset: GL off, as the app)");

  settle ();
  malloc_trim (0);
  rss_start = bench_proc_status (FALSE, "VmRSS");
  cpu_start = cpu_seconds ();
  report ("start", 0, rss_start, cpu_start);

  checkpoint = MAX (1, opt_requests / 10);
  for (int i = 0; i < opt_requests; i++)
    {
      guint c = i / CLARIFY_INBOX_MAX_PER_CONNECTION;
      g_autofree char *id = g_strdup_printf ("r%d", i);
      g_autofree char *json = build_request_json (id);
      g_autoptr(ClarifyRequest) request = clarify_request_new_from_data (json, -1, &error);

      g_assert_no_error (error);
      while (c >= backends->len)
        {
          g_autofree char *name = g_strdup_printf ("Flood %u", backends->len);
          ClarifyBackend *backend = clarify_test_backend_new (name);

          clarify_application_add_backend (app, backend);
          g_ptr_array_add (backends, backend);
        }
      if (!clarify_backend_add_request (g_ptr_array_index (backends, c), request))
        n_refused++;

      if ((guint) i + 1 == checkpoint)
        {
          settle ();
          report ("after 10 %", i + 1, rss_start, cpu_start);
        }
    }

  settle ();
  report ("all sent, settled", opt_requests, rss_start, cpu_start);
  printf ("refused: %u (caps %u per connection, %u in all)\n",
          n_refused, inbox->max_per_connection, inbox->max_total);

  /* The user closes the dialog on screen: it is destroyed, the next one shown. */
  dialog = clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_REQUEST_DIALOG, NULL);
  if (dialog != NULL)
    {
      gtk_window_destroy (dialog);
      settle ();
    }
  report ("one dialog closed", opt_requests, rss_start, cpu_start);

  for (guint c = 0; c < backends->len; c++)
    clarify_application_remove_backend (app, g_ptr_array_index (backends, c));
  settle ();
  while (count_dialogs () > 0)
    g_main_context_iteration (NULL, TRUE);
  malloc_trim (0);
  report ("all withdrawn", opt_requests, rss_start, cpu_start);
  printf ("peak RSS (VmHWM) %.1f MiB\n", bench_proc_status (FALSE, "VmHWM") / 1024.0);

  g_clear_object (&app);
  clarify_test_remove_tree (home);

  return 0;
}
