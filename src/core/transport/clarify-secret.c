/* clarify-secret.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <libsecret/secret.h>

#include "clarify-secret-private.h"
#include "clarify-private-file.h"
#include "clarify-secret.h"

#define FILE_SECRET_KEY "secret"
#define FILE_LABEL_KEY  "label"

const SecretSchema *
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
gboolean
clarify_secret_use_file_only (void)
{
  return g_strcmp0 (g_getenv ("CLARIFY_SECRET_STORE"), "file") == 0;
}

/* Whether @error means "no usable Secret Service here" rather than a real
 * answer such as the user dismissing an unlock prompt. */
gboolean
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
  g_autofree char *data = NULL;
  gsize length = 0;

  data = g_key_file_to_data (keyfile, &length, NULL);

  return clarify_private_file_write (path, data, length, error);
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

/* Secrets the user chose not to keep on disk, for this run only. */
static GHashTable *memory_secrets;
G_LOCK_DEFINE_STATIC (memory_secrets);

static gboolean clarify_secret_move_file_to_memory (GError **error);

static char *
clarify_secret_get_fallback_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "clarify", "secret-storage", NULL);
}

ClarifySecretFallback
clarify_secret_get_fallback (void)
{
  g_autofree char *path = clarify_secret_get_fallback_path ();
  g_autofree char *contents = NULL;

  /* CLARIFY_SECRET_STORE=file is a choice made already. */
  if (clarify_secret_use_file_only ())
    return CLARIFY_SECRET_FALLBACK_FILE;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return CLARIFY_SECRET_FALLBACK_UNSET;

  g_strstrip (contents);
  if (g_str_equal (contents, "memory"))
    return CLARIFY_SECRET_FALLBACK_MEMORY;
  if (g_str_equal (contents, "file"))
    return CLARIFY_SECRET_FALLBACK_FILE;

  return CLARIFY_SECRET_FALLBACK_UNSET;
}

gboolean
clarify_secret_set_fallback (ClarifySecretFallback   fallback,
                             GError                **error)
{
  g_autofree char *path = clarify_secret_get_fallback_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  const char *word = fallback == CLARIFY_SECRET_FALLBACK_MEMORY ? "memory\n"
                     : fallback == CLARIFY_SECRET_FALLBACK_FILE ? "file\n"
                                                                : NULL;

  if (word == NULL)
    {
      if (g_unlink (path) != 0 && errno != ENOENT)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                       "Cannot remove %s: %s", path, g_strerror (errno));
          return FALSE;
        }
      return TRUE;
    }

  if (!clarify_private_file_write (path, word, -1, error))
    return FALSE;

  /* Nothing on disk from now on: what the file holds moves to memory. */
  if (fallback == CLARIFY_SECRET_FALLBACK_MEMORY)
    return clarify_secret_move_file_to_memory (error);

  return TRUE;
}

static void
clarify_secret_memory_set (const char *key,
                           const char *secret)
{
  G_LOCK (memory_secrets);
  if (memory_secrets == NULL)
    memory_secrets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) clarify_secret_free);
  if (secret != NULL)
    g_hash_table_replace (memory_secrets, g_strdup (key), g_strdup (secret));
  else
    g_hash_table_remove (memory_secrets, key);
  G_UNLOCK (memory_secrets);
}

static char *
clarify_secret_memory_get (const char *key)
{
  char *secret = NULL;

  G_LOCK (memory_secrets);
  if (memory_secrets != NULL)
    secret = g_strdup (g_hash_table_lookup (memory_secrets, key));
  G_UNLOCK (memory_secrets);

  return secret;
}

