/* clarify-outbox-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-outbox-store.h"

#define FORMAT_VERSION 1
#define SUFFIX         ".json"
#define BAD_SUFFIX     ".bad"
#define TAKEN_DIR      "taken"
/* A file of answers taken that is larger was not written by Clarify. */
#define MAX_TAKEN_SIZE (16 * 1024 * 1024)

struct _ClarifyOutboxStore
{
  GObject  parent_instance;

  char    *dir;
};

G_DEFINE_FINAL_TYPE (ClarifyOutboxStore, clarify_outbox_store, G_TYPE_OBJECT)

void
clarify_outbox_saved_free (ClarifyOutboxSaved *saved)
{
  if (saved == NULL)
    return;

  g_free (saved->name);
  g_clear_object (&saved->request);
  g_clear_object (&saved->response);
  g_free (saved);
}

static void
clarify_outbox_store_finalize (GObject *object)
{
  ClarifyOutboxStore *self = CLARIFY_OUTBOX_STORE (object);

  g_clear_pointer (&self->dir, g_free);

  G_OBJECT_CLASS (clarify_outbox_store_parent_class)->finalize (object);
}

static void
clarify_outbox_store_class_init (ClarifyOutboxStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = clarify_outbox_store_finalize;
}

static void
clarify_outbox_store_init (ClarifyOutboxStore *self)
{
}

ClarifyOutboxStore *
clarify_outbox_store_new (const char *dir)
{
  ClarifyOutboxStore *self = g_object_new (CLARIFY_TYPE_OUTBOX_STORE, NULL);

  self->dir = dir != NULL ? g_strdup (dir) : g_build_filename (g_get_user_data_dir (), "clarify", "outbox", NULL);

  return self;
}

const char *
clarify_outbox_store_get_dir (ClarifyOutboxStore *self)
{
  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), NULL);

  return self->dir;
}

static const char *
connection_name_of (ClarifyBackend *backend)
{
  ClarifyConnection *connection = clarify_backend_get_connection (backend);

  return connection != NULL ? clarify_connection_get_name (connection) : NULL;
}

static const char *
connection_kind_of (ClarifyBackend *backend)
{
  ClarifyConnection *connection = clarify_backend_get_connection (backend);

  return connection != NULL ? clarify_connection_get_kind (connection) : NULL;
}

/* One name per connection and request: answering again (after the agent
 * refused an answer) replaces the file rather than adding one. */
static char *
file_name_for (const char *connection,
               const char *request_id)
{
  g_autofree char *key = g_strconcat (connection, "\x1f", request_id, NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);

  return g_strdup_printf ("%.32s" SUFFIX, hash);
}

static gboolean
make_dir (const char  *dir,
          GError     **error)
{
  int saved_errno;

  if (g_mkdir_with_parents (dir, 0700) == 0)
    return TRUE;

  saved_errno = errno;
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               "Cannot create %s: %s", dir, g_strerror (saved_errno));
  return FALSE;
}

/* Every file the store writes starts so. */
static JsonBuilder *
begin_file (const char *connection)
{
  JsonBuilder *builder = json_builder_new_immutable ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, FORMAT_VERSION);
  json_builder_set_member_name (builder, "connection");
  json_builder_add_string_value (builder, connection);
  return builder;
}

static void
add_member (JsonBuilder *builder,
            const char  *name,
            JsonNode    *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_value (builder, value);
}

char *
clarify_outbox_store_save (ClarifyOutboxStore  *self,
                           ClarifyBackend      *backend,
                           ClarifyRequest      *request,
                           ClarifyResponse     *response,
                           GError             **error)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  const char *connection = connection_name_of (backend);
  JsonNode *delivery;

  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), NULL);
  g_return_val_if_fail (CLARIFY_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), NULL);

  /* Only a connection can be found again after a restart. */
  if (connection == NULL || (delivery = clarify_backend_save_delivery (backend, request)) == NULL)
    return NULL;

  builder = begin_file (connection);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, connection_kind_of (backend));
  json_builder_set_member_name (builder, "saved_at");
  json_builder_add_int_value (builder, g_get_real_time ());
  add_member (builder, "request", clarify_request_to_json (request));
  add_member (builder, "delivery", delivery);
  add_member (builder, "response", clarify_response_to_json (response));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  if (!make_dir (self->dir, error))
    return NULL;

  name = file_name_for (connection, clarify_request_get_id (request));
  path = g_build_filename (self->dir, name, NULL);
  text = clarify_json_to_string (root);
  if (!g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return NULL;

  return g_steal_pointer (&name);
}

