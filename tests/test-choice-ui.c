/* test-choice-ui.c: choices in the request dialog, by keyboard and as a
 * screen reader sees them: the search, the chips, the long lists
 *
 * Keys go through clarify_test_send_key(): the bindings from the focused
 * widget up, as a key press runs them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-choice-chips.h"
#include "clarify-choice-input.h"
#include "clarify-option-list.h"
#include "clarify-search-words.h"
#include "clarify-test-dialog.h"
#include "clarify-validate.h"
#include "clarify-test-log.h"

/* Requests ---------------------------------------------------------------- */

static ClarifyRequest *
new_single_chips (void)
{
  ClarifyRequest *request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "license", CLARIFY_QUESTION_KIND_SINGLE,
                                     T ("License", "Lizenz"),
                                     T ("Which license should the new library use?",
                                        "Unter welcher Lizenz soll die neue Bibliothek stehen?"));

  add_option (q, T ("MIT (Recommended)", "MIT (empfohlen)"), "mit",
              T ("Short and permissive, like the rest of the repo", "Kurz und freizügig, wie der Rest des Repositorys"));
  add_option (q, "Apache 2.0", "apache", T ("Permissive, with a patent grant", "Freizügig, mit Patentklausel"));
  add_option (q, "GPL 3.0", "gpl", NULL);
  clarify_question_set_allow_other (q, TRUE);

  return request;
}

static ClarifyRequest *
new_multi_chips (void)
{
  ClarifyRequest *request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "features", CLARIFY_QUESTION_KIND_MULTI,
                                     T ("Features", "Funktionen"),
                                     T ("Which features should be included?",
                                        "Welche Funktionen sollen enthalten sein?"));

  add_option (q, T ("Loading state", "Ladezustand"), "loading",
              T ("Spinner while fetching", "Drehfeld beim Laden"));
  add_option (q, T ("Error handling", "Fehlerbehandlung"), "errors", NULL);
  add_option (q, T ("Accessibility", "Barrierefreiheit"), "a11y",
              T ("ARIA roles and focus", "ARIA-Rollen und Fokus"));
  add_option (q, T ("Dark mode", "Dunkelmodus"), "dark", NULL);

  return request;
}

static const char * const cities[] = {
  "Amsterdam", "Berlin", "Bern", "Genève", "Hamburg", "København", "Köln",
  "Łódź", "München", "Zürich", "Grüße aus Zürich", "Zug",
};

static ClarifyRequest *
new_long_list (gboolean multi)
{
  ClarifyRequest *request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "city",
                                     multi ? CLARIFY_QUESTION_KIND_MULTI : CLARIFY_QUESTION_KIND_SINGLE,
                                     T ("City", "Stadt"),
                                     T ("Where should the team meet?", "Wo soll sich das Team treffen?"));

  for (guint i = 0; i < G_N_ELEMENTS (cities); i++)
    {
      g_autofree char *value = g_strdup_printf ("c%u", i);

      add_option (q, cities[i], value, i % 3 == 0 ? T ("Office", "Büro") : NULL);
    }

  return request;
}

/* Helpers ------------------------------------------------------------------ */

static void
start (Run            *run,
       const char     *language,
       ClarifyRequest *(*build) (void),
       ClarifyRequest **request)
{
  set_language (language);
  *request = build ();
  run_start (run, *request);
}

static gboolean
send (Run             *run,
      guint            keyval,
      GdkModifierType  modifiers)
{
  return clarify_test_send_key (GTK_WIDGET (run->dialog), keyval, modifiers);
}

static GtkWidget *
get_focus (Run *run)
{
  return gtk_root_get_focus (GTK_ROOT (run->dialog));
}

static GtkWidget *
view_of (Run *run)
{
  return clarify_choice_input_get_view (CLARIFY_CHOICE_INPUT (input_at (run, 0)));
}

static GtkWidget *
chip_at (Run  *run,
         guint index)
{
  GtkWidget *chip = clarify_choice_chips_get_chip (CLARIFY_CHOICE_CHIPS (view_of (run)), index);

  g_assert_nonnull (chip);

  return chip;
}

static gboolean
chip_picked (Run  *run,
             guint index)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (chip_at (run, index)));
}

static void
assert_focus_on_chip (Run  *run,
                      guint index)
{
  g_assert_true (get_focus (run) == chip_at (run, index));
}

/* Labels of the rows the list shows now, Other as "(other)". */
static char *
shown_rows (Run *run)
{
  GListModel *rows = G_LIST_MODEL (clarify_option_list_get_model (CLARIFY_OPTION_LIST (view_of (run))));
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(ClarifyOption) option = g_list_model_get_item (rows, i);

      if (i > 0)
        g_string_append (text, "|");
      g_string_append (text, clarify_option_get_label (option));
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Types @text into the search one character at a time, as keys do. */
static void
type_search (Run        *run,
             const char *text)
{
  GtkEditable *entry = GTK_EDITABLE (clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (view_of (run))));

  gtk_editable_set_text (entry, "");
  for (const char *c = text; *c != '\0'; c = g_utf8_next_char (c))
    {
      int position = (int) strlen (gtk_editable_get_text (entry));

      gtk_editable_insert_text (entry, c, (int) (g_utf8_next_char (c) - c), &position);
    }
}

