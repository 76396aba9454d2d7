/* clarify-gui-main.c: the application with its windows, tray and endpoints
 *
 * `clarify` (main.c) runs the client commands itself and hands everything
 * else to this program, with the same arguments.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-application.h"
#include "clarify-cli.h"
#include "clarify-renderer.h"

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

  return g_application_run (G_APPLICATION (app), argc, argv);
}
