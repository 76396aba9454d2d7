/* clarify-opencode-events.h: what becomes of OpenCode's question and
 * permission events in every backend that carries them (OpenCode, CodeNomad):
 * which requests are shown, withdrawn or done, resync rounds, the HTTP calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "clarify-backend.h"
#include "clarify-opencode-decoder.h"
#include "clarify-sse-client.h"

#include "clarify-backends-enums.h"

G_BEGIN_DECLS

/* Per-backend bookkeeping shared by both backends: what is finished (answered,
 * withdrawn) so that a resync listing it again never shows it a second time. */
typedef struct _ClarifyOpencodeTracker ClarifyOpencodeTracker;

ClarifyOpencodeTracker *clarify_opencode_tracker_new           (ClarifyBackend         *backend);
void                    clarify_opencode_tracker_free          (ClarifyOpencodeTracker *self);
/* Handles one OpenCode bus event {"id","type","properties"} as
 * clarify_opencode_event_decode() reads it: shows new requests, withdraws
 * answered ones and those of sessions that ended.
 * @directory comes from the envelope (or the stream's instance). Returns
 * the event type ("" for a malformed event) so callers can watch heartbeats. */
const char             *clarify_opencode_tracker_handle_event  (ClarifyOpencodeTracker *self,
                                                                JsonObject             *event,
                                                                const char             *directory,
                                                                const char             *workspace_id);
/* The reply to a resync listing (GET /question or GET /permission) of one
 * directory: shows what is new and withdraws what is pending here, belongs
 * to that listing and was received before @listed_at (monotonic µs, taken
 * when the GET was sent) but is missing from it. */
void                    clarify_opencode_tracker_resync        (ClarifyOpencodeTracker *self,
                                                                ClarifyOpencodeRequestKind kind,
                                                                JsonArray              *listing,
                                                                const char             *directory,
                                                                const char             *workspace_id,
                                                                gint64                  listed_at);
/* Call when a reply is sent (answering TRUE) and when it finished:
 * @error NULL or GONE → the request is done and forgotten. */
void                    clarify_opencode_tracker_begin_answer  (ClarifyOpencodeTracker *self,
                                                                ClarifyRequest         *request);
void                    clarify_opencode_tracker_end_answer    (ClarifyOpencodeTracker *self,
                                                                ClarifyRequest         *request,
                                                                const GError           *error);
gboolean                clarify_opencode_tracker_is_finished   (ClarifyOpencodeTracker *self,
                                                                const char             *request_id);
/* The agent was seen going away: the whole server (@workspace_id NULL: its
 * stream could not be reached) or one CodeNomad workspace (its instance
 * disconnected). Until the next resync round ends, what a listing lacks is
 * withdrawn as "the agent restarted", not "answered elsewhere", and an
 * answer the agent no longer knows fails with AGENT_RESTARTED. */
void                    clarify_opencode_tracker_went_away     (ClarifyOpencodeTracker *self,
                                                                const char             *workspace_id);
/* A resync round ended: forget who went away. */
void                    clarify_opencode_tracker_synced        (ClarifyOpencodeTracker *self);
/* CodeNomad listed its workspaces (ids in @listed): every request of a
 * workspace not among them is gone with it. */
void                    clarify_opencode_tracker_keep_workspaces (ClarifyOpencodeTracker *self,
                                                                  GHashTable             *listed);

/* A resync round: the listings both backends send after each (re)connect.
 * A new round cancels the calls of the one before it, whose results are
 * then dropped; the round is complete when the last of its calls is done. */
typedef struct
{
  GCancellable *cancellable; /* NULL before the first round and once cancelled */
  guint         number;
  guint         pending;
} ClarifyOpencodeRound;

/* Opens the next round, held open by one pending call of the caller's own
 * until it calls clarify_opencode_round_done() with the new number. */
void                    clarify_opencode_round_begin           (ClarifyOpencodeRound   *round);
/* One more call of the current round; returns the number it is to carry. */
guint                   clarify_opencode_round_add             (ClarifyOpencodeRound   *round);
/* A call of round @number is done: TRUE when that completed the current round. */
gboolean                clarify_opencode_round_done            (ClarifyOpencodeRound   *round,
                                                                guint                   number);
/* TRUE when a call's result is to be dropped: it was cancelled (@error) or
 * belongs to an earlier round. */
gboolean                clarify_opencode_round_is_stale        (ClarifyOpencodeRound   *round,
                                                                guint                   number,
                                                                const GError           *error);
/* Cancels the current round's calls (stop, dispose). */
void                    clarify_opencode_round_cancel          (ClarifyOpencodeRound   *round);

/* Sends @message on @session and reads the reply as clarify-http.h says
 * (the body of a refused call is logged). Finish returns the JSON body
 * (unref it). */
void            clarify_opencode_call_async     (SoupSession         *session,
                                                 SoupMessage         *message,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
JsonNode       *clarify_opencode_call_finish    (GAsyncResult        *result,
                                                 GError             **error);
/* Completes a backend's respond task (its task data is the request) from
 * the result of the reply call: ends the answer and returns TRUE or the error.
 * A 404 nothing explains waits up to a second for the stream to show a
 * restart (AGENT_RESTARTED) before it is returned as GONE. */
void            clarify_opencode_complete_reply (ClarifyOpencodeTracker *tracker,
                                                 GTask               *task,
                                                 GAsyncResult        *result);
/* ClarifyBackendClass.save_delivery and .restore_delivery of the backends
 * whose requests carry ClarifyOpencodeRequestInfo. */
JsonNode       *clarify_opencode_save_delivery  (ClarifyBackend      *backend,
                                                 ClarifyRequest      *request);
gboolean        clarify_opencode_restore_delivery (ClarifyBackend    *backend,
                                                 ClarifyRequest      *request,
                                                 JsonNode            *data,
                                                 GError             **error);

/* Connection settings both backends read: the URL without trailing slashes,
 * and "stall-limit" (seconds, fractions allowed) in ms. */
char           *clarify_opencode_base_url       (ClarifyConnection   *connection);
guint           clarify_opencode_stall_limit_ms (ClarifyConnection   *connection,
                                                 guint                default_s);
/* A session for API calls (with a timeout: a call sent while the server
 * starts can hang) or, with @timeout_s 0, for the stream. */
SoupSession    *clarify_opencode_session_new    (guint                timeout_s);

/* A JSON POST (@body NULL: an empty one). */
SoupMessage    *clarify_opencode_post_new       (const char          *url,
                                                 const char          *body);

G_END_DECLS
