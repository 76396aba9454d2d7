/* clarify-test-claude-api.c: the fake Anthropic Messages API Claude Code
 * talks to in tests (declared in clarify-test-claude-real.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-test-claude-real.h"
#include "clarify-test-server.h"

#define MESSAGES_PATH     "/v1/messages"
#define COUNT_TOKENS_PATH "/v1/messages/count_tokens"

struct _ClarifyTestClaudeApi
{
  ClarifyTestServer           *server;
  char                        *url;
  const ClarifyTestClaudeCall *script;
  guint                        n_script;
  GMainContext                *waiter;   /* the test's, woken on every request */

  /* The server thread writes, the test's thread reads. */
  GMutex                       mutex;
  GPtrArray                   *requests; /* JsonNode: every Messages body */
  gint64                      *call_times;    /* when each call of the script was first sent */
  GPtrArray                   *results;  /* ClarifyTestClaudeResult */
};

static void
result_free (gpointer data)
{
  ClarifyTestClaudeResult *result = data;

  g_free (result->tool_use_id);
  g_free (result->content);
  g_free (result);
}

/* @text as a JSON string literal. */
static char *
json_quote (const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, text);
  return json_to_string (node, FALSE);
}

static char *
tool_use_id (guint index)
{
  return g_strdup_printf ("toolu_clarify_%u", index + 1);
}

