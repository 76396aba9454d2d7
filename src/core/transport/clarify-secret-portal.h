/* clarify-secret-portal.h: noticing the Secret portal's answer that
 * libsecret 0.20 misses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How long libsecret may take to finish once the portal has answered
 * (read the key from its pipe, open the keyring file) before Clarify
 * takes the answer for missed and asks again. */
#define CLARIFY_SECRET_PORTAL_GRACE_MS 2000

/* Runs in GDBus's worker thread. */
typedef void (*ClarifySecretPortalAnswered) (gpointer user_data);

typedef struct _ClarifySecretPortalWatch ClarifySecretPortalWatch;

ClarifySecretPortalWatch *clarify_secret_portal_watch   (ClarifySecretPortalAnswered  answered,
                                                         gpointer                     user_data,
                                                         GDestroyNotify               destroy);
void                      clarify_secret_portal_unwatch (ClarifySecretPortalWatch    *watch);

G_END_DECLS
