/* test-ihub-ui.c: the conversation window against a fake iHub replaying
 * recorded turns, in English and German: pick the app, send, see the
 * answer stream in, answer the app's question in the request dialog, see
 * the turn end; every recorded clarification kind answered through the
 * dialog's widgets, the POSTed body the recorded one; and the worded
 * errors, after which the chat goes on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-connection-row.h"
#include "clarify-conversation-window.h"
#include "clarify-date-input.h"
#include "clarify-ihub-backend.h"
#include "clarify-number-input.h"
#include "clarify-window.h"

#include "clarify-test-answer.h"
#include "clarify-test-ihub.h"
#include "clarify-test-log.h"

#define OUR(s) g_dgettext (GETTEXT_PACKAGE, s)

typedef struct
{
  ClarifyTestServer    *server;
  ClarifyConnection    *connection;
  ClarifyBackend       *backend;
  GtkWidget            *window;
  ClarifyRequestDialog *dialog;  /* weak */
  const char           *language;
  gconstpointer         kind;    /* the Kind of test_kind */
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

static GtkWidget *
find (Fixture    *fixture,
      const char *id)
{
  GtkWidget *widget = clarify_test_find_widget (fixture->window, id);

  g_assert_nonnull (widget);
  return widget;
}

static char *
transcript_text (Fixture *fixture)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (find (fixture, "transcript")));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

typedef struct
{
  Fixture    *fixture;
  const char *text;
} Shows;

static gboolean
transcript_shows (gpointer data)
{
  Shows *shows = data;
  g_autofree char *text = transcript_text (shows->fixture);

  return strstr (text, shows->text) != NULL;
}

static void
wait_for_transcript (Fixture    *fixture,
                     const char *text)
{
  Shows shows = { fixture, text };

  g_assert_true (clarify_test_wait_until (transcript_shows, &shows, IHUB_WAIT_MS));
}

static gboolean
has_apps (gpointer data)
{
  GtkDropDown *dropdown = data;

  return g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)) > 0 &&
         gtk_widget_get_sensitive (GTK_WIDGET (dropdown));
}

static gboolean
has_dialog (gpointer data)
{
  return ((Fixture *) data)->dialog != NULL;
}

static gboolean
dialog_gone (gpointer data)
{
  return ((Fixture *) data)->dialog == NULL;
}

static gboolean
is_visible (gpointer data)
{
  return gtk_widget_get_visible (data);
}

static gboolean
error_shown (gpointer data)
{
  return gtk_revealer_get_reveal_child (data);
}

static void
screenshot (GtkWidget  *widget,
            const char *name,
            const char *language)
{
  g_autofree char *full = g_strdup_printf ("ihub-%s-%s", name, language);
  g_autofree char *path = NULL;

  clarify_test_spin (300);
  path = clarify_test_save_screenshot (widget, full);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = NULL;
  GtkDropDown *dropdown;
  GtkStringObject *selected;

  fixture->language = data;
  clarify_test_set_language (fixture->language);
  fixture->server = clarify_test_server_new ();
  clarify_test_server_add_json (fixture->server, "GET", "/api/apps", 200, "application/json", IHUB_APPS);
  url = clarify_test_server_get_url (fixture->server, "");
  fixture->connection = clarify_connection_new ("corp", "ihub", url);
  clarify_connection_set_option (fixture->connection, "language", "en");
  fixture->backend = clarify_ihub_backend_new (fixture->connection);
  g_signal_connect (fixture->backend, "request-added", G_CALLBACK (request_added_cb), fixture);

  fixture->window = clarify_conversation_window_new (CLARIFY_IHUB_BACKEND (fixture->backend), NULL);
  g_object_ref_sink (fixture->window);
  clarify_test_present_and_wait (GTK_WINDOW (fixture->window));

  /* The app, named in the user's language. */
  dropdown = GTK_DROP_DOWN (find (fixture, "app_dropdown"));
  g_assert_true (clarify_test_wait_until (has_apps, dropdown, IHUB_WAIT_MS));
  gtk_drop_down_set_selected (dropdown, 0);
  selected = gtk_drop_down_get_selected_item (dropdown);
  g_assert_cmpstr (gtk_string_object_get_string (selected), ==,
                   g_str_equal (fixture->language, "de") ? "Übersetzer" : "Translator");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (fixture->dialog));
  g_clear_weak_pointer (&fixture->dialog);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->window);
  g_signal_handlers_disconnect_by_data (fixture->backend, fixture);
  clarify_backend_stop (fixture->backend);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->connection);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
}

