/* test-hostile.c: what a hostile agent sends cannot move an answer to another
 * URL, and a reply to an answer cannot eat the memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-backend-registry.h"
#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-normalize.h"
#include "clarify-json-backend.h"
#include "clarify-opencode-decoder.h"
#include "clarify-opencode-encoder.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define EVENTS_PATH "/agent/events"

/* Ids that must stay one path segment, and where they must end up. */
static const struct
{
  const char *id;
  const char *segment;
} plain_ids[] = {
  { "a/b", "a%2Fb" },
  { "../../x", "..%2F..%2Fx" },
  { "r1?x=1#y", "r1%3Fx%3D1%23y" },
  { "%2E%2E", "%252E%252E" },
};

/* Ids no encoding can keep in their segment: refused. */
static const char *refused_ids[] = { ".", "..", "" };

typedef struct
{
  ClarifyTestServer *server;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyTestWatch   watch;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *url = NULL;
  g_autoptr(GError) error = NULL;

  fixture->server = clarify_test_server_new ();
  clarify_test_server_add_sse (fixture->server, EVENTS_PATH);
  url = clarify_test_server_get_url (fixture->server, EVENTS_PATH);
  fixture->connection = clarify_connection_new ("fake-agent", "clarify", url);
  fixture->backend = clarify_backend_registry_create (fixture->connection, &error);
  g_assert_no_error (error);
  clarify_test_watch_init (&fixture->watch, fixture->backend);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  clarify_test_watch_clear (&fixture->watch);
  g_assert_finalize_object (fixture->backend);
  g_clear_object (&fixture->connection);
  g_clear_pointer (&fixture->server, clarify_test_server_free);
}

static gboolean
answer (Fixture     *fixture,
        const char  *id,
        GError     **error)
{
  g_autoptr(ClarifyRequest) request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  g_autoptr(ClarifyResponse) response = clarify_response_new (id, CLARIFY_OUTCOME_ANSWERED);

  clarify_request_add_question (request, question);
  clarify_response_add_answer (response, "q1", (const char *[]) { "x", NULL }, NULL, FALSE);

  return clarify_test_watch_respond (&fixture->watch, request, response, error);
}

/* A bare HTTP/1.1 listener that records each request line as sent, before
 * any server library could decode or normalise its path. */
typedef struct
{
  GMutex     mutex;
  GPtrArray *lines;
} Wire;

/* Reads one request off @connection; returns its request line. */
static char *
wire_read_request (GSocketConnection *connection)
{
  g_autoptr(GDataInputStream) in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  char *first;
  gsize length = 0;
  char *line;

  g_data_input_stream_set_newline_type (in, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (in), FALSE);
  first = g_data_input_stream_read_line (in, NULL, NULL, NULL);
  while ((line = g_data_input_stream_read_line (in, NULL, NULL, NULL)) != NULL && *line != '\0')
    {
      if (g_ascii_strncasecmp (line, "Content-Length:", 15) == 0)
        length = g_ascii_strtoull (line + 15, NULL, 10);
      g_free (line);
    }
  g_free (line);
  g_input_stream_skip (G_INPUT_STREAM (in), length, NULL, NULL);

  return first;
}

static gboolean
wire_run (GThreadedSocketService *service,
          GSocketConnection      *connection,
          GObject                *source,
          gpointer                user_data)
{
  static const char reply[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                              "Content-Length: 2\r\nConnection: close\r\n\r\n{}";
  Wire *wire = user_data;
  g_autofree char *first = wire_read_request (connection);

  g_mutex_lock (&wire->mutex);
  g_ptr_array_add (wire->lines, g_strdup (first != NULL ? first : ""));
  g_mutex_unlock (&wire->mutex);

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             reply, strlen (reply), NULL, NULL, NULL);
  return TRUE;
}

