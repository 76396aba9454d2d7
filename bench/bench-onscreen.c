/* bench-onscreen.c: how long a question takes to appear, seen from outside
 *
 * Not a test: it prints figures to compare between changes. Needs an X
 * display and a session bus:
 *
 *   xvfb-run -a dbus-run-session -- bench-onscreen [--runs 10]
 *
 * Each run spawns a program and watches the X server, as a user's eyes
 * would: from the spawn to the program's window being mapped, and to the
 * first damage of that window that holds more than one colour (its first
 * drawn frame; XDamage, re-armed until then). The programs, one after the
 * other in the same run, so that their figures compare:
 *
 *   a minimal GTK 4 window   bench-gtk-window, GL off as Clarify runs
 *   a minimal libadwaita window   bench-adw-window: the same after
 *                            adw_init(), the least any libadwaita
 *                            application pays before its first window
 *   zenity --entry, yad --entry   when installed (GTK 3)
 *   clarify ask, cold        Clarify not running: the client starts it
 *                            (the D-Bus name, the application, GTK) and
 *                            hands the question over
 *   clarify ask, resident    Clarify already running: the hand-over and
 *                            the dialog
 *
 * After each run the program is stopped (the `clarify ask` client with
 * SIGTERM, whereupon Clarify withdraws the question; for the cold case
 * Clarify itself too) and its window is waited for to go. The first run
 * of each warms the page cache and is not counted.
 *
 * Then memory and CPU: the references' VmRSS (/proc, as `top` reads it)
 * with their window drawn; the resident Clarify's (started with
 * `clarify --background`) before its first dialog and 3 s after the last
 * dialog of each kind went; and the share of a core that a window with a
 * focused text field takes while it is left alone, while GTK blinks the
 * cursor (seconds 1–9 after the first frame) and after the blink has
 * stopped (seconds 11–17), for the minimal GTK 4 window and for a
 * resident Clarify's text question. The CPU time is the process's CPU
 * clock (all threads, in nanoseconds), not /proc's 10 ms ticks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>
#include <gio/gio.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-util.h"
#include "clarify-test-server.h"

#define CLARIFY_BUS_NAME "io.github.clarify.Clarify"
#define WAIT_MS          20000

static int opt_runs = 10;
static char *opt_clarify = NULL;
static char *opt_gtk_window = NULL;
static char *opt_adw_window = NULL;

static const GOptionEntry entries[] = {
  { "runs", 'r', 0, G_OPTION_ARG_INT, &opt_runs, "Counted runs per program (default 10)", "N" },
  { "clarify", 0, 0, G_OPTION_ARG_FILENAME, &opt_clarify, "The clarify binary (default: this build's)", "PATH" },
  { "gtk-window", 0, 0, G_OPTION_ARG_FILENAME, &opt_gtk_window, "The GTK reference window (default: this build's)", "PATH" },
  { "adw-window", 0, 0, G_OPTION_ARG_FILENAME, &opt_adw_window, "The libadwaita reference window (default: this build's)", "PATH" },
  { NULL }
};

/* ---- the X server's view ------------------------------------------------ */

typedef struct
{
  Display    *display;
  Window      root;
  int         damage_event;
  /* Top-level windows created since the spawn → their Damage. */
  GHashTable *damages;
  Window      mapped;
  gint64      mapped_at;
  gint64      drawn_at;
  gboolean    gone;
} XWatch;

static int
ignore_x_errors (Display     *display,
                 XErrorEvent *event)
{
  /* A window can go before its Damage is made or read: not our concern. */
  return 0;
}

/* More than one colour: a frame, not a blank fill of the background. */
static gboolean
window_has_content (XWatch *watch,
                    Window  window)
{
  XWindowAttributes attributes;
  XImage *image;
  gboolean content = FALSE;

  if (!XGetWindowAttributes (watch->display, window, &attributes))
    return FALSE;

  image = XGetImage (watch->display, window, 0, 0, attributes.width, attributes.height,
                     AllPlanes, ZPixmap);
  if (image == NULL)
    return FALSE;

  {
    unsigned long first = XGetPixel (image, 0, 0);

    for (int y = 0; y < attributes.height && !content; y += 2)
      for (int x = 0; x < attributes.width; x += 2)
        if (XGetPixel (image, x, y) != first)
          {
            content = TRUE;
            break;
          }
  }
  XDestroyImage (image);

  return content;
}