/* Types @text and clicks Send; returns the chat id the window started. */
static const char *
send (Fixture    *fixture,
      const char *text)
{
  GtkWidget *send_button = find (fixture, "send_button");
  ClarifyIhubChat *chat;

  gtk_editable_set_text (GTK_EDITABLE (find (fixture, "message_entry")), text);
  g_assert_true (gtk_widget_get_visible (send_button));
  g_assert_true (gtk_widget_is_sensitive (send_button));
  g_signal_emit_by_name (send_button, "clicked");

  chat = clarify_conversation_window_get_chat (CLARIFY_CONVERSATION_WINDOW (fixture->window));
  g_assert_nonnull (chat);
  g_assert_cmpint (clarify_ihub_chat_get_state (chat), ==, CLARIFY_IHUB_CHAT_RUNNING);
  g_assert_true (gtk_widget_get_visible (find (fixture, "stop_button")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (find (fixture, "message_entry"))), ==, "");
  return clarify_ihub_chat_get_id (chat);
}

static void
test_chat (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *chat_id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *text = NULL;
  const char *done;

  chat_id = g_strdup (send (fixture, "Please help ask:select"));
  path = clarify_test_ihub_path (chat_id);
  wait_for_transcript (fixture, "Please help ask:select");

  /* The app asks: the request dialog shows the question. */
  clarify_test_ihub_replay_turn (fixture->server, chat_id, "select.1", 1);
  g_assert_true (clarify_test_wait_until (has_dialog, fixture, IHUB_WAIT_MS));
  wait_for_transcript (fixture, OUR ("The app asked you a question."));
  g_assert_true (clarify_test_wait_until (is_visible, find (fixture, "send_button"), IHUB_WAIT_MS));
  clarify_test_present_and_wait (GTK_WINDOW (fixture->dialog));
  screenshot (fixture->window, "asked", fixture->language);
  screenshot (GTK_WIDGET (fixture->dialog), "question", fixture->language);

  clarify_test_answer_click_choice (fixture->dialog, 0, "Französisch");
  clarify_test_answer_press (fixture->dialog, "submit_button");
  g_assert_true (clarify_test_wait_until (dialog_gone, fixture, IHUB_WAIT_MS));

  /* The answer streams in while Stop shows, then the turn ends. */
  rest = clarify_test_ihub_serve_turn (fixture->server, chat_id, "select.2", 2);
  done = strstr (rest, "event: done");
  g_assert_nonnull (done);
  clarify_test_server_sse_send (fixture->server, path, rest, done - rest);
  wait_for_transcript (fixture, "You answered: fr");
  text = transcript_text (fixture);
  g_assert_cmpstr (text, ==, "Please help ask:select\nfr\nYou answered: fr");
  g_clear_pointer (&text, g_free);
  g_assert_true (gtk_widget_get_visible (find (fixture, "stop_button")));
  g_assert_false (gtk_widget_get_visible (find (fixture, "send_button")));
  screenshot (fixture->window, "streaming", fixture->language);

  clarify_test_server_sse_send (fixture->server, path, done, -1);
  g_assert_true (clarify_test_wait_until (is_visible, find (fixture, "send_button"), IHUB_WAIT_MS));
  g_assert_false (gtk_widget_get_visible (find (fixture, "stop_button")));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (find (fixture, "error_revealer"))));
  text = transcript_text (fixture);
  g_assert_cmpstr (text, ==, "Please help ask:select\nfr\nYou answered: fr");
  screenshot (fixture->window, "answered", fixture->language);
}

