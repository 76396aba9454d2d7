/* test-connections-ui.c: connections added, tested, edited and removed with
 * the mouse, and the window's word about where passwords go
 *
 * The real application and its widgets: "Add Connection" opens the editor,
 * the test fills it in and presses Test (a fake agent on 127.0.0.1 that
 * wants a token), Save, and then Remove from the row's editor, in English
 * and German, with screenshots. No keyring answers on the test's bus (a
 * fake org.freedesktop.secrets refuses every call), so the window says so
 * and offers the choice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "clarify-test-app.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-keyring.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#include "clarify-application-private.h"
#include "clarify-connection-editor.h"
#include "clarify-connection-row.h"
#include "clarify-secret.h"
#include "clarify-window.h"

#define WAIT_MS 15000
#define TOKEN   "s3cret"

static ClarifyApplication *app;
static ClarifyTestServer *server;
static char *events_url;

/* A keyring that is there but refuses everything, as a locked or broken one
 * would; it also keeps a real one from being started on the test's bus. It
 * answers from a thread of its own, as a separate process would, whatever
 * in this process still asks it with a blocking call. */
static gint secrets_owned;

static gpointer
serve_secrets_thread (gpointer data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autofree char *address = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyTestKeyring *keyring;

  g_main_context_push_thread_default (context);
  address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  /* This thread never returns: nothing it keeps only on its stack is freed. */
  keyring = clarify_test_keyring_new (address);
  g_clear_pointer (&address, g_free);
  clarify_test_keyring_refuse_all (keyring);
  g_atomic_int_set (&secrets_owned, 1);

  for (;;)
    g_main_context_iteration (context, TRUE);

  return NULL;
}

static gboolean
secrets_served (gpointer data)
{
  return g_atomic_int_get (&secrets_owned) != 0;
}

/* The agent wants "Bearer s3cret"; it sends one comment and closes. */
static void
events_handler (const ClarifyTestRequest *request,
                guint                    *status,
                char                    **content_type,
                char                    **body,
                gpointer                  user_data)
{
  gboolean right = g_strcmp0 (soup_message_headers_get_one (request->headers, "Authorization"),
                              "Bearer " TOKEN) == 0;

  *status = right ? 200 : 401;
  *content_type = g_strdup (right ? "text/event-stream" : "text/plain");
  *body = g_strdup (right ? ": hello\n\n" : "Unauthorized");
}

static ClarifyWindow *
find_main_window (void)
{
  return (ClarifyWindow *) clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_WINDOW, NULL);
}

static gboolean
editor_open (gpointer data)
{
  guint n = 0;

  clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_CONNECTION_EDITOR, &n);

  return n == GPOINTER_TO_UINT (data);
}

static GtkWidget *
find_editor (void)
{
  g_assert_true (clarify_test_wait_until (editor_open, GUINT_TO_POINTER (1), WAIT_MS));

  return GTK_WIDGET (clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_CONNECTION_EDITOR, NULL));
}

static GtkWidget *
field (GtkWidget  *editor,
       const char *name)
{
  GtkWidget *widget = clarify_test_find_widget (editor, name);

  g_assert_nonnull (widget);

  return widget;
}

static GtkWindow *
find_remove_question_or_null (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window))
        return window;
    }
  return NULL;
}

static GtkWindow *
find_remove_question (const char *heading)
{
  GtkWindow *window = find_remove_question_or_null ();

  g_assert_nonnull (window);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)), ==, heading);
  return window;
}

static gboolean
remove_question_gone (gpointer data)
{
  return find_remove_question_or_null () == NULL;
}

static void
click (GtkWidget  *editor,
       const char *name)
{
  g_assert_true (gtk_widget_is_sensitive (field (editor, name)));
  g_signal_emit_by_name (field (editor, name), "clicked");
}

typedef struct
{
  GtkWidget  *row;
  const char *expected;
} SubtitleWait;

static gboolean
subtitle_is (gpointer data)
{
  SubtitleWait *wait = data;

  return g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (wait->row)), wait->expected) == 0;
}

