/* test-setup.c: `clarify setup claude-code`, Clarify's hooks merged into
 * Claude Code's settings.json and taken out again
 *
 * On files in a temporary folder: a fresh file, a file with other hooks and
 * keys (kept, in their order), running twice, the backup, --remove giving
 * back the original structure, files of the wrong shape refused untouched,
 * a symbolic link followed, and the real clarify binary run once per path
 * through its command line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "clarify-claude-settings.h"
#include "clarify-json.h"
#include "clarify-json-config.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define COMMAND "/usr/bin/clarify hook claude-code"

/* What a fresh file holds after setup (formatting aside). */
#define OURS_JSON                                                                                    \
  "\"PermissionRequest\":[{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\","                       \
  "\"command\":\"/usr/bin/clarify hook claude-code\",\"timeout\":600}]}],"                           \
  "\"Elicitation\":[{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\","                             \
  "\"command\":\"/usr/bin/clarify hook claude-code\",\"timeout\":600}]}],"                           \
  "\"Notification\":[{\"matcher\":\"idle_prompt\",\"hooks\":[{\"type\":\"command\","                 \
  "\"command\":\"/usr/bin/clarify hook claude-code\",\"timeout\":600}]}]"

/* A user's file: keys before and after "hooks", other events, other
 * matcher groups of our events, and a float json-glib keeps as it is. */
static const char user_settings[] =
  "{\n"
  "  \"model\": \"opus\",\n"
  "  \"permissions\": {\"allow\": [\"Bash(git status)\"], \"defaultMode\": \"default\"},\n"
  "  \"hooks\": {\n"
  "    \"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"guard.sh\"}]}],\n"
  "    \"Notification\": [{\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"notify-send Claude\"}]}],\n"
  "    \"PermissionRequest\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"http\", \"url\": \"http://127.0.0.1:9/\"}]}],\n"
  "    \"Stop\": \"not ours to judge\"\n"
  "  },\n"
  "  \"env\": {\"MCP_TOOL_TIMEOUT\": \"600000\"},\n"
  "  \"ratio\": 0.5\n"
  "}\n";

/* user_settings after setup: ours appended to each event's list, Elicitation
 * (new) at the end of "hooks"; everything else in place. */
static const char user_settings_merged[] =
  "{\"model\":\"opus\","
  "\"permissions\":{\"allow\":[\"Bash(git status)\"],\"defaultMode\":\"default\"},"
  "\"hooks\":{"
  "\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"guard.sh\"}]}],"
  "\"Notification\":[{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\",\"command\":\"notify-send Claude\"}]},"
  "{\"matcher\":\"idle_prompt\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\",\"timeout\":600}]}],"
  "\"PermissionRequest\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"http\",\"url\":\"http://127.0.0.1:9/\"}]},"
  "{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\",\"timeout\":600}]}],"
  "\"Stop\":\"not ours to judge\","
  "\"Elicitation\":[{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\",\"timeout\":600}]}]},"
  "\"env\":{\"MCP_TOOL_TIMEOUT\":\"600000\"},"
  "\"ratio\":0.5}";

