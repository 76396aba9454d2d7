/* clarify-gui-main.c: the application with its windows, tray and endpoints
 *
 * `clarify` (main.c) runs the client commands itself and hands everything
 * else to this program, with the same arguments.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "clarify-application.h"
#include "clarify-renderer.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(ClarifyApplication) app = NULL;
  const char *localedir = g_getenv ("CLARIFY_LOCALEDIR");

  setlocale (LC_ALL, "");
  /* Run from the build tree (tools/run-demo), the catalog is not installed yet. */
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  clarify_renderer_choose ();
  g_set_application_name (_("Clarify"));
  app = clarify_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
