/* clarify-test-claude-real.c: the real Claude Code, offline, in tmux
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>

#include "clarify-test-claude-real.h"
#include "clarify-test-npm.h"
#include "clarify-test-server.h"

/* Any key will do: Claude Code only remembers its last 20 characters as approved. */
#define API_KEY        "sk-ant-api03-clarify-test-fake-key-0123456789abcdefghij"
#define TMUX_SESSION   "claude"
/* How often a wait looks at the screen when Claude Code writes nothing. */
#define BACKSTOP_MS    1000
/* How long Claude Code may take to go after its terminal went. */
#define EXIT_MS        10000

struct _ClarifyTestClaudeHome
{
  char       *bin;          /* the native claude binary */
  char       *root;         /* temporary: HOME, XDG dirs, projects, hook records */
  char       *home;
  char       *hooks_dir;
  JsonObject *hooks;        /* event → [ {matcher, hooks: [...]} ] */
  JsonObject *mcp_servers;  /* name → configuration */
  char       *mcp_config;   /* their file for --mcp-config, or NULL */
  GStrv       env;          /* for the sessions */
};

struct _ClarifyTestClaude
{
  ClarifyTestClaudeHome *home;
  ClarifyTestClaudeApi  *api;
  char                  *project;
  char                  *dir;          /* the session's own: tmux socket, output fifo */
  char                  *socket;
  GStrv                  env;          /* the home's, with this session's API */
  GSubprocess           *watchdog;
  GInputStream          *output;       /* what Claude Code writes to its terminal */
  GCancellable          *cancellable;
  gboolean               wrote;
  char                  *session_id;
  GPid                   pid;
  gint64                 start_time;
};

/* Installing -------------------------------------------------------------------- */

/* Only its first bytes: the binary is 400 MB. */
static gboolean
is_elf (const char *path)
{
  char head[4];
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gboolean elf;

  if (fd < 0)
    return FALSE;
  elf = read (fd, head, sizeof head) == sizeof head && memcmp (head, "\177ELF", 4) == 0;
  close (fd);
  return elf;
}

/* The native binary: the package's postinstall copies the platform
 * package's over its bin/claude.exe stub; where npm did not run it, the
 * platform package's own. NULL when skipped. */
static char *
ensure_claude (void)
{
  /* The platform binary is an optional dependency; a user's npmrc must not
   * leave it out, nor fail on the engines field (it needs no Node). */
  static const char *args[] = { "--include=optional", "--engine-strict=false", NULL };
  g_autofree char *prefix = clarify_test_npm_install ("claude-code-npm", "@anthropic-ai/claude-code",
                                                      CLARIFY_TEST_CLAUDE_VERSION, args);
  g_autofree char *scope = NULL;
  g_autofree char *bin = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (prefix == NULL)
    return NULL;
  bin = g_build_filename (prefix, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe", NULL);
  if (is_elf (bin))
    return g_steal_pointer (&bin);

  scope = g_build_filename (prefix, "node_modules", "@anthropic-ai", NULL);
  dir = g_dir_open (scope, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *candidate = g_build_filename (scope, name, "claude", NULL);

      if (g_str_has_prefix (name, "claude-code-linux-") && is_elf (candidate))
        return g_steal_pointer (&candidate);
    }
  g_error ("npm installed no native claude binary under %s", scope);
}

/* The private HOME ------------------------------------------------------------ */

static void
write_json (const char *path,
            JsonNode   *node)
{
  g_autofree char *text = json_to_string (node, TRUE);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* First-run prompts skipped, the key approved, each project trusted. */
static void
write_claude_json (ClarifyTestClaudeHome *home,
                   const char * const    *projects)
{
  g_autofree char *path = g_build_filename (home->home, ".claude.json", NULL);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  const char *key = API_KEY;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "hasCompletedOnboarding");
  json_builder_add_boolean_value (builder, TRUE);
  json_builder_set_member_name (builder, "customApiKeyResponses");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "approved");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, key + strlen (key) - 20);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "rejected");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "projects");
  json_builder_begin_object (builder);
  for (guint i = 0; projects != NULL && projects[i] != NULL; i++)
    {
      g_autofree char *project = clarify_test_claude_home_get_project (home, projects[i]);

      g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
      json_builder_set_member_name (builder, project);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "hasTrustDialogAccepted");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  write_json (path, root);
}

