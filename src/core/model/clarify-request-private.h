/* clarify-request-private.h: what only the inbox may do to a request
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-request.h"

G_BEGIN_DECLS

/* Moves @self to @state; @end is CLARIFY_REQUEST_END_NONE unless @state is
 * DONE. @reason (nullable) is shown to the user. */
void clarify_request_set_state (ClarifyRequest      *self,
                                ClarifyRequestState  state,
                                ClarifyRequestEnd    end,
                                const char          *reason);

/* Emits ::withdrawn once; later calls do nothing. */
void clarify_request_withdraw  (ClarifyRequest      *self,
                                const char          *reason);

G_END_DECLS
