/* test-sse-client.c: ClarifySseClient against the fake server, and the
 * fake server's own self-test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-sse-client.h"
#include "clarify-sse-parser.h"
#include "clarify-test-log.h"
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

  {
    g_autoptr(GBytes) reply = fetch (session, "POST", url, "{\"q\":true}", &status);

    g_assert_cmpuint (status, ==, 200);
    assert_reply (reply, "{\"n\":1}");
  }
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
test_server_fixture_file (void)
{
  g_autofree char *text = clarify_test_load_fixture ("protocols/opencode-mcp-claude/a1-event-streams.sse");

  g_assert_nonnull (strstr (text, "server.connected"));
}

/* ------------------------------------------------------------------------ */
/* ClarifySseClient                                                         */

typedef struct
{
  ClarifyTestServer *server;
  SoupSession       *session;
  ClarifySseClient  *client;
  GPtrArray         *events;        /* "[type] data #id" */
  GArray            *states;        /* ClarifyConnectionState, one per notify::state */
  GPtrArray         *reasons;       /* the reason at each notify::state */
  GArray            *retry_delays;  /* retry_at - now (µs) at each RECONNECTING/FAILED */
  GArray            *open_times;    /* … and how long the stream had been open then (µs), or 0 */
  gint64             connected_at;  /* of the open stream, or 0 */
  guint              n_connected;
  gboolean           stop_in_handler;
} Fixture;

static void
on_event (ClarifySseClient *client,
          const char       *type,
          const char       *data,
          const char       *id,
          Fixture          *f)
{
  g_ptr_array_add (f->events, g_strdup_printf ("[%s] %s #%s", type, data, id));

  if (f->stop_in_handler)
    clarify_sse_client_stop (client);
}

