/* clarify-json.c
 *
 * The form is documented in docs/json-form.md. Decoding is strict about
 * types (the senders are programs we document for), while the questions
 * themselves go through the same normalizer as every other backend, so
 * aliases such as "question" or "multi_select" are understood as well.
 *
 * Error messages go back to the sender (the demo agent, the CLI, a D-Bus
 * caller), so they are English and name the member that is wrong.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-normalize.h"
#include "clarify-validate.h"

static gboolean
holds_type (JsonNode *node,
            GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
holds_number (JsonNode *node)
{
  return holds_type (node, G_TYPE_INT64) || holds_type (node, G_TYPE_DOUBLE);
}

/* An optional text member: absent or null gives NULL; a string or a
 * localized object gives the text; anything else is an error. */
static gboolean
get_text (JsonObject  *object,
          const char  *member,
          char       **out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  *out = clarify_localized_text (node, NULL);
  if (*out == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "%s must be a string", member);
      return FALSE;
    }

  return TRUE;
}

static gboolean
get_boolean (JsonObject *object,
             const char *member,
             gboolean   *out,
             GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!holds_type (node, G_TYPE_BOOLEAN))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "%s must be true or false", member);
      return FALSE;
    }

  *out = json_node_get_boolean (node);

  return TRUE;
}

/* A required non-empty string, such as an id. */
static gboolean
get_id (JsonObject  *object,
        const char  *member,
        const char **out,
        GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !holds_type (node, G_TYPE_STRING) || json_node_get_string (node)[0] == '\0')
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "%s must be a non-empty string", member);
      return FALSE;
    }

  *out = json_node_get_string (node);

  return TRUE;
}

/* A deadline the agent got wrong costs the user no question: it is shown
 * without a countdown, and the log says why. */
static guint
get_timeout (JsonObject *object,
             const char *id)
{
  const char *member = json_object_has_member (object, "timeout_ms") ? "timeout_ms" : "timeout";
  JsonNode *node = json_object_get_member (object, member);
  const char *why = NULL;
  double value;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return 0;

  value = holds_number (node) ? json_node_get_double (node) : NAN;
  if (!isfinite (value))
    why = "is not a number of milliseconds";
  else if (value < 0)
    why = "is negative";
  else if (value > 0 && value < 1)
    why = "is less than one millisecond";
  else if (value > G_MAXUINT)
    why = "is more than 4294967295 ms (49 days)";

  if (why != NULL)
    {
      g_message ("Request %s: its %s %s; it is shown without a countdown", id, member, why);
      return 0;
    }

  return (guint) round (value);
}

/* Written by Clarify when it cut a list (the CLI hands the cut request on
 * to the app), so that the dialog still says so. */
static void
read_options_left_out (ClarifyQuestion *question,
                       JsonObject      *object)
{
  JsonNode *node = json_object_get_member (object, "options_left_out");
  double value = node != NULL && holds_number (node) ? json_node_get_double (node) : 0;

  if (value >= 1 && value <= G_MAXUINT)
    clarify_question_set_n_options_left_out (question, (guint) value);
}

