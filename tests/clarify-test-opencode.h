/* clarify-test-opencode.h: the protocol notes' OpenCode/CodeNomad fixtures,
 * cut out of shared/protocols at run time so the tests replay them byte for
 * byte, and the SSE framing around them
 *
 * Header-only (static inline): tests/meson.build links no extra test sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "clarify-backend.h"
#include "clarify-test-server.h"

/* The @nth (0-based) fenced block after the first occurrence of @marker in
 * the notes file @relative_path, without its fences and final newline. */
static inline char *
clarify_test_shared_block (const char *relative_path,
                           const char *marker,
                           guint       nth)
{
  g_autofree char *doc = clarify_test_load_shared_file (relative_path);
  const char *p = strstr (doc, marker);
  const char *end;

  g_assert_nonnull (p);
  for (guint i = 0; i <= nth; i++)
    {
      p = strstr (p, "```");
      g_assert_nonnull (p);
      if (i < nth)
        {
          /* Skip the whole block: its opening and closing fence. */
          p = strstr (p + 3, "\n```");
          g_assert_nonnull (p);
          p += 4;
        }
    }
  p = strchr (p, '\n');
  g_assert_nonnull (p);
  p++;
  end = strstr (p, "\n```");
  g_assert_nonnull (end);

  return g_strndup (p, end - p);
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
