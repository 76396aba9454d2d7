/* test-claude-e2e-start.c: the real Claude Code's hooks when Clarify cannot
 * be reached, and when it does not run yet
 *
 * Clarify's hooks, put in place by `clarify setup claude-code --user`, run
 * the built `clarify hook claude-code`. When the session bus it is given
 * serves nobody, the terminal asks alone, as it would without Clarify.
 * When nobody owns Clarify's name on a bus whose service folder has
 * Clarify's D-Bus service file (as an installed system has, pointing at
 * the built binary here), the hook's name watch has the bus start
 * `clarify --gapplication-service`, and the started Clarify gets the
 * question; a fake StatusNotifierWatcher on that bus lets the test see
 * that process's pending questions through its tray menu.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include <gio/gunixsocketaddress.h>

#include "clarify-dbus-backend.h"
#include "clarify-test-claude-e2e.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"

#define SLOW_MS CLARIFY_TEST_CLAUDE_SLOW_MS
#define WAIT_MS CLARIFY_TEST_E2E_WAIT_MS

#define LICENSE "Which license should the project use?"
#define LICENSE_INPUT                                                                                         \
  "{\"questions\":[{\"question\":\"" LICENSE "\",\"header\":\"License\",\"multiSelect\":false,"               \
  "\"options\":[{\"label\":\"MIT\",\"description\":\"Short and permissive\"},"                                \
  "{\"label\":\"Apache-2.0\",\"description\":\"Permissive, with a patent grant\"}]}]}"
#define LICENSE_ANSWERED                                                                                      \
  "Your questions have been answered: \"" LICENSE "\"=\"Apache-2.0\". "                                       \
  "You can now continue with these answers in mind."

static const ClarifyTestClaudeCall license_script[] = { { "AskUserQuestion", LICENSE_INPUT } };

/* Picks the second license with the terminal's own keys. */
static void
answer_in_terminal (ClarifyTestClaude *claude)
{
  clarify_test_e2e_see (claude, LICENSE);
  clarify_test_claude_send_keys (claude, "Down", NULL);
  clarify_test_e2e_see (claude, "❯ 2. Apache-2.0");
  clarify_test_claude_send_keys (claude, "Enter", NULL);
}

static void
assert_answered_in_terminal (ClarifyTestClaude *claude)
{
  ClarifyTestClaudeApi *api = clarify_test_claude_get_api (claude);
  const ClarifyTestClaudeResult *result = clarify_test_claude_api_wait_for_result (api, 1, SLOW_MS);

  g_assert_nonnull (result);
  g_assert_false (result->is_error);
  g_assert_cmpstr (result->content, ==, LICENSE_ANSWERED);
  clarify_test_e2e_see (claude, "All done.");
  g_assert_cmpuint (clarify_test_claude_api_get_n_results (api), ==, 1);
}

/* Clarify unreachable ------------------------------------------------------------ */

static gboolean
hang_up_cb (GSocketService    *service,
            GSocketConnection *connection,
            GObject           *source,
            gpointer           user_data)
{
  (*(guint *) user_data)++;
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

static gboolean
is_positive (gpointer data)
{
  return *(guint *) data > 0;
}

/* 6. The hook's session bus serves nobody: the terminal asks alone. */
static void
test_unreachable (void)
{
  static const char *projects[] = { "offline", NULL };
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  g_autoptr(GSocketService) service = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GPtrArray) requests = NULL;
  g_autoptr(GPtrArray) hooks = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *bus_address = NULL;
  g_autofree char *screen = NULL;
  g_autofree char *lower = NULL;
  ClarifyTestClaude *claude;
  guint n_attempts = 0;

  if (home == NULL)
    return;
  /* Clarify runs, on the bus the hook is not given. */
  clarify_test_e2e_app ();

  /* A socket where something answers, but no bus: each connection is
   * closed at once, so the hook's attempts are counted. */
  dir = g_dir_make_tmp ("clarify-no-bus-XXXXXX", NULL);
  path = g_build_filename (dir, "bus", NULL);
  address = g_unix_socket_address_new (path);
  service = g_socket_service_new ();
  g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_DEFAULT, NULL, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", G_CALLBACK (hang_up_cb), &n_attempts);
  g_socket_service_start (service);
  bus_address = g_strconcat ("unix:path=", path, NULL);
  clarify_test_claude_home_setenv (home, "DBUS_SESSION_BUS_ADDRESS", bus_address);

  claude = clarify_test_claude_start (home, "offline", license_script, G_N_ELEMENTS (license_script), "Pick one");
  clarify_test_e2e_see (claude, LICENSE);
  /* The hook ran, and tried that bus. */
  g_assert_true (clarify_test_wait_until (is_positive, &n_attempts, SLOW_MS));
  answer_in_terminal (claude);
  assert_answered_in_terminal (claude);

  /* Nothing reached Clarify, and the terminal shows no trace of the hook. */
  requests = clarify_test_e2e_requests_of (claude);
  hooks = clarify_test_e2e_hook_calls_of (claude);
  g_assert_cmpuint (requests->len, ==, 0);
  g_assert_cmpuint (hooks->len, ==, 0);
  screen = clarify_test_claude_capture (claude);
  lower = g_utf8_strdown (screen, -1);
  g_assert_null (strstr (lower, "hook"));
  g_assert_null (strstr (lower, "error"));
  g_assert_cmpuint (n_attempts, ==, 1);

  clarify_test_e2e_assert_no_strays (claude);
  clarify_test_claude_stop (claude);
  clarify_test_claude_home_free (home);
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  clarify_test_remove_tree (dir);
}

