/* clarify-fuzz-opencode.c: what fuzz-opencode and fuzz-codenomad share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-fuzz.h"
#include "clarify-fuzz-opencode.h"
#include "clarify-json.h"
#include "clarify-opencode-decoder.h"
#include "clarify-opencode-encoder.h"

/* The call as one text; its path, appended to the instance's URL, checked. */
static char *
encode (ClarifyRequest   *request,
        ClarifyResponse  *response,
        GError          **error)
{
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;

  if (!clarify_opencode_encode_reply (request, response, &path, &body, error))
    return NULL;
  clarify_fuzz_check_path (path);
  return g_strconcat (path, " ", body, NULL);
}

void
clarify_fuzz_opencode_answer (ClarifyRequest *request)
{
  g_autoptr(JsonNode) info = clarify_opencode_request_save_info (request);

  clarify_fuzz_encode_all (request, encode);

  /* The answer kept on disk: its info put back on the request read back. */
  if (info != NULL)
    {
      g_autoptr(JsonNode) node = clarify_request_to_json (request);
      g_autoptr(ClarifyRequest) again = clarify_request_new_from_json (node, NULL);

      if (again != NULL)
        clarify_opencode_request_restore_info (again, info, NULL);
    }
}
