/* test-discovery.c: ClarifyAgentDiscovery finds agents on 127.0.0.1 and in
 * the home folder, and its "Add Clarify" / "Answer its questions here"
 * change the files as `clarify setup` and `--mcp-info` say
 *
 * Fake servers on ephemeral ports answer as each kind's health endpoint
 * does (the answers are those of the protocol notes and the agents'
 * sources, see the probes in each backend file); HOME is the test's own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clarify-agent-discovery.h"
#include "clarify-claude-settings.h"
#include "clarify-json-config.h"
#include "clarify-mcp-server.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 10000

static void
store_result_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
is_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static gboolean
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;

  return G_SOURCE_REMOVE;
}

static GPtrArray *
run_discovery (ClarifyAgentDiscovery *discovery)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *found;

  clarify_agent_discovery_run_async (discovery, NULL, store_result_cb, &result);
  g_assert_true (clarify_test_loop_until (is_set, &result, WAIT_MS));
  found = clarify_agent_discovery_run_finish (discovery, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (found);

  return found;
}

/* Sets up @agent (its token read without blocking) and waits for it. */
static gboolean
set_up (ClarifyFoundAgent  *agent,
        const char         *program,
        GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  clarify_found_agent_set_up_async (agent, program, NULL, store_result_cb, &result);
  g_assert_true (clarify_test_loop_until (is_set, &result, WAIT_MS));

  return clarify_found_agent_set_up_finish (agent, result, error);
}

/* Every request the server received, whatever its path. */
static guint
n_requests (ClarifyTestServer *server)
{
  g_autoptr(GPtrArray) requests = clarify_test_server_get_requests (server);

  return requests->len;
}

static ClarifyFoundAgent *
find (GPtrArray  *found,
      const char *kind,
      ClarifyFoundAction action)
{
  for (guint i = 0; i < found->len; i++)
    {
      ClarifyFoundAgent *agent = g_ptr_array_index (found, i);

      if (g_str_equal (clarify_found_agent_get_kind (agent), kind) &&
          clarify_found_agent_get_action (agent) == action)
        return agent;
    }

  return NULL;
}

/* A free port: bound and let go, so nothing answers on it. */
static guint16
closed_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_true (g_socket_bind (socket, any, FALSE, NULL));
  bound = g_socket_get_local_address (socket, NULL);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
point_every_kind_at (ClarifyAgentDiscovery *discovery,
                     guint16                port)
{
  const char *kinds[] = { "opencode", "codenomad", "ag3ntum", "phoenix", "ihub" };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    clarify_agent_discovery_set_ports (discovery, kinds[i], &port, 1);
}

/* Each kind's server is found by its own answer, and only by it: one
 * server answers all the health paths, as each kind would, on a port
 * that only that kind is told to probe. */
static void
test_servers_found (void)
{
  struct {
    const char *kind;
    const char *path;
    guint       status;
    const char *body;
  } cases[] = {
    { "opencode", "/global/health", 200, "{\"healthy\":true,\"version\":\"1.18.33\"}" },
    { "codenomad", "/api/meta", 401, "{\"error\":\"Unauthorized\"}" },
    { "ag3ntum", "/api/v1/health", 200, "{\"status\":\"ok\",\"version\":\"1.0.0\",\"timestamp\":\"2026-11-26T04:00:00Z\"}" },
    { "phoenix", "/api/auth/status", 200, "{\"auth_required\":false,\"authenticated\":true}" },
    { "ihub", "/api/health", 200, "{\"status\":\"OK\",\"version\":\"5.4.13\",\"basePathConfig\":{}}" },
  };
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  ClarifyTestServer *servers[G_N_ELEMENTS (cases)];
  /* Another web server on a default-looking port: the web UI's 200 HTML. */
  ClarifyTestServer *html = clarify_test_server_new ();
  guint16 html_port = clarify_test_server_get_port (html);
  g_autoptr(GPtrArray) found = NULL;
  guint n_connect = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint16 ports[2];

      servers[i] = clarify_test_server_new ();
      clarify_test_server_add_json (servers[i], "GET", cases[i].path, cases[i].status,
                                    "application/json", cases[i].body);
      /* The others' paths too, answered as this kind answers unknown ones. */
      for (guint j = 0; j < G_N_ELEMENTS (cases); j++)
        if (j != i)
          clarify_test_server_add_json (servers[i], "GET", cases[j].path, 404, "application/json", "{}");
      ports[0] = clarify_test_server_get_port (servers[i]);
      ports[1] = html_port;
      clarify_agent_discovery_set_ports (discovery, cases[i].kind, ports, 2);
    }
  for (guint j = 0; j < G_N_ELEMENTS (cases); j++)
    clarify_test_server_add_json (html, "GET", cases[j].path, 200, "text/html", "<!doctype html><p>hello</p>");

  found = run_discovery (discovery);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      ClarifyFoundAgent *agent = find (found, cases[i].kind, CLARIFY_FOUND_CONNECT);
      g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", clarify_test_server_get_port (servers[i]));

      g_assert_nonnull (agent);
      g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, url);
      g_assert_false (clarify_found_agent_get_done (agent));
      /* One GET of its own health path, nothing else. */
      g_assert_cmpuint (clarify_test_server_get_n_requests (servers[i], "GET", cases[i].path), ==, 1);
      g_assert_cmpuint (n_requests (servers[i]), ==, 1);
    }
  for (guint i = 0; i < found->len; i++)
    n_connect += clarify_found_agent_get_action (g_ptr_array_index (found, i)) == CLARIFY_FOUND_CONNECT;
  /* Nothing for the HTML server, though every kind asked it. */
  g_assert_cmpuint (n_connect, ==, G_N_ELEMENTS (cases));
  g_assert_cmpuint (n_requests (html), ==, G_N_ELEMENTS (cases));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    clarify_test_server_free (servers[i]);
  clarify_test_server_free (html);
}

/* CodeNomad's default listener is HTTPS with a certificate of its own:
 * found there; where it also listens in plain HTTP, offered once, there. */
static void
test_codenomad_https (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  ClarifyTestServer *https = clarify_test_server_new_https ();
  ClarifyTestServer *plain = clarify_test_server_new ();
  guint16 https_port = clarify_test_server_get_port (https);
  guint16 plain_port = clarify_test_server_get_port (plain);
  guint16 closed = closed_port ();
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autofree char *url = NULL;

  clarify_test_server_add_json (https, "GET", "/api/meta", 401, "application/json", "{\"error\":\"Unauthorized\"}");
  clarify_test_server_add_json (plain, "GET", "/api/meta", 401, "application/json", "{\"error\":\"Unauthorized\"}");
  point_every_kind_at (discovery, closed);
  clarify_agent_discovery_set_https_ports (discovery, "codenomad", &https_port, 1);

  found = run_discovery (discovery);
  g_assert_cmpuint (found->len, ==, 1);
  url = clarify_test_server_get_url (https, "");
  g_assert_cmpstr (clarify_found_agent_get_location (find (found, "codenomad", CLARIFY_FOUND_CONNECT)), ==, url);
  g_assert_cmpuint (clarify_test_server_get_n_requests (https, "GET", "/api/meta"), ==, 1);

  /* The same server in plain HTTP too: that one only. */
  clarify_agent_discovery_set_ports (discovery, "codenomad", &plain_port, 1);
  again = run_discovery (discovery);
  g_assert_cmpuint (again->len, ==, 1);
  g_clear_pointer (&url, g_free);
  url = clarify_test_server_get_url (plain, "");
  g_assert_cmpstr (clarify_found_agent_get_location (find (again, "codenomad", CLARIFY_FOUND_CONNECT)), ==, url);

  clarify_test_server_free (https);
  clarify_test_server_free (plain);
}

/* A closed port, and a server that never answers, end in time with
 * nothing found. */
static void
test_nothing_there (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GSocket) silent = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GPtrArray) found = NULL;
  guint16 ports[2];

  /* Listens, accepts (the kernel does), never answers. */
  g_assert_true (g_socket_bind (silent, any, FALSE, NULL));
  g_assert_true (g_socket_listen (silent, NULL));
  bound = g_socket_get_local_address (silent, NULL);
  ports[0] = closed_port ();
  ports[1] = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));

  point_every_kind_at (discovery, ports[0]);
  clarify_agent_discovery_set_ports (discovery, "opencode", ports, 2);
  clarify_agent_discovery_set_timeout (discovery, 500);

  found = run_discovery (discovery);
  g_assert_cmpuint (found->len, ==, 0);
}

