/* test-notify-ui.c: answering a question from its notification
 *
 * A registered ClarifyApplication on the test's session bus, with a fake
 * org.gtk.Notifications that records what it shows. A button is pressed
 * the way the shell presses it: org.gtk.Actions.Activate on the
 * application's object path, from another bus connection, with the
 * button's action and target. What reaches the agent is compared with what
 * the dialog sends for the same choice; each way a question ends takes its
 * notification away; a stale button sends nothing. And who asks: an MCP
 * client's own name in the dialog, the window's row and the notification.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "clarify-test-backend.h"
#include "clarify-test-app.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-opencode.h"
#include "clarify-test-shell.h"
#include "clarify-test-window.h"

#include "clarify-application-private.h"
#include "clarify-backend-registry.h"
#include "clarify-history-view.h"
#include "clarify-json.h"
#include "clarify-mcp-server.h"
#include "clarify-permission-input.h"
#include "clarify-request-dialog-private.h"
#include "clarify-request-notification.h"
#include "clarify-request-row.h"
#include "clarify-request-source.h"
#include "clarify-window.h"

#define WAIT_MS 15000
#define NOTES "protocols/opencode-mcp-claude/"
#define PERMISSION_ID "per_2002877d9001iW7A5dIz75kfpK"
#define DIR "/home/dev/project"

static ClarifyApplication *app;
static GDBusConnection *shell;  /* the "shell": a bus connection of its own */

/* Helpers */

static ClarifyRequestDialog *
find_dialog (const char *request_id)
{
  return clarify_test_find_request_dialog (GTK_APPLICATION (app), request_id);
}

static gboolean
dialog_is_mapped (gpointer data)
{
  ClarifyRequestDialog *dialog = find_dialog (data);

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static gboolean
no_dialog (gpointer data)
{
  return find_dialog (data) == NULL;
}

/* Dialogs of earlier tests that show why they end close on their own time;
 * one closing lets the queue put the next question on screen. */
static gboolean
no_dialog_left (gpointer data)
{
  return clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_REQUEST_DIALOG, NULL) == NULL;
}

/* A reference of its own: the notification may be withdrawn meanwhile. */
static GVariant *
wait_notification (const char *key)
{
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, (gpointer) key, WAIT_MS));

  return g_variant_ref (g_hash_table_lookup (clarify_test_notifications_shown, key));
}

static const char *
notification_title (GVariant *notification)
{
  const char *title = NULL;

  g_assert_true (g_variant_lookup (notification, "title", "&s", &title));
  return title;
}

static const char *
notification_body (GVariant *notification)
{
  const char *body = NULL;

  g_assert_true (g_variant_lookup (notification, "body", "&s", &body));
  return body;
}

/* "label=action(target)" for each button, one per line. */
static char *
describe_buttons (GVariant *notification)
{
  g_autoptr(GVariant) buttons = g_variant_lookup_value (notification, "buttons", G_VARIANT_TYPE ("aa{sv}"));
  GString *text = g_string_new (NULL);

  for (gsize i = 0; buttons != NULL && i < g_variant_n_children (buttons); i++)
    {
      g_autoptr(GVariant) button = g_variant_get_child_value (buttons, i);
      g_autoptr(GVariant) target = g_variant_lookup_value (button, "target", NULL);
      g_autofree char *printed = target != NULL ? g_variant_print (target, FALSE) : g_strdup ("");
      g_auto(GStrv) around_token = g_strsplit (printed, clarify_request_notification_get_run_token (), -1);
      const char *label = NULL, *action = NULL;

      g_assert_true (g_variant_lookup (button, "label", "&s", &label));
      g_assert_true (g_variant_lookup (button, "action", "&s", &action));
      /* This run's token reads RUN: it is random. */
      g_clear_pointer (&printed, g_free);
      printed = g_strjoinv ("RUN", around_token);
      g_string_append_printf (text, "%s=%s%s\n", label, action, printed);
    }

  return g_string_free (text, FALSE);
}

static void
shell_activate (const char *action,
                GVariant   *target)
{
  clarify_test_shell_activate (shell, G_APPLICATION (app), action, target, WAIT_MS);
}

static void
press_button (GVariant *notification,
              guint     index)
{
  clarify_test_shell_press_button (shell, G_APPLICATION (app), notification, index, WAIT_MS);
}

