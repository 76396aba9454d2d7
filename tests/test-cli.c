/* test-cli.c: `clarify ask` and `clarify mcp-stdio` as separate processes
 * against the D-Bus API on a private session bus (GTestDBus)
 *
 * The processes are this test binary run as `test-cli ask …`: main() hands
 * such arguments to clarify_cli_handle(), exactly as src/main.c does, so
 * what runs is the CLI code over a real bus. The test process owns
 * io.github.clarify.Clarify, exports ClarifyDbusBackend and answers through
 * the backend API. D-Bus activation is tested with a service file whose
 * Exec is this binary in --serve-activation mode (a stand-in for
 * `clarify --gapplication-service`): the bus starts it on the CLI's call.
 * The real binary's service file and the app's export of the object are
 * not covered here (see test-application).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "clarify-chat-cli.h"
#include "clarify-cli.h"
#include "clarify-dbus-backend.h"
#include "clarify-json.h"
#include "clarify-secret.h"
#include "clarify-test-cli.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 10000

static char *test_binary;

typedef struct
{
  GDBusConnection *bus;
  ClarifyBackend  *backend;
  ClarifyTestWatch watch;
  guint            owner_id;
  gboolean         acquired;
} Fixture;


static void
name_acquired_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  ((Fixture *) data)->acquired = TRUE;
}

static gboolean
is_acquired (gpointer data)
{
  return ((Fixture *) data)->acquired;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);

  /* The object first, then the name: as GApplication's dbus_register does. */
  fixture->backend = clarify_dbus_backend_new (fixture->bus, NULL);
  clarify_test_watch_init (&fixture->watch, fixture->backend);
  clarify_backend_start (fixture->backend);
  g_assert_cmpuint (clarify_backend_get_state (fixture->backend), ==, CLARIFY_CONNECTION_STATE_CONNECTED);

  fixture->owner_id = g_bus_own_name_on_connection (fixture->bus, CLARIFY_DBUS_NAME,
                                                    G_BUS_NAME_OWNER_FLAGS_NONE,
                                                    name_acquired_cb, NULL, fixture, NULL);
  g_assert_true (clarify_test_loop_until (is_acquired, fixture, WAIT_MS));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_bus_unown_name (fixture->owner_id);
  clarify_test_watch_clear (&fixture->watch);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->bus);
}

/* Starts `test-cli ARGS…` with @input (NULL: none) on its stdin. */
static ClarifyTestRun *
start_cli (const char *input,
           ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  const char *arg;
  va_list ap;

  g_ptr_array_add (args, test_binary);
  va_start (ap, input);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  return clarify_test_run_spawn (NULL, input != NULL ? input : "", (const char * const *) args->pdata);
}

static int
finish_cli (ClarifyTestRun *run)
{
  return clarify_test_run_finish (run, WAIT_MS);
}

static gboolean
run_done (gpointer data)
{
  return clarify_test_run_is_done (data);
}

/* ---------------------------------------------------------------------- */

static void
test_answered_text (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--title", "Rename", "--question", "New name?",
                                  "--placeholder", "e.g. parse_args", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  ClarifyQuestion *question = clarify_request_get_question (request, 0);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);

  g_assert_cmpstr (clarify_request_get_title (request), ==, "Rename");
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 0);
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "dbus");
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_text (question), ==, "New name?");
  g_assert_cmpstr (clarify_question_get_placeholder (question), ==, "e.g. parse_args");

  clarify_response_add_answer (response, clarify_question_get_id (question),
                               (const char *[]) { "parse_options", NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_cmpstr (run->out, ==, "parse_options\n");
  g_assert_cmpstr (run->err, ==, "");
}

static void
test_select_with_other (Fixture       *fixture,
                        gconstpointer  data)
{
  /* Settings before the first --question belong to it. */
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--type", "select", "--option", "Red",
                                  "--question", "Colour?", "--option", "Green", "--other", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  ClarifyQuestion *question = clarify_request_get_question (request, 0);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);

  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 2);
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (question, 0)), ==, "Red");
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (question, 1)), ==, "Green");
  g_assert_true (clarify_question_get_allow_other (question));
  g_assert_false (clarify_question_get_skippable (question));

  clarify_response_add_answer (response, clarify_question_get_id (question),
                               (const char *[]) { NULL }, "Teal", FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_cmpstr (run->out, ==, "Teal\n");
}

