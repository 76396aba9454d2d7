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
#include <stdio.h>
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
/* The idle limit in /mcp-attack/slow-reader. */
#define SLOW_READER_LIMIT_MS 4000

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

/* @rcvbuf: the receive buffer's size (0: the system's), set before the
 * connection so that the window is small from the start. */
static int
raw_connect_with_buffer (guint port,
                         int   rcvbuf)
{
  struct sockaddr_in address = { 0 };
  struct timeval timeout = { clarify_test_scaled_ms (WAIT_MS) / 1000, 0 };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  if (rcvbuf > 0)
    g_assert_cmpint (setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf), ==, 0);
  address.sin_family = AF_INET;
  address.sin_port = htons (port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);

  return fd;
}

static int
raw_connect (guint port)
{
  return raw_connect_with_buffer (port, 0);
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

static char *
ping_head (Fixture    *fixture,
           const char *connection)
{
  const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

  return g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                          "Authorization: Bearer %s\r\n"
                          "Content-Type: application/json\r\n"
                          "Accept: application/json\r\n"
                          "Connection: %s\r\n"
                          "Content-Length: %zu\r\n\r\n%s",
                          port_of (fixture), fixture->token, connection, strlen (ping), ping);
}

static ClarifyMcpListener *
listener_of (Fixture *fixture)
{
  return clarify_mcp_server_get_listener (CLARIFY_MCP_SERVER (fixture->backend));
}

static guint
count_open_files (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;

  return n;
}

static gulong
resident_kib (void)
{
  g_autofree char *statm = NULL;
  gulong pages = 0;

  if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    sscanf (statm, "%*s %lu", &pages);

  return pages * (sysconf (_SC_PAGESIZE) / 1024);
}

/* Idle sockets opened from a thread, so that the server accepts them as
 * they come (10,000 do not fit in the listen backlog). */
typedef struct
{
  guint  port;
  guint  n;
  int   *fds;
  gint   done;
  GMainContext *context;
} Flood;

static gpointer
flood_thread (gpointer data)
{
  Flood *flood = data;

  for (guint i = 0; i < flood->n; i++)
    flood->fds[i] = raw_connect (flood->port);

  g_atomic_int_set (&flood->done, 1);
  g_main_context_wakeup (flood->context);

  return NULL;
}

static gboolean
flood_done (gpointer data)
{
  return g_atomic_int_get (&((Flood *) data)->done);
}

/* 10,000 sockets that connect and say nothing (fewer only if the hard
 * limit on open files has no room for them): a real call still gets its
 * answer, and the endpoint holds no more connections than its cap. */
static void
test_idle_sockets (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *head = ping_head (fixture, "close");
  g_autofree char *reply = NULL;
  Flood flood = { port_of (fixture), 10000 };
  struct rlimit limit;
  guint open_before = count_open_files ();
  gulong rss_before = resident_kib ();
  GThread *thread;
  gint64 start;

  /* The endpoint raised the soft limit to the hard one when it started. */
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &limit), ==, 0);
  if (limit.rlim_cur < flood.n + CLARIFY_MCP_MAX_CONNECTIONS + 256)
    {
      flood.n = limit.rlim_cur - CLARIFY_MCP_MAX_CONNECTIONS - 256;
      g_test_message ("the limit on open files (%lu) leaves room for %u idle sockets only",
                      (gulong) limit.rlim_cur, flood.n);
    }

  flood.fds = g_new0 (int, flood.n);
  flood.context = g_main_context_ref_thread_default ();
  start = g_get_monotonic_time ();
  thread = g_thread_new ("flood", flood_thread, &flood);
  g_assert_true (clarify_test_loop_until (flood_done, &flood, 60 * WAIT_MS));
  g_thread_join (thread);
  g_test_message ("%u sockets connected in %.1f ms", flood.n, (g_get_monotonic_time () - start) / 1000.0);
  clarify_test_loop_for (100);

  g_assert_cmpuint (clarify_mcp_listener_get_n_connections (listener_of (fixture)), <=, CLARIFY_MCP_MAX_CONNECTIONS);
  g_assert_true (clarify_mcp_listener_get_listening (listener_of (fixture)));

  start = g_get_monotonic_time ();
  reply = raw_exchange (fixture, head, 0, FALSE, NULL);
  assert_status (reply, "200");

  /* Figures for docs/reliability.md, not asserts. */
  g_test_message ("%u idle sockets: call answered in %.1f ms; server holds %u connections; "
                  "open files %u -> %u (both ends); RSS %lu -> %lu KiB",
                  flood.n, (g_get_monotonic_time () - start) / 1000.0,
                  clarify_mcp_listener_get_n_connections (listener_of (fixture)),
                  open_before, count_open_files (), rss_before, resident_kib ());

  for (guint i = 0; i < flood.n; i++)
    close (flood.fds[i]);
  g_free (flood.fds);
  g_main_context_unref (flood.context);
}

