/* clarify-opencode-decoder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-opencode-decoder.h"
#include "clarify-validate.h"

static gboolean
member_boolean (JsonObject *object,
                const char *name,
                gboolean    fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (node);
}

static void
request_info_free (gpointer data)
{
  ClarifyOpencodeRequestInfo *info = data;

  g_free (info->id);
  g_free (info->session_id);
  g_free (info->directory);
  g_free (info->workspace_id);
  g_free (info);
}

static GQuark
request_info_quark (void)
{
  return g_quark_from_static_string ("clarify-opencode-request-info");
}

ClarifyOpencodeRequestInfo *
clarify_opencode_request_get_info (ClarifyRequest *request)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  /* The backend data pointer alone cannot tell whose it is; the qdata can. */
  return g_object_get_qdata (G_OBJECT (request), request_info_quark ());
}

static void
attach_info (ClarifyRequest             *request,
             ClarifyOpencodeRequestKind  kind,
             const char                 *id,
             const char                 *session_id,
             const char                 *directory,
             const char                 *workspace_id)
{
  ClarifyOpencodeRequestInfo *info = g_new0 (ClarifyOpencodeRequestInfo, 1);

  info->kind = kind;
  info->id = g_strdup (id);
  info->session_id = g_strdup (session_id);
  info->directory = g_strdup (directory);
  info->workspace_id = g_strdup (workspace_id);

  clarify_request_set_backend_data (request, info, request_info_free);
  g_object_set_qdata (G_OBJECT (request), request_info_quark (), info);
  g_object_set_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND,
                     (gpointer) (kind == CLARIFY_OPENCODE_REQUEST_QUESTION ? "question" : "permission"));
}

static const char * const kind_names[] = { "question", "permission", "legacy-permission" };

JsonNode *
clarify_opencode_request_save_info (ClarifyRequest *request)
{
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);
  g_autoptr(JsonBuilder) builder = NULL;

  if (info == NULL)
    return NULL;

  builder = json_builder_new_immutable ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, kind_names[info->kind]);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, info->id);
  if (info->session_id != NULL)
    {
      json_builder_set_member_name (builder, "session");
      json_builder_add_string_value (builder, info->session_id);
    }
  if (info->directory != NULL)
    {
      json_builder_set_member_name (builder, "directory");
      json_builder_add_string_value (builder, info->directory);
    }
  if (info->workspace_id != NULL)
    {
      json_builder_set_member_name (builder, "workspace");
      json_builder_add_string_value (builder, info->workspace_id);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

gboolean
clarify_opencode_request_restore_info (ClarifyRequest  *request,
                                       JsonNode        *node,
                                       GError         **error)
{
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *kind = clarify_json_get_string_member (object, "kind");
  const char *id = clarify_json_get_string_member (object, "id");

  for (guint i = 0; kind != NULL && id != NULL && i < G_N_ELEMENTS (kind_names); i++)
    {
      if (g_strcmp0 (kind, kind_names[i]) != 0)
        continue;

      attach_info (request, (ClarifyOpencodeRequestKind) i, id,
                   clarify_json_get_string_member (object, "session"),
                   clarify_json_get_string_member (object, "directory"),
                   clarify_json_get_string_member (object, "workspace"));
      return TRUE;
    }

  g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "no OpenCode request kind and id");
  return FALSE;
}

static ClarifyRequest *
request_new (ClarifyOpencodeRequestKind kind,
             const char                *id,
             const char                *session_id,
             const char                *directory,
             const char                *workspace_id)
{
  ClarifyRequest *request = clarify_request_new (id);

  attach_info (request, kind, id, session_id, directory, workspace_id);

  clarify_request_set_project (request, directory);
  clarify_request_set_session (request, session_id);
  /* Dismiss rejects a question; cancelling a permission rejects it. */
  clarify_request_set_cancellable (request, TRUE);
  clarify_request_set_skippable (request, FALSE);

  return request;
}

