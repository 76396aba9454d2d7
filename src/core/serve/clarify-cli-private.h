/* clarify-cli-private.h: the way to the running app, for the commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-dbus-api.h"

G_BEGIN_DECLS

/* The app's Ask API on the session bus; the call auto-starts the app. */
ClarifyDbusApi *clarify_cli_app_proxy_new  (GError             **error);
/* Ask with no call timeout: the user may take as long as they like. */
void            clarify_cli_ask_app_async  (ClarifyDbusApi      *app,
                                            const char          *request_json,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
char           *clarify_cli_ask_app_finish (GObject             *proxy,
                                            GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS
