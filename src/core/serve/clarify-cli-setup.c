/* clarify-cli-setup.c: `clarify setup claude-code`, Clarify's hooks in
 * Claude Code's settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-claude-settings.h"
#include "clarify-cli.h"
#include "clarify-cli-private.h"

#define EXIT_FAILED 1

/* The clarify that runs now, as an absolute path: the hooks start it. */
static char *
running_program (const char *argv0)
{
  g_autofree char *found = NULL;

  if (argv0 != NULL && strchr (argv0, '/') != NULL)
    return g_canonicalize_filename (argv0, NULL);

  if (argv0 != NULL)
    found = g_find_program_in_path (argv0);
  if (found != NULL)
    return g_canonicalize_filename (found, NULL);

  return g_file_read_link ("/proc/self/exe", NULL);
}

static const char *
hook_purpose (ClarifyClaudeHook hook)
{
  switch (hook)
    {
    case CLARIFY_CLAUDE_HOOK_PERMISSION_REQUEST:
      return _("permission prompts and AskUserQuestion, answered in Clarify or in the terminal");
    case CLARIFY_CLAUDE_HOOK_ELICITATION:
      return _("the forms of MCP servers");
    case CLARIFY_CLAUDE_HOOK_IDLE_NOTIFICATION:
      return _("a desktop notification when Claude waits for your input");
    case CLARIFY_CLAUDE_N_HOOKS:
    default:
      g_assert_not_reached ();
    }
}

static void
print_changes (const ClarifyClaudeSetupResult *result,
               gboolean                        removing)
{
  for (guint i = 0; i < CLARIFY_CLAUDE_N_HOOKS; i++)
    {
      const char *matcher = clarify_claude_hook_matcher (i);
      g_autofree char *name = NULL;

      name = *matcher == '\0' ? g_strdup (clarify_claude_hook_event (i))
                              : g_strdup_printf ("%s (%s)", clarify_claude_hook_event (i), matcher);

      switch (result->changes[i])
        {
        case CLARIFY_CLAUDE_CHANGE_ADDED:
          /* Translators: the hook's event name, then what it does */
          g_print (_("  Added %s: %s\n"), name, hook_purpose (i));
          break;
        case CLARIFY_CLAUDE_CHANGE_UPDATED:
          g_print (_("  Pointed %s at this Clarify: %s\n"), name, hook_purpose (i));
          break;
        case CLARIFY_CLAUDE_CHANGE_REMOVED:
          g_print (_("  Removed %s\n"), name);
          break;
        case CLARIFY_CLAUDE_CHANGE_NONE:
        default:
          if (removing)
            g_print (_("  %s: not there\n"), name);
          else
            g_print (_("  Already there, %s: %s\n"), name, hook_purpose (i));
          break;
        }
    }
}

static void
print_advice (void)
{
  g_print ("\n");
  g_print ("%s\n", _("Permission modes: in “auto” mode, the default of current Claude Code versions, Claude Code "
                     "decides most tool calls itself, and Clarify sees only what it still leaves to you, such as "
                     "AskUserQuestion. To see every permission prompt in Clarify, start Claude Code with "
                     "“--permission-mode default”, or set \"permissions\": {\"defaultMode\": \"default\"} in its settings."));
  g_print ("\n");
  g_print ("%s\n", _("MCP: Claude Code gives up on an MCP tool call after 60 seconds unless the server reports "
                     "progress. Clarify’s ask_user tool does; after two minutes, though, Claude Code moves the "
                     "call to the background, and Claude gets your answer later, as a notification rather than "
                     "as the tool’s result. To have it wait for you instead, set CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS "
                     "to 0 in Claude Code’s environment or in the \"env\" of its settings. For servers that reply "
                     "only when done, set MCP_TOOL_TIMEOUT (in milliseconds) there as well."));
}

int
clarify_cli_run_setup (const char  *program,
                       int          argc,
                       char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *project = NULL;
  g_autofree char *path = NULL;
  g_autofree char *command = NULL;
  g_autofree char *self = NULL;
  g_auto(GStrv) args = NULL;
  g_auto(ClarifyClaudeSetupResult) result = { 0 };
  gboolean user = FALSE;
  gboolean remove = FALSE;
  gboolean existed;
  gboolean flatpak;
  const GOptionEntry entries[] = {
    { "user", 0, 0, G_OPTION_ARG_NONE, &user,
      N_("Your own settings, for every project (the default): ~/.claude/settings.json, or the one in $CLAUDE_CONFIG_DIR"), NULL },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project,
      N_("The settings of the project in DIR: DIR/.claude/settings.json"), N_("DIR") },
    { "remove", 0, 0, G_OPTION_ARG_NONE, &remove, N_("Take Clarify’s hooks out again"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("claude-code — answer Claude Code’s questions and permission prompts in Clarify"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("Adds Clarify’s hooks to Claude Code’s settings.json, next to what is there,\n"
                                  "and keeps the previous file as settings.json.clarify-backup.\n"
                                  "Exit status: 0 done (or nothing to do), 1 the file could not be changed,\n"
                                  "2 bad arguments."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  args = clarify_cli_args_new ("clarify setup", argc, argv);
  if (!g_option_context_parse_strv (context, &args, &error))
    goto bad_args;

  if (g_strv_length (args) != 2)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           _("Name the one client to set up: clarify setup claude-code"));
      goto bad_args;
    }
  if (!g_str_equal (args[1], "claude-code"))
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Unknown client “%s” (Clarify sets up claude-code)"), args[1]);
      goto bad_args;
    }
  if (user && project != NULL)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           _("Give --user or --project, not both"));
      goto bad_args;
    }
  if (project != NULL && !g_file_test (project, G_FILE_TEST_IS_DIR))
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s is not a folder"), project);
      goto bad_args;
    }

  path = project != NULL ? clarify_claude_settings_project_path (project) : clarify_claude_settings_user_path ();

  if (!remove)
    {
      flatpak = g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
      self = flatpak ? NULL : running_program (program);
      if (!flatpak && self == NULL)
        {
          g_printerr ("%s\n", _("clarify setup: cannot tell where this clarify program is"));
          return EXIT_FAILED;
        }
      command = clarify_claude_hook_command (self, flatpak);
    }

  existed = g_file_test (path, G_FILE_TEST_EXISTS);
  if (!clarify_claude_settings_update (path, command, &result, &error))
    {
      g_printerr (_("clarify setup: %s\n"), error->message);
      g_printerr ("%s\n", _("Claude Code’s settings were not changed."));
      return EXIT_FAILED;
    }

  g_print (_("Claude Code settings: %s\n"), path);
  print_changes (&result, remove);

  if (result.backup_path != NULL)
    g_print (_("The previous file is saved as %s.\n"), result.backup_path);
  else if (result.written && !existed)
    g_print ("%s\n", _("Created the file."));
  else if (result.written)
    /* The file was as Clarify wrote it: the backup holds the user's own. */
    g_print ("%s\n", _("The backup of the file as it was before Clarify changed it is kept."));
  else
    g_print ("%s\n", _("Nothing to change."));

  if (remove)
    {
      if (result.written)
        g_print ("%s\n", _("Claude Code sessions started from now on ask in the terminal only."));
      return 0;
    }

  g_print (_("The hooks run “%s”. Claude Code sessions started from now on use them.\n"), command);
  print_advice ();

  return 0;

bad_args:
  g_printerr (_("clarify setup: %s\n"), error->message);
  g_printerr ("%s\n", _("Run “clarify setup --help” to see the options."));

  return CLARIFY_CLI_EXIT_BAD_ARGS;
}