static void
test_options_make_a_select (Fixture       *fixture,
                            gconstpointer  data)
{
  /* -o without --type: the person expects a choice, not a text box. */
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--question", "Colour?", "-o", "Red", "-o", "Green", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  ClarifyQuestion *question = clarify_request_get_question (request, 0);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);

  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 2);

  clarify_response_add_answer (response, clarify_question_get_id (question),
                               (const char *[]) { "Green", NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_cmpstr (run->out, ==, "Green\n");
}

static void
test_several_questions (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask",
                                  "--question", "Features?", "--type", "multi-select",
                                  "--option", "A", "--option", "B", "--option", "C",
                                  "--question", "Notes?", "--skippable",
                                  "--question", "Deploy?", "--type", "confirm",
                                  "--timeout", "120", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);

  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 3);
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 120000);
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 0)), ==, CLARIFY_QUESTION_KIND_MULTI);
  g_assert_true (clarify_question_get_skippable (clarify_request_get_question (request, 1)));
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 2)), ==, CLARIFY_QUESTION_KIND_CONFIRM);

  clarify_response_add_answer (response, "q1", (const char *[]) { "A", "C", NULL }, NULL, FALSE);
  clarify_response_add_answer (response, "q2", NULL, NULL, TRUE);
  clarify_response_add_answer (response, "q3", (const char *[]) { "yes", NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  g_assert_cmpint (finish_cli (run), ==, 0);
  /* One value per line; a blank line between questions; nothing for a skipped one. */
  g_assert_cmpstr (run->out, ==, "A\nC\n\n\nyes\n");
}

static void
test_output_json (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--question", "Name?", "--output", "json", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);
  g_autoptr(ClarifyResponse) printed = NULL;
  g_autoptr(GError) error = NULL;

  clarify_response_add_answer (response, "q1", (const char *[]) { "Ada", NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_true (g_str_has_suffix (run->out, "}\n"));
  printed = clarify_response_new_from_data (run->out, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (clarify_response_get_outcome (printed), ==, CLARIFY_OUTCOME_ANSWERED);
  /* The caller's own id comes back, not the one the app used inside. */
  g_assert_cmpstr (clarify_response_get_request_id (printed), ==, "clarify-ask");
  g_assert_cmpstr (clarify_response_lookup_answer (printed, "q1")->values[0], ==, "Ada");
}

static void
test_cancelled (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--question", "Continue?", "--type", "confirm", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_CANCELLED);

  clarify_test_watch_answer (&fixture->watch, request, response);
  g_assert_cmpint (finish_cli (run), ==, 1);
  g_assert_cmpstr (run->out, ==, "");
}

static void
test_timed_out (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--question", "Quick?", "--timeout", "1", "--output", "json", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 1000);

  /* Nobody answers: the app's timer answers "timed out". */
  g_assert_cmpint (finish_cli (run), ==, 5);
  g_assert_nonnull (strstr (run->out, "\"outcome\":\"timed_out\""));
  g_assert_true (clarify_request_is_withdrawn (request));
}

/* Answers @request's question @question_id with @value, as the dialog
 * would, and checks that `clarify ask` printed it and succeeded. */
static void
answer_and_check (Fixture         *fixture,
                  ClarifyTestRun  *run,
                  ClarifyRequest  *request,
                  const char      *question_id,
                  const char      *value)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);
  g_autofree char *printed = g_strdup_printf ("%s\n", value);

  clarify_response_add_answer (response, question_id, (const char *[]) { value, NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_cmpstr (run->out, ==, printed);
}

static void
test_json_request (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *input = "{\"title\":\"From a file\",\"questions\":[{\"id\":\"size\",\"text\":\"How many?\","
                      "\"kind\":\"number\",\"validation\":{\"min\":1,\"max\":9}}]}";
  g_autoptr(ClarifyTestRun) run = start_cli (input, "ask", "--json", "-", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  g_assert_cmpstr (clarify_request_get_title (request), ==, "From a file");
  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 0)), ==, CLARIFY_QUESTION_KIND_NUMBER);
  answer_and_check (fixture, run, request, "size", "4");
}

/* What checking the request notes reaches the terminal as the command's
 * own words, not as a GLib log line. */
static void
test_notes_plainly (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--question", "Which?", "-o", "a", "-o", "a", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  answer_and_check (fixture, run, request, "q1", "a");
  g_assert_true (g_str_has_prefix (run->err, "clarify ask: Request clarify-ask: "));
  g_assert_null (strstr (run->err, "Clarify-Message"));
}

/* Numbers json-glib reads as infinity or prints wrongly ("inf", "1e-300.0")
 * reach the app as valid JSON, not as a parse error: an infinite bound is
 * no bound. */
static void
test_json_extreme_numbers (Fixture       *fixture,
                           gconstpointer  data)
{
  const char *input = "{\"questions\":[{\"id\":\"n\",\"text\":\"How far?\",\"kind\":\"number\","
                      "\"validation\":{\"min\":-1e309,\"max\":1e309,\"step\":1e-300}}]}";
  g_autoptr(ClarifyTestRun) run = start_cli (input, "ask", "--json", "-", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  const ClarifyValidation *validation = clarify_question_get_validation (clarify_request_get_question (request, 0));

  g_assert_false (validation->has_min);
  g_assert_false (validation->has_max);
  g_assert_cmpfloat_with_epsilon (validation->step, 1e-300, 1e-315);
  answer_and_check (fixture, run, request, "n", "4");
}

/* The texts of a request go to the app in all their languages, and the
 * app picks its own: a `clarify ask` from an English terminal to a German
 * Clarify showed English questions beside German buttons. */
static void
test_json_languages (Fixture       *fixture,
                     gconstpointer  data)
{
  const char *input = "{\"questions\":[{\"id\":\"w\",\"kind\":\"text\","
                      "\"text\":{\"en\":\"Where should I deploy?\",\"de\":\"Wohin soll ich ausliefern?\"}}]}";
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  const char *argv[] = { test_binary, "ask", "--json", "-", NULL };
  g_autoptr(ClarifyTestRun) run = NULL;
  ClarifyRequest *request;

  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "en", TRUE);
  g_setenv ("LANGUAGE", "de", TRUE);
  run = clarify_test_run_spawn (launcher, input, argv);
  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_setenv ("LANGUAGE", "en", TRUE);

  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==, "Wohin soll ich ausliefern?");
  answer_and_check (fixture, run, request, "w", "staging");
}

static void
test_concurrent_same_id (Fixture       *fixture,
                         gconstpointer  data)
{
  /* Two scripts, both sending id "clarify-ask": two dialogs, two answers. */
  g_autoptr(ClarifyTestRun) first = start_cli (NULL, "ask", "--question", "First?", NULL);
  g_autoptr(ClarifyTestRun) second = NULL;
  ClarifyRequest *a = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  ClarifyRequest *b;

  second = start_cli (NULL, "ask", "--question", "Second?", NULL);
  b = clarify_test_watch_wait_request_for (&fixture->watch, 2, WAIT_MS);
  g_assert_cmpstr (clarify_request_get_id (a), !=, clarify_request_get_id (b));

  for (guint i = 0; i < 2; i++)
    {
      ClarifyRequest *request = i == 0 ? b : a;
      g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                                  CLARIFY_OUTCOME_ANSWERED);
      const char *text = clarify_question_get_text (clarify_request_get_question (request, 0));

      clarify_response_add_answer (response, "q1", (const char *[]) { text, NULL }, NULL, FALSE);
      clarify_test_watch_answer (&fixture->watch, request, response);
    }

  g_assert_cmpint (finish_cli (first), ==, 0);
  g_assert_cmpstr (first->out, ==, "First?\n");
  g_assert_cmpint (finish_cli (second), ==, 0);
  g_assert_cmpstr (second->out, ==, "Second?\n");
}

static void
test_interrupted (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--question", "Still there?", NULL);
  ClarifyRequest *request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);

  /* Ctrl+C in the script: its bus name vanishes and the dialog goes. */
  g_subprocess_send_signal (run->process, SIGINT);
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_true (clarify_test_loop_until (run_done, run, WAIT_MS));
}

static void
test_bad_arguments (void)
{
  const struct {
    const char *args[10];
    const char *message;
  } cases[] = {
    { { "ask", NULL }, "At least one --question is required" },
    { { "ask", "--type", "select", NULL }, "At least one --question is required" },
    { { "ask", "--question", "Q", "--type", "colour", NULL }, "Unknown --type “colour”" },
    { { "ask", "--question", "Q", "--type", "select", NULL }, "option" },
    { { "ask", "--question", "Q", "--output", "xml", NULL }, "Unknown --output “xml”" },
    /* Choices on a kind that has none were once dropped without a word. */
    { { "ask", "--question", "Name?", "--type", "text", "-o", "Ada", NULL }, "apply only to select and multi-select questions, not to “Name?”" },
    { { "ask", "--question", "Sure?", "--type", "confirm", "--other", NULL }, "not to “Sure?”" },
    { { "ask", "--question", "Q", "stray", NULL }, "Unexpected argument “stray”" },
    { { "ask", "--question", "Q", "--timeout", "0", NULL }, "--timeout must be a positive number" },
    /* -1 once stood for "not given" and meant no timeout at all. */
    { { "ask", "--question", "Q", "--timeout", "-1", NULL }, "--timeout must be a positive number" },
    /* Would wrap around in milliseconds: refused, not shortened. */
    { { "ask", "--question", "Q", "--timeout", "4294968", NULL }, "--timeout must be a positive number of seconds, at most 4294967" },
    { { "ask", "--question", "Q", "--frobnicate", NULL }, "frobnicate" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) args = g_ptr_array_new ();
      g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                           G_SUBPROCESS_FLAGS_STDERR_PIPE);
      g_autoptr(ClarifyTestRun) run = NULL;

      g_ptr_array_add (args, test_binary);
      for (guint j = 0; cases[i].args[j] != NULL; j++)
        g_ptr_array_add (args, (char *) cases[i].args[j]);
      g_ptr_array_add (args, NULL);

      run = clarify_test_run_spawn (launcher, NULL, (const char * const *) args->pdata);

      g_assert_cmpint (finish_cli (run), ==, 2);
      g_assert_cmpstr (run->out, ==, "");
      g_assert_true (g_str_has_prefix (run->err, "clarify ask: "));
      g_assert_nonnull (strstr (run->err, cases[i].message));
    }
}

