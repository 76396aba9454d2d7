/* clarify-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-agent-discovery.h"
#include "clarify-inbox.h"
#include "clarify-connection.h"
#include "clarify-request-dialog.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_APPLICATION (clarify_application_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyApplication, clarify_application, CLARIFY, APPLICATION, AdwApplication)

/* Exit status for bad command-line arguments (a bad --connect spec …). */
#define CLARIFY_EXIT_USAGE 2

ClarifyApplication   *clarify_application_new             (void);

/* The one owner of every request and of the running backends. */
ClarifyInbox         *clarify_application_get_inbox       (ClarifyApplication *self);

/* Every running backend (ClarifyBackend), stored connections and temporary
 * ones alike, sorted by connection name. */
GListModel           *clarify_application_get_backends    (ClarifyApplication *self);
ClarifyBackend       *clarify_application_lookup_backend  (ClarifyApplication *self,
                                                           const char         *name);

/* Runs @backend for this process only (nothing is stored): the demo, the
 * MCP endpoint, the D-Bus API. Its requests get dialogs like any agent's.
 * A running backend with the same connection name is replaced. Starts @backend. */
void                  clarify_application_add_backend     (ClarifyApplication *self,
                                                           ClarifyBackend     *backend);
/* Stops @backend; its pending requests end as withdrawn. */
void                  clarify_application_remove_backend  (ClarifyApplication *self,
                                                           ClarifyBackend     *backend);

/* Shows the dialog of @request (a pending request of the inbox) now, ahead
 * of the queue. Returns NULL when the request is no longer pending. */
ClarifyRequestDialog *clarify_application_present_request (ClarifyApplication *self,
                                                           ClarifyRequest     *request);

/* Checks a `--connect` spec: the syntax (clarify_connection_new_from_spec)
 * and that its kind has a backend. The error lists the known kinds. */
ClarifyConnection    *clarify_application_parse_connect_spec (const char   *spec,
                                                              GError      **error);

/* Adds @connection to the stored connections and connects, as `--connect`
 * does: a stored one of the same name is replaced. */
gboolean              clarify_application_add_connection  (ClarifyApplication *self,
                                                           ClarifyConnection  *connection,
                                                           GError            **error);

/* What looks for agents on this machine: once when the backends start,
 * and on app.look-for-agents. Tests point it at their fake servers
 * (clarify_agent_discovery_set_ports()) before the application starts. */
ClarifyAgentDiscovery *clarify_application_get_discovery  (ClarifyApplication *self);

/* Starts the built-in demo agent and connects to it as the temporary
 * connection "Demo" (kind "clarify"). Does nothing when it runs already. */
gboolean              clarify_application_start_demo      (ClarifyApplication *self,
                                                           GError            **error);

/* The preferences (schema io.github.clarify.Clarify); each change applies
 * at once. NULL before startup. */
GSettings            *clarify_application_get_settings    (ClarifyApplication *self);
/* Moves the MCP endpoint to @port and keeps it in the preferences; when
 * the port cannot be listened on, the endpoint stays where it is and
 * @error says why. */
gboolean              clarify_application_set_mcp_port    (ClarifyApplication *self,
                                                           guint               port,
                                                           GError            **error);
/* The port the MCP endpoint listens on now; 0 while it does not. */
guint                 clarify_application_get_mcp_listening_port (ClarifyApplication *self);

G_END_DECLS
