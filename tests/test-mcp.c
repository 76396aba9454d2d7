/* test-mcp.c: the MCP endpoint over real loopback HTTP, answered through
 * the backend API (no display), and the secret store it keeps its token in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <sys/stat.h>

#include "clarify-ask-user.h"
#include "clarify-error.h"
#include "clarify-inbox-private.h"
#include "clarify-mcp-server.h"
#include "clarify-secret.h"
#include "clarify-test-log.h"
#include "clarify-test-mcp.h"
#include "clarify-test-server.h"

#define WAIT_MS 5000

typedef ClarifyTestMcp Fixture;

/* One finished HTTP exchange. */
typedef struct
{
  gboolean            done;
  guint               status;
  char               *body;
  SoupMessageHeaders *headers;
} Reply;

static void
reply_free (Reply *reply)
{
  g_free (reply->body);
  g_clear_pointer (&reply->headers, soup_message_headers_unref);
  g_free (reply);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Reply, reply_free)

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Reply *reply = user_data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);

  reply->status = soup_message_get_status (msg);
  reply->body = g_strndup (g_bytes_get_size (bytes) > 0 ? g_bytes_get_data (bytes, NULL) : "",
                           g_bytes_get_size (bytes));
  reply->headers = soup_message_headers_ref (soup_message_get_response_headers (msg));
  reply->done = TRUE;
}

static gboolean
reply_done (gpointer data)
{
  return ((Reply *) data)->done;
}

/* Sends @body (NULL: none) with @method; @token NULL sends no
 * Authorization; @extra_headers are "Name", "value" pairs ending in NULL. */
static Reply *
start_request (Fixture    *fixture,
               const char *method,
               const char *token,
               const char *body,
               ...)
{
  g_autoptr(SoupMessage) msg = soup_message_new (method, fixture->url);
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);
  Reply *reply = g_new0 (Reply, 1);
  const char *name;
  va_list args;

  if (token != NULL)
    {
      g_autofree char *value = g_strdup_printf ("Bearer %s", token);

      soup_message_headers_replace (headers, "Authorization", value);
    }
  soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");

  va_start (args, body);
  while ((name = va_arg (args, const char *)) != NULL)
    soup_message_headers_replace (headers, name, va_arg (args, const char *));
  va_end (args);

  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    }

  soup_session_send_and_read_async (fixture->session, msg, G_PRIORITY_DEFAULT, NULL, send_cb, reply);

  return reply;
}

static void
wait_reply (Reply *reply)
{
  g_assert_true (clarify_test_loop_until (reply_done, reply, WAIT_MS));
}

#define post(fixture, body) post_with ((fixture), (fixture)->token, (body), NULL)

static Reply *
post_with (Fixture    *fixture,
           const char *token,
           const char *body,
           const char *header,
           ...)
{
  Reply *reply;

  /* Up to two extra headers are all these tests need. */
  if (header == NULL)
    reply = start_request (fixture, "POST", token, body, NULL);
  else
    {
      va_list args;
      const char *value;
      const char *header2;
      const char *value2 = NULL;

      va_start (args, header);
      value = va_arg (args, const char *);
      header2 = va_arg (args, const char *);
      if (header2 != NULL)
        value2 = va_arg (args, const char *);
      va_end (args);

      reply = start_request (fixture, "POST", token, body, header, value, header2, value2, NULL);
    }

  wait_reply (reply);
  return reply;
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

static const char *
content_type (Reply *reply)
{
  return soup_message_headers_get_content_type (reply->headers, NULL);
}

/* The JSON-RPC message of a reply: its body, or the one event of an event
 * stream (these calls carry no progressToken), framed exactly. */
static char *
reply_message (Reply *reply)
{
  const char *prefix = "event: message\ndata: ";
  const char *data;

  if (g_strcmp0 (content_type (reply), "text/event-stream") != 0)
    {
      g_assert_cmpstr (content_type (reply), ==, "application/json");
      return g_strdup (reply->body);
    }

  g_assert_true (g_str_has_prefix (reply->body, prefix));
  data = reply->body + strlen (prefix);
  g_assert_cmpuint (strlen (data), >, 2);
  g_assert_cmpstr (strstr (data, "\n"), ==, data + strlen (data) - 2);
  g_assert_cmpstr (data + strlen (data) - 2, ==, "\n\n");

  return g_strndup (data, strlen (data) - 2);
}

/* The "result" of a JSON-RPC reply with @id. */
static JsonObject *
expect_result (Reply  *reply,
               gint64  id)
{
  g_autoptr(JsonObject) message = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpuint (reply->status, ==, 200);
  text = reply_message (reply);
  message = parse_object (text);
  g_assert_cmpstr (json_object_get_string_member (message, "jsonrpc"), ==, "2.0");
  g_assert_cmpint (json_object_get_int_member (message, "id"), ==, id);
  g_assert_false (json_object_has_member (message, "error"));

  return json_object_ref (json_object_get_object_member (message, "result"));
}

static void
expect_error (Reply      *reply,
              guint       status,
              const char *id_json,
              gint64      code)
{
  g_autoptr(JsonObject) message = NULL;
  g_autoptr(JsonNode) id = NULL;
  g_autofree char *id_text = NULL;
  JsonObject *error;

  g_assert_cmpuint (reply->status, ==, status);
  message = parse_object (reply->body);
  g_assert_cmpstr (json_object_get_string_member (message, "jsonrpc"), ==, "2.0");
  id = json_node_copy (json_object_get_member (message, "id"));
  id_text = json_to_string (id, FALSE);
  g_assert_cmpstr (id_text, ==, id_json);
  g_assert_false (json_object_has_member (message, "result"));
  error = json_object_get_object_member (message, "error");
  g_assert_cmpint (json_object_get_int_member (error, "code"), ==, code);
  g_assert_nonnull (json_object_get_string_member (error, "message"));
}

/* The text of a tools/call result; asserts isError as given. */
static char *
tool_text (Reply    *reply,
           gint64    id,
           gboolean  is_error)
{
  g_autoptr(JsonObject) result = expect_result (reply, id);
  JsonArray *content = json_object_get_array_member (result, "content");
  JsonObject *item;

  g_assert_cmpuint (json_array_get_length (content), ==, 1);
  item = json_array_get_object_element (content, 0);
  g_assert_cmpstr (json_object_get_string_member (item, "type"), ==, "text");
  g_assert_cmpint (json_object_get_boolean_member_with_default (result, "isError", FALSE), ==, is_error);
  g_assert_cmpint (json_object_has_member (result, "isError"), ==, is_error);

  return g_strdup (json_object_get_string_member (item, "text"));
}

static char *
call_body (gint64      id,
           const char *arguments)
{
  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"method\":\"tools/call\","
                          "\"params\":{\"name\":\"ask_user\",\"arguments\":%s}}", id, arguments);
}