/* The real `clarify`, run from the build tree by someone on a German
 * desktop who set nothing else: its messages come from the build's
 * catalog (they were English until CLARIFY_LOCALEDIR was set by hand). */
static void
test_build_tree_speaks_german (void)
{
  const char *argv[] = { g_getenv ("CLARIFY_BINARY"), "ask", "--question", "Q", "--frobnicate", NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(ClarifyTestRun) run = NULL;

  g_assert_nonnull (argv[0]);
  g_subprocess_launcher_unsetenv (launcher, "CLARIFY_LOCALEDIR");
  g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "de_DE.UTF-8", TRUE);
  run = clarify_test_run_spawn (launcher, NULL, argv);

  g_assert_cmpint (finish_cli (run), ==, 2);
  g_assert_nonnull (strstr (run->err, "Rufen Sie „clarify ask --help“ auf"));
}

static void
test_bad_json (void)
{
  const struct {
    const char *input;
    const char *message;
  } cases[] = {
    { "{\"questions\":[", "clarify ask: " },
    { "[1,2]", "must be a JSON object" },
    { "{\"questions\":[]}", "clarify ask: " },
    { "{\"questions\":[{\"kind\":\"text\"}]}", "clarify ask: " },
    /* A wrong timeout_ms no longer refuses the request: test-json has it. */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ClarifyTestRun) run = start_cli (cases[i].input, "ask", "--json", "-", NULL);

      g_assert_cmpint (finish_cli (run), ==, 2);
      g_assert_nonnull (strstr (run->err, cases[i].message));
    }
}

static void
test_unreachable (void)
{
  const char *argv[] = { test_binary, "ask", "--question", "Anyone?", NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(ClarifyTestRun) run = NULL;

  /* No session bus at all: nothing could start Clarify either. */
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/clarify-test", TRUE);
  run = clarify_test_run_spawn (launcher, NULL, argv);

  g_assert_cmpint (finish_cli (run), ==, 3);
  g_assert_nonnull (strstr (run->err, "cannot reach the session bus"));
}

static void
test_activation (void)
{
  /* Nobody owns the name now: the bus starts `test-cli --serve-activation`
   * from the service file, as it starts `clarify --gapplication-service`. */
  g_autoptr(ClarifyTestRun) run = start_cli (NULL, "ask", "--question", "Who answers?", NULL);

  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_cmpstr (run->out, ==, "activated\n");
}

/* ---------------------------------------------------------------------- */
/* mcp-stdio */

static char *
read_reply (GDataInputStream *out)
{
  char *line = clarify_test_read_line (out, WAIT_MS);

  g_assert_nonnull (line);

  return line;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static void
test_mcp_stdio (Fixture       *fixture,
                gconstpointer  data)
{
  const char *argv[] = { test_binary, "mcp-stdio", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyResponse) response = NULL;
  GOutputStream *in;
  ClarifyRequest *request;
  char *reply;
  const char *question_id;
  g_autofree char *expected = NULL;
  gboolean exited = FALSE;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  in = g_subprocess_get_stdin_pipe (process);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));

  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}");
  reply = read_reply (out);
  g_assert_true (g_str_has_prefix (reply, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\""));
  g_free (reply);

  /* A notification gets no line; the next reply is the ping's. */
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
  reply = read_reply (out);
  g_assert_cmpstr (reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
  g_free (reply);

  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
  reply = read_reply (out);
  g_assert_nonnull (strstr (reply, "\"name\":\"ask_user\""));
  g_assert_nonnull (strstr (reply, "\"maxItems\":10"));
  g_free (reply);

  clarify_test_send_line (in, "not json");
  reply = read_reply (out);
  g_assert_cmpstr (reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
  g_free (reply);

  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                 "\"arguments\":{\"title\":\"Via stdio\",\"questions\":[{\"question\":\"Which DB?\",\"type\":\"select\","
                 "\"options\":[\"PostgreSQL\",\"SQLite\"]}]}}}");
  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Via stdio");
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 300000);
  question_id = clarify_question_get_id (clarify_request_get_question (request, 0));
  g_assert_true (g_str_has_prefix (question_id, "q_"));

  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, question_id, (const char *[]) { "SQLite", NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);

  reply = read_reply (out);
  expected = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                              "\"{\\\"answered\\\":true,\\\"cancelled\\\":false,\\\"timedOut\\\":false,\\\"answers\\\":"
                              "[{\\\"questionId\\\":\\\"%s\\\",\\\"values\\\":[\\\"SQLite\\\"]}]}\"}]}}", question_id);
  g_assert_cmpstr (reply, ==, expected);
  g_free (reply);

  /* A second call, then the host closes stdin: the process leaves and the
   * dialog is withdrawn. */
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                 "\"arguments\":{\"questions\":[{\"question\":\"Never answered\"}]}}}");
  request = clarify_test_watch_wait_request_for (&fixture->watch, 2, WAIT_MS);
  g_output_stream_close (in, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_async (process, NULL, wait_cb, &exited);
  g_assert_true (clarify_test_loop_until (is_true, &exited, WAIT_MS));
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
}

/* A notifications/progress line for @token_json with count @progress. */
static void
assert_progress_line (const char *line,
                      const char *token_json,
                      guint       progress)
{
  g_autofree char *prefix = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                                             "\"params\":{\"progressToken\":%s,\"progress\":%u,"
                                             "\"message\":\"Waiting for the user's answer in Clarify (",
                                             token_json, progress);

  g_assert_true (g_str_has_prefix (line, prefix));
  g_assert_true (g_regex_match_simple ("^[0-9]+ s\\)\"}}$", line + strlen (prefix), 0, 0));
}

