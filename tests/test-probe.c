/* test-probe.c: what "Test" says about a server, for each answer it can get
 *
 * Fake servers on 127.0.0.1 answer as the right agent would (with and
 * without the right password), as a web page, as some other JSON server,
 * not at all (a closed port), and in plain HTTP to an https:// URL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-backend-registry.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

/* OpenCode's basic auth: "opencode:s3cret". */
#define OPENCODE_AUTHORIZATION "Basic b3BlbmNvZGU6czNjcmV0"

static void
opencode_events (const ClarifyTestRequest *request,
                 guint                    *status,
                 char                    **content_type,
                 char                    **body,
                 gpointer                  user_data)
{
  if (g_strcmp0 (soup_message_headers_get_one (request->headers, "Authorization"), OPENCODE_AUTHORIZATION) != 0)
    {
      *status = 401;
      *content_type = g_strdup ("text/plain");
      *body = g_strdup ("Unauthorized");
      return;
    }

  *status = 200;
  *content_type = g_strdup ("text/event-stream");
  *body = g_strdup ("data: {\"payload\":{\"type\":\"server.connected\",\"properties\":{}}}\n\n");
}

static void
codenomad_login (const ClarifyTestRequest *request,
                 guint                    *status,
                 char                    **content_type,
                 char                    **body,
                 gpointer                  user_data)
{
  gboolean right = strstr (request->body, "\"username\":\"codenomad\"") != NULL &&
                   strstr (request->body, "\"password\":\"pa55\"") != NULL;

  *status = right ? 200 : 401;
  *content_type = g_strdup ("application/json");
  *body = g_strdup (right ? "{\"ok\":true}" : "{\"error\":\"invalid credentials\"}");
}

typedef struct
{
  gboolean             done;
  ClarifyProbeVerdict  verdict;
  char                *detail;
} Outcome;

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->verdict = clarify_backend_probe_finish (result, &outcome->detail);
  outcome->done = TRUE;
}

static ClarifyProbeVerdict
probe (const char *kind,
       const char *url,
       const char *secret)
{
  const ClarifyBackendInfo *info = clarify_backend_registry_lookup (kind);
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("probed", kind, url);
  Outcome outcome = { FALSE, };

  g_assert_nonnull (info);
  g_assert_nonnull (info->probe);
  clarify_backend_probe_async (info->probe, connection, secret, NULL, probe_cb, &outcome);
  while (!outcome.done)
    g_main_context_iteration (NULL, TRUE);

  g_test_message ("%s %s → %d (%s)", kind, url, outcome.verdict, outcome.detail ? outcome.detail : "");
  g_free (outcome.detail);

  return outcome.verdict;
}

static void
test_right_kind_and_password (void)
{
  ClarifyTestServer *server = clarify_test_server_new ();
  g_autofree char *url = clarify_test_server_get_url (server, "/");

  clarify_test_server_add_handler (server, "GET", "/global/event", opencode_events, NULL);

  g_assert_cmpint (probe ("opencode", url, "s3cret"), ==, CLARIFY_PROBE_REACHABLE);
  g_assert_cmpint (probe ("opencode", url, "wrong"), ==, CLARIFY_PROBE_AUTH_FAILED);
  g_assert_cmpint (probe ("opencode", url, NULL), ==, CLARIFY_PROBE_AUTH_FAILED);

  clarify_test_server_free (server);
}

static void
test_login_kind (void)
{
  ClarifyTestServer *server = clarify_test_server_new ();
  g_autofree char *url = clarify_test_server_get_url (server, "");

  clarify_test_server_add_handler (server, "POST", "/api/auth/login", codenomad_login, NULL);

  g_assert_cmpint (probe ("codenomad", url, "pa55"), ==, CLARIFY_PROBE_REACHABLE);
  g_assert_cmpint (probe ("codenomad", url, "nope"), ==, CLARIFY_PROBE_AUTH_FAILED);

  clarify_test_server_free (server);
}

/* CodeNomad's HTTPS port, with the certificate it made itself: Test says
 * what the backend will do, which takes it on 127.0.0.1; OpenCode does not. */