static char *
response_json (ClarifyResponse *response)
{
  g_autoptr(JsonNode) node = clarify_response_to_json (response);

  return clarify_json_to_string (node);
}

static ClarifyRequest *
single_question_request (const char          *id,
                         ClarifyQuestionKind  kind)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q", kind, "<b>Ship</b> it & go?");

  if (kind == CLARIFY_QUESTION_KIND_SINGLE)
    {
      g_autoptr(ClarifyOption) a = clarify_option_new ("Staging", "staging", NULL);
      g_autoptr(ClarifyOption) b = clarify_option_new ("Production", "prod", NULL);

      clarify_question_add_option (question, a);
      clarify_question_add_option (question, b);
    }
  clarify_request_add_question (request, question);

  return request;
}

static gboolean
delivered_n (gpointer data)
{
  ClarifyTestBackend *backend = data;
  guint *n = g_object_get_data (G_OBJECT (backend), "want");

  return clarify_test_backend_get_delivered (backend)->len >= *n;
}

static ClarifyResponse *
wait_delivered (ClarifyBackend *backend,
                guint           n)
{
  GPtrArray *delivered;

  g_object_set_data (G_OBJECT (backend), "want", &n);
  g_assert_true (clarify_test_wait_until (delivered_n, backend, WAIT_MS));
  delivered = clarify_test_backend_get_delivered (CLARIFY_TEST_BACKEND (backend));
  g_assert_cmpuint (delivered->len, ==, n);

  return g_ptr_array_index (delivered, n - 1);
}

/* Tests */

/* A confirm and a single choice: the notification carries their answers as
 * buttons, and pressing one sends what the dialog sends for that choice. */
static void
test_buttons_answer_as_dialog (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  const struct { const char *id; ClarifyQuestionKind kind; guint button; const char *buttons; } cases[] = {
    { "confirm", CLARIFY_QUESTION_KIND_CONFIRM, 1,
      "Yes=app.answer-request('RUN', 'Tests\\u001fconfirm', 'yes')\n"
      "No=app.answer-request('RUN', 'Tests\\u001fconfirm', 'no')\n" },
    { "single", CLARIFY_QUESTION_KIND_SINGLE, 1,
      "Staging=app.answer-request('RUN', 'Tests\\u001fsingle', 'staging')\n"
      "Production=app.answer-request('RUN', 'Tests\\u001fsingle', 'prod')\n" },
  };
  guint n_delivered = 0;

  clarify_application_add_backend (app, backend);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ClarifyRequest) request = single_question_request (cases[i].id, cases[i].kind);
      g_autofree char *twin_id = g_strconcat (cases[i].id, "-dialog", NULL);
      g_autoptr(ClarifyRequest) twin = single_question_request (twin_id, cases[i].kind);
      g_autofree char *key = g_strconcat ("Tests\x1f", cases[i].id, NULL);
      g_autofree char *twin_key = g_strconcat ("Tests\x1f", twin_id, NULL);
      g_autofree char *buttons = NULL;
      g_autofree char *by_button = NULL;
      g_autofree char *by_dialog = NULL;
      g_autofree char *expected = NULL;
      ClarifyRequestDialog *dialog;
      g_autoptr(GVariant) notification = NULL;

      g_test_message ("%s", cases[i].id);
      /* The user is in another program. */
      clarify_test_focus_elsewhere ();
      g_assert_true (clarify_backend_add_request (backend, request));
      notification = wait_notification (key);
      /* Who asks in the title, the question in the body: as it is, since
       * org.gtk.Notifications reads no markup. */
      g_assert_cmpstr (notification_title (notification), ==, "Tests asks");
      g_assert_cmpstr (notification_body (notification), ==, "<b>Ship</b> it & go?");
      buttons = describe_buttons (notification);
      g_assert_cmpstr (buttons, ==, cases[i].buttons);

      press_button (notification, cases[i].button);
      by_button = response_json (wait_delivered (backend, ++n_delivered));
      /* Answered: the notification and the dialog shown for it go. */
      g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, (gpointer) key, WAIT_MS));
      g_assert_false (g_hash_table_contains (clarify_test_notifications_shown, key));
      g_assert_true (clarify_test_wait_until (no_dialog, (gpointer) cases[i].id, WAIT_MS));

      /* The same choice through the dialog's widgets. */
      g_assert_true (clarify_backend_add_request (backend, twin));
      g_assert_true (clarify_test_wait_until (dialog_is_mapped, twin_id, WAIT_MS));
      dialog = find_dialog (twin_id);
      g_assert_true (clarify_input_pick (clarify_request_dialog_get_input (dialog, 0), cases[i].button));
      if (find_dialog (twin_id) != NULL)
        {
          GtkWidget *submit = clarify_test_find_button (GTK_WIDGET (dialog), "Submit");

          g_assert_nonnull (submit);
          g_signal_emit_by_name (submit, "clicked");
        }
      by_dialog = response_json (wait_delivered (backend, ++n_delivered));
      g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, twin_key, WAIT_MS));

      expected = g_strdup_printf ("{\"id\":\"%s\",\"outcome\":\"answered\","
                                  "\"answers\":[{\"question_id\":\"q\",\"values\":[\"%s\"]}]}",
                                  twin_id, i == 0 ? "no" : "prod");
      g_assert_cmpstr (by_dialog, ==, expected);
      /* Byte for byte the dialog's, but for the request's own id. */
      {
        g_autofree char *as_twin = NULL;
        g_autoptr(GString) swapped = g_string_new (by_button);

        g_string_replace (swapped, cases[i].id, twin_id, 1);
        as_twin = g_strdup (swapped->str);
        g_assert_cmpstr (as_twin, ==, by_dialog);
      }
    }

  clarify_application_remove_backend (app, backend);
}

