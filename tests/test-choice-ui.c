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
#include "clarify-test-log.h"

/* Requests ---------------------------------------------------------------- */

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

static gboolean
send (Run             *run,
      guint            keyval,
      GdkModifierType  modifiers)
{
  return clarify_test_send_key (GTK_WIDGET (run->dialog), keyval, modifiers);
}

static GtkWidget *
view_of (Run *run)
{
  return clarify_choice_input_get_view (CLARIFY_CHOICE_INPUT (input_at (run, 0)));
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

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  add_language_test ("/choice/search/words", test_search_words);
  add_language_test ("/choice/search/folds", test_search_folds);

  return g_test_run ();
}