/* The text of a tool_result's content: a string, or text blocks. */
static char *
result_text (JsonNode *content)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (content != NULL && json_node_get_value_type (content) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (content));

  for (guint i = 0; content != NULL && JSON_NODE_HOLDS_ARRAY (content) && i < json_array_get_length (json_node_get_array (content)); i++)
    {
      JsonNode *block = json_array_get_element (json_node_get_array (content), i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (block) ? json_node_get_object (block) : NULL;

      if (object != NULL && g_strcmp0 (json_object_get_string_member_with_default (object, "type", NULL), "text") == 0)
        g_string_append_printf (text, "%s%s", text->len > 0 ? "\n" : "",
                                json_object_get_string_member_with_default (object, "text", ""));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The content blocks of @message if it is an array of them, or NULL. */
static JsonArray *
message_blocks (JsonNode *message)
{
  JsonNode *content;

  if (message == NULL || !JSON_NODE_HOLDS_OBJECT (message))
    return NULL;
  content = json_object_get_member (json_node_get_object (message), "content");
  return content != NULL && JSON_NODE_HOLDS_ARRAY (content) ? json_node_get_array (content) : NULL;
}

static JsonObject *
block_if_tool_result (JsonArray *blocks,
                      guint      i)
{
  JsonNode *block = json_array_get_element (blocks, i);
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (block) ? json_node_get_object (block) : NULL;

  if (object == NULL || g_strcmp0 (json_object_get_string_member_with_default (object, "type", NULL), "tool_result") != 0)
    return NULL;
  return object;
}

/* Mutex held. Records the tool results the last user message carries, each id
 * once (a retried request carries them again). */
static void
record_results (ClarifyTestClaudeApi *api,
                JsonArray            *blocks,
                gint64                now)
{
  for (guint i = 0; blocks != NULL && i < json_array_get_length (blocks); i++)
    {
      JsonObject *block = block_if_tool_result (blocks, i);
      const char *id;
      gboolean known = FALSE;
      ClarifyTestClaudeResult *result;

      if (block == NULL)
        continue;
      id = json_object_get_string_member_with_default (block, "tool_use_id", "");
      for (guint j = 0; j < api->results->len; j++)
        known |= g_str_equal (((ClarifyTestClaudeResult *) api->results->pdata[j])->tool_use_id, id);
      if (known)
        continue;

      result = g_new0 (ClarifyTestClaudeResult, 1);
      result->tool_use_id = g_strdup (id);
      result->content = result_text (json_object_get_member (block, "content"));
      result->is_error = json_object_get_boolean_member_with_default (block, "is_error", FALSE);
      result->received_at = now;
      g_ptr_array_add (api->results, result);
    }
}

/* The script's call that answers a conversation whose last user message
 * holds @blocks: the first one on a turn that has no result of ours yet,
 * the one after the call whose result it carries; n_script for text. */
static guint
next_call (ClarifyTestClaudeApi *api,
           JsonArray            *messages,
           JsonArray            *blocks)
{
  guint next = 0;

  /* A later user turn, after the script has run: just text. */
  for (guint m = 0; m < json_array_get_length (messages); m++)
    {
      JsonArray *earlier = message_blocks (json_array_get_element (messages, m));

      for (guint i = 0; earlier != NULL && i < json_array_get_length (earlier); i++)
        if (block_if_tool_result (earlier, i) != NULL)
          next = api->n_script;
    }

  for (guint i = 0; blocks != NULL && i < json_array_get_length (blocks); i++)
    {
      JsonObject *block = block_if_tool_result (blocks, i);

      if (block == NULL)
        continue;
      next = api->n_script;
      for (guint k = 0; k < api->n_script; k++)
        {
          g_autofree char *id = tool_use_id (k);

          if (g_strcmp0 (json_object_get_string_member_with_default (block, "tool_use_id", NULL), id) == 0)
            return k + 1;
        }
    }

  return next;
}

static gboolean
offers_tool (JsonObject *request,
             const char *name)
{
  JsonNode *tools = json_object_get_member (request, "tools");

  for (guint i = 0; tools != NULL && JSON_NODE_HOLDS_ARRAY (tools) && i < json_array_get_length (json_node_get_array (tools)); i++)
    {
      JsonNode *tool = json_array_get_element (json_node_get_array (tools), i);

      if (JSON_NODE_HOLDS_OBJECT (tool) &&
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (tool), "name", NULL), name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
sse_event (GString    *out,
           const char *type,
           const char *data)
{
  g_string_append_printf (out, "event: %s\ndata: %s\n\n", type, data);
}

/* One streamed assistant message: @call's tool_use block, or @text. */
static char *
message_stream (const char                  *model,
                guint                        n,
                const ClarifyTestClaudeCall *call,
                guint                        call_index,
                const char                  *text)
{
  GString *out = g_string_new (NULL);
  g_autofree char *start = NULL;
  g_autofree char *block = NULL;
  g_autofree char *delta = NULL;
  g_autofree char *end = NULL;

  start = g_strdup_printf ("{\"type\":\"message_start\",\"message\":{\"id\":\"msg_clarify_%u\",\"type\":\"message\","
                           "\"role\":\"assistant\",\"model\":%s,\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
                           "\"usage\":{\"input_tokens\":1,\"output_tokens\":1,\"cache_creation_input_tokens\":0,"
                           "\"cache_read_input_tokens\":0}}}", n, model);
  if (call != NULL)
    {
      g_autofree char *id = tool_use_id (call_index);
      g_autofree char *name = json_quote (call->tool);
      g_autofree char *input = json_quote (call->input);

      block = g_strdup_printf ("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\","
                               "\"id\":\"%s\",\"name\":%s,\"input\":{}}}", id, name);
      delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
                               "\"partial_json\":%s}}", input);
    }
  else
    {
      g_autofree char *quoted = json_quote (text);

      block = g_strdup ("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
      delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                               "\"text\":%s}}", quoted);
    }
  end = g_strdup_printf ("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"%s\",\"stop_sequence\":null},"
                         "\"usage\":{\"output_tokens\":1}}", call != NULL ? "tool_use" : "end_turn");

  sse_event (out, "message_start", start);
  sse_event (out, "content_block_start", block);
  sse_event (out, "content_block_delta", delta);
  sse_event (out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
  sse_event (out, "message_delta", end);
  sse_event (out, "message_stop", "{\"type\":\"message_stop\"}");

  return g_string_free (out, FALSE);
}

static char *
message_json (const char *model,
              guint       n,
              const char *text)
{
  g_autofree char *quoted = json_quote (text);

  return g_strdup_printf ("{\"id\":\"msg_clarify_%u\",\"type\":\"message\",\"role\":\"assistant\",\"model\":%s,"
                          "\"content\":[{\"type\":\"text\",\"text\":%s}],\"stop_reason\":\"end_turn\","
                          "\"stop_sequence\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}",
                          n, model, quoted);
}

/* Server thread. */
static void
messages_handler (const ClarifyTestRequest *request,
                  guint                    *status,
                  char                    **content_type,
                  char                    **body,
                  gpointer                  user_data)
{
  ClarifyTestClaudeApi *api = user_data;
  gint64 now = g_get_monotonic_time ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *model = NULL;
  JsonObject *root;
  JsonArray *messages;
  JsonArray *last_blocks = NULL;
  guint length;
  guint next;
  guint n;

  if (!json_parser_load_from_data (parser, request->body, request->body_len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      !json_object_has_member (json_node_get_object (json_parser_get_root (parser)), "messages"))
    {
      *status = SOUP_STATUS_BAD_REQUEST;
      *body = g_strdup ("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"not a Messages request\"}}");
      return;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  messages = json_object_get_array_member (root, "messages");
  length = messages != NULL ? json_array_get_length (messages) : 0;
  /* The user's turn or the tool results; a system message may follow. */
  for (guint i = length; i > 0; i--)
    {
      JsonNode *message = json_array_get_element (messages, i - 1);

      if (JSON_NODE_HOLDS_OBJECT (message) &&
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (message), "role", NULL), "user") == 0)
        {
          last_blocks = message_blocks (message);
          break;
        }
    }
  model = json_quote (json_object_get_string_member_with_default (root, "model", "claude-fake"));

  g_mutex_lock (&api->mutex);
  g_ptr_array_add (api->requests, json_node_copy (json_parser_get_root (parser)));
  n = api->requests->len;
  record_results (api, last_blocks, now);
  next = messages != NULL ? next_call (api, messages, last_blocks) : api->n_script;
  g_mutex_unlock (&api->mutex);
  g_main_context_wakeup (api->waiter);

  if (!json_object_get_boolean_member_with_default (root, "stream", FALSE))
    {
      *body = message_json (model, n, "OK.");
      return;
    }

  *content_type = g_strdup ("text/event-stream");
  if (next < api->n_script && offers_tool (root, api->script[next].tool))
    {
      g_mutex_lock (&api->mutex);
      if (api->call_times[next] == 0)
        api->call_times[next] = now;
      g_mutex_unlock (&api->mutex);
      *body = message_stream (model, n, &api->script[next], next, NULL);
    }
  else
    *body = message_stream (model, n, NULL, 0, next > 0 && next >= api->n_script ? "All done." : "OK.");
}

static void
count_tokens_handler (const ClarifyTestRequest *request,
                      guint                    *status,
                      char                    **content_type,
                      char                    **body,
                      gpointer                  user_data)
{
  *body = g_strdup ("{\"input_tokens\":1}");
}

ClarifyTestClaudeApi *
clarify_test_claude_api_new (const ClarifyTestClaudeCall *script,
                             guint                        n_script)
{
  ClarifyTestClaudeApi *api = g_new0 (ClarifyTestClaudeApi, 1);

  api->script = script;
  api->n_script = n_script;
  api->waiter = g_main_context_ref_thread_default ();
  g_mutex_init (&api->mutex);
  api->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  api->call_times = g_new0 (gint64, n_script + 1);
  api->results = g_ptr_array_new_with_free_func (result_free);
  api->server = clarify_test_server_new ();
  api->url = clarify_test_server_get_url (api->server, "");
  clarify_test_server_add_handler (api->server, "POST", MESSAGES_PATH, messages_handler, api);
  clarify_test_server_add_handler (api->server, "POST", COUNT_TOKENS_PATH, count_tokens_handler, api);

  return api;
}

void
clarify_test_claude_api_free (ClarifyTestClaudeApi *api)
{
  /* The server thread ends first: no handler runs after this. */
  clarify_test_server_free (api->server);
  g_ptr_array_unref (api->requests);
  g_free (api->call_times);
  g_ptr_array_unref (api->results);
  g_main_context_unref (api->waiter);
  g_mutex_clear (&api->mutex);
  g_free (api->url);
  g_free (api);
}

const char *
clarify_test_claude_api_get_url (ClarifyTestClaudeApi *api)
{
  return api->url;
}

static guint
count_locked (ClarifyTestClaudeApi *api,
              GPtrArray            *array)
{
  guint n;

  g_mutex_lock (&api->mutex);
  n = array->len;
  g_mutex_unlock (&api->mutex);
  return n;
}

guint
clarify_test_claude_api_get_n_requests (ClarifyTestClaudeApi *api)
{
  return count_locked (api, api->requests);
}

JsonNode *
clarify_test_claude_api_get_request (ClarifyTestClaudeApi *api,
                                     guint                 index)
{
  JsonNode *copy = NULL;

  g_mutex_lock (&api->mutex);
  if (index < api->requests->len)
    copy = json_node_copy (api->requests->pdata[index]);
  g_mutex_unlock (&api->mutex);
  return copy;
}

gint64
clarify_test_claude_api_get_call_time (ClarifyTestClaudeApi *api,
                                       guint                 n)
{
  gint64 time = 0;

  g_return_val_if_fail (n > 0, 0);

  g_mutex_lock (&api->mutex);
  if (n <= api->n_script)
    time = api->call_times[n - 1];
  g_mutex_unlock (&api->mutex);
  return time;
}

typedef struct
{
  ClarifyTestClaudeApi *api;
  GPtrArray            *array;
  guint                 n;
} CountWait;

static gboolean
has_count (gpointer data)
{
  CountWait *wait = data;

  return count_locked (wait->api, wait->array) >= wait->n;
}

gboolean
clarify_test_claude_api_wait_for_requests (ClarifyTestClaudeApi *api,
                                           guint                 n,
                                           guint                 timeout_ms)
{
  CountWait wait = { api, api->requests, n };

  return clarify_test_loop_until (has_count, &wait, timeout_ms);
}

guint
clarify_test_claude_api_get_n_results (ClarifyTestClaudeApi *api)
{
  return count_locked (api, api->results);
}

const ClarifyTestClaudeResult *
clarify_test_claude_api_wait_for_result (ClarifyTestClaudeApi *api,
                                         guint                 n,
                                         guint                 timeout_ms)
{
  CountWait wait = { api, api->results, n };
  const ClarifyTestClaudeResult *result;

  g_return_val_if_fail (n > 0, NULL);

  if (!clarify_test_loop_until (has_count, &wait, timeout_ms))
    return NULL;
  /* Results are only ever added: the pointer stays valid. */
  g_mutex_lock (&api->mutex);
  result = api->results->pdata[n - 1];
  g_mutex_unlock (&api->mutex);
  return result;
}

char **
clarify_test_claude_api_get_strays (ClarifyTestClaudeApi *api)
{
  g_autoptr(GPtrArray) requests = clarify_test_server_get_requests (api->server);
  g_autofree char *own = g_strdup_printf ("127.0.0.1:%u", clarify_test_server_get_port (api->server));
  GStrvBuilder *builder = g_strv_builder_new ();
  char **strays;

  for (guint i = 0; i < requests->len; i++)
    {
      ClarifyTestRequest *request = requests->pdata[i];
      const char *host = clarify_test_request_get_header (request, "Host");
      g_autofree char *line = NULL;

      if (g_str_equal (request->method, "POST") &&
          (g_str_equal (request->path, MESSAGES_PATH) || g_str_equal (request->path, COUNT_TOKENS_PATH)))
        continue;
      /* Through the proxy: the host it wanted. */
      if (host != NULL && !g_str_equal (host, own))
        line = g_str_equal (request->method, "CONNECT") ? g_strdup_printf ("CONNECT %s", host)
                                                        : g_strdup_printf ("%s %s%s", request->method, host, request->path);
      else
        line = g_strdup_printf ("%s %s", request->method, request->path);
      g_strv_builder_add (builder, line);
    }
  strays = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return strays;
}