static void
assert_search (Run        *run,
               const char *query,
               const char *expected_rows)
{
  g_autofree char *rows = NULL;

  type_search (run, query);
  rows = shown_rows (run);
  g_assert_cmpstr (rows, ==, expected_rows);
}

/* The search ------------------------------------------------------------- */

static void
assert_words (const char *text,
              gboolean    alternates,
              const char *expected)
{
  g_auto(GStrv) words = clarify_search_words_new (text, alternates);
  g_autofree char *joined = g_strjoinv (" ", words);

  g_assert_cmpstr (joined, ==, expected);
}

static void
test_search_words (gconstpointer data)
{
  set_language (data);

  /* The same in both locales: no "ue" for "ü" in German. */
  assert_words ("Zürich", FALSE, "zurich");
  assert_words ("ZÜR", FALSE, "zur");
  assert_words ("Köln", TRUE, "koln koeln");
  assert_words ("Grüße aus Zürich", FALSE, "grusse aus zurich");
  assert_words ("København, Łódź & Genève", FALSE, "kobenhavn lodz geneve");
  assert_words ("ﬁle Ｗｉｄｅ 8 vCPU", FALSE, "file wide 8 vcpu");
  assert_words ("  ,;  ", FALSE, "");
  assert_words (NULL, FALSE, "");
}

static void
test_search_folds (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language (data);
  request = new_long_list (FALSE);
  run_start (&run, request);

  assert_search (&run, "zurich", "Zürich|Grüße aus Zürich");
  assert_search (&run, "ZÜR", "Zürich|Grüße aus Zürich");
  assert_search (&run, "koln", "Köln");
  assert_search (&run, "KÖLN", "Köln");
  assert_search (&run, "koeln", "Köln");
  assert_search (&run, "kobenhavn", "København");
  assert_search (&run, "lodz", "Łódź");
  assert_search (&run, "geneve", "Genève");
  assert_search (&run, "grusse zur", "Grüße aus Zürich");
  /* Descriptions count too, folded as well. */
  assert_search (&run, T ("office", "buro"), "Amsterdam|Genève|Köln|Zürich");

  /* Enter takes the best match, then submits. */
  type_search (&run, "koln");
  g_assert_true (send (&run, GDK_KEY_Return, 0));
  g_assert_false (run_is_destroyed (&run));
  g_assert_true (send (&run, GDK_KEY_Return, 0));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"city\",\"values\":[\"c6\"]}]}");
  run_clear (&run);
}

/* Chips ------------------------------------------------------------------- */

static void
test_chips_enter_submits (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  start (&run, data, new_single_chips, &request);

  /* The chips have the focus. Enter with nothing picked sends nothing. */
  assert_focus_on_chip (&run, 0);
  g_assert_true (send (&run, GDK_KEY_Return, 0));
  g_assert_false (run_is_destroyed (&run));
  g_assert_false (chip_picked (&run, 0));

  /* A digit picks, Enter submits what was picked. */
  g_assert_true (send (&run, GDK_KEY_2, 0));
  g_assert_true (chip_picked (&run, 1));
  assert_focus_on_chip (&run, 1);
  g_assert_true (send (&run, GDK_KEY_KP_Enter, 0));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"license\",\"values\":[\"apache\"]}]}");
  run_clear (&run);
}

static void
test_multi_chips_enter_submits (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  start (&run, data, new_multi_chips, &request);

  g_assert_true (send (&run, GDK_KEY_3, 0));
  g_assert_true (send (&run, GDK_KEY_1, 0));
  g_assert_true (send (&run, GDK_KEY_4, 0));
  g_assert_true (send (&run, GDK_KEY_4, 0));
  g_assert_true (chip_picked (&run, 0));
  g_assert_true (chip_picked (&run, 2));
  g_assert_false (chip_picked (&run, 3));

  /* Enter on a chip does not flip it: it is done. */
  g_assert_true (send (&run, GDK_KEY_Return, 0));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"features\",\"values\":[\"a11y\",\"loading\"]}]}");
  run_clear (&run);
}

static gboolean
chip_is_active (gpointer chip)
{
  return gtk_toggle_button_get_active (chip);
}

