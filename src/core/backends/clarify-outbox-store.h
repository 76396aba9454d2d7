/* clarify-outbox-store.h: answers kept on disk until their agent has them
 *
 * The outbox writes an answer here before it sends it, and removes it once
 * the agent took it or the outcome is final, so that an answer survives
 * Clarify being stopped or killed while the agent is away. One file per
 * answer, written atomically, mode 0600, in a directory of mode 0700. A
 * file holds the connection's name and kind, the request in its JSON form,
 * what the backend needs beyond that (clarify_backend_save_delivery()) and
 * the response: never a password or token, which stay in the secret store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"

G_BEGIN_DECLS

/* One answer read back from the store. */
typedef struct
{
  char            *name;     /* the file's name in the store */
  ClarifyRequest  *request;  /* rebuilt, with the backend's data restored */
  ClarifyResponse *response;
} ClarifyOutboxSaved;

void clarify_outbox_saved_free (ClarifyOutboxSaved *saved);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyOutboxSaved, clarify_outbox_saved_free)

#define CLARIFY_TYPE_OUTBOX_STORE (clarify_outbox_store_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyOutboxStore, clarify_outbox_store, CLARIFY, OUTBOX_STORE, GObject)

/* @dir NULL: g_get_user_data_dir()/clarify/outbox. */
ClarifyOutboxStore *clarify_outbox_store_new    (const char          *dir);
const char         *clarify_outbox_store_get_dir (ClarifyOutboxStore *self);
/* Writes the answer to @request and returns the file's name. NULL with
 * @error set when the disk refused (the answer then lives in memory only),
 * NULL without an error when @backend's answers do not outlive the process. */
char               *clarify_outbox_store_save   (ClarifyOutboxStore  *self,
                                                 ClarifyBackend      *backend,
                                                 ClarifyRequest      *request,
                                                 ClarifyResponse     *response,
                                                 GError             **error);
/* Deletes the answer @name; logs when it cannot. */
void                clarify_outbox_store_remove (ClarifyOutboxStore  *self,
                                                 const char          *name);
/* Deletes every answer kept for @connection: the user removed it. */
void                clarify_outbox_store_forget_connection (ClarifyOutboxStore *self,
                                                            const char         *connection);
/* The answers kept for @backend's connection, oldest first (a
 * GPtrArray of ClarifyOutboxSaved). A file that cannot be read back is
 * renamed NAME.bad, with a warning in the log; it is never read again. */
GPtrArray          *clarify_outbox_store_load   (ClarifyOutboxStore  *self,
                                                 ClarifyBackend      *backend);

/* What a backend keeps of answers its agent already took (the `clarify`
 * protocol's, for requests the agent sends again): one file per answer,
 * in a folder per connection under "taken" in the store's, written
 * atomically, mode 0600. Memory holds what finds them; the answers
 * themselves are read back only when an agent asks again. */
typedef struct
{
  char   *request_id;
  char   *request_digest;  /* tells a request sent again from a new one */
  gint64  taken_at;        /* g_get_real_time() */
} ClarifyOutboxTaken;

void clarify_outbox_taken_free (ClarifyOutboxTaken *taken);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyOutboxTaken, clarify_outbox_taken_free)

gboolean            clarify_outbox_store_keep_taken (ClarifyOutboxStore  *self,
                                                     const char          *connection,
                                                     const char          *request_id,
                                                     const char          *request_digest,
                                                     const char          *answer_json,
                                                     GError             **error);
/* Removes the file of @request_id's answer, if any; logs when it cannot. */
void                clarify_outbox_store_drop_taken (ClarifyOutboxStore *self,
                                                     const char         *connection,
                                                     const char         *request_id);
/* What is kept for @connection, oldest first (a GPtrArray of
 * ClarifyOutboxTaken). A file that cannot be read is renamed NAME.bad,
 * with a warning in the log. */
GPtrArray          *clarify_outbox_store_load_taken (ClarifyOutboxStore *self,
                                                     const char         *connection);
/* The answer kept for @request_id, or NULL with @error. */
char               *clarify_outbox_store_read_taken_answer (ClarifyOutboxStore  *self,
                                                            const char          *connection,
                                                            const char          *request_id,
                                                            GError             **error);

G_END_DECLS
