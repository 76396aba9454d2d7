/* clarify-claude-code-codec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-claude-code-codec.h"
#include "clarify-claude-questions.h"
#include "clarify-elicitation.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-validate.h"

/* What the model reads when the person refuses without a word. */
#define DEFAULT_DENY_MESSAGE    "Denied in Clarify"
#define DECLINED_QUESTIONS_TEXT "The user declined to answer in Clarify"

/* Session ids are UUIDs; their first group tells sessions apart. */
#define SHORT_SESSION_CHARS 8

typedef enum
{
  HOOK_QUESTIONS,   /* PermissionRequest for AskUserQuestion */
  HOOK_PERMISSION,  /* PermissionRequest for any other tool */
  HOOK_FORM,        /* Elicitation, mode form */
  HOOK_URL,         /* Elicitation, mode url */
} HookKind;

/* What answering needs beyond the ClarifyRequest. */
typedef struct
{
  HookKind                kind;
  JsonNode               *tool_input;   /* HOOK_QUESTIONS: the base of updatedInput */
  JsonNode               *suggestions;  /* HOOK_PERMISSION: permission_suggestions, verbatim */
  ClarifyClaudeQuestions *questions;
  ClarifyElicitationForm *form;
} HookData;

static void
hook_data_free (gpointer data)
{
  HookData *hook_data = data;

  g_clear_pointer (&hook_data->tool_input, json_node_unref);
  g_clear_pointer (&hook_data->suggestions, json_node_unref);
  g_clear_pointer (&hook_data->questions, clarify_claude_questions_free);
  g_clear_pointer (&hook_data->form, clarify_elicitation_form_free);
  g_free (hook_data);
}

void
clarify_claude_hook_free (ClarifyClaudeHook *hook)
{
  if (hook == NULL)
    return;

  g_clear_object (&hook->request);
  g_free (hook->session_id);
  g_free (hook->project);
  g_free (hook->transcript_path);
  g_free (hook->tool_name);
  g_clear_pointer (&hook->tool_input, json_node_unref);
  g_free (hook->message);
  g_free (hook);
}

static gboolean
missing (GError     **error,
         const char  *event,
         const char  *member)
{
  g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
               "The %s hook input has no “%s”", event, member);
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* Where a request comes from */

/* "Asked by the sub-agent “Explore”", then @text, one per line. */
static char *
build_context (JsonObject *input,
               const char *text)
{
  const char *agent_type = clarify_json_get_string_member (input, "agent_type");
  const char *agent_id = clarify_json_get_string_member (input, "agent_id");
  g_autoptr(GString) context = g_string_new (NULL);

  if (agent_type != NULL && *agent_type != '\0')
    g_string_append_printf (context, _("Asked by the sub-agent “%s”"), agent_type);
  else if (agent_id != NULL && *agent_id != '\0')
    g_string_append (context, _("Asked by a sub-agent"));

  if (text != NULL && *text != '\0')
    {
      if (context->len > 0)
        g_string_append_c (context, '\n');
      g_string_append (context, text);
    }

  return context->len > 0 ? g_string_free (g_steal_pointer (&context), FALSE) : NULL;
}

static void
stamp_origin (ClarifyClaudeHook *hook,
              JsonObject        *input)
{
  const char *session_id = clarify_json_get_string_member (input, "session_id");
  const char *cwd = clarify_json_get_string_member (input, "cwd");

  hook->session_id = g_strdup (session_id);
  if (cwd != NULL && *cwd != '\0')
    hook->project = g_path_get_basename (cwd);

  if (hook->request == NULL)
    return;

  clarify_request_set_project (hook->request, hook->project);
  if (session_id != NULL && g_utf8_strlen (session_id, -1) > SHORT_SESSION_CHARS)
    {
      g_autofree char *short_id = g_utf8_substring (session_id, 0, SHORT_SESSION_CHARS);

      clarify_request_set_session (hook->request, short_id);
    }
  else
    {
      clarify_request_set_session (hook->request, session_id);
    }
}

/* Both hooks that run beside the terminal's own prompt can hand the
 * question back to it: Skip prints nothing. */
static void
offer_terminal (ClarifyRequest *request)
{
  clarify_request_set_skippable (request, TRUE);
  clarify_request_set_skip_label (request, _("Answer in the Terminal"));
}

/* ---------------------------------------------------------------------- */
/* PermissionRequest: AskUserQuestion */

