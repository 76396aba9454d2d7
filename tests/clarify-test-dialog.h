/* clarify-test-dialog.h: a ClarifyRequestDialog in a real window, for the tests
 * that drive one through its widgets (test-dialog.c, test-permission-ui.c)
 *
 * Header-only (static inline): tests/meson.build links no extra test sources.
 * A test shows a request with run_start(), answers it through the widgets
 * and compares the response with assert_response(); T() gives agent text
 * in the language set_language() chose.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gi18n.h>

#include "clarify-json.h"
#include "clarify-request-dialog-private.h"
#include "clarify-request-dialog.h"
#include "clarify-test-gtk-utils.h"

/* Our own strings, in whatever language the catalog currently gives. */
#define OUR(s) g_dgettext (GETTEXT_PACKAGE, s)

typedef struct
{
  ClarifyRequestDialog *dialog;
  ClarifyResponse      *response;
  guint                 n_responses;
} Run;

/* Agent text in the test's language, as a localized agent would send it. */
static gboolean german;

static inline const char *
T (const char *en,
   const char *de)
{
  return german ? de : en;
}

static inline void
response_cb (ClarifyRequestDialog *dialog,
             ClarifyResponse      *response,
             Run                  *run)
{
  g_assert_true (CLARIFY_IS_RESPONSE (response));
  run->n_responses++;
  g_set_object (&run->response, response);
}

static inline void
run_create (Run            *run,
            ClarifyRequest *request)
{
  run->dialog = g_object_ref (clarify_request_dialog_new (NULL, request));
  g_assert_true (clarify_request_dialog_get_request (run->dialog) == request);
  /* Tests type at once; /permission/key-guard sets the guard itself. */
  clarify_request_dialog_set_key_guard_ms (run->dialog, 0);
  g_signal_connect (run->dialog, "response", G_CALLBACK (response_cb), run);
}

static inline void
run_start (Run            *run,
           ClarifyRequest *request)
{
  run_create (run, request);
  clarify_test_present_and_wait (GTK_WINDOW (run->dialog));
}

/* gtk_window_destroy() drops the window from the toplevels; our reference
 * keeps the object until run_clear(). */
static inline gboolean
run_is_destroyed (gpointer data)
{
  Run *run = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (window == (GObject *) run->dialog)
        return FALSE;
    }

  return TRUE;
}

static inline void
run_clear (Run *run)
{
  if (!run_is_destroyed (run))
    gtk_window_destroy (GTK_WINDOW (run->dialog));
  g_signal_handlers_disconnect_by_data (run->dialog, run);
  /* Nothing of the dialog may outlive it: timers, handlers, children. */
  g_assert_finalize_object (run->dialog);
  run->dialog = NULL;
  g_clear_object (&run->response);
}

/* The dialog grows when an error or an entry appears: let that resize land
 * (it goes through the display server) before looking. */
static inline void
settle (Run *run)
{
  GtkWidget *window = GTK_WIDGET (run->dialog);
  int height = -1;

  for (guint i = 0; i < 20 && height != gtk_widget_get_height (window); i++)
    {
      height = gtk_widget_get_height (window);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      gdk_display_sync (gtk_widget_get_display (window));
      gtk_test_widget_wait_for_draw (window);
    }
}

