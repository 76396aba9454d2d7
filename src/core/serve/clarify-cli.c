/* clarify-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

#include "clarify-chat-cli.h"
#include "clarify-cli.h"
#include "clarify-cli-private.h"
#include "clarify-dbus-api.h"
#include "clarify-dbus-backend.h"
#include "clarify-json.h"
#include "clarify-mcp-protocol.h"
#include "clarify-mcp-server.h"
#include "clarify-normalize.h"
#include "clarify-secret.h"
#include "clarify-validate.h"

/* ---------------------------------------------------------------------- */
/* D-Bus: the one way to the running app */

/* The app's Ask API on the session bus. The proxy loads, watches and
 * starts nothing itself: the call auto-starts, so D-Bus activation
 * launches the app if needed. */
ClarifyDbusApi *
clarify_cli_app_proxy_new (GError **error)
{
  return clarify_dbus_api_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION,
                                                  G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                                                  G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS |
                                                  G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION,
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

static gboolean
is_invalid_args (const GError *error)
{
  g_autofree char *name = g_dbus_error_get_remote_error (error);

  return g_strcmp0 (name, "org.freedesktop.DBus.Error.InvalidArgs") == 0;
}

/* ---------------------------------------------------------------------- */
/* clarify ask */

typedef struct
{
  char      *text;
  char      *type;
  GPtrArray *options;
  gboolean   other;
  gboolean   skippable;
  char      *placeholder;
} QuestionSpec;

typedef struct
{
  GPtrArray    *questions;   /* QuestionSpec */
  /* Settings given before the first --question belong to it. */
  QuestionSpec *leading;
  char         *title;
  char         *json_file;
  char         *output;
  int           timeout_s;
} AskOptions;

static QuestionSpec *
question_spec_new (void)
{
  QuestionSpec *spec = g_new0 (QuestionSpec, 1);

  spec->options = g_ptr_array_new_with_free_func (g_free);

  return spec;
}

static void
question_spec_free (QuestionSpec *spec)
{
  g_free (spec->text);
  g_free (spec->type);
  g_ptr_array_unref (spec->options);
  g_free (spec->placeholder);
  g_free (spec);
}

static QuestionSpec *
current_question (AskOptions *options)
{
  if (options->questions->len > 0)
    return g_ptr_array_index (options->questions, options->questions->len - 1);

  if (options->leading == NULL)
    options->leading = question_spec_new ();

  return options->leading;
}

static gboolean
question_cb (const char  *option_name,
             const char  *value,
             gpointer     data,
             GError     **error)
{
  AskOptions *options = data;
  QuestionSpec *spec;

  if (options->questions->len == 0 && options->leading != NULL)
    spec = g_steal_pointer (&options->leading);
  else
    spec = question_spec_new ();

  g_free (spec->text);
  spec->text = g_strdup (value);
  g_ptr_array_add (options->questions, spec);

  return TRUE;
}

static gboolean
question_setting_cb (const char  *option_name,
                     const char  *value,
                     gpointer     data,
                     GError     **error)
{
  QuestionSpec *spec = current_question (data);

  if (g_str_equal (option_name, "--type"))
    {
      g_free (spec->type);
      spec->type = g_strdup (value);
    }
  else if (g_str_equal (option_name, "--option"))
    g_ptr_array_add (spec->options, g_strdup (value));
  else if (g_str_equal (option_name, "--other"))
    spec->other = TRUE;
  else if (g_str_equal (option_name, "--skippable"))
    spec->skippable = TRUE;
  else if (g_str_equal (option_name, "--placeholder"))
    {
      g_free (spec->placeholder);
      spec->placeholder = g_strdup (value);
    }

  return TRUE;
}

static char *
read_json_file (const char  *path,
                GError     **error)
{
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GOutputStream) memory = NULL;
  g_autoptr(GFile) file = NULL;

  if (g_strcmp0 (path, "-") != 0)
    {
      char *contents = NULL;

      if (!g_file_get_contents (path, &contents, NULL, error))
        return NULL;
      return contents;
    }

  stream = g_unix_input_stream_new (0, FALSE);
  memory = g_memory_output_stream_new_resizable ();
  if (g_output_stream_splice (memory, stream, G_OUTPUT_STREAM_SPLICE_NONE, NULL, error) < 0 ||
      !g_output_stream_write_all (memory, "", 1, NULL, NULL, error) ||
      !g_output_stream_close (memory, NULL, error))
    return NULL;

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (memory));
}

