/* clarify-discovery-list.h: the agents found on this machine, each with its
 * one button ("Connect", "Answer Its Questions Here", "Add Clarify"), and
 * "Look for Agents"
 *
 * Shows the application's ClarifyAgentDiscovery once it is mapped in one of
 * the application's windows. Nothing happens without a click.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_DISCOVERY_LIST (clarify_discovery_list_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyDiscoveryList, clarify_discovery_list, CLARIFY, DISCOVERY_LIST, AdwPreferencesGroup)

G_END_DECLS
