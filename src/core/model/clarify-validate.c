/* clarify-validate.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "clarify-error.h"
#include "clarify-normalize.h"
#include "clarify-validate.h"

/* Not in the header: nothing outside needs it, but the UI must not get
 * essays as subtitles. */
#define MAX_OPTION_DESCRIPTION_CHARS 500

#define ELLIPSIS "…"

gboolean
clarify_text_is_blank (const char *text)
{
  if (text == NULL)
    return TRUE;

  for (; *text != '\0'; text = g_utf8_next_char (text))
    {
      if (!g_unichar_isspace (g_utf8_get_char (text)))
        return FALSE;
    }

  return TRUE;
}

gboolean
clarify_truncate_text (char  *text,
                       guint  max_chars)
{
  char *cut;

  g_return_val_if_fail (text != NULL, FALSE);

  if (g_utf8_strlen (text, -1) <= max_chars)
    return FALSE;

  if (max_chars == 0)
    {
      text[0] = '\0';
      return TRUE;
    }

  cut = g_utf8_offset_to_pointer (text, max_chars - 1);

  /* "word …" reads worse than "word…". */
  while (cut > text && g_unichar_isspace (g_utf8_get_char (g_utf8_prev_char (cut))))
    cut = g_utf8_prev_char (cut);

  /* The ellipsis is 3 bytes; with short ASCII tails it may not fit where the
   * cut removed only two bytes, so give up another character. */
  while (cut > text && strlen (cut) + 1 < sizeof ELLIPSIS)
    cut = g_utf8_prev_char (cut);

  if (strlen (cut) + 1 >= sizeof ELLIPSIS)
    memcpy (cut, ELLIPSIS, sizeof ELLIPSIS);
  else
    *cut = '\0';

  return TRUE;
}

/* Truncates an owned string and logs what was cut, so that an agent author
 * can find out why their text looks short. */
static char *
cap_text (const char *text,
          guint       max_chars,
          const char *what,
          const char *request_id)
{
  char *copy;

  if (text == NULL)
    return NULL;

  /* Bidi controls and zero-width characters are shown, never obeyed. */
  copy = clarify_text_show_invisible (text);
  if (copy == NULL)
    copy = g_strdup (text);
  if (clarify_truncate_text (copy, max_chars))
    g_message ("Request %s: %s cut to %u characters (was %ld)",
               request_id, what, max_chars, g_utf8_strlen (text, -1));

  return copy;
}

/* Strict ISO 8601 calendar date, YYYY-MM-DD, that exists. */
static gboolean
parse_iso_date (const char *text,
                GDate      *date)
{
  guint year, month, day;

  if (text == NULL || strlen (text) != 10 || text[4] != '-' || text[7] != '-')
    return FALSE;

  for (guint i = 0; i < 10; i++)
    {
      if (i != 4 && i != 7 && !g_ascii_isdigit (text[i]))
        return FALSE;
    }

  year = (guint) g_ascii_strtoull (text, NULL, 10);
  month = (guint) g_ascii_strtoull (text + 5, NULL, 10);
  day = (guint) g_ascii_strtoull (text + 8, NULL, 10);

  if (!g_date_valid_dmy (day, month, year))
    return FALSE;

  g_date_clear (date, 1);
  g_date_set_dmy (date, day, month, year);

  return TRUE;
}