/* One recorded clarification kind, answered through the dialog's widgets. */
typedef struct
{
  const char *name;      /* the recorded case: <name>.1.sse, <name>.2.sse */
  const char *message;   /* what the recording's user wrote */
  void      (*answer) (ClarifyRequestDialog *dialog);
  const char *button;    /* the dialog button that answers */
  const char *reply;     /* the model's reply to the answer */
} Kind;

typedef struct
{
  const Kind *kind;
  const char *language;
} KindCase;

static void
answer_text (ClarifyRequestDialog *dialog)
{
  clarify_test_answer_type_text (dialog, 0, "Direct Message");
}

static void
answer_select (ClarifyRequestDialog *dialog)
{
  clarify_test_answer_click_choice (dialog, 0, "Französisch");
}

static void
answer_multiselect (ClarifyRequestDialog *dialog)
{
  clarify_test_answer_click_choice (dialog, 0, "Product Managers");
  clarify_test_answer_click_choice (dialog, 0, "Admins");
}

static void
answer_nothing (ClarifyRequestDialog *dialog)
{
}

static void
answer_number (ClarifyRequestDialog *dialog)
{
  GtkSpinButton *spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (clarify_request_dialog_get_input (dialog, 0)));

  gtk_editable_set_text (GTK_EDITABLE (spin), "42");
  gtk_spin_button_update (spin);
}

static void
answer_date (ClarifyRequestDialog *dialog)
{
  ClarifyDateEntry *entry = clarify_date_input_get_date_entry (CLARIFY_DATE_INPUT (clarify_request_dialog_get_input (dialog, 0)));

  gtk_editable_set_text (GTK_EDITABLE (clarify_date_entry_get_entry (entry)), "2026-03-15");
}

static void
answer_confirm (ClarifyRequestDialog *dialog)
{
  clarify_test_answer_click_choice (dialog, 0, OUR ("Yes"));
}

static const Kind kinds[] = {
  { "text", "Please help ask:text", answer_text, "submit_button", "You answered: Direct Message" },
  { "select", "Please help ask:select", answer_select, "submit_button", "You answered: fr" },
  { "multiselect", "Please help ask:multiselect", answer_multiselect, "submit_button", "You answered: pm,admins" },
  { "multiselect_skip", "Please help ask:multiselect", answer_nothing, "skip_button", "You answered: [Skipped]" },
  { "number", "Please help ask:number", answer_number, "submit_button", "You answered: 42" },
  { "date", "Please help ask:date", answer_date, "submit_button", "You answered: 2026-03-15" },
  { "confirm", "Please help ask:confirm", answer_confirm, "submit_button", "You answered: yes" },
};

static void
kind_set_up (Fixture       *fixture,
             gconstpointer  data)
{
  const KindCase *kind_case = data;

  fixture_set_up (fixture, kind_case->language);
  fixture->kind = kind_case->kind;
}

/* Each recorded kind: the app asks, the user answers in the dialog, and
 * the POSTed body is the recorded one, byte for byte. */
