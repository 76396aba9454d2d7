/* clarify-codenomad-backend.h: kind "codenomad", a CodeNomad server
 *
 * Streams GET /api/events?clientId=…&connectionId=…, answers every
 * codenomad.client.ping with a pong, hands the OpenCode events inside
 * instance.event to the shared OpenCode decoder and answers through the
 * workspace proxy /workspaces/{id}/worktrees/root/instance/…. Connection options:
 *   "username"      for POST /api/auth/login, default "codenomad"; the password
 *                   is the secret "connection:<name>"
 *   "auth"          "password" (default), "token" (the secret is a bootstrap
 *                   token for POST /api/auth/token) or "none"
 *   "client-id", "connection-id"  override the ids, which are otherwise
 *                   derived from the user and connection name (stable)
 *   "stall-limit"   seconds without a byte before reconnecting, default 45
 *                   (the server pings every 15 s)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-stream-backend.h"
#include "clarify-backend-probe.h"

G_BEGIN_DECLS

extern const ClarifyProbeSpec clarify_codenomad_probe;

#define CLARIFY_TYPE_CODENOMAD_BACKEND (clarify_codenomad_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyCodenomadBackend, clarify_codenomad_backend, CLARIFY, CODENOMAD_BACKEND, ClarifyStreamBackend)

ClarifyBackend   *clarify_codenomad_backend_new               (ClarifyConnection       *connection);
ClarifySseClient *clarify_codenomad_backend_get_sse_client    (ClarifyCodenomadBackend *self);
const char       *clarify_codenomad_backend_get_client_id     (ClarifyCodenomadBackend *self);
const char       *clarify_codenomad_backend_get_connection_id (ClarifyCodenomadBackend *self);

/* Signals:
 *   ::resynced ()  after the listings of one (re)connect were all applied
 */

/* How discovery recognises one on this machine. */
extern const ClarifyBackendProbe clarify_codenomad_backend_probe;

G_END_DECLS