/* OpenCode's permission, from the protocol notes: three buttons, and
 * "Allow once" pressed reaches the fake server exactly as the dialog's. */
static void
test_opencode_permission (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autofree char *url = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *payload = clarify_test_fixture_block (NOTES "a5-permission-asked.json");
  g_autofree char *frame = NULL;
  g_autofree char *buttons = NULL;
  g_autoptr(GString) second = g_string_new (payload);
  const char *key = "work\x1f" PERMISSION_ID;
  g_autoptr(ClarifyTestRequest) by_button = NULL;
  g_autoptr(ClarifyTestRequest) by_dialog = NULL;
  ClarifyRequestDialog *dialog;
  ClarifyInput *input;
  g_autoptr(GVariant) notification = NULL;

  clarify_test_server_set_json (server, "GET", "/question", 200, "application/json", "[]");
  clarify_test_server_set_json (server, "GET", "/permission", 200, "application/json", "[]");
  clarify_test_server_add_sse (server, "/global/event");
  clarify_test_server_add_sse (server, "/event");
  clarify_test_server_add_json (server, "GET", "/project", 200, "application/json", "[]");
  clarify_test_server_add_json (server, "GET", "/path", 200, "application/json",
                                "{\"home\":\"/home/dev\",\"state\":\"/s\",\"config\":\"/c\",\"worktree\":\"" DIR "\",\"directory\":\"" DIR "\"}");
  clarify_test_server_add_json (server, "POST", "/permission/" PERMISSION_ID "/reply", 200, "application/json", "true");
  clarify_test_server_add_json (server, "POST", "/permission/per_second/reply", 200, "application/json", "true");
  url = clarify_test_server_get_url (server, "/");
  connection = clarify_connection_new ("work", "opencode", url);
  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  clarify_application_add_backend (app, backend);
  g_assert_true (clarify_test_server_wait_for_n_streams (server, "/global/event", 1, WAIT_MS));

  frame = clarify_test_global_frame (DIR, payload);
  clarify_test_focus_elsewhere ();
  clarify_test_server_sse_send (server, "/global/event", frame, -1);
  notification = wait_notification (key);
  buttons = describe_buttons (notification);
  g_assert_cmpstr (buttons, ==,
                   "Allow once=app.answer-request('RUN', 'work\\u001fper_2002877d9001iW7A5dIz75kfpK', 'once')\n"
                   "Always allow=app.answer-request('RUN', 'work\\u001fper_2002877d9001iW7A5dIz75kfpK', 'always')\n"
                   "Reject=app.answer-request('RUN', 'work\\u001fper_2002877d9001iW7A5dIz75kfpK', 'reject')\n");

  press_button (notification, 0);
  by_button = clarify_test_server_wait_for_request (server, "POST", "/permission/" PERMISSION_ID "/reply", WAIT_MS);
  g_assert_nonnull (by_button);
  g_assert_cmpstr (by_button->body, ==, "{\"reply\":\"once\"}");
  g_assert_true (clarify_test_wait_until (no_dialog, PERMISSION_ID, WAIT_MS));

  /* The same permission again, answered in its dialog. */
  g_string_replace (second, PERMISSION_ID, "per_second", 0);
  g_clear_pointer (&frame, g_free);
  frame = clarify_test_global_frame (DIR, second->str);
  clarify_test_server_sse_send (server, "/global/event", frame, -1);
  g_assert_true (clarify_test_wait_until (dialog_is_mapped, "per_second", WAIT_MS));
  dialog = find_dialog ("per_second");
  input = clarify_request_dialog_get_input (dialog, 0);
  g_signal_emit_by_name (clarify_permission_input_get_button (CLARIFY_PERMISSION_INPUT (input), CLARIFY_PERMISSION_ONCE),
                         "clicked");
  by_dialog = clarify_test_server_wait_for_request (server, "POST", "/permission/per_second/reply", WAIT_MS);
  g_assert_nonnull (by_dialog);
  g_assert_cmpstr (by_dialog->body, ==, by_button->body);
  g_assert_cmpstr (by_dialog->query, ==, by_button->query);

  /* Pressed again, long after: nothing more is sent, and the user hears
   * that nothing was. */
  press_button (notification, 2);
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, "answer-too-late", WAIT_MS));
  g_assert_cmpstr (notification_title (g_hash_table_lookup (clarify_test_notifications_shown, "answer-too-late")), ==,
                   "That question no longer waits for an answer; nothing was sent.");
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", "/permission/" PERMISSION_ID "/reply"), ==, 1);

  clarify_application_remove_backend (app, backend);
}

