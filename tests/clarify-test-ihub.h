/* clarify-test-ihub.h: a fake iHub replaying the recorded streams
 * (tests/fixtures/protocols/ihub-captured), for the core and the UI tests
 *
 * Header-only (static inline): tests/meson.build links no extra test sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "clarify-test-server.h"

#define IHUB_CAPTURED "protocols/ihub-captured/"
#define IHUB_APP "translator"
#define IHUB_WAIT_MS 5000
/* GET /api/apps with one app named in two languages. */
#define IHUB_APPS \
  "[{\"id\":\"" IHUB_APP "\",\"name\":{\"en\":\"Translator\",\"de\":\"Übersetzer\"}," \
  "\"description\":{\"en\":\"Translates\"},\"preferredModel\":\"fake-llm\"}]"

/* Where the recorded stream after its `connected` frame begins. */
static inline gsize
clarify_test_ihub_greeting_length (const char *stream)
{
  const char *end = strstr (stream, "\n\n");

  g_assert_nonnull (end);
  return (gsize) (end - stream) + 2;
}

static inline char *
clarify_test_ihub_path (const char *chat_id)
{
  return g_strdup_printf ("/api/apps/" IHUB_APP "/chat/%s", chat_id);
}

/* The chat id the recorded stream @stream was made for. */
static inline char *
clarify_test_ihub_recorded_chat_id (const char *stream)
{
  const char *start = strstr (stream, "\"chatId\":\"");

  g_assert_nonnull (start);
  start += strlen ("\"chatId\":\"");
  return g_strndup (start, strcspn (start, "\""));
}

/* Serves the recorded turn @name (e.g. "text.1") for @chat_id: the
 * greeting on GET, the POST checked against the recording (the
 * @n_post-th POST). Returns the rest of the stream, for the caller to send
 * once the stream is open; the recorded chat id reads @chat_id there. */
static inline char *
clarify_test_ihub_serve_turn (ClarifyTestServer *server,
                              const char        *chat_id,
                              const char        *name,
                              guint              n_post)
{
  g_autofree char *sse_name = g_strconcat (IHUB_CAPTURED, name, ".sse", NULL);
  g_autofree char *body_name = g_strconcat (IHUB_CAPTURED, name, ".sse.body", NULL);
  g_autofree char *post_name = g_strconcat (IHUB_CAPTURED, name, ".sse.post", NULL);
  g_autofree char *recorded = clarify_test_load_fixture (sse_name);
  g_autofree char *recorded_post = clarify_test_load_fixture (post_name);
  g_autofree char *recorded_id = clarify_test_ihub_recorded_chat_id (recorded);
  g_autofree char *path = clarify_test_ihub_path (chat_id);
  g_autofree char *greeting = NULL;
  g_autoptr(GString) stream = g_string_new (recorded);
  g_autoptr(GString) post = g_string_new (recorded_post);
  g_autoptr(ClarifyTestRequest) request = NULL;
  gsize length;

  g_string_replace (stream, recorded_id, chat_id, 0);
  g_string_replace (post, recorded_id, chat_id, 0);
  length = clarify_test_ihub_greeting_length (stream->str);
  greeting = g_strndup (stream->str, length);
  clarify_test_server_add_sse (server, path);
  clarify_test_server_set_sse_greeting (server, path, greeting);
  clarify_test_server_set_json (server, "POST", path, 200, "application/json", post->str);

  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", path, n_post, IHUB_WAIT_MS));
  request = clarify_test_server_get_request (server, "POST", path, n_post - 1);
  g_assert_cmpstr (clarify_test_request_get_header (request, "Content-Type"), ==, "application/json");
  if (g_file_test (g_test_get_filename (G_TEST_DIST, "fixtures", body_name, NULL), G_FILE_TEST_EXISTS))
    {
      g_autofree char *recorded_body = clarify_test_load_fixture (body_name);
      g_autoptr(GString) body = g_string_new (recorded_body);

      g_string_replace (body, recorded_id, chat_id, 0);
      g_assert_cmpstr (request->body, ==, body->str);
    }

  g_assert_true (clarify_test_server_wait_for_n_streams (server, path, 1, IHUB_WAIT_MS));
  return g_strdup (stream->str + length);
}

/* Serves the recorded turn @name and sends all of it. */
static inline void
clarify_test_ihub_replay_turn (ClarifyTestServer *server,
                               const char        *chat_id,
                               const char        *name,
                               guint              n_post)
{
  g_autofree char *rest = clarify_test_ihub_serve_turn (server, chat_id, name, n_post);
  g_autofree char *path = clarify_test_ihub_path (chat_id);

  clarify_test_server_sse_send (server, path, rest, -1);
}