static void
cancelled_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) found = clarify_agent_discovery_run_finish (CLARIFY_AGENT_DISCOVERY (source), result, &error);
  gboolean *done = user_data;

  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  *done = TRUE;
}

static void
test_cancel (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  ClarifyTestServer *server = clarify_test_server_new ();
  guint16 port = clarify_test_server_get_port (server);
  gboolean done = FALSE;

  clarify_test_server_add_json (server, "GET", "/global/health", 200, "application/json",
                                "{\"healthy\":true,\"version\":\"1.18.33\"}");
  point_every_kind_at (discovery, port);
  clarify_agent_discovery_run_async (discovery, cancellable, cancelled_cb, &done);
  g_cancellable_cancel (cancellable);
  g_assert_true (clarify_test_loop_until (is_true, &done, WAIT_MS));

  clarify_test_server_free (server);
}

static char *
write_home_file (const char *relative,
                 const char *text)
{
  g_autofree char *path = g_build_filename (g_get_home_dir (), relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

static JsonObject *
member_object (JsonNode   *root,
               const char *first,
               ...)
{
  JsonObject *object = json_node_get_object (root);
  const char *name = first;
  va_list args;

  va_start (args, first);
  while (name != NULL && object != NULL)
    {
      object = json_object_get_object_member (object, name);
      name = va_arg (args, const char *);
    }
  va_end (args);

  return object;
}

/* Claude Code by its settings folder: offered, set up as `clarify setup
 * claude-code` would, then seen as done. Its .claude.json and OpenCode's
 * config get Clarify's MCP entry beside what was there. */
static void
test_home (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) settings = NULL;
  g_autoptr(JsonNode) claude = NULL;
  g_autoptr(JsonNode) opencode = NULL;
  g_autofree char *token = NULL;
  g_autofree char *bearer = NULL;
  g_autofree char *url = NULL;
  g_autofree char *settings_path = NULL;
  g_autofree char *claude_json = NULL;
  g_autofree char *opencode_dir = NULL;
  g_autofree char *opencode_json = NULL;
  g_autofree char *backup = NULL;
  g_autofree char *text = NULL;
  ClarifyFoundAgent *agent;
  JsonObject *entry;

  point_every_kind_at (discovery, closed_port ());

  /* Nothing yet: no folder, no program on PATH (the test's PATH is empty). */
  found = run_discovery (discovery);
  g_assert_cmpuint (found->len, ==, 0);
  g_clear_pointer (&found, g_ptr_array_unref);

  settings_path = write_home_file (".claude/settings.json", "{\"model\": \"opus\"}\n");
  claude_json = write_home_file (".claude.json",
                                 "{\"numStartups\": 3, \"mcpServers\": {\"other\": {\"type\": \"stdio\", \"command\": \"other-server\"}}}");
  opencode_dir = g_build_filename (g_get_user_config_dir (), "opencode", NULL);
  g_assert_cmpint (g_mkdir_with_parents (opencode_dir, 0700), ==, 0);
  opencode_json = g_build_filename (opencode_dir, "opencode.json", NULL);

  found = run_discovery (discovery);
  g_assert_cmpuint (found->len, ==, 3);

  agent = find (found, "claude-code", CLARIFY_FOUND_ANSWER_HERE);
  g_assert_nonnull (agent);
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, settings_path);
  g_assert_false (clarify_found_agent_get_done (agent));
  g_assert_true (set_up (agent, "/usr/bin/clarify", &error));
  g_assert_no_error (error);
  g_assert_true (clarify_found_agent_get_done (agent));
  /* The hooks of `clarify setup claude-code`, the user's model kept. */
  settings = clarify_json_config_read (settings_path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (settings), "model"), ==, "opus");
  g_assert_true (clarify_claude_settings_has_ours (settings_path));
  text = json_to_string (settings, FALSE);
  g_assert_nonnull (strstr (text, "\"/usr/bin/clarify hook claude-code\""));
  backup = g_strconcat (settings_path, ".clarify-backup", NULL);
  g_assert_true (g_file_test (backup, G_FILE_TEST_EXISTS));

  token = clarify_mcp_token_ensure (&error);
  g_assert_no_error (error);
  bearer = g_strconcat ("Bearer ", token, NULL);
  url = g_strdup_printf ("http://127.0.0.1:%u/mcp", clarify_mcp_config_get_port ());

  agent = find (found, "claude-code", CLARIFY_FOUND_ADD_CLARIFY);
  g_assert_nonnull (agent);
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, claude_json);
  g_assert_false (clarify_found_agent_get_done (agent));
  g_assert_true (set_up (agent, NULL, &error));
  g_assert_no_error (error);
  claude = clarify_json_config_read (claude_json, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (claude), "numStartups"), ==, 3);
  g_assert_nonnull (member_object (claude, "mcpServers", "other", NULL));
  entry = member_object (claude, "mcpServers", "clarify", NULL);
  g_assert_cmpstr (json_object_get_string_member (entry, "type"), ==, "http");
  g_assert_cmpstr (json_object_get_string_member (entry, "url"), ==, url);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entry, "headers"), "Authorization"), ==, bearer);

  /* OpenCode's folder alone is enough: the file is created. */
  agent = find (found, "opencode", CLARIFY_FOUND_ADD_CLARIFY);
  g_assert_nonnull (agent);
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, opencode_json);
  g_assert_true (set_up (agent, NULL, &error));
  g_assert_no_error (error);
  opencode = clarify_json_config_read (opencode_json, &error);
  g_assert_no_error (error);
  entry = member_object (opencode, "mcp", "clarify", NULL);
  g_assert_cmpstr (json_object_get_string_member (entry, "type"), ==, "remote");
  g_assert_cmpstr (json_object_get_string_member (entry, "url"), ==, url);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entry, "headers"), "Authorization"), ==, bearer);

  /* Looking again: all three there and done. */
  again = run_discovery (discovery);
  g_assert_cmpuint (again->len, ==, 3);
  for (guint i = 0; i < again->len; i++)
    g_assert_true (clarify_found_agent_get_done (g_ptr_array_index (again, i)));
}

