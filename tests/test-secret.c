/* test-secret.c: secrets asked for without blocking, where they go
 * without a keyring, and a keyring that never answers
 *
 * A fake org.freedesktop.secrets on a bus of the test's own holds every
 * call until the test's main loop has turned many times, then refuses it:
 * the asynchronous calls must let the loop turn meanwhile (a blocking call
 * would wait on a service that only the blocked loop could answer), and
 * end in the fallback the user chose. Told to hang, it never answers:
 * `clarify`'s blocking calls give up and say so. A fake Secret portal
 * that never answers stands for a Flatpak's: calls to it end when their
 * caller cancels them or at the deadline, and the app does not hang.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libsecret/secret.h>
#include <string.h>

#include "clarify-found-agent.h"
#include "clarify-mcp-server.h"
#include "clarify-secret.h"
#include "clarify-test-cli.h"
#include "clarify-test-keyring.h"
#include "clarify-test-log.h"

/* How often the loop must turn while the service holds a call. */
#define TURNS_WHILE_HELD 200

typedef struct
{
  GTestDBus          *bus;
  ClarifyTestKeyring *keyring;
  guint               turns;      /* of the main loop while a call is held */
  guint               turn_source;
  gboolean            hang;       /* never answer: a keyring that hangs */
  char               *config_home;
} Fixture;

/* Counts the loop's turns while the service holds a call; after enough,
 * the service answers as a broken keyring would. */
static gboolean
turn_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  if (fixture->hang || clarify_test_keyring_get_n_held (fixture->keyring) == 0)
    return G_SOURCE_CONTINUE;

  if (++fixture->turns < TURNS_WHILE_HELD)
    return G_SOURCE_CONTINUE;

  clarify_test_keyring_refuse_held (fixture->keyring);

  return G_SOURCE_CONTINUE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->config_home = g_dir_make_tmp ("clarify-secret-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_CONFIG_HOME", fixture->config_home, TRUE);
  g_unsetenv ("CLARIFY_SECRET_STORE");

  fixture->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (fixture->bus);
  /* The service has a connection of its own, served by this thread's loop. */
  fixture->keyring = clarify_test_keyring_new (g_test_dbus_get_bus_address (fixture->bus));

  fixture->turn_source = g_idle_add (turn_cb, fixture);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_handle_id (&fixture->turn_source, g_source_remove);
  /* libsecret keeps the service, and with it the bus, for the process. */
  secret_service_disconnect ();
  g_clear_pointer (&fixture->keyring, clarify_test_keyring_free);
  g_test_dbus_down (fixture->bus);
  g_clear_object (&fixture->bus);
  remove_tree (fixture->config_home);
  g_clear_pointer (&fixture->config_home, g_free);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);

  return *slot;
}

/* A store, a lookup and a clear each wait for the slow service while the
 * loop turns, then fall back to the file, readable only by the user. */
