/* test-dialog.c: ClarifyRequestDialog in a real window, driven through its widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "clarify-countdown.h"
#include "clarify-date-input.h"
#include "clarify-date-range-input.h"
#include "clarify-end-reason.h"
#include "clarify-error.h"
#include "clarify-input.h"
#include "clarify-json.h"
#include "clarify-mark.h"
#include "clarify-number-input.h"
#include "clarify-option-list.h"
#include "clarify-permission-input.h"
#include "clarify-request-dialog-private.h"
#include "clarify-request-dialog.h"
#include "clarify-request-private.h"
#include "clarify-request-source.h"
#include "clarify-test-dialog.h"
#include "clarify-validate.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"
#include "clarify-text-input.h"

/* Requests ---------------------------------------------------------------- */

static void
add_cities (ClarifyQuestion *question,
            guint            n)
{
  static const char *cities[][2] = {
    { "Berlin", "ber" }, { "Hamburg", "ham" }, { "München", "muc" }, { "Köln", "cgn" },
    { "Frankfurt am Main", "fra" }, { "Stuttgart", "str" }, { "Düsseldorf", "dus" }, { "Leipzig", "lej" },
  };

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (cities));
  for (guint i = 0; i < n; i++)
    add_option (question, cities[i][0], cities[i][1], NULL);
}

static void
add_features (ClarifyQuestion *question,
              guint            n)
{
  const char *features[][3] = {
    { T ("Loading state", "Ladezustand"), "loading", T ("Spinner while fetching", "Drehfeld beim Laden") },
    { T ("Error handling", "Fehlerbehandlung"), "errors", T ("Inline error message", "Fehlermeldung im Formular") },
    { T ("Accessibility", "Barrierefreiheit"), "a11y", T ("ARIA roles and focus", "ARIA-Rollen und Fokus") },
    { T ("Dark mode", "Dunkelmodus"), "dark", NULL },
    { T ("Offline cache", "Offline-Zwischenspeicher"), "offline", NULL },
    { T ("Telemetry", "Telemetrie"), "telemetry", NULL },
  };

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (features));
  for (guint i = 0; i < n; i++)
    add_option (question, features[i][0], features[i][1], features[i][2]);
}

/* Widgets ------------------------------------------------------------------ */

/* Clicks the chip, check button or confirm button that shows @label. */
static void
click_choice (ClarifyInput *input,
              const char   *label)
{
  GtkWidget *button = find_labelled (GTK_WIDGET (input), GTK_TYPE_TOGGLE_BUTTON, label);

  if (button == NULL)
    button = find_labelled (GTK_WIDGET (input), GTK_TYPE_CHECK_BUTTON, label);
  if (button == NULL)
    button = find_labelled (GTK_WIDGET (input), GTK_TYPE_BUTTON, label);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  /* GtkButton's ::activate clicks only after a short pressed look. */
  if (GTK_IS_BUTTON (button))
    g_signal_emit_by_name (button, "clicked");
  else
    gtk_widget_activate (button);
}

static ClarifyOptionList *
option_list_of (ClarifyInput *input)
{
  GtkWidget *list = clarify_test_find_descendant (GTK_WIDGET (input), CLARIFY_TYPE_OPTION_LIST);

  g_assert_nonnull (list);

  return CLARIFY_OPTION_LIST (list);
}

static GtkListView *
list_view_of (ClarifyInput *input)
{
  return GTK_LIST_VIEW (clarify_option_list_get_list_view (option_list_of (input)));
}

/* Selects the list row showing @label, as a click on it does. */
static void
select_row (ClarifyInput *input,
            const char   *label)
{
  GtkWidget *list = GTK_WIDGET (list_view_of (input));
  GtkWidget *row;
  GtkWidget *check;

  for (row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row) && clarify_test_find_label (row, label) != NULL)
      break;
  g_assert_nonnull (row);

  /* A checklist row toggles its check button; a plain row gets selected. */
  check = clarify_test_find_descendant (row, GTK_TYPE_CHECK_BUTTON);
  if (check != NULL)
    gtk_widget_activate (check);
  else
    g_assert_true (gtk_widget_activate_action (row, "listitem.select", "(bb)", FALSE, FALSE));
}

static void
type_search (ClarifyInput *input,
             const char   *text)
{
  GtkWidget *search = clarify_test_find_descendant (GTK_WIDGET (input), GTK_TYPE_SEARCH_ENTRY);

  g_assert_nonnull (search);
  gtk_editable_set_text (GTK_EDITABLE (search), text);
  /* GtkSearchEntry reports changes after a short delay. */
  g_signal_emit_by_name (search, "search-changed");
  clarify_test_spin (50);
}

/* Labels of the rows the list shows now. */
static GPtrArray *
shown_rows (ClarifyInput *input)
{
  GtkListView *list = list_view_of (input);
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (list));
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (CLARIFY_IS_OPTION (item))
        g_ptr_array_add (labels, g_strdup (clarify_option_get_label (CLARIFY_OPTION (item))));
      else
        g_ptr_array_add (labels, g_strdup ("(other)"));
    }

  return labels;
}

static void
type_text (ClarifyInput *input,
           const char   *text)
{
  clarify_test_set_field_text (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (input)), text);
}

static void
type_entry (GtkWidget  *editable,
            const char *text)
{
  g_assert_true (GTK_IS_EDITABLE (editable));
  gtk_editable_set_text (GTK_EDITABLE (editable), text);
}

static void
type_number (ClarifyInput *input,
             const char   *text)
{
  GtkSpinButton *spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (input));

  type_entry (GTK_WIDGET (spin), text);
  gtk_spin_button_update (spin);
}

/* Runs what the dialog binds to a key, as the key press would. Fails when
 * nothing is bound; returns whether the binding handled the key. */
static gboolean
press_key (Run             *run,
           guint            keyval,
           GdkModifierType  modifiers)
{
  GtkWidget *widget = GTK_WIDGET (run->dialog);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          if (clarify_test_trigger_matches (gtk_shortcut_get_trigger (shortcut), keyval, modifiers))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                                 GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                 widget,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }

  g_assert_not_reached ();
  return FALSE;
}

/* Every kind, filled in and submitted --------------------------------------- */

typedef struct
{
  const char *name;
  void      (*build)    (ClarifyRequest *request);
  void      (*fill)     (Run *run);
  const char *expected;
} KindCase;

static void
build_text (ClarifyRequest *request)
{
  ClarifyQuestion *q = add_question (request, "message", CLARIFY_QUESTION_KIND_TEXT,
                                     T ("Commit", "Commit"),
                                     T ("What should the commit message say?",
                                        "Was soll in der Commit-Nachricht stehen?"));
  ClarifyValidation validation;

  clarify_question_set_placeholder (q, T ("One line, imperative mood", "Eine Zeile, im Imperativ"));
  clarify_validation_init (&validation);
  validation.max_length = 72;
  clarify_question_set_validation (q, &validation);
  clarify_validation_clear (&validation);
}

static void
fill_text (Run *run)
{
  type_text (input_at (run, 0), "Fix the login timeout on slow networks");
}

static void
build_single_chips (ClarifyRequest *request)
{
  ClarifyQuestion *q = add_question (request, "styling", CLARIFY_QUESTION_KIND_SINGLE,
                                     T ("Styling", "Gestaltung"),
                                     T ("Which styling approach should the component use?",
                                        "Welchen Ansatz soll die Komponente für das Styling verwenden?"));

  add_option (q, T ("Tailwind (Recommended)", "Tailwind (empfohlen)"), "tailwind",
              T ("Utility classes, matches the repo", "Hilfsklassen, wie im Repository"));
  add_option (q, T ("CSS Modules", "CSS-Module"), "css-modules",
              T ("Scoped .module.css files", "Gekapselte .module.css-Dateien"));
  add_option (q, T ("Plain CSS", "Einfaches CSS"), "plain", NULL);
}

static void
fill_single_chips (Run *run)
{
  click_choice (input_at (run, 0), T ("CSS Modules", "CSS-Module"));
}

static void
build_single_list (ClarifyRequest *request)
{
  ClarifyQuestion *q = add_question (request, "city", CLARIFY_QUESTION_KIND_SINGLE,
                                     T ("City", "Stadt"),
                                     T ("Where should the team meet?", "Wo soll sich das Team treffen?"));

  add_cities (q, 8);
}

static void
fill_single_list (Run *run)
{
  ClarifyInput *input = input_at (run, 0);
  g_autoptr(GPtrArray) rows = NULL;

  /* Accents and case do not matter to the search. */
  type_search (input, "koln");
  rows = shown_rows (input);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==, "Köln");
  select_row (input, "Köln");
}

static void
build_multi_chips (ClarifyRequest *request)
{
  ClarifyQuestion *q = add_question (request, "features", CLARIFY_QUESTION_KIND_MULTI,
                                     T ("Features", "Funktionen"),
                                     T ("Which features should be included?",
                                        "Welche Funktionen sollen enthalten sein?"));

  add_features (q, 4);
}

static void
fill_multi_chips_at (Run  *run,
                     guint position)
{
  ClarifyInput *input = input_at (run, position);

  /* Picked out of the agent's order: the answer keeps the order of the
   * picks, as the agents' own clients send it; one unpicked drops out. */
  click_choice (input, T ("Accessibility", "Barrierefreiheit"));
  click_choice (input, T ("Loading state", "Ladezustand"));
  click_choice (input, T ("Dark mode", "Dunkelmodus"));
  click_choice (input, T ("Dark mode", "Dunkelmodus"));
}

static void
fill_multi_chips (Run *run)
{
  fill_multi_chips_at (run, 0);
}

