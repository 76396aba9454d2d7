/* clarify-request-row.h: one question waiting for an answer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-request.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_REQUEST_ROW (clarify_request_row_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequestRow, clarify_request_row, CLARIFY, REQUEST_ROW, GtkWidget)

/* The content of a row (put it in a GtkListBox or a GtkListView's row):
 * title, subtitle (who asks, where) and the time left, as plain text. */
GtkWidget      *clarify_request_row_new         (ClarifyRequest    *request);
/* @request may be NULL: the row shows nothing until it gets one. */
void            clarify_request_row_set_request (ClarifyRequestRow *self,
                                                 ClarifyRequest    *request);
ClarifyRequest *clarify_request_row_get_request (ClarifyRequestRow *self);
const char     *clarify_request_row_get_title   (ClarifyRequestRow *self);
const char     *clarify_request_row_get_subtitle (ClarifyRequestRow *self);
/* "4:59 left", or NULL when the request has no timeout. */
const char     *clarify_request_row_get_time_left (ClarifyRequestRow *self);
/* Once answered: "Sending…" or "Waiting to be delivered"; NULL before. */
const char     *clarify_request_row_get_delivery (ClarifyRequestRow *self);
/* For tests: how many rows were made in this process. */
guint           clarify_request_row_get_n_built (void);

G_END_DECLS
