/* clarify-cli-hook.c: `clarify hook claude-code`, the command Claude Code's
 * hooks run
 *
 * It must never stand in Claude Code's way: whatever goes wrong, it exits
 * 0 and prints nothing on stdout, and Claude Code's own terminal prompt
 * does the asking (exit 2 would deny a permission). Clarify has about a
 * second to be reached; after that the hook waits as long as the person
 * takes. It runs once per question, so it starts no GUI of its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "clarify-claude-code-codec.h"
#include "clarify-cli-private.h"
#include "clarify-dbus-backend.h"

/* Far more than any hook input; Claude Code's own tool inputs are capped
 * well below this. */
#define MAX_INPUT_BYTES (4 * 1024 * 1024)

/* How long Clarify may take to own its name. A cold start of the whole
 * app, D-Bus activated, took about 0.3 s here (see the report of issue
 * 11); a second leaves room for a loaded machine without keeping Claude
 * Code's prompt from the person noticeably. */
#define REACH_TIMEOUT_MS 1000

typedef struct
{
  GMainLoop       *loop;
  GDBusConnection *bus;
  guint            watch_id;
  guint            reader_watch_id;
  GCancellable    *cancellable;  /* the Hook call's; not owned */
  gboolean         reached;
  char            *output;
  GError          *error;
} Hook;

static void
hook_clear (Hook *hook)
{
  g_clear_handle_id (&hook->watch_id, g_bus_unwatch_name);
  g_clear_pointer (&hook->loop, g_main_loop_unref);
  g_clear_object (&hook->bus);
  g_clear_pointer (&hook->output, g_free);
  g_clear_error (&hook->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Hook, hook_clear)

/* All of stdin, or NULL with a message when it is larger than any hook's. */
static char *
read_input (GError **error)
{
  g_autoptr(GInputStream) stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  g_autofree char *buffer = g_malloc (MAX_INPUT_BYTES + 1);
  gsize length = 0;

  if (!g_input_stream_read_all (stream, buffer, MAX_INPUT_BYTES + 1, &length, NULL, error))
    return NULL;

  if (length > MAX_INPUT_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("The hook input is larger than %d MiB"), MAX_INPUT_BYTES / (1024 * 1024));
      return NULL;
    }

  buffer[length] = '\0';

  return g_realloc (g_steal_pointer (&buffer), length + 1);
}

static void
reached_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      data)
{
  Hook *hook = data;

  hook->reached = clarify_cli_reach_app_finish (result, &hook->error);
  g_main_loop_quit (hook->loop);
}

/* Waits until Clarify owns its name, starting it when it does not run. */
static gboolean
reach_clarify (Hook *hook)
{
  clarify_cli_reach_app_async (hook->bus, REACH_TIMEOUT_MS, NULL, reached_cb, hook);
  g_main_loop_run (hook->loop);

  return hook->reached;
}

static void
hook_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  Hook *hook = data;
  g_autoptr(GVariant) reply = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &hook->error);
  if (reply != NULL)
    g_variant_get (reply, "(s)", &hook->output);
  g_main_loop_quit (hook->loop);
}

/* Claude Code reads the answer from our stdout, a pipe: once nobody can
 * read it (Claude Code killed or gone), the question is let go, so that
 * Clarify withdraws its dialog rather than keep it for nobody. */
static gboolean
reader_gone_cb (int          fd,
                GIOCondition condition,
                gpointer     data)
{
  Hook *hook = data;

  hook->reader_watch_id = 0;
  g_cancellable_cancel (hook->cancellable);

  return G_SOURCE_REMOVE;
}

/* Asked for, the usage is an answer (0); otherwise the hook is set up
 * wrongly, which must not block Claude Code (2 would deny) but should be
 * seen: Claude Code shows the stderr of any other failure. */
static int
usage (gboolean asked)
{
  g_printerr ("%s\n", _("Usage: clarify hook claude-code (the hook's input on standard input)"));

  return asked ? 0 : 1;
}

/* Where the transcript ends as the hook begins: Clarify tells the call this
 * hook is about from an equal one the agent asked before by it (a result
 * written earlier answered the other). NULL when there is nothing to add. */
