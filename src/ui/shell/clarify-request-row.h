/* clarify-request-row.h: one question waiting for an answer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-request.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_REQUEST_ROW (clarify_request_row_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequestRow, clarify_request_row, CLARIFY, REQUEST_ROW, AdwActionRow)

GtkWidget      *clarify_request_row_new         (ClarifyRequest    *request);
ClarifyRequest *clarify_request_row_get_request (ClarifyRequestRow *self);
/* "4:59 left", or NULL when the request has no timeout. */
const char     *clarify_request_row_get_time_left (ClarifyRequestRow *self);
/* Once answered: "Sending…" or "Waiting to be delivered"; NULL before. */
const char     *clarify_request_row_get_delivery (ClarifyRequestRow *self);

/* What a list or notification shows for @request: its title, else its first
 * question. Plain text. */

G_END_DECLS
