/* clarify-connection-store.h: connections persisted in a keyfile
 *
 * ~/.config/clarify/connections.ini, one group per connection. Secrets never
 * go here (libsecret holds them).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-connection.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CONNECTION_STORE (clarify_connection_store_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyConnectionStore, clarify_connection_store, CLARIFY, CONNECTION_STORE, GObject)

/* @path NULL = the default file under g_get_user_config_dir(). */
ClarifyConnectionStore *clarify_connection_store_new    (const char             *path);
gboolean                clarify_connection_store_load   (ClarifyConnectionStore *self,
                                                         GError                **error);
gboolean                clarify_connection_store_save   (ClarifyConnectionStore *self,
                                                         GError                **error);
/* A GListModel of ClarifyConnection, sorted by name. */
GListModel             *clarify_connection_store_get_connections (ClarifyConnectionStore *self);
ClarifyConnection      *clarify_connection_store_lookup (ClarifyConnectionStore *self,
                                                         const char             *name);
/* Adds or replaces (by name). */
void                    clarify_connection_store_add    (ClarifyConnectionStore *self,
                                                         ClarifyConnection      *connection);
gboolean                clarify_connection_store_remove (ClarifyConnectionStore *self,
                                                         const char             *name);

G_END_DECLS
