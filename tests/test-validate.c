/* test-validate.c: caps, ReDoS patterns, request checks and answer checks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-validate.h"

#include "clarify-test-log.h"

static void
test_pattern_redos (void)
{
  /* Seed 000's list, in its own spelling, plus close relatives. */
  static const char * const unsafe[] = {
    "(.*)+", "(.+)+", "(a+)+", "(a*)+", "(a+)*", "(a*)*",
    "([a-z]+)+", "([a-z]*)+", "(?:a+b)+", "(?:a*b)+",
    "^(\\w+\\s?)*$", "(x+x+)+y", "((a+))+", "((ab)+)+", "(a+){2,}",
    "^([a-zA-Z0-9]+)*@", "(?:.*,)*end", "(\\d+)+$",
    /* Overlapping alternatives under a quantifier (issue 14). */
    "(a|aa)+$", "(a|a?)+", "(?:a|ab)*", "(|a)+", "(.|x)+", "(x|\\d|x)+",
    "([a-z]|[a-z]b)+",
  };
  static const char * const safe[] = {
    "^[a-z]+$", "(ab)+", "\\d{3}-\\d{4}", "(a|b)+", "^[A-Za-z ,.-]+$",
    "[(+)]+", "\\(a+\\)+", "(a+)", "(a+){2}", "(a+){1,3}", "(a+)?", "[]+]+",
    "^(?:[0-9]{4})-(?:[0-9]{2})$", "\\Q(a+)+\\E", "",
    "(foo|bar)+", "(?:x|y)*", "(a|(b|c))+", "(a?b)+", "([|]|x)+",
  };

  for (guint i = 0; i < G_N_ELEMENTS (unsafe); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("unsafe: %s", unsafe[i]);
      g_assert_false (clarify_validate_pattern (unsafe[i], &error));
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_UNSAFE_PATTERN);
    }

  for (guint i = 0; i < G_N_ELEMENTS (safe); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("safe: %s", safe[i]);
      g_assert_true (clarify_validate_pattern (safe[i], &error));
      g_assert_no_error (error);
    }
}