/* A target no button carried (the action is open to the whole bus): no
 * answer goes; the dialog asks instead. */
static void
test_forged_target (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) request = single_question_request ("forged", CLARIFY_QUESTION_KIND_SINGLE);
  const char *key = "Tests\x1f" "forged";

  clarify_application_add_backend (app, backend);
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, request));
  g_variant_unref (wait_notification (key));
  shell_activate ("app.answer-request",
                  g_variant_new ("(sss)", clarify_request_notification_get_run_token (), key, "rm -rf"));
  g_assert_true (clarify_test_wait_until (dialog_is_mapped, "forged", WAIT_MS));
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpuint (clarify_test_backend_get_delivered (CLARIFY_TEST_BACKEND (backend))->len, ==, 0);

  clarify_application_remove_backend (app, backend);
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, (gpointer) key, WAIT_MS));
}

/* A request with a title: the body has the title and, under it, the
 * question the buttons answer (it had the title alone). */
static void
test_titled_body (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) request = single_question_request ("titled", CLARIFY_QUESTION_KIND_SINGLE);
  g_autoptr(GVariant) notification = NULL;
  g_autofree char *buttons = NULL;

  clarify_request_set_title (request, "Release & build");
  clarify_application_add_backend (app, backend);
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, request));
  notification = wait_notification ("Tests\x1f" "titled");
  g_assert_cmpstr (notification_title (notification), ==, "Tests asks");
  g_assert_cmpstr (notification_body (notification), ==, "Release & build\n<b>Ship</b> it & go?");
  buttons = describe_buttons (notification);
  g_assert_cmpstr (buttons, ==,
                   "Staging=app.answer-request('RUN', 'Tests\\u001ftitled', 'staging')\n"
                   "Production=app.answer-request('RUN', 'Tests\\u001ftitled', 'prod')\n");

  clarify_application_remove_backend (app, backend);
}

/* A notification left by a Clarify that has ended: its key may name a new
 * question now (a local agent's "dbus-1" comes again after a restart), but
 * its button carries the earlier run's token and answers nothing. */
