/* clarify-error.h: the one error domain of Clarify
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "clarify-model-enums.h"

G_BEGIN_DECLS

#define CLARIFY_ERROR (clarify_error_quark ())

typedef enum
{
  CLARIFY_ERROR_INVALID,        /* malformed or unacceptable input from an agent */
  CLARIFY_ERROR_UNSAFE_PATTERN, /* a regex that could backtrack catastrophically */
  CLARIFY_ERROR_GONE,           /* the agent no longer has the request (answered elsewhere) */
  CLARIFY_ERROR_REJECTED,       /* the agent refused our answer as malformed */
  CLARIFY_ERROR_AUTH,           /* missing or wrong credentials */
  CLARIFY_ERROR_PROTOCOL,       /* unexpected status, content type or shape */
  CLARIFY_ERROR_TRANSIENT,      /* network trouble: worth trying again */
  CLARIFY_ERROR_AGENT_RESTARTED, /* the agent restarted (or its workspace went) and forgot the request */
  CLARIFY_ERROR_BUSY,           /* Clarify holds as many requests as it keeps: ask again later */
  CLARIFY_ERROR_UNREACHABLE,    /* the agent's port refused the connection: down or restarting */
} ClarifyError;

GQuark   clarify_error_quark        (void);
gboolean clarify_error_is_transient (const GError *error);
/* A refused connection: CLARIFY_ERROR_UNREACHABLE, or GIO's own before
 * clarify_http_read_finish() maps it. */
gboolean clarify_error_is_unreachable (const GError *error);

G_END_DECLS
