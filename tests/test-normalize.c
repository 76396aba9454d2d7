/* test-normalize.c: every seed vocabulary onto the one model
 *
 * The payloads are copied verbatim from the frames recorded in the agents'
 * protocol notes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-normalize.h"

#include "clarify-test-log.h"
#include "clarify-test-server.h"

static const char * const english[] = { "en_US.UTF-8", "en_US", "en", "C", NULL };
static const char * const german[] = { "de_DE.UTF-8", NULL };

static JsonNode *
parse (const char *data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, data, -1, &error);
  g_assert_no_error (error);

  return json_node_copy (json_parser_get_root (parser));
}

/* Walks "a.b.0.c" through objects and arrays. */
static JsonNode *
dig (JsonNode   *node,
     const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (JSON_NODE_HOLDS_ARRAY (node))
        node = json_array_get_element (json_node_get_array (node), (guint) g_ascii_strtoull (parts[i], NULL, 10));
      else
        node = json_object_get_member (json_node_get_object (node), parts[i]);
      g_assert_nonnull (node);
    }

  return node;
}

static ClarifyQuestion *
question_from (JsonNode           *node,
               guint               index,
               const char * const *languages)
{
  g_autoptr(GError) error = NULL;
  ClarifyQuestion *question;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  question = clarify_question_new_from_json_object (json_node_get_object (node), index, languages, &error);
  g_assert_no_error (error);
  g_assert_nonnull (question);

  return question;
}

