/* clarify-cli-mcp-stdio.c: `clarify mcp-stdio`, MCP on stdin/stdout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n.h>
#include <stdio.h>

#include "clarify-cli.h"
#include "clarify-cli-private.h"
#include "clarify-json.h"
#include "clarify-mcp-protocol.h"

typedef struct
{
  GMainLoop          *loop;
  ClarifyMcpProtocol *protocol;
  GDataInputStream   *input;
  GOutputStream      *output;
  GCancellable       *cancellable;
  guint               n_pending;
  gboolean            input_closed;
} Stdio;

/* Each call asks over a bus connection of its own. Ask cannot be called
 * off, but the app withdraws the dialog of a caller that leaves the bus:
 * closing the connection is how notifications/cancelled (a client's
 * timeout, its user's Esc) reaches the dialog. */
typedef struct
{
  GDBusConnection *connection;
  char            *request_json;
  /* Cancelled when Clarify leaves the bus with the call unanswered, or
   * when the caller calls it off. */
  GCancellable    *gone;
  GCancellable    *caller;
  gulong           caller_handler;
  guint            watch_id;
} Asking;

static void
asking_free (Asking *asking)
{
  g_clear_handle_id (&asking->watch_id, g_bus_unwatch_name);
  if (asking->caller_handler != 0)
    g_cancellable_disconnect (asking->caller, asking->caller_handler);
  g_clear_object (&asking->caller);
  g_clear_object (&asking->gone);
  if (asking->connection != NULL)
    g_dbus_connection_close (asking->connection, NULL, NULL, NULL);
  g_clear_object (&asking->connection);
  g_free (asking->request_json);
  g_free (asking);
}

static void
stdio_ask_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *response_json = NULL;

  response_json = clarify_cli_ask_app_finish (object, result, &error);
  if (response_json == NULL)
    {
      /* The caller called it off: that, not the watch's cancellation. */
      if (g_task_return_error_if_cancelled (task))
        return;
      g_dbus_error_strip_remote_error (error);
      /* For the model, like the rest of the tool's error: not translated. */
      if (clarify_cli_is_owner_gone (error))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED, "%s",
                                 "Clarify quit before the question was answered.");
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  response = clarify_response_new_from_data (response_json, -1, &error);
  if (response == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_steal_pointer (&response), g_object_unref);
}

static void
caller_cancelled_cb (GCancellable *caller,
                     GCancellable *gone)
{
  g_cancellable_cancel (gone);
}

static void
stdio_reached_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Asking *asking = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(ClarifyDbusApi) app = NULL;
  g_autoptr(GError) error = NULL;

  if (!clarify_cli_reach_app_finish (result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  app = clarify_cli_app_proxy_new_on (asking->connection, &error);
  if (app == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A Clarify that dies or quits mid-call must not leave the host waiting. */
  asking->gone = g_cancellable_new ();
  asking->watch_id = clarify_cli_watch_owner (asking->connection, asking->gone);
  if (cancellable != NULL)
    {
      asking->caller = g_object_ref (cancellable);
      asking->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb),
                                                      asking->gone, NULL);
    }
  clarify_cli_ask_app_async (app, asking->request_json, asking->gone, stdio_ask_done_cb, g_steal_pointer (&task));
}

static void
stdio_connected_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Asking *asking = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GError) error = NULL;

  asking->connection = g_dbus_connection_new_for_address_finish (result, &error);
  if (asking->connection == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                               "no session bus: %s", error->message);
      return;
    }

  /* Not running: started, from an install or a build tree alike. */
  clarify_cli_reach_app_async (asking->connection, CLARIFY_CLI_REACH_TIMEOUT_MS, cancellable,
                               stdio_reached_cb, g_steal_pointer (&task));
}

static void
stdio_ask (ClarifyRequest      *request,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, callback_data);
  g_autoptr(JsonNode) node = clarify_request_to_json (request);
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  Asking *asking = g_new0 (Asking, 1);

  asking->request_json = json_to_string (node, FALSE);
  g_task_set_task_data (task, asking, (GDestroyNotify) asking_free);

  address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, cancellable, &error);
  if (address == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                               "no session bus: %s", error->message);
      return;
    }

  g_dbus_connection_new_for_address (address,
                                     G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                     G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                     NULL, cancellable, stdio_connected_cb, g_steal_pointer (&task));
}