static void
test_chips_arrows (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *view;
  Run run = { 0 };

  start (&run, data, new_single_chips, &request);
  view = view_of (&run);
  gtk_window_set_focus_visible (GTK_WINDOW (run.dialog), TRUE);

  /* Arrows move the focus and pick nothing; round from the last chip
   * ("Other…") to the first. */
  assert_focus_on_chip (&run, 0);
  g_assert_true (send (&run, GDK_KEY_Right, 0));
  assert_focus_on_chip (&run, 1);
  g_assert_true (send (&run, GDK_KEY_Down, 0));
  assert_focus_on_chip (&run, 2);
  g_assert_true (send (&run, GDK_KEY_KP_Right, 0));
  assert_focus_on_chip (&run, 3);
  g_assert_true (send (&run, GDK_KEY_Right, 0));
  assert_focus_on_chip (&run, 0);
  g_assert_true (send (&run, GDK_KEY_Left, 0));
  assert_focus_on_chip (&run, 3);
  g_assert_true (send (&run, GDK_KEY_Up, 0));
  assert_focus_on_chip (&run, 2);
  for (guint i = 0; i < 4; i++)
    g_assert_false (chip_picked (&run, i));

  /* Space picks the focused chip (after GtkButton's pressed look). */
  g_assert_true (send (&run, GDK_KEY_space, 0));
  g_assert_true (clarify_test_wait_until (chip_is_active, chip_at (&run, 2), 5000));

  /* The chips are one stop for Tab: it leaves them for the buttons, and
   * Shift+Tab comes back to the picked chip. */
  g_assert_true (send (&run, GDK_KEY_Left, 0));
  assert_focus_on_chip (&run, 1);
  g_assert_true (send (&run, GDK_KEY_Tab, 0));
  g_assert_false (focus_is_inside (&run, view));
  g_assert_true (GTK_IS_BUTTON (get_focus (&run)));
  g_assert_true (send (&run, GDK_KEY_Tab, GDK_SHIFT_MASK));
  assert_focus_on_chip (&run, 2);
  g_assert_true (send (&run, GDK_KEY_Tab, GDK_SHIFT_MASK));
  g_assert_false (focus_is_inside (&run, view));

  /* Tab from before the chips comes in on the picked one too. */
  g_assert_true (send (&run, GDK_KEY_Tab, 0));
  assert_focus_on_chip (&run, 2);

  submit (&run);
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"license\",\"values\":[\"gpl\"]}]}");
  run_clear (&run);
}

/* The digit hint of each chip: shown, and its key-shortcuts property. */
static void
test_chips_show_digits (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  start (&run, data, new_single_chips, &request);

  for (guint i = 0; i < 4; i++)
    {
      GtkWidget *chip = chip_at (&run, i);
      g_autofree char *digit = g_strdup_printf ("%u", i + 1);
      GtkWidget *hint = clarify_test_find_label (chip, digit);

      g_assert_nonnull (hint);
      g_assert_true (gtk_widget_is_visible (hint));
      g_assert_true (gtk_widget_has_css_class (hint, "clarify-chip-key"));
      gtk_test_accessible_assert_property (chip, GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS, digit);
      /* Drawn for the eye only: the chip's property says it. */
      gtk_test_accessible_assert_state (hint, GTK_ACCESSIBLE_STATE_HIDDEN, TRUE);

      /* The last chip is Other…: picking it moves on to its entry. */
      g_assert_true (send (&run, GDK_KEY_1 + i, 0));
      g_assert_true (chip_picked (&run, i));
      if (i < 3)
        assert_focus_on_chip (&run, i);
    }

  run_clear (&run);
}

/* One of a kind has a round mark, any number a square one. */
static void
test_chips_look_apart (void)
{
  g_autoptr(ClarifyRequest) single = NULL;
  g_autoptr(ClarifyRequest) multi = NULL;
  GtkWidget *indicator;
  Run run = { 0 };

  start (&run, "en", new_single_chips, &single);
  indicator = gtk_widget_get_first_child (gtk_button_get_child (GTK_BUTTON (chip_at (&run, 0))));
  g_assert_true (gtk_widget_has_css_class (indicator, "clarify-chip-indicator"));
  g_assert_true (gtk_widget_has_css_class (indicator, "radio"));
  gtk_test_accessible_assert_role (chip_at (&run, 0), GTK_ACCESSIBLE_ROLE_RADIO);
  run_clear (&run);

  start (&run, "en", new_multi_chips, &multi);
  indicator = gtk_widget_get_first_child (gtk_button_get_child (GTK_BUTTON (chip_at (&run, 0))));
  g_assert_true (gtk_widget_has_css_class (indicator, "clarify-chip-indicator"));
  g_assert_true (gtk_widget_has_css_class (indicator, "check"));
  gtk_test_accessible_assert_role (chip_at (&run, 0), GTK_ACCESSIBLE_ROLE_CHECKBOX);
  run_clear (&run);
}

/* Long lists ----------------------------------------------------------------- */

/* The option of the list row that has the focus: set on the focused
 * widget (a checklist row's check button) or its child (a plain row's). */
static const char *
focused_row (Run *run)
{
  GtkWidget *focus = get_focus (run);
  ClarifyOption *option = g_object_get_data (G_OBJECT (focus), CLARIFY_CHOICE_VIEW_OPTION_KEY);

  if (option == NULL && gtk_widget_get_first_child (focus) != NULL)
    option = g_object_get_data (G_OBJECT (gtk_widget_get_first_child (focus)), CLARIFY_CHOICE_VIEW_OPTION_KEY);
  g_assert_nonnull (option);

  return clarify_option_get_label (option);
}