typedef struct
{
  int     *fds;
  guint    n;
} Idle;

/* Every client socket has seen the server close its end. */
static gboolean
all_closed (gpointer data)
{
  Idle *idle = data;
  char byte;

  for (guint i = 0; i < idle->n; i++)
    if (recv (idle->fds[i], &byte, 1, MSG_DONTWAIT) != 0)
      return FALSE;

  return TRUE;
}

static gboolean
one_connection_left (gpointer data)
{
  return clarify_mcp_listener_get_n_connections (data) == 1;
}

/* Sockets that say nothing, or half a request, are closed once idle for
 * the timeout (shortened here); a call that waits for the user longer than
 * that is not cut off. */
static void
test_idle_timeout (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                     "\"arguments\":{\"questions\":[{\"id\":\"q\",\"question\":\"Still there?\"}]}}}";
  g_autofree char *head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                                           "Authorization: Bearer %s\r\n"
                                           "Content-Type: application/json\r\n"
                                           "Accept: application/json, text/event-stream\r\n"
                                           "Connection: close\r\n"
                                           "Content-Length: %zu\r\n\r\n%s",
                                           port_of (fixture), fixture->token, strlen (call), call);
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyRequest *request;
  Raw raw = { 0 };
  GThread *thread;
  int fds[20];
  Idle idle = { fds, G_N_ELEMENTS (fds) };

  clarify_mcp_listener_set_limits (listener_of (fixture), 300, CLARIFY_MCP_MAX_CONNECTIONS);

  /* The call first, so that it is the oldest connection of all. */
  raw.port = port_of (fixture);
  raw.head = head;
  raw.reply = g_string_new (NULL);
  raw.context = g_main_context_ref_thread_default ();
  thread = g_thread_new ("raw-client", raw_thread, &raw);
  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    fds[i] = raw_connect (port_of (fixture));
  /* Half a request: the headers never end. */
  g_assert_cmpint (send (fds[0], "POST /mcp HTTP/1.1\r\nHost: ", 26, MSG_NOSIGNAL), ==, 26);

  g_assert_false (all_closed (&idle));
  g_assert_true (clarify_test_loop_until (all_closed, &idle, WAIT_MS));
  /* The call's own connection stays, idle for longer than the timeout. */
  g_assert_true (clarify_test_loop_until (one_connection_left, listener_of (fixture), WAIT_MS));
  g_assert_false (raw_done (&raw));

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, "q", (const char *[]) { "yes, still", NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);
  g_assert_true (clarify_test_loop_until (raw_done, &raw, 4 * WAIT_MS));
  g_thread_join (thread);
  g_main_context_unref (raw.context);

  assert_status (raw.reply->str, "200");
  g_assert_nonnull (strstr (raw.reply->str, "yes, still"));
  g_string_free (raw.reply, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    close (fds[i]);
}

/* Reads one reply with a Content-Length body from @fd. */
static char *
read_one_reply (int fd)
{
  GString *reply = g_string_new (NULL);
  char buffer[4096];
  gssize n;

  while ((n = recv (fd, buffer, sizeof buffer, 0)) > 0)
    {
      const char *end;
      const char *length;

      g_string_append_len (reply, buffer, n);
      end = strstr (reply->str, "\r\n\r\n");
      length = g_strstr_len (reply->str, -1, "Content-Length: ");
      if (end != NULL && length != NULL &&
          reply->len >= (gsize) (end + 4 - reply->str) + g_ascii_strtoull (length + 16, NULL, 10))
        break;
    }

  return g_string_free (reply, FALSE);
}

typedef struct
{
  Fixture *fixture;
  char    *first;
  char    *second;
  gint     done;
  GMainContext *context;
} KeepAlive;

