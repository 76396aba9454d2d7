/* test-opencode-real.c: Clarify against the real `opencode serve`
 *
 * Installs opencode-ai (pinned) from npm into the build dir, runs it offline
 * in an isolated HOME with a fake OpenAI-compatible model (the harness in
 * clarify-test-opencode-real.c), lets that model call `question` and then
 * `bash` (which needs permission), and
 * answers both dialogs through their widgets. Asserted: OpenCode's own
 * events and what the model got back as tool results.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-opencode-events.h"
#include "clarify-choice-input.h"
#include "clarify-outbox.h"
#include "clarify-permission-input.h"
#include "clarify-request-dialog-private.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-opencode-backend.h"

#include "clarify-test-log.h"
#include "clarify-test-opencode.h"
#include "clarify-test-opencode-real.h"

#define SLOW_MS CLARIFY_TEST_OPENCODE_SLOW_MS

#define QUESTION_ARGS                                                                                          \
  "{\"questions\":["                                                                                           \
  "{\"question\":\"Which database should I use for the new service?\",\"header\":\"Database\","                \
  "\"options\":[{\"label\":\"PostgreSQL\",\"description\":\"Relational, robust, default choice\"},"             \
  "{\"label\":\"SQLite\",\"description\":\"Embedded, zero-config\"}],\"multiple\":false},"                      \
  "{\"question\":\"Which extras do you want?\",\"header\":\"Extras\","                                         \
  "\"options\":[{\"label\":\"Docker\",\"description\":\"Add a Dockerfile\"},"                                   \
  "{\"label\":\"CI\",\"description\":\"Add a CI workflow\"}],\"multiple\":true}]}"
#define BASH_ARGS "{\"command\":\"echo hello-from-clarify\",\"description\":\"Print a greeting\"}"

/* The model asks, then runs bash (which needs permission). */
static const ClarifyTestToolCall script[] = {
  { "call_question1", "question", QUESTION_ARGS },
  { "call_bash1", "bash", BASH_ARGS },
};

/* Through the widgets -------------------------------------------------------- */

/* The toggle button (a chip) whose label reads @label. */
static GtkWidget *
find_chip (GtkWidget  *root,
           const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && gtk_widget_get_visible (child) &&
          g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), label) == 0)
        {
          GtkWidget *button = gtk_widget_get_ancestor (child, GTK_TYPE_TOGGLE_BUTTON);

          if (button != NULL)
            return button;
        }
      if ((found = find_chip (child, label)) != NULL)
        return found;
    }
  return NULL;
}

static gboolean
toggle_is_active (gpointer data)
{
  return gtk_toggle_button_get_active (data);
}

static void
click (GtkWidget *root,
       const char *chip_label)
{
  GtkWidget *chip = find_chip (root, chip_label);

  g_assert_nonnull (chip);
  /* Keyboard activation: GtkButton shows the press for a moment, then clicks. */
  gtk_widget_activate (chip);
  g_assert_true (clarify_test_wait_until (toggle_is_active, chip, 5000));
}

static void
press_button (GtkWidget  *root,
              const char *label)
{
  GtkWidget *button = clarify_test_find_button (root, label);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  gtk_widget_activate (button);
  clarify_test_spin (400);
}

static void
on_dialog_response (ClarifyRequestDialog *dialog,
                    ClarifyResponse      *response,
                    gpointer              user_data)
{
  ClarifyOutbox *outbox = g_object_get_data (G_OBJECT (dialog), "outbox");
  ClarifyBackend *backend = g_object_get_data (G_OBJECT (dialog), "backend");

  /* As the application does: through the outbox, which retries. */
  clarify_outbox_post (outbox, backend, clarify_request_dialog_get_request (dialog), response);
}

static ClarifyRequestDialog *
open_dialog (ClarifyRequest *request,
             ClarifyOutbox  *outbox,
             ClarifyBackend *backend,
             const char     *screenshot)
{
  ClarifyRequestDialog *dialog = clarify_request_dialog_new (NULL, request);
  g_autofree char *path = NULL;

  g_object_set_data (G_OBJECT (dialog), "outbox", outbox);
  g_object_set_data (G_OBJECT (dialog), "backend", backend);
  if (outbox != NULL)
    g_signal_connect (dialog, "response", G_CALLBACK (on_dialog_response), NULL);
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  path = clarify_test_save_screenshot (GTK_WIDGET (dialog), screenshot);
  g_test_message ("screenshot: %s", path);

  return dialog;
}

static gboolean
has_session_title (gpointer data)
{
  return clarify_request_get_session_title (data) != NULL;
}

/* Shows @request's German dialog only for the screenshot; no answer. */
static void
screenshot_german (ClarifyRequest *request,
                   const char     *name)
{
  ClarifyRequestDialog *dialog;

  clarify_test_set_language ("de");
  dialog = open_dialog (request, NULL, NULL, name);
  gtk_window_destroy (GTK_WINDOW (dialog));
  clarify_test_set_language ("en");
}

static gboolean
resynced (gpointer data)
{
  return ((ClarifyTestWatch *) data)->resynced > 0;
}

