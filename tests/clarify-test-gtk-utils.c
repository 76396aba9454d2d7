/* clarify-test-gtk-utils.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdlib.h>

#include "clarify-option-list.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-server.h"

static char *private_home;

static void
remove_private_home (void)
{
  clarify_test_remove_tree (private_home);
  g_clear_pointer (&private_home, g_free);
}

/* Before main(): every UI test starts in a home of its own, so that what
 * this machine's user has (a ~/.claude, a Clarify config, an opencode.json)
 * changes nothing a test sees or writes. A test that wants other dirs sets
 * them in main(), before anything reads them. */
__attribute__((constructor)) static void
use_private_home (void)
{
  static const struct { const char *variable; const char *path; } dirs[] = {
    { "XDG_CONFIG_HOME", ".config" },
    { "XDG_DATA_HOME", ".local/share" },
    { "XDG_STATE_HOME", ".local/state" },
    { "XDG_CACHE_HOME", ".cache" },
  };

  /* A test's own subprocess (g_test_trap_subprocess) keeps its dirs. */
  if (g_getenv ("CLARIFY_TEST_HOME") != NULL)
    return;

  private_home = g_dir_make_tmp ("clarify-test-user-XXXXXX", NULL);
  if (private_home == NULL)
    g_error ("Cannot make a private home for the test");
  g_setenv ("CLARIFY_TEST_HOME", private_home, TRUE);
  g_setenv ("HOME", private_home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (private_home, dirs[i].path, NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (dirs[i].variable, dir, TRUE);
    }
  /* Claude Code's own override of ~/.claude. */
  g_unsetenv ("CLAUDE_CONFIG_DIR");
  atexit (remove_private_home);
}

/* What ClarifyApplication (an AdwApplication) loads for every window; tests
 * that build windows without it need the same look. */
static void
load_app_style (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, "/io/github/clarify/Clarify/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

void
clarify_test_gtk_init (int    *argc,
                       char ***argv)
{
  const char *localedir = g_getenv ("CLARIFY_LOCALEDIR");

  gtk_test_init (argc, argv, NULL);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  adw_init ();
  load_app_style ();
  /* Screenshots and page checks must not catch a transition halfway. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

void
clarify_test_set_language (const char *language)
{
  extern int _nl_msg_cat_cntr;
  /* Dates and numbers follow the locale, not just the catalog. */
  const char *locale = g_str_equal (language, "de") ? "de_DE.UTF-8" : "C.UTF-8";

  if (setlocale (LC_ALL, locale) == NULL)
    g_error ("The %s locale is missing; tools/install-deps generates it", locale);
  g_setenv ("LANGUAGE", language, TRUE);
  /* glibc caches translations; bumping the counter invalidates the cache. */
  ++_nl_msg_cat_cntr;
}

static gboolean
is_mapped_and_drawn (gpointer data)
{
  GtkWidget *widget = data;

  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

GtkWindow *
clarify_test_find_app_window (GtkApplication *application,
                              GType           type,
                              guint          *n_found)
{
  GtkWindow *first = NULL;
  guint n = 0;

  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    {
      if (!G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
        continue;
      if (first == NULL)
        first = l->data;
      n++;
    }

  if (n_found != NULL)
    *n_found = n;

  return first;
}

void
clarify_test_present_and_wait (GtkWindow *window)
{
  gtk_window_present (window);
  clarify_test_wait_until (is_mapped_and_drawn, window, 5000);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  gdk_display_sync (gtk_widget_get_display (GTK_WIDGET (window)));
}

static gboolean
is_active (gpointer data)
{
  return gtk_window_is_active (data);
}

void
clarify_test_present_and_focus (GtkWindow *window)
{
  clarify_test_present_and_wait (window);
  g_assert_true (clarify_test_wait_until (is_active, window, 5000));
}

void
clarify_test_focus_elsewhere (void)
{
  static GtkWindow *elsewhere;

  if (elsewhere == NULL)
    {
      elsewhere = GTK_WINDOW (gtk_window_new ());
      gtk_window_set_title (elsewhere, "Another program");
      gtk_window_set_default_size (elsewhere, 120, 80);
    }
  clarify_test_present_and_focus (elsewhere);
}

char *
clarify_test_save_screenshot (GtkWidget  *widget,
                              const char *name)
{
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (widget));
  const char *dir = g_getenv ("CLARIFY_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  int width, height;

  gtk_test_widget_wait_for_draw (window);
  width = gtk_widget_get_width (window);
  height = gtk_widget_get_height (window);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  paintable = gtk_widget_paintable_new (window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

  if (dir == NULL)
    dir = g_get_tmp_dir ();
  g_mkdir_with_parents (dir, 0755);
  file = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, file));
  g_test_message ("screenshot: %s", file);

  return g_steal_pointer (&file);
}

gboolean
clarify_test_popover_is_open (gpointer menu_button)
{
  GtkPopover *popover = gtk_menu_button_get_popover (menu_button);

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

/* The GTK-free loop helpers of clarify-test-server.c do the work. */
gboolean
clarify_test_wait_until (gboolean (*condition) (gpointer data),
                         gpointer   data,
                         guint      timeout_ms)
{
  return clarify_test_loop_until (condition, data, timeout_ms);
}

typedef struct
{
  GtkWidget *widget;
  gboolean   idle_ran;
} NaturalHeight;

static gboolean
idle_ran_cb (gpointer data)
{
  NaturalHeight *wait = data;

  wait->idle_ran = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
has_natural_height (gpointer data)
{
  NaturalHeight *wait = data;
  int natural;

  if (!wait->idle_ran)
    return FALSE;

  gtk_widget_measure (wait->widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (wait->widget),
                      NULL, &natural, NULL, NULL);
  return gtk_widget_get_height (wait->widget) == natural;
}

gboolean
clarify_test_wait_for_natural_height (GtkWidget *widget,
                                      guint      timeout_ms)
{
  NaturalHeight wait = { widget, FALSE };
  guint idle_id;
  gboolean reached;

  /* An idle below every priority GTK lays out at runs only once the ones
   * queued before it are done, the text view's validation among them. */
  idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, idle_ran_cb, &wait, NULL);
  reached = clarify_test_wait_until (has_natural_height, &wait, timeout_ms);
  if (!wait.idle_ran)
    g_source_remove (idle_id);
  if (reached)
    gtk_test_widget_wait_for_draw (widget);

  return reached;
}

void
clarify_test_spin (guint ms)
{
  clarify_test_loop_for (ms);
}

GtkWidget *
clarify_test_find_widget (GtkWidget  *root,
                          const char *name)
{
  GtkWidget *child;

  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  if (GTK_IS_BUILDABLE (root) &&
      g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (root)), name) == 0)
    return root;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = clarify_test_find_widget (child, name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

GtkWidget *
clarify_test_find_button (GtkWidget  *root,
                          const char *label)
{
  GtkWidget *child;

  if (GTK_IS_BUTTON (root) && gtk_widget_get_visible (root))
    {
      const char *button_label = gtk_button_get_label (GTK_BUTTON (root));

      if (g_strcmp0 (button_label, label) == 0)
        return root;
    }

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = clarify_test_find_button (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

gboolean
clarify_test_trigger_matches (GtkShortcutTrigger *trigger,
                              guint               keyval,
                              GdkModifierType     modifiers)
{
  if (GTK_IS_KEYVAL_TRIGGER (trigger))
    return gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
           gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers;

  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return clarify_test_trigger_matches (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)),
                                         keyval, modifiers) ||
           clarify_test_trigger_matches (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)),
                                         keyval, modifiers);

  return FALSE;
}

/* The first of @widget's shortcuts in @phase bound to the key, activated. */
static gboolean
activate_bound (GtkWidget           *widget,
                GtkPropagationPhase  phase,
                guint                keyval,
                GdkModifierType      modifiers)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      GListModel *shortcuts = G_LIST_MODEL (controller);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != phase)
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (shortcuts); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (shortcuts, j);

          if (clarify_test_trigger_matches (gtk_shortcut_get_trigger (shortcut), keyval, modifiers) &&
              gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                            GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                            widget,
                                            gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }

  return FALSE;
}

