/* clarify-sse-client.h: a reconnecting EventSource on libsoup 3
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "clarify-connection.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_SSE_CLIENT (clarify_sse_client_get_type ())
G_DECLARE_FINAL_TYPE (ClarifySseClient, clarify_sse_client, CLARIFY, SSE_CLIENT, GObject)

/* @session carries the connection's cookie jar and auth; it is shared with
 * the backend's own POSTs. */
ClarifySseClient      *clarify_sse_client_new              (SoupSession      *session,
                                                            const char       *url);
const char            *clarify_sse_client_get_url          (ClarifySseClient *self);
/* The URL may change between connections (e.g. a fallback endpoint). */
void                   clarify_sse_client_set_url          (ClarifySseClient *self,
                                                            const char       *url);
/* Sent with every GET; replaces an earlier value of the same name. */
void                   clarify_sse_client_set_header       (ClarifySseClient *self,
                                                            const char       *name,
                                                            const char       *value);
/* Reconnect when nothing (not even a heartbeat) arrives for this long. 0 = never. */
void                   clarify_sse_client_set_stall_timeout (ClarifySseClient *self,
                                                            guint             stall_ms);
/* Without a stall timeout: how long a server may take to answer the GET
 * before the client tries again (default 30 s). */
void                   clarify_sse_client_set_response_timeout (ClarifySseClient *self,
                                                            guint             response_ms);
void                   clarify_sse_client_set_max_event_size (ClarifySseClient *self,
                                                            gsize             max_bytes);
/* For tests: the first backoff delay and its cap (defaults 1 s and 30 s). */
void                   clarify_sse_client_set_backoff      (ClarifySseClient *self,
                                                            guint             initial_ms,
                                                            guint             max_ms);

void                   clarify_sse_client_start            (ClarifySseClient *self);
void                   clarify_sse_client_stop             (ClarifySseClient *self);
/* Drop the current stream now and reconnect after the usual backoff. */
void                   clarify_sse_client_reconnect        (ClarifySseClient *self);

ClarifyConnectionState clarify_sse_client_get_state        (ClarifySseClient *self);
/* Why it failed or is reconnecting; NULL while connected. */
const char            *clarify_sse_client_get_state_reason (ClarifySseClient *self);
/* Monotonic µs of the next attempt while RECONNECTING or FAILED (failures
 * are retried too, with the same backoff), else 0. */
gint64                 clarify_sse_client_get_retry_at     (ClarifySseClient *self);
/* In ::connected: whether the server could not be reached at all (refused,
 * no route) since the previous stream, as while an agent restarts. */
gboolean               clarify_sse_client_came_back        (ClarifySseClient *self);
/* While down: whether some attempt since the last stream reached no server. */
gboolean               clarify_sse_client_had_outage       (ClarifySseClient *self);

/* Signals:
 *   ::event (const char *type, const char *data, const char *id)
 *   ::connected ()     each time a stream opens (resync hook for backends)
 *   notify::state, notify::state-reason, notify::retry-at (each only on change;
 *   all three values are up to date when the first of them is notified)
 * Properties: "session" (construct-only), "url", "state" (a
 * ClarifyConnectionState), "state-reason", "retry-at".
 */

G_END_DECLS