static void
build_multi_list (ClarifyRequest *request)
{
  ClarifyQuestion *q = add_question (request, "features", CLARIFY_QUESTION_KIND_MULTI,
                                     T ("Features", "Funktionen"),
                                     T ("Which features should be included?",
                                        "Welche Funktionen sollen enthalten sein?"));

  add_features (q, 6);
}

static void
fill_multi_list (Run *run)
{
  select_row (input_at (run, 0), T ("Telemetry", "Telemetrie"));
  select_row (input_at (run, 0), T ("Error handling", "Fehlerbehandlung"));
}

static void
build_other (ClarifyRequest *request)
{
  ClarifyQuestion *q = add_question (request, "styling", CLARIFY_QUESTION_KIND_SINGLE,
                                     T ("Styling", "Gestaltung"),
                                     T ("Which styling approach should the component use?",
                                        "Welchen Ansatz soll die Komponente für das Styling verwenden?"));

  add_option (q, "Tailwind", "tailwind", NULL);
  add_option (q, T ("CSS Modules", "CSS-Module"), "css-modules", NULL);
  clarify_question_set_allow_other (q, TRUE);
}

static void
fill_other (Run *run)
{
  ClarifyInput *input = input_at (run, 0);
  GtkWidget *entry;

  /* Nothing typed yet is no mistake to point out, whether a chip was
   * picked before or not; the window grows for the entry either way. */
  click_choice (input, OUR ("Other…"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_error_label (run->dialog, 0))));
  assert_fits (run);
  click_choice (input, "Tailwind");
  click_choice (input, OUR ("Other…"));
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run->dialog));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_error_label (run->dialog, 0))));
  entry = clarify_test_find_descendant (GTK_WIDGET (input), GTK_TYPE_ENTRY);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_get_visible (entry));
  type_entry (entry, "vanilla-extract");
}

static void
build_confirm (ClarifyRequest *request)
{
  add_question (request, "delete", CLARIFY_QUESTION_KIND_CONFIRM, NULL,
                T ("Delete the build directory before building again?",
                   "Soll das Build-Verzeichnis vor dem neuen Bauen gelöscht werden?"));
}

static void
fill_confirm (Run *run)
{
  click_choice (input_at (run, 0), OUR ("No"));
}

static void
add_number_question (ClarifyRequest *request,
                     const char     *id,
                     const char     *header,
                     const char     *text,
                     double          min,
                     double          max,
                     double          step)
{
  ClarifyQuestion *q = add_question (request, id, CLARIFY_QUESTION_KIND_NUMBER, header, text);
  ClarifyValidation validation;

  clarify_validation_init (&validation);
  validation.has_min = validation.has_max = TRUE;
  validation.min = min;
  validation.max = max;
  validation.step = step;
  clarify_question_set_validation (q, &validation);
  clarify_validation_clear (&validation);
}

static void
build_number (ClarifyRequest *request)
{
  add_number_question (request, "workers", T ("Workers", "Prozesse"),
                       T ("How many parallel workers should the test run use?",
                          "Wie viele parallele Prozesse soll der Testlauf verwenden?"),
                       1, 16, 1);
}

static void
fill_number (Run *run)
{
  type_number (input_at (run, 0), "12");
}

static void
build_number_decimal (ClarifyRequest *request)
{
  add_number_question (request, "ratio", T ("Ratio", "Verhältnis"),
                       T ("Which compression level?", "Welche Kompressionsstufe?"),
                       0, 10, 0.5);
}

static void
fill_number_decimal (Run *run)
{
  /* What a German types; the English run types the point. */
  type_number (input_at (run, 0), T ("2.5", "2,5"));
}

static void
build_date (ClarifyRequest *request)
{
  add_question (request, "release", CLARIFY_QUESTION_KIND_DATE,
                T ("Release", "Veröffentlichung"),
                T ("When should version 2.0 be released?", "Wann soll Version 2.0 erscheinen?"));
}

static void
fill_date (Run *run)
{
  ClarifyDateEntry *entry = clarify_date_input_get_date_entry (CLARIFY_DATE_INPUT (input_at (run, 0)));

  /* As a German types it; the answer is ISO either way. */
  type_entry (clarify_date_entry_get_entry (entry), T ("2026-03-14", "14.03.2026"));
}

static void
build_date_range (ClarifyRequest *request)
{
  add_question (request, "freeze", CLARIFY_QUESTION_KIND_DATE_RANGE,
                T ("Freeze", "Einfrieren"),
                T ("When is the code freeze?", "Wann ist der Code-Freeze?"));
}

static void
fill_date_range (Run *run)
{
  ClarifyDateRangeInput *input = CLARIFY_DATE_RANGE_INPUT (input_at (run, 0));

  type_entry (clarify_date_entry_get_entry (clarify_date_range_input_get_start (input)), T ("2026-03-14", "14.03.2026"));
  type_entry (clarify_date_entry_get_entry (clarify_date_range_input_get_end (input)), T ("2026-03-20", "20.03.2026"));
}

static const KindCase kind_cases[] = {
  { "text", build_text, fill_text,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"message\","
    "\"values\":[\"Fix the login timeout on slow networks\"]}]}" },
  { "single-chips", build_single_chips, fill_single_chips,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"styling\",\"values\":[\"css-modules\"]}]}" },
  { "single-list", build_single_list, fill_single_list,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"city\",\"values\":[\"cgn\"]}]}" },
  { "multi-chips", build_multi_chips, fill_multi_chips,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"features\",\"values\":[\"a11y\",\"loading\"]}]}" },
  { "multi-list", build_multi_list, fill_multi_list,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"features\",\"values\":[\"telemetry\",\"errors\"]}]}" },
  { "other", build_other, fill_other,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"styling\",\"values\":[],"
    "\"custom_text\":\"vanilla-extract\"}]}" },
  { "confirm", build_confirm, fill_confirm,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"delete\",\"values\":[\"no\"]}]}" },
  { "number", build_number, fill_number,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"workers\",\"values\":[\"12\"]}]}" },
  { "number-decimal", build_number_decimal, fill_number_decimal,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"ratio\",\"values\":[\"2.5\"]}]}" },
  { "date", build_date, fill_date,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"release\",\"values\":[\"2026-03-14\"]}]}" },
  { "date-range", build_date_range, fill_date_range,
    "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"freeze\","
    "\"values\":[\"2026-03-14\",\"2026-03-20\"]}]}" },
};

/* The usual start: one untitled request built by @build, shown. */
static ClarifyRequest *
start_request (Run         *run,
               const char  *language,
               void       (*build) (ClarifyRequest *request))
{
  ClarifyRequest *request;

  set_language (language);
  request = new_request ("r1", NULL, NULL);
  build (request);
  run_start (run, request);

  return request;
}

typedef struct
{
  const KindCase *kind;
  const char     *language;
} KindTest;

static void
test_kind (gconstpointer data)
{
  const KindTest *test = data;
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language (test->language);
  request = new_request ("r1", NULL,
                         T ("The component library needs a decision before the refactor continues.",
                            "Die Komponentenbibliothek braucht eine Entscheidung, bevor der Umbau weitergeht."));
  test->kind->build (request);

  run_start (&run, request);
  /* Sized for all of it from the start (a text area learns its height late). */
  assert_fits (&run);
  g_assert_false (clarify_request_dialog_get_paged (run.dialog));
  /* Nothing is answered for the user, a number neither. */
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  /* The first input has the focus from the start. */
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (input_at (&run, 0))));

  test->kind->fill (&run);
  g_assert_true (clarify_input_get_valid (input_at (&run, 0)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_error_label (run.dialog, 0))));
  /* Also once an "Other" entry has appeared. */
  assert_fits (&run);
  shot (&run, test->kind->name);

  submit (&run);
  assert_response (&run, test->kind->expected);
  run_clear (&run);
}

/* Header, title and text ----------------------------------------------------- */

static void
test_header_and_plain_text (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *title_widget;
  GtkLabel *title_label;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", "<b>Deploy</b> & ship", "Context with <i>tags</i> & ampersands");
  add_question (request, "q", CLARIFY_QUESTION_KIND_CONFIRM, "<u>Header</u>", "Really <big>deploy</big>?");
  run_start (&run, request);

  title_widget = clarify_test_find_descendant (gtk_window_get_titlebar (GTK_WINDOW (run.dialog)), ADW_TYPE_WINDOW_TITLE);
  g_assert_nonnull (title_widget);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (title_widget)), ==, "OpenCode");
  /* The folder's name, never the path or the session's id: those are details. */
  g_assert_cmpstr (adw_window_title_get_subtitle (ADW_WINDOW_TITLE (title_widget)), ==, "app");
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (title_widget), "/src/app"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (title_widget), "ses_01JH0000"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (run.dialog)), ==, "<b>Deploy</b> & ship");

  /* Once the backend learns the session's title, that names it, as the
   * agent's own UI does; plain text too. */
  clarify_request_set_session_title (request, "Fix the <b>parser</b> & more");
  g_assert_cmpstr (adw_window_title_get_subtitle (ADW_WINDOW_TITLE (title_widget)), ==, "Fix the <b>parser</b> & more");
  {
    GtkWidget *subtitle = clarify_test_find_label (title_widget, "Fix the <b>parser</b> & more");

    g_assert_nonnull (subtitle);
    g_assert_false (gtk_label_get_use_markup (GTK_LABEL (subtitle)));
  }
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (title_widget), "/src/app"));

  /* Agent text is shown as it is, never as markup. */
  title_label = GTK_LABEL (find_by_id (&run, "title_label"));
  g_assert_cmpstr (gtk_label_get_text (title_label), ==, "<b>Deploy</b> & ship");
  g_assert_false (gtk_label_get_use_markup (title_label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (&run, "context_label"))), ==,
                   "Context with <i>tags</i> & ampersands");
  g_assert_nonnull (find_labelled (GTK_WIDGET (run.dialog), GTK_TYPE_LABEL, "Really <big>deploy</big>?"));
  g_assert_nonnull (find_labelled (GTK_WIDGET (run.dialog), GTK_TYPE_LABEL, "<u>Header</u>"));
  shot (&run, "plain-text");

  run_clear (&run);
  g_assert_cmpuint (run.n_responses, ==, 0);
}

