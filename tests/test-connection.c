/* test-connection.c: connection specs and the keyfile store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "clarify-connection-store.h"
#include "clarify-error.h"

#include "clarify-test-log.h"

static void
test_spec_good (void)
{
  static const struct {
    const char *spec;
    const char *name;
    const char *kind;
    const char *url;
  } cases[] = {
    { "work=opencode:http://127.0.0.1:4096", "work", "opencode", "http://127.0.0.1:4096" },
    { "demo.local_1=json-sse:https://example.org/events?x=1", "demo.local_1", "json-sse", "https://example.org/events?x=1" },
    { "ihub=ihub:HTTP://localhost:3000/api/apps/chat", "ihub", "ihub", "HTTP://localhost:3000/api/apps/chat" },
    /* Only the first '=' splits: URLs may carry their own. */
    { "a=b:http://h/?k=v", "a", "b", "http://h/?k=v" },
    { "v6=opencode:http://[::1]:4096", "v6", "opencode", "http://[::1]:4096" },
    { "idn=opencode:https://bücher.example/x", "idn", "opencode", "https://bücher.example/x" },
    { "esc=opencode:http://h/a%20b", "esc", "opencode", "http://h/a%20b" },
    /* A secret is in a parameter's name, not in its value. */
    { "dir=opencode:http://h:4096/?directory=/home/me/tokens", "dir", "opencode", "http://h:4096/?directory=/home/me/tokens" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyConnection) connection = clarify_connection_new_from_spec (cases[i].spec, &error);
      g_autofree char *spec = NULL;

      g_assert_no_error (error);
      g_assert_cmpstr (clarify_connection_get_name (connection), ==, cases[i].name);
      g_assert_cmpstr (clarify_connection_get_kind (connection), ==, cases[i].kind);
      g_assert_cmpstr (clarify_connection_get_url (connection), ==, cases[i].url);
      spec = clarify_connection_to_spec (connection);
      g_assert_cmpstr (spec, ==, cases[i].spec);
    }
}

static void
test_spec_bad (void)
{
  static const struct {
    const char *spec;
    const char *message;
  } cases[] = {
    { "work", "“work” is not of the form NAME=KIND:URL." },
    { "=opencode:http://h", "The connection in “=opencode:http://h” has no name." },
    { "my work=opencode:http://h", "“my work” is not a valid connection name. Use letters, digits, “-”, “_” and “.”." },
    { "wörk=opencode:http://h", "“wörk” is not a valid connection name. Use letters, digits, “-”, “_” and “.”." },
    { "work=http://127.0.0.1:4096", "The connection “work” has no kind. Write it as NAME=KIND:URL." },
    { "work=:http://h", "The connection “work” has no kind. Write it as NAME=KIND:URL." },
    { "work=", "The connection “work” has no kind. Write it as NAME=KIND:URL." },
    { "work=opencode", "The connection “work” has no address. Write it as NAME=KIND:URL." },
    { "work=opencode:ftp://h/x", "“ftp://h/x” is not an http:// or https:// address." },
    { "work=opencode:http://", "“http://” is not an http:// or https:// address." },
    { "work=opencode:localhost:4096", "“localhost:4096” is not an http:// or https:// address." },
    { "work=opencode:", "“” is not an http:// or https:// address." },
    { "work=opencode:http://127.0.0 .1:4096/a b", "“http://127.0.0 .1:4096/a b” has a space in it, which an address cannot have." },
    { "work=opencode:http://h/\tx", "“http://h/\tx” has a space in it, which an address cannot have." },
    { "work=opencode:http://127.0.0.1:0/", "“http://127.0.0.1:0/” has port 0, which cannot be reached. A port is a number from 1 to 65535." },
    { "work=opencode:http://exa<mple.com/", "“exa<mple.com” is not a valid host name." },
    { "work=opencode:http://a%20b/", "“a b” is not a valid host name." },
    { "work=opencode:http://opencode:hunter2@127.0.0.1:4096",
      "Leave the password or token out of the address and store it with “clarify set-password work”." },
    { "work=clarify:http://127.0.0.1:8765/events?token=abc",
      "Leave the password or token out of the address and store it with “clarify set-password work”." },
    { "work=clarify:http://127.0.0.1:8765/events?x=1&Access_Token=abc",
      "Leave the password or token out of the address and store it with “clarify set-password work”." },
    { "work=clarify:http://127.0.0.1:8765/events?api_key=abc",
      "Leave the password or token out of the address and store it with “clarify set-password work”." },
    { "work=clarify:http://127.0.0.1:8765/events?Authorization=Basic%20eDp5",
      "Leave the password or token out of the address and store it with “clarify set-password work”." },
    { "work=clarify:http://127.0.0.1:8765/events?access_key=1&credential=2",
      "Leave the password or token out of the address and store it with “clarify set-password work”." },
    { "work=clarify:http://127.0.0.1:8765/events?sig=abc",
      "Leave the password or token out of the address and store it with “clarify set-password work”." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(ClarifyConnection) connection = NULL;

      g_test_message ("%s", cases[i].spec);
      connection = clarify_connection_new_from_spec (cases[i].spec, &error);
      g_assert_null (connection);
      g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }

  /* Meant as an address: GLib's reason follows (its words vary by version). */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(ClarifyConnection) connection = clarify_connection_new_from_spec ("work=opencode:http://127.0.0.1:99999/", &error);

    g_assert_null (connection);
    g_assert_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID);
    g_assert_true (g_str_has_prefix (error->message, "“http://127.0.0.1:99999/” is not a valid address: "));
    g_assert_nonnull (strstr (error->message, "99999"));
  }
}