static void
test_codenomad_https (void)
{
  ClarifyTestServer *server = clarify_test_server_new_https ();
  g_autofree char *url = clarify_test_server_get_url (server, "");

  clarify_test_server_add_handler (server, "POST", "/api/auth/login", codenomad_login, NULL);
  g_assert_cmpint (probe ("codenomad", url, "pa55"), ==, CLARIFY_PROBE_REACHABLE);
  g_assert_cmpint (probe ("opencode", url, "pa55"), ==, CLARIFY_PROBE_TLS_ERROR);

  clarify_test_server_free (server);
}

/* A web page, another JSON server, a path the server does not know. */
static void
test_wrong_kind (void)
{
  ClarifyTestServer *server = clarify_test_server_new ();
  g_autofree char *url = clarify_test_server_get_url (server, "");
  g_autofree char *events = clarify_test_server_get_url (server, "/events");

  clarify_test_server_add_json (server, "GET", "/global/event", 200, "text/html",
                                "<!doctype html><title>Router</title>");
  clarify_test_server_add_json (server, "GET", "/events", 200, "application/json", "{\"status\":\"ok\"}");
  clarify_test_server_add_json (server, "POST", "/api/auth/login", 200, "application/json", "<html>");

  g_assert_cmpint (probe ("opencode", url, "s3cret"), ==, CLARIFY_PROBE_WRONG_KIND);
  g_assert_cmpint (probe ("clarify", events, NULL), ==, CLARIFY_PROBE_WRONG_KIND);
  /* Claims JSON, is not. */
  g_assert_cmpint (probe ("codenomad", url, "pa55"), ==, CLARIFY_PROBE_WRONG_KIND);
  /* Nothing there. */
  g_assert_cmpint (probe ("phoenix", url, "token"), ==, CLARIFY_PROBE_WRONG_KIND);

  clarify_test_server_free (server);
}

static guint
closed_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  guint port = g_socket_listener_add_any_inet_port (listener, NULL, &error);

  g_assert_no_error (error);
  g_socket_listener_close (listener);

  return port;
}

static void
test_unreachable (void)
{
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", closed_port ());

  g_assert_cmpint (probe ("opencode", url, "s3cret"), ==, CLARIFY_PROBE_UNREACHABLE);
}

/* A plain HTTP server as most are: whatever arrives that is not HTTP (a
 * TLS ClientHello) gets a 400 in plain text, and the connection closes. */
static gboolean
plain_http_incoming_cb (GSocketService    *service,
                        GSocketConnection *connection,
                        GObject           *source,
                        gpointer           user_data)
{
  static const char reply[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  guint8 buffer[512];

  g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (connection)), buffer, sizeof buffer, NULL, NULL);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             reply, strlen (reply), NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);

  return TRUE;
}

/* https:// to a server that speaks plain HTTP. */
static void
test_tls (void)
{
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (1);
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  guint port;

  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (service), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "run", G_CALLBACK (plain_http_incoming_cb), NULL);
  g_socket_service_start (service);

  url = g_strdup_printf ("https://127.0.0.1:%u", port);
  g_assert_cmpint (probe ("opencode", url, "s3cret"), ==, CLARIFY_PROBE_TLS_ERROR);

  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
}

/* Every kind one can add has a way to be tested and a line saying what it is. */
static void
test_every_kind (void)
{
  guint n = 0;
  const ClarifyBackendInfo *infos = clarify_backend_registry_get_all (&n);

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      g_assert_nonnull (infos[i].probe);
      g_assert_nonnull (infos[i].probe->content_type);
      g_assert_true (infos[i].probe->auth != CLARIFY_PROBE_AUTH_LOGIN || infos[i].probe->login_body != NULL);
      g_assert_nonnull (infos[i].description);
    }
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/probe/right-kind-and-password", test_right_kind_and_password);
  g_test_add_func ("/probe/login-kind", test_login_kind);
  g_test_add_func ("/probe/wrong-kind", test_wrong_kind);
  g_test_add_func ("/probe/unreachable", test_unreachable);
  g_test_add_func ("/probe/tls", test_tls);
  g_test_add_func ("/probe/codenomad-https", test_codenomad_https);
  g_test_add_func ("/probe/every-kind", test_every_kind);

  return g_test_run ();
}
