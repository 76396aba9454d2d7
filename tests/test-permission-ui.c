/* test-permission-ui.c: permissions, option previews, a request's own Skip
 * and Cancel words and the question's header tag, in real dialogs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-choice-chips.h"
#include "clarify-choice-input.h"
#include "clarify-claude-code-codec.h"
#include "clarify-permission-input.h"
#include "clarify-question-page.h"
#include "clarify-request-private.h"
#include "clarify-test-claude-code.h"
#include "clarify-test-dialog.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"
#include "clarify-text-frame.h"

/* A button activated by a key clicks after its pressed look. */
static void
assert_answered (Run        *run,
                 const char *expected_json)
{
  g_assert_true (clarify_test_wait_until (run_is_destroyed, run, 5000));
  assert_response (run, expected_json);
}

/* Once the window shows all of its content. */
static void
screenshot (Run        *run,
            const char *name)
{
  assert_fits (run);
  shot (run, name);
}

static GtkWidget *
focus_of (Run *run)
{
  return gtk_root_get_focus (GTK_ROOT (run->dialog));
}

/* Whether @data, a label, shows all of its text, without scrolling. */
static gboolean
shows_whole (gpointer data)
{
  GtkWidget *label = data;
  GtkWidget *scrolled = gtk_widget_get_ancestor (label, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

  return gtk_widget_get_mapped (label) &&
         gtk_adjustment_get_upper (adjustment) <= gtk_adjustment_get_page_size (adjustment);
}

/* Mapped labels below @root that show exactly @text. */
static guint
count_shown (GtkWidget  *root,
             const char *text)
{
  guint n = 0;

  if (!gtk_widget_get_mapped (root))
    return 0;
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    n++;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    n += count_shown (child, text);

  return n;
}

/* Requests ------------------------------------------------------------------------ */

/* From a Claude Code session. */
static ClarifyRequest *
new_claude_request (const char *id,
                    const char *title,
                    const char *context)
{
  ClarifyRequest *request = new_request (id, title, context);
  g_autofree char *project = g_build_filename (g_get_home_dir (), "src", "shop", NULL);

  clarify_request_set_connection (request, "Claude Code", NULL);
  clarify_request_set_project (request, project);
  clarify_request_set_session (request, "3f2b9c1e-5d4a-4e8b-9c7f-0a1b2c3d4e5f");

  return request;
}

/* An option with a preview. */
static void
add_choice (ClarifyQuestion *question,
            const char      *label,
            const char      *value,
            const char      *description,
            const char      *preview)
{
  clarify_option_set_preview (add_option (question, label, value, description), preview);
}

static const char bash_command[] =
  "npm ci --no-audit --prefer-offline && npm run build -- --mode production --sourcemap && "
  "rsync -az --delete --exclude '*.map' dist/ deploy@staging.example.com:/srv/www/shop/releases/2026-11-25/ && "
  "ssh deploy@staging.example.com 'ln -sfn /srv/www/shop/releases/2026-11-25 /srv/www/shop/current "
  "&& systemctl --user restart shop.service'";

/* A permission as Claude Code asks it: allow once, always (a rule) or deny,
 * with a message. */
static ClarifyRequest *
new_permission (const char *tool,
                const char *text,
                const char *subject,
                const char *context,
                const char *rule)
{
  ClarifyRequest *request = new_claude_request ("perm-1", NULL, context);
  ClarifyQuestion *q = add_question (request, "permission", CLARIFY_QUESTION_KIND_PERMISSION, tool, text);

  clarify_question_set_subject (q, subject);
  clarify_question_set_allow_other (q, TRUE);
  add_option (q, T ("Allow once", "Einmal erlauben"), CLARIFY_PERMISSION_ONCE, NULL);
  add_option (q, T ("Always allow", "Immer erlauben"), CLARIFY_PERMISSION_ALWAYS, rule);
  add_option (q, T ("Deny", "Ablehnen"), CLARIFY_PERMISSION_REJECT, NULL);

  return request;
}

static ClarifyRequest *
new_bash_permission (void)
{
  return new_permission ("Bash",
                         T ("Allow this Bash command?", "Diesen Bash-Befehl erlauben?"),
                         bash_command,
                         T ("Build the shop and deploy it to staging",
                            "Den Shop bauen und auf Staging ausrollen"),
                         T ("From now on, allow without asking: Bash(npm ci:*) and Bash(npm run build:*)",
                            "Ab jetzt ohne Rückfrage erlauben: Bash(npm ci:*) und Bash(npm run build:*)"));
}

static ClarifyPermissionInput *
permission_input (Run *run)
{
  ClarifyInput *input = clarify_request_dialog_get_input (run->dialog, 0);

  g_assert_true (CLARIFY_IS_PERMISSION_INPUT (input));
  return CLARIFY_PERMISSION_INPUT (input);
}

/* Permissions --------------------------------------------------------------------- */

/* Keyboard only: Allow Once has the focus and is the default; Enter answers. */
static void
test_allow_once_by_enter (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autofree char *always_description = NULL;
  ClarifyPermissionInput *input;
  GtkWidget *once, *subject;
  Run run = { 0 };

  set_language (data);
  request = new_bash_permission ();
  run_start (&run, request);
  input = permission_input (&run);
  once = clarify_permission_input_get_default_button (input);

  /* The three buttons are the actions: no Submit, Cancel or Skip below. */
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "actions")));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (once)), ==, OUR ("Allow Once"));
  g_assert_true (gtk_widget_has_css_class (once, "suggested-action"));
  /* Enter answers with the focused button only: no default behind it. */
  g_assert_true (focus_of (&run) == once);
  g_assert_null (gtk_window_get_default_widget (GTK_WINDOW (run.dialog)));

  /* The command whole, in monospace, wrapped, and no Tab stop. */
  subject = clarify_permission_input_get_subject_label (input);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (subject)), ==, bash_command);
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (subject)));
  g_assert_cmpint (gtk_label_get_lines (GTK_LABEL (subject)), ==, -1);
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (subject)), ==, PANGO_ELLIPSIZE_NONE);
  g_assert_true (gtk_widget_has_css_class (subject, "monospace"));
  g_assert_false (gtk_widget_get_focusable (subject));
  g_assert_true (clarify_test_wait_until (shows_whole, subject, 5000));

  /* Shift+Tab goes Always Allow, Deny, "Add a message…", never into the
   * command's frame. */
  for (guint i = 0; i < 6; i++)
    {
      gtk_widget_child_focus (GTK_WIDGET (run.dialog), GTK_DIR_TAB_BACKWARD);
      g_assert_nonnull (focus_of (&run));
      g_assert_false (gtk_widget_is_ancestor (focus_of (&run), gtk_widget_get_ancestor (subject, CLARIFY_TYPE_TEXT_FRAME)));
      if (i == 0)
        g_assert_true (focus_of (&run) == clarify_permission_input_get_button (input, CLARIFY_PERMISSION_ALWAYS));
      if (i == 1)
        g_assert_true (focus_of (&run) == clarify_permission_input_get_button (input, CLARIFY_PERMISSION_REJECT));
      if (i == 2)
        g_assert_true (gtk_widget_is_ancestor (focus_of (&run), clarify_permission_input_get_message_expander (input)) ||
                       focus_of (&run) == clarify_permission_input_get_message_expander (input));
    }
  g_assert_true (gtk_widget_grab_focus (once));

  /* Clear names, with the command as the description. */
  gtk_test_accessible_assert_property (once, GTK_ACCESSIBLE_PROPERTY_LABEL, OUR ("Allow Once"));
  gtk_test_accessible_assert_property (once, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, bash_command);
  gtk_test_accessible_assert_property (clarify_permission_input_get_button (input, CLARIFY_PERMISSION_REJECT),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, OUR ("Deny"));
  /* Always Allow says the rule it adds too. */
  always_description = g_strdup_printf ("%s\n%s", bash_command,
                                        T ("From now on, allow without asking: Bash(npm ci:*) and Bash(npm run build:*)",
                                           "Ab jetzt ohne Rückfrage erlauben: Bash(npm ci:*) und Bash(npm run build:*)"));
  gtk_test_accessible_assert_property (clarify_permission_input_get_button (input, CLARIFY_PERMISSION_ALWAYS),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, always_description);
  /* The tool is the question's tag, shown once. */
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), "Bash"), ==, 1);
  screenshot (&run, "permission-bash");

  g_assert_true (clarify_test_send_key (GTK_WIDGET (run.dialog), GDK_KEY_Return, 0));
  assert_answered (&run,
                   "{\"id\":\"perm-1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"permission\",\"values\":[\"once\"]}]}");
  run_clear (&run);
}

