/* fuzz-ihub.c: iHub's `clarification` events (with the `toolInput` of the
 * turn's ask_user call), the requests made of them and the answer
 * messages and bodies encoded for them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-fuzz.h"
#include "clarify-ihub-codec.h"
#include "clarify-json.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(JsonArray) history = NULL;
  JsonObject *event;

  clarify_fuzz_init ();
  node = clarify_fuzz_parse_object (data, size);
  if (node == NULL)
    return 0;
  event = json_node_get_object (node);

  request = clarify_ihub_request_new (event, clarify_json_get_object_member (event, "toolInput"), NULL);
  if (request == NULL)
    return 0;

  clarify_fuzz_round_trip (request);
  history = json_array_new ();
  for (guint how = 0; how < CLARIFY_FUZZ_N_RESPONSES; how++)
    {
      g_autoptr(ClarifyResponse) response = clarify_fuzz_response_new (request, how);
      g_autofree char *content = NULL;
      g_autoptr(JsonNode) value = NULL;
      g_autoptr(JsonNode) answer = NULL;
      g_autoptr(JsonObject) message = NULL;
      gboolean skipped;

      if (clarify_ihub_encode_answer (request, event, response, &content, &value, &skipped, NULL))
        {
          g_autofree char *text = value != NULL ? clarify_ihub_json_stringify (value) : NULL;
        }

      message = clarify_ihub_answer_message_new (history, request, event, response, &answer, NULL);
      if (message != NULL)
        {
          g_autofree char *body = clarify_ihub_body_new (history, message, "model", "en", answer);
        }
    }
  return 0;
}
