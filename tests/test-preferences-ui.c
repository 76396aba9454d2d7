/* test-preferences-ui.c: the preferences window, driven through its widgets
 *
 * Each switch and the port are changed as a user would (a row activated,
 * a number typed and applied), and each change is checked where it acts,
 * without a restart: the countdown in an open dialog, notifications sent
 * or not to a fake org.gtk.Notifications, the alert sound as the X server's
 * bell seen from a connection of the test's own, the MCP endpoint's socket, and
 * start at login as a file in a private XDG_CONFIG_HOME or as the options a
 * fake Background portal received. The settings live in memory
 * (GSETTINGS_BACKEND=memory, tests/meson.build).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <X11/XKBlib.h>

#include "clarify-test-app.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-backend.h"

#include "clarify-application-private.h"
#include "clarify-countdown.h"
#include "clarify-mcp-server.h"
#include "clarify-preferences-window.h"
#include "clarify-request-dialog-private.h"

#define WAIT_MS 15000

static ClarifyApplication *app;
static guint configured_mcp_port;

static gboolean
port_accepts (gpointer data)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection =
    g_socket_client_connect_to_host (client, "127.0.0.1", GPOINTER_TO_UINT (data), NULL, NULL);

  return connection != NULL;
}

static gboolean
port_refuses (gpointer data)
{
  return !port_accepts (data);
}

static gboolean
mcp_listening (gpointer data)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (app, "MCP");

  return backend != NULL && clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_CONNECTED;
}

static void
ensure_app (void)
{
  g_autoptr(GError) error = NULL;

  if (app != NULL)
    return;

  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  clarify_test_present_and_wait (GTK_WINDOW (app->window));
  g_assert_true (clarify_test_wait_until (mcp_listening, NULL, WAIT_MS));
}

/* Opens the preferences as the main menu does, a new window each time. */
static ClarifyPreferencesWindow *
open_preferences (void)
{
  GtkWindow *window;

  window = clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_PREFERENCES_WINDOW, NULL);
  if (window != NULL)
    gtk_window_destroy (window);

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  window = clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_PREFERENCES_WINDOW, NULL);
  g_assert_nonnull (window);
  clarify_test_present_and_wait (window);

  return CLARIFY_PREFERENCES_WINDOW (window);
}

static GtkWidget *
find (ClarifyPreferencesWindow *window,
      const char               *id)
{
  GtkWidget *widget = clarify_test_find_widget (GTK_WIDGET (window), id);

  g_assert_nonnull (widget);
  return widget;
}

/* The user clicks the row: its switch flips. */
static void
click_row (ClarifyPreferencesWindow *window,
           const char               *row_id)
{
  adw_action_row_activate (ADW_ACTION_ROW (find (window, row_id)));
}

static gboolean
switch_active (ClarifyPreferencesWindow *window,
               const char               *switch_id)
{
  return gtk_switch_get_active (GTK_SWITCH (find (window, switch_id)));
}

/* Types @port into the port row and presses its apply button. */
static void
apply_port (ClarifyPreferencesWindow *window,
            const char               *text)
{
  GtkWidget *row = find (window, "port_row");

  clarify_test_set_field_text (row, text);
  g_signal_emit_by_name (row, "apply");
}

static ClarifyRequestDialog *
find_dialog (const char *request_id)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    {
      if (CLARIFY_IS_REQUEST_DIALOG (l->data) &&
          g_strcmp0 (clarify_request_get_id (clarify_request_dialog_get_request (l->data)), request_id) == 0)
        return l->data;
    }

  return NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  ClarifyRequestDialog *dialog = find_dialog (data);

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static gboolean
notification_shown (gpointer data)
{
  return g_hash_table_contains (clarify_test_notifications_shown, data);
}

static ClarifyRequest *
add_request (ClarifyBackend *backend,
             const char     *id)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question =
    clarify_question_new ("go", CLARIFY_QUESTION_KIND_CONFIRM, "Deploy the release now?");

  clarify_request_add_question (request, question);
  clarify_request_set_timeout_ms (request, 10 * 60 * 1000);
  g_assert_true (clarify_backend_add_request (backend, request));

  return g_steal_pointer (&request);
}

/* Tests */