static gpointer
keep_alive_thread (gpointer data)
{
  KeepAlive *keep = data;
  g_autofree char *head = ping_head (keep->fixture, "keep-alive");
  g_autofree char *last = ping_head (keep->fixture, "close");
  int fd = raw_connect (port_of (keep->fixture));

  g_assert_cmpint (send (fd, head, strlen (head), MSG_NOSIGNAL), ==, (gssize) strlen (head));
  keep->first = read_one_reply (fd);
  /* A server that closed after the first reply fails this write or the read. */
  send (fd, last, strlen (last), MSG_NOSIGNAL);
  keep->second = read_one_reply (fd);
  close (fd);

  g_atomic_int_set (&keep->done, 1);
  g_main_context_wakeup (keep->context);
  return NULL;
}

static gboolean
keep_alive_done (gpointer data)
{
  return g_atomic_int_get (&((KeepAlive *) data)->done);
}

/* Two requests on one connection: the connections this listener hands to
 * libsoup are kept alive as its own would be. */
static void
test_keep_alive (Fixture       *fixture,
                 gconstpointer  data)
{
  KeepAlive keep = { fixture };
  GThread *thread;

  keep.context = g_main_context_ref_thread_default ();
  thread = g_thread_new ("keep-alive", keep_alive_thread, &keep);
  g_assert_true (clarify_test_loop_until (keep_alive_done, &keep, 4 * WAIT_MS));
  g_thread_join (thread);
  g_main_context_unref (keep.context);

  assert_status (keep.first, "200");
  g_assert_null (strstr (keep.first, "Connection: close"));
  assert_status (keep.second, "200");
  g_free (keep.first);
  g_free (keep.second);
}

/* A reply read by a thread of its own, so that the loop the server runs
 * in goes on meanwhile: until it is whole (a Content-Length body or the
 * last chunk) or the server closes. */
typedef struct
{
  int           fd;
  GString      *text;
  gboolean      closed;
  gint          done;
  GMainContext *context;
} Reading;

static gboolean
reply_is_whole (GString *text)
{
  const char *end = strstr (text->str, "\r\n\r\n");
  const char *length = strstr (text->str, "Content-Length: ");

  if (g_str_has_suffix (text->str, "\r\n0\r\n\r\n"))
    return TRUE;
  return end != NULL && length != NULL && length < end &&
         text->len >= (gsize) (end + 4 - text->str) + g_ascii_strtoull (length + 16, NULL, 10);
}

static gpointer
reading_thread (gpointer data)
{
  Reading *reading = data;
  char buffer[65536];
  gssize n;

  while (!reply_is_whole (reading->text) && (n = recv (reading->fd, buffer, sizeof buffer, 0)) > 0)
    g_string_append_len (reading->text, buffer, n);
  reading->closed = !reply_is_whole (reading->text);
  g_atomic_int_set (&reading->done, 1);
  g_main_context_wakeup (reading->context);
  return NULL;
}

static gboolean
reading_done (gpointer data)
{
  return g_atomic_int_get (&((Reading *) data)->done);
}

/* Reads @fd's reply to the end, the server's loop running meanwhile. */
static char *
read_reply_serving (int fd)
{
  Reading reading = { fd, g_string_new (NULL), FALSE, 0, g_main_context_ref_thread_default () };
  GThread *thread = g_thread_new ("reader", reading_thread, &reading);

  g_assert_true (clarify_test_loop_until (reading_done, &reading, 4 * WAIT_MS));
  g_thread_join (thread);
  g_main_context_unref (reading.context);
  g_test_message ("read %zu bytes%s", reading.text->len, reading.closed ? ", then the server closed" : "");
  return g_string_free (reading.text, FALSE);
}

/* Sends an ask_user call asking @question on a new connection (kept
 * alive), whose receive buffer is @rcvbuf (0: the system's), and waits
 * for it to be shown as the @n-th request. */
static int
send_call (Fixture         *fixture,
           const char      *question,
           int              rcvbuf,
           guint            n,
           ClarifyRequest **request)
{
  g_autofree char *call = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
                                           "{\"name\":\"ask_user\",\"arguments\":{\"questions\":"
                                           "[{\"id\":\"q\",\"question\":\"%s\"}]}}}", question);
  g_autofree char *head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                                           "Authorization: Bearer %s\r\n"
                                           "Content-Type: application/json\r\n"
                                           "Accept: application/json, text/event-stream\r\n"
                                           "Content-Length: %zu\r\n\r\n%s",
                                           port_of (fixture), fixture->token, strlen (call), call);
  int fd = raw_connect_with_buffer (port_of (fixture), rcvbuf);

  g_assert_cmpint (send (fd, head, strlen (head), MSG_NOSIGNAL), ==, (gssize) strlen (head));
  *request = clarify_test_watch_wait_request_for (&fixture->watch, n, WAIT_MS);
  return fd;
}