ClarifyRequest *
clarify_request_new_from_json (JsonNode  *node,
                               GError   **error)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autofree char *title = NULL;
  g_autofree char *context = NULL;
  g_autofree char *project = NULL;
  g_autofree char *session = NULL;
  g_autofree char *caller = NULL;
  gboolean skippable = FALSE;
  gboolean cancellable = TRUE;
  guint timeout_ms;
  JsonObject *object;
  const char *id;
  JsonNode *questions;
  JsonArray *array;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "a request must be a JSON object");
      return NULL;
    }

  object = json_node_get_object (node);

  if (!get_id (object, "id", &id, error) ||
      !get_text (object, "title", &title, error) ||
      !get_text (object, "context", &context, error) ||
      !get_text (object, "project", &project, error) ||
      !get_text (object, "session", &session, error) ||
      !get_text (object, "caller", &caller, error) ||
      !get_boolean (object, "skippable", &skippable, error) ||
      !get_boolean (object, "cancellable", &cancellable, error))
    return NULL;
  timeout_ms = get_timeout (object, id);

  questions = json_object_get_member (object, "questions");
  if (questions == NULL || !JSON_NODE_HOLDS_ARRAY (questions))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "questions must be an array");
      return NULL;
    }

  request = clarify_request_new (id);
  clarify_request_set_title (request, title);
  clarify_request_set_context (request, context);
  clarify_request_set_project (request, project);
  clarify_request_set_session (request, session);
  clarify_request_set_caller (request, caller);
  clarify_request_set_timeout_ms (request, timeout_ms);
  clarify_request_set_skippable (request, skippable);
  clarify_request_set_cancellable (request, cancellable);

  array = json_node_get_array (questions);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autoptr(ClarifyQuestion) question = NULL;
      g_autoptr(GError) local_error = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "questions[%u] must be an object", i);
          return NULL;
        }

      question = clarify_question_new_from_json_object (json_node_get_object (element), i, NULL, &local_error);
      if (question == NULL)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "questions[%u]: %s", i, local_error->message);
          return NULL;
        }

      read_options_left_out (question, json_node_get_object (element));
      clarify_request_add_question (request, question);
    }

  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

ClarifyRequest *
clarify_request_new_from_data (const char  *data,
                               gssize       length,
                               GError     **error)
{
  g_autoptr(JsonNode) root = clarify_json_parse (data, length, error);

  if (root == NULL)
    return NULL;

  return clarify_request_new_from_json (root, error);
}

void
clarify_json_add_string_member (JsonBuilder *builder,
                                const char  *member,
                                const char  *value)
{
  if (value == NULL)
    return;

  json_builder_set_member_name (builder, member);
  json_builder_add_string_value (builder, value);
}

/* Whole numbers as integers (1, not 1.0), so the text reads like the input. */
static void
add_number_member (JsonBuilder *builder,
                   const char  *member,
                   double       value)
{
  json_builder_set_member_name (builder, member);

  if (value == floor (value) && fabs (value) < 1e15)
    json_builder_add_int_value (builder, (gint64) value);
  else
    json_builder_add_value (builder, clarify_json_node_new_double (value));
}

static void
add_validation (JsonBuilder             *builder,
                const ClarifyValidation *validation)
{
  if (validation->pattern == NULL && validation->message == NULL &&
      !validation->has_min && !validation->has_max && validation->step == 0 &&
      validation->min_length < 0 && validation->max_length < 0)
    return;

  json_builder_set_member_name (builder, "validation");
  json_builder_begin_object (builder);
  clarify_json_add_string_member (builder, "pattern", validation->pattern);
  clarify_json_add_string_member (builder, "message", validation->message);
  if (validation->has_min)
    add_number_member (builder, "min", validation->min);
  if (validation->has_max)
    add_number_member (builder, "max", validation->max);
  if (validation->min_length >= 0)
    add_number_member (builder, "min_length", validation->min_length);
  if (validation->max_length >= 0)
    add_number_member (builder, "max_length", validation->max_length);
  if (validation->step != 0)
    add_number_member (builder, "step", validation->step);
  json_builder_end_object (builder);
}

