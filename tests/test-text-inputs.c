/* test-text-inputs.c: text, number and date questions in a real dialog,
 * typed into as a person does, in English and German
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "clarify-date-input.h"
#include "clarify-date-range-input.h"
#include "clarify-number-input.h"
#include "clarify-test-dialog.h"
#include "clarify-test-log.h"
#include "clarify-text-input.h"

/* Keys ---------------------------------------------------------------------- */

/* Runs the key press handlers and shortcuts a real key press reaches, in
 * its order: capture from the window down to the focus widget, then bubble
 * back up, until one takes it. Returns whether one did. */
static gboolean
send_key (Run             *run,
          guint            keyval,
          GdkModifierType  modifiers)
{
  GtkWidget *window = GTK_WIDGET (run->dialog);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();
  static const GtkPropagationPhase phases[] = { GTK_PHASE_CAPTURE, GTK_PHASE_TARGET, GTK_PHASE_BUBBLE };

  g_assert_nonnull (focus);
  for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
    g_ptr_array_add (chain, w);

  for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
    for (guint k = 0; k < chain->len; k++)
      {
        /* Capture runs from the window down, bubble from the focus up. */
        guint index = phases[p] == GTK_PHASE_CAPTURE ? chain->len - 1 - k : k;
        GtkWidget *widget = g_ptr_array_index (chain, index);
        g_autoptr(GListModel) controllers = NULL;

        if (phases[p] == GTK_PHASE_TARGET && widget != focus)
          continue;

        controllers = gtk_widget_observe_controllers (widget);
        for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
          {
            g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
            gboolean handled = FALSE;

            if (gtk_event_controller_get_propagation_phase (controller) != phases[p])
              continue;

            if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
              {
                g_signal_emit_by_name (controller, "key-pressed", keyval, 0, modifiers, &handled);
              }
            else if (GTK_IS_SHORTCUT_CONTROLLER (controller))
              {
                for (guint j = 0; !handled && j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
                  {
                    g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

                    if (clarify_test_trigger_matches (gtk_shortcut_get_trigger (shortcut), keyval, modifiers))
                      handled = gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                                              GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                              widget,
                                                              gtk_shortcut_get_arguments (shortcut));
                  }
              }

            if (handled)
              return TRUE;
          }
      }

  return FALSE;
}

/* Types @text at the cursor of the focus widget, one character at a time,
 * as the input method hands over what is typed. */
static void
type (Run        *run,
      const char *text)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (run->dialog));

  g_assert_nonnull (focus);
  for (const char *c = text; *c != '\0'; c = g_utf8_next_char (c))
    {
      int length = g_utf8_next_char (c) - c;

      if (GTK_IS_TEXT_VIEW (focus))
        {
          gtk_text_buffer_insert_interactive_at_cursor (gtk_text_view_get_buffer (GTK_TEXT_VIEW (focus)),
                                                        c, length, TRUE);
        }
      else
        {
          GtkEditable *editable = GTK_EDITABLE (focus);
          int position = gtk_editable_get_position (editable);

          gtk_editable_insert_text (editable, c, length, &position);
          gtk_editable_set_position (editable, position);
        }
    }
}

static void
focus_question (Run   *run,
                guint  position)
{
  clarify_test_present_and_wait (GTK_WINDOW (run->dialog));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (input_at (run, position))));
}

/* Labels ------------------------------------------------------------------- */

/* How many labels below @root show exactly @text (or contain it, when
 * @substring), with every ancestor visible. */
