/* clarify-opencode-decoder.h: OpenCode's question and permission requests,
 * decoded from their JSON alone (no HTTP, no backend), for every backend
 * that carries them (OpenCode, CodeNomad)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"

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
  gboolean                   agent_gone;  /* a resync after a restart no longer listed it */
  gboolean                   unreached;   /* our answer did not get through: it may have restarted */
} ClarifyOpencodeRequestInfo;

/* The request's info, or NULL when @request was not decoded here. */
ClarifyOpencodeRequestInfo *clarify_opencode_request_get_info (ClarifyRequest *request);

/* The info as a JSON object (NULL without one), and that object put back
 * onto a request rebuilt from its JSON form: an answer kept on disk. */
JsonNode                   *clarify_opencode_request_save_info    (ClarifyRequest  *request);
gboolean                    clarify_opencode_request_restore_info (ClarifyRequest  *request,
                                                                   JsonNode        *node,
                                                                   GError         **error);

/* g_object_get_data (request, CLARIFY_REQUEST_DATA_KIND) is "question" or
 * "permission", so that the UI may label a request without knowing OpenCode. */
#define CLARIFY_REQUEST_DATA_KIND "clarify-request-kind"

/* The id of the permission request's question (CLARIFY_QUESTION_KIND_PERMISSION,
 * its custom text the message that goes with a refusal). The encoder still
 * takes the message from a separate answer under the second id. */
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

/* The request in @properties, decoded as @kind says. */
ClarifyRequest *clarify_opencode_request_decode (ClarifyOpencodeRequestKind   kind,
                                                 JsonObject                  *properties,
                                                 const char                  *directory,
                                                 const char                  *workspace_id,
                                                 GError                     **error);

typedef enum
{
  /* Nothing that concerns a request: heartbeats, messages, a malformed event. */
  CLARIFY_OPENCODE_EVENT_NONE,
  /* A request to show: clarify_opencode_request_decode (kind, properties, …). */
  CLARIFY_OPENCODE_EVENT_ASKED,
  /* request_id was answered or dismissed, here or elsewhere. */
  CLARIFY_OPENCODE_EVENT_WITHDRAW,
  /* session_id stopped (idle, error, deleted): its requests are moot. */
  CLARIFY_OPENCODE_EVENT_SESSION_ENDED,
} ClarifyOpencodeEventAction;

/* What one bus event {"id","type","properties"} means for requests. The
 * strings and @properties belong to the event. */
typedef struct
{
  ClarifyOpencodeEventAction  action;
  const char                 *type;       /* the event's type, "" when malformed */
  ClarifyOpencodeRequestKind  kind;       /* ASKED */
  JsonObject                 *properties; /* ASKED */
  const char                 *request_id; /* ASKED (NULL when missing), WITHDRAW */
  const char                 *session_id; /* SESSION_ENDED */
  ClarifyEndReason            reason;     /* WITHDRAW, SESSION_ENDED */
} ClarifyOpencodeEvent;

void            clarify_opencode_event_decode   (JsonObject                  *event,
                                                 ClarifyOpencodeEvent        *decoded);

G_END_DECLS