static void
test_untitled_window_title (void)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new ("r1");
  g_autofree char *expected = NULL;
  Run run = { 0 };

  set_language ("en");
  clarify_request_set_connection (request, "work", "opencode");
  add_question (request, "q", CLARIFY_QUESTION_KIND_CONFIRM, NULL, "Continue?");
  run_start (&run, request);

  expected = g_strdup_printf (OUR ("Question from %s"), "OpenCode");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (run.dialog)), ==, expected);
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "title_label")));
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "context_label")));
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "countdown")));
  shot (&run, "untitled");

  run_clear (&run);
}

/* Whether all of @widget lies inside the dialog's scrolled area as it is
 * shown, without scrolling. */
static gboolean
in_view (Run       *run,
         GtkWidget *widget)
{
  GtkWidget *scroller = clarify_test_find_widget (GTK_WIDGET (run->dialog), "scroller");
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, scroller, &bounds));

  return bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller);
}

/* The longest context an agent may send (4,000 characters) keeps the
 * question and its choices in view: the context scrolls by itself. */
static void
test_long_context (void)
{
  g_autoptr(GString) context = g_string_new (NULL);
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *question;
  Run run = { 0 };

  set_language ("en");
  while (g_utf8_strlen (context->str, -1) < CLARIFY_MAX_CONTEXT_CHARS - 80)
    g_string_append_printf (context, "Step %u of the migration moved a table and its indexes. ",
                            (guint) context->len / 56 + 1);
  request = new_request ("r1", "Migration", context->str);
  question = add_question (request, "q", CLARIFY_QUESTION_KIND_SINGLE, NULL, "Which database should we keep?");
  add_option (question, "Postgres", "pg", NULL);
  add_option (question, "SQLite", "sqlite", NULL);
  add_option (question, "MariaDB", "maria", NULL);
  run_start (&run, request);
  settle (&run);

  g_assert_true (in_view (&run, find_labelled (GTK_WIDGET (run.dialog), GTK_TYPE_LABEL,
                                               "Which database should we keep?")));
  g_assert_true (in_view (&run, find_labelled (GTK_WIDGET (run.dialog), GTK_TYPE_TOGGLE_BUTTON, "MariaDB")));
  /* The keys reach it too, as it has more to show. */
  g_assert_true (gtk_widget_get_focusable (gtk_widget_get_ancestor (find_by_id (&run, "context_label"),
                                                                    GTK_TYPE_SCROLLED_WINDOW)));
  /* All of the text is still there, to scroll through. */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (&run, "context_label"))), ==, context->str);
  shot (&run, "long-context");

  run_clear (&run);
}

static GtkWidget *
title_widget_of (Run *run)
{
  return clarify_test_find_descendant (gtk_window_get_titlebar (GTK_WINDOW (run->dialog)),
                                       ADW_TYPE_WINDOW_TITLE);
}

/* A local caller is named as it names itself, or in plain words; the kind
 * of endpoint is a detail. */
static void
test_source_local_caller (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new ("r1");
  g_autoptr(ClarifyRequest) named = clarify_request_new ("r2");
  g_autofree char *expected = NULL;
  Run run = { 0 };

  set_language (data);
  clarify_request_set_connection (request, "D-Bus", "dbus");
  add_question (request, "q", CLARIFY_QUESTION_KIND_CONFIRM, NULL, T ("Continue?", "Weiter?"));
  run_start (&run, request);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (title_widget_of (&run))), ==,
                   OUR ("A program on this computer"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (run.dialog)), ==, OUR ("Question"));
  /* The window's list and the notification name it the same way (they
   * said "D-Bus"). */
  g_assert_cmpstr (clarify_request_source_get_asker (request), ==, OUR ("A program on this computer"));
  shot (&run, "source-local-unknown");
  run_clear (&run);

  clarify_request_set_connection (named, "MCP", "mcp");
  clarify_request_set_caller (named, "claude-code");
  clarify_request_set_project (named, g_get_home_dir ());
  add_question (named, "q", CLARIFY_QUESTION_KIND_CONFIRM, NULL, T ("Continue?", "Weiter?"));
  run_start (&run, named);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (title_widget_of (&run))), ==, "Claude Code");
  g_assert_cmpstr (clarify_request_source_get_asker (named), ==, "Claude Code");
  g_assert_cmpstr (adw_window_title_get_subtitle (ADW_WINDOW_TITLE (title_widget_of (&run))), ==, "~");
  expected = g_strdup_printf (OUR ("Question from %s"), "Claude Code");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (run.dialog)), ==, expected);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (title_widget_of (&run)), "claude-code"));
  shot (&run, "source-local-named");
  run_clear (&run);
}

/* Clarify's own protocol is any agent's: its connection's name names it. */
static void
test_source_own_protocol (void)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new ("r1");
  Run run = { 0 };

  set_language ("en");
  clarify_request_set_connection (request, "Demo", "clarify");
  add_question (request, "q", CLARIFY_QUESTION_KIND_CONFIRM, NULL, "Continue?");
  run_start (&run, request);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (title_widget_of (&run))), ==, "Demo");
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (title_widget_of (&run)), OUR ("Clarify JSON")));
  run_clear (&run);
}

/* Skip, Cancel, Esc ------------------------------------------------------------ */

static void
test_skip_request (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", T ("Naming", "Benennung"), NULL);
  clarify_request_set_skippable (request, TRUE);
  add_question (request, "name", CLARIFY_QUESTION_KIND_TEXT, NULL,
                T ("What should the new module be called?", "Wie soll das neue Modul heißen?"));
  clarify_question_set_skippable (clarify_request_get_question (request, 0), TRUE);
  run_start (&run, request);

  /* One question: the request's Skip says it all. */
  g_assert_null (clarify_request_dialog_get_skip_toggle (run.dialog, 0));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_by_id (&run, "skip_button"))), ==, OUR ("Skip"));
  /* The buttons line up with the content, also where they are the wider part. */
  {
    graphene_rect_t content, buttons;

    g_assert_true (gtk_widget_compute_bounds (find_by_id (&run, "content_box"), GTK_WIDGET (run.dialog), &content));
    g_assert_true (gtk_widget_compute_bounds (find_by_id (&run, "bottom_stack"), GTK_WIDGET (run.dialog), &buttons));
    g_assert_cmpfloat (buttons.origin.x, ==, content.origin.x);
    g_assert_cmpfloat (buttons.size.width, ==, content.size.width);
  }
  shot (&run, "skip");

  press_id (&run, "skip_button");
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"skipped\",\"answers\":[]}");
  run_clear (&run);
}

static void
test_skip_question (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *q;
  GtkToggleButton *toggle;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", T ("Test run", "Testlauf"), NULL);
  add_question (request, "delete", CLARIFY_QUESTION_KIND_CONFIRM, NULL,
                T ("Delete old results first?", "Zuerst alte Ergebnisse löschen?"));
  build_date (request);
  q = clarify_request_get_question (request, 1);
  clarify_question_set_skippable (q, TRUE);
  run_start (&run, request);

  g_assert_false (clarify_request_dialog_get_paged (run.dialog));
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "skip_button")));
  g_assert_null (clarify_request_dialog_get_skip_toggle (run.dialog, 0));
  toggle = clarify_request_dialog_get_skip_toggle (run.dialog, 1);
  g_assert_nonnull (toggle);
  /* Skip stands on the question's line, not between it and its header. */
  {
    GtkWidget *text = find_labelled (GTK_WIDGET (run.dialog), GTK_TYPE_LABEL,
                                     T ("When should version 2.0 be released?", "Wann soll Version 2.0 erscheinen?"));
    graphene_rect_t line, skip;

    g_assert_true (gtk_widget_compute_bounds (text, GTK_WIDGET (run.dialog), &line));
    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (toggle), GTK_WIDGET (run.dialog), &skip));
    g_assert_cmpfloat (skip.origin.y + skip.size.height / 2, >=, line.origin.y);
    g_assert_cmpfloat (skip.origin.y + skip.size.height / 2, <=, line.origin.y + line.size.height);
  }

  click_choice (input_at (&run, 0), OUR ("Yes"));
  /* Something that is no date holds the answer back, optional or not... */
  type_entry (clarify_date_entry_get_entry (clarify_date_input_get_date_entry (CLARIFY_DATE_INPUT (input_at (&run, 1)))),
              "soon");
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_error_label (run.dialog, 1))));

  /* ...until Skip sets it aside: a skipped question counts as answered,
   * and its input rests. */
  press (GTK_WIDGET (toggle));
  g_assert_true (gtk_toggle_button_get_active (toggle));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (input_at (&run, 1))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_error_label (run.dialog, 1))));
  g_assert_true (clarify_request_dialog_is_submit_sensitive (run.dialog));
  shot (&run, "skip-question");

  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"delete\",\"values\":[\"yes\"]},"
                   "{\"question_id\":\"release\",\"values\":[],\"skipped\":true}]}");
  run_clear (&run);
}