/* Presses Test and waits for the words it shows. */
static void
assert_test_says (GtkWidget  *editor,
                  const char *expected)
{
  SubtitleWait wait = { field (editor, "test_row"), expected };

  click (editor, "test_button");
  if (!clarify_test_wait_until (subtitle_is, &wait, WAIT_MS))
    g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (wait.row)), ==, expected);
  /* The buttons work again once the answer is in. */
  g_assert_true (gtk_widget_is_sensitive (field (editor, "save_button")));
}

static GtkWidget *current_editor;

static gboolean
description_is (gpointer data)
{
  GtkWidget *group = clarify_test_find_widget (current_editor, "secret_group");

  return g_strcmp0 (adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (group)), data) == 0;
}

static gboolean
backend_is (gpointer data)
{
  return (clarify_application_lookup_backend (app, "work") != NULL) == GPOINTER_TO_INT (data);
}

static gboolean
backend_replaced (gpointer data)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (app, "work");

  return backend != NULL && backend != data;
}

static ClarifyConnectionRow *
find_connection_row (const char *name)
{
  return clarify_test_find_connection_row (GTK_APPLICATION (app), name);
}

static char *
read_config (const char *name)
{
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "clarify", name, NULL);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return g_strdup ("");

  return contents;
}

static gboolean
secret_file_lacks_token (gpointer data)
{
  g_autofree char *secrets = read_config ("secrets");

  return strstr (secrets, TOKEN) == NULL;
}

static GtkWidget *
banner_button (GtkWidget *banner,
               guint      index)
{
  GtkWidget *child = gtk_widget_get_first_child (banner);

  /* The label, then the buttons. */
  for (guint i = 0; i <= index; i++)
    child = gtk_widget_get_next_sibling (child);
  g_assert_true (GTK_IS_BUTTON (child));

  return child;
}

static gboolean
widget_visible (gpointer data)
{
  return gtk_widget_get_visible (GTK_WIDGET (data));
}

static void
screenshot (GtkWidget  *window,
            const char *what,
            const char *language)
{
  g_autofree char *name = g_strdup_printf ("%s-%s", what, language);
  g_autofree char *shot = NULL;

  /* Let the last change lay out and draw. */
  clarify_test_spin (200);
  shot = clarify_test_save_screenshot (window, name);
  g_assert_nonnull (shot);
}