/* A real key press through the X server, as typing meant for another
 * window arrives when a dialog pops up under it. */
static void
x_server_key (const char *key)
{
  const char *argv[] = { "xdotool", "key", "--clearmodifiers", key, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static gboolean
keys_were_ignored (gpointer data)
{
  Run *run = data;

  return clarify_request_dialog_get_n_keys_ignored (run->dialog) > 0;
}

typedef struct
{
  Run   *run;
  guint  n_sent;
} Typing;

static gboolean
all_keys_ignored (gpointer data)
{
  Typing *typing = data;

  return clarify_request_dialog_get_n_keys_ignored (typing->run->dialog) == typing->n_sent;
}

static gboolean
keys_are_taken (gpointer data)
{
  Run *run = data;

  return !clarify_request_dialog_get_key_guarded (run->dialog);
}

/* Once the guard lets go, Enter approves once, as the focused button says. */
static void
enter_once_keys_are_taken (Run *run)
{
  g_assert_true (clarify_test_wait_until (keys_are_taken, run, 10000));
  x_server_key ("Return");
  assert_answered (run,
                   "{\"id\":\"perm-1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"permission\",\"values\":[\"once\"]}]}");
}

/* An Enter meant for an editor must not approve a command: a dialog ignores
 * keys for a moment after it appears, then takes them as usual. */
static void
test_key_guard (void)
{
  g_autoptr(ClarifyRequest) request = new_bash_permission ();
  Run run = { 0 };

  run_create (&run, request);
  /* Long enough that a loaded machine cannot end it before the first key. */
  clarify_request_dialog_set_key_guard_ms (run.dialog, 4000);
  clarify_test_present_and_wait (GTK_WINDOW (run.dialog));
  g_assert_true (clarify_request_dialog_get_key_guarded (run.dialog));

  x_server_key ("Return");
  g_assert_true (clarify_test_wait_until (keys_were_ignored, &run, 5000));
  g_assert_cmpuint (run.n_responses, ==, 0);
  g_assert_false (run_is_destroyed (&run));

  enter_once_keys_are_taken (&run);
  g_assert_cmpuint (clarify_request_dialog_get_n_keys_ignored (run.dialog), ==, 1);
  run_clear (&run);
}

/* A modal window of Clarify's main window (Preferences, a connection's
 * editor) grabs its window group: a question that shared the group took no
 * key or click until the modal window closed. */
static void
test_modal_window_elsewhere (void)
{
  g_autoptr(ClarifyRequest) request = new_bash_permission ();
  GtkWidget *main_window = gtk_window_new ();
  GtkWidget *modal = gtk_window_new ();
  Run run = { 0 };

  gtk_window_set_title (GTK_WINDOW (modal), "Preferences");
  gtk_window_set_transient_for (GTK_WINDOW (modal), GTK_WINDOW (main_window));
  gtk_window_set_modal (GTK_WINDOW (modal), TRUE);
  clarify_test_present_and_wait (GTK_WINDOW (main_window));
  clarify_test_present_and_wait (GTK_WINDOW (modal));

  run_create (&run, request);
  clarify_request_dialog_set_key_guard_ms (run.dialog, 100);
  clarify_test_present_and_wait (GTK_WINDOW (run.dialog));
  enter_once_keys_are_taken (&run);
  run_clear (&run);

  gtk_window_destroy (GTK_WINDOW (modal));
  gtk_window_destroy (GTK_WINDOW (main_window));
}

/* A person who keeps typing for another window, past the guard's first
 * period, still answers nothing: each ignored key holds the guard up. */
static void
test_key_guard_while_typing (void)
{
  g_autoptr(ClarifyRequest) request = new_bash_permission ();
  /* Keys must come within the guard's period; a sanitized build sends them
   * several times slower (tests/meson.build's asan setup). */
  const guint guard_ms = clarify_test_scaled_ms (2000);
  Run run = { 0 };
  Typing typing = { &run, 0 };
  gint64 shown_at, last_key_at;

  run_create (&run, request);
  clarify_request_dialog_set_key_guard_ms (run.dialog, guard_ms);
  clarify_test_present_and_wait (GTK_WINDOW (run.dialog));
  shown_at = g_get_monotonic_time ();
  last_key_at = shown_at;

  /* Keys 700 ms apart, until one comes well past the first period. */
  while (last_key_at - shown_at < (gint64) (guard_ms + 300) * 1000)
    {
      x_server_key ("Return");
      last_key_at = g_get_monotonic_time ();
      typing.n_sent++;
      g_assert_true (clarify_test_wait_until (all_keys_ignored, &typing, 5000));
      g_assert_cmpuint (run.n_responses, ==, 0);
      clarify_test_spin (700);
    }
  g_assert_cmpuint (typing.n_sent, >=, 3);
  g_assert_false (run_is_destroyed (&run));

  enter_once_keys_are_taken (&run);
  g_assert_cmpuint (clarify_request_dialog_get_n_keys_ignored (run.dialog), ==, typing.n_sent);
  run_clear (&run);
}

static const char edit_path[] =
  "/home/user/src/shop/src/components/checkout/payment/PaymentMethodSelector.test.tsx";

/* One click on Always Allow answers; the rule it adds is on screen. */
static void
test_always_by_click (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  const char *rule = NULL;
  GtkWidget *always;
  Run run = { 0 };

  set_language (data);
  rule = T ("Allow all edits in src/components/ for this session",
            "Alle Änderungen in src/components/ für diese Sitzung erlauben");
  request = new_permission ("Edit", T ("Allow this edit?", "Diese Änderung erlauben?"), edit_path,
                            T ("Add a test for the card expiry check", "Einen Test für die Ablaufprüfung der Karte ergänzen"),
                            rule);
  run_start (&run, request);
  always = clarify_permission_input_get_button (permission_input (&run), CLARIFY_PERMISSION_ALWAYS);

  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (always)), ==, OUR ("Always Allow"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (always), ==, rule);
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), rule), ==, 1);
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), edit_path), ==, 1);
  screenshot (&run, "permission-edit");

  g_signal_emit_by_name (always, "clicked");
  assert_answered (&run,
                   "{\"id\":\"perm-1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"permission\",\"values\":[\"always\"]}]}");
  run_clear (&run);
}

