/* test-tray-no-host.c: a desktop without a tray
 *
 * Plain GNOME without the AppIndicator extension has no
 * org.kde.StatusNotifierWatcher: the application on this test's session bus
 * finds none. It says so once in its log, however many questions come, and
 * still tells the user of each one: a notification (a fake
 * org.gtk.Notifications records it) and the question's dialog on screen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "clarify-test-app.h"
#include "clarify-test-backend.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"

#include "clarify-application-private.h"

#define WAIT_MS      15000
#define WATCHER_NAME "org.kde.StatusNotifierWatcher"
#define NO_TRAY_LINE "MESSAGE: No tray on this desktop (no org.kde.StatusNotifierWatcher): " \
                     "questions come as notifications and in the window"

static ClarifyApplication *app;

static ClarifyRequest *
new_request (const char *id,
             const char *text)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, text);

  clarify_request_add_question (request, question);

  return request;
}

static gboolean
dialog_is_mapped (gpointer data)
{
  ClarifyRequestDialog *dialog = clarify_test_find_request_dialog (GTK_APPLICATION (app), data);

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static void
watcher_vanished_cb (GDBusConnection *connection,
                     const char      *name,
                     gpointer         user_data)
{
  *(gboolean *) user_data = TRUE;
}

static guint
count_lines (char       **lines,
             const char  *line)
{
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += g_str_equal (lines[i], line);

  return n;
}

static void
test_no_host (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) owned = NULL;
  gboolean has_owner = TRUE;
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) first = new_request ("first", "Which branch?");
  g_autoptr(ClarifyRequest) second = new_request ("second", "Which tag?");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) log = NULL;
  g_autofree char *screenshot = NULL;
  gboolean vanished = FALSE;
  guint watch_id;

  /* Nothing on this bus hosts a tray. */
  owned = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "NameHasOwner", g_variant_new ("(s)", WATCHER_NAME), G_VARIANT_TYPE ("(b)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (owned, "(b)", &has_owner);
  g_assert_false (has_owner);

  clarify_test_log_start ();
  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  /* The tray asked for the watcher on the application's connection first:
   * once this watch there hears "no owner", the tray has heard it too. */
  watch_id = g_bus_watch_name_on_connection (g_application_get_dbus_connection (G_APPLICATION (app)), WATCHER_NAME,
                                             G_BUS_NAME_WATCHER_FLAGS_NONE, NULL, watcher_vanished_cb, &vanished,
                                             NULL);
  g_assert_true (clarify_test_wait_until (clarify_test_dbus_is_true, &vanished, WAIT_MS));
  g_bus_unwatch_name (watch_id);

  /* Each question: a notification, and its dialog. */
  clarify_application_add_backend (app, backend);
  g_assert_true (clarify_backend_add_request (backend, first));
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, "Tests\x1f" "first", WAIT_MS));
  g_assert_true (clarify_test_wait_until (dialog_is_mapped, "first", WAIT_MS));
  screenshot = clarify_test_save_screenshot (GTK_WIDGET (clarify_test_find_request_dialog (GTK_APPLICATION (app),
                                                                                           "first")),
                                             "tray-no-host-question");

  /* The user works elsewhere: no Clarify window has the focus, where a
   * question waiting behind a dialog gets no notification. */
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, second));
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, "Tests\x1f" "second", WAIT_MS));

  /* The window, opened as from the launcher, says nothing more either. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "show-window", NULL);
  g_assert_true (clarify_test_wait_until (clarify_test_main_window_is_shown, app, WAIT_MS));

  log = clarify_test_log_stop ();
  g_assert_cmpuint (count_lines (log, NO_TRAY_LINE), ==, 1);

  clarify_backend_withdraw_request (backend, "first", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  clarify_backend_withdraw_request (backend, "second", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  clarify_application_remove_backend (app, backend);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  int status;

  /* Not the user's connections, no MCP endpoint: this test is about the tray. */
  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);
  clarify_test_notifications_start (NULL);

  g_test_add_func ("/tray-no-host/notification-and-dialog", test_no_host);

  status = g_test_run ();

  clarify_test_remove_tree (home);
  return status;
}