static void
test_kind (Fixture       *fixture,
           gconstpointer  data)
{
  const Kind *kind = fixture->kind;
  g_autofree char *chat_id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *first = g_strconcat (kind->name, ".1", NULL);
  g_autofree char *second = g_strconcat (kind->name, ".2", NULL);
  g_autofree char *shot = g_strconcat ("kind-", kind->name, NULL);
  g_autofree char *rest = NULL;

  chat_id = g_strdup (send (fixture, kind->message));
  path = clarify_test_ihub_path (chat_id);
  clarify_test_ihub_replay_turn (fixture->server, chat_id, first, 1);
  g_assert_true (clarify_test_wait_until (has_dialog, fixture, IHUB_WAIT_MS));
  clarify_test_present_and_wait (GTK_WINDOW (fixture->dialog));

  kind->answer (fixture->dialog);
  screenshot (GTK_WIDGET (fixture->dialog), shot, fixture->language);
  clarify_test_answer_press (fixture->dialog, kind->button);
  g_assert_true (clarify_test_wait_until (dialog_gone, fixture, IHUB_WAIT_MS));

  /* serve_turn() holds the POSTed body against <name>.2.sse.body. */
  rest = clarify_test_ihub_serve_turn (fixture->server, chat_id, second, 2);
  clarify_test_server_sse_send (fixture->server, path, rest, -1);
  wait_for_transcript (fixture, kind->reply);
  g_assert_true (clarify_test_wait_until (is_visible, find (fixture, "send_button"), IHUB_WAIT_MS));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (find (fixture, "error_revealer"))));
}

/* The 11th question, then an `error` event: each worded, and the chat goes on. */
static void
test_errors (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *revealer = find (fixture, "error_revealer");
  GtkLabel *label = GTK_LABEL (find (fixture, "error_label"));
  GtkLabel *detail = GTK_LABEL (find (fixture, "error_detail_label"));
  g_autofree char *chat_id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *error = NULL;

  chat_id = g_strdup (send (fixture, "ask:limit.11"));
  path = clarify_test_ihub_path (chat_id);
  clarify_test_ihub_replay_turn (fixture->server, chat_id, "limit.11", 1);
  g_assert_true (clarify_test_wait_until (error_shown, revealer, IHUB_WAIT_MS));
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   OUR ("The app has asked as many questions as one conversation allows (10). You can go on writing, but it cannot ask more."));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (detail), "Maximum clarification limit (10)"));
  g_assert_false (gtk_label_get_use_markup (label));
  g_assert_false (gtk_label_get_use_markup (detail));
  g_assert_true (clarify_test_wait_until (is_visible, find (fixture, "send_button"), IHUB_WAIT_MS));
  wait_for_transcript (fixture, "The ask_user tool returned: {");
  screenshot (fixture->window, "limit", fixture->language);

  /* Still usable: the next message goes, and the server's error shows. */
  send (fixture, "again <b>bold</b>");
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 2, IHUB_WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, path, 1, IHUB_WAIT_MS));
  error = g_strdup_printf ("event: error\ndata: {\"event\":\"error\",\"chatId\":\"%s\",\"message\":\"No <i>API</i> key\"}\n\n",
                           chat_id);
  clarify_test_server_sse_send (fixture->server, path, error, -1);
  g_assert_true (clarify_test_wait_until (error_shown, revealer, IHUB_WAIT_MS));
  g_assert_cmpstr (gtk_label_get_text (label), ==, OUR ("The server reported an error. You can send your message again."));
  g_assert_cmpstr (gtk_label_get_text (detail), ==, "No <i>API</i> key");
  g_assert_true (clarify_test_wait_until (is_visible, find (fixture, "send_button"), IHUB_WAIT_MS));
  /* The message the server never took is back in the entry, as typed. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (find (fixture, "message_entry"))), ==, "again <b>bold</b>");
  screenshot (fixture->window, "error", fixture->language);

  /* And again: the server closes the stream before the answer. */
  send (fixture, "once more");
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 3, IHUB_WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, path, 1, IHUB_WAIT_MS));
  clarify_test_server_sse_close (fixture->server, path);
  g_assert_true (clarify_test_wait_until (error_shown, revealer, IHUB_WAIT_MS));
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   OUR ("The server closed the answer before it was complete. You can send your message again."));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (detail)));
  g_assert_true (clarify_test_wait_until (is_visible, find (fixture, "send_button"), IHUB_WAIT_MS));
}

