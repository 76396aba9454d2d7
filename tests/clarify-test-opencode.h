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
#include "clarify-test-server.h"

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
