/* clarify-connection-store.c
 *
 * The keyfile has one group per connection:
 *
 *   [connection work]
 *   kind=opencode
 *   url=http://127.0.0.1:4096
 *   username=opencode
 *
 * Secrets never go here: options whose key starts with "secret" are kept in
 * memory only (a backend may stage a password there before moving it to the
 * keyring), and everything else a backend stores must be harmless to read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "clarify-connection-store.h"
#include "clarify-private-file.h"

#define GROUP_PREFIX "connection "

struct _ClarifyConnectionStore
{
  GObject     parent_instance;

  char       *path;
  GListStore *connections;
};

G_DEFINE_FINAL_TYPE (ClarifyConnectionStore, clarify_connection_store, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
clarify_connection_store_finalize (GObject *object)
{
  ClarifyConnectionStore *self = CLARIFY_CONNECTION_STORE (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_object (&self->connections);

  G_OBJECT_CLASS (clarify_connection_store_parent_class)->finalize (object);
}

static void
clarify_connection_store_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  ClarifyConnectionStore *self = CLARIFY_CONNECTION_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_connection_store_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  ClarifyConnectionStore *self = CLARIFY_CONNECTION_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      /* Resolved here, not at class init, so tests can move the config dir. */
      if (self->path == NULL)
        self->path = g_build_filename (g_get_user_config_dir (), "clarify", "connections.ini", NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_connection_store_class_init (ClarifyConnectionStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = clarify_connection_store_finalize;
  object_class->get_property = clarify_connection_store_get_property;
  object_class->set_property = clarify_connection_store_set_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_connection_store_init (ClarifyConnectionStore *self)
{
  self->connections = g_list_store_new (CLARIFY_TYPE_CONNECTION);
}

ClarifyConnectionStore *
clarify_connection_store_new (const char *path)
{
  return g_object_new (CLARIFY_TYPE_CONNECTION_STORE,
                       "path", path,
                       NULL);
}

static int
compare_by_name (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  return g_strcmp0 (clarify_connection_get_name ((ClarifyConnection *) a),
                    clarify_connection_get_name ((ClarifyConnection *) b));
}

static int
compare_by_name_indirect (gconstpointer a,
                          gconstpointer b,
                          gpointer      user_data)
{
  return compare_by_name (*(gpointer const *) a, *(gpointer const *) b, user_data);
}

static gboolean
find_by_name (ClarifyConnectionStore *self,
              const char             *name,
              guint                  *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      if (g_strcmp0 (clarify_connection_get_name (connection), name) == 0)
        {
          *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
is_secret_key (const char *key)
{
  return g_ascii_strncasecmp (key, "secret", strlen ("secret")) == 0;
}

/* One group of the keyfile; NULL with @error set when it cannot be used. */
static ClarifyConnection *
read_connection (GKeyFile    *keyfile,
                 const char  *group,
                 GError     **error)
{
  g_autoptr(ClarifyConnection) checked = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autofree char *kind = NULL;
  g_autofree char *url = NULL;
  g_autofree char *spec = NULL;
  g_auto(GStrv) keys = NULL;
  const char *name = group + strlen (GROUP_PREFIX);

  kind = g_key_file_get_string (keyfile, group, "kind", error);
  if (kind == NULL)
    return NULL;
  url = g_key_file_get_string (keyfile, group, "url", error);
  if (url == NULL)
    return NULL;

  /* The same rules as `clarify --connect`, so a hand-edited file cannot
   * smuggle in what the command line would refuse. */
  spec = g_strdup_printf ("%s=%s:%s", name, kind, url);
  checked = clarify_connection_new_from_spec (spec, error);
  if (checked == NULL)
    return NULL;

  connection = clarify_connection_new (name, kind, url);

  keys = g_key_file_get_keys (keyfile, group, NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *value = NULL;

      /* Localized keys ("key[de]") are not ours. */
      if (g_str_equal (keys[i], "kind") || g_str_equal (keys[i], "url") ||
          strchr (keys[i], '[') != NULL || is_secret_key (keys[i]))
        continue;

      value = g_key_file_get_string (keyfile, group, keys[i], error);
      if (value == NULL)
        return NULL;
      clarify_connection_set_option (connection, keys[i], value);
    }

  return g_steal_pointer (&connection);
}

gboolean
clarify_connection_store_load (ClarifyConnectionStore  *self,
                               GError                 **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) loaded = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) groups = NULL;

  g_return_val_if_fail (CLARIFY_IS_CONNECTION_STORE (self), FALSE);

  if (!g_key_file_load_from_file (keyfile, self->path, G_KEY_FILE_KEEP_COMMENTS, &local_error))
    {
      /* No file yet is the normal first start. */
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_list_store_remove_all (self->connections);
          return TRUE;
        }

      g_set_error (error, local_error->domain, local_error->code,
                   /* Translators: the first %s is a file name, the second the reason */
                   _("Could not read the connections from “%s”: %s"),
                   self->path, local_error->message);
      return FALSE;
    }

  groups = g_key_file_get_groups (keyfile, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      ClarifyConnection *connection;

      /* Other groups may come from newer versions; leave them be. */
      if (!g_str_has_prefix (groups[i], GROUP_PREFIX))
        continue;

      connection = read_connection (keyfile, groups[i], &local_error);
      if (connection == NULL)
        {
          g_set_error (error, local_error->domain, local_error->code,
                       /* Translators: the first %s is a file name, the second a group like [connection work], the third the reason */
                       _("Could not read the connections from “%s”, group [%s]: %s"),
                       self->path, groups[i], local_error->message);
          return FALSE;
        }

      g_ptr_array_add (loaded, connection);
    }

  /* Replace only once the whole file has been read. */
  g_ptr_array_sort_with_data (loaded, compare_by_name_indirect, NULL);
  g_list_store_splice (self->connections, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->connections)),
                       loaded->pdata, loaded->len);

  return TRUE;
}