/* Stop ends a running turn: the server is told, what came stays. */
static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *chat_id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *stop_path = NULL;
  g_autofree char *greeting = NULL;
  g_autofree char *chunk = NULL;
  g_autofree char *text = NULL;

  chat_id = g_strdup (send (fixture, "Tell me a long story"));
  path = clarify_test_ihub_path (chat_id);
  stop_path = g_strconcat (path, "/stop", NULL);
  greeting = g_strdup_printf ("event: connected\ndata: {\"event\":\"connected\",\"chatId\":\"%s\"}\n\n", chat_id);
  clarify_test_server_add_sse (fixture->server, path);
  clarify_test_server_set_sse_greeting (fixture->server, path, greeting);
  clarify_test_server_add_json (fixture->server, "POST", path, 200, "application/json", "{}");
  clarify_test_server_add_json (fixture->server, "POST", stop_path, 200, "application/json", "{}");
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", path, 1, IHUB_WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, path, 1, IHUB_WAIT_MS));
  chunk = g_strdup_printf ("event: chunk\ndata: {\"event\":\"chunk\",\"chatId\":\"%s\",\"content\":\"Once upon\"}\n\n",
                           chat_id);
  clarify_test_server_sse_send (fixture->server, path, chunk, -1);
  wait_for_transcript (fixture, "Once upon");

  g_signal_emit_by_name (find (fixture, "stop_button"), "clicked");
  g_assert_true (clarify_test_server_wait_for_n_requests (fixture->server, "POST", stop_path, 1, IHUB_WAIT_MS));
  g_assert_true (gtk_widget_get_visible (find (fixture, "send_button")));
  g_assert_false (gtk_widget_get_visible (find (fixture, "stop_button")));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (find (fixture, "error_revealer"))));
  text = transcript_text (fixture);
  g_assert_true (g_str_has_prefix (text, "Tell me a long story\nOnce upon"));
  g_assert_true (g_str_has_suffix (text, OUR ("Stopped.")));
  screenshot (fixture->window, "stopped", fixture->language);
}

static gboolean
chat_asks (gpointer data)
{
  return clarify_ihub_chat_get_state (data) == CLARIFY_IHUB_CHAT_ASKING;
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static GtkWidget *
find_conversation_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (CLARIFY_IS_CONVERSATION_WINDOW (item))
        return GTK_WIDGET (item);
    }

  return NULL;
}

/* A conversation kept from an earlier run is listed in the main window
 * beside the questions; clicking it reopens it where it stopped. */