static void
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *) data;
}

static gboolean
no_connection_left (gpointer data)
{
  return clarify_mcp_listener_get_n_connections (data) == 0;
}

/* Clients slow to read their reply (the idle limit shortened to 4 s),
 * with an answer of 8 MiB, more than the sockets hold, so that the server
 * has to wait for them to read: a client that starts reading 2 s after the
 * answer (half the limit: the kernel's probes of a shut window back off,
 * so the limit is not kept to the millisecond) gets the whole answer; one
 * that never reads is let go; and while both hold their replies, another
 * client is asked, answered and reads its reply. Before the kernel's limit
 * (TCP_USER_TIMEOUT) the one that never read held its connection for
 * good: not idle, as its reply was never written out. */
static void
test_slow_reader (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *big = g_strnfill (8 * 1024 * 1024, 'x');
  g_autofree char *quick_reply = NULL;
  g_autofree char *slow_reply = NULL;
  ClarifyRequest *request;
  gboolean slept = FALSE;
  int slow, never, quick;

  clarify_mcp_listener_set_limits (listener_of (fixture), SLOW_READER_LIMIT_MS, CLARIFY_MCP_MAX_CONNECTIONS);

  slow = send_call (fixture, "Slow?", 4096, 1, &request);
  clarify_test_mcp_answer_text (fixture, request, big);
  /* It does not read for half the limit from now. Real time, as the
   * kernel's limit is: not stretched under CLARIFY_TEST_TIMEOUT_SCALE. */
  g_timeout_add_once (SLOW_READER_LIMIT_MS / 2, set_flag, &slept);
  never = send_call (fixture, "Never?", 4096, 2, &request);
  clarify_test_mcp_answer_text (fixture, request, big);

  quick = send_call (fixture, "Quick?", 0, 3, &request);
  clarify_test_mcp_answer_text (fixture, request, "quick answer");
  quick_reply = read_reply_serving (quick);
  assert_status (quick_reply, "200");
  g_assert_nonnull (strstr (quick_reply, "quick answer"));
  close (quick);

  g_assert_true (clarify_test_loop_until (flag_is_set, &slept, 2 * SLOW_READER_LIMIT_MS));
  slow_reply = read_reply_serving (slow);
  assert_status (slow_reply, "200");
  g_assert_nonnull (strstr (slow_reply, big));
  close (slow);

  /* The one that never reads is let go. */
  g_assert_true (clarify_test_loop_until (no_connection_left, listener_of (fixture), WAIT_MS));
  close (never);
}

static gboolean
is_listening (gpointer data)
{
  return clarify_backend_get_state (data) == CLARIFY_CONNECTION_STATE_CONNECTED;
}

static gboolean
is_not_listening (gpointer data)
{
  return !is_listening (data);
}

static gboolean
port_taken (gpointer data)
{
  const char *error = clarify_backend_get_error_text (data);

  return error != NULL && strstr (error, "in use") != NULL;
}

/* The listening socket is lost (shut down under the server) while another
 * program holds the port: the state says new clients cannot get in, and
 * why, until the socket is made again on the same port. */
static void
test_listener_lost (Fixture       *fixture,
                    gconstpointer  data)
{
  ClarifyBackend *backend = fixture->backend;
  guint port = port_of (fixture);
  g_autofree char *head = ping_head (fixture, "close");
  g_autofree char *reply = NULL;
  int squatter;

  g_assert_cmpint (shutdown (g_socket_get_fd (clarify_mcp_listener_get_socket (listener_of (fixture))), SHUT_RDWR), ==, 0);

  squatter = clarify_test_hold_port (port);

  g_assert_true (clarify_test_loop_until (is_not_listening, backend, WAIT_MS));
  g_assert_cmpuint (clarify_backend_get_state (backend), ==, CLARIFY_CONNECTION_STATE_CONNECTING);
  g_assert_cmpuint (clarify_backend_get_note (backend), ==, CLARIFY_BACKEND_NOTE_CANNOT_LISTEN);
  g_test_message ("lost: %s: %s", clarify_backend_get_note_subject (backend),
                  clarify_backend_get_error_text (backend));
  /* Making the socket again fails while the port is taken, and says why. */
  g_assert_true (clarify_test_loop_until (port_taken, backend, WAIT_MS));
  g_test_message ("while the port is taken: %s", clarify_backend_get_error_text (backend));
  /* The address is the state's subject; the text is the reason alone. */
  g_assert_cmpstr (clarify_backend_get_error_text (backend), ==, "Address already in use");
  g_assert_cmpuint (clarify_backend_get_state (backend), ==, CLARIFY_CONNECTION_STATE_CONNECTING);

  close (squatter);
  g_assert_true (clarify_test_loop_until (is_listening, backend, 4 * WAIT_MS));
  g_assert_cmpuint (clarify_backend_get_note (backend), ==, CLARIFY_BACKEND_NOTE_LISTENING);
  g_assert_cmpuint (port_of (fixture), ==, port);

  reply = raw_exchange (fixture, head, 0, FALSE, NULL);
  assert_status (reply, "200");
}