static void
handle_event (XWatch *watch,
              XEvent *event)
{
  if (event->type == CreateNotify)
    {
      XCreateWindowEvent *create = &event->xcreatewindow;

      if (create->parent == watch->root && !create->override_redirect)
        g_hash_table_insert (watch->damages, GSIZE_TO_POINTER (create->window),
                             GSIZE_TO_POINTER (XDamageCreate (watch->display, create->window,
                                                              XDamageReportNonEmpty)));
    }
  else if (event->type == MapNotify)
    {
      XMapEvent *map = &event->xmap;

      if (watch->mapped == None &&
          g_hash_table_contains (watch->damages, GSIZE_TO_POINTER (map->window)))
        {
          watch->mapped = map->window;
          watch->mapped_at = g_get_monotonic_time ();
        }
    }
  else if (event->type == UnmapNotify || event->type == DestroyNotify)
    {
      Window window = event->type == UnmapNotify ? event->xunmap.window : event->xdestroywindow.window;

      if (window == watch->mapped)
        watch->gone = TRUE;
      if (event->type == DestroyNotify)
        g_hash_table_remove (watch->damages, GSIZE_TO_POINTER (window));
    }
  else if (event->type == watch->damage_event + XDamageNotify)
    {
      XDamageNotifyEvent *damage = (XDamageNotifyEvent *) event;
      gint64 now = g_get_monotonic_time ();

      XDamageSubtract (watch->display, damage->damage, None, None);
      if (damage->drawable == watch->mapped && watch->drawn_at == 0 &&
          window_has_content (watch, damage->drawable))
        watch->drawn_at = now;
    }
}

typedef gboolean (*ViewDone) (XWatch *watch);

/* Reads events until @done or @timeout_ms. */
static gboolean
watch_wait (XWatch     *watch,
             ViewDone  done,
             int         timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * (gint64) 1000;

  while (!done (watch))
    {
      struct pollfd fd = { ConnectionNumber (watch->display), POLLIN, 0 };
      gint64 left = deadline - g_get_monotonic_time ();

      if (XPending (watch->display) > 0)
        {
          XEvent event;

          XNextEvent (watch->display, &event);
          handle_event (watch, &event);
          continue;
        }
      if (left <= 0)
        return FALSE;
      poll (&fd, 1, (int) MAX (1, left / 1000));
    }

  return TRUE;
}

static gboolean
is_drawn (XWatch *watch)
{
  return watch->drawn_at != 0;
}

static gboolean
is_gone (XWatch *watch)
{
  return watch->gone;
}

static void
watch_reset (XWatch *watch)
{
  XSync (watch->display, False);
  while (XPending (watch->display) > 0)
    {
      XEvent event;

      XNextEvent (watch->display, &event);
      handle_event (watch, &event);
    }
  watch->mapped = None;
  watch->mapped_at = watch->drawn_at = 0;
  watch->gone = FALSE;
}

/* ---- the programs ------------------------------------------------------- */

typedef struct
{
  const char *name;
  GStrv       argv;
  gboolean    cold_clarify;     /* stop Clarify after each run */
  const char *resident_kind;    /* asks a Clarify that already runs: what */
  GArray     *mapped_ms;
  GArray     *drawn_ms;
  GArray     *rss_kib;          /* the spawned program's, when drawn */
  gint64      rss_after_kib;    /* Clarify's, 3 s after the last run */
  guint       failed;
} Program;

static GDBusConnection *bus;
static char **child_env;

/* A question about Clarify's name to the bus itself; NULL when unanswered. */
static GVariant *
ask_bus_about_clarify (const char         *method,
                       const GVariantType *reply_type)
{
  return g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                      "org.freedesktop.DBus", method,
                                      g_variant_new ("(s)", CLARIFY_BUS_NAME), reply_type,
                                      G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
}

static GPid
clarify_pid (void)
{
  g_autoptr(GVariant) reply = ask_bus_about_clarify ("GetConnectionUnixProcessID", G_VARIANT_TYPE ("(u)"));
  guint32 pid = 0;

  if (reply != NULL)
    g_variant_get (reply, "(u)", &pid);

  return (GPid) pid;
}

static gboolean
clarify_running (void)
{
  g_autoptr(GVariant) reply = ask_bus_about_clarify ("NameHasOwner", G_VARIANT_TYPE ("(b)"));
  gboolean has_owner = FALSE;

  if (reply != NULL)
    g_variant_get (reply, "(b)", &has_owner);

  return has_owner;
}

static void
stop_clarify (void)
{
  GPid pid = clarify_pid ();

  if (pid <= 0)
    return;

  kill (pid, SIGTERM);
  for (int i = 0; i < 500 && clarify_running (); i++)
    g_usleep (10000);
  if (clarify_running ())
    kill (pid, SIGKILL);
}