static guint
count_visible_labels (GtkWidget  *root,
                      const char *text,
                      gboolean    substring)
{
  guint n = 0;

  if (!gtk_widget_get_visible (root) || !gtk_widget_get_child_visible (root))
    return 0;

  if (GTK_IS_LABEL (root))
    {
      const char *shown = gtk_label_get_text (GTK_LABEL (root));

      if (substring ? strstr (shown, text) != NULL : g_str_equal (shown, text))
        n++;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_visible_labels (child, text, substring);

  return n;
}

/* Text ------------------------------------------------------------------- */

static ClarifyQuestion *
add_project_name (ClarifyRequest *request)
{
  ClarifyQuestion *q = add_question (request, "project-name", CLARIFY_QUESTION_KIND_TEXT,
                                     T ("Project name", "Projektname"),
                                     T ("What should the new project be called?",
                                        "Wie soll das neue Projekt heißen?"));
  ClarifyValidation validation;

  clarify_validation_init (&validation);
  validation.pattern = g_strdup ("^[a-z][a-z0-9-]*$");
  validation.max_length = 40;
  clarify_question_set_validation (q, &validation);
  clarify_validation_clear (&validation);
  clarify_question_set_placeholder (q, T ("my-project", "mein-projekt"));

  return q;
}

static void
test_text_enter_submits (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyTextInput *input;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", NULL, NULL);
  add_project_name (request);
  run_start (&run, request);

  /* A short answer is one line: an entry, not a text view. */
  input = CLARIFY_TEXT_INPUT (input_at (&run, 0));
  g_assert_false (clarify_text_input_get_multi_line (input));
  g_assert_true (GTK_IS_ENTRY (clarify_text_input_get_field (input)));
  g_assert_null (clarify_test_find_descendant (GTK_WIDGET (run.dialog), GTK_TYPE_TEXT_VIEW));
  shot (&run, "text-short");

  focus_question (&run, 0);
  type (&run, "clarify-demo");
  shot (&run, "text-short-typed");
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));

  /* Exactly what was typed: no newline, which the pattern's $ would let by. */
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"project-name\","
                   "\"values\":[\"clarify-demo\"]}]}");
  run_clear (&run);
}

static void
test_text_enter_moves_on (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", NULL, NULL);
  add_project_name (request);
  add_question (request, "owner", CLARIFY_QUESTION_KIND_TEXT,
                T ("Owner", "Verantwortlich"),
                T ("Who owns it?", "Wer ist verantwortlich?"));
  run_start (&run, request);

  /* Enter in the first goes on to the second, and only there submits. */
  focus_question (&run, 0);
  type (&run, "clarify-demo");
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  g_assert_false (run_is_destroyed (&run));
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (input_at (&run, 1))));

  type (&run, "Ada");
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"project-name\",\"values\":[\"clarify-demo\"]},"
                   "{\"question_id\":\"owner\",\"values\":[\"Ada\"]}]}");
  run_clear (&run);
}