static void
on_connected (ClarifySseClient *client,
              Fixture          *f)
{
  g_assert_cmpint (clarify_sse_client_get_state (client), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_null (clarify_sse_client_get_state_reason (client));
  f->n_connected++;
  f->connected_at = g_get_monotonic_time ();
}

static void
on_state (ClarifySseClient *client,
          GParamSpec       *pspec,
          Fixture          *f)
{
  ClarifyConnectionState state = clarify_sse_client_get_state (client);
  gint64 retry_at = clarify_sse_client_get_retry_at (client);

  g_array_append_val (f->states, state);
  g_ptr_array_add (f->reasons, g_strdup (clarify_sse_client_get_state_reason (client)));

  if (state == CLARIFY_CONNECTION_STATE_RECONNECTING || state == CLARIFY_CONNECTION_STATE_FAILED)
    {
      gint64 now = g_get_monotonic_time ();
      gint64 delay = retry_at - now;
      gint64 open = f->connected_at != 0 ? now - f->connected_at : 0;

      g_assert_cmpint (retry_at, >, 0);
      g_assert_nonnull (clarify_sse_client_get_state_reason (client));
      g_array_append_val (f->retry_delays, delay);
      g_array_append_val (f->open_times, open);
      f->connected_at = 0;
    }
  else
    {
      g_assert_cmpint (retry_at, ==, 0);
    }
}

static Fixture *
fixture_new (const char *path)
{
  Fixture *f = g_new0 (Fixture, 1);
  g_autofree char *url = NULL;

  f->server = clarify_test_server_new ();
  clarify_test_server_add_sse (f->server, path);
  url = clarify_test_server_get_url (f->server, path);
  f->session = soup_session_new ();
  f->client = clarify_sse_client_new (f->session, url);
  f->events = g_ptr_array_new_with_free_func (g_free);
  f->states = g_array_new (FALSE, FALSE, sizeof (ClarifyConnectionState));
  f->reasons = g_ptr_array_new_with_free_func (g_free);
  f->retry_delays = g_array_new (FALSE, FALSE, sizeof (gint64));
  f->open_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* Fast retries unless a test says otherwise. */
  clarify_sse_client_set_backoff (f->client, 20, 200);

  g_signal_connect (f->client, "event", G_CALLBACK (on_event), f);
  g_signal_connect (f->client, "connected", G_CALLBACK (on_connected), f);
  g_signal_connect (f->client, "notify::state", G_CALLBACK (on_state), f);

  return f;
}

static void
fixture_free (Fixture *f)
{
  g_clear_object (&f->client);
  g_clear_object (&f->session);
  clarify_test_server_free (f->server);
  g_ptr_array_unref (f->events);
  g_array_unref (f->states);
  g_ptr_array_unref (f->reasons);
  g_array_unref (f->retry_delays);
  g_array_unref (f->open_times);
  g_free (f);
}

static gboolean
seen_state (Fixture                *f,
            ClarifyConnectionState  state)
{
  for (guint i = 0; i < f->states->len; i++)
    if (g_array_index (f->states, ClarifyConnectionState, i) == state)
      return TRUE;

  return FALSE;
}

typedef struct
{
  Fixture               *f;
  ClarifyConnectionState state;
  guint                  n;
} StateWait;

static gboolean
is_in_state (gpointer data)
{
  StateWait *wait = data;

  return clarify_sse_client_get_state (wait->f->client) == wait->state;
}

static gboolean
wait_for_state (Fixture                *f,
                ClarifyConnectionState  state)
{
  StateWait wait = { f, state, 0 };

  return clarify_test_loop_until (is_in_state, &wait, 5000);
}

static gboolean
has_n_events (gpointer data)
{
  StateWait *wait = data;

  return wait->f->events->len >= wait->n;
}

static gboolean
wait_for_n_events (Fixture *f,
                   guint    n)
{
  StateWait wait = { f, 0, n };

  return clarify_test_loop_until (has_n_events, &wait, 5000);
}

static gboolean
has_n_retries (gpointer data)
{
  StateWait *wait = data;

  return wait->f->retry_delays->len >= wait->n;
}

static void
test_client_events_and_headers (void)
{
  Fixture *f = fixture_new ("/event");
  g_autoptr(SoupCookieJar) jar = soup_cookie_jar_new ();
  g_autoptr(GUri) uri = g_uri_parse (clarify_sse_client_get_url (f->client), SOUP_HTTP_URI_FLAGS, NULL);
  g_autoptr(ClarifyTestRequest) request = NULL;

  soup_cookie_jar_set_cookie (jar, uri, "codenomad_session=s3cr3t");
  soup_session_add_feature (f->session, SOUP_SESSION_FEATURE (jar));
  clarify_sse_client_set_header (f->client, "X-Custom", "one");
  clarify_sse_client_set_header (f->client, "X-Custom", "two");
  clarify_sse_client_set_header (f->client, "X-Gone", "x");
  clarify_sse_client_set_header (f->client, "X-Gone", NULL);

  g_assert_cmpint (clarify_sse_client_get_state (f->client), ==, CLARIFY_CONNECTION_STATE_IDLE);
  clarify_sse_client_start (f->client);
  g_assert_cmpint (clarify_sse_client_get_state (f->client), ==, CLARIFY_CONNECTION_STATE_CONNECTING);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  g_assert_cmpuint (f->n_connected, ==, 1);
  g_assert_null (clarify_sse_client_get_state_reason (f->client));

  request = clarify_test_server_wait_for_request (f->server, "GET", "/event", 1000);
  g_assert_nonnull (request);
  g_assert_cmpstr (clarify_test_request_get_header (request, "Accept"), ==, "text/event-stream");
  g_assert_cmpstr (clarify_test_request_get_header (request, "Cache-Control"), ==, "no-cache");
  g_assert_cmpstr (clarify_test_request_get_header (request, "X-Custom"), ==, "two");
  g_assert_null (clarify_test_request_get_header (request, "X-Gone"));
  g_assert_null (clarify_test_request_get_header (request, "Last-Event-ID"));
  g_assert_cmpstr (clarify_test_request_get_header (request, "Cookie"), ==, "codenomad_session=s3cr3t");

  clarify_test_server_sse_send (f->server, "/event", "data: hello\n\nevent: x\ndata: y\nid: 3\n\n: hb\n\n", -1);
  clarify_test_server_sse_send (f->server, "/event", "data: split", -1);
  clarify_test_server_sse_send (f->server, "/event", " across writes\r\n\r\n", -1);
  g_assert_true (wait_for_n_events (f, 3));
  g_assert_cmpstr (g_ptr_array_index (f->events, 0), ==, "[message] hello #");
  g_assert_cmpstr (g_ptr_array_index (f->events, 1), ==, "[x] y #3");
  g_assert_cmpstr (g_ptr_array_index (f->events, 2), ==, "[message] split across writes #3");

  /* States so far: CONNECTING, CONNECTED, each notified once. */
  g_assert_cmpuint (f->states->len, ==, 2);
  g_assert_cmpuint (clarify_test_server_get_n_requests (f->server, "GET", "/event"), ==, 1);

  fixture_free (f);
}

static void
test_client_last_event_id (void)
{
  Fixture *f = fixture_new ("/event");
  g_autoptr(ClarifyTestRequest) first = NULL;
  g_autoptr(ClarifyTestRequest) second = NULL;

  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  clarify_test_server_sse_send (f->server, "/event", "id: 42\ndata: a\n\n", -1);
  g_assert_true (wait_for_n_events (f, 1));

  clarify_test_server_sse_close (f->server, "/event");
  first = clarify_test_server_wait_for_request (f->server, "GET", "/event", 1000);
  second = clarify_test_server_wait_for_request (f->server, "GET", "/event", 5000);
  g_assert_nonnull (second);
  g_assert_null (clarify_test_request_get_header (first, "Last-Event-ID"));
  g_assert_cmpstr (clarify_test_request_get_header (second, "Last-Event-ID"), ==, "42");

  g_assert_true (seen_state (f, CLARIFY_CONNECTION_STATE_RECONNECTING));
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  g_assert_cmpuint (f->n_connected, ==, 2);

  /* The id carries over into the new stream's events. */
  clarify_test_server_sse_send (f->server, "/event", "data: b\n\n", -1);
  g_assert_true (wait_for_n_events (f, 2));
  g_assert_cmpstr (g_ptr_array_index (f->events, 1), ==, "[message] b #42");

  fixture_free (f);
}

static void
test_client_retry_field (void)
{
  Fixture *f = fixture_new ("/event");

  /* Without the server's retry: the next attempt would be a minute away. */
  clarify_sse_client_set_backoff (f->client, 60000, 60000);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  clarify_test_server_sse_send (f->server, "/event", "retry: 30\n\n", -1);
  clarify_test_server_sse_send (f->server, "/event", "data: x\n\n", -1);
  g_assert_true (wait_for_n_events (f, 1));
  clarify_test_server_sse_close (f->server, "/event");

  g_assert_true (clarify_test_server_wait_for_n_requests (f->server, "GET", "/event", 2, 5000));
  g_assert_cmpuint (f->retry_delays->len, >=, 1);
  g_assert_cmpint (g_array_index (f->retry_delays, gint64, 0), <=, 30 * 1000);
  g_assert_cmpstr (g_ptr_array_index (f->reasons, 2), ==, "the server closed the stream");

  fixture_free (f);
}

/* A server's retry: beyond the backoff's cap is taken as the cap: an agent
 * that once sent a huge one is not left alone for days. */
static void
test_client_retry_field_capped (void)
{
  Fixture *f = fixture_new ("/event");

  clarify_sse_client_set_backoff (f->client, 100, 400);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  clarify_test_server_sse_send (f->server, "/event", "retry: 4000000000\n\n", -1);
  clarify_test_server_sse_send (f->server, "/event", "data: x\n\n", -1);
  g_assert_true (wait_for_n_events (f, 1));
  clarify_test_server_sse_close (f->server, "/event");

  g_assert_true (clarify_test_server_wait_for_n_requests (f->server, "GET", "/event", 2, 5000));
  g_assert_cmpuint (f->retry_delays->len, >=, 1);
  g_assert_cmpint (g_array_index (f->retry_delays, gint64, 0), <=, 400 * 1000);

  fixture_free (f);
}

static void
test_client_backoff (void)
{
  Fixture *f = fixture_new ("/event");
  StateWait wait = { f, 0, 7 };

  clarify_test_server_set_sse_response (f->server, "/event", 500, "text/plain");
  clarify_sse_client_set_backoff (f->client, 20, 160);
  clarify_sse_client_start (f->client);
  g_assert_true (clarify_test_loop_until (has_n_retries, &wait, 10000));

  g_assert_cmpint (clarify_sse_client_get_state (f->client), !=, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_false (seen_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  g_assert_cmpstr (g_ptr_array_index (f->reasons, 1), ==, "HTTP 500 Internal Server Error");

  /* 20, 40, 80, 160, 160 … ms, each less up to a quarter of jitter: every
   * step until the cap is longer than the one before, none beyond the cap. */
  for (guint i = 0; i < f->retry_delays->len; i++)
    {
      gint64 delay = g_array_index (f->retry_delays, gint64, i);

      g_test_message ("retry delay %u: %" G_GINT64_FORMAT " us", i, delay);
      g_assert_cmpint (delay, <=, 160 * 1000);
      if (i > 0 && i < 4)
        g_assert_cmpint (delay, >, g_array_index (f->retry_delays, gint64, i - 1));
    }
  g_assert_cmpint (g_array_index (f->retry_delays, gint64, 6), >, g_array_index (f->retry_delays, gint64, 1));

  /* A new start() begins at the initial delay again. */
  clarify_sse_client_stop (f->client);
  g_assert_cmpint (clarify_sse_client_get_retry_at (f->client), ==, 0);
  g_array_set_size (f->retry_delays, 0);
  clarify_sse_client_start (f->client);
  wait.n = 1;
  g_assert_true (clarify_test_loop_until (has_n_retries, &wait, 5000));
  g_assert_cmpint (g_array_index (f->retry_delays, gint64, 0), <=, 20 * 1000);

  fixture_free (f);
}

static void
test_client_auth_failed (void)
{
  Fixture *f = fixture_new ("/event");

  clarify_test_server_set_sse_response (f->server, "/event", 401, "application/json");
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_FAILED));
  g_assert_cmpstr (clarify_sse_client_get_state_reason (f->client), ==, "authentication failed");
  g_assert_cmpint (clarify_sse_client_get_retry_at (f->client), >, 0);

  /* Still retried, and a fixed backend gets through. */
  g_assert_true (clarify_test_server_wait_for_n_requests (f->server, "GET", "/event", 2, 5000));
  clarify_test_server_set_sse_response (f->server, "/event", 200, "text/event-stream");
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));

  fixture_free (f);
}

