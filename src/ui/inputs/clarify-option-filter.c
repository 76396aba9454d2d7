/* clarify-option-filter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-option.h"
#include "clarify-option-filter.h"
#include "clarify-search-words.h"

/* An option's words, folded once for all the searches to come. */
typedef struct
{
  char **label;
  char **description;
} OptionWords;

struct _ClarifyOptionFilter
{
  GtkFilter   parent_instance;

  /* The search's words; NULL while there is none. */
  char      **query;
  /* ClarifyOption → OptionWords; the options outlive the list they are in. */
  GHashTable *option_words;
};

G_DEFINE_FINAL_TYPE (ClarifyOptionFilter, clarify_option_filter, GTK_TYPE_FILTER)

static void
option_words_free (OptionWords *words)
{
  g_strfreev (words->label);
  g_strfreev (words->description);
  g_free (words);
}

static OptionWords *
get_option_words (ClarifyOptionFilter *self,
                  ClarifyOption       *option)
{
  OptionWords *words = g_hash_table_lookup (self->option_words, option);

  if (words == NULL)
    {
      words = g_new0 (OptionWords, 1);
      words->label = clarify_search_words_new (clarify_option_get_label (option), TRUE);
      words->description = clarify_search_words_new (clarify_option_get_description (option), TRUE);
      g_hash_table_insert (self->option_words, g_object_ref (option), words);
    }

  return words;
}

static gboolean
clarify_option_filter_match (GtkFilter *filter,
                             gpointer   item)
{
  ClarifyOptionFilter *self = CLARIFY_OPTION_FILTER (filter);
  const char * const *query = (const char * const *) self->query;
  OptionWords *words;

  if (query == NULL)
    return TRUE;

  words = get_option_words (self, item);

  return clarify_search_words_match (query, (const char * const *) words->label) ||
         clarify_search_words_match (query, (const char * const *) words->description);
}

static GtkFilterMatch
clarify_option_filter_get_strictness (GtkFilter *filter)
{
  ClarifyOptionFilter *self = CLARIFY_OPTION_FILTER (filter);

  return self->query == NULL ? GTK_FILTER_MATCH_ALL : GTK_FILTER_MATCH_SOME;
}

static void
clarify_option_filter_finalize (GObject *object)
{
  ClarifyOptionFilter *self = CLARIFY_OPTION_FILTER (object);

  g_clear_pointer (&self->query, g_strfreev);
  g_clear_pointer (&self->option_words, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_option_filter_parent_class)->finalize (object);
}

static void
clarify_option_filter_class_init (ClarifyOptionFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkFilterClass *filter_class = GTK_FILTER_CLASS (klass);

  object_class->finalize = clarify_option_filter_finalize;

  filter_class->match = clarify_option_filter_match;
  filter_class->get_strictness = clarify_option_filter_get_strictness;
}

static void
clarify_option_filter_init (ClarifyOptionFilter *self)
{
  self->option_words = g_hash_table_new_full (NULL, NULL, g_object_unref, (GDestroyNotify) option_words_free);
}

ClarifyOptionFilter *
clarify_option_filter_new (void)
{
  return g_object_new (CLARIFY_TYPE_OPTION_FILTER, NULL);
}

gboolean
clarify_option_filter_get_searching (ClarifyOptionFilter *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION_FILTER (self), FALSE);

  return self->query != NULL;
}

/* A search whose every word starts a word of another finds all that the
 * other finds: the words it matches start with those words too. */
gboolean
clarify_option_filter_set_search (ClarifyOptionFilter *self,
                                  const char          *text)
{
  const char * const none[] = { NULL };
  g_auto(GStrv) query = NULL;
  const char * const *old_query;
  const char * const *new_query;
  gboolean more_strict, less_strict;

  g_return_val_if_fail (CLARIFY_IS_OPTION_FILTER (self), FALSE);

  query = clarify_search_words_new (text, FALSE);
  /* Spaces and punctuation alone search for nothing. */
  if (query[0] == NULL)
    g_clear_pointer (&query, g_strfreev);

  old_query = self->query != NULL ? (const char * const *) self->query : none;
  new_query = query != NULL ? (const char * const *) query : none;
  more_strict = clarify_search_words_match (old_query, new_query);
  less_strict = clarify_search_words_match (new_query, old_query);

  g_strfreev (self->query);
  self->query = g_steal_pointer (&query);

  if (more_strict && less_strict)
    return FALSE;

  if (more_strict)
    gtk_filter_changed (GTK_FILTER (self), GTK_FILTER_CHANGE_MORE_STRICT);
  else if (less_strict)
    gtk_filter_changed (GTK_FILTER (self), GTK_FILTER_CHANGE_LESS_STRICT);
  else
    gtk_filter_changed (GTK_FILTER (self), GTK_FILTER_CHANGE_DIFFERENT);

  return TRUE;
}
