/* clarify-application.c: the lifetime of ClarifyApplication
 *
 * One process serves every connection: it runs a backend per connection in
 * the inbox, which owns every request; the dialog queue, the window and the
 * tray observe the inbox. Its command line and actions have files of their own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>


#include "clarify-application-private.h"
#include "clarify-backend-registry.h"
#include "clarify-claude-code-backend.h"
#include "clarify-claude-code-codec.h"
#include "clarify-dbus-backend.h"
#include "clarify-end-reason.h"
#include "clarify-error.h"
#include "clarify-mcp-server.h"
#include "clarify-renderer.h"
#include "clarify-request-source.h"

#define DEMO_CONNECTION_NAME "Demo"
#define DEMO_CONNECTION_KIND "clarify"

G_DEFINE_FINAL_TYPE (ClarifyApplication, clarify_application, ADW_TYPE_APPLICATION)

/* Tells the user something that is not tied to a dialog: a toast when the
 * main window is on screen, a notification otherwise. */
void
clarify_application_tell_user (ClarifyApplication *self,
                               const char         *notification_id,
                               const char         *text)
{
  if (self->window != NULL && gtk_widget_get_visible (GTK_WIDGET (self->window)))
    {
      clarify_window_show_toast (self->window, text);
    }
  else
    {
      g_autoptr(GNotification) notification = g_notification_new (text);

      g_notification_set_default_action (notification, "app.show-window");
      g_application_send_notification (G_APPLICATION (self), notification_id, notification);
    }
}

/* Each connection needs the process: hold it while any backend runs. */
static void
update_hold (ClarifyApplication *self)
{
  gboolean want = g_list_model_get_n_items (clarify_inbox_get_backends (self->inbox)) > 0;

  if (want == self->held)
    return;

  self->held = want;
  if (want)
    {
      g_application_hold (G_APPLICATION (self));
      /* In a Flatpak, the Background portal lets it keep running, and
       * starts it at login only when the user chose that. */
      if (!self->background_requested)
        {
          self->background_requested = TRUE;
          clarify_application_apply_start_at_login (self);
        }
    }
  else
    {
      g_application_release (G_APPLICATION (self));
    }
}

/* What the agents make of the answers */

static void
backend_confirmed_cb (ClarifyBackend     *backend,
                      const char         *request_id,
                      const char         *summary,
                      ClarifyApplication *self)
{
  g_autofree char *text = NULL;

  if (summary == NULL || *summary == '\0')
    return;

  g_message ("%s received: %s", clarify_connection_get_name (clarify_backend_get_connection (backend)), summary);
  /* Translators: "<connection> received: <what the agent says it understood>" */
  text = g_strdup_printf (_("%s received: %s"), clarify_connection_get_name (clarify_backend_get_connection (backend)), summary);
  clarify_application_tell_user (self, "confirmed", text);
}

static void
outbox_delivered_cb (ClarifyOutbox      *outbox,
                     ClarifyRequest     *request,
                     ClarifyResponse    *response,
                     ClarifyApplication *self)
{
  g_debug ("Delivered the answer to %s of %s",
           clarify_request_get_id (request),
           clarify_request_get_connection_name (request));
}

static void
outbox_failed_cb (ClarifyOutbox      *outbox,
                  ClarifyRequest     *request,
                  ClarifyResponse    *response,
                  const GError       *error,
                  ClarifyApplication *self)
{
  g_autofree char *key = clarify_inbox_dup_key (request);
  g_autofree char *notification_id = g_strconcat ("failed\x1f", key, NULL);
  g_autofree char *text = NULL;

  g_message ("Could not deliver the answer to %s of %s: %s",
             clarify_request_get_id (request),
             clarify_request_get_connection_name (request),
             error->message);

  /* An answer kept across a restart: replay_ended_cb() says what became of it. */
  if (clarify_request_get_end_reason (request) == CLARIFY_END_REASON_NOT_NEEDED)
    return;

  /* Named: a toast or a notification stands apart from the question. */
  text = clarify_end_reason_describe_undelivered (clarify_request_get_summary (request),
                                                  clarify_request_source_get_agent_name (request), error);
  clarify_application_tell_user (self, notification_id, text);
}

