/* clarify-json-config.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "clarify-json.h"
#include "clarify-json-config.h"
#include "clarify-strict-json.h"

/* A dotfiles link stays a link: write where it points. */
static char *
resolve_link (const char *path)
{
  g_autofree char *real = NULL;
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    return g_strdup (path);

  real = realpath (path, NULL);
  if (real != NULL)
    return g_steal_pointer (&real);

  /* Dangling: the file it names is to be created. */
  target = g_file_read_link (path, NULL);
  if (target == NULL)
    return g_strdup (path);

  dir = g_path_get_dirname (path);

  return g_canonicalize_filename (target, dir);
}

static gboolean
is_blank (const char *text,
          gsize       length)
{
  /* All of it: a NUL is no blank (and no JSON). */
  for (gsize i = 0; i < length; i++)
    {
      if (!g_ascii_isspace (text[i]))
        return FALSE;
    }

  return TRUE;
}

static char *
to_pretty_json (JsonNode *root)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);

  return g_strconcat (text, "\n", NULL);
}

/* Whether @text (strict JSON, checked already) is byte for byte what
 * Clarify writes for it. */
static gboolean
is_as_we_write_it (const char *text,
                   gsize       length)
{
  g_autoptr(JsonNode) root = clarify_json_parse (text, length, NULL);
  g_autofree char *ours = root != NULL ? to_pretty_json (root) : NULL;

  return ours != NULL && strlen (ours) == length && memcmp (ours, text, length) == 0;
}

/* "PATH: No such file or directory", from errno. */
static gboolean
fail_errno (GError     **error,
            const char  *path)
{
  int saved_errno = errno;

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               "%s: %s", path, g_strerror (saved_errno));

  return FALSE;
}

/* @strict: JSON by the letter (a file Clarify may rewrite), else what
 * json-glib takes. */
static JsonNode *
parse_text (const char  *path,
            const char  *text,
            gsize        length,
            gboolean     strict,
            GError     **error)
{
  g_autofree char *problem = NULL;
  g_autoptr(GError) local_error = NULL;
  gboolean is_json = FALSE;
  JsonNode *root = NULL;

  if (is_blank (text, length))
    {
      root = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (root, json_object_new ());
      return root;
    }

  if (strict)
    problem = clarify_strict_json_problem (text, length, &is_json);
  if (problem == NULL)
    root = clarify_json_parse (text, length, &local_error);
  if (root == NULL && is_json)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s cannot be rewritten without changing a value in it (%s)"), path, problem);
  else if (root == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s is not valid JSON (%s)"), path, problem != NULL ? problem : local_error->message);

  return root;
}

/* @text with its comments blanked out (newlines kept, so that the
 * parser's line numbers stay right), then without commas that close
 * nothing but an object or array: JSON that json-glib reads. */
static char *
jsonc_to_json (const char *text,
               gsize       length)
{
  g_autofree char *blanked = g_strndup (text, length);
  GString *json = g_string_sized_new (length);
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      if (in_string)
        {
          if (blanked[i] == '\\' && i + 1 < length)
            i++;
          else if (blanked[i] == '"')
            in_string = FALSE;
        }
      else if (blanked[i] == '"')
        in_string = TRUE;
      else if (blanked[i] == '/' && i + 1 < length && blanked[i + 1] == '/')
        {
          for (; i < length && blanked[i] != '\n'; i++)
            blanked[i] = ' ';
        }
      else if (blanked[i] == '/' && i + 1 < length && blanked[i + 1] == '*')
        {
          gboolean closed = FALSE;

          blanked[i] = blanked[i + 1] = ' ';
          for (i += 2; i < length && !closed; i++)
            {
              closed = blanked[i] == '*' && i + 1 < length && blanked[i + 1] == '/';
              if (closed)
                blanked[i + 1] = ' ';
              if (blanked[i] != '\n')
                blanked[i] = ' ';
            }
          /* The loop's i++ went past the comment's last character. */
          i--;
        }
    }

  in_string = FALSE;
  for (gsize i = 0; i < length; i++)
    {
      char c = blanked[i];

      if (in_string)
        {
          if (c == '\\' && i + 1 < length)
            {
              g_string_append_c (json, c);
              c = blanked[++i];
            }
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == ',')
        {
          gsize next = i + 1;

          while (next < length && g_ascii_isspace (blanked[next]))
            next++;
          if (next < length && (blanked[next] == '}' || blanked[next] == ']'))
            c = ' ';
        }
      g_string_append_c (json, c);
    }

  return g_string_free (json, FALSE);
}

JsonNode *
clarify_json_config_read_jsonc (const char  *path,
                                GError     **error)
{
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;

  /* Shorter than @text when a trailing comma went. */
  json = jsonc_to_json (text, length);

  return parse_text (path, json, strlen (json), FALSE, error);
}

JsonNode *
clarify_json_config_read (const char  *path,
                          GError     **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;

  return parse_text (path, text, length, TRUE, error);
}

gboolean
clarify_json_config_update (const char             *path,
                            gboolean                create,
                            gboolean                holds_secret,
                            ClarifyJsonConfigEdit   edit,
                            gpointer                user_data,
                            gboolean               *written,
                            char                  **backup_path,
                            GError                **error)
{
  g_autofree char *target = NULL;
  g_autofree char *old = NULL;
  g_autofree char *text = NULL;
  g_autofree char *backup = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize old_length = 0;
  GStatBuf st;
  int mode = holds_secret ? 0600 : 0666;
  gboolean changed = FALSE;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);

  if (written != NULL)
    *written = FALSE;
  if (backup_path != NULL)
    *backup_path = NULL;
  target = resolve_link (path);

  /* A FIFO would block the read, and a device that a link names would be
   * replaced by a file (/dev/null, for one run as root). */
  if (g_stat (target, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file; Clarify changes only regular files"), target);
      return FALSE;
    }

  if (!g_file_get_contents (target, &old, &old_length, &local_error))
    {
      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (!create)
        return TRUE;
    }

  root = parse_text (target, old != NULL ? old : "", old_length, TRUE, error);
  if (root == NULL)
    return FALSE;

  if (!edit (root, &changed, user_data, &local_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", target, local_error->message);
      return FALSE;
    }
  if (!changed)
    return TRUE;

  if (old != NULL)
    {
      if (g_stat (target, &st) != 0)
        return fail_errno (error, target);
      mode = st.st_mode & (holds_secret ? 07700 : 07777);

      /* A file as Clarify writes it (set up before, and not touched
       * since) would take the place of the user's own bytes. */
      backup = g_strconcat (target, ".clarify-backup", NULL);
      if (g_file_test (backup, G_FILE_TEST_EXISTS) && is_as_we_write_it (old, old_length))
        {
          g_clear_pointer (&backup, g_free);
        }
      else if (!g_file_set_contents_full (backup, old, old_length, G_FILE_SET_CONTENTS_CONSISTENT, mode, error))
        {
          return FALSE;
        }
    }
  else
    {
      g_autofree char *dir = g_path_get_dirname (target);

      if (g_mkdir_with_parents (dir, 0777) != 0)
        return fail_errno (error, dir);
    }

  text = to_pretty_json (root);
  if (!g_file_set_contents_full (target, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, mode, error))
    return FALSE;
  /* The umask applied on creation; the mode is the file's own. */
  if (old != NULL && g_chmod (target, mode) != 0)
    return fail_errno (error, target);

  if (written != NULL)
    *written = TRUE;
  if (backup_path != NULL)
    *backup_path = g_steal_pointer (&backup);

  return TRUE;
}
