/* clarify-phoenix-codec.h: Phoenix IDE's ask_user_question on the wire
 *
 * Decodes an `awaiting_user_response` state (from `init` or `state_change`)
 * into a ClarifyRequest and encodes the answer as Phoenix's web client does
 * (ui/src/api.ts respondToQuestion, QuestionPanel.tsx buildAnswerMap).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-backend.h"

G_BEGIN_DECLS

/* A ClarifyRequest for @state ({type:"awaiting_user_response", questions,
 * tool_use_id}) of conversation @conversation_id, or NULL with an error.
 * Its id is the tool_use_id: the one key that stays the same across the
 * duplicated state_change and every reconnect's init. */
ClarifyRequest *clarify_phoenix_decode_question  (JsonObject       *state,
                                                  const char       *conversation_id,
                                                  GError          **error);

/* The conversation a decoded request belongs to. */
const char     *clarify_phoenix_request_get_conversation (ClarifyRequest *request);

/* The body of POST /api/conversations/{id}/respond:
 * {"answers":{question text: labels joined by ", "},"annotations":{…}},
 * annotations {notes?, preview?} only for a question with the user's note
 * or an answered single-select option that has a preview. */
char           *clarify_phoenix_encode_answers   (ClarifyRequest   *request,
                                                  ClarifyResponse  *response,
                                                  GError          **error);

/* ClarifyBackendClass.save_delivery and .restore_delivery: the conversation
 * and the questions as Phoenix sent them. */
JsonNode       *clarify_phoenix_save_delivery    (ClarifyBackend   *backend,
                                                  ClarifyRequest   *request);
gboolean        clarify_phoenix_restore_delivery (ClarifyBackend   *backend,
                                                  ClarifyRequest   *request,
                                                  JsonNode         *data,
                                                  GError          **error);

G_END_DECLS
