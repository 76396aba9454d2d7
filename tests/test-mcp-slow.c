/* test-mcp-slow.c: an MCP client that takes its time to send its call
 *
 * The MCP endpoint is Clarify's own server, so “a server that answers only
 * after 30 s” turns around: the client is the slow side. It sends the
 * headers and half of an ask_user call, and the rest 25 s later (a real
 * wait). The question is shown once the call is whole, not before, and the
 * person's answer reaches the client on the same connection. 25 s, not 31:
 * a connection whose call is not read whole within
 * CLARIFY_MCP_IDLE_TIMEOUT_MS (30 s) is let go, against clients that hold
 * sockets open (test-mcp-attack); at 31 s this case raced that limit.
 *
 * Meanwhile another client, whose whole call came first, is answered at
 * once with 8 MiB, more than the sockets hold, and reads nothing until the
 * same 25 s have passed: it then gets the whole answer (the kernel gives a
 * reply up only once nothing could be sent for the idle limit).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include "clarify-test-log.h"
#include "clarify-test-mcp.h"

#define WAIT_MS 5000
#define SLOW_MS 25000

typedef ClarifyTestMcp Fixture;

/* What the client has read so far, read without blocking the loop the
 * server runs in. */
typedef struct
{
  GInputStream *input;
  GCancellable *cancellable;
  GString      *text;
  char          buffer[4096];
  gboolean      ended;
} Reader;

static void
read_more (Reader *reader);

static void
on_read (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Reader *reader = user_data;
  g_autoptr(GError) error = NULL;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);

  if (n <= 0)
    {
      /* Its size, not its text: megabytes of it, on lines TAP would not read. */
      g_test_message ("the connection ended: %s; %zu bytes read", error != NULL ? error->message : "end of stream",
                      reader->text->len);
      reader->ended = TRUE;
      return;
    }
  g_string_append_len (reader->text, reader->buffer, n);
  read_more (reader);
}

static void
read_more (Reader *reader)
{
  g_input_stream_read_async (reader->input, reader->buffer, sizeof reader->buffer, G_PRIORITY_DEFAULT,
                             reader->cancellable, on_read, reader);
}

static gboolean
has_answer (gpointer data)
{
  Reader *reader = data;

  return strstr (reader->text->str, "main") != NULL || reader->ended;
}

static void
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* The reply is whole: its last chunk came, or the connection ended. */
static gboolean
has_whole_reply (gpointer data)
{
  Reader *reader = data;

  return g_str_has_suffix (reader->text->str, "\r\n0\r\n\r\n") || reader->ended;
}

static gboolean
has_ended (gpointer data)
{
  return ((Reader *) data)->ended;
}

static void
write_text (GSocketConnection *connection,
            const char        *text,
            gsize              length)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), text, length, NULL, NULL,
                             &error);
  g_assert_no_error (error);
}

/* A connection to the endpoint whose receive buffer is small from the start. */
static GSocketConnection *
connect_small (Fixture *fixture)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GError) error = NULL;

  address = g_inet_socket_address_new (loopback, clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend)));
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_set_option (socket, SOL_SOCKET, SO_RCVBUF, 4096, &error));
  g_assert_no_error (error);
  g_assert_true (g_socket_connect (socket, address, NULL, &error));
  g_assert_no_error (error);
  return g_socket_connection_factory_create_connection (socket);
}

static char *
call_head (Fixture    *fixture,
           const char *body)
{
  return g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                          "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                          "Content-Length: %zu\r\n\r\n",
                          fixture->token, strlen (body));
}

static void
reader_clear (Reader *reader)
{
  /* The pending read ends before @reader goes. */
  g_cancellable_cancel (reader->cancellable);
  g_assert_true (clarify_test_loop_until (has_ended, reader, WAIT_MS));
  g_string_free (reader->text, TRUE);
  g_object_unref (reader->cancellable);
}

static void
test_slow_call (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketConnection) late = NULL;
  const char *body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                     "\"arguments\":{\"questions\":[{\"question\":\"Which branch?\"}]}}}";
  const char *late_body = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                          "\"arguments\":{\"questions\":[{\"question\":\"Read later?\"}]}}}";
  g_autofree char *big = g_strnfill (8 * 1024 * 1024, 'x');
  g_autofree char *head = NULL;
  g_autofree char *late_head = NULL;
  gsize half = strlen (body) / 2;
  ClarifyRequest *request;
  Reader reader = { 0 };
  Reader late_reader = { 0 };
  gboolean slept = FALSE;

  /* The late reader: its call whole, answered at once, nothing read. */
  late = connect_small (fixture);
  late_head = call_head (fixture, late_body);
  write_text (late, late_head, strlen (late_head));
  write_text (late, late_body, strlen (late_body));
  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  clarify_test_mcp_answer_text (fixture, request, big);

  connection = g_socket_client_connect_to_host (client, "127.0.0.1",
                                                clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend)),
                                                NULL, &error);
  g_assert_no_error (error);
  reader.input = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  reader.text = g_string_new (NULL);
  reader.cancellable = g_cancellable_new ();
  read_more (&reader);

  head = call_head (fixture, body);
  write_text (connection, head, strlen (head));
  write_text (connection, body, half);

  /* Half a call for 25 s: nothing to show yet, and the connection holds. */
  G_STATIC_ASSERT (SLOW_MS + 5000 <= CLARIFY_MCP_IDLE_TIMEOUT_MS);
  /* Real time, as the endpoint's limit is: not stretched like the waits
   * below under CLARIFY_TEST_TIMEOUT_SCALE. */
  g_timeout_add_once (SLOW_MS, set_true, &slept);
  g_assert_true (clarify_test_loop_until (is_true, &slept, SLOW_MS + WAIT_MS));
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_false (reader.ended);

  /* The late reader reads now, 25 s after its answer: all of it. */
  late_reader.input = g_io_stream_get_input_stream (G_IO_STREAM (late));
  late_reader.text = g_string_new (NULL);
  late_reader.cancellable = g_cancellable_new ();
  read_more (&late_reader);
  g_assert_true (clarify_test_loop_until (has_whole_reply, &late_reader, 4 * WAIT_MS));
  g_test_message ("the late reader read %zu bytes", late_reader.text->len);
  g_assert_true (g_str_has_prefix (late_reader.text->str, "HTTP/1.1 200"));
  g_assert_nonnull (strstr (late_reader.text->str, big));

  write_text (connection, body + half, strlen (body) - half);
  request = clarify_test_watch_wait_request_for (&fixture->watch, 2, WAIT_MS);
  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==, "Which branch?");
  clarify_test_mcp_answer_text (fixture, request, "main");

  g_assert_true (clarify_test_loop_until (has_answer, &reader, WAIT_MS));
  g_test_message ("the reply: %zu bytes", reader.text->len);
  g_assert_true (g_str_has_prefix (reader.text->str, "HTTP/1.1 200"));
  g_assert_nonnull (strstr (reader.text->str, "main"));
  g_assert_cmpuint (fixture->watch.added->len, ==, 2);

  reader_clear (&reader);
  reader_clear (&late_reader);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  g_io_stream_close (G_IO_STREAM (late), NULL, NULL);
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

  g_test_add ("/mcp-slow/call", Fixture, NULL, clarify_test_mcp_setup, test_slow_call, clarify_test_mcp_teardown);

  return g_test_run ();
}