static void
cap_option_texts (ClarifyQuestion *question,
                  const char      *request_id)
{
  GListModel *model = clarify_question_get_options (question);
  GListStore *store = G_LIST_STORE (model);
  guint n = g_list_model_get_n_items (model);
  g_autoptr(GHashTable) shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (n > CLARIFY_MAX_OPTIONS)
    {
      g_message ("Request %s: question %s has %u options; showing the first %d",
                 request_id, clarify_question_get_id (question), n, CLARIFY_MAX_OPTIONS);
      g_list_store_splice (store, CLARIFY_MAX_OPTIONS, n - CLARIFY_MAX_OPTIONS, NULL, 0);
      clarify_question_set_n_options_left_out (question, clarify_question_get_n_options_left_out (question) +
                                                         n - CLARIFY_MAX_OPTIONS);
      n = CLARIFY_MAX_OPTIONS;
    }

  for (guint i = 0; i < n; i++)
    {
      ClarifyOption *option = clarify_question_get_option (question, i);
      const char *label = clarify_option_get_label (option);
      const char *description = clarify_option_get_description (option);
      const char *preview = clarify_option_get_preview (option);
      g_autofree char *capped_label = NULL;
      g_autofree char *capped_description = NULL;
      g_autofree char *capped_preview = NULL;
      g_autoptr(ClarifyOption) replacement = NULL;

      if (preview != NULL && g_utf8_strlen (preview, -1) > CLARIFY_MAX_PREVIEW_CHARS)
        {
          capped_preview = cap_text (preview, CLARIFY_MAX_PREVIEW_CHARS, "an option preview", request_id);
          clarify_option_set_preview (option, capped_preview);
        }

      capped_label = cap_text (label, CLARIFY_MAX_OPTION_LABEL_CHARS, "an option label", request_id);
      capped_description = cap_text (description, MAX_OPTION_DESCRIPTION_CHARS, "an option description", request_id);

      /* Two options that read the same get a number, so that the user can
       * tell which one is picked. */
      if (g_hash_table_contains (shown, capped_label))
        {
          g_autofree char *same = g_steal_pointer (&capped_label);

          for (guint k = 2; capped_label == NULL || g_hash_table_contains (shown, capped_label); k++)
            {
              g_free (capped_label);
              capped_label = g_strdup_printf ("%s (%u)", same, k);
            }
          g_message ("Request %s: two options read “%s”; one is shown as “%s”", request_id, same, capped_label);
        }
      g_hash_table_add (shown, g_strdup (capped_label));

      if (g_str_equal (capped_label, label) && g_strcmp0 (capped_description, description) == 0)
        continue;

      /* Options are immutable; the value stays whole so the agent gets back
       * exactly what it offered. */
      replacement = clarify_option_new (capped_label, clarify_option_get_value (option), capped_description);
      clarify_option_set_preview (replacement, clarify_option_get_preview (option));
      g_list_store_splice (store, i, 1, (gpointer *) &replacement, 1);
    }
}

/* A permission offers "once" and "reject" at least, and nothing but the
 * three known values, each once. */
static gboolean
link_is_web (const char *address)
{
  g_autoptr(GUri) uri = address != NULL ? g_uri_parse (address, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  return (g_strcmp0 (scheme, "https") == 0 || g_strcmp0 (scheme, "http") == 0) &&
         host != NULL && host[0] != '\0';
}

static gboolean
permission_options_valid (ClarifyQuestion *question)
{
  static const char * const known[] = { CLARIFY_PERMISSION_ONCE, CLARIFY_PERMISSION_ALWAYS, CLARIFY_PERMISSION_REJECT };
  guint seen[G_N_ELEMENTS (known)] = { 0 };
  guint n_options = clarify_question_get_n_options (question);

  for (guint i = 0; i < n_options; i++)
    {
      ClarifyOption *option = clarify_question_get_option (question, i);
      const char *value = clarify_option_get_value (option);
      gboolean found = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (known); k++)
        if (g_str_equal (value, known[k]))
          {
            seen[k]++;
            found = TRUE;
          }
      if (!found)
        return FALSE;
    }

  return seen[0] == 1 && seen[1] <= 1 && seen[2] == 1;
}

/* Bounds past ±10^15 cannot be typed exactly, and json-glib would write
 * 1e+40 as "1e+40.0", which no parser reads back (the outbox keeps the
 * request in that form): they become ±10^15, and the log says so. */
static void
cap_numbers (ClarifyQuestion *question,
             const char      *request_id)
{
  ClarifyValidation capped = *clarify_question_get_validation (question);
  double *numbers[] = { &capped.min, &capped.max, &capped.step };
  static const char *names[] = { "minimum", "maximum", "step" };
  gboolean changed = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      if (!isfinite (*numbers[i]) || fabs (*numbers[i]) <= CLARIFY_MAX_NUMBER)
        continue;
      g_message ("Request %s: question %s's %s %g taken as %g", request_id,
                 clarify_question_get_id (question), names[i], *numbers[i],
                 copysign (CLARIFY_MAX_NUMBER, *numbers[i]));
      *numbers[i] = copysign (CLARIFY_MAX_NUMBER, *numbers[i]);
      changed = TRUE;
    }

  if (changed)
    clarify_question_set_validation (question, &capped);
}