static gboolean
decode_questions (ClarifyClaudeHook  *hook,
                  JsonObject         *input,
                  HookData           *data,
                  GError            **error)
{
  JsonObject *tool_input = json_node_get_object (hook->tool_input);
  JsonArray *questions = clarify_json_get_array_member (tool_input, "questions");
  g_autofree char *context = build_context (input, NULL);

  if (questions == NULL)
    return missing (error, "AskUserQuestion", "tool_input.questions");

  data->kind = HOOK_QUESTIONS;
  data->tool_input = json_node_copy (hook->tool_input);
  data->questions = clarify_claude_questions_decode (questions, hook->request, error);
  if (data->questions == NULL)
    return FALSE;

  clarify_request_set_context (hook->request, context);
  offer_terminal (hook->request);
  /* Cancel is the terminal's Esc: the questions are declined. */
  clarify_request_set_cancellable (hook->request, TRUE);

  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* PermissionRequest: any other tool */

static const char *
string_in (JsonNode   *node,
           const char *member)
{
  const char *value = JSON_NODE_HOLDS_OBJECT (node)
                      ? clarify_json_get_string_member (json_node_get_object (node), member) : NULL;

  return value != NULL && *value != '\0' ? value : NULL;
}

/* The question in words and what it is about, shown whole. */
static void
describe_tool (const char  *tool_name,
               JsonNode    *tool_input,
               char       **text,
               char       **subject)
{
  static const char * const edit_tools[] = { "Edit", "Write", "MultiEdit", NULL };
  const char *member = NULL;

  if (g_str_equal (tool_name, "Bash"))
    {
      *text = g_strdup (_("Run this command?"));
      member = "command";
    }
  else if (g_strv_contains (edit_tools, tool_name))
    {
      *text = g_strdup (_("Edit this file?"));
      member = "file_path";
    }
  else if (g_str_equal (tool_name, "NotebookEdit"))
    {
      *text = g_strdup (_("Edit this file?"));
      member = "notebook_path";
    }
  else if (g_str_equal (tool_name, "WebFetch"))
    {
      *text = g_strdup (_("Fetch this URL?"));
      member = "url";
    }
  else if (g_str_has_prefix (tool_name, "mcp__") && strstr (tool_name + 5, "__") != NULL)
    {
      /* mcp__<server>__<tool>; the server's name has no "__". */
      const char *tool = strstr (tool_name + 5, "__") + 2;
      g_autofree char *server = g_strndup (tool_name + 5, (tool - 2) - (tool_name + 5));

      /* Translators: the first %s is a tool, the second the MCP server that offers it */
      *text = g_strdup_printf (_("Use “%s” from “%s”?"), tool, server);
    }
  else
    {
      /* Translators: %s is the name of one of Claude Code's tools */
      *text = g_strdup_printf (_("Allow “%s”?"), tool_name);
    }

  if (member != NULL && string_in (tool_input, member) != NULL)
    *subject = g_strdup (string_in (tool_input, member));
  else if (!JSON_NODE_HOLDS_OBJECT (tool_input) || json_object_get_size (json_node_get_object (tool_input)) > 0)
    *subject = json_to_string (tool_input, TRUE);
}

/* "Bash(curl -s http://127.0.0.1:9/)", as Claude Code writes its rules. */
static char *
join_rules (JsonArray *rules)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; rules != NULL && i < json_array_get_length (rules); i++)
    {
      JsonNode *node = json_array_get_element (rules, i);
      JsonObject *rule = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *tool = clarify_json_get_string_member (rule, "toolName");
      const char *content = clarify_json_get_string_member (rule, "ruleContent");

      if (tool == NULL)
        continue;
      if (joined->len > 0)
        g_string_append (joined, ", ");
      g_string_append (joined, tool);
      if (content != NULL)
        g_string_append_printf (joined, "(%s)", content);
    }

  return g_string_free (g_steal_pointer (&joined), FALSE);
}

static char *
join_strings (JsonArray *strings)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; strings != NULL && i < json_array_get_length (strings); i++)
    {
      JsonNode *node = json_array_get_element (strings, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        continue;
      if (joined->len > 0)
        g_string_append (joined, ", ");
      g_string_append (joined, json_node_get_string (node));
    }

  return g_string_free (g_steal_pointer (&joined), FALSE);
}

