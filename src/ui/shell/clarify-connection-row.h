/* clarify-connection-row.h: one connection and its live state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-backend.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CONNECTION_ROW (clarify_connection_row_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyConnectionRow, clarify_connection_row, CLARIFY, CONNECTION_ROW, AdwActionRow)

GtkWidget      *clarify_connection_row_new         (ClarifyBackend       *backend);
/* The state as shown, e.g. "Connected" or "Reconnecting in 4 s". */
const char     *clarify_connection_row_get_state_text (ClarifyConnectionRow *self);

G_END_DECLS
