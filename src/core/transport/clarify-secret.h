/* clarify-secret.h: tokens and passwords, kept out of every config file
 *
 * The Secret Service (libsecret, schema "io.github.clarify.Clarify.Secret",
 * attribute "key") holds them. Where none is reachable (a headless session,
 * a bus without a keyring), a keyfile readable only by the user takes over:
 * g_get_user_config_dir()/clarify/secrets, mode 0600.
 *
 * Keys in use: "mcp-token", "connection:<name>".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Returns the secret, or NULL without an error when none is stored. */
char     *clarify_secret_lookup (const char  *key,
                                 GError     **error);
/* @label is what a keyring manager shows ("Clarify MCP token"). */
gboolean  clarify_secret_store  (const char  *key,
                                 const char  *label,
                                 const char  *secret,
                                 GError     **error);
/* Removes the secret wherever it is stored; succeeds when there is none. */
gboolean  clarify_secret_clear  (const char  *key,
                                 GError     **error);

/* Wipes @secret (a NUL-terminated string, may be NULL) and frees it; the
 * wipe survives the optimizer, which a memset before free does not. */
void      clarify_secret_free   (char        *secret);

/* The fallback file's path (free it). */
char     *clarify_secret_get_file_path (void);

G_END_DECLS