/* Where Claude Code keeps a rule (its settings "destination"). */
static char *
describe_destination (const char *destination)
{
  if (g_strcmp0 (destination, "localSettings") == 0)
    return g_strdup (_("this project’s local settings (.claude/settings.local.json)"));
  if (g_strcmp0 (destination, "projectSettings") == 0)
    return g_strdup (_("this project’s shared settings (.claude/settings.json)"));
  if (g_strcmp0 (destination, "userSettings") == 0)
    return g_strdup (_("your user settings (~/.claude/settings.json)"));

  return g_strdup (destination != NULL ? destination : "?");
}

/* One line per suggestion: what "Always allow" will change, and where. */
static char *
describe_suggestions (JsonArray *suggestions)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (suggestions); i++)
    {
      JsonNode *node = json_array_get_element (suggestions, i);
      JsonObject *suggestion = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = clarify_json_get_string_member (suggestion, "type");
      const char *destination = clarify_json_get_string_member (suggestion, "destination");
      g_autofree char *what = NULL;
      g_autofree char *where = NULL;
      g_autofree char *line = NULL;

      if (g_strcmp0 (type, "setMode") == 0)
        {
          const char *mode = clarify_json_get_string_member (suggestion, "mode");

          /* Translators: %s is one of Claude Code's permission modes, e.g. acceptEdits */
          line = g_strdup_printf (_("Switches Claude Code to the permission mode “%s”"), mode != NULL ? mode : "?");
        }
      else
        {
          if (g_strcmp0 (type, "addDirectories") == 0)
            what = join_strings (clarify_json_get_array_member (suggestion, "directories"));
          else
            what = join_rules (clarify_json_get_array_member (suggestion, "rules"));
          if (*what == '\0')
            continue;

          if (g_strcmp0 (destination, "session") == 0)
            /* Translators: %s is a list of Claude Code's permission rules, e.g. Bash(npm test) */
            line = g_strdup_printf (_("Adds %s for the rest of this session"), what);
          else
            {
              where = describe_destination (destination);
              /* Translators: the first %s is a list of Claude Code's permission rules, e.g.
               * Bash(npm test), the second where they are kept, e.g. "your user settings" */
              line = g_strdup_printf (_("Adds %s to %s"), what, where);
            }
        }

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }

  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

static void
add_option (ClarifyQuestion *question,
            const char      *label,
            const char      *value,
            const char      *description)
{
  g_autoptr(ClarifyOption) option = clarify_option_new (label, value, description);

  clarify_question_add_option (question, option);
}