/* A config Clarify cannot add to without breaking it is not offered,
 * and never written. */
static void
test_home_unusable (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GPtrArray) found = NULL;
  g_autofree char *claude_json = NULL;
  g_autofree char *text = NULL;
  g_autofree char *opencode_json = NULL;

  point_every_kind_at (discovery, closed_port ());
  claude_json = write_home_file (".claude.json", "{\"mcpServers\": [1, 2]}");
  opencode_json = g_build_filename (g_get_user_config_dir (), "opencode", "opencode.json", NULL);
  {
    g_autofree char *dir = g_path_get_dirname (opencode_json);
    g_autoptr(GError) error = NULL;

    g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
    g_file_set_contents (opencode_json, "{ \"mcp\": { // a comment\n } }", -1, &error);
    g_assert_no_error (error);
  }

  found = run_discovery (discovery);
  g_assert_null (find (found, "claude-code", CLARIFY_FOUND_ADD_CLARIFY));
  g_assert_null (find (found, "opencode", CLARIFY_FOUND_ADD_CLARIFY));
  g_assert_true (g_file_get_contents (claude_json, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "{\"mcpServers\": [1, 2]}");
}

static ClarifyFoundAgent *
find_project (GPtrArray  *found,
              const char *project)
{
  for (guint i = 0; i < found->len; i++)
    if (g_strcmp0 (clarify_found_agent_get_project (found->pdata[i]), project) == 0)
      return found->pdata[i];

  return NULL;
}

static char *
make_home_dir (const char *relative)
{
  g_autofree char *dir = g_build_filename (g_get_home_dir (), relative, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);

  return g_steal_pointer (&dir);
}

/* Claude Code's projects, as its .claude.json lists them: one whose own
 * servers name Clarify (in .claude.json, or in its .mcp.json unless the
 * user turned that server off) is listed as set up, beside the user's
 * config that still offers "Add Clarify". No project is offered: the
 * entry would put the token into a file meant to be committed. */