/* An optional question left empty is skipped without pressing its Skip. */
static void
test_optional_left_empty (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *q;
  GtkLabel *error_label;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", T ("Test run", "Testlauf"), NULL);
  add_question (request, "delete", CLARIFY_QUESTION_KIND_CONFIRM, NULL,
                T ("Delete old results first?", "Zuerst alte Ergebnisse löschen?"));
  q = add_question (request, "note", CLARIFY_QUESTION_KIND_TEXT, T ("Note", "Notiz"),
                    T ("Anything the agent should know?", "Soll der Agent noch etwas wissen?"));
  clarify_question_set_skippable (q, TRUE);
  run_start (&run, request);
  error_label = clarify_request_dialog_get_error_label (run.dialog, 1);

  /* The required question still needs its answer. */
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  click_choice (input_at (&run, 0), OUR ("No"));
  g_assert_true (clarify_request_dialog_is_submit_sensitive (run.dialog));

  /* Typed and wiped again (spaces are nothing), it is empty once more: no
   * "please answer" for an optional question. */
  type_text (input_at (&run, 1), "x");
  type_text (input_at (&run, 1), "  ");
  g_assert_true (clarify_input_get_touched (input_at (&run, 1)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_true (clarify_request_dialog_is_submit_sensitive (run.dialog));
  g_assert_false (gtk_toggle_button_get_active (clarify_request_dialog_get_skip_toggle (run.dialog, 1)));
  shot (&run, "optional-empty");

  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"delete\",\"values\":[\"no\"]},"
                   "{\"question_id\":\"note\",\"values\":[],\"skipped\":true}]}");
  run_clear (&run);
}

static void
test_cancel (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, data, build_single_chips);

  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_by_id (&run, "cancel_button"))), ==, T ("Cancel", "Abbrechen"));
  /* Whatever was picked, Cancel sends no answers. */
  click_choice (input_at (&run, 0), T ("Plain CSS", "Einfaches CSS"));
  press_id (&run, "cancel_button");
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"cancelled\",\"answers\":[]}");
  run_clear (&run);
}

static void
test_escape_cancels (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, "en", build_confirm);

  g_assert_true (press_key (&run, GDK_KEY_Escape, 0));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"cancelled\",\"answers\":[]}");
  run_clear (&run);
}

static void
test_escape_clears_search_first (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *search;
  Run run = { 0 };

  request = start_request (&run, "en", build_single_list);
  search = clarify_test_find_descendant (GTK_WIDGET (input_at (&run, 0)), GTK_TYPE_SEARCH_ENTRY);
  gtk_widget_grab_focus (search);
  type_search (input_at (&run, 0), "ber");

  /* With a search typed, Esc belongs to the search entry... */
  g_assert_false (press_key (&run, GDK_KEY_Escape, 0));
  g_assert_false (run_is_destroyed (&run));

  /* ...and once it is empty, to the dialog. */
  type_search (input_at (&run, 0), "");
  g_assert_true (focus_is_inside (&run, search));
  g_assert_true (press_key (&run, GDK_KEY_Escape, 0));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"cancelled\",\"answers\":[]}");
  run_clear (&run);
}

static void
test_escape_closes_when_not_cancellable (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  clarify_request_set_cancellable (request, FALSE);
  clarify_request_set_timeout_ms (request, 60000);
  build_confirm (request);
  run_start (&run, request);

  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "cancel_button")));
  shot (&run, "not-cancellable");

  /* The request stays pending: no response, and the window is gone, not
   * hidden, its countdown with it (the inbox keeps the deadline). */
  g_assert_true (press_key (&run, GDK_KEY_Escape, 0));
  g_assert_true (run_is_destroyed (&run));
  g_assert_cmpuint (run.n_responses, ==, 0);
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
  run_clear (&run);

  /* Opened again, a new dialog asks; closing its window behaves the same. */
  run_start (&run, request);
  gtk_window_close (GTK_WINDOW (run.dialog));
  g_assert_true (run_is_destroyed (&run));
  g_assert_cmpuint (run.n_responses, ==, 0);
  run_clear (&run);

  run_start (&run, request);
  click_choice (input_at (&run, 0), OUR ("Yes"));
  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"delete\",\"values\":[\"yes\"]}]}");
  run_clear (&run);
}

/* The window manager's Close, Alt+F4 or the header bar's X is not Esc: it
 * closes whatever the focus holds, a search typed or a calendar open. */
static void
test_close_with_search_or_calendar (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *search, *button;
  Run run = { 0 };
  Run calendar_run = { 0 };

  request = start_request (&run, "en", build_single_list);
  search = clarify_test_find_descendant (GTK_WIDGET (input_at (&run, 0)), GTK_TYPE_SEARCH_ENTRY);
  gtk_widget_grab_focus (search);
  type_search (input_at (&run, 0), "ber");
  g_assert_true (focus_is_inside (&run, search));

  gtk_window_close (GTK_WINDOW (run.dialog));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"cancelled\",\"answers\":[]}");
  run_clear (&run);
  g_clear_object (&request);

  request = start_request (&calendar_run, "en", build_date);
  button = clarify_test_find_descendant (GTK_WIDGET (input_at (&calendar_run, 0)), GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_activate (button));
  g_assert_true (clarify_test_wait_until (clarify_test_popover_is_open, button, 5000));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))), GTK_DIR_TAB_FORWARD));
  g_assert_nonnull (gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (calendar_run.dialog)), GTK_TYPE_POPOVER));

  gtk_window_close (GTK_WINDOW (calendar_run.dialog));
  assert_response (&calendar_run, "{\"id\":\"r1\",\"outcome\":\"cancelled\",\"answers\":[]}");
  run_clear (&calendar_run);
}

static void
test_close_button_cancels (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, "en", build_confirm);

  gtk_window_close (GTK_WINDOW (run.dialog));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"cancelled\",\"answers\":[]}");
  run_clear (&run);
}

/* Validation ------------------------------------------------------------------- */

static void
test_invalid_keeps_submit_insensitive (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *q;
  ClarifyValidation validation;
  GtkLabel *error_label;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", NULL, NULL);
  q = add_question (request, "ticket", CLARIFY_QUESTION_KIND_TEXT, T ("Ticket", "Ticket"),
                    T ("Which ticket does this fix?", "Welches Ticket wird damit behoben?"));
  clarify_validation_init (&validation);
  validation.pattern = g_strdup ("^[A-Z]{2,5}-[0-9]+$");
  validation.message = g_strdup (T ("Use a ticket id like APP-123.", "Bitte eine Ticketnummer wie APP-123 angeben."));
  clarify_question_set_validation (q, &validation);
  clarify_validation_clear (&validation);
  run_start (&run, request);

  error_label = clarify_request_dialog_get_error_label (run.dialog, 0);
  /* Quiet until the user has typed something. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.submit", NULL) && run_is_destroyed (&run));

  type_text (input_at (&run, 0), "app 123");
  g_assert_false (clarify_input_get_valid (input_at (&run, 0)));
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_cmpstr (gtk_label_get_text (error_label), ==, clarify_input_get_error (input_at (&run, 0)));
  g_assert_cmpstr (gtk_label_get_text (error_label), !=, "");
  /* Ctrl+Enter does not get past it either. */
  press_key (&run, GDK_KEY_Return, GDK_CONTROL_MASK);
  g_assert_false (run_is_destroyed (&run));
  shot (&run, "invalid");
  /* The window made room for the message instead of hiding it below. */
  {
    graphene_rect_t bounds;
    GtkWidget *viewport = find_by_id (&run, "scroller_fit");

    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (error_label), viewport, &bounds));
    g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (viewport));
  }
  assert_fits (&run);

  type_text (input_at (&run, 0), "APP-123");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"ticket\",\"values\":[\"APP-123\"]}]}");
  run_clear (&run);
}

/* A small dialog grows for the "Other…" entry: opening it changed nothing
 * the dialog watched (still unanswered, still untouched), and the entry
 * showed only its top edge. */
static void
test_other_grows (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *question;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  question = add_question (request, "db", CLARIFY_QUESTION_KIND_SINGLE, NULL, "Which database?");
  add_option (question, "PostgreSQL", "pg", NULL);
  add_option (question, "SQLite", "sqlite", NULL);
  clarify_question_set_allow_other (question, TRUE);
  run_start (&run, request);
  settle (&run);
  assert_fits (&run);

  click_choice (input_at (&run, 0), "Other…");
  settle (&run);
  assert_fits (&run);
  shot (&run, "other-opened");
  run_clear (&run);
}

/* The notice above the question (agent away, password or answer refused)
 * appears on an open dialog: the window grows for it. It stayed as tall,
 * and the text field went out of view below the question. */
static void
test_notice_grows (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  add_question (request, "branch", CLARIFY_QUESTION_KIND_TEXT, NULL, "Which branch should I merge into?");
  run_start (&run, request);
  settle (&run);
  assert_fits (&run);

  clarify_request_dialog_set_agent_away (run.dialog,
                                         "“Tests” cannot be reached right now. Clarify keeps your answer and "
                                         "sends it when the agent is back.");
  settle (&run);
  assert_fits (&run);
  shot (&run, "notice-grows");
  run_clear (&run);
}

/* The agent refused an answer: the question comes back with every input
 * holding what was answered ("Other…" text included), so that the user
 * mends it rather than answers from nothing. Submitted unchanged, it is
 * the same answer. */
