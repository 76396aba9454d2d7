/* test-mcp-stream.c: ask_user calls that outlive a client's timeout
 *
 * A call that waits for the user is answered as an event stream when the
 * client takes one: headers at once, notifications/progress while the
 * dialog is open (only when the call carries a progressToken), the JSON-RPC
 * result as the last event, then the end of the stream. Read here as it
 * arrives, over real loopback HTTP, with the progress interval lowered to
 * 100 ms (CLARIFY_MCP_TEST_PROGRESS_INTERVAL_MS; the real one is 10 s).
 * Also: the JSON fallback, a client that leaves mid-stream, and the
 * protocol's timer on its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <libsoup/soup.h>
#include <string.h>

#include "clarify-ask-user.h"
#include "clarify-mcp-protocol.h"
#include "clarify-mcp-server.h"
#include "clarify-secret.h"
#include "clarify-test-log.h"
#include "clarify-test-mcp.h"
#include "clarify-test-server.h"

#define WAIT_MS     5000
#define INTERVAL_MS 100
/* Long enough for three notifications, had any been sent. */
#define QUIET_MS    (INTERVAL_MS * 4)

#define PROGRESS_PATTERN "^Waiting for the user's answer in Clarify \\([0-9]+ s\\)$"

typedef ClarifyTestMcp Fixture;

/* tools/call ask_user with one text question; @meta is params._meta's JSON or NULL. */
static char *
call_body (gint64      id,
           const char *question,
           const char *meta)
{
  g_autofree char *meta_member = meta != NULL ? g_strdup_printf (",\"_meta\":%s", meta) : g_strdup ("");

  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"method\":\"tools/call\","
                          "\"params\":{\"name\":\"ask_user\",\"arguments\":{\"questions\":"
                          "[{\"id\":\"q\",\"question\":\"%s\"}]}%s}}",
                          id, question, meta_member);
}

static SoupMessage *
new_call (Fixture    *fixture,
          const char *body,
          const char *accept)
{
  SoupMessage *msg = soup_message_new ("POST", fixture->url);
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);
  g_autofree char *authorization = g_strdup_printf ("Bearer %s", fixture->token);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  soup_message_headers_replace (headers, "Authorization", authorization);
  if (accept != NULL)
    soup_message_headers_replace (headers, "Accept", accept);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);

  return msg;
}

/* ---------------------------------------------------------------------- */
/* A reply read as it arrives */

typedef struct
{
  SoupMessage      *msg;
  GDataInputStream *lines;
  gboolean          sent;
  char             *line;
  gboolean          line_done;
} Stream;

static void
stream_free (Stream *stream)
{
  g_clear_object (&stream->lines);
  g_clear_object (&stream->msg);
  g_free (stream->line);
  g_free (stream);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Stream, stream_free)

static void
stream_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Stream *stream = user_data;
  g_autoptr(GInputStream) body = NULL;
  g_autoptr(GError) error = NULL;

  body = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
  stream->lines = g_data_input_stream_new (body);
  stream->sent = TRUE;
}

static gboolean
stream_sent (gpointer data)
{
  return ((Stream *) data)->sent;
}

/* Posts @body accepting an event stream; returns once the headers came. */
static Stream *
stream_open (Fixture    *fixture,
             const char *body)
{
  Stream *stream = g_new0 (Stream, 1);

  stream->msg = new_call (fixture, body, "application/json, text/event-stream");
  soup_session_send_async (fixture->session, stream->msg, G_PRIORITY_DEFAULT, NULL, stream_sent_cb, stream);
  g_assert_true (clarify_test_loop_until (stream_sent, stream, WAIT_MS));

  return stream;
}

static void
stream_line_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Stream *stream = user_data;
  g_autoptr(GError) error = NULL;

  stream->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  g_assert_no_error (error);
  stream->line_done = TRUE;
}

static gboolean
stream_line_done (gpointer data)
{
  return ((Stream *) data)->line_done;
}

/* The next line without its "\n", or NULL at the end of the stream. */
static char *
stream_read_line (Stream *stream)
{
  stream->line_done = FALSE;
  g_data_input_stream_read_line_async (stream->lines, G_PRIORITY_DEFAULT, NULL, stream_line_cb, stream);
  g_assert_true (clarify_test_loop_until (stream_line_done, stream, WAIT_MS));

  return g_steal_pointer (&stream->line);
}

/* The JSON-RPC message of the next event, whose framing must be exactly
 * "event: message\ndata: JSON\n\n"; NULL when the stream ended instead. */
