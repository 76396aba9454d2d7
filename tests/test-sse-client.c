/* test-sse-client.c: ClarifySseClient against the fake server, and the
 * fake server's own self-test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-test-server.h"

/* ------------------------------------------------------------------------ */
/* The fake server itself                                                   */

static GBytes *
fetch (SoupSession *session,
       const char  *method,
       const char  *url,
       const char  *body,
       guint       *status)
{
  g_autoptr(SoupMessage) msg = soup_message_new (method, url);
  g_autoptr(GError) error = NULL;
  GBytes *reply;

  soup_message_headers_append (soup_message_get_request_headers (msg), "X-Test", "yes");
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    }
  reply = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  *status = soup_message_get_status (msg);

  return reply;
}

static void
assert_reply (GBytes     *reply,
              const char *expected)
{
  gsize len;
  const char *data = g_bytes_get_data (reply, &len);

  g_assert_cmpmem (data, len, expected, strlen (expected));
}

static void
test_server_replies (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = clarify_test_server_get_url (server, "/api/x?a=1");
  g_autofree char *other = clarify_test_server_get_url (server, "/nope");
  g_autoptr(ClarifyTestRequest) first = NULL;
  g_autoptr(ClarifyTestRequest) second = NULL;
  g_autoptr(ClarifyTestRequest) none = NULL;
  guint status = 0;

  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));
  g_assert_cmpuint (clarify_test_server_get_port (server), >, 0);

  clarify_test_server_add_json (server, "POST", "/api/x", 200, NULL, "{\"n\":1}");
  clarify_test_server_add_json (server, "POST", "/api/x", 409, "text/plain", "two");

  g_bytes_unref (fetch (session, "POST", url, "{\"q\":true}", &status));
  g_assert_cmpuint (status, ==, 200);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GBytes) reply = fetch (session, "POST", url, NULL, &status);

      g_assert_cmpuint (status, ==, 409);
      assert_reply (reply, "two");
    }
  g_bytes_unref (fetch (session, "GET", other, NULL, &status));
  g_assert_cmpuint (status, ==, 404);

  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", "/api/x"), ==, 3);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, NULL, "/nope"), ==, 1);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "GET", "/api/x"), ==, 0);

  first = clarify_test_server_wait_for_request (server, "POST", "/api/x", 1000);
  g_assert_nonnull (first);
  g_assert_cmpstr (first->query, ==, "a=1");
  g_assert_cmpstr (first->body, ==, "{\"q\":true}");
  g_assert_cmpstr (clarify_test_request_get_header (first, "X-Test"), ==, "yes");
  g_assert_cmpstr (clarify_test_request_get_header (first, "Content-Type"), ==, "application/json");
  second = clarify_test_server_wait_for_request (server, "POST", "/api/x", 1000);
  g_assert_nonnull (second);
  g_assert_cmpstr (second->body, ==, "");
  g_clear_pointer (&second, clarify_test_request_free);
  second = clarify_test_server_wait_for_request (server, "POST", "/api/x", 1000);
  g_assert_nonnull (second);
  /* All three claimed: the next wait times out. */
  none = clarify_test_server_wait_for_request (server, "POST", "/api/x", 50);
  g_assert_null (none);
}

static void
reply_headers_cb (const ClarifyTestRequest *request,
                  guint                    *status,
                  char                    **content_type,
                  char                    **body,
                  gpointer                  user_data)
{
  *status = 201;
  *body = g_strdup_printf ("{\"echo\":%s}", request->body);
}

static void
test_server_headers_and_handler (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *login = clarify_test_server_get_url (server, "/login");
  g_autofree char *echo = clarify_test_server_get_url (server, "/echo");
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", login);
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *headers[] = { "Set-Cookie: session=abc; Path=/", NULL };
  guint status = 0;

  clarify_test_server_add_reply (server, "POST", "/login", 200, "application/json", "{}", headers);
  reply = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Set-Cookie"),
                   ==, "session=abc; Path=/");
  g_clear_pointer (&reply, g_bytes_unref);

  clarify_test_server_add_handler (server, "POST", "/echo", reply_headers_cb, NULL);
  reply = fetch (session, "POST", echo, "[1]", &status);
  g_assert_cmpuint (status, ==, 201);
  assert_reply (reply, "{\"echo\":[1]}");
}

static void
read_exactly (GInputStream *stream,
              const char   *expected)
{
  gsize len = strlen (expected);
  g_autofree char *buffer = g_malloc0 (len + 1);
  g_autoptr(GError) error = NULL;
  gsize n_read = 0;

  g_input_stream_read_all (stream, buffer, len, &n_read, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (buffer, ==, expected);
}

static void
test_server_sse (void)
{
  g_autoptr(ClarifyTestServer) server = clarify_test_server_new ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = clarify_test_server_get_url (server, "/event");
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", url);
  g_autoptr(SoupMessage) msg2 = soup_message_new ("GET", url);
  g_autoptr(SoupMessage) refused = soup_message_new ("GET", url);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GInputStream) stream2 = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  char rest[16];

  clarify_test_server_add_sse (server, "/event");
  clarify_test_server_set_sse_greeting (server, "/event", "data: hello\n\n");
  g_assert_cmpuint (clarify_test_server_get_n_streams (server, "/event"), ==, 0);

  /* Blocking reads are fine here: the server has its own thread. */
  stream = soup_session_send (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL),
                   ==, "text/event-stream");
  g_assert_true (clarify_test_server_wait_for_n_streams (server, "/event", 1, 2000));
  read_exactly (stream, "data: hello\n\n");

  stream2 = soup_session_send (session, msg2, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (clarify_test_server_wait_for_n_streams (server, "/event", 2, 2000));

  clarify_test_server_sse_send (server, "/event", "data: a\r\n\r\n", -1);
  clarify_test_server_sse_send (server, "/event", "x\0y", 3);
  read_exactly (stream, "data: a\r\n\r\n");
  read_exactly (stream2, "data: hello\n\ndata: a\r\n\r\n");
  {
    char raw[3];
    gsize n = 0;

    g_input_stream_read_all (stream, raw, 3, &n, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpmem (raw, n, "x\0y", 3);
  }

  /* The client hanging up drops its stream. */
  g_input_stream_close (stream2, NULL, NULL);
  g_clear_object (&stream2);
  g_assert_true (clarify_test_server_wait_for_n_streams (server, "/event", 1, 2000));

  clarify_test_server_sse_close (server, "/event");
  g_assert_cmpuint (clarify_test_server_get_n_streams (server, "/event"), ==, 0);
  /* libsoup's chunked decoder wants reads of more than 2 bytes. */
  g_assert_cmpint (g_input_stream_read (stream, rest, sizeof rest, NULL, &error), ==, 0);
  g_assert_no_error (error);

  clarify_test_server_set_sse_response (server, "/event", 401, "application/json");
  body = soup_session_send_and_read (session, refused, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (refused), ==, 401);
  g_assert_cmpuint (clarify_test_server_get_n_streams (server, "/event"), ==, 0);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "GET", "/event"), ==, 3);
}

static void
test_server_shared_file (void)
{
  g_autofree char *text = clarify_test_load_shared_file ("protocols/opencode-mcp-claude.md");

  g_assert_nonnull (strstr (text, "server.connected"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/test-server/replies", test_server_replies);
  g_test_add_func ("/test-server/headers-and-handler", test_server_headers_and_handler);
  g_test_add_func ("/test-server/sse", test_server_sse);
  g_test_add_func ("/test-server/shared-file", test_server_shared_file);

  return g_test_run ();
}
