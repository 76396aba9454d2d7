/* test-inputs.c: the per-kind answer widgets, in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "clarify-choice-chips.h"
#include "clarify-confirm-input.h"
#include "clarify-date-input.h"
#include "clarify-date-range-input.h"
#include "clarify-input-factory.h"
#include "clarify-mark.h"
#include "clarify-multi-input.h"
#include "clarify-number-input.h"
#include "clarify-option-list.h"
#include "clarify-single-input.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"
#include "clarify-test-signals.h"
#include "clarify-text-input.h"
#include "clarify-tooltip.h"

#define WINDOW_WIDTH 560

/* Helpers */

static ClarifyQuestion *
new_question (ClarifyQuestionKind kind,
              const char         *text)
{
  return clarify_question_new ("q1", kind, text);
}

static void
add_options (ClarifyQuestion *question,
             const char      *first_label,
             ...)
{
  va_list args;

  va_start (args, first_label);
  for (const char *label = first_label; label != NULL; label = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);
      const char *description = va_arg (args, const char *);
      g_autoptr(ClarifyOption) option = clarify_option_new (label, value, description);

      clarify_question_add_option (question, option);
    }
  va_end (args);
}

static void
set_defaults (ClarifyQuestion *question,
              const char      *first,
              ...)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  va_list args;

  va_start (args, first);
  for (const char *value = first; value != NULL; value = va_arg (args, const char *))
    g_ptr_array_add (values, (gpointer) value);
  va_end (args);
  g_ptr_array_add (values, NULL);

  clarify_question_set_default_values (question, (const char * const *) values->pdata);
}

typedef struct
{
  GtkWidget    *window;
  ClarifyInput *input;
} Shown;

/* The input in a fixed-width window, as the dialog will host it. */
static Shown
show (ClarifyQuestion *question)
{
  Shown shown;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *title = gtk_label_new (clarify_question_get_text (question));

  shown.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (shown.window), WINDOW_WIDTH, -1);
  gtk_window_set_resizable (GTK_WINDOW (shown.window), FALSE);
  gtk_window_set_title (GTK_WINDOW (shown.window), "test-inputs");

  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (box), title);

  shown.input = clarify_input_new_for_question (question, NULL);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (shown.input));

  /* As the dialog must: a width request, or the window's minimum height is
   * measured for the narrowest width, where wrapping labels are tallest. */
  gtk_widget_set_size_request (box, WINDOW_WIDTH - 2 * 18, -1);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_window_set_child (GTK_WINDOW (shown.window), box);

  clarify_test_present_and_wait (GTK_WINDOW (shown.window));
  /* The tests look at all of a long list's rows. */
  g_assert_true (clarify_test_wait_list_filled (shown.window, 5000));

  return shown;
}

/* Destroys the window and checks that the input went with it. */
static void
hide (Shown *shown)
{
  gpointer input = shown->input;

  g_object_add_weak_pointer (G_OBJECT (input), &input);
  gtk_window_destroy (GTK_WINDOW (shown->window));
  clarify_test_spin (20);
  g_assert_null (input);
}

/* The collected values joined by "|", and the custom text. */
static char *
collect (ClarifyInput  *input,
         char         **custom_text)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *custom = NULL;

  clarify_input_collect (input, values, &custom);
  g_ptr_array_add (values, NULL);

  if (custom_text != NULL)
    *custom_text = g_steal_pointer (&custom);

  return g_strjoinv ("|", (char **) values->pdata);
}

static void
assert_answer (ClarifyInput *input,
               const char   *expected_values,
               const char   *expected_custom)
{
  g_autofree char *custom = NULL;
  g_autofree char *values = collect (input, &custom);

  g_assert_cmpstr (values, ==, expected_values);
  g_assert_cmpstr (custom, ==, expected_custom);
}

static void
assert_valid (ClarifyInput *input)
{
  g_assert_cmpstr (clarify_input_get_error (input), ==, NULL);
  g_assert_true (clarify_input_get_valid (input));
}

static void
assert_invalid (ClarifyInput *input,
                const char   *message)
{
  g_assert_false (clarify_input_get_valid (input));
  g_assert_cmpstr (clarify_input_get_error (input), ==, message);
}

static const char *
current_language (void)
{
  const char *language = g_getenv ("LANGUAGE");

  return language != NULL && g_str_has_prefix (language, "de") ? "de" : "en";
}

static void
screenshot (Shown      *shown,
            const char *name)
{
  g_autofree char *file_name = g_strdup_printf ("%s-%s", name, current_language ());
  g_autofree char *path = NULL;

  gtk_test_widget_wait_for_draw (shown->window);
  path = clarify_test_save_screenshot (shown->window, file_name);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* A label with exactly @text is shown (it and its ancestors are visible). */
static gboolean
has_label (GtkWidget  *root,
           const char *text)
{
  GtkWidget *label = clarify_test_find_label (root, text);

  return label != NULL && gtk_widget_is_visible (label);
}

/* The checklist row (a GtkCheckButton) whose title is @label. */
static GtkWidget *
find_check_row (GtkWidget  *root,
                const char *label)
{
  if (GTK_IS_CHECK_BUTTON (root) && gtk_widget_get_visible (root) && has_label (root, label))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_check_row (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* What a mouse click ends in (gtk_widget_activate() on a button only
 * finishes after a timeout, like a key press). */
static void
click (gpointer button)
{
  g_assert_true (GTK_IS_BUTTON (button));
  g_signal_emit_by_name (button, "clicked");
}

static GtkWidget *
get_view (ClarifyInput *input)
{
  return clarify_choice_input_get_view (CLARIFY_CHOICE_INPUT (input));
}

static GtkToggleButton *
get_chip (ClarifyInput *input,
          guint         index)
{
  GtkWidget *chip = clarify_choice_chips_get_chip (CLARIFY_CHOICE_CHIPS (get_view (input)), index);

  g_assert_nonnull (chip);
  return GTK_TOGGLE_BUTTON (chip);
}

static guint
count_chips (ClarifyInput *input)
{
  guint n = 0;

  while (clarify_choice_chips_get_chip (CLARIFY_CHOICE_CHIPS (get_view (input)), n) != NULL)
    n++;

  return n;
}

static void
search (ClarifyInput *input,
        const char   *query)
{
  ClarifyOptionList *list = CLARIFY_OPTION_LIST (get_view (input));

  gtk_editable_set_text (GTK_EDITABLE (clarify_option_list_get_search_entry (list)), query);
}

/* The input's height once the window has followed its size. */
static int
settled_height (Shown *shown)
{
  int height = -1;

  for (guint i = 0; i < 20 && height != gtk_widget_get_height (GTK_WIDGET (shown->input)); i++)
    {
      height = gtk_widget_get_height (GTK_WIDGET (shown->input));
      gdk_display_sync (gtk_widget_get_display (shown->window));
      gtk_test_widget_wait_for_draw (shown->window);
    }

  return height;
}

static GListModel *
visible_rows (ClarifyInput *input)
{
  return G_LIST_MODEL (clarify_option_list_get_model (CLARIFY_OPTION_LIST (get_view (input))));
}

static const char *
row_label (ClarifyInput *input,
           guint         position)
{
  g_autoptr(ClarifyOption) option = g_list_model_get_item (visible_rows (input), position);

  g_assert_nonnull (option);
  return clarify_option_get_label (option);
}

static void
set_text_view (ClarifyInput *input,
               const char   *text)
{
  clarify_test_set_field_text (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (input)), text);
}

static ClarifyQuestion *
new_city_question (ClarifyQuestionKind kind)
{
  ClarifyQuestion *question = new_question (kind, "Which city?");

  add_options (question,
               "Berlin", "berlin", "Capital",
               "Köln", "cologne", "Cathedral on the Rhine",
               "München", "munich", NULL,
               "Hamburg", "hamburg", "Harbour",
               "Grüße aus Zürich", "zurich", NULL,
               NULL);

  return question;
}

/* Base class */

static void
test_factory_kinds (void)
{
  static const struct
  {
    ClarifyQuestionKind kind;
    const char         *type_name;
  } kinds[] = {
    { CLARIFY_QUESTION_KIND_TEXT, "ClarifyTextInput" },
    { CLARIFY_QUESTION_KIND_SINGLE, "ClarifySingleInput" },
    { CLARIFY_QUESTION_KIND_MULTI, "ClarifyMultiInput" },
    { CLARIFY_QUESTION_KIND_CONFIRM, "ClarifyConfirmInput" },
    { CLARIFY_QUESTION_KIND_NUMBER, "ClarifyNumberInput" },
    { CLARIFY_QUESTION_KIND_DATE, "ClarifyDateInput" },
    { CLARIFY_QUESTION_KIND_DATE_RANGE, "ClarifyDateRangeInput" },
    { CLARIFY_QUESTION_KIND_PERMISSION, "ClarifyPermissionInput" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(ClarifyQuestion) question = new_question (kinds[i].kind, "Kind?");
      ClarifyInput *input;
      GtkLayoutManager *layout;

      if (kinds[i].kind == CLARIFY_QUESTION_KIND_SINGLE || kinds[i].kind == CLARIFY_QUESTION_KIND_MULTI)
        add_options (question, "A", "a", NULL, "B", "b", NULL, NULL);
      if (kinds[i].kind == CLARIFY_QUESTION_KIND_PERMISSION)
        add_options (question, "Allow once", CLARIFY_PERMISSION_ONCE, NULL, "Deny", CLARIFY_PERMISSION_REJECT, NULL, NULL);

      input = g_object_ref_sink (clarify_input_new_for_question (question, NULL));
      g_assert_cmpstr (G_OBJECT_TYPE_NAME (input), ==, kinds[i].type_name);
      g_assert_true (clarify_input_get_question (input) == question);
      /* Nothing answered and nothing touched yet. */
      g_assert_false (clarify_input_get_touched (input));
      layout = gtk_widget_get_layout_manager (GTK_WIDGET (input));
      g_assert_true (GTK_IS_BOX_LAYOUT (layout));
      g_assert_cmpint (gtk_orientable_get_orientation (GTK_ORIENTABLE (layout)), ==, GTK_ORIENTATION_VERTICAL);
      g_assert_finalize_object (input);
    }
}

static void
test_accessible_label_and_context (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_TEXT, "What does DM mean?");
  Shown shown = show (question);
  GtkWidget *view = clarify_text_input_get_field (CLARIFY_TEXT_INPUT (shown.input));
  guint notified = 0;

  gtk_test_accessible_assert_property (view, GTK_ACCESSIBLE_PROPERTY_LABEL, "What does DM mean?");

  g_signal_connect_swapped (shown.input, "notify::context", G_CALLBACK (clarify_test_count_emission), &notified);
  clarify_input_set_context (shown.input, "The abbreviation has several meanings");
  clarify_input_set_context (shown.input, "The abbreviation has several meanings");
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpstr (clarify_input_get_context (shown.input), ==, "The abbreviation has several meanings");
  gtk_test_accessible_assert_property (view, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "The abbreviation has several meanings");

  hide (&shown);
}

static void
test_valid_notifies_only_on_change (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_TEXT, "Name?");
  Shown shown = show (question);
  GtkEditable *entry = GTK_EDITABLE (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (shown.input)));
  guint valid_notifies = 0, error_notifies = 0, touched_notifies = 0;

  g_signal_connect_swapped (shown.input, "notify::valid", G_CALLBACK (clarify_test_count_emission), &valid_notifies);
  g_signal_connect_swapped (shown.input, "notify::error", G_CALLBACK (clarify_test_count_emission), &error_notifies);
  g_signal_connect_swapped (shown.input, "notify::touched", G_CALLBACK (clarify_test_count_emission), &touched_notifies);

  assert_invalid (shown.input, "Please answer this question.");
  g_assert_false (clarify_input_get_touched (shown.input));

  /* Typing, as a user does: every keystroke is a change. */
  for (const char *c = "Ada Lovelace"; *c != '\0'; c++)
    {
      int position = gtk_editable_get_position (entry);

      gtk_editable_insert_text (entry, c, 1, &position);
      gtk_editable_set_position (entry, position);
    }
  assert_answer (shown.input, "Ada Lovelace", NULL);
  assert_valid (shown.input);
  g_assert_true (clarify_input_get_touched (shown.input));
  g_assert_cmpuint (valid_notifies, ==, 1);
  g_assert_cmpuint (error_notifies, ==, 1);
  g_assert_cmpuint (touched_notifies, ==, 1);

  hide (&shown);
}

