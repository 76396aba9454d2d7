/* clarify-command-line.h: a command line whose output is kept, not sent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_COMMAND_LINE (clarify_command_line_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyCommandLine, clarify_command_line, CLARIFY, COMMAND_LINE, GApplicationCommandLine)

ClarifyCommandLine *clarify_command_line_new     (GVariant           *arguments,
                                                  GVariant           *platform_data);
const char         *clarify_command_line_get_out (ClarifyCommandLine *self);
const char         *clarify_command_line_get_err (ClarifyCommandLine *self);

G_END_DECLS