static void
test_again_from_refused (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyResponse) refused = NULL;
  const char *features[] = { "csv", "dark", NULL };
  const char *count[] = { "7", NULL };
  const char *day[] = { "2026-03-12", NULL };
  const char *name[] = { "release", NULL };
  ClarifyQuestion *question;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  question = add_question (request, "features", CLARIFY_QUESTION_KIND_MULTI, NULL, "Which features?");
  add_option (question, "Export to CSV", "csv", NULL);
  add_option (question, "Dark mode", "dark", NULL);
  add_option (question, "Reminders", "remind", NULL);
  clarify_question_set_allow_other (question, TRUE);
  add_question (request, "count", CLARIFY_QUESTION_KIND_NUMBER, NULL, "How many?");
  add_question (request, "day", CLARIFY_QUESTION_KIND_DATE, NULL, "Which day?");
  add_question (request, "name", CLARIFY_QUESTION_KIND_TEXT, NULL, "Its name?");

  refused = clarify_response_new ("r1", CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (refused, "features", features, "iCal import", FALSE);
  clarify_response_add_answer (refused, "count", count, NULL, FALSE);
  clarify_response_add_answer (refused, "day", day, NULL, FALSE);
  clarify_response_add_answer (refused, "name", name, NULL, FALSE);

  run.dialog = g_object_ref (clarify_request_dialog_new_again (NULL, request, refused));
  clarify_request_dialog_set_key_guard_ms (run.dialog, 0);
  g_signal_connect (run.dialog, "response", G_CALLBACK (response_cb), &run);
  clarify_test_present_and_wait (GTK_WINDOW (run.dialog));
  settle (&run);
  shot (&run, "again-from-refused");
  /* One page each: every one holds its answer, so Next goes on. */
  for (guint i = 0; i < 3; i++)
    {
      press_id (&run, "next_button");
      settle (&run);
    }
  shot (&run, "again-from-refused-last");
  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"features\",\"values\":[\"csv\",\"dark\"],\"custom_text\":\"iCal import\"},"
                   "{\"question_id\":\"count\",\"values\":[\"7\"]},"
                   "{\"question_id\":\"day\",\"values\":[\"2026-03-12\"]},"
                   "{\"question_id\":\"name\",\"values\":[\"release\"]}]}");
  run_clear (&run);
}

/* Timeout ------------------------------------------------------------------------ */

static void
test_timeout (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyCountdown *countdown;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", T ("Quick question", "Kurze Frage"), NULL);
  build_confirm (request);
  /* Long enough to be drawn first, also under ASan (scaled there): a dialog
   * that timed out before its first frame would never draw. */
  clarify_request_set_timeout_ms (request, clarify_test_scaled_ms (2000));
  run_start (&run, request);

  countdown = clarify_request_dialog_get_countdown (run.dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (countdown)));
  g_assert_true (clarify_countdown_get_running (countdown));
  /* A few seconds are well inside the last thirty. */
  g_assert_true (clarify_countdown_get_warning (countdown));
  g_assert_true (gtk_widget_has_css_class (clarify_test_find_widget (GTK_WIDGET (countdown), "bar"), "warning"));
  g_assert_true (gtk_widget_has_css_class (clarify_test_find_widget (GTK_WIDGET (countdown), "label"), "warning"));
  g_assert_true (g_regex_match_simple (T ("^0:0[0-9] left$", "^noch 0:0[0-9]$"),
                                       gtk_label_get_text (GTK_LABEL (clarify_test_find_widget (GTK_WIDGET (countdown), "label"))),
                                       0, 0));
  shot (&run, "countdown-warning");

  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 20000));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"timed_out\",\"answers\":[]}");
  run_clear (&run);
}

static void
test_countdown_display (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyCountdown *countdown;
  GtkWidget *label;
  g_autofree char *expected = NULL;
  guint seconds;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", T ("Release notes", "Versionshinweise"), NULL);
  build_single_chips (request);
  clarify_request_set_timeout_ms (request, 5 * 60 * 1000);
  run_start (&run, request);

  countdown = clarify_request_dialog_get_countdown (run.dialog);
  seconds = clarify_countdown_get_seconds (countdown);
  g_assert_cmpuint (seconds, <=, 300);
  g_assert_cmpuint (seconds, >, 240);
  g_assert_false (clarify_countdown_get_warning (countdown));
  label = clarify_test_find_widget (GTK_WIDGET (countdown), "label");
  expected = clarify_countdown_format (seconds);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, expected);
  g_assert_false (gtk_widget_has_css_class (label, "warning"));
  shot (&run, "countdown");

  click_choice (input_at (&run, 0), T ("Tailwind (Recommended)", "Tailwind (empfohlen)"));
  submit (&run);
  g_assert_cmpint (clarify_response_get_outcome (run.response), ==, CLARIFY_OUTCOME_ANSWERED);
  /* Answered in time: the countdown is gone with the dialog. */
  g_assert_false (clarify_countdown_get_running (countdown));
  run_clear (&run);
}

static void
test_countdown_format (void)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;

  set_language ("en");
  a = clarify_countdown_format (299);
  b = clarify_countdown_format (5);
  c = clarify_countdown_format (3599);
  g_assert_cmpstr (a, ==, "4:59 left");
  g_assert_cmpstr (b, ==, "0:05 left");
  g_assert_cmpstr (c, ==, "59:59 left");
  /* An hour and more in hours (it was "71582:47 left" for the longest). */
  g_clear_pointer (&c, g_free);
  c = clarify_countdown_format (3600);
  g_assert_cmpstr (c, ==, "1:00:00 left");
  g_clear_pointer (&c, g_free);
  c = clarify_countdown_format (G_MAXUINT / 1000);
  g_assert_cmpstr (c, ==, "1193:02:47 left");

  set_language ("de");
  g_clear_pointer (&b, g_free);
  b = clarify_countdown_format (5);
  g_assert_cmpstr (b, ==, "noch 0:05");
  g_clear_pointer (&c, g_free);
  c = clarify_countdown_format (7258);
  g_assert_cmpstr (c, ==, "noch 2:00:58");
  set_language ("en");
}

static void
test_timeout_already_passed (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  build_confirm (request);
  clarify_request_set_timeout_ms (request, 1000);
  clarify_request_set_received_at (request, g_get_monotonic_time () - 60 * G_USEC_PER_SEC);
  run_create (&run, request);
  gtk_window_present (GTK_WINDOW (run.dialog));

  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 20000));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"timed_out\",\"answers\":[]}");
  run_clear (&run);
}

/* Withdrawal ------------------------------------------------------------------- */

static void
test_withdrawn (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkStack *bottom;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", NULL, NULL);
  build_single_chips (request);
  clarify_request_set_timeout_ms (request, 60 * 1000);
  run_start (&run, request);

  bottom = GTK_STACK (find_by_id (&run, "bottom_stack"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (bottom), ==, "actions");

  /* The agent's own words are shown as they came. */
  clarify_request_withdraw (request, CLARIFY_END_REASON_AGENT_WITHDREW,
                            T ("The question was answered in the terminal.",
                               "Die Frage wurde im Terminal beantwortet."));
  g_assert_true (clarify_request_dialog_get_withdrawn (run.dialog));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (bottom), ==, "notice");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (&run, "notice_label"))), ==,
                   T ("The question was answered in the terminal.", "Die Frage wurde im Terminal beantwortet."));
  /* Nothing can be answered any more, and the countdown has stopped. */
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (input_at (&run, 0))));
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  g_assert_false (gtk_widget_is_sensitive (find_by_id (&run, "cancel_button")));
  g_assert_false (clarify_countdown_get_running (clarify_request_dialog_get_countdown (run.dialog)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (clarify_request_dialog_get_countdown (run.dialog))));
  shot (&run, "withdrawn");

  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 20000));
  g_assert_cmpuint (run.n_responses, ==, 0);
  run_clear (&run);
}

/* A code from the core becomes a sentence in the user's language. */
static void
test_withdrawn_reason (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, data, build_confirm);

  clarify_request_withdraw (request, CLARIFY_END_REASON_CALLER_LEFT, NULL);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (&run, "notice_label"))), ==,
                   T ("The agent stopped waiting for an answer", "Der Agent wartet nicht mehr auf eine Antwort"));
  shot (&run, "withdrawn-reason");

  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 20000));
  g_assert_cmpuint (run.n_responses, ==, 0);
  run_clear (&run);
}

/* Every code has a sentence of its own, and German for it. */
static void
test_end_reason_describe (void)
{
  g_autoptr(GEnumClass) reasons = g_type_class_ref (CLARIFY_TYPE_END_REASON);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < reasons->n_values; i++)
    {
      ClarifyEndReason reason = reasons->values[i].value;
      g_autofree char *en = NULL;
      g_autofree char *de = NULL;

      set_language ("en");
      en = clarify_end_reason_describe (reason, NULL);
      set_language ("de");
      de = clarify_end_reason_describe (reason, NULL);

      if (reason == CLARIFY_END_REASON_NONE)
        {
          g_assert_null (en);
          g_assert_null (de);
          continue;
        }
      g_assert_nonnull (en);
      g_assert_nonnull (de);
      g_assert_cmpstr (de, !=, en);
      g_assert_true (g_hash_table_add (seen, g_steal_pointer (&en)));
    }
}

/* Details fill in where they belong; the agent's own words stand alone. */
static void
test_end_reason_detail (gconstpointer data)
{
  g_autofree char *refused = NULL;
  g_autofree char *failed = NULL;
  g_autofree char *agent = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *restarted = NULL;

  set_language (data);

  refused = clarify_end_reason_describe (CLARIFY_END_REASON_ANSWER_REFUSED, "HTTP 400 Bad Request");
  g_assert_cmpstr (refused, ==, T ("The agent refused the answer: HTTP 400 Bad Request",
                                   "Der Agent hat die Antwort abgelehnt: HTTP 400 Bad Request"));
  failed = clarify_end_reason_describe (CLARIFY_END_REASON_DELIVERY_FAILED, "HTTP 500 Internal Server Error");
  g_assert_cmpstr (failed, ==, T ("The answer could not be delivered: HTTP 500 Internal Server Error",
                                  "Die Antwort konnte nicht zugestellt werden: HTTP 500 Internal Server Error"));
  agent = clarify_end_reason_describe (CLARIFY_END_REASON_AGENT_WITHDREW, "Answered in the terminal");
  g_assert_cmpstr (agent, ==, "Answered in the terminal");
  plain = clarify_end_reason_describe (CLARIFY_END_REASON_AGENT_WITHDREW, "");
  g_assert_cmpstr (plain, ==, T ("The agent withdrew this question.", "Der Agent hat diese Frage zurückgezogen."));
  restarted = clarify_end_reason_describe (CLARIFY_END_REASON_AGENT_RESTARTED, NULL);
  g_assert_cmpstr (restarted, ==, T ("The agent restarted; this question is gone",
                                     "Der Agent wurde neu gestartet; diese Frage gibt es nicht mehr"));
}

