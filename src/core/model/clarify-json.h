/* clarify-json.h: the JSON form of requests and responses
 *
 * It is what the demo agent and the "clarify" backend speak, and what the
 * CLI and D-Bus API accept. The README documents it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-json-text.h"
#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* Decodes and validates (clarify_request_validate) a request. */
ClarifyRequest  *clarify_request_new_from_json   (JsonNode         *node,
                                                  GError          **error);
ClarifyRequest  *clarify_request_new_from_data   (const char       *data,
                                                  gssize            length,
                                                  GError          **error);
JsonNode        *clarify_request_to_json         (ClarifyRequest   *request);

ClarifyResponse *clarify_response_new_from_json  (JsonNode         *node,
                                                  GError          **error);
ClarifyResponse *clarify_response_new_from_data  (const char       *data,
                                                  gssize            length,
                                                  GError          **error);
JsonNode        *clarify_response_to_json        (ClarifyResponse  *response);

/* Adds the member @member = @value, or nothing when @value is NULL. */
void             clarify_json_add_string_member  (JsonBuilder      *builder,
                                                  const char       *member,
                                                  const char       *value);

G_END_DECLS
