/* clarify-request-source.h: where a request comes from, in the title bar
 *
 * The connection ("work (OpenCode)") as title, the project and session as
 * subtitle, and their full forms as tooltip.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-request.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_REQUEST_SOURCE (clarify_request_source_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequestSource, clarify_request_source, CLARIFY, REQUEST_SOURCE, AdwBin)

ClarifyRequest *clarify_request_source_get_request (ClarifyRequestSource *self);
void            clarify_request_source_set_request (ClarifyRequestSource *self,
                                                    ClarifyRequest       *request);
/* The connection's name and kind as shown, or NULL when the request names neither. */
const char     *clarify_request_source_get_name    (ClarifyRequestSource *self);

G_END_DECLS