static gboolean
wire_has (gpointer data)
{
  Wire *wire = ((gpointer *) data)[0];
  guint n = GPOINTER_TO_UINT (((gpointer *) data)[1]);
  gboolean has;

  g_mutex_lock (&wire->mutex);
  has = wire->lines->len >= n;
  g_mutex_unlock (&wire->mutex);

  return has;
}

/* Serves @service on 127.0.0.1 with @run, and a "clarify" backend in
 * @fixture whose answers go there; the stream itself is not needed. */
static void
wire_listen (GSocketService *service,
             GCallback       run,
             gpointer        data,
             Fixture        *fixture)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  g_socket_listener_add_address (G_SOCKET_LISTENER (service), any, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "run", run, data);
  g_socket_service_start (service);

  url = g_strdup_printf ("http://127.0.0.1:%u" EVENTS_PATH,
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  fixture->connection = clarify_connection_new ("fake-agent", "clarify", url);
  fixture->backend = clarify_backend_registry_create (fixture->connection, &error);
  g_assert_no_error (error);
  clarify_test_watch_init (&fixture->watch, fixture->backend);
}

static void
test_json_ids (void)
{
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (2);
  g_autoptr(GError) error = NULL;
  Fixture fixture = { 0 };
  Wire wire;

  g_mutex_init (&wire.mutex);
  wire.lines = g_ptr_array_new_with_free_func (g_free);
  wire_listen (service, G_CALLBACK (wire_run), &wire, &fixture);

  for (guint i = 0; i < G_N_ELEMENTS (plain_ids); i++)
    {
      g_autofree char *expected = g_strconcat ("POST /agent/requests/", plain_ids[i].segment,
                                               "/response HTTP/1.1", NULL);
      gpointer wait[] = { &wire, GUINT_TO_POINTER (i + 1) };

      g_test_message ("id %s", plain_ids[i].id);
      g_assert_true (answer (&fixture, plain_ids[i].id, &error));
      g_assert_no_error (error);
      g_assert_true (clarify_test_loop_until (wire_has, wait, 5000));
      g_mutex_lock (&wire.mutex);
      g_assert_cmpstr (wire.lines->pdata[i], ==, expected);
      g_mutex_unlock (&wire.mutex);
    }

  for (guint i = 0; i < G_N_ELEMENTS (refused_ids); i++)
    {
      g_test_message ("id “%s”", refused_ids[i]);
      g_assert_false (answer (&fixture, refused_ids[i], &error));
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "cannot be part of a URL"));
      g_clear_error (&error);
    }

  /* Nothing was sent anywhere for them. */
  g_mutex_lock (&wire.mutex);
  g_assert_cmpuint (wire.lines->len, ==, G_N_ELEMENTS (plain_ids));
  g_mutex_unlock (&wire.mutex);

  clarify_test_watch_clear (&fixture.watch);
  g_clear_object (&fixture.backend);
  g_clear_object (&fixture.connection);
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  g_ptr_array_unref (wire.lines);
  g_mutex_clear (&wire.mutex);
}

/* How much an agent that never ends its reply got to send. */
#define ENDLESS_GIVE_UP (256 * 1024 * 1024)

typedef struct
{
  gint64    sent;  /* written before done is set */
  gint      done;  /* atomic */
} Endless;

/* A 200 whose chunked body of JSON never ends: no size to refuse it by. */
static gboolean
endless_run (GThreadedSocketService *service,
             GSocketConnection      *connection,
             GObject                *source,
             gpointer                user_data)
{
  static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             "Transfer-Encoding: chunked\r\n\r\n"
                             "7\r\n{\"x\":\"a\r\n";
  Endless *endless = user_data;
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autofree char *chunk = NULL;
  g_autofree char *first = wire_read_request (connection);
  gsize chunk_size = 64 * 1024;
  gint64 sent = 0;
  gsize header;

  chunk = g_malloc (chunk_size + 32);
  header = g_snprintf (chunk, 32, "%zx\r\n", chunk_size);
  memset (chunk + header, 'a', chunk_size);
  memcpy (chunk + header + chunk_size, "\r\n", 2);

  if (g_output_stream_write_all (out, head, strlen (head), NULL, NULL, NULL))
    while (sent < ENDLESS_GIVE_UP &&
           g_output_stream_write_all (out, chunk, header + chunk_size + 2, NULL, NULL, NULL))
      sent += chunk_size;

  endless->sent = sent;
  g_atomic_int_set (&endless->done, TRUE);
  return TRUE;
}