/* Clarify not running ------------------------------------------------------------- */

#define ITEM_PATH      "/StatusNotifierItem"
#define ITEM_INTERFACE "org.kde.StatusNotifierItem"
#define MENU_PATH      "/MenuBar"
#define MENU_INTERFACE "com.canonical.dbusmenu"

static const char watcher_xml[] =
  "<node>"
  "  <interface name='org.kde.StatusNotifierWatcher'>"
  "    <method name='RegisterStatusNotifierItem'>"
  "      <arg type='s' name='service' direction='in'/>"
  "    </method>"
  "  </interface>"
  "</node>";

/* The connection that registered a tray item, once one did. */
static char *registered;

static void
watcher_method_call (GDBusConnection       *connection,
                     const char            *sender,
                     const char            *object_path,
                     const char            *interface_name,
                     const char            *method_name,
                     GVariant              *parameters,
                     GDBusMethodInvocation *invocation,
                     gpointer               user_data)
{
  g_free (registered);
  registered = g_strdup (sender);
  g_dbus_method_invocation_return_value (invocation, NULL);
}

/* The titles of the notifications the started Clarify sent. */
static GPtrArray *notified;

static void
notifications_method_call (GDBusConnection       *connection,
                           const char            *sender,
                           const char            *object_path,
                           const char            *interface_name,
                           const char            *method_name,
                           GVariant              *parameters,
                           GDBusMethodInvocation *invocation,
                           gpointer               user_data)
{
  g_autoptr(GVariant) notification = NULL;
  const char *id, *title, *body = "";

  if (g_str_equal (method_name, "AddNotification"))
    {
      g_variant_get (parameters, "(&s&s@a{sv})", NULL, &id, &notification);
      /* Not the one-time question whether to start at login (a Clarify
       * on a fresh config asks it; test-application checks it). */
      if (!g_str_equal (id, "start-at-login") &&
          g_variant_lookup (notification, "title", "&s", &title))
        {
          g_variant_lookup (notification, "body", "&s", &body);
          g_ptr_array_add (notified, g_strdup_printf ("%s: %s", title, body));
        }
    }
  g_dbus_method_invocation_return_value (invocation, NULL);
}

static gint64 name_owned_at;

static void
name_appeared_cb (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         user_data)
{
  name_owned_at = g_get_monotonic_time ();
}

static gboolean
has_registered (gpointer data)
{
  return registered != NULL;
}

static GVariant *
call (GDBusConnection    *bus,
      const char         *name,
      const char         *path,
      const char         *interface,
      const char         *method,
      GVariant           *parameters,
      const GVariantType *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply = g_dbus_connection_call_sync (bus, name, path, interface, method, parameters, reply_type,
                                                 G_DBUS_CALL_FLAGS_NO_AUTO_START, WAIT_MS, NULL, &error);

  g_assert_no_error (error);
  return reply;
}

/* What the started Clarify's tray shows: its status, then its menu's
 * labels, "|"-separated ("Active|Show Clarify|Quit"). */
