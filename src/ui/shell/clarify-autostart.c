/* clarify-autostart.c: starting Clarify at login, when the user chose it
 *
 * The choice (the start-at-login preference, off unless the user turned
 * it on; clarify-application-settings.c keeps it) is applied each time
 * Clarify starts to keep running and whenever it changes. In a Flatpak the Background portal holds it: it is
 * asked for autostart, or for none, which withdraws an earlier one.
 * Elsewhere Clarify writes or removes its own desktop file in the user's
 * autostart folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#if HAVE_LIBPORTAL
#include <libportal-gtk4/portal-gtk4.h>
#endif

#include "clarify-autostart.h"
#include "clarify-cli.h"

struct _ClarifyAutostart
{
  GObject  parent_instance;

  gboolean use_portal;
};

G_DEFINE_FINAL_TYPE (ClarifyAutostart, clarify_autostart, G_TYPE_OBJECT)

char *
clarify_autostart_get_desktop_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "autostart", APP_ID ".desktop", NULL);
}

#if HAVE_LIBPORTAL
static void
request_background_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!xdp_portal_request_background_finish (XDP_PORTAL (object), result, &error))
    g_message ("The Background portal did not allow it: %s", error->message);
}

static void
apply_with_portal (gboolean   enabled,
                   GtkWindow *parent)
{
  g_autoptr(XdpPortal) portal = xdp_portal_new ();
  g_autoptr(GPtrArray) commandline = g_ptr_array_new ();
  XdpParent *xdp_parent = parent != NULL ? xdp_parent_new_gtk (parent) : NULL;

  g_ptr_array_add (commandline, (gpointer) "clarify");
  /* No NULL at the end: libportal takes the array's length. */
  g_ptr_array_add (commandline, (gpointer) "--background");

  /* Without the flag the portal removes an autostart it had set up. */
  xdp_portal_request_background (portal, xdp_parent,
                                 _("Clarify keeps listening to your agents and shows their questions."),
                                 commandline,
                                 enabled ? XDP_BACKGROUND_FLAG_AUTOSTART : XDP_BACKGROUND_FLAG_NONE,
                                 NULL, request_background_cb, NULL);
  g_clear_pointer (&xdp_parent, xdp_parent_free);
}
#endif

/* A desktop file's Exec takes a path with spaces in double quotes. */
static char *
quote_exec_argument (const char *argument)
{
  GString *quoted;

  if (strpbrk (argument, " \t\n\"'\\><~|&;$*?#()`%=") == NULL)
    return g_strdup (argument);

  quoted = g_string_new ("\"");
  for (const char *p = argument; *p != '\0'; p++)
    {
      if (strchr ("\"`$\\", *p) != NULL)
        g_string_append_c (quoted, '\\');
      g_string_append_c (quoted, *p);
    }
  g_string_append_c (quoted, '"');

  return g_string_free (quoted, FALSE);
}

/* "clarify" where the session finds it on $PATH; run from a build tree,
 * where it is not, the clarify beside this program (else the entry would
 * start nothing at login, and say nothing). */
static char *
dup_exec_line (void)
{
  g_autofree char *on_path = g_find_program_in_path ("clarify");
  g_autofree char *beside = NULL;
  g_autofree char *quoted = NULL;

  if (on_path == NULL)
    beside = clarify_cli_find_beside ("clarify");
  if (beside == NULL)
    return g_strdup ("clarify --background");

  quoted = quote_exec_argument (beside);
  return g_strconcat (quoted, " --background", NULL);
}

static void
apply_with_desktop_file (gboolean enabled)
{
  g_autofree char *path = clarify_autostart_get_desktop_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GKeyFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *exec = NULL;

  if (!enabled)
    {
      if (g_unlink (path) != 0 && errno != ENOENT)
        g_message ("Cannot remove %s: %s", path, g_strerror (errno));
      return;
    }

  file = g_key_file_new ();
  g_key_file_set_string (file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_TYPE, "Application");
  g_key_file_set_string (file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_NAME, _("Clarify"));
  exec = dup_exec_line ();
  g_key_file_set_string (file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_EXEC, exec);
  g_key_file_set_string (file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_ICON, APP_ID);
  g_key_file_set_boolean (file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_NO_DISPLAY, TRUE);
  g_key_file_set_boolean (file, G_KEY_FILE_DESKTOP_GROUP, "X-GNOME-Autostart-enabled", TRUE);

  g_mkdir_with_parents (dir, 0700);
  if (!g_key_file_save_to_file (file, path, &error))
    g_message ("Cannot write %s: %s", path, error->message);
}

void
clarify_autostart_apply (ClarifyAutostart *self,
                         gboolean          enabled,
                         GtkWindow        *parent)
{
  g_return_if_fail (CLARIFY_IS_AUTOSTART (self));

#if HAVE_LIBPORTAL
  if (self->use_portal)
    {
      apply_with_portal (enabled, parent);
      return;
    }
#endif
  apply_with_desktop_file (enabled);
}

static void
clarify_autostart_class_init (ClarifyAutostartClass *klass)
{
}

static void
clarify_autostart_init (ClarifyAutostart *self)
{
#if HAVE_LIBPORTAL
  self->use_portal = xdp_portal_running_under_flatpak ();
#endif
}

ClarifyAutostart *
clarify_autostart_new (void)
{
  return g_object_new (CLARIFY_TYPE_AUTOSTART, NULL);
}

void
clarify_autostart_set_use_portal (ClarifyAutostart *self,
                                  gboolean          use_portal)
{
  g_return_if_fail (CLARIFY_IS_AUTOSTART (self));

  self->use_portal = !!use_portal;
}