static void
test_mcp_stdio_progress (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  GOutputStream *in;
  ClarifyRequest *request;
  guint progress = 0;
  char *reply;
  gboolean exited = FALSE;

  /* Test-only: progress every 100 ms instead of 10 s. */
  g_subprocess_launcher_setenv (launcher, "CLARIFY_MCP_TEST_PROGRESS_INTERVAL_MS", "100", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, test_binary, "mcp-stdio", NULL);
  g_assert_no_error (error);
  in = g_subprocess_get_stdin_pipe (process);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));

  /* A call with a progressToken: a line every interval while it waits. */
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                 "\"arguments\":{\"questions\":[{\"id\":\"q\",\"question\":\"Long one?\"}]},"
                 "\"_meta\":{\"progressToken\":5}}}");
  request = clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *line = read_reply (out);

      assert_progress_line (line, "5", ++progress);
    }

  /* Answered: perhaps one more line that was on its way, then the result, and no more. */
  {
    g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                                CLARIFY_OUTCOME_ANSWERED);

    clarify_response_add_answer (response, "q", (const char *[]) { "done", NULL }, NULL, FALSE);
    clarify_test_watch_answer (&fixture->watch, request, response);
  }
  while (g_str_has_prefix ((reply = read_reply (out)), "{\"jsonrpc\":\"2.0\",\"method\""))
    {
      assert_progress_line (reply, "5", ++progress);
      g_free (reply);
    }
  g_assert_cmpstr (reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                              "\"{\\\"answered\\\":true,\\\"cancelled\\\":false,\\\"timedOut\\\":false,\\\"answers\\\":"
                              "[{\\\"questionId\\\":\\\"q\\\",\\\"values\\\":[\\\"done\\\"]}]}\"}]}}");
  g_free (reply);

  /* Without a token the call is silent until its result, and the finished
   * call above sends nothing more: the next line is the ping's. */
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                 "\"arguments\":{\"questions\":[{\"id\":\"q\",\"question\":\"Quiet one?\"}]}}}");
  request = clarify_test_watch_wait_request_for (&fixture->watch, 2, WAIT_MS);
  clarify_test_loop_for (400);
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
  reply = read_reply (out);
  g_assert_cmpstr (reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");
  g_free (reply);
  {
    g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                                CLARIFY_OUTCOME_CANCELLED);

    clarify_test_watch_answer (&fixture->watch, request, response);
  }
  reply = read_reply (out);
  g_assert_true (g_str_has_prefix (reply, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":"));
  g_free (reply);

  /* A client that gives up on a call (its timeout, its user's Esc) cancels
   * it: the dialog goes, though the process stays. */
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                 "\"arguments\":{\"questions\":[{\"id\":\"q\",\"question\":\"Given up?\"}]},"
                 "\"_meta\":{\"progressToken\":6}}}");
  request = clarify_test_watch_wait_request_for (&fixture->watch, 3, WAIT_MS);
  reply = read_reply (out);
  assert_progress_line (reply, "6", 1);
  g_free (reply);
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":4}}");
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
  while (g_str_has_prefix ((reply = read_reply (out)), "{\"jsonrpc\":\"2.0\",\"method\""))
    g_free (reply);
  g_assert_cmpstr (reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                              "\"The request was cancelled before the user answered\"}],\"isError\":true}}");
  g_free (reply);

  g_output_stream_close (in, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_async (process, NULL, wait_cb, &exited);
  g_assert_true (clarify_test_loop_until (is_true, &exited, WAIT_MS));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
}

/* ---------------------------------------------------------------------- */
/* --serve-activation: what the bus starts for the activation test */

static void
serve_request_added_cb (ClarifyBackend *backend,
                        ClarifyRequest *request,
                        GMainLoop      *loop)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);

  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    clarify_response_add_answer (response,
                                 clarify_question_get_id (clarify_request_get_question (request, i)),
                                 (const char *[]) { "activated", NULL }, NULL, FALSE);
  clarify_backend_deliver_async (backend, request, response, NULL, NULL, NULL);
  /* Let the reply go out, then leave. */
  g_timeout_add_seconds (1, (GSourceFunc) (GCallback) g_main_loop_quit, loop);
}

static int
serve_activation (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_STARTER, NULL, NULL);
  g_autoptr(ClarifyBackend) backend = NULL;

  if (bus == NULL)
    return 1;

  backend = clarify_dbus_backend_new (bus, NULL);
  g_signal_connect (backend, "request-added", G_CALLBACK (serve_request_added_cb), loop);
  clarify_backend_start (backend);
  g_bus_own_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL, NULL, NULL);
  /* Never linger if the test went away. */
  g_timeout_add_seconds (30, (GSourceFunc) (GCallback) g_main_loop_quit, loop);
  g_main_loop_run (loop);
  clarify_backend_stop (backend);

  return 0;
}

/* --serve-hold MODE: an app that takes the question and never answers.
 * It says "ready" once it owns the name and "asked" when the question is
 * there; with MODE "release" it then gives up the name but stays on the
 * bus, so no error reply ever reaches the caller. */
typedef struct
{
  gboolean release;
  guint    owner_id;
} Hold;

static void
hold_acquired_cb (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  g_print ("ready\n");
  fflush (stdout);
}

static void
hold_request_added_cb (ClarifyBackend *backend,
                       ClarifyRequest *request,
                       Hold           *hold)
{
  g_print ("asked\n");
  fflush (stdout);
  if (hold->release)
    g_clear_handle_id (&hold->owner_id, g_bus_unown_name);
}

static int
serve_hold (const char *mode)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(ClarifyBackend) backend = NULL;
  Hold hold = { g_strcmp0 (mode, "release") == 0, 0 };

  if (bus == NULL)
    return 1;

  backend = clarify_dbus_backend_new (bus, NULL);
  g_signal_connect (backend, "request-added", G_CALLBACK (hold_request_added_cb), &hold);
  clarify_backend_start (backend);
  hold.owner_id = g_bus_own_name_on_connection (bus, CLARIFY_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
                                                hold_acquired_cb, NULL, NULL, NULL);
  /* Never linger if the test went away. */
  g_timeout_add_seconds (30, (GSourceFunc) (GCallback) g_main_loop_quit, loop);
  g_main_loop_run (loop);
  clarify_backend_stop (backend);

  return 0;
}

/* Clarify dies (SIGKILL) or leaves its name while `clarify ask` waits: the
 * caller says so and exits with "unreachable" (3), never hangs. */
static void
test_clarify_gone (gconstpointer data)
{
  const char *mode = data;
  const char *argv[] = { test_binary, "--serve-hold", mode, NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) server_out = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *asked = NULL;

  server = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  server_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  ready = clarify_test_read_line (server_out, WAIT_MS);
  g_assert_cmpstr (ready, ==, "ready");

  run = start_cli (NULL, "ask", "--question", "Still there?", NULL);
  asked = clarify_test_read_line (server_out, WAIT_MS);
  g_assert_cmpstr (asked, ==, "asked");
  if (g_str_equal (mode, "kill"))
    g_subprocess_force_exit (server);

  g_assert_cmpint (finish_cli (run), ==, 3);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "clarify ask: Clarify quit before the question was answered.\n");
  g_subprocess_force_exit (server);
  g_assert_true (g_subprocess_wait (server, NULL, NULL));
}

/* Clarify dies (SIGKILL) or leaves its name while `clarify mcp-stdio`
 * waits for an ask_user call: the MCP host gets a tool error that says
 * so, on the call's id, and the bridge keeps serving. */
