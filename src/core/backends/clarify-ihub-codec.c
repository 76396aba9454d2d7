/* clarify-ihub-codec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "clarify-error.h"
#include "clarify-ihub-codec.h"
#include "clarify-json.h"
#include "clarify-normalize.h"
#include "clarify-validate.h"

/* JSON.stringify */

static void
write_number (GString *out,
              double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }

  /* JavaScript prints integral numbers without a fraction … */
  if (value == floor (value) && fabs (value) < 1e21)
    {
      g_string_append_printf (out, "%.0f", value);
      return;
    }

  /* … and others with the fewest digits that read back the same. */
  for (int precision = 1; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  g_string_append (out, buffer);
}

static void
write_string (GString    *out,
              const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static void
write_node (GString  *out,
            JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            write_string (out, name);
            g_string_append_c (out, ':');
            write_node (out, member);
          }
        g_string_append_c (out, '}');
        break;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        g_string_append_c (out, '[');
        for (guint i = 0; i < json_array_get_length (array); i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            write_node (out, json_array_get_element (array, i));
          }
        g_string_append_c (out, ']');
        break;
      }

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          write_string (out, json_node_get_string (node));
          break;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;
        default:
          write_number (out, json_node_get_double (node));
          break;
        }
      break;

    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

char *
clarify_ihub_json_stringify (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (node != NULL, NULL);

  write_node (out, node);
  return g_string_free (out, FALSE);
}

/* String(value) of JavaScript, for the scalars and arrays an answer holds. */
static char *
js_string (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      GString *out = g_string_new (NULL);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *item = js_string (json_array_get_element (array, i));

          if (i > 0)
            g_string_append_c (out, ',');
          g_string_append (out, item);
        }
      return g_string_free (out, FALSE);
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup ("[object Object]");

  return clarify_ihub_json_stringify (node);
}

/* Request */

ClarifyRequest *
clarify_ihub_request_new (JsonObject  *event,
                          JsonObject  *tool_input,
                          GError     **error)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyQuestion) question = NULL;
  const char *question_id;
  const char *text;

  g_return_val_if_fail (event != NULL, NULL);

  question_id = clarify_json_get_string_member (event, "questionId");
  text = clarify_json_get_string_member (event, "question");
  if (question_id == NULL || text == NULL)
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                           "a clarification without questionId or question");
      return NULL;
    }

  question = clarify_question_new_from_json_object (event, 0, NULL, error);
  if (question == NULL)
    return NULL;

  /* iHub turns the model's confirm into a single_select without options;
   * the model's own call says what it meant. */
  if (clarify_question_get_kind (question) == CLARIFY_QUESTION_KIND_TEXT &&
      g_strcmp0 (clarify_json_get_string_member (event, "inputType"), "single_select") == 0 &&
      tool_input != NULL &&
      g_strcmp0 (clarify_json_get_string_member (tool_input, "input_type"), "confirm") == 0 &&
      g_strcmp0 (clarify_json_get_string_member (tool_input, "question"), text) == 0)
    clarify_question_set_kind (question, CLARIFY_QUESTION_KIND_CONFIRM);

  request = clarify_request_new (question_id);
  clarify_request_set_session (request, clarify_json_get_string_member (event, "chatId"));
  clarify_request_set_context (request, clarify_json_get_string_member (event, "context"));
  clarify_request_set_skippable (request, clarify_question_get_skippable (question));
  clarify_request_add_question (request, question);

  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

/* Answer */

/* The option's value as the model sent it (the label when it sent none). */
static JsonNode *
option_value (JsonObject *event,
              const char *value)
{
  JsonArray *options = clarify_json_get_array_member (event, "options");

  for (guint i = 0; options != NULL && i < json_array_get_length (options); i++)
    {
      JsonNode *element = json_array_get_element (options, i);
      JsonObject *option = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonNode *node = option != NULL ? json_object_get_member (option, "value") : NULL;
      g_autofree char *text = NULL;

      if (node == NULL || JSON_NODE_HOLDS_NULL (node))
        node = option != NULL ? json_object_get_member (option, "label") : NULL;
      if (node == NULL)
        continue;
      text = js_string (node);
      if (g_strcmp0 (text, value) == 0)
        return json_node_copy (node);
    }

  return json_node_init_string (json_node_alloc (), value);
}

static JsonNode *
number_value (const char *text)
{
  double number = g_ascii_strtod (text, NULL);

  if (number == floor (number) && fabs (number) < 9e15)
    return json_node_init_int (json_node_alloc (), (gint64) number);

  return clarify_json_node_new_double (number);
}

static char *
trimmed (const char *text)
{
  return g_strstrip (g_strdup (text));
}

