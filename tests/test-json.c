/* test-json.c: the JSON form of requests and responses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "clarify-error.h"
#include "clarify-json.h"

#include "clarify-test-log.h"

/* Every kind and every optional member, in canonical order. */
static const char full_request[] =
  "{\"id\":\"demo-1\",\"title\":\"Trip\",\"context\":\"Planning the trip\",\"project\":\"/home/me/trip\","
  "\"session\":\"s1\",\"timeout_ms\":60000,\"skippable\":true,\"cancellable\":false,\"questions\":["
  "{\"id\":\"name\",\"text\":\"Your name?\",\"header\":\"Name\",\"kind\":\"text\",\"multiline\":true,\"placeholder\":\"Ada\","
  "\"validation\":{\"pattern\":\"^[A-Za-z ]+$\",\"message\":\"Letters only\",\"min_length\":2,\"max_length\":40}},"
  "{\"id\":\"city\",\"text\":\"Which city?\",\"kind\":\"single\",\"options\":[{\"label\":\"Berlin\",\"value\":\"ber\","
  "\"description\":\"Capital\"},{\"label\":\"Köln\",\"preview\":\"Dom\\nRhein\"}],\"allow_other\":true,\"notes\":true,\"default\":\"ber\"},"
  "{\"id\":\"extras\",\"text\":\"Extras?\",\"kind\":\"multi\",\"options\":[{\"label\":\"Docker\"},{\"label\":\"CI\"}],"
  "\"skippable\":true,\"default\":[\"Docker\",\"CI\"]},"
  "{\"id\":\"ok\",\"text\":\"Proceed?\",\"kind\":\"confirm\",\"default\":\"yes\"},"
  "{\"id\":\"n\",\"text\":\"How many?\",\"kind\":\"number\",\"validation\":{\"min\":1,\"max\":10.5,\"step\":0.5},\"default\":\"2\"},"
  "{\"id\":\"d\",\"text\":\"When?\",\"kind\":\"date\",\"default\":\"2026-03-15\"},"
  "{\"id\":\"r\",\"text\":\"From when to when?\",\"kind\":\"date_range\",\"default\":[\"2026-03-15\",\"2026-03-20\"]},"
  "{\"id\":\"p\",\"text\":\"Run this command?\",\"kind\":\"permission\",\"options\":[{\"label\":\"Allow once\",\"value\":\"once\"},"
  "{\"label\":\"Always allow\",\"value\":\"always\",\"description\":\"Bash(make *)\"},{\"label\":\"Deny\",\"value\":\"reject\"}],"
  "\"allow_other\":true,\"subject\":\"make clean && make\"},"
  "{\"id\":\"l\",\"text\":\"Open this page?\",\"kind\":\"link\",\"subject\":\"https://pay.example.com/checkout\"}]}";

static char *
request_round_trip (const char *data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyRequest) request = clarify_request_new_from_data (data, -1, &error);
  g_autoptr(JsonNode) node = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (request);
  node = clarify_request_to_json (request);

  return clarify_json_to_string (node);
}

static void
test_request_round_trip (void)
{
  g_autofree char *text = request_round_trip (full_request);
  g_autofree char *again = request_round_trip (text);
  g_autoptr(ClarifyRequest) request = clarify_request_new_from_data (full_request, -1, NULL);
  ClarifyQuestion *number;
  const ClarifyValidation *validation;

  g_assert_cmpstr (text, ==, full_request);
  g_assert_cmpstr (again, ==, full_request);

  /* And the model really holds it, not just the text. */
  g_assert_cmpstr (clarify_request_get_id (request), ==, "demo-1");
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 60000);
  g_assert_true (clarify_request_get_skippable (request));
  g_assert_false (clarify_request_get_cancellable (request));
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 9);
  g_assert_true (clarify_question_get_takes_note (clarify_request_get_question (request, 1)));
  g_assert_false (clarify_question_get_takes_note (clarify_request_get_question (request, 2)));
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 8)), ==, CLARIFY_QUESTION_KIND_LINK);
  number = clarify_request_get_question (request, 4);
  g_assert_cmpint (clarify_question_get_kind (number), ==, CLARIFY_QUESTION_KIND_NUMBER);
  validation = clarify_question_get_validation (number);
  g_assert_true (validation->has_min && validation->has_max);
  g_assert_cmpfloat (validation->min, ==, 1);
  g_assert_cmpfloat (validation->max, ==, 10.5);
  g_assert_cmpfloat (validation->step, ==, 0.5);
  g_assert_cmpstr (clarify_question_get_default_values (number)[0], ==, "2");
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 6)), ==, CLARIFY_QUESTION_KIND_DATE_RANGE);
  g_assert_cmpstr (clarify_option_get_preview (clarify_question_get_option (clarify_request_get_question (request, 1), 1)), ==, "Dom\nRhein");
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 7)), ==, CLARIFY_QUESTION_KIND_PERMISSION);
  g_assert_cmpstr (clarify_question_get_subject (clarify_request_get_question (request, 7)), ==, "make clean && make");
  g_assert_true (clarify_question_get_multi_line (clarify_request_get_question (request, 0)));
  g_assert_false (clarify_question_get_multi_line (clarify_request_get_question (request, 1)));
}

