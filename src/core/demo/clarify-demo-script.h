/* clarify-demo-script.h: what the demo agent asks, and how it reads the answers
 *
 * The walkthrough as plain data, one request per step, with the checks and
 * confirmations of a careful agent. No server here: ClarifyDemoAgent streams
 * the steps and passes the answers it receives back to these functions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

guint       clarify_demo_script_get_n_requests (void);
const char *clarify_demo_script_get_id         (guint             index);
/* Step @index in the JSON form of the "clarify" protocol, texts translated. */
JsonNode   *clarify_demo_script_build_request  (guint             index);

/* FALSE with a message for the agent's error reply when @response does not
 * answer @request as the request asked for. */
gboolean    clarify_demo_script_check_response (ClarifyRequest   *request,
                                                ClarifyResponse  *response,
                                                char            **message);
/* The confirmation the agent replies with, e.g. "Database: SQLite". */
char       *clarify_demo_script_summarize      (ClarifyRequest   *request,
                                                ClarifyResponse  *response);

G_END_DECLS
