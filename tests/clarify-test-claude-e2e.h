/* clarify-test-claude-e2e.h: the real Claude Code with Clarify's own hooks
 * answered by the real application in the test process
 *
 * The test process runs ClarifyApplication on a private session bus of its
 * own (so that it owns io.github.clarify.Clarify there, and a test may run
 * beside others), with a private config dir and a free MCP port. Claude
 * Code's sessions (clarify-test-claude-real.h) inherit that bus; their
 * hooks are the ones `clarify setup claude-code --user` wrote, the built
 * binary's. The helpers here find the requests the hooks bring, their
 * dialogs, and when each arrived, showed and left the inbox.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-application-private.h"
#include "clarify-request-dialog-private.h"
#include "clarify-test-claude-real.h"

G_BEGIN_DECLS

#define CLARIFY_TEST_E2E_WAIT_MS 15000

/* Call first in main(): logging, the private config dir and bus, GTK, a
 * fake notification server. clarify_test_e2e_shutdown() after the tests
 * removes the dir and stops the bus. */
void                  clarify_test_e2e_init             (int    *argc,
                                                         char ***argv);
void                  clarify_test_e2e_shutdown         (void);

/* The built `clarify`, as an absolute path. */
const char           *clarify_test_e2e_binary           (void);
/* The application, registered on the private bus, its backends started
 * (the MCP endpoint listens). */
ClarifyApplication   *clarify_test_e2e_app              (void);

/* A private HOME (clarify_test_claude_home_new()) whose
 * ~/.claude/settings.json is written by `clarify setup claude-code --user`
 * run as the user would; checks what it wrote. NULL when skipped. */
ClarifyTestClaudeHome *clarify_test_e2e_home_new        (const char * const    *projects);

/* Every Claude Code request of @claude's session that reached the inbox so
 * far, oldest first (free the array; the requests stay the helper's). */
GPtrArray            *clarify_test_e2e_requests_of      (ClarifyTestClaude     *claude);
/* The @n-th (1-based) of them once it has arrived, or NULL. */
ClarifyRequest       *clarify_test_e2e_wait_for_request (ClarifyTestClaude     *claude,
                                                         guint                  n,
                                                         guint                  timeout_ms);
/* The @n-th (1-based) request of connection kind @kind ("mcp") that
 * reached the inbox, once it has, or NULL. */
ClarifyRequest       *clarify_test_e2e_wait_for_kind    (const char            *kind,
                                                         guint                  n,
                                                         guint                  timeout_ms);
/* The dialog of @request, once mapped and drawn. */
ClarifyRequestDialog *clarify_test_e2e_wait_for_dialog  (ClarifyRequest        *request);
/* Whether @request has left the inbox within @timeout_ms. */
gboolean              clarify_test_e2e_wait_gone        (ClarifyRequest        *request,
                                                         guint                  timeout_ms);
/* When (g_get_monotonic_time()) @request reached the inbox, its dialog
 * was first mapped, it left the inbox; 0 when that has not happened. */
gint64                clarify_test_e2e_arrived_at       (ClarifyRequest        *request);
gint64                clarify_test_e2e_shown_at         (ClarifyRequest        *request);
gint64                clarify_test_e2e_left_at          (ClarifyRequest        *request);

/* One call of the D-Bus API's Hook method, as a monitor on the test's bus
 * saw it: what `clarify hook claude-code` asked and what Clarify told it
 * to print. */
typedef struct
{
  char   *sender;      /* the hook process's connection */
  char   *session_id;  /* of its input */
  char   *event;       /* hook_event_name */
  char   *tool_name;   /* or NULL */
  char   *transcript_path;
  gint64  called_at;   /* g_get_monotonic_time() */
  gint64  replied_at;  /* 0 while it waits */
  char   *output;      /* the reply: what the hook prints ("" nothing), or NULL */
  char   *error;       /* the error's name, or NULL */
} ClarifyTestE2eHookCall;

/* The Hook calls of @claude's session so far, oldest first (free the
 * array; the calls stay the helper's). */
GPtrArray            *clarify_test_e2e_hook_calls_of    (ClarifyTestClaude     *claude);
/* The @n-th (1-based) of them once Clarify has replied to it, or NULL. */
const ClarifyTestE2eHookCall *clarify_test_e2e_wait_for_hook_reply (ClarifyTestClaude *claude,
                                                         guint                  n,
                                                         guint                  timeout_ms);

/* As a click does: the focus, then the click. */
void                  clarify_test_e2e_click            (GtkWidget             *button);
/* The chip showing @label among the options of question @position. */
GtkWidget            *clarify_test_e2e_chip             (ClarifyRequestDialog  *dialog,
                                                         guint                  position,
                                                         const char            *label);
/* The dialog's button with the buildable id @id ("submit_button",
 * "cancel_button", "skip_button"), visible and sensitive. */
GtkWidget            *clarify_test_e2e_action          (ClarifyRequestDialog  *dialog,
                                                         const char            *id);

/* Whether process @pid (GINT_TO_POINTER) has ended: gone, or a zombie
 * its parent has yet to reap. For clarify_test_wait_until(). */
gboolean              clarify_test_e2e_process_gone     (gpointer               pid);

/* Waits for @text on @claude's terminal (fails the test otherwise). */
void                  clarify_test_e2e_see              (ClarifyTestClaude     *claude,
                                                         const char            *text);
/* Fails the test if @claude's fake API saw anything leave loopback. */
void                  clarify_test_e2e_assert_no_strays (ClarifyTestClaude     *claude);

/* Milliseconds between two g_get_monotonic_time() stamps. */
static inline double
clarify_test_e2e_ms (gint64 from,
                     gint64 to)
{
  return (to - from) / 1000.0;
}

G_END_DECLS