static char *
buffer_text (GtkWidget *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
test_text_long_is_multi_line (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autofree char *typed = NULL;
  ClarifyQuestion *q;
  ClarifyValidation validation;
  ClarifyTextInput *input;
  GtkWidget *view;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", NULL, NULL);
  q = add_question (request, "notes", CLARIFY_QUESTION_KIND_TEXT,
                    T ("Release notes", "Versionshinweise"),
                    T ("What should the release notes say?", "Was soll in den Versionshinweisen stehen?"));
  clarify_validation_init (&validation);
  validation.max_length = 2000;
  clarify_question_set_validation (q, &validation);
  clarify_validation_clear (&validation);
  run_start (&run, request);

  /* Up to 2000 characters: a box where Enter starts a new line. */
  input = CLARIFY_TEXT_INPUT (input_at (&run, 0));
  g_assert_true (clarify_text_input_get_multi_line (input));
  view = clarify_text_input_get_field (input);
  g_assert_true (GTK_IS_TEXT_VIEW (view));
  gtk_test_accessible_assert_property (view, GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE);
  shot (&run, "text-long");

  focus_question (&run, 0);
  g_assert_true (gtk_widget_has_focus (view));
  type (&run, T ("Faster start-up.", "Schnellerer Start."));
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  type (&run, T ("Dates in your language.", "Datumsangaben in Ihrer Sprache."));
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  g_assert_false (run_is_destroyed (&run));
  typed = buffer_text (view);
  g_assert_cmpstr (typed, ==, T ("Faster start-up.\nDates in your language.\n",
                                 "Schnellerer Start.\nDatumsangaben in Ihrer Sprache.\n"));
  /* The counter counts what will be sent. */
  g_assert_cmpuint (count_visible_labels (GTK_WIDGET (run.dialog), T ("40 / 2000", "50 / 2000"), FALSE), ==, 1);
  shot (&run, "text-long-typed");

  /* Ctrl+Enter answers; the line break typed last was nothing to see. */
  g_assert_true (send_key (&run, GDK_KEY_Return, GDK_CONTROL_MASK));
  assert_response (&run, german
                   ? "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"notes\","
                     "\"values\":[\"Schnellerer Start.\\nDatumsangaben in Ihrer Sprache.\"]}]}"
                   : "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"notes\","
                     "\"values\":[\"Faster start-up.\\nDates in your language.\"]}]}");
  run_clear (&run);
}

/* Skipped from the keyboard while typing: the focus leaves the entry before
 * it turns insensitive (GTK warns about a focused entry that does, and the
 * warning is fatal here). */
static void
test_text_skip_while_typing (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkToggleButton *skip;
  ClarifyQuestion *q;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  q = add_project_name (request);
  clarify_question_set_skippable (q, TRUE);
  add_question (request, "owner", CLARIFY_QUESTION_KIND_TEXT, "Owner", "Who owns it?");
  run_start (&run, request);

  focus_question (&run, 0);
  type (&run, "clar");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.skip-question", NULL));
  skip = clarify_request_dialog_get_skip_toggle (run.dialog, 0);
  g_assert_true (gtk_toggle_button_get_active (skip));
  /* Skipping is an answer: on to the next question, ready to type. */
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (input_at (&run, 1))));
  g_assert_false (gtk_widget_is_sensitive (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (input_at (&run, 0)))));
  /* Long enough for a cursor blink. */
  clarify_test_spin (1500);

  run_clear (&run);
}

/* Too short: "at least 2 characters" is said once, by the error. */
static void
test_text_min_length_once (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autofree char *too_short = NULL;
  g_autofree char *hint = NULL;
  ClarifyQuestion *q;
  ClarifyValidation validation;
  GtkWidget *dialog;
  Run run = { 0 };

  set_language (data);
  too_short = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Please enter at least %d character.",
                                            "Please enter at least %d characters.", 2), 2);
  hint = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "At least %d character", "At least %d characters", 2), 2);
  request = new_request ("r1", NULL, NULL);
  q = add_question (request, "initials", CLARIFY_QUESTION_KIND_TEXT,
                    T ("Initials", "Kürzel"), T ("Your initials?", "Ihr Kürzel?"));
  clarify_validation_init (&validation);
  validation.min_length = 2;
  clarify_question_set_validation (q, &validation);
  run_start (&run, request);
  dialog = GTK_WIDGET (run.dialog);
  g_assert_cmpuint (count_visible_labels (dialog, hint, FALSE), ==, 1);

  focus_question (&run, 0);
  type (&run, "A");
  g_assert_cmpuint (count_visible_labels (dialog, too_short, FALSE), ==, 1);
  g_assert_cmpuint (count_visible_labels (dialog, hint, FALSE), ==, 0);
  type (&run, "L");
  g_assert_cmpuint (count_visible_labels (dialog, too_short, FALSE), ==, 0);
  g_assert_cmpuint (count_visible_labels (dialog, hint, FALSE), ==, 1);
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"initials\","
                   "\"values\":[\"AL\"]}]}");
  run_clear (&run);
}

/* Numbers -------------------------------------------------------------- */