static void
test_window_en (void)
{
  ClarifyPreferencesWindow *window;
  g_auto(GStrv) accels = NULL;
  g_autofree char *port = NULL;

  ensure_app ();
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.preferences");
  g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>comma"));

  window = open_preferences ();
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (window)) == GTK_WINDOW (app->window));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (find (window, "start_at_login_row"))),
                   ==, "_Start at Login");
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (find (window, "mcp_row"))),
                   ==, "_Serve the MCP Endpoint");
  /* What is in effect: start at login as clarify.ini said (so not asked
   * again), the endpoint on mcp.ini's port. */
  g_assert_false (switch_active (window, "start_at_login_switch"));
  g_assert_true (g_settings_get_boolean (clarify_application_get_settings (app), "start-at-login-asked"));
  g_assert_true (switch_active (window, "notifications_switch"));
  g_assert_true (switch_active (window, "countdown_switch"));
  g_assert_true (switch_active (window, "mcp_switch"));
  port = g_strdup_printf ("%u", configured_mcp_port);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (find (window, "port_row"))), ==, port);
  g_assert_false (gtk_widget_get_visible (find (window, "port_error_label")));

  g_free (clarify_test_save_screenshot (GTK_WIDGET (window), "preferences-en"));
}

static void
test_countdown_and_notifications (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) first = NULL;
  g_autoptr(ClarifyRequest) silent = NULL;
  g_autoptr(ClarifyRequest) loud = NULL;
  g_autofree char *silent_key = NULL;
  g_autofree char *loud_key = NULL;
  ClarifyPreferencesWindow *window;
  ClarifyRequestDialog *dialog;
  GtkWidget *countdown;

  ensure_app ();
  clarify_application_add_backend (app, backend);
  first = add_request (backend, "first");
  g_assert_true (clarify_test_wait_until (dialog_shown, (gpointer) "first", WAIT_MS));
  dialog = find_dialog ("first");
  countdown = GTK_WIDGET (clarify_request_dialog_get_countdown (dialog));
  g_assert_true (gtk_widget_get_visible (countdown));

  /* The time left goes from the open dialog at once, and comes back. */
  window = open_preferences ();
  click_row (window, "countdown_row");
  g_assert_false (switch_active (window, "countdown_switch"));
  g_assert_false (g_settings_get_boolean (clarify_application_get_settings (app), "show-countdown"));
  g_assert_false (gtk_widget_get_visible (countdown));
  /* Hidden, it still runs to the deadline. */
  g_assert_true (clarify_countdown_get_running (CLARIFY_COUNTDOWN (countdown)));
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "preferences-dialog-no-countdown-en"));
  click_row (window, "countdown_row");
  g_assert_true (gtk_widget_get_visible (countdown));

  /* Notifications off: a question that comes while the user is in
   * another program sends none. Turned on again, the next one does; GLib
   * sends them in order on one connection, so the first would have arrived
   * before it. */
  click_row (window, "notifications_row");
  g_assert_false (switch_active (window, "notifications_switch"));
  clarify_test_focus_elsewhere ();
  silent = add_request (backend, "silent");
  silent_key = clarify_inbox_dup_key (silent);
  /* Its dialog comes a few turns of the main loop later, in front. */
  g_assert_true (clarify_test_wait_until (dialog_shown, (gpointer) "silent", WAIT_MS));
  click_row (window, "notifications_row");
  g_assert_true (switch_active (window, "notifications_switch"));
  clarify_test_focus_elsewhere ();
  loud = add_request (backend, "loud");
  loud_key = clarify_inbox_dup_key (loud);
  g_assert_true (clarify_test_wait_until (notification_shown, loud_key, WAIT_MS));
  g_assert_false (g_hash_table_contains (clarify_test_notifications_shown, silent_key));
  /* Nor was start at login asked: clarify.ini had the answer. */
  g_assert_false (g_hash_table_contains (clarify_test_notifications_shown, "start-at-login"));

  clarify_application_remove_backend (app, backend);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The X server's bell, as another client sees it: XKB tells every client
 * that asks of each bell rung. */
typedef struct
{
  Display *display;
  int      xkb_event;
  guint    bells;
} BellWatch;