static void
test_kind_names (void)
{
  static const struct {
    const char          *name;
    ClarifyQuestionKind  kind;
  } cases[] = {
    { "text", CLARIFY_QUESTION_KIND_TEXT },
    { "select", CLARIFY_QUESTION_KIND_SINGLE },
    { "single_select", CLARIFY_QUESTION_KIND_SINGLE },
    { "single-select", CLARIFY_QUESTION_KIND_SINGLE },
    { "single", CLARIFY_QUESTION_KIND_SINGLE },
    { "Single_Select", CLARIFY_QUESTION_KIND_SINGLE },
    { "multiselect", CLARIFY_QUESTION_KIND_MULTI },
    { "multi_select", CLARIFY_QUESTION_KIND_MULTI },
    { "multi-select", CLARIFY_QUESTION_KIND_MULTI },
    { "MULTI-SELECT", CLARIFY_QUESTION_KIND_MULTI },
    { "multi", CLARIFY_QUESTION_KIND_MULTI },
    { "confirm", CLARIFY_QUESTION_KIND_CONFIRM },
    { "number", CLARIFY_QUESTION_KIND_NUMBER },
    { "date", CLARIFY_QUESTION_KIND_DATE },
    { "date_range", CLARIFY_QUESTION_KIND_DATE_RANGE },
    { "date-range", CLARIFY_QUESTION_KIND_DATE_RANGE },
    { "DateRange", CLARIFY_QUESTION_KIND_DATE_RANGE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      ClarifyQuestionKind kind = -1;

      g_assert_true (clarify_question_kind_from_string (cases[i].name, &kind));
      g_assert_cmpint (kind, ==, cases[i].kind);
    }

  /* Every canonical name maps back to its kind. */
  for (ClarifyQuestionKind k = CLARIFY_QUESTION_KIND_TEXT; k <= CLARIFY_QUESTION_KIND_DATE_RANGE; k++)
    {
      ClarifyQuestionKind kind = -1;

      g_assert_true (clarify_question_kind_from_string (clarify_question_kind_to_string (k), &kind));
      g_assert_cmpint (kind, ==, k);
    }

  g_assert_false (clarify_question_kind_from_string ("file", NULL));
  g_assert_false (clarify_question_kind_from_string ("", NULL));
  g_assert_false (clarify_question_kind_from_string ("selectx", NULL));
  g_assert_false (clarify_question_kind_from_string (NULL, NULL));
}

static void
test_localized_text (void)
{
  g_autoptr(JsonNode) plain = parse ("\"Hallo\"");
  g_autoptr(JsonNode) both = parse ("{\"de\":\"Welche Stadt?\",\"en\":\"Which city?\"}");
  g_autoptr(JsonNode) no_english = parse ("{\"fr\":\"Quelle ville ?\",\"de\":\"Welche Stadt?\"}");
  g_autoptr(JsonNode) bcp47 = parse ("{\"en\":\"Colour\",\"de-DE\":\"Farbe\"}");
  g_autoptr(JsonNode) junk_first = parse ("{\"x\":5,\"it\":\"Quale?\"}");
  g_autoptr(JsonNode) number = parse ("5");
  g_autoptr(JsonNode) array = parse ("[\"a\"]");
  g_autoptr(JsonNode) object = parse ("{\"title\":{\"en\":\"Hi\",\"de\":\"Hallo\"}}");
  const char * const french[] = { "fr_FR@euro", "C", NULL };
  const char * const c_only[] = { "C", NULL };
  char *text;

  text = clarify_localized_text (plain, german);
  g_assert_cmpstr (text, ==, "Hallo");
  g_free (text);

  text = clarify_localized_text (both, german);
  g_assert_cmpstr (text, ==, "Welche Stadt?");
  g_free (text);
  text = clarify_localized_text (both, english);
  g_assert_cmpstr (text, ==, "Which city?");
  g_free (text);
  /* No French: English. */
  text = clarify_localized_text (both, french);
  g_assert_cmpstr (text, ==, "Which city?");
  g_free (text);
  text = clarify_localized_text (both, c_only);
  g_assert_cmpstr (text, ==, "Which city?");
  g_free (text);

  /* "fr_FR@euro" strips to "fr"; without English the first member wins. */
  text = clarify_localized_text (no_english, french);
  g_assert_cmpstr (text, ==, "Quelle ville ?");
  g_free (text);
  text = clarify_localized_text (no_english, english);
  g_assert_cmpstr (text, ==, "Quelle ville ?");
  g_free (text);

  /* BCP 47 keys match POSIX locale names. */
  text = clarify_localized_text (bcp47, german);
  g_assert_cmpstr (text, ==, "Farbe");
  g_free (text);

  text = clarify_localized_text (junk_first, english);
  g_assert_cmpstr (text, ==, "Quale?");
  g_free (text);

  g_assert_null (clarify_localized_text (number, english));
  g_assert_null (clarify_localized_text (array, english));
  g_assert_null (clarify_localized_text (NULL, english));

  text = clarify_localized_member (json_node_get_object (object), "title", german);
  g_assert_cmpstr (text, ==, "Hallo");
  g_free (text);
  g_assert_null (clarify_localized_member (json_node_get_object (object), "missing", german));
}

static void
test_localized_text_from_environment (void)
{
  g_autoptr(JsonNode) both = parse ("{\"en\":\"Which city?\",\"de\":\"Welche Stadt?\"}");
  char *text;

  /* NULL languages means the user's, i.e. LANGUAGE. */
  g_setenv ("LANGUAGE", "de", TRUE);
  text = clarify_localized_text (both, NULL);
  g_assert_cmpstr (text, ==, "Welche Stadt?");
  g_free (text);

  g_setenv ("LANGUAGE", "en", TRUE);
  text = clarify_localized_text (both, NULL);
  g_assert_cmpstr (text, ==, "Which city?");
  g_free (text);
}

static void
test_options (void)
{
  static const struct {
    const char *json;
    const char *label;
    const char *value;
    const char *description;
  } cases[] = {
    { "\"React\"", "React", "React", NULL },
    { "{\"label\":\"Französisch\",\"value\":\"fr\"}", "Französisch", "fr", NULL },
    { "{\"label\":\"Tailwind (Recommended)\",\"description\":\"Utility classes, matches the repo\"}",
      "Tailwind (Recommended)", "Tailwind (Recommended)", "Utility classes, matches the repo" },
    { "{\"label\":\"PDF\",\"value\":\"pdf\",\"description\":\"Portable\"}", "PDF", "pdf", "Portable" },
    { "{\"label\":{\"en\":\"Cologne\",\"de\":\"Köln\"},\"value\":\"cgn\",\"description\":{\"en\":\"On the Rhine\",\"de\":\"Am Rhein\"}}",
      "Köln", "cgn", "Am Rhein" },
    /* iHub keeps the value's JSON type. */
    { "{\"label\":\"Forty-two\",\"value\":42}", "Forty-two", "42", NULL },
    { "{\"label\":\"Half\",\"value\":2.5}", "Half", "2.5", NULL },
    { "{\"label\":\"Tenth\",\"value\":0.1}", "Tenth", "0.1", NULL },
    { "{\"label\":\"On\",\"value\":true}", "On", "true", NULL },
    { "{\"label\":\"Nothing\",\"value\":null}", "Nothing", "Nothing", NULL },
    { "{\"label\":\"Empty\",\"value\":\"\",\"description\":\"\"}", "Empty", "Empty", NULL },
    { "{\"value\":\"only-value\"}", "only-value", "only-value", NULL },
    { "{\"const\":\"#FF0000\",\"title\":\"Red\"}", "Red", "#FF0000", NULL },
    { "7", "7", "7", NULL },
  };
  static const char * const bad[] = { "{}", "[\"a\"]", "null", "{\"label\":\"\"}", "{\"description\":\"d\"}" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = parse (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyOption) option = clarify_option_new_from_json (node, german, &error);

      g_test_message ("%s", cases[i].json);
      g_assert_no_error (error);
      g_assert_cmpstr (clarify_option_get_label (option), ==, cases[i].label);
      g_assert_cmpstr (clarify_option_get_value (option), ==, cases[i].value);
      g_assert_cmpstr (clarify_option_get_description (option), ==, cases[i].description);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) node = parse (bad[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyOption) option = clarify_option_new_from_json (node, german, &error);

      g_test_message ("%s", bad[i]);
      g_assert_null (option);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
    }
}

/* F-iHub-1 … F-iHub-5: the `data:` JSON of iHub's `clarification` events. */
static const char ihub_1[] =
  "{\"event\":\"clarification\",\"chatId\":\"chat-7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"questionId\":\"clarify-chat-7c9e6679-7425-40de-944b-e07fc1f90ae7-1-1767225600000\",\"toolCallId\":\"call_8YbZ2mQ1\",\"question\":\"Welche Sprache?\",\"inputType\":\"single_select\",\"allowSkip\":false,\"allowOther\":true,\"clarificationNumber\":1,\"maxClarifications\":10,\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"options\":[{\"label\":\"Englisch\",\"value\":\"en\"},{\"label\":\"Französisch\",\"value\":\"fr\"},{\"label\":\"Spanisch\",\"value\":\"es\"}],\"context\":\"Zielsprache für die Übersetzung\"}";
static const char ihub_2[] =
  "{\"event\":\"clarification\",\"chatId\":\"chat-7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"questionId\":\"clarify-chat-7c9e6679-7425-40de-944b-e07fc1f90ae7-2-1767225660000\",\"toolCallId\":\"call_b7Tq\",\"question\":\"Who is the target audience?\",\"inputType\":\"multi_select\",\"allowSkip\":true,\"allowOther\":true,\"clarificationNumber\":2,\"maxClarifications\":10,\"timestamp\":\"2026-01-01T00:01:00.000Z\",\"options\":[{\"label\":\"Developers\",\"value\":\"developers\"},{\"label\":\"Product Managers\",\"value\":\"pm\"},{\"label\":\"End Users\",\"value\":\"end_users\"},{\"label\":\"Admins\",\"value\":\"admins\"},{\"label\":\"Support\",\"value\":\"support\"},{\"label\":\"Sales\",\"value\":\"sales\"}],\"context\":\"Select all that apply\"}";
static const char ihub_3[] =
  "{\"event\":\"clarification\",\"chatId\":\"chat-7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"questionId\":\"clarify-chat-7c9e6679-7425-40de-944b-e07fc1f90ae7-3-1767225720000\",\"toolCallId\":\"call_x1\",\"question\":\"What does 'DM' refer to?\",\"inputType\":\"text\",\"allowSkip\":false,\"allowOther\":false,\"clarificationNumber\":3,\"maxClarifications\":10,\"timestamp\":\"2026-01-01T00:02:00.000Z\",\"placeholder\":\"e.g., Direct Message, Data Manager...\",\"validation\":{\"pattern\":\"^[A-Za-z ,.-]+$\",\"min\":2,\"max\":80,\"message\":\"Letters only, 2-80 characters\"},\"context\":\"The abbreviation 'DM' has multiple meanings\"}";
static const char ihub_4_number[] =
  "{\"event\":\"clarification\",\"chatId\":\"chat-7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"questionId\":\"clarify-chat-7c9e6679-7425-40de-944b-e07fc1f90ae7-4-1767225780000\",\"toolCallId\":\"call_n4\",\"question\":\"How many attendees?\",\"inputType\":\"number\",\"allowSkip\":true,\"allowOther\":false,\"clarificationNumber\":4,\"maxClarifications\":10,\"timestamp\":\"2026-01-01T00:03:00.000Z\",\"validation\":{\"min\":1,\"max\":500}}";
static const char ihub_4_date[] =
  "{\"event\":\"clarification\",\"chatId\":\"chat-7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"questionId\":\"clarify-chat-7c9e6679-7425-40de-944b-e07fc1f90ae7-5-1767225840000\",\"toolCallId\":\"call_d5\",\"question\":\"When should we schedule it?\",\"inputType\":\"date\",\"allowSkip\":false,\"allowOther\":false,\"clarificationNumber\":5,\"maxClarifications\":10,\"timestamp\":\"2026-01-01T00:04:00.000Z\",\"context\":\"Select your preferred date\"}";
static const char ihub_5[] =
  "{\"event\":\"clarification\",\"chatId\":\"chat-7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"questionId\":\"clarify-chat-7c9e6679-7425-40de-944b-e07fc1f90ae7-6-1767225900000\",\"toolCallId\":\"call_c6\",\"question\":\"Delete all 15 drafts?\",\"inputType\":\"single_select\",\"allowSkip\":false,\"allowOther\":false,\"clarificationNumber\":6,\"maxClarifications\":10,\"timestamp\":\"2026-01-01T00:05:00.000Z\"}";

static void
test_ihub (void)
{
  g_autoptr(JsonNode) n1 = parse (ihub_1);
  g_autoptr(JsonNode) n2 = parse (ihub_2);
  g_autoptr(JsonNode) n3 = parse (ihub_3);
  g_autoptr(JsonNode) n4 = parse (ihub_4_number);
  g_autoptr(JsonNode) n5 = parse (ihub_4_date);
  g_autoptr(JsonNode) n6 = parse (ihub_5);
  g_autoptr(ClarifyQuestion) q1 = question_from (n1, 0, german);
  g_autoptr(ClarifyQuestion) q2 = question_from (n2, 0, german);
  g_autoptr(ClarifyQuestion) q3 = question_from (n3, 0, german);
  g_autoptr(ClarifyQuestion) q4 = question_from (n4, 0, german);
  g_autoptr(ClarifyQuestion) q5 = question_from (n5, 0, german);
  g_autoptr(ClarifyQuestion) q6 = question_from (n6, 0, german);
  const ClarifyValidation *v;

  g_assert_cmpstr (clarify_question_get_id (q1), ==, "clarify-chat-7c9e6679-7425-40de-944b-e07fc1f90ae7-1-1767225600000");
  g_assert_cmpstr (clarify_question_get_text (q1), ==, "Welche Sprache?");
  g_assert_cmpint (clarify_question_get_kind (q1), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_true (clarify_question_get_allow_other (q1));
  g_assert_false (clarify_question_get_skippable (q1));
  g_assert_cmpuint (clarify_question_get_n_options (q1), ==, 3);
  clarify_test_assert_option (q1, 0, "Englisch", "en", NULL);
  clarify_test_assert_option (q1, 1, "Französisch", "fr", NULL);
  clarify_test_assert_option (q1, 2, "Spanisch", "es", NULL);

  g_assert_cmpint (clarify_question_get_kind (q2), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_true (clarify_question_get_skippable (q2));
  g_assert_true (clarify_question_get_allow_other (q2));
  g_assert_cmpuint (clarify_question_get_n_options (q2), ==, 6);
  clarify_test_assert_option (q2, 5, "Sales", "sales", NULL);

  /* Text: min/max are lengths ("Letters only, 2-80 characters"). */
  g_assert_cmpint (clarify_question_get_kind (q3), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_placeholder (q3), ==, "e.g., Direct Message, Data Manager...");
  v = clarify_question_get_validation (q3);
  g_assert_cmpstr (v->pattern, ==, "^[A-Za-z ,.-]+$");
  g_assert_cmpstr (v->message, ==, "Letters only, 2-80 characters");
  g_assert_cmpint (v->min_length, ==, 2);
  g_assert_cmpint (v->max_length, ==, 80);
  g_assert_false (v->has_min);
  g_assert_false (v->has_max);

  g_assert_cmpint (clarify_question_get_kind (q4), ==, CLARIFY_QUESTION_KIND_NUMBER);
  g_assert_true (clarify_question_get_skippable (q4));
  v = clarify_question_get_validation (q4);
  g_assert_true (v->has_min && v->has_max);
  g_assert_cmpfloat (v->min, ==, 1);
  g_assert_cmpfloat (v->max, ==, 500);
  g_assert_cmpint (v->min_length, ==, -1);

  g_assert_cmpint (clarify_question_get_kind (q5), ==, CLARIFY_QUESTION_KIND_DATE);
  g_assert_cmpstr (clarify_question_get_text (q5), ==, "When should we schedule it?");

  /* An LLM `confirm`: single_select without options, shown as text. */
  g_assert_cmpint (clarify_question_get_kind (q6), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpuint (clarify_question_get_n_options (q6), ==, 0);
  g_assert_cmpstr (clarify_question_get_text (q6), ==, "Delete all 15 drafts?");
}

/* OpenCode 1.18.33 `question.asked`, observed (opencode-mcp-claude.md A2),
 * and the same question kind re-published by CodeNomad (F-CN-1). */
static const char opencode_asked[] =
  "{\"id\":\"evt_2002871fe002IInQMU5FN6hdxT\",\"type\":\"question.asked\",\"properties\":{"
  "\"id\":\"que_2002871fe001Lqadf0jbNBl4s6\",\"sessionID\":\"ses_dffd799eaffeGncNzFSIPjwM93\",\"questions\":["
  "{\"question\":\"Which database should I use for the new service?\",\"header\":\"Database\","
  "\"options\":[{\"label\":\"PostgreSQL\",\"description\":\"Relational, robust, default choice\"},"
  "{\"label\":\"SQLite\",\"description\":\"Embedded, zero-config\"}],\"multiple\":false},"
  "{\"question\":\"Which extras do you want?\",\"header\":\"Extras\","
  "\"options\":[{\"label\":\"Docker\",\"description\":\"Add a Dockerfile\"},{\"label\":\"CI\",\"description\":\"Add a CI workflow\"}],"
  "\"multiple\":true}],\"tool\":{\"messageID\":\"msg_200286b7d001VHvwrV0rSM256k\",\"callID\":\"call_question1\"}}}";
static const char codenomad_event[] =
  "{\"type\":\"instance.event\",\"instanceId\":\"mkkd2vy8\",\"event\":{\"id\":\"evt_01JH0000000000000000000001\",\"type\":\"question.asked\",\"properties\":{\"id\":\"que_01JH00000000000000000000Q1\",\"sessionID\":\"ses_01JH00000000000000000000S1\",\"questions\":[{\"question\":\"Which styling approach should the component use?\",\"header\":\"Styling\",\"options\":[{\"label\":\"Tailwind (Recommended)\",\"description\":\"Utility classes, matches the repo\"},{\"label\":\"CSS Modules\",\"description\":\"Scoped .module.css files\"}],\"multiple\":false},{\"question\":\"Which features should be included?\",\"header\":\"Features\",\"options\":[{\"label\":\"Loading state\",\"description\":\"Spinner while fetching\"},{\"label\":\"Error handling\",\"description\":\"Inline error message\"},{\"label\":\"Accessibility\",\"description\":\"ARIA roles and focus\"}],\"multiple\":true}],\"tool\":{\"messageID\":\"msg_01JH00000000000000000000M1\",\"callID\":\"call_q1\"}},\"directory\":\"/home/dev/project\"}}";

static void
test_opencode (void)
{
  g_autoptr(JsonNode) root = parse (opencode_asked);
  g_autoptr(JsonNode) wrapped = parse (codenomad_event);
  g_autoptr(ClarifyQuestion) q1 = question_from (dig (root, "properties.questions.0"), 0, english);
  g_autoptr(ClarifyQuestion) q2 = question_from (dig (root, "properties.questions.1"), 1, english);
  g_autoptr(ClarifyQuestion) c1 = question_from (dig (wrapped, "event.properties.questions.0"), 0, english);
  g_autoptr(ClarifyQuestion) c2 = question_from (dig (wrapped, "event.properties.questions.1"), 1, english);

  /* No ids on the wire: position names them. */
  g_assert_cmpstr (clarify_question_get_id (q1), ==, "q1");
  g_assert_cmpstr (clarify_question_get_id (q2), ==, "q2");
  g_assert_cmpstr (clarify_question_get_text (q1), ==, "Which database should I use for the new service?");
  g_assert_cmpstr (clarify_question_get_header (q1), ==, "Database");
  g_assert_cmpint (clarify_question_get_kind (q1), ==, CLARIFY_QUESTION_KIND_SINGLE);
  clarify_test_assert_option (q1, 0, "PostgreSQL", "PostgreSQL", "Relational, robust, default choice");
  clarify_test_assert_option (q1, 1, "SQLite", "SQLite", "Embedded, zero-config");
  g_assert_cmpint (clarify_question_get_kind (q2), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpuint (clarify_question_get_n_options (q2), ==, 2);
  /* `custom` is absent: whether that means "Other" is the backend's call. */
  g_assert_false (clarify_question_get_allow_other (q2));

  g_assert_cmpint (clarify_question_get_kind (c1), ==, CLARIFY_QUESTION_KIND_SINGLE);
  clarify_test_assert_option (c1, 0, "Tailwind (Recommended)", "Tailwind (Recommended)", "Utility classes, matches the repo");
  g_assert_cmpint (clarify_question_get_kind (c2), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_header (c2), ==, "Features");
  clarify_test_assert_option (c2, 2, "Accessibility", "Accessibility", "ARIA roles and focus");
}

/* Seed 001 / the CodeNomad fork's ask_user tools/call (F-CN-3). */
static const char ask_user_call[] =
  "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\",\"arguments\":{\"title\":\"Component Configuration\",\"questions\":[{\"id\":\"name\",\"question\":\"What should the component be called?\",\"type\":\"text\",\"placeholder\":\"e.g. UserProfileCard\"},{\"id\":\"style\",\"question\":\"Which styling approach?\",\"type\":\"select\",\"options\":[\"CSS Modules\",\"Styled Components\",\"Tailwind\",\"Plain CSS\"]},{\"id\":\"features\",\"question\":\"Which features should be included?\",\"type\":\"multi-select\",\"options\":[\"Loading state\",\"Error handling\",\"Animation\",\"Accessibility\"]},{\"question\":\"Overwrite existing file?\",\"type\":\"confirm\",\"required\":true}]}}}";
/* Seed 001's Example 5: no type, required defaults to true. */
static const char ask_user_optional[] =
  "{\"questions\":[{\"question\":\"Any additional requirements?\",\"required\":false}]}";

static void
test_ask_user (void)
{
  g_autoptr(JsonNode) root = parse (ask_user_call);
  g_autoptr(JsonNode) optional = parse (ask_user_optional);
  g_autoptr(ClarifyQuestion) name = question_from (dig (root, "params.arguments.questions.0"), 0, english);
  g_autoptr(ClarifyQuestion) style = question_from (dig (root, "params.arguments.questions.1"), 1, english);
  g_autoptr(ClarifyQuestion) features = question_from (dig (root, "params.arguments.questions.2"), 2, english);
  g_autoptr(ClarifyQuestion) overwrite = question_from (dig (root, "params.arguments.questions.3"), 3, english);
  g_autoptr(ClarifyQuestion) extra = question_from (dig (optional, "questions.0"), 0, english);

  g_assert_cmpstr (clarify_question_get_id (name), ==, "name");
  g_assert_cmpint (clarify_question_get_kind (name), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_placeholder (name), ==, "e.g. UserProfileCard");
  g_assert_false (clarify_question_get_skippable (name));

  g_assert_cmpstr (clarify_question_get_id (style), ==, "style");
  g_assert_cmpint (clarify_question_get_kind (style), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpuint (clarify_question_get_n_options (style), ==, 4);
  clarify_test_assert_option (style, 2, "Tailwind", "Tailwind", NULL);

  g_assert_cmpint (clarify_question_get_kind (features), ==, CLARIFY_QUESTION_KIND_MULTI);
  clarify_test_assert_option (features, 3, "Accessibility", "Accessibility", NULL);

  g_assert_cmpstr (clarify_question_get_id (overwrite), ==, "q4");
  g_assert_cmpint (clarify_question_get_kind (overwrite), ==, CLARIFY_QUESTION_KIND_CONFIRM);
  g_assert_false (clarify_question_get_skippable (overwrite));

  g_assert_cmpint (clarify_question_get_kind (extra), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_true (clarify_question_get_skippable (extra));
}

/* Claude Code AskUserQuestion input (opencode-mcp-claude.md C). */
static const char claude_input[] =
  "{\"questions\":[{\"question\":\"Which library should we use for date formatting?\",\"header\":\"Library\",\"multiSelect\":false,"
  "\"options\":[{\"label\":\"date-fns (Recommended)\",\"description\":\"Small, tree-shakeable\"},"
  "{\"label\":\"Luxon\",\"description\":\"Timezone-aware\",\"preview\":\"optional mockup/code shown on focus\"}]}]}";
/* Ag3ntum `question_pending` (fixture A2) and Phoenix `state_change`. */
static const char ag3ntum_pending[] =
  "{\"type\": \"question_pending\", \"data\": {\"question_id\": \"3f2b8c1e-9d4a-4b6f-8e21-7a5c0d9e4f13\", \"questions\": [{\"question\": \"What programming language would you like to use?\", \"header\": \"Language\", \"multiSelect\": true, \"options\": [{\"label\": \"Python\", \"description\": \"Recommended for beginners\"}, {\"label\": \"JavaScript\", \"description\": \"Great for web development\"}, {\"label\": \"Go\", \"description\": \"Fast and efficient\"}]}, {\"question\": \"What is your experience level?\", \"header\": \"Experience\", \"multiSelect\": false, \"options\": [{\"label\": \"Beginner\", \"description\": \"Just starting out\"}, {\"label\": \"Intermediate\", \"description\": \"Some experience\"}, {\"label\": \"Advanced\", \"description\": \"Experienced developer\"}]}], \"session_id\": \"20260103_210631_ecc41d66\"}, \"timestamp\": \"2026-01-03T21:07:02.311907+00:00\", \"sequence\": 16, \"session_id\": \"20260103_210631_ecc41d66\"}";
static const char phoenix_state[] =
  "{\"type\":\"state_change\",\"sequence_id\":9,\"state\":{\"type\":\"awaiting_user_response\",\"questions\":[{\"question\":\"Which date library should I use?\",\"header\":\"Date lib\",\"options\":[{\"label\":\"date-fns\",\"description\":\"Modular, tree-shakeable\",\"preview\":\"import { parseISO } from 'date-fns';\\nparseISO('2026-05-06');\"},{\"label\":\"luxon\",\"description\":\"Immutable DateTime objects\",\"preview\":\"import { DateTime } from 'luxon';\\nDateTime.fromISO('2026-05-06');\"}],\"multiSelect\":false},{\"question\":\"Which features should the CLI support?\",\"header\":\"Features\",\"options\":[{\"label\":\"Export to CSV\"},{\"label\":\"Dark mode\",\"description\":\"ANSI colour themes\"},{\"label\":\"Reminders\"}],\"multiSelect\":true}],\"tool_use_id\":\"toolu_01Lx7fQ2pZ9mW3vN8kR4tY6s\"},\"display_state\":\"awaiting_approval\"}";

static void
test_claude_shapes (void)
{
  g_autoptr(JsonNode) claude = parse (claude_input);
  g_autoptr(JsonNode) ag3ntum = parse (ag3ntum_pending);
  g_autoptr(JsonNode) phoenix = parse (phoenix_state);
  g_autoptr(ClarifyQuestion) library = question_from (dig (claude, "questions.0"), 0, english);
  g_autoptr(ClarifyQuestion) language = question_from (dig (ag3ntum, "data.questions.0"), 0, english);
  g_autoptr(ClarifyQuestion) level = question_from (dig (ag3ntum, "data.questions.1"), 1, english);
  g_autoptr(ClarifyQuestion) datelib = question_from (dig (phoenix, "state.questions.0"), 0, english);
  g_autoptr(ClarifyQuestion) cli = question_from (dig (phoenix, "state.questions.1"), 1, english);

  g_assert_cmpint (clarify_question_get_kind (library), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_header (library), ==, "Library");
  clarify_test_assert_option (library, 1, "Luxon", "Luxon", "Timezone-aware");

  g_assert_cmpint (clarify_question_get_kind (language), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_cmpstr (clarify_question_get_header (language), ==, "Language");
  clarify_test_assert_option (language, 2, "Go", "Go", "Fast and efficient");
  g_assert_cmpint (clarify_question_get_kind (level), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_id (level), ==, "q2");

  g_assert_cmpint (clarify_question_get_kind (datelib), ==, CLARIFY_QUESTION_KIND_SINGLE);
  clarify_test_assert_option (datelib, 0, "date-fns", "date-fns", "Modular, tree-shakeable");
  g_assert_cmpint (clarify_question_get_kind (cli), ==, CLARIFY_QUESTION_KIND_MULTI);
  clarify_test_assert_option (cli, 0, "Export to CSV", "Export to CSV", NULL);
  clarify_test_assert_option (cli, 1, "Dark mode", "Dark mode", "ANSI colour themes");
}

static const char localized_question[] =
  "{\"id\":\"city\",\"text\":{\"en\":\"Which city?\",\"de\":\"Welche Stadt?\"},"
  "\"header\":{\"en\":\"City\",\"de\":\"Stadt\"},\"kind\":\"single\",\"allow_other\":true,"
  "\"placeholder\":{\"en\":\"Another city\",\"de\":\"Eine andere Stadt\"},"
  "\"options\":[{\"label\":{\"en\":\"Cologne\",\"de\":\"Köln\"},\"value\":\"cgn\"},{\"label\":\"Berlin\",\"value\":\"ber\"}],"
  "\"validation\":{\"message\":{\"en\":\"Letters only\",\"de\":\"Nur Buchstaben\"}}}";

static void
test_localized_question (void)
{
  g_autoptr(JsonNode) node = parse (localized_question);
  g_autoptr(ClarifyQuestion) de = question_from (node, 0, german);
  g_autoptr(ClarifyQuestion) en = question_from (node, 0, english);

  g_assert_cmpstr (clarify_question_get_text (de), ==, "Welche Stadt?");
  g_assert_cmpstr (clarify_question_get_header (de), ==, "Stadt");
  g_assert_cmpstr (clarify_question_get_placeholder (de), ==, "Eine andere Stadt");
  g_assert_cmpstr (clarify_question_get_validation (de)->message, ==, "Nur Buchstaben");
  clarify_test_assert_option (de, 0, "Köln", "cgn", NULL);
  clarify_test_assert_option (de, 1, "Berlin", "ber", NULL);

  g_assert_cmpstr (clarify_question_get_text (en), ==, "Which city?");
  g_assert_cmpstr (clarify_question_get_header (en), ==, "City");
  g_assert_cmpstr (clarify_question_get_placeholder (en), ==, "Another city");
  g_assert_cmpstr (clarify_question_get_validation (en)->message, ==, "Letters only");
  clarify_test_assert_option (en, 0, "Cologne", "cgn", NULL);
}

static void
test_unknown_kind (void)
{
  g_autoptr(JsonNode) node = parse ("{\"id\":\"f\",\"question\":\"Upload it\",\"inputType\":\"file\"}");
  g_autoptr(ClarifyQuestion) question = NULL;
  g_auto(GStrv) log = NULL;
  const char * const expected[] = { "WARNING: Question f has the unknown kind “file”; showing it as text", NULL };

  clarify_test_log_start ();
  question = question_from (node, 0, english);
  log = clarify_test_log_stop ();

  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstrv (log, expected);
}

static void
test_flags_and_defaults (void)
{
  static const struct {
    const char          *json;
    ClarifyQuestionKind  kind;
    gboolean             skippable;
    gboolean             allow_other;
    const char          *defaults;   /* joined with '|' */
  } cases[] = {
    { "{\"text\":\"t\",\"kind\":\"select\",\"multiple\":true,\"options\":[\"a\",\"b\"]}", CLARIFY_QUESTION_KIND_MULTI, FALSE, FALSE, "" },
    { "{\"text\":\"t\",\"multiSelect\":true,\"options\":[\"a\"]}", CLARIFY_QUESTION_KIND_MULTI, FALSE, FALSE, "" },
    /* multiple does not turn free text into a choice. */
    { "{\"text\":\"t\",\"kind\":\"text\",\"multiple\":true}", CLARIFY_QUESTION_KIND_TEXT, FALSE, FALSE, "" },
    { "{\"text\":\"t\",\"kind\":\"multi\",\"multiple\":false,\"options\":[\"a\"]}", CLARIFY_QUESTION_KIND_MULTI, FALSE, FALSE, "" },
    { "{\"text\":\"t\",\"multiple\":true,\"allowOther\":true}", CLARIFY_QUESTION_KIND_MULTI, FALSE, TRUE, "" },
    { "{\"text\":\"t\",\"custom\":true,\"options\":[\"a\"]}", CLARIFY_QUESTION_KIND_SINGLE, FALSE, TRUE, "" },
    { "{\"text\":\"t\",\"allow_skip\":true}", CLARIFY_QUESTION_KIND_TEXT, TRUE, FALSE, "" },
    { "{\"text\":\"t\",\"allowSkip\":true}", CLARIFY_QUESTION_KIND_TEXT, TRUE, FALSE, "" },
    { "{\"text\":\"t\",\"skippable\":\"yes\"}", CLARIFY_QUESTION_KIND_TEXT, FALSE, FALSE, "" },
    { "{\"text\":\"t\",\"kind\":\"confirm\",\"default\":true}", CLARIFY_QUESTION_KIND_CONFIRM, FALSE, FALSE, "yes" },
    { "{\"text\":\"t\",\"kind\":\"confirm\",\"default\":false}", CLARIFY_QUESTION_KIND_CONFIRM, FALSE, FALSE, "no" },
    { "{\"text\":\"t\",\"kind\":\"number\",\"default\":42}", CLARIFY_QUESTION_KIND_NUMBER, FALSE, FALSE, "42" },
    { "{\"text\":\"t\",\"kind\":\"number\",\"default\":2.5}", CLARIFY_QUESTION_KIND_NUMBER, FALSE, FALSE, "2.5" },
    { "{\"text\":\"t\",\"kind\":\"multi\",\"options\":[\"a\",\"b\"],\"default\":[\"a\",\"b\"]}", CLARIFY_QUESTION_KIND_MULTI, FALSE, FALSE, "a|b" },
    { "{\"text\":\"t\",\"kind\":\"date_range\",\"default\":{\"start\":\"2026-01-01\",\"end\":\"2026-01-31\"}}", CLARIFY_QUESTION_KIND_DATE_RANGE, FALSE, FALSE, "2026-01-01|2026-01-31" },
    { "{\"text\":\"t\",\"default\":{\"en\":\"hello\",\"de\":\"hallo\"}}", CLARIFY_QUESTION_KIND_TEXT, FALSE, FALSE, "hello" },
    { "{\"text\":\"t\",\"default\":null}", CLARIFY_QUESTION_KIND_TEXT, FALSE, FALSE, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = parse (cases[i].json);
      g_autoptr(ClarifyQuestion) question = question_from (node, 0, english);
      g_autofree char *defaults = NULL;

      g_test_message ("%s", cases[i].json);
      g_assert_cmpint (clarify_question_get_kind (question), ==, cases[i].kind);
      g_assert_cmpint (clarify_question_get_skippable (question), ==, cases[i].skippable);
      g_assert_cmpint (clarify_question_get_allow_other (question), ==, cases[i].allow_other);
      defaults = g_strjoinv ("|", (char **) clarify_question_get_default_values (question));
      g_assert_cmpstr (defaults, ==, cases[i].defaults);
    }
}

static void
test_validation_members (void)
{
  g_autoptr(JsonNode) node = parse ("{\"text\":\"How many?\",\"kind\":\"number\",\"validation\":"
                                    "{\"min\":\"1.5\",\"max\":10,\"step\":0.5,\"minLength\":3,\"max_length\":9,\"pattern\":\"\"}}");
  g_autoptr(ClarifyQuestion) question = question_from (node, 0, english);
  const ClarifyValidation *v = clarify_question_get_validation (question);

  /* iHub coerces with Number(): numeric text counts. */
  g_assert_true (v->has_min);
  g_assert_cmpfloat (v->min, ==, 1.5);
  g_assert_true (v->has_max);
  g_assert_cmpfloat (v->max, ==, 10);
  g_assert_cmpfloat (v->step, ==, 0.5);
  g_assert_cmpint (v->min_length, ==, 3);
  g_assert_cmpint (v->max_length, ==, 9);
  g_assert_null (v->pattern);
  g_assert_null (v->message);
}

static void
test_errors (void)
{
  static const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{\"kind\":\"text\"}", "question q1 has no text" },
    { "{\"id\":\"x\",\"question\":42}", "question x has no text" },
    { "{\"text\":\"t\",\"options\":{\"a\":1}}", "the options of question q1 must be an array" },
    { "{\"text\":\"t\",\"options\":[\"a\",[\"b\"]]}", "option 2 of question q1: an option must be a string or an object with a label" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = parse (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyQuestion) question = NULL;

      question = clarify_question_new_from_json_object (json_node_get_object (node), 0, english, &error);
      g_assert_null (question);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/normalize/kind-names", test_kind_names);
  g_test_add_func ("/normalize/localized-text", test_localized_text);
  g_test_add_func ("/normalize/localized-text/environment", test_localized_text_from_environment);
  g_test_add_func ("/normalize/options", test_options);
  g_test_add_func ("/normalize/ihub", test_ihub);
  g_test_add_func ("/normalize/opencode", test_opencode);
  g_test_add_func ("/normalize/ask-user", test_ask_user);
  g_test_add_func ("/normalize/claude-ag3ntum-phoenix", test_claude_shapes);
  g_test_add_func ("/normalize/localized-question", test_localized_question);
  g_test_add_func ("/normalize/unknown-kind", test_unknown_kind);
  g_test_add_func ("/normalize/flags-and-defaults", test_flags_and_defaults);
  g_test_add_func ("/normalize/validation-members", test_validation_members);
  g_test_add_func ("/normalize/errors", test_errors);

  return g_test_run ();
}