static void
test_mcp_stdio_clarify_gone (gconstpointer data)
{
  const char *mode = data;
  const char *server_argv[] = { test_binary, "--serve-hold", mode, NULL };
  const char *argv[] = { test_binary, "mcp-stdio", NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) server_out = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *asked = NULL;
  gboolean exited = FALSE;
  GOutputStream *in;
  char *reply;

  server = g_subprocess_launcher_spawnv (launcher, server_argv, &error);
  g_assert_no_error (error);
  server_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  ready = clarify_test_read_line (server_out, WAIT_MS);
  g_assert_cmpstr (ready, ==, "ready");

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  in = g_subprocess_get_stdin_pipe (process);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}");
  g_free (read_reply (out));
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"ask_user\","
                          "\"arguments\":{\"questions\":[{\"question\":\"Still there?\"}]}}}");
  asked = clarify_test_read_line (server_out, WAIT_MS);
  g_assert_cmpstr (asked, ==, "asked");
  if (g_str_equal (mode, "kill"))
    g_subprocess_force_exit (server);

  reply = read_reply (out);
  g_assert_cmpstr (reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                   "\"Clarify could not ask the user: Clarify quit before the question was answered.\"}],\"isError\":true}}");
  g_free (reply);

  /* Still serving: a ping gets its answer. */
  clarify_test_send_line (in, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
  reply = read_reply (out);
  g_assert_cmpstr (reply, ==, "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}");
  g_free (reply);

  g_output_stream_close (in, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_async (process, NULL, wait_cb, &exited);
  g_assert_true (clarify_test_loop_until (is_true, &exited, WAIT_MS));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_subprocess_force_exit (server);
  g_assert_true (g_subprocess_wait (server, NULL, NULL));
}

static int
run_set_password (const char *name,
                  const char *input,
                  char      **out)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "CLARIFY_SECRET_STORE", "file", TRUE);
  /* The isolated dirs live in GLib's cache, not in the environment. */
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, test_binary, "set-password", name, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, input, NULL, out, NULL, &error);
  g_assert_no_error (error);

  return g_subprocess_get_exit_status (process);
}

/* The password goes to the secret store, never to the output. */
static void
test_set_password (void)
{
  g_autofree char *out = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *out_cleared = NULL;
  g_autofree char *out_bad = NULL;
  g_autofree char *out_kept = NULL;
  g_autofree char *out_help = NULL;
  g_autofree char *out_option = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

  if (run_set_password ("work", "s3cret pass\n", &out) != 0)
    g_error ("set-password failed: %s", out);
  g_assert_null (strstr (out, "s3cret"));
  stored = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, "s3cret pass");

  g_assert_cmpint (run_set_password ("work", "\n", &out_cleared), ==, 0);
  g_clear_pointer (&stored, g_free);
  stored = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_null (stored);

  g_assert_cmpint (run_set_password ("bad name", "x\n", &out_bad), ==, CLARIFY_CLI_EXIT_BAD_ARGS);

  /* Options are not names: asking for help stores and removes nothing. */
  g_assert_cmpint (run_set_password ("work", "kept\n", &out_kept), ==, 0);
  g_assert_cmpint (run_set_password ("--help", "\n", &out_help), ==, 0);
  g_assert_true (g_str_has_prefix (out_help, "Usage: clarify set-password NAME"));
  g_assert_cmpint (run_set_password ("-x", "\n", &out_option), ==, CLARIFY_CLI_EXIT_BAD_ARGS);
  g_clear_pointer (&stored, g_free);
  stored = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, "kept");
}

static gboolean
password_changed_cb (ClarifyDbusBackend *backend,
                     const char         *name,
                     GPtrArray          *changed)
{
  g_ptr_array_add (changed, g_strdup (name));

  /* As the application: "work" is a connection it runs. */
  return g_str_equal (name, "work");
}

/* `clarify set-password NAME` with the password on stdin, its own config
 * dir @config_home. */
static ClarifyTestRun *
start_set_password (const char *name,
                    const char *input,
                    const char *config_home)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE);
  const char *argv[] = { test_binary, "set-password", name, NULL };

  g_subprocess_launcher_setenv (launcher, "CLARIFY_SECRET_STORE", "file", TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config_home, TRUE);

  return clarify_test_run_spawn (launcher, input, argv);
}

/* While Clarify runs, set-password hands the password to it: the running
 * process stores it (here this one, whose config dir is not the CLI's) and
 * reconnects that connection; nothing is logged, nothing stored by the CLI. */
static void
test_set_password_running (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GPtrArray) changed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *elsewhere = g_dir_make_tmp ("clarify-cli-config-XXXXXX", &error);
  g_autofree char *cli_file = NULL;
  g_autofree char *stored = NULL;
  g_autoptr(ClarifyTestRun) set = NULL;
  g_autoptr(ClarifyTestRun) other = NULL;
  g_autoptr(ClarifyTestRun) removed = NULL;

  g_assert_no_error (error);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_signal_connect (fixture->backend, "password-changed", G_CALLBACK (password_changed_cb), changed);

  set = start_set_password ("work", "n3w pass\n", elsewhere);
  g_assert_cmpint (finish_cli (set), ==, 0);
  g_assert_cmpstr (set->out, ==, "Stored the password of “work”; Clarify reconnects with it now.\n");
  g_assert_cmpuint (changed->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (changed, 0), ==, "work");
  stored = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, "n3w pass");
  cli_file = g_build_filename (elsewhere, "clarify", "secrets", NULL);
  g_assert_false (g_file_test (cli_file, G_FILE_TEST_EXISTS));
  g_assert_false (clarify_test_log_seen ("*n3w pass*"));

  /* No such connection runs: stored, used once there is one. */
  other = start_set_password ("later", "x\n", elsewhere);
  g_assert_cmpint (finish_cli (other), ==, 0);
  g_assert_cmpstr (other->out, ==, "Stored the password of “later”.\n");

  removed = start_set_password ("work", "\n", elsewhere);
  g_assert_cmpint (finish_cli (removed), ==, 0);
  g_assert_cmpstr (removed->out, ==, "Removed the password of “work”.\n");
  g_assert_cmpuint (changed->len, ==, 3);
  g_clear_pointer (&stored, g_free);
  stored = clarify_secret_lookup ("connection:work", &error);
  g_assert_no_error (error);
  g_assert_null (stored);
  g_assert_false (g_file_test (cli_file, G_FILE_TEST_EXISTS));

  g_signal_handlers_disconnect_by_func (fixture->backend, password_changed_cb, changed);
  clarify_test_remove_tree (elsewhere);
}

/* clarify --mcp-info: where to connect, and for each client what keeps a
 * long question's call alive and what to set otherwise. */
static void
test_mcp_info (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *out = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token_line = NULL;
  g_autoptr(GError) error = NULL;
  const char *expected[] = {
    "MCP endpoint: http://127.0.0.1:7111/mcp\n",
    "OpenCode waits for the answer as long as Clarify reports progress,\n"
    "every 10 seconds while the dialog is open. A \"timeout\" (ms) set for\n"
    "this server applies to each request: leave it out, or keep it above 15000.\n",
    "claude mcp add --transport http clarify http://127.0.0.1:7111/mcp --header \"Authorization: Bearer ",
    "gives up after 300 seconds (CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT, in ms).\n"
    "MCP_TOOL_TIMEOUT and a per-server \"timeout\" are limits that progress\n",
    "result, set CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS=0 in Claude Code's\n",
    "call the tool with onprogress and resetTimeoutOnProgress: true, or\n",
    "clarify mcp-stdio",
  };

  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_SECRET_STORE", "file", TRUE);
  /* The isolated dirs live in GLib's cache, not in the environment. */
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, test_binary, "--mcp-info", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);

  /* The token it made and stored, shown once. */
  token = clarify_secret_lookup ("mcp-token", &error);
  g_assert_no_error (error);
  g_assert_nonnull (token);
  token_line = g_strdup_printf ("\nToken: %s\n", token);
  g_assert_nonnull (strstr (out, token_line));

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_test_message ("expecting: %s", expected[i]);
      g_assert_nonnull (strstr (out, expected[i]));
    }
}