static void
test_list_one_tab_stop (gconstpointer data)
{
  gboolean multi = GPOINTER_TO_INT (data);
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *search, *list_view;
  Run run = { 0 };

  set_language ("en");
  request = new_long_list (multi);
  run_start (&run, request);
  search = clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (view_of (&run)));
  list_view = clarify_option_list_get_list_view (CLARIFY_OPTION_LIST (view_of (&run)));

  /* The search first; Tab goes into the list, on its first row. */
  g_assert_true (focus_is_inside (&run, search));
  g_assert_true (send (&run, GDK_KEY_Tab, 0));
  g_assert_true (focus_is_inside (&run, list_view));
  g_assert_cmpstr (focused_row (&run), ==, "Amsterdam");

  /* The arrows move within the list, Space picks. */
  g_assert_true (send (&run, GDK_KEY_Down, 0));
  g_assert_cmpstr (focused_row (&run), ==, "Berlin");
  g_assert_true (send (&run, GDK_KEY_Down, 0));
  g_assert_true (send (&run, GDK_KEY_Down, 0));
  g_assert_true (send (&run, GDK_KEY_Up, 0));
  g_assert_cmpstr (focused_row (&run), ==, "Bern");
  g_assert_true (send (&run, GDK_KEY_space, 0));

  /* Tab leaves the list for the buttons. */
  g_assert_true (send (&run, GDK_KEY_Tab, 0));
  g_assert_false (focus_is_inside (&run, view_of (&run)));
  g_assert_true (GTK_IS_BUTTON (get_focus (&run)));

  /* And back: Shift+Tab into the list, on the picked row, then to the
   * search. */
  g_assert_true (send (&run, GDK_KEY_Tab, GDK_SHIFT_MASK));
  g_assert_true (focus_is_inside (&run, list_view));
  g_assert_cmpstr (focused_row (&run), ==, "Bern");
  g_assert_true (send (&run, GDK_KEY_Tab, GDK_SHIFT_MASK));
  g_assert_true (focus_is_inside (&run, search));

  submit (&run);
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"city\",\"values\":[\"c2\"]}]}");
  run_clear (&run);
}

/* Screen readers -------------------------------------------------------------- */

static gboolean
is_hidden (GtkAccessible *accessible)
{
  g_autofree char *mismatch = NULL;

  if (!gtk_test_accessible_has_state (accessible, GTK_ACCESSIBLE_STATE_HIDDEN))
    return FALSE;
  mismatch = gtk_test_accessible_check_state (accessible, GTK_ACCESSIBLE_STATE_HIDDEN, TRUE);

  return mismatch == NULL;
}

/* What GTK 4.8 gives an AT-SPI client as a name: the label property or
 * relation, a label's text; a group goes without; anything else is read
 * out by its type name ("GtkFlowBox", "ClarifySingleInput"). Appends the
 * widgets below @widget that would be, unless hidden. */
static void
collect_type_named (GtkWidget *widget,
                    GPtrArray *found)
{
  GtkAccessible *accessible = GTK_ACCESSIBLE (widget);
  GtkAccessibleRole role = gtk_accessible_get_accessible_role (accessible);

  if (is_hidden (accessible))
    return;

  if (role != GTK_ACCESSIBLE_ROLE_GROUP && role != GTK_ACCESSIBLE_ROLE_NONE &&
      role != GTK_ACCESSIBLE_ROLE_PRESENTATION &&
      !gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL) &&
      !gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY) &&
      !(GTK_IS_LABEL (widget) && gtk_label_get_text (GTK_LABEL (widget))[0] != '\0'))
    g_ptr_array_add (found, g_strdup_printf ("%s in %s", G_OBJECT_TYPE_NAME (widget),
                                             G_OBJECT_TYPE_NAME (gtk_widget_get_parent (widget))));

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_type_named (child, found);
}

static void
assert_no_type_names (Run *run)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;

  /* The window's content; its title bar is libadwaita's own. */
  collect_type_named (gtk_window_get_child (GTK_WINDOW (run->dialog)), found);
  g_ptr_array_add (found, NULL);
  joined = g_strjoinv (", ", (char **) found->pdata);
  g_assert_cmpstr (joined, ==, "");
}

static void
test_no_type_names (gconstpointer data)
{
  ClarifyRequest *(*builds[]) (void) = { new_single_chips, new_multi_chips };

  for (guint i = 0; i < G_N_ELEMENTS (builds) + 2; i++)
    {
      g_autoptr(ClarifyRequest) request = NULL;
      Run run = { 0 };

      set_language (data);
      request = i < G_N_ELEMENTS (builds) ? builds[i] () : new_long_list (i > G_N_ELEMENTS (builds));
      run_start (&run, request);
      assert_no_type_names (&run);
      /* Picked, and with Other's entry open where there is one. */
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.pick", "u", 0));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.pick", "u", 3));
      assert_no_type_names (&run);
      run_clear (&run);
    }
}

