/* clarify-cli-client.c: what `clarify` itself runs, linking GLib, GIO and
 * json-glib only
 *
 * An agent starts `clarify ask` or `clarify hook claude-code` once per
 * question, so those two run in `clarify` (src/main.c), which takes from
 * the core only the objects they reference. Nothing here may reach the
 * backends' transport, the registry or the keyring, or --as-needed keeps
 * libsoup and libsecret in every hand-over (the test clarify-links-light
 * checks). The commands that need the whole core run in clarify-tools,
 * the application in clarify-gui; `clarify` hands their command lines
 * over with exec.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

#include "clarify-cli.h"
#include "clarify-cli-private.h"
#include "clarify-dbus-backend.h"

/* ---------------------------------------------------------------------- */
/* D-Bus: the one way to the running app */

/* The app's Ask API. The proxy loads, watches and starts nothing itself:
 * the call auto-starts, so D-Bus activation launches the app if needed. */
#define APP_PROXY_FLAGS (G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |   \
                         G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS |   \
                         G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION)

ClarifyDbusApi *
clarify_cli_app_proxy_new (GError **error)
{
  return clarify_dbus_api_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION, APP_PROXY_FLAGS,
                                                  CLARIFY_DBUS_NAME, CLARIFY_DBUS_PATH,
                                                  NULL, error);
}

/* Does no I/O: the flags leave nothing to load. */
ClarifyDbusApi *
clarify_cli_app_proxy_new_on (GDBusConnection  *connection,
                              GError          **error)
{
  return clarify_dbus_api_proxy_new_sync (connection, APP_PROXY_FLAGS,
                                          CLARIFY_DBUS_NAME, CLARIFY_DBUS_PATH,
                                          NULL, error);
}

/* No call timeout: the user may take as long as the request allows. */
void
clarify_cli_ask_app_async (ClarifyDbusApi      *app,
                           const char          *request_json,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  clarify_dbus_api_call_ask (app, request_json, G_DBUS_CALL_FLAGS_NONE, G_MAXINT,
                             cancellable, callback, user_data);
}

char *
clarify_cli_ask_app_finish (GObject       *proxy,
                            GAsyncResult  *result,
                            GError       **error)
{
  char *response_json = NULL;

  if (!clarify_dbus_api_call_ask_finish (CLARIFY_DBUS_API (proxy), &response_json, result, error))
    return NULL;

  return response_json;
}

typedef struct
{
  GCancellable *cancellable;
  gboolean      seen;
} OwnerWatch;

static void
owner_watch_free (gpointer data)
{
  OwnerWatch *watch = data;

  g_object_unref (watch->cancellable);
  g_free (watch);
}

static void
owner_appeared_cb (GDBusConnection *bus,
                   const char      *name,
                   const char      *owner,
                   gpointer         data)
{
  ((OwnerWatch *) data)->seen = TRUE;
}

static void
owner_vanished_cb (GDBusConnection *bus,
                   const char      *name,
                   gpointer         data)
{
  OwnerWatch *watch = data;

  /* Not yet owned (activation may still start it) is not "gone". */
  if (watch->seen)
    g_cancellable_cancel (watch->cancellable);
}

guint
clarify_cli_watch_owner (GDBusConnection *bus,
                         GCancellable    *cancellable)
{
  OwnerWatch *watch = g_new0 (OwnerWatch, 1);

  watch->cancellable = g_object_ref (cancellable);
  return g_bus_watch_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                         owner_appeared_cb, owner_vanished_cb,
                                         watch, owner_watch_free);
}

gboolean
clarify_cli_is_owner_gone (const GError *error)
{
  /* Cancelled by the watch, or the bus's own word for a peer that died
   * with our call unanswered (there is no call timeout to cause it). */
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY);
}

/* ---------------------------------------------------------------------- */
/* Starting Clarify for a caller */

typedef struct
{
  GDBusConnection *bus;
  guint            watch_id;
  guint            timeout_id;
  gboolean         spawned;
} Reach;

static void
reach_free (gpointer data)
{
  Reach *reach = data;

  g_clear_handle_id (&reach->watch_id, g_bus_unwatch_name);
  g_clear_handle_id (&reach->timeout_id, g_source_remove);
  g_clear_object (&reach->bus);
  g_free (reach);
}

static void
reach_child_setup (gpointer data)
{
  /* Its own session: the caller's process group may be ended (Claude
   * Code ends its hooks'), and Clarify outlives the caller. */
  setsid ();
}