/* An answer that did not arrive is told apart from its dialog: the text
 * names the question and the agent. */
static void
test_end_reason_undelivered (gconstpointer data)
{
  g_autoptr(GError) gone = g_error_new_literal (CLARIFY_ERROR, CLARIFY_ERROR_GONE, "HTTP 404 Not Found");
  g_autoptr(GError) restarted = g_error_new_literal (CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED,
                                                     "the agent restarted: HTTP 404 Not Found");
  g_autoptr(GError) other = g_error_new_literal (CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL, "HTTP 502 Bad Gateway");
  g_autofree char *elsewhere = NULL;
  g_autofree char *gone_text = NULL;
  g_autofree char *other_text = NULL;

  set_language (data);

  elsewhere = clarify_end_reason_describe_undelivered ("Which CSS framework?", "nomad", gone);
  g_assert_cmpstr (elsewhere, ==, T ("“Which CSS framework?” was answered elsewhere before your answer reached nomad",
                                     "„Which CSS framework?“ wurde anderswo beantwortet, bevor Ihre Antwort nomad erreichte"));
  gone_text = clarify_end_reason_describe_undelivered ("Which CSS framework?", "nomad", restarted);
  g_assert_cmpstr (gone_text, ==, T ("Your answer to “Which CSS framework?” was not delivered: nomad restarted and no longer asks it",
                                     "Ihre Antwort auf „Which CSS framework?“ wurde nicht zugestellt: nomad wurde neu gestartet und fragt nicht mehr danach"));
  other_text = clarify_end_reason_describe_undelivered ("Which CSS framework?", "nomad", other);
  g_assert_cmpstr (other_text, ==, T ("Your answer to “Which CSS framework?” could not be sent to nomad: HTTP 502 Bad Gateway",
                                      "Ihre Antwort auf „Which CSS framework?“ konnte nicht an nomad gesendet werden: HTTP 502 Bad Gateway"));
  g_clear_pointer (&elsewhere, g_free);
  g_clear_pointer (&gone_text, g_free);
  g_clear_pointer (&other_text, g_free);

  /* A program on this computer that gave no name: not "D-Bus". */
  elsewhere = clarify_end_reason_describe_undelivered ("Deploy?", NULL, gone);
  g_assert_cmpstr (elsewhere, ==, T ("“Deploy?” was answered elsewhere before your answer arrived",
                                     "„Deploy?“ wurde anderswo beantwortet, bevor Ihre Antwort ankam"));
  gone_text = clarify_end_reason_describe_undelivered ("Deploy?", NULL, restarted);
  g_assert_cmpstr (gone_text, ==, T ("Your answer to “Deploy?” was not delivered: the program that asked is gone",
                                     "Ihre Antwort auf „Deploy?“ wurde nicht zugestellt: Das fragende Programm ist beendet"));
  other_text = clarify_end_reason_describe_undelivered ("Deploy?", NULL, other);
  g_assert_cmpstr (other_text, ==, T ("Your answer to “Deploy?” could not be sent: HTTP 502 Bad Gateway",
                                      "Ihre Antwort auf „Deploy?“ konnte nicht gesendet werden: HTTP 502 Bad Gateway"));
}

static void
test_withdrawn_close_button (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, "en", build_confirm);

  clarify_request_withdraw (request, CLARIFY_END_REASON_ANSWERED_ELSEWHERE, NULL);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (&run, "notice_label"))), ==,
                   "This question was answered elsewhere.");
  g_assert_true (focus_is_inside (&run, find_by_id (&run, "notice_close_button")));
  press_id (&run, "notice_close_button");
  g_assert_true (run_is_destroyed (&run));
  g_assert_cmpuint (run.n_responses, ==, 0);
  run_clear (&run);
}

static void
test_withdrawn_before_shown (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  build_confirm (request);
  clarify_request_set_timeout_ms (request, 60 * 1000);
  clarify_request_withdraw (request, CLARIFY_END_REASON_SESSION_ENDED, NULL);
  run_create (&run, request);

  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 5000));
  g_assert_cmpuint (run.n_responses, ==, 0);
  run_clear (&run);
}

/* Chips and lists ---------------------------------------------------------------- */

static void
test_chips_or_list (gconstpointer data)
{
  gboolean multi = GPOINTER_TO_INT (data);

  set_language ("en");

  for (guint n = 4; n <= 5; n++)
    {
      g_autoptr(ClarifyRequest) request = new_request ("r1", NULL, NULL);
      ClarifyQuestion *q = add_question (request, "city", multi ? CLARIFY_QUESTION_KIND_MULTI : CLARIFY_QUESTION_KIND_SINGLE,
                                         "City", "Which cities?");
      g_autofree char *name = g_strdup_printf ("%s-%u", multi ? "multi" : "single", n);
      GtkWidget *input;
      Run run = { 0 };

      add_cities (q, n);
      run_start (&run, request);
      input = GTK_WIDGET (input_at (&run, 0));

      if (n == 4)
        {
          /* Chips: one toggle per option, nothing to search. */
          for (guint i = 0; i < n; i++)
            g_assert_nonnull (find_labelled (input, GTK_TYPE_TOGGLE_BUTTON,
                                             clarify_option_get_label (clarify_question_get_option (q, i))));
          g_assert_null (clarify_test_find_descendant (input, GTK_TYPE_SEARCH_ENTRY));
          g_assert_null (clarify_test_find_descendant (input, GTK_TYPE_LIST_VIEW));
        }
      else
        {
          g_autoptr(GPtrArray) rows = NULL;

          g_assert_nonnull (clarify_test_find_descendant (input, GTK_TYPE_SEARCH_ENTRY));
          rows = shown_rows (CLARIFY_INPUT (input));
          g_assert_cmpuint (rows->len, ==, n);
        }

      shot (&run, name);
      run_clear (&run);
    }
}

static void
test_search_ignores_accents (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  ClarifyInput *input;
  Run run = { 0 };

  request = start_request (&run, data, build_single_list);
  input = input_at (&run, 0);

  type_search (input, "MUNCHEN");
  rows = shown_rows (input);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==, "München");
  g_clear_pointer (&rows, g_ptr_array_unref);

  type_search (input, "dusseldorf");
  rows = shown_rows (input);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==, "Düsseldorf");
  g_clear_pointer (&rows, g_ptr_array_unref);

  type_search (input, "koln");
  rows = shown_rows (input);
  g_assert_cmpuint (rows->len, ==, 1);
  shot (&run, "search");

  select_row (input, "Köln");
  submit (&run);
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"city\",\"values\":[\"cgn\"]}]}");
  run_clear (&run);
}

/* Several questions --------------------------------------------------------------- */

static ClarifyRequest *
new_three_questions (void)
{
  ClarifyRequest *request = new_request ("r3", T ("New component", "Neue Komponente"),
                                         T ("I am about to scaffold the settings page.",
                                            "Ich lege gleich die Einstellungsseite an."));
  ClarifyQuestion *q;

  build_text (request);
  q = add_question (request, "city", CLARIFY_QUESTION_KIND_SINGLE, T ("City", "Stadt"),
                    T ("Which office is the default?", "Welcher Standort ist voreingestellt?"));
  add_cities (q, 5);
  build_multi_chips (request);

  return request;
}

static void
assert_step (Run  *run,
             guint page)
{
  g_autofree char *expected = g_strdup_printf (OUR ("Question %u of %u"), page + 1, 3);

  g_assert_cmpuint (clarify_request_dialog_get_page (run->dialog), ==, page);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (run, "steps_label"))), ==, expected);
  g_assert_true (focus_is_inside (run, GTK_WIDGET (input_at (run, page))));
}

/* The step marks as text: "v" answered, "o" to answer (or current). */
static void
assert_step_marks (Run        *run,
                   const char *expected)
{
  g_autoptr(GString) marks = g_string_new (NULL);

  for (GtkWidget *dot = gtk_widget_get_first_child (find_by_id (run, "dots_box"));
       dot != NULL;
       dot = gtk_widget_get_next_sibling (dot))
    {
      GdkPaintable *mark = gtk_image_get_paintable (GTK_IMAGE (dot));

      /* Drawn by Clarify: the theme has these as SVG only at their size. */
      g_assert_true (CLARIFY_IS_MARK (mark));
      g_string_append_c (marks, clarify_mark_get_shape (CLARIFY_MARK (mark)) == CLARIFY_MARK_CHECK ? 'v' : 'o');
    }

  g_assert_cmpstr (marks->str, ==, expected);
}

