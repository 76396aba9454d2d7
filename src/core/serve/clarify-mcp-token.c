/* clarify-mcp-token.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>
#include <sys/random.h>

#include "clarify-mcp-token.h"
#include "clarify-secret.h"

char *
clarify_mcp_token_random (gsize n_bytes)
{
  g_autofree guchar *bytes = g_malloc (n_bytes);
  g_autofree char *encoded = NULL;
  gsize filled = 0;

  while (filled < n_bytes)
    {
      gssize got = getrandom (bytes + filled, n_bytes - filled, 0);

      if (got < 0)
        {
          if (errno == EINTR)
            continue;
          g_error ("getrandom() failed: %s", g_strerror (errno));
        }
      filled += got;
    }

  encoded = g_base64_encode (bytes, n_bytes);
  explicit_bzero (bytes, n_bytes);

  g_strdelimit (encoded, "+", '-');
  g_strdelimit (encoded, "/", '_');
  for (char *p = encoded + strlen (encoded); p > encoded && p[-1] == '='; p--)
    p[-1] = '\0';

  return g_steal_pointer (&encoded);
}

char *
clarify_mcp_token_ensure (GError **error)
{
  g_autoptr(GError) local_error = NULL;
  char *token;

  token = clarify_secret_lookup (CLARIFY_MCP_TOKEN_KEY, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (token != NULL && *token != '\0')
    return token;

  g_free (token);
  token = clarify_mcp_token_random (32);

  if (!clarify_secret_store (CLARIFY_MCP_TOKEN_KEY, _("Clarify MCP access token"), token, error))
    {
      g_free (token);
      return NULL;
    }

  return token;
}

static void
token_stored_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!clarify_secret_store_finish (result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_strdup (g_task_get_task_data (task)), (GDestroyNotify) clarify_secret_free);
}

static void
token_read_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  char *token = clarify_secret_lookup_finish (result, &error);
  char *made;

  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (token != NULL && *token != '\0')
    {
      g_task_return_pointer (task, token, (GDestroyNotify) clarify_secret_free);
      return;
    }

  clarify_secret_free (token);
  made = clarify_mcp_token_random (32);
  g_task_set_task_data (task, made, (GDestroyNotify) clarify_secret_free);
  clarify_secret_store_async (CLARIFY_MCP_TOKEN_KEY, _("Clarify MCP access token"), made,
                              g_task_get_cancellable (task), token_stored_cb, g_object_ref (task));
}

void
clarify_mcp_token_ensure_async (GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, clarify_mcp_token_ensure_async);
  clarify_secret_lookup_async (CLARIFY_MCP_TOKEN_KEY, cancellable, token_read_cb, task);
}

char *
clarify_mcp_token_ensure_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