static JsonObject *
stream_read_event (Stream *stream)
{
  g_autofree char *event = stream_read_line (stream);
  g_autofree char *data = NULL;
  g_autofree char *end = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  if (event == NULL)
    return NULL;

  g_assert_cmpstr (event, ==, "event: message");
  data = stream_read_line (stream);
  g_assert_nonnull (data);
  g_assert_true (g_str_has_prefix (data, "data: "));
  end = stream_read_line (stream);
  g_assert_cmpstr (end, ==, "");

  node = json_from_string (data + strlen ("data: "), &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

/* A notifications/progress with @token_json, count @progress: exactly its
 * three members, no more. */
static void
assert_progress (JsonObject *message,
                 const char *token_json,
                 gint64      progress)
{
  JsonObject *params;
  g_autofree char *token = NULL;

  g_assert_cmpuint (json_object_get_size (message), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (message, "jsonrpc"), ==, "2.0");
  g_assert_cmpstr (json_object_get_string_member (message, "method"), ==, "notifications/progress");
  g_assert_false (json_object_has_member (message, "id"));

  params = json_object_get_object_member (message, "params");
  g_assert_cmpuint (json_object_get_size (params), ==, 3);
  token = json_to_string (json_object_get_member (params, "progressToken"), FALSE);
  g_assert_cmpstr (token, ==, token_json);
  g_assert_cmpint (json_object_get_int_member (params, "progress"), ==, progress);
  g_assert_true (g_regex_match_simple (PROGRESS_PATTERN, json_object_get_string_member (params, "message"), 0, 0));
}

/* The tool result text of a final JSON-RPC message for call @id. */
static const char *
result_text (JsonObject *message,
             gint64      id)
{
  JsonObject *result;
  JsonArray *content;

  g_assert_cmpstr (json_object_get_string_member (message, "jsonrpc"), ==, "2.0");
  g_assert_cmpint (json_object_get_int_member (message, "id"), ==, id);
  result = json_object_get_object_member (message, "result");
  g_assert_nonnull (result);
  content = json_object_get_array_member (result, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 1);

  return json_object_get_string_member (json_array_get_object_element (content, 0), "text");
}

static void
answer (Fixture        *fixture,
        ClarifyRequest *request,
        const char     *value)
{
  g_autoptr(ClarifyResponse) response = NULL;

  if (value == NULL)
    response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_CANCELLED);
  else
    {
      response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
      clarify_response_add_answer (response, "q", (const char *[]) { value, NULL }, NULL, FALSE);
    }
  clarify_test_watch_answer (&fixture->watch, request, response);
}

/* Reads progress events (counts going on from *@progress) up to the
 * result, which it returns; then the stream must end. */
static JsonObject *
read_to_result (Stream     *stream,
                const char *token_json,
                gint64     *progress)
{
  JsonObject *message;

  for (;;)
    {
      message = stream_read_event (stream);
      g_assert_nonnull (message);
      if (json_object_has_member (message, "id"))
        break;
      assert_progress (message, token_json, ++*progress);
      json_object_unref (message);
    }

  g_assert_null (stream_read_line (stream));

  return message;
}

#define ANSWERED(value) "{\"answered\":true,\"cancelled\":false,\"timedOut\":false," \
                        "\"answers\":[{\"questionId\":\"q\",\"values\":[\"" value "\"]}]}"
#define CANCELLED       "{\"answered\":false,\"cancelled\":true,\"timedOut\":false,\"answers\":[]}"

/* ---------------------------------------------------------------------- */

static void
test_progress (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *body_a = call_body (1, "A?", "{\"progressToken\":\"tok-a\"}");
  g_autofree char *body_b = call_body (2, "B?", "{\"progressToken\":42,\"other\":true}");
  g_autoptr(Stream) a = stream_open (fixture, body_a);
  g_autoptr(Stream) b = stream_open (fixture, body_b);
  SoupMessageHeaders *headers = soup_message_get_response_headers (a->msg);
  g_autoptr(JsonObject) result = NULL;
  ClarifyRequest *request_a;
  ClarifyRequest *request_b;
  gint64 progress_a = 0;
  gint64 progress_b = 0;

  /* The headers came while nobody has answered yet. */
  request_a = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  request_b = clarify_test_watch_wait_request_for (&fixture->watch, 2, WAIT_MS);
  if (g_strcmp0 (clarify_question_get_text (clarify_request_get_question (request_a, 0)), "A?") != 0)
    {
      ClarifyRequest *swap = request_a;

      request_a = request_b;
      request_b = swap;
    }
  g_assert_false (clarify_request_is_withdrawn (request_a));
  g_assert_cmpuint (soup_message_get_status (a->msg), ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type (headers, NULL), ==, "text/event-stream");
  g_assert_cmpstr (soup_message_headers_get_one (headers, "Cache-Control"), ==, "no-cache");
  g_assert_cmpint (soup_message_headers_get_encoding (headers), ==, SOUP_ENCODING_CHUNKED);

  /* Each stream carries its own call's token, counting up from 1. */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(JsonObject) event = stream_read_event (a);

      assert_progress (event, "\"tok-a\"", ++progress_a);
    }
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(JsonObject) event = stream_read_event (b);

      assert_progress (event, "42", ++progress_b);
    }

  /* Answered: the result is the last event, and the stream ends. */
  answer (fixture, request_a, "yes");
  result = read_to_result (a, "\"tok-a\"", &progress_a);
  g_assert_cmpstr (result_text (result, 1), ==, ANSWERED ("yes"));
  g_clear_pointer (&result, json_object_unref);

  /* The other call goes on being reported until it too is over. */
  {
    g_autoptr(JsonObject) event = stream_read_event (b);

    assert_progress (event, "42", ++progress_b);
  }
  answer (fixture, request_b, NULL);
  result = read_to_result (b, "42", &progress_b);
  g_assert_cmpstr (result_text (result, 2), ==, CANCELLED);

  g_assert_cmpuint (fixture->watch.withdrawn, ==, 0);
  g_assert_cmpuint (clarify_local_backend_get_n_waiting (CLARIFY_LOCAL_BACKEND (fixture->backend)), ==, 0);
}

