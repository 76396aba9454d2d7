/* clarify-json-backend.h: kind "clarify", Clarify's own JSON protocol
 *
 * The connection URL is an SSE stream (e.g. http://127.0.0.1:PORT/events)
 * carrying `event: request` (a request in the JSON form) and
 * `event: withdraw` ({"id":…,"reason"?:…}). Answers go to
 * POST <stream URL minus its last segment>/requests/<id>/response.
 * The connection option "token" is sent as `Authorization: Bearer`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-stream-backend.h"
#include "clarify-backend-probe.h"

G_BEGIN_DECLS

extern const ClarifyProbeSpec clarify_json_probe;

#define CLARIFY_TYPE_JSON_BACKEND (clarify_json_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyJsonBackend, clarify_json_backend, CLARIFY, JSON_BACKEND, ClarifyStreamBackend)

/* The stream client, e.g. for tests to shorten its backoff. */
ClarifySseClient *clarify_json_backend_get_sse_client (ClarifyJsonBackend *self);

/* Signals:
 *   ::confirmed (const char *request_id, const char *summary)
 *     after an answer was delivered and the agent's reply carried
 *     {"received": "…"}: what the agent says it understood, to show the user.
 */

G_END_DECLS
