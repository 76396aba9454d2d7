/* clarify-ask-user.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-ask-user.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-validate.h"

/* Seed 001's inputSchema, member for member; the description and _meta are
 * ours. Claude Code offers MCP tools only through its ToolSearch, which
 * scores the words of a query against the tool's name, its description and
 * _meta's "anthropic/searchHint" (whole words): "ask the user", "clarifying
 * question" and "user input" must each find it. */
static const char tool_json[] =
  "{"
  "\"name\":\"ask_user\","
  "\"description\":\"Ask the user a clarifying question and wait for the answer, in a native "
  "desktop dialog (Clarify). Use this tool when you need user input, a decision, a choice between "
  "options, a missing detail or a confirmation before proceeding. One call can ask several "
  "questions: free text, select, multi-select or a yes/no confirm. The tool blocks until the user "
  "answers, cancels, or the timeout passes.\","
  "\"_meta\":{\"anthropic/searchHint\":\"ask the user a clarifying question, get user input, "
  "a choice or a confirmation\"},"
  "\"inputSchema\":{"
    "\"type\":\"object\","
    "\"properties\":{"
      "\"questions\":{"
        "\"type\":\"array\","
        "\"description\":\"Array of questions to ask the user\","
        "\"items\":{\"$ref\":\"#/definitions/QuestionInfo\"},"
        "\"minItems\":1,"
        "\"maxItems\":10"
      "},"
      "\"title\":{"
        "\"type\":\"string\","
        "\"description\":\"Optional title for the question dialog\","
        "\"maxLength\":100"
      "},"
      "\"timeout\":{"
        "\"type\":\"integer\","
        "\"description\":\"Timeout in milliseconds (default: 300000 = 5 minutes)\","
        "\"minimum\":10000,"
        "\"maximum\":1800000,"
        "\"default\":300000"
      "}"
    "},"
    "\"required\":[\"questions\"],"
    "\"definitions\":{"
      "\"QuestionInfo\":{"
        "\"type\":\"object\","
        "\"properties\":{"
          "\"id\":{\"type\":\"string\",\"description\":\"Optional unique ID for this question\"},"
          "\"question\":{\"type\":\"string\",\"description\":\"The question text to display\"},"
          "\"type\":{"
            "\"type\":\"string\","
            "\"enum\":[\"text\",\"select\",\"multi-select\",\"confirm\"],"
            "\"default\":\"text\","
            "\"description\":\"Type of input to collect\""
          "},"
          "\"options\":{"
            "\"type\":\"array\","
            "\"items\":{\"type\":\"string\"},"
            "\"description\":\"Options for select/multi-select types\""
          "},"
          "\"required\":{"
            "\"type\":\"boolean\","
            "\"default\":true,"
            "\"description\":\"Whether an answer is required\""
          "},"
          "\"placeholder\":{\"type\":\"string\",\"description\":\"Placeholder text for text inputs\"}"
        "},"
        "\"required\":[\"question\"]"
      "}"
    "}"
  "}"
  "}";

JsonNode *
clarify_ask_user_get_tool (void)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  node = json_from_string (tool_json, &error);
  g_assert_no_error (error);

  return node;
}

/* A test-only environment variable, read once into *@value: @fallback
 * unless @variable holds a number from 1 to @fallback. Nothing else sets
 * these, and they can only make a value smaller. */
static guint
get_test_knob (gsize      *initialized,
               guint      *value,
               const char *variable,
               guint       fallback)
{
  if (g_once_init_enter (initialized))
    {
      const char *text = g_getenv (variable);
      guint64 parsed;

      if (text != NULL && g_ascii_string_to_unsigned (text, 10, 1, fallback, &parsed, NULL))
        *value = (guint) parsed;
      else
        *value = fallback;

      g_once_init_leave (initialized, 1);
    }

  return *value;
}

