/* clarify-mcp-protocol.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>

#include "clarify-ask-user.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-mcp-protocol.h"

#define JSONRPC_PARSE_ERROR      -32700
#define JSONRPC_INVALID_REQUEST  -32600
#define JSONRPC_METHOD_NOT_FOUND -32601
#define JSONRPC_INVALID_PARAMS   -32602

struct _ClarifyMcpProtocol
{
  GObject                  parent_instance;

  ClarifyMcpAskFunc        ask;
  ClarifyMcpAskFinishFunc  ask_finish;
  gpointer                 user_data;

  /* "scope\nid" → GPtrArray of the GCancellables of the tools/calls in
   * flight with that id: more than one only without a session, where
   * clients that number from 1 share the scope "". */
  GHashTable              *calls;
  /* scope ("" for none) → the client's clientInfo.name */
  GHashTable              *clients;
  guint                    last_request_id;
};

G_DEFINE_FINAL_TYPE (ClarifyMcpProtocol, clarify_mcp_protocol, G_TYPE_OBJECT)

/* The state of one message while its tools/call waits for the user. */
typedef struct
{
  ClarifyMcpReplyFlags  flags;
  JsonNode             *id;
  /* An initialize's clientInfo.name. */
  char                 *client_name;
  char                 *call_key;
  ClarifyRequest       *request;
  GCancellable         *call_cancellable;
  GCancellable         *caller_cancellable;
  gulong                caller_cancelled_id;

  /* The transport's ear while a tools/call waits. */
  ClarifyMcpEventFunc   event;
  gpointer              event_data;
  JsonNode             *progress_token;
  GSource              *progress_source;
  gint64                waiting_since;
  guint                 n_progress;
} Handling;

static const char * const supported_versions[] = { CLARIFY_MCP_PROTOCOL_VERSIONS, NULL };

static void
handling_stop_progress (Handling *handling)
{
  if (handling->progress_source != NULL)
    {
      g_source_destroy (handling->progress_source);
      g_clear_pointer (&handling->progress_source, g_source_unref);
    }
}

static void
handling_free (Handling *handling)
{
  handling_stop_progress (handling);
  g_clear_pointer (&handling->progress_token, json_node_unref);
  g_free (handling->client_name);
  if (handling->caller_cancellable != NULL && handling->caller_cancelled_id != 0)
    g_cancellable_disconnect (handling->caller_cancellable, handling->caller_cancelled_id);
  g_clear_object (&handling->caller_cancellable);
  g_clear_object (&handling->call_cancellable);
  g_clear_object (&handling->request);
  g_clear_pointer (&handling->id, json_node_unref);
  g_free (handling->call_key);
  g_free (handling);
}

gboolean
clarify_mcp_protocol_supports_version (const char *version)
{
  return version != NULL && g_strv_contains (supported_versions, version);
}

static void
clarify_mcp_protocol_finalize (GObject *object)
{
  ClarifyMcpProtocol *self = CLARIFY_MCP_PROTOCOL (object);

  g_clear_pointer (&self->calls, g_hash_table_unref);
  g_clear_pointer (&self->clients, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_mcp_protocol_parent_class)->finalize (object);
}

static void
clarify_mcp_protocol_class_init (ClarifyMcpProtocolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = clarify_mcp_protocol_finalize;
}

static void
clarify_mcp_protocol_init (ClarifyMcpProtocol *self)
{
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->clients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

ClarifyMcpProtocol *
clarify_mcp_protocol_new (ClarifyMcpAskFunc       ask,
                          ClarifyMcpAskFinishFunc ask_finish,
                          gpointer                user_data)
{
  ClarifyMcpProtocol *self;

  g_return_val_if_fail (ask != NULL, NULL);
  g_return_val_if_fail (ask_finish != NULL, NULL);

  self = g_object_new (CLARIFY_TYPE_MCP_PROTOCOL, NULL);
  self->ask = ask;
  self->ask_finish = ask_finish;
  self->user_data = user_data;

  return self;
}

static char *
reply_to_string (JsonNode *id,
                 JsonNode *result,
                 int       error_code,
                 const char *error_message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "id");
  if (id != NULL)
    json_builder_add_value (builder, json_node_copy (id));
  else
    json_builder_add_null_value (builder);

  if (result != NULL)
    {
      json_builder_set_member_name (builder, "result");
      json_builder_add_value (builder, json_node_copy (result));
    }
  else
    {
      json_builder_set_member_name (builder, "error");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "code");
      json_builder_add_int_value (builder, error_code);
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, error_message);
      json_builder_end_object (builder);
    }

  json_builder_end_object (builder);

  return clarify_json_builder_to_string (builder);
}

