/* clarify-opencode-encoder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-opencode-encoder.h"
#include "clarify-validate.h"

static JsonNode *
question_answers (ClarifyRequest  *request,
                  ClarifyResponse *response)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n = clarify_request_get_n_questions (request);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "answers");
  json_builder_begin_array (builder);

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, clarify_question_get_id (question));

      json_builder_begin_array (builder);
      if (answer != NULL && !answer->skipped)
        {
          for (guint j = 0; answer->values != NULL && answer->values[j] != NULL; j++)
            if (*answer->values[j] != '\0')
              json_builder_add_string_value (builder, answer->values[j]);
          /* OpenCode takes the typed answer as one more string, after the labels. */
          if (answer->custom_text != NULL && *answer->custom_text != '\0')
            json_builder_add_string_value (builder, answer->custom_text);
        }
      json_builder_end_array (builder);
    }

  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static const char *
answer_text (const ClarifyAnswer *answer)
{
  if (answer == NULL || answer->skipped)
    return NULL;
  if (answer->values != NULL && answer->values[0] != NULL && *answer->values[0] != '\0')
    return answer->values[0];
  if (answer->custom_text != NULL && *answer->custom_text != '\0')
    return answer->custom_text;
  return NULL;
}

static JsonNode *
permission_reply (ClarifyResponse *response,
                  gboolean         legacy,
                  GError         **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const char *reply = "reject";
  const char *message = NULL;

  if (clarify_response_get_outcome (response) == CLARIFY_OUTCOME_ANSWERED)
    {
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, CLARIFY_OPENCODE_PERMISSION_REPLY);

      reply = answer_text (answer);
      /* The refusal's message, or a separate answer's (as two questions sent it). */
      if (answer != NULL && !answer->skipped && !clarify_text_is_blank (answer->custom_text))
        message = answer->custom_text;
      else
        message = answer_text (clarify_response_lookup_answer (response, CLARIFY_OPENCODE_PERMISSION_MESSAGE));

      if (g_strcmp0 (reply, "once") != 0 && g_strcmp0 (reply, "always") != 0 && g_strcmp0 (reply, "reject") != 0)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "a permission is answered with once, always or reject, not “%s”",
                       reply != NULL ? reply : "");
          return NULL;
        }
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, legacy ? "response" : "reply");
  json_builder_add_string_value (builder, reply);
  if (message != NULL && !legacy && !clarify_text_is_blank (message))
    {
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, message);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

gboolean
clarify_opencode_encode_reply (ClarifyRequest   *request,
                               ClarifyResponse  *response,
                               char            **path,
                               char            **body,
                               GError          **error)
{
  ClarifyOpencodeRequestInfo *info;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *id = NULL;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), FALSE);
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), FALSE);

  info = clarify_opencode_request_get_info (request);
  if (info == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "request %s is not an OpenCode request", clarify_request_get_id (request));
      return FALSE;
    }

  id = clarify_http_escape_segment (info->id, error);
  if (id == NULL)
    return FALSE;

  switch (info->kind)
    {
    case CLARIFY_OPENCODE_REQUEST_QUESTION:
      if (clarify_response_get_outcome (response) != CLARIFY_OUTCOME_ANSWERED)
        {
          *path = g_strdup_printf ("/question/%s/reject", id);
          *body = NULL;
          return TRUE;
        }
      node = question_answers (request, response);
      *path = g_strdup_printf ("/question/%s/reply", id);
      break;

    case CLARIFY_OPENCODE_REQUEST_PERMISSION:
      if (!(node = permission_reply (response, FALSE, error)))
        return FALSE;
      *path = g_strdup_printf ("/permission/%s/reply", id);
      break;

    case CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION:
      {
        g_autofree char *session = clarify_http_escape_segment (info->session_id, error);

        if (session == NULL)
          return FALSE;
        if (!(node = permission_reply (response, TRUE, error)))
          return FALSE;
        *path = g_strdup_printf ("/session/%s/permissions/%s", session, id);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  *body = clarify_json_to_string (node);
  return TRUE;
}