/* "Add a message…" opens an entry; its text goes with Deny. */
static void
test_deny_with_message (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autofree char *expected = NULL;
  ClarifyPermissionInput *input;
  GtkWidget *expander, *entry;
  const char *message;
  Run run = { 0 };

  set_language (data);
  request = new_bash_permission ();
  run_start (&run, request);
  input = permission_input (&run);
  expander = clarify_permission_input_get_message_expander (input);
  entry = clarify_permission_input_get_message_entry (input);

  /* Closed at first: one line, no field. */
  g_assert_true (gtk_widget_get_mapped (expander));
  g_assert_false (gtk_widget_get_mapped (entry));
  g_assert_cmpstr (gtk_expander_get_label (GTK_EXPANDER (expander)), ==, OUR ("Add a _message…"));

  /* Opened from the keyboard, it puts the cursor in the field. Enter went
   * to it, not to a default button behind it (that would have been
   * activated instead, and the expander left closed). */
  gtk_widget_grab_focus (expander);
  g_assert_true (clarify_test_send_key (GTK_WIDGET (run.dialog), GDK_KEY_Return, 0));
  g_assert_true (gtk_expander_get_expanded (GTK_EXPANDER (expander)));
  g_assert_true (gtk_widget_get_mapped (entry));
  g_assert_true (gtk_widget_is_ancestor (focus_of (&run), entry));

  message = T ("Deploy to staging only after the tests pass, please.",
               "Bitte erst nach grünen Tests auf Staging ausrollen.");
  gtk_editable_set_text (GTK_EDITABLE (entry), message);
  /* Typing is not yet an answer, and no mistake either. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_error_label (run.dialog, 0))));
  screenshot (&run, "permission-deny-message");

  g_signal_emit_by_name (clarify_permission_input_get_button (input, CLARIFY_PERMISSION_REJECT), "clicked");
  expected = g_strdup_printf ("{\"id\":\"perm-1\",\"outcome\":\"answered\",\"answers\":["
                              "{\"question_id\":\"permission\",\"values\":[\"reject\"],\"custom_text\":\"%s\"}]}",
                              message);
  assert_answered (&run, expected);
  run_clear (&run);
}

/* A bash permission shown with "Not on a Friday" typed as its message. */
static ClarifyPermissionInput *
start_with_message (Run            *run,
                    ClarifyRequest *request)
{
  ClarifyPermissionInput *input;

  run_start (run, request);
  input = permission_input (run);
  gtk_expander_set_expanded (GTK_EXPANDER (clarify_permission_input_get_message_expander (input)), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (clarify_permission_input_get_message_entry (input)), "Not on a Friday");

  return input;
}

/* Enter in the message field refuses with it; a message never goes with
 * an approval. */
static void
test_message_goes_with_deny_only (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyPermissionInput *input;
  Run refused = { 0 };
  Run allowed = { 0 };

  set_language ("en");
  request = new_bash_permission ();

  start_with_message (&refused, request);
  g_assert_true (clarify_test_send_key (GTK_WIDGET (refused.dialog), GDK_KEY_Return, 0));
  assert_answered (&refused,
                   "{\"id\":\"perm-1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"permission\",\"values\":[\"reject\"],\"custom_text\":\"Not on a Friday\"}]}");
  run_clear (&refused);

  input = start_with_message (&allowed, request);
  g_signal_emit_by_name (clarify_permission_input_get_default_button (input), "clicked");
  assert_answered (&allowed,
                   "{\"id\":\"perm-1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"permission\",\"values\":[\"once\"]}]}");
  run_clear (&allowed);
}

/* Answered in the terminal first: the notice shows where the action bar
 * was hidden, and the buttons answer nothing any more. */
static void
test_permission_withdrawn (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_bash_permission ();
  run_start (&run, request);
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "actions")));

  clarify_request_withdraw (request, CLARIFY_END_REASON_AGENT_WITHDREW, "Answered in the terminal.");
  g_assert_true (gtk_widget_get_mapped (find_by_id (&run, "notice_label")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (&run, "notice_label"))), ==, "Answered in the terminal.");
  g_assert_false (gtk_widget_is_sensitive (clarify_permission_input_get_default_button (permission_input (&run))));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (run.dialog)) == find_by_id (&run, "notice_close_button"));

  run_clear (&run);
  g_assert_cmpuint (run.n_responses, ==, 0);
}