/* The chips' and the rows' descriptions are their accessible descriptions;
 * chips are radio buttons or check boxes, checked when picked. */
static void
test_descriptions (gconstpointer data)
{
  g_autoptr(ClarifyRequest) single = NULL;
  g_autoptr(ClarifyRequest) multi = NULL;
  GtkWidget *row;
  Run run = { 0 };

  start (&run, data, new_single_chips, &single);
  gtk_test_accessible_assert_property (chip_at (&run, 0), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       T ("MIT (Recommended)", "MIT (empfohlen)"));
  gtk_test_accessible_assert_property (chip_at (&run, 0), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       T ("Short and permissive, like the rest of the repo",
                                          "Kurz und freizügig, wie der Rest des Repositorys"));
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (chip_at (&run, 2)),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  gtk_test_accessible_assert_role (chip_at (&run, 1), GTK_ACCESSIBLE_ROLE_RADIO);
  gtk_test_accessible_assert_state (chip_at (&run, 1), GTK_ACCESSIBLE_STATE_CHECKED, FALSE);
  g_assert_true (send (&run, GDK_KEY_2, 0));
  gtk_test_accessible_assert_state (chip_at (&run, 1), GTK_ACCESSIBLE_STATE_CHECKED, TRUE);
  gtk_test_accessible_assert_property (view_of (&run), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       T ("Which license should the new library use?",
                                          "Unter welcher Lizenz soll die neue Bibliothek stehen?"));
  run_clear (&run);

  start (&run, data, new_multi_chips, &multi);
  gtk_test_accessible_assert_role (chip_at (&run, 2), GTK_ACCESSIBLE_ROLE_CHECKBOX);
  gtk_test_accessible_assert_property (chip_at (&run, 2), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       T ("ARIA roles and focus", "ARIA-Rollen und Fokus"));
  g_assert_true (send (&run, GDK_KEY_3, 0));
  gtk_test_accessible_assert_state (chip_at (&run, 2), GTK_ACCESSIBLE_STATE_CHECKED, TRUE);
  run_clear (&run);

  /* A list row: the row is named and described, and in a checklist the
   * check button that takes the focus as well. */
  for (guint multiple = 0; multiple < 2; multiple++)
    {
      g_autoptr(ClarifyRequest) request = NULL;

      set_language (data);
      request = new_long_list (multiple);
      run_start (&run, request);
      g_assert_true (send (&run, GDK_KEY_Tab, 0));
      row = get_focus (&run);
      gtk_test_accessible_assert_property (row, GTK_ACCESSIBLE_PROPERTY_LABEL, "Amsterdam");
      gtk_test_accessible_assert_property (row, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, T ("Office", "Büro"));
      if (multiple)
        {
          gtk_test_accessible_assert_role (row, GTK_ACCESSIBLE_ROLE_CHECKBOX);
          row = gtk_widget_get_parent (row);
          gtk_test_accessible_assert_property (row, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, T ("Office", "Büro"));
        }
      gtk_test_accessible_assert_role (row, GTK_ACCESSIBLE_ROLE_LIST_ITEM);
      g_assert_true (send (&run, GDK_KEY_Down, 0));
      g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (get_focus (&run)),
                                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
      run_clear (&run);
    }
}

/* No label is a stop for Tab: selectable labels take the focus (and
 * select all their text when they get it). */
