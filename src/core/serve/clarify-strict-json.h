/* clarify-strict-json.h: is this text JSON by the letter of RFC 8259?
 *
 * json-glib also takes comments, single quotes, hex numbers, leading zeros
 * and unknown escapes. Where Clarify rewrites a file another program reads
 * (Claude Code's settings.json), such a file must be refused rather than
 * rewritten without its comments, so it is checked here first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* NULL when @text is one strict JSON value (UTF-8, nested no deeper than
 * CLARIFY_JSON_MAX_DEPTH) that json-glib writes back with the same values,
 * else where it goes wrong: "line 3, column 7". @is_json (nullable) says
 * whether @text is JSON all the same, with a number json-glib would change. */
char *clarify_strict_json_problem (const char *text,
                                   gsize       length,
                                   gboolean   *is_json);

G_END_DECLS
