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

#include "clarify-application.h"
#include "clarify-autostart.h"
#include "clarify-connection-store.h"
#include "clarify-demo-agent.h"
#include "clarify-dialog-queue.h"
#include "clarify-inbox.h"
#include "clarify-tray.h"
#include "clarify-window.h"

G_BEGIN_DECLS

struct _ClarifyApplication
{
  AdwApplication          parent_instance;

  ClarifyConnectionStore *store;
  ClarifyAutostart       *autostart;  /* start at login, as the user chose */
  ClarifyInbox           *inbox;      /* every request, and the backends */
  ClarifyDialogQueue     *dialogs;
  GHashTable             *temporary;  /* names of connections not in the store */
  ClarifyDemoAgent       *demo_agent;
  /* The Ask API for scripts: requests like any agent's, but no connection
   * to list, and nothing to keep the process alive for (D-Bus activation
   * starts it again). */
  ClarifyBackend         *dbus_backend;
  /* Claude Code's hooks, through the D-Bus API's Hook method: the same. */
  ClarifyBackend         *claude_code_backend;

  ClarifyWindow          *window;     /* weak */
  ClarifyTray            *tray;       /* NULL without a session bus */
  guint                   mcp_port;   /* --mcp-port of the first command line, or 0 */
  guint                   command_line_export_id;

  guint                   backends_started : 1;
  guint                   held : 1;
  guint                   background_requested : 1;
};

/* clarify-application.c */
ClarifyWindow    *clarify_application_ensure_window           (ClarifyApplication  *self);
void              clarify_application_tell_user               (ClarifyApplication  *self,
                                                               const char          *notification_id,
                                                               const char          *text);
void              clarify_application_ensure_backends_started (ClarifyApplication  *self);
gboolean          clarify_application_start_connection        (ClarifyApplication  *self,
                                                               ClarifyConnection   *connection,
                                                               GError             **error);
void              clarify_application_start_mcp_server        (ClarifyApplication  *self,
                                                               guint                port_override);
gboolean          clarify_application_disconnect              (ClarifyApplication  *self,
                                                               const char          *name,
                                                               GError             **error);

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

/* For tests. */
/* The agent behind --demo, or NULL while it does not run. */
ClarifyDemoAgent *clarify_application_get_demo_agent          (ClarifyApplication  *self);
/* How many requests wait behind the dialog on screen. */
guint             clarify_application_get_n_queued            (ClarifyApplication  *self);

G_END_DECLS
