/* clarify-test-keyring.h: a fake keyring (org.freedesktop.secrets) that
 * holds every call
 *
 * It owns the name on the bus at an address, on a connection of its own
 * served by the thread-default main context of its creation. Each call
 * (libsecret's first is OpenSession) waits until the test answers it with
 * clarify_test_keyring_refuse_held(), as a broken keyring would; a call
 * never answered is a keyring that hangs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _ClarifyTestKeyring ClarifyTestKeyring;

ClarifyTestKeyring *clarify_test_keyring_new          (const char         *bus_address);
/* Calls received so far, and those not answered yet. */
guint               clarify_test_keyring_get_n_calls  (ClarifyTestKeyring *keyring);
guint               clarify_test_keyring_get_n_held   (ClarifyTestKeyring *keyring);
/* Answers every held call with org.freedesktop.DBus.Error.Failed. */
void                clarify_test_keyring_refuse_held  (ClarifyTestKeyring *keyring);
/* From now on refuses each call at once, as a locked or broken keyring. */
void                clarify_test_keyring_refuse_all   (ClarifyTestKeyring *keyring);
/* From now on answers each call at once, as a working keyring that holds
 * no item (OpenSession and SearchItems only). */
void                clarify_test_keyring_answer_empty (ClarifyTestKeyring *keyring);
void                clarify_test_keyring_free         (ClarifyTestKeyring *keyring);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyTestKeyring, clarify_test_keyring_free)

G_END_DECLS