static gboolean
endless_done (gpointer data)
{
  return g_atomic_int_get (&((Endless *) data)->done);
}

/* A reply with no Content-Length is read up to the cap, and the connection
 * dropped there: the agent cannot make Clarify hold what it sends. */
static void
test_json_endless_reply (void)
{
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (1);
  g_autoptr(GError) error = NULL;
  Fixture fixture = { 0 };
  Endless endless = { 0 };

  wire_listen (service, G_CALLBACK (endless_run), &endless, &fixture);

  g_assert_false (answer (&fixture, "r1", &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "larger than 4 MiB"));

  /* The agent's writes failed soon after the cap: the socket was closed,
   * not drained. */
  g_assert_true (clarify_test_loop_until (endless_done, &endless, 10000));
  g_test_message ("the agent got to send %" G_GINT64_FORMAT " bytes", endless.sent);
  g_assert_cmpint (endless.sent, <, 4 * CLARIFY_HTTP_MAX_BODY);

  clarify_test_watch_clear (&fixture.watch);
  g_clear_object (&fixture.backend);
  g_clear_object (&fixture.connection);
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
}

/* A JSON reply of exactly @size bytes. */
static char *
reply_of_size (gsize size)
{
  GString *reply = g_string_sized_new (size);

  g_string_append (reply, "{\"x\":\"");
  while (reply->len < size - 2)
    g_string_append_c (reply, 'a');
  g_string_append (reply, "\"}");

  return g_string_free (reply, FALSE);
}

static void
test_json_large_reply (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *at_cap = reply_of_size (CLARIFY_HTTP_MAX_BODY);
  g_autofree char *past_cap = reply_of_size (CLARIFY_HTTP_MAX_BODY + 1);
  g_autoptr(GError) error = NULL;

  clarify_backend_start (fixture->backend);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS_PATH, 1, 5000));

  clarify_test_server_add_json (fixture->server, "POST", "/agent/requests/r1/response", 200,
                                "application/json", at_cap);
  clarify_test_server_add_json (fixture->server, "POST", "/agent/requests/r1/response", 200,
                                "application/json", past_cap);

  g_assert_true (answer (fixture, "r1", &error));
  g_assert_no_error (error);

  g_assert_false (answer (fixture, "r1", &error));
  g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "larger than 4 MiB"));
}

/* NUL inside a question's text or an option's value: refused whole. */
static const char *nul_requests[] = {
  "{\"id\":\"n1\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Name\\u0000 or not?\"}]}",
  "{\"id\":\"n2\",\"questions\":[{\"id\":\"q1\",\"kind\":\"choice\",\"text\":\"Which?\","
  "\"options\":[{\"label\":\"Keep\",\"value\":\"keep\\u0000 rm -rf\"},{\"label\":\"Drop\",\"value\":\"drop\"}]}]}",
};

static void
test_nul_json_form (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (nul_requests); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyRequest) request = clarify_request_new_from_data (nul_requests[i], -1, &error);

      g_assert_null (request);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "NUL character"));
    }

  /* The same text with a real backslash before u0000 is no NUL, and stays whole. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(ClarifyRequest) request = clarify_request_new_from_data (
      "{\"id\":\"n3\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"C:\\\\u0000 ok\"}]}", -1, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==, "C:\\u0000 ok");
  }

  /* A raw NUL byte inside the given length is refused too. */
  {
    static const char raw[] = "{\"id\":\"n4\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"a\0b\"}]}";
    g_autoptr(GError) error = NULL;

    g_assert_null (clarify_request_new_from_data (raw, sizeof raw - 1, &error));
    g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
  }
}

