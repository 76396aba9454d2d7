/* clarify-test-signals.h: counting a signal's emissions
 *
 * Header-only, for any test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Connect it with g_signal_connect_swapped() and a guint * as the data:
 * it counts the emissions, whatever the signal's arguments. */
static inline void
clarify_test_count_emission (guint *n_emissions)
{
  (*n_emissions)++;
}

G_END_DECLS
