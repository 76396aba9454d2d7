/* clarify-mcp-config.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <gio/gio.h>

#include "clarify-mcp-config.h"

static GKeyFile *
load_settings (void)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "clarify", "mcp.ini", NULL);

  if (!g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, NULL))
    return NULL;

  return g_steal_pointer (&keyfile);
}

guint
clarify_mcp_config_get_port (void)
{
  g_autoptr(GKeyFile) keyfile = load_settings ();
  g_autoptr(GError) error = NULL;
  gint port;

  if (keyfile == NULL)
    return CLARIFY_MCP_DEFAULT_PORT;

  /* Clients are configured with the port, so it must be a fixed one. */
  port = g_key_file_get_integer (keyfile, "mcp", "port", &error);
  if (error != NULL || port <= 0 || port > 65535)
    return CLARIFY_MCP_DEFAULT_PORT;

  return (guint) port;
}

gboolean
clarify_mcp_config_get_enabled (void)
{
  g_autoptr(GKeyFile) keyfile = load_settings ();
  g_autoptr(GError) error = NULL;
  gboolean enabled;

  if (keyfile == NULL)
    return TRUE;

  enabled = g_key_file_get_boolean (keyfile, "mcp", "enabled", &error);

  return error != NULL ? TRUE : enabled;
}

gboolean
clarify_mcp_config_save (gboolean   enabled,
                         guint      port,
                         GError   **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "clarify", NULL);
  g_autofree char *path = g_build_filename (dir, "mcp.ini", NULL);

  g_return_val_if_fail (port > 0 && port <= 65535, FALSE);

  /* Whatever else the user wrote there stays. */
  g_key_file_load_from_file (keyfile, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  g_key_file_set_boolean (keyfile, "mcp", "enabled", enabled);
  g_key_file_set_integer (keyfile, "mcp", "port", (gint) port);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }

  return g_key_file_save_to_file (keyfile, path, error);
}