static char *
describe_tray (GDBusConnection *bus)
{
  g_autoptr(GVariant) status = call (bus, registered, ITEM_PATH, "org.freedesktop.DBus.Properties", "Get",
                                     g_variant_new ("(ss)", ITEM_INTERFACE, "Status"), G_VARIANT_TYPE ("(v)"));
  g_autoptr(GVariant) layout = call (bus, registered, MENU_PATH, MENU_INTERFACE, "GetLayout",
                                     g_variant_new ("(ii^as)", 0, -1, (const char * const[]) { NULL }),
                                     G_VARIANT_TYPE ("(u(ia{sv}av))"));
  g_autoptr(GVariant) value = NULL;
  g_autoptr(GVariantIter) children = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  GVariant *child;

  g_variant_get (status, "(v)", &value);
  g_string_append (out, g_variant_get_string (value, NULL));
  g_variant_get (layout, "(u(ia{sv}av))", NULL, NULL, NULL, &children);
  while (g_variant_iter_next (children, "v", &child))
    {
      g_autoptr(GVariant) props = NULL;
      const char *label = NULL;

      g_variant_get (child, "(i@a{sv}av)", NULL, &props, NULL);
      if (g_variant_lookup (props, "label", "&s", &label))
        g_string_append_printf (out, "|%s", label);
      g_variant_unref (child);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

typedef struct
{
  GDBusConnection *bus;
  const char      *expected;
} TrayWait;

static gboolean
tray_shows (gpointer data)
{
  TrayWait *wait = data;
  g_autofree char *tray = describe_tray (wait->bus);

  return g_str_equal (tray, wait->expected);
}

static void
assert_tray (GDBusConnection *bus,
             const char      *expected)
{
  TrayWait wait = { bus, expected };
  g_autofree char *tray = NULL;

  if (clarify_test_wait_until (tray_shows, &wait, WAIT_MS))
    return;
  tray = describe_tray (bus);
  g_assert_cmpstr (tray, ==, expected);
}

/* The command line of process @pid, its arguments joined by spaces. */
static char *
command_line (guint32 pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%u/cmdline", pid);
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  for (gsize i = 0; i + 1 < length; i++)
    if (contents[i] == '\0')
      contents[i] = ' ';
  return g_steal_pointer (&contents);
}

/* A session bus of its own, as the test process's environment sees it
 * before and after: GTestDBus unsets the display and points the session
 * bus at itself, which the later homes would inherit. Its daemon starts
 * with the test's environment, display included, and passes it on to
 * what it activates. */
static GTestDBus *
second_bus_up (const char *service_dir)
{
  static const char *kept[] = { "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR" };
  char *saved[G_N_ELEMENTS (kept)] = { NULL };
  /* Static: only stopped, never finalized (finalizing waits for the shared
   * connection to go), it stays reachable, not a leak to LeakSanitizer. */
  static GTestDBus *bus;

  bus = g_test_dbus_new (G_TEST_DBUS_NONE);

  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    saved[i] = g_strdup (g_getenv (kept[i]));
  g_test_dbus_add_service_dir (bus, service_dir);
  g_test_dbus_up (bus);
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    {
      if (saved[i] != NULL)
        g_setenv (kept[i], saved[i], TRUE);
      else
        g_unsetenv (kept[i]);
      g_free (saved[i]);
    }
  return bus;
}

/* 7. Clarify does not run: the hook has the bus start it, and the started
 * Clarify asks; the terminal answers first, and it withdraws the question. */
static void
test_started_by_hook (void)
{
  static const char *projects[] = { "cold", NULL };
  ClarifyTestClaudeHome *home = clarify_test_e2e_home_new (projects);
  g_autofree char *root = NULL;
  g_autofree char *services = NULL;
  g_autofree char *config = NULL;
  g_autofree char *service = NULL;
  g_autofree char *mcp_ini = NULL;
  g_autofree char *mcp_ini_path = NULL;
  g_autofree char *service_path = NULL;
  g_autofree char *expected_command = NULL;
  g_autofree char *started_command = NULL;
  g_autofree char *question = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) owner = NULL;
  g_autoptr(GVariant) pid = NULL;
  g_autoptr(GPtrArray) requests = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyTestClaude *claude;
  GTestDBus *second;
  const char *owner_name;
  guint32 started_pid;
  guint watcher_id, notifications_id, name_watch_id;
  gint64 on_screen;

  if (home == NULL)
    return;
  clarify_test_e2e_app ();

  /* Clarify's service file, as installed, pointing at the built binary;
   * a config dir of its own (another MCP port than this process's). */
  root = g_dir_make_tmp ("clarify-started-XXXXXX", NULL);
  services = g_build_filename (root, "services", NULL);
  config = g_build_filename (root, "config", "clarify", NULL);
  g_assert_cmpint (g_mkdir_with_parents (services, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  mcp_ini = g_strdup_printf ("[mcp]\nport=%u\n", clarify_test_free_port ());
  mcp_ini_path = g_build_filename (config, "mcp.ini", NULL);
  g_assert_true (g_file_set_contents (mcp_ini_path, mcp_ini, -1, NULL));
  service = g_strdup_printf ("[D-BUS Service]\nName=%s\nExec=/usr/bin/env XDG_CONFIG_HOME=%s/config %s --gapplication-service\n",
                             CLARIFY_DBUS_NAME, root, clarify_test_e2e_binary ());
  service_path = g_build_filename (services, CLARIFY_DBUS_NAME ".service", NULL);
  g_assert_true (g_file_set_contents (service_path, service, -1, NULL));
  second = second_bus_up (services);

  /* A desktop with a tray, so that the started Clarify shows its questions
   * where the test can read them. */
  bus = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (second),
                                                G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                NULL, NULL, &error);
  g_assert_no_error (error);
  watcher_id = clarify_test_dbus_serve (bus, "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                                        watcher_xml, watcher_method_call, NULL);
  notified = g_ptr_array_new_with_free_func (g_free);
  notifications_id = clarify_test_dbus_serve (bus, "org.gtk.Notifications", "/org/gtk/Notifications",
                                              clarify_test_notifications_xml, notifications_method_call, NULL);
  clarify_test_claude_home_setenv (home, "DBUS_SESSION_BUS_ADDRESS", g_test_dbus_get_bus_address (second));

  name_watch_id = g_bus_watch_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                  name_appeared_cb, NULL, NULL, NULL);
  claude = clarify_test_claude_start (home, "cold", license_script, G_N_ELEMENTS (license_script), "Pick one");
  clarify_test_e2e_see (claude, LICENSE);
  on_screen = g_get_monotonic_time ();

  /* The bus started Clarify from the service file, and it owns its name. */
  g_assert_true (clarify_test_wait_until (has_registered, NULL, SLOW_MS));
  owner = call (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                g_variant_new ("(s)", CLARIFY_DBUS_NAME), G_VARIANT_TYPE ("(s)"));
  g_variant_get (owner, "(&s)", &owner_name);
  g_assert_cmpstr (owner_name, ==, registered);
  pid = call (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
              "GetConnectionUnixProcessID", g_variant_new ("(s)", owner_name), G_VARIANT_TYPE ("(u)"));
  g_variant_get (pid, "(u)", &started_pid);
  started_command = command_line (started_pid);
  expected_command = g_strdup_printf ("%s --gapplication-service", clarify_test_e2e_binary ());
  g_assert_cmpstr (started_command, ==, expected_command);

  /* It has the question (the hook reached it in time), and this process's
   * Clarify, on another bus, does not. */
  question = g_strdup_printf ("NeedsAttention|Show Clarify|Claude Code: %s|Quit", LICENSE);
  assert_tray (bus, question);
  g_test_message ("question seen on the terminal → the started Clarify owns its name %+.0f ms, "
                  "its tray shows the question %+.0f ms",
                  clarify_test_e2e_ms (on_screen, name_owned_at), clarify_test_e2e_ms (on_screen, g_get_monotonic_time ()));
  /* Nothing of it had the focus: a notification too. */
  g_assert_cmpuint (notified->len, ==, 1);
  /* "title: body" */
  g_assert_cmpstr (notified->pdata[0], ==, "Claude Code asks: " LICENSE);
  requests = clarify_test_e2e_requests_of (claude);
  g_assert_cmpuint (requests->len, ==, 0);

  /* The terminal answers first; the started Clarify withdraws it. */
  answer_in_terminal (claude);
  assert_tray (bus, "Active|Show Clarify|Quit");
  assert_answered_in_terminal (claude);

  clarify_test_e2e_assert_no_strays (claude);
  clarify_test_claude_stop (claude);
  clarify_test_claude_home_free (home);

  /* It was started for the test: it goes with it. */
  g_assert_cmpint (kill ((pid_t) started_pid, SIGTERM), ==, 0);
  g_assert_true (clarify_test_wait_until (clarify_test_e2e_process_gone, GINT_TO_POINTER ((int) started_pid), WAIT_MS));
  g_bus_unwatch_name (name_watch_id);
  g_bus_unown_name (watcher_id);
  g_bus_unown_name (notifications_id);
  g_clear_pointer (&notified, g_ptr_array_unref);
  g_dbus_connection_close_sync (bus, NULL, NULL);
  g_test_dbus_stop (second);
  clarify_test_remove_tree (root);
  g_clear_pointer (&registered, g_free);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  clarify_test_e2e_init (&argc, &argv);

  g_test_add_func ("/claude-e2e/unreachable", test_unreachable);
  g_test_add_func ("/claude-e2e/started-by-hook", test_started_by_hook);

  status = g_test_run ();
  clarify_test_e2e_shutdown ();
  return status;
}
