/* clarify-search-words.c
 *
 * Case-fold, then decompose (NFKD: "é" is "e" and a combining accent, "ﬁ"
 * is "fi"), then drop the combining marks. Folding comes first because it
 * can itself produce marks ("İ" folds to "i" and a dot above).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-search-words.h"

#define COMBINING_DIAERESIS 0x0308

/* Letters of Latin alphabets that carry their stroke or ligature in the
 * letter itself, so no decomposition takes it off: "København" is found
 * by "kobenhavn" as "Köln" is by "koln". Lower case: this runs after
 * case folding. */
static const struct
{
  gunichar    letter;
  const char *plain;
} plain_letters[] = {
  { 0x00E6, "ae" }, /* æ */
  { 0x00F0, "d" },  /* ð */
  { 0x00F8, "o" },  /* ø */
  { 0x00FE, "th" }, /* þ */
  { 0x0111, "d" },  /* đ */
  { 0x0127, "h" },  /* ħ */
  { 0x0131, "i" },  /* ı */
  { 0x0142, "l" },  /* ł */
  { 0x0153, "oe" }, /* œ */
  { 0x0167, "t" },  /* ŧ */
};

static const char *
plain_letter (gunichar c)
{
  for (guint i = 0; i < G_N_ELEMENTS (plain_letters); i++)
    if (plain_letters[i].letter == c)
      return plain_letters[i].plain;

  return NULL;
}

static void
end_word (GPtrArray *words,
          GString   *word)
{
  if (word->len == 0)
    return;

  if (!g_ptr_array_find_with_equal_func (words, word->str, g_str_equal, NULL))
    g_ptr_array_add (words, g_strdup (word->str));
  g_string_truncate (word, 0);
}

/* Appends the words of @decomposed, folded and decomposed text, to @words.
 * With @umlaut_e, a diaeresis on a, o or u is spelled "e". */
static void
add_words (GPtrArray  *words,
           const char *decomposed,
           gboolean    umlaut_e)
{
  g_autoptr(GString) word = g_string_new (NULL);
  gunichar base = 0;

  for (const char *p = decomposed; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      const char *plain;

      if (g_unichar_ismark (c))
        {
          /* An accent is part of its letter's word, never a break. */
          if (umlaut_e && c == COMBINING_DIAERESIS && (base == 'a' || base == 'o' || base == 'u'))
            g_string_append_c (word, 'e');
          continue;
        }

      base = c;
      if ((plain = plain_letter (c)) != NULL)
        g_string_append (word, plain);
      else if (g_unichar_isalnum (c))
        g_string_append_unichar (word, c);
      else
        end_word (words, word);
    }

  end_word (words, word);
}

char **
clarify_search_words_new (const char *text,
                          gboolean    alternates)
{
  g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *folded = NULL;
  g_autofree char *decomposed = NULL;

  if (text != NULL && g_utf8_validate (text, -1, NULL))
    {
      folded = g_utf8_casefold (text, -1);
      decomposed = g_utf8_normalize (folded, -1, G_NORMALIZE_ALL);
    }

  if (decomposed != NULL)
    {
      add_words (words, decomposed, FALSE);
      if (alternates)
        add_words (words, decomposed, TRUE);
    }

  g_ptr_array_add (words, NULL);

  return (char **) g_ptr_array_free (g_steal_pointer (&words), FALSE);
}

gboolean
clarify_search_words_match (const char * const *query,
                            const char * const *words)
{
  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (words != NULL, FALSE);

  for (guint i = 0; query[i] != NULL; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; words[j] != NULL && !found; j++)
        found = g_str_has_prefix (words[j], query[i]);

      if (!found)
        return FALSE;
    }

  return TRUE;
}