/* Only the harness's own: nothing of the user's Claude Code or Anthropic
 * settings, and no outer tmux. */
static GStrv
session_environment (ClarifyTestClaudeHome *home)
{
  static const char *dirs[][2] = {
    { "XDG_CONFIG_HOME", "config" },
    { "XDG_DATA_HOME", "data" },
    { "XDG_CACHE_HOME", "cache" },
    { "XDG_STATE_HOME", "state" },
  };
  /* Every switch that keeps it from calling out: telemetry, error reports,
   * updates, the plugin marketplace (a git clone from GitHub on first run). */
  static const char *offline[][2] = {
    { "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1" },
    { "DISABLE_TELEMETRY", "1" },
    { "DISABLE_ERROR_REPORTING", "1" },
    { "DISABLE_AUTOUPDATER", "1" },
    { "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1" },
    { "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY", "1" },
    { "ENABLE_TOOL_SEARCH", "false" },
    { "NO_PROXY", "127.0.0.1,localhost" },
    { "no_proxy", "127.0.0.1,localhost" },
  };
  g_auto(GStrv) names = g_listenv ();
  GStrv env = g_get_environ ();

  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_has_prefix (names[i], "CLAUDE") || g_str_has_prefix (names[i], "ANTHROPIC_") ||
        g_str_has_prefix (names[i], "TMUX") || g_ascii_strcasecmp (names[i], "all_proxy") == 0)
      env = g_environ_unsetenv (env, names[i]);

  env = g_environ_setenv (env, "HOME", home->home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (home->root, dirs[i][1], NULL);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      env = g_environ_setenv (env, dirs[i][0], dir, TRUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (offline); i++)
    env = g_environ_setenv (env, offline[i][0], offline[i][1], TRUE);
  env = g_environ_setenv (env, "ANTHROPIC_API_KEY", API_KEY, TRUE);

  return env;
}

