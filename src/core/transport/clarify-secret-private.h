/* clarify-secret-private.h: what the blocking and the asynchronous halves
 * of the secret store share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <libsecret/secret.h>

G_BEGIN_DECLS

/* Every call waits this long for the Secret Service (in a Flatpak, the
 * Secret portal): a keyring that never answers must not hang `clarify`,
 * nor a connection that reads its password. Shorter than GDBus's own 25 s
 * call timeout, whose error would read as "no keyring here" and send the
 * secret to the file. */
#define CLARIFY_SECRET_DEADLINE_S 20

const SecretSchema *clarify_secret_get_schema          (void);
/* G_IO_ERROR_TIMED_OUT, naming the keyring that did not answer in time. */
void                clarify_secret_set_no_answer_error (GError      **error);
/* CLARIFY_SECRET_STORE=file: no Secret Service at all. */
gboolean            clarify_secret_use_file_only       (void);
/* A cancellable for a libsecret call, or NULL where cancelling one would
 * hang: libsecret 0.20's Secret portal handler (Flatpak, Snap) disconnects
 * itself from the cancellable while it is being cancelled, and GLib 2.74
 * waits for that forever. */
GCancellable       *clarify_secret_new_call_cancellable (void);
/* Whether @error means "no usable Secret Service here". */
gboolean            clarify_secret_service_unavailable (const GError *error);
/* Without a Secret Service: the file, or memory, as the user chose. */
char               *clarify_secret_fallback_lookup     (const char   *key,
                                                        GError      **error);
gboolean            clarify_secret_fallback_store      (const char   *key,
                                                        const char   *label,
                                                        const char   *secret,
                                                        GError      **error);
gboolean            clarify_secret_fallback_clear      (const char   *key,
                                                        GError      **error);

G_END_DECLS