static void
test_stream_without_token (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *body = call_body (3, "Quiet?", "{\"claudecode/toolUseId\":\"toolu_1\"}");
  g_autoptr(Stream) stream = stream_open (fixture, body);
  SoupMessageHeaders *headers = soup_message_get_response_headers (stream->msg);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_autoptr(JsonObject) result = NULL;

  /* The stream is open at once (Claude Code waits on it), and stays silent. */
  g_assert_cmpstr (soup_message_headers_get_content_type (headers, NULL), ==, "text/event-stream");
  clarify_test_loop_for (QUIET_MS);
  answer (fixture, request, "fine");

  /* Nothing but the result came, then the end. */
  result = stream_read_event (stream);
  g_assert_cmpstr (result_text (result, 3), ==, ANSWERED ("fine"));
  g_assert_null (stream_read_line (stream));
}

typedef struct
{
  gboolean  done;
  GBytes   *body;
} Whole;

static void
whole_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Whole *whole = user_data;
  g_autoptr(GError) error = NULL;

  whole->body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
  whole->done = TRUE;
}

static gboolean
whole_done (gpointer data)
{
  return ((Whole *) data)->done;
}

static void
test_json_fallback (Fixture       *fixture,
                    gconstpointer  data)
{
  /* A client that takes only JSON, and one that says nothing. */
  const char *accepts[] = { "application/json", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (accepts); i++)
    {
      g_autofree char *body = call_body (10 + i, "Plain?", "{\"progressToken\":7}");
      g_autoptr(SoupMessage) msg = new_call (fixture, body, accepts[i]);
      g_autofree char *expected = NULL;
      Whole whole = { FALSE, NULL };
      ClarifyRequest *request;

      soup_session_send_and_read_async (fixture->session, msg, G_PRIORITY_DEFAULT, NULL, whole_cb, &whole);
      request = clarify_test_watch_wait_request_for (&fixture->watch, i + 1, WAIT_MS);
      /* Progress has nowhere to go: the reply is the result alone. */
      clarify_test_loop_for (QUIET_MS);
      answer (fixture, request, "plain");
      g_assert_true (clarify_test_loop_until (whole_done, &whole, WAIT_MS));

      g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
      g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL),
                       ==, "application/json");
      expected = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                                  "\"{\\\"answered\\\":true,\\\"cancelled\\\":false,\\\"timedOut\\\":false,"
                                  "\\\"answers\\\":[{\\\"questionId\\\":\\\"q\\\",\\\"values\\\":[\\\"plain\\\"]}]}\"}]}}",
                                  10 + i);
      g_assert_cmpmem (g_bytes_get_data (whole.body, NULL), g_bytes_get_size (whole.body), expected, strlen (expected));
      g_bytes_unref (whole.body);
    }
}