static gboolean
decode_permission (ClarifyClaudeHook  *hook,
                   JsonObject         *input,
                   HookData           *data,
                   GError            **error)
{
  static const char * const default_choice[] = { CLARIFY_PERMISSION_ONCE, NULL };
  JsonArray *suggestions = clarify_json_get_array_member (input, "permission_suggestions");
  g_autoptr(ClarifyQuestion) question = NULL;
  g_autofree char *text = NULL;
  g_autofree char *subject = NULL;
  g_autofree char *context = build_context (input, string_in (hook->tool_input, "description"));

  data->kind = HOOK_PERMISSION;
  describe_tool (hook->tool_name, hook->tool_input, &text, &subject);

  question = clarify_question_new ("permission", CLARIFY_QUESTION_KIND_PERMISSION, text);
  clarify_question_set_subject (question, subject);
  /* A refusal may carry a message for Claude. */
  clarify_question_set_allow_other (question, TRUE);
  clarify_question_set_placeholder (question, _("What Claude should do instead (optional)"));
  clarify_question_set_default_values (question, default_choice);

  add_option (question, _("Allow once"), CLARIFY_PERMISSION_ONCE, NULL);
  if (suggestions != NULL && json_array_get_length (suggestions) > 0)
    {
      g_autofree char *rules = describe_suggestions (suggestions);

      data->suggestions = json_node_copy (json_object_get_member (input, "permission_suggestions"));
      add_option (question, _("Always allow"), CLARIFY_PERMISSION_ALWAYS, rules);
    }
  add_option (question, _("Deny"), CLARIFY_PERMISSION_REJECT, NULL);

  clarify_request_add_question (hook->request, question);
  clarify_request_set_context (hook->request, context);
  offer_terminal (hook->request);
  /* Deny is the refusal; closing the dialog only hides it. */
  clarify_request_set_cancellable (hook->request, FALSE);

  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Elicitation */

static gboolean
decode_elicitation (ClarifyClaudeHook  *hook,
                    JsonObject         *input,
                    HookData           *data,
                    GError            **error)
{
  const char *server = clarify_json_get_string_member (input, "mcp_server_name");
  const char *mode = clarify_json_get_string_member (input, "mode");
  g_autofree char *title = NULL;
  g_autofree char *context = build_context (input, clarify_json_get_string_member (input, "message"));

  if (g_strcmp0 (mode, "url") == 0)
    {
      /* MCP 2025-11-25's URL mode (Claude Code 2.1.332 declares form mode
       * only): the whole address, opened only on the person's click. */
      const char *url = clarify_json_get_string_member (input, "url");
      g_autoptr(ClarifyQuestion) question = NULL;

      if (url == NULL || *url == '\0')
        return missing (error, "Elicitation", "url");

      data->kind = HOOK_URL;
      question = clarify_question_new ("open", CLARIFY_QUESTION_KIND_LINK,
                                       _("Open this address in your browser?"));
      clarify_question_set_subject (question, url);
      clarify_request_add_question (hook->request, question);
    }
  else if (mode == NULL || g_str_equal (mode, "form"))
    {
      JsonObject *schema = clarify_json_get_object_member (input, "requested_schema");

      if (schema == NULL)
        return missing (error, "Elicitation", "requested_schema");

      data->kind = HOOK_FORM;
      data->form = clarify_elicitation_form_decode (schema, hook->request, error);
      if (data->form == NULL)
        return FALSE;
    }
  else
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "The Elicitation hook input has the unknown mode “%s”", mode);
      return FALSE;
    }

  if (server != NULL && *server != '\0')
    /* Translators: %s is the name of an MCP server */
    title = g_strdup_printf (_("The MCP server “%s” asks for your input"), server);
  else
    title = g_strdup (_("An MCP server asks for your input"));

  clarify_request_set_title (hook->request, title);
  clarify_request_set_context (hook->request, context);
  /* The terminal shows only a spinner while the hook runs: "Answer in the
   * Terminal" prints nothing and gives it its own form back. */
  offer_terminal (hook->request);
  clarify_request_set_cancellable (hook->request, TRUE);
  /* A form's Cancel declines; a link has its own Decline, and Esc cancels. */
  if (data->kind == HOOK_FORM)
    clarify_request_set_cancel_label (hook->request, _("Decline"));

  return TRUE;
}

/* ---------------------------------------------------------------------- */

static gboolean
decode_permission_request (ClarifyClaudeHook  *hook,
                           JsonObject         *input,
                           const char         *request_id,
                           GError            **error)
{
  const char *tool_name = clarify_json_get_string_member (input, "tool_name");
  JsonNode *tool_input = json_object_get_member (input, "tool_input");
  const char *transcript = clarify_json_get_string_member (input, "agent_transcript_path");
  HookData *data;

  if (tool_name == NULL || *tool_name == '\0')
    return missing (error, "PermissionRequest", "tool_name");
  if (tool_input == NULL || !JSON_NODE_HOLDS_OBJECT (tool_input))
    return missing (error, "PermissionRequest", "tool_input");

  hook->action = CLARIFY_CLAUDE_HOOK_ASK;
  hook->tool_name = g_strdup (tool_name);
  hook->tool_input = json_node_copy (tool_input);
  /* A sub-agent's calls may go to a transcript of its own. */
  if (transcript == NULL)
    transcript = clarify_json_get_string_member (input, "transcript_path");
  if (transcript != NULL && *transcript != '\0')
    hook->transcript_path = g_strdup (transcript);
  if (json_object_has_member (input, CLARIFY_CLAUDE_HOOK_TRANSCRIPT_SIZE))
    {
      JsonNode *size = json_object_get_member (input, CLARIFY_CLAUDE_HOOK_TRANSCRIPT_SIZE);

      if (JSON_NODE_HOLDS_VALUE (size) && json_node_get_value_type (size) == G_TYPE_INT64 &&
          json_node_get_int (size) > 0)
        hook->transcript_size = json_node_get_int (size);
    }

  hook->request = clarify_request_new (request_id);
  data = g_new0 (HookData, 1);
  clarify_request_set_backend_data (hook->request, data, hook_data_free);

  if (g_str_equal (tool_name, "AskUserQuestion"))
    return decode_questions (hook, input, data, error);

  return decode_permission (hook, input, data, error);
}

