/* clarify-fuzz.h: what every libFuzzer target shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Once per process: quiet logs (an agent's nonsense is logged, and logging
 * would dominate the run), criticals abort (a g_return_if_fail() reached
 * from agent input is a bug). */
void             clarify_fuzz_init           (void);

/* The input as a JSON object (NULL when it is none); free with json_node_unref. */
JsonNode        *clarify_fuzz_parse_object   (const uint8_t   *data,
                                              size_t           size);

/* A response to @request: how it answers depends on @how (cancelled,
 * the first option or all of them, the defaults, custom text, skipped,
 * notes), so that encoders meet every shape the dialog can produce. The
 * answers are checked the way the dialog checks them, whatever the result. */
ClarifyResponse *clarify_fuzz_response_new   (ClarifyRequest  *request,
                                              guint            how);

/* The request through its JSON form and back, as the outbox keeps it:
 * aborts when a request Clarify accepted cannot be read back. */
void             clarify_fuzz_round_trip     (ClarifyRequest  *request);

/* An encoder of answers: what a backend posts for @response, or NULL. */
typedef char *(*ClarifyFuzzEncodeFunc) (ClarifyRequest   *request,
                                        ClarifyResponse  *response,
                                        GError          **error);

/* The request through its JSON form and back (clarify_fuzz_round_trip()),
 * then every kind of response to it through @encode. */
void             clarify_fuzz_encode_all     (ClarifyRequest       *request,
                                              ClarifyFuzzEncodeFunc encode);

/* How many kinds of response clarify_fuzz_response_new() makes. */
#define CLARIFY_FUZZ_N_RESPONSES 6

G_END_DECLS

G_BEGIN_DECLS

/* Aborts unless @path ("/a/b") is one that stays where it is appended:
 * absolute, no query or fragment, no "." or ".." segment. */
void             clarify_fuzz_check_path     (const char      *path);

G_END_DECLS