/* No keyring, and secrets not to be stored in a file: the token lives in
 * the running Clarify's memory, and a token made up here would be refused
 * by its endpoint. Said instead, with the way that needs none. */
static void
test_mcp_info_memory_only (void)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *secrets_path = clarify_secret_get_file_path ();
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_secret_set_fallback (CLARIFY_SECRET_FALLBACK_MEMORY, &error));
  g_assert_no_error (error);
  g_subprocess_launcher_unsetenv (launcher, "CLARIFY_SECRET_STORE");
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  /* No Secret Service: a bus nobody listens on. */
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, test_binary, "--mcp-info", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);

  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "Clarify keeps its MCP token in memory only"));
  g_assert_nonnull (strstr (err, "“clarify mcp-stdio”, which needs no token"));
  g_assert_false (g_file_test (secrets_path, G_FILE_TEST_EXISTS));

  g_assert_true (clarify_secret_set_fallback (CLARIFY_SECRET_FALLBACK_FILE, &error));
  g_assert_no_error (error);
}

/* ---------------------------------------------------------------------- */
/* clarify chat: a recorded iHub turn, its question shown over D-Bus */

#define IHUB_CHAT "chat-selftest-select"

static char *
ihub_path (const char *chat_id,
           const char *tail)
{
  return g_strconcat ("/api/apps/translator/chat/", chat_id, tail, NULL);
}

/* A fake iHub with the app "translator" whose chat @chat_id streams
 * whatever the test sends; *@spec is the connection to give `chat`. */
static ClarifyTestServer *
ihub_server_new (const char  *chat_id,
                 char       **spec)
{
  ClarifyTestServer *server = clarify_test_server_new ();
  g_autofree char *url = clarify_test_server_get_url (server, "");
  g_autofree char *path = ihub_path (chat_id, "");
  g_autofree char *accepted = g_strdup_printf ("{\"status\":\"streaming\",\"chatId\":\"%s\"}", chat_id);
  g_autofree char *greeting = g_strdup_printf ("event: connected\ndata: {\"event\":\"connected\",\"chatId\":\"%s\"}\n\n",
                                               chat_id);

  clarify_test_server_add_json (server, "GET", "/api/apps", 200, "application/json",
                                "[{\"id\":\"translator\",\"name\":{\"en\":\"Translator\"},\"preferredModel\":\"fake-llm\"}]");
  clarify_test_server_add_sse (server, path);
  clarify_test_server_set_sse_greeting (server, path, greeting);
  clarify_test_server_add_json (server, "POST", path, 200, "application/json", accepted);
  /* GLib points the children's dirs at /dev/null; the chat keeps its file. */
  g_setenv ("XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  *spec = g_strconcat ("corp=ihub:", url, NULL);

  return server;
}

/* Replays the recorded turn @name of @chat_id once its @n_post-th POST came. */
static void
ihub_serve_turn (ClarifyTestServer *server,
                 const char        *chat_id,
                 const char        *name,
                 guint              n_post)
{
  g_autofree char *sse_name = g_strconcat ("protocols/ihub-captured/", name, ".sse", NULL);
  g_autofree char *body_name = g_strconcat ("protocols/ihub-captured/", name, ".sse.body", NULL);
  g_autofree char *stream = clarify_test_load_fixture (sse_name);
  g_autofree char *body = clarify_test_load_fixture (body_name);
  g_autofree char *path = ihub_path (chat_id, "");
  g_autoptr(ClarifyTestRequest) post = NULL;
  gsize length = (gsize) (strstr (stream, "\n\n") - stream) + 2;

  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", path, n_post, WAIT_MS));
  post = clarify_test_server_get_request (server, "POST", path, n_post - 1);
  g_assert_cmpstr (post->body, ==, body);
  g_assert_true (clarify_test_server_wait_for_n_streams (server, path, 1, WAIT_MS));
  clarify_test_server_sse_send (server, path, stream + length, -1);
}

static ClarifyTestRun *
ihub_start (const char *spec,
            const char *chat_id,
            const char *output,
            const char *message)
{
  return start_cli (NULL, "chat", spec, "--app", "translator", "--chat", chat_id,
                    "--output", output, message, NULL);
}

/* Starts `chat` on the recorded select case and returns its question. */
static ClarifyRequest *
ihub_start_select (Fixture            *fixture,
                   ClarifyTestServer **server,
                   ClarifyTestRun    **run,
                   const char         *output)
{
  g_autofree char *spec = NULL;

  *server = ihub_server_new (IHUB_CHAT, &spec);
  *run = ihub_start (spec, IHUB_CHAT, output, "Please help ask:select");
  ihub_serve_turn (*server, IHUB_CHAT, "select.1", 1);

  return clarify_test_watch_wait_request_for (&fixture->watch, 1, WAIT_MS);
}

static void
ihub_answer (Fixture        *fixture,
             ClarifyRequest *request,
             ClarifyOutcome  outcome,
             const char     *value)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request), outcome);

  if (value != NULL)
    clarify_response_add_answer (response, clarify_question_get_id (clarify_request_get_question (request, 0)),
                                 (const char *[]) { value, NULL }, NULL, FALSE);
  clarify_test_watch_answer (&fixture->watch, request, response);
}

static void
test_chat (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(ClarifyTestServer) server = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  g_autofree char *kept = g_build_filename (g_get_user_data_dir (), "clarify", "ihub", "corp",
                                            IHUB_CHAT ".json", NULL);
  ClarifyRequest *request = ihub_start_select (fixture, &server, &run, "plain");

  g_assert_cmpint (clarify_question_get_kind (clarify_request_get_question (request, 0)), ==,
                   CLARIFY_QUESTION_KIND_SINGLE);
  /* Named by its connection, not as "a program on this computer". */
  g_assert_cmpstr (clarify_request_get_caller (request), ==, "corp");
  ihub_answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, "fr");

  ihub_serve_turn (server, IHUB_CHAT, "select.2", 2);
  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_cmpstr (run->out, ==, "You answered: fr\n");
  g_assert_cmpstr (run->err, ==, "");
  g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
}

