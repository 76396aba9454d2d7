/* test-mcp-attack.c: hostile local clients against the MCP endpoint, over
 * raw loopback sockets so that each test controls every byte it sends
 * (issue 14): refusals from the headers alone, before any body is read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "clarify-test-log.h"
#include "clarify-test-mcp.h"

/* How long a client waits for the server before the test fails: a bound on
 * a hang, not a measurement. */
#define WAIT_MS 10000
#define GIB (G_GINT64_CONSTANT (1) << 30)
#define BLOCK (64 * 1024)
/* As many ask_user calls at once as the burst. */
#define N_CALLS 1000

typedef ClarifyTestMcp Fixture;

/* One raw HTTP exchange, run in a thread so that the server's main loop
 * runs while the client blocks. */
typedef struct
{
  guint    port;
  char    *head;
  /* Body bytes to send after the head (0: none), in 64 KiB blocks; the
   * client stops at the first failed write. */
  gint64   body_bytes;
  /* Whether to wait for the reply before sending any of the body. */
  gboolean reply_first;

  gint64   sent;
  GString *reply;
  gint     done;
  /* The test's loop, woken when the client is done. */
  GMainContext *context;
} Raw;

static int
raw_connect (guint port)
{
  struct sockaddr_in address = { 0 };
  struct timeval timeout = { WAIT_MS / 1000, 0 };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  address.sin_family = AF_INET;
  address.sin_port = htons (port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);

  return fd;
}

static void
raw_read_reply (Raw *raw,
                int  fd)
{
  char buffer[4096];
  gssize n;

  while ((n = recv (fd, buffer, sizeof buffer, 0)) > 0)
    g_string_append_len (raw->reply, buffer, n);
}

static gpointer
raw_thread (gpointer data)
{
  Raw *raw = data;
  g_autofree char *block = g_malloc0 (BLOCK);
  int fd = raw_connect (raw->port);

  g_assert_cmpint (send (fd, raw->head, strlen (raw->head), MSG_NOSIGNAL), ==, (gssize) strlen (raw->head));

  if (raw->reply_first)
    raw_read_reply (raw, fd);

  while (raw->sent < raw->body_bytes)
    {
      gssize n = send (fd, block, MIN (BLOCK, raw->body_bytes - raw->sent), MSG_NOSIGNAL);

      if (n <= 0)
        break;
      raw->sent += n;
    }

  if (!raw->reply_first)
    raw_read_reply (raw, fd);

  close (fd);
  g_atomic_int_set (&raw->done, 1);
  g_main_context_wakeup (raw->context);

  return NULL;
}

static gboolean
raw_done (gpointer data)
{
  return g_atomic_int_get (&((Raw *) data)->done);
}

/* Sends @head and @body_bytes of body, and returns what came back. */
static char *
raw_exchange (Fixture    *fixture,
              const char *head,
              gint64      body_bytes,
              gboolean    reply_first,
              gint64     *sent)
{
  Raw raw = { 0 };
  GThread *thread;

  raw.port = clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend));
  raw.head = (char *) head;
  raw.body_bytes = body_bytes;
  raw.reply_first = reply_first;
  raw.reply = g_string_new (NULL);
  raw.context = g_main_context_ref_thread_default ();

  thread = g_thread_new ("raw-client", raw_thread, &raw);
  /* The client's own socket timeouts end it; this only keeps the loop going. */
  g_assert_true (clarify_test_loop_until (raw_done, &raw, 4 * WAIT_MS));
  g_thread_join (thread);
  g_main_context_unref (raw.context);

  if (sent != NULL)
    *sent = raw.sent;

  return g_string_free (raw.reply, FALSE);
}

static guint
port_of (Fixture *fixture)
{
  return clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend));
}

static void
assert_status (const char *reply,
               const char *status)
{
  g_autofree char *line = g_strdup_printf ("HTTP/1.1 %s ", status);

  g_test_message ("reply: %.80s", reply);
  g_assert_true (g_str_has_prefix (reply, line));
}

/* Sends a POST that claims a 1 GiB body with @headers, and waits for the
 * reply before sending any of the body: a server that read the body before
 * answering would leave the client waiting, and fail. */
static char *
claim_huge_body (Fixture    *fixture,
                 const char *headers,
                 const char *status)
{
  g_autofree char *head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n%s"
                                           "Content-Type: application/json\r\n"
                                           "Content-Length: %" G_GINT64_FORMAT "\r\n\r\n",
                                           port_of (fixture), headers, GIB);
  gint64 sent = 0;
  char *reply = raw_exchange (fixture, head, GIB, TRUE, &sent);

  assert_status (reply, status);
  /* The connection is closed: the body cannot follow. */
  g_assert_cmpint (sent, <, GIB);

  return reply;
}

