/* fuzz-phoenix.c: Phoenix's conversation states (from `init` and
 * `state_change` events) and the answers encoded for them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-fuzz.h"
#include "clarify-json.h"
#include "clarify-phoenix-codec.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  JsonObject *event;
  JsonObject *state;

  clarify_fuzz_init ();
  node = clarify_fuzz_parse_object (data, size);
  if (node == NULL)
    return 0;
  event = json_node_get_object (node);

  /* state_change carries the state; init carries it in its conversation. */
  state = clarify_json_get_object_member (event, "state");
  if (state == NULL)
    state = clarify_json_get_object_member (clarify_json_get_object_member (event, "conversation"), "state");
  if (state == NULL)
    state = event;

  request = clarify_phoenix_decode_question (state, "conversation", NULL);
  if (request == NULL)
    return 0;

  clarify_fuzz_encode_all (request, clarify_phoenix_encode_answers);
  return 0;
}
