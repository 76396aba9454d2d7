/* clarify-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "clarify-error.h"

G_DEFINE_QUARK (clarify-error-quark, clarify_error)

/* Network trouble worth trying again: a refused port is the kind that
 * ends the moment the agent is back. */
gboolean
clarify_error_is_transient (const GError *error)
{
  return g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT) ||
         g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_UNREACHABLE);
}

gboolean
clarify_error_is_unreachable (const GError *error)
{
  return g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
}
