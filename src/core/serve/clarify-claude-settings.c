/* clarify-claude-settings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-claude-settings.h"
#include "clarify-json.h"
#include "clarify-json-config.h"

static const struct
{
  const char *event;
  const char *matcher;
} hooks_table[CLARIFY_CLAUDE_N_HOOKS] = {
  /* "" is every tool ("*" and no matcher mean the same); AskUserQuestion
   * comes here too, while the terminal shows its own prompt. */
  [CLARIFY_CLAUDE_HOOK_PERMISSION_REQUEST] = { "PermissionRequest", "" },
  /* The matcher is the MCP server's name: every server. */
  [CLARIFY_CLAUDE_HOOK_ELICITATION] = { "Elicitation", "" },
  /* Only "Claude is waiting for your input": the permission_prompt and
   * elicitation_dialog notifications are dialogs of their own already. */
  [CLARIFY_CLAUDE_HOOK_IDLE_NOTIFICATION] = { "Notification", "idle_prompt" },
};

void
clarify_claude_setup_result_clear (ClarifyClaudeSetupResult *result)
{
  g_clear_pointer (&result->backup_path, g_free);
}

const char *
clarify_claude_hook_event (ClarifyClaudeHook hook)
{
  g_return_val_if_fail (hook < CLARIFY_CLAUDE_N_HOOKS, NULL);

  return hooks_table[hook].event;
}

const char *
clarify_claude_hook_matcher (ClarifyClaudeHook hook)
{
  g_return_val_if_fail (hook < CLARIFY_CLAUDE_N_HOOKS, NULL);

  return hooks_table[hook].matcher;
}

/* ---------------------------------------------------------------------- */
/* Where, and what command */

/* Claude Code reads its user settings from $CLAUDE_CONFIG_DIR when that is
 * set (checked with 2.1.332: the hooks of ~/.claude/settings.json then do
 * not run). */
char *
clarify_claude_settings_user_path (void)
{
  const char *config_dir = g_getenv ("CLAUDE_CONFIG_DIR");
  g_autofree char *dir = NULL;

  if (config_dir != NULL && *config_dir != '\0')
    dir = g_canonicalize_filename (config_dir, NULL);
  else
    dir = g_build_filename (g_get_home_dir (), ".claude", NULL);

  return g_build_filename (dir, "settings.json", NULL);
}

char *
clarify_claude_settings_project_path (const char *project_dir)
{
  g_autofree char *dir = NULL;

  g_return_val_if_fail (project_dir != NULL, NULL);

  dir = g_canonicalize_filename (project_dir, NULL);

  return g_build_filename (dir, ".claude", "settings.json", NULL);
}

static gboolean
is_shell_safe (const char *word)
{
  if (*word == '\0')
    return FALSE;

  for (const char *p = word; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr ("/._+-@%:,=", *p) == NULL)
        return FALSE;
    }

  return TRUE;
}

char *
clarify_claude_hook_command (const char *program,
                             gboolean    flatpak)
{
  g_autofree char *quoted = NULL;

  /* The hook runs on the host, where Clarify is an app to start. */
  if (flatpak)
    return g_strdup ("flatpak run --command=clarify " APP_ID " hook claude-code");

  g_return_val_if_fail (program != NULL, NULL);

  quoted = is_shell_safe (program) ? g_strdup (program) : g_shell_quote (program);

  return g_strconcat (quoted, " hook claude-code", NULL);
}

gboolean
clarify_claude_hook_command_is_ours (const char *command)
{
  g_auto(GStrv) argv = NULL;
  g_autofree char *program = NULL;
  int argc;

  if (command == NULL || !g_shell_parse_argv (command, &argc, &argv, NULL) || argc < 3)
    return FALSE;

  if (!g_str_equal (argv[argc - 2], "hook") || !g_str_equal (argv[argc - 1], "claude-code"))
    return FALSE;

  program = g_path_get_basename (argv[0]);
  if (g_str_equal (program, "clarify"))
    return TRUE;

  if (!g_str_equal (program, "flatpak"))
    return FALSE;

  /* The app id, or a branch or Devel build of it. */
  for (int i = 1; i < argc - 2; i++)
    {
      if (g_str_has_prefix (argv[i], APP_ID))
        return TRUE;
    }

  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* The JSON */

static gboolean
fail_shape (GError     **error,
            const char  *event)
{
  if (event == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("“hooks” is not a JSON object"));
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("“hooks” → “%s” is not a list of matcher groups, as Claude Code writes them"), event);

  return FALSE;
}

static gboolean
is_string_or_absent (JsonObject *object,
                     const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node == NULL || (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING);
}

