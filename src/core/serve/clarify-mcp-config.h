/* clarify-mcp-config.h: the MCP endpoint's settings for the command line
 *
 * [mcp] enabled= and port= in g_get_user_config_dir()/clarify/mcp.ini: what
 * `--mcp-info` and the setup commands read, and what the application
 * writes when its preferences change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CLARIFY_MCP_DEFAULT_PORT 7111

/* The configured port, else CLARIFY_MCP_DEFAULT_PORT. */
guint    clarify_mcp_config_get_port    (void);
/* TRUE unless set to false. */
gboolean clarify_mcp_config_get_enabled (void);
/* Writes both; whatever else the file holds stays. */
gboolean clarify_mcp_config_save        (gboolean   enabled,
                                         guint      port,
                                         GError   **error);

G_END_DECLS
