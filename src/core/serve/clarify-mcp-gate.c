/* clarify-mcp-gate.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-mcp-gate.h"
#include "clarify-secret.h"

struct _ClarifyMcpGate
{
  GObject  parent_instance;

  char    *token;
  guint    port;
};

G_DEFINE_FINAL_TYPE (ClarifyMcpGate, clarify_mcp_gate, G_TYPE_OBJECT)

/* Equal-time comparison: how long it takes says nothing about the token. */
static gboolean
token_equal (const char *given,
             const char *expected)
{
  gsize given_len = strlen (given);
  gsize expected_len = strlen (expected);
  guchar diff = given_len != expected_len;

  for (gsize i = 0; i < expected_len; i++)
    diff |= (guchar) expected[i] ^ (guchar) (i < given_len ? given[i] : 0);

  return diff == 0;
}

gboolean
clarify_mcp_gate_check_auth (ClarifyMcpGate    *self,
                             SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *authorization = soup_message_headers_get_one (headers, "Authorization");

  if (self->token == NULL || authorization == NULL ||
      g_ascii_strncasecmp (authorization, "Bearer ", 7) != 0)
    return FALSE;

  authorization += 7;
  while (*authorization == ' ')
    authorization++;

  return token_equal (authorization, self->token);
}

/* Only pages served from this machine's loopback may talk to us; anything
 * else is a web page that resolved its own name to 127.0.0.1. */
gboolean
clarify_mcp_gate_origin_allowed (const char *origin)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  if (origin == NULL)
    return TRUE;

  uri = g_uri_parse (origin, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return FALSE;

  scheme = g_uri_get_scheme (uri);
  host = g_uri_get_host (uri);
  if (host == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    return FALSE;

  return g_str_equal (host, "127.0.0.1") ||
         g_ascii_strcasecmp (host, "localhost") == 0 ||
         g_str_equal (host, "::1") ||
         g_str_equal (host, "[::1]");
}

/* The Host a client of this machine's loopback sends; any other name is a
 * web page that resolved its own name to 127.0.0.1 (DNS rebinding). The
 * name is what counts; it may come without the port. */
static gboolean
host_allowed (ClarifyMcpGate *self,
              const char     *host)
{
  static const char * const names[] = { "127.0.0.1", "localhost", "[::1]" };
  g_autofree char *port = g_strdup_printf (":%u", self->port);

  if (host == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gsize len = strlen (names[i]);

      if (g_ascii_strncasecmp (host, names[i], len) == 0 &&
          (host[len] == '\0' || g_str_equal (host + len, port)))
        return TRUE;
    }

  return FALSE;
}

void
clarify_mcp_gate_set_plain_reply (SoupServerMessage *msg,
                                  guint              status,
                                  const char        *text)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/plain; charset=utf-8", SOUP_MEMORY_COPY,
                                    text, strlen (text));
}

/* A refused request is answered and its connection closed without reading
 * its body: libsoup would read all of it first, whatever it claims. The
 * message is paused where it stands and its connection taken over from an
 * idle, outside libsoup's own loop. */
static gboolean
refuse_idle_cb (gpointer data)
{
  g_autoptr(SoupServerMessage) msg = data;
  SoupMessageHeaders *response_headers = soup_server_message_get_response_headers (msg);
  SoupMessageBody *body = soup_server_message_get_response_body (msg);
  g_autoptr(GBytes) text = soup_message_body_flatten (body);
  const char *authenticate = soup_message_headers_get_one (response_headers, "WWW-Authenticate");
  guint status = soup_server_message_get_status (msg);
  g_autoptr(GIOStream) stream = NULL;
  g_autofree char *head = NULL;

  head = g_strdup_printf ("HTTP/1.1 %u %s\r\n"
                          "Content-Type: text/plain; charset=utf-8\r\n"
                          "Content-Length: %" G_GSIZE_FORMAT "\r\n"
                          "%s%s%s"
                          "Connection: close\r\n\r\n",
                          status, soup_status_get_phrase (status), g_bytes_get_size (text),
                          authenticate != NULL ? "WWW-Authenticate: " : "",
                          authenticate != NULL ? authenticate : "",
                          authenticate != NULL ? "\r\n" : "");

  stream = soup_server_message_steal_connection (msg);
  if (stream == NULL)
    return G_SOURCE_REMOVE;

  /* A few hundred bytes into an empty send buffer: this does not block. */
  if (g_output_stream_write_all (g_io_stream_get_output_stream (stream), head, strlen (head), NULL, NULL, NULL))
    g_output_stream_write_all (g_io_stream_get_output_stream (stream), g_bytes_get_data (text, NULL),
                               g_bytes_get_size (text), NULL, NULL, NULL);
  g_io_stream_close (stream, NULL, NULL);

  return G_SOURCE_REMOVE;
}

