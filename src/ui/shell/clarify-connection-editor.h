/* clarify-connection-editor.h: add, edit, test, reconnect and remove one
 * connection with the mouse
 *
 * Saving goes through the same application code as `clarify --connect`;
 * the password or token goes to the keyring (clarify-secret.h), never to
 * connections.ini.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-application.h"
#include "clarify-connection.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CONNECTION_EDITOR (clarify_connection_editor_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyConnectionEditor, clarify_connection_editor, CLARIFY, CONNECTION_EDITOR, AdwWindow)

/* @connection: the stored connection to edit, or NULL to add one. */
ClarifyConnectionEditor *clarify_connection_editor_new (ClarifyApplication *application,
                                                        GtkWindow          *parent,
                                                        ClarifyConnection  *connection);

G_END_DECLS