typedef struct
{
  char   buffer[1024];
  gssize n;
} Read;

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Read *read = user_data;
  g_autoptr(GError) error = NULL;

  read->n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  g_assert_no_error (error);
}

static gboolean
read_done (gpointer data)
{
  return ((Read *) data)->n >= 0;
}

/* Reads from @input into @seen until it holds @needle. The server runs in
 * this thread: the reads must not block it. */
static void
read_until (GInputStream *input,
            GString      *seen,
            const char   *needle)
{
  while (strstr (seen->str, needle) == NULL)
    {
      Read read = { .n = -1 };

      g_input_stream_read_async (input, read.buffer, sizeof read.buffer, G_PRIORITY_DEFAULT, NULL, read_cb, &read);
      g_assert_true (clarify_test_loop_until (read_done, &read, WAIT_MS));
      g_assert_cmpint (read.n, >, 0);
      g_string_append_len (seen, read.buffer, read.n);
    }
}

static void
test_client_leaves (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *metas[] = { "{\"progressToken\":\"t\"}", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (metas); i++)
    {
      g_autoptr(GSocketClient) client = g_socket_client_new ();
      g_autoptr(GSocketConnection) connection = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GString) seen = g_string_new (NULL);
      g_autofree char *body = call_body (20 + i, "Still there?", metas[i]);
      g_autofree char *http = NULL;
      ClarifyRequest *request;

      connection = g_socket_client_connect_to_host (client, "127.0.0.1",
                                                    clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend)),
                                                    NULL, &error);
      g_assert_no_error (error);
      http = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                              "Accept: application/json, text/event-stream\r\n"
                              "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                              fixture->token, strlen (body), body);
      g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                                 http, strlen (http), NULL, NULL, &error);
      g_assert_no_error (error);

      /* The stream has begun (with a progress event, when asked for one)... */
      read_until (g_io_stream_get_input_stream (G_IO_STREAM (connection)), seen,
                  metas[i] != NULL ? "notifications/progress" : "\r\n\r\n");
      g_assert_true (g_str_has_prefix (seen->str, "HTTP/1.1 200 OK\r\n"));
      g_assert_nonnull (strstr (seen->str, "\r\nContent-Type: text/event-stream\r\n"));
      g_assert_nonnull (strstr (seen->str, "\r\nTransfer-Encoding: chunked\r\n"));
      request = clarify_test_watch_wait_request_for (&fixture->watch, i + 1, WAIT_MS);
      g_assert_false (clarify_request_is_withdrawn (request));

      /* ...and the agent goes away: so does the question. */
      g_io_stream_close (G_IO_STREAM (connection), NULL, &error);
      g_assert_no_error (error);
      clarify_test_watch_wait_withdrawn (&fixture->watch, i + 1, WAIT_MS);
      g_assert_true (clarify_request_is_withdrawn (request));
      g_assert_cmpuint (clarify_local_backend_get_n_waiting (CLARIFY_LOCAL_BACKEND (fixture->backend)), ==, 0);
    }

  /* The endpoint serves on. */
  {
    g_autofree char *body = call_body (30, "Next?", "{\"progressToken\":\"n\"}");
    g_autoptr(Stream) stream = stream_open (fixture, body);
    ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 3, WAIT_MS);
    g_autoptr(JsonObject) result = NULL;
    gint64 progress = 0;

    answer (fixture, request, "next");
    result = read_to_result (stream, "\"n\"", &progress);
    g_assert_cmpstr (result_text (result, 30), ==, ANSWERED ("next"));
  }
}

static void
test_stop_ends_stream (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *body = call_body (40, "Q?", "{\"progressToken\":\"s\"}");
  g_autoptr(Stream) stream = stream_open (fixture, body);
  g_autoptr(JsonObject) result = NULL;
  gint64 progress = 0;

  clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  /* Quitting Clarify answers the waiting agent on its stream. */
  clarify_backend_stop (fixture->backend);
  result = read_to_result (stream, "\"s\"", &progress);
  g_assert_true (g_str_has_prefix (result_text (result, 40), "Clarify could not ask the user: "));
}

/* ---------------------------------------------------------------------- */
/* The protocol alone: what the transport hears, and when it stops */

typedef struct
{
  GTask     *ask;         /* the pending ask, completed by the test */
  GPtrArray *events;      /* "WAITING" or the notification's JSON */
  char      *reply;
  gboolean   done;
} Heard;