static void
test_client_content_type (void)
{
  Fixture *f = fixture_new ("/event");

  clarify_test_server_set_sse_response (f->server, "/event", 200, "text/html; charset=utf-8");
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_FAILED));
  g_assert_cmpstr (clarify_sse_client_get_state_reason (f->client), ==, "unexpected content type text/html");
  g_assert_true (clarify_test_server_wait_for_n_requests (f->server, "GET", "/event", 2, 5000));
  g_assert_false (seen_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  g_assert_cmpuint (f->n_connected, ==, 0);

  fixture_free (f);
}

static void
test_client_stall (void)
{
  Fixture *f = fixture_new ("/event");
  gboolean stalled = FALSE;

  clarify_sse_client_set_stall_timeout (f->client, 300);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));

  /* The server stays silent: the client gives up on the stream and opens a new one. */
  g_assert_true (clarify_test_server_wait_for_n_requests (f->server, "GET", "/event", 2, 5000));
  for (guint i = 0; i < f->reasons->len; i++)
    stalled |= g_strcmp0 (g_ptr_array_index (f->reasons, i), "no data for 300 ms") == 0;
  g_assert_true (stalled);
  /* … and closed the silent one. */
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  g_assert_true (clarify_test_server_wait_for_n_streams (f->server, "/event", 1, 5000));

  fixture_free (f);
}