static void
test_request_minimal (void)
{
  g_autofree char *text = request_round_trip ("{\"id\":\"x\",\"questions\":[{\"text\":\"Why?\"}]}");

  /* Defaults fill in the id and the kind; nothing else is written. */
  g_assert_cmpstr (text, ==, "{\"id\":\"x\",\"questions\":[{\"id\":\"q1\",\"text\":\"Why?\",\"kind\":\"text\"}]}");
}

static const char aliased_request[] =
  "{\"id\":\"a\",\"timeout\":30000,\"title\":{\"en\":\"Hello\",\"de\":\"Hallo\"},\"questions\":["
  "{\"question\":\"Pick\",\"type\":\"multi_select\",\"options\":[\"A\",{\"label\":{\"en\":\"Bee\",\"de\":\"Biene\"},\"value\":2}],"
  "\"allowOther\":true,\"required\":false,\"default\":\"A\"},"
  "{\"label\":\"Sure?\",\"input_type\":\"CONFIRM\",\"default\":true},{\"text\":\"Notes?\",\"multiLine\":true}]}";

static void
test_request_aliases (void)
{
  g_autofree char *english = NULL;
  g_autofree char *german = NULL;

  /* from_json picks the user's language, so drive it through LANGUAGE. */
  g_setenv ("LANGUAGE", "en", TRUE);
  english = request_round_trip (aliased_request);
  g_assert_cmpstr (english, ==,
                   "{\"id\":\"a\",\"title\":\"Hello\",\"timeout_ms\":30000,\"questions\":["
                   "{\"id\":\"q1\",\"text\":\"Pick\",\"kind\":\"multi\",\"options\":[{\"label\":\"A\"},{\"label\":\"Bee\",\"value\":\"2\"}],"
                   "\"allow_other\":true,\"skippable\":true,\"default\":[\"A\"]},"
                   "{\"id\":\"q2\",\"text\":\"Sure?\",\"kind\":\"confirm\",\"default\":\"yes\"},"
                   "{\"id\":\"q3\",\"text\":\"Notes?\",\"kind\":\"text\",\"multiline\":true}]}");

  g_setenv ("LANGUAGE", "de_DE.UTF-8", TRUE);
  german = request_round_trip (aliased_request);
  g_setenv ("LANGUAGE", "en", TRUE);
  g_assert_cmpstr (german, ==,
                   "{\"id\":\"a\",\"title\":\"Hallo\",\"timeout_ms\":30000,\"questions\":["
                   "{\"id\":\"q1\",\"text\":\"Pick\",\"kind\":\"multi\",\"options\":[{\"label\":\"A\"},{\"label\":\"Biene\",\"value\":\"2\"}],"
                   "\"allow_other\":true,\"skippable\":true,\"default\":[\"A\"]},"
                   "{\"id\":\"q2\",\"text\":\"Sure?\",\"kind\":\"confirm\",\"default\":\"yes\"},"
                   "{\"id\":\"q3\",\"text\":\"Notes?\",\"kind\":\"text\",\"multiline\":true}]}");
}

