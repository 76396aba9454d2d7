/* clarify-pattern.h: an agent's answer pattern, checked before it is trusted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ≤ 200 characters, compiles with GRegex, and carries no nested quantifier
 * such as (a+)+, (.*)*, ([a-z]+)* or (?:x+y)+ (seed 000's ReDoS heuristics). */
gboolean clarify_validate_pattern (const char  *pattern,
                                   GError     **error);

/* Whether @text matches @pattern (one that passed clarify_validate_pattern());
 * FALSE with @error set when it cannot be told within the match limits. */
gboolean clarify_pattern_matches  (const char  *pattern,
                                   const char  *text,
                                   GError     **error);

G_END_DECLS
