/* clarify-test-opencode-real.c: the real `opencode serve` for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "clarify-test-npm.h"
#include "clarify-test-opencode-real.h"
#include "clarify-test-server.h"

#define SLOW_MS CLARIFY_TEST_OPENCODE_SLOW_MS

/* @object's member @name if it is an object; unlike json-glib's getter,
 * quietly NULL otherwise. */
static JsonObject *
object_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The fake model ---------------------------------------------------------- */

static char *
tool_message_text (JsonObject *message)
{
  JsonNode *content = json_object_get_member (message, "content");
  GString *text = g_string_new (NULL);

  if (content != NULL && json_node_get_value_type (content) == G_TYPE_STRING)
    g_string_append (text, json_node_get_string (content));
  else if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *parts = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (parts); i++)
        {
          JsonObject *part = json_array_get_object_element (parts, i);

          if (part != NULL && json_object_has_member (part, "text"))
            g_string_append (text, json_object_get_string_member (part, "text"));
        }
    }

  return g_string_free (text, FALSE);
}

static char *
chunk (const char *delta,
       const char *finish_reason)
{
  return g_strdup_printf ("data: {\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,"
                          "\"model\":\"fake-model\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n",
                          delta, finish_reason);
}

/* @text as a JSON string literal. */
static char *
json_quote (const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, text);
  return clarify_test_to_json (node);
}

static char *
tool_call_stream (const ClarifyTestToolCall *call)
{
  /* The arguments travel as a JSON string inside the JSON chunk. */
  g_autofree char *quoted = json_quote (call->arguments);
  g_autofree char *delta = NULL;
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;

  delta = g_strdup_printf ("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"%s\","
                           "\"type\":\"function\",\"function\":{\"name\":\"%s\",\"arguments\":%s}}]}",
                           call->call_id, call->tool, quoted);
  first = chunk (delta, "null");
  last = chunk ("{}", "\"tool_calls\"");

  return g_strconcat (first, last, "data: [DONE]\n\n", NULL);
}

static char *
text_stream (const char *text)
{
  g_autofree char *delta = g_strdup_printf ("{\"role\":\"assistant\",\"content\":\"%s\"}", text);
  g_autofree char *first = chunk (delta, "null");
  g_autofree char *last = chunk ("{}", "\"stop\"");

  return g_strconcat (first, last, "data: [DONE]\n\n", NULL);
}

/* What the script says after the result of @last_tool_call (NULL: none yet). */
static char *
next_reply (ClarifyTestFakeModel *fake,
            const char           *last_tool_call)
{
  guint next = 0;

  if (last_tool_call != NULL)
    {
      next = fake->n_script;
      for (guint i = 0; i < fake->n_script; i++)
        if (g_str_equal (fake->script[i].call_id, last_tool_call))
          next = i + 1;
    }

  if (next < fake->n_script)
    return tool_call_stream (&fake->script[next]);
  return text_stream ("All done.");
}

static void
fake_model_handler (SoupServer        *server,
                    SoupServerMessage *message,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  ClarifyTestFakeModel *fake = user_data;
  SoupMessageBody *request_body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (request_body);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *reply = NULL;
  JsonObject *root;
  JsonArray *messages;
  const char *last_tool_call = NULL;
  gsize len;

  if (g_str_has_suffix (path, "/models"))
    {
      const char *models = "{\"object\":\"list\",\"data\":[{\"id\":\"fake-model\",\"object\":\"model\",\"owned_by\":\"test\"}]}";

      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, models, strlen (models));
      return;
    }

  if (!g_str_has_suffix (path, "/chat/completions") ||
      !json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      soup_server_message_set_status (message, 404, NULL);
      return;
    }

  fake->n_calls++;
  g_ptr_array_add (fake->requests, json_node_copy (json_parser_get_root (parser)));
  root = json_node_get_object (json_parser_get_root (parser));
  messages = json_object_get_array_member (root, "messages");

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *m = json_array_get_object_element (messages, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (m, "role", ""), "tool") == 0)
        {
          last_tool_call = json_object_get_string_member_with_default (m, "tool_call_id", "");
          if (i + 1 == json_array_get_length (messages))
            g_ptr_array_add (fake->tool_results, tool_message_text (m));
        }
    }

  /* Title generation and the like come without tools. */
  if (!json_object_has_member (root, "tools"))
    reply = text_stream ("Fake session");
  else
    reply = next_reply (fake, last_tool_call);

  soup_server_message_set_status (message, 200, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Cache-Control", "no-cache");
  len = strlen (reply);
  soup_server_message_set_response (message, "text/event-stream", SOUP_MEMORY_TAKE, g_steal_pointer (&reply), len);
}