gboolean
clarify_ihub_encode_answer (ClarifyRequest   *request,
                            JsonObject       *event,
                            ClarifyResponse  *response,
                            char            **content,
                            JsonNode        **value,
                            gboolean         *skipped,
                            GError          **error)
{
  ClarifyQuestion *question;
  const ClarifyAnswer *answer;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *message = NULL;
  const char *first;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), FALSE);
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), FALSE);

  question = clarify_request_get_question (request, 0);
  answer = question != NULL ? clarify_response_lookup_answer (response, clarify_question_get_id (question)) : NULL;

  switch (clarify_response_get_outcome (response))
    {
    case CLARIFY_OUTCOME_ANSWERED:
      if (answer != NULL && !answer->skipped)
        break;
      G_GNUC_FALLTHROUGH;
    case CLARIFY_OUTCOME_SKIPPED:
      *content = g_strdup ("[Skipped]");
      *value = json_node_init_null (json_node_alloc ());
      *skipped = TRUE;
      return TRUE;

    case CLARIFY_OUTCOME_CANCELLED:
    case CLARIFY_OUTCOME_TIMED_OUT:
    default:
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "iHub has no way to decline a clarification");
      return FALSE;
    }

  if (!clarify_question_check_answer (question, (const char * const *) answer->values,
                                      answer->custom_text, &message))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED, message);
      return FALSE;
    }

  first = answer->values != NULL ? answer->values[0] : NULL;
  switch (clarify_question_get_kind (question))
    {
    case CLARIFY_QUESTION_KIND_NUMBER:
      node = number_value (first);
      break;

    case CLARIFY_QUESTION_KIND_SINGLE:
      /* "Other" is sent trimmed, as the web client does. */
      if (first != NULL)
        node = option_value (event, first);
      else
        {
          g_autofree char *custom = trimmed (answer->custom_text);

          node = json_node_init_string (json_node_alloc (), custom);
        }
      break;

    case CLARIFY_QUESTION_KIND_MULTI:
      {
        JsonArray *array = json_array_new ();

        for (guint i = 0; answer->values != NULL && answer->values[i] != NULL; i++)
          json_array_add_element (array, option_value (event, answer->values[i]));
        if (!clarify_text_is_blank (answer->custom_text))
          {
            g_autofree char *custom = trimmed (answer->custom_text);

            json_array_add_string_element (array, custom);
          }
        node = json_node_init_array (json_node_alloc (), array);
        json_array_unref (array);
        break;
      }

    case CLARIFY_QUESTION_KIND_DATE_RANGE:
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "iHub has no date ranges");
      return FALSE;

    case CLARIFY_QUESTION_KIND_TEXT:
    case CLARIFY_QUESTION_KIND_CONFIRM:
    case CLARIFY_QUESTION_KIND_DATE:
    default:
      node = json_node_init_string (json_node_alloc (), first != NULL ? first : answer->custom_text);
      break;
    }

  *content = js_string (node);
  *value = g_steal_pointer (&node);
  *skipped = FALSE;
  return TRUE;
}

/* Messages */

JsonObject *
clarify_ihub_user_message_new (JsonArray  *history,
                               const char *content)
{
  JsonObject *message = json_object_new ();
  g_autofree char *message_id = NULL;
  guint n_user = 0;

  for (guint i = 0; i < json_array_get_length (history); i++)
    {
      JsonObject *object = json_array_get_object_element (history, i);

      if (object != NULL && g_strcmp0 (clarify_json_get_string_member (object, "role"), "user") == 0)
        n_user++;
    }

  json_object_set_string_member (message, "role", "user");
  json_object_set_string_member (message, "content", content);
  /* Only logged by the server; the recorded client numbered them. */
  message_id = g_strdup_printf ("msg-%u", n_user + 1);
  json_object_set_string_member (message, "messageId", message_id);
  return message;
}

JsonObject *
clarify_ihub_answer_message_new (JsonArray        *history,
                                 ClarifyRequest   *request,
                                 JsonObject       *event,
                                 ClarifyResponse  *response,
                                 JsonNode        **answer,
                                 GError          **error)
{
  g_autoptr(JsonNode) value = NULL;
  g_autofree char *content = NULL;
  JsonObject *message;
  JsonObject *object;
  gboolean skipped = FALSE;

  if (!clarify_ihub_encode_answer (request, event, response, &content, &value, &skipped, error))
    return NULL;

  /* On the message and at the top level, as the web client sends it. */
  object = json_object_new ();
  json_object_set_string_member (object, "questionId", clarify_request_get_id (request));
  json_object_set_member (object, "value", g_steal_pointer (&value));
  json_object_set_boolean_member (object, "skipped", skipped);
  message = clarify_ihub_user_message_new (history, content);
  json_object_set_object_member (message, "clarificationResponse", json_object_ref (object));
  *answer = json_node_init_object (json_node_alloc (), object);
  json_object_unref (object);

  return message;
}

char *
clarify_ihub_body_new (JsonArray  *history,
                       JsonObject *message,
                       const char *model_id,
                       const char *language,
                       JsonNode   *answer)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *body = json_object_new ();
  JsonArray *messages = json_array_new ();

  for (guint i = 0; i < json_array_get_length (history); i++)
    json_array_add_element (messages, json_node_copy (json_array_get_element (history, i)));
  json_array_add_object_element (messages, json_object_ref (message));

  json_object_set_array_member (body, "messages", messages);
  if (model_id != NULL)
    json_object_set_string_member (body, "modelId", model_id);
  json_object_set_string_member (body, "style", "normal");
  json_object_set_double_member (body, "temperature", 0.7);
  json_object_set_string_member (body, "outputFormat", "markdown");
  json_object_set_string_member (body, "language", language);
  if (answer != NULL)
    json_object_set_member (body, "clarificationResponse", json_node_copy (answer));

  json_node_take_object (root, body);
  return clarify_ihub_json_stringify (root);
}