static void
heard_ask (ClarifyRequest      *request,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  Heard *heard = user_data;

  g_assert_null (heard->ask);
  heard->ask = g_task_new (NULL, cancellable, callback, callback_data);
  g_task_set_task_data (heard->ask, g_object_ref (request), g_object_unref);
}

static ClarifyResponse *
heard_ask_finish (GAsyncResult  *result,
                  gpointer       user_data,
                  GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
heard_event_cb (ClarifyMcpEvent  event,
                const char      *message,
                gpointer         user_data)
{
  Heard *heard = user_data;

  g_assert_false (heard->done);
  if (event == CLARIFY_MCP_EVENT_WAITING)
    {
      g_assert_null (message);
      g_ptr_array_add (heard->events, g_strdup ("WAITING"));
    }
  else
    g_ptr_array_add (heard->events, g_strdup (message));
}

static void
heard_reply_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Heard *heard = user_data;

  heard->reply = clarify_mcp_protocol_handle_finish (CLARIFY_MCP_PROTOCOL (object), result, NULL);
  heard->done = TRUE;
}

/* WAITING and three notifications. */
static gboolean
heard_three (gpointer data)
{
  return ((Heard *) data)->events->len >= 4;
}

static gboolean
heard_done (gpointer data)
{
  return ((Heard *) data)->done;
}

static void
test_protocol_events (void)
{
  Heard heard = { NULL, g_ptr_array_new_with_free_func (g_free), NULL, FALSE };
  g_autoptr(ClarifyMcpProtocol) protocol = clarify_mcp_protocol_new (heard_ask, heard_ask_finish, &heard);
  g_autofree char *body = call_body (5, "Q?", "{\"progressToken\":\"p\"}");
  const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
  g_autoptr(ClarifyResponse) response = NULL;
  guint n_heard;

  /* A message that does not wait tells the transport nothing. */
  clarify_mcp_protocol_handle_async (protocol, NULL, ping, strlen (ping),
                                     NULL, heard_event_cb, heard_reply_cb, &heard);
  g_assert_true (clarify_test_loop_until (heard_done, &heard, WAIT_MS));
  g_assert_cmpstr (heard.reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  g_assert_cmpuint (heard.events->len, ==, 0);
  g_clear_pointer (&heard.reply, g_free);
  heard.done = FALSE;

  /* A waiting call: WAITING first, then progress, counting up. */
  clarify_mcp_protocol_handle_async (protocol, NULL, body, strlen (body),
                                     NULL, heard_event_cb, heard_reply_cb, &heard);
  g_assert_true (clarify_test_loop_until (heard_three, &heard, WAIT_MS));
  g_assert_nonnull (heard.ask);
  g_assert_cmpstr (heard.events->pdata[0], ==, "WAITING");
  for (guint i = 1; i < heard.events->len; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (heard.events->pdata[i], NULL);

      assert_progress (json_node_get_object (node), "\"p\"", i);
    }

  /* The reply ends it: nothing more is heard, however long one waits. */
  response = clarify_response_new (clarify_request_get_id (g_task_get_task_data (heard.ask)),
                                   CLARIFY_OUTCOME_CANCELLED);
  g_task_return_pointer (heard.ask, g_steal_pointer (&response), g_object_unref);
  g_clear_object (&heard.ask);
  g_assert_true (clarify_test_loop_until (heard_done, &heard, WAIT_MS));
  n_heard = heard.events->len;
  clarify_test_loop_for (QUIET_MS);
  g_assert_cmpuint (heard.events->len, ==, n_heard);
  g_assert_true (g_str_has_prefix (heard.reply, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":"));

  g_free (heard.reply);
  g_ptr_array_unref (heard.events);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  /* Test-only: progress every 100 ms instead of 10 s. */
  g_setenv ("CLARIFY_MCP_TEST_PROGRESS_INTERVAL_MS", G_STRINGIFY (INTERVAL_MS), TRUE);

  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_assert_cmpuint (clarify_ask_user_get_progress_interval (), ==, INTERVAL_MS);

#define ADD(path, func) g_test_add ("/mcp-stream/" path, Fixture, NULL, clarify_test_mcp_setup, func, clarify_test_mcp_teardown)
  ADD ("progress", test_progress);
  ADD ("without-token", test_stream_without_token);
  ADD ("json-fallback", test_json_fallback);
  ADD ("client-leaves", test_client_leaves);
  ADD ("stop-ends-stream", test_stop_ends_stream);
#undef ADD
  g_test_add_func ("/mcp-stream/protocol-events", test_protocol_events);

  return g_test_run ();
}