static void
refuse_early (SoupServerMessage *msg,
              guint              status,
              const char        *text)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  goffset length = soup_message_headers_get_content_length (headers);

  /* libsoup's own refusal (a malformed request) keeps its status. */
  if (soup_server_message_get_status (msg) != 0)
    status = soup_server_message_get_status (msg);
  clarify_mcp_gate_set_plain_reply (msg, status, text);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Connection", "close");

  /* Without a body libsoup has nothing left to read and answers itself. */
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH && length == 0)
    return;

  soup_message_body_set_accumulate (soup_server_message_get_request_body (msg), FALSE);
  soup_server_message_pause (msg);
  g_idle_add_full (G_PRIORITY_HIGH, refuse_idle_cb, g_object_ref (msg), NULL);
}

/* A chunked body announces no length: it is cut off once it grows past the cap. */
static void
got_chunk_cb (SoupServerMessage *msg,
              GBytes            *chunk,
              ClarifyMcpGate    *self)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);

  if (body->length > CLARIFY_MCP_MAX_BODY_BYTES && soup_server_message_get_status (msg) == 0)
    {
      g_signal_handlers_disconnect_by_func (msg, got_chunk_cb, self);
      soup_message_body_truncate (body);
      refuse_early (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "Request too large\n");
    }
}

/* Everything that can be refused from the headers alone is refused here,
 * before a byte of the body is read. */
static void
got_headers_cb (SoupServerMessage *msg,
                ClarifyMcpGate    *self)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  if (soup_server_message_get_status (msg) != 0)
    refuse_early (msg, soup_server_message_get_status (msg), "Bad request\n");
  else if (!host_allowed (self, soup_message_headers_get_one (headers, "Host")))
    refuse_early (msg, SOUP_STATUS_FORBIDDEN, "Host not allowed\n");
  else if (!clarify_mcp_gate_origin_allowed (soup_message_headers_get_one (headers, "Origin")))
    refuse_early (msg, SOUP_STATUS_FORBIDDEN, "Origin not allowed\n");
  else if (!clarify_mcp_gate_check_auth (self, msg))
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "WWW-Authenticate", "Bearer realm=\"clarify\"");
      refuse_early (msg, SOUP_STATUS_UNAUTHORIZED, "Missing or wrong bearer token\n");
    }
  else if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
           soup_message_headers_get_content_length (headers) > CLARIFY_MCP_MAX_BODY_BYTES)
    refuse_early (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "Request too large\n");
  else
    g_signal_connect_object (msg, "got-chunk", G_CALLBACK (got_chunk_cb), self, 0);
}

static void
request_started_cb (SoupServer        *server,
                    SoupServerMessage *msg,
                    ClarifyMcpGate    *self)
{
  g_signal_connect_object (msg, "got-headers", G_CALLBACK (got_headers_cb), self, 0);
}

static void
clarify_mcp_gate_finalize (GObject *object)
{
  ClarifyMcpGate *self = CLARIFY_MCP_GATE (object);

  g_clear_pointer (&self->token, clarify_secret_free);

  G_OBJECT_CLASS (clarify_mcp_gate_parent_class)->finalize (object);
}

static void
clarify_mcp_gate_class_init (ClarifyMcpGateClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = clarify_mcp_gate_finalize;
}

static void
clarify_mcp_gate_init (ClarifyMcpGate *self)
{
}

ClarifyMcpGate *
clarify_mcp_gate_new (const char *token)
{
  ClarifyMcpGate *self = g_object_new (CLARIFY_TYPE_MCP_GATE, NULL);

  self->token = g_strdup (token);
  return self;
}

void
clarify_mcp_gate_set_port (ClarifyMcpGate *self,
                           guint           port)
{
  g_return_if_fail (CLARIFY_IS_MCP_GATE (self));

  self->port = port;
}

void
clarify_mcp_gate_watch (ClarifyMcpGate *self,
                        SoupServer     *server)
{
  g_return_if_fail (CLARIFY_IS_MCP_GATE (self));

  g_signal_connect_object (server, "request-started", G_CALLBACK (request_started_cb), self, 0);
}