static void
test_number_error_once (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *q;
  ClarifyValidation validation;
  GtkWidget *dialog;
  const char *range;
  g_autofree char *too_many = NULL;
  g_autofree char *too_few = NULL;
  Run run = { 0 };

  set_language (data);
  too_many = g_strdup_printf (OUR ("The number must be at most %s."), "64");
  too_few = g_strdup_printf (OUR ("The number must be at least %s."), "1");
  request = new_request ("r1", NULL, NULL);
  q = add_question (request, "workers", CLARIFY_QUESTION_KIND_NUMBER,
                    T ("Workers", "Prozesse"),
                    T ("How many worker threads should the service start?",
                       "Wie viele Prozesse soll der Dienst starten?"));
  clarify_validation_init (&validation);
  validation.has_min = validation.has_max = TRUE;
  validation.min = 1;
  validation.max = 64;
  validation.step = 1;
  clarify_question_set_validation (q, &validation);
  clarify_question_set_default_values (q, (const char *[]) { "4", NULL });
  run_start (&run, request);
  dialog = GTK_WIDGET (run.dialog);
  range = T ("Between 1 and 64", "Zwischen 1 und 64");
  g_assert_cmpuint (count_visible_labels (dialog, range, FALSE), ==, 1);
  shot (&run, "number");

  /* Too many: the limit is said once, by the error, not by the hint too. */
  focus_question (&run, 0);
  clarify_test_set_field_text (gtk_root_get_focus (GTK_ROOT (dialog)), "");
  type (&run, "100");
  g_assert_cmpuint (count_visible_labels (dialog, too_many, FALSE), ==, 1);
  g_assert_cmpuint (count_visible_labels (dialog, "64", TRUE), ==, 1);
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  shot (&run, "number-too-many");

  clarify_test_set_field_text (gtk_root_get_focus (GTK_ROOT (dialog)), "0");
  g_assert_cmpuint (count_visible_labels (dialog, too_few, FALSE), ==, 1);
  g_assert_cmpuint (count_visible_labels (dialog, range, FALSE), ==, 0);

  /* No number at all: the error says so, and the range still guides. */
  clarify_test_set_field_text (gtk_root_get_focus (GTK_ROOT (dialog)), T ("many", "viele"));
  g_assert_cmpuint (count_visible_labels (dialog, OUR ("Please enter a number."), FALSE), ==, 1);
  g_assert_cmpuint (count_visible_labels (dialog, range, FALSE), ==, 1);

  clarify_test_set_field_text (gtk_root_get_focus (GTK_ROOT (dialog)), "12");
  g_assert_cmpuint (count_visible_labels (dialog, range, FALSE), ==, 1);
  g_assert_cmpuint (count_visible_labels (dialog, "64", TRUE), ==, 1);
  shot (&run, "number-typed");
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"workers\","
                   "\"values\":[\"12\"]}]}");
  run_clear (&run);
}

/* Dates --------------------------------------------------------------- */

typedef struct
{
  const char *name;      /* test path and screenshot suffix */
  const char *language;  /* our catalog: "en" or "de" */
  const char *locale;    /* LC_ALL, or NULL for what set_language() picks */
  const char *typed;     /* the locale's own numeric form of 1 December 2026 */
  const char *shown;     /* what the field shows once it is read */
  const char *words;     /* the date understood, in words */
  const char *other;     /* another spelling of the same day */
  const char *impossible;
  /* 01.12.2026, German style: read the locale's way, and said so. */
  const char *dotted_words;
  /* 2 January of the year 1 as the field shows it. */
  const char *year_one;
} DateCase;

static const DateCase date_cases[] = {
  { "de", "de", NULL, "01.12.2026", "01.12.2026", "Di., 1. Dezember 2026", "1.12.26", "31.02.2026",
    "Di., 1. Dezember 2026", "02.01.0001" },
  { "en", "en", NULL, "12/01/2026", "2026-12-01", "Tue, 1 December 2026", "12/1/26", "02/31/2026",
    "Mon, 12 January 2026", "0001-01-02" },
  { "en_US", "en", "en_US.UTF-8", "12/01/2026", "12/01/2026", "Tue, 1 December 2026", "12/1/26", "02/31/2026",
    "Mon, 12 January 2026", "01/02/0001" },
  { "en_GB", "en", "en_GB.UTF-8", "01/12/2026", "01/12/2026", "Tue, 1 December 2026", "1/12/26", "31/02/2026",
    "Tue, 1 December 2026", "02/01/0001" },
};