/* Only the answers the agent offers; without allow_other, no message. */
static void
test_offered_answers_only (void)
{
  g_autoptr(ClarifyRequest) request = new_claude_request ("perm-2", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "permission", CLARIFY_QUESTION_KIND_PERMISSION, NULL,
                                     "Allow reading the file?");
  ClarifyPermissionInput *input;
  Run run = { 0 };

  set_language ("en");
  clarify_question_set_subject (q, "/etc/hosts");
  add_option (q, "Allow once", CLARIFY_PERMISSION_ONCE, NULL);
  add_option (q, "Deny", CLARIFY_PERMISSION_REJECT, NULL);
  run_start (&run, request);
  input = permission_input (&run);

  g_assert_null (clarify_permission_input_get_button (input, CLARIFY_PERMISSION_ALWAYS));
  g_assert_null (clarify_permission_input_get_message_expander (input));
  g_assert_true (gtk_widget_get_mapped (clarify_permission_input_get_button (input, CLARIFY_PERMISSION_REJECT)));

  /* Deny from the keyboard: Shift+Tab from Allow Once, then Enter. */
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (run.dialog), GTK_DIR_TAB_BACKWARD));
  g_assert_true (focus_of (&run) == clarify_permission_input_get_button (input, CLARIFY_PERMISSION_REJECT));
  g_assert_true (clarify_test_send_key (GTK_WIDGET (run.dialog), GDK_KEY_Return, 0));
  assert_answered (&run,
                   "{\"id\":\"perm-2\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"permission\",\"values\":[\"reject\"]}]}");
  run_clear (&run);
}