static void
test_pattern_length_and_syntax (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *exactly = g_strnfill (CLARIFY_MAX_PATTERN_CHARS, 'a');
  g_autofree char *too_long = g_strnfill (CLARIFY_MAX_PATTERN_CHARS + 1, 'a');
  g_autoptr(GString) umlauts = g_string_new (NULL);

  g_assert_true (clarify_validate_pattern (exactly, &error));
  g_assert_no_error (error);

  g_assert_false (clarify_validate_pattern (too_long, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_UNSAFE_PATTERN);
  g_clear_error (&error);

  /* Characters, not bytes: 200 "ä" are 400 bytes and still fine. */
  for (guint i = 0; i < CLARIFY_MAX_PATTERN_CHARS; i++)
    g_string_append (umlauts, "ä");
  g_assert_true (clarify_validate_pattern (umlauts->str, &error));
  g_assert_no_error (error);

  g_assert_false (clarify_validate_pattern ("([a-z", &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  /* The agent reads of its own pattern, not of the limits put before it. */
  g_assert_nonnull (strstr (error->message, "([a-z"));
  g_assert_null (strstr (error->message, "LIMIT"));
  g_clear_error (&error);

  g_assert_false (clarify_validate_pattern ("a{2,1}", &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
}

static void
test_truncate (void)
{
  char ascii[] = "abcdefghij";
  char short_ascii[] = "abc";
  char umlauts[] = "äöüäöüäöüä";
  char space[] = "Hello world again";
  char exact[] = "äöü";

  g_assert_false (clarify_truncate_text (exact, 3));
  g_assert_cmpstr (exact, ==, "äöü");

  g_assert_true (clarify_truncate_text (ascii, 5));
  g_assert_cmpstr (ascii, ==, "abcd…");
  g_assert_cmpint (g_utf8_strlen (ascii, -1), ==, 5);

  /* Cutting "abc" to two characters frees only two bytes; the ellipsis
   * needs three, so one more character goes. */
  g_assert_true (clarify_truncate_text (short_ascii, 2));
  g_assert_cmpstr (short_ascii, ==, "…");

  g_assert_true (clarify_truncate_text (umlauts, 4));
  g_assert_cmpstr (umlauts, ==, "äöü…");
  g_assert_true (g_utf8_validate (umlauts, -1, NULL));

  g_assert_true (clarify_truncate_text (space, 7));
  g_assert_cmpstr (space, ==, "Hello…");
}

static ClarifyQuestion *
add_question (ClarifyRequest      *request,
              const char          *id,
              ClarifyQuestionKind  kind,
              const char          *text)
{
  g_autoptr(ClarifyQuestion) question = clarify_question_new (id, kind, text);

  clarify_request_add_question (request, question);

  return question;
}

static void
add_options (ClarifyQuestion *question,
             guint            n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = g_strdup_printf ("Option %u", i + 1);
      g_autofree char *value = g_strdup_printf ("o%u", i + 1);
      g_autoptr(ClarifyOption) option = clarify_option_new (label, value, NULL);

      clarify_question_add_option (question, option);
    }
}

static void
test_request_caps (void)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new ("caps");
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) long_label = g_string_new (NULL);
  g_autoptr(GString) long_title = g_string_new (NULL);
  g_autofree char *long_header = g_strnfill (CLARIFY_MAX_HEADER_CHARS + 10, 'h');
  g_autoptr(ClarifyOption) long_option = NULL;
  g_auto(GStrv) log = NULL;
  const char *expected_log[] = {
    "MESSAGE: Request caps: the title cut to 200 characters (was 400)",
    "MESSAGE: Request caps: a header cut to 40 characters (was 50)",
    "MESSAGE: Request caps: question q1 has 211 options; showing the first 200",
    "MESSAGE: Request caps: an option label cut to 200 characters (was 205)",
    NULL
  };
  ClarifyQuestion *question;
  ClarifyOption *option;

  for (guint i = 0; i < CLARIFY_MAX_OPTION_LABEL_CHARS + 5; i++)
    g_string_append (long_label, "ü");
  for (guint i = 0; i < CLARIFY_MAX_TITLE_CHARS; i++)
    g_string_append (long_title, "ß!");

  clarify_request_set_title (request, long_title->str);
  question = add_question (request, "q1", CLARIFY_QUESTION_KIND_SINGLE, "Pick one");
  clarify_question_set_header (question, long_header);
  long_option = clarify_option_new (long_label->str, "long", NULL);
  clarify_question_add_option (question, long_option);
  add_options (question, CLARIFY_MAX_OPTIONS + 10);

  clarify_test_log_start ();
  g_assert_true (clarify_request_validate (request, &error));
  log = clarify_test_log_stop ();
  g_assert_no_error (error);
  g_assert_cmpstrv (log, expected_log);

  g_assert_cmpint (g_utf8_strlen (clarify_request_get_title (request), -1), ==, CLARIFY_MAX_TITLE_CHARS);
  g_assert_true (g_str_has_suffix (clarify_request_get_title (request), "ß!ß…"));
  g_assert_cmpint (g_utf8_strlen (clarify_question_get_header (question), -1), ==, CLARIFY_MAX_HEADER_CHARS);
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, CLARIFY_MAX_OPTIONS);

  option = clarify_question_get_option (question, 0);
  g_assert_cmpint (g_utf8_strlen (clarify_option_get_label (option), -1), ==, CLARIFY_MAX_OPTION_LABEL_CHARS);
  g_assert_true (g_str_has_suffix (clarify_option_get_label (option), "üü…"));
  g_assert_cmpstr (clarify_option_get_value (option), ==, "long");
  g_assert_cmpstr (clarify_option_get_value (clarify_question_get_option (question, 199)), ==, "o199");
  /* The dialog says the list is not all of it, also from a copy made
   * through the JSON form (as `clarify ask` hands a request on). */
  g_assert_cmpuint (clarify_question_get_n_options_left_out (question), ==, 11);
  {
    g_autoptr(JsonNode) node = clarify_request_to_json (request);
    g_autoptr(ClarifyRequest) copy = clarify_request_new_from_json (node, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (clarify_question_get_n_options_left_out (clarify_request_get_question (copy, 0)), ==, 11);
  }
}

typedef void (*BreakFunc) (ClarifyRequest *request);

static void
break_nothing (ClarifyRequest *request)
{
  add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
}

static void
break_no_questions (ClarifyRequest *request)
{
}

static void
break_too_many_questions (ClarifyRequest *request)
{
  for (guint i = 0; i <= CLARIFY_MAX_QUESTIONS; i++)
    {
      g_autofree char *id = g_strdup_printf ("q%u", i);

      add_question (request, id, CLARIFY_QUESTION_KIND_TEXT, "Name?");
    }
}

static void
break_empty_text (ClarifyRequest *request)
{
  add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "  ");
}

static void
break_duplicate_ids (ClarifyRequest *request)
{
  add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "Age?");
}