/* ---------------------------------------------------------------------- */

static void
test_initialize_versions (Fixture       *fixture,
                          gconstpointer  data)
{
  const struct {
    const char *asked;
    const char *expected;
  } cases[] = {
    { "2024-11-05", "2024-11-05" },
    { "2025-03-26", "2025-03-26" },
    { "2025-06-18", "2025-06-18" },
    { "2099-01-01", "2025-06-18" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"initialize\","
                                               "\"params\":{\"protocolVersion\":\"%s\",\"capabilities\":{},"
                                               "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}",
                                               i + 1, cases[i].asked);
      g_autoptr(Reply) reply = post (fixture, body);
      g_autoptr(JsonObject) result = expect_result (reply, i + 1);
      JsonObject *server_info = json_object_get_object_member (result, "serverInfo");
      JsonObject *capabilities = json_object_get_object_member (result, "capabilities");
      const char *session_id = soup_message_headers_get_one (reply->headers, "Mcp-Session-Id");

      g_assert_cmpstr (content_type (reply), ==, "application/json");
      g_assert_cmpstr (json_object_get_string_member (result, "protocolVersion"), ==, cases[i].expected);
      g_assert_cmpstr (json_object_get_string_member (server_info, "name"), ==, "clarify");
      g_assert_cmpstr (json_object_get_string_member (server_info, "version"), ==, PACKAGE_VERSION);
      g_assert_true (json_object_has_member (capabilities, "tools"));
      g_assert_nonnull (session_id);
      g_assert_cmpuint (strlen (session_id), >=, 16);
    }
}

static void
test_initialize_bad_params (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{}}");

  expect_error (reply, 200, "3", -32602);
  g_assert_null (soup_message_headers_get_one (reply->headers, "Mcp-Session-Id"));
}

static void
test_notifications (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *bodies[] = {
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\",\"params\":{}}",
    /* A client's response to a request we never sent is accepted and dropped. */
    "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      g_autoptr(Reply) reply = post (fixture, bodies[i]);

      g_assert_cmpuint (reply->status, ==, 202);
      g_assert_cmpstr (reply->body, ==, "");
    }
}

static void
test_ping (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"method\":\"ping\"}");

  g_assert_cmpuint (reply->status, ==, 200);
  g_assert_cmpstr (reply->body, ==, "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"result\":{}}");
}

/* The seed's tool definition, as its notes give it. */
static JsonNode *
load_seed_input_schema (void)
{
  g_autofree char *json = clarify_test_load_fixture ("seeds/001_65baf46e352c73dc-ask-user.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) tool = NULL;

  tool = json_from_string (json, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (tool), "name"), ==, "ask_user");

  return json_node_copy (json_object_get_member (json_node_get_object (tool), "inputSchema"));
}

static void
test_tools_list (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}");
  g_autoptr(JsonObject) result = expect_result (reply, 2);
  g_autoptr(JsonNode) seed_schema = load_seed_input_schema ();
  JsonArray *tools = json_object_get_array_member (result, "tools");
  JsonObject *tool;

  g_assert_cmpstr (content_type (reply), ==, "application/json");
  g_assert_cmpuint (json_array_get_length (tools), ==, 1);
  tool = json_array_get_object_element (tools, 0);
  g_assert_cmpstr (json_object_get_string_member (tool, "name"), ==, "ask_user");
  g_assert_nonnull (json_object_get_string_member (tool, "description"));
  g_assert_true (json_node_equal (json_object_get_member (tool, "inputSchema"), seed_schema));
}

/* Whether @word stands in @text as a whole word, any case. */
static gboolean
has_word (const char *text,
          const char *word)
{
  g_autofree char *pattern = g_strdup_printf ("\\b%s\\b", word);

  return g_regex_match_simple (pattern, text, G_REGEX_CASELESS, 0);
}

/* Claude Code keeps MCP tools behind its ToolSearch, which matches each
 * word of the model's query as a whole word against the tool's name, its
 * description and _meta["anthropic/searchHint"]. Every word of these
 * queries stands in both texts, so that each scores on them. */
static void
test_tools_list_findable (void)
{
  const char *queries[] = { "ask the user", "clarifying question", "user input", "confirmation" };
  g_autoptr(JsonNode) tool = clarify_ask_user_get_tool ();
  JsonObject *object = json_node_get_object (tool);
  const char *description = json_object_get_string_member (object, "description");
  const char *hint = json_object_get_string_member (json_object_get_object_member (object, "_meta"),
                                                    "anthropic/searchHint");

  g_assert_cmpstr (json_object_get_string_member (object, "name"), ==, CLARIFY_ASK_USER_TOOL_NAME);
  g_assert_nonnull (hint);
  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_auto(GStrv) words = g_strsplit (queries[i], " ", -1);

      for (guint j = 0; words[j] != NULL; j++)
        {
          g_test_message ("query \"%s\": %s", queries[i], words[j]);
          g_assert_true (has_word (description, words[j]));
          g_assert_true (has_word (hint, words[j]));
        }
    }
}

