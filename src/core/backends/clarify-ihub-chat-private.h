/* clarify-ihub-chat-private.h: what only ClarifyIhubBackend calls on a chat
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-ihub-backend.h"
#include "clarify-ihub-chat.h"
#include "clarify-response.h"

G_BEGIN_DECLS

ClarifyIhubChat *clarify_ihub_chat_new           (ClarifyIhubBackend  *backend,
                                                  const char          *app_id,
                                                  const char          *chat_id);
/* A conversation saved by an earlier run, or NULL. */
ClarifyIhubChat *clarify_ihub_chat_new_from_file (ClarifyIhubBackend  *backend,
                                                  const char          *path,
                                                  GError             **error);
/* Where the conversations of @connection_name are kept. */
char            *clarify_ihub_chat_dup_dir       (const char          *connection_name);

/* Puts a restored clarification (back) into the inbox. */
void             clarify_ihub_chat_ask_again     (ClarifyIhubChat     *self);

/* Sends the answer as the next turn; completes once the server took it. */
void             clarify_ihub_chat_answer_async  (ClarifyIhubChat     *self,
                                                  ClarifyRequest      *request,
                                                  ClarifyResponse     *response,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean         clarify_ihub_chat_answer_finish (ClarifyIhubChat     *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* Ends what runs, for the backend's stop() and dispose(). */
void             clarify_ihub_chat_shutdown      (ClarifyIhubChat     *self);

G_END_DECLS