static void
outbox_not_saved_cb (ClarifyOutbox      *outbox,
                     ClarifyRequest     *request,
                     const GError       *error,
                     ClarifyApplication *self)
{
  g_autofree char *text = NULL;

  /* The outbox logged it; the answer goes out from memory all the same. */
  /* Translators: %s is an error message, often in English */
  text = g_strdup_printf (_("Your answer could not be saved on disk and is sent from memory only: %s"),
                          error->message);
  clarify_application_tell_user (self, "outbox-not-saved", text);
}

/* An answer kept since before Clarify restarted has reached its agent, or
 * the agent no longer needed it. */
static void
replay_ended_cb (ClarifyInbox       *inbox,
                 ClarifyRequest     *request,
                 gboolean            delivered,
                 ClarifyApplication *self)
{
  g_autofree char *key = clarify_inbox_dup_key (request);
  g_autofree char *notification_id = g_strconcat ("replayed\x1f", key, NULL);
  const char *connection = clarify_request_get_connection_name (request);
  const char *summary = clarify_request_get_summary (request);
  g_autofree char *text = NULL;

  g_message ("The answer to %s of %s, kept across a restart, %s",
             clarify_request_get_id (request), connection,
             delivered ? "was delivered late" : "was no longer needed");

  if (delivered)
    /* Translators: the first %s is a question, the second a connection name */
    text = g_strdup_printf (_("Your answer to “%s” reached %s late, after a restart"), summary, connection);
  else
    /* Translators: the first %s is a question, the second a connection name */
    text = g_strdup_printf (_("Your answer to “%s” was no longer needed by %s"), summary, connection);

  clarify_application_tell_user (self, notification_id, text);
}

/* The inbox turned a request away as one too many (its agent heard why):
 * said once per episode, not once per request, and short enough for a
 * toast's one line. */
static void
requests_refused_cb (ClarifyInbox       *inbox,
                     ClarifyBackend     *backend,
                     guint               limit,
                     ClarifyApplication *self)
{
  g_autofree char *text = NULL;

  if (backend != NULL)
    {
      ClarifyConnection *connection = clarify_backend_get_connection (backend);

      g_message ("Connection “%s” holds %u questions; refusing more until some are answered",
                 clarify_connection_get_name (connection), limit);
      /* Translators: %s is a connection name, %u how many questions Clarify keeps from one */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%s has %u question waiting; new ones are turned away",
                                           "%s has %u questions waiting; new ones are turned away",
                                           limit),
                              clarify_connection_get_name (connection), limit);
    }
  else
    {
      g_message ("The inbox holds %u questions; refusing more until some are answered", limit);
      /* Translators: %u is how many questions Clarify keeps in all */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u question waits; new ones are turned away",
                                           "%u questions wait; new ones are turned away",
                                           limit),
                              limit);
    }

  clarify_application_tell_user (self, "requests-refused", text);
}

/* Claude has finished in a terminal the person may not be looking at. */
static void
claude_idle_prompt_cb (ClarifyBackend     *backend,
                       const char         *project,
                       const char         *session_id,
                       const char         *message,
                       ClarifyApplication *self)
{
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *title = NULL;
  /* One per session: a later one replaces it. */
  g_autofree char *notification_id = g_strconcat ("claude-idle\x1f", session_id != NULL ? session_id : "", NULL);

  if (!g_settings_get_boolean (self->settings, "notifications"))
    return;

  /* The project goes in the title, as for questions: some servers read a
   * notification's body as markup, and a folder name is the agent's text. */
  if (project != NULL && *project != '\0')
    /* Translators: %s is the folder a Claude Code session works in */
    title = g_strdup_printf (_("Claude is waiting for your input in “%s”"), project);
  else
    title = g_strdup (_("Claude is waiting for your input"));
  notification = g_notification_new (title);

  g_application_send_notification (G_APPLICATION (self), notification_id, notification);
}

/* Backends */

/* The D-Bus API says where the MCP endpoint listens, for --mcp-info. */
static void
update_mcp_port (ClarifyApplication *self)
{
  ClarifyBackend *backend = clarify_inbox_lookup_backend (self->inbox, CLARIFY_MCP_CONNECTION_NAME);

  if (self->dbus_backend != NULL)
    clarify_dbus_backend_set_mcp_port (CLARIFY_DBUS_BACKEND (self->dbus_backend),
                                       CLARIFY_IS_MCP_SERVER (backend)
                                       ? clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (backend)) : 0);
}