static void
test_button_of_an_earlier_run (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) request = single_question_request ("again", CLARIFY_QUESTION_KIND_CONFIRM);
  const char *key = "Tests\x1f" "again";
  g_autoptr(GVariant) notification = NULL;

  clarify_application_add_backend (app, backend);
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, request));
  notification = wait_notification (key);
  shell_activate ("app.answer-request", g_variant_new ("(sss)", "an earlier run", key, "yes"));
  clarify_test_spin (200);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpuint (clarify_test_backend_get_delivered (CLARIFY_TEST_BACKEND (backend))->len, ==, 0);

  /* This run's button answers. */
  press_button (notification, 0);
  g_assert_cmpint (clarify_response_get_outcome (wait_delivered (backend, 1)), ==, CLARIFY_OUTCOME_ANSWERED);

  clarify_application_remove_backend (app, backend);
}

/* Withdrawn by the agent, timed out, or answered in the dialog: the
 * notification goes each time; a text question has no buttons. */
static void
test_withdrawn_on_each_end (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) withdrawn = single_question_request ("withdrawn", CLARIFY_QUESTION_KIND_TEXT);
  g_autoptr(ClarifyRequest) timed_out = single_question_request ("timed-out", CLARIFY_QUESTION_KIND_CONFIRM);
  g_autoptr(ClarifyRequest) answered = single_question_request ("answered", CLARIFY_QUESTION_KIND_CONFIRM);
  const char *withdrawn_key = "Tests\x1f" "withdrawn";
  const char *timed_out_key = "Tests\x1f" "timed-out";
  const char *answered_key = "Tests\x1f" "answered";
  g_autofree char *buttons = NULL;
  g_autoptr(GVariant) notification = NULL;
  GtkWidget *submit;

  clarify_application_add_backend (app, backend);

  /* Each time the user is in another program when the question comes. */
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, withdrawn));
  notification = wait_notification (withdrawn_key);
  buttons = describe_buttons (notification);
  g_assert_cmpstr (buttons, ==, "");
  clarify_backend_withdraw_request (backend, "withdrawn", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, (gpointer) withdrawn_key, WAIT_MS));

  clarify_request_set_timeout_ms (timed_out, 300);
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, timed_out));
  g_variant_unref (wait_notification (timed_out_key));
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, (gpointer) timed_out_key, WAIT_MS));
  g_assert_cmpint (clarify_request_get_end (timed_out), ==, CLARIFY_REQUEST_END_TIMED_OUT);

  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, answered));
  g_variant_unref (wait_notification (answered_key));
  g_assert_true (clarify_test_wait_until (dialog_is_mapped, "answered", WAIT_MS));
  g_assert_true (clarify_input_pick (clarify_request_dialog_get_input (find_dialog ("answered"), 0), 0));
  if ((submit = find_dialog ("answered") ? clarify_test_find_button (GTK_WIDGET (find_dialog ("answered")), "Submit") : NULL))
    g_signal_emit_by_name (submit, "clicked");
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, (gpointer) answered_key, WAIT_MS));

  clarify_application_remove_backend (app, backend);
}

/* While a Clarify dialog has the focus, a new question gets no
 * notification: the dialog says it waits. Once the user is in another
 * program with it still in line, its notification comes. */
static void
test_quiet_while_focused (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) first = single_question_request ("first", CLARIFY_QUESTION_KIND_CONFIRM);
  g_autoptr(ClarifyRequest) second = single_question_request ("second", CLARIFY_QUESTION_KIND_TEXT);
  g_autoptr(ClarifyRequest) third = single_question_request ("third", CLARIFY_QUESTION_KIND_TEXT);
  const char *second_key = "Tests\x1f" "second";
  const char *third_key = "Tests\x1f" "third";
  ClarifyRequestDialog *dialog;
  g_autoptr(GVariant) notification = NULL;

  /* Else the second question could come on screen as the user leaves,
   * in place of its notification. */
  g_assert_true (clarify_test_wait_until (no_dialog_left, NULL, WAIT_MS));
  clarify_application_add_backend (app, backend);
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, first));
  g_variant_unref (wait_notification ("Tests\x1f" "first"));
  g_assert_true (clarify_test_wait_until (dialog_is_mapped, "first", WAIT_MS));
  dialog = find_dialog ("first");
  g_assert_null (clarify_request_dialog_get_waiting_text (dialog));

  /* The user is at the dialog: two more questions come. */
  clarify_test_present_and_focus (GTK_WINDOW (dialog));
  g_assert_true (clarify_backend_add_request (backend, second));
  g_assert_cmpstr (clarify_request_dialog_get_waiting_text (dialog), ==, "1 more question is waiting");
  g_assert_true (clarify_backend_add_request (backend, third));
  g_assert_cmpstr (clarify_request_dialog_get_waiting_text (dialog), ==, "2 more questions are waiting");
  g_assert_false (clarify_test_notification_sent_by_now (G_APPLICATION (app), second_key));
  g_assert_false (clarify_test_notification_shown ((gpointer) third_key));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "notify-waiting-en"));

  /* One is withdrawn in line: the count follows. */
  clarify_backend_withdraw_request (backend, "third", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  g_assert_cmpstr (clarify_request_dialog_get_waiting_text (dialog), ==, "1 more question is waiting");

  /* The user goes to another program, the question still in line. */
  clarify_test_focus_elsewhere ();
  notification = wait_notification (second_key);
  g_assert_cmpstr (notification_title (notification), ==, "Tests asks");
  g_assert_cmpint (clarify_request_get_state (second), ==, CLARIFY_REQUEST_PENDING);
  g_assert_false (clarify_test_notification_sent_by_now (G_APPLICATION (app), third_key));

  clarify_application_remove_backend (app, backend);
  g_assert_true (clarify_test_wait_until (no_dialog, "first", WAIT_MS));
}