static void
stop_child (GPid pid)
{
  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
}

/* Starts @argv in Clarify's environment for this run, its output dropped;
 * reaped by the caller. */
static GPid
spawn_quietly (char **argv)
{
  g_autoptr(GError) error = NULL;
  GPid pid;

  if (!g_spawn_async (NULL, argv, child_env,
                      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                      NULL, NULL, &pid, &error))
    g_error ("Cannot start %s: %s", argv[0], error->message);

  return pid;
}

/* Process-wide CPU time (all threads, user and system) in seconds, from the
 * scheduler's nanosecond count rather than /proc's 10 ms ticks, so that a
 * fraction of a percent over a few seconds shows. */
static double
pid_cpu_seconds (GPid pid)
{
  clockid_t clock;
  struct timespec spent;

  if (clock_getcpuclockid (pid, &clock) != 0 || clock_gettime (clock, &spent) != 0)
    return NAN;

  return spent.tv_sec + spent.tv_nsec / 1e9;
}

static void
sleep_until (gint64 when_us)
{
  gint64 left = when_us - g_get_monotonic_time ();

  if (left > 0)
    g_usleep (left);
}

/* % of one core that @pid used from @from_s to @to_s seconds after @since. */
static double
cpu_share (GPid   pid,
           gint64 since,
           double from_s,
           double to_s)
{
  double cpu_before, cpu_after;
  gint64 before, after;

  sleep_until (since + (gint64) (from_s * G_USEC_PER_SEC));
  cpu_before = pid_cpu_seconds (pid);
  before = g_get_monotonic_time ();
  sleep_until (since + (gint64) (to_s * G_USEC_PER_SEC));
  cpu_after = pid_cpu_seconds (pid);
  after = g_get_monotonic_time ();

  return 100.0 * (cpu_after - cpu_before) / ((after - before) / (double) G_USEC_PER_SEC);
}

static void
run_once (XWatch  *watch,
          Program *program,
          gboolean counted)
{
  gint64 start;
  GPid pid;

  if (program->cold_clarify)
    stop_clarify ();
  watch_reset (watch);

  start = g_get_monotonic_time ();
  pid = spawn_quietly (program->argv);

  if (!watch_wait (watch, is_drawn, WAIT_MS))
    {
      program->failed++;
    }
  else if (counted)
    {
      double mapped = (watch->mapped_at - start) / 1000.0;
      double drawn = (watch->drawn_at - start) / 1000.0;

      g_array_append_val (program->mapped_ms, mapped);
      g_array_append_val (program->drawn_ms, drawn);
      if (!program->cold_clarify && program->resident_kind == NULL)
        {
          double rss = bench_pid_status (pid, "VmRSS");

          if (rss >= 0)
            g_array_append_val (program->rss_kib, rss);
        }
    }

  stop_child (pid);
  if (watch->mapped != None && !watch_wait (watch, is_gone, 5000))
    g_printerr ("%s: its window stayed after the program was stopped\n", program->name);
  if (program->cold_clarify)
    stop_clarify ();
}

/* What @program's window costs while it is left alone: the CPU share of
 * the program (or of Clarify, for a question asked of it) while GTK blinks
 * the text cursor, and after the blink has stopped. */
static void
measure_left_alone (XWatch  *watch,
                    Program *program)
{
  double blinking = NAN, after_blink = NAN;
  GPid pid, measured;

  watch_reset (watch);
  pid = spawn_quietly (program->argv);

  measured = program->resident_kind != NULL ? clarify_pid () : pid;
  if (watch_wait (watch, is_drawn, WAIT_MS) && measured > 0)
    {
      blinking = cpu_share (measured, watch->drawn_at, 1, 9);
      after_blink = cpu_share (measured, watch->drawn_at, 11, 17);
    }

  printf ("%-48s %14.1f %14.1f\n", program->name, blinking, after_blink);
  fflush (stdout);

  stop_child (pid);
  if (watch->mapped != None && !watch_wait (watch, is_gone, 5000))
    g_printerr ("%s: its window stayed after the program was stopped\n", program->name);
}

/* Clarify started on its own, as at login, so that its memory before any
 * dialog can be read; the questions then find it running. */
static GPid
start_resident_clarify (void)
{
  char *argv[] = { opt_clarify, (char *) "--background", NULL };
  GPid pid;

  pid = spawn_quietly (argv);
  for (int i = 0; i < 1000 && !clarify_running (); i++)
    g_usleep (10000);
  if (!clarify_running ())
    g_error ("%s --background did not take its name on the bus", opt_clarify);

  return pid;
}