static void
test_request_errors (void)
{
#define Q "\"questions\":[{\"text\":\"Why?\"}]"
  static const struct {
    const char *data;
    int         code;
    const char *message;
  } cases[] = {
    { "[]", CLARIFY_ERROR_INVALID, "a request must be a JSON object" },
    { "", CLARIFY_ERROR_INVALID, "not valid JSON: the document is empty" },
    { "{" Q "}", CLARIFY_ERROR_INVALID, "id must be a non-empty string" },
    { "{\"id\":7," Q "}", CLARIFY_ERROR_INVALID, "id must be a non-empty string" },
    { "{\"id\":\"x\"}", CLARIFY_ERROR_INVALID, "questions must be an array" },
    { "{\"id\":\"x\",\"questions\":{}}", CLARIFY_ERROR_INVALID, "questions must be an array" },
    { "{\"id\":\"x\",\"questions\":[]}", CLARIFY_ERROR_INVALID, "the request has no questions" },
    { "{\"id\":\"x\",\"title\":5," Q "}", CLARIFY_ERROR_INVALID, "title must be a string" },
    { "{\"id\":\"x\",\"context\":[\"a\"]," Q "}", CLARIFY_ERROR_INVALID, "context must be a string" },
    { "{\"id\":\"x\",\"skippable\":\"yes\"," Q "}", CLARIFY_ERROR_INVALID, "skippable must be true or false" },
    { "{\"id\":\"x\",\"cancellable\":0," Q "}", CLARIFY_ERROR_INVALID, "cancellable must be true or false" },
    { "{\"id\":\"x\",\"questions\":[42]}", CLARIFY_ERROR_INVALID, "questions[0] must be an object" },
    { "{\"id\":\"x\",\"questions\":[{\"text\":\"a\"},{\"kind\":\"text\"}]}", CLARIFY_ERROR_INVALID,
      "questions[1]: question q2 has no text" },
    { "{\"id\":\"x\",\"questions\":[{\"text\":\"a\",\"options\":\"A,B\"}]}", CLARIFY_ERROR_INVALID,
      "questions[0]: the options of question q1 must be an array" },
    { "{\"id\":\"x\",\"questions\":[{\"text\":\"a\",\"options\":[\"A\",{\"description\":\"d\"}]}]}", CLARIFY_ERROR_INVALID,
      "questions[0]: option 2 of question q1: an option has no label" },
    { "{\"id\":\"x\",\"questions\":[{\"text\":\"a\",\"validation\":{\"pattern\":\"(a+)+\"}}]}", CLARIFY_ERROR_UNSAFE_PATTERN,
      "question q1: the pattern contains nested quantifiers (ReDoS risk)" },
    { "{\"id\":\"x\",\"questions\":[{\"text\":\"a\",\"kind\":\"number\",\"validation\":{\"min\":5,\"max\":1}}]}", CLARIFY_ERROR_INVALID,
      "question q1 has a minimum above its maximum" },
    { "{\"id\":\"x\",\"questions\":[{\"text\":\"a\",\"kind\":\"date_range\",\"default\":[\"2026-05-02\",\"2026-05-01\"]}]}", CLARIFY_ERROR_INVALID,
      "question q1: the default range starts after it ends" },
  };
#undef Q

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyRequest) request = NULL;

      g_test_message ("%s", cases[i].data);
      request = clarify_request_new_from_data (cases[i].data, -1, &error);
      g_assert_null (request);
      g_assert_error (error, CLARIFY_ERROR, cases[i].code);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(ClarifyRequest) request = clarify_request_new_from_data ("{\"id\":", -1, &error);

    g_assert_null (request);
    g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
    g_assert_true (g_str_has_prefix (error->message, "not valid JSON: "));
  }
}

/* json-glib recurses per level: a deep document must be refused before it
 * takes the stack down, a deep-enough real one still parses, and brackets
 * inside strings do not count. */
/* A wrong deadline does not cost the question: shown without a countdown,
 * and the log says which request and why. */