static void
test_three_questions (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *next, *back;
  Run run = { 0 };

  set_language (data);
  request = new_three_questions ();
  run_start (&run, request);

  g_assert_true (clarify_request_dialog_get_paged (run.dialog));
  next = find_by_id (&run, "next_button");
  back = find_by_id (&run, "back_button");
  assert_step (&run, 0);
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "submit_button")));
  g_assert_false (gtk_widget_is_sensitive (back));
  /* Next waits for an answer on this page. */
  g_assert_false (gtk_widget_is_sensitive (next));
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (run.dialog)) == next);

  assert_step_marks (&run, "ooo");
  fill_text (&run);
  press (next);
  assert_step (&run, 1);
  assert_step_marks (&run, "voo");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_by_id (&run, "steps_label"))), ==,
                   T ("Question 2 of 3", "Frage 2 von 3"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (next)), ==, T ("Next", "Weiter"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (back)), ==, T ("Back", "Zurück"));
  shot (&run, "three-questions");

  /* Back keeps what was typed. */
  press (back);
  assert_step (&run, 0);
  g_assert_true (clarify_input_get_valid (input_at (&run, 0)));

  /* Alt+Right is Next. */
  g_assert_true (press_key (&run, GDK_KEY_Right, GDK_ALT_MASK));
  assert_step (&run, 1);
  select_row (input_at (&run, 1), "Köln");
  press (next);
  assert_step (&run, 2);
  g_assert_false (gtk_widget_get_visible (next));
  g_assert_true (gtk_widget_get_visible (find_by_id (&run, "submit_button")));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_by_id (&run, "submit_button"))), ==, T ("Submit", "Absenden"));
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (run.dialog)) == find_by_id (&run, "submit_button"));

  fill_multi_chips_at (&run, 2);
  shot (&run, "three-questions-last");
  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r3\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"message\",\"values\":[\"Fix the login timeout on slow networks\"]},"
                   "{\"question_id\":\"city\",\"values\":[\"cgn\"]},"
                   "{\"question_id\":\"features\",\"values\":[\"a11y\",\"loading\"]}]}");
  run_clear (&run);
}

static void
test_paged_skip_question (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_three_questions ();
  clarify_question_set_skippable (clarify_request_get_question (request, 0), TRUE);
  clarify_request_set_skippable (request, TRUE);
  run_start (&run, request);

  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_by_id (&run, "skip_button"))), ==, OUR ("Skip All"));
  g_assert_null (clarify_request_dialog_get_skip_toggle (run.dialog, 1));

  /* Skipping a question moves on as Next does. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.skip-question", NULL));
  g_assert_true (gtk_toggle_button_get_active (clarify_request_dialog_get_skip_toggle (run.dialog, 0)));
  assert_step (&run, 1);

  select_row (input_at (&run, 1), "Berlin");
  press_id (&run, "next_button");
  click_choice (input_at (&run, 2), "Dark mode");
  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r3\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"message\",\"values\":[],\"skipped\":true},"
                   "{\"question_id\":\"city\",\"values\":[\"ber\"]},"
                   "{\"question_id\":\"features\",\"values\":[\"dark\"]}]}");
  run_clear (&run);
}

static guint
count_rows (ClarifyInput *input)
{
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (list_view_of (input)));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    n++;

  return n;
}

/* A request at the caps holds thousands of options: a long list builds its
 * rows when its page is first shown, not with the dialog. */
static void
test_paged_long_lists_built_when_shown (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };
  int height;

  set_language ("en");
  request = new_request ("lists", "Three long lists", NULL);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *id = g_strdup_printf ("q%u", i);
      g_autofree char *text = g_strdup_printf ("Pick one of list %u", i);
      ClarifyQuestion *q = add_question (request, id, CLARIFY_QUESTION_KIND_SINGLE, NULL, text);

      for (guint j = 0; j < 40; j++)
        {
          g_autofree char *label = g_strdup_printf ("Item %u.%u", i, j);
          g_autofree char *value = g_strdup_printf ("v%u.%u", i, j);

          add_option (q, label, value, NULL);
        }
    }
  run_start (&run, request);

  g_assert_true (clarify_request_dialog_get_paged (run.dialog));
  g_assert_cmpuint (count_rows (input_at (&run, 0)), >, 0);
  g_assert_cmpuint (count_rows (input_at (&run, 1)), ==, 0);
  g_assert_cmpuint (count_rows (input_at (&run, 2)), ==, 0);
  settle (&run);
  height = gtk_widget_get_height (GTK_WIDGET (run.dialog));

  select_row (input_at (&run, 0), "Item 0.1");
  press_id (&run, "next_button");
  g_assert_cmpuint (clarify_request_dialog_get_page (run.dialog), ==, 1);
  settle (&run);
  g_assert_cmpuint (count_rows (input_at (&run, 1)), >, 0);
  g_assert_cmpuint (count_rows (input_at (&run, 2)), ==, 0);
  /* Its card had the rows' height before it had the rows. */
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (run.dialog)), ==, height);
  shot (&run, "long-lists-second");

  select_row (input_at (&run, 1), "Item 1.2");
  press_id (&run, "next_button");
  settle (&run);
  select_row (input_at (&run, 2), "Item 2.3");
  submit (&run);
  assert_response (&run,
                   "{\"id\":\"lists\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"q0\",\"values\":[\"v0.1\"]},"
                   "{\"question_id\":\"q1\",\"values\":[\"v1.2\"]},"
                   "{\"question_id\":\"q2\",\"values\":[\"v2.3\"]}]}");
  run_clear (&run);
}

static guint
n_list_items (ClarifyInput *input)
{
  return g_list_model_get_n_items (G_LIST_MODEL (clarify_option_list_get_model (option_list_of (input))));
}

/* A long list fills in a few rows a frame while its page shows, and not
 * while another does: it goes on when its page is back. */
static void
test_paged_long_list_fills_while_shown (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *window;
  guint n_left;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("lists", "Two long lists", NULL);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *id = g_strdup_printf ("q%u", i);
      ClarifyQuestion *q = add_question (request, id, CLARIFY_QUESTION_KIND_SINGLE, NULL, "Pick one");

      for (guint j = 0; j < 200; j++)
        {
          g_autofree char *label = g_strdup_printf ("Item %u.%u", i, j);
          g_autofree char *value = g_strdup_printf ("v%u.%u", i, j);

          add_option (q, label, value, NULL);
        }
    }
  run_start (&run, request);
  window = GTK_WIDGET (run.dialog);

  /* Left before its rows are all in. */
  g_assert_true (clarify_option_list_get_filling (option_list_of (input_at (&run, 0))));
  select_row (input_at (&run, 0), "Item 0.1");
  press_id (&run, "next_button");
  n_left = n_list_items (input_at (&run, 0));
  g_assert_cmpuint (n_left, <, 200);

  /* The second fills in the frames that pass; the first not at all. */
  g_assert_true (clarify_test_wait_list_filled (GTK_WIDGET (input_at (&run, 1)), 5000));
  gtk_test_widget_wait_for_draw (window);
  g_assert_cmpuint (n_list_items (input_at (&run, 0)), ==, n_left);
  g_assert_cmpuint (n_list_items (input_at (&run, 1)), ==, 200);

  press_id (&run, "back_button");
  g_assert_true (clarify_test_wait_list_filled (GTK_WIDGET (input_at (&run, 0)), 5000));
  g_assert_cmpuint (n_list_items (input_at (&run, 0)), ==, 200);
  run_clear (&run);
}

static void
test_short_questions_form (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language (data);
  request = new_request ("r1", T ("Before the release", "Vor der Veröffentlichung"),
                         T ("Three quick decisions for the 2.0 branch.", "Drei schnelle Entscheidungen für den 2.0-Zweig."));
  build_confirm (request);
  build_single_chips (request);
  build_date (request);
  run_start (&run, request);

  /* Short questions share one form: every input is on screen at once. */
  g_assert_false (clarify_request_dialog_get_paged (run.dialog));
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "steps_box")));
  for (guint i = 0; i < 3; i++)
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (input_at (&run, i))));
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (input_at (&run, 0))));

  click_choice (input_at (&run, 0), OUR ("Yes"));
  click_choice (input_at (&run, 1), T ("Plain CSS", "Einfaches CSS"));
  g_assert_false (clarify_request_dialog_is_submit_sensitive (run.dialog));
  type_entry (clarify_date_entry_get_entry (clarify_date_input_get_date_entry (CLARIFY_DATE_INPUT (input_at (&run, 2)))),
              T ("2026-12-01", "01.12.2026"));
  shot (&run, "form");

  submit (&run);
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"delete\",\"values\":[\"yes\"]},"
                   "{\"question_id\":\"styling\",\"values\":[\"plain\"]},"
                   "{\"question_id\":\"release\",\"values\":[\"2026-12-01\"]}]}");
  run_clear (&run);
}

/* OpenCode's permission as its decoder builds it now: the command whole in
 * monospace (said once), one click answers; "Add a message…" holds what
 * goes with Reject. */
static void
test_permission (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyPermissionInput *input;
  GtkWidget *entry;
  ClarifyQuestion *q;
  Run run = { 0 };

  set_language (data);
  request = new_request ("per_1", T ("Allow “bash”?", "„bash“ erlauben?"), NULL);
  q = add_question (request, "reply", CLARIFY_QUESTION_KIND_PERMISSION, T ("Permission", "Berechtigung"),
                    T ("Allow the agent to go ahead?", "Darf der Agent fortfahren?"));
  clarify_question_set_subject (q, "rm -rf build");
  clarify_question_set_allow_other (q, TRUE);
  add_option (q, T ("Allow once", "Einmal erlauben"), "once", T ("Only this time", "Nur dieses Mal"));
  add_option (q, T ("Always allow", "Immer erlauben"), "always",
              T ("Also allow “rm *” from now on", "Auch „rm *“ ab jetzt erlauben"));
  add_option (q, T ("Reject", "Ablehnen"), "reject",
              T ("The agent does not get to do this", "Der Agent darf das nicht tun"));
  run_start (&run, request);

  input = CLARIFY_PERMISSION_INPUT (input_at (&run, 0));
  /* Its own buttons answer; the dialog's are gone. */
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "actions")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (clarify_permission_input_get_subject_label (input))), ==, "rm -rf build");
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "context_label")));
  g_assert_true (focus_is_inside (&run, clarify_permission_input_get_default_button (input)));

  gtk_expander_set_expanded (GTK_EXPANDER (clarify_permission_input_get_message_expander (input)), TRUE);
  entry = clarify_permission_input_get_message_entry (input);
  g_assert_true (focus_is_inside (&run, entry));
  type_entry (entry, T ("Delete only build/tmp, please.", "Bitte nur build/tmp löschen."));
  shot (&run, "permission");

  press (clarify_permission_input_get_button (input, CLARIFY_PERMISSION_REJECT));
  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 5000));
  assert_response (&run,
                   T ("{\"id\":\"per_1\",\"outcome\":\"answered\",\"answers\":["
                      "{\"question_id\":\"reply\",\"values\":[\"reject\"],\"custom_text\":\"Delete only build/tmp, please.\"}]}",
                      "{\"id\":\"per_1\",\"outcome\":\"answered\",\"answers\":["
                      "{\"question_id\":\"reply\",\"values\":[\"reject\"],\"custom_text\":\"Bitte nur build/tmp löschen.\"}]}"));
  run_clear (&run);
}

