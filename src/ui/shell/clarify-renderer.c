/* clarify-renderer.c: Clarify draws with cairo unless the user chose a renderer
 *
 * On an X11 display GTK 4 loads the GL stack when it opens the display, even
 * before a window exists, and picks GL to draw. For Clarify's small dialogs
 * that costs more than it gives (docs/benchmarks.md, "The renderer"): an idle
 * companion takes 85 MiB instead of 28, a dialog reaches the screen in
 * 40 ms instead of 17 with Mesa's software GL, and the text cursor's blink
 * costs a sixth of a core. So GL is turned off, through the variable GDK
 * reads for it, unless the user set GSK_RENDERER, which says they chose.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "clarify-renderer.h"

static char    *saved_name;      /* the variable we changed */
static char    *saved_value;     /* its value before, NULL when it was unset */

void
clarify_renderer_choose (void)
{
  const char *name;
  const char *value;
  const char *key;
  g_autofree char *new_value = NULL;

  if (saved_name != NULL || g_getenv ("GSK_RENDERER") != NULL)
    return;

  /* GTK 4.16 moved the switch from GDK_DEBUG to GDK_DISABLE. */
  if (gtk_get_major_version () == 4 && gtk_get_minor_version () < 16)
    {
      name = "GDK_DEBUG";
      key = "gl-disable";
    }
  else
    {
      name = "GDK_DISABLE";
      key = "gl";
    }

  value = g_getenv (name);
  new_value = value != NULL && *value != '\0' ? g_strconcat (value, ",", key, NULL) : g_strdup (key);

  saved_name = g_strdup (name);
  saved_value = g_strdup (value);
  g_setenv (name, new_value, TRUE);
}

void
clarify_renderer_restore_environment (void)
{
  if (saved_name == NULL)
    return;

  if (saved_value != NULL)
    g_setenv (saved_name, saved_value, TRUE);
  else
    g_unsetenv (saved_name);

  g_clear_pointer (&saved_name, g_free);
  g_clear_pointer (&saved_value, g_free);
}