static void
test_connections (gconstpointer data)
{
  const char *language = data;
  gboolean german = g_str_equal (language, "de");
  ClarifyWindow *window;
  GtkWidget *editor, *banner;
  GtkWindow *confirm;
  ClarifyConnectionRow *row;
  g_autofree char *ini = NULL;
  g_autofree char *secrets = NULL;
  g_autofree char *wrong_kind = NULL;

  clarify_test_set_language (language);
  if ((window = find_main_window ()) != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
  g_application_activate (G_APPLICATION (app));
  window = find_main_window ();
  clarify_test_present_and_wait (GTK_WINDOW (window));

  /* No keyring: the window says so before a password is typed. */
  banner = clarify_test_find_widget (GTK_WIDGET (window), "secret_banner");
  g_assert_nonnull (banner);
  g_assert_true (clarify_test_wait_until (widget_visible, banner, WAIT_MS));
  g_assert_null (find_connection_row ("work"));
  screenshot (GTK_WIDGET (window), "connections-empty", language);

  /* Add: the empty page's button. */
  gtk_widget_activate (clarify_test_find_widget (GTK_WIDGET (window), "add_button"));
  editor = current_editor = find_editor ();
  clarify_test_present_and_wait (GTK_WINDOW (editor));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, german ? "Verbindung hinzufügen" : "Add Connection");
  /* Each kind says what it is: the first is Clarify's own protocol. */
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (field (editor, "kind_row"))), ==,
                   german ? "Ein Skript oder Agent, der Clarifys eigenen Ereignisstrom spricht"
                          : "A script or agent that speaks Clarify’s own event stream");

  /* Where the password goes, truly: no keyring answers here. */
  g_assert_true (clarify_test_wait_until (description_is, (gpointer) (german
    ? "Kein Schlüsselbund antwortet: Es wird in einer Datei aufbewahrt, die nur Sie lesen können, nie in Clarifys Einstellungen."
    : "No keyring answers: it is kept in a file only you can read, never in Clarify’s settings."), WAIT_MS));

  /* Typing goes to the name first; Save waits for a name and an address
   * (blanks are none), Test for an address. */
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (editor)) == field (editor, "name_row") ||
                 gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (editor)), field (editor, "name_row")));
  g_assert_false (gtk_widget_is_sensitive (field (editor, "save_button")));
  g_assert_false (gtk_widget_is_sensitive (field (editor, "test_button")));
  clarify_test_set_field_text (field (editor, "name_row"), "  ");
  clarify_test_set_field_text (field (editor, "url_row"), events_url);
  g_assert_false (gtk_widget_is_sensitive (field (editor, "save_button")));
  g_assert_true (gtk_widget_is_sensitive (field (editor, "test_button")));

  /* A name --connect would refuse is refused here too, in words. */
  clarify_test_set_field_text (field (editor, "name_row"), "my work");
  click (editor, "save_button");
  g_assert_nonnull (adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (field (editor, "fields_group"))));
  g_assert_false (backend_is (GINT_TO_POINTER (TRUE)));

  /* The message shows what was typed, markup characters and all (it was
   * taken for markup, and nothing showed). */
  clarify_test_set_field_text (field (editor, "name_row"), "work");
  clarify_test_set_field_text (field (editor, "url_row"), "http://a<b&c.example/");
  click (editor, "save_button");
  g_assert_nonnull (clarify_test_find_label (field (editor, "fields_group"),
                                             german ? "„a<b&c.example“ ist kein gültiger Rechnername."
                                                    : "“a<b&c.example” is not a valid host name."));
  clarify_test_set_field_text (field (editor, "url_row"), events_url);

  clarify_test_set_field_text (field (editor, "secret_row"), "wrong");
  assert_test_says (editor, german ? "Falsches Passwort oder Token: Der Server hat es abgelehnt."
                                   : "Wrong password or token: the server refused it.");
  screenshot (editor, "connection-editor-refused", language);

  /* Another kind at that address is not what answers there. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (field (editor, "kind_row")), 4);  /* Phoenix IDE */
  wrong_kind = g_strdup_printf (german ? "Etwas hat geantwortet, aber es ist nicht %s (%s)."
                                       : "Something answered, but it is not %s (%s).",
                                "Phoenix IDE", "HTTP 404 Not Found");
  assert_test_says (editor, wrong_kind);
  adw_combo_row_set_selected (ADW_COMBO_ROW (field (editor, "kind_row")), 0);

  clarify_test_set_field_text (field (editor, "secret_row"), TOKEN);
  assert_test_says (editor, german ? "Erreichbar: Der Server antwortet wie Clarify JSON."
                                   : "Reachable: the server answered as Clarify JSON does.");
  screenshot (editor, "connection-editor", language);

  /* A verdict speaks of the address it was given: edited, the row says
   * again what Test does (it went on saying "Reachable"). */
  clarify_test_set_field_text (field (editor, "url_row"), "http://127.0.0.1:9/events");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (field (editor, "test_row"))), ==,
                   german ? "Fragt den Server, ob er diese Art von Agent ist und Sie hereinlässt."
                          : "Asks the server whether it is this kind of agent and lets you in.");
  g_assert_false (gtk_widget_has_css_class (field (editor, "test_row"), "success"));
  clarify_test_set_field_text (field (editor, "url_row"), events_url);

  /* Save: the same path as `clarify --connect`, the token to the keyring's
   * stand-in, never to connections.ini. */
  click (editor, "save_button");
  g_assert_true (clarify_test_wait_until (editor_open, GUINT_TO_POINTER (0), WAIT_MS));
  g_assert_true (clarify_test_wait_until (backend_is, GINT_TO_POINTER (TRUE), WAIT_MS));
  row = find_connection_row ("work");
  g_assert_nonnull (row);
  ini = read_config ("connections.ini");
  g_assert_nonnull (strstr (ini, "[connection work]"));
  g_assert_null (strstr (ini, TOKEN));
  secrets = read_config ("secrets");
  g_assert_nonnull (strstr (secrets, TOKEN));
  screenshot (GTK_WIDGET (window), "connections-added", language);

  /* Edit: the row opens the editor with what was saved. */
  gtk_widget_activate (GTK_WIDGET (row));
  editor = find_editor ();
  clarify_test_present_and_wait (GTK_WINDOW (editor));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, german ? "Verbindung bearbeiten" : "Edit Connection");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (editor, "name_row"))), ==, "work");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (editor, "url_row"))), ==, events_url);
  /* The password shows as dots, and is not filled in. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (editor, "secret_row"))), ==, "");
  g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (field (editor, "secret_row")));
  /* Nothing typed: Test uses the stored token. */
  assert_test_says (editor, german ? "Erreichbar: Der Server antwortet wie Clarify JSON."
                                   : "Reachable: the server answered as Clarify JSON does.");
  screenshot (editor, "connection-editor-edit", language);

  /* Reconnect replaces the backend with a new one. */
  {
    /* Held, so that the new one cannot take its address. */
    g_autoptr(ClarifyBackend) before = g_object_ref (clarify_application_lookup_backend (app, "work"));

    click (editor, "reconnect_button");
    g_assert_true (clarify_test_wait_until (editor_open, GUINT_TO_POINTER (0), WAIT_MS));
    g_assert_true (clarify_test_wait_until (backend_replaced, before, WAIT_MS));
  }

  /* Remove asks first; closing the question keeps everything. */
  gtk_widget_activate (GTK_WIDGET (find_connection_row ("work")));
  editor = find_editor ();
  click (editor, "remove_button");
  confirm = find_remove_question (german ? "„work“ entfernen?" : "Remove “work”?");
  g_assert_true (gtk_window_get_transient_for (confirm) == GTK_WINDOW (editor));
  clarify_test_present_and_wait (confirm);
  screenshot (GTK_WIDGET (confirm), "connection-remove-question", language);
  gtk_window_close (confirm);
  g_assert_true (clarify_test_wait_until (remove_question_gone, NULL, WAIT_MS));
  g_assert_nonnull (clarify_application_lookup_backend (app, "work"));
  g_assert_true (clarify_test_wait_until (editor_open, GUINT_TO_POINTER (1), WAIT_MS));

  /* Remove: the backend, the stored connection and its token go. */
  click (editor, "remove_button");
  confirm = find_remove_question (german ? "„work“ entfernen?" : "Remove “work”?");
  g_signal_emit_by_name (clarify_test_find_button (GTK_WIDGET (confirm), german ? "_Entfernen" : "_Remove"), "clicked");
  g_assert_true (clarify_test_wait_until (remove_question_gone, NULL, WAIT_MS));
  g_assert_true (clarify_test_wait_until (editor_open, GUINT_TO_POINTER (0), WAIT_MS));
  g_assert_true (clarify_test_wait_until (backend_is, GINT_TO_POINTER (FALSE), WAIT_MS));
  g_assert_null (find_connection_row ("work"));
  g_clear_pointer (&ini, g_free);
  ini = read_config ("connections.ini");
  g_assert_null (strstr (ini, "[connection work]"));
  g_assert_true (clarify_test_wait_until (secret_file_lacks_token, NULL, WAIT_MS));

  /* The banner's choice: nothing on disk. */
  g_signal_emit_by_name (banner_button (banner, 1), "clicked");
  g_assert_false (gtk_widget_get_visible (banner));
  g_assert_cmpint (clarify_secret_get_fallback (), ==, CLARIFY_SECRET_FALLBACK_MEMORY);

  /* The next run asks again. */
  g_assert_true (clarify_secret_set_fallback (CLARIFY_SECRET_FALLBACK_UNSET, NULL));
  clarify_test_set_language ("en");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  int status;

  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");
  /* Secrets go where the user's would: the keyring, which refuses here. */
  g_unsetenv ("CLARIFY_SECRET_STORE");

  clarify_test_log_init ();
  clarify_test_dbus_private_session ();
  clarify_test_gtk_init (&argc, &argv);

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  clarify_test_notifications_start (bus);
  g_thread_unref (g_thread_new ("fake-keyring", serve_secrets_thread, NULL));
  g_assert_true (clarify_test_wait_until (secrets_served, NULL, WAIT_MS));

  server = clarify_test_server_new ();
  clarify_test_server_add_handler (server, "GET", "/events", events_handler, NULL);
  events_url = clarify_test_server_get_url (server, "/events");

  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_data_func ("/connections-ui/en", "en", test_connections);
  g_test_add_data_func ("/connections-ui/de", "de", test_connections);

  status = g_test_run ();

  clarify_test_remove_tree (home);

  return status;
}
