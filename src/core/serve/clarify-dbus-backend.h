/* clarify-dbus-backend.h: the D-Bus API for scripts, kind "dbus"
 *
 * Exports io.github.clarify.Clarify (data/dbus/io.github.clarify.Clarify.xml,
 * installed to $datadir/dbus-1/interfaces; clarify-dbus-api.h is generated
 * from it) at /io/github/clarify/Clarify on the application's own bus name
 * with three methods and a property:
 *
 *   Ask (s request_json) → (s response_json)
 *
 * in the JSON form of clarify-json.h ("id" may be left out; the reply
 * carries the caller's id). The reply is sent once the user answered,
 * skipped or cancelled, or the request's timeout passed; a caller that
 * leaves the bus withdraws its dialog. Malformed requests fail with
 * org.freedesktop.DBus.Error.InvalidArgs. `clarify ask` and
 * `clarify mcp-stdio` are its clients.
 *
 *   Hook (s agent, s input_json) → (s output_json)
 *
 * answers one of an agent's hooks (agent "claude-code") through the
 * ClarifyClaudeCodeBackend it is given: the input is the hook's stdin, the
 * reply its stdout ("" prints nothing). `clarify hook` is its client.
 *
 *   SetPassword (s name, s password) → (b reconnected)
 *
 * stores a connection's password with this process's secret store ("" removes
 * it), then emits ::password-changed, whose handler (the application)
 * reconnects that connection. `clarify set-password` is its client while
 * Clarify runs.
 *
 *   McpPort (q, read)
 *
 * the port the MCP endpoint listens on now, 0 while there is none; the
 * application keeps it up to date. `clarify --mcp-info` reads it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-claude-code-backend.h"
#include "clarify-local-backend.h"

G_BEGIN_DECLS

#define CLARIFY_DBUS_NAME      "io.github.clarify.Clarify"
/* The connection name its questions are shown under. */
#define CLARIFY_DBUS_BACKEND_NAME "D-Bus"
#define CLARIFY_DBUS_PATH      "/io/github/clarify/Clarify"

#define CLARIFY_TYPE_DBUS_BACKEND (clarify_dbus_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyDbusBackend, clarify_dbus_backend, CLARIFY, DBUS_BACKEND, ClarifyLocalBackend)

/* clarify_backend_start() registers the object on @bus at @object_path
 * (NULL: CLARIFY_DBUS_PATH); stop unregisters it. */
ClarifyBackend *clarify_dbus_backend_new              (GDBusConnection          *bus,
                                                       const char               *object_path);
/* What McpPort says: the MCP endpoint's port now, 0 for none. */
void            clarify_dbus_backend_set_mcp_port     (ClarifyDbusBackend       *self,
                                                       guint                     port);
/* Hook calls go to @backend; without one they fail with NotSupported. */
void            clarify_dbus_backend_set_hook_backend (ClarifyDbusBackend       *self,
                                                       ClarifyClaudeCodeBackend *backend);

G_END_DECLS
