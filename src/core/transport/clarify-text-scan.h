/* clarify-text-scan.h: the two byte scans the SSE parser spends its time in
 *
 * Both look at 64 bytes at a time where the CPU allows (AVX-512), 32 with
 * AVX2, 16 with SSE2 (any x86-64), and fall back to plain loops elsewhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_TEXT_SIMD_BASE,    /* SSE2 on x86-64, plain loops elsewhere */
  CLARIFY_TEXT_SIMD_AVX2,
  CLARIFY_TEXT_SIMD_AVX512,  /* AVX-512 F and BW */
} ClarifyTextSimd;

/* The widest vector code the scans use on this CPU. */
ClarifyTextSimd clarify_text_scan_get_simd   (void);
/* Keeps the scans at @limit or below, so that the tests check every path
 * on one CPU. */
void            clarify_text_scan_limit_simd (ClarifyTextSimd limit);

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
/* The same check without vector code, for other CPUs (and for the tests). */
gboolean    clarify_text_utf8_validate_portable (const char *text,
                                                 gsize       len);

G_END_DECLS