/* The list or a notification brings back the dialog the user is at: once
 * the user leaves, what waits in line is notified as before. */
static void
test_present_again_while_focused (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) first = single_question_request ("first", CLARIFY_QUESTION_KIND_CONFIRM);
  g_autoptr(ClarifyRequest) second = single_question_request ("second", CLARIFY_QUESTION_KIND_TEXT);
  const char *second_key = "Tests\x1f" "second";
  ClarifyRequestDialog *dialog;

  g_assert_true (clarify_test_wait_until (no_dialog_left, NULL, WAIT_MS));
  clarify_application_add_backend (app, backend);
  g_assert_true (clarify_backend_add_request (backend, first));
  g_assert_true (clarify_test_wait_until (dialog_is_mapped, "first", WAIT_MS));
  dialog = find_dialog ("first");
  clarify_test_present_and_focus (GTK_WINDOW (dialog));

  g_assert_true (clarify_application_present_request (app, first) == dialog);
  g_assert_true (clarify_backend_add_request (backend, second));
  g_assert_cmpstr (clarify_request_dialog_get_waiting_text (dialog), ==, "1 more question is waiting");
  g_assert_false (clarify_test_notification_sent_by_now (G_APPLICATION (app), second_key));

  clarify_test_focus_elsewhere ();
  g_variant_unref (wait_notification (second_key));

  clarify_application_remove_backend (app, backend);
  g_assert_true (clarify_test_wait_until (no_dialog, "first", WAIT_MS));
}

/* A long question: the body is cut once, with one ellipsis. */
static void
test_long_body (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(ClarifyRequest) request = clarify_request_new ("long");
  g_autoptr(ClarifyQuestion) question = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GVariant) notification = NULL;
  g_autofree char *kept = NULL;
  const char *body;

  while (g_utf8_strlen (text->str, -1) < 500)
    g_string_append (text, "Which of these should the deploy use, and where? ");
  question = clarify_question_new ("q", CLARIFY_QUESTION_KIND_CONFIRM, text->str);
  clarify_request_add_question (request, question);

  clarify_application_add_backend (app, backend);
  clarify_test_focus_elsewhere ();
  g_assert_true (clarify_backend_add_request (backend, request));
  notification = wait_notification ("Tests\x1f" "long");
  body = notification_body (notification);
  g_assert_true (g_utf8_validate (body, -1, NULL));
  g_assert_cmpint (g_utf8_strlen (body, -1), <=, 200);
  g_assert_cmpint (g_utf8_strlen (body, -1), >, 150);
  g_assert_true (g_str_has_suffix (body, "…"));
  g_assert_false (g_str_has_suffix (body, " …"));
  g_assert_cmpstr (strstr (body, "…"), ==, g_utf8_offset_to_pointer (body, g_utf8_strlen (body, -1) - 1));
  kept = g_strndup (body, strlen (body) - strlen ("…"));
  g_assert_true (g_str_has_prefix (text->str, kept));

  clarify_application_remove_backend (app, backend);
}