ClarifyTestClaudeHome *
clarify_test_claude_home_new (const char * const *projects)
{
  ClarifyTestClaudeHome *home;
  g_autofree char *bin = ensure_claude ();
  g_autofree char *claude_dir = NULL;

  if (bin == NULL)
    return NULL;

  home = g_new0 (ClarifyTestClaudeHome, 1);
  home->bin = g_steal_pointer (&bin);
  home->root = g_dir_make_tmp ("clarify-claude-real-XXXXXX", NULL);
  g_assert_nonnull (home->root);
  home->home = g_build_filename (home->root, "home", NULL);
  home->hooks_dir = g_build_filename (home->root, "hooks", NULL);
  claude_dir = g_build_filename (home->home, ".claude", NULL);
  g_assert_cmpint (g_mkdir_with_parents (claude_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (home->hooks_dir, 0700), ==, 0);
  home->hooks = json_object_new ();
  home->mcp_servers = json_object_new ();
  home->env = session_environment (home);
  write_claude_json (home, projects);

  return home;
}

void
clarify_test_claude_home_free (ClarifyTestClaudeHome *home)
{
  const char *argv[] = { "rm", "-rf", home->root, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (home->bin);
  g_free (home->root);
  g_free (home->home);
  g_free (home->hooks_dir);
  g_free (home->mcp_config);
  json_object_unref (home->hooks);
  json_object_unref (home->mcp_servers);
  g_strfreev (home->env);
  g_free (home);
}

const char *
clarify_test_claude_home_get_dir (ClarifyTestClaudeHome *home)
{
  return home->home;
}

char *
clarify_test_claude_home_get_project (ClarifyTestClaudeHome *home,
                                      const char            *name)
{
  return g_build_filename (home->root, "projects", name, NULL);
}

void
clarify_test_claude_home_setenv (ClarifyTestClaudeHome *home,
                                 const char            *name,
                                 const char            *value)
{
  if (value != NULL)
    home->env = g_environ_setenv (home->env, name, value, TRUE);
  else
    home->env = g_environ_unsetenv (home->env, name);
}

void
clarify_test_claude_home_add_hook (ClarifyTestClaudeHome *home,
                                   const char            *event,
                                   const char            *matcher,
                                   const char            *command)
{
  g_autofree char *path = g_build_filename (home->home, ".claude", "settings.json", NULL);
  g_autoptr(JsonNode) settings = json_node_new (JSON_NODE_OBJECT);
  JsonObject *root = json_object_new ();
  JsonObject *group = json_object_new ();
  JsonObject *hook = json_object_new ();
  JsonArray *hooks = json_array_new ();

  if (!json_object_has_member (home->hooks, event))
    json_object_set_array_member (home->hooks, event, json_array_new ());
  json_object_set_string_member (hook, "type", "command");
  json_object_set_string_member (hook, "command", command);
  json_object_set_int_member (hook, "timeout", 600);
  json_array_add_object_element (hooks, hook);
  json_object_set_string_member (group, "matcher", matcher);
  json_object_set_array_member (group, "hooks", hooks);
  json_array_add_object_element (json_object_get_array_member (home->hooks, event), group);

  json_object_set_object_member (root, "hooks", json_object_ref (home->hooks));
  json_node_take_object (settings, root);
  write_json (path, settings);
}

static void
write_mcp_config (ClarifyTestClaudeHome *home)
{
  g_autoptr(JsonNode) config = json_node_new (JSON_NODE_OBJECT);
  JsonObject *root = json_object_new ();

  json_object_set_object_member (root, "mcpServers", json_object_ref (home->mcp_servers));
  json_node_take_object (config, root);
  if (home->mcp_config == NULL)
    home->mcp_config = g_build_filename (home->root, "mcp.json", NULL);
  write_json (home->mcp_config, config);
}

void
clarify_test_claude_home_add_mcp_server (ClarifyTestClaudeHome *home,
                                         const char            *name,
                                         const char            *server_json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, server_json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  json_object_set_member (home->mcp_servers, name, json_node_copy (json_parser_get_root (parser)));
  write_mcp_config (home);
}

void
clarify_test_claude_home_add_mcp_stdio (ClarifyTestClaudeHome *home,
                                        const char            *name,
                                        const char * const    *argv)
{
  JsonObject *server = json_object_new ();
  JsonArray *args = json_array_new ();

  g_return_if_fail (argv != NULL && argv[0] != NULL);

  for (guint i = 1; argv[i] != NULL; i++)
    json_array_add_string_element (args, argv[i]);
  json_object_set_string_member (server, "type", "stdio");
  json_object_set_string_member (server, "command", argv[0]);
  json_object_set_array_member (server, "args", args);
  json_object_set_object_member (home->mcp_servers, name, server);
  write_mcp_config (home);
}

static char *
hook_record_path (ClarifyTestClaudeHome *home,
                  const char            *name)
{
  g_autofree char *file = g_strconcat (name, ".jsonl", NULL);

  return g_build_filename (home->hooks_dir, file, NULL);
}

char *
clarify_test_claude_home_recording_hook (ClarifyTestClaudeHome *home,
                                         const char            *name,
                                         const char            *output)
{
  g_autofree char *path = hook_record_path (home, name);
  g_autofree char *quoted_path = g_shell_quote (path);
  g_autofree char *print = NULL;

  /* One printf, so that a line is appended whole. */
  if (output != NULL)
    {
      g_autofree char *quoted_output = g_shell_quote (output);

      print = g_strdup_printf ("; printf '%%s\\n' %s", quoted_output);
    }
  return g_strdup_printf ("input=$(cat); printf '%%s\\n' \"$input\" >> %s%s", quoted_path, print != NULL ? print : "");
}

typedef struct
{
  const char *path;
  guint       n;
  JsonNode   *found;
} HookWait;

static gboolean
has_hook_input (gpointer data)
{
  HookWait *wait = data;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  guint complete;

  if (!g_file_get_contents (wait->path, &contents, NULL, NULL))
    return FALSE;
  lines = g_strsplit (contents, "\n", -1);
  /* The last piece follows the last newline: not a whole line yet. */
  complete = MAX (g_strv_length (lines), 1) - 1;
  if (complete < wait->n)
    return FALSE;

  if (!json_parser_load_from_data (parser, lines[wait->n - 1], -1, NULL))
    g_error ("hook input %u of %s is no JSON: %s", wait->n, wait->path, lines[wait->n - 1]);
  wait->found = json_node_ref (json_parser_get_root (parser));
  return TRUE;
}

static void
hooks_changed_cb (GFileMonitor      *monitor,
                  GFile             *file,
                  GFile             *other,
                  GFileMonitorEvent  event,
                  gpointer           user_data)
{
  /* Only to wake the waiting loop: it reads the file again. */
}

JsonNode *
clarify_test_claude_home_wait_for_hook_input (ClarifyTestClaudeHome *home,
                                              const char            *name,
                                              guint                  n,
                                              guint                  timeout_ms)
{
  g_autofree char *path = hook_record_path (home, name);
  g_autoptr(GFile) dir = g_file_new_for_path (home->hooks_dir);
  g_autoptr(GFileMonitor) monitor = g_file_monitor_directory (dir, G_FILE_MONITOR_NONE, NULL, NULL);
  HookWait wait = { path, n, NULL };

  g_return_val_if_fail (n > 0, NULL);

  if (monitor != NULL)
    g_signal_connect (monitor, "changed", G_CALLBACK (hooks_changed_cb), NULL);
  clarify_test_loop_until (has_hook_input, &wait, timeout_ms);
  if (monitor != NULL)
    g_file_monitor_cancel (monitor);
  return wait.found;
}

/* A session ---------------------------------------------------------------- */

/* Runs tmux with @argv on the session's own server; fails the test if
 * @check and tmux fails. Its output. */
static char *
run_tmux (ClarifyTestClaude  *self,
          gboolean            check,
          const char * const *argv)
{
  g_autoptr(GPtrArray) full = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_ptr_array_add (full, "tmux");
  g_ptr_array_add (full, "-S");
  g_ptr_array_add (full, self->socket);
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (full, (char *) argv[i]);
  g_ptr_array_add (full, NULL);

  /* The first call starts the server, which keeps this environment. */
  g_spawn_sync (self->dir, (char **) full->pdata, self->env, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (check && !g_spawn_check_wait_status (status, NULL))
    {
      /* Claude Code may have ended: its pane stays, showing how. */
      static const char *capture[] = { "capture-pane", "-p", "-J", "-t", TMUX_SESSION, NULL };
      g_autofree char *screen = run_tmux (self, FALSE, capture);

      g_error ("tmux %s failed: %s\nThe terminal shows:\n%s", argv[0], err, screen);
    }
  return g_steal_pointer (&out);
}

static GPtrArray *
collect_args (const char *first,
              va_list     args)
{
  GPtrArray *argv = g_ptr_array_new ();

  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  g_ptr_array_add (argv, NULL);
  return argv;
}

static char *
tmux (ClarifyTestClaude *self,
      const char        *first,
      ...) G_GNUC_NULL_TERMINATED;

static char *
tmux (ClarifyTestClaude *self,
      const char        *first,
      ...)
{
  g_autoptr(GPtrArray) argv = NULL;
  va_list args;

  va_start (args, first);
  argv = collect_args (first, args);
  va_end (args);
  return run_tmux (self, TRUE, (const char * const *) argv->pdata);
}

static void
become_session_leader (gpointer data)
{
  setsid ();
}

/* Kills the tmux server when this process ends, however it ends: it waits
 * for the end of a pipe only we hold. Its own session, and signals ignored,
 * so that killing the test's process group (meson's timeout) spares it. */
static GSubprocess *
start_watchdog (ClarifyTestClaude *self)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                               G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr(GError) error = NULL;
  GSubprocess *watchdog;

  g_subprocess_launcher_set_child_setup (launcher, become_session_leader, NULL, NULL);
  watchdog = g_subprocess_launcher_spawn (launcher, &error, "sh", "-c",
                                          "trap '' HUP INT TERM; cat >/dev/null; exec tmux -S \"$0\" kill-server",
                                          self->socket, NULL);
  g_assert_no_error (error);
  return watchdog;
}

static void
output_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ClarifyTestClaude *self = user_data;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    return;
  self->wrote = TRUE;
  g_input_stream_read_bytes_async (self->output, 65536, G_PRIORITY_DEFAULT, self->cancellable, output_read_cb, self);
}

/* Everything Claude Code writes to its terminal goes to a fifo we read, so
 * that a wait looks at the screen again when, and only when, it changed. */
static void
watch_output (ClarifyTestClaude *self)
{
  g_autofree char *fifo = g_build_filename (self->dir, "output", NULL);
  g_autofree char *quoted = g_shell_quote (fifo);
  g_autofree char *command = g_strdup_printf ("exec cat >> %s", quoted);
  int fd;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* Read and write: with a writer of our own the fifo never reads EOF, and
   * tmux's cat opens it without waiting. */
  fd = open (fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  self->output = g_unix_input_stream_new (fd, TRUE);
  self->cancellable = g_cancellable_new ();
  g_input_stream_read_bytes_async (self->output, 65536, G_PRIORITY_DEFAULT, self->cancellable, output_read_cb, self);
  g_free (tmux (self, "pipe-pane", "-O", "-t", TMUX_SESSION, command, NULL));
}

/* tmux new-session with Claude Code in the project, at the fixed size. */
static GPtrArray *
new_session_args (ClarifyTestClaude *self,
                  const char        *config,
                  const char        *prompt)
{
  g_autofree char *columns = g_strdup_printf ("%d", CLARIFY_TEST_CLAUDE_COLUMNS);
  g_autofree char *rows = g_strdup_printf ("%d", CLARIFY_TEST_CLAUDE_ROWS);
  const char *fixed[] = { "-f", config, "new-session", "-d", "-s", TMUX_SESSION, "-x", columns, "-y", rows,
                          "-c", self->project, "--", self->home->bin };
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_ptr_array_add (argv, g_strdup (fixed[i]));
  if (self->home->mcp_config != NULL)
    {
      g_ptr_array_add (argv, g_strdup ("--mcp-config"));
      g_ptr_array_add (argv, g_strdup (self->home->mcp_config));
    }
  /* After --mcp-config, which would take the prompt for another file. */
  g_ptr_array_add (argv, g_strdup ("--session-id"));
  g_ptr_array_add (argv, g_strdup (self->session_id));
  g_ptr_array_add (argv, g_strdup ("--permission-mode"));
  g_ptr_array_add (argv, g_strdup ("default"));
  if (prompt != NULL)
    g_ptr_array_add (argv, g_strdup (prompt));
  g_ptr_array_add (argv, NULL);
  return argv;
}

ClarifyTestClaude *
clarify_test_claude_start (ClarifyTestClaudeHome       *home,
                           const char                  *project,
                           const ClarifyTestClaudeCall *script,
                           guint                        n_script,
                           const char                  *prompt)
{
  ClarifyTestClaude *self = g_new0 (ClarifyTestClaude, 1);
  g_autoptr(GPtrArray) argv = NULL;
  g_autofree char *config = NULL;
  g_autofree char *pid = NULL;
  g_autoptr(GError) error = NULL;
  static const char *proxies[] = { "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy" };
  const char *url;

  self->home = home;
  self->session_id = g_uuid_string_random ();
  self->api = clarify_test_claude_api_new (script, n_script);
  self->project = clarify_test_claude_home_get_project (home, project);
  g_assert_true (g_file_test (self->project, G_FILE_TEST_IS_DIR));
  self->dir = g_build_filename (home->root, "sessions", project, NULL);
  g_assert_cmpint (g_mkdir_with_parents (self->dir, 0700), ==, 0);
  self->socket = g_build_filename (self->dir, "tmux.sock", NULL);
  config = g_build_filename (self->dir, "tmux.conf", NULL);
  /* Focus events, or Claude Code asks for them on screen; a pane that
   * stays when Claude Code ends, to show how it ended. */
  g_file_set_contents (config, "set -g status off\nset -g focus-events on\nset -g remain-on-exit on\n", -1, &error);
  g_assert_no_error (error);

  /* The API, and any other host through a proxy that is the API too. */
  url = clarify_test_claude_api_get_url (self->api);
  self->env = g_strdupv (home->env);
  self->env = g_environ_setenv (self->env, "ANTHROPIC_BASE_URL", url, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (proxies); i++)
    self->env = g_environ_setenv (self->env, proxies[i], url, TRUE);

  argv = new_session_args (self, config, prompt);
  self->watchdog = start_watchdog (self);
  self->start_time = g_get_monotonic_time ();
  g_free (run_tmux (self, TRUE, (const char * const *) argv->pdata));
  watch_output (self);

  pid = tmux (self, "display-message", "-p", "-t", TMUX_SESSION, "#{pane_pid}", NULL);
  self->pid = (GPid) g_ascii_strtoll (pid, NULL, 10);
  g_assert_cmpint (self->pid, >, 0);
  g_test_message ("claude %s (pid %d) in %s, API %s", CLARIFY_TEST_CLAUDE_VERSION, self->pid, self->project, url);

  return self;
}

/* Waits, without polling, until @pid has gone. */
static gboolean
wait_for_exit (GPid pid,
               int  timeout_ms)
{
  struct pollfd pfd = { .events = POLLIN };
  gboolean gone;

  pfd.fd = (int) syscall (SYS_pidfd_open, pid, 0);
  if (pfd.fd < 0)
    return errno == ESRCH;
  gone = poll (&pfd, 1, timeout_ms) == 1;
  close (pfd.fd);
  return gone;
}

void
clarify_test_claude_stop (ClarifyTestClaude *self)
{
  static const char *kill_server[] = { "kill-server", NULL };
  g_autoptr(GError) error = NULL;

  /* Its terminal goes: Claude Code gets SIGHUP. */
  g_cancellable_cancel (self->cancellable);
  g_free (run_tmux (self, FALSE, kill_server));
  if (!wait_for_exit (self->pid, EXIT_MS))
    {
      g_test_message ("claude (pid %d) outlived its terminal; killing it", self->pid);
      kill (self->pid, SIGKILL);
      g_assert_true (wait_for_exit (self->pid, EXIT_MS));
    }
  /* What it started in its process group (hooks, commands) goes with it. */
  kill (-self->pid, SIGKILL);

  /* The watchdog finds the server gone and ends. */
  g_output_stream_close (g_subprocess_get_stdin_pipe (self->watchdog), NULL, NULL);
  g_subprocess_wait (self->watchdog, NULL, &error);
  g_assert_no_error (error);

  g_clear_object (&self->watchdog);
  g_clear_object (&self->output);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->api, clarify_test_claude_api_free);
  g_free (self->project);
  g_free (self->dir);
  g_free (self->socket);
  g_free (self->session_id);
  g_strfreev (self->env);
  g_free (self);
}

ClarifyTestClaudeApi *
clarify_test_claude_get_api (ClarifyTestClaude *self)
{
  return self->api;
}

const char *
clarify_test_claude_get_project (ClarifyTestClaude *self)
{
  return self->project;
}

const char *
clarify_test_claude_get_session_id (ClarifyTestClaude *self)
{
  return self->session_id;
}

GPid
clarify_test_claude_get_pid (ClarifyTestClaude *self)
{
  return self->pid;
}

gint64
clarify_test_claude_get_start_time (ClarifyTestClaude *self)
{
  return self->start_time;
}

char *
clarify_test_claude_capture (ClarifyTestClaude *self)
{
  return tmux (self, "capture-pane", "-p", "-J", "-t", TMUX_SESSION, NULL);
}

static gboolean
wrote (gpointer data)
{
  return ((ClarifyTestClaude *) data)->wrote;
}

/* Checks @check (@data) whenever Claude Code wrote to its terminal, and
 * at least every BACKSTOP_MS, until it holds or @timeout_ms passed. */
static gboolean
wait_for (ClarifyTestClaude *self,
          gboolean         (*check) (ClarifyTestClaude *self,
                                     gpointer           data),
          gpointer           data,
          guint              timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  for (;;)
    {
      gint64 left;

      /* Cleared before looking: what is written meanwhile wakes us. */
      self->wrote = FALSE;
      if (check (self, data))
        return TRUE;
      left = (deadline - g_get_monotonic_time ()) / 1000;
      if (left <= 0)
        return FALSE;
      clarify_test_loop_until (wrote, self, MIN (left, BACKSTOP_MS));
    }
}

static gboolean
shows_text (ClarifyTestClaude *self,
            gpointer           data)
{
  g_autofree char *screen = clarify_test_claude_capture (self);

  return strstr (screen, data) != NULL;
}

gboolean
clarify_test_claude_wait_for_text (ClarifyTestClaude *self,
                                   const char        *text,
                                   guint              timeout_ms)
{
  g_autofree char *screen = NULL;

  if (wait_for (self, shows_text, (gpointer) text, timeout_ms))
    return TRUE;
  screen = clarify_test_claude_capture (self);
  g_test_message ("waited %u ms for “%s”; the terminal shows:\n%s", timeout_ms, text, screen);
  return FALSE;
}

/* Claude Code logs each MCP server's connection as JSON lines under
 * $XDG_CACHE_HOME/claude-cli-nodejs/<project>/mcp-logs-<name>/. */
static gboolean
mcp_connected (ClarifyTestClaude *self,
               gpointer           data)
{
  g_autofree char *logs = g_build_filename (g_environ_getenv (self->env, "XDG_CACHE_HOME"), "claude-cli-nodejs", NULL);
  g_autofree char *server_dir = g_strconcat ("mcp-logs-", (const char *) data, NULL);
  g_autoptr(GDir) projects = g_dir_open (logs, 0, NULL);
  const char *project;

  while (projects != NULL && (project = g_dir_read_name (projects)) != NULL)
    {
      g_autofree char *dir_path = g_build_filename (logs, project, server_dir, NULL);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir_path, name, NULL);
          g_autofree char *contents = NULL;
          g_auto(GStrv) lines = NULL;

          if (!g_file_get_contents (path, &contents, NULL, NULL))
            continue;
          lines = g_strsplit (contents, "\n", -1);
          for (guint i = 0; lines[i] != NULL; i++)
            {
              g_autoptr(JsonParser) parser = json_parser_new ();
              JsonObject *line;

              /* An empty line parses, to no root: the one after the last newline. */
              if (!json_parser_load_from_data (parser, lines[i], -1, NULL) ||
                  json_parser_get_root (parser) == NULL ||
                  !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
                continue;
              line = json_node_get_object (json_parser_get_root (parser));
              if (g_strcmp0 (json_object_get_string_member_with_default (line, "sessionId", NULL), self->session_id) == 0 &&
                  g_str_has_prefix (json_object_get_string_member_with_default (line, "debug", ""), "Successfully connected"))
                return TRUE;
            }
        }
    }
  return FALSE;
}