void
clarify_outbox_store_remove (ClarifyOutboxStore *self,
                             const char         *name)
{
  g_autofree char *path = NULL;

  g_return_if_fail (CLARIFY_IS_OUTBOX_STORE (self));
  g_return_if_fail (name != NULL);

  path = g_build_filename (self->dir, name, NULL);
  if (g_unlink (path) != 0 && errno != ENOENT)
    g_warning ("Cannot remove the delivered answer %s: %s", path, g_strerror (errno));
}

/* A file that cannot be read back is kept for a person to look at, under a
 * name the store no longer reads. */
static void
set_aside (ClarifyOutboxStore *self,
           const char         *name,
           const char         *why)
{
  g_autofree char *path = g_build_filename (self->dir, name, NULL);
  g_autofree char *bad = g_strconcat (path, BAD_SUFFIX, NULL);

  g_warning ("Cannot read the kept answer %s (%s); moved it to %s", path, why, bad);
  if (g_rename (path, bad) != 0)
    g_warning ("Cannot move %s aside: %s", path, g_strerror (errno));
}

/* Reads @name. Returns NULL with @error when it is unusable, NULL without
 * when it belongs to another connection. */
static ClarifyOutboxSaved *
load_one (ClarifyOutboxStore  *self,
          ClarifyBackend      *backend,
          const char          *name,
          gint64              *saved_at,
          GError             **error)
{
  g_autoptr(ClarifyOutboxSaved) saved = g_new0 (ClarifyOutboxSaved, 1);
  g_autofree char *path = g_build_filename (self->dir, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *delivery;
  JsonNode *request;
  JsonNode *response;
  gsize length;

  if (!g_file_get_contents (path, &text, &length, error) ||
      !(root = clarify_json_parse (text, length, error)))
    return NULL;

  object = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (object == NULL || json_object_get_int_member_with_default (object, "version", 0) != FORMAT_VERSION ||
      clarify_json_get_string_member (object, "connection") == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "not an answer Clarify kept");
      return NULL;
    }

  if (g_strcmp0 (clarify_json_get_string_member (object, "connection"), connection_name_of (backend)) != 0)
    return NULL;

  /* The connection was replaced by one of another kind: nobody can encode it. */
  if (g_strcmp0 (clarify_json_get_string_member (object, "kind"), connection_kind_of (backend)) != 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "kept for a connection of kind %s, now %s",
                   clarify_json_get_string_member (object, "kind"), connection_kind_of (backend));
      return NULL;
    }

  request = json_object_get_member (object, "request");
  delivery = json_object_get_member (object, "delivery");
  response = json_object_get_member (object, "response");
  if (request == NULL || delivery == NULL || response == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "request, delivery or response missing");
      return NULL;
    }

  if (!(saved->request = clarify_request_new_from_json (request, error)) ||
      !(saved->response = clarify_response_new_from_json (response, error)) ||
      !clarify_backend_restore_delivery (backend, saved->request, delivery, error))
    return NULL;

  saved->name = g_strdup (name);
  *saved_at = json_object_get_int_member_with_default (object, "saved_at", 0);

  return g_steal_pointer (&saved);
}

typedef struct
{
  gint64              saved_at;
  ClarifyOutboxSaved *saved;
} Dated;

static int
compare_dated (gconstpointer a,
               gconstpointer b)
{
  const Dated *da = a;
  const Dated *db = b;

  if (da->saved_at != db->saved_at)
    return da->saved_at < db->saved_at ? -1 : 1;
  return g_strcmp0 (da->saved->name, db->saved->name);
}

