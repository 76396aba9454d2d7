/* clarify-ag3ntum-codec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-ag3ntum-codec.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-secret.h"
#include "clarify-validate.h"

static ClarifyQuestion *
decode_one (JsonNode  *node,
            guint      index,
            GError   **error)
{
  g_autoptr(ClarifyQuestion) question = NULL;
  g_autofree char *id = g_strdup_printf ("q%u", index + 1);
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  JsonArray *options = clarify_json_get_array_member (object, "options");
  const char *text = clarify_json_get_string_member (object, "question");
  const char *header = clarify_json_get_string_member (object, "header");
  JsonNode *multi = object != NULL ? json_object_get_member (object, "multiSelect") : NULL;
  gboolean is_multi = multi != NULL && JSON_NODE_HOLDS_VALUE (multi) &&
                      json_node_get_value_type (multi) == G_TYPE_BOOLEAN && json_node_get_boolean (multi);

  if (text == NULL || options == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                   "question %u has no text or no options", index + 1);
      return NULL;
    }

  question = clarify_question_new (id, is_multi ? CLARIFY_QUESTION_KIND_MULTI : CLARIFY_QUESTION_KIND_SINGLE, text);
  if (header != NULL && header[0] != '\0')
    clarify_question_set_header (question, header);
  /* Free text goes only into the comments at the end, as in the web client. */
  clarify_question_set_allow_other (question, FALSE);

  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonNode *element = json_array_get_element (options, i);
      JsonObject *option = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *label = clarify_json_get_string_member (option, "label");
      const char *description = clarify_json_get_string_member (option, "description");
      g_autoptr(ClarifyOption) choice = NULL;

      if (label == NULL)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                       "option %u of question %u has no label", i + 1, index + 1);
          return NULL;
        }
      /* The answer carries labels: the label is the value. */
      choice = clarify_option_new (label, label,
                                   description != NULL && description[0] != '\0' ? description : NULL);
      clarify_question_add_option (question, choice);
    }

  return g_steal_pointer (&question);
}

ClarifyRequest *
clarify_ag3ntum_decode_question (const char  *session_id,
                                 const char  *question_id,
                                 JsonArray   *questions,
                                 GError     **error)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyQuestion) comments = NULL;
  guint n;

  g_return_val_if_fail (session_id != NULL, NULL);

  n = questions != NULL ? json_array_get_length (questions) : 0;
  if (question_id == NULL || question_id[0] == '\0' || n == 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                   "a question without an id or without questions");
      return NULL;
    }

  request = clarify_request_new (question_id);
  clarify_request_set_session (request, session_id);
  /* Ag3ntum has no way to decline: Cancel would only close the window. */
  clarify_request_set_cancellable (request, FALSE);
  clarify_request_set_context (request,
                               _("The session is paused until you answer. Ag3ntum cannot decline a "
                                 "question: closing this window keeps it waiting."));

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestion *question = decode_one (json_array_get_element (questions, i), i, error);

      if (question == NULL)
        return NULL;
      clarify_request_add_question (request, question);
      g_object_unref (question);
    }

  comments = clarify_question_new (CLARIFY_AG3NTUM_COMMENTS_ID, CLARIFY_QUESTION_KIND_TEXT,
                                   _("Additional Comments"));
  clarify_question_set_placeholder (comments, _("Optional: Add any additional context or comments…"));
  clarify_question_set_skippable (comments, TRUE);
  clarify_request_add_question (request, comments);

  /* The caps and checks every decoder applies (found by fuzz-ag3ntum:
   * an option without a label got through). */
  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

char *
clarify_ag3ntum_encode_answer (ClarifyRequest   *request,
                               ClarifyResponse  *response,
                               GError          **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *comments = NULL;
  const ClarifyAnswer *answer;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), NULL);

  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      const char *id = clarify_question_get_id (question);
      g_autofree char *line = NULL;

      if (g_str_equal (id, CLARIFY_AG3NTUM_COMMENTS_ID))
        continue;
      answer = clarify_response_lookup_answer (response, id);
      /* The web client leaves out a question without a choice. */
      if (answer == NULL || answer->skipped || answer->values == NULL || answer->values[0] == NULL)
        continue;

      line = g_strjoinv (", ", answer->values);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }

  if (text->len == 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "no option was chosen");
      return NULL;
    }

  answer = clarify_response_lookup_answer (response, CLARIFY_AG3NTUM_COMMENTS_ID);
  if (answer != NULL && !answer->skipped)
    comments = g_strdup (answer->custom_text != NULL ? answer->custom_text
                         : answer->values != NULL && answer->values[0] != NULL ? answer->values[0]
                                                                                : "");
  if (comments != NULL && g_strstrip (comments)[0] != '\0')
    g_string_append_printf (text, "\n\nAdditional Comments: %s", comments);

  return g_strdup (g_strstrip (text->str));
}

static char *
object_to_string (JsonBuilder *builder)
{
  json_builder_end_object (builder);
  return clarify_json_builder_to_string (builder);
}

char *
clarify_ag3ntum_answer_body (const char *answer)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  /* As the web client: the server answers whatever question is pending. */
  json_builder_set_member_name (builder, "question_id");
  json_builder_add_string_value (builder, "latest");
  json_builder_set_member_name (builder, "answer");
  json_builder_add_string_value (builder, answer);
  return object_to_string (builder);
}

char *
clarify_ag3ntum_resume_body (const char *model)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "task");
  json_builder_add_string_value (builder, CLARIFY_AG3NTUM_RESUME_TASK);
  json_builder_set_member_name (builder, "config");
  json_builder_begin_object (builder);
  if (model != NULL && model[0] != '\0')
    {
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, model);
    }
  json_builder_end_object (builder);
  return object_to_string (builder);
}

char *
clarify_ag3ntum_login_body (const char *email,
                            const char *password)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "email");
  json_builder_add_string_value (builder, email);
  json_builder_set_member_name (builder, "password");
  json_builder_add_string_value (builder, password);
  return object_to_string (builder);
}