static gboolean
scrolls (gpointer data)
{
  GtkScrolledWindow *scrolled = data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scrolled);

  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) &&
         gtk_widget_get_focusable (GTK_WIDGET (scrolled));
}

/* A command too long for the dialog scrolls, whole, and can be scrolled
 * from the keyboard. */
static void
test_long_subject_scrolls (void)
{
  g_autoptr(ClarifyRequest) request = new_claude_request ("perm-3", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "permission", CLARIFY_QUESTION_KIND_PERMISSION, "Bash",
                                     "Allow this Bash command?");
  g_autoptr(GString) script = g_string_new (NULL);
  GtkWidget *subject, *scrolled;
  Run run = { 0 };

  set_language ("en");
  for (guint i = 1; i <= 60; i++)
    g_string_append_printf (script, "%secho step %u of 60 && sleep 1", i > 1 ? " &&\n" : "", i);
  clarify_question_set_subject (q, script->str);
  add_option (q, "Allow once", CLARIFY_PERMISSION_ONCE, NULL);
  add_option (q, "Deny", CLARIFY_PERMISSION_REJECT, NULL);
  run_start (&run, request);

  subject = clarify_permission_input_get_subject_label (permission_input (&run));
  scrolled = gtk_widget_get_ancestor (subject, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (subject)), ==, script->str);
  g_assert_true (clarify_test_wait_until (scrolls, scrolled, 5000));
  /* The window holds the frame and the buttons below it. */
  assert_fits (&run);
  g_assert_true (gtk_widget_get_mapped (clarify_permission_input_get_default_button (permission_input (&run))));
  screenshot (&run, "permission-long");

  run_clear (&run);
}

/* Previews -------------------------------------------------------------------------- */

static const char layout_preview_sidebar[] =
  "+----------+---------------------+\n"
  "| Orders   |  Order #1042        |\n"
  "| Returns  |  2 items · 84,90 €  |\n"
  "| Settings |  [ Refund ] [ Ship ]|\n"
  "+----------+---------------------+";

static const char layout_preview_tabs[] =
  "+--------+---------+----------+\n"
  "| Orders | Returns | Settings |\n"
  "+--------+---------+----------+\n"
  "|  Order #1042   [Refund][Ship]|\n"
  "+------------------------------+";

static const char cache_preview[] =
  "const cache = new LRUCache({ max: 500, ttl: 60_000 });";

/* As Claude Code's AskUserQuestion: two questions with headers, one multiple. */
static ClarifyRequest *
new_ask_user_question (void)
{
  ClarifyRequest *request = new_claude_request ("ask-1", NULL, NULL);
  ClarifyQuestion *layout, *features;

  layout = add_question (request, "layout", CLARIFY_QUESTION_KIND_SINGLE, T ("Layout", "Layout"),
                         T ("How should the admin page be laid out?", "Wie soll die Admin-Seite aufgebaut sein?"));
  clarify_question_set_allow_other (layout, TRUE);
  add_choice (layout, T ("Sidebar", "Seitenleiste"), "Sidebar",
              T ("Navigation on the left, details on the right", "Navigation links, Details rechts"),
              layout_preview_sidebar);
  add_choice (layout, T ("Tabs", "Reiter"), "Tabs",
              T ("One tab per area, full width", "Ein Reiter je Bereich, volle Breite"),
              layout_preview_tabs);

  features = add_question (request, "features", CLARIFY_QUESTION_KIND_MULTI, T ("Extras", "Extras"),
                           T ("Which extras should the first version have?",
                              "Welche Extras soll die erste Version haben?"));
  clarify_question_set_allow_other (features, TRUE);
  add_choice (features, T ("Response cache", "Antwort-Cache"), "Response cache",
              T ("Keeps order lists for a minute", "Hält Bestelllisten eine Minute vor"), cache_preview);
  add_option (features, T ("CSV export", "CSV-Export"), "CSV export",
              T ("Orders as a spreadsheet", "Bestellungen als Tabelle"));
  add_option (features, T ("Audit log", "Prüfprotokoll"), "Audit log",
              T ("Who changed what, and when", "Wer wann was geändert hat"));

  return request;
}

static GtkWidget *
chip (ClarifyInput *input,
      guint         index)
{
  GtkWidget *view = clarify_choice_input_get_view (CLARIFY_CHOICE_INPUT (input));
  GtkWidget *button = clarify_choice_chips_get_chip (CLARIFY_CHOICE_CHIPS (view), index);

  g_assert_nonnull (button);
  return button;
}

/* As a click does: the focus, then the toggle. */
static void
click (GtkWidget *button)
{
  g_assert_true (gtk_widget_grab_focus (button));
  g_signal_emit_by_name (button, "clicked");
}