GPtrArray *
clarify_outbox_store_load (ClarifyOutboxStore *self,
                           ClarifyBackend     *backend)
{
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) clarify_outbox_saved_free);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Dated));
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;

  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), result);
  g_return_val_if_fail (CLARIFY_IS_BACKEND (backend), result);

  dir = g_dir_open (self->dir, 0, &error);
  if (dir == NULL)
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_warning ("Cannot read the kept answers in %s: %s", self->dir, error->message);
      return result;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autoptr(GError) load_error = NULL;
      Dated dated = { 0, NULL };

      /* Leftovers of an interrupted atomic write, and files set aside. */
      if (!g_str_has_suffix (name, SUFFIX))
        continue;

      dated.saved = load_one (self, backend, name, &dated.saved_at, &load_error);
      if (load_error != NULL)
        set_aside (self, name, load_error->message);
      else if (dated.saved != NULL)
        g_array_append_val (found, dated);
    }

  g_array_sort (found, compare_dated);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (result, g_array_index (found, Dated, i).saved);

  return result;
}

static char *
taken_path_for (ClarifyOutboxStore *self,
                const char         *connection)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, connection, -1);
  g_autofree char *name = g_strdup_printf ("%.32s" SUFFIX, hash);

  return g_build_filename (self->dir, TAKEN_DIR, name, NULL);
}

gboolean
clarify_outbox_store_save_taken (ClarifyOutboxStore  *self,
                                 const char          *connection,
                                 JsonArray           *entries,
                                 GError             **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) array = NULL;

  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), FALSE);
  g_return_val_if_fail (connection != NULL, FALSE);

  path = taken_path_for (self, connection);
  if (entries == NULL || json_array_get_length (entries) == 0)
    {
      if (g_unlink (path) != 0 && errno != ENOENT)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot remove %s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
      return TRUE;
    }

  dir = g_path_get_dirname (path);
  if (!make_dir (dir, error))
    return FALSE;

  array = json_node_new (JSON_NODE_ARRAY);
  json_node_set_array (array, entries);
  builder = begin_file (connection);
  add_member (builder, "taken", g_steal_pointer (&array));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = clarify_json_to_string (root);

  return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

JsonArray *
clarify_outbox_store_load_taken (ClarifyOutboxStore *self,
                                 const char         *connection)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  JsonArray *taken;
  GStatBuf info;
  gsize length;

  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), NULL);
  g_return_val_if_fail (connection != NULL, NULL);

  path = taken_path_for (self, connection);
  if (g_stat (path, &info) != 0)
    return NULL;
  if (info.st_size > MAX_TAKEN_SIZE)
    {
      g_warning ("Ignored %s: larger than the answers Clarify keeps", path);
      return NULL;
    }

  if (!g_file_get_contents (path, &text, &length, &error) ||
      !(root = clarify_json_parse (text, length, &error)))
    {
      g_warning ("Cannot read the answers taken in %s: %s", path, error->message);
      return NULL;
    }

  object = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  taken = object != NULL ? clarify_json_get_array_member (object, "taken") : NULL;
  if (taken == NULL || json_object_get_int_member_with_default (object, "version", 0) != FORMAT_VERSION ||
      g_strcmp0 (clarify_json_get_string_member (object, "connection"), connection) != 0)
    {
      g_warning ("Ignored %s: not the answers Clarify keeps for “%s”", path, connection);
      return NULL;
    }

  return json_array_ref (taken);
}

void
clarify_outbox_store_forget_connection (ClarifyOutboxStore *self,
                                        const char         *connection)
{
  g_autofree char *taken = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_return_if_fail (CLARIFY_IS_OUTBOX_STORE (self));
  g_return_if_fail (connection != NULL);

  taken = taken_path_for (self, connection);
  if (g_unlink (taken) != 0 && errno != ENOENT)
    g_warning ("Cannot remove %s: %s", taken, g_strerror (errno));

  if (!(dir = g_dir_open (self->dir, 0, NULL)))
    return;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (self->dir, name, NULL);
      g_autofree char *text = NULL;
      g_autoptr(JsonNode) root = NULL;
      gsize length;

      if (!g_str_has_suffix (name, SUFFIX) ||
          !g_file_get_contents (path, &text, &length, NULL) ||
          !(root = clarify_json_parse (text, length, NULL)) ||
          !JSON_NODE_HOLDS_OBJECT (root))
        continue;

      if (g_strcmp0 (clarify_json_get_string_member (json_node_get_object (root), "connection"), connection) == 0)
        {
          g_message ("Dropping the kept answer %s: its connection “%s” was removed", name, connection);
          clarify_outbox_store_remove (self, name);
        }
    }
}