/* Without a stall timeout (an agent without heartbeats) a server that
 * accepts the GET and never answers is still left and tried again, while
 * an open stream may stay quiet for as long as it likes. */
static void
test_client_no_response (void)
{
  Fixture *f = fixture_new ("/event");
  g_autofree char *silent_url = clarify_test_server_get_url (f->server, "/silent");
  g_autofree char *event_url = clarify_test_server_get_url (f->server, "/event");
  gboolean timed_out = FALSE;

  clarify_test_server_add_raw (f->server, "/silent", "", 0);
  clarify_sse_client_set_url (f->client, silent_url);
  clarify_sse_client_set_response_timeout (f->client, 300);
  clarify_sse_client_start (f->client);

  g_assert_true (clarify_test_server_wait_for_n_requests (f->server, "GET", "/silent", 2, 5000));
  for (guint i = 0; i < f->reasons->len; i++)
    timed_out |= g_strcmp0 (g_ptr_array_index (f->reasons, i), "no response for 300 ms") == 0;
  g_assert_true (timed_out);
  g_assert_false (seen_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  clarify_sse_client_stop (f->client);

  clarify_sse_client_set_url (f->client, event_url);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  clarify_test_loop_for (1000);
  g_assert_cmpint (clarify_sse_client_get_state (f->client), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (f->server, "GET", "/event"), ==, 1);

  fixture_free (f);
}

static void
test_client_heartbeats (void)
{
  Fixture *f = fixture_new ("/event");

  /* Ten times the heartbeats' interval: a loaded machine (or ASan) may
   * delay one, and the stream has to be silent for a whole second. */
  clarify_sse_client_set_stall_timeout (f->client, 1000);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));

  for (guint i = 0; i < 20; i++)
    {
      clarify_test_server_sse_send (f->server, "/event", ": hb\n\n", -1);
      clarify_test_loop_for (100);
    }

  g_assert_cmpint (clarify_sse_client_get_state (f->client), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_false (seen_state (f, CLARIFY_CONNECTION_STATE_RECONNECTING));
  g_assert_cmpuint (clarify_test_server_get_n_requests (f->server, "GET", "/event"), ==, 1);
  g_assert_cmpuint (f->events->len, ==, 0);

  fixture_free (f);
}