ClarifyRequest *
clarify_opencode_question_new (JsonObject  *properties,
                               const char  *directory,
                               const char  *workspace_id,
                               GError     **error)
{
  g_autoptr(ClarifyRequest) request = NULL;
  const char *id = clarify_json_get_string_member (properties, "id");
  const char *session_id = clarify_json_get_string_member (properties, "sessionID");
  JsonArray *questions = clarify_json_get_array_member (properties, "questions");
  guint n_questions;

  if (id == NULL || *id == '\0' || questions == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question request without id or questions");
      return NULL;
    }

  request = request_new (CLARIFY_OPENCODE_REQUEST_QUESTION, id, session_id, directory, workspace_id);
  n_questions = json_array_get_length (questions);

  for (guint i = 0; i < n_questions; i++)
    {
      JsonNode *node = json_array_get_element (questions, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      g_autoptr(ClarifyQuestion) question = NULL;
      g_autofree char *question_id = NULL;
      JsonArray *options;
      guint n_options;

      if (object == NULL || clarify_json_get_string_member (object, "question") == NULL)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "question %u of %s has no text", i + 1, id);
          return NULL;
        }

      options = clarify_json_get_array_member (object, "options");
      n_options = options != NULL ? json_array_get_length (options) : 0;
      question_id = g_strdup_printf ("q%u", i + 1);
      /* Without options only the typed answer remains. */
      question = clarify_question_new (question_id,
                                       n_options == 0 ? CLARIFY_QUESTION_KIND_TEXT
                                       : member_boolean (object, "multiple", FALSE) ? CLARIFY_QUESTION_KIND_MULTI
                                                                                   : CLARIFY_QUESTION_KIND_SINGLE,
                                       clarify_json_get_string_member (object, "question"));
      clarify_question_set_header (question, clarify_json_get_string_member (object, "header"));
      /* "custom" defaults to true and the LLM cannot set it. */
      clarify_question_set_allow_other (question, n_options > 0 && member_boolean (object, "custom", TRUE));

      for (guint j = 0; j < n_options; j++)
        {
          JsonNode *option_node = json_array_get_element (options, j);
          JsonObject *option = JSON_NODE_HOLDS_OBJECT (option_node) ? json_node_get_object (option_node) : NULL;
          const char *label = clarify_json_get_string_member (option, "label");
          g_autoptr(ClarifyOption) choice = NULL;

          if (label == NULL || *label == '\0')
            {
              g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "option %u of question %u of %s has no label", j + 1, i + 1, id);
              return NULL;
            }

          /* The reply carries labels, so the label is the value. */
          choice = clarify_option_new (label, label, clarify_json_get_string_member (option, "description"));
          clarify_question_add_option (question, choice);
        }

      clarify_request_add_question (request, question);
    }

  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

static void
append_strings (GString    *text,
                JsonArray  *array,
                const char *separator)
{
  guint n = array != NULL ? json_array_get_length (array) : 0;
  gboolean first = TRUE;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (json_node_get_value_type (node) != G_TYPE_STRING)
        continue;
      if (!first)
        g_string_append (text, separator);
      g_string_append (text, json_node_get_string (node));
      first = FALSE;
    }
}

/* Whether @value is the subject or one of its lines, which the dialog
 * already shows whole in monospace. */
static gboolean
shown_in_subject (const char *subject,
                  const char *value)
{
  g_auto(GStrv) lines = g_strsplit (subject, "\n", -1);

  return g_str_equal (subject, value) || g_strv_contains ((const char * const *) lines, value);
}

static void
append_metadata (GString    *text,
                 JsonObject *metadata,
                 const char *subject)
{
  g_autoptr(GList) members = metadata != NULL ? json_object_get_members (metadata) : NULL;

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (metadata, l->data);
      GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
      g_autofree char *value = NULL;

      /* Scalars only: nested objects are internals, not something to judge. */
      if (type == G_TYPE_STRING && shown_in_subject (subject, json_node_get_string (node)))
        continue;
      else if (type == G_TYPE_STRING)
        value = g_strdup (json_node_get_string (node));
      else if (type == G_TYPE_INT64)
        value = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
      else if (type == G_TYPE_DOUBLE)
        value = g_strdup_printf ("%g", json_node_get_double (node));
      else if (type == G_TYPE_BOOLEAN)
        value = g_strdup (json_node_get_boolean (node) ? "true" : "false");
      else
        continue;

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_printf (text, "%s: %s", (const char *) l->data, value);
    }
}