gboolean
clarify_connection_store_save (ClarifyConnectionStore  *self,
                               GError                 **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *data = NULL;
  gsize length;
  guint n;

  g_return_val_if_fail (CLARIFY_IS_CONNECTION_STORE (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections), i);
      g_autofree char *group = g_strconcat (GROUP_PREFIX, clarify_connection_get_name (connection), NULL);
      g_auto(GStrv) keys = clarify_connection_list_options (connection);

      g_key_file_set_string (keyfile, group, "kind", clarify_connection_get_kind (connection));
      g_key_file_set_string (keyfile, group, "url", clarify_connection_get_url (connection));

      for (guint j = 0; keys[j] != NULL; j++)
        {
          if (is_secret_key (keys[j]))
            continue;
          g_key_file_set_string (keyfile, group, keys[j], clarify_connection_get_option (connection, keys[j]));
        }
    }

  data = g_key_file_to_data (keyfile, &length, NULL);

  if (!clarify_private_file_write (self->path, data, length, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not save the connections to “%s”: %s"),
                   self->path, local_error->message);
      return FALSE;
    }

  return TRUE;
}

GListModel *
clarify_connection_store_get_connections (ClarifyConnectionStore *self)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION_STORE (self), NULL);

  return G_LIST_MODEL (self->connections);
}

ClarifyConnection *
clarify_connection_store_lookup (ClarifyConnectionStore *self,
                                 const char             *name)
{
  ClarifyConnection *connection;
  guint position;

  g_return_val_if_fail (CLARIFY_IS_CONNECTION_STORE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!find_by_name (self, name, &position))
    return NULL;

  /* Transfer none: the store keeps it alive. */
  connection = g_list_model_get_item (G_LIST_MODEL (self->connections), position);
  g_object_unref (connection);

  return connection;
}

void
clarify_connection_store_add (ClarifyConnectionStore *self,
                              ClarifyConnection      *connection)
{
  guint position;

  g_return_if_fail (CLARIFY_IS_CONNECTION_STORE (self));
  g_return_if_fail (CLARIFY_IS_CONNECTION (connection));

  if (find_by_name (self, clarify_connection_get_name (connection), &position))
    g_list_store_remove (self->connections, position);

  g_list_store_insert_sorted (self->connections, connection, compare_by_name, NULL);
}

gboolean
clarify_connection_store_remove (ClarifyConnectionStore *self,
                                 const char             *name)
{
  guint position;

  g_return_val_if_fail (CLARIFY_IS_CONNECTION_STORE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!find_by_name (self, name, &position))
    return FALSE;

  g_list_store_remove (self->connections, position);

  return TRUE;
}
