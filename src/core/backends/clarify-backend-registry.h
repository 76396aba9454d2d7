/* clarify-backend-registry.h: kind name → backend class
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"

G_BEGIN_DECLS

typedef struct
{
  const char *kind;          /* as in --connect NAME=KIND:URL */
  const char *display_name;  /* translatable (N_()) */
  GType     (*get_type) (void);
} ClarifyBackendInfo;

const ClarifyBackendInfo *clarify_backend_registry_lookup (const char        *kind);
/* The translated name of @kind, also for the sources Clarify serves itself
 * ("mcp", "dbus"); @kind itself when unknown. */
const char               *clarify_backend_registry_get_display_name (const char *kind);
/* NULL-terminated list of every registered kind; free with g_free() (not the strings). */
const char              **clarify_backend_registry_list_kinds (void);
ClarifyBackend           *clarify_backend_registry_create (ClarifyConnection *connection,
                                                           GError           **error);

G_END_DECLS
