/* clarify-connection-editor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-application-private.h"
#include "clarify-backend-registry.h"
#include "clarify-confirm-dialog.h"
#include "clarify-connection-editor.h"
#include "clarify-row-text.h"
#include "clarify-secret.h"

struct _ClarifyConnectionEditor
{
  AdwWindow            parent_instance;

  AdwPreferencesGroup *fields_group;
  AdwComboRow         *kind_row;
  AdwEntryRow         *name_row;
  AdwEntryRow         *url_row;
  AdwPreferencesGroup *secret_group;
  AdwEntryRow         *secret_row;
  AdwActionRow        *test_row;
  GtkWidget           *test_button;
  GtkWidget           *save_button;
  GtkWidget           *existing_group;

  ClarifyApplication  *application;
  ClarifyConnection   *connection;   /* the stored one being edited, or NULL */
  GCancellable        *cancellable;  /* what is under way: cancelled on close */
  ClarifyConnection   *pending;      /* being saved or tested */
  gboolean             busy;
};

/* Room for every row and the buttons below them, in German too. */
#define EDIT_DEFAULT_HEIGHT 580

G_DEFINE_FINAL_TYPE (ClarifyConnectionEditor, clarify_connection_editor, ADW_TYPE_WINDOW)

static char *
secret_key (const char *name)
{
  return g_strconcat ("connection:", name, NULL);
}

static const ClarifyBackendInfo *
selected_info (ClarifyConnectionEditor *self)
{
  guint n = 0;
  const ClarifyBackendInfo *infos = clarify_backend_registry_get_all (&n);
  guint selected = adw_combo_row_get_selected (self->kind_row);

  return selected < n ? &infos[selected] : &infos[0];
}

static void
show_error (ClarifyConnectionEditor *self,
            const char              *text)
{
  clarify_group_set_description (self->fields_group, text);
  if (text != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->fields_group), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->fields_group), "error");
}

static gboolean
is_filled (AdwEntryRow *row)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));

  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return TRUE;

  return FALSE;
}

/* Save wants a name and an address, Test an address. */
static void
update_buttons (ClarifyConnectionEditor *self)
{
  gboolean has_url = is_filled (self->url_row);

  gtk_widget_set_sensitive (self->save_button, !self->busy && has_url && is_filled (self->name_row));
  gtk_widget_set_sensitive (self->test_button, !self->busy && has_url);
  gtk_widget_set_sensitive (self->existing_group, !self->busy);
}

static void
set_busy (ClarifyConnectionEditor *self,
          gboolean                 busy)
{
  self->busy = busy;
  update_buttons (self);
}

/* A verdict describes the fields it was given: once they change it would
 * speak of another address, so the row says again what Test does. */
static void
forget_test_result (ClarifyConnectionEditor *self)
{
  clarify_row_set_subtitle (self->test_row, _("Asks the server whether it is this kind of agent and lets you in."));
  gtk_widget_remove_css_class (GTK_WIDGET (self->test_row), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->test_row), "warning");
}

static void
kind_changed_cb (ClarifyConnectionEditor *self)
{
  clarify_row_set_subtitle (ADW_ACTION_ROW (self->kind_row), _(selected_info (self)->description));
  forget_test_result (self);
}

static void
field_changed_cb (ClarifyConnectionEditor *self)
{
  show_error (self, NULL);
  forget_test_result (self);
  update_buttons (self);
}

/* The connection the fields describe, checked as `--connect` checks it;
 * it keeps the options of the one being edited. */
static ClarifyConnection *
connection_from_fields (ClarifyConnectionEditor  *self,
                        GError                  **error)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_row))));
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  g_autofree char *spec = g_strdup_printf ("%s=%s:%s", name, selected_info (self)->kind, url);
  g_autoptr(ClarifyConnection) connection = clarify_application_parse_connect_spec (spec, error);
  g_auto(GStrv) keys = NULL;

  if (connection == NULL)
    return NULL;

  if (self->connection != NULL)
    {
      keys = clarify_connection_list_options (self->connection);
      for (guint i = 0; keys[i] != NULL; i++)
        clarify_connection_set_option (connection, keys[i], clarify_connection_get_option (self->connection, keys[i]));
    }

  return g_steal_pointer (&connection);
}

static gboolean
is_renamed (ClarifyConnectionEditor *self)
{
  return self->connection != NULL &&
         g_strcmp0 (clarify_connection_get_name (self->connection),
                    clarify_connection_get_name (self->pending)) != 0;
}