static void
test_claude_projects (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GPtrArray) found = NULL;
  g_autofree char *local = make_home_dir ("src/local");
  g_autofree char *team = make_home_dir ("src/team");
  g_autofree char *off = make_home_dir ("src/off");
  g_autofree char *plain = make_home_dir ("src/plain");
  g_autofree char *gone = g_build_filename (g_get_home_dir (), "src", "gone", NULL);
  g_autofree char *team_mcp = NULL;
  g_autofree char *off_mcp = NULL;
  g_autofree char *plain_mcp = NULL;
  g_autofree char *claude_json = NULL;
  g_autofree char *text = NULL;
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", clarify_mcp_config_get_port ());
  g_autofree char *team_text = NULL;
  ClarifyFoundAgent *agent;

  point_every_kind_at (discovery, closed_port ());
  team_text = g_strdup_printf ("{\"mcpServers\": {\"ask\": {\"type\": \"http\", \"url\": \"%s\"}}}", url);
  team_mcp = write_home_file ("src/team/.mcp.json", team_text);
  off_mcp = write_home_file ("src/off/.mcp.json", "{\"mcpServers\": {\"clarify\": {\"type\": \"http\"}}}");
  plain_mcp = write_home_file ("src/plain/.mcp.json", "{\"mcpServers\": {\"other\": {\"command\": \"other\"}}}");
  text = g_strdup_printf ("{\"mcpServers\": {},"
                          " \"projects\": {"
                          "  \"%s\": {\"mcpServers\": {\"clarify\": {\"type\": \"http\"}}},"
                          "  \"%s\": {\"mcpServers\": {}, \"disabledMcpjsonServers\": [\"other\"]},"
                          "  \"%s\": {\"disabledMcpjsonServers\": [\"clarify\"]},"
                          "  \"%s\": {},"
                          "  \"%s\": {\"mcpServers\": {\"clarify\": {}}},"
                          "  \"src/local\": {\"mcpServers\": {\"clarify\": {}}},"
                          "  \"/\": 7"
                          "}}",
                          local, team, off, plain, gone);
  claude_json = write_home_file (".claude.json", text);

  found = run_discovery (discovery);
  g_assert_cmpuint (found->len, ==, 3);

  agent = find_project (found, NULL);
  g_assert_nonnull (agent);
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, claude_json);
  g_assert_false (clarify_found_agent_get_done (agent));

  /* The local scope: its entry is in .claude.json. */
  agent = find_project (found, local);
  g_assert_nonnull (agent);
  g_assert_cmpint (clarify_found_agent_get_action (agent), ==, CLARIFY_FOUND_ADD_CLARIFY);
  g_assert_cmpstr (clarify_found_agent_get_kind (agent), ==, "claude-code");
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, claude_json);
  g_assert_true (clarify_found_agent_get_done (agent));

  /* The project scope: named by Clarify's URL under another name. */
  agent = find_project (found, team);
  g_assert_nonnull (agent);
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, team_mcp);
  g_assert_true (clarify_found_agent_get_done (agent));

  g_assert_null (find_project (found, off));
  g_assert_null (find_project (found, plain));
  g_assert_null (find_project (found, gone));
  g_assert_null (find_project (found, "src/local"));
}

static gboolean
write_fifo (gpointer data)
{
  const char *path = data;
  const char *text = "{\"mcpServers\": {\"clarify\": {\"type\": \"http\"}}}";
  int fd = open (path, O_WRONLY);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, text, strlen (text)), ==, (gssize) strlen (text));
  close (fd);

  return G_SOURCE_REMOVE;
}

/* A project of Claude Code's whose .mcp.json is a pipe, nobody writing
 * to it yet; no agent on the ports. Returns the pipe's path. */
static char *
make_piped_project (ClarifyAgentDiscovery *discovery,
                    const char            *project)
{
  char *fifo = g_build_filename (project, ".mcp.json", NULL);
  g_autofree char *text = g_strdup_printf ("{\"projects\": {\"%s\": {}}}", project);
  g_autofree char *claude_json = write_home_file (".claude.json", text);

  point_every_kind_at (discovery, closed_port ());
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  return fifo;
}

/* The home folder's files are read off the main thread: a read that
 * blocks (here a project's .mcp.json that is a pipe nobody writes to
 * yet) holds up the look, not the main loop. On the main thread this
 * test would never get to write to the pipe. */
static void
test_home_read_off_main_thread (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *project = make_home_dir ("src/piped");
  g_autofree char *fifo = make_piped_project (discovery, project);
  gboolean ticked = FALSE;

  clarify_agent_discovery_run_async (discovery, NULL, store_result_cb, &result);
  g_timeout_add (100, set_true, &ticked);
  g_assert_true (clarify_test_loop_until (is_true, &ticked, WAIT_MS));
  g_assert_null (result);

  g_idle_add (write_fifo, fifo);
  g_assert_true (clarify_test_loop_until (is_set, &result, WAIT_MS));
  found = clarify_agent_discovery_run_finish (discovery, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_project (found, project));
  g_assert_true (clarify_found_agent_get_done (find_project (found, project)));
}