static void
break_choice_without_options (ClarifyRequest *request)
{
  add_question (request, "q1", CLARIFY_QUESTION_KIND_MULTI, "Which?");
}

/* Found by fuzz-ag3ntum: decoders made such options, and the outbox's copy
 * of the request (its JSON form) could not be read back. */
static void
break_empty_label (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_SINGLE, "Which?");
  g_autoptr(ClarifyOption) named = clarify_option_new ("Named", "named", NULL);
  g_autoptr(ClarifyOption) blank = clarify_option_new ("", "blank", NULL);

  clarify_question_add_option (question, named);
  clarify_question_add_option (question, blank);
}

static void
break_permission_options (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_PERMISSION, "Run it?");
  g_autoptr(ClarifyOption) once = clarify_option_new ("Allow once", CLARIFY_PERMISSION_ONCE, NULL);
  g_autoptr(ClarifyOption) maybe = clarify_option_new ("Maybe", "maybe", NULL);

  /* "reject" is missing and "maybe" is no permission answer. */
  clarify_question_add_option (question, once);
  clarify_question_add_option (question, maybe);
}

static void
break_long_subject (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "Run it?");
  g_autofree char *subject = g_strnfill (CLARIFY_MAX_SUBJECT_CHARS + 1, 'x');

  clarify_question_set_subject (question, subject);
}

static void
break_min_above_max (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_NUMBER, "How many?");
  ClarifyValidation v;

  clarify_validation_init (&v);
  v.has_min = v.has_max = TRUE;
  v.min = 10;
  v.max = 1;
  clarify_question_set_validation (question, &v);
}

static void
break_lengths (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  ClarifyValidation v;

  clarify_validation_init (&v);
  v.min_length = 5;
  v.max_length = 4;
  clarify_question_set_validation (question, &v);
}

static void
break_negative_step (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_NUMBER, "How many?");
  ClarifyValidation v;

  clarify_validation_init (&v);
  v.step = -1;
  clarify_question_set_validation (question, &v);
}

static void
break_unsafe_pattern (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  ClarifyValidation v;

  clarify_validation_init (&v);
  v.pattern = (char *) "(a+)+$";
  clarify_question_set_validation (question, &v);
}

static void
break_date_default (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_DATE, "When?");
  const char *defaults[] = { "2026-02-30", NULL };

  clarify_question_set_default_values (question, defaults);
}

static void
break_date_range_order (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_DATE_RANGE, "When?");
  const char *defaults[] = { "2026-03-02", "2026-03-01", NULL };

  clarify_question_set_default_values (question, defaults);
}

static void
break_date_range_one_date (ClarifyRequest *request)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_DATE_RANGE, "When?");
  const char *defaults[] = { "2026-03-02", NULL };

  clarify_question_set_default_values (question, defaults);
}

/* A number default the field would have turned into 0 ("2,5") or into
 * its limit (99 of at most 3), shown as answered. */
static void
break_number_default (ClarifyRequest *request,
                      const char     *value)
{
  ClarifyQuestion *question = add_question (request, "q1", CLARIFY_QUESTION_KIND_NUMBER, "How many?");
  const char *defaults[] = { value, NULL };
  ClarifyValidation validation;

  clarify_validation_init (&validation);
  validation.has_min = validation.has_max = TRUE;
  validation.min = 1;
  validation.max = 3;
  validation.step = 1;
  clarify_question_set_validation (question, &validation);
  clarify_question_set_default_values (question, defaults);
}

static void
break_number_default_text (ClarifyRequest *request)
{
  break_number_default (request, "2,5");
}

static void
break_number_default_range (ClarifyRequest *request)
{
  break_number_default (request, "99");
}

static void
break_number_default_step (ClarifyRequest *request)
{
  break_number_default (request, "2.5");
}

static void
number_default_fits (ClarifyRequest *request)
{
  break_number_default (request, "3");
}