static void
assert_labels_take_no_focus (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    {
      g_assert_false (gtk_label_get_selectable (GTK_LABEL (widget)));
      g_assert_false (gtk_widget_get_focusable (widget));
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    assert_labels_take_no_focus (child);
}

static void
test_labels_take_no_focus (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  Run run = { 0 };

  set_language ("en");
  request = new_single_chips ();
  clarify_request_set_title (request, "New library");
  clarify_request_set_context (request, "The library is ready to publish.");
  run_start (&run, request);
  assert_labels_take_no_focus (GTK_WIDGET (run.dialog));

  /* Shift+Tab from the chips goes round to the buttons, past the texts. */
  g_assert_true (send (&run, GDK_KEY_Tab, GDK_SHIFT_MASK));
  g_assert_true (GTK_IS_BUTTON (get_focus (&run)));
  g_assert_false (focus_is_inside (&run, view_of (&run)));
  run_clear (&run);
}

/* Screenshots ------------------------------------------------------------------ */

/* Each before and after it is answered, with the focus ring shown as after
 * a key press: the focus is on a chip that is not the picked one. */
static void
test_screenshots (gconstpointer data)
{
  g_autoptr(ClarifyRequest) single = NULL;
  g_autoptr(ClarifyRequest) multi = NULL;
  Run run = { 0 };

  start (&run, data, new_single_chips, &single);
  gtk_window_set_focus_visible (GTK_WINDOW (run.dialog), TRUE);
  shot (&run, "choice-single-chips");
  g_assert_true (send (&run, GDK_KEY_2, 0));
  g_assert_true (send (&run, GDK_KEY_Right, 0));
  shot (&run, "choice-single-chips-answered");
  run_clear (&run);

  start (&run, data, new_multi_chips, &multi);
  gtk_window_set_focus_visible (GTK_WINDOW (run.dialog), TRUE);
  shot (&run, "choice-multi-chips");
  g_assert_true (send (&run, GDK_KEY_1, 0));
  g_assert_true (send (&run, GDK_KEY_3, 0));
  g_assert_true (send (&run, GDK_KEY_Right, 0));
  shot (&run, "choice-multi-chips-answered");
  run_clear (&run);

  for (guint multiple = 0; multiple < 2; multiple++)
    {
      g_autoptr(ClarifyRequest) request = NULL;
      const char *name = multiple ? "choice-checklist" : "choice-long-list";
      g_autofree char *answered = g_strconcat (name, "-answered", NULL);

      set_language (data);
      request = new_long_list (multiple);
      run_start (&run, request);
      gtk_window_set_focus_visible (GTK_WINDOW (run.dialog), TRUE);
      shot (&run, name);
      type_search (&run, "zur");
      g_assert_true (send (&run, GDK_KEY_Return, 0));
      if (multiple)
        {
          type_search (&run, "koln");
          g_assert_true (send (&run, GDK_KEY_Return, 0));
        }
      g_assert_true (send (&run, GDK_KEY_Tab, 0));
      shot (&run, answered);
      run_clear (&run);
    }
}

/* Enter on a row of a single choice picks it and answers (the lone
 * question's last step); the arrows only move the pick, and send nothing. */
static void
test_list_enter_on_row (gconstpointer data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  GtkWidget *list_view;
  Run run = { 0 };

  set_language (data);
  request = new_long_list (FALSE);
  run_start (&run, request);
  list_view = clarify_option_list_get_list_view (CLARIFY_OPTION_LIST (view_of (&run)));

  g_assert_true (send (&run, GDK_KEY_Tab, 0));
  g_assert_true (focus_is_inside (&run, list_view));
  g_assert_true (send (&run, GDK_KEY_Down, 0));
  g_assert_true (send (&run, GDK_KEY_Down, 0));
  g_assert_cmpstr (focused_row (&run), ==, "Bern");
  g_assert_false (run_is_destroyed (&run));
  g_assert_cmpuint (run.n_responses, ==, 0);

  g_assert_true (send (&run, GDK_KEY_Return, 0));
  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 5000));
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"city\",\"values\":[\"c2\"]}]}");
  run_clear (&run);
}

/* What a long list had in the dialog's first frame. */
typedef struct
{
  GListModel *rows;
  GtkWidget  *card;
  guint       n_at_first_frame;
  int         card_height_at_first_frame;
} FirstFrame;

static void
first_frame_cb (GdkFrameClock *clock,
                FirstFrame    *first)
{
  if (first->n_at_first_frame > 0)
    return;
  first->n_at_first_frame = g_list_model_get_n_items (first->rows);
  first->card_height_at_first_frame = gtk_widget_get_height (first->card);
}

static gboolean
has_first_frame (gpointer data)
{
  return ((FirstFrame *) data)->n_at_first_frame > 0;
}

/* Shows the dialog of @run and waits until its list @view is full. */
static void
watch_first_frame (Run        *run,
                   GtkWidget  *view,
                   FirstFrame *first)
{
  GdkFrameClock *clock;
  gulong paint_id;

  first->rows = G_LIST_MODEL (clarify_option_list_get_model (CLARIFY_OPTION_LIST (view)));
  first->card = clarify_test_find_descendant (view, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (first->card);

  gtk_window_present (GTK_WINDOW (run->dialog));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (run->dialog));
  paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (first_frame_cb), first);
  g_assert_true (clarify_test_wait_until (has_first_frame, first, 5000));
  g_assert_true (clarify_test_wait_list_filled (view, 5000));
  g_signal_handler_disconnect (clock, paint_id);
}

/* "Option 0", "Option 1"… valued "o0", "o1"…, the even ones and the odd
 * ones with their own description (or none). */
static void
add_numbered_options (ClarifyQuestion *q,
                      guint            n,
                      const char      *even_description,
                      const char      *odd_description)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = g_strdup_printf ("Option %u", i);
      g_autofree char *value = g_strdup_printf ("o%u", i);

      add_option (q, label, value, i % 2 == 0 ? even_description : odd_description);
    }
}

/* An agent's 10,000 options: the dialog shows the first 200 and says so,
 * in German too, so a search for a later one is not met with silence. */
static void
test_list_says_it_was_cut (gconstpointer data)
{
  const char *language = data;
  g_autoptr(ClarifyRequest) request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "pick", CLARIFY_QUESTION_KIND_SINGLE, "Pick", "Which one?");
  g_autoptr(GError) error = NULL;
  Run run = { 0 };

  set_language (language);
  add_numbered_options (q, 10000, NULL, NULL);
  g_assert_true (clarify_request_validate (request, &error));
  g_assert_no_error (error);

  run_start (&run, request);
  g_assert_nonnull (find_labelled (GTK_WIDGET (run.dialog), GTK_TYPE_LABEL,
                                   T ("Only the first 200 of 10000 choices are shown.",
                                      "Nur die ersten 200 von 10000 Auswahlmöglichkeiten werden angezeigt.")));
  shot (&run, "choice-list-cut");
  run_clear (&run);
}