ClarifyClaudeHook *
clarify_claude_hook_decode (const char  *input,
                            gssize       length,
                            const char  *request_id,
                            GError     **error)
{
  g_autoptr(ClarifyClaudeHook) hook = g_new0 (ClarifyClaudeHook, 1);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *object;
  const char *event;
  gboolean ok = TRUE;

  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (request_id != NULL, NULL);

  node = clarify_json_parse (input, length, &local_error);
  if (node == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "The hook input is not JSON: %s", local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "The hook input is not a JSON object");
      return NULL;
    }

  object = json_node_get_object (node);
  event = clarify_json_get_string_member (object, "hook_event_name");
  if (event == NULL)
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "The hook input has no “hook_event_name”");
      return NULL;
    }

  if (g_str_equal (event, "PermissionRequest"))
    {
      ok = decode_permission_request (hook, object, request_id, error);
    }
  else if (g_str_equal (event, "Elicitation"))
    {
      hook->action = CLARIFY_CLAUDE_HOOK_ASK;
      hook->request = clarify_request_new (request_id);
      clarify_request_set_backend_data (hook->request, g_new0 (HookData, 1), hook_data_free);
      ok = decode_elicitation (hook, object, clarify_request_get_backend_data (hook->request), error);
    }
  else if (g_str_equal (event, "Notification"))
    {
      gboolean idle = g_strcmp0 (clarify_json_get_string_member (object, "notification_type"), "idle_prompt") == 0;

      hook->action = idle ? CLARIFY_CLAUDE_HOOK_IDLE_PROMPT : CLARIFY_CLAUDE_HOOK_IGNORED;
      hook->message = g_strdup (clarify_json_get_string_member (object, "message"));
    }
  else
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "Clarify does not answer the hook “%s” (only PermissionRequest, Elicitation and Notification)",
                   event);
      return NULL;
    }

  if (!ok)
    return NULL;

  stamp_origin (hook, object);

  if (hook->request != NULL && !clarify_request_validate (hook->request, &local_error))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "The %s hook input cannot be shown: %s", event, local_error->message);
      return NULL;
    }

  return g_steal_pointer (&hook);
}

/* ---------------------------------------------------------------------- */
/* Answers */

/* Opens {"hookSpecificOutput":{"hookEventName":@event, and leaves it open. */
static JsonBuilder *
begin_output (const char *event)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "hookSpecificOutput");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "hookEventName");
  json_builder_add_string_value (builder, event);

  return builder;
}

static char *
end_output (JsonBuilder *builder)
{
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return clarify_json_builder_to_string (builder);
}

static char *
deny (const char *message,
      gboolean    interrupt)
{
  g_autoptr(JsonBuilder) builder = begin_output ("PermissionRequest");

  json_builder_set_member_name (builder, "decision");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "behavior");
  json_builder_add_string_value (builder, "deny");
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  if (interrupt)
    {
      json_builder_set_member_name (builder, "interrupt");
      json_builder_add_boolean_value (builder, TRUE);
    }
  json_builder_end_object (builder);

  return end_output (builder);
}

static char *
encode_questions (HookData         *data,
                  ClarifyRequest   *request,
                  ClarifyResponse  *response,
                  GError          **error)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *tool_input = json_node_get_object (data->tool_input);

  /* Esc in the terminal declines the questions and ends Claude's turn; a
   * deny with interrupt does the same (seen with 2.1.332 in
   * test-claude-e2e: "Declined to answer Claude's questions", no model
   * request until the next prompt, and then the very tool result Esc
   * gives, Claude Code's own words: the message is not passed on). */
  if (clarify_response_get_outcome (response) == CLARIFY_OUTCOME_CANCELLED)
    return deny (DECLINED_QUESTIONS_TEXT, TRUE);

  builder = begin_output ("PermissionRequest");
  json_builder_set_member_name (builder, "decision");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "behavior");
  json_builder_add_string_value (builder, "allow");
  json_builder_set_member_name (builder, "updatedInput");
  json_builder_begin_object (builder);

  /* The tool input as it came (questions, metadata), answers added. */
  members = json_object_get_members (tool_input);
  for (GList *l = members; l != NULL; l = l->next)
    {
      if (g_str_equal (l->data, "answers") || g_str_equal (l->data, "annotations"))
        continue;
      json_builder_set_member_name (builder, l->data);
      json_builder_add_value (builder, json_node_copy (json_object_get_member (tool_input, l->data)));
    }
  if (!clarify_claude_questions_add_answers (data->questions, request, response, builder, error))
    return NULL;

  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return end_output (builder);
}