static void
test_huge_body_without_token (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autofree char *reply = claim_huge_body (fixture, "", "401");

  g_assert_nonnull (strstr (reply, "WWW-Authenticate: Bearer"));
}

/* With the right token, a claimed 1 GiB body is refused as too large. */
static void
test_huge_body_with_token (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *auth = g_strdup_printf ("Authorization: Bearer %s\r\n", fixture->token);
  g_autofree char *reply = claim_huge_body (fixture, auth, "413");
}

/* A hostile Origin is refused from the headers, its body never read. */
static void
test_origin_before_body (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *headers = g_strdup_printf ("Origin: http://evil.example\r\nAuthorization: Bearer %s\r\n",
                                              fixture->token);
  g_autofree char *reply = claim_huge_body (fixture, headers, "403");
}

/* A chunked body announces no length; it is cut off once past 1 MiB. The
 * client writes up to 64 MiB and must be stopped long before. */
static void
test_chunked_body_cut_off (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                                           "Authorization: Bearer %s\r\n"
                                           "Content-Type: application/json\r\n"
                                           "Transfer-Encoding: chunked\r\n\r\n"
                                           /* One chunk that never ends. */
                                           "7fffffff\r\n",
                                           port_of (fixture), fixture->token);
  gint64 sent = 0;
  g_autofree char *reply = raw_exchange (fixture, head, 64 * 1024 * 1024, FALSE, &sent);

  g_assert_cmpint (sent, <, 64 * 1024 * 1024);
  /* The 413 is sent; whether it arrives before the reset is the kernel's
   * business, as the client had unread bytes in flight. */
  if (reply[0] != '\0')
    assert_status (reply, "413");
}

/* DNS rebinding: a page on evil.example that resolved to 127.0.0.1 sends
 * its own name as Host. Only the loopback names pass, with our port or none. */
static void
test_host (Fixture       *fixture,
           gconstpointer  data)
{
  guint port = port_of (fixture);
  g_autofree char *other_port = g_strdup_printf ("127.0.0.1:%u", port + 1);
  const char *refused[] = { "evil.example", "evil.example:7111", other_port, "127.0.0.1.evil.example",
                            "localhost.evil.example:7111", "", "[::1]x" };
  const char *allowed[] = { "127.0.0.1", "localhost", "LOCALHOST", "[::1]", "127.0.0.1", "localhost" };
  const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: %s\r\n"
                                               "Authorization: Bearer %s\r\n"
                                               "Content-Length: 100\r\n\r\n",
                                               refused[i], fixture->token);
      g_autofree char *reply = raw_exchange (fixture, head, 100, TRUE, NULL);

      g_test_message ("Host: %s", refused[i]);
      /* The last is no valid authority: libsoup's own 400, body unread too. */
      assert_status (reply, i + 1 == G_N_ELEMENTS (refused) ? "400" : "403");
    }

  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    {
      /* The first four with our port, the others without. */
      g_autofree char *host = i < 4 ? g_strdup_printf ("%s:%u", allowed[i], port) : g_strdup (allowed[i]);
      g_autofree char *head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: %s\r\n"
                                               "Authorization: Bearer %s\r\n"
                                               "Content-Type: application/json\r\n"
                                               "Accept: application/json\r\n"
                                               "Connection: close\r\n"
                                               "Content-Length: %zu\r\n\r\n%s",
                                               host, fixture->token, strlen (ping), ping);
      g_autofree char *reply = raw_exchange (fixture, head, 0, FALSE, NULL);

      g_test_message ("Host: %s", host);
      assert_status (reply, "200");
    }
}

/* A thousand sockets that connect and say nothing, under a desktop's soft
 * limit of 1024 open files (set in main): a real call still gets its
 * answer, because the endpoint's listener outlives them. */
static void
test_idle_sockets (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
  g_autofree char *head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                                           "Authorization: Bearer %s\r\n"
                                           "Content-Type: application/json\r\n"
                                           "Accept: application/json\r\n"
                                           "Connection: close\r\n"
                                           "Content-Length: %zu\r\n\r\n%s",
                                           port_of (fixture), fixture->token, strlen (ping), ping);
  g_autofree char *reply = NULL;
  int idle[1000];

  for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
    idle[i] = raw_connect (port_of (fixture));

  reply = raw_exchange (fixture, head, 0, FALSE, NULL);
  assert_status (reply, "200");

  for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
    close (idle[i]);
}

