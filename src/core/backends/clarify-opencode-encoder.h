/* clarify-opencode-encoder.h: the call that answers an OpenCode request,
 * exactly as OpenCode's own clients make it; sending it is up to the backend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-opencode-decoder.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* The call that answers @request with @response: @path is relative to the
 * instance root ("/question/que_…/reply"), @body NULL when the call has none. */
gboolean clarify_opencode_encode_reply (ClarifyRequest   *request,
                                        ClarifyResponse  *response,
                                        char            **path,
                                        char            **body,
                                        GError          **error);

G_END_DECLS
