/* clarify-connection.h: one configured agent endpoint
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "clarify-transport-enums.h"

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_CONNECTION_STATE_IDLE,
  CLARIFY_CONNECTION_STATE_CONNECTING,
  CLARIFY_CONNECTION_STATE_CONNECTED,
  CLARIFY_CONNECTION_STATE_RECONNECTING,
  CLARIFY_CONNECTION_STATE_FAILED,
} ClarifyConnectionState;

#define CLARIFY_TYPE_CONNECTION (clarify_connection_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyConnection, clarify_connection, CLARIFY, CONNECTION, GObject)

ClarifyConnection *clarify_connection_new           (const char         *name,
                                                     const char         *kind,
                                                     const char         *url);
/* Parses "NAME=KIND:URL" as given to `clarify --connect`. The name is
 * letters, digits, '-', '_' and '.'; the URL must be http(s). */
ClarifyConnection *clarify_connection_new_from_spec (const char         *spec,
                                                     GError            **error);
/* Letters, digits, '-', '_' and '.': what a connection may be called. */
gboolean           clarify_connection_name_is_valid (const char         *name);
const char        *clarify_connection_get_name      (ClarifyConnection  *self);
const char        *clarify_connection_get_kind      (ClarifyConnection  *self);
const char        *clarify_connection_get_url       (ClarifyConnection  *self);
/* Backend-specific settings (username, workspace, stall limit …), kept as
 * strings so that the store needs no knowledge of any backend. */
const char        *clarify_connection_get_option    (ClarifyConnection  *self,
                                                     const char         *key);
void               clarify_connection_set_option    (ClarifyConnection  *self,
                                                     const char         *key,
                                                     const char         *value);
/* Sorted keys of the options; free with g_strfreev(). */
char             **clarify_connection_list_options  (ClarifyConnection  *self);
/* "NAME=KIND:URL" */
char              *clarify_connection_to_spec       (ClarifyConnection  *self);

G_END_DECLS
