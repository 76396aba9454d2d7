/* clarify-date-text.h: dates as people in the user's locale type and read them
 *
 * Typed dates are read in the locale's order of day, month and year (its
 * %x: 01.12.2026 in de_DE, 12/01/2026 in en_US and C, 01/12/2026 in
 * en_GB), and in ISO order (2026-12-01) everywhere. The answer is always
 * ISO; the date understood is shown in words below the field, so that a
 * date read another way than meant does not go unseen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Fills in @date from @text (surrounding spaces ignored). FALSE when @text
 * is no whole, existing date; @date is then cleared. */
gboolean clarify_date_text_parse        (const char  *text,
                                         GDate       *date);
/* YYYY-MM-DD. */
char    *clarify_date_text_format_iso   (const GDate *date);
/* The locale's numeric form with the whole year, as the field shows it
 * ("01.12.2026"); ISO in the C locale, whose own form has a two-digit year. */
char    *clarify_date_text_format       (const GDate *date);
/* In words, in the user's language: "Tue, 1 December 2026". */
char    *clarify_date_text_format_words (const GDate *date);

G_END_DECLS