/* Accepting fails for want of descriptors (EMFILE): the endpoint backs
 * off and says so once, and takes the waiting clients in once there is
 * room again. */
static void
test_out_of_descriptors (Fixture       *fixture,
                         gconstpointer  data)
{
  ClarifyBackend *backend = fixture->backend;
  g_autofree char *head = ping_head (fixture, "close");
  g_autofree char *reply = NULL;
  g_auto(GStrv) lines = NULL;
  struct sockaddr_in address = { 0 };
  struct rlimit limit;
  struct rlimit tight;
  guint n_logged = 0;
  int clients[8];
  int lowest_free;

  address.sin_family = AF_INET;
  address.sin_port = htons (port_of (fixture));
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  for (guint i = 0; i < G_N_ELEMENTS (clients); i++)
    clients[i] = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  /* No descriptor left: every number below the limit is taken. */
  lowest_free = dup (0);
  g_assert_cmpint (lowest_free, >=, 0);
  close (lowest_free);
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &limit), ==, 0);
  tight = limit;
  tight.rlim_cur = lowest_free;

  clarify_test_log_start ();
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &tight), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (clients); i++)
    g_assert_cmpint (connect (clients[i], (struct sockaddr *) &address, sizeof address), ==, 0);

  g_assert_true (clarify_test_loop_until (is_not_listening, backend, WAIT_MS));
  g_assert_cmpuint (clarify_backend_get_note (backend), ==, CLARIFY_BACKEND_NOTE_CANNOT_LISTEN);
  g_test_message ("out of descriptors: %s", clarify_backend_get_error_text (backend));
  g_assert_nonnull (strstr (clarify_backend_get_error_text (backend), "open files"));
  /* It keeps trying, and says so once. */
  clarify_test_loop_for (800);
  g_assert_false (is_listening (backend));

  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &limit), ==, 0);
  g_assert_true (clarify_test_loop_until (is_listening, backend, 4 * WAIT_MS));
  lines = clarify_test_log_stop ();
  for (guint i = 0; lines[i] != NULL; i++)
    n_logged += strstr (lines[i], "open files") != NULL;
  g_assert_cmpuint (n_logged, ==, 1);

  reply = raw_exchange (fixture, head, 0, FALSE, NULL);
  assert_status (reply, "200");
  for (guint i = 0; i < G_N_ELEMENTS (clients); i++)
    close (clients[i]);
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
  /* An answer carries the text given below; a refusal is a JSON-RPC error,
   * a tool error past the inbox's caps, or an HTTP status that says so
   * (503, 429), never a silent drop. */
  if (soup_message_get_status (msg) == SOUP_STATUS_OK && body != NULL && strstr (body, "answer for call") != NULL)
    calls->n_answered++;
  else if (body != NULL && (strstr (body, "\"error\"") != NULL || soup_message_get_status (msg) == 503 ||
                            soup_message_get_status (msg) == 429 ||
                            (strstr (body, "\"isError\":true") != NULL && strstr (body, "ask again later") != NULL)))
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

  /* Every call that was not refused becomes a question; answer each. The
   * 800 refused past the inbox's caps are replies this process must also
   * read first: a generous deadline for a loaded machine, not a timing. */
  g_assert_true (clarify_test_loop_until (calls_settled, &calls, 8 * WAIT_MS));
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
  ADD ("idle-timeout", test_idle_timeout);
  ADD ("keep-alive", test_keep_alive);
  ADD ("slow-reader", test_slow_reader);
  ADD ("listener-lost", test_listener_lost);
  ADD ("out-of-descriptors", test_out_of_descriptors);
  ADD ("concurrent-calls", test_concurrent_calls);
#undef ADD

  return g_test_run ();
}
