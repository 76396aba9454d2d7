/* clarify-option-filter.h: the search of a ClarifyOptionList
 *
 * Matches the ClarifyOptions whose label or description has, for each word
 * of the search, a word that starts with it, ignoring case and accents in
 * every locale (clarify-search-words.h). Each option is folded once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_OPTION_FILTER (clarify_option_filter_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyOptionFilter, clarify_option_filter, CLARIFY, OPTION_FILTER, GtkFilter)

ClarifyOptionFilter *clarify_option_filter_new           (void);
/* Whether a search with words is set: without one, every option matches. */
gboolean             clarify_option_filter_get_searching (ClarifyOptionFilter *self);
/* Sets the search as the user typed it and emits ::changed with what the
 * change can do to the matches: typing on only hides options, erasing only
 * brings them back. FALSE, and no ::changed, when the words stay the same. */
gboolean             clarify_option_filter_set_search   (ClarifyOptionFilter *self,
                                                          const char          *text);

G_END_DECLS
