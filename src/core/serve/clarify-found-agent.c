/* clarify-found-agent.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-claude-settings.h"
#include "clarify-found-agent.h"
#include "clarify-json-config.h"
#include "clarify-mcp-server.h"
#include "clarify-secret.h"

struct _ClarifyFoundAgent
{
  GObject             parent_instance;

  ClarifyFoundAction  action;
  char               *kind;
  char               *location;
  char               *project;
  gboolean            done;
};

G_DEFINE_FINAL_TYPE (ClarifyFoundAgent, clarify_found_agent, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DONE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The key that holds the servers in @client's config. */
static const char *
servers_key (const char *client)
{
  return g_strcmp0 (client, "opencode") == 0 ? "mcp" : "mcpServers";
}

typedef struct
{
  const char *client;
  JsonNode   *entry;
} AddData;

static gboolean
add_entry (JsonNode  *root,
           gboolean  *changed,
           gpointer   user_data,
           GError   **error)
{
  AddData *data = user_data;
  const char *key = servers_key (data->client);
  JsonObject *object;
  JsonNode *servers;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("the file does not hold a JSON object"));
      return FALSE;
    }
  object = json_node_get_object (root);
  servers = json_object_get_member (object, key);
  if (servers != NULL && !JSON_NODE_HOLDS_OBJECT (servers))
    {
      /* Translators: %s is a JSON key, e.g. "mcpServers" */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” is not a JSON object"), key);
      return FALSE;
    }
  if (servers == NULL)
    json_object_set_object_member (object, key, json_object_new ());

  json_object_set_member (json_object_get_object_member (object, key), "clarify", json_node_copy (data->entry));
  *changed = TRUE;

  return TRUE;
}

static gboolean
add_clarify (ClarifyFoundAgent  *self,
             const char         *token,
             GError            **error)
{
  g_autofree char *url = NULL;
  g_autoptr(JsonNode) entry = NULL;
  AddData data;

  url = g_strdup_printf ("http://127.0.0.1:%u" CLARIFY_MCP_PATH, clarify_mcp_config_get_port ());
  entry = clarify_found_agent_mcp_entry (self->kind, url, token);
  data.client = self->kind;
  data.entry = entry;

  /* The entry holds the endpoint's token. */
  return clarify_json_config_update (self->location, TRUE, TRUE, add_entry, &data, NULL, NULL, error);
}

static gboolean
install_hooks (ClarifyFoundAgent  *self,
               const char         *program,
               GError            **error)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  gboolean flatpak = g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
  g_autofree char *command = NULL;

  if (!flatpak && (program == NULL || !g_path_is_absolute (program)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Cannot tell where the clarify program is"));
      return FALSE;
    }

  command = clarify_claude_hook_command (program, flatpak);

  return clarify_claude_settings_update (self->location, command, &result, error);
}

static void
clarify_found_agent_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  ClarifyFoundAgent *self = CLARIFY_FOUND_AGENT (object);

  switch (prop_id)
    {
    case PROP_DONE:
      g_value_set_boolean (value, self->done);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_found_agent_finalize (GObject *object)
{
  ClarifyFoundAgent *self = CLARIFY_FOUND_AGENT (object);

  g_free (self->kind);
  g_free (self->location);
  g_free (self->project);

  G_OBJECT_CLASS (clarify_found_agent_parent_class)->finalize (object);
}

static void
clarify_found_agent_class_init (ClarifyFoundAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = clarify_found_agent_get_property;
  object_class->finalize = clarify_found_agent_finalize;

  properties[PROP_DONE] =
    g_param_spec_boolean ("done", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_found_agent_init (ClarifyFoundAgent *self)
{
}

ClarifyFoundAgent *
clarify_found_agent_new (ClarifyFoundAction  action,
                         const char         *kind,
                         const char         *location,
                         gboolean            done)
{
  ClarifyFoundAgent *self;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (location != NULL, NULL);

  self = g_object_new (CLARIFY_TYPE_FOUND_AGENT, NULL);
  self->action = action;
  self->kind = g_strdup (kind);
  self->location = g_strdup (location);
  self->done = done;

  return self;
}

ClarifyFoundAgent *
clarify_found_agent_new_in_project (const char *kind,
                                    const char *location,
                                    const char *project)
{
  ClarifyFoundAgent *self;

  g_return_val_if_fail (project != NULL, NULL);

  self = clarify_found_agent_new (CLARIFY_FOUND_ADD_CLARIFY, kind, location, TRUE);
  self->project = g_strdup (project);

  return self;
}

ClarifyFoundAction
clarify_found_agent_get_action (ClarifyFoundAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_FOUND_AGENT (self), CLARIFY_FOUND_CONNECT);

  return self->action;
}

const char *
clarify_found_agent_get_kind (ClarifyFoundAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_FOUND_AGENT (self), NULL);

  return self->kind;
}

const char *
clarify_found_agent_get_location (ClarifyFoundAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_FOUND_AGENT (self), NULL);

  return self->location;
}

const char *
clarify_found_agent_get_project (ClarifyFoundAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_FOUND_AGENT (self), NULL);

  return self->project;
}

gboolean
clarify_found_agent_get_done (ClarifyFoundAgent *self)
{
  g_return_val_if_fail (CLARIFY_IS_FOUND_AGENT (self), FALSE);

  return self->done;
}

static void
mark_done (ClarifyFoundAgent *self)
{
  if (self->done)
    return;

  self->done = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DONE]);
}

static void
token_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyFoundAgent *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  char *token = clarify_mcp_token_ensure_finish (result, &error);
  gboolean ok;

  if (token == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  ok = add_clarify (self, token, &error);
  clarify_secret_free (token);
  if (!ok)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mark_done (self);
  g_task_return_boolean (task, TRUE);
}

void
clarify_found_agent_set_up_async (ClarifyFoundAgent   *self,
                                  const char          *program,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CLARIFY_IS_FOUND_AGENT (self));
  g_return_if_fail (self->action != CLARIFY_FOUND_CONNECT);
  /* A project's config is shared through its repository: the token
   * stays out of it. */
  g_return_if_fail (self->project == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_found_agent_set_up_async);

  /* The token comes from the keyring, which may be slow: the window that
   * offers this must not wait for it. */
  if (self->action == CLARIFY_FOUND_ADD_CLARIFY)
    {
      clarify_mcp_token_ensure_async (cancellable, token_cb, g_steal_pointer (&task));
      return;
    }

  if (!install_hooks (self, program, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mark_done (self);
  g_task_return_boolean (task, TRUE);
}

gboolean
clarify_found_agent_set_up_finish (ClarifyFoundAgent  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

JsonNode *
clarify_found_agent_mcp_entry (const char *client,
                               const char *url,
                               const char *token)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *bearer = g_strconcat ("Bearer ", token, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  /* As `clarify --mcp-info` shows them: OpenCode's remote server, and what
   * `claude mcp add --transport http` writes. */
  json_builder_add_string_value (builder, g_strcmp0 (client, "opencode") == 0 ? "remote" : "http");
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_set_member_name (builder, "headers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "Authorization");
  json_builder_add_string_value (builder, bearer);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
