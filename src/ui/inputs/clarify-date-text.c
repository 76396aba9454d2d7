/* clarify-date-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <langinfo.h>
#include <locale.h>
#include <string.h>

#include "clarify-date-text.h"

typedef enum
{
  ORDER_DMY,
  ORDER_MDY,
  ORDER_YMD,
} DateOrder;

/* The order of day, month and year in the locale's numeric dates, read from
 * its date format: "%d.%m.%Y" (de_DE), "%m/%d/%y" (C, en_US), "%d/%m/%y"
 * (en_GB), "%Y-%m-%d" (sv_SE). */
static DateOrder
locale_order (void)
{
  const char *format = nl_langinfo (D_FMT);
  const char *day = NULL;
  const char *month = NULL;
  const char *year = NULL;

  for (const char *p = format; p != NULL && *p != '\0'; p++)
    {
      if (*p != '%')
        continue;

      /* Flags and modifiers: %-d, %Ey, %Om … */
      while (p[1] != '\0' && strchr ("-_0^#EO", p[1]) != NULL)
        p++;
      if (p[1] == '\0')
        break;
      p++;

      switch (*p)
        {
        case 'd': case 'e':
          day = day != NULL ? day : p;
          break;
        case 'm': case 'b': case 'B': case 'h':
          month = month != NULL ? month : p;
          break;
        case 'y': case 'Y': case 'C':
          year = year != NULL ? year : p;
          break;
        case 'D':
          return ORDER_MDY;
        case 'F':
          return ORDER_YMD;
        default:
          break;
        }
    }

  /* A locale that names no order: ISO's. */
  if (day == NULL || month == NULL || year == NULL)
    return ORDER_YMD;
  if (year < month && year < day)
    return ORDER_YMD;

  return month < day ? ORDER_MDY : ORDER_DMY;
}

/* Three groups of digits, each pair apart by one '.', '/' or '-', or by
 * spaces alone, spaces around the mark allowed: "1.12.2026", "1. 12. 2026",
 * "12/1/26", "2026-12-01", "1 12 2026". */
static gboolean
split_numeric (const char *text,
               guint       values[3],
               guint       digits[3])
{
  const char *p = text;
  guint n = 0;

  while (*p != '\0')
    {
      const char *separator;
      guint marks = 0;

      if (!g_ascii_isdigit (*p) || n == 3)
        return FALSE;

      for (; g_ascii_isdigit (*p); p++)
        {
          if (++digits[n] > 4)
            return FALSE;
          values[n] = values[n] * 10 + (guint) (*p - '0');
        }
      n++;

      separator = p;
      for (; *p == ' ' || *p == '.' || *p == '/' || *p == '-'; p++)
        if (*p != ' ')
          marks++;

      /* No mark after the year, and never two between groups. */
      if (marks > 1 || (*p == '\0' && p != separator))
        return FALSE;
    }

  return n == 3;
}

/* Two digits of a year ("26", "90") mean the year that ends so, within
 * the 80 years before this one and the 20 after. */
static guint
whole_year (guint year)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  int this_year = g_date_time_get_year (now);
  int whole = this_year / 100 * 100 + (int) year;

  if (whole > this_year + 20)
    whole -= 100;
  else if (whole <= this_year - 80)
    whole += 100;

  return (guint) whole;
}

static gboolean
parse_numeric (const char *text,
               GDate      *date)
{
  guint values[3] = { 0, 0, 0 };
  guint digits[3] = { 0, 0, 0 };
  guint d, m, y, year;
  DateOrder order;

  if (!split_numeric (text, values, digits))
    return FALSE;

  /* A whole year first is ISO order, in every locale. */
  order = digits[0] == 4 ? ORDER_YMD : locale_order ();
  switch (order)
    {
    case ORDER_DMY:
      d = 0, m = 1, y = 2;
      break;
    case ORDER_MDY:
      m = 0, d = 1, y = 2;
      break;
    case ORDER_YMD:
    default:
      y = 0, m = 1, d = 2;
      break;
    }

  if (digits[d] > 2 || digits[m] > 2 || digits[y] == 3)
    return FALSE;

  year = digits[y] == 4 ? values[y] : whole_year (values[y]);
  if (!g_date_valid_dmy ((GDateDay) values[d], (GDateMonth) values[m], (GDateYear) year))
    return FALSE;

  g_date_set_dmy (date, (GDateDay) values[d], (GDateMonth) values[m], (GDateYear) year);
  return TRUE;
}