static ClarifyResponse *
stdio_ask_finish (GAsyncResult  *result,
                  gpointer       user_data,
                  GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
stdio_maybe_quit (Stdio *stdio)
{
  if (stdio->input_closed && stdio->n_pending == 0)
    g_main_loop_quit (stdio->loop);
}

/* One message per line; JSON text from json-glib has no raw newlines. */
static void
stdio_write_message (Stdio      *stdio,
                     const char *json)
{
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;

  if (stdio->input_closed)
    return;

  line = g_strconcat (json, "\n", NULL);
  if (!g_output_stream_write_all (stdio->output, line, strlen (line), NULL, NULL, &error) ||
      !g_output_stream_flush (stdio->output, NULL, &error))
    {
      g_printerr ("clarify mcp-stdio: cannot write: %s\n", error->message);
      stdio->input_closed = TRUE;
    }
}

/* A call's notifications/progress go out between the other lines. */
static void
stdio_event_cb (ClarifyMcpEvent  event,
                const char      *message,
                gpointer         user_data)
{
  if (event == CLARIFY_MCP_EVENT_NOTIFICATION)
    stdio_write_message (user_data, message);
}

static void
stdio_reply_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Stdio *stdio = user_data;
  g_autofree char *reply = NULL;

  reply = clarify_mcp_protocol_handle_finish (CLARIFY_MCP_PROTOCOL (object), result, NULL);
  stdio->n_pending--;

  if (reply != NULL)
    stdio_write_message (stdio, reply);

  stdio_maybe_quit (stdio);
}

static void stdio_read_next (Stdio *stdio);

static void
stdio_line_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Stdio *stdio = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize length = 0;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, &length, &error);
  if (line == NULL)
    {
      if (error != NULL)
        g_printerr ("clarify mcp-stdio: cannot read: %s\n", error->message);

      /* The host closed our stdin: it is gone, and so are its questions.
       * Leaving the bus withdraws their dialogs. */
      stdio->input_closed = TRUE;
      g_cancellable_cancel (stdio->cancellable);
      g_main_loop_quit (stdio->loop);
      return;
    }

  g_strstrip (line);
  if (*line != '\0')
    {
      stdio->n_pending++;
      clarify_mcp_protocol_handle_async (stdio->protocol, NULL, line, strlen (line),
                                         stdio->cancellable, stdio_event_cb, stdio_reply_cb, stdio);
    }

  stdio_read_next (stdio);
}

static void
stdio_read_next (Stdio *stdio)
{
  g_data_input_stream_read_line_async (stdio->input, G_PRIORITY_DEFAULT, NULL, stdio_line_cb, stdio);
}

/* stdout carries the protocol: every log line goes to stderr. */
static GLogWriterOutput
stderr_log_writer (GLogLevelFlags   log_level,
                   const GLogField *fields,
                   gsize            n_fields,
                   gpointer         user_data)
{
  g_autofree char *text = NULL;

  if (!(log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE)) &&
      g_log_writer_default_would_drop (log_level, NULL))
    return G_LOG_WRITER_HANDLED;

  text = g_log_writer_format_fields (log_level, fields, n_fields, FALSE);
  fprintf (stderr, "%s\n", text);
  fflush (stderr);

  return G_LOG_WRITER_HANDLED;
}

int
clarify_cli_run_mcp_stdio (int    argc,
                           char **argv)
{
  g_autoptr(GInputStream) stdin_stream = NULL;
  Stdio stdio = { 0 };

  if (argc > 1)
    {
      g_printerr (_("Usage: clarify mcp-stdio\n"
                    "An MCP server on standard input and output (one JSON-RPC message per line)\n"
                    "that asks through the running Clarify.\n"));
      return g_strv_contains ((const char * const *) argv, "--help") ? 0 : CLARIFY_CLI_EXIT_BAD_ARGS;
    }

  g_log_set_writer_func (stderr_log_writer, NULL, NULL);

  stdio.loop = g_main_loop_new (NULL, FALSE);
  stdio.protocol = clarify_mcp_protocol_new (stdio_ask, stdio_ask_finish, &stdio);
  stdio.cancellable = g_cancellable_new ();
  stdin_stream = g_unix_input_stream_new (0, FALSE);
  stdio.input = g_data_input_stream_new (stdin_stream);
  g_data_input_stream_set_newline_type (stdio.input, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  stdio.output = g_unix_output_stream_new (1, FALSE);

  stdio_read_next (&stdio);
  g_main_loop_run (stdio.loop);

  g_clear_object (&stdio.input);
  g_clear_object (&stdio.output);
  g_clear_object (&stdio.protocol);
  g_clear_object (&stdio.cancellable);
  g_clear_pointer (&stdio.loop, g_main_loop_unref);

  return 0;
}
