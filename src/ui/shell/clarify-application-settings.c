/* clarify-application-settings.c: the user's preferences, applied at once
 *
 * The GSettings schema io.github.clarify.Clarify holds them; this is the
 * one place that reads it. Each key is handed to the part it concerns
 * (the dialog queue, the MCP endpoint, start at login) through that part's
 * own setter, when Clarify starts and whenever the key changes, so nothing
 * waits for a restart and nothing below src/ui/shell knows of GSettings.
 *
 * The MCP endpoint's port and switch are also written to mcp.ini, which
 * the command line (clarify --mcp-info, the setup commands) reads without
 * GTK; a value found there at start wins, so a hand edit is kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-application-private.h"
#include "clarify-mcp-server.h"


static GSettings *
new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaSource) build_source = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);

  /* Run from the build tree, uninstalled: its own compiled schema. */
  if (schema == NULL)
    {
      build_source = g_settings_schema_source_new_from_directory (BUILD_SCHEMA_DIR, source, FALSE, NULL);
      if (build_source != NULL)
        schema = g_settings_schema_source_lookup (build_source, APP_ID, FALSE);
    }
  if (schema == NULL)
    g_error ("The settings schema %s is not installed", APP_ID);

  return g_settings_new_full (schema, NULL, NULL);
}

/* What mcp.ini says at start is what the command line has been reading. */
static void
import_mcp_ini (GSettings *settings)
{
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "clarify", "mcp.ini", NULL);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();

  if (!g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, NULL))
    return;

  if (g_key_file_has_key (keyfile, "mcp", "port", NULL))
    g_settings_set (settings, "mcp-port", "q", (guint16) clarify_mcp_config_get_port ());
  if (g_key_file_has_key (keyfile, "mcp", "enabled", NULL))
    g_settings_set_boolean (settings, "mcp-enabled", clarify_mcp_config_get_enabled ());
}

/* The choice made before there were preferences ([autostart] in
 * clarify.ini) is kept, once. */
static void
import_autostart_choice (GSettings *settings)
{
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "clarify", "clarify.ini", NULL);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GVariant) user_value = g_settings_get_user_value (settings, "start-at-login-asked");
  g_autoptr(GError) error = NULL;
  gboolean enabled;

  if (user_value != NULL || !g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, NULL))
    return;

  enabled = g_key_file_get_boolean (keyfile, "autostart", "enabled", &error);
  if (error != NULL)
    return;

  g_settings_set_boolean (settings, "start-at-login", enabled);
  g_settings_set_boolean (settings, "start-at-login-asked", TRUE);
}

static void
save_mcp_ini (ClarifyApplication *self)
{
  g_autoptr(GError) error = NULL;

  if (!clarify_mcp_config_save (g_settings_get_boolean (self->settings, "mcp-enabled"),
                                clarify_application_get_mcp_port_setting (self),
                                &error))
    g_message ("Cannot save the MCP settings for the command line: %s", error->message);
}

guint
clarify_application_get_mcp_port_setting (ClarifyApplication *self)
{
  guint16 port;

  g_settings_get (self->settings, "mcp-port", "q", &port);

  return port;
}

static ClarifyMcpServer *
lookup_mcp_server (ClarifyApplication *self)
{
  ClarifyBackend *backend = clarify_inbox_lookup_backend (self->inbox, CLARIFY_MCP_CONNECTION_NAME);

  return CLARIFY_IS_MCP_SERVER (backend) ? CLARIFY_MCP_SERVER (backend) : NULL;
}

guint
clarify_application_get_mcp_listening_port (ClarifyApplication *self)
{
  ClarifyMcpServer *server = lookup_mcp_server (self);

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), 0);

  return server != NULL ? clarify_mcp_server_get_port (server) : 0;
}

