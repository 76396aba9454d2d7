/* clarify-test-cli.h: run a command line, feed it, read what it printed
 *
 * The CLI tests run their own binary as `clarify …` (main() hands such
 * arguments to clarify_cli_handle(), as src/main.c does). Header-only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "clarify-dbus-backend.h"
#include "clarify-test-server.h"

G_BEGIN_DECLS

typedef struct
{
  GSubprocess *process;
  gboolean     done;
  char        *out;
  char        *err;
} ClarifyTestRun;

static inline void
clarify_test_run_communicate_cb (GObject      *object,
                                 GAsyncResult *result,
                                 gpointer      user_data)
{
  ClarifyTestRun *run = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->done = TRUE;
}

static inline gboolean
clarify_test_run_is_done (gpointer data)
{
  return ((ClarifyTestRun *) data)->done;
}

/* Starts @argv with @input (NULL: none) on its stdin and collects its
 * output. @launcher (NULL: one with stdin, stdout and stderr piped) sets
 * the pipes and the environment. */
static inline ClarifyTestRun *
clarify_test_run_spawn (GSubprocessLauncher *launcher,
                        const char          *input,
                        const char * const  *argv)
{
  g_autoptr(GSubprocessLauncher) own = NULL;
  g_autoptr(GError) error = NULL;
  ClarifyTestRun *run = g_new0 (ClarifyTestRun, 1);

  if (launcher == NULL)
    launcher = own = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                G_SUBPROCESS_FLAGS_STDERR_PIPE);
  run->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (run->process, input, NULL, clarify_test_run_communicate_cb, run);

  return run;
}

/* Waits for @run to end and returns its exit status. */
static inline int
clarify_test_run_finish (ClarifyTestRun *run,
                         guint           timeout_ms)
{
  g_assert_true (clarify_test_loop_until (clarify_test_run_is_done, run, timeout_ms));
  /* Its pipes are closed; now reap it. */
  g_assert_true (g_subprocess_wait (run->process, NULL, NULL));
  g_assert_true (g_subprocess_get_if_exited (run->process));
  g_test_message ("stdout: %s\nstderr: %s", run->out, run->err);

  return g_subprocess_get_exit_status (run->process);
}

static inline void
clarify_test_run_free (ClarifyTestRun *run)
{
  g_clear_object (&run->process);
  g_free (run->out);
  g_free (run->err);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyTestRun, clarify_test_run_free)

typedef struct
{
  char     *line;
  gboolean  done;
} ClarifyTestLineWait;

static inline void
clarify_test_line_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      data)
{
  ClarifyTestLineWait *wait = data;

  wait->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, NULL);
  wait->done = TRUE;
}

static inline gboolean
clarify_test_line_done (gpointer data)
{
  return ((ClarifyTestLineWait *) data)->done;
}

/* The next line of @stream, read while the main loop runs (it may be
 * feeding a process its input); NULL at its end. */
static inline char *
clarify_test_read_line (GDataInputStream *stream,
                        guint             timeout_ms)
{
  ClarifyTestLineWait wait = { NULL, FALSE };

  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, NULL, clarify_test_line_cb, &wait);
  g_assert_true (clarify_test_loop_until (clarify_test_line_done, &wait, timeout_ms));

  return wait.line;
}

/* Writes @line and a newline to a process's stdin (@in). */
static inline void
clarify_test_send_line (GOutputStream *in,
                        const char    *line)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (in, line, strlen (line), NULL, NULL, &error);
  g_output_stream_write_all (in, "\n", 1, NULL, NULL, &error);
  g_assert_no_error (error);
}

/* A private session bus (GTestDBus) on which D-Bus activation of Clarify's
 * name runs @exec, as the real service file runs `clarify
 * --gapplication-service`. Its service folder is @dir (a new temporary
 * one when it is NULL; pass it to clarify_test_session_bus_down()). */
static inline GTestDBus *
clarify_test_session_bus_up (const char  *exec,
                             char       **dir)
{
  g_autofree char *service_file = NULL;
  g_autofree char *service = NULL;
  GTestDBus *bus;

  if (*dir == NULL)
    *dir = g_dir_make_tmp ("clarify-test-bus-XXXXXX", NULL);
  g_assert_nonnull (*dir);
  service_file = g_build_filename (*dir, CLARIFY_DBUS_NAME ".service", NULL);
  service = g_strdup_printf ("[D-BUS Service]\nName=%s\nExec=%s\n", CLARIFY_DBUS_NAME, exec);
  g_assert_true (g_file_set_contents (service_file, service, -1, NULL));

  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (bus, *dir);
  g_test_dbus_up (bus);

  return bus;
}

static inline void
clarify_test_session_bus_down (GTestDBus  *bus,
                               const char *dir)
{
  g_autofree char *service_file = g_build_filename (dir, CLARIFY_DBUS_NAME ".service", NULL);

  /* Only stopped, never finalized: finalizing waits for the shared
   * connection to go, which GDBus keeps alive past the last test. */
  g_test_dbus_stop (bus);
  g_unlink (service_file);
  g_rmdir (dir);
}

G_END_DECLS