static void
return_error (GTask      *task,
              int         code,
              const char *message)
{
  Handling *handling = g_task_get_task_data (task);

  g_task_return_pointer (task, reply_to_string (handling->id, NULL, code, message), g_free);
}

static void
return_result (GTask    *task,
               JsonNode *result)
{
  Handling *handling = g_task_get_task_data (task);

  g_task_return_pointer (task, reply_to_string (handling->id, result, 0, NULL), g_free);
}

static JsonNode *
build_initialize_result (const char *version)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "protocolVersion");
  json_builder_add_string_value (builder, version);
  json_builder_set_member_name (builder, "capabilities");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tools");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "listChanged");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "serverInfo");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "clarify");
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, "Clarify");
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "instructions");
  json_builder_add_string_value (builder,
                                 "Call ask_user when you need the user's decision, a missing detail "
                                 "or a confirmation. The user answers in a desktop dialog; the call "
                                 "blocks until they answer, cancel, or the timeout passes.");
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static void
handle_initialize (GTask      *task,
                   const char *scope,
                   JsonObject *params)
{
  Handling *handling = g_task_get_task_data (task);
  g_autoptr(JsonNode) result = NULL;
  JsonObject *clientInfo;
  const char *requested = NULL;

  if (params != NULL)
    requested = clarify_json_get_string_member (params, "protocolVersion");

  if (requested == NULL)
    {
      return_error (task, JSONRPC_INVALID_PARAMS, "Invalid params: protocolVersion is required");
      return;
    }

  /* Echo a version we speak; otherwise offer our newest and let the client decide. */
  result = build_initialize_result (clarify_mcp_protocol_supports_version (requested)
                                    ? requested : CLARIFY_MCP_LATEST_PROTOCOL_VERSION);

  /* Who asks, for the dialog's title ("Claude Code", "opencode"). */
  clientInfo = clarify_json_get_object_member (params, "clientInfo");
  handling->client_name = g_strdup (clarify_json_get_string_member (clientInfo, "name"));
  clarify_mcp_protocol_set_client (g_task_get_source_object (task), scope, handling->client_name);

  handling->flags |= CLARIFY_MCP_REPLY_INITIALIZED;
  return_result (task, result);
}

static void
handle_tools_list (GTask *task)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) result = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tools");
  json_builder_begin_array (builder);
  json_builder_add_value (builder, clarify_ask_user_get_tool ());
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  result = json_builder_get_root (builder);

  return_result (task, result);
}

static void
return_tool_result (GTask      *task,
                    const char *text,
                    gboolean    is_error)
{
  g_autoptr(JsonNode) result = clarify_ask_user_tool_result (text, is_error);

  return_result (task, result);
}

static void
caller_cancelled_cb (GCancellable *caller_cancellable,
                     GCancellable *call_cancellable)
{
  g_cancellable_cancel (call_cancellable);
}

/* {"jsonrpc":"2.0","method":"notifications/progress","params":{…}}: the
 * client's token, a count that only grows, and words a person may read
 * (Claude Code shows them beside the running tool). */
static char *
build_progress (Handling *handling)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  gint64 seconds = (g_get_monotonic_time () - handling->waiting_since) / G_USEC_PER_SEC;
  g_autofree char *message = g_strdup_printf ("Waiting for the user's answer in Clarify (%" G_GINT64_FORMAT " s)",
                                              seconds);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, "notifications/progress");
  json_builder_set_member_name (builder, "params");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "progressToken");
  json_builder_add_value (builder, json_node_copy (handling->progress_token));
  json_builder_set_member_name (builder, "progress");
  json_builder_add_int_value (builder, handling->n_progress);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return clarify_json_builder_to_string (builder);
}