/* Whether a confirm question and @n_texts text questions share one form. */
static gboolean
is_one_form (int      max_length,
             gboolean skippable,
             guint    n_texts)
{
  g_autoptr(ClarifyRequest) request = new_request ("r1", NULL, NULL);
  gboolean paged;
  Run run = { 0 };

  build_confirm (request);
  for (guint i = 0; i < n_texts; i++)
    {
      g_autofree char *id = g_strdup_printf ("text%u", i);
      ClarifyQuestion *q = add_question (request, id, CLARIFY_QUESTION_KIND_TEXT, NULL, "Why?");
      ClarifyValidation validation;

      clarify_validation_init (&validation);
      validation.max_length = max_length;
      clarify_question_set_validation (q, &validation);
      clarify_validation_clear (&validation);
      clarify_question_set_skippable (q, skippable);
    }

  run_create (&run, request);
  paged = clarify_request_dialog_get_paged (run.dialog);
  run_clear (&run);

  return !paged;
}

static void
test_form_or_pages (void)
{
  set_language ("en");

  /* One text area fits into a form when its answer is optional or short. */
  g_assert_true (is_one_form (0, TRUE, 1));
  g_assert_true (is_one_form (72, FALSE, 1));
  g_assert_true (is_one_form (200, FALSE, 1));
  /* A required text of any length gets a page of its own... */
  g_assert_false (is_one_form (0, FALSE, 1));
  g_assert_false (is_one_form (201, FALSE, 1));
  /* ...and so does every text area once there are two. */
  g_assert_false (is_one_form (0, TRUE, 2));
  g_assert_false (is_one_form (72, FALSE, 2));
}

/* Keyboard ------------------------------------------------------------------------- */

static void
test_digits_pick (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, "en", build_single_chips);

  /* The chips have the focus, so digits pick. */
  g_assert_true (press_key (&run, GDK_KEY_3, 0));
  g_assert_true (clarify_input_get_valid (input_at (&run, 0)));
  g_assert_true (press_key (&run, GDK_KEY_KP_2, 0));
  /* There is no ninth chip. */
  g_assert_false (press_key (&run, GDK_KEY_9, 0));
  shot (&run, "digits");

  submit (&run);
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"styling\",\"values\":[\"css-modules\"]}]}");
  run_clear (&run);
}

static void
test_digits_leave_text_alone (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, "en", build_other);

  click_choice (input_at (&run, 0), OUR ("Other…"));
  /* Choosing Other puts the cursor in its entry; a digit there is text. */
  g_assert_true (GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (run.dialog))));
  g_assert_false (press_key (&run, GDK_KEY_1, 0));
  g_assert_false (clarify_input_get_valid (input_at (&run, 0)));

  /* The action itself still picks, whatever has the focus. */
  gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.pick", "u", 0);
  submit (&run);
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"styling\",\"values\":[\"tailwind\"]}]}");
  run_clear (&run);
}

static void
test_ctrl_enter_submits (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  request = start_request (&run, "en", build_text);

  /* Empty: nothing to submit. */
  g_assert_false (press_key (&run, GDK_KEY_Return, GDK_CONTROL_MASK));
  g_assert_false (run_is_destroyed (&run));

  fill_text (&run);
  /* From inside the text view, where Enter is a new line. */
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (input_at (&run, 0))));
  g_assert_true (press_key (&run, GDK_KEY_KP_Enter, GDK_CONTROL_MASK));
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"message\","
                   "\"values\":[\"Fix the login timeout on slow networks\"]}]}");
  run_clear (&run);
}

static void
test_enter_moves_on (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_request ("r1", NULL, NULL);
  build_number (request);
  build_number_decimal (request);
  run_start (&run, request);

  /* Enter (the inputs' ::activate-default) in the first field goes to the
   * next one; in the last, it submits. */
  type_number (input_at (&run, 0), "4");
  g_signal_emit_by_name (input_at (&run, 0), "activate-default");
  g_assert_true (focus_is_inside (&run, GTK_WIDGET (input_at (&run, 1))));
  g_assert_false (run_is_destroyed (&run));

  type_number (input_at (&run, 1), "7.5");
  g_signal_emit_by_name (input_at (&run, 1), "activate-default");
  assert_response (&run,
                   "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":["
                   "{\"question_id\":\"workers\",\"values\":[\"4\"]},"
                   "{\"question_id\":\"ratio\",\"values\":[\"7.5\"]}]}");
  run_clear (&run);
}

static void
add_kind_tests (void)
{
  static const char *languages[] = { "en", "de" };

  for (guint i = 0; i < G_N_ELEMENTS (kind_cases); i++)
    for (guint j = 0; j < G_N_ELEMENTS (languages); j++)
      {
        KindTest *test = g_new0 (KindTest, 1);
        g_autofree char *path = g_strdup_printf ("/dialog/kind/%s/%s", kind_cases[i].name, languages[j]);

        test->kind = &kind_cases[i];
        test->language = languages[j];
        g_test_add_data_func_full (path, test, test_kind, g_free);
      }
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  add_kind_tests ();
  g_test_add_func ("/dialog/header-and-plain-text", test_header_and_plain_text);
  g_test_add_func ("/dialog/long-context", test_long_context);
  g_test_add_func ("/dialog/untitled", test_untitled_window_title);
  add_language_test ("/dialog/source/local-caller", test_source_local_caller);
  g_test_add_func ("/dialog/source/own-protocol", test_source_own_protocol);
  add_language_test ("/dialog/skip/request", test_skip_request);
  add_language_test ("/dialog/skip/question", test_skip_question);
  add_language_test ("/dialog/skip/optional-left-empty", test_optional_left_empty);
  g_test_add_func ("/dialog/skip/question-paged", test_paged_skip_question);
  g_test_add_func ("/dialog/pages/long-lists-built-when-shown", test_paged_long_lists_built_when_shown);
  g_test_add_func ("/dialog/pages/long-list-fills-while-shown", test_paged_long_list_fills_while_shown);
  add_language_test ("/dialog/cancel", test_cancel);
  g_test_add_func ("/dialog/escape/cancels", test_escape_cancels);
  g_test_add_func ("/dialog/escape/closes-when-not-cancellable", test_escape_closes_when_not_cancellable);
  g_test_add_func ("/dialog/escape/clears-search-first", test_escape_clears_search_first);
  g_test_add_func ("/dialog/close-button-cancels", test_close_button_cancels);
  g_test_add_func ("/dialog/close-with-search-or-calendar", test_close_with_search_or_calendar);
  add_language_test ("/dialog/invalid", test_invalid_keeps_submit_insensitive);
  add_language_test ("/dialog/timeout", test_timeout);
  add_language_test ("/dialog/countdown", test_countdown_display);
  g_test_add_func ("/dialog/countdown/format", test_countdown_format);
  g_test_add_func ("/dialog/other-grows", test_other_grows);
  g_test_add_func ("/dialog/notice-grows", test_notice_grows);
  g_test_add_func ("/dialog/again-from-refused", test_again_from_refused);
  g_test_add_func ("/dialog/timeout/already-passed", test_timeout_already_passed);
  add_language_test ("/dialog/withdrawn", test_withdrawn);
  add_language_test ("/dialog/withdrawn/reason", test_withdrawn_reason);
  g_test_add_func ("/dialog/end-reason/describe", test_end_reason_describe);
  add_language_test ("/dialog/end-reason/detail", test_end_reason_detail);
  add_language_test ("/dialog/end-reason/undelivered", test_end_reason_undelivered);
  g_test_add_func ("/dialog/withdrawn/close-button", test_withdrawn_close_button);
  g_test_add_func ("/dialog/withdrawn/before-shown", test_withdrawn_before_shown);
  g_test_add_data_func ("/dialog/chips-or-list/single", GINT_TO_POINTER (FALSE), test_chips_or_list);
  g_test_add_data_func ("/dialog/chips-or-list/multi", GINT_TO_POINTER (TRUE), test_chips_or_list);
  add_language_test ("/dialog/search-accents", test_search_ignores_accents);
  add_language_test ("/dialog/three-questions", test_three_questions);
  add_language_test ("/dialog/form", test_short_questions_form);
  add_language_test ("/dialog/permission", test_permission);
  g_test_add_func ("/dialog/form/or-pages", test_form_or_pages);
  g_test_add_func ("/dialog/keys/digits", test_digits_pick);
  g_test_add_func ("/dialog/keys/digits-in-text", test_digits_leave_text_alone);
  g_test_add_func ("/dialog/keys/ctrl-enter", test_ctrl_enter_submits);
  g_test_add_func ("/dialog/keys/enter-moves-on", test_enter_moves_on);

  return g_test_run ();
}
