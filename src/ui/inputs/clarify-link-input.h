/* clarify-link-input.h: will you open this address? Decline, Open in Browser
 *
 * MCP's URL mode: the whole address in monospace with its host in bold,
 * the host named once more in words, and two buttons. The address opens
 * only when the person clicks Open in Browser; once the browser was
 * started, the answer is CLARIFY_LINK_OPEN and ::activate-default submits.
 * Decline answers CLARIFY_LINK_DECLINE.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_LINK_INPUT (clarify_link_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyLinkInput, clarify_link_input, CLARIFY, LINK_INPUT, ClarifyInput)

GtkWidget *clarify_link_input_get_open_button    (ClarifyLinkInput *self);
GtkWidget *clarify_link_input_get_decline_button (ClarifyLinkInput *self);
/* The label showing the address. */
GtkWidget *clarify_link_input_get_address_label  (ClarifyLinkInput *self);

/* Where the host of @address starts and ends (bytes), past any user part
 * and before the port; FALSE when it has none. */
gboolean   clarify_link_find_host                (const char       *address,
                                                  gsize            *start,
                                                  gsize            *end);

G_END_DECLS
