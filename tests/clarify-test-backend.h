/* clarify-test-backend.h: a backend the tests feed by hand
 *
 * It stands for any agent: the test adds requests with
 * clarify_backend_add_request() and decides how each delivery ends, and
 * when: a held delivery stays in flight until the test releases it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"
#include "clarify-error.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_TEST_BACKEND (clarify_test_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyTestBackend, clarify_test_backend, CLARIFY, TEST_BACKEND, ClarifyBackend)

/* A backend for the connection @name (kind "clarify", a dead URL). */
ClarifyBackend  *clarify_test_backend_new             (const char         *name);
/* The next @times deliveries fail with CLARIFY_ERROR @code; then they succeed.
 * A held delivery counts when it is released. */
void             clarify_test_backend_fail_next       (ClarifyTestBackend *self,
                                                       ClarifyError        code,
                                                       guint               times);
/* The last response delivered successfully, or NULL. */
ClarifyResponse *clarify_test_backend_get_response    (ClarifyTestBackend *self);
/* How many deliveries were tried, successful or not. */
guint            clarify_test_backend_get_n_attempts  (ClarifyTestBackend *self);
/* How often the inbox asked it to fetch again what it had turned away. */
guint            clarify_test_backend_get_n_resyncs   (ClarifyTestBackend *self);

/* While @hold is TRUE, new deliveries stay in flight until released. */
void             clarify_test_backend_set_hold        (ClarifyTestBackend *self,
                                                       gboolean            hold);
guint            clarify_test_backend_get_n_held      (ClarifyTestBackend *self);
/* Ends the oldest held delivery (as clarify_test_backend_fail_next() says);
 * its caller hears of it in a later main loop iteration. */
void             clarify_test_backend_release         (ClarifyTestBackend *self);
/* How many deliveries' callers have heard the result, successful or not. */
guint            clarify_test_backend_get_n_finished  (ClarifyTestBackend *self);
/* The responses delivered successfully, in order (ClarifyResponse). */
GPtrArray       *clarify_test_backend_get_delivered   (ClarifyTestBackend *self);
/* How many of them answer @request_id. */
guint            clarify_test_backend_count_delivered (ClarifyTestBackend *self,
                                                       const char         *request_id);

G_END_DECLS
