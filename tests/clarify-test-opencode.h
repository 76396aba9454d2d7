/* clarify-test-opencode.h: the protocol notes' OpenCode/CodeNomad fixtures
 * from tests/fixtures/protocols, replayed byte for byte, and the SSE framing
 * around them
 *
 * Header-only (static inline): tests/meson.build links no extra test sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "clarify-backend.h"
#include "clarify-inbox-private.h"
#include "clarify-test-server.h"

/* A question with id @id (a string literal) as OpenCode's GET /question
 * lists it: one question, two options. */
#define CLARIFY_TEST_LISTED_QUESTION(id) \
  "{\"id\":\"" id "\",\"sessionID\":\"ses_1\",\"questions\":[{\"question\":\"Which one?\"," \
  "\"header\":\"Pick\",\"options\":[{\"label\":\"One\",\"description\":\"\"}," \
  "{\"label\":\"Two\",\"description\":\"\"}],\"multiple\":false}]}"

/* The fixture @relative_path without its final newline, as the block sat
 * between the fences of the protocol notes. */
static inline char *
clarify_test_fixture_block (const char *relative_path)
{
  char *text = clarify_test_load_fixture (relative_path);
  gsize len = strlen (text);

  g_assert_true (len > 0 && text[len - 1] == '\n');
  text[len - 1] = '\0';

  return text;
}

/* Line @n (0-based) of @text. */
static inline char *
clarify_test_line (const char *text,
                   guint       n)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_assert_cmpuint (n, <, g_strv_length (lines));
  return g_strdup (lines[n]);
}

/* One SSE event whose data is @json; a JSON text over several lines becomes
 * several data: lines, which the client joins with "\n" again. */
static inline char *
clarify_test_sse_frame (const char *json)
{
  g_auto(GStrv) lines = g_strsplit (json, "\n", -1);
  GString *frame = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (frame, "data: %s\n", lines[i]);
  g_string_append_c (frame, '\n');

  return g_string_free (frame, FALSE);
}

/* The same event as /global/event carries it. */
static inline char *
clarify_test_global_frame (const char *directory,
                           const char *payload)
{
  g_autofree char *json = g_strdup_printf ("{\"directory\":\"%s\",\"project\":\"prj_test\",\"payload\":%s}",
                                           directory, payload);

  return clarify_test_sse_frame (json);
}

static inline gboolean
clarify_test_request_withdrawn (gpointer request)
{
  return clarify_request_is_withdrawn (request);
}

/* The next @method @path request's query and body are exactly these. */
static inline void
clarify_test_assert_next_request (ClarifyTestServer *server,
                                  const char        *method,
                                  const char        *path,
                                  const char        *query,
                                  const char        *body)
{
  g_autoptr(ClarifyTestRequest) request = clarify_test_server_wait_for_request (server, method, path, 5000);

  g_assert_nonnull (request);
  g_assert_cmpstr (request->query, ==, query);
  g_assert_cmpstr (request->body, ==, body);
  if (*body != '\0')
    g_assert_cmpstr (clarify_test_request_get_header (request, "Content-Type"), ==, "application/json");
}

/* Called right after @watch's backend started, before any of its I/O: with
 * the inbox's cap at one request and two questions listed at
 * @listing_path, one is shown and the other turned away (the agent cannot
 * hear it); once the first is answered (POST @listing_path/<id>/reply),
 * the other is fetched from the listing again and shown. */
static inline void
clarify_test_refused_listed_again (ClarifyTestServer *server,
                                   ClarifyTestWatch  *watch,
                                   const char        *listing_path)
{
  const char *one[] = { "One", NULL };
  ClarifyInbox *inbox = clarify_backend_get_inbox (watch->backend);
  g_autoptr(ClarifyResponse) response = NULL;
  g_autofree char *reply = NULL;
  ClarifyRequest *first, *second;
  gboolean first_is_a;
  guint n_listed;

  clarify_test_server_set_json (server, "GET", listing_path, 200, "application/json",
                                "[" CLARIFY_TEST_LISTED_QUESTION ("que_A") "," CLARIFY_TEST_LISTED_QUESTION ("que_B") "]");
  clarify_inbox_set_limits (inbox, 1, 100);
  clarify_test_watch_wait_resynced (watch, 1);
  first = clarify_test_watch_wait_request (watch, 1);
  clarify_test_loop_for (200);
  g_assert_cmpuint (watch->added->len, ==, 1);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 1);

  /* Answered: the agent's listing keeps only the other one. */
  first_is_a = g_str_equal (clarify_request_get_id (first), "que_A");
  clarify_test_server_set_json (server, "GET", listing_path, 200, "application/json",
                                first_is_a ? "[" CLARIFY_TEST_LISTED_QUESTION ("que_B") "]"
                                           : "[" CLARIFY_TEST_LISTED_QUESTION ("que_A") "]");
  reply = g_strdup_printf ("%s/%s/reply", listing_path, clarify_request_get_id (first));
  clarify_test_server_add_json (server, "POST", reply, 200, "application/json", "true");
  n_listed = clarify_test_server_get_n_requests (server, "GET", listing_path);
  response = clarify_response_new (clarify_request_get_id (first), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, "q1", one, NULL, FALSE);
  clarify_inbox_answer (inbox, first, response);

  second = clarify_test_watch_wait_request (watch, 2);
  g_assert_cmpstr (clarify_request_get_id (second), ==, first_is_a ? "que_B" : "que_A");
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "GET", listing_path), >, n_listed);
  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, 1);
}
