/* clarify-test-shell.h: pressing a notification's button as the shell does
 *
 * The shell (or the notification portal) activates the action a button
 * names through org.gtk.Actions.Activate on the application's object path,
 * from a bus connection of its own. The notifications themselves are
 * recorded by clarify_test_notifications_start() (clarify-test-dbus.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <string.h>

#include "clarify-test-gtk-utils.h"

/* A bus connection of its own, as the shell has. */
static inline GDBusConnection *
clarify_test_shell_connect (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  GDBusConnection *shell;

  g_assert_no_error (error);
  shell = g_dbus_connection_new_for_address_sync (address,
                                                  G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                  G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                  NULL, NULL, &error);
  g_assert_no_error (error);

  return shell;
}

/* The @index-th button's action and target, as the shell reads them. */
static inline void
clarify_test_shell_get_button (GVariant   *notification,
                               guint       index,
                               char      **action,
                               GVariant  **target)
{
  g_autoptr(GVariant) buttons = g_variant_lookup_value (notification, "buttons", G_VARIANT_TYPE ("aa{sv}"));
  g_autoptr(GVariant) button = NULL;
  const char *name = NULL;

  g_assert_nonnull (buttons);
  g_assert_cmpuint (index, <, g_variant_n_children (buttons));
  button = g_variant_get_child_value (buttons, index);
  g_assert_true (g_variant_lookup (button, "action", "&s", &name));
  *action = g_strdup (name);
  *target = g_variant_lookup_value (button, "target", NULL);
}

static inline void
clarify_test_shell_store_result_cb (GObject      *source,
                                    GAsyncResult *result,
                                    gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static inline gboolean
clarify_test_shell_result_arrived (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

/* What the shell does when a button or the notification is clicked:
 * org.gtk.Actions.Activate (name without "app.", [target], {}). */
static inline void
clarify_test_shell_activate (GDBusConnection *shell,
                             GApplication    *app,
                             const char      *action,
                             GVariant        *target,
                             guint            timeout_ms)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  GVariantBuilder parameters;

  g_assert_true (g_str_has_prefix (action, "app."));
  g_variant_builder_init (&parameters, G_VARIANT_TYPE ("av"));
  if (target != NULL)
    g_variant_builder_add (&parameters, "v", target);

  g_dbus_connection_call (shell,
                          g_dbus_connection_get_unique_name (g_application_get_dbus_connection (app)),
                          g_application_get_dbus_object_path (app),
                          "org.gtk.Actions", "Activate",
                          g_variant_new ("(s@ava{sv})", action + strlen ("app."),
                                         g_variant_builder_end (&parameters), NULL),
                          NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, clarify_test_shell_store_result_cb, &result);
  g_assert_true (clarify_test_wait_until (clarify_test_shell_result_arrived, &result, timeout_ms));
  reply = g_dbus_connection_call_finish (shell, result, &error);
  g_assert_no_error (error);
}

static inline void
clarify_test_shell_press_button (GDBusConnection *shell,
                                 GApplication    *app,
                                 GVariant        *notification,
                                 guint            index,
                                 guint            timeout_ms)
{
  g_autofree char *action = NULL;
  g_autoptr(GVariant) target = NULL;

  clarify_test_shell_get_button (notification, index, &action, &target);
  clarify_test_shell_activate (shell, app, action, target, timeout_ms);
}
