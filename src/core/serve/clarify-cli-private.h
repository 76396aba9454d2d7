/* clarify-cli-private.h: what the commands of clarify-cli.h share
 *
 * Each command with more than a screenful of code has its own file;
 * clarify_cli_handle_client() (clarify-cli-client.c, ask and hook) and
 * clarify_cli_handle() (clarify-cli.c, the others) dispatch to them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-dbus-api.h"

G_BEGIN_DECLS

/* The running app over D-Bus, the one way the commands reach it: on the
 * session bus, or on @connection to it. */
ClarifyDbusApi *clarify_cli_app_proxy_new    (GError              **error);
ClarifyDbusApi *clarify_cli_app_proxy_new_on (GDBusConnection      *connection,
                                              GError              **error);
void            clarify_cli_ask_app_async    (ClarifyDbusApi       *app,
                                              const char           *request_json,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
char           *clarify_cli_ask_app_finish   (GObject              *proxy,
                                              GAsyncResult         *result,
                                              GError              **error);

/* Cancels @cancellable when Clarify's name, once owned, loses its owner:
 * Clarify died (or quit) while a caller waits. Unwatch the returned id. */
guint           clarify_cli_watch_owner      (GDBusConnection      *bus,
                                              GCancellable         *cancellable);
/* Completes once Clarify owns its name on @bus, starting it when it does
 * not run: D-Bus activation where its service file is installed, else
 * (a build tree) this program as `clarify --gapplication-service`, as the
 * service file would. Fails when it cannot be started or has not taken
 * its name within @timeout_ms. A cancelled @cancellable makes it fail
 * with G_IO_ERROR_CANCELLED when it completes. */
void            clarify_cli_reach_app_async  (GDBusConnection      *bus,
                                              guint                 timeout_ms,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean        clarify_cli_reach_app_finish (GAsyncResult         *result,
                                              GError              **error);
/* How long `clarify ask` and `mcp-stdio` give a cold start of Clarify:
 * GTK's start on a loaded machine, or under the sanitizers. */
#define CLARIFY_CLI_REACH_TIMEOUT_MS 30000

/* Whether a call's @error says Clarify went away before it answered. */
gboolean        clarify_cli_is_owner_gone    (const GError         *error);
/* A copy of @argv for GOptionContext, its argv[0] replaced by @name
 * ("clarify ask"), which --help and the messages show. */
GStrv           clarify_cli_args_new         (const char           *name,
                                              int                   argc,
                                              char                **argv);

/* The commands, with argv[0] the command's own name. */
int             clarify_cli_run_ask          (int                   argc,
                                              char                **argv);
int             clarify_cli_run_mcp_stdio    (int                   argc,
                                              char                **argv);
int             clarify_cli_run_hook         (int                   argc,
                                              char                **argv);
/* @program is clarify's own argv[0], for the hook command. */
int             clarify_cli_run_setup        (const char           *program,
                                              int                   argc,
                                              char                **argv);

G_END_DECLS