/* Text */

static void
test_text (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_TEXT, "What does 'DM' refer to?");
  ClarifyValidation validation;
  GtkWidget *placeholder;
  Shown shown;

  clarify_validation_init (&validation);
  validation.min_length = 2;
  validation.max_length = 20;
  validation.pattern = (char *) "^[A-Za-z ,.-]+$";
  validation.message = (char *) "Letters only, 2-20 characters";
  clarify_question_set_validation (question, &validation);
  clarify_question_set_placeholder (question, "e.g., Direct Message, Data Manager...");

  shown = show (question);
  g_assert_false (clarify_input_pick (shown.input, 0));

  placeholder = clarify_test_find_label (GTK_WIDGET (shown.input), "e.g., Direct Message, Data Manager...");
  g_assert_nonnull (placeholder);
  /* Twenty characters are one line: an entry, with its own placeholder. */
  g_assert_true (GTK_IS_ENTRY (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (shown.input))));
  g_assert_true (gtk_widget_get_mapped (placeholder));
  g_assert_true (has_label (GTK_WIDGET (shown.input), "0 / 20"));
  g_assert_true (has_label (GTK_WIDGET (shown.input), "At least 2 characters"));
  assert_answer (shown.input, "", NULL);
  assert_invalid (shown.input, "Please answer this question.");
  screenshot (&shown, "input-text-empty");

  set_text_view (shown.input, "D");
  assert_invalid (shown.input, "Please enter at least 2 characters.");

  set_text_view (shown.input, "Direct Message 42");
  assert_invalid (shown.input, "Letters only, 2-20 characters");

  set_text_view (shown.input, "Direct Message and a lot more");
  assert_invalid (shown.input, "Please enter at most 20 characters.");
  g_assert_true (has_label (GTK_WIDGET (shown.input), "29 / 20"));

  set_text_view (shown.input, "Direct Message");
  assert_valid (shown.input);
  assert_answer (shown.input, "Direct Message", NULL);
  g_assert_true (has_label (GTK_WIDGET (shown.input), "14 / 20"));
  /* The placeholder is gone while there is text. */
  g_assert_false (gtk_widget_get_mapped (placeholder));
  screenshot (&shown, "input-text-valid");

  hide (&shown);
}

static void
test_text_grows_then_scrolls (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_TEXT, "Tell me more");
  g_autoptr(GString) many_lines = g_string_new (NULL);
  GtkWidget *view;
  GtkWidget *scrolled;
  int empty_height, five_lines_height, full_height;
  Shown shown;

  clarify_question_set_multi_line (question, TRUE);
  shown = show (question);
  view = clarify_text_input_get_field (CLARIFY_TEXT_INPUT (shown.input));
  gtk_test_accessible_assert_property (view, GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE);
  scrolled = gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW);
  empty_height = gtk_widget_get_height (scrolled);

  /* The text view lays out the lines it does not show yet in an idle after
   * the next frame, so growing can take a frame or two: wait for the end. */
  set_text_view (shown.input, "one\ntwo\nthree\nfour\nfive");
  g_assert_true (clarify_test_wait_for_natural_height (scrolled, 5000));
  five_lines_height = gtk_widget_get_height (scrolled);
  g_assert_cmpint (five_lines_height, >, empty_height);

  /* Past eight lines it stops growing and scrolls. */
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (many_lines, "line %u\n", i);
  set_text_view (shown.input, many_lines->str);
  g_assert_true (clarify_test_wait_for_natural_height (scrolled, 5000));
  full_height = gtk_widget_get_height (scrolled);
  g_assert_cmpint (full_height, >, five_lines_height);
  g_assert_cmpint (full_height, ==, gtk_scrolled_window_get_max_content_height (GTK_SCROLLED_WINDOW (scrolled)));
  g_assert_cmpint (full_height, <, 41 * (five_lines_height / 5));
  screenshot (&shown, "input-text-long");

  hide (&shown);
}

static void
activate_default_cb (ClarifyInput *input,
                     guint        *count)
{
  (*count)++;
}

/* The input's own key handler on @widget (it runs in the capture phase,
 * before the widget's). */
/* The capture-phase controller of @type @widget was given (not GTK's own). */
static GtkEventController *
get_capture_controller (GtkWidget *widget,
                        GType      type)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type) &&
          gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE)
        return GTK_EVENT_CONTROLLER (controller);
    }

  g_assert_not_reached ();
}

static GtkEventController *
get_key_controller (GtkWidget *widget)
{
  return get_capture_controller (widget, GTK_TYPE_EVENT_CONTROLLER_KEY);
}

static void
test_text_default_and_ctrl_enter (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_TEXT, "Greeting?");
  GtkWidget *view;
  GtkEventController *keys;
  guint activated = 0;
  gboolean handled = FALSE;
  Shown shown;

  set_defaults (question, "Hello", NULL);
  clarify_question_set_multi_line (question, TRUE);
  shown = show (question);
  assert_answer (shown.input, "Hello", NULL);
  assert_valid (shown.input);
  g_assert_false (clarify_input_get_touched (shown.input));

  /* Ctrl+Enter goes to the dialog (as ::activate-default); plain Enter is a newline. */
  g_signal_connect (shown.input, "activate-default", G_CALLBACK (activate_default_cb), &activated);
  view = clarify_text_input_get_field (CLARIFY_TEXT_INPUT (shown.input));
  keys = get_key_controller (view);
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Return, 36, GDK_CONTROL_MASK, &handled);
  g_assert_true (handled);
  g_assert_cmpuint (activated, ==, 1);
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Return, 36, 0, &handled);
  g_assert_false (handled);
  g_assert_cmpuint (activated, ==, 1);

  hide (&shown);
}

/* Single */

static void
test_single_chips (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_SINGLE, "Welche Sprache?");
  Shown shown;

  add_options (question,
               "Englisch", "en", NULL,
               "Französisch", "fr", NULL,
               "Spanisch", "es", NULL,
               "Italienisch", "it", "Nur schriftlich",
               NULL);
  shown = show (question);

  /* Four options are chips, not a list. */
  g_assert_true (CLARIFY_IS_CHOICE_CHIPS (get_view (shown.input)));
  g_assert_null (clarify_test_find_descendant (GTK_WIDGET (shown.input), GTK_TYPE_LIST_VIEW));
  g_assert_cmpuint (count_chips (shown.input), ==, 4);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (get_chip (shown.input, 0))), ==, NULL);
  gtk_test_accessible_assert_property (get_chip (shown.input, 1), GTK_ACCESSIBLE_PROPERTY_LABEL, "Französisch");
  gtk_test_accessible_assert_property (get_chip (shown.input, 3), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Nur schriftlich");
  gtk_test_accessible_assert_property (get_view (shown.input), GTK_ACCESSIBLE_PROPERTY_LABEL, "Welche Sprache?");
  assert_invalid (shown.input, "Please answer this question.");
  assert_answer (shown.input, "", NULL);

  click (get_chip (shown.input, 1));
  assert_answer (shown.input, "fr", NULL);
  assert_valid (shown.input);
  g_assert_true (clarify_input_get_touched (shown.input));

  /* Radio behaviour: one chip at a time. */
  gtk_toggle_button_set_active (get_chip (shown.input, 2), TRUE);
  g_assert_false (gtk_toggle_button_get_active (get_chip (shown.input, 1)));
  assert_answer (shown.input, "es", NULL);

  g_assert_true (clarify_input_pick (shown.input, 0));
  g_assert_true (gtk_toggle_button_get_active (get_chip (shown.input, 0)));
  g_assert_false (gtk_toggle_button_get_active (get_chip (shown.input, 2)));
  assert_answer (shown.input, "en", NULL);
  g_assert_false (clarify_input_pick (shown.input, 4));
  assert_answer (shown.input, "en", NULL);
  screenshot (&shown, "input-single-chips-picked");

  hide (&shown);
}

