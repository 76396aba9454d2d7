/* clarify-demo-agent.h: a built-in agent that asks one of every kind
 *
 * An in-process HTTP server on 127.0.0.1 (random port) speaking the
 * "clarify" JSON protocol: GET /events streams the current request,
 * POST /requests/<id>/response takes the answer, confirms it and moves the
 * walkthrough on to the next request.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "clarify-response.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_DEMO_AGENT (clarify_demo_agent_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyDemoAgent, clarify_demo_agent, CLARIFY, DEMO_AGENT, GObject)

ClarifyDemoAgent *clarify_demo_agent_new                (void);
/* Listens on 127.0.0.1 in the thread-default main context. */
gboolean          clarify_demo_agent_start              (ClarifyDemoAgent  *self,
                                                         GError           **error);
void              clarify_demo_agent_stop               (ClarifyDemoAgent  *self);
/* "http://127.0.0.1:PORT/events" once started, else NULL. */
const char       *clarify_demo_agent_get_events_url     (ClarifyDemoAgent  *self);

/* How many requests the walkthrough has, how many answers it took. */
guint             clarify_demo_agent_get_n_requests     (ClarifyDemoAgent  *self);
guint             clarify_demo_agent_get_n_received     (ClarifyDemoAgent  *self);
/* The id of the request being asked now, or NULL after the last one. */
const char       *clarify_demo_agent_get_current_id     (ClarifyDemoAgent  *self);

/* Signals:
 *   ::received (const char *request_id, ClarifyResponse *response, const char *summary)
 *     after an answer was accepted; @summary is what the agent replied.
 */

G_END_DECLS
