/* clarify-api-call.h: an API call that logs in again once on 401
 *
 * Backends that log in (Ag3ntum, CodeNomad) wrap every API call the same
 * way: log in first where they must, and when the server answers 401,
 * log in again and send the call once more. The backend says how in a
 * ClarifyApiLogin; its functions take the backend as @owner.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct
{
  SoupSession *(*session)      (gpointer             owner);
  /* The message of one attempt. */
  SoupMessage *(*message_new)  (gpointer             owner,
                                const char          *method,
                                const char          *path,
                                const char          *body);
  /* Whether to log in before the first attempt; NULL for never. */
  gboolean     (*must_log_in)  (gpointer             owner);
  /* Whether a 401 is worth a login; NULL for always. */
  gboolean     (*can_log_in)   (gpointer             owner);
  void         (*login_async)  (gpointer             owner,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data);
  gboolean     (*login_finish) (gpointer             owner,
                                GAsyncResult        *result,
                                GError             **error);
} ClarifyApiLogin;

/* Completes with the reply's JSON; logs in at most once. */
void      clarify_api_call_async  (gpointer                owner,
                                   const ClarifyApiLogin  *login,
                                   const char             *method,
                                   const char             *path,
                                   const char             *body,
                                   GCancellable           *cancellable,
                                   GAsyncReadyCallback     callback,
                                   gpointer                user_data);
JsonNode *clarify_api_call_finish (GAsyncResult           *result,
                                   GError                **error);

G_END_DECLS
