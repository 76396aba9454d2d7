/* clarify-ihub-backend.h: iHub Apps (intrafind/ihub-apps), kind "ihub"
 *
 * The connection's URL is the server's root or its deployment base path
 * (https://host/ihub/). Options: "username" (log in with the password that
 * `clarify set-password NAME` stored), "auth" ("token": send the stored
 * secret as a bearer token instead; "none": anonymous even with a
 * username), "language", "stall-limit" (seconds without a byte before a
 * turn counts as lost; default 90, the server beats every 30).
 *
 * The backend keeps the conversations (ClarifyIhubChat) and turns each
 * clarification they receive into a request of the inbox.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "clarify-backend.h"
#include "clarify-backend-probe.h"
#include "clarify-ihub-chat.h"

G_BEGIN_DECLS

extern const ClarifyProbeSpec clarify_ihub_probe;

/* One app of GET /api/apps, its texts in the user's language. */
typedef struct
{
  char *id;
  char *name;
  char *description;
  char *preferred_model;
} ClarifyIhubApp;

void clarify_ihub_app_free (ClarifyIhubApp *app);

#define CLARIFY_TYPE_IHUB_BACKEND (clarify_ihub_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyIhubBackend, clarify_ihub_backend, CLARIFY, IHUB_BACKEND, ClarifyBackend)

ClarifyBackend  *clarify_ihub_backend_new            (ClarifyConnection   *connection);

/* The apps the user may use: a GPtrArray of ClarifyIhubApp. */
void             clarify_ihub_backend_list_apps_async  (ClarifyIhubBackend  *self,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GPtrArray       *clarify_ihub_backend_list_apps_finish (ClarifyIhubBackend  *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

/* A GListModel of ClarifyIhubChat: the conversations of this connection,
 * those of earlier runs included once the backend started. */
GListModel      *clarify_ihub_backend_get_chats      (ClarifyIhubBackend  *self);
/* A new conversation with @app_id (@chat_id NULL: a fresh one), or the
 * one kept under @chat_id. Settings come from the listed app if known. */
ClarifyIhubChat *clarify_ihub_backend_open_chat      (ClarifyIhubBackend  *self,
                                                      const char          *app_id,
                                                      const char          *chat_id);
ClarifyIhubChat *clarify_ihub_backend_lookup_chat    (ClarifyIhubBackend  *self,
                                                      const char          *chat_id);

/* For ClarifyIhubChat. */
SoupSession     *clarify_ihub_backend_get_session    (ClarifyIhubBackend  *self);
SoupMessage     *clarify_ihub_backend_new_message    (ClarifyIhubBackend  *self,
                                                      const char          *method,
                                                      const char          *path,
                                                      const char          *body);
guint            clarify_ihub_backend_get_stall_ms   (ClarifyIhubBackend  *self);
/* Logs in when the connection has a password and is not logged in yet
 * (@force: again). FALSE with CLARIFY_ERROR_AUTH when it was refused. */
void             clarify_ihub_backend_log_in_async   (ClarifyIhubBackend  *self,
                                                      gboolean             force,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean         clarify_ihub_backend_log_in_finish  (ClarifyIhubBackend  *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
gboolean         clarify_ihub_backend_can_log_in     (ClarifyIhubBackend  *self);
void             clarify_ihub_backend_add_clarification (ClarifyIhubBackend *self,
                                                      ClarifyIhubChat     *chat,
                                                      ClarifyRequest      *request);
void             clarify_ihub_backend_drop_clarification (ClarifyIhubBackend *self,
                                                      const char          *request_id);

/* How discovery recognises one on this machine. */
extern const ClarifyBackendProbe clarify_ihub_backend_probe;

G_END_DECLS
