/* clarify-agent-discovery.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <libsoup/soup.h>

#include "clarify-agent-discovery.h"
#include "clarify-backend-registry.h"
#include "clarify-claude-settings.h"
#include "clarify-json.h"
#include "clarify-json-config.h"
#include "clarify-mcp-server.h"

#define DEFAULT_TIMEOUT_MS 1500
/* A health answer is small; more is not one. */
#define MAX_BODY           (64 * 1024)
/* .claude.json lists every folder Claude Code ever ran in: the newest
 * are looked at. */
#define MAX_CLAUDE_PROJECTS 64

struct _ClarifyAgentDiscovery
{
  GObject     parent_instance;

  GHashTable   *ports;       /* kind → GArray of guint16, set for tests */
  GHashTable   *https_ports; /* the same over HTTPS */
  guint         timeout_ms;

  GListStore   *found;
  GCancellable *look;        /* while looking */
  gboolean      has_looked;
};

G_DEFINE_FINAL_TYPE (ClarifyAgentDiscovery, clarify_agent_discovery, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LOOKING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* One look: the probes still out and what was found. */
typedef struct
{
  SoupSession *session;
  GPtrArray   *servers;  /* one slot per probe, NULL or a ClarifyFoundAgent */
  GPtrArray   *local;    /* Claude Code and MCP configs */
  guint        pending;
  /* Once the probes are done, how long the home folder's files are
   * waited for; gave up: the look ended without them. */
  guint        home_wait_id;
  gboolean     home_read;
  gboolean     home_gave_up;
} Run;

typedef struct
{
  GTask                    *task;  /* owned */
  const ClarifyBackendInfo *info;
  char                     *url;
  guint                     slot;
} Probe;

/* A probe's slot stays NULL when nothing answered there. */
static void
unref_if_set (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static void
run_free (Run *run)
{
  g_clear_object (&run->session);
  g_clear_pointer (&run->servers, g_ptr_array_unref);
  g_clear_pointer (&run->local, g_ptr_array_unref);
  g_free (run);
}

static void
probe_free (Probe *probe)
{
  g_clear_object (&probe->task);
  g_free (probe->url);
  g_free (probe);
}

/* Whether @agent, found over HTTPS, was also found over plain HTTP: the
 * same server listening twice (CodeNomad with --http), offered once, where
 * no certificate can stand in the way. */
static gboolean
has_plain_twin (GPtrArray         *servers,
                ClarifyFoundAgent *agent)
{
  if (!g_str_has_prefix (clarify_found_agent_get_location (agent), "https:"))
    return FALSE;

  for (guint i = 0; i < servers->len; i++)
    {
      ClarifyFoundAgent *other = g_ptr_array_index (servers, i);

      if (other != NULL &&
          g_str_equal (clarify_found_agent_get_kind (other), clarify_found_agent_get_kind (agent)) &&
          g_str_has_prefix (clarify_found_agent_get_location (other), "http:"))
        return TRUE;
    }

  return FALSE;
}

static gboolean home_wait_over_cb (gpointer data);

static void
finish_if_done (GTask *task)
{
  ClarifyAgentDiscovery *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(GPtrArray) found = NULL;

  /* Only the home folder left: a read that hangs (a stalled network
   * share) must not keep the look open for good. */
  if (run->pending == 1 && !run->home_read && run->home_wait_id == 0)
    run->home_wait_id = g_timeout_add_full (G_PRIORITY_DEFAULT, self->timeout_ms, home_wait_over_cb,
                                            g_object_ref (task), g_object_unref);
  if (run->pending > 0)
    return;
  if (g_task_return_error_if_cancelled (task))
    return;

  found = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < run->servers->len; i++)
    {
      ClarifyFoundAgent *agent = g_ptr_array_index (run->servers, i);

      if (agent != NULL && !has_plain_twin (run->servers, agent))
        g_ptr_array_add (found, g_object_ref (agent));
    }
  for (guint i = 0; i < run->local->len; i++)
    g_ptr_array_add (found, g_object_ref (g_ptr_array_index (run->local, i)));

  g_task_return_pointer (task, g_steal_pointer (&found), (GDestroyNotify) g_ptr_array_unref);
}

static gboolean
accept_certificate_cb (SoupMessage          *message,
                       GTlsCertificate      *certificate,
                       GTlsCertificateFlags  errors,
                       gpointer              user_data)
{
  /* Only ever 127.0.0.1, where a server's own certificate is the norm. */
  return TRUE;
}

static void
probe_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  Probe *probe = user_data;
  Run *run = g_task_get_task_data (probe->task);
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (source), result);
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object = NULL;

  if (body != NULL && message != NULL)
    {
      gsize size = 0;
      const char *data = g_bytes_get_data (body, &size);

      if (size > 0 && size <= MAX_BODY)
        root = clarify_json_parse (data, size, NULL);
      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        object = json_node_get_object (root);

      if (probe->info->discovery->recognise (soup_message_get_status (message), object))
        g_ptr_array_index (run->servers, probe->slot) =
          clarify_found_agent_new (CLARIFY_FOUND_CONNECT, probe->info->kind, probe->url, FALSE);
    }

  run->pending--;
  finish_if_done (probe->task);
  probe_free (probe);
}