static void
test_request_rejects (void)
{
  static const struct {
    BreakFunc   func;
    int         code;
    const char *message;
  } cases[] = {
    { break_nothing, -1, NULL },
    { break_no_questions, CLARIFY_ERROR_INVALID, "the request has no questions" },
    { break_too_many_questions, CLARIFY_ERROR_INVALID, "the request has 21 questions; at most 20 are allowed" },
    { break_empty_text, CLARIFY_ERROR_INVALID, "question q1 has no text" },
    { break_duplicate_ids, CLARIFY_ERROR_INVALID, "two questions have the id q1" },
    { break_choice_without_options, CLARIFY_ERROR_INVALID, "question q1 is a choice without options" },
    { break_empty_label, CLARIFY_ERROR_INVALID, "question q1: option 2 has no label" },
    { break_permission_options, CLARIFY_ERROR_INVALID, "question q1 is a permission without “once” and “reject” options" },
    { break_long_subject, CLARIFY_ERROR_INVALID, "question q1: its subject is longer than 16000 characters" },
    { break_min_above_max, CLARIFY_ERROR_INVALID, "question q1 has a minimum above its maximum" },
    { break_lengths, CLARIFY_ERROR_INVALID, "question q1 has a minimum length above its maximum length" },
    { break_negative_step, CLARIFY_ERROR_INVALID, "question q1 has a negative step" },
    { break_unsafe_pattern, CLARIFY_ERROR_UNSAFE_PATTERN, "question q1: the pattern contains nested quantifiers (ReDoS risk)" },
    { break_date_default, CLARIFY_ERROR_INVALID, "question q1: the default “2026-02-30” is not a YYYY-MM-DD date" },
    { break_date_range_order, CLARIFY_ERROR_INVALID, "question q1: the default range starts after it ends" },
    { break_date_range_one_date, CLARIFY_ERROR_INVALID, "question q1: the default must be two YYYY-MM-DD dates" },
    { break_number_default_text, CLARIFY_ERROR_INVALID, "question q1: the default “2,5” is not a number its limits and step allow" },
    { break_number_default_range, CLARIFY_ERROR_INVALID, "question q1: the default “99” is not a number its limits and step allow" },
    { break_number_default_step, CLARIFY_ERROR_INVALID, "question q1: the default “2.5” is not a number its limits and step allow" },
    { number_default_fits, -1, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ClarifyRequest) request = clarify_request_new ("r");
      g_autoptr(GError) error = NULL;
      gboolean ok;

      cases[i].func (request);
      ok = clarify_request_validate (request, &error);

      if (cases[i].code < 0)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
        }
      else
        {
          g_assert_false (ok);
          g_assert_error (error, CLARIFY_ERROR, cases[i].code);
          g_assert_cmpstr (error->message, ==, cases[i].message);
        }
    }
}

/* Found by fuzz-ihub: a clarification with an empty questionId became a
 * request the outbox's JSON copy could not hold. */
static void
test_request_empty_id (void)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new ("");
  g_autoptr(GError) error = NULL;

  add_question (request, "q1", CLARIFY_QUESTION_KIND_TEXT, "Why?");
  g_assert_false (clarify_request_validate (request, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "the request has no id");
}

static void
test_request_good_ranges (void)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new ("r");
  g_autoptr(GError) error = NULL;
  ClarifyQuestion *range = add_question (request, "q1", CLARIFY_QUESTION_KIND_DATE_RANGE, "When?");
  ClarifyQuestion *number = add_question (request, "q2", CLARIFY_QUESTION_KIND_NUMBER, "How many?");
  ClarifyQuestion *other = add_question (request, "q3", CLARIFY_QUESTION_KIND_SINGLE, "Which?");
  const char *same_day[] = { "2026-03-01", "2026-03-01", NULL };
  ClarifyValidation v;

  clarify_question_set_default_values (range, same_day);
  clarify_validation_init (&v);
  v.has_min = v.has_max = TRUE;
  v.min = v.max = 3;
  clarify_question_set_validation (number, &v);
  /* A choice with only "Other" is fine. */
  clarify_question_set_allow_other (other, TRUE);

  g_assert_true (clarify_request_validate (request, &error));
  g_assert_no_error (error);
}

static void
assert_answer (ClarifyQuestion    *question,
               const char * const *values,
               const char         *custom_text,
               const char         *expected)
{
  g_autofree char *message = NULL;
  gboolean valid;

  valid = clarify_question_check_answer (question, values, custom_text, &message);
  g_assert_cmpstr (message, ==, expected);
  g_assert_cmpint (valid, ==, expected == NULL);
}

