/* clarify-test-mcp.h: Clarify's MCP endpoint on a free loopback port, for
 * the tests that talk to it over HTTP (no display)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "clarify-mcp-server.h"
#include "clarify-secret.h"
#include "clarify-test-server.h"

G_BEGIN_DECLS

typedef struct
{
  ClarifyBackend   *backend;
  SoupSession      *session;
  char             *url;
  char             *token;
  ClarifyTestWatch  watch;
} ClarifyTestMcp;

/* A GTest fixture setup: the endpoint started and watched, its URL, the
 * token a client sends, and a session for several calls at once. */
static inline void
clarify_test_mcp_setup (ClarifyTestMcp *fixture,
                        gconstpointer   data)
{
  g_autoptr(ClarifyConnection) connection = clarify_mcp_server_new_connection (0);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected_url = NULL;
  guint port;

  fixture->backend = clarify_mcp_server_new (connection);
  clarify_test_watch_init (&fixture->watch, fixture->backend);

  clarify_backend_start (fixture->backend);
  g_assert_cmpuint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);

  port = clarify_mcp_server_get_port (CLARIFY_MCP_SERVER (fixture->backend));
  g_assert_cmpuint (port, >, 0);
  fixture->url = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (fixture->backend));
  expected_url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  g_assert_cmpstr (fixture->url, ==, expected_url);

  /* The token the server generated on first start, as a client reads it. */
  fixture->token = clarify_secret_lookup (CLARIFY_MCP_TOKEN_KEY, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fixture->token);

  /* Several calls wait at once; the default of two per host would queue the third. */
  fixture->session = soup_session_new_with_options ("max-conns-per-host", 16, NULL);
}

static inline void
clarify_test_mcp_teardown (ClarifyTestMcp *fixture,
                           gconstpointer   data)
{
  clarify_test_watch_clear (&fixture->watch);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->session);
  g_clear_pointer (&fixture->url, g_free);
  g_clear_pointer (&fixture->token, g_free);
}

/* The person answers @request's first question with @text. */
static inline void
clarify_test_mcp_answer_text (ClarifyTestMcp *fixture,
                              ClarifyRequest *request,
                              const char     *text)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);
  const char *values[] = { text, NULL };

  clarify_response_add_answer (response, clarify_question_get_id (clarify_request_get_question (request, 0)),
                               values, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);
}

G_END_DECLS
