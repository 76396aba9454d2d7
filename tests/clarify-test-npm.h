/* clarify-test-npm.h: a pinned npm package for the tests that run real
 * agents and clients (OpenCode, the MCP TypeScript SDK)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs @package@@version into the build dir's folder @dir_name, unless
 * that version is there already from an earlier run, and returns the folder
 * (its node_modules holds the package). NULL, with the test skipped, when
 * npm cannot reach the registry; any other failure fails the test. */
char *clarify_test_npm_install (const char *dir_name,
                                const char *package,
                                const char *version);

G_END_DECLS