static void
test_slow_service (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) stored = NULL;
  g_autoptr(GAsyncResult) looked_up = NULL;
  g_autoptr(GAsyncResult) cleared = NULL;
  g_autoptr(GAsyncResult) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = clarify_secret_get_file_path ();
  g_autofree char *secret = NULL;
  g_autofree char *gone = NULL;
  GStatBuf st;

  clarify_secret_store_async ("connection:slow", "Slow", "pa55", NULL, result_cb, &stored);
  /* Nothing was decided while the call was on its way. */
  g_assert_null (stored);
  g_assert_true (clarify_secret_store_finish (wait_for_result (&stored), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (clarify_test_keyring_get_n_calls (fixture->keyring), >, 0);
  g_assert_cmpuint (fixture->turns, >=, TURNS_WHILE_HELD);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  fixture->turns = 0;
  clarify_secret_lookup_async ("connection:slow", NULL, result_cb, &looked_up);
  g_assert_null (looked_up);
  secret = clarify_secret_lookup_finish (wait_for_result (&looked_up), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (secret, ==, "pa55");
  g_assert_cmpuint (fixture->turns, >=, TURNS_WHILE_HELD);

  fixture->turns = 0;
  clarify_secret_clear_async ("connection:slow", NULL, result_cb, &cleared);
  g_assert_true (clarify_secret_clear_finish (wait_for_result (&cleared), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fixture->turns, >=, TURNS_WHILE_HELD);

  clarify_secret_lookup_async ("connection:slow", NULL, result_cb, &again);
  gone = clarify_secret_lookup_finish (wait_for_result (&again), &error);
  g_assert_no_error (error);
  g_assert_null (gone);
}

static void
check_service_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  *(int *) user_data = clarify_secret_check_service_finish (result) ? 1 : 0;
}

/* The user chose not to keep secrets on disk: they live in memory for
 * this run, and an older copy in the file goes. */
static void
test_memory_fallback (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GAsyncResult) stored_old = NULL;
  g_autoptr(GAsyncResult) moved = NULL;
  g_autoptr(GAsyncResult) stored = NULL;
  g_autoptr(GAsyncResult) looked_up = NULL;
  g_autoptr(GAsyncResult) cleared = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = clarify_secret_get_file_path ();
  g_autofree char *contents = NULL;
  g_autofree char *secret = NULL;
  int answers = -1;

  /* The window asks this to decide whether to show its banner. */
  clarify_secret_check_service_async (NULL, check_service_cb, &answers);
  while (answers < 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (answers, ==, 0);

  g_assert_cmpint (clarify_secret_get_fallback (), ==, CLARIFY_SECRET_FALLBACK_UNSET);
  clarify_secret_store_async ("connection:mem", NULL, "old", NULL, result_cb, &stored_old);
  g_assert_true (clarify_secret_store_finish (wait_for_result (&stored_old), &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "old"));
  g_clear_pointer (&contents, g_free);

  g_assert_true (clarify_secret_set_fallback (CLARIFY_SECRET_FALLBACK_MEMORY, &error));
  g_assert_no_error (error);
  g_assert_cmpint (clarify_secret_get_fallback (), ==, CLARIFY_SECRET_FALLBACK_MEMORY);

  /* What the file held moved to memory, and the file went. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  clarify_secret_lookup_async ("connection:mem", NULL, result_cb, &moved);
  secret = clarify_secret_lookup_finish (wait_for_result (&moved), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (secret, ==, "old");
  g_clear_pointer (&secret, g_free);

  clarify_secret_store_async ("connection:mem", NULL, "n3w", NULL, result_cb, &stored);
  g_assert_true (clarify_secret_store_finish (wait_for_result (&stored), &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  clarify_secret_lookup_async ("connection:mem", NULL, result_cb, &looked_up);
  secret = clarify_secret_lookup_finish (wait_for_result (&looked_up), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (secret, ==, "n3w");

  clarify_secret_clear_async ("connection:mem", NULL, result_cb, &cleared);
  g_assert_true (clarify_secret_clear_finish (wait_for_result (&cleared), &error));
  g_assert_no_error (error);
  g_assert_true (clarify_secret_set_fallback (CLARIFY_SECRET_FALLBACK_UNSET, &error));
  g_assert_cmpint (clarify_secret_get_fallback (), ==, CLARIFY_SECRET_FALLBACK_UNSET);
}

/* The MCP endpoint's token: read, made and stored while the loop turns;
 * the endpoint made with it starts without asking the keyring again. */
static void
test_mcp_token (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (0);
  g_autoptr(GAsyncResult) made = NULL;
  g_autoptr(GAsyncResult) again = NULL;
  g_autoptr(ClarifyBackend) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = clarify_secret_get_file_path ();
  g_autofree char *stored = NULL;
  g_autofree char *token = NULL;
  guint n_calls;

  clarify_mcp_server_new_async (connection, NULL, result_cb, &made);
  g_assert_null (made);
  server = clarify_mcp_server_new_finish (wait_for_result (&made), &error);
  g_assert_no_error (error);
  g_assert_true (CLARIFY_IS_MCP_SERVER (server));
  /* Both the lookup and the store waited for the slow service. */
  g_assert_cmpuint (clarify_test_keyring_get_n_calls (fixture->keyring), >, 0);
  g_assert_cmpuint (fixture->turns, >=, TURNS_WHILE_HELD);

  /* Kept where the slow keyring sent it: the fallback file. */
  g_assert_true (g_file_get_contents (path, &stored, NULL, NULL));

  n_calls = clarify_test_keyring_get_n_calls (fixture->keyring);
  clarify_backend_start (server);
  g_assert_cmpuint (clarify_backend_get_state (server), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_cmpuint (clarify_test_keyring_get_n_calls (fixture->keyring), ==, n_calls);
  g_assert_cmpuint (clarify_test_keyring_get_n_held (fixture->keyring), ==, 0);
  clarify_backend_stop (server);

  /* The next start reads the same one. */
  fixture->turns = 0;
  clarify_mcp_token_ensure_async (NULL, result_cb, &again);
  g_assert_null (again);
  token = clarify_mcp_token_ensure_finish (wait_for_result (&again), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fixture->turns, >=, TURNS_WHILE_HELD);
  /* Made once (32 random bytes, base64url): the one in the file. */
  g_assert_cmpuint (strlen (token), ==, 43);
  g_assert_nonnull (strstr (stored, token));
}

/* The secret @key as the fallback file holds it, or NULL. */
static char *
file_secret (const char *key)
{
  g_autofree char *path = clarify_secret_get_file_path ();
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();

  if (!g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, NULL))
    return NULL;

  return g_key_file_get_string (keyfile, key, "secret", NULL);
}

/* "Add Clarify" reads (here: makes) the MCP token while the loop turns, so
 * a slow keyring cannot freeze the window that offers it; the entry is
 * written once the keyring answered. */
static void
test_add_clarify (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *config = g_build_filename (fixture->config_home, "opencode.json", NULL);
  g_autoptr(ClarifyFoundAgent) agent = clarify_found_agent_new (CLARIFY_FOUND_ADD_CLARIFY, "opencode", config, FALSE);
  g_autoptr(GAsyncResult) done = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *token = NULL;
  g_autofree char *bearer = NULL;

  clarify_found_agent_set_up_async (agent, NULL, NULL, result_cb, &done);
  g_assert_null (done);
  g_assert_false (clarify_found_agent_get_done (agent));
  g_assert_true (clarify_found_agent_set_up_finish (agent, wait_for_result (&done), &error));
  g_assert_no_error (error);
  /* The loop kept turning while the keyring held the calls. */
  g_assert_cmpuint (clarify_test_keyring_get_n_calls (fixture->keyring), >, 0);
  g_assert_cmpuint (fixture->turns, >=, TURNS_WHILE_HELD);
  g_assert_true (clarify_found_agent_get_done (agent));

  /* The token made then, where the refusing keyring sent it, in the entry. */
  token = file_secret ("mcp-token");
  g_assert_nonnull (token);
  bearer = g_strdup_printf ("\"Bearer %s\"", token);
  g_assert_true (g_file_get_contents (config, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, bearer));
}

/* `clarify --mcp-info` against a keyring that never answers: it gives up
 * after its own deadline, names the keyring, exits non-zero, and makes no
 * token in the keyring's place. */
static void
test_cli_no_answer (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  const char *argv[] = { g_getenv ("CLARIFY_BINARY"), "--mcp-info", NULL };
  g_autoptr(ClarifyTestRun) run = NULL;
  /* The child's, from the environment (this process's is cached). */
  g_autofree char *path = g_build_filename (fixture->config_home, "clarify", "secrets", NULL);

  g_assert_nonnull (argv[0]);
  fixture->hang = TRUE;
  run = clarify_test_run_spawn (launcher, NULL, argv);
  /* Its deadline is 20 s; GDBus's own (25 s) would end in the file. */
  g_assert_cmpint (clarify_test_run_finish (run, clarify_test_scaled_ms (60000)), ==, 1);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "The keyring did not answer within 20 seconds (the Secret Service, "
                                      "org.freedesktop.secrets): it may wait to be unlocked, or be stuck."));
  g_assert_cmpuint (clarify_test_keyring_get_n_calls (fixture->keyring), >, 0);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* The app's own calls against a keyring that never answers: a lookup and
 * a store made at once (the store waits behind the first call) each end at
 * the deadline with the keyring named, and nothing goes to the file. */
static void
test_async_no_answer (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GAsyncResult) looked_up = NULL;
  g_autoptr(GAsyncResult) stored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->config_home, "clarify", "secrets", NULL);
  char *secret;

  fixture->hang = TRUE;
  clarify_secret_lookup_async ("connection:agent", NULL, result_cb, &looked_up);
  clarify_secret_store_async ("connection:other", "Clarify test", "hunter2", NULL, result_cb, &stored);

  secret = clarify_secret_lookup_finish (wait_for_result (&looked_up), &error);
  g_assert_null (secret);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "The keyring did not answer within 20 seconds (the Secret Service, "));
  g_clear_error (&error);
  g_assert_false (clarify_secret_store_finish (wait_for_result (&stored), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "The keyring did not answer within 20 seconds"));
  g_assert_cmpuint (clarify_test_keyring_get_n_calls (fixture->keyring), >, 0);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* `clarify set-password NAME` removing a password a working keyring does
 * not hold: the keyring answers without an error, and clarify says it is
 * removed, with no critical on the way. */
