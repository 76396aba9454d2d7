/* clarify-test-backend.h: a backend the tests feed by hand
 *
 * It stands for any agent: the test adds requests with
 * clarify_backend_add_request() and decides how each delivery ends.
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
ClarifyBackend  *clarify_test_backend_new            (const char         *name);
/* The next @times deliveries fail with CLARIFY_ERROR @code; then they succeed. */
void             clarify_test_backend_fail_next      (ClarifyTestBackend *self,
                                                      ClarifyError        code,
                                                      guint               times);
/* The last response delivered successfully, or NULL. */
ClarifyResponse *clarify_test_backend_get_response   (ClarifyTestBackend *self);
/* How many deliveries were tried, successful or not. */
guint            clarify_test_backend_get_n_attempts (ClarifyTestBackend *self);

G_END_DECLS