/* A list of {"matcher": "…", "hooks": [{"type": "…", "command": "…"}, …]}. */
static gboolean
check_event (JsonObject  *hooks,
             const char  *event,
             GError     **error)
{
  JsonNode *node = json_object_get_member (hooks, event);
  JsonArray *groups;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail_shape (error, event);

  groups = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (groups); i++)
    {
      JsonNode *group_node = json_array_get_element (groups, i);
      JsonObject *group;
      JsonArray *entries;

      if (!JSON_NODE_HOLDS_OBJECT (group_node))
        return fail_shape (error, event);

      group = json_node_get_object (group_node);
      entries = clarify_json_get_array_member (group, "hooks");
      if (entries == NULL || !is_string_or_absent (group, "matcher"))
        return fail_shape (error, event);

      for (guint j = 0; j < json_array_get_length (entries); j++)
        {
          JsonNode *entry = json_array_get_element (entries, j);

          if (!JSON_NODE_HOLDS_OBJECT (entry) ||
              !is_string_or_absent (json_node_get_object (entry), "type") ||
              !is_string_or_absent (json_node_get_object (entry), "command"))
            return fail_shape (error, event);
        }
    }

  return TRUE;
}

/* No matcher, "" and "*" all mean every occurrence. */
static gboolean
group_has_matcher (JsonObject *group,
                   const char *matcher)
{
  const char *own = clarify_json_get_string_member (group, "matcher");

  if (own == NULL || g_str_equal (own, "*"))
    own = "";

  return g_str_equal (own, matcher);
}

static gboolean
entry_is_ours (JsonObject *entry)
{
  return g_strcmp0 (clarify_json_get_string_member (entry, "type"), "command") == 0 &&
         clarify_claude_hook_command_is_ours (clarify_json_get_string_member (entry, "command"));
}

/* Visits Clarify's entries in @hook's groups. @visit returns TRUE to drop
 * the entry; a group left empty by that goes too, and so does the event's
 * list when it is left empty. Returns whether anything was dropped. */
typedef gboolean (*VisitEntry) (JsonObject *entry,
                                gpointer    data);

static gboolean
visit_ours (JsonObject        *hooks,
            ClarifyClaudeHook  hook,
            VisitEntry         visit,
            gpointer           data)
{
  JsonArray *groups = clarify_json_get_array_member (hooks, hooks_table[hook].event);
  gboolean dropped_any = FALSE;

  if (groups == NULL)
    return FALSE;

  for (guint i = 0; i < json_array_get_length (groups);)
    {
      JsonObject *group = json_array_get_object_element (groups, i);
      JsonArray *entries = json_object_get_array_member (group, "hooks");
      gboolean dropped = FALSE;

      if (!group_has_matcher (group, hooks_table[hook].matcher))
        {
          i++;
          continue;
        }

      for (guint j = 0; j < json_array_get_length (entries);)
        {
          JsonObject *entry = json_array_get_object_element (entries, j);

          if (entry_is_ours (entry) && visit (entry, data))
            {
              json_array_remove_element (entries, j);
              dropped = TRUE;
            }
          else
            {
              j++;
            }
        }

      dropped_any |= dropped;
      if (dropped && json_array_get_length (entries) == 0)
        json_array_remove_element (groups, i);
      else
        i++;
    }

  if (dropped_any && json_array_get_length (groups) == 0)
    json_object_remove_member (hooks, hooks_table[hook].event);

  return dropped_any;
}

typedef struct
{
  const char          *command;
  gboolean             found;
  ClarifyClaudeChange  change;
} AddVisit;

/* The first entry of ours is kept, pointed at @command; any others are
 * duplicates. A timeout the user changed stays theirs. */
static gboolean
add_visit (JsonObject *entry,
           gpointer    data)
{
  AddVisit *add = data;

  if (add->found)
    {
      add->change = CLARIFY_CLAUDE_CHANGE_UPDATED;
      return TRUE;
    }

  add->found = TRUE;
  if (g_strcmp0 (clarify_json_get_string_member (entry, "command"), add->command) != 0)
    {
      json_object_set_string_member (entry, "command", add->command);
      add->change = CLARIFY_CLAUDE_CHANGE_UPDATED;
    }

  return FALSE;
}

static gboolean
remove_visit (JsonObject *entry,
              gpointer    data)
{
  return TRUE;
}

