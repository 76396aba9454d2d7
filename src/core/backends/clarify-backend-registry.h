/* clarify-backend-registry.h: kind name → backend class
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"
#include "clarify-backend-probe.h"

G_BEGIN_DECLS

typedef struct
{
  const char *kind;          /* as in --connect NAME=KIND:URL */
  const char *display_name;  /* translatable (N_()) */
  const char *description;   /* one line saying what it is, translatable (N_()) */
  GType     (*get_type) (void);
  const ClarifyProbeSpec *probe;  /* what "Test" asks, and what the right server answers */
  /* How discovery finds one on this machine without a login, or NULL. */
  const ClarifyBackendProbe *discovery;
} ClarifyBackendInfo;

const ClarifyBackendInfo *clarify_backend_registry_lookup (const char        *kind);
/* The translated name of @kind, also for the sources Clarify serves itself
 * ("mcp", "dbus"); @kind itself when unknown. */
const char               *clarify_backend_registry_get_display_name (const char *kind);
/* NULL-terminated list of every registered kind; free with g_free() (not the strings). */
const char              **clarify_backend_registry_list_kinds (void);
/* Every registered kind, in the order to offer them; @n_infos gets their number. */
const ClarifyBackendInfo *clarify_backend_registry_get_all (guint       *n_infos);
/* The backend reads its password or token itself, blocking (for tests
 * and tools). */
ClarifyBackend           *clarify_backend_registry_create (ClarifyConnection *connection,
                                                           GError           **error);
/* @secret: the connection's password or token, "" for none. */
ClarifyBackend           *clarify_backend_registry_create_full (ClarifyConnection *connection,
                                                                const char        *secret,
                                                                GError           **error);
/* Reads the password or token from the keyring without blocking, then
 * makes the backend: what the application does. */
void                      clarify_backend_registry_create_async  (ClarifyConnection   *connection,
                                                                  GCancellable        *cancellable,
                                                                  GAsyncReadyCallback  callback,
                                                                  gpointer             user_data);
ClarifyBackend           *clarify_backend_registry_create_finish (GAsyncResult        *result,
                                                                  GError             **error);

G_END_DECLS
