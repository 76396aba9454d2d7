/* clarify-phoenix-codec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-claude-questions.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-phoenix-codec.h"
#include "clarify-validate.h"

/* What answering needs beyond the ClarifyRequest: the conversation, and
 * the question texts and previews the answers go back with. */
typedef struct
{
  char                   *conversation_id;
  ClarifyClaudeQuestions *questions;
  JsonNode               *raw_questions; /* as Phoenix sent them, for the outbox's store */
} PhoenixAsk;

static void
phoenix_ask_free (gpointer data)
{
  PhoenixAsk *ask = data;

  g_free (ask->conversation_id);
  clarify_claude_questions_free (ask->questions);
  g_clear_pointer (&ask->raw_questions, json_node_unref);
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
  g_autofree char *id = NULL;
  PhoenixAsk *ask;

  g_return_val_if_fail (conversation_id != NULL, NULL);

  if (tool_use_id == NULL || *tool_use_id == '\0' || questions == NULL || json_array_get_length (questions) == 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "awaiting_user_response without a tool_use_id or questions");
      return NULL;
    }

  /* A tool_use_id is unique only as far as the model makes it: a fake or
   * local model numbers them per conversation, and two conversations
   * asking "toolu_1" were one request to the inbox, the second never shown. */
  id = g_strconcat (conversation_id, ":", tool_use_id, NULL);
  request = clarify_request_new (id);
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
  ask->raw_questions = json_node_init_array (json_node_alloc (), questions);

  /* The caps and checks every decoder applies, as Claude Code's hook does
   * for the same questions. */
  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

JsonNode *
clarify_phoenix_save_delivery (ClarifyBackend *backend,
                               ClarifyRequest *request)
{
  PhoenixAsk *ask = clarify_request_get_backend_data (request);
  g_autoptr(JsonBuilder) builder = NULL;

  if (ask == NULL || ask->raw_questions == NULL)
    return NULL;

  builder = json_builder_new_immutable ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "conversation");
  json_builder_add_string_value (builder, ask->conversation_id);
  json_builder_set_member_name (builder, "questions");
  json_builder_add_value (builder, json_node_copy (ask->raw_questions));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* The questions are decoded again, into a scratch request: @request, rebuilt
 * from its JSON form, has them already. */
gboolean
clarify_phoenix_restore_delivery (ClarifyBackend  *backend,
                                  ClarifyRequest  *request,
                                  JsonNode        *data,
                                  GError         **error)
{
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (data) ? json_node_get_object (data) : NULL;
  const char *conversation_id = clarify_json_get_string_member (object, "conversation");
  JsonArray *questions = clarify_json_get_array_member (object, "questions");
  g_autoptr(ClarifyRequest) scratch = clarify_request_new (clarify_request_get_id (request));
  PhoenixAsk *ask;

  if (conversation_id == NULL || questions == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "no Phoenix conversation and questions");
      return FALSE;
    }

  ask = g_new0 (PhoenixAsk, 1);
  ask->conversation_id = g_strdup (conversation_id);
  ask->raw_questions = json_node_init_array (json_node_alloc (), questions);
  ask->questions = clarify_claude_questions_decode (questions, scratch, error);
  if (ask->questions == NULL)
    {
      phoenix_ask_free (ask);
      return FALSE;
    }

  clarify_request_set_backend_data (request, ask, phoenix_ask_free);
  return TRUE;
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