static void
set_date_case (const DateCase *c)
{
  set_language (c->language);
  if (c->locale != NULL && setlocale (LC_ALL, c->locale) == NULL)
    g_error ("The %s locale is missing; tools/install-deps generates it", c->locale);
}

static void
date_shot (Run            *run,
           const DateCase *c,
           const char     *name)
{
  g_autofree char *full = NULL;
  g_autofree char *path = NULL;

  /* shot() names files after the language; en_US and en_GB are English too. */
  if (c->locale == NULL)
    {
      shot (run, name);
      return;
    }

  full = g_strdup_printf ("dialog-%s-%s", name, c->name);
  settle (run);
  path = clarify_test_save_screenshot (GTK_WIDGET (run->dialog), full);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

static ClarifyRequest *
new_date_request (void)
{
  ClarifyRequest *request = new_request ("r1", NULL, NULL);

  add_question (request, "freeze", CLARIFY_QUESTION_KIND_DATE,
                T ("Feature freeze", "Funktionsstopp"),
                T ("On which day should the feature freeze begin?",
                   "An welchem Tag soll der Funktionsstopp beginnen?"));

  return request;
}

static GtkWidget *
date_field (Run *run)
{
  return clarify_date_entry_get_entry (clarify_date_input_get_date_entry (CLARIFY_DATE_INPUT (input_at (run, 0))));
}

static void
test_date_locale (gconstpointer data)
{
  const DateCase *c = data;
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *dialog;
  GtkWidget *field;
  Run run = { 0 };

  set_date_case (c);
  request = new_date_request ();
  run_start (&run, request);
  dialog = GTK_WIDGET (run.dialog);
  field = date_field (&run);
  date_shot (&run, c, "date");

  /* The locale's own form, read the locale's way, and said in words. */
  focus_question (&run, 0);
  type (&run, c->typed);
  g_assert_cmpuint (count_visible_labels (dialog, c->words, FALSE), ==, 1);
  /* A screen reader hears it with the field. */
  gtk_test_accessible_assert_relation (field, GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                       clarify_test_find_label (dialog, c->words), NULL);
  date_shot (&run, c, "date-typed");

  /* ISO in every locale, and the locale's short year too. */
  clarify_test_set_field_text (field, "2026-12-01");
  g_assert_cmpuint (count_visible_labels (dialog, c->words, FALSE), ==, 1);
  clarify_test_set_field_text (field, c->other);
  g_assert_cmpuint (count_visible_labels (dialog, c->words, FALSE), ==, 1);

  /* A form of another locale is read this locale's way, in plain sight. */
  clarify_test_set_field_text (field, "01.12.2026");
  g_assert_cmpuint (count_visible_labels (dialog, c->dotted_words, FALSE), ==, 1);
  date_shot (&run, c, "date-dotted");

  /* Enter shows the date as the locale writes it, and answers in ISO. */
  clarify_test_set_field_text (field, c->typed);
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, c->shown);
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"freeze\","
                   "\"values\":[\"2026-12-01\"]}]}");
  run_clear (&run);
}

static void
test_date_impossible (gconstpointer data)
{
  const DateCase *c = data;
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *dialog;
  Run run = { 0 };

  set_date_case (c);
  request = new_date_request ();
  run_start (&run, request);
  dialog = GTK_WIDGET (run.dialog);

  /* 31 February: one inline error, no date in words, no answer. */
  focus_question (&run, 0);
  type (&run, c->impossible);
  g_assert_cmpuint (count_visible_labels (dialog, OUR ("Please enter a valid date."), FALSE), ==, 1);
  g_assert_cmpuint (count_visible_labels (dialog, "2026", TRUE), ==, 0);
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  send_key (&run, GDK_KEY_Return, 0);
  g_assert_false (run_is_destroyed (&run));
  date_shot (&run, c, "date-impossible");

  run_clear (&run);
}