static gboolean
progress_cb (gpointer data)
{
  Handling *handling = data;
  g_autofree char *message = NULL;

  handling->n_progress++;
  message = build_progress (handling);
  handling->event (CLARIFY_MCP_EVENT_NOTIFICATION, message, handling->event_data);

  return G_SOURCE_CONTINUE;
}

/* params._meta.progressToken when it is one (a string or a number). */
static JsonNode *
get_progress_token (JsonObject *params)
{
  JsonNode *meta = json_object_get_member (params, "_meta");
  JsonNode *token;
  GType type;

  if (meta == NULL || !JSON_NODE_HOLDS_OBJECT (meta))
    return NULL;

  token = json_object_get_member (json_node_get_object (meta), "progressToken");
  if (token == NULL || !JSON_NODE_HOLDS_VALUE (token))
    return NULL;

  type = json_node_get_value_type (token);
  if (type != G_TYPE_STRING && type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    return NULL;

  return token;
}

/* Tells the transport that the call waits, and keeps the client posted
 * when it asked to be. */
static void
handling_start_waiting (Handling   *handling,
                        JsonObject *params)
{
  JsonNode *token;

  if (handling->event == NULL)
    return;

  handling->event (CLARIFY_MCP_EVENT_WAITING, NULL, handling->event_data);

  token = get_progress_token (params);
  if (token == NULL)
    return;

  handling->progress_token = json_node_copy (token);
  handling->waiting_since = g_get_monotonic_time ();
  handling->progress_source = g_timeout_source_new (clarify_ask_user_get_progress_interval ());
  g_source_set_callback (handling->progress_source, progress_cb, handling, NULL);
  g_source_set_static_name (handling->progress_source, "[clarify] MCP progress");
  g_source_attach (handling->progress_source, g_main_context_get_thread_default ());
}

static void
ask_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ClarifyMcpProtocol *self = g_task_get_source_object (task);
  Handling *handling = g_task_get_task_data (task);
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) output = NULL;
  g_autofree char *text = NULL;

  response = self->ask_finish (result, self->user_data, &error);
  /* Nothing more about a call once its reply is on its way. */
  handling_stop_progress (handling);

  /* Only our own entry: another call may have the same id. */
  if (handling->call_key != NULL)
    {
      GPtrArray *same_id = g_hash_table_lookup (self->calls, handling->call_key);

      if (same_id != NULL && g_ptr_array_remove (same_id, handling->call_cancellable) && same_id->len == 0)
        g_hash_table_remove (self->calls, handling->call_key);
    }

  if (response == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        message = g_strdup ("The request was cancelled before the user answered");
      else
        message = g_strdup_printf ("Clarify could not ask the user: %s", error->message);

      return_tool_result (task, message, TRUE);
      return;
    }

  output = clarify_ask_user_build_output (handling->request, response);
  text = json_to_string (output, FALSE);
  return_tool_result (task, text, FALSE);
}