#define V(...) ((const char * const[]) { __VA_ARGS__, NULL })
#define NONE ((const char * const[]) { NULL })

static void
test_answer_text (void)
{
  g_autoptr(ClarifyQuestion) q = clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, "DM?");
  ClarifyValidation v;

  assert_answer (q, NONE, NULL, "Please answer this question.");
  assert_answer (q, NULL, NULL, "Please answer this question.");
  assert_answer (q, V (" \n "), NULL, "Please answer this question.");
  assert_answer (q, V ("Direct Message"), NULL, NULL);
  assert_answer (q, NONE, "typed", NULL);

  clarify_validation_init (&v);
  v.min_length = 2;
  v.max_length = 5;
  v.pattern = (char *) "^[A-Za-zäöü ]+$";
  clarify_question_set_validation (q, &v);

  assert_answer (q, V ("a"), NULL, "Please enter at least 2 characters.");
  /* Five umlauts are five characters, not ten bytes. */
  assert_answer (q, V ("äöüäö"), NULL, NULL);
  assert_answer (q, V ("äöüäöü"), NULL, "Please enter at most 5 characters.");
  assert_answer (q, V ("ab1"), NULL, "The answer does not have the expected format.");

  v.message = (char *) "Letters only, 2-80 characters";
  v.min_length = 1;
  v.max_length = 1;
  clarify_question_set_validation (q, &v);
  assert_answer (q, V ("1"), NULL, "Letters only, 2-80 characters");
  assert_answer (q, V ("ab"), NULL, "Please enter at most 1 character.");
  v.max_length = -1;
  v.min_length = 3;
  clarify_question_set_validation (q, &v);
  assert_answer (q, V ("ab"), NULL, "Please enter at least 3 characters.");
}

/* A pattern the heuristics let through still cannot hold the dialog for
 * long: its check fails at the match limit, and the person is told the
 * answer cannot be checked instead of it passing unchecked. */
static void
test_answer_pattern_limit (void)
{
  g_autoptr(ClarifyQuestion) q = clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, "Code?");
  g_autoptr(GString) long_answer = g_string_new (NULL);
  ClarifyValidation v;

  for (guint i = 0; i < 10000; i++)
    g_string_append_c (long_answer, 'a');

  clarify_validation_init (&v);
  v.pattern = (char *) "^[a-z]+$";
  clarify_question_set_validation (q, &v);
  assert_answer (q, V (long_answer->str), NULL, NULL);

  /* A repeated group on a few thousand characters is past what the JIT's
   * stack holds; the interpreter still decides it. */
  v.pattern = (char *) "^(a|b)+$";
  clarify_question_set_validation (q, &v);
  g_string_truncate (long_answer, 3000);
  assert_answer (q, V (long_answer->str), NULL, NULL);
  g_string_append_c (long_answer, 'c');
  assert_answer (q, V (long_answer->str), NULL, "The answer does not have the expected format.");
  g_string_truncate (long_answer, 0);
  for (guint i = 0; i < 10000; i++)
    g_string_append_c (long_answer, 'a');

  /* \w and \d overlap, which the first-atom comparison cannot see. */
  v.pattern = (char *) "^(\\w|\\d)+$";
  g_assert_true (clarify_validate_pattern (v.pattern, NULL));
  clarify_question_set_validation (q, &v);
  assert_answer (q, V ("abc"), NULL, NULL);
  g_string_append_c (long_answer, '!');
  assert_answer (q, V (long_answer->str), NULL,
                 "This answer cannot be checked against the expected format in time. Please shorten it or choose another answer.");
}