/* Its median drawn time ÷ the first reference's (GTK), and ÷ the
 * second's (libadwaita); a ratio is left out for the reference itself. */
static void
print_program (GPtrArray *programs,
               guint      index)
{
  Program *program = g_ptr_array_index (programs, index);
  double drawn = bench_percentile (program->drawn_ms, 0.5);

  printf ("%-38s %5u %9.1f %9.1f %9.1f %9.1f",
          program->name, program->drawn_ms->len,
          bench_percentile (program->mapped_ms, 0.5), drawn,
          bench_percentile (program->drawn_ms, 0.0), bench_percentile (program->drawn_ms, 1.0));
  for (guint reference = 0; reference < 2 && reference < index && !isnan (drawn); reference++)
    printf (" %9.2f×", drawn / bench_percentile (((Program *) g_ptr_array_index (programs, reference))->drawn_ms, 0.5));
  if (program->failed > 0)
    printf ("  (%u runs drew nothing within %d ms)", program->failed, WAIT_MS);
  printf ("\n");
}

static Program *
program_new_argv (const char *name,
                  gboolean    cold_clarify,
                  GStrv       argv)
{
  Program *program = g_new0 (Program, 1);

  program->name = name;
  program->argv = argv;
  program->cold_clarify = cold_clarify;
  program->mapped_ms = g_array_new (FALSE, FALSE, sizeof (double));
  program->drawn_ms = g_array_new (FALSE, FALSE, sizeof (double));
  program->rss_kib = g_array_new (FALSE, FALSE, sizeof (double));
  program->rss_after_kib = -1;

  return program;
}

static Program *
program_new (const char *name,
             gboolean    cold_clarify,
             ...)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;
  const char *arg;

  va_start (args, cold_clarify);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_strv_builder_add (builder, arg);
  va_end (args);

  return program_new_argv (name, cold_clarify, g_strv_builder_end (builder));
}

/* A resident Clarify asked one single choice of @n_options: chips up to
 * four, the searchable list past that. */
static Program *
program_new_choice (const char *name,
                    const char *kind,
                    guint       n_options)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  Program *program;

  g_strv_builder_add_many (builder, opt_clarify, "ask", "--title=Travel",
                           "--question=Which city should the team meet in?", "--type=select", NULL);
  for (guint i = 0; i < n_options; i++)
    {
      g_autofree char *option = g_strdup_printf ("--option=City number %u", i + 1);

      g_strv_builder_add (builder, option);
    }

  program = program_new_argv (name, FALSE, g_strv_builder_end (builder));
  program->resident_kind = kind;

  return program;
}