static gboolean
clarify_secret_move_file_to_memory (GError **error)
{
  g_autoptr(GKeyFile) keyfile = clarify_secret_load_file (error);
  g_autofree char *path = clarify_secret_get_file_path ();
  g_auto(GStrv) groups = NULL;

  if (keyfile == NULL)
    return FALSE;

  groups = g_key_file_get_groups (keyfile, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      char *secret = g_key_file_get_string (keyfile, groups[i], FILE_SECRET_KEY, NULL);

      if (secret != NULL)
        clarify_secret_memory_set (groups[i], secret);
      clarify_secret_free (secret);
    }

  if (g_unlink (path) != 0 && errno != ENOENT)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "Cannot remove %s: %s", path, g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

/* Where secrets go without a Secret Service: the file, or memory if the
 * user chose not to keep them on disk. */
char *
clarify_secret_fallback_lookup (const char  *key,
                                GError     **error)
{
  char *secret = clarify_secret_memory_get (key);

  if (secret != NULL)
    return secret;

  return clarify_secret_file_lookup (key, error);
}

gboolean
clarify_secret_fallback_store (const char  *key,
                               const char  *label,
                               const char  *secret,
                               GError     **error)
{
  if (clarify_secret_get_fallback () == CLARIFY_SECRET_FALLBACK_MEMORY)
    {
      clarify_secret_memory_set (key, secret);
      /* No older copy stays on disk either. */
      return clarify_secret_file_clear (key, error);
    }

  clarify_secret_memory_set (key, NULL);
  return clarify_secret_file_store (key, label, secret, error);
}

gboolean
clarify_secret_fallback_clear (const char  *key,
                               GError     **error)
{
  clarify_secret_memory_set (key, NULL);
  return clarify_secret_file_clear (key, error);
}

typedef enum
{
  SERVICE_LOOKUP,
  SERVICE_STORE,
  SERVICE_CLEAR,
} ServiceOp;

/* One libsecret call on a thread of its own, shared by that thread and
 * the caller, which may stop waiting before it ends. */
typedef struct
{
  gatomicrefcount  ref;
  GMutex           mutex;
  GCond            cond;
  gboolean         done;
  ServiceOp        op;
  char            *key;
  char            *label;
  char            *secret;
  GCancellable    *cancellable;  /* NULL where it must not be cancelled */
  char            *found;   /* SERVICE_LOOKUP's answer, as plain memory */
  gboolean         ok;
  GError          *error;
} ServiceCall;

static void
service_call_unref (ServiceCall *call)
{
  if (!g_atomic_ref_count_dec (&call->ref))
    return;

  g_mutex_clear (&call->mutex);
  g_cond_clear (&call->cond);
  g_free (call->key);
  g_free (call->label);
  clarify_secret_free (call->secret);
  clarify_secret_free (call->found);
  g_clear_object (&call->cancellable);
  g_clear_error (&call->error);
  g_free (call);
}

static gpointer
service_call_thread (gpointer data)
{
  ServiceCall *call = data;
  const SecretSchema *schema = clarify_secret_get_schema ();
  GError *error = NULL;
  char *found = NULL;
  gboolean ok = FALSE;

  switch (call->op)
    {
    case SERVICE_LOOKUP:
      {
        char *secret = secret_password_lookup_sync (schema, call->cancellable, &error, "key", call->key, NULL);

        found = g_strdup (secret);
        secret_password_free (secret);
        ok = error == NULL;
        break;
      }
    case SERVICE_STORE:
      ok = secret_password_store_sync (schema, SECRET_COLLECTION_DEFAULT, call->label, call->secret,
                                       call->cancellable, &error, "key", call->key, NULL);
      break;
    case SERVICE_CLEAR:
    default:
      ok = secret_password_clear_sync (schema, call->cancellable, &error, "key", call->key, NULL);
      break;
    }

  g_mutex_lock (&call->mutex);
  call->found = found;
  call->ok = ok;
  call->error = error;
  call->done = TRUE;
  g_cond_signal (&call->cond);
  g_mutex_unlock (&call->mutex);
  service_call_unref (call);

  return NULL;
}

/* libsecret 0.20's own test for its Secret portal backend. */
static gboolean
libsecret_uses_portal (void)
{
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS) || g_getenv ("SNAP_NAME") != NULL;
}

GCancellable *
clarify_secret_new_call_cancellable (void)
{
  if (libsecret_uses_portal ())
    return NULL;

  return g_cancellable_new ();
}

void
clarify_secret_set_no_answer_error (GError **error)
{
  if (libsecret_uses_portal ())
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                 /* Translators: %u is a number of seconds */
                 _("The keyring did not answer within %u seconds (the Secret portal, "
                   "org.freedesktop.portal.Secret): it may wait to be unlocked, or be stuck. "
                   "Unlock it and try again."),
                 CLARIFY_SECRET_DEADLINE_S);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                 /* Translators: %u is a number of seconds */
                 _("The keyring did not answer within %u seconds (the Secret Service, "
                   "org.freedesktop.secrets): it may wait to be unlocked, or be stuck. "
                   "Unlock it and try again."),
                 CLARIFY_SECRET_DEADLINE_S);
}

/* Makes one libsecret call and waits for it at most CLARIFY_SECRET_DEADLINE_S.
 * TRUE when the service answered: *@ok, *@found (lookup) and *@service_error
 * say what. FALSE with @error when it did not; the call is cancelled where
 * that is safe (clarify_secret_new_call_cancellable()), and its thread left
 * to end whenever libsecret lets it. */
