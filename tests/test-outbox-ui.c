/* test-outbox-ui.c: the window lists answers that wait for their agent
 *
 * An answer kept on disk before a restart is sent again when its
 * connection comes back; while the agent cannot be reached, its row in the
 * window's list says it waits to be delivered, in English and German.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "clarify-backend-registry.h"
#include "clarify-inbox.h"
#include "clarify-json.h"
#include "clarify-request-row.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-server.h"

/* Nothing listens there: every post fails as network trouble. */
#define UNREACHABLE "http://127.0.0.1:1/agent/events"
#define REQUEST_R1  "{\"id\":\"r1\",\"title\":\"Deploy to production?\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which branch?\"}]}"

static ClarifyBackend *
make_backend (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("work", "clarify", UNREACHABLE);
  g_autoptr(GError) error = NULL;
  ClarifyBackend *backend = clarify_backend_registry_create (connection, &error);

  g_assert_no_error (error);
  return backend;
}

static void
show_row (ClarifyRequest *request,
          const char     *language,
          const char     *expected)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *row = clarify_request_row_new (request);
  g_autofree char *name = g_strdup_printf ("outbox-waiting-%s", language);
  g_autofree char *shot = NULL;

  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_set_margin_top (list, 12);
  gtk_widget_set_margin_bottom (list, 12);
  gtk_widget_set_margin_start (list, 12);
  gtk_widget_set_margin_end (list, 12);
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  gtk_window_set_child (GTK_WINDOW (window), list);
  gtk_window_set_default_size (GTK_WINDOW (window), 480, -1);
  clarify_test_present_and_wait (GTK_WINDOW (window));

  g_assert_cmpstr (clarify_request_row_get_delivery (CLARIFY_REQUEST_ROW (row)), ==, expected);
  g_assert_nonnull (gtk_widget_get_tooltip_text (row));
  shot = clarify_test_save_screenshot (window, name);
  g_assert_nonnull (shot);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_replayed_row (void)
{
  g_autofree char *dir = g_dir_make_tmp ("clarify-outbox-XXXXXX", NULL);
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);
  g_autoptr(ClarifyInbox) inbox = clarify_inbox_new ();
  g_autoptr(ClarifyBackend) backend = make_backend ();
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyOutbox *outbox = clarify_inbox_get_outbox (inbox);

  clarify_test_outbox_keep_answer (dir, UNREACHABLE, REQUEST_R1);
  clarify_outbox_set_store (outbox, store);
  clarify_outbox_set_backoff (outbox, 60000, 60000);

  /* Clarify starts again; the agent is still away. */
  clarify_inbox_add_backend (inbox, backend);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (inbox)), ==, 1);
  request = g_list_model_get_item (G_LIST_MODEL (inbox), 0);
  g_assert_cmpstr (clarify_request_get_id (request), ==, "r1");
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_SENDING);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_WAITING_FOR_AGENT);

  show_row (request, "en", "Waiting to be delivered");
  clarify_test_set_language ("de");
  show_row (request, "de", "Wartet auf Zustellung");
  clarify_test_set_language ("en");

  /* Quitting keeps it for the next start. */
  g_clear_object (&inbox);
  g_assert_cmpuint (clarify_test_outbox_count (dir, ".json"), ==, 1);
  clarify_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/outbox-ui/replayed-row", test_replayed_row);

  return g_test_run ();
}