/* The request as JSON text, or NULL with a message for the user. */
static char *
build_request_json (AskOptions  *options,
                    GError     **error)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(JsonNode) node = NULL;

  if (options->json_file != NULL)
    {
      g_autofree char *text = NULL;
      JsonObject *object;

      if (options->questions->len > 0 || options->leading != NULL)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("--json cannot be combined with --question and its settings"));
          return NULL;
        }

      text = read_json_file (options->json_file, error);
      if (text == NULL)
        return NULL;

      node = clarify_json_parse (text, -1, error);
      if (node == NULL)
        return NULL;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("The request must be a JSON object"));
          return NULL;
        }

      object = json_node_get_object (node);
      if (!json_object_has_member (object, "id"))
        json_object_set_string_member (object, "id", "clarify-ask");
      if (options->title != NULL)
        json_object_set_string_member (object, "title", options->title);
      if (options->timeout_s > 0)
        {
          json_object_remove_member (object, "timeout");
          json_object_set_int_member (object, "timeout_ms", (gint64) options->timeout_s * 1000);
        }

      /* Checked here too, so that mistakes exit 2 before anything is shown. */
      request = clarify_request_new_from_json (node, error);
      if (request == NULL)
        return NULL;

      return json_to_string (node, FALSE);
    }

  if (options->leading != NULL || options->questions->len == 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           options->questions->len == 0
                           ? _("At least one --question is required (or --json)")
                           : _("--type, --option, --other, --skippable and --placeholder need a --question"));
      return NULL;
    }

  request = clarify_request_new ("clarify-ask");
  clarify_request_set_title (request, options->title);
  if (options->timeout_s > 0)
    clarify_request_set_timeout_ms (request, (guint) options->timeout_s * 1000);

  for (guint i = 0; i < options->questions->len; i++)
    {
      QuestionSpec *spec = g_ptr_array_index (options->questions, i);
      g_autoptr(ClarifyQuestion) question = NULL;
      g_autofree char *id = g_strdup_printf ("q%u", i + 1);
      ClarifyQuestionKind kind = CLARIFY_QUESTION_KIND_TEXT;

      if (spec->type != NULL && !clarify_question_kind_from_string (spec->type, &kind))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("Unknown --type “%s” (use text, select, multi-select, confirm, number, date or date_range)"),
                       spec->type);
          return NULL;
        }

      question = clarify_question_new (id, kind, spec->text);
      clarify_question_set_placeholder (question, spec->placeholder);
      clarify_question_set_allow_other (question, spec->other);
      clarify_question_set_skippable (question, spec->skippable);
      for (guint j = 0; j < spec->options->len; j++)
        {
          g_autoptr(ClarifyOption) option = clarify_option_new (g_ptr_array_index (spec->options, j), NULL, NULL);

          clarify_question_add_option (question, option);
        }
      clarify_request_add_question (request, question);
    }

  if (!clarify_request_validate (request, error))
    return NULL;

  node = clarify_request_to_json (request);

  return json_to_string (node, FALSE);
}

static void
print_plain (ClarifyResponse *response)
{
  guint n_answers = clarify_response_get_n_answers (response);

  for (guint i = 0; i < n_answers; i++)
    {
      const ClarifyAnswer *answer = clarify_response_get_answer (response, i);

      /* With several questions, a blank line separates their answers. */
      if (i > 0)
        g_print ("\n");

      if (answer->skipped)
        continue;

      for (guint j = 0; answer->values != NULL && answer->values[j] != NULL; j++)
        g_print ("%s\n", answer->values[j]);
      if (answer->custom_text != NULL)
        g_print ("%s\n", answer->custom_text);
    }
}

typedef struct
{
  GMainLoop *loop;
  char      *response_json;
  GError    *error;
} AskWait;