static void
test_client_stop (void)
{
  Fixture *f = fixture_new ("/event");
  g_autoptr(ClarifySseClient) in_flight = NULL;
  g_autofree char *url = clarify_test_server_get_url (f->server, "/event");
  guint n_states;

  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  clarify_test_server_sse_send (f->server, "/event", "data: 1\n\n", -1);
  g_assert_true (wait_for_n_events (f, 1));

  /* A handler that stops: the rest of the same chunk is not delivered. */
  f->stop_in_handler = TRUE;
  clarify_test_server_sse_send (f->server, "/event", "data: 2\n\ndata: 3\n\n", -1);
  g_assert_true (wait_for_n_events (f, 2));
  g_assert_cmpint (clarify_sse_client_get_state (f->client), ==, CLARIFY_CONNECTION_STATE_IDLE);
  g_assert_null (clarify_sse_client_get_state_reason (f->client));
  g_assert_cmpint (clarify_sse_client_get_retry_at (f->client), ==, 0);
  n_states = f->states->len;

  /* The stream is closed, and nothing more reaches us. */
  g_assert_true (clarify_test_server_wait_for_n_streams (f->server, "/event", 0, 5000));
  clarify_test_server_sse_send (f->server, "/event", "data: 4\n\n", -1);
  clarify_test_loop_for (200);
  g_assert_cmpuint (f->events->len, ==, 2);
  g_assert_cmpuint (f->states->len, ==, n_states);
  g_assert_cmpuint (clarify_test_server_get_n_requests (f->server, "GET", "/event"), ==, 1);

  /* Stopping twice is harmless; starting again works. */
  clarify_sse_client_stop (f->client);
  f->stop_in_handler = FALSE;
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));

  /* Stop mid-stream, then finalize: no crash, no signals. */
  clarify_test_server_sse_send (f->server, "/event", "data: 5\n\n", -1);
  clarify_sse_client_stop (f->client);
  g_clear_object (&f->client);
  clarify_test_server_sse_send (f->server, "/event", "data: 6\n\n", -1);
  clarify_test_loop_for (200);
  g_assert_cmpuint (f->events->len, ==, 2);

  /* Finalized while the GET is still in flight. */
  in_flight = clarify_sse_client_new (f->session, url);
  g_signal_connect (in_flight, "event", G_CALLBACK (on_event), f);
  clarify_sse_client_start (in_flight);
  g_clear_object (&in_flight);
  clarify_test_loop_for (200);
  g_assert_cmpuint (f->events->len, ==, 2);

  fixture_free (f);
}