static void
test_nul_json_backend (Fixture       *fixture,
                       gconstpointer  data)
{
  clarify_backend_start (fixture->backend);
  g_assert_true (clarify_test_server_wait_for_n_streams (fixture->server, EVENTS_PATH, 1, 5000));

  for (guint i = 0; i < G_N_ELEMENTS (nul_requests); i++)
    {
      g_autofree char *frame = g_strdup_printf ("event: request\ndata: %s\n\n", nul_requests[i]);

      clarify_test_server_sse_send (fixture->server, EVENTS_PATH, frame, -1);
    }
  clarify_test_server_sse_send (fixture->server, EVENTS_PATH,
                                "event: request\ndata: {\"id\":\"ok\",\"questions\":"
                                "[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Name?\"}]}\n\n", -1);
  clarify_test_watch_wait_request (&fixture->watch, 1);

  /* Only the request without a NUL came through; the others left a reason. */
  g_assert_cmpuint (fixture->watch.added->len, ==, 1);
  g_assert_cmpstr (clarify_request_get_id (fixture->watch.added->pdata[0]), ==, "ok");
  g_assert_true (clarify_test_log_seen ("*“fake-agent”: ignored a request*NUL character*"));
}

/* Bidi controls and zero-width characters are written out; options that
 * read the same are numbered; values go back whole. */
static void
test_invisible_and_duplicates (void)
{
  static const char data[] =
    "{\"id\":\"v1\",\"title\":\"Pay \\u202Eevil\\u202C now\",\"context\":\"a\\u200Bb\","
    "\"questions\":[{\"id\":\"q1\",\"kind\":\"single\",\"text\":\"Pick\\u2066 one\\u2069\","
    "\"placeholder\":\"\\uFEFFx\",\"options\":["
    "{\"label\":\"Keep\",\"value\":\"keep\"},"
    "{\"label\":\"Keep\",\"value\":\"delete\"},"
    "{\"label\":\"Keep (2)\",\"value\":\"other\"},"
    "{\"label\":\"Ke\\u200Dep\",\"value\":\"third\",\"description\":\"\\u2060d\"},"
    "{\"label\":\"Drop\"},{\"label\":\"Drop\"}]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  ClarifyQuestion *question;
  g_autofree char *plain = clarify_text_show_invisible ("no marks here");

  g_assert_null (plain);
  request = clarify_request_new_from_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Pay ⟨U+202E⟩evil⟨U+202C⟩ now");
  g_assert_cmpstr (clarify_request_get_context (request), ==, "a⟨U+200B⟩b");
  question = clarify_request_get_question (request, 0);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "Pick⟨U+2066⟩ one⟨U+2069⟩");
  g_assert_cmpstr (clarify_question_get_placeholder (question), ==, "⟨U+FEFF⟩x");

  clarify_test_assert_option (question, 0, "Keep", "keep", NULL);
  clarify_test_assert_option (question, 1, "Keep (2)", "delete", NULL);
  /* An agent's own "Keep (2)" is numbered on, not confused with it. */
  clarify_test_assert_option (question, 2, "Keep (2) (2)", "other", NULL);
  clarify_test_assert_option (question, 3, "Ke⟨U+200D⟩ep", "third", "⟨U+2060⟩d");
  /* Without a value the label is the value: it goes back as sent. */
  clarify_test_assert_option (question, 4, "Drop", "Drop", NULL);
  clarify_test_assert_option (question, 5, "Drop (2)", "Drop", NULL);

  /* The command a person allows reads on screen as it will run. */
  {
    static const char permission[] =
      "{\"id\":\"p1\",\"questions\":[{\"id\":\"q1\",\"kind\":\"permission\",\"text\":\"Run?\","
      "\"subject\":\"rm -rf ~ & echo \\u202Eevil\\u200B\","
      "\"options\":[{\"label\":\"Allow\",\"value\":\"once\"},{\"label\":\"Deny\",\"value\":\"reject\"}]}]}";
    g_autoptr(ClarifyRequest) allow = clarify_request_new_from_data (permission, -1, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (clarify_question_get_subject (clarify_request_get_question (allow, 0)), ==,
                     "rm -rf ~ & echo ⟨U+202E⟩evil⟨U+200B⟩");
  }

  /* The JSON form read back (an answer kept on disk) stays the same. */
  {
    g_autoptr(JsonNode) node = clarify_request_to_json (request);
    g_autoptr(ClarifyRequest) again = clarify_request_new_from_json (node, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (clarify_request_get_title (again), ==, clarify_request_get_title (request));
    clarify_test_assert_option (clarify_request_get_question (again, 0), 1, "Keep (2)", "delete", NULL);
  }
}

static ClarifyRequest *
opencode_question (const char *id,
                   const char *session_id)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GError) error = NULL;
  ClarifyRequest *request;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, id);
  json_builder_set_member_name (builder, "sessionID");
  json_builder_add_string_value (builder, session_id);
  json_builder_set_member_name (builder, "questions");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "question");
  json_builder_add_string_value (builder, "Which?");
  json_builder_set_member_name (builder, "header");
  json_builder_add_string_value (builder, "Pick");
  json_builder_set_member_name (builder, "options");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, "A");
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, "");
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);

  request = clarify_opencode_question_new (json_node_get_object (node), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (request);

  return request;
}