static void
ask_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  AskWait *wait = user_data;

  wait->response_json = clarify_cli_ask_app_finish (object, result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static int
run_ask (int    argc,
         char **argv)
{
  AskOptions options = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(ClarifyDbusApi) app = NULL;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *request_json = NULL;
  g_auto(GStrv) args = NULL;
  AskWait wait = { 0 };
  GOptionGroup *group;
  int status = CLARIFY_CLI_EXIT_BAD_ARGS;
  const GOptionEntry entries[] = {
    { "title", 0, 0, G_OPTION_ARG_STRING, &options.title, N_("Title of the dialog"), N_("TEXT") },
    { "question", 'q', 0, G_OPTION_ARG_CALLBACK, question_cb,
      N_("A question; repeat for several. The settings below apply to the question before them"), N_("TEXT") },
    { "type", 0, 0, G_OPTION_ARG_CALLBACK, question_setting_cb,
      N_("text (default), select, multi-select, confirm, number, date or date_range"), N_("TYPE") },
    { "option", 'o', 0, G_OPTION_ARG_CALLBACK, question_setting_cb, N_("A choice; repeat for several"), N_("TEXT") },
    { "other", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, question_setting_cb,
      N_("Also offer “Other…” with free text"), NULL },
    { "skippable", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, question_setting_cb,
      N_("The question may be skipped"), NULL },
    { "placeholder", 0, 0, G_OPTION_ARG_CALLBACK, question_setting_cb, N_("Hint shown in an empty text field"), N_("TEXT") },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &options.timeout_s, N_("Give up after this many seconds (exit status 5)"), N_("SECONDS") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &options.json_file, N_("Read a whole request in the JSON form (- for standard input)"), N_("FILE") },
    { "output", 0, 0, G_OPTION_ARG_STRING, &options.output, N_("plain (values one per line, the default) or json"), N_("FORMAT") },
    { NULL }
  };

  options.questions = g_ptr_array_new_with_free_func ((GDestroyNotify) question_spec_free);
  options.timeout_s = -1;

  context = g_option_context_new (_("— ask the user through Clarify"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("Shows a Clarify dialog and prints the answer.\n"
                                  "Exit status: 0 answered, 1 cancelled, 5 timed out, 2 bad arguments,\n"
                                  "3 Clarify could not be reached."));
  group = g_option_group_new ("ask", NULL, NULL, &options, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);

  args = g_new0 (char *, argc + 2);
  args[0] = g_strdup ("clarify ask");
  for (int i = 1; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  if (!g_option_context_parse_strv (context, &args, &error))
    goto bad_args;

  if (g_strv_length (args) > 1)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("Unexpected argument “%s”"), args[1]);
      goto bad_args;
    }

  if (options.timeout_s == 0 || options.timeout_s < -1)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--timeout must be a positive number of seconds"));
      goto bad_args;
    }

  if (options.output != NULL && g_strcmp0 (options.output, "plain") != 0 && g_strcmp0 (options.output, "json") != 0)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Unknown --output “%s” (use plain or json)"), options.output);
      goto bad_args;
    }

  request_json = build_request_json (&options, &error);
  if (request_json == NULL)
    goto bad_args;

  app = clarify_cli_app_proxy_new (&error);
  if (app == NULL)
    {
      g_printerr (_("clarify ask: cannot reach the session bus: %s\n"), error->message);
      status = CLARIFY_CLI_EXIT_UNREACHABLE;
      goto out;
    }

  loop = g_main_loop_new (NULL, FALSE);
  wait.loop = loop;
  clarify_cli_ask_app_async (app, request_json, NULL, ask_done_cb, &wait);
  g_main_loop_run (loop);

  if (wait.response_json == NULL)
    {
      gboolean bad_request = is_invalid_args (wait.error);

      g_dbus_error_strip_remote_error (wait.error);
      if (bad_request)
        g_printerr (_("clarify ask: %s\n"), wait.error->message);
      else
        g_printerr (_("clarify ask: cannot reach Clarify: %s\n"), wait.error->message);
      status = bad_request ? CLARIFY_CLI_EXIT_BAD_ARGS : CLARIFY_CLI_EXIT_UNREACHABLE;
      g_clear_error (&wait.error);
      goto out;
    }

  response = clarify_response_new_from_data (wait.response_json, -1, &error);
  if (response == NULL)
    {
      g_printerr (_("clarify ask: Clarify sent an answer that cannot be read: %s\n"), error->message);
      status = CLARIFY_CLI_EXIT_UNREACHABLE;
      goto out;
    }

  if (g_strcmp0 (options.output, "json") == 0)
    g_print ("%s\n", wait.response_json);
  else
    print_plain (response);

  switch (clarify_response_get_outcome (response))
    {
    case CLARIFY_OUTCOME_CANCELLED:
      status = CLARIFY_CLI_EXIT_CANCELLED;
      break;

    case CLARIFY_OUTCOME_TIMED_OUT:
      status = CLARIFY_CLI_EXIT_TIMED_OUT;
      break;

    case CLARIFY_OUTCOME_ANSWERED:
    case CLARIFY_OUTCOME_SKIPPED:
    default:
      status = CLARIFY_CLI_EXIT_ANSWERED;
      break;
    }
  goto out;