static void
test_chat_output_json (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(ClarifyTestServer) server = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) events = g_string_new (NULL);
  ClarifyRequest *request = ihub_start_select (fixture, &server, &run, "json");

  ihub_answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, "fr");
  ihub_serve_turn (server, IHUB_CHAT, "select.2", 2);
  g_assert_cmpint (finish_cli (run), ==, 0);
  g_assert_cmpstr (run->err, ==, "");

  /* One object per line, each naming its event; no plain text between. */
  g_assert_true (g_str_has_suffix (run->out, "}\n"));
  lines = g_strsplit (run->out, "\n", -1);
  for (guint i = 0; lines[i + 1] != NULL; i++)
    {
      g_autoptr(JsonNode) node = clarify_json_parse (lines[i], -1, NULL);

      g_assert_nonnull (node);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_string_append_printf (events, "%s ", clarify_json_get_string_member (json_node_get_object (node), "event"));
    }
  g_test_message ("events: %s", events->str);
  g_assert_nonnull (strstr (events->str, "tool.call.start clarification tool.call.end done "));
  g_assert_nonnull (strstr (events->str, "chunk "));
  g_assert_true (g_str_has_suffix (events->str, "done "));
  g_assert_null (strstr (run->out, "\nYou answered"));
}

static void
test_chat_cancelled (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(ClarifyTestServer) server = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  g_autofree char *path = ihub_path (IHUB_CHAT, "");
  ClarifyRequest *request = ihub_start_select (fixture, &server, &run, "plain");

  ihub_answer (fixture, request, CLARIFY_OUTCOME_CANCELLED, NULL);
  g_assert_cmpint (finish_cli (run), ==, CLARIFY_CLI_EXIT_CANCELLED);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "--chat " IHUB_CHAT));
  /* iHub cannot be told no: nothing more was sent. */
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", path), ==, 1);
}

/* The server fails the answer: the question waits in the kept
 * conversation, and the user is told how to answer it. */
static void
test_chat_answer_failed (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(ClarifyTestServer) server = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  g_autofree char *path = ihub_path (IHUB_CHAT, "");
  ClarifyRequest *request = ihub_start_select (fixture, &server, &run, "plain");

  clarify_test_server_set_json (server, "POST", path, 500, "text/plain", "Internal Server Error");
  ihub_answer (fixture, request, CLARIFY_OUTCOME_ANSWERED, "fr");
  g_assert_cmpint (finish_cli (run), ==, CLARIFY_CLI_EXIT_SERVER_ERROR);
  g_assert_cmpuint (clarify_test_server_get_n_requests (server, "POST", path), ==, 2);
  g_assert_nonnull (strstr (run->err, "clarify chat: the question waits; answer it with --chat " IHUB_CHAT "\n"));
}

/* Sends @frames on the turn's stream of @chat_id once its message was posted. */
static void
ihub_send (ClarifyTestServer *server,
           const char        *chat_id,
           const char        *frames)
{
  g_autofree char *path = ihub_path (chat_id, "");

  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", path, 1, WAIT_MS));
  g_assert_true (clarify_test_server_wait_for_n_streams (server, path, 1, WAIT_MS));
  clarify_test_server_sse_send (server, path, frames, -1);
}

static void
test_chat_server_errors (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *spec = NULL;
  g_autoptr(ClarifyTestServer) server = ihub_server_new ("chat-error", &spec);
  g_autoptr(ClarifyTestRun) error_event = NULL;
  g_autoptr(ClarifyTestRun) refused = NULL;
  g_autoptr(ClarifyTestRun) denied = NULL;
  g_autofree char *badtype_spec = NULL;
  g_autoptr(ClarifyTestServer) badtype = ihub_server_new ("chat-selftest-badtype", &badtype_spec);
  g_autofree char *denied_spec = NULL;
  g_autoptr(ClarifyTestServer) no_access = ihub_server_new ("chat-denied", &denied_spec);
  g_autofree char *denied_path = ihub_path ("chat-denied", "");

  error_event = ihub_start (spec, "chat-error", "plain", "hello");
  ihub_send (server, "chat-error",
             "event: error\ndata: {\"event\":\"error\",\"chatId\":\"chat-error\",\"message\":\"No API key\"}\n\n");
  g_assert_cmpint (finish_cli (error_event), ==, CLARIFY_CLI_EXIT_SERVER_ERROR);
  g_assert_cmpstr (error_event->err, ==, "clarify chat: The server reported an error: No API key\n");

  /* The recorded refusal of a question the model asked wrongly. */
  refused = ihub_start (badtype_spec, "chat-selftest-badtype", "plain", "ask:badtype");
  ihub_serve_turn (badtype, "chat-selftest-badtype", "badtype", 1);
  g_assert_cmpint (finish_cli (refused), ==, CLARIFY_CLI_EXIT_SERVER_ERROR);
  g_assert_true (g_str_has_prefix (refused->out, "The ask_user tool returned: {"));
  g_assert_true (g_str_has_prefix (refused->err, "clarify chat: The model asked a question that cannot be shown: "
                                                 "Invalid clarification request: Invalid input_type."));

  clarify_test_server_set_json (no_access, "POST", denied_path, 403, "application/json",
                                "{\"error\":\"Access denied\",\"code\":\"APP_ACCESS_DENIED\"}");
  denied = ihub_start (denied_spec, "chat-denied", "plain", "hello");
  g_assert_cmpint (finish_cli (denied), ==, CLARIFY_CLI_EXIT_SERVER_ERROR);
  g_assert_cmpstr (denied->err, ==, "clarify chat: The server does not let this account use the app.\n");
}

static void
test_chat_server_down (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *spec = NULL;
  g_autoptr(ClarifyTestServer) server = ihub_server_new ("chat-down", &spec);
  g_autoptr(ClarifyTestRun) run = NULL;

  /* Its port, now closed: nobody listens there. */
  clarify_test_server_free (g_steal_pointer (&server));
  run = ihub_start (spec, "chat-down", "plain", "hello");
  g_assert_cmpint (finish_cli (run), ==, CLARIFY_CLI_EXIT_UNREACHABLE);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_true (g_str_has_prefix (run->err, "clarify chat: cannot list the apps: "));
}

static void
test_chat_interrupted (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *spec = NULL;
  g_autoptr(ClarifyTestServer) server = ihub_server_new ("chat-long", &spec);
  g_autofree char *path = ihub_path ("chat-long", "");
  g_autofree char *stop = ihub_path ("chat-long", "/stop");
  g_autoptr(ClarifyTestRun) run = NULL;
  g_autoptr(ClarifyTestRequest) stopped = NULL;

  clarify_test_server_add_json (server, "POST", stop, 200, "application/json", "{\"success\":true}");
  run = ihub_start (spec, "chat-long", "plain", "Write a novel");
  /* Posted: the turn runs. */
  g_assert_true (clarify_test_server_wait_for_n_requests (server, "POST", path, 1, WAIT_MS));

  /* Ctrl+C: the model is told to stop, as by the web client's button. */
  g_subprocess_send_signal (run->process, SIGINT);
  stopped = clarify_test_server_wait_for_request (server, "POST", stop, WAIT_MS);
  g_assert_nonnull (stopped);
  g_assert_cmpint (finish_cli (run), ==, CLARIFY_CLI_EXIT_CANCELLED);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "clarify chat: The answer was stopped.\n");
}

