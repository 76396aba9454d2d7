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

#include <gio/gio.h>

G_BEGIN_DECLS

/* The blocking calls wait at most 20 s for the Secret Service (or the
 * Secret portal); past that they fail with G_IO_ERROR_TIMED_OUT and a
 * message naming it, and store nothing in its place.
 *
 * Returns the secret, or NULL without an error when none is stored. */
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

/* The same without blocking: the Secret Service is asked asynchronously
 * (a slow keyring must not freeze the window). What they do is the same
 * as the blocking calls above, which only `clarify` on a terminal uses. */
void      clarify_secret_lookup_async  (const char          *key,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
/* The secret, or NULL without an error when none is stored. */
char     *clarify_secret_lookup_finish (GAsyncResult        *result,
                                        GError             **error);
void      clarify_secret_store_async   (const char          *key,
                                        const char          *label,
                                        const char          *secret,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean  clarify_secret_store_finish  (GAsyncResult        *result,
                                        GError             **error);
void      clarify_secret_clear_async   (const char          *key,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean  clarify_secret_clear_finish  (GAsyncResult        *result,
                                        GError             **error);

/* Where secrets go when no Secret Service answers. */
typedef enum
{
  CLARIFY_SECRET_FALLBACK_UNSET,   /* the user was not asked: the file, as before */
  CLARIFY_SECRET_FALLBACK_FILE,    /* the file, readable only by the user */
  CLARIFY_SECRET_FALLBACK_MEMORY,  /* nowhere on disk: kept until Clarify quits */
} ClarifySecretFallback;

/* The user's choice, kept in g_get_user_config_dir()/clarify/secret-storage. */
ClarifySecretFallback clarify_secret_get_fallback (void);
gboolean              clarify_secret_set_fallback (ClarifySecretFallback   fallback,
                                                   GError                **error);
/* Whether a Secret Service answers: TRUE when it does, FALSE (and no error)
 * when secrets would go to the fallback. */
void                  clarify_secret_check_service_async  (GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean              clarify_secret_check_service_finish (GAsyncResult        *result);

/* "connection:<name>", the key of a connection's password, and what a
 * keyring manager lists for it. */
char     *clarify_secret_connection_key   (const char *name);
char     *clarify_secret_connection_label (const char *name);

/* Wipes @secret (a NUL-terminated string, may be NULL) and frees it; the
 * wipe survives the optimizer, which a memset before free does not. */
void      clarify_secret_free   (char        *secret);

/* The fallback file's path (free it). */
char     *clarify_secret_get_file_path (void);

G_END_DECLS