/* This machine's user's home is not the test's: nothing there (a
 * ~/.claude, a config) changes what the app finds or writes. */
static void
test_private_home (void)
{
  const struct passwd *user = getpwuid (getuid ());

  g_assert_nonnull (user);
  g_assert_cmpstr (g_get_home_dir (), !=, user->pw_dir);
  g_assert_true (g_str_has_prefix (g_get_user_data_dir (), g_get_home_dir ()));
  g_assert_true (g_str_has_prefix (g_get_user_cache_dir (), g_get_home_dir ()));
  g_assert_false (g_str_has_prefix (g_get_user_config_dir (), user->pw_dir));
}

static ClarifyRequestRow *
find_request_row (const char *request_id)
{
  GtkWindow *window = clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_WINDOW, NULL);

  return clarify_test_find_request_row (GTK_WIDGET (window), request_id);
}

static SoupMessage *
mcp_message (const char *url,
             const char *token,
             const char *session_id,
             const char *json)
{
  SoupMessage *message = soup_message_new ("POST", url);
  g_autofree char *authorization = g_strdup_printf ("Bearer %s", token);
  g_autoptr(GBytes) body = g_bytes_new (json, strlen (json));

  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", authorization);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json, text/event-stream");
  if (session_id != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message), "Mcp-Session-Id", session_id);
  soup_message_set_request_body_from_bytes (message, "application/json", body);

  return message;
}

static gboolean
model_not_empty (gpointer data)
{
  return g_list_model_get_n_items (data) > 0;
}

/* An MCP client that said "opencode" in initialize is named OpenCode in the
 * dialog's title, the window's row and the notification. */
static void
test_mcp_caller_named (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (0);
  g_autoptr(ClarifyBackend) backend = clarify_mcp_server_new (connection);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) initialize = NULL;
  g_autoptr(SoupMessage) call = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) call_result = NULL;
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *key = NULL;
  g_autofree char *shot = NULL;
  ClarifyRequestDialog *dialog = NULL;
  ClarifyRequest *request;
  ClarifyRequestRow *row;
  ClarifyHistory *history;
  g_autoptr(ClarifyHistoryEntry) entry = NULL;
  GtkWidget *view;
  GtkWidget *source;
  g_autoptr(GVariant) notification = NULL;

  clarify_application_add_backend (app, backend);
  url = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (backend));
  g_assert_nonnull (url);
  token = clarify_mcp_token_ensure (&error);
  g_assert_no_error (error);

  initialize = mcp_message (url, token, NULL,
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                            "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                            "\"clientInfo\":{\"name\":\"opencode\",\"version\":\"1.0\"}}}");
  soup_session_send_and_read_async (session, initialize, G_PRIORITY_DEFAULT, NULL, clarify_test_shell_store_result_cb, &result);
  g_assert_true (clarify_test_wait_until (clarify_test_shell_result_arrived, &result, WAIT_MS));
  reply = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (initialize), ==, 200);
  session_id = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (initialize), "Mcp-Session-Id"));
  g_assert_nonnull (session_id);

  call = mcp_message (url, token, session_id,
                      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                      "\"arguments\":{\"questions\":[{\"question\":\"Which port should the service use?\"}]}}}");
  clarify_test_focus_elsewhere ();
  soup_session_send_and_read_async (session, call, G_PRIORITY_DEFAULT, NULL, clarify_test_shell_store_result_cb, &call_result);

  g_assert_true (clarify_test_wait_until (model_not_empty, clarify_backend_get_requests (backend), WAIT_MS));
  request = g_list_model_get_item (clarify_backend_get_requests (backend), 0);
  g_object_unref (request);  /* the backend keeps it */
  g_assert_cmpstr (clarify_request_get_caller (request), ==, "opencode");
  key = clarify_inbox_dup_key (request);

  notification = wait_notification (key);
  g_assert_cmpstr (notification_title (notification), ==, "OpenCode asks");
  g_assert_cmpstr (notification_body (notification), ==, "Which port should the service use?");

  g_assert_true (clarify_test_wait_until (dialog_is_mapped, (gpointer) clarify_request_get_id (request), WAIT_MS));
  dialog = find_dialog (clarify_request_get_id (request));
  source = clarify_test_find_descendant (GTK_WIDGET (dialog), CLARIFY_TYPE_REQUEST_SOURCE);
  g_assert_nonnull (source);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (clarify_test_find_descendant (source, ADW_TYPE_WINDOW_TITLE))),
                   ==, "OpenCode");

  g_application_activate (G_APPLICATION (app));
  row = find_request_row (clarify_request_get_id (request));
  g_assert_nonnull (row);
  g_assert_true (g_str_has_prefix (clarify_request_row_get_subtitle (row), "OpenCode"));
  clarify_test_present_and_wait (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (row))));
  shot = clarify_test_save_screenshot (GTK_WIDGET (row), "notify-mcp-caller-row-en");
  g_assert_nonnull (shot);

  /* Declined: the caller gets its answer, the notification goes. */
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  g_assert_true (clarify_test_send_key (GTK_WIDGET (dialog), GDK_KEY_Escape, 0));
  g_assert_true (clarify_test_wait_until (clarify_test_shell_result_arrived, &call_result, WAIT_MS));
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, (gpointer) key, WAIT_MS));

  /* The window's history has it first, with the caller, after every
   * question these tests ended before it. */
  history = clarify_application_get_history (app);
  g_assert_true (clarify_test_wait_until (model_not_empty, history, WAIT_MS));
  entry = g_list_model_get_item (G_LIST_MODEL (history), 0);
  g_assert_cmpstr (clarify_history_entry_get_question (entry), ==, "Which port should the service use?");
  g_assert_cmpstr (clarify_history_entry_get_caller (entry), ==, "opencode");
  g_assert_cmpint (clarify_history_entry_get_outcome (entry), ==, CLARIFY_HISTORY_CANCELLED);
  view = clarify_test_find_descendant (GTK_WIDGET (clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_WINDOW, NULL)),
                                       CLARIFY_TYPE_HISTORY_VIEW);
  g_assert_nonnull (view);
  g_assert_cmpuint (clarify_history_view_get_n_shown (CLARIFY_HISTORY_VIEW (view)), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (history)));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (history)), >=, 8);
  g_free (clarify_test_save_screenshot (view, "notify-history-in-window-en"));

  clarify_application_remove_backend (app, backend);
}

