/* clarify-chat-cli.h: `clarify chat CONNECTION --app APP TEXT`
 *
 * Chats with an iHub app from the command line: the turn runs in this
 * process, each clarification is shown by the running Clarify (its D-Bus
 * Ask API), and the streamed answer goes to stdout.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit status beyond clarify-cli.h's: the server refused or failed. */
#define CLARIFY_CLI_EXIT_SERVER_ERROR 4

int clarify_chat_cli_run (int    argc,
                          char **argv);

G_END_DECLS