static char *check_number (ClarifyQuestion *question,
                           const char      *text);

static gboolean
validate_question (ClarifyQuestion  *question,
                   const char       *request_id,
                   GError          **error)
{
  const ClarifyValidation *validation;
  ClarifyQuestionKind kind = clarify_question_get_kind (question);
  const char * const *defaults = clarify_question_get_default_values (question);
  const char *id = clarify_question_get_id (question);
  g_autofree char *text = NULL;
  g_autofree char *header = NULL;
  g_autofree char *placeholder = NULL;
  g_autofree char *subject = NULL;

  cap_numbers (question, request_id);
  validation = clarify_question_get_validation (question);

  text = cap_text (clarify_question_get_text (question), CLARIFY_MAX_QUESTION_CHARS, "a question", request_id);
  if (g_strstrip (text)[0] == '\0')
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s has no text", id);
      return FALSE;
    }
  clarify_question_set_text (question, text);

  header = cap_text (clarify_question_get_header (question), CLARIFY_MAX_HEADER_CHARS, "a header", request_id);
  clarify_question_set_header (question, header);
  placeholder = cap_text (clarify_question_get_placeholder (question), CLARIFY_MAX_PLACEHOLDER_CHARS, "a placeholder", request_id);
  clarify_question_set_placeholder (question, placeholder);

  cap_option_texts (question, request_id);

  /* The JSON form refuses it too: a decoder's request must read back from
   * the outbox's copy (a button without a label cannot be shown honestly). */
  for (guint i = 0; i < clarify_question_get_n_options (question); i++)
    {
      const char *label = clarify_option_get_label (clarify_question_get_option (question, i));

      if (label == NULL || label[0] == '\0')
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "question %s: option %u has no label", id, i + 1);
          return FALSE;
        }
    }

  /* Shown as written: a right-to-left override must not turn the command a
   * person allows into another one on screen. */
  subject = clarify_text_show_invisible (clarify_question_get_subject (question));
  if (subject != NULL)
    clarify_question_set_subject (question, subject);

  /* Never cut: a person must see all of what they allow. */
  if (clarify_question_get_subject (question) != NULL &&
      g_utf8_strlen (clarify_question_get_subject (question), -1) > CLARIFY_MAX_SUBJECT_CHARS)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s: its subject is longer than %d characters", id, CLARIFY_MAX_SUBJECT_CHARS);
      return FALSE;
    }

  /* Only web pages: a link never runs a program or opens a local file. */
  if (kind == CLARIFY_QUESTION_KIND_LINK && !link_is_web (clarify_question_get_subject (question)))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s is a link without an http or https address", id);
      return FALSE;
    }

  if (kind == CLARIFY_QUESTION_KIND_PERMISSION && !permission_options_valid (question))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s is a permission without “once” and “reject” options", id);
      return FALSE;
    }

  if ((kind == CLARIFY_QUESTION_KIND_SINGLE || kind == CLARIFY_QUESTION_KIND_MULTI) &&
      clarify_question_get_n_options (question) == 0 &&
      !clarify_question_get_allow_other (question))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s is a choice without options", id);
      return FALSE;
    }

  if (validation->has_min && validation->has_max && validation->min > validation->max)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s has a minimum above its maximum", id);
      return FALSE;
    }

  if (validation->min_length >= 0 && validation->max_length >= 0 &&
      validation->min_length > validation->max_length)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s has a minimum length above its maximum length", id);
      return FALSE;
    }

  if (validation->step < 0 || !isfinite (validation->step))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s has a negative step", id);
      return FALSE;
    }

  if (validation->pattern != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      if (!clarify_validate_pattern (validation->pattern, &local_error))
        {
          g_set_error (error, CLARIFY_ERROR, local_error->code,
                       "question %s: %s", id, local_error->message);
          return FALSE;
        }
    }

  /* Shown as it is, or the field would turn it into a number nobody chose. */
  if (kind == CLARIFY_QUESTION_KIND_NUMBER && defaults[0] != NULL)
    {
      g_autofree char *problem = check_number (question, defaults[0]);

      if (problem != NULL)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "question %s: the default “%s” is not a number its limits and step allow",
                       id, defaults[0]);
          return FALSE;
        }
    }

  if (kind == CLARIFY_QUESTION_KIND_DATE && defaults[0] != NULL)
    {
      GDate date;

      if (!parse_iso_date (defaults[0], &date))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "question %s: the default “%s” is not a YYYY-MM-DD date", id, defaults[0]);
          return FALSE;
        }
    }

  if (kind == CLARIFY_QUESTION_KIND_DATE_RANGE && defaults[0] != NULL)
    {
      GDate start, end;

      if (g_strv_length ((char **) defaults) != 2 ||
          !parse_iso_date (defaults[0], &start) ||
          !parse_iso_date (defaults[1], &end))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "question %s: the default must be two YYYY-MM-DD dates", id);
          return FALSE;
        }

      if (g_date_compare (&start, &end) > 0)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "question %s: the default range starts after it ends", id);
          return FALSE;
        }
    }

  return TRUE;
}

