/* fuzz-ag3ntum.c: Ag3ntum's `question_pending` events {type, data:
 * {question_id, questions}} and the answers encoded for them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-ag3ntum-codec.h"
#include "clarify-fuzz.h"
#include "clarify-json.h"

/* The answer, and the body that carries it. */
static char *
encode (ClarifyRequest   *request,
        ClarifyResponse  *response,
        GError          **error)
{
  g_autofree char *answer = clarify_ag3ntum_encode_answer (request, response, error);

  return answer != NULL ? clarify_ag3ntum_answer_body (answer) : NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  JsonObject *payload;
  const char *question_id;

  clarify_fuzz_init ();
  node = clarify_fuzz_parse_object (data, size);
  if (node == NULL)
    return 0;
  /* An event's payload, or a pending question as GET …/pending returns it. */
  payload = clarify_json_get_object_member (json_node_get_object (node), "data");
  if (payload == NULL)
    payload = json_node_get_object (node);
  question_id = clarify_json_get_string_member (payload, "question_id");
  if (question_id == NULL)
    return 0;

  request = clarify_ag3ntum_decode_question ("session", question_id,
                                             clarify_json_get_array_member (payload, "questions"), NULL);
  if (request == NULL)
    return 0;

  clarify_fuzz_encode_all (request, encode);
  return 0;
}
