/* clarify-phoenix-codec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-claude-questions.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-phoenix-codec.h"

/* What answering needs beyond the ClarifyRequest: the conversation, and
 * the question texts and previews the answers go back with. */
typedef struct
{
  char                   *conversation_id;
  ClarifyClaudeQuestions *questions;
} PhoenixAsk;

static void
phoenix_ask_free (gpointer data)
{
  PhoenixAsk *ask = data;

  g_free (ask->conversation_id);
  clarify_claude_questions_free (ask->questions);
  g_free (ask);
}

ClarifyRequest *
clarify_phoenix_decode_question (JsonObject  *state,
                                 const char  *conversation_id,
                                 GError     **error)
{
  const char *tool_use_id = clarify_json_get_string_member (state, "tool_use_id");
  JsonArray *questions = clarify_json_get_array_member (state, "questions");
  g_autoptr(ClarifyRequest) request = NULL;
  PhoenixAsk *ask;

  g_return_val_if_fail (conversation_id != NULL, NULL);

  if (tool_use_id == NULL || *tool_use_id == '\0' || questions == NULL || json_array_get_length (questions) == 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "awaiting_user_response without a tool_use_id or questions");
      return NULL;
    }

  request = clarify_request_new (tool_use_id);
  clarify_request_set_session (request, conversation_id);
  /* Cancel is Phoenix's decline: the agent goes on by its own judgment. */
  clarify_request_set_cancellable (request, TRUE);
  clarify_request_set_skippable (request, FALSE);

  ask = g_new0 (PhoenixAsk, 1);
  ask->conversation_id = g_strdup (conversation_id);
  clarify_request_set_backend_data (request, ask, phoenix_ask_free);

  ask->questions = clarify_claude_questions_decode (questions, request, error);
  if (ask->questions == NULL)
    return NULL;

  return g_steal_pointer (&request);
}

const char *
clarify_phoenix_request_get_conversation (ClarifyRequest *request)
{
  PhoenixAsk *ask = clarify_request_get_backend_data (request);

  return ask != NULL ? ask->conversation_id : NULL;
}

char *
clarify_phoenix_encode_answers (ClarifyRequest   *request,
                                ClarifyResponse  *response,
                                GError          **error)
{
  PhoenixAsk *ask = clarify_request_get_backend_data (request);
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  if (!clarify_claude_questions_add_answers (ask != NULL ? ask->questions : NULL, request, response, builder, error))
    return NULL;
  json_builder_end_object (builder);

  return clarify_json_builder_to_string (builder);
}
