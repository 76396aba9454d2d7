/* test-discovery-ui.c: "Look for Agents" finds a fake OpenCode on 127.0.0.1,
 * and "Connect" adds it, in English and in German
 *
 * The application's own discovery, pointed at the fake server's ephemeral
 * port (every other kind probes nothing), looks once when the application
 * starts; its window offers what it found and connects only on the click.
 * HOME is the test's own, so the user's Claude Code and OpenCode configs
 * are neither offered nor touched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "clarify-test-gtk-utils.h"
#include "clarify-test-dbus.h"
#include "clarify-test-log.h"
#include "clarify-test-opencode.h"
#include "clarify-test-shell.h"

#include "clarify-application.h"
#include "clarify-window.h"

#define WAIT_MS 15000
#define NOTES "protocols/opencode-mcp-claude/"
#define PERMISSION_ID "per_2002877d9001iW7A5dIz75kfpK"
#define DIR "/home/dev/project"
#define HEALTH "{\"healthy\":true,\"version\":\"1.18.33\"}"

static ClarifyApplication *app;
/* The fake servers, kept up until the application is gone. */
static GPtrArray *servers;

/* Every request the server received, whatever its path. */
static guint
n_requests (ClarifyTestServer *server)
{
  g_autoptr(GPtrArray) requests = clarify_test_server_get_requests (server);

  return requests->len;
}

/* A fake `opencode serve`: its health endpoint, listings and event stream. */
static ClarifyTestServer *
fake_opencode_new (void)
{
  ClarifyTestServer *server = clarify_test_server_new ();

  clarify_test_server_add_json (server, "GET", "/global/health", 200, "application/json", HEALTH);
  clarify_test_server_set_json (server, "GET", "/question", 200, "application/json", "[]");
  clarify_test_server_set_json (server, "GET", "/permission", 200, "application/json", "[]");
  clarify_test_server_add_sse (server, "/global/event");
  clarify_test_server_set_sse_greeting (server, "/global/event",
                                        "data: {\"payload\":{\"id\":\"evt_1\",\"type\":\"server.connected\",\"properties\":{}}}\n\n");

  return server;
}

static void
point_discovery_at (guint16 port)
{
  ClarifyAgentDiscovery *discovery = clarify_application_get_discovery (app);
  const char *others[] = { "codenomad", "ag3ntum", "phoenix", "ihub" };

  clarify_agent_discovery_set_ports (discovery, "opencode", &port, 1);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    clarify_agent_discovery_set_ports (discovery, others[i], NULL, 0);
}

static ClarifyWindow *
main_window (void)
{
  return (ClarifyWindow *) clarify_test_find_app_window (GTK_APPLICATION (app), CLARIFY_TYPE_WINDOW, NULL);
}

/* A window in the language set now: the last one goes, and the
 * application makes another. */
static ClarifyWindow *
fresh_window (void)
{
  ClarifyWindow *window;

  gtk_window_destroy (GTK_WINDOW (main_window ()));
  g_assert_null (main_window ());
  g_application_activate (G_APPLICATION (app));
  window = main_window ();
  clarify_test_present_and_wait (GTK_WINDOW (window));

  return window;
}

static gboolean
looked (gpointer data)
{
  ClarifyAgentDiscovery *discovery = clarify_application_get_discovery (app);

  return clarify_agent_discovery_has_looked (discovery) && !clarify_agent_discovery_get_looking (discovery);
}

static gboolean
has_button (gpointer data)
{
  return clarify_test_find_button (data, _("_Connect")) != NULL;
}

static gboolean
has_backend (gpointer data)
{
  return clarify_application_lookup_backend (app, data) != NULL;
}

static gboolean
shows_connected (gpointer data)
{
  return clarify_test_find_label (data, _("In connections")) != NULL &&
         clarify_test_find_button (data, _("_Connect")) == NULL;
}

/* Finds the fake in @language, presses Connect, and checks that the
 * connection is there, subscribed to the event stream. */
