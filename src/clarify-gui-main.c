/* clarify-gui-main.c: the application with its windows, tray and endpoints
 *
 * `clarify` (main.c) runs the client commands itself and hands everything
 * else to this program, with the same arguments.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>

#include "clarify-application.h"
#include "clarify-cli.h"
#include "clarify-renderer.h"

/* The first signal quits as Quit does, without asking; a second one finds
 * the default action again (the source is gone) and ends the process. */
static gboolean
quit_on_signal_cb (gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));

  return G_SOURCE_REMOVE;
}

/* Logging out ends the session's programs with SIGTERM, a terminal with
 * SIGINT or SIGHUP. Quitting writes the history's last entries and the
 * undelivered answers, and takes the notifications back: a notification
 * left behind would name a question no Clarify holds. Only the instance
 * that runs: a second `clarify` waits on the bus and ends as before. */
static void
startup_cb (GApplication *app)
{
  g_unix_signal_add (SIGTERM, quit_on_signal_cb, app);
  g_unix_signal_add (SIGINT, quit_on_signal_cb, app);
  g_unix_signal_add (SIGHUP, quit_on_signal_cb, app);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(ClarifyApplication) app = NULL;

  clarify_cli_forget_slice_setting ();
  clarify_cli_init_locale ();
  clarify_renderer_choose ();
  g_set_application_name (_("Clarify"));
  app = clarify_application_new ();
  g_signal_connect (app, "startup", G_CALLBACK (startup_cb), NULL);

  return g_application_run (G_APPLICATION (app), argc, argv);
}