static void
handle_tools_call (GTask        *task,
                   const char   *scope,
                   JsonObject   *params,
                   GCancellable *caller_cancellable)
{
  ClarifyMcpProtocol *self = g_task_get_source_object (task);
  Handling *handling = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *request_id = NULL;
  g_autofree char *id_text = NULL;
  GPtrArray *same_id;
  const char *name = NULL;
  JsonNode *arguments;

  if (params != NULL)
    name = clarify_json_get_string_member (params, "name");

  if (name == NULL)
    {
      return_error (task, JSONRPC_INVALID_PARAMS, "Invalid params: name is required");
      return;
    }

  if (g_strcmp0 (name, CLARIFY_ASK_USER_TOOL_NAME) != 0)
    {
      g_autofree char *message = g_strdup_printf ("Unknown tool: %s", name);

      return_error (task, JSONRPC_INVALID_PARAMS, message);
      return;
    }

  request_id = g_strdup_printf ("ask-user-%u", ++self->last_request_id);
  arguments = json_object_get_member (params, "arguments");
  if (arguments == NULL)
    {
      /* Absent arguments are an empty object: "questions is required". */
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) empty = json_node_init_object (json_node_alloc (), object);

      handling->request = clarify_ask_user_parse (empty, request_id, &error);
    }
  else
    handling->request = clarify_ask_user_parse (arguments, request_id, &error);

  if (handling->request == NULL)
    {
      g_autofree char *message = g_strdup_printf ("Validation error: %s", error->message);

      return_tool_result (task, message, TRUE);
      return;
    }
  clarify_request_set_caller (handling->request,
                              g_hash_table_lookup (self->clients, scope != NULL ? scope : ""));

  handling->call_cancellable = g_cancellable_new ();
  if (caller_cancellable != NULL)
    {
      handling->caller_cancellable = g_object_ref (caller_cancellable);
      handling->caller_cancelled_id = g_cancellable_connect (caller_cancellable,
                                                             G_CALLBACK (caller_cancelled_cb),
                                                             handling->call_cancellable, NULL);
    }

  id_text = json_to_string (handling->id, FALSE);
  handling->call_key = g_strdup_printf ("%s\n%s", scope != NULL ? scope : "", id_text);
  same_id = g_hash_table_lookup (self->calls, handling->call_key);
  if (same_id == NULL)
    {
      same_id = g_ptr_array_new_with_free_func (g_object_unref);
      g_hash_table_insert (self->calls, g_strdup (handling->call_key), same_id);
    }
  g_ptr_array_add (same_id, g_object_ref (handling->call_cancellable));

  handling_start_waiting (handling, params);
  self->ask (handling->request, handling->call_cancellable, ask_cb, g_object_ref (task), self->user_data);
}

static void
handle_notification (ClarifyMcpProtocol *self,
                     const char         *scope,
                     const char         *method,
                     JsonObject         *params)
{
  JsonNode *request_id;
  g_autofree char *id_text = NULL;
  g_autofree char *key = NULL;
  GPtrArray *same_id;

  /* notifications/initialized and unknown notifications need nothing. */
  if (g_strcmp0 (method, "notifications/cancelled") != 0 || params == NULL)
    return;

  request_id = json_object_get_member (params, "requestId");
  if (request_id == NULL)
    return;

  id_text = json_to_string (request_id, FALSE);
  key = g_strdup_printf ("%s\n%s", scope != NULL ? scope : "", id_text);
  same_id = g_hash_table_lookup (self->calls, key);
  if (same_id == NULL)
    return;

  /* Two callers without a session used that id: which one meant it is
   * unknown, and cancelling the other would end a question it still waits
   * for. Each call still ends when its own connection closes. */
  if (same_id->len > 1)
    {
      g_message ("MCP: notifications/cancelled for request %s is ambiguous: %u calls without a session have that id; none is cancelled",
                 id_text, same_id->len);
      return;
    }

  g_cancellable_cancel (g_ptr_array_index (same_id, 0));
}

static gboolean
is_valid_id (JsonNode *id)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (id))
    return FALSE;

  type = json_node_get_value_type (id);

  return type == G_TYPE_STRING || type == G_TYPE_INT64;
}

