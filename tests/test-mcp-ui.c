/* test-mcp-ui.c: ask_user over loopback HTTP, answered through the real
 * dialog's widgets, checking the exact tool result JSON
 *
 * Each request gets a ClarifyRequestDialog whose ::response goes back
 * through clarify_backend_deliver_async(), as ClarifyApplication does
 * (clarify-test-answer.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "clarify-mcp-server.h"
#include "clarify-secret.h"
#include "clarify-test-answer.h"
#include "clarify-test-log.h"

#define WAIT_MS 10000

typedef struct
{
  ClarifyBackend       *backend;
  SoupSession          *session;
  char                 *url;
  char                 *token;
  ClarifyRequestDialog *dialog;   /* weak */
  gboolean              done;
  char                 *reply;
} Fixture;

static void
request_added_cb (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Fixture        *fixture)
{
  ClarifyRequestDialog *dialog = clarify_test_answer_dialog_new (backend, request);

  g_set_weak_pointer (&fixture->dialog, dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (0);

  fixture->backend = clarify_mcp_server_new (connection);
  g_signal_connect (fixture->backend, "request-added", G_CALLBACK (request_added_cb), fixture);
  clarify_backend_start (fixture->backend);
  g_assert_cmpuint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  fixture->url = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (fixture->backend));
  fixture->token = clarify_secret_lookup (CLARIFY_MCP_TOKEN_KEY, NULL);
  g_assert_nonnull (fixture->token);
  fixture->session = soup_session_new ();
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (fixture->dialog));
  g_clear_weak_pointer (&fixture->dialog);
  clarify_backend_stop (fixture->backend);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->session);
  g_clear_pointer (&fixture->url, g_free);
  g_clear_pointer (&fixture->token, g_free);
  g_clear_pointer (&fixture->reply, g_free);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Fixture *fixture = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
  fixture->reply = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  fixture->done = TRUE;
}

static gboolean
have_dialog (gpointer data)
{
  return ((Fixture *) data)->dialog != NULL;
}

static gboolean
is_done (gpointer data)
{
  return ((Fixture *) data)->done;
}

static gboolean
dialog_gone (gpointer data)
{
  return ((Fixture *) data)->dialog == NULL;
}

/* Calls ask_user with @arguments and waits for its dialog to show. */
static ClarifyRequestDialog *
call_ask_user (Fixture    *fixture,
               const char *arguments)
{
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", fixture->url);
  g_autofree char *authorization = g_strdup_printf ("Bearer %s", fixture->token);
  g_autofree char *body = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                                           "\"params\":{\"name\":\"ask_user\",\"arguments\":%s}}", arguments);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", authorization);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  soup_session_send_and_read_async (fixture->session, msg, G_PRIORITY_DEFAULT, NULL, send_cb, fixture);

  g_assert_true (clarify_test_wait_until (have_dialog, fixture, WAIT_MS));
  clarify_test_present_and_wait (GTK_WINDOW (fixture->dialog));

  return fixture->dialog;
}

/* The text of the tool result, once the HTTP reply came. */
static char *
result_text (Fixture  *fixture,
             gboolean *is_error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *result;
  JsonObject *item;

  g_assert_true (clarify_test_wait_until (is_done, fixture, WAIT_MS));
  node = json_from_string (fixture->reply, &error);
  g_assert_no_error (error);
  result = json_object_get_object_member (json_node_get_object (node), "result");
  g_assert_nonnull (result);
  *is_error = json_object_get_boolean_member_with_default (result, "isError", FALSE);
  item = json_array_get_object_element (json_object_get_array_member (result, "content"), 0);

  return g_strdup (json_object_get_string_member (item, "text"));
}

static void
expect_result (Fixture    *fixture,
               const char *expected)
{
  g_autofree char *text = NULL;
  gboolean is_error = TRUE;

  text = result_text (fixture, &is_error);
  g_assert_false (is_error);
  g_assert_cmpstr (text, ==, expected);
  g_assert_true (clarify_test_wait_until (dialog_gone, fixture, WAIT_MS));
}