/* A variable of the caller's own (Claude Code's key and session, a
 * password an agent's shell holds): D-Bus activation would not hand it to
 * Clarify, and Clarify outlives the caller. The user's own settings
 * (CLAUDE_CONFIG_DIR, which Clarify reads) stay. */
static gboolean
is_callers_own (const char *assignment)
{
  static const char * const prefixes[] = { "ANTHROPIC_", "CLAUDECODE", "CLAUDE_CODE_", "CLAUDE_PROJECT_DIR",
                                           "OPENCODE", "OPENAI_", NULL };
  static const char * const suffixes[] = { "_KEY", "_TOKEN", "_SECRET", "_PASSWORD", NULL };
  g_autofree char *name = g_strndup (assignment, strcspn (assignment, "="));

  for (guint i = 0; prefixes[i] != NULL; i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  for (guint i = 0; suffixes[i] != NULL; i++)
    if (g_str_has_suffix (name, suffixes[i]))
      return TRUE;

  return FALSE;
}

static char **
dup_service_environment (void)
{
  g_auto(GStrv) caller = g_get_environ ();
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();

  for (guint i = 0; caller[i] != NULL; i++)
    if (!is_callers_own (caller[i]))
      g_strv_builder_add (kept, caller[i]);

  return g_strv_builder_end (kept);
}

/* Starts this same program as the app, the way D-Bus activation does
 * (the service file runs `clarify --gapplication-service`): a service
 * stays up for its first caller even when nothing else holds it, which
 * `--background` does not do without a connection to keep. Nothing of
 * the caller's reaches it: not stdin (mcp-stdio's protocol), not stdout
 * or stderr (a caller reading them to their end would wait for Clarify),
 * not its folder nor its secrets (above). */
static gboolean
start_clarify (GError **error)
{
  g_autofree char *program = g_file_read_link ("/proc/self/exe", error);
  /* Named "clarify" whichever program this is (clarify-tools passes it
   * on to clarify-gui), as the application always is. */
  const char *argv[] = { program, "clarify", "--gapplication-service", NULL };
  g_auto(GStrv) environment = NULL;

  if (program == NULL)
    return FALSE;

  /* For tests: a machine on which nothing can start Clarify. */
  if (g_getenv ("CLARIFY_HOOK_TEST_NO_START") != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "starting Clarify is switched off");
      return FALSE;
    }

  environment = dup_service_environment ();
  return g_spawn_async (g_file_test (g_get_home_dir (), G_FILE_TEST_IS_DIR) ? g_get_home_dir () : "/",
                        (char **) argv, environment,
                        G_SPAWN_FILE_AND_ARGV_ZERO | G_SPAWN_STDIN_FROM_DEV_NULL |
                        G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                        reach_child_setup, NULL, NULL, error);
}

/* Ends the wait once: the first of owner, failure, timeout, cancel. */
static void
reach_return (GTask  *task,
              GError *error)
{
  /* The watch's reference goes with it. */
  g_autoptr(GTask) keep = g_object_ref (task);
  Reach *reach = g_task_get_task_data (task);

  if (reach->watch_id == 0)
    {
      g_clear_error (&error);
      return;
    }

  g_clear_handle_id (&reach->watch_id, g_bus_unwatch_name);
  g_clear_handle_id (&reach->timeout_id, g_source_remove);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
reach_appeared_cb (GDBusConnection *bus,
                   const char      *name,
                   const char      *owner,
                   gpointer         data)
{
  reach_return (data, NULL);
}

/* Nobody owns the name, and D-Bus activation (asked for by the watch)
 * could not start Clarify: no service file, as in a build tree. */
static void
reach_vanished_cb (GDBusConnection *bus,
                   const char      *name,
                   gpointer         data)
{
  GTask *task = data;
  Reach *reach = g_task_get_task_data (task);
  GError *error = NULL;

  if (reach->spawned)
    return;

  reach->spawned = TRUE;
  if (!start_clarify (&error))
    reach_return (task, error);
}

static gboolean
reach_timeout_cb (gpointer data)
{
  GTask *task = data;
  Reach *reach = g_task_get_task_data (task);

  reach->timeout_id = 0;
  reach_return (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                           _("Clarify is not running and did not start in time")));

  return G_SOURCE_REMOVE;
}