static void
bell_watch_init (BellWatch *watch)
{
  int major = XkbMajorVersion;
  int minor = XkbMinorVersion;
  int error = 0;

  watch->display = XkbOpenDisplay (NULL, &watch->xkb_event, &error, &major, &minor, NULL);
  g_assert_nonnull (watch->display);
  g_assert_true (XkbSelectEvents (watch->display, XkbUseCoreKbd, XkbBellNotifyMask, XkbBellNotifyMask));
  XSync (watch->display, False);
  watch->bells = 0;
}

static guint
bell_watch_count (BellWatch *watch)
{
  XSync (watch->display, False);
  while (XPending (watch->display) > 0)
    {
      XEvent event;

      XNextEvent (watch->display, &event);
      if (event.type == watch->xkb_event && ((XkbEvent *) &event)->any.xkb_type == XkbBellNotify)
        watch->bells++;
    }

  return watch->bells;
}

static gboolean
bell_rung (gpointer data)
{
  BellWatch *watch = data;
  guint before = watch->bells;

  return bell_watch_count (watch) > before;
}

/* The alert sound rings the bell for each new question; switched off, a
 * question comes in silence; switched on again, the next one rings. */
static void
test_sound (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Sound");
  g_autoptr(ClarifyRequest) ring = NULL;
  g_autoptr(ClarifyRequest) hush = NULL;
  g_autoptr(ClarifyRequest) again = NULL;
  ClarifyPreferencesWindow *window;
  BellWatch watch;
  guint bells;

  ensure_app ();
  clarify_application_add_backend (app, backend);
  bell_watch_init (&watch);
  window = open_preferences ();
  g_assert_true (switch_active (window, "sound_switch"));

  ring = add_request (backend, "ring");
  g_assert_true (clarify_test_wait_until (bell_rung, &watch, WAIT_MS));

  click_row (window, "sound_row");
  g_assert_false (switch_active (window, "sound_switch"));
  g_assert_false (g_settings_get_boolean (clarify_application_get_settings (app), "notification-sound"));
  bells = bell_watch_count (&watch);
  hush = add_request (backend, "hush");
  /* The question is in, and announced; a bell would have come by now. */
  g_assert_true (clarify_inbox_lookup (clarify_application_get_inbox (app), backend, "hush") != NULL);
  clarify_test_spin (500);
  g_assert_cmpuint (bell_watch_count (&watch), ==, bells);

  click_row (window, "sound_row");
  g_assert_true (switch_active (window, "sound_switch"));
  again = add_request (backend, "again");
  g_assert_true (clarify_test_wait_until (bell_rung, &watch, WAIT_MS));

  XCloseDisplay (watch.display);
  clarify_application_remove_backend (app, backend);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
assert_mcp_listening (void)
{
  ClarifyBackend *mcp = clarify_application_lookup_backend (app, "MCP");

  g_assert_cmpint (clarify_backend_get_state (mcp), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_cmpint (clarify_backend_get_note (mcp), ==, CLARIFY_BACKEND_NOTE_LISTENING);
  g_assert_null (clarify_backend_get_error_text (mcp));
}

static void
test_mcp_endpoint (void)
{
  g_autoptr(GSocketListener) holder = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *ini_path = g_build_filename (g_get_user_config_dir (), "clarify", "mcp.ini", NULL);
  g_autofree char *ini = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  ClarifyPreferencesWindow *window;
  GtkWidget *error_label;
  ClarifyConnectionRow *row;
  guint new_port = clarify_test_free_port ();
  guint busy_port = clarify_test_free_port ();
  guint16 stored;

  ensure_app ();
  window = open_preferences ();
  error_label = find (window, "port_error_label");
  g_assert_true (port_accepts (GUINT_TO_POINTER (configured_mcp_port)));

  /* Off: the endpoint stops listening at once; on: it listens again. */
  click_row (window, "mcp_row");
  g_assert_null (clarify_application_lookup_backend (app, "MCP"));
  g_assert_true (clarify_test_wait_until (port_refuses, GUINT_TO_POINTER (configured_mcp_port), WAIT_MS));
  g_assert_true (g_file_get_contents (ini_path, &ini, NULL, NULL));
  g_assert_nonnull (strstr (ini, "enabled=false\n"));
  g_clear_pointer (&ini, g_free);
  click_row (window, "mcp_row");
  g_assert_true (clarify_test_wait_until (mcp_listening, NULL, WAIT_MS));
  g_assert_true (port_accepts (GUINT_TO_POINTER (configured_mcp_port)));

  /* Not a port: said in the window, nothing changes. */
  apply_port (window, "99999");
  g_assert_true (gtk_widget_get_visible (error_label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (error_label)), ==, "A port is a number from 1 to 65535.");
  g_assert_true (port_accepts (GUINT_TO_POINTER (configured_mcp_port)));

  /* Taken by someone else: said in the window, the old port serves on. */
  g_assert_true (g_socket_listener_add_inet_port (holder, busy_port, NULL, &error));
  g_assert_no_error (error);
  text = g_strdup_printf ("%u", busy_port);
  apply_port (window, text);
  g_assert_true (gtk_widget_get_visible (error_label));
  expected = g_strdup_printf ("Port %u cannot be used: ", busy_port);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (error_label)), expected));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("The endpoint stays on port %u.", configured_mcp_port);
  g_assert_true (g_str_has_suffix (gtk_label_get_text (GTK_LABEL (error_label)), expected));
  g_assert_true (port_accepts (GUINT_TO_POINTER (configured_mcp_port)));
  g_settings_get (clarify_application_get_settings (app), "mcp-port", "q", &stored);
  g_assert_cmpuint (stored, ==, configured_mcp_port);
  clarify_test_spin (100);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (window), "preferences-port-taken-en"));
  g_socket_listener_close (holder);

  /* A free port: the endpoint moves there, and the old one closes. The
   * main window (Preferences' parent) has its row. */
  row = clarify_test_find_connection_row (GTK_APPLICATION (app), "MCP");
  g_assert_nonnull (row);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("MCP endpoint · http://127.0.0.1:%u/mcp", configured_mcp_port);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, expected);
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("%u", new_port);
  apply_port (window, text);
  g_assert_false (gtk_widget_get_visible (error_label));
  g_assert_cmpuint (clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (clarify_application_lookup_backend (app, "MCP"))),
                    ==, new_port);
  g_assert_true (port_accepts (GUINT_TO_POINTER (new_port)));
  g_assert_true (clarify_test_wait_until (port_refuses, GUINT_TO_POINTER (configured_mcp_port), WAIT_MS));
  g_settings_get (clarify_application_get_settings (app), "mcp-port", "q", &stored);
  g_assert_cmpuint (stored, ==, new_port);
  /* The command line reads the same port. */
  g_assert_cmpuint (clarify_mcp_config_get_port (), ==, new_port);
  /* The window's row, there before, shows the new address at once. */
  g_assert_true (row == clarify_test_find_connection_row (GTK_APPLICATION (app), "MCP"));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("MCP endpoint · http://127.0.0.1:%u/mcp", new_port);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, expected);
  /* Listening, not "cannot listen" on the port it left (closing the old
   * listener once said so, with no reason). */
  assert_mcp_listening ();

  /* And once more: the endpoint moved before. */
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("%u", configured_mcp_port);
  apply_port (window, text);
  g_assert_false (gtk_widget_get_visible (error_label));
  g_assert_true (port_accepts (GUINT_TO_POINTER (configured_mcp_port)));
  assert_mcp_listening ();

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
mcp_cannot_listen (gpointer data)
{
  ClarifyBackend *backend = clarify_application_lookup_backend (app, "MCP");

  return backend != NULL && clarify_backend_get_note (backend) == CLARIFY_BACKEND_NOTE_CANNOT_LISTEN;
}