static void
start_probe (GTask                    *task,
             const ClarifyBackendInfo *info,
             const char               *scheme,
             guint16                   port)
{
  Run *run = g_task_get_task_data (task);
  const ClarifyBackendProbe *how = info->discovery;
  g_autofree char *uri = NULL;
  g_autoptr(SoupMessage) message = NULL;
  Probe *probe;

  probe = g_new0 (Probe, 1);
  probe->task = g_object_ref (task);
  probe->info = info;
  probe->url = g_strdup_printf ("%s://127.0.0.1:%u", scheme, port);
  probe->slot = run->servers->len;
  g_ptr_array_add (run->servers, NULL);

  uri = g_strconcat (probe->url, how->path, NULL);
  message = soup_message_new (SOUP_METHOD_GET, uri);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");
  g_signal_connect (message, "accept-certificate", G_CALLBACK (accept_certificate_cb), NULL);

  run->pending++;
  soup_session_send_and_read_async (run->session, message, G_PRIORITY_DEFAULT,
                                    g_task_get_cancellable (task), probe_done_cb, probe);
}

/* ---------------------------------------------------------------------- */
/* What is in the home folder */

static char *
claude_config_dir (void)
{
  const char *dir = g_getenv ("CLAUDE_CONFIG_DIR");

  if (dir != NULL && *dir != '\0')
    return g_strdup (dir);

  return g_build_filename (g_get_home_dir (), ".claude", NULL);
}

static gboolean
array_holds_string (JsonArray  *array,
                    const char *string)
{
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
          g_str_equal (json_node_get_string (element), string))
        return TRUE;
    }

  return FALSE;
}

/* Whether @servers (an "mcp" or "mcpServers" object) names Clarify: an
 * entry called clarify, or one at Clarify's endpoint, or one that runs
 * `clarify mcp-stdio`; entries named in @turned_off do not count. */
static gboolean
servers_name_clarify (JsonObject *servers,
                      JsonArray  *turned_off)
{
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u" CLARIFY_MCP_PATH,
                                          clarify_mcp_config_get_port ());
  g_autoptr(GList) names = json_object_get_members (servers);

  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (servers, l->data);
      JsonObject *entry;
      JsonNode *command;

      if (array_holds_string (turned_off, l->data))
        continue;
      if (g_ascii_strcasecmp (l->data, "clarify") == 0)
        return TRUE;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      entry = json_node_get_object (node);
      if (g_strcmp0 (json_object_get_string_member_with_default (entry, "url", NULL), url) == 0)
        return TRUE;

      /* A string (Claude Code) or an array (OpenCode's "command"). */
      command = json_object_get_member (entry, "command");
      if (command != NULL && JSON_NODE_HOLDS_ARRAY (command) &&
          json_array_get_length (json_node_get_array (command)) > 0)
        command = json_array_get_element (json_node_get_array (command), 0);
      if (command != NULL && JSON_NODE_HOLDS_VALUE (command) &&
          json_node_get_value_type (command) == G_TYPE_STRING)
        {
          g_autofree char *base = g_path_get_basename (json_node_get_string (command));

          if (g_str_equal (base, "clarify"))
            return TRUE;
        }
    }

  return FALSE;
}

/* Whether the OpenCode config beside @path, opencode.jsonc, names
 * Clarify. OpenCode reads both files of its folder and merges their
 * servers, so an entry in either is one; the .jsonc (comments allowed) is
 * only read, never rewritten: its comments would be lost. */
static gboolean
jsonc_beside_names_clarify (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *jsonc = g_build_filename (dir, "opencode.jsonc", NULL);
  g_autoptr(JsonNode) root = clarify_json_config_read_jsonc (jsonc, NULL);
  JsonNode *servers;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  servers = json_object_get_member (json_node_get_object (root), "mcp");

  return servers != NULL && JSON_NODE_HOLDS_OBJECT (servers) &&
         servers_name_clarify (json_node_get_object (servers), NULL);
}

