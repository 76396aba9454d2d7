/* clarify-request-private.h: what only the inbox may do to a request
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-request.h"

G_BEGIN_DECLS

/* Moves @self to @state; @end is CLARIFY_REQUEST_END_NONE unless @state is
 * DONE. @reason and @detail (nullable) replace the end reason. */
void clarify_request_set_state (ClarifyRequest      *self,
                                ClarifyRequestState  state,
                                ClarifyRequestEnd    end,
                                ClarifyEndReason     reason,
                                const char          *detail);

/* Sets the end reason and emits ::withdrawn once; later calls do nothing.
 * @reason is not NONE; @detail (nullable) is data, not a sentence. */
void clarify_request_withdraw  (ClarifyRequest      *self,
                                ClarifyEndReason     reason,
                                const char          *detail);

G_END_DECLS