static void
find_and_connect (const char *language,
                  gboolean    at_start,
                  const char *name)
{
  ClarifyTestServer *server = fake_opencode_new ();
  guint16 port = clarify_test_server_get_port (server);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", port);
  g_autofree char *shot = NULL;
  ClarifyBackend *backend;
  ClarifyWindow *window;
  GtkWidget *list;
  GtkWidget *button;
  GtkWidget *stack;

  clarify_test_set_language (language);
  point_discovery_at (port);

  if (at_start)
    {
      /* The first start looks by itself. */
      g_application_activate (G_APPLICATION (app));
      window = main_window ();
      clarify_test_present_and_wait (GTK_WINDOW (window));
      stack = clarify_test_find_widget (GTK_WIDGET (window), "stack");
      g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
      list = clarify_test_find_widget (GTK_WIDGET (window), "empty_discovery");
    }
  else
    {
      window = fresh_window ();
      list = clarify_test_find_widget (GTK_WIDGET (window), "discovery");
      /* "Look for Agents", pressed. */
      button = clarify_test_find_button (list, _("_Look for Agents"));
      g_assert_nonnull (button);
      g_signal_emit_by_name (button, "clicked");
      g_assert_true (clarify_agent_discovery_get_looking (clarify_application_get_discovery (app)));
    }

  g_assert_nonnull (list);
  g_assert_true (clarify_test_wait_until (looked, NULL, WAIT_MS));
  g_assert_true (clarify_test_wait_until (has_button, list, WAIT_MS));
  g_assert_nonnull (clarify_test_find_label (list, url));
  g_assert_nonnull (clarify_test_find_label (list, "OpenCode"));
  /* Found, not connected: only the health endpoint was asked. */
  g_assert_null (clarify_application_lookup_backend (app, name));
  g_assert_cmpuint (clarify_test_server_get_n_streams (server, "/global/event"), ==, 0);
  g_assert_cmpuint (n_requests (server), ==, 1);

  clarify_test_wait_for_natural_height (GTK_WIDGET (window), 2000);
  shot = clarify_test_save_screenshot (GTK_WIDGET (window),
                                       at_start ? "discovery-found-empty-en" : "discovery-found-de");
  g_assert_nonnull (shot);
  g_clear_pointer (&shot, g_free);

  button = clarify_test_find_button (list, _("_Connect"));
  g_signal_emit_by_name (button, "clicked");

  g_assert_true (clarify_test_wait_until (has_backend, (gpointer) name, WAIT_MS));
  backend = clarify_application_lookup_backend (app, name);
  g_assert_cmpstr (clarify_connection_get_kind (clarify_backend_get_connection (backend)), ==, "opencode");
  g_assert_cmpstr (clarify_connection_get_url (clarify_backend_get_connection (backend)), ==, url);
  g_assert_true (clarify_test_server_wait_for_n_streams (server, "/global/event", 1, WAIT_MS));

  /* The window lists it, and the offer says it is connected. */
  stack = clarify_test_find_widget (GTK_WIDGET (window), "stack");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "content");
  list = clarify_test_find_widget (GTK_WIDGET (window), "discovery");
  g_assert_true (clarify_test_wait_until (shows_connected, list, WAIT_MS));
  clarify_test_wait_for_natural_height (GTK_WIDGET (window), 2000);
  shot = clarify_test_save_screenshot (GTK_WIDGET (window),
                                       at_start ? "discovery-connected-en" : "discovery-connected-de");
  g_assert_nonnull (shot);

  clarify_test_set_language ("en");
  g_ptr_array_add (servers, server);
}

/* The list shows the label, or the button, named "wanted" on it. */
static gboolean
shows_label (gpointer data)
{
  const char *wanted = g_object_get_data (data, "wanted");

  return clarify_test_find_label (data, wanted) != NULL || clarify_test_find_button (data, wanted) != NULL;
}

/* Claude Code, by its settings folder alone: "Answer Its Questions Here"
 * writes the hooks `clarify setup claude-code` writes (running the clarify
 * on PATH, since none is beside this test program); OpenCode's config
 * folder gets Clarify's MCP entry on "Add Clarify". */
