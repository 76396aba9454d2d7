/* test-hostile-ui.c: hostile agent text in every text field of a request is
 * shown literally: no markup parsed, bidi controls and zero-width characters
 * written out, duplicate labels numbered
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-test-dialog.h"
#include "clarify-test-log.h"

/* Valid markup, broken markup, an RTL override and a zero-width space. */
#define HOSTILE      "<b>x</b> <span size=\\\"50000\\\">big</span> a & b < \\u202Eevil\\u202C z\\u200Bw"
#define HOSTILE_SHOWN "<b>x</b> <span size=\"50000\">big</span> a & b < ⟨U+202E⟩evil⟨U+202C⟩ z⟨U+200B⟩w"

/* The same for a header, which is capped at 40 characters. */
#define SHORT       "<b>h</b> & <\\u202Ex\\u200B"
#define SHORT_SHOWN "<b>h</b> & <⟨U+202E⟩x⟨U+200B⟩"

static ClarifyRequest *
hostile_request (const char *questions)
{
  g_autofree char *data = g_strdup_printf ("{\"id\":\"h1\",\"title\":\"title " HOSTILE "\","
                                           "\"context\":\"context " HOSTILE "\",\"questions\":[%s]}",
                                           questions);
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request = clarify_request_new_from_data (data, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (request);

  return request;
}

/* A GtkLabel shows exactly @text, not as markup. */
static void
assert_literal (Run        *run,
                const char *text)
{
  GtkWidget *label = clarify_test_find_label (GTK_WIDGET (run->dialog), text);

  g_test_message ("label %s", text);
  g_assert_nonnull (label);
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (label)));
}

static void
assert_no_markup_warning (void)
{
  /* GTK warns "Failed to set text … from markup" when it parses some. */
  g_assert_false (clarify_test_log_seen ("*markup*"));
}

static void
test_choice (void)
{
  g_autoptr(ClarifyRequest) request = hostile_request (
    "{\"id\":\"q1\",\"kind\":\"single\",\"header\":\"" SHORT "\",\"text\":\"question " HOSTILE "\","
    "\"options\":[{\"label\":\"label " HOSTILE "\",\"value\":\"first\",\"description\":\"description " HOSTILE "\"},"
    "{\"label\":\"label " HOSTILE "\",\"value\":\"second\"}]}");
  Run run = { 0 };

  run_start (&run, request);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (run.dialog)), ==, "title " HOSTILE_SHOWN);
  assert_literal (&run, "title " HOSTILE_SHOWN);
  assert_literal (&run, "context " HOSTILE_SHOWN);
  assert_literal (&run, SHORT_SHOWN);
  assert_literal (&run, "question " HOSTILE_SHOWN);
  assert_literal (&run, "label " HOSTILE_SHOWN);
  assert_literal (&run, "description " HOSTILE_SHOWN);
  /* The second option reads the same: it is numbered. */
  assert_literal (&run, "label " HOSTILE_SHOWN " (2)");
  g_assert_null (clarify_test_find_label (GTK_WIDGET (run.dialog), "label " HOSTILE_SHOWN " (3)"));
  shot (&run, "hostile-choice");
  assert_no_markup_warning ();

  run_clear (&run);
}

static void
test_text (void)
{
  g_autoptr(ClarifyRequest) request = hostile_request (
    "{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"question " HOSTILE "\",\"placeholder\":\"placeholder " HOSTILE "\"}");
  Run run = { 0 };

  run_start (&run, request);
  assert_literal (&run, "question " HOSTILE_SHOWN);
  assert_literal (&run, "placeholder " HOSTILE_SHOWN);
  shot (&run, "hostile-text");
  assert_no_markup_warning ();

  run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);
  /* A GTK warning (such as markup it could not parse) fails the test. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  set_language ("en");

  g_test_add_func ("/hostile-ui/choice", test_choice);
  g_test_add_func ("/hostile-ui/text", test_text);

  return g_test_run ();
}
