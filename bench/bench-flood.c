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
#include "clarify-request-dialog.h"
#include "clarify-test-backend.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"

static int opt_requests = 1000;
static int opt_questions = 20;
static int opt_options = 200;

static const GOptionEntry entries[] = {
  { "requests", 'n', 0, G_OPTION_ARG_INT, &opt_requests, "Requests to send (default 1000)", "N" },
  { "questions", 'q', 0, G_OPTION_ARG_INT, &opt_questions, "Questions per request (default 20, the cap)", "N" },
  { "options", 'o', 0, G_OPTION_ARG_INT, &opt_options, "Options per question (default 200, the cap)", "N" },
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

  printf ("bench-flood: %d requests of %d questions × %d options; GSK_RENDERER=%s\n",
          opt_requests, opt_questions, opt_options, g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "(default)");

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
