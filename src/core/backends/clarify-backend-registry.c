/* clarify-backend-registry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-backend-registry.h"
#include "clarify-error.h"

#include "clarify-ag3ntum-backend.h"
#include "clarify-codenomad-backend.h"
#include "clarify-ihub-backend.h"
#include "clarify-json-backend.h"
#include "clarify-opencode-backend.h"
#include "clarify-phoenix-backend.h"

/* One line per backend; adding a protocol means one file and one line here. */
static const ClarifyBackendInfo backends[] = {
  /* Translators: the kind of connection that speaks Clarify's own JSON protocol */
  { "clarify", N_("Clarify JSON"), clarify_json_backend_get_type },
  { "opencode", N_("OpenCode"), clarify_opencode_backend_get_type },
  { "codenomad", N_("CodeNomad"), clarify_codenomad_backend_get_type },
  { "ag3ntum", N_("Ag3ntum"), clarify_ag3ntum_backend_get_type },
  { "phoenix", N_("Phoenix IDE"), clarify_phoenix_backend_get_type },
  { "ihub", N_("iHub Apps"), clarify_ihub_backend_get_type },
};

const ClarifyBackendInfo *
clarify_backend_registry_lookup (const char *kind)
{
  if (kind == NULL)
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    {
      if (g_strcmp0 (backends[i].kind, kind) == 0)
        return &backends[i];
    }

  return NULL;
}

const char *
clarify_backend_registry_get_display_name (const char *kind)
{
  const ClarifyBackendInfo *info = clarify_backend_registry_lookup (kind);

  if (info != NULL)
    return _(info->display_name);
  /* Request sources Clarify serves itself; not for --connect. */
  if (g_strcmp0 (kind, "mcp") == 0)
    return _("MCP endpoint");
  if (g_strcmp0 (kind, "dbus") == 0)
    return _("D-Bus Ask API");
  if (g_strcmp0 (kind, "claude-code") == 0)
    return _("Claude Code");

  return kind;
}

const char **
clarify_backend_registry_list_kinds (void)
{
  const char **kinds = g_new0 (const char *, G_N_ELEMENTS (backends) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    kinds[i] = backends[i].kind;

  return kinds;
}

ClarifyBackend *
clarify_backend_registry_create (ClarifyConnection  *connection,
                                 GError            **error)
{
  const ClarifyBackendInfo *info;
  const char *kind;

  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  kind = clarify_connection_get_kind (connection);
  info = clarify_backend_registry_lookup (kind);
  if (info == NULL)
    {
      g_autofree char *known = NULL;
      g_autofree const char **kinds = clarify_backend_registry_list_kinds ();

      known = g_strjoinv (", ", (char **) kinds);
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   /* Translators: the first %s is a connection kind, the second a list of them */
                   _("Unknown connection kind “%s” (known: %s)"),
                   kind ? kind : "", known);
      return NULL;
    }

  return g_object_new (info->get_type (), "connection", connection, NULL);
}
