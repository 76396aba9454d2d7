/* fuzz-codenomad.c: CodeNomad's stream payloads {type, instanceId, event}:
 * the OpenCode event inside, decoded for that workspace, and the reply
 * encoded for it
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
  g_autoptr(ClarifyRequest) request = NULL;
  JsonObject *payload;
  JsonObject *inner;
  const char *instance;
  ClarifyOpencodeEvent event;

  clarify_fuzz_init ();
  node = clarify_fuzz_parse_object (data, size);
  if (node == NULL)
    return 0;
  payload = json_node_get_object (node);
  instance = clarify_json_get_string_member (payload, "instanceId");
  inner = clarify_json_get_object_member (payload, "event");
  if (inner == NULL)
    return 0;

  clarify_opencode_event_decode (inner, &event);
  if (event.action != CLARIFY_OPENCODE_EVENT_ASKED)
    return 0;

  request = clarify_opencode_request_decode (event.kind, event.properties,
                                             clarify_json_get_string_member (inner, "directory"),
                                             instance, NULL);
  if (request == NULL)
    return 0;

  clarify_fuzz_opencode_answer (request);
  return 0;
}
