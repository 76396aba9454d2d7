/* test-link-ui.c: MCP's URL mode from Claude Code's Elicitation hook, in a
 * real dialog: the whole address with its host in bold, nothing opened
 * until the person clicks, then accept; Decline and Esc
 *
 * The "browser" is a script registered as this test's default handler for
 * http and https (its own XDG dirs), so the dialog's real launch path runs
 * and the test sees exactly which address it was given.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "clarify-claude-code-codec.h"
#include "clarify-link-input.h"
#include "clarify-test-dialog.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define URL "https://pay.example.com/checkout?session=abc"

/* Where the fake browser writes the address it was started with. */
static char *opened_path;
static char *browser_path;

static void
install_browser (const char *root)
{
  g_autofree char *data = g_build_filename (root, "data", NULL);
  g_autofree char *config = g_build_filename (root, "config", NULL);
  g_autofree char *applications = g_build_filename (data, "applications", NULL);
  const char *script;
  g_autofree char *desktop = g_build_filename (applications, "clarify-test-browser.desktop", NULL);
  g_autofree char *mimeapps = g_build_filename (config, "mimeapps.list", NULL);
  g_autofree char *script_text = NULL;
  g_autofree char *desktop_text = NULL;
  g_autoptr(GError) error = NULL;

  opened_path = g_build_filename (root, "opened", NULL);
  browser_path = g_build_filename (root, "browser", NULL);
  script = browser_path;
  g_assert_cmpint (g_mkdir_with_parents (applications, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);

  script_text = g_strdup_printf ("#!/bin/sh\nprintf '%%s' \"$1\" > '%s.part' && mv '%s.part' '%s'\n",
                                 opened_path, opened_path, opened_path);
  g_file_set_contents (script, script_text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (script, 0700), ==, 0);

  desktop_text = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Test Browser\n"
                                  "Exec=%s %%u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n",
                                  script);
  g_file_set_contents (desktop, desktop_text, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (mimeapps,
                       "[Default Applications]\n"
                       "x-scheme-handler/http=clarify-test-browser.desktop\n"
                       "x-scheme-handler/https=clarify-test-browser.desktop\n",
                       -1, &error);
  g_assert_no_error (error);

  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_unsetenv ("XDG_CURRENT_DESKTOP");
}

static gboolean
browser_started (gpointer data)
{
  return g_file_test (opened_path, G_FILE_TEST_EXISTS);
}

static ClarifyClaudeHook *
decode_url_hook (void)
{
  g_autofree char *input = clarify_test_load_fixture ("claude-code/elicitation-url.json");
  g_autoptr(GError) error = NULL;
  ClarifyClaudeHook *hook = clarify_claude_hook_decode (input, -1, "claude-code-1", &error);

  g_assert_no_error (error);
  return hook;
}

static ClarifyLinkInput *
link_input (Run *run)
{
  ClarifyInput *input = input_at (run, 0);

  g_assert_true (CLARIFY_IS_LINK_INPUT (input));
  return CLARIFY_LINK_INPUT (input);
}

/* The byte range the label shows in bold, or FALSE. */
static gboolean
bold_range (GtkWidget *label,
            guint     *start,
            guint     *end)
{
  PangoAttrList *attributes = gtk_label_get_attributes (GTK_LABEL (label));
  g_autoptr(GSList) list = attributes != NULL ? pango_attr_list_get_attributes (attributes) : NULL;
  gboolean found = FALSE;

  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attribute = l->data;

      if (attribute->klass->type == PANGO_ATTR_WEIGHT &&
          ((PangoAttrInt *) attribute)->value == PANGO_WEIGHT_BOLD)
        {
          *start = attribute->start_index;
          *end = attribute->end_index;
          found = TRUE;
        }
    }
  g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);

  return found;
}

static char *
encode (ClarifyClaudeHook *hook,
        Run               *run)
{
  g_autoptr(GError) error = NULL;
  char *output = clarify_claude_hook_encode (hook->request, run->response, &error);

  g_assert_no_error (error);
  return output;
}

/* The address whole, its host in bold and in words; nothing opens until
 * Open in Browser is clicked, which starts the browser with exactly that
 * address and accepts. */
static void
test_open (gconstpointer data)
{
  g_autoptr(ClarifyClaudeHook) hook = NULL;
  g_autofree char *output = NULL;
  g_autofree char *opened = NULL;
  g_autofree char *where = NULL;
  ClarifyLinkInput *input;
  GtkWidget *label, *open;
  guint start = 0, end = 0;
  Run run = { 0 };

  /* The hook is read in the dialog's language, as the application does. */
  set_language (data);
  hook = decode_url_hook ();
  g_remove (opened_path);
  run_start (&run, hook->request);
  input = link_input (&run);

  label = clarify_link_input_get_address_label (input);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, URL);
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (label)));
  g_assert_true (bold_range (label, &start, &end));
  g_assert_cmpuint (start, ==, strlen ("https://"));
  g_assert_cmpuint (end, ==, strlen ("https://pay.example.com"));
  where = g_strdup_printf (OUR ("The page is on %s."), "pay.example.com");
  g_assert_nonnull (clarify_test_find_label (GTK_WIDGET (run.dialog), where));
  g_assert_nonnull (clarify_test_find_label (GTK_WIDGET (run.dialog), "Finish the payment in your browser"));

  /* Its own buttons are the dialog's: Open in Browser has the focus. */
  g_assert_false (gtk_widget_get_visible (find_by_id (&run, "actions")));
  open = clarify_link_input_get_open_button (input);
  g_assert_true (gtk_widget_has_focus (open));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (open), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, where);
  shot (&run, "link");
  g_assert_false (browser_started (NULL));

  press (open);
  g_assert_true (clarify_test_wait_until (browser_started, NULL, 5000));
  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 5000));
  g_file_get_contents (opened_path, &opened, NULL, NULL);
  g_assert_cmpstr (opened, ==, URL);
  output = encode (hook, &run);
  g_assert_cmpstr (output, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\"}}");
  run_clear (&run);
}