gboolean
clarify_request_validate (ClarifyRequest  *request,
                          GError         **error)
{
  g_autoptr(GHashTable) ids = NULL;
  g_autofree char *title = NULL;
  g_autofree char *context = NULL;
  const char *request_id;
  guint n;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), FALSE);

  request_id = clarify_request_get_id (request);
  n = clarify_request_get_n_questions (request);

  /* Agent-facing: these errors go back to the agent, in English. */
  /* An empty id names nothing to answer, and the JSON form (the outbox's
   * copy) refuses it (found by fuzz-ihub: an empty questionId). */
  if (request_id == NULL || request_id[0] == '\0')
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "the request has no id");
      return FALSE;
    }

  if (n == 0)
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "the request has no questions");
      return FALSE;
    }

  if (n > CLARIFY_MAX_QUESTIONS)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "the request has %u questions; at most %d are allowed", n, CLARIFY_MAX_QUESTIONS);
      return FALSE;
    }

  title = cap_text (clarify_request_get_title (request), CLARIFY_MAX_TITLE_CHARS, "the title", request_id);
  clarify_request_set_title (request, title);
  context = cap_text (clarify_request_get_context (request), CLARIFY_MAX_CONTEXT_CHARS, "the context", request_id);
  clarify_request_set_context (request, context);

  ids = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);

      /* Answers are matched to questions by id. */
      if (!g_hash_table_add (ids, (gpointer) clarify_question_get_id (question)))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "two questions have the id %s", clarify_question_get_id (question));
          return FALSE;
        }

      if (!validate_question (question, request_id, error))
        return FALSE;
    }

  return TRUE;
}

/* Numbers in messages are for people: their locale's decimal separator. */
static char *
format_number_for_user (double value)
{
  /* 16 digits: 10^15, the widest limit, without an exponent. */
  return g_strdup_printf ("%.16g", value);
}

static gboolean
parse_number (const char *text,
              double     *value)
{
  g_autofree char *copy = NULL;
  char *end = NULL;

  if (text == NULL)
    return FALSE;

  copy = g_strstrip (g_strdup (text));
  if (copy[0] == '\0')
    return FALSE;

  *value = g_ascii_strtod (copy, &end);

  return *end == '\0' && isfinite (*value);
}

static gboolean
is_option_value (ClarifyQuestion *question,
                 const char      *value)
{
  guint n = clarify_question_get_n_options (question);

  for (guint i = 0; i < n; i++)
    {
      if (g_strcmp0 (clarify_option_get_value (clarify_question_get_option (question, i)), value) == 0)
        return TRUE;
    }

  return FALSE;
}

