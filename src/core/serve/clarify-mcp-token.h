/* clarify-mcp-token.h: the bearer token of the MCP endpoint
 *
 * Made once (32 random bytes, base64url), kept with clarify_secret_store()
 * under CLARIFY_MCP_TOKEN_KEY, and sent by every client. Never log it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CLARIFY_MCP_TOKEN_KEY "mcp-token"

/* @n_bytes from getrandom(), base64url without padding. */
char *clarify_mcp_token_random        (gsize                n_bytes);
/* The token, read or made and stored the first time. Blocks: for the
 * command line. */
char *clarify_mcp_token_ensure        (GError             **error);
/* The same without blocking, for the application. */
void  clarify_mcp_token_ensure_async  (GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
char *clarify_mcp_token_ensure_finish (GAsyncResult        *result,
                                       GError             **error);

G_END_DECLS