static void
test_jsonrpc_errors (Fixture       *fixture,
                     gconstpointer  data)
{
  const struct {
    const char *body;
    guint       status;
    const char *id;
    gint64      code;
  } cases[] = {
    { "{\"jsonrpc\":\"2.0\",\"id\":1,", 400, "null", -32700 },
    { "", 400, "null", -32700 },
    { "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", 400, "null", -32600 },
    { "42", 400, "null", -32600 },
    { "{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"ping\"}", 400, "4", -32600 },
    { "{\"id\":5,\"method\":\"ping\"}", 400, "5", -32600 },
    { "{\"jsonrpc\":\"2.0\",\"id\":6}", 400, "6", -32600 },
    { "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":17}", 400, "7", -32600 },
    { "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}", 400, "null", -32600 },
    { "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"resources/list\"}", 200, "8", -32601 },
    { "{\"jsonrpc\":\"2.0\",\"id\":\"nine\",\"method\":\"tools/call\",\"params\":{\"name\":\"rm_rf\"}}", 200, "\"nine\"", -32602 },
    { "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{}}", 200, "10", -32602 },
    { "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":[1]}", 200, "11", -32602 },
    /* Wrong types where a string belongs. */
    { "{\"jsonrpc\":{},\"id\":12,\"method\":\"ping\"}", 400, "12", -32600 },
    { "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":[\"ping\"]}", 400, "13", -32600 },
    { "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"initialize\",\"params\":{\"protocolVersion\":{}}}", 200, "14", -32602 },
    { "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"tools/call\",\"params\":{\"name\":[\"ask_user\"]}}", 200, "15", -32602 },
  };
  g_autofree char *deep = g_strnfill (200000, '[');

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(Reply) reply = post (fixture, cases[i].body);

      g_test_message ("case %u: %s", i, cases[i].body);
      expect_error (reply, cases[i].status, cases[i].id, cases[i].code);
    }

  /* Nesting that would take the parser's stack down. */
  {
    g_autoptr(Reply) reply = post (fixture, deep);

    expect_error (reply, 400, "null", -32700);
  }

  g_assert_cmpuint (fixture->watch.added->len, ==, 0);
}

static void
test_auth (Fixture       *fixture,
           gconstpointer  data)
{
  const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
  g_autofree char *longer = g_strconcat (fixture->token, "x", NULL);
  g_autofree char *shorter = g_strndup (fixture->token, strlen (fixture->token) - 1);
  g_autofree char *flipped = g_strdup (fixture->token);
  const char *wrong[] = { NULL, "", "nope", longer, shorter, flipped };

  flipped[5] = flipped[5] == 'A' ? 'B' : 'A';
  g_assert_cmpuint (strlen (fixture->token), ==, 43);

  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      g_autoptr(Reply) reply = post_with (fixture, wrong[i], ping, NULL);

      g_assert_cmpuint (reply->status, ==, 401);
      g_assert_nonnull (soup_message_headers_get_one (reply->headers, "WWW-Authenticate"));
      g_assert_null (strstr (reply->body, fixture->token));
    }

  /* Other schemes are no bearer token either. */
  {
    g_autofree char *basic = g_strdup_printf ("Basic %s", fixture->token);
    g_autoptr(Reply) reply = start_request (fixture, "POST", NULL, ping, "Authorization", basic, NULL);

    wait_reply (reply);
    g_assert_cmpuint (reply->status, ==, 401);
  }

  {
    g_autoptr(Reply) reply = post (fixture, ping);

    g_assert_cmpuint (reply->status, ==, 200);
  }
}

static void
test_origin (Fixture       *fixture,
             gconstpointer  data)
{
  const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
  g_autofree char *own = g_strdup_printf ("http://127.0.0.1:%u",
                                          clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend)));
  const char *refused[] = { "http://evil.example", "https://127.0.0.1.evil.example", "null", "file://", "http://192.168.1.2:8080" };
  const char *allowed[] = { own, "http://localhost:3000", "https://localhost", "http://[::1]:8080" };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(Reply) reply = post_with (fixture, fixture->token, ping, "Origin", refused[i], NULL);

      g_assert_cmpuint (reply->status, ==, 403);
    }

  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    {
      g_autoptr(Reply) reply = post_with (fixture, fixture->token, ping, "Origin", allowed[i], NULL);

      g_assert_cmpuint (reply->status, ==, 200);
    }

  /* The Origin check comes first: no token is revealed to be right or wrong. */
  {
    g_autoptr(Reply) reply = post_with (fixture, NULL, ping, "Origin", refused[0], NULL);

    g_assert_cmpuint (reply->status, ==, 403);
  }
}

static void
test_http_surface (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
  g_autofree char *session_id = NULL;

  {
    g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                            "\"params\":{\"protocolVersion\":\"2025-06-18\"}}");

    session_id = g_strdup (soup_message_headers_get_one (reply->headers, "Mcp-Session-Id"));
    g_assert_nonnull (session_id);
  }

  {
    g_autoptr(Reply) reply = post_with (fixture, fixture->token, ping,
                                        "Mcp-Session-Id", session_id,
                                        "MCP-Protocol-Version", "2025-06-18", NULL);

    g_assert_cmpuint (reply->status, ==, 200);
  }

  {
    g_autoptr(Reply) reply = post_with (fixture, fixture->token, ping, "Mcp-Session-Id", "unknown", NULL);

    g_assert_cmpuint (reply->status, ==, 404);
  }

  {
    g_autoptr(Reply) reply = post_with (fixture, fixture->token, ping, "MCP-Protocol-Version", "1999-01-01", NULL);

    g_assert_cmpuint (reply->status, ==, 400);
  }

  {
    g_autoptr(Reply) reply = start_request (fixture, "GET", fixture->token, NULL, NULL);

    wait_reply (reply);
    g_assert_cmpuint (reply->status, ==, 405);
  }

  {
    g_autoptr(Reply) reply = start_request (fixture, "DELETE", fixture->token, NULL, "Mcp-Session-Id", session_id, NULL);

    wait_reply (reply);
    g_assert_cmpuint (reply->status, ==, 204);
  }

  {
    g_autoptr(Reply) reply = post_with (fixture, fixture->token, ping, "Mcp-Session-Id", session_id, NULL);

    g_assert_cmpuint (reply->status, ==, 404);
  }
}

