/* clarify-fuzz-opencode.h: what fuzz-opencode and fuzz-codenomad share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-request.h"

G_BEGIN_DECLS

/* Everything done with a request decoded from an OpenCode event: its JSON
 * form read back, every kind of answer encoded (the reply path must stay
 * below the instance), its info saved and restored as the outbox does. */
void clarify_fuzz_opencode_answer (ClarifyRequest *request);

G_END_DECLS
