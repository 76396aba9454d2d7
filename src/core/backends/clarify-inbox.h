/* clarify-inbox.h: the one owner of every request and its state
 *
 * Backends add and withdraw requests through the inbox; the user's answers
 * go through it to the outbox, which delivers them with the backend's
 * deliver_async(). Whatever shows requests (the window's list, the tray,
 * notifications, the dialog queue) observes the inbox and keeps no list of
 * its own.
 *
 *   add ──▶ PENDING ──answer──▶ SENDING ──delivered──▶ DONE (answered, cancelled, timed out)
 *              │  ▲                │
 *              │  └──refused───────┤ (REJECTED, AUTH: the user may answer again)
 *              │                   └──gone / failed──▶ DONE (answered elsewhere, failed)
 *              └──withdraw, deadline, backend removed──▶ DONE (withdrawn, timed out)
 *
 * Why a request ended, or why its answer was refused, travels as a
 * ClarifyEndReason (clarify_request_get_end_reason()); the UI words it.
 *
 * The inbox is a GListModel of the requests that are pending or sending, in
 * arrival order. All deadlines run from one GLib timer, armed for the earliest
 * one and only while a request with a deadline is pending.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"
#include "clarify-outbox.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_INBOX (clarify_inbox_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyInbox, clarify_inbox, CLARIFY, INBOX, GObject)

ClarifyInbox   *clarify_inbox_new                (void);

/* Backends. Adding one replaces a backend with the same connection name,
 * and sends the answers that connection still owes, kept by the outbox's
 * store (::replay-ended tells how each ended); removing one stops it and
 * ends its requests, leaving their kept answers on disk. */
void            clarify_inbox_add_backend        (ClarifyInbox    *self,
                                                  ClarifyBackend  *backend);
void            clarify_inbox_remove_backend     (ClarifyInbox    *self,
                                                  ClarifyBackend  *backend);
/* A GListModel of ClarifyBackend, sorted by connection name. */
GListModel     *clarify_inbox_get_backends       (ClarifyInbox    *self);
ClarifyBackend *clarify_inbox_lookup_backend     (ClarifyInbox    *self,
                                                  const char      *connection_name);

/* For backends (through clarify_backend_add_request() and friends).
 * FALSE with G_IO_ERROR_EXISTS for a request it has already, with
 * CLARIFY_ERROR_BUSY when it holds as many as it keeps (200 of one
 * connection, 1,000 or 64 MiB in all; see ::requests-refused). */
gboolean        clarify_inbox_add                (ClarifyInbox    *self,
                                                  ClarifyBackend  *backend,
                                                  ClarifyRequest  *request,
                                                  GError         **error);
ClarifyRequest *clarify_inbox_lookup             (ClarifyInbox    *self,
                                                  ClarifyBackend  *backend,
                                                  const char      *request_id);
void            clarify_inbox_withdraw           (ClarifyInbox    *self,
                                                  ClarifyBackend  *backend,
                                                  const char      *request_id,
                                                  ClarifyRequestEnd end,
                                                  ClarifyEndReason reason,
                                                  const char      *detail);
/* The requests of @backend that are pending or sending (a view kept by the inbox). */
GListModel     *clarify_inbox_get_requests_of    (ClarifyInbox    *self,
                                                  ClarifyBackend  *backend);

/* For the user's side. */
void            clarify_inbox_answer             (ClarifyInbox    *self,
                                                  ClarifyRequest  *request,
                                                  ClarifyResponse *response);
/* The last answer given to @request (the user's, one kept across a
 * restart, or "timed out" at its deadline), once given: while it is sent
 * and after it ended; NULL for a request nobody answered. */
ClarifyResponse *clarify_inbox_get_answer        (ClarifyRequest  *request);
ClarifyBackend *clarify_inbox_get_backend_of     (ClarifyInbox    *self,
                                                  ClarifyRequest  *request);
/* A key that names @request across backends, for actions and notifications. */
char           *clarify_inbox_dup_key            (ClarifyRequest  *request);
ClarifyRequest *clarify_inbox_lookup_key         (ClarifyInbox    *self,
                                                  const char      *key);
/* The requests that wait for the user (state PENDING), oldest first. */
GListModel     *clarify_inbox_get_pending        (ClarifyInbox    *self);
/* How many requests wait for the user (state PENDING). */
guint           clarify_inbox_get_n_pending      (ClarifyInbox    *self);

ClarifyOutbox  *clarify_inbox_get_outbox         (ClarifyInbox    *self);
/* For tests: whether the deadline timer is armed now. */
gboolean        clarify_inbox_has_timer          (ClarifyInbox    *self);

G_END_DECLS
