/* clarify-text-scan.h: the two byte scans the SSE parser spends its time in
 *
 * Both look at 32 bytes at a time where the CPU allows (AVX2), 16 with SSE2
 * (any x86-64), and fall back to plain loops elsewhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The first CR or LF in [@p, @end), or @end when there is none. */
const char *clarify_text_find_eol      (const char *p,
                                        const char *end);

/* Whether @len bytes are well-formed UTF-8 without NUL: the same answer as
 * g_utf8_validate_len(), faster on mostly-ASCII text. */
gboolean    clarify_text_utf8_validate (const char *text,
                                        gsize       len);
/* Copies @len bytes of @text to @dest (which has room for them) and tells,
 * from the same pass, whether they are UTF-8 without NUL. */
gboolean    clarify_text_copy_utf8     (char       *dest,
                                        const char *text,
                                        gsize       len);
/* The same check without AVX2, for other CPUs (and for the tests). */
gboolean    clarify_text_utf8_validate_portable (const char *text,
                                                 gsize       len);

G_END_DECLS
