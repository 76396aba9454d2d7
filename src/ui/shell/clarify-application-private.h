/* clarify-application-private.h: the application's parts, and what the tests
 * look at inside it
 *
 * ClarifyApplication is split by concern: its lifetime and connections
 * (clarify-application.c), its command line (clarify-application-cli.c) and
 * its actions (clarify-application-actions.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-agent-discovery.h"
#include "clarify-application.h"
#include "clarify-autostart.h"
#include "clarify-connection-store.h"
#include "clarify-dbus-backend.h"
#include "clarify-demo-agent.h"
#include "clarify-dialog-queue.h"
#include "clarify-history.h"
#include "clarify-inbox.h"
#include "clarify-tray.h"
#include "clarify-window.h"

G_BEGIN_DECLS

struct _ClarifyApplication
{
  AdwApplication          parent_instance;

  ClarifyConnectionStore *store;
  ClarifyAutostart       *autostart;  /* start at login, as the user chose */
  GSettings              *settings;   /* the preferences (clarify-application-settings.c) */
  ClarifyInbox           *inbox;      /* every request, and the backends */
  ClarifyHistory         *history;    /* the requests that ended */
  ClarifyDialogQueue     *dialogs;
  GHashTable             *temporary;  /* names of connections not in the store */
  /* Connections whose backend waits for its secret: name → GCancellable. */
  GHashTable             *starting;
  ClarifyDemoAgent       *demo_agent;
  /* The Ask API for scripts: requests like any agent's, but no connection
   * to list, and nothing to keep the process alive for (D-Bus activation
   * starts it again). */
  ClarifyBackend         *dbus_backend;
  /* Claude Code's hooks, through the D-Bus API's Hook method: the same. */
  ClarifyBackend         *claude_code_backend;

  ClarifyAgentDiscovery  *discovery;  /* agents on this machine, offered */
  ClarifyWindow          *window;     /* weak */
  GtkWindow              *quit_dialog; /* weak: "Quit Clarify?" while it asks */
  ClarifyTray            *tray;       /* NULL without a session bus */
  guint                   mcp_port;   /* --mcp-port of the first command line, or 0 */
  guint                   mcp_port_refused; /* the port a change elsewhere named in vain, or 0 */
  guint                   command_line_export_id;

  guint                   backends_started : 1;
  guint                   held : 1;
  guint                   background_requested : 1;
  guint                   applying_mcp_port : 1;
};

/* clarify-application.c */
ClarifyWindow    *clarify_application_ensure_window           (ClarifyApplication  *self);
void              clarify_application_tell_user               (ClarifyApplication  *self,
                                                               const char          *notification_id,
                                                               const char          *text);
/* Hands @backend to the inbox and starts it; a @temporary one is not kept
 * in connections.ini. */
void              clarify_application_attach_backend          (ClarifyApplication  *self,
                                                               ClarifyBackend      *backend,
                                                               gboolean             temporary);
/* TRUE, with @error set, when @name is one of Clarify's own backends'
 * (MCP, D-Bus, Claude Code): no connection may take it. */
gboolean          clarify_application_refuse_builtin_name     (const char          *name,
                                                               GError             **error);
gboolean          clarify_application_disconnect              (ClarifyApplication  *self,
                                                               const char          *name,
                                                               GError             **error);

/* clarify-application-connections.c */
/* Stops making the backend of @name, if one is being made. */
void              clarify_application_cancel_start            (ClarifyApplication  *self,
                                                               const char          *name);
void              clarify_application_ensure_backends_started (ClarifyApplication  *self);
/* Adds (or replaces) @connection in connections.ini: for --connect and the
 * connection editor alike. */
gboolean          clarify_application_keep_connection         (ClarifyApplication  *self,
                                                               ClarifyConnection   *connection,
                                                               GError             **error);
/* Reads the connection's secret without blocking, then starts its backend
 * (replacing one of that name); fails at once only for an unknown kind. */
gboolean          clarify_application_start_connection        (ClarifyApplication  *self,
                                                               ClarifyConnection   *connection,
                                                               GError             **error);
/* The D-Bus API's ::password-changed: reconnects a stored connection. */
gboolean          clarify_application_password_changed_cb     (ClarifyDbusBackend  *backend,
                                                               const char          *name,
                                                               ClarifyApplication  *self);
/* Whether a backend of that name waits for its secret to start. */
gboolean          clarify_application_is_starting             (ClarifyApplication  *self,
                                                               const char          *name);
void              clarify_application_start_mcp_server        (ClarifyApplication  *self,
                                                               guint                port_override);
/* Stops the endpoint, or its start still reading the token. */
void              clarify_application_stop_mcp_server         (ClarifyApplication  *self);

/* clarify-application-cli.c */
void              clarify_application_add_options             (ClarifyApplication  *self);
int               clarify_application_run_command_line        (ClarifyApplication       *self,
                                                               GApplicationCommandLine  *command_line);
gboolean          clarify_application_export_command_line     (ClarifyApplication  *self,
                                                               GDBusConnection     *connection,
                                                               const char          *object_path,
                                                               GError             **error);
void              clarify_application_unexport_command_line   (ClarifyApplication  *self,
                                                               GDBusConnection     *connection);
int               clarify_application_run_remote              (ClarifyApplication  *self,
                                                               GVariantDict        *options);

/* clarify-application-actions.c */
void              clarify_application_add_actions             (ClarifyApplication  *self);
void              clarify_application_update_demo_action      (ClarifyApplication  *self);

/* clarify-application-settings.c */
void              clarify_application_init_settings           (ClarifyApplication  *self);
void              clarify_application_apply_settings          (ClarifyApplication  *self);
/* Asks the portal for running in the background (and autostart, when
 * chosen), and asks the user about start at login once. */
void              clarify_application_apply_start_at_login    (ClarifyApplication  *self);
guint             clarify_application_get_mcp_port_setting    (ClarifyApplication  *self);

/* For tests. */
/* The agent behind --demo, or NULL while it does not run. */
ClarifyDemoAgent *clarify_application_get_demo_agent          (ClarifyApplication  *self);
ClarifyHistory   *clarify_application_get_history             (ClarifyApplication  *self);
/* How many requests wait behind the dialog on screen. */
guint             clarify_application_get_n_queued            (ClarifyApplication  *self);

G_END_DECLS