static void
program_free (Program *program)
{
  g_strfreev (program->argv);
  g_array_unref (program->mapped_ms);
  g_array_unref (program->drawn_ms);
  g_array_unref (program->rss_kib);
  g_free (program);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— how long a question takes to appear");
  g_autoptr(GPtrArray) programs = g_ptr_array_new_with_free_func ((GDestroyNotify) program_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *home = NULL;
  g_autofree char *zenity = g_find_program_in_path ("zenity");
  g_autofree char *yad = g_find_program_in_path ("yad");
  XWatch watch = { 0 };
  Program *resident_text;
  GPid resident_pid = 0;
  gint64 resident_idle_kib = -1;
  int damage_error;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  opt_runs = MAX (opt_runs, 1);
  if (opt_clarify == NULL)
    opt_clarify = g_strdup (CLARIFY_BINARY);
  if (opt_gtk_window == NULL)
    opt_gtk_window = g_strdup (BENCH_GTK_WINDOW);
  if (opt_adw_window == NULL)
    opt_adw_window = g_strdup (BENCH_ADW_WINDOW);

  watch.display = XOpenDisplay (NULL);
  if (watch.display == NULL)
    {
      g_printerr ("bench-onscreen needs an X display; run it under xvfb-run -a dbus-run-session\n");
      return 77;
    }
  if (!XDamageQueryExtension (watch.display, &watch.damage_event, &damage_error))
    g_error ("The X server has no DAMAGE extension");
  XSetErrorHandler (ignore_x_errors);
  watch.root = DefaultRootWindow (watch.display);
  watch.damages = g_hash_table_new (NULL, NULL);
  XSelectInput (watch.display, watch.root, SubstructureNotifyMask);

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    {
      g_printerr ("bench-onscreen needs a session bus: %s\n", error->message);
      return 77;
    }
  if (clarify_running ())
    {
      g_printerr ("Clarify already runs on this bus; run the bench on a bus of its own (dbus-run-session)\n");
      return 1;
    }

  /* Clarify's data, history and settings in a directory of this run. */
  home = g_dir_make_tmp ("bench-onscreen-XXXXXX", &error);
  g_assert_no_error (error);
  child_env = g_get_environ ();
  child_env = g_environ_setenv (child_env, "XDG_DATA_HOME", home, TRUE);
  child_env = g_environ_setenv (child_env, "XDG_CONFIG_HOME", home, TRUE);
  child_env = g_environ_setenv (child_env, "XDG_STATE_HOME", home, TRUE);

  g_ptr_array_add (programs, program_new ("a minimal GTK 4 window", FALSE,
                                          "/usr/bin/env", "GDK_DEBUG=gl-disable", opt_gtk_window, NULL));
  g_ptr_array_add (programs, program_new ("a minimal libadwaita window", FALSE,
                                          "/usr/bin/env", "GDK_DEBUG=gl-disable", opt_adw_window, NULL));
  if (zenity != NULL)
    g_ptr_array_add (programs, program_new ("zenity --entry (GTK 3)", FALSE,
                                            zenity, "--entry", "--title=New project",
                                            "--text=What should the new project be called?", NULL));
  if (yad != NULL)
    g_ptr_array_add (programs, program_new ("yad --entry (GTK 3)", FALSE,
                                            yad, "--entry", "--title=New project",
                                            "--text=What should the new project be called?", NULL));
  g_ptr_array_add (programs, program_new ("clarify ask, cold", TRUE,
                                          opt_clarify, "ask", "--title=New project",
                                          "--question=What should the new project be called?", NULL));
  resident_text = program_new ("clarify ask, resident", FALSE,
                                opt_clarify, "ask", "--title=New project",
                                "--question=What should the new project be called?", NULL);
  resident_text->resident_kind = "text question";
  g_ptr_array_add (programs, resident_text);
  g_ptr_array_add (programs, program_new_choice ("clarify ask, resident, 4 chips", "4-chip question", 4));
  g_ptr_array_add (programs, program_new_choice ("clarify ask, resident, 200 in a list", "200-option list", 200));

  printf ("bench-onscreen: %s, %d runs each after one warm-up%s%s\n", opt_clarify, opt_runs,
          zenity == NULL ? "; zenity not installed" : "", yad == NULL ? "; yad not installed" : "");
  printf ("%-38s  runs    mapped     drawn  drawn min drawn max    ÷ GTK 4  ÷ libadw.\n", "ms from the spawn, medians");

  for (guint i = 0; i < programs->len; i++)
    {
      Program *program = g_ptr_array_index (programs, i);

      if (program->resident_kind != NULL && resident_pid == 0)
        {
          resident_pid = start_resident_clarify ();
          g_usleep (2 * G_USEC_PER_SEC);
          resident_idle_kib = bench_pid_status (clarify_pid (), "VmRSS");
        }

      for (int run = 0; run <= opt_runs; run++)
        run_once (&watch, program, run > 0);

      print_program (programs, i);
      fflush (stdout);

      if (program->resident_kind != NULL)
        {
          g_usleep (3 * G_USEC_PER_SEC);
          program->rss_after_kib = bench_pid_status (clarify_pid (), "VmRSS");
        }
    }

  /* A value /proc did not give (the process had gone) is left out. */
  printf ("\nmemory, VmRSS in MiB (the references: median when drawn)\n");
  for (guint i = 0; i < programs->len; i++)
    {
      Program *program = g_ptr_array_index (programs, i);

      if (program->rss_kib->len > 0)
        printf ("%-48s %8.1f\n", program->name, bench_percentile (program->rss_kib, 0.5) / 1024.0);
    }
  if (resident_idle_kib >= 0)
    printf ("%-48s %8.1f\n", "Clarify, resident, before its first dialog", resident_idle_kib / 1024.0);
  for (guint i = 0; i < programs->len; i++)
    {
      Program *program = g_ptr_array_index (programs, i);
      g_autofree char *label = NULL;

      if (program->rss_after_kib < 0)
        continue;
      label = g_strdup_printf ("Clarify, 3 s after its last %s", program->resident_kind);
      printf ("%-48s %8.1f\n", label, program->rss_after_kib / 1024.0);
    }

  printf ("\nleft alone, the focus in a text field: %% of a core   s 1–9 (blink) s 11–17 (after)\n");
  measure_left_alone (&watch, g_ptr_array_index (programs, 0));
  measure_left_alone (&watch, resident_text);

  stop_clarify ();
  if (resident_pid > 0)
    waitpid (resident_pid, NULL, 0);
  XCloseDisplay (watch.display);
  g_hash_table_unref (watch.damages);
  clarify_test_remove_tree (home);

  return 0;
}
