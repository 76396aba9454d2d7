/* clarify-request-header.h: a request's title, context and time left
 *
 * Shows only the parts the request has, and hides itself when none is left.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "clarify-countdown.h"
#include "clarify-request.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_REQUEST_HEADER (clarify_request_header_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequestHeader, clarify_request_header, CLARIFY, REQUEST_HEADER, GtkBox)

ClarifyRequest   *clarify_request_header_get_request   (ClarifyRequestHeader *self);
void              clarify_request_header_set_request   (ClarifyRequestHeader *self,
                                                        ClarifyRequest       *request);
/* Hidden until shown; the owner starts and stops it. */
ClarifyCountdown *clarify_request_header_get_countdown (ClarifyRequestHeader *self);

G_END_DECLS
