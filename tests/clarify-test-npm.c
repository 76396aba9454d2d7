/* clarify-test-npm.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "clarify-test-npm.h"

static gboolean
is_network_failure (const char *npm_output)
{
  static const char *markers[] = {
    "ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH",
    "EHOSTUNREACH", "network", "request to https://", "getaddrinfo",
  };

  for (guint i = 0; i < G_N_ELEMENTS (markers); i++)
    if (strstr (npm_output, markers[i]) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
installed_version_matches (const char *cache,
                           const char *package,
                           const char *version)
{
  g_autofree char *path = g_build_filename (cache, "node_modules", package, "package.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_file (parser, path, NULL) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return FALSE;
  return g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (json_parser_get_root (parser)),
                                                                "version", NULL),
                    version) == 0;
}

char *
clarify_test_npm_install (const char *dir_name,
                          const char *package,
                          const char *version)
{
  g_autofree char *cache = g_test_build_filename (G_TEST_BUILT, dir_name, NULL);
  g_autofree char *npm_cache = g_build_filename (cache, "npm-cache", NULL);
  g_autofree char *spec = g_strdup_printf ("%s@%s", package, version);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  const char *argv[] = { "npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", cache, spec, NULL };
  int status = 0;

  if (installed_version_matches (cache, package, version))
    return g_steal_pointer (&cache);

  g_assert_cmpint (g_mkdir_with_parents (cache, 0755), ==, 0);
  env = g_environ_setenv (env, "npm_config_cache", npm_cache, TRUE);
  env = g_environ_setenv (env, "npm_config_update_notifier", "false", TRUE);
  g_test_message ("Installing %s into %s", spec, cache);
  g_spawn_sync (cache, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);

  if (!g_spawn_check_wait_status (status, NULL))
    {
      if (is_network_failure (err))
        {
          g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
          g_autoptr(GString) why = g_string_new (NULL);

          /* TAP keeps one line: npm's error lines, joined. */
          for (guint i = 0; lines[i] != NULL; i++)
            if (g_str_has_prefix (lines[i], "npm error") || g_str_has_prefix (lines[i], "npm ERR!"))
              g_string_append_printf (why, "%s%s", why->len > 0 ? " | " : "", lines[i]);
          g_test_skip_printf ("npm cannot reach the registry: %s", why->len > 0 ? why->str : err);
          return NULL;
        }
      g_error ("npm install %s failed:\n%s\n%s", spec, out, err);
    }

  g_assert_true (installed_version_matches (cache, package, version));
  return g_steal_pointer (&cache);
}