static ClarifyTestFakeModel *
fake_model_new (const ClarifyTestToolCall *script,
                guint                      n_script)
{
  ClarifyTestFakeModel *fake = g_new0 (ClarifyTestFakeModel, 1);
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;

  fake->script = script;
  fake->n_script = n_script;
  fake->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  fake->tool_results = g_ptr_array_new_with_free_func (g_free);
  fake->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (fake->server, "/v1", fake_model_handler, fake, NULL);
  soup_server_listen_local (fake->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (fake->server);
  fake->base_url = g_strdup_printf ("http://127.0.0.1:%d/v1", g_uri_get_port (uris->data));

  return fake;
}

static void
fake_model_free (ClarifyTestFakeModel *fake)
{
  soup_server_disconnect (fake->server);
  g_object_unref (fake->server);
  g_ptr_array_unref (fake->requests);
  g_ptr_array_unref (fake->tool_results);
  g_free (fake->base_url);
  g_free (fake);
}

static gboolean
has_tool_results (gpointer data)
{
  ClarifyTestFakeModel *fake = data;

  return fake->tool_results->len >= fake->want;
}

void
clarify_test_fake_model_wait_for_tool_results (ClarifyTestFakeModel *fake,
                                               guint                 n)
{
  fake->want = n;
  g_assert_true (clarify_test_loop_until (has_tool_results, fake, SLOW_MS));
}

static gboolean
has_offered_tools (gpointer data)
{
  ClarifyTestFakeModel *fake = data;

  for (guint i = 0; i < fake->requests->len; i++)
    if (json_object_has_member (json_node_get_object (fake->requests->pdata[i]), "tools"))
      return TRUE;
  return FALSE;
}

JsonObject *
clarify_test_fake_model_wait_for_tool (ClarifyTestFakeModel *fake,
                                       const char           *name)
{
  g_assert_true (clarify_test_loop_until (has_offered_tools, fake, SLOW_MS));

  for (guint i = fake->requests->len; i > 0; i--)
    {
      JsonObject *request = json_node_get_object (fake->requests->pdata[i - 1]);
      JsonArray *tools;

      if (!json_object_has_member (request, "tools"))
        continue;

      tools = json_object_get_array_member (request, "tools");
      for (guint j = 0; tools != NULL && j < json_array_get_length (tools); j++)
        {
          JsonObject *tool = json_array_get_object_element (tools, j);
          JsonObject *function = object_member (tool, "function");

          if (function != NULL &&
              g_strcmp0 (json_object_get_string_member_with_default (function, "name", NULL), name) == 0)
            return function;
        }
      return NULL;
    }

  return NULL;
}

/* npm and the server ------------------------------------------------------ */

/* The opencode binary from the build dir's cache, installed on first use.
 * NULL when the test was skipped because npm cannot reach the registry. */
static char *
ensure_opencode (void)
{
  g_autofree char *cache = clarify_test_npm_install ("opencode-npm", "opencode-ai", CLARIFY_TEST_OPENCODE_VERSION);
  g_autofree char *bin = NULL;

  if (cache == NULL)
    return NULL;

  bin = g_build_filename (cache, "node_modules", ".bin", "opencode", NULL);
  g_assert_true (g_file_test (bin, G_FILE_TEST_IS_EXECUTABLE));
  return g_steal_pointer (&bin);
}

static void
write_project (const char *project,
               const char *model_url,
               const char *extra_config)
{
  g_autofree char *config_path = g_build_filename (project, "opencode.json", NULL);
  g_autofree char *extra = extra_config != NULL ? g_strdup_printf ("  %s,\n", extra_config) : g_strdup ("");
  g_autofree char *config = g_strdup_printf (
    "{\n"
    "  \"$schema\": \"https://opencode.ai/config.json\",\n"
    "  \"autoupdate\": false,\n"
    "  \"share\": \"disabled\",\n"
    "  \"model\": \"fake/fake-model\",\n"
    "  \"small_model\": \"fake/fake-model\",\n"
    "  \"enabled_providers\": [\"fake\"],\n"
    "%s"
    "  \"provider\": {\n"
    "    \"fake\": {\n"
    "      \"npm\": \"@ai-sdk/openai-compatible\",\n"
    "      \"name\": \"Fake LLM\",\n"
    "      \"options\": { \"baseURL\": \"%s\", \"apiKey\": \"sk-fake\" },\n"
    "      \"models\": { \"fake-model\": { \"name\": \"Fake Model\", \"tool_call\": true,\n"
    "                                  \"limit\": { \"context\": 128000, \"output\": 4096 } } }\n"
    "    }\n"
    "  }\n"
    "}\n", extra, model_url);
  g_autoptr(GError) error = NULL;
  const char *git[] = { "git", "init", "-q", NULL };

  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  g_file_set_contents (config_path, config, -1, &error);
  g_assert_no_error (error);
  /* A git repository makes it a project of its own; without git it still works. */
  g_spawn_sync (project, (char **) git, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, NULL, NULL);
}

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ClarifyTestOpencode *self = user_data;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, NULL);
  const char *url;

  if (line == NULL)
    return;

  /* "opencode server listening on http://127.0.0.1:PORT" */
  if (self->base_url == NULL && strstr (line, "listening on") != NULL && (url = strstr (line, "http://")) != NULL)
    self->base_url = g_strstrip (g_strdup (url));

  /* Keep draining so the pipe never fills. */
  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (object), G_PRIORITY_DEFAULT, NULL, read_line_cb, self);
}