static void
remove_backend (ClarifyApplication *self,
                ClarifyBackend     *backend)
{
  g_autoptr(ClarifyBackend) owned = g_object_ref (backend);

  g_signal_handlers_disconnect_by_data (backend, self);
  g_hash_table_remove (self->temporary, clarify_connection_get_name (clarify_backend_get_connection (backend)));
  clarify_inbox_remove_backend (self->inbox, backend);
  if (CLARIFY_IS_MCP_SERVER (backend))
    update_mcp_port (self);
}

void
clarify_application_attach_backend (ClarifyApplication *self,
                                    ClarifyBackend     *backend,
                                    gboolean            temporary)
{
  const char *name = clarify_connection_get_name (clarify_backend_get_connection (backend));
  ClarifyBackend *existing = clarify_inbox_lookup_backend (self->inbox, name);

  if (existing != NULL)
    remove_backend (self, existing);

  /* Backends whose agents confirm what they got (the "clarify" kind). */
  if (g_signal_lookup ("confirmed", G_OBJECT_TYPE (backend)) != 0)
    g_signal_connect_object (backend, "confirmed",
                             G_CALLBACK (backend_confirmed_cb), self, 0);

  if (temporary)
    g_hash_table_add (self->temporary, g_strdup (name));

  clarify_inbox_add_backend (self->inbox, backend);
  update_hold (self);
  clarify_backend_start (backend);

  if (CLARIFY_IS_MCP_SERVER (backend))
    {
      g_signal_connect_object (backend, "notify::port", G_CALLBACK (update_mcp_port), self, G_CONNECT_SWAPPED);
      update_mcp_port (self);
    }
}

ClarifyAgentDiscovery *
clarify_application_get_discovery (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return self->discovery;
}

gboolean
clarify_application_disconnect (ClarifyApplication  *self,
                                const char          *name,
                                GError             **error)
{
  gboolean known = FALSE;
  ClarifyBackend *backend;

  /* Clarify's own backend stays; a connection stored under its name (by
   * hand, or before names were checked) can still go. */
  if (clarify_application_refuse_builtin_name (name, error))
    {
      if (!clarify_connection_store_remove (self->store, name))
        return FALSE;
      g_clear_error (error);
      return clarify_connection_store_save (self->store, error);
    }

  if (clarify_connection_store_remove (self->store, name))
    {
      known = TRUE;
      if (!clarify_connection_store_save (self->store, error))
        return FALSE;
    }

  clarify_application_cancel_start (self, name);
  backend = clarify_inbox_lookup_backend (self->inbox, name);
  if (backend != NULL)
    {
      known = TRUE;
      remove_backend (self, backend);
    }

  /* Answers it still owed have nowhere to go now. */
  if (known && clarify_outbox_get_store (clarify_inbox_get_outbox (self->inbox)) != NULL)
    clarify_outbox_store_forget_connection (clarify_outbox_get_store (clarify_inbox_get_outbox (self->inbox)), name);

  if (g_strcmp0 (name, DEMO_CONNECTION_NAME) == 0 && self->demo_agent != NULL)
    {
      clarify_demo_agent_stop (self->demo_agent);
      g_clear_object (&self->demo_agent);
      clarify_application_update_demo_action (self);
    }

  if (!known)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("There is no connection named “%s”."), name);
      return FALSE;
    }

  update_hold (self);
  return TRUE;
}

/* Windows */

static void
main_window_visible_cb (ClarifyWindow      *window,
                        GParamSpec         *pspec,
                        ClarifyApplication *self)
{
  /* With nothing to listen to, a hidden window would only keep an idle
   * process alive. */
  if (!gtk_widget_get_visible (GTK_WIDGET (window)) &&
      g_list_model_get_n_items (clarify_inbox_get_backends (self->inbox)) == 0 &&
      g_list_model_get_n_items (G_LIST_MODEL (self->inbox)) == 0)
    gtk_window_destroy (GTK_WINDOW (window));
}

ClarifyWindow *
clarify_application_ensure_window (ClarifyApplication *self)
{
  if (self->window == NULL)
    {
      g_set_weak_pointer (&self->window, clarify_window_new (GTK_APPLICATION (self), self->inbox));
      clarify_window_set_history (self->window, self->history);
      clarify_window_set_connection_store (self->window, self->store);
      g_signal_connect_object (self->window, "notify::visible",
                               G_CALLBACK (main_window_visible_cb), self, 0);
    }

  return self->window;
}

/* GApplication */

static int
clarify_application_command_line (GApplication            *application,
                                  GApplicationCommandLine *command_line)
{
  return clarify_application_run_command_line (CLARIFY_APPLICATION (application), command_line);
}