static void
test_options (void)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("w", "opencode", "http://h");
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) none = NULL;
  const char *expected[] = { "directory", "stall-seconds", "username", NULL };

  none = clarify_connection_list_options (connection);
  g_assert_nonnull (none);
  g_assert_null (none[0]);

  clarify_connection_set_option (connection, "username", "opencode");
  clarify_connection_set_option (connection, "stall-seconds", "30");
  clarify_connection_set_option (connection, "directory", "/tmp/a");
  clarify_connection_set_option (connection, "gone", "x");
  clarify_connection_set_option (connection, "gone", NULL);
  g_assert_null (clarify_connection_get_option (connection, "gone"));
  g_assert_cmpstr (clarify_connection_get_option (connection, "username"), ==, "opencode");

  keys = clarify_connection_list_options (connection);
  g_assert_cmpstrv (keys, expected);
}

static char *
default_store_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "clarify", "connections.ini", NULL);
}

static void
test_store_round_trip (void)
{
  g_autoptr(ClarifyConnectionStore) store = clarify_connection_store_new (NULL);
  g_autoptr(ClarifyConnectionStore) again = clarify_connection_store_new (NULL);
  g_autoptr(ClarifyConnection) work = clarify_connection_new ("work", "opencode", "http://127.0.0.1:4096");
  g_autoptr(ClarifyConnection) demo = clarify_connection_new ("demo", "json", "http://127.0.0.1:1234/events");
  g_autoptr(ClarifyConnection) replacement = clarify_connection_new ("demo", "json", "http://127.0.0.1:5678/events");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = default_store_path ();
  g_autofree char *contents = NULL;
  GListModel *model;
  ClarifyConnection *loaded;
  GStatBuf st;

  /* A first start has no file: that is not an error. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (clarify_connection_store_load (store, &error));
  g_assert_no_error (error);
  model = clarify_connection_store_get_connections (store);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_true (g_list_model_get_item_type (model) == CLARIFY_TYPE_CONNECTION);

  clarify_connection_set_option (work, "username", "opencode");
  clarify_connection_set_option (work, "directory", "/home/me/src; with [odd] = chars\nand a newline");
  clarify_connection_set_option (work, "secret-password", "hunter2");
  clarify_connection_set_option (work, "Secret", "hunter3");
  clarify_connection_store_add (store, work);
  clarify_connection_store_add (store, demo);
  clarify_connection_store_add (store, replacement);

  /* Sorted by name, and "demo" was replaced, not added twice. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_true (clarify_connection_store_lookup (store, "demo") == replacement);
  g_assert_true (clarify_connection_store_lookup (store, "work") == work);
  g_assert_null (clarify_connection_store_lookup (store, "nope"));
  {
    g_autoptr(ClarifyConnection) first = g_list_model_get_item (model, 0);

    g_assert_cmpstr (clarify_connection_get_name (first), ==, "demo");
  }

  g_assert_true (clarify_connection_store_save (store, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_null (strstr (contents, "hunter"));
  g_assert_null (strstr (contents, "ecret"));
  g_assert_nonnull (strstr (contents, "[connection work]\nkind=opencode\nurl=http://127.0.0.1:4096\n"));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  g_assert_true (clarify_connection_store_load (again, &error));
  g_assert_no_error (error);
  model = clarify_connection_store_get_connections (again);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);

  loaded = clarify_connection_store_lookup (again, "work");
  g_assert_nonnull (loaded);
  g_assert_cmpstr (clarify_connection_get_kind (loaded), ==, "opencode");
  g_assert_cmpstr (clarify_connection_get_url (loaded), ==, "http://127.0.0.1:4096");
  g_assert_cmpstr (clarify_connection_get_option (loaded, "username"), ==, "opencode");
  g_assert_cmpstr (clarify_connection_get_option (loaded, "directory"), ==, "/home/me/src; with [odd] = chars\nand a newline");
  g_assert_null (clarify_connection_get_option (loaded, "secret-password"));
  loaded = clarify_connection_store_lookup (again, "demo");
  g_assert_cmpstr (clarify_connection_get_url (loaded), ==, "http://127.0.0.1:5678/events");

  /* Remove, save, load: gone for good. */
  g_assert_true (clarify_connection_store_remove (again, "demo"));
  g_assert_false (clarify_connection_store_remove (again, "demo"));
  g_assert_true (clarify_connection_store_save (again, &error));
  g_assert_no_error (error);
  g_assert_true (clarify_connection_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_connection_store_get_connections (store)), ==, 1);
  g_assert_null (clarify_connection_store_lookup (store, "demo"));
}