bad_args:
  g_printerr (_("clarify ask: %s\n"), error->message);
  g_printerr (_("Run “clarify ask --help” to see the options.\n"));
  status = CLARIFY_CLI_EXIT_BAD_ARGS;

out:
  g_free (wait.response_json);
  g_clear_pointer (&options.questions, g_ptr_array_unref);
  g_clear_pointer (&options.leading, question_spec_free);
  g_free (options.title);
  g_free (options.json_file);
  g_free (options.output);

  return status;
}

/* ---------------------------------------------------------------------- */
/* clarify mcp-stdio */

typedef struct
{
  GMainLoop          *loop;
  ClarifyDbusApi     *app;
  GError             *app_error;
  ClarifyMcpProtocol *protocol;
  GDataInputStream   *input;
  GOutputStream      *output;
  GCancellable       *cancellable;
  guint               n_pending;
  gboolean            input_closed;
} Stdio;

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
      g_dbus_error_strip_remote_error (error);
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
stdio_ask (ClarifyRequest      *request,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  Stdio *stdio = user_data;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, callback_data);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *request_json = NULL;

  if (stdio->app == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                               "no session bus: %s", stdio->app_error->message);
      return;
    }

  node = clarify_request_to_json (request);
  request_json = json_to_string (node, FALSE);
  clarify_cli_ask_app_async (stdio->app, request_json, cancellable, stdio_ask_done_cb, g_steal_pointer (&task));
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

static void
stdio_reply_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Stdio *stdio = user_data;
  g_autofree char *reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = clarify_mcp_protocol_handle_finish (CLARIFY_MCP_PROTOCOL (object), result, NULL);
  stdio->n_pending--;

  if (reply != NULL && !stdio->input_closed)
    {
      g_autofree char *line = g_strconcat (reply, "\n", NULL);

      /* One message per line; JSON text from json-glib has no raw newlines. */
      if (!g_output_stream_write_all (stdio->output, line, strlen (line), NULL, NULL, &error) ||
          !g_output_stream_flush (stdio->output, NULL, &error))
        {
          g_printerr ("clarify mcp-stdio: cannot write: %s\n", error->message);
          stdio->input_closed = TRUE;
        }
    }

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
                                         stdio->cancellable, stdio_reply_cb, stdio);
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

static int
run_mcp_stdio (int    argc,
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
  stdio.app = clarify_cli_app_proxy_new (&stdio.app_error);
  if (stdio.app == NULL)
    g_printerr ("clarify mcp-stdio: no session bus, ask_user will fail: %s\n", stdio.app_error->message);
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
  g_clear_object (&stdio.app);
  g_clear_error (&stdio.app_error);
  g_clear_pointer (&stdio.loop, g_main_loop_unref);

  return 0;
}

/* ---------------------------------------------------------------------- */
/* clarify --mcp-info */