/* Save */

static void
finish_save (ClarifyConnectionEditor *self)
{
  g_autoptr(GError) error = NULL;

  /* Renamed: the old name goes as `--disconnect` would remove it. */
  if (is_renamed (self))
    {
      g_autofree char *old_key = secret_key (clarify_connection_get_name (self->connection));

      clarify_application_disconnect (self->application, clarify_connection_get_name (self->connection), NULL);
      clarify_secret_clear_async (old_key, NULL, NULL, NULL);
    }

  if (!clarify_application_keep_connection (self->application, self->pending, &error) ||
      !clarify_application_start_connection (self->application, self->pending, &error))
    {
      set_busy (self, FALSE);
      show_error (self, error->message);
      return;
    }

  gtk_window_close (GTK_WINDOW (self));
}

static void
secret_stored_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(ClarifyConnectionEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!clarify_secret_store_finish (result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      set_busy (self, FALSE);
      /* Translators: %s is an error message, often in English */
      g_autofree char *text = g_strdup_printf (_("The password could not be stored: %s"), error->message);
      show_error (self, text);
      return;
    }

  finish_save (self);
}

static void
store_secret (ClarifyConnectionEditor *self,
              const char              *secret)
{
  const char *name = clarify_connection_get_name (self->pending);
  g_autofree char *key = secret_key (name);
  /* Translators: what a keyring manager lists; %s is a connection name */
  g_autofree char *label = g_strdup_printf (_("Clarify connection “%s”"), name);

  clarify_secret_store_async (key, label, secret, self->cancellable, secret_stored_cb, g_object_ref (self));
}

/* Renamed without a new password: the old one moves with it. */
static void
old_secret_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(ClarifyConnectionEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  char *secret = clarify_secret_lookup_finish (result, &error);

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      clarify_secret_free (secret);
      return;
    }

  if (secret != NULL)
    store_secret (self, secret);
  else
    finish_save (self);
  clarify_secret_free (secret);
}

/* Reads the fields into self->pending, or says what is wrong with them. */
static gboolean
take_fields (ClarifyConnectionEditor *self)
{
  g_autoptr(GError) error = NULL;

  g_clear_object (&self->pending);
  self->pending = connection_from_fields (self, &error);
  if (self->pending == NULL)
    show_error (self, error->message);

  return self->pending != NULL;
}

static void
save_clicked_cb (ClarifyConnectionEditor *self)
{
  const char *secret = gtk_editable_get_text (GTK_EDITABLE (self->secret_row));

  if (!take_fields (self))
    return;

  if ((self->connection == NULL || is_renamed (self)) &&
      clarify_connection_store_lookup (self->application->store, clarify_connection_get_name (self->pending)) != NULL)
    {
      /* Translators: %s is a connection name */
      g_autofree char *text = g_strdup_printf (_("There is already a connection named “%s”."),
                                               clarify_connection_get_name (self->pending));
      show_error (self, text);
      return;
    }

  set_busy (self, TRUE);
  if (*secret != '\0')
    {
      store_secret (self, secret);
    }
  else if (is_renamed (self))
    {
      g_autofree char *old_key = secret_key (clarify_connection_get_name (self->connection));

      clarify_secret_lookup_async (old_key, self->cancellable, old_secret_cb, g_object_ref (self));
    }
  else
    {
      finish_save (self);
    }
}

/* Test */

static char *
describe_verdict (ClarifyProbeVerdict  verdict,
                  const char          *kind,
                  const char          *detail)
{
  switch (verdict)
    {
    case CLARIFY_PROBE_REACHABLE:
      /* Translators: %s is a connection kind, e.g. "OpenCode" */
      return g_strdup_printf (_("Reachable: the server answered as %s does."), kind);

    case CLARIFY_PROBE_AUTH_FAILED:
      return g_strdup (_("Wrong password or token: the server refused it."));

    case CLARIFY_PROBE_WRONG_KIND:
      /* Translators: the first %s is a connection kind, the second what the server sent (“text/html”, “HTTP 404 Not Found”) */
      return g_strdup_printf (_("Something answered, but it is not %s (%s)."), kind, detail ? detail : "");

    case CLARIFY_PROBE_TLS_ERROR:
      /* Translators: %s is the TLS library's message, often in English */
      return g_strdup_printf (_("TLS problem: no secure connection could be made (%s). Is the address http:// rather than https://?"),
                              detail ? detail : "");

    case CLARIFY_PROBE_UNREACHABLE:
    default:
      /* Translators: %s is the network library's message, often in English */
      return g_strdup_printf (_("Cannot reach the server: %s."), detail ? detail : "");
    }
}

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(ClarifyConnectionEditor) self = user_data;
  g_autofree char *detail = NULL;
  ClarifyProbeVerdict verdict = clarify_backend_probe_finish (result, &detail);
  g_autofree char *text = NULL;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  text = describe_verdict (verdict, _(selected_info (self)->display_name), detail);
  /* @detail is the server's or the TLS library's own words. */
  forget_test_result (self);
  clarify_row_set_subtitle (self->test_row, text);
  gtk_widget_add_css_class (GTK_WIDGET (self->test_row), verdict == CLARIFY_PROBE_REACHABLE ? "success" : "warning");
  set_busy (self, FALSE);
}