static char *
encode_permission (HookData         *data,
                   ClarifyRequest   *request,
                   ClarifyResponse  *response,
                   GError          **error)
{
  ClarifyQuestion *question = clarify_request_get_question (request, 0);
  const ClarifyAnswer *answer = clarify_response_lookup_answer (response, clarify_question_get_id (question));
  const char *choice = answer != NULL && answer->values != NULL ? answer->values[0] : NULL;
  g_autoptr(JsonBuilder) builder = NULL;

  if (g_strcmp0 (choice, CLARIFY_PERMISSION_REJECT) == 0)
    {
      g_autofree char *message = g_strstrip (g_strdup (answer->custom_text != NULL ? answer->custom_text : ""));

      return deny (*message != '\0' ? message : DEFAULT_DENY_MESSAGE, FALSE);
    }

  if (g_strcmp0 (choice, CLARIFY_PERMISSION_ONCE) != 0 &&
      (g_strcmp0 (choice, CLARIFY_PERMISSION_ALWAYS) != 0 || data->suggestions == NULL))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "“%s” is no answer to a permission", choice != NULL ? choice : "");
      return NULL;
    }

  builder = begin_output ("PermissionRequest");
  json_builder_set_member_name (builder, "decision");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "behavior");
  json_builder_add_string_value (builder, "allow");
  /* "Always": the rules Claude Code suggested, as they came. */
  if (g_str_equal (choice, CLARIFY_PERMISSION_ALWAYS))
    {
      json_builder_set_member_name (builder, "updatedPermissions");
      json_builder_add_value (builder, json_node_copy (data->suggestions));
    }
  json_builder_end_object (builder);

  return end_output (builder);
}

static char *
encode_elicitation (HookData         *data,
                    ClarifyRequest   *request,
                    ClarifyResponse  *response,
                    GError          **error)
{
  g_autoptr(JsonBuilder) builder = begin_output ("Elicitation");
  gboolean accept = clarify_response_get_outcome (response) == CLARIFY_OUTCOME_ANSWERED;
  const char *action = accept ? "accept" : "decline";

  /* A link is accepted once the dialog opened it; closed, it is cancelled. */
  if (data->kind == HOOK_URL)
    {
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, "open");

      accept = accept && answer != NULL && g_strcmp0 (answer->values[0], CLARIFY_LINK_OPEN) == 0;
      if (clarify_response_get_outcome (response) == CLARIFY_OUTCOME_CANCELLED)
        action = "cancel";
      else
        action = accept ? "accept" : "decline";
    }

  json_builder_set_member_name (builder, "action");
  json_builder_add_string_value (builder, action);
  if (accept && data->kind == HOOK_FORM &&
      !clarify_elicitation_form_add_content (data->form, request, response, builder, error))
    return NULL;

  return end_output (builder);
}

char *
clarify_claude_hook_encode (ClarifyRequest   *request,
                            ClarifyResponse  *response,
                            GError          **error)
{
  HookData *data;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), NULL);

  data = clarify_request_get_backend_data (request);
  if (data == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "request %s is not a Claude Code hook's", clarify_request_get_id (request));
      return NULL;
    }

  switch (clarify_response_get_outcome (response))
    {
    case CLARIFY_OUTCOME_ANSWERED:
      break;

    case CLARIFY_OUTCOME_CANCELLED:
      /* A permission cannot be cancelled (Deny is its refusal). */
      if (data->kind != HOOK_PERMISSION)
        break;
      return g_strdup ("");

    case CLARIFY_OUTCOME_SKIPPED:
    case CLARIFY_OUTCOME_TIMED_OUT:
    default:
      /* Printing nothing leaves the terminal's own prompt to the person. */
      return g_strdup ("");
    }

  switch (data->kind)
    {
    case HOOK_QUESTIONS:
      return encode_questions (data, request, response, error);

    case HOOK_PERMISSION:
      return encode_permission (data, request, response, error);

    case HOOK_FORM:
    case HOOK_URL:
      return encode_elicitation (data, request, response, error);

    default:
      g_return_val_if_reached (NULL);
    }
}