/* Decline says no; Esc cancels. Neither opens anything. */
static void
test_decline_and_cancel (gconstpointer data)
{
  g_autoptr(ClarifyClaudeHook) declined = NULL;
  g_autoptr(ClarifyClaudeHook) cancelled = NULL;
  g_autofree char *declined_out = NULL;
  g_autofree char *cancelled_out = NULL;
  Run run = { 0 };

  set_language (data);
  declined = decode_url_hook ();
  cancelled = decode_url_hook ();
  g_remove (opened_path);

  run_start (&run, declined->request);
  press (clarify_link_input_get_decline_button (link_input (&run)));
  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 5000));
  declined_out = encode (declined, &run);
  g_assert_cmpstr (declined_out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"decline\"}}");
  run_clear (&run);

  run_start (&run, cancelled->request);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run.dialog), "dialog.cancel", NULL));
  g_assert_true (clarify_test_wait_until (run_is_destroyed, &run, 5000));
  cancelled_out = encode (cancelled, &run);
  g_assert_cmpstr (cancelled_out, ==, "{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"cancel\"}}");
  run_clear (&run);

  g_assert_false (browser_started (NULL));
}

static gboolean
error_shown (gpointer data)
{
  return gtk_widget_get_visible (data);
}

/* A browser that cannot be started: the dialog says so and stays, and
 * Open in Browser may be tried again. Nothing is answered. */
static void
test_open_fails (void)
{
  g_autoptr(ClarifyClaudeHook) hook = NULL;
  g_autofree char *expected = NULL;
  GtkWidget *open, *error_label = NULL;
  Run run = { 0 };

  set_language ("en");
  hook = decode_url_hook ();
  g_assert_cmpint (g_chmod (browser_path, 0600), ==, 0);
  run_start (&run, hook->request);
  open = clarify_link_input_get_open_button (link_input (&run));
  press (open);

  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (link_input (&run))); w != NULL; w = gtk_widget_get_next_sibling (w))
    if (gtk_widget_has_css_class (w, "error"))
      error_label = w;
  g_assert_nonnull (error_label);
  g_assert_true (clarify_test_wait_until (error_shown, error_label, 5000));
  expected = g_strdup_printf (OUR ("The address could not be opened: %s"), "");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (error_label)), expected));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (error_label), GTK_ACCESSIBLE_ROLE_ALERT);
  g_assert_true (gtk_widget_is_sensitive (open));
  g_assert_false (run_is_destroyed (&run));
  g_assert_cmpuint (run.n_responses, ==, 0);
  shot (&run, "link-failed");

  g_assert_cmpint (g_chmod (browser_path, 0700), ==, 0);
  run_clear (&run);
}

/* The host after any user part and before the port: what the page is on. */
static void
test_find_host (void)
{
  static const struct {
    const char *address;
    const char *host;
  } cases[] = {
    { URL, "pay.example.com" },
    { "https://pay.example.com@evil.example:8443/login", "evil.example" },
    { "http://user:pw@[2001:db8::1]:8080/", "[2001:db8::1]" },
    { "https://例え.jp?q=1#top", "例え.jp" },
    { "https://host", "host" },
    { "https:///path", NULL },
    { "no address", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize start, end;
      gboolean found = clarify_link_find_host (cases[i].address, &start, &end);
      g_autofree char *host = found ? g_strndup (cases[i].address + start, end - start) : NULL;

      g_assert_cmpstr (host, ==, cases[i].host);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *root = NULL;
  int result;

  clarify_test_log_init ();
  root = g_dir_make_tmp ("clarify-link-XXXXXX", NULL);
  g_assert_nonnull (root);
  install_browser (root);
  clarify_test_gtk_init (&argc, &argv);

  add_language_test ("/link/open", test_open);
  add_language_test ("/link/decline-and-cancel", test_decline_and_cancel);
  g_test_add_func ("/link/open-fails", test_open_fails);
  g_test_add_func ("/link/find-host", test_find_host);

  result = g_test_run ();

  for (const char * const *name = (const char *[]) { "opened", "browser", "data/applications/clarify-test-browser.desktop",
                                                     "data/applications", "data", "config/mimeapps.list", "config",
                                                     NULL };
       *name != NULL; name++)
    {
      g_autofree char *path = g_build_filename (root, *name, NULL);

      g_remove (path);
    }
  g_rmdir (root);
  g_clear_pointer (&opened_path, g_free);
  g_clear_pointer (&browser_path, g_free);

  return result;
}