/* A month name and at least a day and a year ("1. Dezember 2026",
 * "Dec 1, 2026"): g_date_set_parse() alone would take "12 Dec" as a date
 * of this year while it is being typed. */
static gboolean
looks_like_words_date (const char *text)
{
  guint groups = 0;
  gboolean in_digits = FALSE;
  gboolean letters = FALSE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isdigit (c))
        {
          if (!in_digits)
            groups++;
          in_digits = TRUE;
        }
      else
        {
          in_digits = FALSE;
          letters |= g_unichar_isalpha (c);
        }
    }

  return letters && groups >= 2;
}

gboolean
clarify_date_text_parse (const char *text,
                         GDate      *date)
{
  g_autofree char *copy = g_strstrip (g_strdup (text != NULL ? text : ""));

  g_return_val_if_fail (date != NULL, FALSE);

  g_date_clear (date, 1);

  if (copy[0] == '\0')
    return FALSE;

  /* Digits only: ours, so that the locale's order holds and a date that
   * does not exist (31.02.) is an error, not another date. */
  if (strspn (copy, "0123456789 ./-") == strlen (copy))
    return parse_numeric (copy, date);

  if (!looks_like_words_date (copy))
    return FALSE;

  g_date_set_parse (date, copy);
  return g_date_valid (date);
}

char *
clarify_date_text_format_iso (const GDate *date)
{
  g_return_val_if_fail (date != NULL && g_date_valid (date), NULL);

  return g_strdup_printf ("%04u-%02u-%02u",
                          (guint) g_date_get_year (date),
                          (guint) g_date_get_month (date),
                          (guint) g_date_get_day (date));
}

char *
clarify_date_text_format (const GDate *date)
{
  const char *locale = setlocale (LC_TIME, NULL);
  g_autoptr(GString) format = NULL;
  char buf[128];

  g_return_val_if_fail (date != NULL && g_date_valid (date), NULL);

  if (locale == NULL || g_str_equal (locale, "C") || g_str_has_prefix (locale, "C.") ||
      g_str_equal (locale, "POSIX"))
    return clarify_date_text_format_iso (date);

  /* The whole year, four digits: "01/12/26" could be read as another
   * century, and "01/01/1" (year 1) as 2001 when read back. */
  format = g_string_new (nl_langinfo (D_FMT));
  g_string_replace (format, "%y", "%Y", 0);
  g_string_replace (format, "%Y", "%4Y", 0);
  if (g_date_strftime (buf, sizeof buf, format->str, date) == 0)
    return clarify_date_text_format_iso (date);

  return g_strdup (buf);
}

char *
clarify_date_text_format_words (const GDate *date)
{
  g_autoptr(GDateTime) time = NULL;
  char *words;

  g_return_val_if_fail (date != NULL && g_date_valid (date), NULL);

  time = g_date_time_new_utc (g_date_get_year (date), g_date_get_month (date), g_date_get_day (date),
                              0, 0, 0);
  /* Translators: a date in words, shown below a date field to confirm the
   * date typed, e.g. "Tue, 1 December 2026". A g_date_time_format() format:
   * %a weekday (short), %-d day, %B month, %Y year. */
  words = time != NULL ? g_date_time_format (time, _("%a, %-d %B %Y")) : NULL;

  return words != NULL ? words : clarify_date_text_format_iso (date);
}
