/* clarify-json-text.h: JSON text from agents, parsed with limits, and printed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Compact JSON text of @node. */
char            *clarify_json_to_string          (JsonNode         *node);
/* Compact JSON text of what @builder built (its value is complete). */
char            *clarify_json_builder_to_string  (JsonBuilder      *builder);

/* A JSON number for the finite @value that every json-glib prints as valid
 * JSON; a value json-glib 1.6 would print wrongly ("1e-300.0") is moved to
 * its neighbouring double, one unit in the last place away. */
JsonNode        *clarify_json_node_new_double    (double            value);
/* Makes every number in @node print as valid JSON, in place: as
 * clarify_json_node_new_double() does, and one past a double's range
 * ("1e999", read as infinity) goes with its member or element. */
void             clarify_json_make_printable     (JsonNode         *node);

/* Deepest nesting clarify_json_parse() accepts. */
#define CLARIFY_JSON_MAX_DEPTH 512

/* Parses JSON from an agent: a document nested deeper than
 * CLARIFY_JSON_MAX_DEPTH, malformed or empty is a CLARIFY_ERROR_INVALID
 * (json-glib recurses per level and would overflow the stack). */
JsonNode        *clarify_json_parse              (const char       *data,
                                                  gssize            length,
                                                  GError          **error);

/* Members of agents' objects by type: NULL when @object is NULL or the member
 * is absent or of another type (json-glib's getters are critical about that). */
const char      *clarify_json_get_string_member  (JsonObject       *object,
                                                  const char       *member);
JsonObject      *clarify_json_get_object_member  (JsonObject       *object,
                                                  const char       *member);
JsonArray       *clarify_json_get_array_member   (JsonObject       *object,
                                                  const char       *member);

G_END_DECLS
