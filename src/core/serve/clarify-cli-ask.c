/* clarify-cli-ask.c: `clarify ask`, a dialog from the command line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>

#include "clarify-cli.h"
#include "clarify-cli-private.h"
#include "clarify-json.h"
#include "clarify-json-text.h"
#include "clarify-normalize.h"
#include "clarify-validate.h"

static gboolean
is_remote_error (const GError *error,
                 const char   *error_name)
{
  g_autofree char *name = g_dbus_error_get_remote_error (error);

  return g_strcmp0 (name, error_name) == 0;
}

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
  /* GOption names a short option by its short form. */
  else if (g_str_equal (option_name, "--option") || g_str_equal (option_name, "-o"))
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

      /* Checked here too, so that mistakes exit 2 before anything is shown.
       * What goes to the app is the file's request, all its languages kept:
       * the app picks its own, as for every agent (this one's might differ,
       * and a dialog mixed them). */
      request = clarify_request_new_from_json (node, error);
      if (request == NULL)
        return NULL;
      clarify_json_make_printable (node);

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

      /* Choices without a --type make a select; with another type they
       * would be dropped without a word, so they are an error. */
      if (spec->type == NULL && spec->options->len > 0)
        kind = CLARIFY_QUESTION_KIND_SINGLE;
      if ((spec->options->len > 0 || spec->other) &&
          kind != CLARIFY_QUESTION_KIND_SINGLE && kind != CLARIFY_QUESTION_KIND_MULTI)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--option and --other apply only to select and multi-select questions, not to “%s”"),
                       spec->text);
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

static void
reached_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  AskWait *wait = user_data;

  clarify_cli_reach_app_finish (result, &wait->error);
  g_main_loop_quit (wait->loop);
}

/* What checking the request notes (a text cut, a label numbered) is for
 * the person at the terminal: said like this command's other messages,
 * not as a line of GLib's log. */
static GLogWriterOutput
ask_log_writer (GLogLevelFlags   log_level,
                const GLogField *fields,
                gsize            n_fields,
                gpointer         user_data)
{
  if (log_level & G_LOG_LEVEL_MESSAGE)
    {
      for (gsize i = 0; i < n_fields; i++)
        {
          if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
            {
              g_printerr ("clarify ask: %s\n", (const char *) fields[i].value);
              return G_LOG_WRITER_HANDLED;
            }
        }
    }

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

int
clarify_cli_run_ask (int    argc,
                     char **argv)
{
  AskOptions options = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(ClarifyDbusApi) app = NULL;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  guint watch_id;
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

  g_log_set_writer_func (ask_log_writer, NULL, NULL);
  options.questions = g_ptr_array_new_with_free_func ((GDestroyNotify) question_spec_free);
  /* Not given: no number a user can type, so that -1 is refused too. */
  options.timeout_s = G_MININT;

  context = g_option_context_new (_("— ask the user through Clarify"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("Shows a Clarify dialog and prints the answer.\n"
                                  "Exit status: 0 answered, 1 cancelled, 5 timed out, 2 bad arguments,\n"
                                  "3 Clarify could not be reached, 4 Clarify holds too many questions."));
  group = g_option_group_new ("ask", NULL, NULL, &options, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);

  args = clarify_cli_args_new ("clarify ask", argc, argv);

  if (!g_option_context_parse_strv (context, &args, &error))
    goto bad_args;

  if (g_strv_length (args) > 1)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("Unexpected argument “%s”"), args[1]);
      goto bad_args;
    }

  /* Milliseconds on the wire are a guint: 4294968 s would wrap to 704 ms. */
  if (options.timeout_s != G_MININT &&
      (options.timeout_s <= 0 || options.timeout_s > (int) (G_MAXUINT / 1000)))
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: %u is the largest number of seconds, 4294967 (49 days) */
                   _("--timeout must be a positive number of seconds, at most %u"), G_MAXUINT / 1000);
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

  /* Not running: started, from an install or a build tree alike. */
  clarify_cli_reach_app_async (g_dbus_proxy_get_connection (G_DBUS_PROXY (app)), CLARIFY_CLI_REACH_TIMEOUT_MS,
                               NULL, reached_cb, &wait);
  g_main_loop_run (loop);
  if (wait.error != NULL)
    {
      g_printerr (_("clarify ask: cannot reach Clarify: %s\n"), wait.error->message);
      g_clear_error (&wait.error);
      status = CLARIFY_CLI_EXIT_UNREACHABLE;
      goto out;
    }

  cancellable = g_cancellable_new ();
  watch_id = clarify_cli_watch_owner (g_dbus_proxy_get_connection (G_DBUS_PROXY (app)), cancellable);
  clarify_cli_ask_app_async (app, request_json, cancellable, ask_done_cb, &wait);
  g_main_loop_run (loop);
  g_bus_unwatch_name (watch_id);

  if (wait.response_json == NULL)
    {
      gboolean bad_request = is_remote_error (wait.error, "org.freedesktop.DBus.Error.InvalidArgs");
      gboolean busy = is_remote_error (wait.error, "org.freedesktop.DBus.Error.LimitsExceeded");

      g_dbus_error_strip_remote_error (wait.error);
      if (clarify_cli_is_owner_gone (wait.error))
        g_printerr ("%s\n", _("clarify ask: Clarify quit before the question was answered."));
      else if (bad_request)
        g_printerr (_("clarify ask: %s\n"), wait.error->message);
      else if (busy)
        g_printerr (_("clarify ask: Clarify did not ask: %s\n"), wait.error->message);
      else
        g_printerr (_("clarify ask: cannot reach Clarify: %s\n"), wait.error->message);
      status = bad_request ? CLARIFY_CLI_EXIT_BAD_ARGS :
               busy ? CLARIFY_CLI_EXIT_BUSY : CLARIFY_CLI_EXIT_UNREACHABLE;
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
