/* clarify-pattern.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-pattern.h"
#include "clarify-validate.h"

/* Whether a quantifier starts at @p: "+", "*" or "{n,}" (unbounded). Bounded
 * {n} and {n,m} cannot blow up on their own, and "?" is at most one. */
static gboolean
is_unbounded_quantifier (const char *p)
{
  if (*p == '+' || *p == '*')
    return TRUE;

  if (*p == '{')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
      return p[0] == ',' && p[1] == '}';
    }

  return FALSE;
}

/* The end of the atom at @p: an escape, a class (where "]" right after "["
 * or "[^" is literal), a group or one character. */
static const char *
skip_atom (const char *p)
{
  if (*p == '\\')
    return p[1] != '\0' ? p + 2 : p + 1;

  if (*p == '[')
    {
      p++;
      if (*p == '^')
        p++;
      if (*p == ']')
        p++;
      while (*p != '\0' && *p != ']')
        p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
      return *p == ']' ? p + 1 : p;
    }

  if (*p == '(')
    {
      guint depth = 0;

      while (*p != '\0')
        {
          if (*p == '(')
            depth++;
          else if (*p == ')' && --depth == 0)
            return p + 1;

          p = (*p == '(' || *p == ')') ? p + 1 : skip_atom (p);
        }
      return p;
    }

  return g_utf8_next_char (p);
}

/* Whether the alternation inside the group [@start, @end) has branches
 * that can match the same text, so that a quantifier on the group tries
 * exponentially many ways to split a long answer: (a|aa)+, (a|a?)+,
 * (.|x)+, (|a)+. Branches are compared by their first atom; (a|b)+ and
 * (foo|bar)+ pass. */
static gboolean
has_overlapping_branches (const char *start,
                          const char *end)
{
  g_autoptr(GPtrArray) firsts = g_ptr_array_new_with_free_func (g_free);
  const char *branch = start;
  gboolean alternation = FALSE;

  /* (?:…) is a plain group; lookarounds and named groups are left to
   * the match limit. */
  if (start[0] == '?')
    {
      if (start[1] != ':')
        return FALSE;
      branch = start + 2;
    }

  for (const char *p = branch; ; )
    {
      if (p >= end || *p == '|')
        {
          const char *atom_end = branch < end && *branch != '|' ? skip_atom (branch) : branch;
          char *first = g_strndup (branch, atom_end - branch);

          /* An empty branch, or one whose first atom is optional, matches
           * where the others do; so does a dot. */
          if (*first == '\0' || g_str_equal (first, ".") ||
              *atom_end == '?' || *atom_end == '*' || g_str_has_prefix (atom_end, "{0"))
            {
              g_free (first);
              return alternation || (p < end && *p == '|');
            }
          for (guint i = 0; i < firsts->len; i++)
            if (g_str_equal (firsts->pdata[i], first))
              {
                g_free (first);
                return TRUE;
              }
          g_ptr_array_add (firsts, first);

          if (p >= end)
            break;
          alternation = TRUE;
          branch = ++p;
          continue;
        }

      p = skip_atom (p);
    }

  return FALSE;
}

/* Seed 000's ReDoS heuristics, done as a scan instead of regexes over the
 * regex: a group that contains an unbounded quantifier (directly or in a
 * nested group) and is itself followed by one, as in (a+)+, (.*)*,
 * ([a-z]+)+ or (?:x*y)+; and a quantified alternation whose branches
 * overlap, as in (a|aa)+ or (a|a?)+. Alternations such as (a|b)+ pass. */