static void
test_chat_interrupted_asking (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(ClarifyTestServer) server = NULL;
  g_autoptr(ClarifyTestRun) run = NULL;
  ClarifyRequest *request = ihub_start_select (fixture, &server, &run, "plain");

  /* No turn runs: nothing to stop; the question waits in the conversation. */
  g_subprocess_send_signal (run->process, SIGINT);
  g_assert_cmpint (finish_cli (run), ==, CLARIFY_CLI_EXIT_CANCELLED);
  g_assert_cmpstr (run->err, ==, "clarify chat: cancelled; answer later with --chat " IHUB_CHAT "\n");
  clarify_test_watch_wait_withdrawn (&fixture->watch, 1, WAIT_MS);
  g_assert_true (clarify_request_is_withdrawn (request));
}

static void
test_chat_bad_arguments (void)
{
  g_autoptr(ClarifyTestRun) no_message = start_cli (NULL, "chat", "corp=ihub:http://127.0.0.1:1", "--app", "x", NULL);
  g_autoptr(ClarifyTestRun) no_app = start_cli (NULL, "chat", "corp=ihub:http://127.0.0.1:1", "hello", NULL);
  g_autoptr(ClarifyTestRun) wrong_kind = start_cli (NULL, "chat", "corp=opencode:http://127.0.0.1:1", "--app", "x", "hi", NULL);

  /* The ids go into URLs as path segments. */
  g_autoptr(ClarifyTestRun) dot_app = start_cli (NULL, "chat", "corp=ihub:http://127.0.0.1:1", "--app", "..", "hi", NULL);
  g_autoptr(ClarifyTestRun) dot_chat = start_cli (NULL, "chat", "corp=ihub:http://127.0.0.1:1", "--app", "x",
                                                  "--chat", ".", "hi", NULL);

  g_assert_cmpint (finish_cli (no_message), ==, CLARIFY_CLI_EXIT_BAD_ARGS);
  g_assert_cmpint (finish_cli (no_app), ==, CLARIFY_CLI_EXIT_BAD_ARGS);
  g_assert_cmpint (finish_cli (wrong_kind), ==, CLARIFY_CLI_EXIT_BAD_ARGS);
  g_assert_cmpint (finish_cli (dot_app), ==, CLARIFY_CLI_EXIT_BAD_ARGS);
  g_assert_cmpint (finish_cli (dot_chat), ==, CLARIFY_CLI_EXIT_BAD_ARGS);
  g_assert_nonnull (strstr (dot_app->err, "cannot be empty, “.” or “..”"));
  g_assert_nonnull (strstr (dot_chat->err, "cannot be empty, “.” or “..”"));
}

/* The app takes out the G_SLICE that clarify put in for it, and only that:
 * a user's own setting goes on to what the app starts. */
static void
test_forget_slice_setting (void)
{
  g_setenv ("G_SLICE", "always-malloc", TRUE);
  g_setenv ("CLARIFY_SET_G_SLICE", "1", TRUE);
  clarify_cli_forget_slice_setting ();
  g_assert_null (g_getenv ("G_SLICE"));
  g_assert_null (g_getenv ("CLARIFY_SET_G_SLICE"));

  g_setenv ("G_SLICE", "debug-blocks", TRUE);
  clarify_cli_forget_slice_setting ();
  g_assert_cmpstr (g_getenv ("G_SLICE"), ==, "debug-blocks");
  g_unsetenv ("G_SLICE");
}

int
main (int   argc,
      char *argv[])
{
  /* Static: never finalized (clarify_test_session_bus_down()), it stays
   * reachable, not a leak to LeakSanitizer. */
  static GTestDBus *test_bus;
  g_autofree char *service_dir = NULL;
  g_autofree char *exec = NULL;
  int exit_status;
  int result;

  /* Run as the CLI (after setlocale, as src/main.c does) or as the activated service. */
  setlocale (LC_ALL, "");
  if (argc > 1 && g_str_equal (argv[1], "--serve-activation"))
    {
      clarify_test_log_init ();
      return serve_activation ();
    }
  if (argc > 2 && g_str_equal (argv[1], "--serve-hold"))
    {
      clarify_test_log_init ();
      return serve_hold (argv[2]);
    }
  /* Not here: `mcp-stdio` installs its own log writer, and GLib allows one. */
  if (clarify_cli_handle (argc, argv, &exit_status))
    return exit_status;

  test_binary = g_canonicalize_filename (argv[0], NULL);

  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* A private session bus whose service file names this binary. */
  exec = g_strdup_printf ("%s --serve-activation", test_binary);
  test_bus = clarify_test_session_bus_up (exec, &service_dir);

#define ADD(path, func) g_test_add ("/cli/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("ask/answered-text", test_answered_text);
  ADD ("ask/select-with-other", test_select_with_other);
  ADD ("ask/options-make-a-select", test_options_make_a_select);
  ADD ("ask/several-questions", test_several_questions);
  ADD ("ask/output-json", test_output_json);
  ADD ("ask/cancelled", test_cancelled);
  ADD ("ask/timed-out", test_timed_out);
  ADD ("ask/json-request", test_json_request);
  ADD ("ask/json-extreme-numbers", test_json_extreme_numbers);
  ADD ("ask/json-languages", test_json_languages);
  ADD ("ask/notes-plainly", test_notes_plainly);
  ADD ("ask/concurrent-same-id", test_concurrent_same_id);
  ADD ("ask/interrupted", test_interrupted);
  ADD ("mcp-stdio", test_mcp_stdio);
  ADD ("mcp-stdio/progress", test_mcp_stdio_progress);
  ADD ("chat", test_chat);
  ADD ("chat/output-json", test_chat_output_json);
  ADD ("chat/cancelled", test_chat_cancelled);
  ADD ("chat/answer-failed", test_chat_answer_failed);
  ADD ("chat/server-errors", test_chat_server_errors);
  ADD ("chat/server-down", test_chat_server_down);
  ADD ("chat/interrupted", test_chat_interrupted);
  ADD ("chat/interrupted-asking", test_chat_interrupted_asking);
  ADD ("set-password/running", test_set_password_running);
#undef ADD
  g_test_add_func ("/cli/ask/bad-arguments", test_bad_arguments);
  g_test_add_func ("/cli/ask/bad-json", test_bad_json);
  g_test_add_func ("/cli/ask/build-tree-speaks-german", test_build_tree_speaks_german);
  g_test_add_func ("/cli/ask/unreachable", test_unreachable);
  g_test_add_func ("/cli/ask/activation", test_activation);
  g_test_add_data_func ("/cli/ask/clarify-killed", "kill", test_clarify_gone);
  g_test_add_data_func ("/cli/ask/clarify-left", "release", test_clarify_gone);
  g_test_add_data_func ("/cli/mcp-stdio/clarify-killed", "kill", test_mcp_stdio_clarify_gone);
  g_test_add_data_func ("/cli/mcp-stdio/clarify-left", "release", test_mcp_stdio_clarify_gone);
  g_test_add_func ("/cli/set-password", test_set_password);
  g_test_add_func ("/cli/mcp-info", test_mcp_info);
  g_test_add_func ("/cli/mcp-info/memory-only", test_mcp_info_memory_only);
  g_test_add_func ("/cli/chat/bad-arguments", test_chat_bad_arguments);
  g_test_add_func ("/cli/forget-slice-setting", test_forget_slice_setting);

  result = g_test_run ();
  clarify_test_session_bus_down (test_bus, service_dir);

  return result;
}