void
clarify_mcp_protocol_handle_async (ClarifyMcpProtocol  *self,
                                   const char          *scope,
                                   const char          *data,
                                   gsize                length,
                                   GCancellable        *cancellable,
                                   ClarifyMcpEventFunc  event,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) root = NULL;
  Handling *handling;
  JsonObject *message;
  JsonNode *id;
  JsonNode *params_node;
  JsonObject *params = NULL;
  const char *method;

  g_return_if_fail (CLARIFY_IS_MCP_PROTOCOL (self));
  g_return_if_fail (data != NULL || length == 0);

  /* Never cancelled as a whole: a client that went away still gets an answer
   * it will not read, and the pending dialog is withdrawn through the call. */
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, clarify_mcp_protocol_handle_async);
  handling = g_new0 (Handling, 1);
  handling->event = event;
  handling->event_data = user_data;
  g_task_set_task_data (task, handling, (GDestroyNotify) handling_free);

  if (length == 0 || (root = clarify_json_parse (data, length, NULL)) == NULL)
    {
      handling->flags |= CLARIFY_MCP_REPLY_INVALID;
      return_error (task, JSONRPC_PARSE_ERROR, "Parse error");
      return;
    }

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      handling->flags |= CLARIFY_MCP_REPLY_INVALID;
      return_error (task, JSONRPC_INVALID_REQUEST, "Invalid Request: batches are not supported");
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      handling->flags |= CLARIFY_MCP_REPLY_INVALID;
      return_error (task, JSONRPC_INVALID_REQUEST, "Invalid Request: not a JSON-RPC object");
      return;
    }

  message = json_node_get_object (root);
  id = json_object_get_member (message, "id");
  if (id != NULL && is_valid_id (id))
    handling->id = json_node_copy (id);

  if (g_strcmp0 (clarify_json_get_string_member (message, "jsonrpc"), "2.0") != 0)
    {
      handling->flags |= CLARIFY_MCP_REPLY_INVALID;
      return_error (task, JSONRPC_INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"");
      return;
    }

  if (id != NULL && !is_valid_id (id))
    {
      handling->flags |= CLARIFY_MCP_REPLY_INVALID;
      return_error (task, JSONRPC_INVALID_REQUEST, "Invalid Request: id must be a string or an integer");
      return;
    }

  if (!json_object_has_member (message, "method"))
    {
      /* A client's response to a request of ours: we send none, so accept and drop it. */
      if (id != NULL &&
          (json_object_has_member (message, "result") || json_object_has_member (message, "error")))
        {
          g_task_return_pointer (task, NULL, NULL);
          return;
        }

      handling->flags |= CLARIFY_MCP_REPLY_INVALID;
      return_error (task, JSONRPC_INVALID_REQUEST, "Invalid Request: method is required");
      return;
    }

  method = clarify_json_get_string_member (message, "method");
  if (method == NULL)
    {
      handling->flags |= CLARIFY_MCP_REPLY_INVALID;
      return_error (task, JSONRPC_INVALID_REQUEST, "Invalid Request: method must be a string");
      return;
    }

  params_node = json_object_get_member (message, "params");
  if (params_node != NULL && JSON_NODE_HOLDS_OBJECT (params_node))
    params = json_node_get_object (params_node);

  if (id == NULL)
    {
      handle_notification (self, scope, method, params);
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  if (params_node != NULL && !JSON_NODE_HOLDS_OBJECT (params_node) && !JSON_NODE_HOLDS_NULL (params_node))
    {
      return_error (task, JSONRPC_INVALID_PARAMS, "Invalid params: params must be an object");
      return;
    }

  if (g_str_equal (method, "initialize"))
    handle_initialize (task, scope, params);
  else if (g_str_equal (method, "ping"))
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) empty = json_node_init_object (json_node_alloc (), object);

      return_result (task, empty);
    }
  else if (g_str_equal (method, "tools/list"))
    handle_tools_list (task);
  else if (g_str_equal (method, "tools/call"))
    handle_tools_call (task, scope, params, cancellable);
  else
    {
      g_autofree char *text = g_strdup_printf ("Method not found: %s", method);

      return_error (task, JSONRPC_METHOD_NOT_FOUND, text);
    }
}

char *
clarify_mcp_protocol_handle_finish (ClarifyMcpProtocol   *self,
                                    GAsyncResult         *result,
                                    ClarifyMcpReplyFlags *flags)
{
  Handling *handling;

  g_return_val_if_fail (CLARIFY_IS_MCP_PROTOCOL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  handling = g_task_get_task_data (G_TASK (result));
  if (flags != NULL)
    *flags = handling->flags;

  return g_task_propagate_pointer (G_TASK (result), NULL);
}


const char *
clarify_mcp_protocol_get_client_name (ClarifyMcpProtocol *self,
                                      GAsyncResult       *result)
{
  Handling *handling;

  g_return_val_if_fail (CLARIFY_IS_MCP_PROTOCOL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  handling = g_task_get_task_data (G_TASK (result));

  return handling->client_name;
}

void
clarify_mcp_protocol_set_client (ClarifyMcpProtocol *self,
                                 const char         *scope,
                                 const char         *client_name)
{
  g_return_if_fail (CLARIFY_IS_MCP_PROTOCOL (self));

  if (client_name != NULL && client_name[0] != '\0')
    g_hash_table_replace (self->clients, g_strdup (scope != NULL ? scope : ""), g_strdup (client_name));
  else
    g_hash_table_remove (self->clients, scope != NULL ? scope : "");
}
