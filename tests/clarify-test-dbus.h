/* clarify-test-dbus.h: fake session services for the UI tests
 *
 * The tests run on a private session bus (dbus-run-session), where nothing
 * answers for the desktop's services unless a test does: a notification
 * server, a tray's StatusNotifierWatcher.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-test-gtk-utils.h"

#define CLARIFY_TEST_DBUS_WAIT_MS 15000

static inline void
clarify_test_dbus_name_acquired (GDBusConnection *connection,
                                 const char      *name,
                                 gpointer         user_data)
{
  *(gboolean *) user_data = TRUE;
}

static inline gboolean
clarify_test_dbus_is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* Exports the one interface of @xml at @path on @connection, owns @name
 * there and waits until it is owned. Returns the owner id. */
static inline guint
clarify_test_dbus_serve (GDBusConnection              *connection,
                         const char                   *name,
                         const char                   *path,
                         const char                   *xml,
                         GDBusInterfaceMethodCallFunc  method_call,
                         gpointer                      user_data)
{
  const GDBusInterfaceVTable vtable = { method_call, NULL, NULL };
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (xml, NULL);
  g_autoptr(GError) error = NULL;
  gboolean *owned = g_new0 (gboolean, 1);  /* lives as long as the ownership */
  guint owner_id;

  g_assert_nonnull (info);
  g_dbus_connection_register_object (connection, path, info->interfaces[0], &vtable, user_data, NULL, &error);
  g_assert_no_error (error);

  owner_id = g_bus_own_name_on_connection (connection, name, G_BUS_NAME_OWNER_FLAGS_NONE,
                                           clarify_test_dbus_name_acquired, NULL, owned, g_free);
  g_assert_true (clarify_test_wait_until (clarify_test_dbus_is_true, owned, CLARIFY_TEST_DBUS_WAIT_MS));

  return owner_id;
}

/* A fake org.gtk.Notifications: GLib sends notifications there when the name
 * has an owner, which lets a test see them (and spares it GLib's warning
 * that no notification server runs). */

static GHashTable *clarify_test_notifications_shown;   /* id → a{sv} */
static GPtrArray  *clarify_test_notifications_removed; /* ids */

static const char clarify_test_notifications_xml[] =
  "<node>"
  "  <interface name='org.gtk.Notifications'>"
  "    <method name='AddNotification'>"
  "      <arg type='s' name='app_id' direction='in'/>"
  "      <arg type='s' name='id' direction='in'/>"
  "      <arg type='a{sv}' name='notification' direction='in'/>"
  "    </method>"
  "    <method name='RemoveNotification'>"
  "      <arg type='s' name='app_id' direction='in'/>"
  "      <arg type='s' name='id' direction='in'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static inline void
clarify_test_notifications_method_call (GDBusConnection       *connection,
                                        const char            *sender,
                                        const char            *object_path,
                                        const char            *interface_name,
                                        const char            *method_name,
                                        GVariant              *parameters,
                                        GDBusMethodInvocation *invocation,
                                        gpointer               user_data)
{
  const char *app_id, *id;
  GVariant *notification;

  if (g_str_equal (method_name, "AddNotification"))
    {
      g_variant_get (parameters, "(&s&s@a{sv})", &app_id, &id, &notification);
      g_assert_cmpstr (app_id, ==, APP_ID);
      g_hash_table_insert (clarify_test_notifications_shown, g_strdup (id), notification);
    }
  else
    {
      g_variant_get (parameters, "(&s&s)", &app_id, &id);
      g_hash_table_remove (clarify_test_notifications_shown, id);
      g_ptr_array_add (clarify_test_notifications_removed, g_strdup (id));
    }

  g_dbus_method_invocation_return_value (invocation, NULL);
}

/* Serves org.gtk.Notifications on @connection, or on the shared session bus
 * connection when NULL. */
static inline void
clarify_test_notifications_start (GDBusConnection *connection)
{
  g_autoptr(GDBusConnection) bus = connection ? g_object_ref (connection) : g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);

  g_assert_nonnull (bus);
  clarify_test_notifications_shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            (GDestroyNotify) g_variant_unref);
  clarify_test_notifications_removed = g_ptr_array_new_with_free_func (g_free);
  clarify_test_dbus_serve (bus, "org.gtk.Notifications", "/org/gtk/Notifications",
                           clarify_test_notifications_xml, clarify_test_notifications_method_call, NULL);
}

/* Whether the notification @id (a const char *) is shown now. */
static inline gboolean
clarify_test_notification_shown (gpointer id)
{
  return g_hash_table_contains (clarify_test_notifications_shown, id);
}

/* Whether the notification @id (a const char *) was ever withdrawn. */
static inline gboolean
clarify_test_notification_removed (gpointer id)
{
  for (guint i = 0; i < clarify_test_notifications_removed->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (clarify_test_notifications_removed, i), id))
        return TRUE;
    }

  return FALSE;
}

/* Puts this test program on a session bus of its own, where nothing is
 * activated: on a desktop with xdg-desktop-portal or gnome-keyring
 * installed, a first call on a shared bus starts the real service, and a
 * fake one could not own its name. Call before GTK is initialised. The
 * bus stays up until the program ends (taking it down would wait for the
 * application's connection). */
static inline void
clarify_test_dbus_private_session (void)
{
  static GTestDBus *bus;
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));

  g_assert_null (bus);
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  /* GTestDBus unsets it (against X11 autolaunch). */
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);
}

/* Whether @app has sent the notification @id by now: a marker it sends
 * after it arrives after it, on the same bus connection. */
static inline gboolean
clarify_test_notification_sent_by_now (GApplication *app,
                                       const char   *id)
{
  g_autoptr(GNotification) marker = g_notification_new ("marker");

  g_application_send_notification (app, "marker", marker);
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, "marker", CLARIFY_TEST_DBUS_WAIT_MS));
  g_hash_table_remove (clarify_test_notifications_shown, "marker");

  return clarify_test_notification_shown ((gpointer) id);
}