/* A read that does not end (a pipe nobody writes to; a network share
 * that hangs) holds the look no longer than a probe may take once the
 * probes are done: the look ends without the home folder, and says so. */
static void
test_home_read_hangs (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *project = make_home_dir ("src/piped");
  g_autofree char *fifo = make_piped_project (discovery, project);
  g_auto(GStrv) lines = NULL;
  gboolean ticked = FALSE;

  clarify_agent_discovery_set_timeout (discovery, 200);

  clarify_test_log_start ();
  clarify_agent_discovery_run_async (discovery, NULL, store_result_cb, &result);
  g_assert_true (clarify_test_loop_until (is_set, &result, WAIT_MS));
  lines = clarify_test_log_stop ();
  found = clarify_agent_discovery_run_finish (discovery, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 0);
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_cmpstr (lines[0], ==, "MESSAGE: Reading the agents' settings in the home folder takes too long; "
                                 "the look for agents ended without them");

  /* The read ends after all: nothing more happens. */
  g_idle_add (write_fifo, fifo);
  g_timeout_add (300, set_true, &ticked);
  g_assert_true (clarify_test_loop_until (is_true, &ticked, WAIT_MS));
}

/* JSONC as OpenCode writes it: comments and trailing commas go, strings
 * keep what only looks like them. */
static void
test_jsonc_read (void)
{
  static const struct { const char *text; const char *json; } cases[] = {
    { "{\n  // a line\n  \"a\": 1, /* a block */ \"b\": [1, 2,],\n}\n", "{\"a\":1,\"b\":[1,2]}" },
    { "{\"url\": \"http://h//p\", \"s\": \"/* no */\", \"c\": \",}\"}", "{\"url\":\"http://h//p\",\"s\":\"/* no */\",\"c\":\",}\"}" },
    { "{\"q\": \"a\\\"//b\", // after\n}", "{\"q\":\"a\\\"//b\"}" },
    { "/* only\n a comment */\n// and a line", "{}" },
    { "{\"a\": /* multi\nline */ true,\n\t}", "{\"a\":true}" },
  };
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "test.jsonc", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) broken = NULL;

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_config_dir (), 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *json = NULL;

      g_file_set_contents (path, cases[i].text, -1, &error);
      g_assert_no_error (error);
      root = clarify_json_config_read_jsonc (path, &error);
      g_assert_no_error (error);
      json = json_to_string (root, FALSE);
      g_assert_cmpstr (json, ==, cases[i].json);
    }

  /* A comment never closed takes the rest: what is left is not JSON. */
  g_file_set_contents (path, "{\"a\": 1 /* never closed }", -1, &error);
  g_assert_no_error (error);
  broken = clarify_json_config_read_jsonc (path, &error);
  g_assert_null (broken);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* OpenCode reads opencode.jsonc beside opencode.json and merges their
 * servers: an entry in the .jsonc counts, and "Add Clarify" writes into
 * opencode.json, leaving the .jsonc and its comments as they were. */