static int
clarify_application_handle_local_options (GApplication *application,
                                          GVariantDict *options)
{
  g_autoptr(GError) error = NULL;
  g_autofree const char **words = NULL;

  /* "clarify bogus" would open the window without a word about the typo. */
  if (g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&s", &words) && words[0] != NULL)
    {
      g_autofree char *shown = g_utf8_make_valid (words[0], -1);

      g_printerr ("clarify: ");
      /* Translators: %s is what the user typed after "clarify" */
      g_printerr (_("Unknown command “%s” (see clarify --help)"), shown);
      g_printerr ("\n");
      return CLARIFY_EXIT_USAGE;
    }

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("clarify %s\n", PACKAGE_VERSION);
      return 0;
    }

  /* A later `clarify` hands its command line over itself and prints the
   * answer (clarify-command-line.c says why). */
  if (!g_application_register (application, NULL, &error))
    {
      g_printerr ("clarify: %s\n", error->message);
      return 1;
    }
  if (g_application_get_is_remote (application))
    return clarify_application_run_remote (CLARIFY_APPLICATION (application), options);

  return -1;
}

static gboolean
clarify_application_dbus_register (GApplication     *application,
                                   GDBusConnection  *connection,
                                   const char       *object_path,
                                   GError          **error)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);

  if (!G_APPLICATION_CLASS (clarify_application_parent_class)->dbus_register (application, connection,
                                                                              object_path, error))
    return FALSE;
  if (!clarify_application_export_command_line (self, connection, object_path, error))
    return FALSE;

  /* In the inbox like any backend, but not a connection to list or hold for. */
  self->dbus_backend = clarify_dbus_backend_new (connection, object_path);
  clarify_backend_set_inbox (self->dbus_backend, self->inbox);
  g_signal_connect_object (self->dbus_backend, "password-changed",
                           G_CALLBACK (clarify_application_password_changed_cb), self, 0);

  /* Claude Code's hooks come through the same API (its Hook method). */
  self->claude_code_backend = clarify_claude_code_backend_new ();
  clarify_backend_set_inbox (self->claude_code_backend, self->inbox);
  g_signal_connect_object (self->claude_code_backend, "idle-prompt",
                           G_CALLBACK (claude_idle_prompt_cb), self, 0);
  clarify_backend_start (self->claude_code_backend);
  clarify_dbus_backend_set_hook_backend (CLARIFY_DBUS_BACKEND (self->dbus_backend),
                                         CLARIFY_CLAUDE_CODE_BACKEND (self->claude_code_backend));

  clarify_backend_start (self->dbus_backend);

  return TRUE;
}

static void
clarify_application_dbus_unregister (GApplication    *application,
                                     GDBusConnection *connection,
                                     const char      *object_path)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);

  clarify_application_unexport_command_line (self, connection);
  if (self->dbus_backend != NULL)
    {
      clarify_backend_stop (self->dbus_backend);
      g_clear_object (&self->dbus_backend);
    }
  if (self->claude_code_backend != NULL)
    {
      clarify_backend_stop (self->claude_code_backend);
      g_clear_object (&self->claude_code_backend);
    }

  G_APPLICATION_CLASS (clarify_application_parent_class)->dbus_unregister (application, connection, object_path);
}

static void
clarify_application_startup (GApplication *application)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);
  g_autoptr(GError) error = NULL;

  G_APPLICATION_CLASS (clarify_application_parent_class)->startup (application);
  /* GTK has read its variables: what Clarify launches gets the user's. */
  clarify_renderer_restore_environment ();

  clarify_application_init_settings (self);
  clarify_application_add_actions (self);
  self->dialogs = clarify_dialog_queue_new (GTK_APPLICATION (self), self->inbox);
  clarify_application_apply_settings (self);

  /* The tray icon, on desktops that show one. */
  if (g_application_get_dbus_connection (application) != NULL)
    self->tray = clarify_tray_new (g_application_get_dbus_connection (application),
                                   G_ACTION_GROUP (self), clarify_inbox_get_pending (self->inbox));

  if (!clarify_connection_store_load (self->store, &error))
    g_warning ("Cannot read the stored connections: %s", error->message);

  /* D-Bus activation (--gapplication-service) brings no command line. */
  if (g_application_get_flags (application) & G_APPLICATION_IS_SERVICE)
    clarify_application_ensure_backends_started (self);
}