/* An MCP client's config at @path: offered when it exists (or, with
 * @folder_is_enough, its folder does) and can take Clarify's entry.
 * Returns what the file holds, or NULL. */
static JsonNode *
look_at_mcp_config (GPtrArray  *found,
                    const char *client,
                    const char *path,
                    gboolean    folder_is_enough)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = clarify_json_config_read (path, &error);
  gboolean names = FALSE;

  if (root == NULL)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT) ||
          !folder_is_enough || !g_file_test (dir, G_FILE_TEST_IS_DIR))
        return NULL;
    }
  else
    {
      JsonNode *servers;

      /* Not a shape Clarify could add to. */
      if (!JSON_NODE_HOLDS_OBJECT (root))
        return g_steal_pointer (&root);
      servers = json_object_get_member (json_node_get_object (root),
                                        g_str_equal (client, "opencode") ? "mcp" : "mcpServers");
      if (servers != NULL && !JSON_NODE_HOLDS_OBJECT (servers))
        return g_steal_pointer (&root);
      names = servers != NULL && servers_name_clarify (json_node_get_object (servers), NULL);
    }

  if (!names && g_str_equal (client, "opencode"))
    names = jsonc_beside_names_clarify (path);

  g_ptr_array_add (found, clarify_found_agent_new (CLARIFY_FOUND_ADD_CLARIFY, client, path, names));

  return g_steal_pointer (&root);
}

/* Whether a project's .mcp.json names Clarify, leaving out a server the
 * user turned off for @project (Claude Code asks before it uses one). */
static gboolean
mcp_json_names_clarify (const char *path,
                        JsonObject *project)
{
  g_autoptr(JsonNode) root = clarify_json_config_read (path, NULL);
  JsonObject *servers;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  servers = clarify_json_get_object_member (json_node_get_object (root), "mcpServers");

  return servers != NULL &&
         servers_name_clarify (servers, clarify_json_get_array_member (project, "disabledMcpjsonServers"));
}

/* Claude Code's projects, as its .claude.json lists them. Each may have
 * servers of its own: in .claude.json (the "local" scope) and in the
 * project's .mcp.json (shared through its repository). A project whose
 * servers name Clarify is listed as set up; none is offered "Add
 * Clarify", since the entry holds the token and .mcp.json is committed.
 * The user's own config covers every project anyway. */
static void
look_at_claude_projects (GPtrArray  *found,
                         JsonNode   *claude_json_root,
                         const char *claude_json)
{
  JsonObject *projects;
  g_autoptr(GList) dirs = NULL;
  guint looked_at = 0;

  if (claude_json_root == NULL || !JSON_NODE_HOLDS_OBJECT (claude_json_root))
    return;
  projects = clarify_json_get_object_member (json_node_get_object (claude_json_root), "projects");
  if (projects == NULL)
    return;

  /* Claude Code adds a project as it first runs there: newest last. The
   * bound counts the folders gone too, since each costs a look at the disk. */
  dirs = g_list_reverse (json_object_get_members (projects));
  for (GList *l = dirs; l != NULL && looked_at < MAX_CLAUDE_PROJECTS; l = l->next)
    {
      const char *dir = l->data;
      JsonObject *project = clarify_json_get_object_member (projects, dir);
      JsonObject *servers;
      g_autofree char *mcp_json = NULL;

      if (project == NULL || !g_path_is_absolute (dir))
        continue;
      looked_at++;
      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        continue;

      servers = clarify_json_get_object_member (project, "mcpServers");
      mcp_json = g_build_filename (dir, ".mcp.json", NULL);
      if (servers != NULL && servers_name_clarify (servers, NULL))
        g_ptr_array_add (found, clarify_found_agent_new_in_project ("claude-code", claude_json, dir));
      else if (mcp_json_names_clarify (mcp_json, project))
        g_ptr_array_add (found, clarify_found_agent_new_in_project ("claude-code", mcp_json, dir));
    }
}