static void
test_validation_messages (Fixture       *fixture,
                          gconstpointer  data)
{
  GString *eleven = g_string_new ("{\"questions\":[");
  g_autofree char *eleven_json = NULL;
  g_autofree char *long_title = g_strnfill (101, 'x');
  g_autofree char *long_title_json = NULL;
  g_autofree char *max_title_json = NULL;

  for (guint i = 0; i < 11; i++)
    g_string_append_printf (eleven, "%s{\"question\":\"Q%u\"}", i ? "," : "", i);
  g_string_append (eleven, "]}");
  eleven_json = g_string_free (eleven, FALSE);
  long_title_json = g_strdup_printf ("{\"title\":\"%s\",\"questions\":[{\"question\":\"Q\"}]}", long_title);
  long_title[99] = '\0';
  max_title_json = g_strdup_printf ("{\"title\":\"%sé\",\"questions\":[{\"question\":\"Q\"}]}", long_title);

  {
    const struct {
      const char *arguments;
      const char *text;
    } cases[] = {
      { "{\"questions\":[]}", "Validation error: questions array must have at least 1 item" },
      { eleven_json, "Validation error: questions array exceeds maximum of 10" },
      { "{\"questions\":[{\"question\":\"Pick\",\"type\":\"select\"}]}",
        "Validation error: Options required for select/multi-select (question 1)" },
      { "{\"questions\":[{\"question\":\"A\"},{\"question\":\"Pick\",\"type\":\"multi-select\",\"options\":[]}]}",
        "Validation error: Options required for select/multi-select (question 2)" },
      { "{\"questions\":[{\"question\":\"\"}]}", "Validation error: question text is required (question 1)" },
      { "{\"questions\":[{\"question\":\"   \"}]}", "Validation error: question text is required (question 1)" },
      { "{\"questions\":[{\"type\":\"text\"}]}", "Validation error: question text is required (question 1)" },
      { long_title_json, "Validation error: title exceeds maximum of 100 characters" },
      { "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":9999}",
        "Validation error: timeout must be an integer between 10000 and 1800000" },
      { "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":1800001}",
        "Validation error: timeout must be an integer between 10000 and 1800000" },
      { "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":12000.5}",
        "Validation error: timeout must be an integer between 10000 and 1800000" },
      { "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":1e30}",
        "Validation error: timeout must be an integer between 10000 and 1800000" },
      { "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":-1e30}",
        "Validation error: timeout must be an integer between 10000 and 1800000" },
      { "{}", "Validation error: questions is required" },
      { "{\"questions\":\"Q\"}", "Validation error: questions must be an array" },
      { "{\"questions\":[{\"question\":\"Q\",\"type\":\"date\"}]}",
        "Validation error: type must be one of text, select, multi-select, confirm (question 1)" },
      { "{\"questions\":[{\"question\":\"Q\",\"type\":\"select\",\"options\":[1,2]}]}",
        "Validation error: options must be an array of strings (question 1)" },
      { "{\"questions\":[{\"question\":\"Q\",\"required\":\"no\"}]}",
        "Validation error: required must be a boolean (question 1)" },
      { "{\"questions\":[{\"id\":\"a\",\"question\":\"Q\"},{\"id\":\"a\",\"question\":\"R\"}]}",
        "Validation error: question ids must be unique (\"a\" repeats)" },
      { "[1]", "Validation error: arguments must be an object" },
    };

    /* The test-only floor does not apply here: main() leaves it unset. */
    g_assert_cmpuint (clarify_ask_user_get_min_timeout (), ==, 10000);

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *body = call_body (i + 1, cases[i].arguments);
        g_autoptr(Reply) reply = post (fixture, body);
        g_autofree char *text = tool_text (reply, i + 1, TRUE);

        /* Nobody is asked, so the answer comes at once, as plain JSON. */
        g_assert_cmpstr (content_type (reply), ==, "application/json");
        g_assert_cmpstr (text, ==, cases[i].text);
      }
  }

  /* Arguments left out entirely are an empty object. */
  {
    g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\"}}");
    g_autofree char *text = tool_text (reply, 50, TRUE);

    g_assert_cmpstr (text, ==, "Validation error: questions is required");
  }

  g_assert_cmpuint (fixture->watch.added->len, ==, 0);

  /* The limits themselves pass: 100 characters (é counts once), 10 s, 30 min. */
  {
    const char *ok[] = {
      max_title_json,
      "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":10000}",
      "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":1800000}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
      {
        g_autofree char *body = call_body (60 + i, ok[i]);
        g_autoptr(Reply) reply = start_request (fixture, "POST", fixture->token, body, NULL);
        ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, i + 1, WAIT_MS);
        g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                                    CLARIFY_OUTCOME_CANCELLED);

        clarify_test_watch_answer (&fixture->watch, request, response);
        wait_reply (reply);
        g_assert_cmpuint (reply->status, ==, 200);
      }
  }
}

