/* test-history-ui.c: the history in the window, through its widgets
 *
 * Questions end through a real inbox; the view lists them newest first
 * with who asked, what was answered or how it ended, and when; the search
 * field filters; Clear asks first, and forgets only when confirmed. In
 * English and German, with screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "clarify-history-row.h"
#include "clarify-history-view.h"
#include "clarify-test-backend.h"
#include "clarify-test-history.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"

#define WAIT_MS 10000

typedef struct
{
  char           *dir;
  ClarifyInbox   *inbox;
  ClarifyBackend *backend;
  ClarifyHistory *history;
  GtkWindow      *window;
  ClarifyHistoryView *view;
} Fixture;

static const char * const databases[] = { "PostgreSQL", "postgresql", "SQLite", "sqlite", NULL };

static ClarifyRequest *
new_request (const char          *id,
             ClarifyQuestionKind  kind,
             const char          *text)
{
  return clarify_test_history_request (id, kind, text, kind == CLARIFY_QUESTION_KIND_SINGLE ? databases : NULL);
}

static void
answer (Fixture        *f,
        ClarifyRequest *request,
        ClarifyOutcome  outcome,
        const char     *value)
{
  clarify_test_history_answer (f->inbox, request, outcome, value, NULL);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *path = NULL;
  g_autoptr(ClarifyRequest) database = new_request ("db", CLARIFY_QUESTION_KIND_SINGLE, "Which database should I use?");
  g_autoptr(ClarifyRequest) extras = new_request ("ex", CLARIFY_QUESTION_KIND_TEXT,
                                                          "Anything else for <the> release? It goes out on Friday to every "
                                                          "customer in the EU region, unless you say otherwise now.");
  g_autoptr(ClarifyRequest) deploy = new_request ("de", CLARIFY_QUESTION_KIND_CONFIRM, "Deploy to production now?");
  GtkWidget *page;

  clarify_test_set_language (data);
  f->dir = g_dir_make_tmp ("clarify-history-ui-XXXXXX", NULL);
  path = g_build_filename (f->dir, "history.json", NULL);
  f->inbox = clarify_inbox_new ();
  f->backend = clarify_test_backend_new ("work");
  clarify_inbox_add_backend (f->inbox, f->backend);
  f->history = clarify_history_new (path);
  clarify_history_watch (f->history, f->inbox);

  clarify_request_set_caller (database, "opencode");
  g_assert_true (clarify_backend_add_request (f->backend, database));
  g_assert_true (clarify_backend_add_request (f->backend, extras));
  g_assert_true (clarify_backend_add_request (f->backend, deploy));
  answer (f, database, CLARIFY_OUTCOME_ANSWERED, "postgresql");
  answer (f, extras, CLARIFY_OUTCOME_SKIPPED, NULL);
  clarify_backend_withdraw_request (f->backend, "de", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);

  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 560, 520);
  page = adw_preferences_page_new ();
  f->view = CLARIFY_HISTORY_VIEW (clarify_history_view_new ());
  clarify_history_view_set_history (f->view, f->history);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (f->view));
  gtk_window_set_child (f->window, page);
  clarify_test_present_and_wait (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (f->window);
  g_clear_object (&f->history);
  g_clear_object (&f->backend);
  g_clear_object (&f->inbox);
  clarify_test_remove_tree (f->dir);
  g_free (f->dir);
  clarify_test_set_language ("en");
}

/* The rows as shown: "title | subtitle" each, the time cut off. */
static char *
describe_rows (Fixture *f)
{
  GtkWidget *list = clarify_test_find_widget (GTK_WIDGET (f->view), "list");
  GString *text = g_string_new (NULL);

  g_assert_true (GTK_IS_LIST_VIEW (list));
  /* The list view keeps its rows' widgets in the model's order. */
  for (GtkWidget *item = gtk_widget_get_first_child (list); item != NULL; item = gtk_widget_get_next_sibling (item))
    {
      GtkWidget *row = gtk_widget_get_first_child (item);
      g_autofree char *subtitle = NULL;
      char *last;

      if (!CLARIFY_IS_HISTORY_ROW (row) || clarify_history_row_get_entry (CLARIFY_HISTORY_ROW (row)) == NULL)
        continue;
      subtitle = g_strdup (clarify_history_row_get_subtitle (CLARIFY_HISTORY_ROW (row)));
      /* The row that takes the focus is named by its question. */
      gtk_test_accessible_assert_property (GTK_ACCESSIBLE (item), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                           clarify_history_row_get_title (CLARIFY_HISTORY_ROW (row)));
      gtk_test_accessible_assert_property (GTK_ACCESSIBLE (item), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle);
      last = g_strrstr (subtitle, " · ");
      g_assert_nonnull (last);
      *last = '\0';
      g_string_append_printf (text, "%s | %s\n", clarify_history_row_get_title (CLARIFY_HISTORY_ROW (row)), subtitle);
    }

  return g_string_free (text, FALSE);
}