static void
look_at_home (GPtrArray *found)
{
  g_autofree char *dir = claude_config_dir ();
  g_autofree char *program = g_find_program_in_path ("claude");
  g_autofree char *claude_json = NULL;
  g_autofree char *opencode_json = NULL;
  g_autoptr(JsonNode) claude_json_root = NULL;
  g_autoptr(JsonNode) opencode_root = NULL;

  if (g_file_test (dir, G_FILE_TEST_IS_DIR) || program != NULL)
    {
      g_autofree char *settings = clarify_claude_settings_user_path ();

      g_ptr_array_add (found, clarify_found_agent_new (CLARIFY_FOUND_ANSWER_HERE, "claude-code", settings,
                                                       clarify_claude_settings_has_ours (settings)));
    }

  /* Claude Code keeps its user-wide MCP servers in .claude.json: in the
   * home folder, or in $CLAUDE_CONFIG_DIR when that is set. */
  if (g_getenv ("CLAUDE_CONFIG_DIR") != NULL && *g_getenv ("CLAUDE_CONFIG_DIR") != '\0')
    claude_json = g_build_filename (dir, ".claude.json", NULL);
  else
    claude_json = g_build_filename (g_get_home_dir (), ".claude.json", NULL);
  claude_json_root = look_at_mcp_config (found, "claude-code", claude_json, FALSE);
  look_at_claude_projects (found, claude_json_root, claude_json);

  opencode_json = g_build_filename (g_get_user_config_dir (), "opencode", "opencode.json", NULL);
  /* Kept only to be freed: nothing here reads it. */
  opencode_root = look_at_mcp_config (found, "opencode", opencode_json, TRUE);
}

/* The files are read on a worker thread: a home folder on a network share
 * or a large .claude.json must not hold up the window. */
static void
look_at_home_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_object_unref);

  look_at_home (found);
  g_task_return_pointer (task, found, (GDestroyNotify) g_ptr_array_unref);
}

static void
home_looked_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autoptr(GPtrArray) found = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Too late: the look ended without them. */
  if (run->home_gave_up)
    return;

  run->home_read = TRUE;
  g_clear_handle_id (&run->home_wait_id, g_source_remove);
  if (found != NULL)
    g_ptr_array_extend_and_steal (run->local, g_steal_pointer (&found));
  run->pending--;
  finish_if_done (task);
}

static gboolean
home_wait_over_cb (gpointer data)
{
  GTask *task = data;
  Run *run = g_task_get_task_data (task);

  g_message ("Reading the agents' settings in the home folder takes too long; "
             "the look for agents ended without them");
  run->home_wait_id = 0;
  run->home_gave_up = TRUE;
  run->pending--;
  finish_if_done (task);

  return G_SOURCE_REMOVE;
}

/* ---------------------------------------------------------------------- */

static void
look_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(ClarifyAgentDiscovery) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) found = clarify_agent_discovery_run_finish (self, result, &error);

  /* Cancelled: the object is going away. */
  if (found == NULL)
    return;

  g_clear_object (&self->look);
  self->has_looked = TRUE;
  g_list_store_splice (self->found, 0, g_list_model_get_n_items (G_LIST_MODEL (self->found)),
                       found->pdata, found->len);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOOKING]);
}

static void
clarify_agent_discovery_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  ClarifyAgentDiscovery *self = CLARIFY_AGENT_DISCOVERY (object);

  switch (prop_id)
    {
    case PROP_LOOKING:
      g_value_set_boolean (value, self->look != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_agent_discovery_dispose (GObject *object)
{
  ClarifyAgentDiscovery *self = CLARIFY_AGENT_DISCOVERY (object);

  g_cancellable_cancel (self->look);
  g_clear_object (&self->look);
  g_clear_object (&self->found);

  G_OBJECT_CLASS (clarify_agent_discovery_parent_class)->dispose (object);
}

static void
clarify_agent_discovery_finalize (GObject *object)
{
  ClarifyAgentDiscovery *self = CLARIFY_AGENT_DISCOVERY (object);

  g_clear_pointer (&self->ports, g_hash_table_unref);
  g_clear_pointer (&self->https_ports, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_agent_discovery_parent_class)->finalize (object);
}

static void
clarify_agent_discovery_class_init (ClarifyAgentDiscoveryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = clarify_agent_discovery_get_property;
  object_class->dispose = clarify_agent_discovery_dispose;
  object_class->finalize = clarify_agent_discovery_finalize;

  properties[PROP_LOOKING] =
    g_param_spec_boolean ("looking", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_agent_discovery_init (ClarifyAgentDiscovery *self)
{
  self->ports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  self->https_ports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  self->timeout_ms = DEFAULT_TIMEOUT_MS;
  self->found = g_list_store_new (CLARIFY_TYPE_FOUND_AGENT);
}

ClarifyAgentDiscovery *
clarify_agent_discovery_new (void)
{
  return g_object_new (CLARIFY_TYPE_AGENT_DISCOVERY, NULL);
}

static void
replace_ports (GHashTable    *table,
               const char    *kind,
               const guint16 *ports,
               guint          n_ports)
{
  GArray *array = g_array_sized_new (FALSE, FALSE, sizeof (guint16), n_ports);

  g_array_append_vals (array, ports, n_ports);
  g_hash_table_replace (table, g_strdup (kind), array);
}

void
clarify_agent_discovery_set_ports (ClarifyAgentDiscovery *self,
                                   const char            *kind,
                                   const guint16         *ports,
                                   guint                  n_ports)
{
  g_return_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self));
  g_return_if_fail (kind != NULL);
  g_return_if_fail (ports != NULL || n_ports == 0);

  replace_ports (self->ports, kind, ports, n_ports);
}

void
clarify_agent_discovery_set_https_ports (ClarifyAgentDiscovery *self,
                                         const char            *kind,
                                         const guint16         *ports,
                                         guint                  n_ports)
{
  g_return_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self));
  g_return_if_fail (kind != NULL);
  g_return_if_fail (ports != NULL || n_ports == 0);

  replace_ports (self->https_ports, kind, ports, n_ports);
}