static void
test_answered (Fixture       *fixture,
               gconstpointer  data)
{
  const char *arguments =
    "{\"title\":\"Component Configuration\",\"timeout\":60000,\"questions\":["
    "{\"id\":\"name\",\"question\":\"What should the component be called?\",\"placeholder\":\"e.g. UserCard\"},"
    "{\"question\":\"Which styling approach?\",\"type\":\"select\",\"options\":[\"CSS Modules\",\"Tailwind\"]},"
    "{\"id\":\"features\",\"question\":\"Which features?\",\"type\":\"multi-select\","
    "\"options\":[\"Loading state\",\"Error handling\",\"Animation\"],\"required\":false},"
    "{\"id\":\"go\",\"question\":\"Proceed?\",\"type\":\"confirm\"},"
    "{\"id\":\"notes\",\"question\":\"Anything else?\",\"required\":false}]}";
  g_autofree char *body = call_body (7, arguments);
  g_autoptr(Reply) reply = start_request (fixture, "POST", fixture->token, body, NULL);
  g_autoptr(ClarifyResponse) response = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  ClarifyQuestion *question;
  const char *style_id;

  /* What the dialog will show. */
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Component Configuration");
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 60000);
  g_assert_cmpint (clarify_request_get_deadline (request), >, g_get_monotonic_time ());
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "mcp");
  g_assert_true (clarify_request_get_cancellable (request));
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 5);

  question = clarify_request_get_question (request, 0);
  g_assert_cmpstr (clarify_question_get_id (question), ==, "name");
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_placeholder (question), ==, "e.g. UserCard");
  g_assert_false (clarify_question_get_skippable (question));

  question = clarify_request_get_question (request, 1);
  style_id = clarify_question_get_id (question);
  g_assert_true (g_str_has_prefix (style_id, "q_"));
  g_assert_cmpuint (strlen (style_id), >, 2);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 2);
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (question, 1)), ==, "Tailwind");
  g_assert_true (clarify_question_get_allow_other (question));

  question = clarify_request_get_question (request, 2);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_true (clarify_question_get_skippable (question));

  question = clarify_request_get_question (request, 3);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_CONFIRM);

  /* The HTTP reply waits for the user. */
  clarify_test_loop_for (100);
  g_assert_false (reply->done);

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, "name", (const char *[]) { "UserProfileCard", NULL }, NULL, FALSE);
  clarify_response_add_answer (response, style_id, (const char *[]) { NULL }, "Plain CSS", FALSE);
  clarify_response_add_answer (response, "features", NULL, NULL, TRUE);
  clarify_response_add_answer (response, "go", (const char *[]) { "yes", NULL }, NULL, FALSE);
  clarify_response_add_answer (response, "notes", (const char *[]) { "Keep it small", NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  wait_reply (reply);
  /* A call that waited for the user is answered as an event stream. */
  g_assert_cmpstr (content_type (reply), ==, "text/event-stream");
  text = tool_text (reply, 7, FALSE);
  expected = g_strdup_printf ("{\"answered\":true,\"cancelled\":false,\"timedOut\":false,\"answers\":["
                              "{\"questionId\":\"name\",\"values\":[\"UserProfileCard\"]},"
                              "{\"questionId\":\"%s\",\"values\":[],\"customText\":\"Plain CSS\"},"
                              "{\"questionId\":\"features\",\"values\":[],\"skipped\":true},"
                              "{\"questionId\":\"go\",\"values\":[\"yes\"]},"
                              "{\"questionId\":\"notes\",\"values\":[\"Keep it small\"]}]}",
                              style_id);
  g_assert_cmpstr (text, ==, expected);

  /* Answered and gone: nothing pending, nothing withdrawn. */
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);
}

static void
test_cancelled (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *body = call_body (8, "{\"questions\":[{\"question\":\"Any additional requirements?\"}]}");
  g_autoptr(Reply) reply = start_request (fixture, "POST", fixture->token, body, NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_CANCELLED);
  g_autofree char *text = NULL;

  /* The default timeout is five minutes. */
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 300000);
  g_assert_null (clarify_request_get_title (request));

  clarify_test_watch_answer (&fixture->watch, request, response);
  wait_reply (reply);
  text = tool_text (reply, 8, FALSE);
  g_assert_cmpstr (text, ==, "{\"answered\":false,\"cancelled\":true,\"timedOut\":false,\"answers\":[]}");
}

typedef struct
{
  GAsyncResult *result;
} ResultWait;

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  ((ResultWait *) user_data)->result = g_object_ref (result);
}

static gboolean
have_result (gpointer data)
{
  return ((ResultWait *) data)->result != NULL;
}

static void
test_answer_for_unknown_request (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(ClarifyRequest) stranger = clarify_request_new ("never-asked");
  g_autoptr(ClarifyResponse) response = clarify_response_new ("never-asked", CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(GError) error = NULL;
  ResultWait wait = { NULL };

  clarify_backend_deliver_async (fixture->backend, stranger, response, NULL, store_result_cb, &wait);
  g_assert_true (clarify_test_loop_until (have_result, &wait, WAIT_MS));
  g_assert_false (clarify_backend_deliver_finish (fixture->backend, wait.result, &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_object_unref (wait.result);
}

static void
test_timeout (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *body = call_body (9, "{\"questions\":[{\"question\":\"Please confirm soon\",\"type\":\"confirm\"}],"
                                        "\"timeout\":300}");
  g_autoptr(Reply) reply = NULL;
  g_autofree char *text = NULL;
  ClarifyRequest *request;

  /* Callers cannot go below 10 s; the test-only variable is read once per
   * process, so this runs in a child that sets it first. */
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  g_setenv ("CLARIFY_MCP_TEST_MIN_TIMEOUT_MS", "100", TRUE);
  reply = start_request (fixture, "POST", fixture->token, body, NULL);
  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 300);

  /* Nobody answers: the backend's own timer replies and withdraws the dialog. */
  wait_reply (reply);
  text = tool_text (reply, 9, FALSE);
  g_assert_cmpstr (text, ==, "{\"answered\":false,\"cancelled\":false,\"timedOut\":true,\"answers\":[]}");
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);
}

static void
test_timeout_from_dialog (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *body = call_body (10, "{\"questions\":[{\"question\":\"Q\"}],\"timeout\":10000}");
  g_autoptr(Reply) reply = start_request (fixture, "POST", fixture->token, body, NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_TIMED_OUT);
  g_autofree char *text = NULL;

  /* The dialog's countdown may run out first; its answer is the same. */
  clarify_test_watch_answer (&fixture->watch, request, response);
  wait_reply (reply);
  text = tool_text (reply, 10, FALSE);
  g_assert_cmpstr (text, ==, "{\"answered\":false,\"cancelled\":false,\"timedOut\":true,\"answers\":[]}");
  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);
}

static void
test_concurrent (Fixture       *fixture,
                 gconstpointer  data)
{
  Reply *replies[3];
  ClarifyRequest *requests[3];

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *arguments = g_strdup_printf ("{\"questions\":[{\"id\":\"q\",\"question\":\"Call %u?\"}]}", i);
      g_autofree char *body = call_body (100 + i, arguments);

      replies[i] = start_request (fixture, "POST", fixture->token, body, NULL);
    }

  clarify_test_watch_wait_request_for (&fixture->watch, 3, WAIT_MS);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 3);

  /* Each call is its own request with its own id; match them by question text. */
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *text = g_strdup_printf ("Call %u?", i);

      requests[i] = NULL;
      for (guint j = 0; j < 3; j++)
        {
          ClarifyRequest *request = g_ptr_array_index (fixture->watch.added, j);

          if (g_strcmp0 (clarify_question_get_text (clarify_request_get_question (request, 0)), text) == 0)
            requests[i] = request;
        }
      g_assert_nonnull (requests[i]);
    }
  g_assert_cmpstr (clarify_request_get_id (requests[0]), !=, clarify_request_get_id (requests[1]));
  g_assert_cmpstr (clarify_request_get_id (requests[1]), !=, clarify_request_get_id (requests[2]));
  g_assert_cmpstr (clarify_request_get_id (requests[0]), !=, clarify_request_get_id (requests[2]));

  /* Answered in reverse order; every reply carries its own answer. */
  for (int i = 2; i >= 0; i--)
    {
      g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (requests[i]),
                                                                  CLARIFY_OUTCOME_ANSWERED);
      g_autofree char *value = g_strdup_printf ("answer %d", i);

      clarify_response_add_answer (response, "q", (const char *[]) { value, NULL }, NULL, FALSE);
      clarify_test_watch_answer (&fixture->watch, requests[i], response);
    }

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *expected = g_strdup_printf ("{\"answered\":true,\"cancelled\":false,\"timedOut\":false,"
                                                   "\"answers\":[{\"questionId\":\"q\",\"values\":[\"answer %u\"]}]}", i);

      wait_reply (replies[i]);
      text = tool_text (replies[i], 100 + i, FALSE);
      g_assert_cmpstr (text, ==, expected);
      reply_free (replies[i]);
    }
}

