/* test-phoenix-ui.c: a Phoenix IDE question answered through the real
 * dialog's widgets, in English and German, checking the exact body posted
 * to /respond
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-choice-input.h"
#include "clarify-phoenix-backend.h"
#include "clarify-question-page.h"
#include "clarify-test-answer.h"
#include "clarify-test-log.h"
#include "clarify-test-phoenix.h"

#define OUR(s) g_dgettext (GETTEXT_PACKAGE, s)

/* The web client's body with a note on the first question, as the notes'
 * own example (B4) has it: notes before the preview. */
#define NOTE_BODY \
  "{\"answers\":{\"Which date library should I use?\":\"date-fns\",\"Which features should the CLI support?\":\"Export to CSV, Reminders, iCal import\"}," \
  "\"annotations\":{\"Which date library should I use?\":{\"notes\":\"only for parsing, not formatting\"," \
  "\"preview\":\"import { parseISO } from 'date-fns';\\nparseISO('2026-05-06');\"}}}"

typedef struct
{
  const char *language;
  /* Typed into the first question's "Add a note…", or NULL. */
  const char *note;
  const char *body;
} Case;

typedef struct
{
  ClarifyRequestDialog *dialog;  /* weak */
} Shown;

static void
request_added_cb (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Shown          *shown)
{
  ClarifyRequestDialog *dialog = clarify_test_answer_dialog_new (backend, request);

  g_set_weak_pointer (&shown->dialog, dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
have_dialog (gpointer data)
{
  return ((Shown *) data)->dialog != NULL;
}

static gboolean
dialog_gone (gpointer data)
{
  return ((Shown *) data)->dialog == NULL;
}

static void
screenshot (ClarifyRequestDialog *dialog,
            const char           *name,
            const char           *language)
{
  g_autofree char *full = g_strdup_printf ("phoenix-%s-%s", name, language);
  g_autofree char *path = clarify_test_save_screenshot (GTK_WIDGET (dialog), full);

  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* init while pending → the dialog; date-fns; Export to CSV, Reminders and
 * Other "iCal import" → the web client's body, preview annotation included,
 * and a note when the case types one. */
static void
test_answer (gconstpointer data)
{
  const Case *test_case = data;
  const char *language = test_case->language;
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(Recording) recording = recording_load ("sse_init_while_pending.raw");
  g_autoptr(GBytes) head = recording_cut (recording, TRUE, 0, 0);
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyTestRequest) post = NULL;
  g_autofree char *url = clarify_test_server_get_url (server, "/");
  Shown shown = { NULL };
  ClarifyRequestDialog *dialog;
  ClarifyInput *features;
  GtkWidget *entry;

  clarify_test_set_language (language);
  clarify_test_server_set_json (server, "GET", "/api/conversations", 200, "application/json",
                                LISTING (CONV, "{\"type\":\"awaiting_user_response\"}", "awaiting_approval"));
  clarify_test_server_add_raw (server, "/api/conversations/" CONV "/stream",
                               g_bytes_get_data (head, NULL), g_bytes_get_size (head));
  clarify_test_server_add_json (server, "POST", "/api/conversations/" CONV "/respond", 200, "application/json", SUCCESS);

  connection = clarify_connection_new ("ide", "phoenix", url);
  backend = clarify_phoenix_backend_new (connection);
  g_signal_connect (backend, "request-added", G_CALLBACK (request_added_cb), &shown);
  clarify_backend_start (backend);

  g_assert_true (clarify_test_wait_until (have_dialog, &shown, WAIT_MS));
  dialog = shown.dialog;
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  screenshot (dialog, "first", language);

  clarify_test_answer_click_choice (dialog, 0, "date-fns");
  if (test_case->note != NULL)
    {
      GtkWidget *page = gtk_widget_get_ancestor (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 0)),
                                                 CLARIFY_TYPE_QUESTION_PAGE);
      GtkExpander *expander = clarify_question_page_get_note_expander (CLARIFY_QUESTION_PAGE (page));

      g_assert_nonnull (expander);
      g_assert_true (gtk_widget_activate (GTK_WIDGET (expander)));
      gtk_editable_set_text (GTK_EDITABLE (clarify_question_page_get_note_entry (CLARIFY_QUESTION_PAGE (page))),
                             test_case->note);
      clarify_test_spin (300);
      screenshot (dialog, "note", language);
    }
  clarify_test_answer_next_page (dialog);
  clarify_test_answer_click_choice (dialog, 1, "Export to CSV");
  clarify_test_answer_click_choice (dialog, 1, "Reminders");
  clarify_test_answer_click_choice (dialog, 1, OUR ("Other…"));
  features = clarify_request_dialog_get_input (dialog, 1);
  entry = clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (features));
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), " iCal import");
  clarify_test_spin (600);
  screenshot (dialog, "last", language);

  g_assert_true (clarify_request_dialog_is_submit_sensitive (dialog));
  clarify_test_answer_press (dialog, "submit_button");

  post = clarify_test_server_wait_for_request (server, "POST", "/api/conversations/" CONV "/respond", WAIT_MS);
  g_assert_nonnull (post);
  g_assert_cmpstr (post->body, ==, test_case->body);
  g_assert_cmpstr (clarify_test_request_get_header (post, "Content-Type"), ==, "application/json");
  g_assert_true (clarify_test_wait_until (dialog_gone, &shown, WAIT_MS));
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", "/api/conversations/" CONV "/respond"), ==, 1);

  clarify_backend_stop (backend);
  g_signal_handlers_disconnect_by_data (backend, &shown);
}

static const Case answer_en = { "en", NULL, ANSWER_BODY };
static const Case answer_de = { "de", NULL, ANSWER_BODY };
/* Typed with spaces and a newline around it: sent trimmed. */
static const Case note_en = { "en", "only for parsing, not formatting", NOTE_BODY };
static const Case note_de = { "de", " only for parsing, not formatting\n", NOTE_BODY };

int
main (int   argc,
      char *argv[])
{
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_unsetenv ("PHOENIX_PASSWORD");

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_data_func ("/phoenix-ui/answer/en", &answer_en, test_answer);
  g_test_add_data_func ("/phoenix-ui/answer/de", &answer_de, test_answer);
  g_test_add_data_func ("/phoenix-ui/note/en", &note_en, test_answer);
  g_test_add_data_func ("/phoenix-ui/note/de", &note_de, test_answer);

  return g_test_run ();
}
