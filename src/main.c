/* main.c: `clarify`, the command agents and people run
 *
 * An agent starts `clarify ask` or `clarify hook claude-code` once per
 * question, and handing the question to the running Clarify should cost a
 * few milliseconds: they run here, in a program that links GLib, GIO and
 * json-glib only (no GTK, no libsoup, no libsecret). Every other command
 * line goes, with the same arguments (argv[0] included, so usage and
 * messages still say "clarify"), to clarify-tools for the commands that
 * need the whole core, and to clarify-gui for the application.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-cli.h"

int
main (int   argc,
      char *argv[])
{
  int status;

  clarify_cli_init_locale ();

  if (clarify_cli_handle_client (argc, argv, &status))
    return status;

  if (argc > 1 && clarify_cli_is_core_command (argv[1]))
    return clarify_cli_exec ("clarify-tools", argv);

  return clarify_cli_exec ("clarify-gui", argv);
}
