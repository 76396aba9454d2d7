/* clarify-local-backend.h: requests asked by local callers, not by a stream
 *
 * The base of the MCP endpoint (kind "mcp") and the D-Bus API (kind "dbus").
 * A caller hands in a ClarifyRequest and waits; the request joins the
 * pending list like any agent's, the app shows its dialog, and
 * clarify_backend_deliver_async() completes the caller's wait. The inbox
 * times the request out (so a caller gets "timed out" even where no dialog
 * counts down), and a caller that goes away (its GCancellable) withdraws the
 * dialog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_LOCAL_BACKEND (clarify_local_backend_get_type ())
G_DECLARE_DERIVABLE_TYPE (ClarifyLocalBackend, clarify_local_backend, CLARIFY, LOCAL_BACKEND, ClarifyBackend)

struct _ClarifyLocalBackendClass
{
  ClarifyBackendClass parent_class;

  gpointer padding[4];
};

/* A request id no pending request of this backend has ("mcp-7"). */
char            *clarify_local_backend_next_request_id (ClarifyLocalBackend  *self);

/* Adds @request and completes once it is answered, skipped, cancelled or
 * timed out (a ClarifyResponse). Errors: G_IO_ERROR_EXISTS when a request
 * with the same id is pending, G_IO_ERROR_CANCELLED when @cancellable fired
 * (the request is then withdrawn), G_IO_ERROR_CLOSED when the backend stops. */
void             clarify_local_backend_ask_async       (ClarifyLocalBackend  *self,
                                                        ClarifyRequest       *request,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
ClarifyResponse *clarify_local_backend_ask_finish      (ClarifyLocalBackend  *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

/* For subclasses: the agent no longer needs an answer to @request_id (it
 * got one elsewhere). Withdraws the dialog with @reason and ends the
 * caller's wait with CLARIFY_ERROR_GONE. Does nothing when no caller
 * waits for it. */
void             clarify_local_backend_withdraw        (ClarifyLocalBackend  *self,
                                                        const char           *request_id,
                                                        ClarifyEndReason      reason);

/* How many callers wait now. */
guint            clarify_local_backend_get_n_waiting   (ClarifyLocalBackend  *self);

G_END_DECLS