static void
clarify_application_activate (GApplication *application)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);

  clarify_application_ensure_backends_started (self);
  gtk_window_present (GTK_WINDOW (clarify_application_ensure_window (self)));
}

static void
clarify_application_shutdown (GApplication *application)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (application);
  GListModel *backends = clarify_inbox_get_backends (self->inbox);

  g_clear_object (&self->tray);
  {
    GHashTableIter iter;
    gpointer cancellable;

    g_hash_table_iter_init (&iter, self->starting);
    while (g_hash_table_iter_next (&iter, NULL, &cancellable))
      g_cancellable_cancel (cancellable);
    g_hash_table_remove_all (self->starting);
  }
  /* Answers still waiting for an agent stay on disk for the next start, and
   * questions still open were not withdrawn: the history records neither. */
  clarify_outbox_set_store (clarify_inbox_get_outbox (self->inbox), NULL);
  clarify_history_unwatch (self->history);
  while (g_list_model_get_n_items (backends) > 0)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (backends, 0);

      remove_backend (self, backend);
    }
  /* The main loop ends: the last questions to end are written now. */
  clarify_history_flush (self->history);
  update_hold (self);

  if (self->demo_agent != NULL)
    clarify_demo_agent_stop (self->demo_agent);

  G_APPLICATION_CLASS (clarify_application_parent_class)->shutdown (application);
}

static void
clarify_application_dispose (GObject *object)
{
  ClarifyApplication *self = CLARIFY_APPLICATION (object);

  g_clear_weak_pointer (&self->window);
  g_clear_weak_pointer (&self->quit_dialog);
  g_clear_object (&self->dialogs);
  g_clear_object (&self->tray);
  g_clear_object (&self->demo_agent);
  g_clear_object (&self->dbus_backend);
  g_clear_object (&self->claude_code_backend);
  g_clear_object (&self->history);
  g_clear_object (&self->inbox);
  g_clear_pointer (&self->temporary, g_hash_table_unref);
  g_clear_pointer (&self->starting, g_hash_table_unref);
  g_clear_object (&self->store);
  g_clear_object (&self->autostart);
  g_clear_object (&self->discovery);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (clarify_application_parent_class)->dispose (object);
}

static void
clarify_application_class_init (ClarifyApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = clarify_application_dispose;

  app_class->startup = clarify_application_startup;
  app_class->activate = clarify_application_activate;
  app_class->command_line = clarify_application_command_line;
  app_class->handle_local_options = clarify_application_handle_local_options;
  app_class->shutdown = clarify_application_shutdown;
  app_class->dbus_register = clarify_application_dbus_register;
  app_class->dbus_unregister = clarify_application_dbus_unregister;
}

static void
clarify_application_init (ClarifyApplication *self)
{
  ClarifyOutbox *outbox;
  const char *outbox_dir = g_getenv ("CLARIFY_OUTBOX_DIR");

  self->store = clarify_connection_store_new (NULL);
  self->temporary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->starting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->inbox = clarify_inbox_new ();
  /* The tests point CLARIFY_HISTORY_FILE elsewhere, or keep it in memory
   * with an empty value. */
  self->history = clarify_history_new (g_getenv ("CLARIFY_HISTORY_FILE"));
  clarify_history_watch (self->history, self->inbox);
  self->autostart = clarify_autostart_new ();
  self->discovery = clarify_agent_discovery_new ();

  outbox = clarify_inbox_get_outbox (self->inbox);
  g_signal_connect_object (outbox, "delivered", G_CALLBACK (outbox_delivered_cb), self, 0);
  g_signal_connect_object (outbox, "failed", G_CALLBACK (outbox_failed_cb), self, 0);
  g_signal_connect_object (outbox, "not-saved", G_CALLBACK (outbox_not_saved_cb), self, 0);
  g_signal_connect_object (self->inbox, "replay-ended", G_CALLBACK (replay_ended_cb), self, 0);
  g_signal_connect_object (self->inbox, "requests-refused", G_CALLBACK (requests_refused_cb), self, 0);

  /* Answers are kept on disk until their agent has them; the tests point
   * CLARIFY_OUTBOX_DIR elsewhere, or turn it off with an empty value. */
  if (outbox_dir == NULL || *outbox_dir != '\0')
    {
      g_autoptr(ClarifyOutboxStore) outbox_store = clarify_outbox_store_new (outbox_dir);

      clarify_outbox_set_store (outbox, outbox_store);
    }

  clarify_application_add_options (self);
}