static void
test_request_bad_timeout (void)
{
  static const struct
  {
    const char *data;
    const char *logged;
  } cases[] = {
    { "{\"id\":\"a\",\"timeout_ms\":0.4,\"questions\":[{\"text\":\"Q?\"}]}",
      "MESSAGE: Request a: its timeout_ms is less than one millisecond; it is shown without a countdown" },
    { "{\"id\":\"b\",\"timeout_ms\":-5,\"questions\":[{\"text\":\"Q?\"}]}",
      "MESSAGE: Request b: its timeout_ms is negative; it is shown without a countdown" },
    { "{\"id\":\"c\",\"timeout_ms\":1e300,\"questions\":[{\"text\":\"Q?\"}]}",
      "MESSAGE: Request c: its timeout_ms is more than 4294967295 ms (49 days); it is shown without a countdown" },
    { "{\"id\":\"d\",\"timeout\":\"soon\",\"questions\":[{\"text\":\"Q?\"}]}",
      "MESSAGE: Request d: its timeout is not a number of milliseconds; it is shown without a countdown" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyRequest) request = NULL;
      g_auto(GStrv) lines = NULL;

      clarify_test_log_start ();
      request = clarify_request_new_from_data (cases[i].data, -1, &error);
      lines = clarify_test_log_stop ();
      g_assert_no_error (error);
      g_assert_nonnull (request);
      g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 0);
      g_assert_cmpint (clarify_request_get_deadline (request), ==, 0);
      g_assert_cmpuint (g_strv_length (lines), ==, 1);
      g_assert_cmpstr (lines[0], ==, cases[i].logged);
    }
}

static void
test_nesting_limit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GString) deep = g_string_new ("{\"id\":\"x\",\"questions\":[{\"text\":\"a\"}],\"extra\":");
  g_autoptr(GString) fine = g_string_new (NULL);
  g_autoptr(GString) brackets = g_string_new ("{\"id\":\"x\",\"questions\":[{\"text\":\"");

  for (guint i = 0; i < 200000; i++)
    g_string_append_c (deep, '[');
  request = clarify_request_new_from_data (deep->str, deep->len, &error);
  g_assert_null (request);
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "not valid JSON: nested deeper than 512 levels");
  g_clear_error (&error);

  response = clarify_response_new_from_data (deep->str, -1, &error);
  g_assert_null (response);
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  g_clear_error (&error);

  /* At the limit it parses; one more level does not. */
  for (guint i = 0; i < CLARIFY_JSON_MAX_DEPTH; i++)
    g_string_append_c (fine, '[');
  for (guint i = 0; i < CLARIFY_JSON_MAX_DEPTH; i++)
    g_string_append_c (fine, ']');
  node = clarify_json_parse (fine->str, fine->len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);
  g_clear_pointer (&node, json_node_unref);
  g_string_prepend (fine, "[");
  g_string_append (fine, "]");
  node = clarify_json_parse (fine->str, fine->len, &error);
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  g_assert_null (node);
  g_clear_error (&error);

  for (guint i = 0; i < 2 * CLARIFY_JSON_MAX_DEPTH; i++)
    g_string_append (brackets, "[{\\\"");
  g_string_append (brackets, "\"}]}");
  request = clarify_request_new_from_data (brackets->str, brackets->len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (request);
}

/* Found by fuzz-ihub: json-glib decodes an unknown escape ("\6") or a lone
 * surrogate into bytes that are no UTF-8, and a request id made of them
 * could not be written into the outbox's copy or the reply. */
static void
test_bad_escapes (void)
{
  static const char * const refused[] = {
    "{\"id\":\"chat-7c9\\6679\"}",
    "{\"id\":\"\\ud800\"}",
    "{\"id\":\"\\udc00x\"}",
    "{\"id\":\"\\ud800\\u0041\"}",
    "{\"id\":\"\\u12\"}",
    "{\"id\":\"\\x41\"}",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      node = clarify_json_parse (refused[i], -1, &error);
      g_assert_null (node);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_cmpstr (error->message, ==, "not valid JSON: a string holds an unknown escape or a lone UTF-16 surrogate");
      g_clear_error (&error);
    }

  /* Every escape JSON knows, a surrogate pair among them, still decodes. */
  node = clarify_json_parse ("{\"id\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "id"), ==,
                   "\"\\/\b\f\n\r\t\u00e9\U0001F600");
}

