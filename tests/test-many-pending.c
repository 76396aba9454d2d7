/* test-many-pending.c: 1,000 pending requests are data, not widgets
 *
 * Five connections fill the inbox to its caps (200 each, 1,000 in all):
 * one dialog is built, the one presented; the rest wait in line as data.
 * Closing a dialog destroys it, and the next in line gets one of its own.
 * The 1,001st request is refused and the user is told once, by a
 * notification while the window is closed and by a toast while it is open.
 * Runs the real application on a session bus of its own, with a fake
 * notification server.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "clarify-application-private.h"
#include "clarify-inbox-private.h"
#include "clarify-request-dialog.h"
#include "clarify-test-backend.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-window.h"
#include "clarify-window.h"

#define WAIT_MS          15000
#define N_CONNECTIONS    5
#define PER_CONNECTION   200
#define REFUSED_ID       "requests-refused"
#define REFUSED_TEXT     "1000 questions wait; new ones are turned away"
/* The window's list builds rows around what is in view, never all 1,000:
 * GTK 4.8's GtkListView keeps up to 200 rows alive around its anchor (its
 * GTK_LIST_VIEW_MAX_LIST_ITEMS), plus two on each side of what it tracks. */
#define MAX_ROWS         210
#define FAR_POSITION     700

static ClarifyApplication *app;

static guint
count_dialogs (void)
{
  guint n;

  clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_REQUEST_DIALOG, &n);
  return n;
}

#define find_dialog() \
  CLARIFY_REQUEST_DIALOG (clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_REQUEST_DIALOG, NULL))
#define find_main_window() \
  GTK_WINDOW (clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_WINDOW, NULL))

static ClarifyRequest *
new_request (const char *id)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question =
    clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, "Which branch should I merge into?");

  clarify_request_add_question (request, question);
  /* Esc closes the dialog and leaves the request pending. */
  clarify_request_set_cancellable (request, FALSE);

  return request;
}

static ClarifyRequestDialog *
find_dialog_of (ClarifyRequest *request)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (CLARIFY_IS_REQUEST_DIALOG (l->data) && clarify_request_dialog_get_request (l->data) == request)
      return l->data;

  return NULL;
}

/* The one dialog there is, on screen: the queue presents in turns of the
 * main loop. */