static void
add_question (JsonBuilder     *builder,
              ClarifyQuestion *question)
{
  ClarifyQuestionKind kind = clarify_question_get_kind (question);
  const char * const *defaults = clarify_question_get_default_values (question);
  guint n_options = clarify_question_get_n_options (question);

  json_builder_begin_object (builder);
  clarify_json_add_string_member (builder, "id", clarify_question_get_id (question));
  clarify_json_add_string_member (builder, "text", clarify_question_get_text (question));
  clarify_json_add_string_member (builder, "header", clarify_question_get_header (question));
  clarify_json_add_string_member (builder, "kind", clarify_question_kind_to_string (kind));

  if (n_options > 0)
    {
      json_builder_set_member_name (builder, "options");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n_options; i++)
        {
          ClarifyOption *option = clarify_question_get_option (question, i);
          const char *label = clarify_option_get_label (option);
          const char *value = clarify_option_get_value (option);

          json_builder_begin_object (builder);
          clarify_json_add_string_member (builder, "label", label);
          /* The value defaults to the label; spell it out only when it differs. */
          if (!g_str_equal (label, value))
            clarify_json_add_string_member (builder, "value", value);
          clarify_json_add_string_member (builder, "description", clarify_option_get_description (option));
          clarify_json_add_string_member (builder, "preview", clarify_option_get_preview (option));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  if (clarify_question_get_n_options_left_out (question) > 0)
    add_number_member (builder, "options_left_out", clarify_question_get_n_options_left_out (question));

  if (clarify_question_get_allow_other (question))
    {
      json_builder_set_member_name (builder, "allow_other");
      json_builder_add_boolean_value (builder, TRUE);
    }

  if (clarify_question_get_skippable (question))
    {
      json_builder_set_member_name (builder, "skippable");
      json_builder_add_boolean_value (builder, TRUE);
    }

  if (clarify_question_get_multi_line (question))
    {
      json_builder_set_member_name (builder, "multiline");
      json_builder_add_boolean_value (builder, TRUE);
    }

  if (clarify_question_get_takes_note (question))
    {
      json_builder_set_member_name (builder, "notes");
      json_builder_add_boolean_value (builder, TRUE);
    }

  clarify_json_add_string_member (builder, "placeholder", clarify_question_get_placeholder (question));
  clarify_json_add_string_member (builder, "subject", clarify_question_get_subject (question));
  add_validation (builder, clarify_question_get_validation (question));

  if (defaults[0] != NULL)
    {
      json_builder_set_member_name (builder, "default");
      /* One value is a plain string, except for the kinds that always take a list. */
      if (defaults[1] == NULL && kind != CLARIFY_QUESTION_KIND_MULTI && kind != CLARIFY_QUESTION_KIND_DATE_RANGE)
        {
          json_builder_add_string_value (builder, defaults[0]);
        }
      else
        {
          json_builder_begin_array (builder);
          for (guint i = 0; defaults[i] != NULL; i++)
            json_builder_add_string_value (builder, defaults[i]);
          json_builder_end_array (builder);
        }
    }

  json_builder_end_object (builder);
}

JsonNode *
clarify_request_to_json (ClarifyRequest *request)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  guint n;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  json_builder_begin_object (builder);
  clarify_json_add_string_member (builder, "id", clarify_request_get_id (request));
  clarify_json_add_string_member (builder, "title", clarify_request_get_title (request));
  clarify_json_add_string_member (builder, "context", clarify_request_get_context (request));
  clarify_json_add_string_member (builder, "project", clarify_request_get_project (request));
  clarify_json_add_string_member (builder, "session", clarify_request_get_session (request));
  clarify_json_add_string_member (builder, "caller", clarify_request_get_caller (request));

  if (clarify_request_get_timeout_ms (request) > 0)
    {
      json_builder_set_member_name (builder, "timeout_ms");
      json_builder_add_int_value (builder, clarify_request_get_timeout_ms (request));
    }

  if (clarify_request_get_skippable (request))
    {
      json_builder_set_member_name (builder, "skippable");
      json_builder_add_boolean_value (builder, TRUE);
    }

  if (!clarify_request_get_cancellable (request))
    {
      json_builder_set_member_name (builder, "cancellable");
      json_builder_add_boolean_value (builder, FALSE);
    }

  json_builder_set_member_name (builder, "questions");
  json_builder_begin_array (builder);
  n = clarify_request_get_n_questions (request);
  for (guint i = 0; i < n; i++)
    add_question (builder, clarify_request_get_question (request, i));
  json_builder_end_array (builder);

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static gboolean
parse_answer (ClarifyResponse  *response,
              JsonNode         *node,
              guint             index,
              GError          **error)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  const char *question_id;
  const char *custom_text = NULL;
  gboolean skipped = FALSE;
  JsonObject *object;
  JsonNode *member;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "answers[%u] must be an object", index);
      return FALSE;
    }

  object = json_node_get_object (node);

  if (!get_id (object, "question_id", &question_id, error) ||
      !get_boolean (object, "skipped", &skipped, error))
    {
      g_prefix_error (error, "answers[%u].", index);
      return FALSE;
    }

  member = json_object_get_member (object, "values");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    {
      JsonArray *array = JSON_NODE_HOLDS_ARRAY (member) ? json_node_get_array (member) : NULL;

      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (!holds_type (element, G_TYPE_STRING))
            {
              array = NULL;
              break;
            }
          g_ptr_array_add (values, (gpointer) json_node_get_string (element));
        }

      if (array == NULL)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "answers[%u].values must be an array of strings", index);
          return FALSE;
        }
    }
  g_ptr_array_add (values, NULL);

  member = json_object_get_member (object, "custom_text");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    {
      if (!holds_type (member, G_TYPE_STRING))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "answers[%u].custom_text must be a string", index);
          return FALSE;
        }
      custom_text = json_node_get_string (member);
    }

  member = json_object_get_member (object, "note");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member) && !holds_type (member, G_TYPE_STRING))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "answers[%u].note must be a string", index);
      return FALSE;
    }

  clarify_response_add_answer (response, question_id, (const char * const *) values->pdata,
                               custom_text, skipped);
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    clarify_response_set_note (response, question_id, json_node_get_string (member));

  return TRUE;
}