static void
test_answer_number (void)
{
  g_autoptr(ClarifyQuestion) q = clarify_question_new ("q", CLARIFY_QUESTION_KIND_NUMBER, "How many?");
  ClarifyValidation v;

  assert_answer (q, NONE, NULL, "Please answer this question.");
  assert_answer (q, V ("abc"), NULL, "Please enter a number.");
  assert_answer (q, V ("4,5"), NULL, "Please enter a number.");
  assert_answer (q, V ("inf"), NULL, "Please enter a number.");
  assert_answer (q, V ("-4.5"), NULL, NULL);
  assert_answer (q, V (" 42 "), NULL, NULL);

  clarify_validation_init (&v);
  v.has_min = v.has_max = TRUE;
  v.min = 1;
  v.max = 500;
  clarify_question_set_validation (q, &v);
  assert_answer (q, V ("0"), NULL, "The number must be at least 1.");
  assert_answer (q, V ("500.5"), NULL, "The number must be at most 500.");
  assert_answer (q, V ("500"), NULL, NULL);

  v.step = 2;
  clarify_question_set_validation (q, &v);
  assert_answer (q, V ("3"), NULL, NULL);
  assert_answer (q, V ("4"), NULL, "The number must go in steps of 2 from 1.");

  v.has_min = FALSE;
  v.step = 0.1;
  clarify_question_set_validation (q, &v);
  /* 0.3 is not exactly 3 × 0.1 in binary; the tolerance accepts it. */
  assert_answer (q, V ("0.3"), NULL, NULL);
  assert_answer (q, V ("0.35"), NULL, "The number must be a multiple of 0.1.");
  v.min = -1.5;
  v.has_min = TRUE;
  v.step = 0.5;
  clarify_question_set_validation (q, &v);
  assert_answer (q, V ("-1"), NULL, NULL);
  assert_answer (q, V ("-1.25"), NULL, "The number must go in steps of 0.5 from -1.5.");
}

static void
test_answer_dates (void)
{
  g_autoptr(ClarifyQuestion) date = clarify_question_new ("d", CLARIFY_QUESTION_KIND_DATE, "When?");
  g_autoptr(ClarifyQuestion) range = clarify_question_new ("r", CLARIFY_QUESTION_KIND_DATE_RANGE, "From when to when?");

  assert_answer (date, NONE, NULL, "Please answer this question.");
  assert_answer (date, V ("2026-03-15"), NULL, NULL);
  assert_answer (date, V ("2024-02-29"), NULL, NULL);
  assert_answer (date, V ("2026-02-29"), NULL, "Please enter a valid date.");
  assert_answer (date, V ("15.03.2026"), NULL, "Please enter a valid date.");
  assert_answer (date, V ("2026-3-15"), NULL, "Please enter a valid date.");

  assert_answer (range, NONE, NULL, "Please answer this question.");
  assert_answer (range, V ("2026-03-15"), NULL, "Please enter a start and an end date.");
  assert_answer (range, V ("2026-03-15", ""), NULL, "Please enter a start and an end date.");
  assert_answer (range, V ("2026-03-15", "2026-13-01"), NULL, "Please enter a valid date.");
  assert_answer (range, V ("2026-03-16", "2026-03-15"), NULL, "The start date must not be after the end date.");
  assert_answer (range, V ("2026-03-15", "2026-03-15"), NULL, NULL);
  assert_answer (range, V ("2025-12-31", "2026-01-01"), NULL, NULL);
}

static void
test_answer_choices (void)
{
  g_autoptr(ClarifyQuestion) single = clarify_question_new ("s", CLARIFY_QUESTION_KIND_SINGLE, "Which?");
  g_autoptr(ClarifyQuestion) multi = clarify_question_new ("m", CLARIFY_QUESTION_KIND_MULTI, "Which ones?");
  ClarifyValidation v;

  add_options (single, 3);
  add_options (multi, 4);

  assert_answer (single, NONE, NULL, "Please answer this question.");
  assert_answer (single, NONE, " ", "Please answer this question.");
  assert_answer (single, V ("o2"), NULL, NULL);
  /* Values, not labels, go on the wire. */
  assert_answer (single, V ("Option 2"), NULL, "Please choose one of the options.");
  assert_answer (single, V ("o1", "o2"), NULL, "Please choose only one option.");
  assert_answer (single, NONE, "Klingonisch", "Please choose one of the options.");

  clarify_question_set_allow_other (single, TRUE);
  assert_answer (single, NONE, "Klingonisch", NULL);
  assert_answer (single, V ("Klingonisch"), NULL, NULL);
  assert_answer (single, V ("o1"), "Klingonisch", "Please choose only one option.");

  assert_answer (multi, NONE, NULL, "Please answer this question.");
  assert_answer (multi, V ("o1"), NULL, NULL);
  assert_answer (multi, V ("o1", "o3", "o4"), NULL, NULL);
  assert_answer (multi, V ("o1", "nope"), NULL, "Please choose one of the options.");
  assert_answer (multi, V ("o1"), "Externe Partner", "Please choose one of the options.");

  clarify_question_set_allow_other (multi, TRUE);
  assert_answer (multi, V ("o1"), "Externe Partner", NULL);
  assert_answer (multi, NONE, "Externe Partner", NULL);
  assert_answer (multi, V ("o1", "mine"), "Externe Partner", "Please enter only one answer of your own.");

  clarify_validation_init (&v);
  v.has_min = v.has_max = TRUE;
  v.min = 2;
  v.max = 3;
  clarify_question_set_validation (multi, &v);
  assert_answer (multi, V ("o1"), NULL, "Please choose at least 2 options.");
  assert_answer (multi, V ("o1", "o2", "o3", "o4"), NULL, "Please choose at most 3 options.");
  assert_answer (multi, V ("o1", "o2"), "Externe Partner", NULL);

  /* Counts no int holds (UBSan's float-cast-overflow before). */
  v.min = 1e10;
  v.max = 2e10;
  clarify_question_set_validation (multi, &v);
  assert_answer (multi, V ("o1"), NULL, "Please choose at least 2147483647 options.");
  v.has_min = FALSE;
  v.max = -1e10;
  clarify_question_set_validation (multi, &v);
  assert_answer (multi, V ("o1"), NULL, "Please choose at most 0 options.");
}

