/* main.c: `clarify`, the command agents and people run
 *
 * The client commands (`clarify ask`, `clarify hook claude-code`,
 * `clarify mcp-stdio`, …) run here, in a program that links no GTK: an
 * agent starts one per question, and handing the question to the running
 * Clarify should cost a few milliseconds, not GTK's start-up. Every other
 * command line is the application's, and goes to clarify-gui with the same
 * arguments (argv[0] included, so usage and messages still say "clarify").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <unistd.h>

#include "clarify-cli.h"

#define GUI_PROGRAM "clarify-gui"

/* Beside this program in a build tree, in libexecdir once installed. */
static char *
find_gui_program (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);

  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);
      g_autofree char *beside = g_build_filename (dir, GUI_PROGRAM, NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&beside);
    }

  return g_build_filename (LIBEXECDIR, GUI_PROGRAM, NULL);
}

int
main (int   argc,
      char *argv[])
{
  const char *localedir = g_getenv ("CLARIFY_LOCALEDIR");
  g_autofree char *gui = NULL;
  int status;

  setlocale (LC_ALL, "");
  /* Run from the build tree (tools/run-demo), the catalog is not installed yet. */
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (clarify_cli_handle (argc, argv, &status))
    return status;

  gui = find_gui_program ();
  execv (gui, argv);

  {
    int saved_errno = errno;

    /* TRANSLATORS: the first %s is a program's path, the second the reason */
    g_printerr ("clarify: ");
    g_printerr (_("Cannot start %s: %s"), gui, g_strerror (saved_errno));
    g_printerr ("\n");
  }
  return 1;
}
