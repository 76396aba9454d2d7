/* clarify-test-keyring.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-test-keyring.h"

struct _ClarifyTestKeyring
{
  GDBusConnection *connection;
  guint            registration;
  GPtrArray       *held;     /* GDBusMethodInvocation */
  guint            n_calls;
  gboolean         refuse_all;
  gboolean         empty;
};

static const char service_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.Secret.Service'>"
  "    <method name='OpenSession'>"
  "      <arg type='s' name='algorithm' direction='in'/>"
  "      <arg type='v' name='input' direction='in'/>"
  "      <arg type='v' name='output' direction='out'/>"
  "      <arg type='o' name='result' direction='out'/>"
  "    </method>"
  "    <method name='SearchItems'>"
  "      <arg type='a{ss}' name='attributes' direction='in'/>"
  "      <arg type='ao' name='unlocked' direction='out'/>"
  "      <arg type='ao' name='locked' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static void
method_cb (GDBusConnection       *connection,
           const char            *sender,
           const char            *object_path,
           const char            *interface_name,
           const char            *method_name,
           GVariant              *parameters,
           GDBusMethodInvocation *invocation,
           gpointer               user_data)
{
  ClarifyTestKeyring *keyring = user_data;

  keyring->n_calls++;
  /* A keyring that works and holds nothing: a plain session, no items. */
  if (keyring->empty && g_str_equal (method_name, "OpenSession"))
    {
      g_dbus_method_invocation_return_value (invocation,
                                             g_variant_new ("(vo)", g_variant_new_string (""),
                                                            "/org/freedesktop/secrets/session/s1"));
      return;
    }
  if (keyring->empty)
    {
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(aoao)", NULL, NULL));
      return;
    }
  /* The call's own reference: kept until refused. */
  g_ptr_array_add (keyring->held, invocation);
  if (keyring->refuse_all)
    clarify_test_keyring_refuse_held (keyring);
}

ClarifyTestKeyring *
clarify_test_keyring_new (const char *bus_address)
{
  static const GDBusInterfaceVTable vtable = { method_cb, NULL, NULL, { 0 } };
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (service_xml, NULL);
  ClarifyTestKeyring *keyring = g_new0 (ClarifyTestKeyring, 1);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint32 owned;

  keyring->held = g_ptr_array_new_with_free_func (g_object_unref);
  keyring->connection =
    g_dbus_connection_new_for_address_sync (bus_address,
                                            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                            G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                            NULL, NULL, &error);
  g_assert_no_error (error);
  keyring->registration =
    g_dbus_connection_register_object (keyring->connection, "/org/freedesktop/secrets",
                                       info->interfaces[0], &vtable, keyring, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (keyring->connection, "org.freedesktop.DBus",
                                       "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", "org.freedesktop.secrets", 0),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(u)", &owned);
  g_assert_cmpuint (owned, ==, 1);  /* DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER */

  return keyring;
}

guint
clarify_test_keyring_get_n_calls (ClarifyTestKeyring *keyring)
{
  return keyring->n_calls;
}

guint
clarify_test_keyring_get_n_held (ClarifyTestKeyring *keyring)
{
  return keyring->held->len;
}

void
clarify_test_keyring_refuse_held (ClarifyTestKeyring *keyring)
{
  for (guint i = 0; i < keyring->held->len; i++)
    g_dbus_method_invocation_return_dbus_error (g_object_ref (g_ptr_array_index (keyring->held, i)),
                                                "org.freedesktop.DBus.Error.Failed",
                                                "This keyring is broken on purpose");
  g_ptr_array_set_size (keyring->held, 0);
}

void
clarify_test_keyring_refuse_all (ClarifyTestKeyring *keyring)
{
  keyring->refuse_all = TRUE;
  clarify_test_keyring_refuse_held (keyring);
}

void
clarify_test_keyring_answer_empty (ClarifyTestKeyring *keyring)
{
  keyring->empty = TRUE;
}

void
clarify_test_keyring_free (ClarifyTestKeyring *keyring)
{
  g_dbus_connection_unregister_object (keyring->connection, keyring->registration);
  g_clear_object (&keyring->connection);
  g_clear_pointer (&keyring->held, g_ptr_array_unref);
  g_free (keyring);
}