static void
test_single_list_at_five (void)
{
  g_autoptr(ClarifyQuestion) question = new_city_question (CLARIFY_QUESTION_KIND_SINGLE);
  GtkSingleSelection *selection;
  ClarifyOptionList *list;
  Shown shown = show (question);
  int full_height;

  /* Five options are a searchable list. */
  g_assert_true (CLARIFY_IS_OPTION_LIST (get_view (shown.input)));
  list = CLARIFY_OPTION_LIST (get_view (shown.input));
  selection = GTK_SINGLE_SELECTION (clarify_option_list_get_model (list));
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 5);
  gtk_test_accessible_assert_property (clarify_option_list_get_list_view (list),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Which city?");
  gtk_test_accessible_assert_property (clarify_option_list_get_search_entry (list),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Which city?");
  assert_invalid (shown.input, "Please answer this question.");

  gtk_single_selection_set_selected (selection, 0);
  assert_answer (shown.input, "berlin", NULL);
  assert_valid (shown.input);

  /* The search ignores case and accents, and keeps the choice. */
  full_height = settled_height (&shown);
  search (shown.input, "koln");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 1);
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Köln");
  assert_answer (shown.input, "berlin", NULL);
  /* Fewer rows, same height: nothing below the list jumps up. */
  g_assert_cmpint (settled_height (&shown), ==, full_height);
  screenshot (&shown, "input-single-list-koln");

  search (shown.input, "KÖLN");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 1);
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Köln");

  search (shown.input, "zurich");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 1);
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Grüße aus Zürich");

  /* Descriptions count too. */
  search (shown.input, "rhine");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 1);
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Köln");

  /* Selecting in the filtered list; then the full list shows it selected. */
  gtk_single_selection_set_selected (selection, 0);
  assert_answer (shown.input, "cologne", NULL);
  search (shown.input, "");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 5);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 1);

  /* Esc empties the search. */
  search (shown.input, "ber");
  g_signal_emit_by_name (clarify_option_list_get_search_entry (list), "stop-search");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 5);

  search (shown.input, "xyz");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 0);
  g_assert_true (has_label (GTK_WIDGET (shown.input), "No options found"));
  /* Nothing is left to show, not even an empty frame; the space stays. */
  g_assert_false (gtk_widget_is_visible (clarify_option_list_get_list_view (list)));
  g_assert_cmpint (settled_height (&shown), ==, full_height);
  assert_answer (shown.input, "cologne", NULL);
  screenshot (&shown, "input-single-list-empty");

  /* pick() takes the n-th visible row. */
  search (shown.input, "");
  g_assert_true (clarify_input_pick (shown.input, 3));
  assert_answer (shown.input, "hamburg", NULL);
  g_assert_false (clarify_input_pick (shown.input, 5));
  screenshot (&shown, "input-single-list-picked");

  hide (&shown);
}

/* What a search for @query must show of @question's options, in order:
 * those whose label or description has words starting with its words,
 * ignoring case and accents. */
static GPtrArray *
expected_rows (ClarifyQuestion *question,
               const char      *query)
{
  GListModel *options = clarify_question_get_options (question);
  GPtrArray *labels = g_ptr_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (options); i++)
    {
      g_autoptr(ClarifyOption) option = g_list_model_get_item (options, i);
      const char *description = clarify_option_get_description (option);

      if (query[0] == '\0' ||
          g_str_match_string (query, clarify_option_get_label (option), TRUE) ||
          (description != NULL && g_str_match_string (query, description, TRUE)))
        g_ptr_array_add (labels, (gpointer) clarify_option_get_label (option));
    }

  return labels;
}

static void
assert_rows_are (ClarifyInput *input,
                 GPtrArray    *expected,
                 guint         n)
{
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (row_label (input, i), ==, i < expected->len ? g_ptr_array_index (expected, i) : "Other…");
}

/* The rows shown are what a fresh search for the entry's text finds, in
 * order, Other last: at once the first of them (a search that lets many
 * more rows through than were shown adds them a batch a frame), all of
 * them once the list has filled in. */
static void
assert_rows_match_search (ClarifyInput    *input,
                          ClarifyQuestion *question)
{
  GtkWidget *entry = clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (get_view (input)));
  g_autofree char *query = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
  g_autoptr(GPtrArray) expected = expected_rows (question, query);
  guint n = g_list_model_get_n_items (visible_rows (input));

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <=, expected->len + 1);
  assert_rows_are (input, expected, n);

  g_assert_true (clarify_test_wait_list_filled (get_view (input), 5000));
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (input)), ==, expected->len + 1);
  assert_rows_are (input, expected, expected->len + 1);
}

/* Types @text at the end of the search, one character at a time as keys
 * do, and checks the rows after each. */
static void
type_into_search (ClarifyInput    *input,
                  ClarifyQuestion *question,
                  const char      *text)
{
  GtkEditable *entry = GTK_EDITABLE (clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (get_view (input))));

  for (const char *c = text; *c != '\0'; c = g_utf8_next_char (c))
    {
      int position = (int) strlen (gtk_editable_get_text (entry));

      gtk_editable_insert_text (entry, c, (int) (g_utf8_next_char (c) - c), &position);
      assert_rows_match_search (input, question);
    }
}

/* Erases the search from its end, one character at a time, like Backspace. */
static void
erase_search (ClarifyInput    *input,
              ClarifyQuestion *question)
{
  GtkEditable *entry = GTK_EDITABLE (clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (get_view (input))));
  int length;

  while ((length = g_utf8_strlen (gtk_editable_get_text (entry), -1)) > 0)
    {
      gtk_editable_delete_text (entry, length - 1, length);
      assert_rows_match_search (input, question);
    }
}

static const char long_label[] = "A machine of our own in the basement, which we would have to "
                                 "order, install and look after ourselves";

/* 31 machines and Other: more rows than the list shows at once. The first
 * label needs two lines. */
static ClarifyQuestion *
new_machine_question (ClarifyQuestionKind kind)
{
  static const char * const cities[] = { "Amsterdam", "Berlin", "Bern", "Köln", "København",
                                         "Genève", "Zürich", "Hamburg", "Helsinki", "London" };
  static const char * const sizes[] = { "small", "large", "xlarge" };
  ClarifyQuestion *question = new_question (kind, "Which machine?");
  g_autoptr(ClarifyOption) own = clarify_option_new (long_label, "own", "Nobody else's hardware");

  clarify_question_add_option (question, own);
  for (guint i = 0; i < G_N_ELEMENTS (cities) * G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *label = g_strdup_printf ("%s %s", cities[i % G_N_ELEMENTS (cities)],
                                                sizes[i / G_N_ELEMENTS (cities)]);
      g_autofree char *value = g_strdup_printf ("m%u", i);
      g_autofree char *description = g_strdup_printf ("%u vCPU", 2u << (i % 4));
      g_autoptr(ClarifyOption) option = clarify_option_new (label, value, i % 2 ? description : NULL);

      clarify_question_add_option (question, option);
    }
  clarify_question_set_allow_other (question, TRUE);

  return question;
}

/* The list view is as tall as the list may be, and scrolls. */
static void
assert_list_at_max_height (ClarifyInput *input)
{
  GtkWidget *list_view = clarify_option_list_get_list_view (CLARIFY_OPTION_LIST (get_view (input)));
  GtkWidget *scrolled = gtk_widget_get_ancestor (list_view, GTK_TYPE_SCROLLED_WINDOW);

  g_assert_cmpint (gtk_widget_get_height (list_view), ==,
                   gtk_scrolled_window_get_max_content_height (GTK_SCROLLED_WINDOW (scrolled)));
}

static void
test_single_long_list (void)
{
  g_autoptr(ClarifyQuestion) question = new_machine_question (CLARIFY_QUESTION_KIND_SINGLE);
  GtkWidget *view, *list_view, *long_title, *short_title;
  GtkSingleSelection *selection;
  int full_height;
  Shown shown;

  shown = show (question);
  view = get_view (shown.input);
  list_view = clarify_option_list_get_list_view (CLARIFY_OPTION_LIST (view));
  selection = GTK_SINGLE_SELECTION (clarify_option_list_get_model (CLARIFY_OPTION_LIST (view)));

  /* 32 rows do not fit. */
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 32);
  full_height = settled_height (&shown);
  assert_list_at_max_height (shown.input);

  /* A label too long for one line wraps within the row. */
  long_title = clarify_test_find_label (list_view, long_label);
  short_title = clarify_test_find_label (list_view, "Amsterdam small");
  g_assert_nonnull (long_title);
  g_assert_nonnull (short_title);
  g_assert_cmpint (gtk_widget_get_height (long_title), >=, 2 * gtk_widget_get_height (short_title));
  g_assert_cmpint (gtk_widget_get_width (long_title), <=, gtk_widget_get_width (list_view));
  screenshot (&shown, "input-single-list-long");

  /* Typing narrows the rows, erasing widens them, key by key. */
  type_into_search (shown.input, question, "bern");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 3 + 1);
  g_assert_cmpint (settled_height (&shown), ==, full_height);
  erase_search (shown.input, question);
  type_into_search (shown.input, question, "GENEVE x");
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Genève xlarge");
  erase_search (shown.input, question);
  type_into_search (shown.input, question, "8 vcpu l");
  erase_search (shown.input, question);

  /* A new search in place of another. */
  search (shown.input, "ham");
  assert_rows_match_search (shown.input, question);
  search (shown.input, "köln  large");
  assert_rows_match_search (shown.input, question);
  search (shown.input, "large köln");
  assert_rows_match_search (shown.input, question);
  search (shown.input, "basement");
  assert_rows_match_search (shown.input, question);
  g_assert_cmpstr (row_label (shown.input, 0), ==, long_label);

  /* The choice survives a search that hides it. */
  search (shown.input, "zurich lar");
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Zürich large");
  gtk_single_selection_set_selected (selection, 0);
  assert_answer (shown.input, "m16", NULL);
  search (shown.input, "xyz");
  assert_rows_match_search (shown.input, question);
  g_assert_true (has_label (view, "No options found"));
  g_assert_cmpint (settled_height (&shown), ==, full_height);
  search (shown.input, "");
  assert_answer (shown.input, "m16", NULL);
  /* Its row comes back with the batch that holds it. */
  g_assert_true (clarify_test_wait_list_filled (view, 5000));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 17);
  g_assert_cmpint (settled_height (&shown), ==, full_height);

  hide (&shown);
}

static void
test_single_search_enter (void)
{
  g_autoptr(ClarifyQuestion) question = new_city_question (CLARIFY_QUESTION_KIND_SINGLE);
  ClarifyOptionList *list;
  GtkWidget *entry;
  guint activated = 0;
  Shown shown = show (question);

  list = CLARIFY_OPTION_LIST (get_view (shown.input));
  entry = clarify_option_list_get_search_entry (list);
  g_signal_connect (shown.input, "activate-default", G_CALLBACK (activate_default_cb), &activated);

  /* Enter takes the best match first, then submits. */
  search (shown.input, "mun");
  g_signal_emit_by_name (entry, "activate");
  assert_answer (shown.input, "munich", NULL);
  g_assert_cmpuint (activated, ==, 0);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (activated, ==, 1);

  /* A search that matches nothing: Enter does not send Munich, hidden. */
  search (shown.input, "xyz");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (activated, ==, 1);
  assert_answer (shown.input, "munich", NULL);

  /* Activating a row (double-click, Enter) selects it and submits. */
  search (shown.input, "");
  g_signal_emit_by_name (clarify_option_list_get_list_view (list), "activate", 0);
  assert_answer (shown.input, "berlin", NULL);
  g_assert_cmpuint (activated, ==, 2);

  hide (&shown);
}