static void
probe_with_secret (ClarifyConnectionEditor *self,
                   const char              *secret)
{
  clarify_backend_probe_async (selected_info (self)->probe, self->pending, secret,
                               self->cancellable, probe_cb, g_object_ref (self));
}

static void
stored_secret_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(ClarifyConnectionEditor) self = user_data;
  char *secret = clarify_secret_lookup_finish (result, NULL);

  if (!g_cancellable_is_cancelled (self->cancellable))
    probe_with_secret (self, secret);
  clarify_secret_free (secret);
}

static void
test_clicked_cb (ClarifyConnectionEditor *self)
{
  const char *secret = gtk_editable_get_text (GTK_EDITABLE (self->secret_row));

  if (!take_fields (self))
    return;

  set_busy (self, TRUE);
  clarify_row_set_subtitle (self->test_row, _("Asking the server…"));
  /* Nothing typed: the stored password, as the connection would use it. */
  if (*secret == '\0' && self->connection != NULL && !is_renamed (self))
    {
      g_autofree char *key = secret_key (clarify_connection_get_name (self->connection));

      clarify_secret_lookup_async (key, self->cancellable, stored_secret_cb, g_object_ref (self));
      return;
    }

  probe_with_secret (self, secret);
}

/* Reconnect and remove */

static void
reconnect_clicked_cb (ClarifyConnectionEditor *self)
{
  g_autoptr(GError) error = NULL;

  if (!clarify_application_start_connection (self->application, self->connection, &error))
    {
      show_error (self, error->message);
      return;
    }

  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
close_idle_cb (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

static void
remove_response_cb (AdwMessageDialog        *dialog,
                    const char              *response,
                    ClarifyConnectionEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;

  if (g_strcmp0 (response, "remove") != 0)
    return;

  key = secret_key (clarify_connection_get_name (self->connection));

  /* Already removed elsewhere (`clarify --disconnect`) is removed. */
  if (!clarify_application_disconnect (self->application, clarify_connection_get_name (self->connection), &error) &&
      !g_error_matches (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE))
    {
      show_error (self, error->message);
      return;
    }
  clarify_secret_clear_async (key, NULL, NULL, NULL);

  /* Not while the question is still emitting its response: it is transient
   * for this window, which must outlive it. */
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_idle_cb, g_object_ref (self), g_object_unref);
}

/* Its password and the answers not yet delivered go too, and cannot be
 * brought back: asked first. */
static void
remove_clicked_cb (ClarifyConnectionEditor *self)
{
  g_autofree char *heading = g_strdup_printf (_("Remove “%s”?"), clarify_connection_get_name (self->connection));
  AdwMessageDialog *dialog;

  dialog = clarify_confirm_dialog_new (GTK_WINDOW (self), heading,
                                       _("Clarify stops listening to this agent and forgets its address, "
                                         "its password or token, and any answers it has not delivered yet."),
                                       "remove", _("_Remove"));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (remove_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The kinds, each with its line saying what it is */

static void
kind_item_setup_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *description = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (description), 0);
  gtk_label_set_wrap (GTK_LABEL (description), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (description), 40);
  gtk_widget_add_css_class (description, "dim-label");
  gtk_widget_add_css_class (description, "caption");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), description);
  gtk_list_item_set_child (item, box);
}

static void
kind_item_bind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item)
{
  guint n = 0;
  const ClarifyBackendInfo *infos = clarify_backend_registry_get_all (&n);
  guint position = gtk_list_item_get_position (item);
  GtkWidget *title = gtk_widget_get_first_child (gtk_list_item_get_child (item));

  if (position >= n)
    return;
  gtk_label_set_text (GTK_LABEL (title), _(infos[position].display_name));
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_next_sibling (title)), _(infos[position].description));
}

