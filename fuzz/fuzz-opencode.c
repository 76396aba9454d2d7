/* fuzz-opencode.c: OpenCode's bus events, the requests decoded from them,
 * the replies encoded for them and the info an answer kept on disk carries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-fuzz.h"
#include "clarify-fuzz-opencode.h"
#include "clarify-json.h"
#include "clarify-opencode-decoder.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  ClarifyOpencodeEvent event;

  clarify_fuzz_init ();
  node = clarify_fuzz_parse_object (data, size);
  if (node == NULL)
    return 0;
  object = json_node_get_object (node);

  clarify_opencode_event_decode (object, &event);
  if (event.action == CLARIFY_OPENCODE_EVENT_ASKED)
    {
      g_autoptr(ClarifyRequest) request =
        clarify_opencode_request_decode (event.kind, event.properties,
                                         clarify_json_get_string_member (object, "directory"), NULL, NULL);

      if (request != NULL)
        clarify_fuzz_opencode_answer (request);
    }
  else
    {
      /* A listing's item (GET /question, GET /permission) is the bare properties. */
      g_autoptr(ClarifyRequest) question = clarify_opencode_question_new (object, NULL, NULL, NULL);
      g_autoptr(ClarifyRequest) permission = clarify_opencode_permission_new (object, FALSE, NULL, NULL, NULL);
      g_autoptr(ClarifyRequest) legacy = clarify_opencode_permission_new (object, TRUE, NULL, NULL, NULL);

      if (question != NULL)
        clarify_fuzz_opencode_answer (question);
      if (permission != NULL)
        clarify_fuzz_opencode_answer (permission);
      if (legacy != NULL)
        clarify_fuzz_opencode_answer (legacy);
    }
  return 0;
}