static gboolean
server_listening (gpointer data)
{
  return ((ClarifyTestOpencode *) data)->base_url != NULL;
}

static void
server_start (ClarifyTestOpencode *self,
              const char          *bin)
{
  static const char *dirs[][2] = {
    { "HOME", "home" },
    { "XDG_CONFIG_HOME", "config" },
    { "XDG_DATA_HOME", "data" },
    { "XDG_CACHE_HOME", "cache" },
    { "XDG_STATE_HOME", "state" },
  };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GError) error = NULL;
  /* Every switch from the protocol notes (A7): nothing may leave loopback. */
  static const char *offline[][2] = {
    { "OPENCODE_DISABLE_MODELS_FETCH", "1" },
    { "OPENCODE_DISABLE_AUTOUPDATE", "1" },
    { "OPENCODE_DISABLE_DEFAULT_PLUGINS", "1" },
    { "OPENCODE_DISABLE_LSP_DOWNLOAD", "1" },
    { "OPENCODE_DISABLE_SHARE", "1" },
    { "OPENCODE_DISABLE_CLAUDE_CODE", "1" },
    { "OPENCODE_DISABLE_EXTERNAL_SKILLS", "1" },
    { "OPENCODE_PURE", "1" },
    { "npm_config_registry", "http://127.0.0.1:9/" },
  };

  /* Nothing of the user's: a HOME and XDG dirs of its own. */
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (self->root, dirs[i][1], NULL);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      g_subprocess_launcher_setenv (launcher, dirs[i][0], dir, TRUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (offline); i++)
    g_subprocess_launcher_setenv (launcher, offline[i][0], offline[i][1], TRUE);
  g_subprocess_launcher_unsetenv (launcher, "OPENCODE_SERVER_PASSWORD");
  g_subprocess_launcher_set_cwd (launcher, self->project);

  self->process = g_subprocess_launcher_spawn (launcher, &error, bin, "serve", "--port", "0",
                                               "--hostname", "127.0.0.1", "--pure", NULL);
  g_assert_no_error (error);
  self->stdout_lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  g_data_input_stream_read_line_async (self->stdout_lines, G_PRIORITY_DEFAULT, NULL, read_line_cb, self);

  /* A request sent before this line can hang forever. */
  g_assert_true (clarify_test_loop_until (server_listening, self, SLOW_MS));
  g_test_message ("opencode serve: %s", self->base_url);
}