static void
test_single_other_chips (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_SINGLE, "Welche Sprache?");
  GtkWidget *entry;
  guint activated = 0;
  Shown shown;

  add_options (question, "Englisch", "en", NULL, "Französisch", "fr", NULL, "Spanisch", "es", NULL, NULL);
  clarify_question_set_allow_other (question, TRUE);
  shown = show (question);

  g_assert_cmpuint (count_chips (shown.input), ==, 4);
  /* Radio buttons to assistive technology, Other too. */
  gtk_test_accessible_assert_role (get_chip (shown.input, 3), GTK_ACCESSIBLE_ROLE_RADIO);
  g_assert_true (has_label (GTK_WIDGET (get_chip (shown.input, 3)), "Other…"));
  entry = clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (shown.input));
  g_assert_nonnull (entry);
  g_assert_false (gtk_widget_get_visible (entry));
  g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (entry)), ==, "Type your answer…");

  gtk_toggle_button_set_active (get_chip (shown.input, 0), TRUE);
  click (get_chip (shown.input, 3));
  gtk_test_accessible_assert_state (get_chip (shown.input, 3), GTK_ACCESSIBLE_STATE_CHECKED,
                                    GTK_ACCESSIBLE_TRISTATE_TRUE);
  gtk_test_accessible_assert_state (get_chip (shown.input, 0), GTK_ACCESSIBLE_STATE_CHECKED,
                                    GTK_ACCESSIBLE_TRISTATE_FALSE);
  g_assert_true (gtk_widget_get_visible (entry));
  g_assert_true (gtk_widget_has_focus (gtk_widget_get_first_child (entry)));
  g_assert_false (gtk_toggle_button_get_active (get_chip (shown.input, 0)));
  assert_answer (shown.input, "", NULL);
  assert_invalid (shown.input, "Please answer this question.");
  /* Picked but not typed into yet: the dialog keeps the error to itself. */
  g_assert_false (clarify_input_get_touched (shown.input));
  gtk_editable_set_text (GTK_EDITABLE (entry), "x");
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_assert_true (clarify_input_get_touched (shown.input));
  assert_invalid (shown.input, "Please answer this question.");

  gtk_editable_set_text (GTK_EDITABLE (entry), "  Latein ");
  assert_answer (shown.input, "", "Latein");
  assert_valid (shown.input);
  screenshot (&shown, "input-single-other-typed");

  /* Enter in the entry is for the dialog. */
  g_signal_connect (shown.input, "activate-default", G_CALLBACK (activate_default_cb), &activated);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (activated, ==, 1);

  /* Back to an option: the custom text no longer counts. */
  g_assert_true (clarify_input_pick (shown.input, 1));
  g_assert_false (gtk_widget_get_visible (entry));
  assert_answer (shown.input, "fr", NULL);

  hide (&shown);
}

static void
test_single_other_list (void)
{
  g_autoptr(ClarifyQuestion) question = new_city_question (CLARIFY_QUESTION_KIND_SINGLE);
  GtkSingleSelection *selection;
  GtkWidget *entry;
  Shown shown;

  clarify_question_set_allow_other (question, TRUE);
  shown = show (question);
  selection = GTK_SINGLE_SELECTION (clarify_option_list_get_model (CLARIFY_OPTION_LIST (get_view (shown.input))));
  entry = clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (shown.input));

  /* Other is the last row and stays there whatever the search. */
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 6);
  g_assert_cmpstr (row_label (shown.input, 5), ==, "Other…");
  search (shown.input, "xyz");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 1);
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Other…");
  g_assert_true (has_label (GTK_WIDGET (shown.input), "No options found"));

  gtk_single_selection_set_selected (selection, 0);
  g_assert_true (gtk_widget_get_visible (entry));
  /* What was searched for and not found is Other's answer to start from. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "xyz");
  assert_answer (shown.input, "", "xyz");
  gtk_editable_set_text (GTK_EDITABLE (entry), "Hannover");
  assert_answer (shown.input, "", "Hannover");
  assert_valid (shown.input);
  /* No match: the card holds Other's row alone, not the height the
   * matches had (nor a hidden scroll bar's). */
  {
    GtkWidget *rows = clarify_test_find_descendant (GTK_WIDGET (shown.input), GTK_TYPE_LIST_VIEW);
    int natural;

    gtk_test_widget_wait_for_draw (shown.window);
    gtk_widget_measure (rows, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (rows), NULL, &natural, NULL, NULL);
    g_assert_cmpint (gtk_widget_get_height (rows), ==, natural);
  }
  screenshot (&shown, "input-single-list-other-only");
  search (shown.input, "");
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 5);
  screenshot (&shown, "input-single-list-other");

  gtk_single_selection_set_selected (selection, 2);
  g_assert_false (gtk_widget_get_visible (entry));
  assert_answer (shown.input, "munich", NULL);

  hide (&shown);
}

static void
test_single_defaults (void)
{
  g_autoptr(ClarifyQuestion) chips = new_question (CLARIFY_QUESTION_KIND_SINGLE, "Size?");
  g_autoptr(ClarifyQuestion) list = new_city_question (CLARIFY_QUESTION_KIND_SINGLE);
  g_autoptr(ClarifyQuestion) other = new_question (CLARIFY_QUESTION_KIND_SINGLE, "Size?");
  Shown shown;

  add_options (chips, "Small", "s", NULL, "Medium", "m", NULL, "Large", "l", NULL, NULL);
  set_defaults (chips, "Medium", NULL);
  shown = show (chips);
  g_assert_true (gtk_toggle_button_get_active (get_chip (shown.input, 1)));
  assert_answer (shown.input, "m", NULL);
  assert_valid (shown.input);
  g_assert_false (clarify_input_get_touched (shown.input));
  hide (&shown);

  set_defaults (list, "hamburg", NULL);
  shown = show (list);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (clarify_option_list_get_model (CLARIFY_OPTION_LIST (get_view (shown.input))))), ==, 3);
  assert_answer (shown.input, "hamburg", NULL);
  hide (&shown);

  /* A default that is no option goes to Other. */
  add_options (other, "Small", "s", NULL, "Large", "l", NULL, NULL);
  clarify_question_set_allow_other (other, TRUE);
  set_defaults (other, "XXL", NULL);
  shown = show (other);
  g_assert_true (gtk_toggle_button_get_active (get_chip (shown.input, 2)));
  g_assert_true (gtk_widget_get_visible (clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (shown.input))));
  assert_answer (shown.input, "", "XXL");
  assert_valid (shown.input);
  hide (&shown);
}

/* Multi */

static void
test_multi_chips (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_MULTI, "Which toppings?");
  GtkWidget *check;
  Shown shown;

  add_options (question,
               "Cheese", "cheese", NULL,
               "Olives", "olives", "Black and green",
               "Basil", "basil", NULL,
               "Chili", "chili", NULL,
               NULL);
  shown = show (question);

  g_assert_true (CLARIFY_IS_CHOICE_CHIPS (get_view (shown.input)));
  g_assert_cmpuint (count_chips (shown.input), ==, 4);
  assert_invalid (shown.input, "Please answer this question.");

  /* Values come in the order they were picked, as the agents' own clients
   * (Phoenix, Ag3ntum: a JavaScript Set) send them. */
  click (get_chip (shown.input, 2));
  gtk_toggle_button_set_active (get_chip (shown.input, 0), TRUE);
  assert_answer (shown.input, "basil|cheese", NULL);
  assert_valid (shown.input);

  /* Active chips show a check mark. */
  check = clarify_test_find_descendant (GTK_WIDGET (get_chip (shown.input, 0)), GTK_TYPE_IMAGE);
  g_assert_nonnull (check);
  /* Drawn by Clarify: the theme has it as SVG only at its size. */
  g_assert_true (CLARIFY_IS_MARK (gtk_image_get_paintable (GTK_IMAGE (check))));
  g_assert_cmpint (clarify_mark_get_shape (CLARIFY_MARK (gtk_image_get_paintable (GTK_IMAGE (check)))), ==, CLARIFY_MARK_CHECK);
  g_assert_true (gtk_widget_get_visible (check));
  g_assert_false (gtk_widget_get_visible (clarify_test_find_descendant (GTK_WIDGET (get_chip (shown.input, 1)), GTK_TYPE_IMAGE)));

  /* pick() flips a chip, like a click. */
  g_assert_true (clarify_input_pick (shown.input, 3));
  assert_answer (shown.input, "basil|cheese|chili", NULL);
  g_assert_true (clarify_input_pick (shown.input, 2));
  assert_answer (shown.input, "cheese|chili", NULL);
  g_assert_true (clarify_input_pick (shown.input, 1));
  screenshot (&shown, "input-multi-chips-picked");

  gtk_toggle_button_set_active (get_chip (shown.input, 0), FALSE);
  gtk_toggle_button_set_active (get_chip (shown.input, 1), FALSE);
  gtk_toggle_button_set_active (get_chip (shown.input, 3), FALSE);
  assert_answer (shown.input, "", NULL);
  assert_invalid (shown.input, "Please answer this question.");

  hide (&shown);
}