/* @text is on screen in place of the list. */
static void
assert_placeholder (Fixture    *f,
                    const char *text)
{
  GtkWidget *label = clarify_test_find_label (GTK_WIDGET (f->view), text);

  g_assert_nonnull (label);
  g_assert_true (gtk_widget_get_mapped (label));
  g_assert_false (gtk_widget_get_mapped (clarify_test_find_widget (GTK_WIDGET (f->view), "list")));
}

static guint
count_rows (GtkWidget *widget)
{
  guint n = CLARIFY_IS_HISTORY_ROW (widget) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    n += count_rows (child);

  return n;
}

static GtkAdjustment *
get_list_adjustment (Fixture *f)
{
  return gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (clarify_test_find_widget (GTK_WIDGET (f->view), "list")));
}

static double
get_list_end (Fixture *f)
{
  GtkAdjustment *adjustment = get_list_adjustment (f);

  return gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
}

/* Scrolls the list to its end, which moves as rows come in and are
 * measured, until its last row is the oldest entry. */
static gboolean
scrolled_to_oldest (gpointer data)
{
  Fixture *f = data;
  g_autofree char *rows = describe_rows (f);

  if (g_str_has_suffix (rows, "Question 0 | work · Withdrawn by the agent\n"))
    return TRUE;
  gtk_adjustment_set_value (get_list_adjustment (f), get_list_end (f));

  return FALSE;
}

static gboolean
list_fits (gpointer data)
{
  GtkAdjustment *adjustment = get_list_adjustment (data);

  return gtk_adjustment_get_upper (adjustment) <= gtk_adjustment_get_page_size (adjustment);
}

static void
type_search (Fixture    *f,
             const char *text)
{
  GtkWidget *entry = clarify_test_find_descendant (GTK_WIDGET (f->view), GTK_TYPE_SEARCH_ENTRY);

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  /* GtkSearchEntry reports the change after a delay of its own; the test
   * does not wait for a timer, it says what the entry then says. */
  g_signal_emit_by_name (entry, "search-changed");
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

static gboolean
message_dialog_shown (gpointer data)
{
  AdwMessageDialog *dialog = find_message_dialog ();

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static void
test_list (Fixture       *f,
           gconstpointer  data)
{
  gboolean de = g_str_equal (data, "de");
  g_autofree char *rows = describe_rows (f);
  g_autofree char *name = g_strdup_printf ("history-%s", (const char *) data);
  g_autofree char *searched = NULL;
  g_autofree char *shot = NULL;

  g_assert_cmpstr (rows, ==,
                   de ? "Deploy to production now? | work · Vom Agenten zurückgezogen\n"
                        "Anything else for <the> release? It goes out on Friday to every customer in the EU region, unless you say otherwise now. | work · Übersprungen\n"
                        "Which database should I use? | OpenCode · Beantwortet: PostgreSQL\n"
                      : "Deploy to production now? | work · Withdrawn by the agent\n"
                        "Anything else for <the> release? It goes out on Friday to every customer in the EU region, unless you say otherwise now. | work · Skipped\n"
                        "Which database should I use? | OpenCode · Answered: PostgreSQL\n");
  g_assert_cmpstr (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (f->view)), ==, de ? "Verlauf" : "History");
  /* The list becomes as tall as its rows, the wrapped one too (it asks
   * again after the first layout): nothing to scroll. */
  g_assert_true (clarify_test_wait_until (list_fits, f, WAIT_MS));
  shot = clarify_test_save_screenshot (GTK_WIDGET (f->window), name);
  g_assert_nonnull (shot);

  /* The search folds case and accents, over question, asker and answer. */
  type_search (f, "postgres opencode");
  g_assert_cmpuint (clarify_history_view_get_n_shown (f->view), ==, 1);
  searched = describe_rows (f);
  g_assert_cmpstr (searched, ==, de ? "Which database should I use? | OpenCode · Beantwortet: PostgreSQL\n"
                                    : "Which database should I use? | OpenCode · Answered: PostgreSQL\n");
  type_search (f, "nothing like it");
  g_assert_cmpuint (clarify_history_view_get_n_shown (f->view), ==, 0);
  assert_placeholder (f, de ? "Nichts im Verlauf passt dazu" : "Nothing in the history matches");
  g_clear_pointer (&name, g_free);
  name = g_strdup_printf ("history-search-%s", (const char *) data);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (f->window), name));
  type_search (f, "");
  g_assert_cmpuint (clarify_history_view_get_n_shown (f->view), ==, 3);
}