ClarifyRequest *
clarify_opencode_permission_new (JsonObject  *properties,
                                 gboolean     legacy,
                                 const char  *directory,
                                 const char  *workspace_id,
                                 GError     **error)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyQuestion) reply = NULL;
  g_autoptr(ClarifyOption) once = NULL;
  g_autoptr(ClarifyOption) always = NULL;
  g_autoptr(ClarifyOption) reject = NULL;
  g_autoptr(GString) context = g_string_new (NULL);
  /* The patterns asked for (a command, a path): shown whole in monospace. */
  g_autoptr(GString) subject = g_string_new (NULL);
  g_autoptr(GString) always_patterns = g_string_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *always_description = NULL;
  const char *id = clarify_json_get_string_member (properties, "id");
  const char *session_id = clarify_json_get_string_member (properties, "sessionID");
  /* permission.asked names the permission; permission.updated its type. */
  const char *permission = clarify_json_get_string_member (properties, legacy ? "type" : "permission");

  if (id == NULL || *id == '\0' || permission == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "permission request without id or permission");
      return NULL;
    }

  request = request_new (legacy ? CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION
                                : CLARIFY_OPENCODE_REQUEST_PERMISSION,
                         id, session_id, directory, workspace_id);

  /* Translators: %s is the tool or permission an agent asks for, e.g. “bash” or “edit” */
  title = g_strdup_printf (_("Allow “%s”?"), permission);
  clarify_request_set_title (request, title);

  if (legacy)
    {
      const char *summary = clarify_json_get_string_member (properties, "title");
      JsonNode *pattern = json_object_get_member (properties, "pattern");

      if (summary == NULL)
        summary = clarify_json_get_string_member (properties, "message");
      if (summary != NULL)
        g_string_append (context, summary);
      if (pattern != NULL && JSON_NODE_HOLDS_ARRAY (pattern))
        append_strings (subject, json_node_get_array (pattern), "\n");
      else if (pattern != NULL && json_node_get_value_type (pattern) == G_TYPE_STRING)
        g_string_append (subject, json_node_get_string (pattern));
    }
  else
    {
      append_strings (subject, clarify_json_get_array_member (properties, "patterns"), "\n");
      /* Translators: joins patterns inside “%s” of "Also allow “%s” from now on";
       * use your language's closing quote, comma and opening quote */
      append_strings (always_patterns, clarify_json_get_array_member (properties, "always"), _("”, “"));
    }

  /* Said once: OpenCode's bash metadata repeats the command as "command". */
  append_metadata (context, clarify_json_get_object_member (properties, "metadata"), subject->str);
  if (context->len > 0)
    clarify_request_set_context (request, context->str);

  reply = clarify_question_new (CLARIFY_OPENCODE_PERMISSION_REPLY, CLARIFY_QUESTION_KIND_PERMISSION,
                                _("Allow the agent to go ahead?"));
  clarify_question_set_header (reply, _("Permission"));
  if (subject->len > 0)
    clarify_question_set_subject (reply, subject->str);
  once = clarify_option_new (_("Allow once"), "once", _("Only this time"));
  if (always_patterns->len > 0)
    /* Translators: %s lists patterns such as echo * (joined by ”, “ as translated above) */
    always_description = g_strdup_printf (_("Also allow “%s” from now on"), always_patterns->str);
  else
    always_description = g_strdup (_("Also allow requests like this from now on"));
  always = clarify_option_new (_("Always allow"), "always", always_description);
  reject = clarify_option_new (_("Reject"), "reject", _("The agent does not get to do this"));
  clarify_question_add_option (reply, once);
  clarify_question_add_option (reply, always);
  clarify_question_add_option (reply, reject);
  /* Only the non-legacy route carries a message, with a refusal. */
  clarify_question_set_allow_other (reply, !legacy);
  clarify_request_add_question (request, reply);

  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

ClarifyRequest *
clarify_opencode_request_decode (ClarifyOpencodeRequestKind   kind,
                                 JsonObject                  *properties,
                                 const char                  *directory,
                                 const char                  *workspace_id,
                                 GError                     **error)
{
  if (kind == CLARIFY_OPENCODE_REQUEST_QUESTION)
    return clarify_opencode_question_new (properties, directory, workspace_id, error);

  return clarify_opencode_permission_new (properties, kind == CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION,
                                          directory, workspace_id, error);
}

/* Events */

static void
decode_session_end (JsonObject           *properties,
                    ClarifyOpencodeEvent *decoded)
{
  const char *session_id = clarify_json_get_string_member (properties, "sessionID");

  if (session_id == NULL)
    return;

  decoded->action = CLARIFY_OPENCODE_EVENT_SESSION_ENDED;
  decoded->session_id = session_id;
  decoded->reason = CLARIFY_END_REASON_SESSION_ENDED;
}

void
clarify_opencode_event_decode (JsonObject           *event,
                               ClarifyOpencodeEvent *decoded)
{
  const char *type = clarify_json_get_string_member (event, "type");
  JsonObject *properties = clarify_json_get_object_member (event, "properties");

  g_return_if_fail (decoded != NULL);

  *decoded = (ClarifyOpencodeEvent) { .action = CLARIFY_OPENCODE_EVENT_NONE, .type = "" };

  if (type == NULL || properties == NULL)
    return;

  decoded->type = type;

  if (g_str_equal (type, "question.asked") ||
      g_str_equal (type, "permission.asked") ||
      g_str_equal (type, "permission.updated"))
    {
      decoded->action = CLARIFY_OPENCODE_EVENT_ASKED;
      decoded->kind = g_str_equal (type, "question.asked")     ? CLARIFY_OPENCODE_REQUEST_QUESTION
                      : g_str_equal (type, "permission.asked") ? CLARIFY_OPENCODE_REQUEST_PERMISSION
                                                               : CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION;
      decoded->properties = properties;
      decoded->request_id = clarify_json_get_string_member (properties, "id");
    }
  else if (g_str_equal (type, "question.replied") ||
           g_str_equal (type, "question.rejected") ||
           g_str_equal (type, "permission.replied"))
    {
      /* Older servers name the permission "permissionID". */
      const char *id = clarify_json_get_string_member (properties, "requestID");

      if (id == NULL)
        id = clarify_json_get_string_member (properties, "permissionID");
      if (id == NULL)
        return;

      decoded->action = CLARIFY_OPENCODE_EVENT_WITHDRAW;
      decoded->request_id = id;
      decoded->reason = CLARIFY_END_REASON_ANSWERED_ELSEWHERE;
    }
  else if (g_str_equal (type, "session.idle") ||
           g_str_equal (type, "session.error") ||
           g_str_equal (type, "session.deleted"))
    decode_session_end (properties, decoded);
  else if (g_str_equal (type, "session.status"))
    {
      if (g_strcmp0 (clarify_json_get_string_member (clarify_json_get_object_member (properties, "status"), "type"), "idle") == 0)
        decode_session_end (properties, decoded);
    }
}