static int
run_mcp_info (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = clarify_mcp_server_ensure_token (&error);
  g_autofree char *url = NULL;

  if (token == NULL)
    {
      g_printerr (_("Cannot read or create the MCP access token: %s\n"), error->message);
      return 1;
    }

  url = g_strdup_printf ("http://127.0.0.1:%u" CLARIFY_MCP_PATH, clarify_mcp_server_get_configured_port ());

  /* The user asked for the token: this is its one place to be shown. */
  g_print (_("MCP endpoint: %s\n"), url);
  g_print (_("Token: %s\n"), token);
  g_print ("\n");
  g_print (_("OpenCode (opencode.json):\n"));
  g_print ("{\n"
           "  \"mcp\": {\n"
           "    \"clarify\": {\n"
           "      \"type\": \"remote\",\n"
           "      \"url\": \"%s\",\n"
           "      \"headers\": { \"Authorization\": \"Bearer %s\" }\n"
           "    }\n"
           "  }\n"
           "}\n", url, token);
  g_print ("\n");
  g_print (_("Claude Code:\n"));
  g_print ("claude mcp add --transport http clarify %s --header \"Authorization: Bearer %s\"\n", url, token);

  return 0;
}

/* ---------------------------------------------------------------------- */
/* clarify set-password NAME */

static gboolean
is_connection_name (const char *name)
{
  if (name == NULL || *name == '\0')
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
        return FALSE;
    }

  return TRUE;
}

/* One line from stdin; on a terminal without echo, so the password stays
 * off the screen and out of the shell history. */
static char *
read_secret_line (void)
{
  gboolean tty = isatty (STDIN_FILENO);
  struct termios saved, quiet;
  char buffer[4096];
  char *line;

  if (tty)
    {
      g_printerr (_("Password: "));
      tcgetattr (STDIN_FILENO, &saved);
      quiet = saved;
      quiet.c_lflag &= ~(tcflag_t) ECHO;
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
    }

  line = fgets (buffer, sizeof buffer, stdin);

  if (tty)
    {
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved);
      g_printerr ("\n");
    }

  if (line == NULL)
    return NULL;

  buffer[strcspn (buffer, "\r\n")] = '\0';
  line = g_strdup (buffer);
  explicit_bzero (buffer, sizeof buffer);

  return line;
}

static int
run_set_password (int    argc,
                  char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  g_autofree char *label = NULL;
  char *password;
  gboolean ok;

  if (argc != 2 || !is_connection_name (argv[1]))
    {
      g_printerr ("%s\n", _("Usage: clarify set-password NAME (the password is read from standard input; an empty one removes it)"));
      return CLARIFY_CLI_EXIT_BAD_ARGS;
    }

  key = g_strdup_printf ("connection:%s", argv[1]);
  password = read_secret_line ();
  if (password == NULL || *password == '\0')
    {
      clarify_secret_free (password);
      ok = clarify_secret_clear (key, &error);
      if (ok)
        g_print (_("Removed the password of “%s”.\n"), argv[1]);
    }
  else
    {
      /* Translators: the label of the stored password in the user's keyring */
      label = g_strdup_printf (_("Clarify: password of “%s”"), argv[1]);
      ok = clarify_secret_store (key, label, password, &error);
      clarify_secret_free (password);
      if (ok)
        g_print (_("Stored the password of “%s”. Restart the connection to use it.\n"), argv[1]);
    }

  if (!ok)
    {
      g_printerr ("clarify: %s\n", error->message);
      return 1;
    }

  return 0;
}

gboolean
clarify_cli_handle (int    argc,
                    char **argv,
                    int   *exit_status)
{
  g_return_val_if_fail (exit_status != NULL, FALSE);

  if (argc < 2 || argv[1] == NULL)
    return FALSE;

  if (g_str_equal (argv[1], "ask"))
    *exit_status = run_ask (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "chat"))
    *exit_status = clarify_chat_cli_run (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "mcp-stdio"))
    *exit_status = run_mcp_stdio (argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "--mcp-info"))
    *exit_status = run_mcp_info ();
  else if (g_str_equal (argv[1], "set-password"))
    *exit_status = run_set_password (argc - 1, argv + 1);
  else
    return FALSE;

  return TRUE;
}
