/* clarify-application-actions.c: the app.* actions of ClarifyApplication
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-application-private.h"
#include "clarify-confirm-dialog.h"
#include "clarify-connection-editor.h"
#include "clarify-preferences-window.h"
#include "clarify-request-notification.h"


static void
quit_response_cb (AdwMessageDialog   *dialog,
                  const char         *response,
                  ClarifyApplication *self)
{
  if (g_strcmp0 (response, "quit") == 0)
    g_application_quit (G_APPLICATION (self));
}

/* Questions still open would go unanswered: Ctrl+Q is easily pressed in
 * the wrong window, so it asks first. */
static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  guint n_pending = clarify_inbox_get_n_pending (self->inbox);
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  if (n_pending == 0)
    {
      g_application_quit (G_APPLICATION (self));
      return;
    }
  if (self->quit_dialog != NULL)
    {
      gtk_window_present (self->quit_dialog);
      return;
    }

  body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u question is still waiting for your answer. "
                                       "The agent that asked it gets no answer from Clarify while it is closed.",
                                       "%u questions are still waiting for your answer. "
                                       "The agents that asked them get no answer from Clarify while it is closed.",
                                       n_pending),
                          n_pending);
  dialog = clarify_confirm_dialog_new (gtk_application_get_active_window (GTK_APPLICATION (self)),
                                       _("Quit Clarify?"), body, "quit", _("_Quit"));
  g_signal_connect_object (dialog, "response", G_CALLBACK (quit_response_cb), self, 0);
  g_set_weak_pointer (&self->quit_dialog, GTK_WINDOW (dialog));
  gtk_window_present (GTK_WINDOW (dialog));
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
look_for_agents_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  ClarifyApplication *self = user_data;

  clarify_agent_discovery_look (self->discovery);
}

static void
add_connection_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  ClarifyWindow *window = clarify_application_ensure_window (self);

  gtk_window_present (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (clarify_connection_editor_new (self, GTK_WINDOW (window), NULL)));
}

static void
edit_connection_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  ClarifyConnection *connection = clarify_connection_store_lookup (self->store, g_variant_get_string (parameter, NULL));
  ClarifyWindow *window;

  if (connection == NULL)
    return;

  window = clarify_application_ensure_window (self);
  gtk_window_present (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (clarify_connection_editor_new (self, GTK_WINDOW (window), connection)));
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

/* A notification's button: (inbox key, answer value). */
static void
answer_request_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  g_autoptr(ClarifyResponse) response = NULL;
  const char *run_token, *key, *value;
  ClarifyRequest *request;

  g_variant_get (parameter, "(&s&s&s)", &run_token, &key, &value);
  request = clarify_inbox_lookup_key (self->inbox, key);

  /* A notification may outlive its question, or the Clarify that sent it
   * (whose keys come again): nothing is sent then. */
  if (g_strcmp0 (run_token, clarify_request_notification_get_run_token ()) != 0 ||
      request == NULL || clarify_request_get_state (request) != CLARIFY_REQUEST_PENDING)
    {
      clarify_application_tell_user (self, "answer-too-late",
                                     _("That question no longer waits for an answer; nothing was sent."));
      return;
    }

  /* Not one of the buttons' answers: the dialog asks properly. */
  response = clarify_request_notification_answer (request, value);
  if (response == NULL)
    {
      clarify_dialog_queue_present (self->dialogs, request);
      return;
    }

  clarify_dialog_queue_answer (self->dialogs, request, response);
}

/* The start-at-login preference, for the one-time question's buttons. */
static void
start_at_login_change_state (GSimpleAction *action,
                             GVariant      *state,
                             gpointer       user_data)
{
  ClarifyApplication *self = user_data;

  g_settings_set_boolean (self->settings, "start-at-login", g_variant_get_boolean (state));
}

static void
start_at_login_activate (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  start_at_login_change_state (action, parameter, user_data);
}

static void
start_at_login_changed_cb (GSettings     *settings,
                           const char    *key,
                           GSimpleAction *action)
{
  g_simple_action_set_state (action, g_variant_new_boolean (g_settings_get_boolean (settings, key)));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  ClarifyApplication *self = user_data;
  GtkWindow *parent = GTK_WINDOW (clarify_application_ensure_window (self));
  GtkWindow *preferences = NULL;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (CLARIFY_IS_PREFERENCES_WINDOW (l->data))
        preferences = l->data;
    }
  if (preferences == NULL)
    preferences = GTK_WINDOW (clarify_preferences_window_new (self));
  gtk_window_set_transient_for (preferences, gtk_widget_get_visible (GTK_WIDGET (parent)) ? parent : NULL);
  gtk_window_present (preferences);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
  { "demo", demo_action },
  { "look-for-agents", look_for_agents_action },
  { "show-window", show_window_action },
  { "add-connection", add_connection_action },
  { "edit-connection", edit_connection_action, "s" },
  { "open-request", open_request_action, "s" },
  { CLARIFY_ANSWER_REQUEST_ACTION, answer_request_action, "(sss)" },
  { "start-at-login", start_at_login_activate, "b", "false", start_at_login_change_state },
  { "preferences", preferences_action },
};

void
clarify_application_add_actions (ClarifyApplication *self)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  GAction *start_at_login;

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences", preferences_accels);
  clarify_application_update_demo_action (self);
  start_at_login = g_action_map_lookup_action (G_ACTION_MAP (self), "start-at-login");
  start_at_login_changed_cb (self->settings, "start-at-login", G_SIMPLE_ACTION (start_at_login));
  g_signal_connect_object (self->settings, "changed::start-at-login",
                           G_CALLBACK (start_at_login_changed_cb), start_at_login, 0);
}

void
clarify_application_update_demo_action (ClarifyApplication *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "demo");

  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->demo_agent == NULL);
}
