/* test-ag3ntum-ui.c: an Ag3ntum question answered through the real dialog's
 * widgets, in English and German, checking the exact body Clarify posts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "clarify-ag3ntum-backend.h"
#include "clarify-secret.h"

#include "clarify-test-answer.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define NOTES "protocols/ag3ntum-and-phoenix/"
#define SESSION "/api/v1/sessions/20260103_210631_ecc41d66"
#define WAIT_MS 10000

typedef struct
{
  ClarifyTestServer    *server;
  ClarifyConnection    *connection;
  ClarifyBackend       *backend;
  ClarifyTestWatch      watch;
  ClarifyRequestDialog *dialog;   /* weak */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *login = clarify_test_load_fixture (NOTES "a1-login-reply.json");
  g_autofree char *session = clarify_test_load_fixture (NOTES "a4-session.json");
  g_autofree char *sessions = g_strdup_printf ("{\"sessions\": [%s], \"total\": 1}", g_strchomp (session));
  g_autofree char *pending = clarify_test_load_fixture (NOTES "a4-pending-question.json");
  g_autofree char *answered = clarify_test_load_fixture (NOTES "a4-answer-reply.json");
  g_autofree char *resumed = clarify_test_load_fixture (NOTES "a4-task-reply.json");
  g_autofree char *url = NULL;
  g_autoptr(GError) error = NULL;

  clarify_test_set_language (data);
  fixture->server = clarify_test_server_new ();
  clarify_test_server_add_json (fixture->server, "POST", "/api/v1/auth/login", 200, "application/json", login);
  clarify_test_server_add_sse (fixture->server, "/api/v1/auth/me/events");
  clarify_test_server_add_sse (fixture->server, SESSION "/events");
  clarify_test_server_add_json (fixture->server, "GET", "/api/v1/sessions", 200, "application/json", sessions);
  clarify_test_server_add_json (fixture->server, "GET", SESSION "/events/history", 200, "application/json", "[]");
  clarify_test_server_add_json (fixture->server, "GET", SESSION "/pending-question", 200, "application/json", pending);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/answer", 200, "application/json", answered);
  clarify_test_server_add_json (fixture->server, "POST", SESSION "/task", 200, "application/json", resumed);

  url = clarify_test_server_get_url (fixture->server, "");
  fixture->connection = clarify_connection_new ("ag", "ag3ntum", url);
  clarify_connection_set_option (fixture->connection, "email", "admin@example.com");
  g_assert_true (clarify_secret_store ("connection:ag", "test", "s3cret", &error));
  fixture->backend = clarify_ag3ntum_backend_new (fixture->connection);
  clarify_test_watch_init (&fixture->watch, fixture->backend);
  clarify_backend_start (fixture->backend);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (fixture->dialog));
  g_clear_weak_pointer (&fixture->dialog);
  clarify_test_watch_clear (&fixture->watch);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->connection);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
  g_assert_true (clarify_secret_clear ("connection:ag", NULL));
  clarify_test_set_language ("en");
}

static void
screenshot (ClarifyRequestDialog *dialog,
            const char           *name,
            const char           *language)
{
  g_autofree char *full = g_strdup_printf ("%s-%s", name, language);
  g_autofree char *path = clarify_test_save_screenshot (GTK_WIDGET (dialog), full);

  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* Pending when Clarify connects: shown, answered as in the notes' example. */
static void
test_answer (Fixture       *fixture,
             gconstpointer  data)
{
  const char *language = data;
  g_autoptr(ClarifyTestRequest) answer = NULL;
  g_autoptr(ClarifyTestRequest) task = NULL;
  ClarifyRequest *request;
  ClarifyRequestDialog *dialog;

  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_assert_nonnull (strstr (clarify_request_get_context (request),
                            g_str_equal (language, "de") ? "nicht ablehnen" : "cannot decline"));

  dialog = clarify_test_answer_dialog_new (fixture->backend, request);
  g_set_weak_pointer (&fixture->dialog, dialog);
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  /* No Cancel: Ag3ntum cannot decline. */
  g_assert_false (gtk_widget_get_visible (clarify_test_answer_find_by_id (dialog, "cancel_button")));
  screenshot (dialog, "ag3ntum-first", language);

  clarify_test_answer_click_choice (dialog, 0, "Python");
  clarify_test_answer_click_choice (dialog, 0, "Go");
  clarify_test_answer_next_page (dialog);
  clarify_test_answer_click_choice (dialog, 1, "Beginner");
  clarify_test_answer_next_page (dialog);
  if (fixture->dialog != NULL)
    {
      clarify_test_answer_type_text (dialog, 2, "I mostly build CLIs");
      clarify_test_spin (300);
      screenshot (dialog, "ag3ntum-last", language);
      g_assert_true (clarify_request_dialog_is_submit_sensitive (dialog));
      clarify_test_answer_press (dialog, "submit_button");
    }

  answer = clarify_test_server_wait_for_request (fixture->server, "POST", SESSION "/answer", WAIT_MS);
  g_assert_nonnull (answer);
  g_assert_cmpstr (answer->body, ==,
                   "{\"question_id\":\"latest\",\"answer\":\"Python, Go\\nBeginner\\n\\nAdditional Comments: I mostly build CLIs\"}");
  task = clarify_test_server_wait_for_request (fixture->server, "POST", SESSION "/task", WAIT_MS);
  g_assert_nonnull (task);
  g_assert_cmpstr (task->body, ==,
                   "{\"task\":\"Continue with the user's answer.\",\"config\":{\"model\":\"claude-sonnet-4-5-20250929\"}}");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *config = g_dir_make_tmp ("clarify-ag3ntum-ui-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (config, "clarify", NULL);
  g_autofree char *secrets = g_build_filename (folder, "secrets", NULL);
  int status;

  /* The password goes to a secrets file of this test's own. */
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add ("/ag3ntum-ui/answer/en", Fixture, "en", fixture_set_up, test_answer, fixture_tear_down);
  g_test_add ("/ag3ntum-ui/answer/de", Fixture, "de", fixture_set_up, test_answer, fixture_tear_down);

  status = g_test_run ();
  g_remove (secrets);
  g_rmdir (folder);
  g_rmdir (config);

  return status;
}
