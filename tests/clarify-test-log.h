/* clarify-test-log.h: Clarify's own log lines in tests
 *
 * Every test program calls clarify_test_log_init() first in main(). From
 * then on a warning or critical in Clarify's log domain aborts the program,
 * so the test fails, unless the test expects the warning: it captures it
 * between clarify_test_log_start() and clarify_test_log_stop() and asserts
 * on the lines. g_test_expect_message() cannot do that for us: it does not
 * see structured logging in GLib 2.74. Criticals are never expected. Other
 * domains keep GLib's defaults.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The G_LOG_DOMAIN of src/core and src/ui. */
#define CLARIFY_TEST_LOG_DOMAIN "Clarify"

/* Call once, first in main(): before g_test_init() or clarify_test_gtk_init(). */
void     clarify_test_log_init  (void);
/* Captures Clarify's warnings and messages, instead of printing them,
 * until clarify_test_log_stop(). */
void     clarify_test_log_start (void);
/* Returns the captured lines ("WARNING: …", "MESSAGE: …"), NULL-terminated. */
char   **clarify_test_log_stop  (void);
/* Whether any domain logged, at any level since clarify_test_log_init(), a
 * message matching the glob @pattern ("*token*"). */
gboolean clarify_test_log_seen  (const char *pattern);

G_END_DECLS