static void
test_cli_empty_keyring (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE);
  const char *argv[] = { g_getenv ("CLARIFY_BINARY"), "set-password", "gone", NULL };
  g_autoptr(ClarifyTestRun) run = NULL;

  g_assert_nonnull (argv[0]);
  fixture->hang = TRUE;
  clarify_test_keyring_answer_empty (fixture->keyring);
  g_subprocess_launcher_setenv (launcher, "G_DEBUG", "fatal-criticals", TRUE);
  run = clarify_test_run_spawn (launcher, "\n", argv);
  g_assert_cmpint (clarify_test_run_finish (run, clarify_test_scaled_ms (30000)), ==, 0);
  g_assert_cmpstr (run->out, ==, "Removed the password of “gone”.\n");
  g_assert_null (strstr (run->err, "CRITICAL"));
  g_assert_cmpuint (clarify_test_keyring_get_n_calls (fixture->keyring), >, 0);
}

/* A Secret portal (what libsecret uses in a Flatpak or a Snap) that takes
 * every RetrieveSecret and never sends its Response. It runs on a thread
 * of its own: libsecret asks for its version with a blocking call. */
typedef struct
{
  char          *bus_address;
  GMainContext  *context;
  GMainLoop     *loop;
  gint           n_calls;
  gint           owned;
} FakePortal;

