/* clarify-test-npm.h: a pinned npm package for the tests that run a real agent
 *
 * Installed once into a folder of the build dir (with npm's own cache beside
 * it) and reused by later runs while the installed version matches.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs @name@@version into G_TEST_BUILT/@dir_name unless it is there
 * already, passing @extra_args (NULL-terminated, or NULL) to npm. Returns
 * that folder (its node_modules holds the package), or NULL after
 * g_test_skip() when npm cannot reach the registry; any other npm failure
 * fails the test. */
char *clarify_test_npm_install (const char         *dir_name,
                                const char         *name,
                                const char         *version,
                                const char * const *extra_args);

G_END_DECLS
