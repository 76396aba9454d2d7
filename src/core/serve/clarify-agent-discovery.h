/* clarify-agent-discovery.h: agents on this machine, found on request
 *
 * Looks, when asked, for what Clarify can answer for: a server of each
 * registered kind that has a ClarifyBackendProbe (one loopback GET on each
 * of its default ports, all at once, with a short timeout), Claude Code (its
 * settings folder or its program on $PATH), and the MCP configs of Claude
 * Code (~/.claude.json) and OpenCode (opencode.json) that name Clarify or
 * could. It sends nothing but GETs to 127.0.0.1 and changes nothing: the
 * ClarifyFoundAgents it returns do that when the user asks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-found-agent.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_AGENT_DISCOVERY (clarify_agent_discovery_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyAgentDiscovery, clarify_agent_discovery, CLARIFY, AGENT_DISCOVERY, GObject)

ClarifyAgentDiscovery *clarify_agent_discovery_new         (void);

/* Probe @kind on @ports (@n_ports of them; none: not at all) instead of
 * its default ports: for tests, whose fake servers listen on ephemeral
 * ports. Either call replaces all of the kind's default ports, plain and
 * HTTPS. */
void                   clarify_agent_discovery_set_ports   (ClarifyAgentDiscovery *self,
                                                            const char            *kind,
                                                            const guint16         *ports,
                                                            guint                  n_ports);
/* The same for ports served over HTTPS. */
void                   clarify_agent_discovery_set_https_ports (ClarifyAgentDiscovery *self,
                                                                const char            *kind,
                                                                const guint16         *ports,
                                                                guint                  n_ports);
/* How long one probe may take; 1500 ms unless set. */
void                   clarify_agent_discovery_set_timeout (ClarifyAgentDiscovery *self,
                                                            guint                  timeout_ms);

/* Looks once. The result is a GPtrArray of ClarifyFoundAgent: servers in
 * the registry's order, then Claude Code, then MCP configs. */
void                   clarify_agent_discovery_run_async   (ClarifyAgentDiscovery *self,
                                                            GCancellable          *cancellable,
                                                            GAsyncReadyCallback    callback,
                                                            gpointer               user_data);
GPtrArray             *clarify_agent_discovery_run_finish  (ClarifyAgentDiscovery *self,
                                                            GAsyncResult          *result,
                                                            GError               **error);

/* For a UI: what the last look found (ClarifyFoundAgent), replaced as a
 * whole when a look ends, and ::looking while one runs. A look started
 * while one runs does nothing; dispose cancels it. */
GListModel            *clarify_agent_discovery_get_found   (ClarifyAgentDiscovery *self);
gboolean               clarify_agent_discovery_get_looking (ClarifyAgentDiscovery *self);
/* Whether a look has ended since this object was made. */
gboolean               clarify_agent_discovery_has_looked  (ClarifyAgentDiscovery *self);
void                   clarify_agent_discovery_look        (ClarifyAgentDiscovery *self);

G_END_DECLS