ClarifyResponse *
clarify_response_new_from_json (JsonNode  *node,
                                GError   **error)
{
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyOutcome outcome;
  JsonObject *object;
  const char *id;
  JsonNode *member;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "a response must be a JSON object");
      return NULL;
    }

  object = json_node_get_object (node);

  if (!get_id (object, "id", &id, error))
    return NULL;

  member = json_object_get_member (object, "outcome");
  if (member == NULL || !holds_type (member, G_TYPE_STRING) ||
      !clarify_outcome_from_string (json_node_get_string (member), &outcome))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "outcome must be one of answered, skipped, cancelled, timed_out");
      return NULL;
    }

  response = clarify_response_new (id, outcome);

  member = json_object_get_member (object, "answers");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (member))
        {
          g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                               "answers must be an array");
          return NULL;
        }

      array = json_node_get_array (member);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          if (!parse_answer (response, json_array_get_element (array, i), i, error))
            return NULL;
        }
    }

  return g_steal_pointer (&response);
}

ClarifyResponse *
clarify_response_new_from_data (const char  *data,
                                gssize       length,
                                GError     **error)
{
  g_autoptr(JsonNode) root = clarify_json_parse (data, length, error);

  if (root == NULL)
    return NULL;

  return clarify_response_new_from_json (root, error);
}

JsonNode *
clarify_response_to_json (ClarifyResponse *response)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  guint n;

  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), NULL);

  json_builder_begin_object (builder);
  clarify_json_add_string_member (builder, "id", clarify_response_get_request_id (response));
  clarify_json_add_string_member (builder, "outcome", clarify_outcome_to_string (clarify_response_get_outcome (response)));

  json_builder_set_member_name (builder, "answers");
  json_builder_begin_array (builder);
  n = clarify_response_get_n_answers (response);
  for (guint i = 0; i < n; i++)
    {
      const ClarifyAnswer *answer = clarify_response_get_answer (response, i);

      json_builder_begin_object (builder);
      clarify_json_add_string_member (builder, "question_id", answer->question_id);
      json_builder_set_member_name (builder, "values");
      json_builder_begin_array (builder);
      for (guint j = 0; answer->values[j] != NULL; j++)
        json_builder_add_string_value (builder, answer->values[j]);
      json_builder_end_array (builder);
      clarify_json_add_string_member (builder, "custom_text", answer->custom_text);
      clarify_json_add_string_member (builder, "note", answer->note);
      if (answer->skipped)
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