static gboolean
service_call (ServiceOp    op,
              const char  *key,
              const char  *label,
              const char  *secret,
              gboolean    *ok,
              char       **found,
              GError     **service_error,
              GError     **error)
{
  ServiceCall *call = g_new0 (ServiceCall, 1);
  gint64 deadline = g_get_monotonic_time () + CLARIFY_SECRET_DEADLINE_S * G_TIME_SPAN_SECOND;
  g_autoptr(GThread) thread = NULL;
  gboolean answered;

  g_atomic_ref_count_init (&call->ref);
  g_mutex_init (&call->mutex);
  g_cond_init (&call->cond);
  call->op = op;
  call->key = g_strdup (key);
  call->label = g_strdup (label);
  call->secret = g_strdup (secret);
  call->cancellable = clarify_secret_new_call_cancellable ();

  g_atomic_ref_count_inc (&call->ref);
  thread = g_thread_try_new ("clarify-secret", service_call_thread, call, error);
  if (thread == NULL)
    {
      /* Both references: the thread never ran. */
      service_call_unref (call);
      service_call_unref (call);
      return FALSE;
    }

  g_mutex_lock (&call->mutex);
  while (!call->done)
    {
      if (!g_cond_wait_until (&call->cond, &call->mutex, deadline))
        break;
    }
  answered = call->done;
  if (answered)
    {
      *ok = call->ok;
      if (found != NULL)
        *found = g_steal_pointer (&call->found);
      /* The service may answer without an error: nothing to hand on then. */
      if (call->error != NULL)
        g_propagate_error (service_error, g_steal_pointer (&call->error));
    }
  g_mutex_unlock (&call->mutex);

  if (!answered)
    {
      /* Where it can be: a write must not land after "not stored". */
      if (call->cancellable != NULL)
        g_cancellable_cancel (call->cancellable);
      clarify_secret_set_no_answer_error (error);
    }
  service_call_unref (call);

  return answered;
}

char *
clarify_secret_lookup (const char  *key,
                       GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  char *secret = NULL;
  gboolean ok;

  g_return_val_if_fail (key != NULL, NULL);

  if (clarify_secret_use_file_only ())
    return clarify_secret_fallback_lookup (key, error);

  if (!service_call (SERVICE_LOOKUP, key, NULL, NULL, &ok, &secret, &local_error, error))
    return NULL;

  if (local_error != NULL && !clarify_secret_service_unavailable (local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (local_error != NULL)
    g_debug ("Secret Service unavailable (%s); using %s", local_error->message, "the secrets file");

  if (secret != NULL)
    return secret;

  /* Also where the service works: the secret may have been stored while
   * it was not running. */
  return clarify_secret_fallback_lookup (key, error);
}

gboolean
clarify_secret_store (const char  *key,
                      const char  *label,
                      const char  *secret,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  gboolean ok;

  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (secret != NULL, FALSE);

  if (label == NULL)
    label = key;

  if (clarify_secret_use_file_only ())
    return clarify_secret_fallback_store (key, label, secret, error);

  if (!service_call (SERVICE_STORE, key, label, secret, &ok, NULL, &local_error, error))
    return FALSE;

  if (ok)
    {
      /* Leave no stale copy behind in the file. */
      g_autoptr(GError) clear_error = NULL;

      if (!clarify_secret_fallback_clear (key, &clear_error))
        g_debug ("Could not clear the secrets file entry: %s", clear_error->message);
      return TRUE;
    }

  if (!clarify_secret_service_unavailable (local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_debug ("Secret Service unavailable (%s); using %s", local_error->message, "the fallback");

  return clarify_secret_fallback_store (key, label, secret, error);
}

gboolean
clarify_secret_clear (const char  *key,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  gboolean ok;

  g_return_val_if_fail (key != NULL, FALSE);

  if (!clarify_secret_use_file_only ())
    {
      if (!service_call (SERVICE_CLEAR, key, NULL, NULL, &ok, NULL, &local_error, error))
        return FALSE;
      if (!ok && local_error != NULL && !clarify_secret_service_unavailable (local_error))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }

  return clarify_secret_fallback_clear (key, error);
}

char *
clarify_secret_connection_key (const char *name)
{
  return g_strconcat ("connection:", name, NULL);
}

char *
clarify_secret_connection_label (const char *name)
{
  /* Translators: the label of the stored password in the user's keyring */
  return g_strdup_printf (_("Clarify: password of “%s”"), name);
}

void
clarify_secret_free (char *secret)
{
  if (secret == NULL)
    return;

  explicit_bzero (secret, strlen (secret));
  g_free (secret);
}