static void
test_multi_list (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_MULTI, "Who is the target audience?");
  GtkWidget *view, *row, *entry;
  ClarifyValidation validation;
  Shown shown;

  add_options (question,
               "Developers", "developers", NULL,
               "Product Managers", "pm", NULL,
               "End Users", "end_users", "People who use the product",
               "Admins", "admins", NULL,
               "Support", "support", NULL,
               "Sales", "sales", NULL,
               NULL);
  clarify_question_set_allow_other (question, TRUE);
  clarify_validation_init (&validation);
  validation.has_max = TRUE;
  validation.max = 3;
  clarify_question_set_validation (question, &validation);
  set_defaults (question, "admins", NULL);
  shown = show (question);
  view = get_view (shown.input);
  entry = clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (shown.input));

  g_assert_true (CLARIFY_IS_OPTION_LIST (view));
  g_assert_true (GTK_IS_NO_SELECTION (clarify_option_list_get_model (CLARIFY_OPTION_LIST (view))));
  assert_answer (shown.input, "admins", NULL);
  g_assert_true (has_label (view, "1 selected"));

  row = find_check_row (view, "End Users");
  g_assert_nonnull (row);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (row), TRUE);
  gtk_widget_activate (find_check_row (view, "Developers"));
  assert_answer (shown.input, "admins|end_users|developers", NULL);
  g_assert_true (has_label (view, "3 selected"));
  assert_valid (shown.input);

  /* A search hides rows but not what they hold. */
  search (shown.input, "sal");
  g_assert_cmpuint (g_list_model_get_n_items (visible_rows (shown.input)), ==, 2);
  g_assert_cmpstr (row_label (shown.input, 0), ==, "Sales");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (find_check_row (view, "Sales")), TRUE);
  assert_answer (shown.input, "admins|end_users|developers|sales", NULL);
  assert_invalid (shown.input, "Please choose at most 3 options.");
  g_assert_true (has_label (view, "4 selected"));

  search (shown.input, "");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (find_check_row (view, "End Users"))));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (find_check_row (view, "Support"))));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (find_check_row (view, "Developers")), FALSE);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (find_check_row (view, "Sales")), FALSE);

  /* Other: its text is the custom text, next to the checked values. */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (find_check_row (view, "Other…")), TRUE);
  g_assert_true (gtk_widget_get_visible (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), "Investors");
  assert_answer (shown.input, "admins|end_users", "Investors");
  g_assert_true (has_label (view, "3 selected"));
  assert_valid (shown.input);
  screenshot (&shown, "input-multi-list-other");

  /* pick() flips the n-th visible row. */
  g_assert_true (clarify_input_pick (shown.input, 2));
  assert_answer (shown.input, "admins", "Investors");
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (find_check_row (view, "End Users"))));

  hide (&shown);
}

static void
test_multi_long_list (void)
{
  g_autoptr(ClarifyQuestion) question = new_machine_question (CLARIFY_QUESTION_KIND_MULTI);
  Shown shown = show (question);
  GtkWidget *view = get_view (shown.input);
  int full_height = settled_height (&shown);

  assert_list_at_max_height (shown.input);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (find_check_row (view, "Berlin small")), TRUE);
  g_assert_true (has_label (view, "1 selected"));

  /* Ticks survive the rows that a search takes away and brings back. */
  type_into_search (shown.input, question, "helsinki");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (find_check_row (view, "Helsinki xlarge")), TRUE);
  assert_answer (shown.input, "m1|m28", NULL);
  g_assert_true (has_label (view, "2 selected"));
  g_assert_cmpint (settled_height (&shown), ==, full_height);
  erase_search (shown.input, question);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (find_check_row (view, "Berlin small"))));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (find_check_row (view, "Bern small"))));
  g_assert_cmpint (settled_height (&shown), ==, full_height);
  screenshot (&shown, "input-multi-list-long");

  hide (&shown);
}

static void
test_multi_search_enter (void)
{
  g_autoptr(ClarifyQuestion) question = new_city_question (CLARIFY_QUESTION_KIND_MULTI);
  GtkWidget *entry;
  Shown shown = show (question);

  entry = clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (get_view (shown.input)));

  /* Enter ticks the best match and clears the search for the next one. */
  search (shown.input, "hamb");
  g_signal_emit_by_name (entry, "activate");
  search (shown.input, "koln");
  g_signal_emit_by_name (entry, "activate");
  assert_answer (shown.input, "hamburg|cologne", NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");

  hide (&shown);
}

/* Confirm */

static void
test_confirm (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_CONFIRM, "Delete all 15 drafts?");
  g_autoptr(ClarifyQuestion) preset = new_question (CLARIFY_QUESTION_KIND_CONFIRM, "Keep going?");
  GtkWidget *view;
  Shown shown = show (question);

  view = clarify_test_find_descendant (GTK_WIDGET (shown.input), CLARIFY_TYPE_CHOICE_CHIPS);
  g_assert_nonnull (view);
  g_assert_true (has_label (view, "Yes"));
  g_assert_true (has_label (view, "No"));
  assert_invalid (shown.input, "Please answer this question.");

  g_assert_true (clarify_input_pick (shown.input, 0));
  assert_answer (shown.input, "yes", NULL);
  assert_valid (shown.input);
  g_assert_true (clarify_input_pick (shown.input, 1));
  assert_answer (shown.input, "no", NULL);
  g_assert_false (clarify_input_pick (shown.input, 2));
  assert_answer (shown.input, "no", NULL);

  click (clarify_choice_chips_get_chip (CLARIFY_CHOICE_CHIPS (view), 0));
  assert_answer (shown.input, "yes", NULL);
  screenshot (&shown, "input-confirm-clicked");
  hide (&shown);

  set_defaults (preset, "no", NULL);
  shown = show (preset);
  assert_answer (shown.input, "no", NULL);
  assert_valid (shown.input);
  hide (&shown);
}

/* Number */

static ClarifyQuestion *
new_number_question (gboolean has_min,
                     double   min,
                     gboolean has_max,
                     double   max,
                     double   step)
{
  ClarifyQuestion *question = new_question (CLARIFY_QUESTION_KIND_NUMBER, "How many attendees?");
  ClarifyValidation validation;

  clarify_validation_init (&validation);
  validation.has_min = has_min;
  validation.min = min;
  validation.has_max = has_max;
  validation.max = max;
  validation.step = step;
  clarify_question_set_validation (question, &validation);

  return question;
}

static void
test_number_range (void)
{
  g_autoptr(ClarifyQuestion) question = new_number_question (TRUE, 1, TRUE, 10, 0);
  GtkSpinButton *spin;
  guint activated = 0;
  gboolean handled = FALSE;
  Shown shown = show (question);

  spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
  g_assert_true (has_label (GTK_WIDGET (shown.input), "Between 1 and 10"));
  g_assert_cmpuint (gtk_spin_button_get_digits (spin), ==, 0);
  g_assert_false (gtk_spin_button_get_numeric (spin));
  g_assert_false (clarify_input_pick (shown.input, 0));

  /* No default: nothing is answered for the user (Enter would send it);
   * the arrows start from 0 moved into the range. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "");
  assert_answer (shown.input, "", NULL);
  assert_invalid (shown.input, "Please answer this question.");
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 1);
  screenshot (&shown, "input-number-empty");
  /* Once stepped, the field shows where the arrows go, back at the start
   * too (it stayed empty there). */
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 0);
  assert_answer (shown.input, "2", NULL);
  gtk_editable_set_text (GTK_EDITABLE (spin), "");
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_BACKWARD, 0);
  assert_answer (shown.input, "1", NULL);

  gtk_spin_button_set_value (spin, 7);
  assert_answer (shown.input, "7", NULL);
  assert_valid (shown.input);
  g_assert_true (clarify_input_get_touched (shown.input));

  /* Typed but not yet committed counts, and is checked. */
  gtk_editable_set_text (GTK_EDITABLE (spin), "12");
  assert_answer (shown.input, "12", NULL);
  assert_invalid (shown.input, "The number must be at most 10.");
  /* The arrows go on from it, at the limit ("+" off, "−" gives 9). */
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 10);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "12");

  /* Enter leaves a wrong number as typed, with its error: committing it
   * would clamp it, and the answer would be a number nobody typed. */
  g_signal_connect (shown.input, "activate-default", G_CALLBACK (activate_default_cb), &activated);
  g_signal_emit_by_name (get_key_controller (GTK_WIDGET (spin)), "key-pressed", GDK_KEY_Return, 36, 0, &handled);
  g_assert_true (handled);
  g_assert_cmpuint (activated, ==, 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "12");
  assert_invalid (shown.input, "The number must be at most 10.");

  /* So does committing it (Tab, a click elsewhere): it was clamped to 10. */
  gtk_spin_button_update (spin);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "12");
  assert_invalid (shown.input, "The number must be at most 10.");
  gtk_editable_set_text (GTK_EDITABLE (spin), "abc");
  gtk_spin_button_update (spin);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "abc");
  assert_invalid (shown.input, "Please enter a number.");

  /* A right one is committed and sent. */
  gtk_editable_set_text (GTK_EDITABLE (spin), "10");
  gtk_spin_button_update (spin);
  assert_answer (shown.input, "10", NULL);
  assert_valid (shown.input);
  g_signal_emit_by_name (get_key_controller (GTK_WIDGET (spin)), "key-pressed", GDK_KEY_Return, 36, 0, &handled);
  g_assert_true (handled);
  g_assert_cmpuint (activated, ==, 1);

  gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 1);
  assert_answer (shown.input, "10", NULL);
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_BACKWARD, 1);
  assert_answer (shown.input, "9", NULL);

  gtk_editable_set_text (GTK_EDITABLE (spin), "");
  assert_invalid (shown.input, "Please answer this question.");
  gtk_spin_button_set_value (spin, 4);
  gtk_spin_button_update (spin);
  assert_answer (shown.input, "4", NULL);
  screenshot (&shown, "input-number-typed");

  hide (&shown);
}