/* Past the inbox's cap, ask_user is at once a tool error the model can
 * read; the call that waits is not disturbed. */
static void
test_refused_when_full (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *first = call_body (1, "{\"questions\":[{\"id\":\"q\",\"question\":\"First?\"}]}");
  g_autofree char *second = call_body (2, "{\"questions\":[{\"id\":\"q\",\"question\":\"Second?\"}]}");
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(Reply) waiting = NULL;
  g_autoptr(Reply) refused = NULL;
  g_autofree char *text = NULL;
  ClarifyRequest *request;

  clarify_inbox_set_limits (clarify_backend_get_inbox (fixture->backend), 1, 1000);
  waiting = start_request (fixture, "POST", fixture->token, first, NULL);
  clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  refused = post (fixture, second);
  text = tool_text (refused, 2, TRUE);
  g_assert_cmpstr (text, ==, "Clarify could not ask the user: Too many questions from this connection "
                             "wait for the user (1 at most); ask again later");
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_false (waiting->done);

  request = g_ptr_array_index (fixture->watch.added, 0);
  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_CANCELLED);
  clarify_test_watch_answer (&fixture->watch, request, response);
  wait_reply (waiting);
  g_clear_pointer (&text, g_free);
  text = tool_text (waiting, 1, FALSE);
  g_assert_true (g_str_has_prefix (text, "{\"answered\":false,\"cancelled\":true"));
}

static void
test_client_disconnect (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = call_body (11, "{\"questions\":[{\"question\":\"Still there?\"}]}");
  g_autofree char *http = NULL;
  ClarifyRequest *request;

  connection = g_socket_client_connect_to_host (client, "127.0.0.1",
                                                clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend)),
                                                NULL, &error);
  g_assert_no_error (error);

  http = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                          "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                          fixture->token, strlen (body), body);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             http, strlen (http), NULL, NULL, &error);
  g_assert_no_error (error);

  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_assert_false (clarify_request_is_withdrawn (request));

  /* The agent gives up (closes its connection): the dialog goes away. */
  g_io_stream_close (G_IO_STREAM (connection), NULL, &error);
  g_assert_no_error (error);

  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 0);
  g_assert_cmpuint (clarify_local_backend_get_n_waiting (CLARIFY_LOCAL_BACKEND (fixture->backend)), ==, 0);
}

/* Each session's requests carry the name its client gave in initialize
 * (the dialog's title names the agent by it); a sessionless call none. */
static char *
initialize_as (Fixture    *fixture,
               const char *client_name)
{
  g_autofree char *body = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                           "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                                           "\"clientInfo\":{\"name\":\"%s\",\"version\":\"2.1.332\"}}}",
                                           client_name);
  g_autoptr(Reply) reply = post (fixture, body);

  return g_strdup (soup_message_headers_get_one (reply->headers, "Mcp-Session-Id"));
}

static void
test_caller (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *claude = initialize_as (fixture, "claude-code");
  g_autofree char *opencode = initialize_as (fixture, "opencode");
  g_autofree char *body = call_body (5, "{\"questions\":[{\"question\":\"Which one?\"}]}");
  const char *expected[] = { "opencode", "claude-code", NULL };
  Reply *calls[3];

  g_assert_nonnull (claude);
  g_assert_nonnull (opencode);
  calls[0] = start_request (fixture, "POST", fixture->token, body, "Mcp-Session-Id", opencode, NULL);
  clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  calls[1] = start_request (fixture, "POST", fixture->token, body, "Mcp-Session-Id", claude, NULL);
  clarify_test_watch_wait_request_for (&fixture->watch, 2, WAIT_MS);
  calls[2] = start_request (fixture, "POST", fixture->token, body, NULL);
  clarify_test_watch_wait_request_for (&fixture->watch, 3, WAIT_MS);

  for (guint i = 0; i < 3; i++)
    {
      ClarifyRequest *request = g_ptr_array_index (fixture->watch.added, i);
      g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                                  CLARIFY_OUTCOME_CANCELLED);

      g_assert_cmpstr (clarify_request_get_caller (request), ==, expected[i]);
      clarify_test_watch_answer (&fixture->watch, request, response);
      wait_reply (calls[i]);
      reply_free (calls[i]);
    }
}

static void
test_cancelled_notification (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *session_id = NULL;
  g_autofree char *body = call_body (12, "{\"questions\":[{\"question\":\"Long question\"}]}");
  g_autofree char *text = NULL;
  g_autoptr(Reply) call = NULL;
  ClarifyRequest *request;

  {
    g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                            "\"params\":{\"protocolVersion\":\"2025-03-26\"}}");

    session_id = g_strdup (soup_message_headers_get_one (reply->headers, "Mcp-Session-Id"));
  }

  call = start_request (fixture, "POST", fixture->token, body, "Mcp-Session-Id", session_id, NULL);
  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  /* A cancellation for another session's id 12 touches nothing. */
  {
    g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                                            "\"params\":{\"requestId\":12}}");

    g_assert_cmpuint (reply->status, ==, 202);
    clarify_test_loop_for (50);
    g_assert_false (clarify_request_is_withdrawn (request));
  }

  /* The user stopped the agent: it cancels its call and the dialog goes. */
  {
    g_autoptr(Reply) reply = post_with (fixture, fixture->token,
                                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                                        "\"params\":{\"requestId\":12,\"reason\":\"aborted\"}}",
                                        "Mcp-Session-Id", session_id, NULL);

    g_assert_cmpuint (reply->status, ==, 202);
  }

  wait_reply (call);
  g_assert_true (clarify_request_is_withdrawn (request));
  text = tool_text (call, 12, TRUE);
  g_assert_cmpstr (text, ==, "The request was cancelled before the user answered");
}