/* A long list is on screen with the rows that fill its card, then gets the
 * others a few a frame: the pick made before (here the agent's default,
 * far down) is selected once its row is in, Other comes last. */
static void
test_list_fills_in (void)
{
  g_autoptr(ClarifyRequest) request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "pick", CLARIFY_QUESTION_KIND_SINGLE, "Pick", "Which one?");
  const char * const defaults[] = { "o150", NULL };
  GtkSingleSelection *selection;
  g_autoptr(ClarifyOption) last = NULL;
  FirstFrame first = { 0 };
  Run run = { 0 };

  set_language ("en");
  add_numbered_options (q, 200, "Described", NULL);
  clarify_question_set_default_values (q, defaults);
  clarify_question_set_allow_other (q, TRUE);

  run_create (&run, request);
  watch_first_frame (&run, view_of (&run), &first);

  /* The first frame had far fewer rows than all. */
  g_assert_cmpuint (first.n_at_first_frame, <, 50);

  selection = GTK_SINGLE_SELECTION (first.rows);
  g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, 201);
  last = g_list_model_get_item (first.rows, 200);
  g_assert_cmpstr (clarify_option_get_label (last), ==, "Other…");
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 150);

  submit (&run);
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"pick\",\"values\":[\"o150\"]}]}");
  run_clear (&run);
}

/* A search that lets far more rows through than it showed does not build
 * them all in one frame: they come in batches, as when the list opened,
 * and the pick among them is selected when its row is in. */
static void
test_list_search_widens_in_batches (void)
{
  g_autoptr(ClarifyRequest) request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "pick", CLARIFY_QUESTION_KIND_SINGLE, "Pick", "Which one?");
  const char * const defaults[] = { "o150", NULL };
  GtkSingleSelection *selection;
  GtkEditable *entry;
  FirstFrame first = { 0 };
  Run run = { 0 };

  set_language ("en");
  add_numbered_options (q, 200, "Described", NULL);
  clarify_question_set_default_values (q, defaults);

  run_create (&run, request);
  watch_first_frame (&run, view_of (&run), &first);
  selection = GTK_SINGLE_SELECTION (first.rows);
  entry = GTK_EDITABLE (clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (view_of (&run))));

  for (guint tab = 0; tab < 2; tab++)
    {
      type_search (&run, "option 150");
      g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, 1);
      g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 0);
      /* A frame or two pass, as between keys. */
      gtk_test_widget_wait_for_draw (GTK_WIDGET (run.dialog));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (run.dialog));

      /* Back to all 200: no more at once than the rows that fill the card,
       * as in the first frame. */
      gtk_editable_set_text (entry, "");
      g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, first.n_at_first_frame);
      g_assert_true (clarify_option_list_get_filling (CLARIFY_OPTION_LIST (view_of (&run))));
      g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, GTK_INVALID_LIST_POSITION);

      if (tab)
        {
          /* Tab before the pick's row is in: it comes in, with the focus. */
          gtk_widget_grab_focus (GTK_WIDGET (entry));
          g_assert_true (send (&run, GDK_KEY_Tab, 0));
          g_assert_cmpstr (focused_row (&run), ==, "Option 150");
          g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 150);
        }

      g_assert_true (clarify_test_wait_list_filled (view_of (&run), 5000));
      g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, 200);
      g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 150);
    }

  /* Narrowing keeps the rows it shows: nothing to fill in. */
  type_search (&run, "option 1");
  g_assert_false (clarify_option_list_get_filling (CLARIFY_OPTION_LIST (view_of (&run))));
  g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, 111);

  submit (&run);
  assert_response (&run, "{\"id\":\"r1\",\"outcome\":\"answered\",\"answers\":[{\"question_id\":\"pick\",\"values\":[\"o150\"]}]}");
  run_clear (&run);
}

/* Rows held back by a search fill the card by their own heights: here
 * the plain rows a search brings back, not the described ones the list
 * began with (6 fill the card, of the plain ones 9). */
static void
test_list_held_rows_fill_card (void)
{
  g_autoptr(ClarifyRequest) request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "pick", CLARIFY_QUESTION_KIND_SINGLE, "Pick", "Which one?");
  FirstFrame first = { 0 };
  Run run = { 0 };

  set_language ("en");
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *label = g_strdup_printf (i < 50 ? "Described %u" : "Plain %u", i);
      g_autofree char *value = g_strdup_printf ("o%u", i);

      add_option (q, label, value, i < 50 ? "With a description" : NULL);
    }

  run_create (&run, request);
  watch_first_frame (&run, view_of (&run), &first);
  g_assert_cmpuint (first.n_at_first_frame, ==, 6);

  type_search (&run, "plain 199");
  g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, 1);
  gtk_editable_delete_text (GTK_EDITABLE (clarify_option_list_get_search_entry (CLARIFY_OPTION_LIST (view_of (&run)))), 5, -1);
  g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, 9);

  g_assert_true (clarify_test_wait_list_filled (view_of (&run), 5000));
  g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, 150);
  run_clear (&run);
}