static void
test_number_step (void)
{
  g_autoptr(ClarifyQuestion) half = new_number_question (TRUE, 0, TRUE, 5, 0.5);
  g_autoptr(ClarifyQuestion) at_least = new_number_question (TRUE, 1, FALSE, 0, 0);
  g_autoptr(ClarifyQuestion) at_most = new_number_question (FALSE, 0, TRUE, -2, 0.25);
  g_autoptr(ClarifyQuestion) free_number = new_number_question (FALSE, 0, FALSE, 0, 0);
  GtkSpinButton *spin;
  Shown shown;

  shown = show (half);
  spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
  g_assert_cmpuint (gtk_spin_button_get_digits (spin), ==, 1);
  assert_answer (shown.input, "", NULL);
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 0);
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 0);
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 0);
  assert_answer (shown.input, "1.5", NULL);
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 0);
  assert_answer (shown.input, "2", NULL);
  gtk_editable_set_text (GTK_EDITABLE (spin), "2.3");
  assert_invalid (shown.input, "The number must be a multiple of 0.5.");
  /* Committed, it stays off the grid with its error: it was snapped to 2.5. */
  gtk_spin_button_update (spin);
  assert_answer (shown.input, "2.3", NULL);
  assert_invalid (shown.input, "The number must be a multiple of 0.5.");
  hide (&shown);

  shown = show (at_least);
  g_assert_true (has_label (GTK_WIDGET (shown.input), "At least 1"));
  assert_answer (shown.input, "", NULL);
  hide (&shown);

  /* Without a minimum the step grid stays on 0. */
  shown = show (at_most);
  spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
  g_assert_true (has_label (GTK_WIDGET (shown.input), "At most -2"));
  g_assert_cmpuint (gtk_spin_button_get_digits (spin), ==, 2);
  assert_answer (shown.input, "", NULL);
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_BACKWARD, 0);
  assert_answer (shown.input, "-2.25", NULL);
  assert_valid (shown.input);
  hide (&shown);

  set_defaults (free_number, "42", NULL);
  shown = show (free_number);
  spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
  /* No limits, no hint. */
  g_assert_null (gtk_widget_get_next_sibling (GTK_WIDGET (spin)));
  assert_answer (shown.input, "42", NULL);
  assert_valid (shown.input);
  gtk_editable_set_text (GTK_EDITABLE (spin), "-");
  assert_invalid (shown.input, "Please enter a number.");
  /* Without limits, a big number is kept as typed (it was cut to 10^9) … */
  gtk_editable_set_text (GTK_EDITABLE (spin), "5000000000");
  gtk_spin_button_update (spin);
  assert_answer (shown.input, "5000000000", NULL);
  assert_valid (shown.input);
  screenshot (&shown, "input-number-free");
  /* … up to the limit every number has. */
  gtk_editable_set_text (GTK_EDITABLE (spin), "2e15");
  assert_invalid (shown.input, "The number must be at most 1000000000000000.");
  hide (&shown);
}

/* Valid numbers reach the agent as typed, and defaults as sent: GTK's
 * snapping and its rounding to the spin's digits changed them (1.15 in
 * steps of 0.01 without a minimum became 1.12; 0.7 without a step, 1). */
static void
test_number_exact (void)
{
  g_autoptr(ClarifyQuestion) cents = new_number_question (FALSE, 0, FALSE, 0, 0.01);
  g_autoptr(ClarifyQuestion) any = new_number_question (FALSE, 0, FALSE, 0, 0);
  GtkSpinButton *spin;
  Shown shown;

  shown = show (cents);
  spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
  assert_answer (shown.input, "", NULL);
  gtk_editable_set_text (GTK_EDITABLE (spin), "1.15");
  gtk_spin_button_update (spin);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "1.15");
  assert_answer (shown.input, "1.15", NULL);
  assert_valid (shown.input);
  /* The buttons step from there. */
  gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 0);
  assert_answer (shown.input, "1.16", NULL);
  hide (&shown);

  /* Too small for fixed decimals: shown and sent in full, not as 0. */
  {
    g_autoptr(ClarifyQuestion) tiny = new_number_question (TRUE, 1e-300, TRUE, 1, 0);

    set_defaults (tiny, "1e-300", NULL);
    shown = show (tiny);
    spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "1e-300");
    g_assert_true (has_label (GTK_WIDGET (shown.input), "Between 1e-300 and 1"));
    assert_answer (shown.input, "1e-300", NULL);
    assert_valid (shown.input);
    hide (&shown);
  }

  set_defaults (cents, "12.7", NULL);
  shown = show (cents);
  spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "12.7");
  assert_answer (shown.input, "12.7", NULL);
  hide (&shown);

  set_defaults (any, "0.7", NULL);
  shown = show (any);
  spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "0.7");
  assert_answer (shown.input, "0.7", NULL);
  gtk_editable_set_text (GTK_EDITABLE (spin), "0.1234567");
  gtk_spin_button_update (spin);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "0.1234567");
  assert_answer (shown.input, "0.1234567", NULL);
  hide (&shown);
}

/* Date */

static void
test_date (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_DATE, "When should we schedule it?");
  g_autoptr(GDateTime) day = g_date_time_new_local (2026, 7, 14, 0, 0, 0);
  ClarifyDateEntry *date_entry;
  GtkWidget *entry, *calendar;
  guint activated = 0;
  Shown shown = show (question);

  date_entry = clarify_date_input_get_date_entry (CLARIFY_DATE_INPUT (shown.input));
  entry = clarify_date_entry_get_entry (date_entry);
  calendar = clarify_date_entry_get_calendar (date_entry);
  g_assert_cmpstr (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (clarify_date_entry_get_button (date_entry))),
                   ==, "x-office-calendar-symbolic");
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_LABEL, "When should we schedule it?");
  g_assert_false (clarify_input_pick (shown.input, 0));
  assert_invalid (shown.input, "Please answer this question.");
  screenshot (&shown, "input-date-empty");

  gtk_editable_set_text (GTK_EDITABLE (entry), "2026-03-05");
  assert_answer (shown.input, "2026-03-05", NULL);
  assert_valid (shown.input);

  /* Half a date is no date yet. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "12");
  assert_invalid (shown.input, "Please enter a valid date.");
  gtk_editable_set_text (GTK_EDITABLE (entry), "2026-02-30");
  assert_invalid (shown.input, "Please enter a valid date.");
  gtk_editable_set_text (GTK_EDITABLE (entry), "tomorrow");
  assert_answer (shown.input, "tomorrow", NULL);
  assert_invalid (shown.input, "Please enter a valid date.");

  /* The locale's own format (here C: month/day/year) is understood too. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "12/24/2026");
  assert_answer (shown.input, "2026-12-24", NULL);
  assert_valid (shown.input);

  /* Enter shows the date in the display format and is for the dialog. */
  g_signal_connect (shown.input, "activate-default", G_CALLBACK (activate_default_cb), &activated);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (activated, ==, 1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "2026-12-24");

  /* A day picked in the calendar fills the entry. */
  gtk_calendar_select_day (GTK_CALENDAR (calendar), day);
  g_signal_emit_by_name (calendar, "day-selected");
  assert_answer (shown.input, "2026-07-14", NULL);
  assert_valid (shown.input);
  screenshot (&shown, "input-date-picked");

  hide (&shown);
}

static void
test_date_default (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_DATE, "Birthday?");
  Shown shown;

  set_defaults (question, "1990-01-31", NULL);
  shown = show (question);
  assert_answer (shown.input, "1990-01-31", NULL);
  assert_valid (shown.input);
  g_assert_false (clarify_input_get_touched (shown.input));
  hide (&shown);
}

static void
test_date_range (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_DATE_RANGE, "Which weeks are you away?");
  ClarifyDateRangeInput *range;
  GtkWidget *start, *end;
  guint activated = 0;
  Shown shown = show (question);

  range = CLARIFY_DATE_RANGE_INPUT (shown.input);
  start = clarify_date_entry_get_entry (clarify_date_range_input_get_start (range));
  end = clarify_date_entry_get_entry (clarify_date_range_input_get_end (range));
  g_assert_true (has_label (GTK_WIDGET (shown.input), "Start"));
  g_assert_true (has_label (GTK_WIDGET (shown.input), "End"));
  assert_answer (shown.input, "", NULL);
  assert_invalid (shown.input, "Please answer this question.");

  gtk_editable_set_text (GTK_EDITABLE (start), "2026-08-10");
  assert_answer (shown.input, "2026-08-10|", NULL);
  assert_invalid (shown.input, "Please enter a start and an end date.");

  gtk_editable_set_text (GTK_EDITABLE (end), "2026-08-01");
  assert_answer (shown.input, "2026-08-10|2026-08-01", NULL);
  assert_invalid (shown.input, "The start date must not be after the end date.");
  screenshot (&shown, "input-date-range-invalid");

  gtk_editable_set_text (GTK_EDITABLE (end), "2026-08-21");
  assert_answer (shown.input, "2026-08-10|2026-08-21", NULL);
  assert_valid (shown.input);

  /* One day is a range too. */
  gtk_editable_set_text (GTK_EDITABLE (end), "2026-08-10");
  assert_valid (shown.input);
  gtk_editable_set_text (GTK_EDITABLE (end), "2026-08-24");

  /* Enter in Start moves on to End; Enter in End is for the dialog. */
  g_signal_connect (shown.input, "activate-default", G_CALLBACK (activate_default_cb), &activated);
  gtk_widget_grab_focus (start);
  g_signal_emit_by_name (start, "activate");
  g_assert_cmpuint (activated, ==, 0);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (shown.window)), end));
  g_signal_emit_by_name (end, "activate");
  g_assert_cmpuint (activated, ==, 1);
  screenshot (&shown, "input-date-range-valid");

  hide (&shown);
}

/* The calendar is built when the button first opens it. It opens on the
 * month of the date typed, or for an empty end, on the start's; a day
 * picked in it fills the field and closes it. */
static void
test_date_range_calendar (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_DATE_RANGE, "Which weeks are you away?");
  ClarifyDateEntry *end_entry;
  GtkWidget *button, *calendar, *popover;
  g_autoptr(GDateTime) shown_day = NULL;
  g_autoptr(GDateTime) day = g_date_time_new_local (2026, 8, 21, 0, 0, 0);
  Shown shown = show (question);

  end_entry = clarify_date_range_input_get_end (CLARIFY_DATE_RANGE_INPUT (shown.input));
  button = clarify_date_entry_get_button (end_entry);
  g_assert_null (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_true (gtk_widget_get_sensitive (button));
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_HAS_POPUP));

  gtk_editable_set_text (GTK_EDITABLE (clarify_date_entry_get_entry (clarify_date_range_input_get_start (CLARIFY_DATE_RANGE_INPUT (shown.input)))),
                         "2026-08-10");
  /* A button's activation ends in a click after a moment. */
  g_assert_true (gtk_widget_activate (button));
  g_assert_true (clarify_test_wait_until (clarify_test_popover_is_open, button, 5000));
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  calendar = clarify_date_entry_get_calendar (end_entry);
  g_assert_true (gtk_widget_is_ancestor (calendar, popover));
  shown_day = gtk_calendar_get_date (GTK_CALENDAR (calendar));
  g_assert_cmpint (g_date_time_get_year (shown_day), ==, 2026);
  g_assert_cmpint (g_date_time_get_month (shown_day), ==, 8);
  g_assert_cmpint (g_date_time_get_day_of_month (shown_day), ==, 10);

  gtk_calendar_select_day (GTK_CALENDAR (calendar), day);
  g_signal_emit_by_name (calendar, "day-selected");
  assert_answer (shown.input, "2026-08-10|2026-08-21", NULL);
  assert_valid (shown.input);
  g_assert_false (gtk_widget_get_visible (popover));

  /* Opened again, the same calendar, on the date now in the field. */
  g_assert_true (gtk_widget_activate (button));
  g_assert_true (clarify_test_wait_until (clarify_test_popover_is_open, button, 5000));
  g_assert_true (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))) == popover);
  g_assert_true (clarify_date_entry_get_calendar (end_entry) == calendar);
  g_clear_pointer (&shown_day, g_date_time_unref);
  shown_day = gtk_calendar_get_date (GTK_CALENDAR (calendar));
  g_assert_cmpint (g_date_time_get_day_of_month (shown_day), ==, 21);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));

  hide (&shown);
}