gboolean
clarify_test_claude_wait_for_mcp (ClarifyTestClaude *self,
                                  const char        *name,
                                  guint              timeout_ms)
{
  return wait_for (self, mcp_connected, (gpointer) name, timeout_ms);
}

void
clarify_test_claude_send_keys (ClarifyTestClaude *self,
                               const char        *key,
                               ...)
{
  va_list args;

  /* In order, each its own send-keys. A key whose effect the next one
   * depends on wants a wait_for_text() before that one. */
  va_start (args, key);
  for (const char *k = key; k != NULL; k = va_arg (args, const char *))
    g_free (tmux (self, "send-keys", "-t", TMUX_SESSION, k, NULL));
  va_end (args);
}

void
clarify_test_claude_send_text (ClarifyTestClaude *self,
                               const char        *text)
{
  g_free (tmux (self, "send-keys", "-t", TMUX_SESSION, "-l", text, NULL));
}

void
clarify_test_claude_prompt (ClarifyTestClaude *self,
                            const char        *text)
{
  clarify_test_claude_send_text (self, text);
  /* Enter once the prompt shows the text, or it may arrive first. */
  g_assert_true (clarify_test_claude_wait_for_text (self, text, CLARIFY_TEST_CLAUDE_SLOW_MS));
  clarify_test_claude_send_keys (self, "Enter", NULL);
}