static void
test_kept (Fixture       *fixture,
           gconstpointer  data)
{
  static GtkApplication *application;
  g_autoptr(ClarifyInbox) inbox = clarify_inbox_new ();
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  ClarifyIhubChat *chat;
  GtkWidget *window;
  GtkWidget *list;
  GtkListBoxRow *row;
  GtkWidget *conversation;
  GtkWidget *connection_row;

  /* The earlier run: the app asked, and Clarify quit before the answer. */
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  name = g_strdup_printf ("kept-%s", fixture->language);
  connection = clarify_connection_new (name, "ihub", clarify_connection_get_url (fixture->connection));
  clarify_connection_set_option (connection, "language", "en");
  backend = clarify_ihub_backend_new (connection);
  chat = clarify_ihub_backend_open_chat (CLARIFY_IHUB_BACKEND (backend), IHUB_APP, "chat-kept");
  clarify_ihub_chat_set_model_id (chat, "fake-llm");
  g_assert_true (clarify_ihub_chat_send (chat, "Please help ask:select"));
  clarify_test_ihub_replay_turn (fixture->server, "chat-kept", "select.1", 1);
  g_assert_true (clarify_test_wait_until (chat_asks, chat, IHUB_WAIT_MS));
  clarify_backend_stop (backend);
  g_clear_object (&backend);

  /* This run. */
  /* One application for the process: registering exports its object path. */
  if (application == NULL)
    {
      application = gtk_application_new ("io.github.clarify.TestIhubUi", G_APPLICATION_NON_UNIQUE);
      g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
      g_assert_no_error (error);
    }
  backend = clarify_ihub_backend_new (connection);
  clarify_inbox_add_backend (inbox, backend);
  window = GTK_WIDGET (clarify_window_new (application, inbox));
  clarify_backend_start (backend);
  clarify_test_present_and_wait (GTK_WINDOW (window));

  list = clarify_test_find_widget (window, "conversations_list");
  g_assert_nonnull (list);
  g_assert_true (clarify_test_wait_until (is_mapped, list, IHUB_WAIT_MS));
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0);
  g_assert_nonnull (row);
  g_assert_null (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 1));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "Please help ask:select");
  subtitle = g_strconcat (IHUB_APP " · ", OUR ("Waiting for your answer"), NULL);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, subtitle);
  connection_row = clarify_test_find_descendant (window, CLARIFY_TYPE_CONNECTION_ROW);
  g_assert_nonnull (connection_row);
  g_assert_nonnull (clarify_test_find_widget (connection_row, "chat_button"));
  clarify_test_spin (300);
  screenshot (window, "main", fixture->language);

  g_signal_emit_by_name (row, "activate");
  conversation = find_conversation_window ();
  g_assert_nonnull (conversation);
  g_assert_true (clarify_conversation_window_get_chat (CLARIFY_CONVERSATION_WINDOW (conversation)) ==
                 clarify_ihub_backend_lookup_chat (CLARIFY_IHUB_BACKEND (backend), "chat-kept"));
  clarify_test_present_and_wait (GTK_WINDOW (conversation));
  fixture->window = g_object_ref_sink (conversation);
  text = transcript_text (fixture);
  expected = g_strconcat ("Please help ask:select\n", OUR ("The app asked you a question."), NULL);
  g_assert_cmpstr (text, ==, expected);
  g_clear_pointer (&text, g_free);
  screenshot (conversation, "kept", fixture->language);

  gtk_window_destroy (GTK_WINDOW (window));
  clarify_backend_stop (backend);
  clarify_inbox_remove_backend (inbox, backend);
}

int
main (int   argc,
      char *argv[])
{
  /* Conversations are kept under the user's data dir: a private one. */
  g_autofree char *data_home = g_dir_make_tmp ("clarify-ihub-ui-XXXXXX", NULL);
  static const char *languages[] = { "en", "de" };
  g_autofree KindCase *kind_cases = g_new (KindCase, G_N_ELEMENTS (kinds) * G_N_ELEMENTS (languages));
  int status;

  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add ("/ihub-ui/chat/en", Fixture, "en", fixture_set_up, test_chat, fixture_tear_down);
  g_test_add ("/ihub-ui/chat/de", Fixture, "de", fixture_set_up, test_chat, fixture_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    for (guint j = 0; j < G_N_ELEMENTS (languages); j++)
      {
        KindCase *kind_case = &kind_cases[i * G_N_ELEMENTS (languages) + j];
        g_autofree char *test_path = g_strdup_printf ("/ihub-ui/kind/%s/%s", kinds[i].name, languages[j]);

        kind_case->kind = &kinds[i];
        kind_case->language = languages[j];
        g_test_add (test_path, Fixture, kind_case, kind_set_up, test_kind, fixture_tear_down);
      }
  g_test_add ("/ihub-ui/errors/en", Fixture, "en", fixture_set_up, test_errors, fixture_tear_down);
  g_test_add ("/ihub-ui/errors/de", Fixture, "de", fixture_set_up, test_errors, fixture_tear_down);
  g_test_add ("/ihub-ui/stop/en", Fixture, "en", fixture_set_up, test_stop, fixture_tear_down);
  g_test_add ("/ihub-ui/stop/de", Fixture, "de", fixture_set_up, test_stop, fixture_tear_down);
  g_test_add ("/ihub-ui/kept/en", Fixture, "en", fixture_set_up, test_kept, fixture_tear_down);
  g_test_add ("/ihub-ui/kept/de", Fixture, "de", fixture_set_up, test_kept, fixture_tear_down);

  status = g_test_run ();
  clarify_test_remove_tree (data_home);
  return status;
}