typedef struct
{
  char *dir;
  char *path;  /* dir/.claude/settings.json, not there yet */
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("clarify-test-setup-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  fixture->path = clarify_claude_settings_project_path (fixture->dir);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  clarify_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static void
write_file (const char *path,
            const char *contents)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

/* @json in one form (compact, members in their order), to compare with. */
static char *
normalized (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = clarify_json_parse (json, -1, &error);

  g_assert_no_error (error);

  return clarify_json_to_string (node);
}

static void
assert_json_file (const char *path,
                  const char *expected)
{
  g_autofree char *contents = read_file (path);
  g_autofree char *got = normalized (contents);
  g_autofree char *want = normalized (expected);

  g_assert_cmpstr (got, ==, want);
  /* Written by json-glib's pretty printer, ending in a newline. */
  g_assert_true (g_str_equal (want, "{}") || g_str_has_prefix (contents, "{\n  \""));
  g_assert_true (g_str_has_suffix (contents, "}\n"));
}

static void
assert_changes (const ClarifyClaudeSetupResult *result,
                ClarifyClaudeChange             permission,
                ClarifyClaudeChange             elicitation,
                ClarifyClaudeChange             notification)
{
  g_assert_cmpint (result->changes[CLARIFY_CLAUDE_HOOK_PERMISSION_REQUEST], ==, permission);
  g_assert_cmpint (result->changes[CLARIFY_CLAUDE_HOOK_ELICITATION], ==, elicitation);
  g_assert_cmpint (result->changes[CLARIFY_CLAUDE_HOOK_IDLE_NOTIFICATION], ==, notification);
}

static void
update (const char               *path,
        const char               *command,
        ClarifyClaudeSetupResult *result)
{
  g_autoptr(GError) error = NULL;

  clarify_claude_setup_result_clear (result);
  g_assert_true (clarify_claude_settings_update (path, command, result, &error));
  g_assert_no_error (error);
}

/* user_settings written and set up; returns what the file then holds. */
static char *
set_up_user_settings (Fixture                  *fixture,
                      ClarifyClaudeSetupResult *result)
{
  write_file (fixture->path, user_settings);
  update (fixture->path, COMMAND, result);

  return read_file (fixture->path);
}

static void
test_paths (void)
{
  g_autofree char *home_path = g_build_filename (g_get_home_dir (), ".claude", "settings.json", NULL);
  g_autofree char *path = NULL;

  g_unsetenv ("CLAUDE_CONFIG_DIR");
  path = clarify_claude_settings_user_path ();
  g_assert_cmpstr (path, ==, home_path);
  g_free (path);

  g_setenv ("CLAUDE_CONFIG_DIR", "/srv/claude-work", TRUE);
  path = clarify_claude_settings_user_path ();
  g_assert_cmpstr (path, ==, "/srv/claude-work/settings.json");
  g_free (path);
  g_unsetenv ("CLAUDE_CONFIG_DIR");

  path = clarify_claude_settings_project_path ("/home/u/proj/");
  g_assert_cmpstr (path, ==, "/home/u/proj/.claude/settings.json");
}

static void
test_command (void)
{
  g_autofree char *plain = clarify_claude_hook_command ("/usr/local/bin/clarify", FALSE);
  g_autofree char *spaced = clarify_claude_hook_command ("/opt/my apps/clarify", FALSE);
  g_autofree char *flatpak = clarify_claude_hook_command (NULL, TRUE);

  g_assert_cmpstr (plain, ==, "/usr/local/bin/clarify hook claude-code");
  g_assert_cmpstr (spaced, ==, "'/opt/my apps/clarify' hook claude-code");
  g_assert_cmpstr (flatpak, ==, "flatpak run --command=clarify io.github.clarify.Clarify hook claude-code");

  g_assert_true (clarify_claude_hook_command_is_ours (plain));
  g_assert_true (clarify_claude_hook_command_is_ours (spaced));
  g_assert_true (clarify_claude_hook_command_is_ours (flatpak));
  g_assert_true (clarify_claude_hook_command_is_ours ("clarify hook claude-code"));
  g_assert_true (clarify_claude_hook_command_is_ours ("flatpak run io.github.clarify.Clarify.Devel hook claude-code"));

  g_assert_false (clarify_claude_hook_command_is_ours ("/usr/bin/notclarify hook claude-code"));
  g_assert_false (clarify_claude_hook_command_is_ours ("clarify hook opencode"));
  g_assert_false (clarify_claude_hook_command_is_ours ("clarify hook claude-code --verbose"));
  g_assert_false (clarify_claude_hook_command_is_ours ("flatpak run org.example.Other hook claude-code"));
  g_assert_false (clarify_claude_hook_command_is_ours ("clarify 'hook claude-code"));
  g_assert_false (clarify_claude_hook_command_is_ours (""));
  g_assert_false (clarify_claude_hook_command_is_ours (NULL));
}

static void
test_fresh (Fixture       *fixture,
            gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autofree char *backup = g_strconcat (fixture->path, ".clarify-backup", NULL);

  update (fixture->path, COMMAND, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_ADDED, CLARIFY_CLAUDE_CHANGE_ADDED, CLARIFY_CLAUDE_CHANGE_ADDED);
  g_assert_true (result.written);
  g_assert_null (result.backup_path);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  assert_json_file (fixture->path, "{\"hooks\":{" OURS_JSON "}}");
}

/* An empty file (after `touch`) is empty settings, and has a backup. */
static void
test_empty_file (Fixture       *fixture,
                 gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autofree char *backup = NULL;

  write_file (fixture->path, "\n");
  update (fixture->path, COMMAND, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_ADDED, CLARIFY_CLAUDE_CHANGE_ADDED, CLARIFY_CLAUDE_CHANGE_ADDED);
  assert_json_file (fixture->path, "{\"hooks\":{" OURS_JSON "}}");
  backup = read_file (result.backup_path);
  g_assert_cmpstr (backup, ==, "\n");
}

static void
test_merge_and_backup (Fixture       *fixture,
                       gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autofree char *backup = NULL;
  g_autofree char *expected_backup = g_strconcat (fixture->path, ".clarify-backup", NULL);
  GStatBuf st;

  write_file (fixture->path, user_settings);
  g_assert_cmpint (g_chmod (fixture->path, 0640), ==, 0);

  update (fixture->path, COMMAND, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_ADDED, CLARIFY_CLAUDE_CHANGE_ADDED, CLARIFY_CLAUDE_CHANGE_ADDED);
  assert_json_file (fixture->path, user_settings_merged);

  /* The previous file byte for byte, and the mode kept on both. */
  g_assert_cmpstr (result.backup_path, ==, expected_backup);
  backup = read_file (result.backup_path);
  g_assert_cmpstr (backup, ==, user_settings);
  g_assert_cmpint (g_stat (fixture->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);
  g_assert_cmpint (g_stat (result.backup_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);
}

static void
test_idempotent (Fixture       *fixture,
                 gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autofree char *backup_path = g_strconcat (fixture->path, ".clarify-backup", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *backup = NULL;

  first = set_up_user_settings (fixture, &result);

  update (fixture->path, COMMAND, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_NONE, CLARIFY_CLAUDE_CHANGE_NONE, CLARIFY_CLAUDE_CHANGE_NONE);
  g_assert_false (result.written);
  g_assert_null (result.backup_path);
  second = read_file (fixture->path);
  g_assert_cmpstr (second, ==, first);
  /* The backup still holds the file before the one change. */
  backup = read_file (backup_path);
  g_assert_cmpstr (backup, ==, user_settings);
}

/* Hooks of ours with another clarify's path are pointed at this one, in
 * place and with the user's timeout; a duplicate of ours goes. */
static void
test_update_in_place (Fixture       *fixture,
                      gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };

  write_file (fixture->path,
              "{\"hooks\":{\"PermissionRequest\":["
              "{\"hooks\":[{\"type\":\"command\",\"command\":\"/opt/old/clarify hook claude-code\",\"timeout\":900},"
              "{\"type\":\"command\",\"command\":\"echo mine\"}]},"
              "{\"matcher\":\"*\",\"hooks\":[{\"type\":\"command\",\"command\":\"clarify hook claude-code\"}]}]}}");

  update (fixture->path, COMMAND, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_UPDATED, CLARIFY_CLAUDE_CHANGE_ADDED, CLARIFY_CLAUDE_CHANGE_ADDED);
  assert_json_file (fixture->path,
                    "{\"hooks\":{\"PermissionRequest\":["
                    "{\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\",\"timeout\":900},"
                    "{\"type\":\"command\",\"command\":\"echo mine\"}]}],"
                    "\"Elicitation\":[{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\",\"timeout\":600}]}],"
                    "\"Notification\":[{\"matcher\":\"idle_prompt\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\",\"timeout\":600}]}]"
                    "}}");
}

static void
test_remove_restores (Fixture       *fixture,
                      gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autofree char *added = NULL;
  g_autofree char *backup = NULL;
  g_autofree char *backup_path = NULL;

  added = set_up_user_settings (fixture, &result);

  update (fixture->path, NULL, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_REMOVED, CLARIFY_CLAUDE_CHANGE_REMOVED, CLARIFY_CLAUDE_CHANGE_REMOVED);
  g_assert_true (result.written);
  assert_json_file (fixture->path, user_settings);
  /* The file was as Clarify wrote it: the backup keeps the user's own
   * bytes from before the setup rather than Clarify's. */
  g_assert_null (result.backup_path);
  backup_path = g_strconcat (fixture->path, ".clarify-backup", NULL);
  backup = read_file (backup_path);
  g_assert_cmpstr (backup, ==, user_settings);
  g_assert_cmpstr (added, !=, user_settings);

  /* Removing again finds nothing and writes nothing. */
  update (fixture->path, NULL, &result);
  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_NONE, CLARIFY_CLAUDE_CHANGE_NONE, CLARIFY_CLAUDE_CHANGE_NONE);
  g_assert_false (result.written);
}

/* A fresh file set up and removed leaves {}; a group shared with the
 * user's command keeps that command; ours under another event or matcher
 * (the user's own doing) is left alone. */
static void
test_remove_only_ours (Fixture       *fixture,
                       gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };

  update (fixture->path, COMMAND, &result);
  update (fixture->path, NULL, &result);
  assert_json_file (fixture->path, "{}");

  write_file (fixture->path,
              "{\"hooks\":{\"PermissionRequest\":[{\"matcher\":\"\",\"hooks\":["
              "{\"type\":\"command\",\"command\":\"logger asked\"},"
              "{\"type\":\"command\",\"command\":\"" COMMAND "\",\"timeout\":600}]},"
              "{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\"}]}],"
              "\"PreToolUse\":[{\"matcher\":\"AskUserQuestion\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\"}]}]}}");
  update (fixture->path, NULL, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_REMOVED, CLARIFY_CLAUDE_CHANGE_NONE, CLARIFY_CLAUDE_CHANGE_NONE);
  assert_json_file (fixture->path,
                    "{\"hooks\":{\"PermissionRequest\":[{\"matcher\":\"\",\"hooks\":["
                    "{\"type\":\"command\",\"command\":\"logger asked\"}]},"
                    "{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\"}]}],"
                    "\"PreToolUse\":[{\"matcher\":\"AskUserQuestion\",\"hooks\":[{\"type\":\"command\",\"command\":\"" COMMAND "\"}]}]}}");
}

static void
test_remove_missing_file (Fixture       *fixture,
                          gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autofree char *claude_dir = g_path_get_dirname (fixture->path);

  update (fixture->path, NULL, &result);

  assert_changes (&result, CLARIFY_CLAUDE_CHANGE_NONE, CLARIFY_CLAUDE_CHANGE_NONE, CLARIFY_CLAUDE_CHANGE_NONE);
  g_assert_false (result.written);
  g_assert_false (g_file_test (claude_dir, G_FILE_TEST_EXISTS));
}

static void
test_refused_untouched (Fixture       *fixture,
                        gconstpointer  data)
{
  const char *refused[] = {
    "{\"hooks\": {",
    "{\"a\": 1 /* a comment */}",
    "{\"a\": 1}\n// a comment\n",
    "{'a': 1}",
    "{\"a\": 0x10}",
    "{\"a\": 01}",
    "{\"a\": .5}",
    "{\"a\": 1.}",
    "{\"a\": \"\\q\"}",
    "{\"a\": \"\\u12\"}",
    "{\"a\": \"tab\there\"}",
    "{\"a\": 1,}",
    "{\"a\": 1} {}",
    "{\"a\": \"\xff\"}",
    "[]",
    "\"settings\"",
    "{\"hooks\": []}",
    "{\"hooks\": null}",
    "{\"hooks\": {\"PermissionRequest\": {\"matcher\": \"\"}}}",
    "{\"hooks\": {\"Notification\": [\"notify-send\"]}}",
    "{\"hooks\": {\"Notification\": [{\"matcher\": \"idle_prompt\"}]}}",
    "{\"hooks\": {\"Elicitation\": [{\"matcher\": 1, \"hooks\": []}]}}",
    "{\"hooks\": {\"Elicitation\": [{\"hooks\": [\"clarify hook claude-code\"]}]}}",
    "{\"hooks\": {\"PermissionRequest\": [{\"hooks\": [{\"type\": \"command\", \"command\": [\"clarify\"]}]}]}}",
    /* Numbers json-glib would write back changed: "inf.0", wrapped, 0. */
    "{\"x\": 1e999}",
    "{\"x\": -1e999}",
    "{\"x\": 12345678901234567890}",
    "{\"x\": 9223372036854775808}",
    "{\"x\": 1e-400}",
  };
  g_autofree char *backup = g_strconcat (fixture->path, ".clarify-backup", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      for (guint remove = 0; remove < 2; remove++)
        {
          g_auto(ClarifyClaudeSetupResult) result = { 0 };
          g_autoptr(GError) error = NULL;
          g_autofree char *after = NULL;

          write_file (fixture->path, refused[i]);
          g_assert_false (clarify_claude_settings_update (fixture->path, remove ? NULL : COMMAND, &result, &error));
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
          /* The message names the file. */
          g_assert_nonnull (strstr (error->message, fixture->path));
          g_assert_false (result.written);

          after = read_file (fixture->path);
          g_assert_cmpstr (after, ==, refused[i]);
          g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
        }
    }
}

/* Strict JSON in all its forms is taken; json-glib's leniencies are not
 * (above), and the message says where. */
static void
test_strict_json (Fixture       *fixture,
                  gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autoptr(GError) error = NULL;
  const char *text =
    "{\"n\": [-0.5e+3, 0, 12, 1E2, true, false, null, {}, []],\r\n"
    " \"s\": \"\\u00e9\\\"\\\\\\/\\b\\f\\n\\r\\t ü\"\t}";

  write_file (fixture->path, text);
  update (fixture->path, COMMAND, &result);
  assert_json_file (fixture->path,
                    "{\"n\":[-500.0,0,12,100.0,true,false,null,{},[]],\"s\":\"\\u00e9\\\"\\\\/\\b\\f\\n\\r\\t ü\","
                    "\"hooks\":{" OURS_JSON "}}");

  write_file (fixture->path, "{\n  \"a\": 1, /* no */\n}");
  g_assert_false (clarify_claude_settings_update (fixture->path, COMMAND, &result, &error));
  g_assert_nonnull (strstr (error->message, "is not valid JSON (line 2, column 11)"));
  g_clear_error (&error);

  /* The limits of what is written back unchanged. */
  write_file (fixture->path, "{\"n\": [-9223372036854775808, 9223372036854775807, 0e-400, 5e-324]}");
  update (fixture->path, COMMAND, &result);
  assert_json_file (fixture->path,
                    "{\"n\":[-9223372036854775808,9223372036854775807,0.0,5e-324],\"hooks\":{" OURS_JSON "}}");

  write_file (fixture->path, "{\"a\": [1,\n  1e999]}");
  g_assert_false (clarify_claude_settings_update (fixture->path, COMMAND, &result, &error));
  g_assert_nonnull (strstr (error->message, "cannot be rewritten without changing a value in it (line 2, column 3: a number too large or too small"));
}

/* A NUL byte is no blank: the file was taken for an empty one, and the
 * settings after it were lost. */
static void
test_nul_refused (Fixture       *fixture,
                  gconstpointer  data)
{
  static const char text[] = "\n\0{\"model\": \"opus\"}";
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (fixture->path);
  g_autofree char *after = NULL;
  gsize length = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (fixture->path, text, sizeof text - 1, NULL));
  g_assert_false (clarify_claude_settings_update (fixture->path, COMMAND, &result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "a NUL byte"));
  g_assert_true (g_file_get_contents (fixture->path, &after, &length, NULL));
  g_assert_cmpmem (after, length, text, sizeof text - 1);
}

/* Only a regular file is changed: a FIFO blocked the read for good, and a
 * link to a device or FIFO had it replaced by a file. */
static void
test_not_regular_refused (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *dir = g_path_get_dirname (fixture->path);
  g_autofree char *fifo = g_build_filename (fixture->dir, "a-fifo", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  for (guint linked = 0; linked < 2; linked++)
    {
      g_auto(ClarifyClaudeSetupResult) result = { 0 };
      g_autoptr(GError) error = NULL;
      GStatBuf st;

      if (linked)
        g_assert_cmpint (symlink (fifo, fixture->path), ==, 0);
      else
        g_assert_cmpint (mkfifo (fixture->path, 0600), ==, 0);

      g_assert_false (clarify_claude_settings_update (fixture->path, COMMAND, &result, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
      g_assert_nonnull (strstr (error->message, "is not a regular file"));
      g_assert_cmpint (g_stat (fifo, &st), ==, 0);
      g_assert_true (S_ISFIFO (st.st_mode));
      g_assert_cmpint (g_unlink (fixture->path), ==, 0);
    }
}

static gboolean
add_member (JsonNode  *root,
            gboolean  *changed,
            gpointer   user_data,
            GError   **error)
{
  json_object_set_string_member (json_node_get_object (root), "token", user_data);
  *changed = TRUE;

  return TRUE;
}

/* A file that gets a secret (the MCP endpoint's token) and its backup are
 * the user's alone, new or not; created 0644 before. */
static void
test_secret_file_mode (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *fresh = g_build_filename (fixture->dir, "new", "opencode.json", NULL);
  g_autofree char *shared = g_build_filename (fixture->dir, "opencode.json", NULL);
  g_autofree char *backup = g_strconcat (shared, ".clarify-backup", NULL);
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_assert_true (clarify_json_config_update (fresh, TRUE, TRUE, add_member, (gpointer) "t1", NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (fresh, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  write_file (shared, "{\"model\": \"x\"}");
  g_assert_cmpint (g_chmod (shared, 0644), ==, 0);
  g_assert_true (clarify_json_config_update (shared, TRUE, TRUE, add_member, (gpointer) "t2", NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (shared, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (backup, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
}

/* A settings.json that links to a dotfiles folder stays a link. */
static void
test_symlink_followed (Fixture       *fixture,
                       gconstpointer  data)
{
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  g_autofree char *real = g_build_filename (fixture->dir, "dotfiles", "claude-settings.json", NULL);
  g_autofree char *real_backup = g_strconcat (real, ".clarify-backup", NULL);
  g_autofree char *claude_dir = g_path_get_dirname (fixture->path);

  write_file (real, "{\"model\": \"opus\"}");
  g_assert_cmpint (g_mkdir_with_parents (claude_dir, 0700), ==, 0);
  g_assert_cmpint (symlink ("../dotfiles/claude-settings.json", fixture->path), ==, 0);

  update (fixture->path, COMMAND, &result);

  g_assert_true (g_file_test (fixture->path, G_FILE_TEST_IS_SYMLINK));
  assert_json_file (real, "{\"model\":\"opus\",\"hooks\":{" OURS_JSON "}}");
  g_assert_cmpstr (result.backup_path, ==, real_backup);
}

/* ---------------------------------------------------------------------- */
/* The real binary */

static int
run_clarify (const char  *language,
             const char  *config_dir,
             char       **out,
             char       **err,
             ...)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *binary = g_getenv ("CLARIFY_BINARY");
  const char *arg;
  va_list ap;

  g_assert_nonnull (binary);
  g_ptr_array_add (args, (char *) binary);
  va_start (ap, err);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  g_subprocess_launcher_setenv (launcher, "CLAUDE_CONFIG_DIR", config_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", language, TRUE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));

  return g_subprocess_get_exit_status (process);
}

static void
test_binary (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *binary = g_canonicalize_filename (g_getenv ("CLARIFY_BINARY"), NULL);
  g_autofree char *command = g_strconcat (binary, " hook claude-code", NULL);
  g_autofree char *config_dir = g_build_filename (fixture->dir, "config", NULL);
  g_autofree char *user_path = g_build_filename (config_dir, "settings.json", NULL);
  g_autofree char *expected = NULL;
  char *out = NULL;
  char *err = NULL;

  /* --project DIR */
  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "claude-code", "--project", fixture->dir, NULL), ==, 0);
  g_assert_nonnull (strstr (out, fixture->path));
  g_assert_nonnull (strstr (out, "Added PermissionRequest"));
  g_assert_nonnull (strstr (out, "Added Notification (idle_prompt)"));
  g_assert_nonnull (strstr (out, "--permission-mode default"));
  g_assert_nonnull (strstr (out, "MCP_TOOL_TIMEOUT"));
  g_assert_cmpstr (err, ==, "");
  expected = g_strdup_printf ("{\"hooks\":{"
                              "\"PermissionRequest\":[{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\",\"command\":\"%s\",\"timeout\":600}]}],"
                              "\"Elicitation\":[{\"matcher\":\"\",\"hooks\":[{\"type\":\"command\",\"command\":\"%s\",\"timeout\":600}]}],"
                              "\"Notification\":[{\"matcher\":\"idle_prompt\",\"hooks\":[{\"type\":\"command\",\"command\":\"%s\",\"timeout\":600}]}]}}",
                              command, command, command);
  assert_json_file (fixture->path, expected);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "claude-code", "--project", fixture->dir, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Nothing to change."));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* In German, as the catalog has it. */
  g_assert_cmpint (run_clarify ("de", config_dir, &out, &err, "setup", "claude-code", "--project", fixture->dir, "--remove", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Elicitation entfernt"));
  g_assert_nonnull (strstr (out, "Ab jetzt gestartete Claude-Code-Sitzungen fragen nur im Terminal."));
  assert_json_file (fixture->path, "{}");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* --user, the default: $CLAUDE_CONFIG_DIR, created with its folder. */
  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "claude-code", NULL), ==, 0);
  g_assert_nonnull (strstr (out, user_path));
  g_assert_nonnull (strstr (out, "Created the file."));
  assert_json_file (user_path, expected);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* The user's own file: set up (backed up), then removed (the backup
   * keeps the user's bytes, and the output says so, not "Created"). */
  write_file (fixture->path, "{\"model\":  \"opus\"}\n");
  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "claude-code", "--project", fixture->dir, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "The previous file is saved as "));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "claude-code", "--project", fixture->dir, "--remove", NULL), ==, 0);
  g_assert_null (strstr (out, "Created the file."));
  g_assert_nonnull (strstr (out, "The backup of the file as it was before Clarify changed it is kept."));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Not JSON: status 1, the file untouched. */
  write_file (fixture->path, "{ not json");
  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "claude-code", "--project", fixture->dir, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "is not valid JSON"));
  g_assert_nonnull (strstr (err, "were not changed"));
  g_assert_cmpstr (out, ==, "");
  g_free (expected);
  expected = read_file (fixture->path);
  g_assert_cmpstr (expected, ==, "{ not json");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Bad arguments: status 2. */
  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "opencode", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "Unknown client “opencode”"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_clarify ("en", config_dir, &out, &err, "setup", "claude-code", "--user", "--project", fixture->dir, NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  g_test_add_func ("/setup/paths", test_paths);
  g_test_add_func ("/setup/command", test_command);
  ADD ("/setup/fresh", test_fresh);
  ADD ("/setup/empty-file", test_empty_file);
  ADD ("/setup/merge-and-backup", test_merge_and_backup);
  ADD ("/setup/idempotent", test_idempotent);
  ADD ("/setup/update-in-place", test_update_in_place);
  ADD ("/setup/remove-restores", test_remove_restores);
  ADD ("/setup/remove-only-ours", test_remove_only_ours);
  ADD ("/setup/remove-missing-file", test_remove_missing_file);
  ADD ("/setup/refused-untouched", test_refused_untouched);
  ADD ("/setup/strict-json", test_strict_json);
  ADD ("/setup/nul-refused", test_nul_refused);
  ADD ("/setup/not-regular-refused", test_not_regular_refused);
  ADD ("/setup/secret-file-mode", test_secret_file_mode);
  ADD ("/setup/symlink-followed", test_symlink_followed);
  ADD ("/setup/binary", test_binary);
#undef ADD

  return g_test_run ();
}