static void
test_real_server (void)
{
  g_autofree char *answers = NULL;
  g_autofree char *session_id = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyOutbox) outbox = NULL;
  g_autoptr(JsonNode) permissions = NULL;
  g_autoptr(ClarifyRequest) german = NULL;
  ClarifyTestWatch watch = { 0 };
  ClarifyTestOpencode server;
  ClarifyTestFakeModel *fake;
  ClarifyRequestDialog *dialog;
  ClarifyRequest *request;
  JsonObject *replied;
  const char *project;
  ClarifyPermissionInput *permission;
  GtkWidget *entry;

  /* OpenCode and its own view of what happens (the recorder). */
  if (!clarify_test_opencode_start (&server, script, G_N_ELEMENTS (script), NULL))
    return;
  fake = server.model;
  project = server.project;

  connection = clarify_connection_new ("real", "opencode", server.base_url);
  backend = clarify_opencode_backend_new (connection);
  outbox = clarify_outbox_new ();
  clarify_test_watch_init (&watch, backend);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_wait_until (resynced, &watch, SLOW_MS));

  /* A session whose bash calls need permission, and a prompt. */
  session_id = clarify_test_opencode_create_session (&server,
                                                     "{\"title\":\"clarify\",\"permission\":[{\"permission\":\"bash\","
                                                     "\"pattern\":\"*\",\"action\":\"ask\"}]}");
  clarify_test_opencode_prompt (&server, session_id, "Ask me two questions, then RUNBASH");

  /* The question: pick a label, tick another, type a custom one. */
  request = clarify_test_watch_wait_request_for (&watch, 1, SLOW_MS);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "question");
  g_assert_cmpstr (clarify_request_get_project (request), ==, project);
  /* The session's title, as OpenCode's UI shows it, from GET /session/{id}. */
  g_assert_true (clarify_test_wait_until (has_session_title, request, SLOW_MS));
  g_assert_cmpstr (clarify_request_get_session_title (request), ==, "clarify");
  screenshot_german (request, "opencode-question-de");
  dialog = open_dialog (request, outbox, backend, "opencode-question-en");

  click (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 0)), "SQLite");
  if (clarify_request_dialog_get_paged (dialog))
    press_button (GTK_WIDGET (dialog), "Next");
  click (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 1)), "Docker");
  click (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 1)), "Other…");
  entry = clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (clarify_request_dialog_get_input (dialog, 1)));
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_get_visible (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), "Kubernetes manifests");
  clarify_test_spin (50);
  press_button (GTK_WIDGET (dialog), "Submit");

  replied = clarify_test_opencode_wait_for_event (&server, "question.replied");
  g_assert_cmpstr (json_object_get_string_member (replied, "requestID"), ==, clarify_request_get_id (request));
  answers = clarify_test_to_json (json_object_get_member (replied, "answers"));
  g_assert_cmpstr (answers, ==, "[[\"SQLite\"],[\"Docker\",\"Kubernetes manifests\"]]");

  clarify_test_fake_model_wait_for_tool_results (fake, 1);
  g_assert_nonnull (strstr (fake->tool_results->pdata[0],
                            "\"Which database should I use for the new service?\"=\"SQLite\""));
  g_assert_nonnull (strstr (fake->tool_results->pdata[0],
                            "\"Which extras do you want?\"=\"Docker, Kubernetes manifests\""));

  /* The permission for bash: Allow once, no message. */
  request = clarify_test_watch_wait_request_for (&watch, 2, SLOW_MS);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "permission");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Allow “bash”?");
  g_assert_nonnull (strstr (clarify_question_get_subject (clarify_request_get_question (request, 0)),
                            "echo hello-from-clarify"));
  /* Said once, in the subject: not again in the context. */
  g_assert_true (clarify_request_get_context (request) == NULL ||
                 strstr (clarify_request_get_context (request), "echo hello-from-clarify") == NULL);

  /* German from the start: decode the server's own listing under LANGUAGE=de. */
  clarify_test_set_language ("de");
  permissions = clarify_test_opencode_request (&server, SOUP_METHOD_GET, "/permission", NULL, 200);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (permissions));
  german = clarify_opencode_permission_new (json_array_get_object_element (json_node_get_array (permissions), 0),
                                            FALSE, project, NULL, NULL);
  g_assert_nonnull (german);
  clarify_request_set_connection (german, "real", "opencode");
  screenshot_german (german, "opencode-permission-de");

  /* The command whole; Allow Once has the focus, and Enter answers. */
  dialog = open_dialog (request, outbox, backend, "opencode-permission-en");
  permission = CLARIFY_PERMISSION_INPUT (clarify_request_dialog_get_input (dialog, 0));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (clarify_permission_input_get_subject_label (permission))), ==,
                   "echo hello-from-clarify");
  g_assert_true (gtk_root_get_focus (GTK_ROOT (dialog)) == clarify_permission_input_get_default_button (permission));
  g_assert_true (clarify_test_send_key (GTK_WIDGET (dialog), GDK_KEY_Return, 0));

  replied = clarify_test_opencode_wait_for_event (&server, "permission.replied");
  g_assert_cmpstr (json_object_get_string_member (replied, "requestID"), ==, clarify_request_get_id (request));
  g_assert_cmpstr (json_object_get_string_member (replied, "reply"), ==, "once");

  clarify_test_fake_model_wait_for_tool_results (fake, 2);
  g_assert_nonnull (strstr (fake->tool_results->pdata[1], "hello-from-clarify"));
  g_assert_cmpuint (watch.added->len, ==, 2);

  clarify_test_watch_clear (&watch);
  clarify_test_opencode_stop (&server);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/opencode-real/question-and-permission", test_real_server);

  return g_test_run ();
}