/* The preview label's text while its frame shows, else NULL. */
static const char *
shown_preview (ClarifyInput *input)
{
  GtkWidget *preview = clarify_choice_input_get_preview (CLARIFY_CHOICE_INPUT (input));

  g_assert_nonnull (preview);
  if (!gtk_widget_get_mapped (preview))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (preview));
}

static void
test_previews_on_focus (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyInput *layout, *features;
  Run run = { 0 };

  set_language (data);
  request = new_ask_user_question ();
  run_start (&run, request);
  layout = clarify_request_dialog_get_input (run.dialog, 0);
  features = clarify_request_dialog_get_input (run.dialog, 1);

  /* The first option has the focus from the start; the second question has
   * nothing highlighted yet, so no frame. */
  g_assert_false (clarify_request_dialog_get_paged (run.dialog));
  g_assert_true (focus_of (&run) == chip (layout, 0));
  g_assert_cmpstr (shown_preview (layout), ==, layout_preview_sidebar);
  g_assert_null (shown_preview (features));

  /* The focus on an option shows its preview, in monospace. */
  g_assert_true (gtk_widget_grab_focus (chip (layout, 1)));
  g_assert_cmpstr (shown_preview (layout), ==, layout_preview_tabs);
  g_assert_true (gtk_widget_has_css_class (clarify_choice_input_get_preview (CLARIFY_CHOICE_INPUT (layout)),
                                           "monospace"));
  /* The arrows move between the chips (Tab leaves them). */
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (run.dialog), GTK_DIR_LEFT));
  g_assert_true (focus_of (&run) == chip (layout, 0));
  g_assert_cmpstr (shown_preview (layout), ==, layout_preview_sidebar);

  /* "Other…" has none. */
  g_assert_true (gtk_widget_grab_focus (chip (layout, 2)));
  g_assert_null (shown_preview (layout));
  /* A picked option keeps its preview while the focus is elsewhere. */
  click (chip (layout, 0));
  g_assert_true (gtk_widget_grab_focus (chip (layout, 2)));
  g_assert_cmpstr (shown_preview (layout), ==, layout_preview_sidebar);
  g_assert_true (gtk_widget_grab_focus (chip (features, 0)));
  g_assert_cmpstr (shown_preview (layout), ==, layout_preview_sidebar);
  g_assert_cmpstr (shown_preview (features), ==, cache_preview);
  /* The window grows for a preview that the focus alone brought. */
  assert_fits (&run);

  /* An option without a preview hides the frame. */
  g_assert_true (gtk_widget_grab_focus (chip (features, 1)));
  g_assert_null (shown_preview (features));
  click (chip (features, 1));
  g_assert_null (shown_preview (features));
  click (chip (features, 0));
  g_assert_cmpstr (shown_preview (features), ==, cache_preview);

  /* Each tag once, in place of a heading. */
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), T ("Layout", "Layout")), ==, 1);
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), T ("Extras", "Extras")), ==, 1);
  screenshot (&run, "ask-user-question");

  /* Unpicked, an option's preview goes with the focus. */
  click (chip (features, 0));
  g_assert_true (gtk_widget_grab_focus (chip (layout, 1)));
  g_assert_null (shown_preview (features));

  gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.submit", NULL);
  assert_answered (&run,
                   "{\"id\":\"ask-1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"layout\",\"values\":[\"Sidebar\"]},"
                   "{\"question_id\":\"features\",\"values\":[\"CSV export\"]}]}");
  run_clear (&run);
}

/* Notes ---------------------------------------------------------------------------- */

static ClarifyQuestionPage *
page_of (ClarifyInput *input)
{
  GtkWidget *page = gtk_widget_get_ancestor (GTK_WIDGET (input), CLARIFY_TYPE_QUESTION_PAGE);

  g_assert_nonnull (page);
  return CLARIFY_QUESTION_PAGE (page);
}

/* Claude Code's AskUserQuestion from its hook: Tab from the chips reaches
 * "Add a note…", Space opens it into the field, Enter answers; the hook's
 * stdout carries the note beside the picked option's preview. A note typed
 * and folded away again is not sent. */
