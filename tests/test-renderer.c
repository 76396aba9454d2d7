/* test-renderer.c: Clarify keeps the GL stack out unless the user chose a renderer
 *
 * The running program is checked from outside, through the libraries mapped
 * into it; the environment hand-back in a subprocess of this test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>
#include <signal.h>

#include "clarify-renderer.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"

#define WAIT_MS 20000

static char *binary;

static void
name_appeared_cb (GDBusConnection *bus,
                  const char      *name,
                  const char      *owner,
                  gpointer         data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* Whether a GL library (libEGL, libGLX, a Mesa driver) is mapped into @pid. */
static gboolean
gl_loaded (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/maps", (int) pid);
  g_autofree char *maps = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &maps, NULL, &error));
  g_assert_no_error (error);

  return strstr (maps, "/libEGL") != NULL || strstr (maps, "/libGLX") != NULL
         || strstr (maps, "_dri.so") != NULL || strstr (maps, "/libgallium") != NULL;
}

static void
run_clarify (const char *renderer,
             gboolean    expect_gl)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                                                      | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  gboolean owned = FALSE;
  guint watch;
  GPid pid;

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);

  if (renderer != NULL)
    g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", renderer, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "GSK_RENDERER");
  g_subprocess_launcher_unsetenv (launcher, "GDK_DEBUG");
  g_subprocess_launcher_unsetenv (launcher, "GDK_DISABLE");
  /* The demo agent keeps it running: without a connection it has nothing to do. */
  process = g_subprocess_launcher_spawn (launcher, &error, binary, "--background", "--demo", NULL);
  g_assert_no_error (error);

  watch = g_bus_watch_name_on_connection (bus, "io.github.clarify.Clarify", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          name_appeared_cb, NULL, &owned, NULL);
  g_assert_true (clarify_test_wait_until (is_true, &owned, WAIT_MS));
  g_bus_unwatch_name (watch);
  /* The name is taken before GTK starts; a method of the application is
   * answered by its main loop, after GTK opened the display (and loaded
   * GL, if it does). */
  reply = g_dbus_connection_call_sync (bus, "io.github.clarify.Clarify", "/io/github/clarify/Clarify",
                                       "org.gtk.Actions", "List", NULL, G_VARIANT_TYPE ("(as)"),
                                       G_DBUS_CALL_FLAGS_NONE, WAIT_MS, NULL, &error);
  g_assert_no_error (error);
  pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (process), NULL, 10);
  g_assert_cmpint (gl_loaded (pid), ==, expect_gl);

  g_subprocess_send_signal (process, SIGTERM);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
}

static void
test_default_without_gl (void)
{
  run_clarify (NULL, FALSE);
}

/* A renderer the user asked for is theirs: GTK loads GL for it. */
static void
test_user_choice_respected (void)
{
  run_clarify ("gl", TRUE);
}

static void
test_environment_given_back (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;

      g_unsetenv ("GSK_RENDERER");
      g_setenv ("GDK_DEBUG", "events", TRUE);
      g_unsetenv ("GDK_DISABLE");

      clarify_renderer_choose ();
      /* GDK's switch for this GTK, added to what the user had. */
      g_assert_true (g_strcmp0 (g_getenv ("GDK_DEBUG"), "events,gl-disable") == 0
                     || g_strcmp0 (g_getenv ("GDK_DISABLE"), "gl") == 0);

      gtk_init ();
      g_assert_false (gdk_display_prepare_gl (gdk_display_get_default (), &error));
      g_assert_nonnull (error);

      /* What Clarify launches afterwards sees the user's values. */
      clarify_renderer_restore_environment ();
      g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "events");
      g_assert_null (g_getenv ("GDK_DISABLE"));
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_renderer_set_untouched (void)
{
  if (g_test_subprocess ())
    {
      g_setenv ("GSK_RENDERER", "cairo", TRUE);
      g_unsetenv ("GDK_DEBUG");
      g_unsetenv ("GDK_DISABLE");

      clarify_renderer_choose ();
      g_assert_null (g_getenv ("GDK_DEBUG"));
      g_assert_null (g_getenv ("GDK_DISABLE"));
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  const char *display = g_getenv ("DISPLAY");
  GTestDBus *bus = NULL;
  int status;

  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/renderer/environment-given-back", test_environment_given_back);
  g_test_add_func ("/renderer/renderer-set-untouched", test_renderer_set_untouched);
  g_test_add_func ("/renderer/default-without-gl", test_default_without_gl);
  g_test_add_func ("/renderer/user-choice-respected", test_user_choice_respected);

  if (!g_test_subprocess ())
    {
      /* Clarify under test: private settings and a session bus of its own. */
      home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");
      bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (bus);
      /* GTestDBus unsets it; the program under test needs it. */
      if (display != NULL)
        g_setenv ("DISPLAY", display, TRUE);
      g_assert_nonnull (g_getenv ("CLARIFY_BINARY"));
      binary = g_canonicalize_filename (g_getenv ("CLARIFY_BINARY"), NULL);
    }

  status = g_test_run ();

  if (bus != NULL)
    {
      g_test_dbus_stop (bus);
      g_object_unref (bus);
      clarify_test_remove_tree (home);
    }
  g_free (binary);

  return status;
}
