/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "clarify-cli.h"
#include "clarify-application.h"
#include "clarify-renderer.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(ClarifyApplication) app = NULL;
  const char *localedir = g_getenv ("CLARIFY_LOCALEDIR");
  int status;

  setlocale (LC_ALL, "");
  /* Run from the build tree (tools/run-demo), the catalog is not installed yet. */
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* `clarify ask`, `clarify mcp-stdio`, `clarify --mcp-info`: clients of the
   * running app over D-Bus, without a GUI of their own. Every other command
   * line is ClarifyApplication's (see its option entries). */
  if (clarify_cli_handle (argc, argv, &status))
    return status;

  clarify_renderer_choose ();
  g_set_application_name (_("Clarify"));
  app = clarify_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