static void
test_ask_user_question_note (gconstpointer data)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/permission-ask-user-question.json");
  g_autoptr(ClarifyClaudeHook) hook = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *expected = NULL;
  ClarifyInput *features, *database;
  GtkExpander *expander, *dropped;
  GtkWidget *label, *entry;
  const char *note;
  Run run = { 0 };

  set_language (data);
  note = T ("  only for the prototype ", "  nur für den Prototyp ");
  hook = clarify_claude_hook_decode (input, -1, "claude-code-1", &error);
  g_assert_no_error (error);
  run_start (&run, hook->request);
  features = input_at (&run, 0);
  database = input_at (&run, 1);

  click (chip (features, 1));
  click (chip (database, 0));

  /* Closed at first, and named for a screen reader by its own words. */
  expander = clarify_question_page_get_note_expander (page_of (database));
  g_assert_nonnull (expander);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (expander)));
  g_assert_false (gtk_expander_get_expanded (expander));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (clarify_question_page_get_note_entry (page_of (database)))));
  label = gtk_expander_get_label_widget (expander);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, OUR ("Add a _note…"));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  gtk_test_accessible_assert_relation (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL);

  /* Keyboard only: Tab leaves the chips for the note; Space opens it. */
  g_assert_true (gtk_widget_grab_focus (chip (database, 0)));
  g_assert_true (clarify_test_send_key (GTK_WIDGET (run.dialog), GDK_KEY_Tab, 0));
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (expander)));
  g_assert_true (clarify_test_send_key (GTK_WIDGET (run.dialog), GDK_KEY_space, 0));
  g_assert_true (gtk_expander_get_expanded (expander));
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_STATE_EXPANDED, TRUE);
  entry = GTK_WIDGET (clarify_question_page_get_note_entry (page_of (database)));
  g_assert_true (focus_is_inside (&run, entry));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       OUR ("Note for the agent"));
  clarify_test_set_field_text (entry, note);

  /* The other question's note, typed and folded away. */
  dropped = clarify_question_page_get_note_expander (page_of (features));
  gtk_expander_set_expanded (dropped, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (clarify_question_page_get_note_entry (page_of (features))), "never mind");
  gtk_expander_set_expanded (dropped, FALSE);

  g_assert_true (gtk_widget_grab_focus (entry));
  screenshot (&run, "ask-user-question-note");

  /* Enter in the last question's note answers. */
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 5000));
  output = clarify_claude_hook_encode (hook->request, run.response, &error);
  g_assert_no_error (error);
  expected = g_strconcat ("{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{"
                          "\"behavior\":\"allow\",\"updatedInput\":{\"questions\":" CLARIFY_TEST_AUQ_QUESTIONS ","
                          "\"answers\":{\"Which features should the CLI support?\":\"Dark mode\","
                          "\"Which database should we use?\":\"SQLite\"},"
                          "\"annotations\":{\"Which database should we use?\":{\"notes\":\"",
                          T ("only for the prototype", "nur für den Prototyp"),
                          "\",\"preview\":\"db = sqlite3.connect(\\\"app.db\\\")\"}}}}}}", NULL);
  g_assert_cmpstr (output, ==, expected);
  run_clear (&run);
}

/* In the searchable list, the row with the focus shows its preview. */
static void
test_preview_in_list (void)
{
  g_autoptr(ClarifyRequest) request = new_claude_request ("ask-2", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "engine", CLARIFY_QUESTION_KIND_SINGLE, "Engine",
                                     "Which template engine?");
  const char *names[] = { "Handlebars", "Liquid", "Mustache", "Nunjucks", "Pug", "EJS" };
  GtkWidget *list, *row;
  ClarifyInput *input;
  Run run = { 0 };

  set_language ("en");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *preview = i % 2 == 0 ? g_strdup_printf ("{{> %s-partial }}", names[i]) : NULL;

      add_choice (q, names[i], names[i], NULL, preview);
    }
  run_start (&run, request);
  input = clarify_request_dialog_get_input (run.dialog, 0);
  list = clarify_test_find_descendant (GTK_WIDGET (input), GTK_TYPE_LIST_VIEW);
  g_assert_nonnull (list);

  /* The focus starts in the search: no preview. */
  g_assert_null (shown_preview (input));

  for (row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (clarify_test_find_label (row, "Mustache") != NULL)
      break;
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_grab_focus (row));
  g_assert_cmpstr (shown_preview (input), ==, "{{> Mustache-partial }}");

  for (row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (clarify_test_find_label (row, "Nunjucks") != NULL)
      break;
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_grab_focus (row));
  g_assert_null (shown_preview (input));

  run_clear (&run);
}

/* No option with a preview: no frame at all. */
static void
test_no_preview_frame (void)
{
  g_autoptr(ClarifyRequest) request = new_claude_request ("ask-3", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "db", CLARIFY_QUESTION_KIND_SINGLE, "Database", "Which database?");
  Run run = { 0 };

  set_language ("en");
  add_option (q, "PostgreSQL", "postgresql", NULL);
  add_option (q, "SQLite", "sqlite", NULL);
  run_start (&run, request);

  g_assert_null (clarify_choice_input_get_preview (CLARIFY_CHOICE_INPUT (clarify_request_dialog_get_input (run.dialog, 0))));
  run_clear (&run);
}

/* The request's words for Skip and Cancel -------------------------------------------- */

/* As an MCP form in Claude Code: the terminal can take over. */
static ClarifyRequest *
new_mcp_form (void)
{
  ClarifyRequest *request = new_claude_request ("form-1", T ("Release checklist", "Release-Checkliste"),
                                         T ("The release server needs a few details.",
                                            "Der Release-Server braucht ein paar Angaben."));
  ClarifyQuestion *q;
  ClarifyValidation validation;

  clarify_request_set_skippable (request, TRUE);
  clarify_request_set_cancellable (request, TRUE);
  clarify_request_set_skip_label (request, T ("Answer in the Terminal", "Im Terminal antworten"));
  clarify_request_set_cancel_label (request, T ("Decline", "Ablehnen"));

  q = add_question (request, "version", CLARIFY_QUESTION_KIND_TEXT, NULL,
                    T ("Version number", "Versionsnummer"));
  clarify_question_set_placeholder (q, "2.4.0");
  clarify_validation_init (&validation);
  validation.max_length = 20;
  clarify_question_set_validation (q, &validation);
  clarify_validation_clear (&validation);

  q = add_question (request, "replicas", CLARIFY_QUESTION_KIND_NUMBER, NULL,
                    T ("Replicas", "Replikate"));
  clarify_validation_init (&validation);
  validation.min = 1;
  validation.max = 10;
  validation.has_min = validation.has_max = TRUE;
  clarify_question_set_validation (q, &validation);
  clarify_validation_clear (&validation);

  add_question (request, "notify", CLARIFY_QUESTION_KIND_CONFIRM, NULL,
                T ("Notify the team?", "Das Team benachrichtigen?"));

  q = add_question (request, "channel", CLARIFY_QUESTION_KIND_SINGLE, NULL,
                    T ("Channel", "Kanal"));
  add_option (q, T ("Stable", "Stabil"), "stable", NULL);
  add_option (q, "Beta", "beta", NULL);

  return request;
}