static const char fake_portal_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.portal.Secret'>"
  "    <method name='RetrieveSecret'>"
  "      <arg type='h' name='fd' direction='in'/>"
  "      <arg type='a{sv}' name='options' direction='in'/>"
  "      <arg type='o' name='handle' direction='out'/>"
  "    </method>"
  "    <property name='version' type='u' access='read'/>"
  "  </interface>"
  "</node>";

static void
fake_portal_method_call (GDBusConnection       *connection,
                         const char            *sender,
                         const char            *object_path,
                         const char            *interface_name,
                         const char            *method_name,
                         GVariant              *parameters,
                         GDBusMethodInvocation *invocation,
                         gpointer               user_data)
{
  FakePortal *portal = user_data;

  g_atomic_int_inc (&portal->n_calls);
  /* The test's loop waits for that. */
  g_main_context_wakeup (NULL);
  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(o)", "/org/freedesktop/portal/desktop/request/1/never"));
}

static GVariant *
fake_portal_get_property (GDBusConnection  *connection,
                          const char       *sender,
                          const char       *object_path,
                          const char       *interface_name,
                          const char       *property_name,
                          GError          **error,
                          gpointer          user_data)
{
  return g_variant_new_uint32 (1);
}

static gpointer
fake_portal_thread (gpointer data)
{
  static const GDBusInterfaceVTable vtable = { fake_portal_method_call, fake_portal_get_property, NULL };
  FakePortal *portal = data;
  g_autoptr(GDBusNodeInfo) node = g_dbus_node_info_new_for_xml (fake_portal_xml, NULL);
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  g_main_context_push_thread_default (portal->context);
  connection = g_dbus_connection_new_for_address_sync (portal->bus_address,
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_register_object (connection, "/org/freedesktop/portal/desktop", node->interfaces[0],
                                     &vtable, portal, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", "org.freedesktop.portal.Desktop", 0),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_atomic_int_set (&portal->owned, TRUE);
  g_main_context_wakeup (NULL);

  g_main_loop_run (portal->loop);
  g_main_context_pop_thread_default (portal->context);

  return NULL;
}

static gboolean
fake_portal_is_owned (gpointer data)
{
  return g_atomic_int_get (&((FakePortal *) data)->owned);
}

static gboolean
fake_portal_was_called (gpointer data)
{
  return g_atomic_int_get (&((FakePortal *) data)->n_calls) > 0;
}

static FakePortal *
fake_portal_new (const char *bus_address)
{
  FakePortal *portal = g_new0 (FakePortal, 1);

  portal->bus_address = g_strdup (bus_address);
  portal->context = g_main_context_new ();
  portal->loop = g_main_loop_new (portal->context, FALSE);
  g_thread_unref (g_thread_new ("fake-secret-portal", fake_portal_thread, portal));
  g_assert_true (clarify_test_loop_until (fake_portal_is_owned, portal, clarify_test_scaled_ms (10000)));

  return portal;
}

/* Where the bus of the test below stays, reachable, until the process ends. */
static GTestDBus *kept_bus;

static void
run_portal_no_answer (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("clarify-secret-portal-XXXXXX", &error);
  g_autofree char *config_home = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *path = NULL;
  GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) cancelled = NULL;
  g_autoptr(GAsyncResult) timed_out = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  const char *argv[] = { g_getenv ("CLARIFY_BINARY"), "--mcp-info", NULL };
  g_autoptr(ClarifyTestRun) run = NULL;
  FakePortal *portal;
  char *secret;

  g_assert_no_error (error);
  g_assert_nonnull (argv[0]);
  g_assert_null (kept_bus);
  config_home = g_build_filename (home, "config", NULL);
  data_home = g_build_filename (home, "data", NULL);
  path = g_build_filename (config_home, "clarify", "secrets", NULL);
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_unsetenv ("CLARIFY_SECRET_STORE");
  /* libsecret 0.20 goes through the Secret portal in a Snap as in a Flatpak. */
  g_setenv ("SNAP_NAME", "clarify-test", TRUE);
  g_test_dbus_up (bus);
  portal = fake_portal_new (g_test_dbus_get_bus_address (bus));

  /* Cancelled while libsecret waits for the portal's Response: the caller
   * hears at once. Cancelling libsecret's own call here hangs for good. */
  clarify_secret_lookup_async ("connection:agent", cancellable, result_cb, &cancelled);
  g_assert_true (clarify_test_loop_until (fake_portal_was_called, portal, clarify_test_scaled_ms (10000)));
  /* Time for libsecret to take the portal's reply and wait for its Response. */
  clarify_test_loop_for (clarify_test_scaled_ms (500));
  g_assert_null (cancelled);
  g_cancellable_cancel (cancellable);
  secret = clarify_secret_lookup_finish (wait_for_result (&cancelled), &error);
  g_assert_null (secret);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpint (g_atomic_int_get (&portal->n_calls), ==, 1);

  /* The blocking call of `clarify --mcp-info`, and another of the app's
   * own, each give up at the deadline and say so. */
  /* A launcher takes the environment as it is when made. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  run = clarify_test_run_spawn (launcher, NULL, argv);
  clarify_secret_lookup_async ("connection:other", NULL, result_cb, &timed_out);
  secret = clarify_secret_lookup_finish (wait_for_result (&timed_out), &error);
  g_assert_null (secret);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "The keyring did not answer within 20 seconds"));
  g_assert_cmpint (clarify_test_run_finish (run, clarify_test_scaled_ms (60000)), ==, 1);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "The keyring did not answer within 20 seconds"));
  /* The command line asked the portal too (the second lookup may have
   * waited behind the first for all its time). It made no token for the
   * file: a keyring that does not answer is not one that is missing. */
  g_assert_cmpint (g_atomic_int_get (&portal->n_calls), >=, 2);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* libsecret holds the session bus in calls that never end: the bus is
   * stopped, and kept (unref would wait for that connection to go). */
  g_test_dbus_stop (bus);
  kept_bus = bus;
  remove_tree (home);
}

static void
test_portal_no_answer (void)
{
  if (g_test_subprocess ())
    {
      run_portal_no_answer ();
      return;
    }

  /* In a process of its own: libsecret picks its backend once a process,
   * and a call that hangs must fail the test, not stall the suite. */
  g_test_trap_subprocess (NULL, (guint64) clarify_test_scaled_ms (90000) * 1000,
                          G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/secret/slow-service", Fixture, NULL, fixture_set_up, test_slow_service, fixture_tear_down);
  g_test_add ("/secret/memory-fallback", Fixture, NULL, fixture_set_up, test_memory_fallback, fixture_tear_down);
  g_test_add ("/secret/mcp-token", Fixture, NULL, fixture_set_up, test_mcp_token, fixture_tear_down);
  g_test_add ("/secret/add-clarify", Fixture, NULL, fixture_set_up, test_add_clarify, fixture_tear_down);
  g_test_add ("/secret/cli-no-answer", Fixture, NULL, fixture_set_up, test_cli_no_answer, fixture_tear_down);
  g_test_add ("/secret/async-no-answer", Fixture, NULL, fixture_set_up, test_async_no_answer, fixture_tear_down);
  g_test_add ("/secret/cli-empty-keyring", Fixture, NULL, fixture_set_up, test_cli_empty_keyring, fixture_tear_down);
  g_test_add_func ("/secret/portal-no-answer", test_portal_no_answer);

  return g_test_run ();
}
