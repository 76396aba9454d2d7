/* clarify-backend-state.h: a backend's state in the user's words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"

G_BEGIN_DECLS

/* One translated line for @backend's state and note: "Reconnecting in 4 s…",
 * "Workspace ws-1: error (spawn opencode ENOENT)", "Failed: …". NULL when
 * the state says nothing more than its name. */
char *clarify_backend_state_describe (ClarifyBackend *backend);
/* The address @backend is reached at now: the MCP endpoint's is the one it
 * listens on (a port moved in Preferences), others their connection's. */
char *clarify_backend_state_dup_url  (ClarifyBackend *backend);

G_END_DECLS