void
clarify_cli_reach_app_async (GDBusConnection     *bus,
                             guint                timeout_ms,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Reach *reach = g_new0 (Reach, 1);

  reach->bus = g_object_ref (bus);
  g_task_set_task_data (task, reach, reach_free);
  /* The watch and the timer hold the task; the watch's notify drops it. */
  reach->watch_id = g_bus_watch_name_on_connection (bus, CLARIFY_DBUS_NAME,
                                                    G_BUS_NAME_WATCHER_FLAGS_AUTO_START,
                                                    reach_appeared_cb, reach_vanished_cb,
                                                    task, g_object_unref);
  reach->timeout_id = g_timeout_add (timeout_ms, reach_timeout_cb, task);
}

gboolean
clarify_cli_reach_app_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

GStrv
clarify_cli_args_new (const char  *name,
                      int          argc,
                      char       **argv)
{
  GStrv args = g_new0 (char *, MAX (argc, 1) + 1);

  args[0] = g_strdup (name);
  for (int i = 1; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  return args;
}

/* ---------------------------------------------------------------------- */
/* The programs `clarify` hands command lines to */

void
clarify_cli_init_locale (void)
{
  const char *localedir = g_getenv ("CLARIFY_LOCALEDIR");
  g_autofree char *program = NULL;

  setlocale (LC_ALL, "");
  /* Run from the build tree, the catalog is not installed yet: the build's
   * (a German desktop got English dialogs from build/src/clarify). */
  if (localedir == NULL)
    {
      program = g_file_read_link ("/proc/self/exe", NULL);
      localedir = program != NULL && g_str_has_prefix (program, BUILD_ROOT "/") ? BUILD_LOCALEDIR : LOCALEDIR;
    }
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

/* Those clarify_cli_handle() runs beyond ask and hook. */
static const char * const core_commands[] = {
  "chat", "mcp-stdio", "setup", "--mcp-info", "set-password", NULL
};

gboolean
clarify_cli_is_core_command (const char *command)
{
  return command != NULL && g_strv_contains (core_commands, command);
}

char *
clarify_cli_find_beside (const char *name)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;
  g_autofree char *beside = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  if (self == NULL)
    return NULL;
  dir = g_path_get_dirname (self);
  beside = g_build_filename (dir, name, NULL);

  return g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE) ? g_steal_pointer (&beside) : NULL;
}

/* Beside this program in a build tree, in libexecdir once installed. */
static char *
find_program (const char *name)
{
  char *beside = clarify_cli_find_beside (name);

  return beside != NULL ? beside : g_build_filename (LIBEXECDIR, name, NULL);
}

/* Says that G_SLICE is clarify's setting, not the user's. */
#define SLICE_SET_BY_CLARIFY "CLARIFY_SET_G_SLICE"

void
clarify_cli_forget_slice_setting (void)
{
  if (g_getenv (SLICE_SET_BY_CLARIFY) == NULL)
    return;

  g_unsetenv ("G_SLICE");
  g_unsetenv (SLICE_SET_BY_CLARIFY);
}

int
clarify_cli_exec (const char  *name,
                  char       **argv)
{
  g_autofree char *program = find_program (name);
  g_auto(GStrv) environment = g_get_environ ();
  int saved_errno;

  /* GLib before 2.76 keeps the slices of freed objects in caches of its
   * own that malloc_trim() cannot reach: a closed dialog of 200 options
   * left 3 MiB behind; later versions use malloc for slices anyway. It
   * must be set before the program starts (GLib's constructors take
   * slices), and the program takes it out again for what it starts. */
  if (glib_check_version (2, 76, 0) != NULL && g_environ_getenv (environment, "G_SLICE") == NULL)
    {
      environment = g_environ_setenv (environment, "G_SLICE", "always-malloc", TRUE);
      environment = g_environ_setenv (environment, SLICE_SET_BY_CLARIFY, "1", TRUE);
    }

  execve (program, argv, environment);
  saved_errno = errno;

  /* TRANSLATORS: the first %s is a program's path, the second the reason */
  g_printerr ("clarify: ");
  g_printerr (_("Cannot start %s: %s"), program, g_strerror (saved_errno));
  g_printerr ("\n");

  return 1;
}

gboolean
clarify_cli_handle_client (int    argc,
                           char **argv,
                           int   *exit_status)
{
  g_return_val_if_fail (exit_status != NULL, FALSE);

  if (argc < 2 || argv[1] == NULL)
    return FALSE;

  if (g_str_equal (argv[1], "ask"))
    *exit_status = clarify_cli_run_ask (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "hook"))
    *exit_status = clarify_cli_run_hook (argc - 1, argv + 1);
  else
    return FALSE;

  return TRUE;
}