/* A press on @target as the calendar's own gestures see it first. */
static void
press_in_calendar (GtkWidget *calendar,
                   GtkWidget *target)
{
  graphene_point_t point;

  g_assert_true (gtk_widget_compute_point (target, calendar,
                                           &GRAPHENE_POINT_INIT (gtk_widget_get_width (target) / 2.f,
                                                                 gtk_widget_get_height (target) / 2.f),
                                           &point));
  g_signal_emit_by_name (get_capture_controller (calendar, GTK_TYPE_GESTURE_CLICK), "pressed", 1, (double) point.x, (double) point.y);
}

/* The month's arrows only browse: from 31 January, next month is
 * February, where GTK 4.8 selects the 28th; that closed the calendar and
 * put 28 February in the field. A day pressed after browsing still picks. */
static void
test_date_calendar_browse (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_DATE, "When?");
  g_autoptr(GDateTime) shown_day = NULL;
  g_autoptr(GDateTime) day = g_date_time_new_local (2026, 2, 12, 0, 0, 0);
  ClarifyDateEntry *date_entry;
  GtkWidget *button, *calendar, *popover, *next_month = NULL, *child;
  guint n_buttons = 0;
  Shown shown;

  set_defaults (question, "2026-01-31", NULL);
  shown = show (question);
  date_entry = clarify_date_input_get_date_entry (CLARIFY_DATE_INPUT (shown.input));
  button = clarify_date_entry_get_button (date_entry);
  g_assert_true (gtk_widget_activate (button));
  g_assert_true (clarify_test_wait_until (clarify_test_popover_is_open, button, 5000));
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  calendar = clarify_date_entry_get_calendar (date_entry);
  /* Laid out, for the press to land on the arrow. */
  clarify_test_spin (200);

  /* GTK 4.8's header: previous month, next month, previous year, next year. */
  for (child = gtk_widget_get_first_child (calendar); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *inner;

      for (inner = gtk_widget_get_first_child (child); inner != NULL; inner = gtk_widget_get_next_sibling (inner))
        if (GTK_IS_BUTTON (inner) && ++n_buttons == 2)
          next_month = inner;
    }
  g_assert_nonnull (next_month);

  press_in_calendar (calendar, next_month);
  g_signal_emit_by_name (next_month, "clicked");
  shown_day = gtk_calendar_get_date (GTK_CALENDAR (calendar));
  g_assert_cmpint (g_date_time_get_month (shown_day), ==, 2);
  g_assert_true (gtk_widget_get_visible (popover));
  assert_answer (shown.input, "2026-01-31", NULL);

  press_in_calendar (calendar, calendar);
  gtk_calendar_select_day (GTK_CALENDAR (calendar), day);
  g_signal_emit_by_name (calendar, "day-selected");
  assert_answer (shown.input, "2026-02-12", NULL);
  g_assert_false (gtk_widget_get_visible (popover));

  hide (&shown);
}

static void
test_date_range_default (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_DATE_RANGE, "When?");
  Shown shown;

  set_defaults (question, "2026-01-05", "2026-01-09", NULL);
  shown = show (question);
  assert_answer (shown.input, "2026-01-05|2026-01-09", NULL);
  assert_valid (shown.input);
  hide (&shown);
}

/* Focus */

static void
test_grab_focus (void)
{
  g_autoptr(ClarifyQuestion) chips = new_question (CLARIFY_QUESTION_KIND_SINGLE, "Size?");
  g_autoptr(ClarifyQuestion) list = new_city_question (CLARIFY_QUESTION_KIND_SINGLE);
  g_autoptr(ClarifyQuestion) text = new_question (CLARIFY_QUESTION_KIND_TEXT, "Why?");
  GtkWidget *focus;
  Shown shown;

  add_options (chips, "Small", "s", NULL, "Medium", "m", NULL, NULL);
  set_defaults (chips, "m", NULL);
  shown = show (chips);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (shown.input)));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (get_chip (shown.input, 1))));
  hide (&shown);

  shown = show (list);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (shown.input)));
  focus = gtk_root_get_focus (GTK_ROOT (shown.window));
  g_assert_true (gtk_widget_is_ancestor (focus, clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (get_view (shown.input)))));
  hide (&shown);

  shown = show (text);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (shown.input)));
  focus = gtk_root_get_focus (GTK_ROOT (shown.window));
  g_assert_true (gtk_widget_is_ancestor (focus, clarify_text_input_get_field (CLARIFY_TEXT_INPUT (shown.input))));
  hide (&shown);
}

static void
test_tab_order (void)
{
  g_autoptr(ClarifyQuestion) chips = new_question (CLARIFY_QUESTION_KIND_SINGLE, "Size?");
  GtkWidget *entry;
  Shown shown;

  add_options (chips, "Small", "s", NULL, "Medium", "m", NULL, NULL);
  clarify_question_set_allow_other (chips, TRUE);
  shown = show (chips);
  entry = clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (shown.input));

  /* The chips are one stop for Tab, like a radio group: Tab leaves them
   * (for Other's entry once it shows), the arrows move between them. */
  gtk_widget_grab_focus (GTK_WIDGET (get_chip (shown.input, 0)));
  g_assert_true (gtk_widget_child_focus (shown.window, GTK_DIR_RIGHT));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (get_chip (shown.input, 1))));
  g_assert_false (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (get_chip (shown.input, 1))));
  click (get_chip (shown.input, 2));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (shown.window)), entry));
  /* Back from the entry: on the picked chip, Other. */
  g_assert_true (gtk_widget_child_focus (shown.window, GTK_DIR_TAB_BACKWARD));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (get_chip (shown.input, 2))));
  g_assert_true (gtk_widget_child_focus (shown.window, GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (shown.window)), entry));
  hide (&shown);
}

static void
assert_focus_in (GtkWidget *window,
                 GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  g_assert_true (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Shift+Tab goes back through a date field and its calendar button and
 * out, as Tab goes forward; it used to stay in the field. */
static void
test_date_tab_order (void)
{
  g_autoptr(ClarifyQuestion) question = new_question (CLARIFY_QUESTION_KIND_DATE_RANGE, "Which weeks are you away?");
  ClarifyDateRangeInput *range;
  ClarifyDateEntry *start, *end;
  Shown shown = show (question);

  range = CLARIFY_DATE_RANGE_INPUT (shown.input);
  start = clarify_date_range_input_get_start (range);
  end = clarify_date_range_input_get_end (range);

  gtk_widget_grab_focus (clarify_date_entry_get_entry (end));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_BACKWARD));
  assert_focus_in (shown.window, clarify_date_entry_get_button (start));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_BACKWARD));
  assert_focus_in (shown.window, clarify_date_entry_get_entry (start));
  /* Past the first control: out of the input, for the dialog to go on. */
  g_assert_false (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_BACKWARD));

  gtk_widget_grab_focus (clarify_date_entry_get_entry (start));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_FORWARD));
  assert_focus_in (shown.window, clarify_date_entry_get_button (start));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_FORWARD));
  assert_focus_in (shown.window, clarify_date_entry_get_entry (end));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_FORWARD));
  assert_focus_in (shown.window, clarify_date_entry_get_button (end));
  g_assert_false (gtk_widget_child_focus (GTK_WIDGET (shown.input), GTK_DIR_TAB_FORWARD));

  hide (&shown);
}