static void
test_home_offers (void)
{
  g_autofree char *claude_dir = g_build_filename (g_get_home_dir (), ".claude", NULL);
  g_autofree char *settings = g_build_filename (claude_dir, "settings.json", NULL);
  g_autofree char *opencode_dir = g_build_filename (g_get_user_config_dir (), "opencode", NULL);
  g_autofree char *opencode_json = g_build_filename (opencode_dir, "opencode.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *shot = NULL;
  ClarifyWindow *window = fresh_window ();
  GtkWidget *list = clarify_test_find_widget (GTK_WIDGET (window), "discovery");
  GtkWidget *button;

  g_assert_cmpint (g_mkdir_with_parents (claude_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (opencode_dir, 0700), ==, 0);

  g_signal_emit_by_name (clarify_test_find_button (list, _("_Look for Agents")), "clicked");
  g_assert_true (clarify_test_wait_until (looked, NULL, WAIT_MS));
  g_object_set_data (G_OBJECT (list), "wanted", (gpointer) _("_Add Clarify"));
  g_assert_true (clarify_test_wait_until (shows_label, list, WAIT_MS));
  g_assert_nonnull (clarify_test_find_label (list, "Claude Code"));
  g_assert_nonnull (clarify_test_find_label (list, "Questions and permission prompts, through hooks in ~/.claude/settings.json"));
  clarify_test_wait_for_natural_height (GTK_WIDGET (window), 2000);
  shot = clarify_test_save_screenshot (GTK_WIDGET (window), "discovery-home-en");
  g_assert_nonnull (shot);
  g_clear_pointer (&shot, g_free);
  /* Offered, nothing written. */
  g_assert_false (g_file_test (settings, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (opencode_json, G_FILE_TEST_EXISTS));

  button = clarify_test_find_button (list, _("_Answer Its Questions Here"));
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_object_set_data (G_OBJECT (list), "wanted", (gpointer) _("Asks here"));
  g_assert_true (clarify_test_wait_until (shows_label, list, WAIT_MS));
  g_assert_true (g_file_get_contents (settings, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"PermissionRequest\""));
  g_assert_nonnull (strstr (text, " hook claude-code\""));
  g_clear_pointer (&text, g_free);

  g_signal_emit_by_name (clarify_test_find_button (list, _("_Add Clarify")), "clicked");
  g_object_set_data (G_OBJECT (list), "wanted", (gpointer) _("Clarify added"));
  g_assert_true (clarify_test_wait_until (shows_label, list, WAIT_MS));
  g_assert_true (g_file_get_contents (opencode_json, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"clarify\""));
  g_assert_nonnull (strstr (text, "\"remote\""));

  clarify_test_wait_for_natural_height (GTK_WIDGET (window), 2000);
  shot = clarify_test_save_screenshot (GTK_WIDGET (window), "discovery-home-done-en");
  g_assert_nonnull (shot);
}

/* A Claude Code project whose own .mcp.json names Clarify is listed as set
 * up, with no button; the user's .claude.json is still offered "Add
 * Clarify", since the project's entry counts only there. */
static void
test_claude_project_de (void)
{
  g_autofree char *project = g_build_filename (g_get_home_dir (), "src", "app", NULL);
  g_autofree char *mcp_json = g_build_filename (project, ".mcp.json", NULL);
  g_autofree char *claude_json = g_build_filename (g_get_home_dir (), ".claude.json", NULL);
  g_autofree char *claude_text = NULL;
  g_autofree char *shot = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyWindow *window;
  GtkWidget *list;
  GtkWidget *title;
  GtkWidget *row;

  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  g_file_set_contents (mcp_json, "{\"mcpServers\": {\"clarify\": {\"type\": \"http\"}}}", -1, &error);
  g_assert_no_error (error);
  claude_text = g_strdup_printf ("{\"projects\": {\"%s\": {}}}", project);
  g_file_set_contents (claude_json, claude_text, -1, &error);
  g_assert_no_error (error);

  clarify_test_set_language ("de");
  window = fresh_window ();
  list = clarify_test_find_widget (GTK_WIDGET (window), "discovery");
  g_signal_emit_by_name (clarify_test_find_button (list, _("_Look for Agents")), "clicked");
  g_assert_true (clarify_test_wait_until (looked, NULL, WAIT_MS));
  g_object_set_data (G_OBJECT (list), "wanted", (gpointer) "Claude Code in ~/src/app");
  g_assert_true (clarify_test_wait_until (shows_label, list, WAIT_MS));

  /* The project's row: where the entry is, and nothing to press. */
  title = clarify_test_find_label (list, "Claude Code in ~/src/app");
  row = gtk_widget_get_ancestor (title, ADW_TYPE_ACTION_ROW);
  g_assert_nonnull (row);
  g_assert_nonnull (clarify_test_find_label (row, "Das Werkzeug ask_user von Clarify, in ~/src/app/.mcp.json"));
  g_assert_nonnull (clarify_test_find_label (row, "Bereits eingerichtet"));
  g_assert_null (clarify_test_find_button (row, _("_Add Clarify")));
  /* The user's own config: still offered. */
  g_assert_nonnull (clarify_test_find_label (list, "Das Werkzeug ask_user von Clarify, in ~/.claude.json"));
  g_assert_nonnull (clarify_test_find_button (list, _("_Add Clarify")));

  /* The list is at the window's foot: scrolled into view for the picture. */
  clarify_test_wait_for_natural_height (GTK_WIDGET (window), 2000);
  {
    GtkWidget *scrolled = gtk_widget_get_ancestor (list, GTK_TYPE_SCROLLED_WINDOW);
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  }
  shot = clarify_test_save_screenshot (GTK_WIDGET (window), "discovery-claude-project-de");
  g_assert_nonnull (shot);

  clarify_test_set_language ("en");
}

static void
test_found_and_connected_en (void)
{
  find_and_connect ("en", TRUE, "opencode");
}

/* The second fake, on another port, is a second connection. */
static void
test_found_and_connected_de (void)
{
  find_and_connect ("de", FALSE, "opencode-2");
}

/* The whole path of a new user, with no configuration: "Look for Agents"
 * finds OpenCode, one click connects it, its permission request arrives
 * as a notification, and the notification's "Allow once" button (pressed
 * as the shell presses it) answers: the server gets the reply its own
 * client sends. */
static void
test_new_user_path (void)
{
  g_autofree char *payload = clarify_test_fixture_block (NOTES "a5-permission-asked.json");
  g_autofree char *frame = NULL;
  g_autoptr(GDBusConnection) shell = clarify_test_shell_connect ();
  g_autoptr(ClarifyTestRequest) reply = NULL;
  const char *key = "opencode-3\x1f" PERMISSION_ID;
  ClarifyTestServer *server;
  GVariant *notification;

  g_assert_null (clarify_application_lookup_backend (app, "opencode-3"));
  find_and_connect ("en", FALSE, "opencode-3");
  server = g_ptr_array_index (servers, servers->len - 1);
  clarify_test_server_add_json (server, "POST", "/permission/" PERMISSION_ID "/reply", 200, "application/json", "true");

  /* The window is not where the user is: the notification calls them. */
  gtk_widget_set_visible (GTK_WIDGET (main_window ()), FALSE);
  frame = clarify_test_global_frame (DIR, payload);
  clarify_test_server_sse_send (server, "/global/event", frame, -1);
  g_assert_true (clarify_test_wait_until (clarify_test_notification_shown, (gpointer) key, WAIT_MS));
  notification = g_hash_table_lookup (clarify_test_notifications_shown, key);

  clarify_test_shell_press_button (shell, G_APPLICATION (app), notification, 0, WAIT_MS);
  reply = clarify_test_server_wait_for_request (server, "POST", "/permission/" PERMISSION_ID "/reply", WAIT_MS);
  g_assert_nonnull (reply);
  g_assert_cmpstr (reply->body, ==, "{\"reply\":\"once\"}");
  g_assert_cmpstr (reply->query, ==, "directory=%2Fhome%2Fdev%2Fproject");
  g_assert_true (clarify_test_wait_until (clarify_test_notification_removed, (gpointer) key, WAIT_MS));
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", "/permission/" PERMISSION_ID "/reply"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  g_autofree char *config = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  /* Before GLib caches the home folder. */
  home = g_dir_make_tmp ("clarify-discovery-home-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", home, TRUE);
  g_unsetenv ("CLAUDE_CONFIG_DIR");
  /* The hooks run this build's clarify, found on PATH. */
  {
    g_autofree char *bin = g_path_get_dirname (g_getenv ("CLARIFY_BINARY"));
    g_autofree char *path = g_strconcat (bin, ":", g_getenv ("PATH"), NULL);

    g_setenv ("PATH", path, TRUE);
  }
  /* No MCP endpoint: nothing here is about it, and its port is not free to take. */
  config = clarify_test_private_config_home ("[mcp]\nenabled=false\n");

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);
  /* A notification server, as a desktop has: the app may send one. */
  clarify_test_notifications_start (NULL);

  servers = g_ptr_array_new_with_free_func ((GDestroyNotify) clarify_test_server_free);
  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/discovery-ui/found-and-connected-en", test_found_and_connected_en);
  g_test_add_func ("/discovery-ui/found-and-connected-de", test_found_and_connected_de);
  g_test_add_func ("/discovery-ui/home-offers", test_home_offers);
  /* After the two above: its connection is the third. */
  g_test_add_func ("/discovery-ui/new-user-path", test_new_user_path);
  g_test_add_func ("/discovery-ui/claude-project-de", test_claude_project_de);

  status = g_test_run ();

  g_clear_object (&app);
  g_clear_pointer (&servers, g_ptr_array_unref);
  clarify_test_remove_tree (config);
  clarify_test_remove_tree (home);

  return status;
}