static gboolean
one_dialog_shown (gpointer data)
{
  ClarifyRequestDialog *dialog = find_dialog ();

  return count_dialogs () == 1 && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static gboolean
notified (gpointer data)
{
  return g_hash_table_contains (clarify_test_notifications_shown, data);
}

static gboolean
no_request_rows (gpointer data)
{
  return clarify_test_count_request_rows (GTK_WIDGET (find_main_window ())) == 0;
}

static gboolean
no_dialogs (gpointer data)
{
  return count_dialogs () == 0;
}

static gboolean
was_notified (const char *id)
{
  return clarify_test_notification_sent_by_now (G_APPLICATION (app), id);
}

/* Closes @dialog with Esc and waits until it is finalized, not just hidden. */
static void
close_dialog (ClarifyRequestDialog *dialog)
{
  ClarifyRequestDialog *weak = dialog;

  g_object_add_weak_pointer (G_OBJECT (weak), (gpointer *) &weak);
  g_assert_true (clarify_test_send_key (GTK_WIDGET (dialog), GDK_KEY_Escape, 0));
  g_assert_true (clarify_test_wait_until (is_null, &weak, WAIT_MS));
}

static void
test_data_not_widgets (void)
{
  ClarifyInbox *inbox = clarify_application_get_inbox (app);
  g_autoptr(GPtrArray) backends = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ClarifyRequest) extra = new_request ("one-too-many");
  g_autoptr(ClarifyRequest) more = new_request ("two-too-many");
  ClarifyRequest *first, *picked;
  ClarifyRequestDialog *dialog;
  const char *title = NULL;
  GVariant *notification;
  g_autofree char *picked_key = NULL;
  g_autoptr(ClarifyRequest) far = NULL;
  GtkWindow *window;
  GtkWidget *list;
  guint n_built, n_dialogs;

  for (guint c = 0; c < N_CONNECTIONS; c++)
    {
      g_autofree char *name = g_strdup_printf ("Flood %u", c);
      ClarifyBackend *backend = clarify_test_backend_new (name);

      clarify_application_add_backend (app, backend);
      g_ptr_array_add (backends, backend);
      for (guint i = 0; i < PER_CONNECTION; i++)
        {
          g_autofree char *id = g_strdup_printf ("r%u", i);
          g_autoptr(ClarifyRequest) request = new_request (id);

          g_assert_true (clarify_backend_add_request (backend, request));
        }
    }

  /* The first is presented; the other 999 are in line without a widget. */
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, N_CONNECTIONS * PER_CONNECTION);
  g_assert_true (clarify_test_wait_until (one_dialog_shown, NULL, WAIT_MS));
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, N_CONNECTIONS * PER_CONNECTION - 1);
  first = clarify_request_dialog_get_request (find_dialog ());
  g_assert_cmpstr (clarify_request_get_connection_name (first), ==, "Flood 0");
  g_assert_cmpstr (clarify_request_get_id (first), ==, "r0");

  /* Past the cap: refused, and the user is told once, not per request. */
  g_assert_false (clarify_backend_add_request (g_ptr_array_index (backends, 0), extra));
  g_assert_true (clarify_test_wait_until (notified, REFUSED_ID, WAIT_MS));
  notification = g_hash_table_lookup (clarify_test_notifications_shown, REFUSED_ID);
  g_assert_true (g_variant_lookup (notification, "title", "&s", &title));
  g_assert_cmpstr (title, ==, REFUSED_TEXT);
  g_hash_table_remove (clarify_test_notifications_shown, REFUSED_ID);
  g_assert_false (clarify_backend_add_request (g_ptr_array_index (backends, 4), more));
  g_assert_false (was_notified (REFUSED_ID));
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, N_CONNECTIONS * PER_CONNECTION);

  /* Closed, a dialog is destroyed; the request stays in the list, and the
   * next in line gets a dialog of its own. */
  dialog = find_dialog ();
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  close_dialog (dialog);
  g_assert_cmpint (clarify_request_get_state (first), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, N_CONNECTIONS * PER_CONNECTION);
  g_assert_true (clarify_test_wait_until (one_dialog_shown, NULL, WAIT_MS));
  g_assert_cmpstr (clarify_request_get_id (clarify_request_dialog_get_request (find_dialog ())), ==, "r1");
  g_assert_cmpuint (clarify_application_get_n_queued (app), ==, N_CONNECTIONS * PER_CONNECTION - 2);

  /* Opened from the list (or its notification), a request gets a dialog now. */
  picked = clarify_inbox_lookup (inbox, g_ptr_array_index (backends, 3), "r150");
  picked_key = clarify_inbox_dup_key (picked);
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-request", g_variant_new_string (picked_key));
  g_assert_cmpuint (count_dialogs (), ==, 2);
  clarify_test_present_and_wait (GTK_WINDOW (find_dialog_of (picked)));
  close_dialog (find_dialog_of (picked));
  g_assert_cmpint (clarify_request_get_state (picked), ==, CLARIFY_REQUEST_PENDING);
  /* Xvfb has no window manager to focus the other dialog: the queue may
   * show the next in line beside it, but never more than that. */
  g_assert_cmpuint (count_dialogs (), <=, 2);

  /* The window lists all 1,000, building rows only for those in view; a
   * row far down, scrolled to and activated, opens its own request. */
  g_application_activate (G_APPLICATION (app));
  window = find_main_window ();
  n_built = clarify_request_row_get_n_built ();
  clarify_test_present_and_wait (window);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_cmpuint (clarify_test_count_request_rows (GTK_WIDGET (window)), >, 0);
  g_assert_cmpuint (clarify_test_count_request_rows (GTK_WIDGET (window)), <, MAX_ROWS);
  g_assert_cmpuint (clarify_request_row_get_n_built () - n_built, <, MAX_ROWS);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (window), "many-pending-list-en"));

  list = clarify_test_find_widget (GTK_WIDGET (window), "requests_list");
  far = g_list_model_get_item (G_LIST_MODEL (inbox), FAR_POSITION);
  g_assert_null (clarify_test_find_request_row_full (GTK_WIDGET (window), far, NULL));
  g_assert_true (gtk_widget_activate_action (list, "list.scroll-to-item", "u", FAR_POSITION));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_nonnull (clarify_test_find_request_row_full (GTK_WIDGET (window), far, NULL));
  g_assert_cmpuint (clarify_test_count_request_rows (GTK_WIDGET (window)), <, MAX_ROWS);
  g_assert_cmpuint (clarify_request_row_get_n_built () - n_built, <, MAX_ROWS);

  n_dialogs = count_dialogs ();
  g_assert_null (find_dialog_of (far));
  g_assert_true (gtk_widget_activate_action (list, "list.activate-item", "u", FAR_POSITION));
  g_assert_nonnull (find_dialog_of (far));
  g_assert_cmpuint (count_dialogs (), ==, n_dialogs + 1);
  clarify_test_present_and_wait (GTK_WINDOW (find_dialog_of (far)));
  close_dialog (find_dialog_of (far));
  gtk_window_close (window);

  /* The user works the list down to half: the episode is over. With the
   * window open, the next overflow is a toast. */
  for (guint c = 0; c < N_CONNECTIONS; c++)
    for (guint i = 0; i < PER_CONNECTION / 2 + 1; i++)
      {
        g_autofree char *id = g_strdup_printf ("r%u", PER_CONNECTION - 1 - i);

        clarify_backend_withdraw_request (g_ptr_array_index (backends, c), id,
                                          CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
      }
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), <=, N_CONNECTIONS * PER_CONNECTION / 2);
  g_application_activate (G_APPLICATION (app));
  clarify_test_present_and_wait (find_main_window ());
  clarify_inbox_set_limits (inbox, PER_CONNECTION, clarify_inbox_get_n_pending (inbox));
  g_assert_false (clarify_backend_add_request (g_ptr_array_index (backends, 1), extra));
  g_assert_false (was_notified (REFUSED_ID));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (find_main_window ()));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (find_main_window ()), "many-pending-refused-en"));

  for (guint c = 0; c < N_CONNECTIONS; c++)
    clarify_application_remove_backend (app, g_ptr_array_index (backends, c));
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 0);
  g_assert_true (clarify_test_wait_until (no_dialogs, NULL, WAIT_MS));

  /* None left: the list's card says so. */
  g_assert_true (clarify_test_wait_until (no_request_rows, NULL, WAIT_MS));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (find_main_window ()));
  g_assert_nonnull (clarify_test_find_label (GTK_WIDGET (find_main_window ()), "No questions right now"));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (find_main_window ()), "many-pending-none-en"));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);
  clarify_test_notifications_start (NULL);

  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/many-pending/data-not-widgets", test_data_not_widgets);

  status = g_test_run ();
  g_clear_object (&app);
  clarify_test_remove_tree (home);

  return status;
}