guint
clarify_ask_user_get_min_timeout (void)
{
  static gsize initialized;
  static guint min_timeout;

  /* Lets tests see a timeout without waiting ten seconds. */
  return get_test_knob (&initialized, &min_timeout,
                        "CLARIFY_MCP_TEST_MIN_TIMEOUT_MS", CLARIFY_ASK_USER_MIN_TIMEOUT_MS);
}

guint
clarify_ask_user_get_progress_interval (void)
{
  static gsize initialized;
  static guint interval;

  /* Lets tests see several notifications without waiting a minute. */
  return get_test_knob (&initialized, &interval,
                        "CLARIFY_MCP_TEST_PROGRESS_INTERVAL_MS", CLARIFY_ASK_USER_PROGRESS_INTERVAL_MS);
}

static gboolean
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, message);

  return FALSE;
}

/* Returns the member if present; FALSE (with @error) when it has the wrong type. */
static gboolean
get_optional_string (JsonObject  *object,
                     const char  *member,
                     const char **value,
                     const char  *what,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *value = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return invalid (error, "%s must be a string", what);

  *value = json_node_get_string (node);

  return TRUE;
}

static gboolean
kind_from_type (const char          *type,
                ClarifyQuestionKind *kind)
{
  static const struct {
    const char          *name;
    ClarifyQuestionKind  kind;
  } kinds[] = {
    { "text", CLARIFY_QUESTION_KIND_TEXT },
    { "select", CLARIFY_QUESTION_KIND_SINGLE },
    { "multi-select", CLARIFY_QUESTION_KIND_MULTI },
    { "confirm", CLARIFY_QUESTION_KIND_CONFIRM },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      if (g_strcmp0 (type, kinds[i].name) == 0)
        {
          *kind = kinds[i].kind;
          return TRUE;
        }
    }

  return FALSE;
}

static char *
generate_question_id (GHashTable *used_ids)
{
  for (;;)
    {
      char *id = g_strdup_printf ("q_%08x", g_random_int ());

      if (!g_hash_table_contains (used_ids, id))
        return id;

      g_free (id);
    }
}

static ClarifyQuestion *
parse_question (JsonNode    *node,
                guint        position,
                const char  *id,
                GError     **error)
{
  g_autoptr(ClarifyQuestion) question = NULL;
  g_autofree char *trimmed = NULL;
  ClarifyQuestionKind kind = CLARIFY_QUESTION_KIND_TEXT;
  JsonObject *object = json_node_get_object (node);
  JsonNode *options;
  JsonNode *required;
  const char *text;
  const char *type;
  const char *placeholder;

  if (!get_optional_string (object, "question", &text, "question", error))
    return NULL;

  trimmed = g_strstrip (g_strdup (text != NULL ? text : ""));
  if (*trimmed == '\0')
    {
      invalid (error, "question text is required (question %u)", position + 1);
      return NULL;
    }

  if (g_utf8_strlen (text, -1) > CLARIFY_ASK_USER_MAX_QUESTION_CHARS)
    {
      invalid (error, "question text exceeds maximum of %d characters (question %u)",
               CLARIFY_ASK_USER_MAX_QUESTION_CHARS, position + 1);
      return NULL;
    }

  if (!get_optional_string (object, "type", &type, "type", error))
    return NULL;

  if (type != NULL && !kind_from_type (type, &kind))
    {
      invalid (error, "type must be one of text, select, multi-select, confirm (question %u)",
               position + 1);
      return NULL;
    }

  if (!get_optional_string (object, "placeholder", &placeholder, "placeholder", error))
    return NULL;

  question = clarify_question_new (id, kind, text);
  clarify_question_set_placeholder (question, placeholder);

  required = json_object_get_member (object, "required");
  if (required != NULL && !JSON_NODE_HOLDS_NULL (required))
    {
      if (!JSON_NODE_HOLDS_VALUE (required) || json_node_get_value_type (required) != G_TYPE_BOOLEAN)
        {
          invalid (error, "required must be a boolean (question %u)", position + 1);
          return NULL;
        }
      clarify_question_set_skippable (question, !json_node_get_boolean (required));
    }

  options = json_object_get_member (object, "options");
  if (options != NULL && !JSON_NODE_HOLDS_NULL (options) && !JSON_NODE_HOLDS_ARRAY (options))
    {
      invalid (error, "options must be an array of strings (question %u)", position + 1);
      return NULL;
    }

  if (kind == CLARIFY_QUESTION_KIND_SINGLE || kind == CLARIFY_QUESTION_KIND_MULTI)
    {
      JsonArray *array = options != NULL && JSON_NODE_HOLDS_ARRAY (options) ? json_node_get_array (options) : NULL;
      guint n_options = array != NULL ? json_array_get_length (array) : 0;

      if (n_options == 0)
        {
          invalid (error, "Options required for select/multi-select (question %u)", position + 1);
          return NULL;
        }

      for (guint i = 0; i < n_options; i++)
        {
          JsonNode *option = json_array_get_element (array, i);
          g_autoptr(ClarifyOption) item = NULL;

          if (!JSON_NODE_HOLDS_VALUE (option) || json_node_get_value_type (option) != G_TYPE_STRING)
            {
              invalid (error, "options must be an array of strings (question %u)", position + 1);
              return NULL;
            }

          item = clarify_option_new (json_node_get_string (option), NULL, NULL);
          clarify_question_add_option (question, item);
        }

      /* The agent's list may miss what the user wants to say: "Other…"
       * comes back as customText, as in CodeNomad's wizard. */
      clarify_question_set_allow_other (question, TRUE);
    }

  return g_steal_pointer (&question);
}