/* A default in the year 1 is shown with all four digits and sent back as
 * it came: "01/02/1" was read back as 2001. */
static void
test_date_year_one (gconstpointer data)
{
  const DateCase *c = data;
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *question;
  const char *defaults[] = { "0001-01-02", NULL };
  Run run = { 0 };

  set_date_case (c);
  request = new_date_request ();
  question = clarify_request_get_question (request, 0);
  clarify_question_set_default_values (question, defaults);
  run_start (&run, request);

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (date_field (&run))), ==, c->year_one);
  focus_question (&run, 0);
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"freeze\","
                   "\"values\":[\"0001-01-02\"]}]}");
  run_clear (&run);
}

static void
test_date_range_locale (gconstpointer data)
{
  const DateCase *c = data;
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyDateRangeInput *input;
  GtkWidget *dialog;
  Run run = { 0 };

  set_date_case (c);
  request = new_request ("r1", NULL, NULL);
  add_question (request, "on-call", CLARIFY_QUESTION_KIND_DATE_RANGE,
                T ("On call", "Bereitschaft"),
                T ("Which days will you be on call?", "An welchen Tagen haben Sie Bereitschaft?"));
  run_start (&run, request);
  dialog = GTK_WIDGET (run.dialog);
  input = CLARIFY_DATE_RANGE_INPUT (input_at (&run, 0));
  date_shot (&run, c, "date-range");

  /* Each end in the locale's form, each said in words under its field;
   * Enter in Start goes on to End, Enter in End answers. */
  focus_question (&run, 0);
  type (&run, c->typed);
  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (clarify_date_range_input_get_end (input))));
  type (&run, "2026-12-24");
  g_assert_cmpuint (count_visible_labels (dialog, c->words, FALSE), ==, 1);
  g_assert_cmpuint (count_visible_labels (dialog, T ("Thu, 24 December 2026", "Do., 24. Dezember 2026"), FALSE), ==, 1);
  date_shot (&run, c, "date-range-typed");

  g_assert_true (send_key (&run, GDK_KEY_Return, 0));
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"on-call\","
                   "\"values\":[\"2026-12-01\",\"2026-12-24\"]}]}");
  run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  add_language_test ("/text-inputs/text/enter-submits", test_text_enter_submits);
  add_language_test ("/text-inputs/text/enter-moves-on", test_text_enter_moves_on);
  add_language_test ("/text-inputs/text/long-is-multi-line", test_text_long_is_multi_line);
  g_test_add_func ("/text-inputs/text/skip-while-typing", test_text_skip_while_typing);
  add_language_test ("/text-inputs/text/min-length-once", test_text_min_length_once);
  add_language_test ("/text-inputs/number/error-once", test_number_error_once);
  for (guint i = 0; i < G_N_ELEMENTS (date_cases); i++)
    {
      g_autofree char *locale = g_strdup_printf ("/text-inputs/date/locale/%s", date_cases[i].name);
      g_autofree char *impossible = g_strdup_printf ("/text-inputs/date/impossible/%s", date_cases[i].name);
      g_autofree char *range = g_strdup_printf ("/text-inputs/date-range/locale/%s", date_cases[i].name);
      g_autofree char *year_one = g_strdup_printf ("/text-inputs/date/year-one/%s", date_cases[i].name);

      g_test_add_data_func (locale, &date_cases[i], test_date_locale);
      g_test_add_data_func (impossible, &date_cases[i], test_date_impossible);
      g_test_add_data_func (range, &date_cases[i], test_date_range_locale);
      g_test_add_data_func (year_one, &date_cases[i], test_date_year_one);
    }

  return g_test_run ();
}