gboolean
clarify_application_set_mcp_port (ClarifyApplication  *self,
                                  guint                port,
                                  GError             **error)
{
  ClarifyMcpServer *server = lookup_mcp_server (self);
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), FALSE);

  if (port == 0 || port > 65535)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A port is a number from 1 to 65535."));
      return FALSE;
    }

  /* Serving, or waiting for a free port: the new port must work before it
   * is kept. Switched off, it is kept for the next start. */
  if (server != NULL && !clarify_mcp_server_set_port (server, port, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  self->applying_mcp_port = TRUE;
  g_settings_set (self->settings, "mcp-port", "q", (guint16) port);
  self->applying_mcp_port = FALSE;

  return TRUE;
}

static void
apply_mcp_enabled (ClarifyApplication *self)
{
  ClarifyMcpServer *server = lookup_mcp_server (self);

  if (!self->backends_started)
    return;

  if (g_settings_get_boolean (self->settings, "mcp-enabled"))
    {
      if (server == NULL)
        clarify_application_start_mcp_server (self, 0);
    }
  else
    {
      clarify_application_stop_mcp_server (self);
    }
}

/* Changed elsewhere (gsettings, dconf-editor): tried like the preferences'
 * own change, and put back when the port cannot be had. */
static void
apply_mcp_port (ClarifyApplication *self)
{
  ClarifyMcpServer *server = lookup_mcp_server (self);
  guint port = clarify_application_get_mcp_port_setting (self);
  guint serving;
  g_autoptr(GError) error = NULL;

  if (self->applying_mcp_port || server == NULL)
    return;

  serving = clarify_mcp_server_get_port (server);
  if (clarify_mcp_server_set_port (server, port, &error))
    {
      /* Moved: a port refused before may be tried again. */
      if (port != serving)
        self->mcp_port_refused = 0;
      return;
    }
  /* Where the settings cannot be saved (no dconf), putting the port back is
   * itself undone, and brings the refused port here again: once is enough. */
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED) && port != self->mcp_port_refused)
    {
      g_autofree char *text = NULL;

      self->mcp_port_refused = port;
      g_message ("Cannot move the MCP endpoint to port %u: %s", port, error->message);
      /* Translators: %u is a port number, %s an error message */
      text = g_strdup_printf (_("The MCP endpoint cannot listen on port %u: %s"), port, error->message);
      clarify_application_tell_user (self, "mcp-port", text);
      /* Serving: the setting stays with the port that serves. */
      if (clarify_mcp_server_get_port (server) != 0)
        g_settings_set (self->settings, "mcp-port", "q", (guint16) clarify_mcp_server_get_port (server));
    }
}

static void
apply_dialog_settings (ClarifyApplication *self)
{
  if (self->dialogs == NULL)
    return;

  clarify_dialog_queue_set_notifications (self->dialogs, g_settings_get_boolean (self->settings, "notifications"));
  clarify_dialog_queue_set_sound (self->dialogs, g_settings_get_boolean (self->settings, "notification-sound"));
  clarify_dialog_queue_set_show_countdown (self->dialogs, g_settings_get_boolean (self->settings, "show-countdown"));
}

static void
settings_changed_cb (GSettings          *settings,
                     const char         *key,
                     ClarifyApplication *self)
{
  if (g_str_equal (key, "start-at-login"))
    {
      /* A choice now made: the one-time question is answered. */
      g_settings_set_boolean (settings, "start-at-login-asked", TRUE);
      clarify_autostart_apply (self->autostart, g_settings_get_boolean (settings, key),
                               self->window != NULL ? GTK_WINDOW (self->window) : NULL);
    }
  else if (g_str_equal (key, "mcp-enabled"))
    {
      apply_mcp_enabled (self);
      save_mcp_ini (self);
    }
  else if (g_str_equal (key, "mcp-port"))
    {
      apply_mcp_port (self);
      save_mcp_ini (self);
    }
  else
    {
      apply_dialog_settings (self);
    }
}

/* Asked once, the first time Clarify stays in the background, never
 * answered for the user: a notification with both answers. */
static void
ask_start_at_login (ClarifyApplication *self)
{
  g_autoptr(GNotification) notification = NULL;

  /* Without a session bus there is no notification server to ask through. */
  if (g_settings_get_boolean (self->settings, "start-at-login-asked") ||
      g_application_get_dbus_connection (G_APPLICATION (self)) == NULL)
    return;

  g_settings_set_boolean (self->settings, "start-at-login-asked", TRUE);
  notification = g_notification_new (_("Start Clarify when you log in?"));
  g_notification_set_body (notification,
                           _("Agents can then ask you at any time. You can change this in Preferences."));
  g_notification_add_button_with_target (notification, _("Start at Login"),
                                         "app.start-at-login", "b", TRUE);
  g_notification_add_button_with_target (notification, _("Not Now"),
                                         "app.start-at-login", "b", FALSE);
  g_notification_set_default_action (notification, "app.preferences");
  g_application_send_notification (G_APPLICATION (self), "start-at-login", notification);
}

void
clarify_application_apply_start_at_login (ClarifyApplication *self)
{
  /* In a Flatpak the Background portal lets it keep running, with or
   * without autostart; outside one, nothing is written before the user
   * chose. */
  clarify_autostart_apply (self->autostart, g_settings_get_boolean (self->settings, "start-at-login"),
                           self->window != NULL ? GTK_WINDOW (self->window) : NULL);
  ask_start_at_login (self);
}

void
clarify_application_init_settings (ClarifyApplication *self)
{
  self->settings = new_settings ();
  import_mcp_ini (self->settings);
  import_autostart_choice (self->settings);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb), self, 0);
}

void
clarify_application_apply_settings (ClarifyApplication *self)
{
  apply_dialog_settings (self);
}

GSettings *
clarify_application_get_settings (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return self->settings;
}