static ClarifyClaudeChange
add_hook (JsonObject        *hooks,
          ClarifyClaudeHook  hook,
          const char        *command)
{
  AddVisit add = { command, FALSE, CLARIFY_CLAUDE_CHANGE_NONE };
  JsonArray *groups;
  JsonObject *group;
  JsonObject *entry;
  JsonArray *entries;

  visit_ours (hooks, hook, add_visit, &add);
  if (add.found)
    return add.change;

  groups = clarify_json_get_array_member (hooks, hooks_table[hook].event);
  if (groups == NULL)
    {
      groups = json_array_new ();
      json_object_set_array_member (hooks, hooks_table[hook].event, groups);
    }

  entry = json_object_new ();
  json_object_set_string_member (entry, "type", "command");
  json_object_set_string_member (entry, "command", command);
  json_object_set_int_member (entry, "timeout", CLARIFY_CLAUDE_HOOK_TIMEOUT_S);
  entries = json_array_new ();
  json_array_add_object_element (entries, entry);

  group = json_object_new ();
  json_object_set_string_member (group, "matcher", hooks_table[hook].matcher);
  json_object_set_array_member (group, "hooks", entries);
  json_array_add_object_element (groups, group);

  return CLARIFY_CLAUDE_CHANGE_ADDED;
}

gboolean
clarify_claude_settings_apply (JsonNode            *root,
                               const char          *command,
                               ClarifyClaudeChange  changes[CLARIFY_CLAUDE_N_HOOKS],
                               GError             **error)
{
  JsonObject *settings;
  JsonNode *hooks_node;
  JsonObject *hooks;
  gboolean removed_any = FALSE;

  g_return_val_if_fail (root != NULL, FALSE);

  for (guint i = 0; i < CLARIFY_CLAUDE_N_HOOKS; i++)
    changes[i] = CLARIFY_CLAUDE_CHANGE_NONE;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The file holds no JSON object"));
      return FALSE;
    }

  /* Every check before the first change, so that a refusal changes nothing. */
  settings = json_node_get_object (root);
  hooks_node = json_object_get_member (settings, "hooks");
  if (hooks_node != NULL && !JSON_NODE_HOLDS_OBJECT (hooks_node))
    return fail_shape (error, NULL);

  for (guint i = 0; hooks_node != NULL && i < CLARIFY_CLAUDE_N_HOOKS; i++)
    {
      if (!check_event (json_node_get_object (hooks_node), hooks_table[i].event, error))
        return FALSE;
    }

  if (command == NULL)
    {
      if (hooks_node == NULL)
        return TRUE;

      hooks = json_node_get_object (hooks_node);
      for (guint i = 0; i < CLARIFY_CLAUDE_N_HOOKS; i++)
        {
          if (visit_ours (hooks, i, remove_visit, NULL))
            {
              changes[i] = CLARIFY_CLAUDE_CHANGE_REMOVED;
              removed_any = TRUE;
            }
        }

      /* Gone only when it was Clarify's hooks that emptied it. */
      if (removed_any && json_object_get_size (hooks) == 0)
        json_object_remove_member (settings, "hooks");

      return TRUE;
    }

  if (hooks_node == NULL)
    json_object_set_object_member (settings, "hooks", json_object_new ());
  hooks = json_object_get_object_member (settings, "hooks");

  for (guint i = 0; i < CLARIFY_CLAUDE_N_HOOKS; i++)
    changes[i] = add_hook (hooks, i, command);

  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* The file */

typedef struct
{
  const char          *command;
  ClarifyClaudeChange *changes;
} UpdateData;

static gboolean
apply_edit (JsonNode  *root,
            gboolean  *changed,
            gpointer   user_data,
            GError   **error)
{
  UpdateData *data = user_data;

  if (!clarify_claude_settings_apply (root, data->command, data->changes, error))
    return FALSE;

  for (guint i = 0; i < CLARIFY_CLAUDE_N_HOOKS; i++)
    *changed |= data->changes[i] != CLARIFY_CLAUDE_CHANGE_NONE;

  return TRUE;
}

gboolean
clarify_claude_settings_update (const char               *path,
                                const char               *command,
                                ClarifyClaudeSetupResult *result,
                                GError                  **error)
{
  UpdateData data;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  /* A result used before may hold a backup path. */
  clarify_claude_setup_result_clear (result);
  memset (result, 0, sizeof *result);
  data.command = command;
  data.changes = result->changes;

  /* Nothing there: nothing to remove. */
  return clarify_json_config_update (path, command != NULL, FALSE, apply_edit, &data,
                                     &result->written, &result->backup_path, error);
}

gboolean
clarify_claude_settings_has_ours (const char *path)
{
  g_autoptr(JsonNode) root = clarify_json_config_read (path, NULL);
  ClarifyClaudeChange changes[CLARIFY_CLAUDE_N_HOOKS];

  /* Removing from a copy tells whether there is anything of ours. */
  if (root == NULL || !clarify_claude_settings_apply (root, NULL, changes, NULL))
    return FALSE;
  for (guint i = 0; i < CLARIFY_CLAUDE_N_HOOKS; i++)
    {
      if (changes[i] == CLARIFY_CLAUDE_CHANGE_REMOVED)
        return TRUE;
    }

  return FALSE;
}
