/* clarify-backend-registry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-backend-registry.h"
#include "clarify-error.h"
#include "clarify-secret.h"

#include "clarify-ag3ntum-backend.h"
#include "clarify-codenomad-backend.h"
#include "clarify-ihub-backend.h"
#include "clarify-json-backend.h"
#include "clarify-opencode-backend.h"
#include "clarify-phoenix-backend.h"

/* One line per backend; adding a protocol means one file and one line here. */
static const ClarifyBackendInfo backends[] = {
  /* Translators: the kind of connection that speaks Clarify's own JSON protocol */
  { "clarify", N_("Clarify JSON"),
    N_("A script or agent that speaks Clarify’s own event stream"),
    clarify_json_backend_get_type, &clarify_json_probe, NULL },
  { "opencode", N_("OpenCode"),
    N_("The server of the OpenCode coding agent (opencode serve)"),
    clarify_opencode_backend_get_type, &clarify_opencode_probe, &clarify_opencode_backend_probe },
  { "codenomad", N_("CodeNomad"),
    N_("CodeNomad, which runs OpenCode in several workspaces"),
    clarify_codenomad_backend_get_type, &clarify_codenomad_probe, &clarify_codenomad_backend_probe },
  { "ag3ntum", N_("Ag3ntum"),
    N_("The server of the Ag3ntum agent platform"),
    clarify_ag3ntum_backend_get_type, &clarify_ag3ntum_probe, &clarify_ag3ntum_backend_probe },
  { "phoenix", N_("Phoenix IDE"),
    N_("The agent built into the Phoenix IDE"),
    clarify_phoenix_backend_get_type, &clarify_phoenix_probe, &clarify_phoenix_backend_probe },
  { "ihub", N_("iHub Apps"),
    N_("An iHub Apps server, whose apps you chat with"),
    clarify_ihub_backend_get_type, &clarify_ihub_probe, &clarify_ihub_backend_probe },
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

const ClarifyBackendInfo *
clarify_backend_registry_get_all (guint *n_infos)
{
  g_return_val_if_fail (n_infos != NULL, NULL);

  *n_infos = G_N_ELEMENTS (backends);
  return backends;
}

const char **
clarify_backend_registry_list_kinds (void)
{
  const char **kinds = g_new0 (const char *, G_N_ELEMENTS (backends) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    kinds[i] = backends[i].kind;

  return kinds;
}

static const ClarifyBackendInfo *
lookup_or_error (ClarifyConnection  *connection,
                 GError            **error)
{
  const char *kind = clarify_connection_get_kind (connection);
  const ClarifyBackendInfo *info = clarify_backend_registry_lookup (kind);

  if (info == NULL)
    {
      g_autofree char *known = NULL;
      g_autofree const char **kinds = clarify_backend_registry_list_kinds ();

      known = g_strjoinv (", ", (char **) kinds);
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   /* Translators: the first %s is a connection kind, the second a list of them */
                   _("Unknown connection kind “%s” (known: %s)"),
                   kind ? kind : "", known);
    }

  return info;
}

ClarifyBackend *
clarify_backend_registry_create_full (ClarifyConnection  *connection,
                                      const char         *secret,
                                      GError            **error)
{
  const ClarifyBackendInfo *info;

  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = lookup_or_error (connection, error);
  if (info == NULL)
    return NULL;

  return g_object_new (info->get_type (), "connection", connection, "secret", secret, NULL);
}

ClarifyBackend *
clarify_backend_registry_create (ClarifyConnection  *connection,
                                 GError            **error)
{
  return clarify_backend_registry_create_full (connection, NULL, error);
}

static void
secret_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyConnection *connection = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *secret = clarify_secret_lookup_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* As a backend that read it itself: it goes on without, and says so. */
  if (error != NULL)
    g_message ("Connection “%s”: cannot read its secret: %s",
               clarify_connection_get_name (connection), error->message);

  g_task_return_pointer (task, clarify_backend_registry_create_full (connection, secret != NULL ? secret : "", NULL),
                         g_object_unref);
  clarify_secret_free (secret);
}

void
clarify_backend_registry_create_async (ClarifyConnection   *connection,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;

  g_return_if_fail (CLARIFY_IS_CONNECTION (connection));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_backend_registry_create_async);
  g_task_set_task_data (task, g_object_ref (connection), g_object_unref);
  if (lookup_or_error (connection, &error) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  key = g_strconcat ("connection:", clarify_connection_get_name (connection), NULL);
  clarify_secret_lookup_async (key, cancellable, secret_read_cb, g_steal_pointer (&task));
}

ClarifyBackend *
clarify_backend_registry_create_finish (GAsyncResult  *result,
                                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