/* OpenCode's own events, as its other clients see them. */

static void
on_event (ClarifySseClient    *client,
          const char          *type,
          const char          *data,
          const char          *id,
          ClarifyTestOpencode *self)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *payload;

  if (!json_parser_load_from_data (parser, data, -1, NULL) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;
  payload = json_object_get_member (json_node_get_object (json_parser_get_root (parser)), "payload");
  if (payload != NULL && JSON_NODE_HOLDS_OBJECT (payload))
    g_ptr_array_add (self->events, json_node_copy (payload));
}

gboolean
clarify_test_opencode_start (ClarifyTestOpencode       *self,
                             const ClarifyTestToolCall *script,
                             guint                      n_script,
                             const char                *extra_config)
{
  g_autofree char *bin = ensure_opencode ();
  g_autofree char *url = NULL;

  memset (self, 0, sizeof *self);
  if (bin == NULL)
    return FALSE;

  self->model = fake_model_new (script, n_script);
  self->root = g_dir_make_tmp ("clarify-opencode-real-XXXXXX", NULL);
  g_assert_nonnull (self->root);
  self->project = g_build_filename (self->root, "project", NULL);
  write_project (self->project, self->model->base_url, extra_config);
  server_start (self, bin);
  self->session = soup_session_new ();

  self->events = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  url = g_strconcat (self->base_url, "/global/event", NULL);
  self->recorder = clarify_sse_client_new (self->session, url);
  g_signal_connect (self->recorder, "event", G_CALLBACK (on_event), self);
  clarify_sse_client_start (self->recorder);

  return TRUE;
}

static void
remove_tree (const char *path)
{
  const char *argv[] = { "rm", "-rf", path, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

void
clarify_test_opencode_stop (ClarifyTestOpencode *self)
{
  if (self->recorder != NULL)
    {
      clarify_sse_client_stop (self->recorder);
      g_signal_handlers_disconnect_by_data (self->recorder, self);
    }
  g_clear_object (&self->recorder);
  if (self->process != NULL)
    {
      g_subprocess_send_signal (self->process, SIGTERM);
      g_subprocess_wait (self->process, NULL, NULL);
    }
  g_clear_object (&self->stdout_lines);
  g_clear_object (&self->process);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_object (&self->session);
  g_clear_pointer (&self->model, fake_model_free);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  if (self->root != NULL)
    remove_tree (self->root);
  g_clear_pointer (&self->root, g_free);
  g_clear_pointer (&self->project, g_free);
}

/* HTTP to the real server, with the main loop running meanwhile. */

typedef struct
{
  GBytes   *body;
  gboolean  done;
} Call;

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Call *call = user_data;

  call->body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);
  call->done = TRUE;
}

static gboolean
call_done (gpointer data)
{
  return ((Call *) data)->done;
}

JsonNode *
clarify_test_opencode_request (ClarifyTestOpencode *self,
                               const char          *method,
                               const char          *path,
                               const char          *body,
                               guint                expected_status)
{
  g_autofree char *url = g_strconcat (self->base_url, path, NULL);
  g_autoptr(SoupMessage) message = soup_message_new (method, url);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GBytes) reply = NULL;
  Call call = { NULL, FALSE };
  gsize size = 0;
  const char *data;

  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (message, "application/json", bytes);
    }
  soup_session_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, NULL, call_cb, &call);
  g_assert_true (clarify_test_loop_until (call_done, &call, SLOW_MS));
  reply = call.body;
  g_assert_nonnull (reply);
  g_assert_cmpuint (soup_message_get_status (message), ==, expected_status);

  data = g_bytes_get_data (reply, &size);
  if (size == 0 || !json_parser_load_from_data (parser, data, size, NULL))
    return NULL;
  return json_node_ref (json_parser_get_root (parser));
}