static void
test_clear (Fixture       *f,
            gconstpointer  data)
{
  gboolean de = g_str_equal (data, "de");
  GtkWidget *clear = clarify_test_find_button (GTK_WIDGET (f->view), de ? "_Leeren …" : "_Clear…");
  g_autoptr(ClarifyHistory) again = NULL;
  g_autofree char *name = g_strdup_printf ("history-clear-%s", (const char *) data);
  AdwMessageDialog *dialog;

  g_assert_nonnull (clear);
  g_assert_true (gtk_widget_get_sensitive (clear));

  /* Asked, and cancelled: nothing goes. */
  g_signal_emit_by_name (clear, "clicked");
  g_assert_true (clarify_test_wait_until (message_dialog_shown, NULL, WAIT_MS));
  dialog = find_message_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, de ? "Den Verlauf leeren?" : "Clear the History?");
  g_free (clarify_test_save_screenshot (GTK_WIDGET (dialog), name));
  adw_message_dialog_response (dialog, "cancel");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->history)), ==, 3);

  /* Asked, and confirmed: the list and the file are empty. */
  g_signal_emit_by_name (clear, "clicked");
  g_assert_true (clarify_test_wait_until (message_dialog_shown, NULL, WAIT_MS));
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "clear");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->history)), ==, 0);
  g_assert_cmpuint (clarify_history_view_get_n_shown (f->view), ==, 0);
  g_assert_false (gtk_widget_get_sensitive (clear));
  assert_placeholder (f, de ? "Beendete Fragen erscheinen hier" : "Questions that ended show up here");
  again = clarify_history_new (clarify_history_get_path (f->history));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 0);
}

/* A full history builds no row widget for each entry; the newest show
 * first, and scrolling brings the oldest. */