static char *
check_text (ClarifyQuestion *question,
            const char      *text)
{
  const ClarifyValidation *validation = clarify_question_get_validation (question);
  glong length = g_utf8_strlen (text, -1);

  if (validation->min_length >= 0 && length < validation->min_length)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Please enter at least %d character.",
                                         "Please enter at least %d characters.",
                                         validation->min_length),
                            validation->min_length);

  if (validation->max_length >= 0 && length > validation->max_length)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Please enter at most %d character.",
                                         "Please enter at most %d characters.",
                                         validation->max_length),
                            validation->max_length);

  if (validation->pattern != NULL)
    {
      g_autoptr(GError) error = NULL;

      /* Like JavaScript's RegExp.test(): a match anywhere counts, so agents
       * anchor with ^…$ when they mean the whole answer. */
      if (!clarify_pattern_matches (validation->pattern, text, &error))
        {
          /* A limit was hit: neither a pass nor a fail, and the person
           * must know why the answer is held back. */
          if (error != NULL)
            {
              g_message ("Pattern %s could not be checked: %s", validation->pattern, error->message);
              return g_strdup (_("This answer cannot be checked against the expected format in time. Please shorten it or choose another answer."));
            }

          if (validation->message != NULL && validation->message[0] != '\0')
            return g_strdup (validation->message);
          return g_strdup (_("The answer does not have the expected format."));
        }
    }

  return NULL;
}

static char *
check_number (ClarifyQuestion *question,
              const char      *text)
{
  const ClarifyValidation *validation = clarify_question_get_validation (question);
  double value, min, max;

  if (!parse_number (text, &value))
    return g_strdup (_("Please enter a number."));

  /* Without bounds from the agent, the ones every number Clarify keeps has. */
  min = validation->has_min ? validation->min : -CLARIFY_MAX_NUMBER;
  max = validation->has_max ? validation->max : CLARIFY_MAX_NUMBER;

  if (value < min)
    {
      g_autofree char *min_text = format_number_for_user (min);

      /* Translators: %s is a number */
      return g_strdup_printf (_("The number must be at least %s."), min_text);
    }

  if (value > max)
    {
      g_autofree char *max_text = format_number_for_user (max);

      /* Translators: %s is a number */
      return g_strdup_printf (_("The number must be at most %s."), max_text);
    }

  if (validation->step > 0)
    {
      double base = validation->has_min ? validation->min : 0;
      double steps = (value - base) / validation->step;

      /* Decimal steps such as 0.1 are not exact in binary. */
      if (fabs (steps - round (steps)) > 1e-9 * MAX (1.0, fabs (steps)))
        {
          g_autofree char *step = format_number_for_user (validation->step);

          if (base == 0)
            /* Translators: %s is a number */
            return g_strdup_printf (_("The number must be a multiple of %s."), step);
          else
            {
              g_autofree char *start = format_number_for_user (base);

              /* Translators: both are numbers, e.g. "… in steps of 5 from 1." */
              return g_strdup_printf (_("The number must go in steps of %s from %s."), step, start);
            }
        }
    }

  return NULL;
}

static char *
check_choice (ClarifyQuestion    *question,
              const char * const *values,
              const char         *custom_text,
              guint               n_values)
{
  const ClarifyValidation *validation = clarify_question_get_validation (question);
  gboolean allow_other = clarify_question_get_allow_other (question);
  gboolean has_custom = !clarify_text_is_blank (custom_text);
  guint n_custom = has_custom ? 1 : 0;

  if (has_custom && !allow_other)
    return g_strdup (_("Please choose one of the options."));

  for (guint i = 0; i < n_values; i++)
    {
      if (is_option_value (question, values[i]))
        continue;
      /* A value that is no option is the user's own answer. */
      if (!allow_other || clarify_text_is_blank (values[i]))
        return g_strdup (_("Please choose one of the options."));
      n_custom++;
    }

  if (n_custom > 1)
    return g_strdup (_("Please enter only one answer of your own."));

  if (clarify_question_get_kind (question) == CLARIFY_QUESTION_KIND_SINGLE)
    {
      if (n_values + (has_custom ? 1 : 0) > 1)
        return g_strdup (_("Please choose only one option."));
      return NULL;
    }

  /* For multi, min/max count the choices (MCP's minItems/maxItems). */
  if (validation->has_min && n_values + (has_custom ? 1 : 0) < validation->min)
    {
      /* Clamped first: the agent's number may not fit an int. */
      int min = (int) MIN (ceil (validation->min), G_MAXINT);

      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Please choose at least %d option.",
                                           "Please choose at least %d options.",
                                           min),
                              min);
    }

  if (validation->has_max && n_values + (has_custom ? 1 : 0) > validation->max)
    {
      int max = (int) MAX (floor (validation->max), 0);

      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Please choose at most %d option.",
                                           "Please choose at most %d options.",
                                           max),
                              max);
    }

  return NULL;
}