static void
setup_kinds (ClarifyConnectionEditor *self)
{
  guint n = 0;
  const ClarifyBackendInfo *infos = clarify_backend_registry_get_all (&n);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (names, _(infos[i].display_name));

  g_signal_connect (factory, "setup", G_CALLBACK (kind_item_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (kind_item_bind_cb), NULL);
  adw_combo_row_set_list_factory (self->kind_row, factory);
  adw_combo_row_set_model (self->kind_row, G_LIST_MODEL (names));
  kind_changed_cb (self);
}

/* Without a keyring, the password goes where the user chose: say where. */
static void
service_checked_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(ClarifyConnectionEditor) self = user_data;
  gboolean service = clarify_secret_check_service_finish (result);

  if (service || g_cancellable_is_cancelled (self->cancellable))
    return;

  if (clarify_secret_get_fallback () == CLARIFY_SECRET_FALLBACK_MEMORY)
    clarify_group_set_description (self->secret_group,
                                           _("No keyring answers: it is kept only until Clarify quits."));
  else
    clarify_group_set_description (self->secret_group,
                                           _("No keyring answers: it is kept in a file only you can read, never in Clarify’s settings."));
}

static void
fill_fields (ClarifyConnectionEditor *self)
{
  int width, height;
  guint n = 0;
  const ClarifyBackendInfo *infos = clarify_backend_registry_get_all (&n);

  setup_kinds (self);
  clarify_secret_check_service_async (self->cancellable, service_checked_cb, g_object_ref (self));
  update_buttons (self);
  if (self->connection == NULL)
    {
      clarify_group_set_description (self->secret_group,
                                             _("Kept in your keyring, never in Clarify’s settings. Leave it empty if the agent needs none."));
      /* Typing goes where it is wanted first, not to Cancel. */
      gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->name_row));
      return;
    }

  gtk_window_set_title (GTK_WINDOW (self), _("Edit Connection"));
  /* GTK measures the window's height before its wrapped texts take their
   * lines: the Reconnect and Remove buttons ended at its very edge. */
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (self), width, EDIT_DEFAULT_HEIGHT);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (infos[i].kind, clarify_connection_get_kind (self->connection)) == 0)
      adw_combo_row_set_selected (self->kind_row, i);
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), clarify_connection_get_name (self->connection));
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), clarify_connection_get_url (self->connection));
  clarify_group_set_description (self->secret_group,
                                         _("Leave it empty to keep the one in your keyring."));
  gtk_widget_set_visible (self->existing_group, TRUE);
}

/* GObject */

static void
clarify_connection_editor_dispose (GObject *object)
{
  ClarifyConnectionEditor *self = CLARIFY_CONNECTION_EDITOR (object);

  /* Callbacks still on their way see it cancelled. */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->pending);
  g_clear_object (&self->connection);
  g_clear_object (&self->application);

  G_OBJECT_CLASS (clarify_connection_editor_parent_class)->dispose (object);
}

static void
clarify_connection_editor_finalize (GObject *object)
{
  ClarifyConnectionEditor *self = CLARIFY_CONNECTION_EDITOR (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (clarify_connection_editor_parent_class)->finalize (object);
}

static void
clarify_connection_editor_class_init (ClarifyConnectionEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_connection_editor_dispose;
  object_class->finalize = clarify_connection_editor_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, APP_PATH "/clarify-connection-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, fields_group);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, kind_row);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, url_row);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, secret_group);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, secret_row);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, test_row);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, test_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, save_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConnectionEditor, existing_group);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, test_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, reconnect_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kind_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, field_changed_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
clarify_connection_editor_init (ClarifyConnectionEditor *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

ClarifyConnectionEditor *
clarify_connection_editor_new (ClarifyApplication *application,
                               GtkWindow          *parent,
                               ClarifyConnection  *connection)
{
  ClarifyConnectionEditor *self;

  g_return_val_if_fail (CLARIFY_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (connection == NULL || CLARIFY_IS_CONNECTION (connection), NULL);

  self = g_object_new (CLARIFY_TYPE_CONNECTION_EDITOR,
                       "application", application,
                       "transient-for", parent,
                       NULL);
  self->application = g_object_ref (application);
  self->connection = connection != NULL ? g_object_ref (connection) : NULL;
  fill_fields (self);

  return self;
}
