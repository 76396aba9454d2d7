/* clarify-outbox-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

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
  /* Answers taken are ordered by when: never twice the same, never
   * earlier than one read back, whatever the clock does. */
  gint64   last_taken_at;
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
set_aside_path (const char *path,
                const char *why)
{
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
        {
          g_autofree char *path = g_build_filename (self->dir, name, NULL);

          set_aside_path (path, load_error->message);
        }
      else if (dated.saved != NULL)
        g_array_append_val (found, dated);
    }

  g_array_sort (found, compare_dated);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (result, g_array_index (found, Dated, i).saved);

  return result;
}

static char *
taken_dir_for (ClarifyOutboxStore *self,
               const char         *connection)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, connection, -1);
  g_autofree char *name = g_strdup_printf ("%.32s", hash);

  return g_build_filename (self->dir, TAKEN_DIR, name, NULL);
}

/* Earlier versions kept a connection's answers taken in one file beside
 * its folder, written whole for every answer: read once more, then split. */
static char *
old_taken_path_for (ClarifyOutboxStore *self,
                    const char         *connection)
{
  g_autofree char *dir = taken_dir_for (self, connection);

  return g_strconcat (dir, SUFFIX, NULL);
}

static char *
taken_path_for (ClarifyOutboxStore *self,
                const char         *connection,
                const char         *request_id)
{
  g_autofree char *dir = taken_dir_for (self, connection);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, request_id, -1);
  g_autofree char *name = g_strdup_printf ("%.32s" SUFFIX, hash);

  return g_build_filename (dir, name, NULL);
}

void
clarify_outbox_taken_free (ClarifyOutboxTaken *taken)
{
  if (taken == NULL)
    return;

  g_free (taken->request_id);
  g_free (taken->request_digest);
  g_free (taken);
}

static gboolean
write_taken (ClarifyOutboxStore  *self,
             const char          *connection,
             const char          *request_id,
             const char          *request_digest,
             const char          *answer_json,
             gint64               taken_at,
             GError             **error)
{
  g_autofree char *dir = taken_dir_for (self, connection);
  g_autofree char *path = taken_path_for (self, connection, request_id);
  g_autofree char *text = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;

  if (!make_dir (dir, error))
    return FALSE;

  builder = begin_file (connection);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, request_id);
  json_builder_set_member_name (builder, "request_digest");
  json_builder_add_string_value (builder, request_digest);
  json_builder_set_member_name (builder, "taken_at");
  json_builder_add_int_value (builder, taken_at);
  json_builder_set_member_name (builder, "answer");
  json_builder_add_string_value (builder, answer_json);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = clarify_json_to_string (root);

  return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

gboolean
clarify_outbox_store_keep_taken (ClarifyOutboxStore  *self,
                                 const char          *connection,
                                 const char          *request_id,
                                 const char          *request_digest,
                                 const char          *answer_json,
                                 GError             **error)
{
  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), FALSE);
  g_return_val_if_fail (connection != NULL, FALSE);
  g_return_val_if_fail (request_id != NULL, FALSE);
  g_return_val_if_fail (request_digest != NULL, FALSE);
  g_return_val_if_fail (answer_json != NULL, FALSE);

  self->last_taken_at = MAX (g_get_real_time (), self->last_taken_at + 1);

  return write_taken (self, connection, request_id, request_digest, answer_json, self->last_taken_at, error);
}

void
clarify_outbox_store_drop_taken (ClarifyOutboxStore *self,
                                 const char         *connection,
                                 const char         *request_id)
{
  g_autofree char *path = NULL;

  g_return_if_fail (CLARIFY_IS_OUTBOX_STORE (self));
  g_return_if_fail (connection != NULL);
  g_return_if_fail (request_id != NULL);

  path = taken_path_for (self, connection, request_id);
  /* ENOTDIR: a folder on the way is a file, so there is no such file. */
  if (g_unlink (path) != 0 && errno != ENOENT && errno != ENOTDIR)
    g_warning ("Cannot remove %s: %s", path, g_strerror (errno));
}

/* The object in the file at @path, when it is one of @connection's. */
static JsonNode *
read_taken_file (const char  *path,
                 const char  *connection,
                 GError     **error)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  GStatBuf info;
  gsize length;

  if (g_stat (path, &info) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s", g_strerror (saved_errno));
      return NULL;
    }
  if (info.st_size > MAX_TAKEN_SIZE)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "larger than the answers Clarify keeps");
      return NULL;
    }
  if (!g_file_get_contents (path, &text, &length, error) ||
      !(root = clarify_json_parse (text, length, error)))
    return NULL;

  object = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (object == NULL || json_object_get_int_member_with_default (object, "version", 0) != FORMAT_VERSION ||
      g_strcmp0 (clarify_json_get_string_member (object, "connection"), connection) != 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "not the answers Clarify keeps for “%s”", connection);
      return NULL;
    }

  return g_steal_pointer (&root);
}

/* Each answer of an earlier version's single file to a file of its own,
 * in their order and older than any written since; the old file goes
 * once all of them are written. An answer that already has a file of its
 * own (a split cut short before) keeps it. */