static void
test_many (Fixture       *f,
           gconstpointer  data)
{
  GtkWidget *list = clarify_test_find_widget (GTK_WIDGET (f->view), "list");
  g_autofree char *rows = NULL;

  for (guint i = 0; i < CLARIFY_HISTORY_MAX; i++)
    {
      g_autofree char *id = g_strdup_printf ("q%u", i);
      /* One long enough to wrap, for the screenshot. */
      g_autofree char *text = g_strdup_printf (i == 498 ? "Question %u, a long one: should the release go out now, or wait for the "
                                                          "weekend, when fewer people use the service and the database "
                                                          "migration can run without anyone waiting on it?"
                                                        : "Question %u", i);
      g_autoptr(ClarifyRequest) request = new_request (id, CLARIFY_QUESTION_KIND_TEXT, text);

      g_assert_true (clarify_backend_add_request (f->backend, request));
      clarify_backend_withdraw_request (f->backend, id, CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
    }
  g_assert_cmpuint (clarify_history_view_get_n_shown (f->view), ==, CLARIFY_HISTORY_MAX);
  clarify_test_spin (100);

  /* The newest in view, at the top, as they came in. */
  g_assert_cmpfloat (gtk_adjustment_get_value (get_list_adjustment (f)), ==, 0);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (f->window), "history-many-top-en"));
  rows = describe_rows (f);
  g_assert_true (g_str_has_prefix (rows, "Question 499 | work · Withdrawn by the agent\n"));
  /* The view's first 25, not GTK's 200. */
  g_assert_cmpuint (count_rows (list), ==, 25);

  g_assert_true (clarify_test_wait_until (scrolled_to_oldest, f, WAIT_MS));
  /* The last rows came in with the last frame: the end moves as they are
   * measured. */
  for (guint i = 0; i < 5 && gtk_adjustment_get_value (get_list_adjustment (f)) < get_list_end (f) - 1; i++)
    {
      gtk_adjustment_set_value (get_list_adjustment (f), get_list_end (f));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (f->window));
    }
  g_assert_cmpfloat (gtk_adjustment_get_value (get_list_adjustment (f)), >=, get_list_end (f) - 1);
  g_clear_pointer (&rows, g_free);
  rows = describe_rows (f);
  g_assert_true (g_str_has_suffix (rows, "Question 0 | work · Withdrawn by the agent\n"));
  /* GtkListView 4.8 then keeps up to 200 rows around what is in view. */
  g_assert_cmpuint (count_rows (list), <, CLARIFY_HISTORY_MAX / 2);
  g_free (clarify_test_save_screenshot (GTK_WIDGET (f->window), "history-many-en"));

  /* Scrolled down to read, one more ends (and the oldest goes): the list
   * stays down there, where GTK keeps the rows in view. */
  {
    g_autoptr(ClarifyRequest) request = new_request ("newest", CLARIFY_QUESTION_KIND_TEXT, "Newest");

    g_assert_true (clarify_backend_add_request (f->backend, request));
    clarify_backend_withdraw_request (f->backend, "newest", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
    gtk_test_widget_wait_for_draw (GTK_WIDGET (f->window));
    g_assert_cmpfloat (gtk_adjustment_get_value (get_list_adjustment (f)), >, get_list_end (f) / 2);
  }

  /* The search goes through every entry, not only those with rows. */
  type_search (f, "question 1");
  g_assert_cmpuint (clarify_history_view_get_n_shown (f->view), ==, 111);
  clarify_test_spin (100);
  g_clear_pointer (&rows, g_free);
  rows = describe_rows (f);
  g_assert_true (g_str_has_prefix (rows, "Question 199 | work · Withdrawn by the agent\n"));
  /* From the top again, with the first 25. */
  g_assert_cmpfloat (gtk_adjustment_get_value (get_list_adjustment (f)), ==, 0);
  g_assert_cmpuint (count_rows (list), ==, 25);
}

/* What `clarify ask` asked is "A program on this computer" in the history
 * too, as in its dialog and the list, not the built-in connection's
 * name. */
static void
test_local_asker (Fixture       *f,
                  gconstpointer  data)
{
  gboolean de = g_str_equal (data, "de");
  g_autoptr(ClarifyBackend) local = clarify_test_backend_new ("D-Bus");
  g_autoptr(ClarifyRequest) request = new_request ("lo", CLARIFY_QUESTION_KIND_TEXT, "Which branch?");
  g_autofree char *rows = NULL;

  clarify_inbox_add_backend (f->inbox, local);
  g_assert_true (clarify_backend_add_request (local, request));
  answer (f, request, CLARIFY_OUTCOME_ANSWERED, "main");
  clarify_inbox_remove_backend (f->inbox, local);

  rows = describe_rows (f);
  g_assert_true (g_str_has_prefix (rows, de ? "Which branch? | Ein Programm auf diesem Computer · Beantwortet: main\n"
                                            : "Which branch? | A program on this computer · Answered: main\n"));
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  for (guint i = 0; i < 2; i++)
    {
      const char *language = i == 0 ? "en" : "de";
      g_autofree char *list = g_strdup_printf ("/history-ui/list/%s", language);
      g_autofree char *clear = g_strdup_printf ("/history-ui/clear/%s", language);

      g_test_add (list, Fixture, language, fixture_set_up, test_list, fixture_tear_down);
      g_test_add (clear, Fixture, language, fixture_set_up, test_clear, fixture_tear_down);
      g_test_add (i == 0 ? "/history-ui/local-asker/en" : "/history-ui/local-asker/de", Fixture, language,
                  fixture_set_up, test_local_asker, fixture_tear_down);
    }
  g_test_add ("/history-ui/many", Fixture, "en", fixture_set_up, test_many, fixture_tear_down);

  return g_test_run ();
}