static void
test_store_broken (void)
{
  static const struct {
    const char *contents;
    const char *message_suffix;
  } cases[] = {
    { "[connection work\nkind=opencode\n", NULL },
    { "[connection work]\nkind=opencode\n", "group [connection work]: Key file does not have key “url” in group “connection work”" },
    { "[connection work]\nkind=opencode\nurl=ftp://h\n", "group [connection work]: “ftp://h” is not an http:// or https:// address." },
    { "[connection my work]\nkind=opencode\nurl=http://h\n", "group [connection my work]: “my work” is not a valid connection name. Use letters, digits, “-”, “_” and “.”." },
  };
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "custom", NULL);
  g_autofree char *path = g_build_filename (dir, "c.ini", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ClarifyConnectionStore) store = clarify_connection_store_new (path);
      g_autoptr(ClarifyConnection) kept = clarify_connection_new ("kept", "json", "http://h");
      g_autoptr(GError) error = NULL;
      g_autofree char *prefix = g_strdup_printf ("Could not read the connections from “%s”", path);

      g_assert_true (g_file_set_contents (path, cases[i].contents, -1, NULL));
      clarify_connection_store_add (store, kept);

      g_assert_false (clarify_connection_store_load (store, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, prefix));
      if (cases[i].message_suffix != NULL)
        g_assert_true (g_str_has_suffix (error->message, cases[i].message_suffix));

      /* A failed load leaves what was there. */
      g_assert_true (clarify_connection_store_lookup (store, "kept") == kept);
    }

  /* Groups that are not connections are left alone. */
  {
    g_autoptr(ClarifyConnectionStore) store = clarify_connection_store_new (path);
    g_autoptr(GError) error = NULL;

    g_assert_true (g_file_set_contents (path, "# hand-written\n[future]\nx=1\n[connection a]\nkind=json\nurl=https://h/\nname[de]=x\n", -1, NULL));
    g_assert_true (clarify_connection_store_load (store, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (clarify_connection_store_get_connections (store)), ==, 1);
    g_assert_null (clarify_connection_get_option (clarify_connection_store_lookup (store, "a"), "name[de]"));
  }
}

static void
test_store_save_error (void)
{
  g_autofree char *blocker = g_build_filename (g_get_user_config_dir (), "blocker", NULL);
  g_autofree char *path = g_build_filename (blocker, "c.ini", NULL);
  g_autoptr(ClarifyConnectionStore) store = clarify_connection_store_new (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = g_strdup_printf ("Could not save the connections to “%s”: ", path);

  /* A file where the directory should be. */
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_config_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (blocker, "", -1, NULL));

  g_assert_false (clarify_connection_store_save (store, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, prefix));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LANGUAGE", "en", TRUE);
  setlocale (LC_ALL, "");
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/connection/spec/good", test_spec_good);
  g_test_add_func ("/connection/spec/bad", test_spec_bad);
  g_test_add_func ("/connection/options", test_options);
  g_test_add_func ("/connection/store/round-trip", test_store_round_trip);
  g_test_add_func ("/connection/store/broken", test_store_broken);
  g_test_add_func ("/connection/store/save-error", test_store_save_error);

  return g_test_run ();
}
