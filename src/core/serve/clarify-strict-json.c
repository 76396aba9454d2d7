/* clarify-strict-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "clarify-json.h"
#include "clarify-strict-json.h"

typedef struct
{
  const char *p;
  const char *end;
  const char *why;  /* more than where it stopped, or NULL */
} Scan;

static gboolean scan_value (Scan *scan,
                            guint depth);

static void
scan_space (Scan *scan)
{
  while (scan->p < scan->end && strchr (" \t\r\n", *scan->p) != NULL)
    scan->p++;
}

static gboolean
scan_char (Scan *scan,
           char  c)
{
  scan_space (scan);
  if (scan->p >= scan->end || *scan->p != c)
    return FALSE;
  scan->p++;

  return TRUE;
}

static gboolean
scan_digits (Scan *scan)
{
  const char *start = scan->p;

  while (scan->p < scan->end && g_ascii_isdigit (*scan->p))
    scan->p++;

  return scan->p > start;
}

/* Whether json-glib reads the number [@start, @end) as the same value and
 * writes it back as JSON: it wraps integers past 64 bits, and writes a
 * double that overflowed as "inf.0" and one that underflowed as 0. */
static gboolean
number_survives (const char *start,
                 const char *end)
{
  g_autofree char *literal = g_strndup (start, end - start);
  const char *exponent = strpbrk (literal, "eE");
  double value;

  if (strpbrk (literal, ".eE") == NULL)
    {
      errno = 0;
      g_ascii_strtoll (literal, NULL, 10);
      return errno != ERANGE;
    }

  value = g_ascii_strtod (literal, NULL);
  if (!isfinite (value))
    return FALSE;
  if (value == 0.0)
    {
      for (const char *p = literal; *p != '\0' && (exponent == NULL || p < exponent); p++)
        if (*p >= '1' && *p <= '9')
          return FALSE;
    }

  return TRUE;
}

static gboolean
scan_number (Scan *scan)
{
  const char *start = scan->p;

  if (*scan->p == '-')
    scan->p++;
  if (scan->p < scan->end && *scan->p == '0')
    scan->p++;
  else if (!scan_digits (scan))
    return FALSE;

  if (scan->p < scan->end && *scan->p == '.')
    {
      scan->p++;
      if (!scan_digits (scan))
        return FALSE;
    }

  if (scan->p < scan->end && (*scan->p == 'e' || *scan->p == 'E'))
    {
      scan->p++;
      if (scan->p < scan->end && (*scan->p == '+' || *scan->p == '-'))
        scan->p++;
      if (!scan_digits (scan))
        return FALSE;
    }

  if (!number_survives (start, scan->p))
    {
      scan->p = start;
      scan->why = _("a number too large or too small to be written back unchanged");
      return FALSE;
    }

  return TRUE;
}

static gboolean
scan_string (Scan *scan)
{
  if (!scan_char (scan, '"'))
    return FALSE;

  while (scan->p < scan->end)
    {
      guchar c = *scan->p++;

      if (c == '"')
        return TRUE;
      if (c < 0x20)
        return FALSE;
      if (c != '\\')
        continue;

      if (scan->p >= scan->end)
        return FALSE;
      c = *scan->p++;
      if (c == 'u')
        {
          for (guint i = 0; i < 4; i++, scan->p++)
            {
              if (scan->p >= scan->end || !g_ascii_isxdigit (*scan->p))
                return FALSE;
            }
        }
      else if (strchr ("\"\\/bfnrt", c) == NULL)
        {
          return FALSE;
        }
    }

  return FALSE;
}

static gboolean
scan_word (Scan       *scan,
           const char *word)
{
  gsize length = strlen (word);

  if ((gsize) (scan->end - scan->p) < length || strncmp (scan->p, word, length) != 0)
    return FALSE;
  scan->p += length;

  return TRUE;
}

/* The members of an object or the elements of an array, after its opening. */
static gboolean
scan_container (Scan    *scan,
                gboolean object,
                guint    depth)
{
  char close = object ? '}' : ']';

  scan_space (scan);
  if (scan->p < scan->end && *scan->p == close)
    {
      scan->p++;
      return TRUE;
    }

  do
    {
      if (object && (!scan_string (scan) || !scan_char (scan, ':')))
        return FALSE;
      if (!scan_value (scan, depth + 1))
        return FALSE;
    }
  while (scan_char (scan, ','));

  return scan_char (scan, close);
}

static gboolean
scan_value (Scan *scan,
            guint depth)
{
  scan_space (scan);
  if (scan->p >= scan->end || depth > CLARIFY_JSON_MAX_DEPTH)
    return FALSE;

  switch (*scan->p)
    {
    case '{':
    case '[':
      return scan_container (scan, *scan->p++ == '{', depth);
    case '"':
      return scan_string (scan);
    case 't':
      return scan_word (scan, "true");
    case 'f':
      return scan_word (scan, "false");
    case 'n':
      return scan_word (scan, "null");
    default:
      return (*scan->p == '-' || g_ascii_isdigit (*scan->p)) && scan_number (scan);
    }
}

char *
clarify_strict_json_problem (const char *text,
                             gsize       length,
                             gboolean   *is_json)
{
  Scan scan = { text, text + length, NULL };

  if (is_json != NULL)
    *is_json = FALSE;
  guint line = 1;
  const char *line_start = text;
  g_autofree char *where = NULL;

  /* A C string would end there, and the rest of the file with it. */
  if (memchr (text, '\0', length) != NULL)
    return g_strdup (_("a NUL byte"));
  if (!g_utf8_validate (text, length, NULL))
    return g_strdup (_("not UTF-8"));

  if (scan_value (&scan, 0))
    {
      scan_space (&scan);
      if (scan.p == scan.end)
        return NULL;
    }

  for (const char *p = text; p < scan.p && p < scan.end; p++)
    {
      if (*p == '\n')
        {
          line++;
          line_start = p + 1;
        }
    }

  where = g_strdup_printf (_("line %u, column %u"), line, (guint) g_utf8_strlen (line_start, scan.p - line_start) + 1);
  if (scan.why != NULL && is_json != NULL)
    *is_json = TRUE;
  if (scan.why != NULL)
    /* Translators: 1: "line 2, column 9", 2: what is wrong there */
    return g_strdup_printf (_("%s: %s"), where, scan.why);

  return g_steal_pointer (&where);
}
