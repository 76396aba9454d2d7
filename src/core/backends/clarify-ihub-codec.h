/* clarify-ihub-codec.h: iHub's `clarification` event as a ClarifyRequest,
 * and the answer as the user message iHub's web client sends
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* The request for @event (a `clarification` event of chat @chat_id).
 * @tool_input is the `toolInput` of the turn's last ask_user
 * `tool.call.start`, or NULL: it tells a model's `confirm` (which iHub
 * sends as a single_select without options) from a real choice.
 * The request is validated (patterns, caps). */
ClarifyRequest *clarify_ihub_request_new     (JsonObject       *event,
                                              JsonObject       *tool_input,
                                              GError          **error);

/* The answer as the web client encodes it: @content is the user message's
 * text ("pm,admins", "42", "[Skipped]"), @value the `clarificationResponse`
 * value (null when skipped). The options of @event give choices back the
 * JSON type the model sent. A cancelled or timed-out response cannot be
 * encoded; an answer the question refuses is CLARIFY_ERROR_REJECTED. */
gboolean        clarify_ihub_encode_answer   (ClarifyRequest   *request,
                                              JsonObject       *event,
                                              ClarifyResponse  *response,
                                              char            **content,
                                              JsonNode        **value,
                                              gboolean         *skipped,
                                              GError          **error);

/* The next user message after @history ({"role","content","messageId"}). */
JsonObject     *clarify_ihub_user_message_new   (JsonArray        *history,
                                                 const char       *content);
/* The user message that answers @request, its `clarificationResponse`
 * on it and, in @answer, the same for the body's top level. */
JsonObject     *clarify_ihub_answer_message_new (JsonArray        *history,
                                                 ClarifyRequest   *request,
                                                 JsonObject       *event,
                                                 ClarifyResponse  *response,
                                                 JsonNode        **answer,
                                                 GError          **error);
/* The POST body of a turn: @history, @message, and the parameters the web
 * client sends with every message, in its order. */
char           *clarify_ihub_body_new           (JsonArray        *history,
                                                 JsonObject       *message,
                                                 const char       *model_id,
                                                 const char       *language,
                                                 JsonNode         *answer);

/* @node as JavaScript's JSON.stringify() writes it (the web client's
 * bodies): members in order, 0.7 as 0.7, 42.0 as 42, no escaped '/'. */
char           *clarify_ihub_json_stringify  (JsonNode         *node);

G_END_DECLS