static char *
check_answer (ClarifyQuestion    *question,
              const char * const *values,
              const char         *custom_text)
{
  static const char * const no_values[] = { NULL };
  ClarifyQuestionKind kind = clarify_question_get_kind (question);
  guint n_values;

  if (values == NULL)
    values = no_values;
  n_values = g_strv_length ((char **) values);

  switch (kind)
    {
    case CLARIFY_QUESTION_KIND_TEXT:
      {
        const char *text = n_values > 0 ? values[0] : custom_text;

        if (clarify_text_is_blank (text))
          return g_strdup (_("Please answer this question."));
        return check_text (question, text);
      }

    case CLARIFY_QUESTION_KIND_SINGLE:
    case CLARIFY_QUESTION_KIND_MULTI:
      if (n_values == 0 && clarify_text_is_blank (custom_text))
        return g_strdup (_("Please answer this question."));
      return check_choice (question, values, custom_text, n_values);

    case CLARIFY_QUESTION_KIND_PERMISSION:
      if (n_values != 1 || !is_option_value (question, values[0]))
        return g_strdup (_("Please choose one of the options."));
      /* Only a refusal carries a message. */
      if (!clarify_text_is_blank (custom_text) &&
          (!clarify_question_get_allow_other (question) || !g_str_equal (values[0], CLARIFY_PERMISSION_REJECT)))
        return g_strdup (_("Only a refusal can carry a message."));
      return NULL;

    case CLARIFY_QUESTION_KIND_LINK:
      if (n_values != 1 || (!g_str_equal (values[0], CLARIFY_LINK_OPEN) &&
                            !g_str_equal (values[0], CLARIFY_LINK_DECLINE)))
        return g_strdup (_("Please choose one of the options."));
      return NULL;

    case CLARIFY_QUESTION_KIND_CONFIRM:
      if (n_values == 0)
        return g_strdup (_("Please answer this question."));
      if (n_values > 1 || (!g_str_equal (values[0], "yes") && !g_str_equal (values[0], "no")))
        return g_strdup (_("Please answer yes or no."));
      return NULL;

    case CLARIFY_QUESTION_KIND_NUMBER:
      if (n_values == 0 || clarify_text_is_blank (values[0]))
        return g_strdup (_("Please answer this question."));
      return check_number (question, values[0]);

    case CLARIFY_QUESTION_KIND_DATE:
      {
        GDate date;

        if (n_values == 0 || clarify_text_is_blank (values[0]))
          return g_strdup (_("Please answer this question."));
        if (n_values > 1 || !parse_iso_date (values[0], &date))
          return g_strdup (_("Please enter a valid date."));
        return NULL;
      }

    case CLARIFY_QUESTION_KIND_DATE_RANGE:
      {
        GDate start, end;

        if (n_values == 0)
          return g_strdup (_("Please answer this question."));
        if (n_values != 2 || clarify_text_is_blank (values[0]) || clarify_text_is_blank (values[1]))
          return g_strdup (_("Please enter a start and an end date."));
        if (!parse_iso_date (values[0], &start) || !parse_iso_date (values[1], &end))
          return g_strdup (_("Please enter a valid date."));
        if (g_date_compare (&start, &end) > 0)
          return g_strdup (_("The start date must not be after the end date."));
        return NULL;
      }

    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
clarify_question_check_answer (ClarifyQuestion    *question,
                               const char * const *values,
                               const char         *custom_text,
                               char              **message)
{
  g_autofree char *problem = NULL;
  gboolean valid;

  g_return_val_if_fail (CLARIFY_IS_QUESTION (question), FALSE);

  problem = check_answer (question, values, custom_text);
  valid = problem == NULL;

  if (message != NULL)
    *message = g_steal_pointer (&problem);

  return valid;
}