static char *
add_transcript_size (const char *input,
                     const char *transcript_path)
{
  GStatBuf status;
  g_autoptr(JsonNode) node = NULL;

  if (transcript_path == NULL || g_stat (transcript_path, &status) != 0 || status.st_size <= 0)
    return NULL;

  node = json_from_string (input, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  json_object_set_int_member (json_node_get_object (node), CLARIFY_CLAUDE_HOOK_TRANSCRIPT_SIZE, status.st_size);

  return json_to_string (node, FALSE);
}

int
clarify_cli_run_hook (int    argc,
                      char **argv)
{
  g_auto(Hook) hook = { 0 };
  g_autoptr(ClarifyClaudeHook) decoded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *input = NULL;
  g_autofree char *sized = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  const char *agent = argc == 2 ? argv[1] : NULL;

  if (agent == NULL || g_str_equal (agent, "--help") || g_str_equal (agent, "-h"))
    return usage (agent != NULL);
  if (!g_str_equal (agent, CLARIFY_CLAUDE_CODE_KIND))
    {
      g_printerr (_("clarify hook: unknown agent “%s”\n"), agent);
      return usage (FALSE);
    }

  input = read_input (&error);
  if (input == NULL)
    {
      g_printerr (_("clarify hook: cannot read the hook input: %s\n"), error->message);
      return 0;
    }

  /* Checked here too: a bad input gets its message without starting
   * Clarify, and notifications Clarify does not show cost nothing. */
  decoded = clarify_claude_hook_decode (input, -1, "check", &error);
  if (decoded == NULL)
    {
      g_printerr (_("clarify hook: %s\n"), error->message);
      return 0;
    }
  if (decoded->action == CLARIFY_CLAUDE_HOOK_IGNORED)
    return 0;
  sized = add_transcript_size (input, decoded->transcript_path);
  if (sized != NULL)
    {
      g_free (input);
      input = g_steal_pointer (&sized);
    }

  hook.bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (hook.bus == NULL)
    {
      g_printerr (_("clarify hook: cannot reach the session bus: %s\n"), error->message);
      return 0;
    }

  hook.loop = g_main_loop_new (NULL, FALSE);
  if (!reach_clarify (&hook))
    {
      if (g_error_matches (hook.error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        g_printerr ("%s\n", _("clarify hook: Clarify is not running and did not start in time; the terminal asks instead."));
      else
        g_printerr (_("clarify hook: cannot start Clarify: %s\n"), hook.error->message);
      return 0;
    }
  g_clear_error (&hook.error);

  /* No timeout: the person may take as long as the hook's own. But a
   * Clarify that dies meanwhile must not leave Claude Code waiting. */
  cancellable = g_cancellable_new ();
  hook.watch_id = clarify_cli_watch_owner (hook.bus, cancellable);
  g_dbus_connection_call (hook.bus, CLARIFY_DBUS_NAME, CLARIFY_DBUS_PATH, CLARIFY_DBUS_NAME, "Hook",
                          g_variant_new ("(ss)", agent, input), G_VARIANT_TYPE ("(s)"),
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, G_MAXINT, cancellable, hook_done_cb, &hook);
  hook.cancellable = cancellable;
  hook.reader_watch_id = g_unix_fd_add (STDOUT_FILENO, G_IO_ERR | G_IO_HUP, reader_gone_cb, &hook);
  g_main_loop_run (hook.loop);
  g_clear_handle_id (&hook.reader_watch_id, g_source_remove);

  if (hook.output == NULL)
    {
      /* Clarify went away or refused the input: the terminal asks. */
      g_dbus_error_strip_remote_error (hook.error);
      if (clarify_cli_is_owner_gone (hook.error))
        g_printerr ("%s\n", _("clarify hook: Clarify quit before answering; the terminal asks instead."));
      else
        g_printerr (_("clarify hook: %s\n"), hook.error->message);
      return 0;
    }

  if (*hook.output != '\0')
    {
      g_print ("%s\n", hook.output);
      fflush (stdout);
    }

  return 0;
}