static inline void
shot (Run        *run,
      const char *name)
{
  g_autofree char *full = g_strdup_printf ("dialog-%s-%s", name, german ? "de" : "en");
  g_autofree char *path = NULL;

  settle (run);
  path = clarify_test_save_screenshot (GTK_WIDGET (run->dialog), full);

  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

static inline gboolean
content_fits (gpointer data)
{
  Run *run = data;
  GtkWidget *scroller = clarify_test_find_widget (GTK_WIDGET (run->dialog), "scroller");
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

  return gtk_adjustment_get_upper (adjustment) <= gtk_adjustment_get_page_size (adjustment);
}

/* The window grows to show all of its content, margins included (the resize
 * goes through the display server). */
static inline void
assert_fits (Run *run)
{
  g_assert_true (clarify_test_wait_until (content_fits, run, 5000));
}

/* Compares through the JSON form, so every field counts. @expected_json is
 * parsed and written again, so its spacing does not matter. */
static inline void
assert_response (Run        *run,
                 const char *expected_json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyResponse) expected = NULL;
  g_autoptr(JsonNode) expected_node = NULL;
  g_autoptr(JsonNode) actual_node = NULL;
  g_autofree char *expected_text = NULL;
  g_autofree char *actual_text = NULL;

  g_assert_true (run_is_destroyed (run));
  g_assert_cmpuint (run->n_responses, ==, 1);
  g_assert_nonnull (run->response);

  expected = clarify_response_new_from_data (expected_json, -1, &error);
  g_assert_no_error (error);
  expected_node = clarify_response_to_json (expected);
  actual_node = clarify_response_to_json (run->response);
  expected_text = clarify_json_to_string (expected_node);
  actual_text = clarify_json_to_string (actual_node);
  g_assert_cmpstr (actual_text, ==, expected_text);
}

static inline ClarifyRequest *
new_request (const char *id,
             const char *title,
             const char *context)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autofree char *project = g_build_filename (g_get_home_dir (), "src", "app", NULL);

  clarify_request_set_connection (request, "OpenCode", "opencode");
  clarify_request_set_project (request, project);
  clarify_request_set_session (request, "ses_01JH00000000000000000000S1");
  clarify_request_set_title (request, title);
  clarify_request_set_context (request, context);

  return request;
}

static inline ClarifyQuestion *
add_question (ClarifyRequest      *request,
              const char          *id,
              ClarifyQuestionKind  kind,
              const char          *header,
              const char          *text)
{
  g_autoptr(ClarifyQuestion) question = clarify_question_new (id, kind, text);

  clarify_question_set_header (question, header);
  clarify_request_add_question (request, question);

  return question;
}

/* Returns the option (owned by @question), for more settings. */
static inline ClarifyOption *
add_option (ClarifyQuestion *question,
            const char      *label,
            const char      *value,
            const char      *description)
{
  g_autoptr(ClarifyOption) option = clarify_option_new (label, value, description);

  clarify_question_add_option (question, option);

  return option;
}

static inline GtkWidget *
find_by_id (Run        *run,
            const char *id)
{
  GtkWidget *widget = clarify_test_find_widget (GTK_WIDGET (run->dialog), id);

  g_assert_nonnull (widget);

  return widget;
}

/* The first visible @type below @root that shows @text. */
static inline GtkWidget *
find_labelled (GtkWidget  *root,
               GType       type,
               const char *text)
{
  if (!gtk_widget_get_visible (root))
    return NULL;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) && clarify_test_find_label (root, text) != NULL)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_labelled (child, type, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static inline ClarifyInput *
input_at (Run  *run,
          guint position)
{
  ClarifyInput *input = clarify_request_dialog_get_input (run->dialog, position);

  g_assert_true (CLARIFY_IS_INPUT (input));

  return input;
}

static inline void
press (GtkWidget *button)
{
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static inline void
press_id (Run        *run,
          const char *id)
{
  press (find_by_id (run, id));
}

static inline gboolean
focus_is_inside (Run       *run,
                 GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (run->dialog));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static inline void
submit (Run *run)
{
  g_assert_true (clarify_request_dialog_is_submit_sensitive (run->dialog));
  press_id (run, "submit_button");
  g_assert_true (run_is_destroyed (run));
}

static inline void
set_language (const char *language)
{
  german = g_str_equal (language, "de");
  clarify_test_set_language (language);
}

static inline void
add_language_test (const char    *path,
                   GTestDataFunc  func)
{
  static const char *languages[] = { "en", "de" };

  for (guint j = 0; j < G_N_ELEMENTS (languages); j++)
    {
      g_autofree char *full = g_strdup_printf ("%s/%s", path, languages[j]);

      g_test_add_data_func (full, languages[j], func);
    }
}
