/* clarify-backend-private.h: what only ClarifyInbox calls on a backend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"

G_BEGIN_DECLS

void clarify_backend_emit_request_added (ClarifyBackend *self,
                                         ClarifyRequest *request);
void clarify_backend_resync             (ClarifyBackend *self);

G_END_DECLS
