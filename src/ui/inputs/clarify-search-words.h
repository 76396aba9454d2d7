/* clarify-search-words.h: text cut into words for a search that ignores
 * case and accents
 *
 * The same in every locale: GLib's g_str_match_string() spells "ü" as "ue"
 * under a German locale, and "zurich" then no longer finds Zürich.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The words of @text (runs of letters and digits), case-folded, in
 * compatibility decomposition and without their accents: "Köln" gives
 * "koln". With @alternates, a word with a German umlaut also comes spelled
 * out ("koeln"), so that a search typed that way finds it too. */
char     **clarify_search_words_new     (const char         *text,
                                         gboolean            alternates);
/* Whether each word of @query starts a word of @words ("zur" finds "Zürich",
 * "8 vcpu" finds "8 vCPU"). A query without words matches everything. */
gboolean   clarify_search_words_match   (const char * const *query,
                                         const char * const *words);

G_END_DECLS
