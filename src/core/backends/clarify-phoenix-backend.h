/* clarify-phoenix-backend.h: kind "phoenix", a Phoenix IDE server
 *
 * Phoenix streams one conversation per connection
 * (GET /api/conversations/{id}/stream) and has no server-wide stream, so
 * this is a plain ClarifyBackend that keeps a table of ClarifySseClients,
 * one per busy conversation, rather than a ClarifyStreamBackend (which owns
 * exactly one stream). New conversations are only visible in
 * GET /api/conversations, which the web client polls every 5 s: we poll it
 * every 10 s, and only while the last listing succeeded; a failed listing is
 * retried with back-off instead, and a stopped backend has no timer at all.
 * A conversation is watched while the listing or its own stream says it is
 * busy (not idle or terminal) and let go after agent_done; sub-agents, which
 * cannot ask, are never watched.
 *
 * Every (re)connect begins with an `init` snapshot, and the question
 * (`awaiting_user_response`) comes twice in a row: the request id is the
 * tool_use_id, so the inbox drops the repeats. The answer is POSTed to
 * /respond exactly as the web client builds it; Cancel POSTs /cancel, which
 * Phoenix takes as "decline, go on by your own judgment".
 *
 * The password (PHOENIX_PASSWORD on the server) is the secret
 * "connection:<name>" (`clarify set-password`), or $PHOENIX_PASSWORD, sent
 * as "Authorization: Bearer" on every request, the streams included.
 * Connection option "poll-interval": seconds between listings, default 10.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"
#include "clarify-backend-probe.h"

G_BEGIN_DECLS

extern const ClarifyProbeSpec clarify_phoenix_probe;

#define CLARIFY_TYPE_PHOENIX_BACKEND (clarify_phoenix_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyPhoenixBackend, clarify_phoenix_backend, CLARIFY, PHOENIX_BACKEND, ClarifyBackend)

ClarifyBackend *clarify_phoenix_backend_new          (ClarifyConnection     *connection);
/* For tests: the listing interval and the streams' and listing's back-off. */
void            clarify_phoenix_backend_set_timing   (ClarifyPhoenixBackend *self,
                                                      guint                  poll_ms,
                                                      guint                  backoff_initial_ms,
                                                      guint                  backoff_max_ms);
/* For tests: fewer streams at once than MAX_STREAMS (64). */
void            clarify_phoenix_backend_set_max_streams (ClarifyPhoenixBackend *self,
                                                         guint                  max_streams);
/* Conversations whose stream is open or being opened. */
guint           clarify_phoenix_backend_get_n_watched (ClarifyPhoenixBackend *self);

/* How discovery recognises one on this machine. */
extern const ClarifyBackendProbe clarify_phoenix_backend_probe;

G_END_DECLS