typedef struct
{
  guint      n_done;
  guint      n_answered;
  guint      n_refused;
  GPtrArray *added;
} Calls;

static void
call_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Calls *calls = user_data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);
  g_autofree char *body = bytes != NULL ? g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)) : NULL;

  calls->n_done++;
  /* An answer carries the text given below; a refusal is a JSON-RPC error
   * or an HTTP status that says so (503, 429), never a silent drop. */
  if (soup_message_get_status (msg) == SOUP_STATUS_OK && body != NULL && strstr (body, "answer for call") != NULL)
    calls->n_answered++;
  else if (body != NULL && (strstr (body, "\"error\"") != NULL || soup_message_get_status (msg) == 503 ||
                            soup_message_get_status (msg) == 429))
    calls->n_refused++;
  else
    g_test_message ("call ended with %u: %s", soup_message_get_status (msg), body);
}

static gboolean
calls_done (gpointer data)
{
  return ((Calls *) data)->n_done == N_CALLS;
}

/* Each call has either ended (refused) or become a question. */
static gboolean
calls_settled (gpointer data)
{
  Calls *calls = data;

  return calls->n_done + calls->added->len >= N_CALLS;
}

/* N_CALLS ask_user calls at once, each on its own connection: every one
 * gets its own answer or a clear refusal. */
static void
test_concurrent_calls (Fixture       *fixture,
                       gconstpointer  data)
{
  /* No client-side I/O timeout (60 s by default): on a slow machine, or
   * under ASan, the last of the calls waits longer than that to be read,
   * and the client's own give-up would count as a silent drop. */
  g_autoptr(SoupSession) session = soup_session_new_with_options ("max-conns", N_CALLS, "max-conns-per-host", N_CALLS,
                                                                  "timeout", 0, NULL);
  g_autofree char *auth = g_strdup_printf ("Bearer %s", fixture->token);
  Calls calls = { 0, 0, 0, fixture->watch.added };

  for (guint i = 0; i < N_CALLS; i++)
    {
      g_autoptr(SoupMessage) msg = soup_message_new ("POST", fixture->url);
      g_autofree char *body = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"tools/call\","
                                               "\"params\":{\"name\":\"ask_user\",\"arguments\":"
                                               "{\"questions\":[{\"id\":\"q\",\"question\":\"Call %u?\"}]}}}", i, i);
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
      soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept", "application/json");
      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
      soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, call_done_cb, &calls);
    }

  /* Every call that was not refused becomes a question; answer each. */
  g_assert_true (clarify_test_loop_until (calls_settled, &calls, 4 * WAIT_MS));
  for (guint i = 0; i < fixture->watch.added->len; i++)
    {
      ClarifyRequest *request = g_ptr_array_index (fixture->watch.added, i);
      g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                                  CLARIFY_OUTCOME_ANSWERED);

      clarify_response_add_answer (response, "q", (const char *[]) { "answer for call", NULL }, NULL, FALSE);
      clarify_test_watch_answer (&fixture->watch, request, response);
    }

  g_assert_true (clarify_test_loop_until (calls_done, &calls, 4 * WAIT_MS));
  g_test_message ("%u answered, %u refused", calls.n_answered, calls.n_refused);
  g_assert_cmpuint (calls.n_answered + calls.n_refused, ==, N_CALLS);
  g_assert_cmpuint (calls.n_answered, ==, fixture->watch.added->len);
}

int
main (int   argc,
      char *argv[])
{
  /* Never the user's keyring: tests keep their secrets in the isolated config dir. */
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

  struct rlimit limit;

  clarify_test_log_init ();

  /* A desktop session's soft limit on open files, whatever this shell's is. */
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &limit), ==, 0);
  limit.rlim_cur = MIN (limit.rlim_max, 1024);
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &limit), ==, 0);

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) g_test_add ("/mcp-attack/" path, Fixture, NULL, clarify_test_mcp_setup, func, clarify_test_mcp_teardown)
  ADD ("huge-body/no-token", test_huge_body_without_token);
  ADD ("huge-body/token", test_huge_body_with_token);
  ADD ("chunked-body", test_chunked_body_cut_off);
  ADD ("host", test_host);
  ADD ("origin", test_origin_before_body);
  ADD ("idle-sockets", test_idle_sockets);
  ADD ("concurrent-calls", test_concurrent_calls);
#undef ADD

  return g_test_run ();
}