/* The first frame builds only the rows that cover the card at their least
 * height: the card must have its full height in that frame already, or it
 * would grow as the rest come in. For each kind of row. */
typedef struct
{
  gboolean multiple;
  gboolean described;
  guint    n_options;
  guint    n_first_rows;  /* what LIST_MAX_HEIGHT takes at the rows' least height */
} FirstRowsCase;

static const FirstRowsCase first_rows_cases[] = {
  { FALSE, FALSE, 100,  9 },  /* 9 × 32 px */
  { FALSE, TRUE,  100,  6 },  /* 6 × 46 px */
  { TRUE,  FALSE, 100, 11 },  /* 11 × 24 px */
  { TRUE,  TRUE,  100,  7 },  /* 7 × 38 px */
  /* Long by the same bound, where one line a row made 17 rows long. */
  { FALSE, FALSE,  10,  9 },
};

static void
test_list_first_frame_fills_card (gconstpointer data)
{
  const FirstRowsCase *kind = data;
  gboolean multiple = kind->multiple;
  const char *description = kind->described ? "Described in a line" : NULL;
  g_autoptr(ClarifyRequest) request = new_request ("r1", NULL, NULL);
  ClarifyQuestion *q = add_question (request, "pick",
                                     multiple ? CLARIFY_QUESTION_KIND_MULTI : CLARIFY_QUESTION_KIND_SINGLE,
                                     "Pick", "Which one?");
  FirstFrame first = { 0 };
  Run run = { 0 };

  set_language ("en");
  add_numbered_options (q, kind->n_options, description, description);

  run_create (&run, request);
  watch_first_frame (&run, view_of (&run), &first);

  /* A bound of one line each took 17, whatever the rows. */
  g_assert_cmpuint (first.n_at_first_frame, ==, kind->n_first_rows);
  g_assert_cmpuint (g_list_model_get_n_items (first.rows), ==, kind->n_options);
  /* Full height in the first frame: the bound is not above a real row's
   * height here. */
  g_assert_cmpint (first.card_height_at_first_frame, ==, gtk_widget_get_height (first.card));

  run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  add_language_test ("/choice/search/words", test_search_words);
  add_language_test ("/choice/search/folds", test_search_folds);
  add_language_test ("/choice/chips/enter-submits", test_chips_enter_submits);
  add_language_test ("/choice/chips/enter-submits-multi", test_multi_chips_enter_submits);
  add_language_test ("/choice/chips/arrows", test_chips_arrows);
  add_language_test ("/choice/chips/digits-shown", test_chips_show_digits);
  g_test_add_func ("/choice/chips/look-apart", test_chips_look_apart);
  g_test_add_data_func ("/choice/list/one-tab-stop/single", GINT_TO_POINTER (FALSE), test_list_one_tab_stop);
  g_test_add_data_func ("/choice/list/one-tab-stop/multi", GINT_TO_POINTER (TRUE), test_list_one_tab_stop);
  add_language_test ("/choice/list/enter-on-row", test_list_enter_on_row);
  g_test_add_func ("/choice/list/fills-in", test_list_fills_in);
  g_test_add_data_func ("/choice/list/says-it-was-cut/en", "en", test_list_says_it_was_cut);
  g_test_add_data_func ("/choice/list/says-it-was-cut/de", "de", test_list_says_it_was_cut);
  g_test_add_func ("/choice/list/search-widens-in-batches", test_list_search_widens_in_batches);
  g_test_add_func ("/choice/list/held-rows-fill-card", test_list_held_rows_fill_card);
  g_test_add_data_func ("/choice/list/first-frame-fills-card/single", &first_rows_cases[0], test_list_first_frame_fills_card);
  g_test_add_data_func ("/choice/list/first-frame-fills-card/single-described", &first_rows_cases[1], test_list_first_frame_fills_card);
  g_test_add_data_func ("/choice/list/first-frame-fills-card/multi", &first_rows_cases[2], test_list_first_frame_fills_card);
  g_test_add_data_func ("/choice/list/first-frame-fills-card/multi-described", &first_rows_cases[3], test_list_first_frame_fills_card);
  g_test_add_data_func ("/choice/list/first-frame-fills-card/ten", &first_rows_cases[4], test_list_first_frame_fills_card);
  add_language_test ("/choice/a11y/descriptions", test_descriptions);
  add_language_test ("/choice/a11y/no-type-names", test_no_type_names);
  g_test_add_func ("/choice/a11y/labels-take-no-focus", test_labels_take_no_focus);
  add_language_test ("/choice/screenshots", test_screenshots);

  return g_test_run ();
}
