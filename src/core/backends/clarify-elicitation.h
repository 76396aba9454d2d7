/* clarify-elicitation.h: an MCP elicitation form as Clarify's questions
 *
 * MCP's elicitation/create (2025-06-18 and 2025-11-25) asks for a flat
 * form: `requestedSchema` {type:"object", properties:{name: schema},
 * required:[names]}. Each property becomes one question of the kinds
 * Clarify already has (through clarify_question_new_from_json_object()):
 *
 *   string                         text (minLength, maxLength, pattern)
 *   string, format email / uri     text with a check of its shape
 *   string, format date            date
 *   string, format date-time       text with an ISO 8601 check
 *   number / integer               number (minimum, maximum; integer: step 1)
 *   boolean                        confirm
 *   string enum / oneOf / enumNames    single choice
 *   array of enum / anyOf          multi choice (minItems, maxItems)
 *
 * with `default`, `title` and `description`, and every property that is
 * not `required` skippable. The answer is the result's `content`, each
 * value typed as its schema says.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* The property names and types the content needs. */
typedef struct _ClarifyElicitationForm ClarifyElicitationForm;

/* Adds one question per property of @schema to @request, in the schema's
 * order, each with the property's name as its id. NULL with a
 * CLARIFY_ERROR_INVALID for a schema Clarify cannot show honestly (no
 * properties, a nested object, an unknown type). */
ClarifyElicitationForm *clarify_elicitation_form_decode      (JsonObject              *schema,
                                                              ClarifyRequest          *request,
                                                              GError                 **error);
void                    clarify_elicitation_form_free        (ClarifyElicitationForm  *self);

/* Adds the member "content" {name: value} to the object @builder is
 * building: strings, JSON numbers, true/false, arrays of strings for
 * multi choices; skipped questions are left out. */
gboolean                clarify_elicitation_form_add_content (ClarifyElicitationForm  *self,
                                                              ClarifyRequest          *request,
                                                              ClarifyResponse         *response,
                                                              JsonBuilder             *builder,
                                                              GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyElicitationForm, clarify_elicitation_form_free)

G_END_DECLS
