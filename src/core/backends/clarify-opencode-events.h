/* clarify-opencode-events.h: OpenCode's question and permission events,
 * decoded once for every backend that carries them (OpenCode, CodeNomad)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "clarify-backend.h"
#include "clarify-sse-client.h"

#include "clarify-backends-enums.h"

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_OPENCODE_REQUEST_QUESTION,
  CLARIFY_OPENCODE_REQUEST_PERMISSION,
  /* permission.updated of older servers: answered through the session route */
  CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION,
} ClarifyOpencodeRequestKind;

/* The backend data of every request decoded here. */
typedef struct
{
  ClarifyOpencodeRequestKind kind;
  char                      *id;          /* que_… / per_… */
  char                      *session_id;  /* ses_… */
  char                      *directory;   /* the instance it lives in, or NULL */
  char                      *workspace_id; /* CodeNomad's instanceId, or NULL */
  gboolean                   answering;   /* our own reply is on its way */
} ClarifyOpencodeRequestInfo;

/* The request's info, or NULL when @request was not decoded here. */
ClarifyOpencodeRequestInfo *clarify_opencode_request_get_info (ClarifyRequest *request);

/* g_object_get_data (request, CLARIFY_REQUEST_DATA_KIND) is "question" or
 * "permission", so that the UI may label a request without knowing OpenCode. */
#define CLARIFY_REQUEST_DATA_KIND "clarify-request-kind"

/* The ids of the permission request's two questions. */
#define CLARIFY_OPENCODE_PERMISSION_REPLY   "reply"
#define CLARIFY_OPENCODE_PERMISSION_MESSAGE "message"

/* A QuestionRequest (question.asked properties, or an item of GET /question). */
ClarifyRequest *clarify_opencode_question_new   (JsonObject  *properties,
                                                 const char  *directory,
                                                 const char  *workspace_id,
                                                 GError     **error);
/* A PermissionRequest (permission.asked properties, or an item of GET
 * /permission), or the legacy permission.updated shape when @legacy. */
ClarifyRequest *clarify_opencode_permission_new (JsonObject  *properties,
                                                 gboolean     legacy,
                                                 const char  *directory,
                                                 const char  *workspace_id,
                                                 GError     **error);

/* Per-backend bookkeeping shared by both backends: what is finished (answered,
 * withdrawn) so that a resync listing it again never shows it a second time. */
typedef struct _ClarifyOpencodeTracker ClarifyOpencodeTracker;

ClarifyOpencodeTracker *clarify_opencode_tracker_new           (ClarifyBackend         *backend);
void                    clarify_opencode_tracker_free          (ClarifyOpencodeTracker *self);
/* Handles one OpenCode bus event {"id","type","properties"}: shows new
 * requests, withdraws answered ones and those of sessions that ended.
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

/* The call that answers @request with @response: @path is relative to the
 * instance root ("/question/que_…/reply"), @body NULL when the call has none. */
gboolean        clarify_opencode_encode_reply   (ClarifyRequest   *request,
                                                 ClarifyResponse  *response,
                                                 char            **path,
                                                 char            **body,
                                                 GError          **error);

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
 * the result of the reply call: ends the answer and returns TRUE or the error. */
void            clarify_opencode_complete_reply (ClarifyOpencodeTracker *tracker,
                                                 GTask               *task,
                                                 GAsyncResult        *result);

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