/* Every kind, for the eye: run once per language. */
static void
test_screenshots (gconstpointer data)
{
  const char *language = data;
  g_autoptr(ClarifyQuestion) text = new_question (CLARIFY_QUESTION_KIND_TEXT, "Was meinen Sie mit „DM“?");
  g_autoptr(ClarifyQuestion) chips = new_question (CLARIFY_QUESTION_KIND_SINGLE, "Welche Sprache?");
  g_autoptr(ClarifyQuestion) list = new_city_question (CLARIFY_QUESTION_KIND_SINGLE);
  g_autoptr(ClarifyQuestion) multi = new_question (CLARIFY_QUESTION_KIND_MULTI, "Who is the target audience?");
  g_autoptr(ClarifyQuestion) multi_chips = new_question (CLARIFY_QUESTION_KIND_MULTI, "Which toppings?");
  g_autoptr(ClarifyQuestion) long_chips = new_question (CLARIFY_QUESTION_KIND_SINGLE, "How should I restructure the document?");
  g_autoptr(ClarifyQuestion) confirm = new_question (CLARIFY_QUESTION_KIND_CONFIRM, "Delete all 15 drafts?");
  g_autoptr(ClarifyQuestion) number = new_number_question (TRUE, 1, TRUE, 500, 0);
  g_autoptr(ClarifyQuestion) decimal = new_number_question (TRUE, 0, FALSE, 0, 0.25);
  g_autoptr(ClarifyQuestion) date = new_question (CLARIFY_QUESTION_KIND_DATE, "When should we schedule it?");
  g_autoptr(ClarifyQuestion) range = new_question (CLARIFY_QUESTION_KIND_DATE_RANGE, "Which weeks are you away?");
  ClarifyValidation validation;
  gboolean german = g_str_equal (language, "de");
  Shown shown;

  clarify_test_set_language (language);

  clarify_validation_init (&validation);
  validation.max_length = 200;
  validation.min_length = 2;
  clarify_question_set_validation (text, &validation);
  clarify_question_set_placeholder (text, "z. B. Direktnachricht, Data Manager …");
  shown = show (text);
  g_assert_true (has_label (GTK_WIDGET (shown.input), german ? "Mindestens 2 Zeichen" : "At least 2 characters"));
  screenshot (&shown, "input-text");
  set_text_view (shown.input, "Direktnachricht – also eine private Nachricht im Chat, nicht die Währung.");
  screenshot (&shown, "input-text-filled");
  hide (&shown);

  add_options (chips,
               "Englisch", "en", NULL,
               "Französisch", "fr", "Mit Akzenten",
               "Spanisch", "es", NULL,
               NULL);
  clarify_question_set_allow_other (chips, TRUE);
  set_defaults (chips, "fr", NULL);
  shown = show (chips);
  screenshot (&shown, "input-single-chips");
  clarify_input_pick (shown.input, 3);
  gtk_editable_set_text (GTK_EDITABLE (clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (shown.input))), "Latein");
  screenshot (&shown, "input-single-other");
  hide (&shown);

  clarify_question_set_allow_other (list, TRUE);
  set_defaults (list, "cologne", NULL);
  shown = show (list);
  screenshot (&shown, "input-single-list");
  search (shown.input, "koln");
  screenshot (&shown, "input-single-list-search");
  hide (&shown);

  add_options (long_chips,
               "Keep the current layout and only fix the spacing between the sections", "keep", NULL,
               "Rewrite it", "rewrite", "Start again from the outline, keeping the examples that work",
               "Ask the team", "ask", NULL,
               NULL);
  shown = show (long_chips);
  screenshot (&shown, "input-single-chips-long");
  hide (&shown);

  add_options (multi_chips,
               "Cheese", "cheese", NULL,
               "Olives", "olives", NULL,
               "Basil", "basil", NULL,
               "Chili", "chili", NULL,
               NULL);
  set_defaults (multi_chips, "cheese", "basil", NULL);
  shown = show (multi_chips);
  screenshot (&shown, "input-multi-chips");
  hide (&shown);

  add_options (multi,
               "Developers", "developers", NULL,
               "Product Managers", "pm", NULL,
               "End Users", "end_users", "People who use the product every day",
               "Admins", "admins", NULL,
               "Support", "support", NULL,
               "Sales", "sales", NULL,
               NULL);
  clarify_question_set_allow_other (multi, TRUE);
  set_defaults (multi, "developers", "admins", NULL);
  shown = show (multi);
  g_assert_true (has_label (GTK_WIDGET (shown.input), german ? "2 ausgewählt" : "2 selected"));
  screenshot (&shown, "input-multi-list");
  hide (&shown);

  shown = show (confirm);
  screenshot (&shown, "input-confirm");
  clarify_input_pick (shown.input, 0);
  screenshot (&shown, "input-confirm-yes");
  hide (&shown);

  set_defaults (number, "25", NULL);
  shown = show (number);
  g_assert_true (has_label (GTK_WIDGET (shown.input), german ? "Zwischen 1 und 500" : "Between 1 and 500"));
  screenshot (&shown, "input-number");
  hide (&shown);

  shown = show (decimal);
  g_assert_true (has_label (GTK_WIDGET (shown.input), german ? "Mindestens 0" : "At least 0"));
  screenshot (&shown, "input-number-decimal");
  {
    GtkSpinButton *spin = clarify_number_input_get_spin_button (CLARIFY_NUMBER_INPUT (shown.input));

    /* The locale's separator, and the point everywhere (a comma is no
     * decimal separator in English); the wire always has a point. */
    gtk_editable_set_text (GTK_EDITABLE (spin), german ? "2,5" : "2.5");
    gtk_spin_button_update (spin);
    assert_answer (shown.input, "2.5", NULL);
    gtk_editable_set_text (GTK_EDITABLE (spin), "3.75");
    gtk_spin_button_update (spin);
    assert_answer (shown.input, "3.75", NULL);
    if (german)
      {
        g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "3,75");
        /* German thousands are a thousand, not 1 ("1.000" was read so). */
        gtk_editable_set_text (GTK_EDITABLE (spin), "1.000");
        assert_answer (shown.input, "1000", NULL);
        gtk_editable_set_text (GTK_EDITABLE (spin), "1.234,5");
        gtk_spin_button_update (spin);
        assert_answer (shown.input, "1234.5", NULL);
        assert_valid (shown.input);
      }
  }
  hide (&shown);

  set_defaults (date, "2026-03-05", NULL);
  shown = show (date);
  screenshot (&shown, "input-date");
  hide (&shown);

  set_defaults (range, "2026-08-10", "2026-08-21", NULL);
  shown = show (range);
  g_assert_true (has_label (GTK_WIDGET (shown.input), german ? "Beginn" : "Start"));
  g_assert_true (has_label (GTK_WIDGET (shown.input), german ? "Ende" : "End"));
  screenshot (&shown, "input-date-range");
  hide (&shown);

  clarify_test_set_language ("en");
}

/* A tooltip set on a widget not on screen yet is the one GTK would set,
 * description included, and leaves the widget as shown or hidden as it
 * was; on screen it is set all the same, without hiding the widget. */
static void
test_tooltip (void)
{
  g_autoptr(GtkWidget) built = g_object_ref_sink (gtk_label_new ("built"));
  GtkWidget *window = gtk_window_new ();
  GtkWidget *shown = gtk_label_new ("shown");
  guint built_visible_notifies = 0, shown_visible_notifies = 0;

  g_signal_connect_swapped (built, "notify::visible", G_CALLBACK (clarify_test_count_emission), &built_visible_notifies);
  clarify_tooltip_set_text (built, "From the agent");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (built), ==, "From the agent");
  g_assert_true (gtk_widget_get_has_tooltip (built));
  g_assert_true (gtk_widget_get_visible (built));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (built), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "From the agent");
  /* Hidden and shown: GTK did not ask the display. */
  g_assert_cmpuint (built_visible_notifies, ==, 2);

  clarify_tooltip_set_text (built, "From the agent");
  g_assert_cmpuint (built_visible_notifies, ==, 2);

  clarify_tooltip_set_text (built, "");
  g_assert_null (gtk_widget_get_tooltip_text (built));
  g_assert_false (gtk_widget_get_has_tooltip (built));
  g_assert_true (gtk_widget_get_visible (built));

  gtk_widget_set_visible (built, FALSE);
  clarify_tooltip_set_text (built, "Hidden");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (built), ==, "Hidden");
  g_assert_false (gtk_widget_get_visible (built));

  gtk_window_set_child (GTK_WINDOW (window), shown);
  clarify_test_present_and_wait (GTK_WINDOW (window));
  g_signal_connect_swapped (shown, "notify::visible", G_CALLBACK (clarify_test_count_emission), &shown_visible_notifies);
  clarify_tooltip_set_text (shown, "On screen");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (shown), ==, "On screen");
  clarify_tooltip_set_text (shown, NULL);
  g_assert_null (gtk_widget_get_tooltip_text (shown));
  g_assert_cmpuint (shown_visible_notifies, ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* In a window not shown yet, the focus and the default widget stay where
 * they are: hidden for a moment, GTK would move them at the first frame. */
static void
test_tooltip_focus_default (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *before = gtk_button_new_with_label ("Once");
  GtkWidget *focused = gtk_button_new_with_label ("Always");
  GtkWidget *send = gtk_button_new_with_label ("Send");
  GtkWidget *other = gtk_button_new_with_label ("Other");
  guint visible_notifies = 0;

  gtk_box_append (GTK_BOX (box), before);
  gtk_box_append (GTK_BOX (box), focused);
  gtk_box_append (GTK_BOX (box), send);
  gtk_box_append (GTK_BOX (box), other);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_focus (GTK_WINDOW (window), focused);
  gtk_window_set_default_widget (GTK_WINDOW (window), send);
  g_signal_connect_swapped (focused, "notify::visible", G_CALLBACK (clarify_test_count_emission), &visible_notifies);
  g_signal_connect_swapped (send, "notify::visible", G_CALLBACK (clarify_test_count_emission), &visible_notifies);
  g_signal_connect_swapped (box, "notify::visible", G_CALLBACK (clarify_test_count_emission), &visible_notifies);

  clarify_tooltip_set_text (focused, "Allows it from now on");
  clarify_tooltip_set_text (send, "Sends the answer");
  clarify_tooltip_set_text (box, "All of them");
  clarify_tooltip_set_text (other, "Not held");
  g_assert_cmpuint (visible_notifies, ==, 0);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (focused), ==, "Allows it from now on");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (send), ==, "Sends the answer");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (box), ==, "All of them");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (other), ==, "Not held");

  clarify_test_present_and_wait (GTK_WINDOW (window));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == focused);
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (window)) == send);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/inputs/factory", test_factory_kinds);
  g_test_add_func ("/inputs/accessible", test_accessible_label_and_context);
  g_test_add_func ("/inputs/notify-on-change", test_valid_notifies_only_on_change);
  g_test_add_func ("/inputs/text", test_text);
  g_test_add_func ("/inputs/text/grows", test_text_grows_then_scrolls);
  g_test_add_func ("/inputs/text/default-ctrl-enter", test_text_default_and_ctrl_enter);
  g_test_add_func ("/inputs/single/chips", test_single_chips);
  g_test_add_func ("/inputs/single/list", test_single_list_at_five);
  g_test_add_func ("/inputs/single/long-list", test_single_long_list);
  g_test_add_func ("/inputs/single/search-enter", test_single_search_enter);
  g_test_add_func ("/inputs/single/other-chips", test_single_other_chips);
  g_test_add_func ("/inputs/single/other-list", test_single_other_list);
  g_test_add_func ("/inputs/single/defaults", test_single_defaults);
  g_test_add_func ("/inputs/multi/chips", test_multi_chips);
  g_test_add_func ("/inputs/multi/list", test_multi_list);
  g_test_add_func ("/inputs/multi/long-list", test_multi_long_list);
  g_test_add_func ("/inputs/multi/search-enter", test_multi_search_enter);
  g_test_add_func ("/inputs/confirm", test_confirm);
  g_test_add_func ("/inputs/number/range", test_number_range);
  g_test_add_func ("/inputs/number/step", test_number_step);
  g_test_add_func ("/inputs/date", test_date);
  g_test_add_func ("/inputs/date/default", test_date_default);
  g_test_add_func ("/inputs/date-range", test_date_range);
  g_test_add_func ("/inputs/date-range/default", test_date_range_default);
  g_test_add_func ("/inputs/number/exact", test_number_exact);
  g_test_add_func ("/inputs/date-range/calendar", test_date_range_calendar);
  g_test_add_func ("/inputs/date/calendar-browse", test_date_calendar_browse);
  g_test_add_func ("/inputs/focus", test_grab_focus);
  g_test_add_func ("/inputs/tab-order", test_tab_order);
  g_test_add_func ("/inputs/tab-order/date", test_date_tab_order);
  g_test_add_func ("/inputs/tooltip", test_tooltip);
  g_test_add_func ("/inputs/tooltip/focus-default", test_tooltip_focus_default);
  g_test_add_data_func ("/inputs/screenshots/en", "en", test_screenshots);
  g_test_add_data_func ("/inputs/screenshots/de", "de", test_screenshots);

  return g_test_run ();
}