static gboolean
has_nested_quantifier (const char *pattern)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GPtrArray) starts = g_ptr_array_new ();
  gboolean outside = FALSE;

  for (const char *p = pattern; *p != '\0'; p++)
    {
      gboolean *inner = stack->len > 0 ? &g_array_index (stack, gboolean, stack->len - 1) : &outside;

      switch (*p)
        {
        case '\\':
          if (p[1] == '\0')
            return FALSE;
          p++;
          /* \Q…\E quotes everything up to \E. */
          if (*p == 'Q')
            {
              const char *end = strstr (p, "\\E");

              if (end == NULL)
                return FALSE;
              p = end + 1;
            }
          break;

        case '[':
          {
            const char *end = skip_atom (p);

            /* An unterminated class does not compile anyway. */
            if (end[-1] != ']')
              return FALSE;
            p = end - 1;
          }
          break;

        case '(':
          {
            gboolean contains = FALSE;

            g_array_append_val (stack, contains);
            g_ptr_array_add (starts, (gpointer) (p + 1));
          }
          break;

        case ')':
          {
            gboolean contains;

            if (stack->len == 0)
              break;

            contains = g_array_index (stack, gboolean, stack->len - 1);
            g_array_set_size (stack, stack->len - 1);

            if (contains && is_unbounded_quantifier (p + 1))
              return TRUE;
            if (is_unbounded_quantifier (p + 1) &&
                has_overlapping_branches (starts->pdata[starts->len - 1], p))
              return TRUE;
            g_ptr_array_set_size (starts, starts->len - 1);

            /* ((a+)) still contains a quantifier for the group around it,
             * and so does ((ab)+). */
            inner = stack->len > 0 ? &g_array_index (stack, gboolean, stack->len - 1) : &outside;
            if (contains || is_unbounded_quantifier (p + 1))
              *inner = TRUE;
          }
          break;

        default:
          if (is_unbounded_quantifier (p))
            *inner = TRUE;
          break;
        }
    }

  return FALSE;
}

/* Every check of an answer runs under these limits, so that a pattern the
 * heuristics above miss fails with an error within milliseconds instead
 * of backtracking for seconds. PCRE2 takes them at the start of the
 * pattern, and an agent's own can only lower them. */
#define PATTERN_LIMITS "(*LIMIT_MATCH=1000000)(*LIMIT_HEAP=1000)"

static GRegex *
compile_pattern (const char          *pattern,
                 GRegexCompileFlags   flags,
                 GError             **error)
{
  g_autofree char *limited = g_strconcat (PATTERN_LIMITS, pattern, NULL);

  return g_regex_new (limited, flags, 0, error);
}

/* JIT first: far faster, but its small stack gives
 * up on a repeated group past a thousand or two characters, where the
 * interpreter, within its heap limit, still decides in milliseconds. */
gboolean
clarify_pattern_matches (const char  *pattern,
                         const char  *text,
                         GError     **error)
{
  g_autoptr(GRegex) jit = compile_pattern (pattern, G_REGEX_OPTIMIZE, NULL);
  g_autoptr(GRegex) interpreted = NULL;
  g_autoptr(GError) jit_error = NULL;

  /* An uncompilable pattern never gets here (clarify_request_validate). */
  if (jit == NULL || g_regex_match_full (jit, text, -1, 0, 0, NULL, &jit_error))
    return TRUE;
  if (jit_error == NULL)
    return FALSE;

  interpreted = compile_pattern (pattern, 0, NULL);
  return interpreted == NULL || g_regex_match_full (interpreted, text, -1, 0, 0, NULL, error);
}

gboolean
clarify_validate_pattern (const char  *pattern,
                          GError     **error)
{
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (pattern != NULL, FALSE);

  /* These messages go back to agents, which read English best. */
  if (g_utf8_strlen (pattern, -1) > CLARIFY_MAX_PATTERN_CHARS)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_UNSAFE_PATTERN,
                   "the pattern is longer than %d characters", CLARIFY_MAX_PATTERN_CHARS);
      return FALSE;
    }

  if (has_nested_quantifier (pattern))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_UNSAFE_PATTERN,
                           "the pattern contains nested quantifiers (ReDoS risk)");
      return FALSE;
    }

  /* Compiled as the agent wrote it first, so that GLib's message quotes
   * their pattern and counts characters in it, not in ours; compiling
   * never backtracks, so it needs no limits. */
  regex = g_regex_new (pattern, 0, 0, &local_error);
  if (regex != NULL)
    {
      g_clear_pointer (&regex, g_regex_unref);
      regex = compile_pattern (pattern, 0, &local_error);
    }
  if (regex == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "the pattern does not compile: %s", local_error->message);
      return FALSE;
    }

  return TRUE;
}