static void
split_old_taken (ClarifyOutboxStore *self,
                 const char         *connection)
{
  g_autofree char *path = old_taken_path_for (self, connection);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *taken;
  GStatBuf info;
  gint64 written_at;
  guint n;

  if (g_stat (path, &info) != 0)
    return;

  root = read_taken_file (path, connection, &error);
  taken = root != NULL ? clarify_json_get_array_member (json_node_get_object (root), "taken") : NULL;
  if (taken == NULL)
    {
      set_aside_path (path, error != NULL ? error->message : "no answers in it");
      return;
    }

  written_at = (gint64) info.st_mtime * G_USEC_PER_SEC;
  n = json_array_get_length (taken);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (taken, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *id = entry != NULL ? clarify_json_get_string_member (entry, "id") : NULL;
      const char *digest = entry != NULL ? clarify_json_get_string_member (entry, "request_digest") : NULL;
      const char *answer = entry != NULL ? clarify_json_get_string_member (entry, "answer") : NULL;
      g_autofree char *own = NULL;

      if (id == NULL || digest == NULL || answer == NULL)
        continue;
      own = taken_path_for (self, connection, id);
      if (g_file_test (own, G_FILE_TEST_EXISTS))
        continue;
      if (!write_taken (self, connection, id, digest, answer, written_at - (n - i), &error))
        {
          g_warning ("Cannot move the answers taken in %s to files of their own: %s", path, error->message);
          return;
        }
    }

  if (g_unlink (path) != 0 && errno != ENOENT)
    g_warning ("Cannot remove %s: %s", path, g_strerror (errno));
}

/* A request digest as the backends write it: SHA-256 in hex. */
static gboolean
is_digest (const char *text)
{
  if (text == NULL || strlen (text) != 64)
    return FALSE;
  for (const char *c = text; *c != '\0'; c++)
    if (!g_ascii_isxdigit (*c))
      return FALSE;

  return TRUE;
}

static int
compare_taken (gconstpointer a,
               gconstpointer b)
{
  const ClarifyOutboxTaken *ta = *(ClarifyOutboxTaken * const *) a;
  const ClarifyOutboxTaken *tb = *(ClarifyOutboxTaken * const *) b;

  if (ta->taken_at != tb->taken_at)
    return ta->taken_at < tb->taken_at ? -1 : 1;
  return g_strcmp0 (ta->request_id, tb->request_id);
}

GPtrArray *
clarify_outbox_store_load_taken (ClarifyOutboxStore *self,
                                 const char         *connection)
{
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) clarify_outbox_taken_free);
  g_autofree char *dir_path = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), result);
  g_return_val_if_fail (connection != NULL, result);

  split_old_taken (self, connection);

  dir_path = taken_dir_for (self, connection);
  if (!(dir = g_dir_open (dir_path, 0, NULL)))
    return result;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GError) error = NULL;
      JsonObject *object;
      ClarifyOutboxTaken *taken;
      const char *id;
      const char *digest;

      /* Leftovers of an interrupted atomic write, and files set aside. */
      if (!g_str_has_suffix (name, SUFFIX))
        continue;

      path = g_build_filename (dir_path, name, NULL);
      root = read_taken_file (path, connection, &error);
      object = root != NULL ? json_node_get_object (root) : NULL;
      id = object != NULL ? clarify_json_get_string_member (object, "id") : NULL;
      digest = object != NULL ? clarify_json_get_string_member (object, "request_digest") : NULL;
      if (id == NULL || !is_digest (digest) || clarify_json_get_string_member (object, "answer") == NULL)
        {
          set_aside_path (path, error != NULL ? error->message : "no id, request digest or answer as Clarify writes them");
          continue;
        }

      taken = g_new0 (ClarifyOutboxTaken, 1);
      taken->request_id = g_strdup (id);
      taken->request_digest = g_strdup (digest);
      taken->taken_at = json_object_get_int_member_with_default (object, "taken_at", 0);
      self->last_taken_at = MAX (self->last_taken_at, taken->taken_at);
      g_ptr_array_add (result, taken);
    }

  g_ptr_array_sort (result, compare_taken);

  return result;
}

char *
clarify_outbox_store_read_taken_answer (ClarifyOutboxStore  *self,
                                        const char          *connection,
                                        const char          *request_id,
                                        GError             **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  const char *answer;

  g_return_val_if_fail (CLARIFY_IS_OUTBOX_STORE (self), NULL);
  g_return_val_if_fail (connection != NULL, NULL);
  g_return_val_if_fail (request_id != NULL, NULL);

  path = taken_path_for (self, connection, request_id);
  if (!(root = read_taken_file (path, connection, error)))
    return NULL;

  object = json_node_get_object (root);
  answer = clarify_json_get_string_member (object, "answer");
  if (answer == NULL || g_strcmp0 (clarify_json_get_string_member (object, "id"), request_id) != 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "not the answer taken for “%s”", request_id);
      return NULL;
    }

  return g_strdup (answer);
}

void
clarify_outbox_store_forget_connection (ClarifyOutboxStore *self,
                                        const char         *connection)
{
  g_autofree char *old_taken = NULL;
  g_autofree char *taken = NULL;
  g_autoptr(GDir) taken_dir = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_return_if_fail (CLARIFY_IS_OUTBOX_STORE (self));
  g_return_if_fail (connection != NULL);

  old_taken = old_taken_path_for (self, connection);
  if (g_unlink (old_taken) != 0 && errno != ENOENT)
    g_warning ("Cannot remove %s: %s", old_taken, g_strerror (errno));

  /* Only this connection's folder of answers taken: every file in it. */
  taken = taken_dir_for (self, connection);
  if ((taken_dir = g_dir_open (taken, 0, NULL)) != NULL)
    {
      while ((name = g_dir_read_name (taken_dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (taken, name, NULL);

          if (g_unlink (path) != 0 && errno != ENOENT)
            g_warning ("Cannot remove %s: %s", path, g_strerror (errno));
        }
      if (g_rmdir (taken) != 0 && errno != ENOENT)
        g_warning ("Cannot remove %s: %s", taken, g_strerror (errno));
    }

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