void
clarify_agent_discovery_set_timeout (ClarifyAgentDiscovery *self,
                                     guint                  timeout_ms)
{
  g_return_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self));
  g_return_if_fail (timeout_ms > 0);

  self->timeout_ms = timeout_ms;
}

void
clarify_agent_discovery_run_async (ClarifyAgentDiscovery *self,
                                   GCancellable          *cancellable,
                                   GAsyncReadyCallback    callback,
                                   gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) home = NULL;
  const ClarifyBackendInfo *infos;
  guint n_infos;
  Run *run;

  g_return_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_agent_discovery_run_async);

  run = g_new0 (Run, 1);
  /* No proxy: a probe goes to this machine or nowhere. */
  run->session = soup_session_new_with_options ("proxy-resolver", NULL,
                                                "timeout", (self->timeout_ms + 999) / 1000,
                                                "idle-timeout", 1,
                                                "max-conns-per-host", 4,
                                                "user-agent", "Clarify/" PACKAGE_VERSION,
                                                NULL);
  run->servers = g_ptr_array_new_with_free_func (unref_if_set);
  run->local = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  /* One count for the home folder's files, read while the probes go out. */
  run->pending = 1;
  infos = clarify_backend_registry_get_all (&n_infos);
  for (guint i = 0; i < n_infos; i++)
    {
      const ClarifyBackendProbe *how = infos[i].discovery;
      GArray *ports, *https_ports;

      if (how == NULL)
        continue;

      /* A test's ports replace all of the kind's defaults. */
      ports = g_hash_table_lookup (self->ports, infos[i].kind);
      https_ports = g_hash_table_lookup (self->https_ports, infos[i].kind);
      if (ports != NULL || https_ports != NULL)
        {
          for (guint p = 0; ports != NULL && p < ports->len; p++)
            start_probe (task, &infos[i], how->scheme, g_array_index (ports, guint16, p));
          for (guint p = 0; https_ports != NULL && p < https_ports->len; p++)
            start_probe (task, &infos[i], "https", g_array_index (https_ports, guint16, p));
        }
      else
        {
          for (guint p = 0; p < G_N_ELEMENTS (how->ports) && how->ports[p] != 0; p++)
            start_probe (task, &infos[i], how->scheme, how->ports[p]);
          for (guint p = 0; p < G_N_ELEMENTS (how->https_ports) && how->https_ports[p] != 0; p++)
            start_probe (task, &infos[i], "https", how->https_ports[p]);
        }
    }

  home = g_task_new (self, cancellable, home_looked_cb, g_object_ref (task));
  g_task_set_source_tag (home, look_at_home_thread);
  g_task_run_in_thread (home, look_at_home_thread);

  /* No probe went out: the home folder's wait starts now. */
  finish_if_done (task);
}

GPtrArray *
clarify_agent_discovery_run_finish (ClarifyAgentDiscovery  *self,
                                    GAsyncResult           *result,
                                    GError                **error)
{
  g_return_val_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

GListModel *
clarify_agent_discovery_get_found (ClarifyAgentDiscovery *self)
{
  g_return_val_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self), NULL);

  return G_LIST_MODEL (self->found);
}

gboolean
clarify_agent_discovery_get_looking (ClarifyAgentDiscovery *self)
{
  g_return_val_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self), FALSE);

  return self->look != NULL;
}

gboolean
clarify_agent_discovery_has_looked (ClarifyAgentDiscovery *self)
{
  g_return_val_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self), FALSE);

  return self->has_looked;
}

void
clarify_agent_discovery_look (ClarifyAgentDiscovery *self)
{
  g_return_if_fail (CLARIFY_IS_AGENT_DISCOVERY (self));

  if (self->look != NULL)
    return;

  self->look = g_cancellable_new ();
  clarify_agent_discovery_run_async (self, self->look, look_done_cb, g_object_ref (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOOKING]);
}