gboolean
clarify_test_send_key (GtkWidget       *window,
                       guint            keyval,
                       GdkModifierType  modifiers)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();

  for (GtkWidget *w = focus != NULL ? focus : window; w != NULL; w = gtk_widget_get_parent (w))
    g_ptr_array_add (chain, w);

  for (guint i = chain->len; i-- > 0;)
    if (activate_bound (g_ptr_array_index (chain, i), GTK_PHASE_CAPTURE, keyval, modifiers))
      return TRUE;

  for (guint i = 0; i < chain->len; i++)
    if (activate_bound (g_ptr_array_index (chain, i), GTK_PHASE_BUBBLE, keyval, modifiers))
      return TRUE;

  return FALSE;
}

void
clarify_test_set_field_text (GtkWidget  *field,
                             const char *text)
{
  if (GTK_IS_EDITABLE (field))
    {
      gtk_editable_set_text (GTK_EDITABLE (field), text);
      gtk_editable_set_position (GTK_EDITABLE (field), -1);
    }
  else
    {
      GtkTextBuffer *buffer;
      GtkTextIter end;

      g_assert_true (GTK_IS_TEXT_VIEW (field));
      buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (field));
      gtk_text_buffer_set_text (buffer, text, -1);
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_place_cursor (buffer, &end);
    }
}

GtkWidget *
clarify_test_find_label (GtkWidget  *root,
                         const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = clarify_test_find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

GtkWidget *
clarify_test_find_descendant (GtkWidget *root,
                              GType      type)
{
  GtkWidget *child;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = clarify_test_find_descendant (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
list_is_filled (gpointer list)
{
  return !clarify_option_list_get_filling (list);
}

gboolean
clarify_test_wait_list_filled (GtkWidget *root,
                               guint      timeout_ms)
{
  GtkWidget *list = clarify_test_find_descendant (root, CLARIFY_TYPE_OPTION_LIST);

  return list == NULL || clarify_test_wait_until (list_is_filled, list, timeout_ms);
}

char *
clarify_test_private_config_home (const char *mcp_ini)
{
  g_autofree char *home = g_dir_make_tmp ("clarify-test-home-XXXXXX", NULL);
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (home);
  dir = g_build_filename (home, "clarify", NULL);
  path = g_build_filename (dir, "mcp.ini", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, mcp_ini, -1, &error);
  g_assert_no_error (error);

  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

  return g_steal_pointer (&home);
}
