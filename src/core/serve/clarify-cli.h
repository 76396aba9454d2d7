/* clarify-cli.h: the commands that run before (and without) the GUI
 *
 *   clarify ask …        ask the running app over D-Bus, zenity-like
 *   clarify chat …       chat with an iHub app, its questions asked over D-Bus
 *   clarify hook claude-code   answer a Claude Code hook (stdin → stdout)
 *                        through the running app over D-Bus
 *   clarify mcp-stdio    an MCP server on stdin/stdout that forwards
 *                        ask_user to the running app over D-Bus
 *   clarify --mcp-info   the MCP endpoint's URL, token and config snippets
 *   clarify set-password NAME   store a connection's password in the keyring
 *   clarify setup claude-code   add Clarify's hooks to Claude Code's settings
 *
 * Those that ask talk to the app only over D-Bus, so the single running
 * instance (started by D-Bus activation when needed) shows every dialog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit statuses of `clarify ask` (zenity's where zenity has one). */
#define CLARIFY_CLI_EXIT_ANSWERED     0
#define CLARIFY_CLI_EXIT_CANCELLED    1
#define CLARIFY_CLI_EXIT_BAD_ARGS     2
#define CLARIFY_CLI_EXIT_UNREACHABLE  3
/* Clarify holds as many questions as it takes; ask again later. */
#define CLARIFY_CLI_EXIT_BUSY         4
#define CLARIFY_CLI_EXIT_TIMED_OUT    5

/* Runs the command when argv[1] names one of them and returns TRUE with
 * its exit status in @exit_status; returns FALSE (touching nothing) for
 * anything else, which then goes to GApplication. */
gboolean clarify_cli_handle        (int          argc,
                                    char       **argv,
                                    int         *exit_status);

/* The same for `ask` and `hook` only, the commands an agent starts once
 * per question: `clarify` runs them without linking the rest of the core
 * (clarify-cli-client.c). */
gboolean clarify_cli_handle_client (int          argc,
                                    char       **argv,
                                    int         *exit_status);
/* Whether @command is one of the others clarify_cli_handle() runs, which
 * `clarify` hands to clarify-tools. */
gboolean clarify_cli_is_core_command (const char *command);
/* The locale and the message catalog (CLARIFY_LOCALEDIR in a build tree),
 * as each program sets them up first. */
void     clarify_cli_init_locale   (void);
/* The program @name beside this one, as in a build tree, or NULL. */
char    *clarify_cli_find_beside   (const char  *name);
/* Replaces this process with the program @name (clarify-tools, clarify-gui)
 * beside it in a build tree, else in libexecdir, with @argv as it is (argv[0]
 * included, so messages still say "clarify"). Returns only when that fails,
 * with the message printed and the exit status to use. */
int      clarify_cli_exec          (const char  *name,
                                    char       **argv);
/* Takes G_SLICE out of this process's environment where clarify_cli_exec()
 * put it in, so that what the program starts sees the user's environment.
 * Call it first thing in main(). */
void     clarify_cli_forget_slice_setting (void);

G_END_DECLS
