/* clarify-ag3ntum-api.h: Ag3ntum's login and API calls
 *
 * Split from the backend so that the token's life (login, the shared wait
 * for it, the timer that renews it, the one retry on 401) is one unit
 * that the session watching and the answers only call.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-ag3ntum-backend-private.h"
#include "clarify-api-call.h"

G_BEGIN_DECLS

/* Logs in; every caller that needs a fresh token waits for the same one. */
void      clarify_ag3ntum_login_async     (ClarifyAg3ntumBackend  *self,
                                           GCancellable           *cancellable,
                                           GAsyncReadyCallback     callback,
                                           gpointer                user_data);
gboolean  clarify_ag3ntum_login_finish    (ClarifyAg3ntumBackend  *self,
                                           GAsyncResult           *result,
                                           GError                **error);
/* Arms or clears the timer that logs in again before the token expires. */
void      clarify_ag3ntum_update_timer    (ClarifyAg3ntumBackend  *self);

/* Calls the API, logging in first when there is no token, and again once
 * on 401; clarify_api_call_finish() gives the reply. */
void      clarify_ag3ntum_api_call_async  (ClarifyAg3ntumBackend  *self,
                                           const char             *method,
                                           const char             *path,
                                           const char             *body,
                                           GCancellable           *cancellable,
                                           GAsyncReadyCallback     callback,
                                           gpointer                user_data);

/* "/api/v1/sessions/{session_id}@tail", the id escaped. */
char     *clarify_ag3ntum_session_path    (const char             *session_id,
                                           const char             *tail);

G_END_DECLS