char *
clarify_test_opencode_create_session (ClarifyTestOpencode *self,
                                      const char          *body)
{
  g_autoptr(JsonNode) created = clarify_test_opencode_request (self, SOUP_METHOD_POST, "/session", body, 200);

  g_assert_nonnull (created);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (created));
  return g_strdup (json_object_get_string_member (json_node_get_object (created), "id"));
}

void
clarify_test_opencode_prompt (ClarifyTestOpencode *self,
                              const char          *session_id,
                              const char          *text)
{
  g_autofree char *quoted = json_quote (text);
  g_autofree char *body = g_strdup_printf ("{\"parts\":[{\"type\":\"text\",\"text\":%s}]}", quoted);
  g_autofree char *path = g_strdup_printf ("/session/%s/prompt_async", session_id);
  g_autoptr(JsonNode) reply = NULL;

  reply = clarify_test_opencode_request (self, SOUP_METHOD_POST, path, body, 204);
}

/* Waiting for events -------------------------------------------------------- */

typedef gboolean (*EventMatch) (JsonObject *properties,
                                gpointer    data);

typedef struct
{
  ClarifyTestOpencode *self;
  const char          *type;
  EventMatch           match;
  gpointer             match_data;
  JsonObject          *found;
} EventWait;

static gboolean
has_event (gpointer data)
{
  EventWait *wait = data;
  GPtrArray *events = wait->self->events;

  for (guint i = 0; i < events->len; i++)
    {
      JsonObject *payload = json_node_get_object (events->pdata[i]);
      JsonObject *properties;

      if (g_strcmp0 (json_object_get_string_member_with_default (payload, "type", NULL), wait->type) != 0)
        continue;
      properties = object_member (payload, "properties");
      if (wait->match == NULL || (properties != NULL && wait->match (properties, wait->match_data)))
        {
          wait->found = properties;
          return TRUE;
        }
    }
  return FALSE;
}

static JsonObject *
wait_for_event (ClarifyTestOpencode *self,
                const char          *type,
                EventMatch           match,
                gpointer             match_data)
{
  EventWait wait = { self, type, match, match_data, NULL };

  g_assert_true (clarify_test_loop_until (has_event, &wait, SLOW_MS));
  return wait.found;
}

JsonObject *
clarify_test_opencode_wait_for_event (ClarifyTestOpencode *self,
                                      const char          *type)
{
  return wait_for_event (self, type, NULL, NULL);
}

typedef struct
{
  const char *call_id;
  const char *status;
} ToolPartWanted;

static gboolean
is_tool_part (JsonObject *properties,
              gpointer    data)
{
  ToolPartWanted *wanted = data;
  JsonObject *part = object_member (properties, "part");
  JsonObject *state = object_member (part, "state");

  return state != NULL &&
         g_strcmp0 (json_object_get_string_member_with_default (part, "type", NULL), "tool") == 0 &&
         g_strcmp0 (json_object_get_string_member_with_default (part, "callID", NULL), wanted->call_id) == 0 &&
         g_strcmp0 (json_object_get_string_member_with_default (state, "status", NULL), wanted->status) == 0;
}

JsonObject *
clarify_test_opencode_wait_for_tool_part (ClarifyTestOpencode *self,
                                          const char          *call_id,
                                          const char          *status)
{
  ToolPartWanted wanted = { call_id, status };

  return object_member (wait_for_event (self, "message.part.updated", is_tool_part, &wanted), "part");
}

char *
clarify_test_to_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}
