/* clarify-outbox.h: answers on their way back to the agents
 *
 * Transient failures are retried with backoff so that no answer is lost;
 * the retry timer exists only while something waits in the outbox. With a
 * store, every answer is written to disk before it is sent and removed once
 * the outcome is final, so that one Clarify sends again after a restart.
 * The inbox owns the outbox and turns its results into the request's state.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"
#include "clarify-outbox-store.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_OUTBOX (clarify_outbox_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyOutbox, clarify_outbox, CLARIFY, OUTBOX, GObject)

ClarifyOutbox *clarify_outbox_new       (void);
/* Sends @response for @request through @backend. Emits ::delivered
 * (request, response) on success, ::failed (request, response, GError) when
 * the error is final: GONE (answered elsewhere) or a rejected answer. */
void           clarify_outbox_post      (ClarifyOutbox   *self,
                                         ClarifyBackend  *backend,
                                         ClarifyRequest  *request,
                                         ClarifyResponse *response);
/* Sends an answer read back from the store (@file), without writing it
 * again. The agent refusing the login (AUTH) is retried for it: at start,
 * the backend may not have logged in yet. */
void           clarify_outbox_post_saved (ClarifyOutbox   *self,
                                          ClarifyBackend  *backend,
                                          ClarifyRequest  *request,
                                          ClarifyResponse *response,
                                          const char      *file);
/* Where answers are kept until delivered; NULL (the default) keeps them in
 * memory only. Dropping the store before the backends keeps their answers
 * on disk for the next start. */
void           clarify_outbox_set_store  (ClarifyOutbox      *self,
                                          ClarifyOutboxStore *store);
ClarifyOutboxStore *clarify_outbox_get_store (ClarifyOutbox  *self);
/* Drops the answer to @request (and its file) unless its post is under way. Returns FALSE
 * when it is: then ::delivered or ::failed still follows, and a failure worth a retry
 * gets none. */
gboolean       clarify_outbox_cancel        (ClarifyOutbox   *self,
                                             ClarifyRequest  *request);
/* Drops the answer to @request and keeps its file: its backend goes, but
 * the connection may come back (replaced, or at the next start) and send it
 * then. A post under way still settles the file: taken or final, it goes;
 * ::let-go-settled tells either way. */
void           clarify_outbox_let_go        (ClarifyOutbox   *self,
                                             ClarifyRequest  *request);
guint          clarify_outbox_get_n_pending (ClarifyOutbox *self);
/* Whether an answer in the outbox, or one let go whose post is under way,
 * owns the store's file @file: not to be sent a second time. */
gboolean       clarify_outbox_holds_file    (ClarifyOutbox   *self,
                                             const char      *file);
/* @backend's agent is reachable again (its stream opened): the answers
 * waiting for it are sent now, and their back-off starts over, rather
 * than up to a minute later. */
void           clarify_outbox_retry_backend (ClarifyOutbox  *self,
                                             ClarifyBackend *backend);
/* For tests: the first retry delay and its cap (defaults 1 s and 60 s). */
void           clarify_outbox_set_backoff   (ClarifyOutbox *self,
                                             guint          initial_ms,
                                             guint          max_ms);

G_END_DECLS
