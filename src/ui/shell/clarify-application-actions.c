/* clarify-application-actions.c: the app.* actions of ClarifyApplication
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-application-private.h"


static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  static const char *developers[] = { "The Clarify Authors", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", clarify_application_ensure_window (self),
                        "application-icon", APP_ID,
                        "application-name", _("Clarify"),
                        "developer-name", _("The Clarify Authors"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Answer your AI agents’ questions in native dialogs"),
                        "website", "https://github.com/clarify/clarify",
                        "issue-url", "https://github.com/clarify/clarify/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© 2026 The Clarify Authors",
                        "developers", developers,
                        /* Translators: your names, one per line */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
demo_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!clarify_application_start_demo (self, &error))
    clarify_application_tell_user (self, "demo-failed", error->message);
}

static void
show_window_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  g_application_activate (G_APPLICATION (user_data));
}

static void
open_request_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  ClarifyRequest *request = clarify_inbox_lookup_key (self->inbox, g_variant_get_string (parameter, NULL));

  /* A notification may outlive its request. */
  if (request == NULL || clarify_dialog_queue_present (self->dialogs, request) == NULL)
    g_application_activate (G_APPLICATION (self));
}

static void
start_at_login_change_state (GSimpleAction *action,
                             GVariant      *state,
                             gpointer       user_data)
{
  ClarifyApplication *self = user_data;

  clarify_autostart_set_enabled (self->autostart, g_variant_get_boolean (state),
                                 self->window != NULL ? GTK_WINDOW (self->window) : NULL);
  g_simple_action_set_state (action, state);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
  { "demo", demo_action },
  { "show-window", show_window_action },
  { "open-request", open_request_action, "s" },
  { "start-at-login", NULL, NULL, "false", start_at_login_change_state },
};

void
clarify_application_add_actions (ClarifyApplication *self)
{
  static const char *quit_accels[] = { "<Control>q", NULL };

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  clarify_application_update_demo_action (self);
  g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "start-at-login")),
                             g_variant_new_boolean (clarify_autostart_get_enabled (self->autostart)));
}

void
clarify_application_update_demo_action (ClarifyApplication *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "demo");

  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->demo_agent == NULL);
}
