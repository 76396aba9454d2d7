/* clarify-preferences-window.c: the preferences, each applied at once
 *
 * The switches are bound to the application's GSettings, which applies
 * every change (clarify-application-settings.c). The MCP port is the one
 * value that can fail: it is kept only once the endpoint listens there,
 * and otherwise the window says why while the old port serves on.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-backend-state.h"
#include "clarify-mcp-server.h"
#include "clarify-preferences-window.h"

struct _ClarifyPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GtkSwitch           *start_at_login_switch;
  GtkSwitch           *notifications_switch;
  GtkSwitch           *sound_switch;
  GtkSwitch           *countdown_switch;
  GtkSwitch           *mcp_switch;
  AdwEntryRow         *port_row;
  GtkLabel            *port_error_label;

  GSettings           *settings;
  ClarifyBackend      *mcp;  /* weak: the MCP endpoint's backend, while there is one */
};

G_DEFINE_FINAL_TYPE (ClarifyPreferencesWindow, clarify_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static void
show_port (ClarifyPreferencesWindow *self)
{
  g_autofree char *text = NULL;
  guint16 port;

  g_settings_get (self->settings, "mcp-port", "q", &port);
  text = g_strdup_printf ("%u", port);
  gtk_editable_set_text (GTK_EDITABLE (self->port_row), text);
}

static void
show_port_error (ClarifyPreferencesWindow *self,
                 const char               *text)
{
  gtk_label_set_text (self->port_error_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->port_error_label), text != NULL);
  if (text != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->port_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->port_row), "error");
}

static void
port_changed_cb (ClarifyPreferencesWindow *self)
{
  /* The message was about the number being edited now. */
  show_port_error (self, NULL);
}

static void
port_apply_cb (ClarifyPreferencesWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->port_row))));
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  guint64 port = 0;

  if (!g_ascii_string_to_unsigned (text, 10, 1, 65535, &port, NULL))
    {
      show_port_error (self, _("A port is a number from 1 to 65535."));
      return;
    }

  if (!clarify_application_set_mcp_port (CLARIFY_APPLICATION (application), (guint) port, &error))
    {
      guint16 serving;

      g_settings_get (self->settings, "mcp-port", "q", &serving);
      /* Translators: the first %u is the port asked for, %s why it failed
       * (often in English), the second %u the port still in use */
      message = g_strdup_printf (_("Port %u cannot be used: %s. The endpoint stays on port %u."),
                                 (guint) port, error->message, serving);
      show_port_error (self, message);
      return;
    }

  show_port_error (self, NULL);
  if (clarify_application_get_mcp_listening_port (CLARIFY_APPLICATION (application)) == port)
    /* Translators: %u is a port number */
    message = g_strdup_printf (_("The MCP endpoint now uses port %u"), (guint) port);
  else
    /* Translators: %u is a port number; the endpoint is switched off. A
     * toast's one line: keep it short. */
    message = g_strdup_printf (_("Port %u saved (MCP endpoint off)"), (guint) port);
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (message));
}

static void
port_setting_changed_cb (ClarifyPreferencesWindow *self)
{
  show_port (self);
}

/* The port it was given could not be had (another program holds it): said
 * where the port is set, as the main window's MCP row says it. */
static void
mcp_note_cb (ClarifyPreferencesWindow *self,
             GParamSpec               *pspec,
             ClarifyBackend           *mcp)
{
  g_autofree char *text = NULL;

  if (clarify_backend_get_note (mcp) != CLARIFY_BACKEND_NOTE_CANNOT_LISTEN)
    return;

  text = clarify_backend_state_describe (mcp);
  show_port_error (self, text);
}

/* Switched off and on, the endpoint is a new backend. */
static void
backends_changed_cb (ClarifyPreferencesWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  ClarifyBackend *mcp = clarify_application_lookup_backend (CLARIFY_APPLICATION (application),
                                                            CLARIFY_MCP_CONNECTION_NAME);

  if (mcp == self->mcp)
    return;

  if (self->mcp != NULL)
    g_signal_handlers_disconnect_by_func (self->mcp, mcp_note_cb, self);
  g_set_weak_pointer (&self->mcp, mcp);
  if (mcp != NULL)
    {
      g_signal_connect_object (mcp, "notify::note", G_CALLBACK (mcp_note_cb), self, G_CONNECT_SWAPPED);
      mcp_note_cb (self, NULL, mcp);
    }
}

static void
clarify_preferences_window_dispose (GObject *object)
{
  ClarifyPreferencesWindow *self = CLARIFY_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CLARIFY_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);
  if (self->mcp != NULL)
    g_signal_handlers_disconnect_by_func (self->mcp, mcp_note_cb, self);
  g_clear_weak_pointer (&self->mcp);

  G_OBJECT_CLASS (clarify_preferences_window_parent_class)->dispose (object);
}

static void
clarify_preferences_window_class_init (ClarifyPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, APP_PATH "/clarify-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyPreferencesWindow, start_at_login_switch);
  gtk_widget_class_bind_template_child (widget_class, ClarifyPreferencesWindow, notifications_switch);
  gtk_widget_class_bind_template_child (widget_class, ClarifyPreferencesWindow, sound_switch);
  gtk_widget_class_bind_template_child (widget_class, ClarifyPreferencesWindow, countdown_switch);
  gtk_widget_class_bind_template_child (widget_class, ClarifyPreferencesWindow, mcp_switch);
  gtk_widget_class_bind_template_child (widget_class, ClarifyPreferencesWindow, port_row);
  gtk_widget_class_bind_template_child (widget_class, ClarifyPreferencesWindow, port_error_label);
  gtk_widget_class_bind_template_callback (widget_class, port_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_changed_cb);
}

static void
clarify_preferences_window_init (ClarifyPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

ClarifyPreferencesWindow *
clarify_preferences_window_new (ClarifyApplication *application)
{
  ClarifyPreferencesWindow *self;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (application), NULL);

  self = g_object_new (CLARIFY_TYPE_PREFERENCES_WINDOW,
                       "application", application,
                       NULL);
  self->settings = g_object_ref (clarify_application_get_settings (application));

  g_settings_bind (self->settings, "start-at-login", self->start_at_login_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "notifications", self->notifications_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "notification-sound", self->sound_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "show-countdown", self->countdown_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "mcp-enabled", self->mcp_switch, "active", G_SETTINGS_BIND_DEFAULT);

  show_port (self);
  show_port_error (self, NULL);
  g_signal_connect_object (self->settings, "changed::mcp-port",
                           G_CALLBACK (port_setting_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (clarify_inbox_get_backends (clarify_application_get_inbox (application)), "items-changed",
                           G_CALLBACK (backends_changed_cb), self, G_CONNECT_SWAPPED);
  backends_changed_cb (self);

  return self;
}