static void
test_opencode_ids (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (plain_ids); i++)
    {
      g_autoptr(ClarifyRequest) request = opencode_question (plain_ids[i].id, "ses_1");
      g_autoptr(ClarifyResponse) response = clarify_response_new (plain_ids[i].id, CLARIFY_OUTCOME_CANCELLED);
      g_autofree char *expected = g_strconcat ("/question/", plain_ids[i].segment, "/reject", NULL);
      g_autofree char *path = NULL;
      g_autofree char *body = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (clarify_opencode_encode_reply (request, response, &path, &body, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (path, ==, expected);
    }

  for (guint i = 0; i < G_N_ELEMENTS (refused_ids); i++)
    {
      g_autoptr(ClarifyRequest) request = NULL;
      g_autoptr(ClarifyResponse) response = NULL;
      g_autofree char *path = NULL;
      g_autofree char *body = NULL;
      g_autoptr(GError) error = NULL;

      /* The decoder may refuse an empty id itself. */
      if (*refused_ids[i] == '\0')
        continue;
      request = opencode_question (refused_ids[i], "ses_1");
      response = clarify_response_new (refused_ids[i], CLARIFY_OUTCOME_CANCELLED);
      g_assert_false (clarify_opencode_encode_reply (request, response, &path, &body, &error));
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_null (path);
    }
}

static void
test_escape_segment (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (plain_ids); i++)
    {
      g_autofree char *segment = clarify_http_escape_segment (plain_ids[i].id, NULL);

      g_assert_cmpstr (segment, ==, plain_ids[i].segment);
    }
  for (guint i = 0; i < G_N_ELEMENTS (refused_ids); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (clarify_http_escape_segment (refused_ids[i], &error));
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
    }
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/hostile/escape-segment", test_escape_segment);
  g_test_add_func ("/hostile/opencode/ids", test_opencode_ids);
  g_test_add_func ("/hostile/json/ids", test_json_ids);
  g_test_add_func ("/hostile/nul/json-form", test_nul_json_form);
  g_test_add_func ("/hostile/text/invisible-and-duplicates", test_invisible_and_duplicates);
  g_test_add ("/hostile/nul/json-backend", Fixture, NULL, fixture_setup, test_nul_json_backend, fixture_teardown);
  g_test_add ("/hostile/json/large-reply", Fixture, NULL, fixture_setup, test_json_large_reply, fixture_teardown);
  g_test_add_func ("/hostile/json/endless-reply", test_json_endless_reply);

  return g_test_run ();
}