static void
test_answer_confirm (void)
{
  g_autoptr(ClarifyQuestion) q = clarify_question_new ("c", CLARIFY_QUESTION_KIND_CONFIRM, "Delete all 15 drafts?");

  assert_answer (q, NONE, NULL, "Please answer this question.");
  assert_answer (q, V ("yes"), NULL, NULL);
  assert_answer (q, V ("no"), NULL, NULL);
  assert_answer (q, V ("Yes"), NULL, "Please answer yes or no.");
  assert_answer (q, V ("yes", "no"), NULL, "Please answer yes or no.");
}

static void
test_answer_permission (void)
{
  g_autoptr(ClarifyQuestion) q = clarify_question_new ("p", CLARIFY_QUESTION_KIND_PERMISSION, "Run this command?");
  g_autoptr(ClarifyOption) once = clarify_option_new ("Allow once", CLARIFY_PERMISSION_ONCE, NULL);
  g_autoptr(ClarifyOption) reject = clarify_option_new ("Deny", CLARIFY_PERMISSION_REJECT, NULL);

  clarify_question_add_option (q, once);
  clarify_question_add_option (q, reject);

  assert_answer (q, NONE, NULL, "Please choose one of the options.");
  assert_answer (q, V ("once"), NULL, NULL);
  assert_answer (q, V ("always"), NULL, "Please choose one of the options.");
  assert_answer (q, V ("once", "reject"), NULL, "Please choose one of the options.");
  /* A message goes only with a refusal, and only where the agent takes one. */
  assert_answer (q, V ("reject"), "not now", "Only a refusal can carry a message.");
  clarify_question_set_allow_other (q, TRUE);
  assert_answer (q, V ("reject"), "not now", NULL);
  assert_answer (q, V ("once"), "not now", "Only a refusal can carry a message.");
}

int
main (int   argc,
      char *argv[])
{
  /* Exact English messages: never pick up a translation from the host. */
  g_setenv ("LANGUAGE", "en", TRUE);
  setlocale (LC_ALL, "");
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/validate/pattern/redos", test_pattern_redos);
  g_test_add_func ("/validate/pattern/length-and-syntax", test_pattern_length_and_syntax);
  g_test_add_func ("/validate/pattern/match-limit", test_answer_pattern_limit);
  g_test_add_func ("/validate/truncate", test_truncate);
  g_test_add_func ("/validate/request/caps", test_request_caps);
  g_test_add_func ("/validate/request/rejects", test_request_rejects);
  g_test_add_func ("/validate/request/empty-id", test_request_empty_id);
  g_test_add_func ("/validate/request/good-ranges", test_request_good_ranges);
  g_test_add_func ("/validate/answer/text", test_answer_text);
  g_test_add_func ("/validate/answer/number", test_answer_number);
  g_test_add_func ("/validate/answer/dates", test_answer_dates);
  g_test_add_func ("/validate/answer/choices", test_answer_choices);
  g_test_add_func ("/validate/answer/confirm", test_answer_confirm);
  g_test_add_func ("/validate/answer/permission", test_answer_permission);

  return g_test_run ();
}