static gboolean
widget_visible (gpointer data)
{
  return gtk_widget_get_visible (data);
}

static gboolean
window_shows_label (gpointer data)
{
  gpointer *window_and_text = data;

  return clarify_test_find_label (window_and_text[0], window_and_text[1]) != NULL;
}

/* Another program held the port when the endpoint started: a new port in
 * the preferences starts it there (it once said "now uses port" and went
 * on not listening). Switched off, a port is kept for the next start. */
static void
test_mcp_port_after_failure (void)
{
  g_autoptr(GSocketListener) holder = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  ClarifyPreferencesWindow *window;
  GtkWidget *error_label;
  guint free_port = clarify_test_free_port ();
  guint kept_port = clarify_test_free_port ();
  guint16 stored;

  ensure_app ();
  window = open_preferences ();
  error_label = find (window, "port_error_label");

  click_row (window, "mcp_row");
  g_assert_true (clarify_test_wait_until (port_refuses, GUINT_TO_POINTER (configured_mcp_port), WAIT_MS));
  g_assert_true (g_socket_listener_add_inet_port (holder, configured_mcp_port, NULL, &error));
  g_assert_no_error (error);
  click_row (window, "mcp_row");
  g_assert_true (clarify_test_wait_until (mcp_cannot_listen, NULL, WAIT_MS));
  /* Said where the port is set, not only in the main window. */
  g_assert_true (clarify_test_wait_until (widget_visible, error_label, WAIT_MS));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (error_label)), "Cannot listen on 127.0.0.1:"));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (window), "preferences-port-taken-en"));

  text = g_strdup_printf ("%u", free_port);
  apply_port (window, text);
  g_assert_false (gtk_widget_get_visible (error_label));
  g_assert_true (port_accepts (GUINT_TO_POINTER (free_port)));
  assert_mcp_listening ();
  g_assert_cmpuint (clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (clarify_application_lookup_backend (app, "MCP"))),
                    ==, free_port);
  g_settings_get (clarify_application_get_settings (app), "mcp-port", "q", &stored);
  g_assert_cmpuint (stored, ==, free_port);

  /* Off: kept, and nothing listens until it is switched on. */
  click_row (window, "mcp_row");
  g_assert_true (clarify_test_wait_until (port_refuses, GUINT_TO_POINTER (free_port), WAIT_MS));
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("%u", kept_port);
  apply_port (window, text);
  g_assert_false (gtk_widget_get_visible (error_label));
  g_settings_get (clarify_application_get_settings (app), "mcp-port", "q", &stored);
  g_assert_cmpuint (stored, ==, kept_port);
  g_assert_true (port_refuses (GUINT_TO_POINTER (kept_port)));
  /* Said in a toast's one line, whole (it was cut off with "…"). */
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("Port %u saved (MCP endpoint off)", kept_port);
  {
    GtkWidget *toast;

    g_assert_true (clarify_test_wait_until (window_shows_label, (gpointer[]) { window, text }, WAIT_MS));
    toast = clarify_test_find_label (GTK_WIDGET (window), text);
    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (toast))));
    g_free (clarify_test_save_screenshot (GTK_WIDGET (window), "preferences-port-saved-en"));
  }

  /* As it was: the configured port, serving. */
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("%u", configured_mcp_port);
  apply_port (window, text);
  g_socket_listener_close (holder);
  click_row (window, "mcp_row");
  g_assert_true (clarify_test_wait_until (mcp_listening, NULL, WAIT_MS));
  g_assert_true (port_accepts (GUINT_TO_POINTER (configured_mcp_port)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static guint
count_lines (char       **lines,
             const char  *pattern)
{
  guint n = 0;

  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    n += g_pattern_match_simple (pattern, lines[i]);

  return n;
}

/* A port set elsewhere (gsettings) that another program holds: said once,
 * and the setting goes back to the port that serves. Where the settings
 * cannot be saved (no dconf), putting it back is undone and names the
 * refused port again: it is not tried and told again (that went round in
 * a loop at full CPU, 11,843 times in 25 s). */
static void
test_mcp_port_refused_once (void)
{
  g_autoptr(GSocketListener) holder = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *pattern = NULL;
  GSettings *settings;
  guint busy_port = clarify_test_free_port ();
  guint16 stored;

  ensure_app ();
  settings = clarify_application_get_settings (app);
  g_assert_true (g_socket_listener_add_inet_port (holder, busy_port, NULL, &error));
  g_assert_no_error (error);

  clarify_test_log_start ();
  g_settings_set (settings, "mcp-port", "q", (guint16) busy_port);
  g_settings_get (settings, "mcp-port", "q", &stored);
  g_assert_cmpuint (stored, ==, configured_mcp_port);
  /* As a store that cannot save hands it back. */
  g_settings_set (settings, "mcp-port", "q", (guint16) busy_port);
  clarify_test_spin (100);
  lines = clarify_test_log_stop ();
  pattern = g_strdup_printf ("MESSAGE: Cannot move the MCP endpoint to port %u: *", busy_port);
  g_assert_cmpuint (count_lines (lines, pattern), ==, 1);
  g_assert_true (port_accepts (GUINT_TO_POINTER (configured_mcp_port)));
  assert_mcp_listening ();

  /* As it was. */
  g_socket_listener_close (holder);
  g_settings_set (settings, "mcp-port", "q", (guint16) configured_mcp_port);
}

static void
test_start_at_login_file (void)
{
  g_autofree char *desktop = clarify_autostart_get_desktop_path ();
  g_autofree char *contents = NULL;
  ClarifyPreferencesWindow *window;

  ensure_app ();
  clarify_autostart_set_use_portal (app->autostart, FALSE);
  /* Running in the background wrote nothing. */
  g_assert_false (g_file_test (desktop, G_FILE_TEST_EXISTS));

  window = open_preferences ();
  click_row (window, "start_at_login_row");
  g_assert_true (g_settings_get_boolean (clarify_application_get_settings (app), "start-at-login"));
  g_assert_true (g_file_get_contents (desktop, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\nExec=clarify --background\n"));
  g_assert_nonnull (strstr (contents, "\nType=Application\n"));

  click_row (window, "start_at_login_row");
  g_assert_false (g_file_test (desktop, G_FILE_TEST_EXISTS));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A fake xdp Background portal: records each RequestBackground's options
 * and answers as a granting portal does. */

static GPtrArray *portal_requests;  /* GVariant a{sv} */

static const char portal_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.portal.Background'>"
  "    <method name='RequestBackground'>"
  "      <arg type='s' name='parent_window' direction='in'/>"
  "      <arg type='a{sv}' name='options' direction='in'/>"
  "      <arg type='o' name='handle' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static void
portal_method_call (GDBusConnection       *connection,
                    const char            *sender,
                    const char            *object_path,
                    const char            *interface_name,
                    const char            *method_name,
                    GVariant              *parameters,
                    GDBusMethodInvocation *invocation,
                    gpointer               user_data)
{
  g_autoptr(GVariant) options = g_variant_get_child_value (parameters, 1);
  g_autofree char *escaped = g_strdup (sender + 1);
  g_autofree char *handle = NULL;
  const char *token = "t";
  gboolean autostart = FALSE;
  GVariantBuilder results;

  g_variant_lookup (options, "handle_token", "&s", &token);
  g_variant_lookup (options, "autostart", "b", &autostart);
  g_strdelimit (escaped, ".", '_');
  handle = g_strdup_printf ("/org/freedesktop/portal/desktop/request/%s/%s", escaped, token);
  g_ptr_array_add (portal_requests, g_variant_ref (options));

  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(o)", handle));

  g_variant_builder_init (&results, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&results, "{sv}", "background", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&results, "{sv}", "autostart", g_variant_new_boolean (autostart));
  g_dbus_connection_emit_signal (connection, sender, handle, "org.freedesktop.portal.Request", "Response",
                                 g_variant_new ("(ua{sv})", 0, &results), NULL);
}

static gboolean
n_portal_requests_is (gpointer data)
{
  return portal_requests->len == GPOINTER_TO_UINT (data);
}

static void
check_portal_request (guint    index,
                      gboolean autostart)
{
  GVariant *options = g_ptr_array_index (portal_requests, index);
  g_autofree const char **commandline = NULL;
  gboolean recorded = !autostart;

  g_assert_true (g_variant_lookup (options, "autostart", "b", &recorded));
  g_assert_cmpint (recorded, ==, autostart);
  g_assert_true (g_variant_lookup (options, "commandline", "^a&s", &commandline));
  g_assert_cmpstrv (commandline, ((const char *[]) { "clarify", "--background", NULL }));
}

static void
test_start_at_login_portal (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autofree char *desktop = clarify_autostart_get_desktop_path ();
  ClarifyPreferencesWindow *window;
  guint owner_id;

  ensure_app ();
  portal_requests = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  owner_id = clarify_test_dbus_serve (bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                      portal_xml, portal_method_call, NULL);
  /* As in a Flatpak. */
  clarify_autostart_set_use_portal (app->autostart, TRUE);

  window = open_preferences ();
  click_row (window, "start_at_login_row");
  g_assert_true (clarify_test_wait_until (n_portal_requests_is, GUINT_TO_POINTER (1), WAIT_MS));
  check_portal_request (0, TRUE);

  /* Turned off: the portal is asked again, without autostart, which withdraws it. */
  click_row (window, "start_at_login_row");
  g_assert_true (clarify_test_wait_until (n_portal_requests_is, GUINT_TO_POINTER (2), WAIT_MS));
  check_portal_request (1, FALSE);
  /* No file beside the portal. */
  g_assert_false (g_file_test (desktop, G_FILE_TEST_EXISTS));

  clarify_autostart_set_use_portal (app->autostart, FALSE);
  g_bus_unown_name (owner_id);
  g_clear_pointer (&portal_requests, g_ptr_array_unref);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_de (void)
{
  g_autoptr(GSocketListener) holder = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  ClarifyPreferencesWindow *window;
  GtkWidget *error_label;
  guint busy_port = clarify_test_free_port ();
  guint16 serving;

  ensure_app ();
  clarify_test_set_language ("de");
  window = open_preferences ();
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Einstellungen");
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (find (window, "start_at_login_row"))),
                   ==, "Beim _Anmelden starten");
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (find (window, "mcp_row"))),
                   ==, "MCP-Endpunkt _anbieten");
  g_free (clarify_test_save_screenshot (GTK_WIDGET (window), "preferences-de"));

  g_assert_true (g_socket_listener_add_inet_port (holder, busy_port, NULL, &error));
  g_assert_no_error (error);
  text = g_strdup_printf ("%u", busy_port);
  apply_port (window, text);
  error_label = find (window, "port_error_label");
  g_assert_true (gtk_widget_get_visible (error_label));
  g_settings_get (clarify_application_get_settings (app), "mcp-port", "q", &serving);
  expected = g_strdup_printf ("Port %u kann nicht verwendet werden: ", busy_port);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (error_label)), expected));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("Der Endpunkt bleibt auf Port %u.", serving);
  g_assert_true (g_str_has_suffix (gtk_label_get_text (GTK_LABEL (error_label)), expected));
  clarify_test_spin (100);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (window), "preferences-port-taken-de"));

  g_socket_listener_close (holder);
  gtk_window_destroy (GTK_WINDOW (window));
  clarify_test_set_language ("en");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *mcp_ini = NULL;
  g_autofree char *home = NULL;
  g_autofree char *clarify_ini = NULL;
  int status;

  configured_mcp_port = clarify_test_free_port ();
  mcp_ini = g_strdup_printf ("[mcp]\nport=%u\n", configured_mcp_port);
  home = clarify_test_private_config_home (mcp_ini);
  /* A choice made before there were preferences: kept, and not asked again. */
  clarify_ini = g_build_filename (home, "clarify", "clarify.ini", NULL);
  g_assert_true (g_file_set_contents (clarify_ini, "[autostart]\nenabled=false\n", -1, NULL));

  clarify_test_log_init ();
  clarify_test_dbus_private_session ();
  clarify_test_gtk_init (&argc, &argv);
  clarify_test_notifications_start (NULL);

  g_test_add_func ("/preferences/window-en", test_window_en);
  g_test_add_func ("/preferences/countdown-and-notifications", test_countdown_and_notifications);
  g_test_add_func ("/preferences/sound", test_sound);
  g_test_add_func ("/preferences/mcp-endpoint", test_mcp_endpoint);
  g_test_add_func ("/preferences/mcp-port-after-failure", test_mcp_port_after_failure);
  g_test_add_func ("/preferences/mcp-port-refused-once", test_mcp_port_refused_once);
  g_test_add_func ("/preferences/start-at-login-file", test_start_at_login_file);
  g_test_add_func ("/preferences/start-at-login-portal", test_start_at_login_portal);
  g_test_add_func ("/preferences/window-de", test_window_de);

  status = g_test_run ();
  clarify_test_remove_tree (home);

  return status;
}
