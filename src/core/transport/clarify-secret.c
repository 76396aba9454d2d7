/* clarify-secret.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libsecret/secret.h>

#include "clarify-secret.h"

#define FILE_SECRET_KEY "secret"
#define FILE_LABEL_KEY  "label"

static const SecretSchema *
clarify_secret_get_schema (void)
{
  static const SecretSchema schema = {
    "io.github.clarify.Clarify.Secret", SECRET_SCHEMA_NONE,
    {
      { "key", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

/* CLARIFY_SECRET_STORE=file skips the Secret Service: for headless machines
 * whose keyring would prompt, and for tests that must not touch the user's
 * keyring. */
static gboolean
clarify_secret_use_file_only (void)
{
  return g_strcmp0 (g_getenv ("CLARIFY_SECRET_STORE"), "file") == 0;
}

/* Whether @error means "no usable Secret Service here" rather than a real
 * answer such as the user dismissing an unlock prompt. */
static gboolean
clarify_secret_service_unavailable (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;

  return error->domain == G_DBUS_ERROR ||
         error->domain == G_IO_ERROR ||
         error->domain == SECRET_ERROR;
}

char *
clarify_secret_get_file_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "clarify", "secrets", NULL);
}

static GKeyFile *
clarify_secret_load_file (GError **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *path = clarify_secret_get_file_path ();
  g_autoptr(GError) local_error = NULL;

  if (!g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, &local_error) &&
      !g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return g_steal_pointer (&keyfile);
}

static gboolean
clarify_secret_save_file (GKeyFile  *keyfile,
                          GError   **error)
{
  g_autofree char *path = clarify_secret_get_file_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *data = NULL;
  gsize length = 0;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "Cannot create %s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }

  data = g_key_file_to_data (keyfile, &length, NULL);

  /* Written to a temporary file created 0600 and renamed over the old one,
   * so the secret is never readable by others, not even for a moment. */
  return g_file_set_contents_full (path, data, length,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

static char *
clarify_secret_file_lookup (const char  *key,
                            GError     **error)
{
  g_autoptr(GKeyFile) keyfile = clarify_secret_load_file (error);

  if (keyfile == NULL)
    return NULL;

  return g_key_file_get_string (keyfile, key, FILE_SECRET_KEY, NULL);
}

static gboolean
clarify_secret_file_store (const char  *key,
                           const char  *label,
                           const char  *secret,
                           GError     **error)
{
  g_autoptr(GKeyFile) keyfile = clarify_secret_load_file (error);

  if (keyfile == NULL)
    return FALSE;

  /* One group per key: keys such as "connection:name" are valid group
   * names but not valid keyfile keys. */
  if (label != NULL)
    g_key_file_set_string (keyfile, key, FILE_LABEL_KEY, label);
  g_key_file_set_string (keyfile, key, FILE_SECRET_KEY, secret);

  return clarify_secret_save_file (keyfile, error);
}

static gboolean
clarify_secret_file_clear (const char  *key,
                           GError     **error)
{
  g_autoptr(GKeyFile) keyfile = clarify_secret_load_file (error);

  if (keyfile == NULL)
    return FALSE;

  if (!g_key_file_has_group (keyfile, key))
    return TRUE;

  g_key_file_remove_group (keyfile, key, NULL);

  return clarify_secret_save_file (keyfile, error);
}

char *
clarify_secret_lookup (const char  *key,
                       GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  char *secret;

  g_return_val_if_fail (key != NULL, NULL);

  if (clarify_secret_use_file_only ())
    return clarify_secret_file_lookup (key, error);

  secret = secret_password_lookup_sync (clarify_secret_get_schema (), NULL, &local_error,
                                        "key", key,
                                        NULL);
  if (local_error != NULL && !clarify_secret_service_unavailable (local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (local_error != NULL)
    g_debug ("Secret Service unavailable (%s); using %s", local_error->message, "the secrets file");

  if (secret != NULL)
    {
      /* Hand out plain memory: callers free with g_free(). */
      char *copy = g_strdup (secret);

      secret_password_free (secret);
      return copy;
    }

  /* Also where the service works: the secret may have been stored while
   * it was not running. */
  return clarify_secret_file_lookup (key, error);
}

gboolean
clarify_secret_store (const char  *key,
                      const char  *label,
                      const char  *secret,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (secret != NULL, FALSE);

  if (label == NULL)
    label = key;

  if (clarify_secret_use_file_only ())
    return clarify_secret_file_store (key, label, secret, error);

  if (secret_password_store_sync (clarify_secret_get_schema (), SECRET_COLLECTION_DEFAULT,
                                  label, secret, NULL, &local_error,
                                  "key", key,
                                  NULL))
    {
      /* Leave no stale copy behind in the file. */
      g_autoptr(GError) clear_error = NULL;

      if (!clarify_secret_file_clear (key, &clear_error))
        g_debug ("Could not clear the secrets file entry: %s", clear_error->message);
      return TRUE;
    }

  if (!clarify_secret_service_unavailable (local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_debug ("Secret Service unavailable (%s); using %s", local_error->message, "the secrets file");

  return clarify_secret_file_store (key, label, secret, error);
}

gboolean
clarify_secret_clear (const char  *key,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (key != NULL, FALSE);

  if (!clarify_secret_use_file_only () &&
      !secret_password_clear_sync (clarify_secret_get_schema (), NULL, &local_error,
                                   "key", key,
                                   NULL) &&
      local_error != NULL &&
      !clarify_secret_service_unavailable (local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return clarify_secret_file_clear (key, error);
}

void
clarify_secret_free (char *secret)
{
  if (secret == NULL)
    return;

  explicit_bzero (secret, strlen (secret));
  g_free (secret);
}