static void
test_response_encode (void)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new ("demo-1", CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) cancelled = clarify_response_new ("demo-2", CLARIFY_OUTCOME_CANCELLED);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) cancelled_node = NULL;
  g_autofree char *text = NULL;
  g_autofree char *cancelled_text = NULL;

  clarify_response_add_answer (response, "name", (const char *[]) { "Ada \"the first\"", NULL }, NULL, FALSE);
  clarify_response_add_answer (response, "city", NULL, "Hamburg", FALSE);
  clarify_response_add_answer (response, "extras", (const char *[]) { "Docker", "CI", NULL }, NULL, FALSE);
  clarify_response_add_answer (response, "n", NULL, NULL, TRUE);

  node = clarify_response_to_json (response);
  text = clarify_json_to_string (node);
  g_assert_cmpstr (text, ==,
                   "{\"id\":\"demo-1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"name\",\"values\":[\"Ada \\\"the first\\\"\"]},"
                   "{\"question_id\":\"city\",\"values\":[],\"custom_text\":\"Hamburg\"},"
                   "{\"question_id\":\"extras\",\"values\":[\"Docker\",\"CI\"]},"
                   "{\"question_id\":\"n\",\"values\":[],\"skipped\":true}]}");

  cancelled_node = clarify_response_to_json (cancelled);
  cancelled_text = clarify_json_to_string (cancelled_node);
  g_assert_cmpstr (cancelled_text, ==, "{\"id\":\"demo-2\",\"outcome\":\"cancelled\",\"answers\":[]}");
}

static void
test_response_round_trip (void)
{
  static const char * const texts[] = {
    "{\"id\":\"demo-1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"name\",\"values\":[\"Ada\"]},"
    "{\"question_id\":\"city\",\"values\":[],\"custom_text\":\"Hamburg\",\"note\":\"near the station\"},{\"question_id\":\"x\",\"values\":[],\"skipped\":true}]}",
    "{\"id\":\"r\",\"outcome\":\"skipped\",\"answers\":[]}",
    "{\"id\":\"r\",\"outcome\":\"timed_out\",\"answers\":[]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyResponse) response = clarify_response_new_from_data (texts[i], -1, &error);
      g_autoptr(JsonNode) node = NULL;
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      node = clarify_response_to_json (response);
      text = clarify_json_to_string (node);
      g_assert_cmpstr (text, ==, texts[i]);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(ClarifyResponse) response = clarify_response_new_from_data ("{\"id\":\"r\",\"outcome\":\"answered\"}", -1, &error);
    const ClarifyAnswer *answer;

    /* answers may be absent; values and custom_text may be null. */
    g_assert_no_error (error);
    g_assert_cmpuint (clarify_response_get_n_answers (response), ==, 0);
    g_clear_object (&response);

    response = clarify_response_new_from_data ("{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"q\",\"values\":null,\"custom_text\":null}]}", -1, &error);
    g_assert_no_error (error);
    answer = clarify_response_lookup_answer (response, "q");
    g_assert_nonnull (answer);
    g_assert_null (answer->values[0]);
    g_assert_null (answer->custom_text);
    g_assert_false (answer->skipped);
  }
}

static void
test_response_errors (void)
{
  static const struct {
    const char *data;
    const char *message;
  } cases[] = {
    { "\"answered\"", "a response must be a JSON object" },
    { "{\"outcome\":\"answered\"}", "id must be a non-empty string" },
    { "{\"id\":\"r\"}", "outcome must be one of answered, skipped, cancelled, timed_out" },
    { "{\"id\":\"r\",\"outcome\":\"done\"}", "outcome must be one of answered, skipped, cancelled, timed_out" },
    { "{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":{}}", "answers must be an array" },
    { "{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":[3]}", "answers[0] must be an object" },
    { "{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":5}]}", "answers[0].question_id must be a non-empty string" },
    { "{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"a\",\"values\":[\"x\"]},{\"question_id\":\"b\",\"values\":[1]}]}",
      "answers[1].values must be an array of strings" },
    { "{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"a\",\"values\":\"x\"}]}",
      "answers[0].values must be an array of strings" },
    { "{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"a\",\"custom_text\":5}]}",
      "answers[0].custom_text must be a string" },
    { "{\"id\":\"r\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"a\",\"skipped\":\"no\"}]}",
      "answers[0].skipped must be true or false" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyResponse) response = NULL;

      g_test_message ("%s", cases[i].data);
      response = clarify_response_new_from_data (cases[i].data, -1, &error);
      g_assert_null (response);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

/* The bodies of the ```json fences in the source file @relative_path. */
static GPtrArray *
read_json_blocks (const char *relative_path)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", relative_path, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) pieces = NULL;
  GPtrArray *blocks = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);

  /* Odd pieces are inside fences. */
  pieces = g_strsplit (contents, "```", -1);
  for (guint i = 1; pieces[i] != NULL; i += 2)
    {
      if (g_str_has_prefix (pieces[i], "json\n"))
        g_ptr_array_add (blocks, g_strdup (pieces[i] + 5));
    }

  return blocks;
}