static void
screenshot (ClarifyRequestDialog *dialog,
            const char           *name)
{
  g_autofree char *path = clarify_test_save_screenshot (GTK_WIDGET (dialog), name);

  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* ---------------------------------------------------------------------- */

static void
test_answered (Fixture       *fixture,
               gconstpointer  data)
{
  ClarifyRequestDialog *dialog =
    call_ask_user (fixture,
                   "{\"title\":\"Component Configuration\",\"questions\":["
                   "{\"id\":\"name\",\"question\":\"What should the component be called?\",\"placeholder\":\"e.g. UserCard\"},"
                   "{\"id\":\"style\",\"question\":\"Which styling approach?\",\"type\":\"select\","
                   "\"options\":[\"CSS Modules\",\"Tailwind\",\"Plain CSS\"]},"
                   "{\"id\":\"features\",\"question\":\"Which features should be included?\",\"type\":\"multi-select\","
                   "\"options\":[\"Loading state\",\"Error handling\",\"Animation\"]},"
                   "{\"id\":\"go\",\"question\":\"Create it now?\",\"type\":\"confirm\"}]}");

  screenshot (dialog, "mcp-ask-user-first");
  clarify_test_answer_type_text (dialog, 0, "UserProfileCard");
  clarify_test_answer_next_page (dialog);
  clarify_test_answer_click_choice (dialog, 1, "Tailwind");
  clarify_test_answer_next_page (dialog);
  clarify_test_answer_click_choice (dialog, 2, "Loading state");
  clarify_test_answer_click_choice (dialog, 2, "Animation");
  clarify_test_answer_next_page (dialog);
  clarify_test_answer_click_choice (dialog, 3, "Yes");
  clarify_test_spin (600);
  screenshot (dialog, "mcp-ask-user-last");

  /* Answering the last confirm may already submit. */
  if (fixture->dialog != NULL)
    {
      g_assert_true (clarify_request_dialog_is_submit_sensitive (dialog));
      clarify_test_answer_press (dialog, "submit_button");
    }

  expect_result (fixture,
                 "{\"answered\":true,\"cancelled\":false,\"timedOut\":false,\"answers\":["
                 "{\"questionId\":\"name\",\"values\":[\"UserProfileCard\"]},"
                 "{\"questionId\":\"style\",\"values\":[\"Tailwind\"]},"
                 "{\"questionId\":\"features\",\"values\":[\"Loading state\",\"Animation\"]},"
                 "{\"questionId\":\"go\",\"values\":[\"yes\"]}]}");
}

static void
test_cancelled (Fixture       *fixture,
                gconstpointer  data)
{
  ClarifyRequestDialog *dialog =
    call_ask_user (fixture, "{\"questions\":[{\"question\":\"Any additional requirements?\"}]}");

  clarify_test_answer_press (dialog, "cancel_button");
  expect_result (fixture, "{\"answered\":false,\"cancelled\":true,\"timedOut\":false,\"answers\":[]}");
}

static void
test_skipped_question (Fixture       *fixture,
                       gconstpointer  data)
{
  ClarifyRequestDialog *dialog =
    call_ask_user (fixture,
                   "{\"questions\":["
                   "{\"id\":\"db\",\"question\":\"Which database?\",\"type\":\"select\",\"options\":[\"PostgreSQL\",\"SQLite\"]},"
                   "{\"id\":\"notes\",\"question\":\"Anything else?\",\"required\":false}]}");
  GtkToggleButton *skip;

  /* Only the optional question can be skipped. */
  g_assert_null (clarify_request_dialog_get_skip_toggle (dialog, 0));
  clarify_test_answer_click_choice (dialog, 0, "SQLite");
  clarify_test_answer_next_page (dialog);
  skip = clarify_request_dialog_get_skip_toggle (dialog, 1);
  g_assert_nonnull (skip);
  gtk_toggle_button_set_active (skip, TRUE);
  /* Let the page transition finish before the picture. */
  clarify_test_spin (600);
  screenshot (dialog, "mcp-ask-user-skipped");
  clarify_test_answer_press (dialog, "submit_button");

  expect_result (fixture,
                 "{\"answered\":true,\"cancelled\":false,\"timedOut\":false,\"answers\":["
                 "{\"questionId\":\"db\",\"values\":[\"SQLite\"]},"
                 "{\"questionId\":\"notes\",\"values\":[],\"skipped\":true}]}");
}

static void
test_timed_out (Fixture       *fixture,
                gconstpointer  data)
{
  ClarifyRequestDialog *dialog =
    call_ask_user (fixture, "{\"questions\":[{\"question\":\"Please confirm soon\",\"type\":\"confirm\"}],\"timeout\":2000}");

  /* The countdown shows the caller's timeout; nobody answers. */
  g_assert_nonnull (clarify_request_dialog_get_countdown (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_countdown (dialog))));
  screenshot (dialog, "mcp-ask-user-countdown");

  expect_result (fixture, "{\"answered\":false,\"cancelled\":false,\"timedOut\":true,\"answers\":[]}");
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  /* Test-only: lets a 2 s ask_user timeout through. */
  g_setenv ("CLARIFY_MCP_TEST_MIN_TIMEOUT_MS", "1000", TRUE);

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/mcp-ui/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("answered", test_answered);
  ADD ("cancelled", test_cancelled);
  ADD ("skipped-question", test_skipped_question);
  ADD ("timed-out", test_timed_out);
#undef ADD

  return g_test_run ();
}