/* Without sessions, callers that number from 1 share their ids: a
 * cancellation for id 7 used to end the latest caller's question, not
 * necessarily the sender's. With two calls of that id none is ended; with
 * one left, that one is. */
static void
test_cancelled_without_session (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *first_body = call_body (7, "{\"questions\":[{\"question\":\"First\"}]}");
  g_autofree char *second_body = call_body (7, "{\"questions\":[{\"question\":\"Second\"}]}");
  const char *cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}";
  g_autoptr(Reply) first_call = NULL;
  g_autoptr(Reply) second_call = NULL;
  ClarifyRequest *first, *second;

  first_call = start_request (fixture, "POST", fixture->token, first_body, NULL);
  first = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  second_call = start_request (fixture, "POST", fixture->token, second_body, NULL);
  second = clarify_test_watch_wait_request_for (&fixture->watch, 2, WAIT_MS);

  {
    g_autoptr(Reply) reply = post (fixture, cancel);

    g_assert_cmpuint (reply->status, ==, 202);
    clarify_test_loop_for (50);
    g_assert_false (clarify_request_is_withdrawn (first));
    g_assert_false (clarify_request_is_withdrawn (second));
  }

  /* The first is answered; the cancellation now names one call. */
  {
    g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (first),
                                                                CLARIFY_OUTCOME_CANCELLED);

    clarify_test_watch_answer (&fixture->watch, first, response);
    wait_reply (first_call);
  }
  {
    g_autoptr(Reply) reply = post (fixture, cancel);

    g_assert_cmpuint (reply->status, ==, 202);
  }
  wait_reply (second_call);
  g_assert_true (clarify_request_is_withdrawn (second));
}

static void
test_port_in_use (Fixture       *fixture,
                  gconstpointer  data)
{
  guint port = clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend));
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (port);
  g_autoptr(ClarifyBackend) second = clarify_mcp_server_new (connection);
  g_autofree char *port_text = g_strdup_printf ("127.0.0.1:%u", port);

  clarify_backend_start (second);
  g_assert_cmpuint (clarify_backend_get_state (second), ==, CLARIFY_CONNECTION_STATE_FAILED);
  g_assert_cmpint (clarify_backend_get_note (second), ==, CLARIFY_BACKEND_NOTE_CANNOT_LISTEN);
  g_assert_cmpstr (clarify_backend_get_note_subject (second), ==, port_text);
  g_assert_nonnull (clarify_backend_get_error_text (second));
  g_assert_cmpuint (clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (second)), ==, 0);
  g_assert_null (clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (second)));

  /* The first one keeps serving. */
  {
    g_autoptr(Reply) reply = post (fixture, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");

    g_assert_cmpuint (reply->status, ==, 200);
  }
}

static void
test_stop_replies (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *body = call_body (13, "{\"questions\":[{\"question\":\"Q\"}]}");
  g_autoptr(Reply) reply = start_request (fixture, "POST", fixture->token, body, NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_autofree char *text = NULL;

  /* Quitting Clarify answers the waiting agent instead of leaving it hanging. */
  clarify_backend_stop (fixture->backend);
  g_assert_true (clarify_request_is_withdrawn (request));
  wait_reply (reply);
  text = tool_text (reply, 13, TRUE);
  g_assert_true (g_str_has_prefix (text, "Clarify could not ask the user: "));
}

/* ---------------------------------------------------------------------- */

static void
test_secret_file (void)
{
  g_autofree char *path = clarify_secret_get_file_path ();
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;
  char *value;

  value = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_null (value);

  g_assert_true (clarify_secret_store ("connection:work", "Work OpenCode", "s3cr=t;[x]", &error));
  g_assert_no_error (error);
  g_assert_true (clarify_secret_store ("mcp-token", NULL, "tok", &error));
  g_assert_no_error (error);

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  value = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "s3cr=t;[x]");
  g_free (value);

  /* Replacing keeps one entry. */
  g_assert_true (clarify_secret_store ("connection:work", "Work OpenCode", "new", &error));
  value = clarify_secret_lookup ("connection:work", &error);
  g_assert_cmpstr (value, ==, "new");
  g_free (value);

  g_assert_true (clarify_secret_clear ("connection:work", &error));
  g_assert_no_error (error);
  value = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_null (value);
  g_assert_true (clarify_secret_clear ("connection:work", &error));

  value = clarify_secret_lookup ("mcp-token", &error);
  g_assert_cmpstr (value, ==, "tok");
  g_free (value);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_null (strstr (contents, "s3cr"));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
}

static void
test_token (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *first = clarify_mcp_token_ensure (&error);
  g_autofree char *second = NULL;
  g_autofree char *other = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (first);
  /* 32 bytes in base64url without padding. */
  g_assert_cmpuint (strlen (first), ==, 43);
  for (const char *p = first; *p; p++)
    g_assert_true (g_ascii_isalnum (*p) || *p == '-' || *p == '_');

  second = clarify_mcp_token_ensure (&error);
  g_assert_cmpstr (first, ==, second);

  g_assert_true (clarify_secret_clear (CLARIFY_MCP_TOKEN_KEY, &error));
  other = clarify_mcp_token_ensure (&error);
  g_assert_cmpstr (other, !=, first);
}

