/* clarify-application-private.h: what the tests look at inside the app
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-demo-agent.h"
#include "clarify-application.h"

G_BEGIN_DECLS

/* The agent behind --demo, or NULL while it does not run. */
ClarifyDemoAgent *clarify_application_get_demo_agent (ClarifyApplication *self);
/* How many requests wait behind the dialog that has the focus. */
guint             clarify_application_get_n_queued   (ClarifyApplication *self);

G_END_DECLS