static void
test_skip_and_cancel_words (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *skip, *cancel;
  Run run = { 0 };

  set_language (data);
  request = new_mcp_form ();
  run_start (&run, request);
  skip = find_by_id (&run, "skip_button");
  cancel = find_by_id (&run, "cancel_button");

  g_assert_true (gtk_widget_get_mapped (skip));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (skip)), ==, T ("Answer in the Terminal", "Im Terminal antworten"));
  g_assert_true (gtk_widget_get_mapped (cancel));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cancel)), ==, T ("Decline", "Ablehnen"));
  g_assert_null (clarify_test_find_button (GTK_WIDGET (run.dialog), OUR ("Skip All")));
  screenshot (&run, "mcp-form");

  g_signal_emit_by_name (skip, "clicked");
  assert_answered (&run, "{\"id\":\"form-1\",\"outcome\":\"skipped\"}");
  run_clear (&run);
}

/* Without words of its own, the usual ones. */
static void
test_usual_skip_and_cancel_words (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("de");
  request = new_mcp_form ();
  clarify_request_set_skip_label (request, NULL);
  clarify_request_set_cancel_label (request, NULL);
  run_start (&run, request);

  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_by_id (&run, "skip_button"))), ==, OUR ("Skip All"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_by_id (&run, "cancel_button"))), ==, OUR ("Cancel"));
  run_clear (&run);
}

/* The header ------------------------------------------------------------------------ */

/* A title that repeats the lone question's header is not shown as well. */
static void
test_header_once (void)
{
  g_autoptr(ClarifyRequest) request = new_claude_request ("db-1", "Database", "Pick one.");
  g_autoptr(ClarifyRequest) titled = new_claude_request ("db-2", "New service", NULL);
  ClarifyQuestion *q;
  GtkWidget *tag;
  Run run = { 0 };

  set_language ("en");
  q = add_question (request, "db", CLARIFY_QUESTION_KIND_SINGLE, "database", "Which database?");
  add_option (q, "PostgreSQL", "postgresql", NULL);
  add_option (q, "SQLite", "sqlite", NULL);
  run_start (&run, request);

  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "title_label")));
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), "Database"), ==, 0);
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), "database"), ==, 1);
  tag = find_by_id (&run, "header_label");
  g_assert_true (gtk_widget_has_css_class (tag, "clarify-tag"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tag)), ==, "database");
  run_clear (&run);

  /* A title of its own stays. */
  q = add_question (titled, "db", CLARIFY_QUESTION_KIND_SINGLE, "Database", "Which database?");
  add_option (q, "PostgreSQL", "postgresql", NULL);
  add_option (q, "SQLite", "sqlite", NULL);
  run_start (&run, titled);
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), "New service"), ==, 1);
  g_assert_cmpuint (count_shown (GTK_WIDGET (run.dialog), "Database"), ==, 1);
  run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  add_language_test ("/permission/allow-once-by-enter", test_allow_once_by_enter);
  add_language_test ("/permission/always-by-click", test_always_by_click);
  add_language_test ("/permission/deny-with-message", test_deny_with_message);
  g_test_add_func ("/permission/message-goes-with-deny-only", test_message_goes_with_deny_only);
  g_test_add_func ("/permission/offered-answers-only", test_offered_answers_only);
  g_test_add_func ("/permission/withdrawn", test_permission_withdrawn);
  g_test_add_func ("/permission/key-guard", test_key_guard);
  g_test_add_func ("/permission/key-guard/while-typing", test_key_guard_while_typing);
  g_test_add_func ("/permission/modal-window-elsewhere", test_modal_window_elsewhere);
  g_test_add_func ("/permission/long-subject-scrolls", test_long_subject_scrolls);
  add_language_test ("/preview/on-focus", test_previews_on_focus);
  add_language_test ("/ask-user-question/note", test_ask_user_question_note);
  g_test_add_func ("/preview/in-list", test_preview_in_list);
  g_test_add_func ("/preview/none", test_no_preview_frame);
  add_language_test ("/actions/skip-and-cancel-words", test_skip_and_cancel_words);
  g_test_add_func ("/actions/usual-words", test_usual_skip_and_cancel_words);
  g_test_add_func ("/header/once", test_header_once);

  return g_test_run ();
}