static void
test_client_oversized_event (void)
{
  Fixture *f = fixture_new ("/event");
  gsize big_len = CLARIFY_SSE_DEFAULT_MAX_EVENT_SIZE + 100 * 1024;
  g_autofree char *big = g_malloc (big_len + 16);

  memcpy (big, "data: ", 6);
  memset (big + 6, 'q', big_len);
  memcpy (big + 6 + big_len, "\n\n", 3);

  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  clarify_test_server_sse_send (f->server, "/event", "data: before\n\n", -1);
  clarify_test_server_sse_send (f->server, "/event", big, -1);
  clarify_test_server_sse_send (f->server, "/event", "data: after\n\n", -1);
  g_assert_true (wait_for_n_events (f, 2));

  g_assert_cmpuint (f->events->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (f->events, 0), ==, "[message] before #");
  g_assert_cmpstr (g_ptr_array_index (f->events, 1), ==, "[message] after #");
  g_assert_cmpint (clarify_sse_client_get_state (f->client), ==, CLARIFY_CONNECTION_STATE_CONNECTED);
  g_assert_cmpuint (clarify_test_server_get_n_requests (f->server, "GET", "/event"), ==, 1);
  /* The log says which stream, among several agents', lost it. */
  g_assert_true (clarify_test_log_seen ("SSE http://127.0.0.1:*/event: dropped an event of more than * bytes*"));

  fixture_free (f);
}

static void
test_client_url_and_reconnect (void)
{
  Fixture *f = fixture_new ("/event");
  g_autofree char *other = clarify_test_server_get_url (f->server, "/fallback?x=1");

  clarify_test_server_add_sse (f->server, "/fallback");
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));

  clarify_sse_client_set_url (f->client, other);
  g_assert_cmpstr (clarify_sse_client_get_url (f->client), ==, other);
  clarify_sse_client_reconnect (f->client);
  g_assert_cmpint (clarify_sse_client_get_state (f->client), ==, CLARIFY_CONNECTION_STATE_RECONNECTING);
  g_assert_true (clarify_test_server_wait_for_n_requests (f->server, "GET", "/fallback", 1, 5000));
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  g_assert_cmpuint (f->n_connected, ==, 2);

  fixture_free (f);
}

static void
test_client_refused (void)
{
  Fixture *f = fixture_new ("/event");
  g_autofree char *url = NULL;

  /* A port that nobody listens on any more. */
  {
    g_autoptr(ClarifyTestServer) gone = clarify_test_server_new ();

    url = clarify_test_server_get_url (gone, "/event");
  }
  clarify_sse_client_set_url (f->client, url);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_RECONNECTING));
  g_assert_nonnull (clarify_sse_client_get_state_reason (f->client));
  g_assert_cmpuint (f->n_connected, ==, 0);

  fixture_free (f);
}

