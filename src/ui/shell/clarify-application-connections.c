/* clarify-application-connections.c: starting the application's backends
 *
 * Each connection's backend is made without blocking (its secret, or the
 * MCP token, is read first) and handed to the inbox once made; a later
 * start, a removal or shutdown cancels one still being made.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-agent-discovery.h"
#include "clarify-application-private.h"
#include "clarify-backend-registry.h"
#include "clarify-mcp-server.h"

gboolean
clarify_application_keep_connection (ClarifyApplication  *self,
                                     ClarifyConnection   *connection,
                                     GError             **error)
{
  clarify_connection_store_add (self->store, connection);

  return clarify_connection_store_save (self->store, error);
}

/* A backend being made: its secret (or the MCP token) is read first. */
typedef struct
{
  ClarifyApplication *self;
  GCancellable       *cancellable;
  char               *name;
  ClarifyBackend     *(*finish) (GAsyncResult *result,
                                 GError      **error);
  gboolean            temporary;
} Starting;

static void
starting_free (Starting *starting)
{
  g_application_release (G_APPLICATION (starting->self));
  g_object_unref (starting->self);
  g_object_unref (starting->cancellable);
  g_free (starting->name);
  g_free (starting);
}

static void
backend_made_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Starting *starting = user_data;
  ClarifyApplication *self = starting->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyBackend) backend = starting->finish (result, &error);

  /* Replaced by a later start, removed, or shut down meanwhile. */
  if (g_cancellable_is_cancelled (starting->cancellable))
    {
      starting_free (starting);
      return;
    }

  g_hash_table_remove (self->starting, starting->name);
  if (backend == NULL)
    g_warning ("Cannot start connection “%s”: %s", starting->name, error->message);
  else
    clarify_application_attach_backend (self, backend, starting->temporary);
  starting_free (starting);
}

void
clarify_application_cancel_start (ClarifyApplication *self,
                                  const char         *name)
{
  GCancellable *cancellable = g_hash_table_lookup (self->starting, name);

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
  g_hash_table_remove (self->starting, name);
}

static Starting *
starting_new (ClarifyApplication *self,
              const char         *name,
              ClarifyBackend     *(*finish) (GAsyncResult *, GError **),
              gboolean            temporary)
{
  Starting *starting = g_new0 (Starting, 1);

  clarify_application_cancel_start (self, name);
  starting->self = g_object_ref (self);
  starting->cancellable = g_cancellable_new ();
  starting->name = g_strdup (name);
  starting->finish = finish;
  starting->temporary = temporary;
  g_hash_table_insert (self->starting, g_strdup (name), g_object_ref (starting->cancellable));
  /* A first `clarify --connect` must not end before its backend holds it. */
  g_application_hold (G_APPLICATION (self));

  return starting;
}

gboolean
clarify_application_start_connection (ClarifyApplication  *self,
                                      ClarifyConnection   *connection,
                                      GError             **error)
{
  const char *name = clarify_connection_get_name (connection);
  Starting *starting;

  /* connections.ini edited by hand, or written before names were checked. */
  if (clarify_application_refuse_builtin_name (name, error))
    return FALSE;

  if (clarify_backend_registry_lookup (clarify_connection_get_kind (connection)) == NULL)
    {
      /* The registry words it. */
      g_autoptr(ClarifyBackend) none = clarify_backend_registry_create_full (connection, "", error);

      return FALSE;
    }

  starting = starting_new (self, name, clarify_backend_registry_create_finish, FALSE);
  clarify_backend_registry_create_async (connection, starting->cancellable, backend_made_cb, starting);

  return TRUE;
}

/* `clarify set-password` while Clarify runs: the D-Bus API stored the
 * password; a stored connection of that name starts again with it. */
gboolean
clarify_application_password_changed_cb (ClarifyDbusBackend *backend,
                                         const char         *name,
                                         ClarifyApplication *self)
{
  ClarifyConnection *connection = clarify_connection_store_lookup (self->store, name);
  g_autoptr(GError) error = NULL;

  /* Not started yet: each reads its secret when it starts. */
  if (!self->backends_started || connection == NULL)
    return FALSE;

  if (!clarify_application_start_connection (self, connection, &error))
    {
      g_warning ("Cannot start connection “%s”: %s", name, error->message);
      return FALSE;
    }

  return TRUE;
}

gboolean
clarify_application_is_starting (ClarifyApplication *self,
                                 const char         *name)
{
  return g_hash_table_contains (self->starting, name);
}

/* The ask_user endpoint for MCP clients, listed like a connection. */
void
clarify_application_start_mcp_server (ClarifyApplication *self,
                                      guint               port_override)
{
  g_autoptr(ClarifyConnection) connection = NULL;
  Starting *starting;

  if (port_override == 0 && !g_settings_get_boolean (self->settings, "mcp-enabled"))
    return;

  connection = clarify_mcp_server_new_connection (port_override != 0 ? port_override
                                                  : clarify_application_get_mcp_port_setting (self));
  /* Its token is read from the keyring first, without blocking. */
  starting = starting_new (self, clarify_connection_get_name (connection), clarify_mcp_server_new_finish, TRUE);
  clarify_mcp_server_new_async (connection, starting->cancellable, backend_made_cb, starting);
}

void
clarify_application_stop_mcp_server (ClarifyApplication *self)
{
  ClarifyBackend *backend = clarify_inbox_lookup_backend (self->inbox, CLARIFY_MCP_CONNECTION_NAME);

  clarify_application_cancel_start (self, CLARIFY_MCP_CONNECTION_NAME);
  if (CLARIFY_IS_MCP_SERVER (backend))
    clarify_application_remove_backend (self, backend);
}

void
clarify_application_ensure_backends_started (ClarifyApplication *self)
{
  GListModel *connections;
  guint n;

  if (self->backends_started)
    return;

  self->backends_started = TRUE;
  connections = clarify_connection_store_get_connections (self->store);
  n = g_list_model_get_n_items (connections);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyConnection) connection = g_list_model_get_item (connections, i);
      g_autoptr(GError) error = NULL;

      if (!clarify_application_start_connection (self, connection, &error))
        g_warning ("Cannot start connection “%s”: %s",
                   clarify_connection_get_name (connection), error->message);
    }

  clarify_application_start_mcp_server (self, self->mcp_port);
  /* Quietly: what it finds is offered in the window, never connected. */
  clarify_agent_discovery_look (self->discovery);
}

gboolean
clarify_application_add_connection (ClarifyApplication  *self,
                                    ClarifyConnection   *connection,
                                    GError             **error)
{
  gboolean first_start;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), FALSE);
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (connection), FALSE);

  clarify_connection_store_add (self->store, connection);
  if (!clarify_connection_store_save (self->store, error))
    return FALSE;

  /* The first start begins every stored connection, this one too. */
  first_start = !self->backends_started;
  clarify_application_ensure_backends_started (self);
  if (first_start)
    return TRUE;

  return clarify_application_start_connection (self, connection, error);
}
