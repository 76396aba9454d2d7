/* clarify-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"

G_DEFINE_QUARK (clarify-error-quark, clarify_error)