static void
test_configured_port (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "clarify", NULL);
  g_autofree char *path = g_build_filename (dir, "mcp.ini", NULL);
  g_autoptr(ClarifyBackend) backend = NULL;

  g_assert_cmpuint (clarify_mcp_config_get_port (), ==, CLARIFY_MCP_DEFAULT_PORT);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "[mcp]\nport=7345\n", -1, NULL));
  g_assert_cmpuint (clarify_mcp_config_get_port (), ==, 7345);

  backend = clarify_mcp_server_new_default (0);
  g_assert_cmpstr (clarify_connection_get_url (clarify_backend_get_connection (backend)), ==,
                   "http://127.0.0.1:7345/mcp");
  g_clear_object (&backend);

  backend = clarify_mcp_server_new_default (7400);
  g_assert_cmpstr (clarify_connection_get_url (clarify_backend_get_connection (backend)), ==,
                   "http://127.0.0.1:7400/mcp");
  g_assert_cmpstr (clarify_connection_get_kind (clarify_backend_get_connection (backend)), ==, "mcp");

  g_assert_true (g_file_set_contents (path, "[mcp]\nport=70000\n", -1, NULL));
  g_assert_cmpuint (clarify_mcp_config_get_port (), ==, CLARIFY_MCP_DEFAULT_PORT);
  g_assert_true (g_file_set_contents (path, "[mcp]\nport=0\n", -1, NULL));
  g_assert_cmpuint (clarify_mcp_config_get_port (), ==, CLARIFY_MCP_DEFAULT_PORT);
}

static void
test_parse_direct (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = json_from_string ("{\"questions\":[{\"question\":\"A\"},{\"question\":\"B\"},"
                                                    "{\"id\":\"q_given\",\"question\":\"C\"}]}", NULL);
  g_autoptr(ClarifyRequest) request = clarify_ask_user_parse (arguments, "r1", &error);
  const char *a;
  const char *b;

  g_assert_no_error (error);
  g_assert_cmpstr (clarify_request_get_id (request), ==, "r1");
  a = clarify_question_get_id (clarify_request_get_question (request, 0));
  b = clarify_question_get_id (clarify_request_get_question (request, 1));
  g_assert_true (g_str_has_prefix (a, "q_"));
  g_assert_true (g_str_has_prefix (b, "q_"));
  g_assert_cmpstr (a, !=, b);
  g_assert_cmpstr (a, !=, "q_given");
  g_assert_cmpstr (clarify_question_get_id (clarify_request_get_question (request, 2)), ==, "q_given");
}

/* The HTTP endpoint builds its request itself: it must get the caps and
 * visible marks that a request through D-Bus gets. */
static void
test_parse_validated (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = json_from_string ("{\"questions\":[{\"question\":\"http \\u202Eevil\","
                                                    "\"type\":\"select\",\"options\":[\"y\",\"y\"]}]}", NULL);
  g_autoptr(JsonNode) blank = json_from_string ("{\"questions\":[{\"question\":\" \\n \"}]}", NULL);
  g_autoptr(ClarifyRequest) request = clarify_ask_user_parse (arguments, "r1", &error);
  g_autoptr(ClarifyRequest) refused = NULL;
  ClarifyQuestion *question;

  g_assert_no_error (error);
  question = clarify_request_get_question (request, 0);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "http ⟨U+202E⟩evil");
  clarify_test_assert_option (question, 0, "y", "y", NULL);
  clarify_test_assert_option (question, 1, "y (2)", "y", NULL);

  refused = clarify_ask_user_parse (blank, "r2", &error);
  g_assert_null (refused);
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
}

static void
test_test_only_floor (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) arguments = json_from_string ("{\"questions\":[{\"question\":\"A\"}],\"timeout\":250}", NULL);
      g_autoptr(ClarifyRequest) request = NULL;

      g_setenv ("CLARIFY_MCP_TEST_MIN_TIMEOUT_MS", "200", TRUE);
      g_assert_cmpuint (clarify_ask_user_get_min_timeout (), ==, 200);
      request = clarify_ask_user_parse (arguments, "r", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 250);

      /* Read once: changing it later changes nothing, and it never raises the floor. */
      g_setenv ("CLARIFY_MCP_TEST_MIN_TIMEOUT_MS", "5", TRUE);
      g_assert_cmpuint (clarify_ask_user_get_min_timeout (), ==, 200);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  /* Never the user's keyring: tests keep their secrets in the isolated config dir. */
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_unsetenv ("CLARIFY_MCP_TEST_MIN_TIMEOUT_MS");

  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) g_test_add ("/mcp/" path, Fixture, NULL, clarify_test_mcp_setup, func, clarify_test_mcp_teardown)
  ADD ("initialize/versions", test_initialize_versions);
  ADD ("initialize/bad-params", test_initialize_bad_params);
  ADD ("notifications", test_notifications);
  ADD ("ping", test_ping);
  ADD ("tools-list/seed-schema", test_tools_list);
  ADD ("jsonrpc-errors", test_jsonrpc_errors);
  ADD ("auth", test_auth);
  ADD ("origin", test_origin);
  ADD ("http-surface", test_http_surface);
  ADD ("ask-user/validation", test_validation_messages);
  ADD ("ask-user/answered", test_answered);
  ADD ("ask-user/cancelled", test_cancelled);
  ADD ("ask-user/timeout", test_timeout);
  ADD ("ask-user/timeout-from-dialog", test_timeout_from_dialog);
  ADD ("ask-user/concurrent", test_concurrent);
  ADD ("ask-user/refused-when-full", test_refused_when_full);
  ADD ("ask-user/client-disconnect", test_client_disconnect);
  ADD ("ask-user/cancelled-notification", test_cancelled_notification);
  ADD ("ask-user/cancelled-without-session", test_cancelled_without_session);
  ADD ("ask-user/caller", test_caller);
  ADD ("ask-user/answer-for-unknown", test_answer_for_unknown_request);
  ADD ("ask-user/stop-replies", test_stop_replies);
  ADD ("port-in-use", test_port_in_use);
#undef ADD
  g_test_add_func ("/mcp/tools-list/findable", test_tools_list_findable);
  g_test_add_func ("/mcp/ask-user/parse-ids", test_parse_direct);
  g_test_add_func ("/mcp/ask-user/validated", test_parse_validated);
  g_test_add_func ("/mcp/ask-user/test-only-floor", test_test_only_floor);
  g_test_add_func ("/mcp/secret/file", test_secret_file);
  g_test_add_func ("/mcp/token", test_token);
  g_test_add_func ("/mcp/configured-port", test_configured_port);

  return g_test_run ();
}