static void
test_opencode_jsonc (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) opencode = NULL;
  g_autofree char *jsonc = NULL;
  g_autofree char *jsonc_after = NULL;
  g_autofree char *opencode_json = NULL;
  g_autofree char *named = NULL;
  g_autofree char *opencode_dir = g_build_filename (g_get_user_config_dir (), "opencode", NULL);
  const char *user_jsonc = "{\n  // mine\n  \"mcp\": {\n    /* a server */\n    \"other\": {\"type\": \"local\", \"command\": [\"other\"]}\n  }\n}\n";
  ClarifyFoundAgent *agent;

  point_every_kind_at (discovery, closed_port ());
  jsonc = g_build_filename (opencode_dir, "opencode.jsonc", NULL);
  opencode_json = g_build_filename (opencode_dir, "opencode.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (opencode_dir, 0700), ==, 0);
  g_file_set_contents (jsonc, user_jsonc, -1, &error);
  g_assert_no_error (error);

  /* Not naming Clarify: offered, for opencode.json. */
  found = run_discovery (discovery);
  agent = find (found, "opencode", CLARIFY_FOUND_ADD_CLARIFY);
  g_assert_nonnull (agent);
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, opencode_json);
  g_assert_false (clarify_found_agent_get_done (agent));
  g_assert_true (set_up (agent, NULL, &error));
  g_assert_no_error (error);
  opencode = clarify_json_config_read (opencode_json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (member_object (opencode, "mcp", "clarify", NULL));
  g_assert_true (g_file_get_contents (jsonc, &jsonc_after, NULL, NULL));
  g_assert_cmpstr (jsonc_after, ==, user_jsonc);
  again = run_discovery (discovery);
  g_assert_true (clarify_found_agent_get_done (find (again, "opencode", CLARIFY_FOUND_ADD_CLARIFY)));
  g_clear_pointer (&found, g_ptr_array_unref);
  g_clear_pointer (&again, g_ptr_array_unref);

  /* Named in the .jsonc only (as `opencode mcp add` writes it when there is
   * no opencode.json): seen as done, and nothing is written. */
  g_assert_cmpint (g_unlink (opencode_json), ==, 0);
  named = g_strdup_printf ("{\n  // mine\n  \"mcp\": {\"clarify\": {\"type\": \"remote\", \"url\": \"http://127.0.0.1:%u/mcp\"}}\n}\n",
                           clarify_mcp_config_get_port ());
  g_file_set_contents (jsonc, named, -1, &error);
  g_assert_no_error (error);
  found = run_discovery (discovery);
  agent = find (found, "opencode", CLARIFY_FOUND_ADD_CLARIFY);
  g_assert_nonnull (agent);
  g_assert_true (clarify_found_agent_get_done (agent));
  g_assert_false (g_file_test (opencode_json, G_FILE_TEST_EXISTS));
}

static gboolean
has_looked (gpointer data)
{
  return clarify_agent_discovery_has_looked (data);
}

/* The UI's way: look() fills the found list once, and says when it runs. */
static void
test_look (void)
{
  g_autoptr(ClarifyAgentDiscovery) discovery = clarify_agent_discovery_new ();
  ClarifyTestServer *server = clarify_test_server_new ();
  guint16 port = clarify_test_server_get_port (server);
  GListModel *found = clarify_agent_discovery_get_found (discovery);
  g_autoptr(ClarifyFoundAgent) agent = NULL;
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", port);

  clarify_test_server_add_json (server, "GET", "/global/health", 200, "application/json",
                                "{\"healthy\":true,\"version\":\"1.18.33\"}");
  point_every_kind_at (discovery, closed_port ());
  clarify_agent_discovery_set_ports (discovery, "opencode", &port, 1);

  g_assert_false (clarify_agent_discovery_get_looking (discovery));
  clarify_agent_discovery_look (discovery);
  g_assert_true (clarify_agent_discovery_get_looking (discovery));
  /* A second click while looking is the same look. */
  clarify_agent_discovery_look (discovery);
  g_assert_true (clarify_test_loop_until (has_looked, discovery, WAIT_MS));
  g_assert_false (clarify_agent_discovery_get_looking (discovery));

  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  agent = g_list_model_get_item (found, 0);
  g_assert_cmpstr (clarify_found_agent_get_kind (agent), ==, "opencode");
  g_assert_cmpstr (clarify_found_agent_get_location (agent), ==, url);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "GET", "/global/health"), ==, 1);

  clarify_test_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  /* No real `claude` on this machine's PATH may count. */
  g_setenv ("PATH", "", TRUE);
  g_unsetenv ("CLAUDE_CONFIG_DIR");

  g_test_add_func ("/discovery/servers-found", test_servers_found);
  g_test_add_func ("/discovery/codenomad-https", test_codenomad_https);
  g_test_add_func ("/discovery/nothing-there", test_nothing_there);
  g_test_add_func ("/discovery/cancel", test_cancel);
  g_test_add_func ("/discovery/look", test_look);
  g_test_add_func ("/discovery/home-unusable", test_home_unusable);
  g_test_add_func ("/discovery/home", test_home);
  g_test_add_func ("/discovery/claude-projects", test_claude_projects);
  g_test_add_func ("/discovery/home-read-off-main-thread", test_home_read_off_main_thread);
  g_test_add_func ("/discovery/home-read-hangs", test_home_read_hangs);
  g_test_add_func ("/discovery/jsonc-read", test_jsonc_read);
  g_test_add_func ("/discovery/opencode-jsonc", test_opencode_jsonc);

  return g_test_run ();
}