/* Public API */

ClarifyApplication *
clarify_application_new (void)
{
  return g_object_new (CLARIFY_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", APP_PATH,
                       NULL);
}

ClarifyInbox *
clarify_application_get_inbox (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return self->inbox;
}

GListModel *
clarify_application_get_backends (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return clarify_inbox_get_backends (self->inbox);
}

ClarifyBackend *
clarify_application_lookup_backend (ClarifyApplication *self,
                                    const char         *name)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return clarify_inbox_lookup_backend (self->inbox, name);
}

void
clarify_application_add_backend (ClarifyApplication *self,
                                 ClarifyBackend     *backend)
{
  g_return_if_fail (CLARIFY_IS_APPLICATION (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));

  clarify_application_attach_backend (self, backend, TRUE);
}

void
clarify_application_remove_backend (ClarifyApplication *self,
                                    ClarifyBackend     *backend)
{
  g_return_if_fail (CLARIFY_IS_APPLICATION (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));

  if (clarify_inbox_lookup_backend (self->inbox,
                                    clarify_connection_get_name (clarify_backend_get_connection (backend))) == backend)
    {
      remove_backend (self, backend);
      update_hold (self);
    }
}

ClarifyRequestDialog *
clarify_application_present_request (ClarifyApplication *self,
                                     ClarifyRequest     *request)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  return clarify_dialog_queue_present (self->dialogs, request);
}

gboolean
clarify_application_refuse_builtin_name (const char  *name,
                                         GError     **error)
{
  /* Each is a backend of its own in the inbox, which names are the keys of:
   * a connection so named would replace it (--connect MCP=… ended the
   * MCP endpoint). */
  if (g_strcmp0 (name, CLARIFY_MCP_CONNECTION_NAME) != 0 &&
      g_strcmp0 (name, CLARIFY_DBUS_BACKEND_NAME) != 0 &&
      g_strcmp0 (name, CLARIFY_CLAUDE_CODE_NAME) != 0)
    return FALSE;

  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("“%s” is the name of Clarify’s own questions; please choose another name."), name);
  return TRUE;
}

ClarifyConnection *
clarify_application_parse_connect_spec (const char  *spec,
                                        GError     **error)
{
  g_autoptr(ClarifyConnection) connection = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  connection = clarify_connection_new_from_spec (spec, error);
  if (connection == NULL)
    return NULL;

  if (clarify_application_refuse_builtin_name (clarify_connection_get_name (connection), error))
    return NULL;

  if (clarify_backend_registry_lookup (clarify_connection_get_kind (connection)) == NULL)
    {
      g_autofree const char **kinds = clarify_backend_registry_list_kinds ();
      g_autofree char *known = g_strjoinv (", ", (char **) kinds);

      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: the first %s is a connection kind, the second a list of them */
                   _("Unknown connection kind “%s”. Known kinds: %s."),
                   clarify_connection_get_kind (connection), known);
      return NULL;
    }

  return g_steal_pointer (&connection);
}

gboolean
clarify_application_start_demo (ClarifyApplication  *self,
                                GError             **error)
{
  g_autoptr(ClarifyDemoAgent) agent = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), FALSE);

  if (self->demo_agent != NULL)
    return TRUE;

  agent = clarify_demo_agent_new ();
  if (!clarify_demo_agent_start (agent, error))
    return FALSE;

  connection = clarify_connection_new (DEMO_CONNECTION_NAME, DEMO_CONNECTION_KIND,
                                       clarify_demo_agent_get_events_url (agent));
  /* The demo has no secret to ask the keyring for. */
  backend = clarify_backend_registry_create_full (connection, "", error);
  if (backend == NULL)
    {
      clarify_demo_agent_stop (agent);
      return FALSE;
    }

  self->demo_agent = g_steal_pointer (&agent);
  clarify_application_update_demo_action (self);
  clarify_application_attach_backend (self, backend, TRUE);

  return TRUE;
}

ClarifyDemoAgent *
clarify_application_get_demo_agent (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return self->demo_agent;
}

guint
clarify_application_get_n_queued (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), 0);

  return self->dialogs != NULL ? clarify_dialog_queue_get_n_queued (self->dialogs) : 0;
}

ClarifyHistory *
clarify_application_get_history (ClarifyApplication *self)
{
  g_return_val_if_fail (CLARIFY_IS_APPLICATION (self), NULL);

  return self->history;
}