/* An agent that goes away and comes back on its port: while the port is
 * refused the delays grow but never past 2 s, so a restarted server is
 * reached within 2 s of being back; once a server answers over HTTP (here
 * with an error) the back-off starts over at the first delay. */
static void
test_client_back_after_outage (void)
{
  Fixture *f = fixture_new ("/event");
  guint port = clarify_test_server_get_port (f->server);
  StateWait wait = { f, 0, 10 };
  gint64 after_answer;
  guint n;

  clarify_sse_client_set_backoff (f->client, 20, 60000);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));

  /* Down: the stream ends, then every attempt is refused. */
  g_clear_pointer (&f->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (has_n_retries, &wait, 30000));
  for (guint i = 0; i < f->retry_delays->len; i++)
    {
      gint64 delay = g_array_index (f->retry_delays, gint64, i);

      g_test_message ("retry delay %u: %" G_GINT64_FORMAT " us (%s)", i, delay,
                      (const char *) g_ptr_array_index (f->reasons, f->reasons->len - 1));
      g_assert_cmpint (delay, <=, 2000 * 1000);
    }
  /* It did back off: 20 ms doubled eight times is far beyond the cap. */
  g_assert_cmpint (g_array_index (f->retry_delays, gint64, 9), >, 1000 * 1000);

  /* Back, and first answering with an error. Nothing runs the client's
   * main loop meanwhile, so its first request meets the 500. */
  f->server = clarify_test_server_new_on_port (port);
  clarify_test_server_add_sse (f->server, "/event");
  clarify_test_server_set_sse_response (f->server, "/event", 500, "text/plain");
  n = f->retry_delays->len;
  wait.n = n + 1;
  g_assert_true (clarify_test_loop_until (has_n_retries, &wait, 5000));
  g_assert_cmpstr (g_ptr_array_index (f->reasons, f->reasons->len - 1), ==, "HTTP 500 Internal Server Error");
  after_answer = g_array_index (f->retry_delays, gint64, n);
  g_test_message ("delay after the server answered: %" G_GINT64_FORMAT " us", after_answer);
  g_assert_cmpint (after_answer, <=, 20 * 1000);

  clarify_test_server_set_sse_response (f->server, "/event", 200, "text/event-stream");
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  g_assert_cmpuint (f->n_connected, ==, 2);

  fixture_free (f);
}

static gboolean
is_refused (gpointer data)
{
  const char *reason = clarify_sse_client_get_state_reason (data);

  return reason != NULL && strstr (reason, "refused") != NULL;
}

/* A stream that ends is tried again at once, however long the back-off:
 * a server that died then refuses, and its restart is seen even if it is
 * back within the back-off. */
static void
test_client_quick_probe (void)
{
  Fixture *f = fixture_new ("/event");
  guint port = clarify_test_server_get_port (f->server);

  clarify_sse_client_set_backoff (f->client, 60000, 60000);
  clarify_sse_client_start (f->client);
  g_assert_true (wait_for_state (f, CLARIFY_CONNECTION_STATE_CONNECTED));
  /* Open for more than a second: not a server that closes every stream. */
  clarify_test_loop_for (1100);

  g_clear_pointer (&f->server, clarify_test_server_free);
  g_assert_true (clarify_test_loop_until (is_refused, f->client, 5000));

  f->server = clarify_test_server_new_on_port (port);
  clarify_test_server_add_sse (f->server, "/event");
  g_assert_true (clarify_sse_client_had_outage (f->client));

  fixture_free (f);
}

static gboolean
has_n_streams (gpointer data)
{
  StateWait *wait = data;

  return wait->f->n_connected >= wait->n;
}

/* Starts the client and ends each of its first @n streams once it was open
 * for @open_ms. */
static void
end_streams_after (Fixture *f,
                   guint    n,
                   guint    open_ms)
{
  StateWait wait = { f, 0, 0 };

  clarify_sse_client_start (f->client);
  for (wait.n = 1; wait.n <= n; wait.n++)
    {
      g_assert_true (clarify_test_loop_until (has_n_streams, &wait, 5000));
      clarify_test_loop_for (open_ms);
      clarify_test_server_sse_close (f->server, "/event");
      g_assert_true (clarify_test_loop_until (has_n_retries, &wait, 5000));
    }
}

