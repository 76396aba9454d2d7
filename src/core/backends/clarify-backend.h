/* clarify-backend.h: the one interface every agent protocol implements
 *
 * A backend turns one connection's stream into ClarifyRequests and encodes
 * ClarifyResponses back onto that agent's wire. See HACKING.md for how to add one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-connection.h"
#include "clarify-request.h"
#include "clarify-response.h"
#include "clarify-sse-client.h"

G_BEGIN_DECLS

typedef struct _ClarifyInbox ClarifyInbox;

#define CLARIFY_TYPE_BACKEND (clarify_backend_get_type ())
G_DECLARE_DERIVABLE_TYPE (ClarifyBackend, clarify_backend, CLARIFY, BACKEND, GObject)

struct _ClarifyBackendClass
{
  GObjectClass parent_class;

  /* Open the stream(s); report progress with clarify_backend_set_state(). */
  void     (*start)          (ClarifyBackend       *self);
  /* Close everything; no signal is emitted afterwards. */
  void     (*stop)           (ClarifyBackend       *self);
  /* Deliver @response exactly as the agent's own client would: post it, or
   * complete the caller that waits for it. The inbox calls this through its
   * outbox and makes the result the request's state. Errors use
   * CLARIFY_ERROR: GONE for "already answered elsewhere", TRANSIENT for
   * network trouble worth retrying, REJECTED/PROTOCOL/AUTH otherwise. */
  void     (*deliver_async)  (ClarifyBackend       *self,
                              ClarifyRequest       *request,
                              ClarifyResponse      *response,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data);
  gboolean (*deliver_finish) (ClarifyBackend       *self,
                              GAsyncResult         *result,
                              GError              **error);

  gpointer padding[8];
};

ClarifyConnection      *clarify_backend_get_connection    (ClarifyBackend      *self);
ClarifyConnectionState  clarify_backend_get_state         (ClarifyBackend      *self);
/* A short, localized explanation of the state ("Reconnecting in 4 s",
 * "Failed: connection refused"), or NULL. */
const char             *clarify_backend_get_state_message (ClarifyBackend      *self);

void                    clarify_backend_start             (ClarifyBackend      *self);
void                    clarify_backend_stop              (ClarifyBackend      *self);
void                    clarify_backend_deliver_async     (ClarifyBackend      *self,
                                                           ClarifyRequest      *request,
                                                           ClarifyResponse     *response,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean                clarify_backend_deliver_finish    (ClarifyBackend      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

/* The inbox that holds this backend's requests. A backend used alone (as in
 * tests) gets one of its own. */
ClarifyInbox           *clarify_backend_get_inbox         (ClarifyBackend      *self);
/* Sends this backend's requests to @inbox (held weakly) without listing the
 * backend there: for sources that are not connections, like the D-Bus API.
 * clarify_inbox_add_backend() calls it too. */
void                    clarify_backend_set_inbox         (ClarifyBackend      *self,
                                                           ClarifyInbox        *inbox);
/* This backend's requests that are pending or sending (a view of the inbox). */
GListModel             *clarify_backend_get_requests      (ClarifyBackend      *self);
ClarifyRequest         *clarify_backend_lookup_request    (ClarifyBackend      *self,
                                                           const char          *request_id);

/* For subclasses. */
void                    clarify_backend_set_state         (ClarifyBackend      *self,
                                                           ClarifyConnectionState state,
                                                           const char          *message);
/* Keeps the state in step with @client's, with a localized message
 * ("Connecting…", "Connected", "Reconnecting in 4 s…", "Failed: …").
 * A subclass that adds to it connects to @client's notify::state afterwards. */
void                    clarify_backend_follow_sse_client (ClarifyBackend      *self,
                                                           ClarifySseClient    *client);
/* For dispose: disconnects @self from *@client, stops it and clears it. */
void                    clarify_backend_clear_sse_client  (ClarifyBackend      *self,
                                                           ClarifySseClient   **client);
/* Adds @request to the inbox, stamped with the connection, and emits
 * ::request-added. A request whose id the inbox holds already is ignored
 * (a resync after a reconnect must never show a question twice): returns
 * FALSE then. */
gboolean                clarify_backend_add_request       (ClarifyBackend      *self,
                                                           ClarifyRequest      *request);
/* The agent no longer asks: the inbox ends the request as withdrawn, unless
 * an answer to it is on its way (its result decides). @reason is not NONE;
 * @detail (nullable) is untranslated data, such as the agent's own words. */
void                    clarify_backend_withdraw_request  (ClarifyBackend      *self,
                                                           const char          *request_id,
                                                           ClarifyEndReason     reason,
                                                           const char          *detail);
/* The agent has an answer to the request (ours, or the echo of it): the
 * inbox ends it as answered, without a word to the user. */
void                    clarify_backend_forget_request    (ClarifyBackend      *self,
                                                           const char          *request_id);

G_END_DECLS