/* A documented response must be canonical, up to its line breaks. */
static void
assert_canonical_response (const char *documented)
{
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *response_text = NULL;

  response = clarify_response_new_from_data (documented, -1, &error);
  g_assert_no_error (error);

  node = clarify_response_to_json (response);
  response_text = clarify_json_to_string (node);
  for (const char *p = documented; *p != '\0'; p++)
    {
      if (*p != '\n')
        g_string_append_c (joined, *p);
      else
        while (p[1] == ' ')
          p++;
    }
  g_assert_cmpstr (response_text, ==, joined->str);
}

/* The examples in docs/json-form.md and the README must stay true. */
static void
test_documented_examples (void)
{
  g_autoptr(GPtrArray) docs = read_json_blocks ("docs/json-form.md");
  g_autoptr(GPtrArray) readme = read_json_blocks ("README.md");
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyRequest) readme_request = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (docs->len, ==, 2);
  request = clarify_request_new_from_data (g_ptr_array_index (docs, 0), -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 6);
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Trip planning");
  assert_canonical_response (g_ptr_array_index (docs, 1));

  g_assert_cmpuint (readme->len, ==, 2);
  readme_request = clarify_request_new_from_data (g_ptr_array_index (readme, 0), -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (clarify_request_get_n_questions (readme_request), ==, 3);
  g_assert_cmpstr (clarify_request_get_title (readme_request), ==, "Deployment");
  assert_canonical_response (g_ptr_array_index (readme, 1));
}

/* Found by fuzz-json-form: json-glib writes the double 1e40 as "1e+40.0",
 * so such a bound made a request the outbox could not read back. */
static void
test_request_huge_numbers (void)
{
  static const char *data =
    "{\"id\":\"n\",\"questions\":[{\"id\":\"q\",\"kind\":\"number\",\"text\":\"How many?\","
    "\"validation\":{\"min\":-1e20,\"max\":1e40,\"step\":1e300}}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyRequest) request = clarify_request_new_from_data (data, -1, &error);
  g_autoptr(ClarifyRequest) again = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  const ClarifyValidation *validation;

  g_assert_no_error (error);
  validation = clarify_question_get_validation (clarify_request_get_question (request, 0));
  g_assert_cmpfloat (validation->min, ==, -1e15);
  g_assert_cmpfloat (validation->max, ==, 1e15);
  g_assert_cmpfloat (validation->step, ==, 1e15);

  node = clarify_request_to_json (request);
  text = clarify_json_to_string (node);
  again = clarify_request_new_from_data (text, -1, &error);
  g_assert_no_error (error);
  validation = clarify_question_get_validation (clarify_request_get_question (again, 0));
  g_assert_cmpfloat (validation->max, ==, 1e15);
}

/* Doubles every json-glib prints as JSON that parses back to (nearly) them:
 * json-glib 1.6 printed 1e-300 as "1e-300.0". */
static void
test_doubles_print_valid (void)
{
  static const double values[] = { 0.5, -2.25, 1e-300, -1e-300, 1e-5, 1e17, 1e300, 0.1 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autoptr(JsonNode) node = clarify_json_node_new_double (values[i]);
      g_autofree char *text = clarify_json_to_string (node);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) again = clarify_json_parse (text, -1, &error);

      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (json_node_get_double (again), values[i], fabs (values[i]) * 1e-15);
    }
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/json/request/round-trip", test_request_round_trip);
  g_test_add_func ("/json/request/minimal", test_request_minimal);
  g_test_add_func ("/json/request/aliases", test_request_aliases);
  g_test_add_func ("/json/request/errors", test_request_errors);
  g_test_add_func ("/json/request/bad-timeout", test_request_bad_timeout);
  g_test_add_func ("/json/request/huge-numbers", test_request_huge_numbers);
  g_test_add_func ("/json/nesting-limit", test_nesting_limit);
  g_test_add_func ("/json/doubles-print-valid", test_doubles_print_valid);
  g_test_add_func ("/json/bad-escapes", test_bad_escapes);
  g_test_add_func ("/json/response/encode", test_response_encode);
  g_test_add_func ("/json/response/round-trip", test_response_round_trip);
  g_test_add_func ("/json/response/errors", test_response_errors);
  g_test_add_func ("/json/documented-examples", test_documented_examples);

  return g_test_run ();
}