/* End @i of those in a row (from 0) is probed at once if its stream was
 * open 1 s << i, else tried again after the back-off from @base_ms. The
 * stream's life is measured here, as a loaded machine may stretch it;
 * within 50 ms of the line it proves nothing either way. */
static void
check_end (Fixture *f,
           guint    i,
           guint    base_ms)
{
  gint64 open = g_array_index (f->open_times, gint64, i);
  gint64 delay = g_array_index (f->retry_delays, gint64, i);
  gint64 needed = (gint64) G_USEC_PER_SEC << i;
  gint64 backoff = (gint64) (base_ms << i) * 1000;

  g_test_message ("end %u: open %" G_GINT64_FORMAT " us, next try in %" G_GINT64_FORMAT " us", i, open, delay);
  if (open >= needed + 50 * 1000)
    {
      g_assert_cmpint (delay, <=, 100 * 1000);
    }
  else if (open < needed - 50 * 1000)
    {
      /* Less up to a quarter of jitter. */
      g_assert_cmpint (delay, >=, backoff * 3 / 4 - 40 * 1000);
      g_assert_cmpint (delay, <=, backoff);
    }
}

/* A server whose every stream ends after a second or so: the quick probe
 * is for the first end, and its retry: field sets the back-off after it. */
static void
test_client_flapping_stream (void)
{
  Fixture *f = fixture_new ("/event");

  /* Without the server's retry: the next attempt would be a minute away. */
  clarify_sse_client_set_backoff (f->client, 60000, 60000);
  clarify_test_server_set_sse_greeting (f->server, "/event", "retry: 300\n\n");
  end_streams_after (f, 3, 1100);
  for (guint i = 0; i < 3; i++)
    check_end (f, i, 300);
  fixture_free (f);

  /* An agent restarted twice within a minute: a stream open twice as long
   * the second time is probed again. */
  f = fixture_new ("/event");
  clarify_sse_client_set_backoff (f->client, 60000, 60000);
  end_streams_after (f, 2, 2100);
  for (guint i = 0; i < 2; i++)
    check_end (f, i, 60000);

  fixture_free (f);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/test-server/replies", test_server_replies);
  g_test_add_func ("/test-server/headers-and-handler", test_server_headers_and_handler);
  g_test_add_func ("/test-server/sse", test_server_sse);
  g_test_add_func ("/test-server/fixture-file", test_server_fixture_file);
  g_test_add_func ("/sse-client/events-and-headers", test_client_events_and_headers);
  g_test_add_func ("/sse-client/last-event-id", test_client_last_event_id);
  g_test_add_func ("/sse-client/retry-field", test_client_retry_field);
  g_test_add_func ("/sse-client/retry-field-capped", test_client_retry_field_capped);
  g_test_add_func ("/sse-client/backoff", test_client_backoff);
  g_test_add_func ("/sse-client/auth-failed", test_client_auth_failed);
  g_test_add_func ("/sse-client/content-type", test_client_content_type);
  g_test_add_func ("/sse-client/stall", test_client_stall);
  g_test_add_func ("/sse-client/no-response", test_client_no_response);
  g_test_add_func ("/sse-client/heartbeats", test_client_heartbeats);
  g_test_add_func ("/sse-client/stop", test_client_stop);
  g_test_add_func ("/sse-client/oversized-event", test_client_oversized_event);
  g_test_add_func ("/sse-client/url-and-reconnect", test_client_url_and_reconnect);
  g_test_add_func ("/sse-client/refused", test_client_refused);
  g_test_add_func ("/sse-client/back-after-outage", test_client_back_after_outage);
  g_test_add_func ("/sse-client/quick-probe", test_client_quick_probe);
  g_test_add_func ("/sse-client/flapping-stream", test_client_flapping_stream);

  return g_test_run ();
}