static gboolean
parse_timeout (JsonObject  *object,
               guint       *timeout_ms,
               GError     **error)
{
  JsonNode *node = json_object_get_member (object, "timeout");
  guint min_timeout = clarify_ask_user_get_min_timeout ();
  double value;

  *timeout_ms = CLARIFY_ASK_USER_DEFAULT_TIMEOUT_MS;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_INT64 &&
       json_node_get_value_type (node) != G_TYPE_DOUBLE))
    return invalid (error, "timeout must be an integer between %u and %d",
                    min_timeout, CLARIFY_ASK_USER_MAX_TIMEOUT_MS);

  value = json_node_get_double (node);
  /* The range first: only then does the value fit the integer it is checked against. */
  if (value < min_timeout ||
      value > CLARIFY_ASK_USER_MAX_TIMEOUT_MS ||
      value != (double) (gint64) value)
    return invalid (error, "timeout must be an integer between %u and %d",
                    min_timeout, CLARIFY_ASK_USER_MAX_TIMEOUT_MS);

  *timeout_ms = (guint) value;

  return TRUE;
}

ClarifyRequest *
clarify_ask_user_parse (JsonNode    *arguments,
                        const char  *request_id,
                        GError     **error)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GHashTable) used_ids = NULL;
  g_autoptr(GPtrArray) questions = NULL;
  JsonObject *object;
  JsonNode *questions_node;
  JsonArray *array;
  const char *title;
  guint timeout_ms;
  guint n_questions;

  g_return_val_if_fail (request_id != NULL, NULL);

  if (arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    {
      invalid (error, "arguments must be an object");
      return NULL;
    }

  object = json_node_get_object (arguments);

  questions_node = json_object_get_member (object, "questions");
  if (questions_node == NULL || JSON_NODE_HOLDS_NULL (questions_node))
    {
      invalid (error, "questions is required");
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (questions_node))
    {
      invalid (error, "questions must be an array");
      return NULL;
    }

  array = json_node_get_array (questions_node);
  n_questions = json_array_get_length (array);

  if (n_questions < 1)
    {
      invalid (error, "questions array must have at least 1 item");
      return NULL;
    }
  if (n_questions > CLARIFY_ASK_USER_MAX_QUESTIONS)
    {
      invalid (error, "questions array exceeds maximum of %d", CLARIFY_ASK_USER_MAX_QUESTIONS);
      return NULL;
    }

  if (!get_optional_string (object, "title", &title, "title", error))
    return NULL;
  if (title != NULL && g_utf8_strlen (title, -1) > CLARIFY_ASK_USER_MAX_TITLE_CHARS)
    {
      invalid (error, "title exceeds maximum of %d characters", CLARIFY_ASK_USER_MAX_TITLE_CHARS);
      return NULL;
    }

  if (!parse_timeout (object, &timeout_ms, error))
    return NULL;

  /* Given ids first, so that a generated one never collides with them. */
  used_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n_questions; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      const char *id;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          invalid (error, "question %u must be an object", i + 1);
          return NULL;
        }

      if (!get_optional_string (json_node_get_object (node), "id", &id, "id", error))
        return NULL;

      if (id == NULL || *id == '\0')
        continue;

      if (g_hash_table_contains (used_ids, id))
        {
          invalid (error, "question ids must be unique (\"%s\" repeats)", id);
          return NULL;
        }
      g_hash_table_add (used_ids, g_strdup (id));
    }

  request = clarify_request_new (request_id);
  clarify_request_set_title (request, title);
  clarify_request_set_timeout_ms (request, timeout_ms);
  clarify_request_set_cancellable (request, TRUE);

  questions = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_questions; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      const char *given_id = clarify_json_get_string_member (json_node_get_object (node), "id");
      g_autofree char *id = NULL;
      ClarifyQuestion *question;

      if (given_id != NULL && *given_id != '\0')
        id = g_strdup (given_id);
      else
        {
          id = generate_question_id (used_ids);
          g_hash_table_add (used_ids, g_strdup (id));
        }

      question = parse_question (node, i, id, error);
      if (question == NULL)
        return NULL;

      clarify_request_add_question (request, question);
      g_object_unref (question);
    }

  /* The caps and visible marks every other way in applies. */
  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

