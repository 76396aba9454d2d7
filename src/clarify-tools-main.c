/* clarify-tools-main.c: the commands of `clarify` that need the whole core
 *
 * `clarify chat`, `mcp-stdio`, `setup`, `set-password` and `--mcp-info`
 * reach agents over HTTP or the keyring, so they link libsoup and
 * libsecret, which `clarify` (main.c) leaves out. No GTK here either.
 * Anything else, such as the `clarify --gapplication-service` that
 * `mcp-stdio` starts when Clarify does not run, goes on to clarify-gui.
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

  clarify_cli_forget_slice_setting ();
  clarify_cli_init_locale ();

  if (clarify_cli_handle (argc, argv, &status))
    return status;

  return clarify_cli_exec ("clarify-gui", argv);
}