/* The waiting line in German, where it is longest, in a dialog built in
 * German: it fits beside the buttons. */
static void
test_waiting_line_german (void)
{
  g_autoptr(ClarifyRequest) request = single_question_request ("german", CLARIFY_QUESTION_KIND_CONFIRM);
  ClarifyRequestDialog *dialog;

  clarify_test_set_language ("de");
  dialog = clarify_request_dialog_new (NULL, request);
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  clarify_request_dialog_set_n_waiting (dialog, 2);
  g_assert_cmpstr (clarify_request_dialog_get_waiting_text (dialog), ==, "Noch 2 weitere Fragen warten");
  g_assert_nonnull (clarify_test_find_button (GTK_WIDGET (dialog), "Abbrechen"));
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), "notify-waiting-de"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  clarify_test_set_language ("en");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  /* No MCP endpoint of the app's own: the test starts one on a free port. */
  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);
  clarify_test_notifications_start (NULL);

  shell = clarify_test_shell_connect ();

  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/notify/buttons-answer-as-dialog", test_buttons_answer_as_dialog);
  g_test_add_func ("/notify/opencode-permission", test_opencode_permission);
  g_test_add_func ("/notify/forged-target", test_forged_target);
  g_test_add_func ("/notify/button-of-an-earlier-run", test_button_of_an_earlier_run);
  g_test_add_func ("/notify/withdrawn-on-each-end", test_withdrawn_on_each_end);
  g_test_add_func ("/notify/mcp-caller-named", test_mcp_caller_named);
  g_test_add_func ("/notify/quiet-while-focused", test_quiet_while_focused);
  g_test_add_func ("/notify/present-again-while-focused", test_present_again_while_focused);
  g_test_add_func ("/notify/waiting-line-german", test_waiting_line_german);
  g_test_add_func ("/notify/long-body", test_long_body);
  g_test_add_func ("/notify/titled-body", test_titled_body);
  g_test_add_func ("/notify/private-home", test_private_home);

  status = g_test_run ();

  g_clear_object (&shell);
  clarify_test_remove_tree (home);
  return status;
}
