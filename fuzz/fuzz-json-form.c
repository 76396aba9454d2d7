/* fuzz-json-form.c: the JSON form of requests and responses (the clarify
 * protocol, `clarify ask`, the D-Bus API, the outbox's files)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-fuzz.h"
#include "clarify-json.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyResponse) response = NULL;

  clarify_fuzz_init ();

  request = clarify_request_new_from_data ((const char *) data, size, NULL);
  if (request != NULL)
    {
      clarify_fuzz_round_trip (request);
      for (guint how = 0; how < CLARIFY_FUZZ_N_RESPONSES; how++)
        {
          g_autoptr(ClarifyResponse) answer = clarify_fuzz_response_new (request, how);
          g_autoptr(JsonNode) node = clarify_response_to_json (answer);
          g_autofree char *text = clarify_json_to_string (node);
          g_autoptr(ClarifyResponse) again = clarify_response_new_from_data (text, -1, NULL);
        }
    }

  response = clarify_response_new_from_data ((const char *) data, size, NULL);
  if (response != NULL)
    {
      g_autoptr(JsonNode) node = clarify_response_to_json (response);
      g_autofree char *text = clarify_json_to_string (node);
    }
  return 0;
}
