/* test-notify-markup-ui.c: a question's text reaches a markup-reading
 * notification server as text
 *
 * GLib sends through org.freedesktop.Notifications here (as it does where
 * no org.gtk.Notifications runs, e.g. on KDE Plasma), to a fake server that
 * says it reads "body-markup". The body it receives must show the agent's
 * text literally: read as the markup it is, it gives back the question,
 * tags and all, not bold text or a huge font.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "clarify-test-backend.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"

#include "clarify-application-private.h"

#define WAIT_MS 15000
#define HOSTILE "<b>x</b> & <span size=\"50000\">big</span> &amp; a <<< b"

static ClarifyApplication *app;
static GHashTable *bodies;  /* summary → body, as Notify received them */
static GDBusMethodInvocation *held_capabilities;  /* GetCapabilities, not answered yet */

static void
fdo_method_call (GDBusConnection       *connection,
                 const char            *sender,
                 const char            *object_path,
                 const char            *interface_name,
                 const char            *method_name,
                 GVariant              *parameters,
                 GDBusMethodInvocation *invocation,
                 gpointer               user_data)
{
  static guint32 last_id;
  const char *summary, *body;

  /* The test answers when it has seen a notification go out meanwhile. */
  if (g_str_equal (method_name, "GetCapabilities"))
    {
      g_assert_null (held_capabilities);
      held_capabilities = g_object_ref (invocation);
    }
  else if (g_str_equal (method_name, "Notify"))
    {
      g_variant_get_child (parameters, 3, "&s", &summary);
      g_variant_get_child (parameters, 4, "&s", &body);
      g_hash_table_insert (bodies, g_strdup (summary), g_strdup (body));
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(u)", ++last_id));
    }
  else
    {
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
}

static const char fdo_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.Notifications'>"
  "    <method name='GetCapabilities'><arg type='as' direction='out'/></method>"
  "    <method name='Notify'>"
  "      <arg type='s' direction='in'/><arg type='u' direction='in'/><arg type='s' direction='in'/>"
  "      <arg type='s' direction='in'/><arg type='s' direction='in'/><arg type='as' direction='in'/>"
  "      <arg type='a{sv}' direction='in'/><arg type='i' direction='in'/>"
  "      <arg type='u' direction='out'/>"
  "    </method>"
  "    <method name='CloseNotification'><arg type='u' direction='in'/></method>"
  "  </interface>"
  "</node>";

static gboolean
has_body (gpointer summary)
{
  return g_hash_table_contains (bodies, summary);
}

static gboolean
capabilities_asked (gpointer data)
{
  return held_capabilities != NULL;
}

static void
answer_capabilities (const char * const *capabilities)
{
  g_dbus_method_invocation_return_value (held_capabilities, g_variant_new ("(^as)", capabilities));
  g_clear_object (&held_capabilities);
}

static void
add_hostile_request (ClarifyBackend *backend,
                     const char     *id)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, HOSTILE);

  clarify_request_add_question (request, question);
  g_assert_true (clarify_backend_add_request (backend, request));
}

/* While the server has not said what it reads (it may hang), a question's
 * notification still goes out at once, escaped: the safe side. */
static void
test_body_escaped (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Tests");
  g_autoptr(GError) error = NULL;
  g_autofree char *shown = NULL;
  const char *body;

  g_assert_true (clarify_test_wait_until (capabilities_asked, NULL, WAIT_MS));
  clarify_application_add_backend (app, backend);
  clarify_test_focus_elsewhere ();
  add_hostile_request (backend, "hostile");
  g_assert_true (clarify_test_wait_until (has_body, "Tests asks", WAIT_MS));
  g_assert_nonnull (held_capabilities);

  body = g_hash_table_lookup (bodies, "Tests asks");
  g_assert_cmpstr (body, ==,
                   "&lt;b&gt;x&lt;/b&gt; &amp; &lt;span size=\"50000\"&gt;big&lt;/span&gt; &amp;amp; a &lt;&lt;&lt; b");
  /* What a server reading markup shows: the question, character for character. */
  g_assert_true (pango_parse_markup (body, -1, 0, NULL, &shown, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (shown, ==, HOSTILE);

  clarify_application_remove_backend (app, backend);
}

/* A server that says it shows bodies as plain text gets the text as it is. */
static void
test_body_plain (void)
{
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Plain");
  const char *capabilities[] = { "body", "actions", NULL };

  g_autoptr(GVariant) id = NULL;

  /* A server slow to start answers late, past the bus's usual few seconds:
   * its answer still counts. */
  clarify_test_spin (3000);
  answer_capabilities (capabilities);
  /* The answer goes out on the application's own connection and comes back
   * on it before the reply to a call made after it; then its callback waits
   * in the main context. */
  id = g_dbus_connection_call_sync (g_application_get_dbus_connection (G_APPLICATION (app)),
                                    "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                    "GetId", NULL, NULL, G_DBUS_CALL_FLAGS_NONE, WAIT_MS, NULL, NULL);
  g_assert_nonnull (id);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  clarify_application_add_backend (app, backend);
  clarify_test_focus_elsewhere ();
  add_hostile_request (backend, "plain");
  g_assert_true (clarify_test_wait_until (has_body, "Plain asks", WAIT_MS));
  g_assert_cmpstr (g_hash_table_lookup (bodies, "Plain asks"), ==, HOSTILE);

  clarify_application_remove_backend (app, backend);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  clarify_test_log_init ();
  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");
  /* GLib's way out where no org.gtk.Notifications runs. */
  g_setenv ("GNOTIFICATION_BACKEND", "freedesktop", TRUE);
  clarify_test_gtk_init (&argc, &argv);

  bodies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  clarify_test_dbus_serve (bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                           fdo_xml, fdo_method_call, NULL);

  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/notify-markup/body-escaped", test_body_escaped);
  g_test_add_func ("/notify-markup/body-plain", test_body_plain);

  status = g_test_run ();

  g_clear_object (&app);
  g_clear_pointer (&bodies, g_hash_table_unref);
  clarify_test_remove_tree (home);
  return status;
}