JsonNode *
clarify_ask_user_build_output (ClarifyRequest  *request,
                               ClarifyResponse *response)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  ClarifyOutcome outcome = clarify_response_get_outcome (response);
  gboolean answered = outcome == CLARIFY_OUTCOME_ANSWERED || outcome == CLARIFY_OUTCOME_SKIPPED;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "answered");
  json_builder_add_boolean_value (builder, answered);
  json_builder_set_member_name (builder, "cancelled");
  json_builder_add_boolean_value (builder, outcome == CLARIFY_OUTCOME_CANCELLED);
  json_builder_set_member_name (builder, "timedOut");
  json_builder_add_boolean_value (builder, outcome == CLARIFY_OUTCOME_TIMED_OUT);
  json_builder_set_member_name (builder, "answers");
  json_builder_begin_array (builder);

  /* One entry per question, in the caller's order; none unless answered. */
  for (guint i = 0; answered && i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      const char *id = clarify_question_get_id (question);
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, id);
      gboolean skipped = answer == NULL || answer->skipped || outcome == CLARIFY_OUTCOME_SKIPPED;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "questionId");
      json_builder_add_string_value (builder, id);
      json_builder_set_member_name (builder, "values");
      json_builder_begin_array (builder);
      for (guint j = 0; !skipped && answer->values != NULL && answer->values[j] != NULL; j++)
        json_builder_add_string_value (builder, answer->values[j]);
      json_builder_end_array (builder);
      if (!skipped && answer->custom_text != NULL)
        {
          json_builder_set_member_name (builder, "customText");
          json_builder_add_string_value (builder, answer->custom_text);
        }
      if (skipped)
        {
          json_builder_set_member_name (builder, "skipped");
          json_builder_add_boolean_value (builder, TRUE);
        }
      json_builder_end_object (builder);
    }

  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

JsonNode *
clarify_ask_user_tool_result (const char *text,
                              gboolean    is_error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "content");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "text");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  if (is_error)
    {
      json_builder_set_member_name (builder, "isError");
      json_builder_add_boolean_value (builder, TRUE);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
