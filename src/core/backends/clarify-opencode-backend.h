/* clarify-opencode-backend.h: kind "opencode", an `opencode serve` server
 *
 * Streams GET /global/event (every directory; GET /event?directory= on
 * servers without it), shows question.asked and permission.asked, and
 * answers through /question/{id}/reply|reject and /permission/{id}/reply
 * with ?directory= of the request. Connection options:
 *   "username"    HTTP Basic user, default "opencode"; the password is the
 *                 secret "connection:<name>" (or $OPENCODE_SERVER_PASSWORD)
 *   "directory"   the instance to stream from when /global/event is missing
 *   "stall-limit" seconds without a byte (heartbeats come every 10 s) before
 *                 reconnecting, default 30
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-stream-backend.h"
#include "clarify-backend-probe.h"

G_BEGIN_DECLS

extern const ClarifyProbeSpec clarify_opencode_probe;

#define CLARIFY_TYPE_OPENCODE_BACKEND (clarify_opencode_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyOpencodeBackend, clarify_opencode_backend, CLARIFY, OPENCODE_BACKEND, ClarifyStreamBackend)

ClarifyBackend   *clarify_opencode_backend_new            (ClarifyConnection      *connection);
/* The stream client, e.g. for tests to shorten its backoff. */
ClarifySseClient *clarify_opencode_backend_get_sse_client (ClarifyOpencodeBackend *self);
/* Whether the server lacked /global/event and the per-directory stream is used. */
gboolean          clarify_opencode_backend_is_fallback    (ClarifyOpencodeBackend *self);

/* Signals:
 *   ::resynced ()  after the listings of one (re)connect were all applied
 *                  (for tests and the UI's "up to date" hint)
 */

/* How discovery recognises one on this machine. */
extern const ClarifyBackendProbe clarify_opencode_backend_probe;

G_END_DECLS
