/* clarify-opencode-events.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-opencode-events.h"
#include "clarify-validate.h"

struct _ClarifyOpencodeTracker
{
  ClarifyBackend *backend; /* unowned: the backend owns the tracker */
  GHashTable     *finished;
};

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

static ClarifyRequest *
request_new (ClarifyOpencodeRequestKind kind,
             const char                *id,
             const char                *session_id,
             const char                *directory,
             const char                *workspace_id)
{
  ClarifyRequest *request = clarify_request_new (id);
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

static void
append_metadata (GString    *text,
                 JsonObject *metadata)
{
  g_autoptr(GList) members = metadata != NULL ? json_object_get_members (metadata) : NULL;

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (metadata, l->data);
      GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
      g_autofree char *value = NULL;

      /* Scalars only: nested objects are internals, not something to judge. */
      if (type == G_TYPE_STRING)
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
  g_autoptr(ClarifyQuestion) message = NULL;
  g_autoptr(ClarifyOption) once = NULL;
  g_autoptr(ClarifyOption) always = NULL;
  g_autoptr(ClarifyOption) reject = NULL;
  g_autoptr(GString) context = g_string_new (NULL);
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
      if (pattern != NULL && (JSON_NODE_HOLDS_ARRAY (pattern) || json_node_get_value_type (pattern) == G_TYPE_STRING))
        {
          if (context->len > 0)
            g_string_append_c (context, '\n');
          /* Translators: followed by file or command patterns, one per line */
          g_string_append_printf (context, "%s\n", _("Patterns:"));
          if (JSON_NODE_HOLDS_ARRAY (pattern))
            append_strings (context, json_node_get_array (pattern), "\n");
          else
            g_string_append (context, json_node_get_string (pattern));
        }
    }
  else
    {
      JsonArray *patterns = clarify_json_get_array_member (properties, "patterns");

      if (patterns != NULL && json_array_get_length (patterns) > 0)
        {
          g_string_append_printf (context, "%s\n", _("Patterns:"));
          append_strings (context, patterns, "\n");
        }
      /* Translators: joins patterns inside “%s” of "Also allow “%s” from now on";
       * use your language's closing quote, comma and opening quote */
      append_strings (always_patterns, clarify_json_get_array_member (properties, "always"), _("”, “"));
    }

  append_metadata (context, clarify_json_get_object_member (properties, "metadata"));
  if (context->len > 0)
    clarify_request_set_context (request, context->str);

  reply = clarify_question_new (CLARIFY_OPENCODE_PERMISSION_REPLY, CLARIFY_QUESTION_KIND_SINGLE,
                                _("Allow the agent to go ahead?"));
  clarify_question_set_header (reply, _("Permission"));
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
  clarify_question_set_allow_other (reply, FALSE);
  clarify_request_add_question (request, reply);

  /* Only the non-legacy route carries a message. */
  if (!legacy)
    {
      message = clarify_question_new (CLARIFY_OPENCODE_PERMISSION_MESSAGE, CLARIFY_QUESTION_KIND_TEXT,
                                      _("Message for the agent"));
      clarify_question_set_header (message, _("Message"));
      clarify_question_set_placeholder (message, _("Optional, e.g. what to do instead"));
      clarify_question_set_skippable (message, TRUE);
      clarify_request_add_question (request, message);
    }

  if (!clarify_request_validate (request, error))
    return NULL;

  return g_steal_pointer (&request);
}

/* Encoding */

static JsonNode *
question_answers (ClarifyRequest  *request,
                  ClarifyResponse *response)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n = clarify_request_get_n_questions (request);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "answers");
  json_builder_begin_array (builder);

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, clarify_question_get_id (question));

      json_builder_begin_array (builder);
      if (answer != NULL && !answer->skipped)
        {
          for (guint j = 0; answer->values != NULL && answer->values[j] != NULL; j++)
            if (*answer->values[j] != '\0')
              json_builder_add_string_value (builder, answer->values[j]);
          /* OpenCode takes the typed answer as one more string, after the labels. */
          if (answer->custom_text != NULL && *answer->custom_text != '\0')
            json_builder_add_string_value (builder, answer->custom_text);
        }
      json_builder_end_array (builder);
    }

  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static const char *
answer_text (const ClarifyAnswer *answer)
{
  if (answer == NULL || answer->skipped)
    return NULL;
  if (answer->values != NULL && answer->values[0] != NULL && *answer->values[0] != '\0')
    return answer->values[0];
  if (answer->custom_text != NULL && *answer->custom_text != '\0')
    return answer->custom_text;
  return NULL;
}

static JsonNode *
permission_reply (ClarifyResponse *response,
                  gboolean         legacy,
                  GError         **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const char *reply = "reject";
  const char *message = NULL;

  if (clarify_response_get_outcome (response) == CLARIFY_OUTCOME_ANSWERED)
    {
      reply = answer_text (clarify_response_lookup_answer (response, CLARIFY_OPENCODE_PERMISSION_REPLY));
      message = answer_text (clarify_response_lookup_answer (response, CLARIFY_OPENCODE_PERMISSION_MESSAGE));

      if (g_strcmp0 (reply, "once") != 0 && g_strcmp0 (reply, "always") != 0 && g_strcmp0 (reply, "reject") != 0)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "a permission is answered with once, always or reject, not “%s”",
                       reply != NULL ? reply : "");
          return NULL;
        }
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, legacy ? "response" : "reply");
  json_builder_add_string_value (builder, reply);
  if (message != NULL && !legacy && !clarify_text_is_blank (message))
    {
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, message);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

gboolean
clarify_opencode_encode_reply (ClarifyRequest   *request,
                               ClarifyResponse  *response,
                               char            **path,
                               char            **body,
                               GError          **error)
{
  ClarifyOpencodeRequestInfo *info;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *id = NULL;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), FALSE);
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (response), FALSE);

  info = clarify_opencode_request_get_info (request);
  if (info == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "request %s is not an OpenCode request", clarify_request_get_id (request));
      return FALSE;
    }

  id = g_uri_escape_string (info->id, NULL, FALSE);

  switch (info->kind)
    {
    case CLARIFY_OPENCODE_REQUEST_QUESTION:
      if (clarify_response_get_outcome (response) != CLARIFY_OUTCOME_ANSWERED)
        {
          *path = g_strdup_printf ("/question/%s/reject", id);
          *body = NULL;
          return TRUE;
        }
      node = question_answers (request, response);
      *path = g_strdup_printf ("/question/%s/reply", id);
      break;

    case CLARIFY_OPENCODE_REQUEST_PERMISSION:
      if (!(node = permission_reply (response, FALSE, error)))
        return FALSE;
      *path = g_strdup_printf ("/permission/%s/reply", id);
      break;

    case CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION:
      {
        g_autofree char *session = g_uri_escape_string (info->session_id ? info->session_id : "", NULL, FALSE);

        if (!(node = permission_reply (response, TRUE, error)))
          return FALSE;
        *path = g_strdup_printf ("/session/%s/permissions/%s", session, id);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  *body = clarify_json_to_string (node);
  return TRUE;
}

/* Tracking */

ClarifyOpencodeTracker *
clarify_opencode_tracker_new (ClarifyBackend *backend)
{
  ClarifyOpencodeTracker *self = g_new0 (ClarifyOpencodeTracker, 1);

  self->backend = backend;
  self->finished = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  return self;
}

void
clarify_opencode_tracker_free (ClarifyOpencodeTracker *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->finished);
  g_free (self);
}

gboolean
clarify_opencode_tracker_is_finished (ClarifyOpencodeTracker *self,
                                      const char             *request_id)
{
  return g_hash_table_contains (self->finished, request_id);
}

static void
finish_request (ClarifyOpencodeTracker *self,
                const char             *request_id,
                const char             *reason)
{
  ClarifyRequest *request = clarify_backend_lookup_request (self->backend, request_id);
  ClarifyOpencodeRequestInfo *info = request != NULL ? clarify_opencode_request_get_info (request) : NULL;

  g_hash_table_add (self->finished, g_strdup (request_id));

  if (request == NULL)
    return;

  /* The echo of our own reply is no news to the user. */
  if (info != NULL && info->answering)
    clarify_backend_forget_request (self->backend, request_id);
  else
    clarify_backend_withdraw_request (self->backend, request_id, reason);
}

static void
show_request (ClarifyOpencodeTracker *self,
              ClarifyRequest         *request)
{
  if (clarify_opencode_tracker_is_finished (self, clarify_request_get_id (request)))
    return;
  clarify_backend_add_request (self->backend, request);
}

typedef gboolean (*RequestFilter) (ClarifyOpencodeRequestInfo *info,
                                   gconstpointer               data);

/* Collects first: withdrawing changes the list being walked. */
static GPtrArray *
collect_pending (ClarifyOpencodeTracker *self,
                 RequestFilter           filter,
                 gconstpointer           data)
{
  GListModel *requests = clarify_backend_get_requests (self->backend);
  guint n = g_list_model_get_n_items (requests);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);
      ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);

      if (info != NULL && !info->answering && filter (info, data))
        g_ptr_array_add (ids, g_strdup (info->id));
    }

  return ids;
}

static gboolean
in_session (ClarifyOpencodeRequestInfo *info,
            gconstpointer               session_id)
{
  return g_strcmp0 (info->session_id, session_id) == 0;
}

static void
end_session (ClarifyOpencodeTracker *self,
             const char             *session_id)
{
  g_autoptr(GPtrArray) ids = NULL;

  if (session_id == NULL)
    return;

  ids = collect_pending (self, in_session, session_id);
  for (guint i = 0; i < ids->len; i++)
    {
      /* An aborted session leaves its question listed: never show it again. */
      g_hash_table_add (self->finished, g_strdup (ids->pdata[i]));
      clarify_backend_withdraw_request (self->backend, ids->pdata[i], _("The session ended"));
    }
}

static void
decode_and_show (ClarifyOpencodeTracker     *self,
                 ClarifyOpencodeRequestKind  kind,
                 JsonObject                 *properties,
                 const char                 *directory,
                 const char                 *workspace_id)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  const char *id = clarify_json_get_string_member (properties, "id");

  /* Decode nothing for a request that is already on screen or done. */
  if (id != NULL && (clarify_opencode_tracker_is_finished (self, id) ||
                     clarify_backend_lookup_request (self->backend, id) != NULL))
    return;

  if (kind == CLARIFY_OPENCODE_REQUEST_QUESTION)
    request = clarify_opencode_question_new (properties, directory, workspace_id, &error);
  else
    request = clarify_opencode_permission_new (properties, kind == CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION,
                                               directory, workspace_id, &error);

  if (request == NULL)
    {
      g_message ("Ignoring an OpenCode request: %s", error->message);
      return;
    }

  show_request (self, request);
}

const char *
clarify_opencode_tracker_handle_event (ClarifyOpencodeTracker *self,
                                       JsonObject             *event,
                                       const char             *directory,
                                       const char             *workspace_id)
{
  const char *type = clarify_json_get_string_member (event, "type");
  JsonObject *properties = clarify_json_get_object_member (event, "properties");

  if (type == NULL || properties == NULL)
    return "";

  if (g_str_equal (type, "question.asked"))
    decode_and_show (self, CLARIFY_OPENCODE_REQUEST_QUESTION, properties, directory, workspace_id);
  else if (g_str_equal (type, "permission.asked"))
    decode_and_show (self, CLARIFY_OPENCODE_REQUEST_PERMISSION, properties, directory, workspace_id);
  else if (g_str_equal (type, "permission.updated"))
    decode_and_show (self, CLARIFY_OPENCODE_REQUEST_LEGACY_PERMISSION, properties, directory, workspace_id);
  else if (g_str_equal (type, "question.replied") ||
           g_str_equal (type, "question.rejected") ||
           g_str_equal (type, "permission.replied"))
    {
      /* Older servers name the permission "permissionID". */
      const char *id = clarify_json_get_string_member (properties, "requestID");

      if (id == NULL)
        id = clarify_json_get_string_member (properties, "permissionID");
      if (id != NULL)
        finish_request (self, id, _("Answered elsewhere"));
    }
  else if (g_str_equal (type, "session.idle") ||
           g_str_equal (type, "session.error") ||
           g_str_equal (type, "session.deleted"))
    end_session (self, clarify_json_get_string_member (properties, "sessionID"));
  else if (g_str_equal (type, "session.status"))
    {
      if (g_strcmp0 (clarify_json_get_string_member (clarify_json_get_object_member (properties, "status"), "type"), "idle") == 0)
        end_session (self, clarify_json_get_string_member (properties, "sessionID"));
    }

  return type;
}

typedef struct
{
  ClarifyOpencodeRequestKind  kind;
  const char                 *directory;
  const char                 *workspace_id;
  GHashTable                 *listed;
} ListingScope;

static gboolean
missing_from_listing (ClarifyOpencodeRequestInfo *info,
                      gconstpointer               data)
{
  const ListingScope *scope = data;
  gboolean same_kind = (info->kind == CLARIFY_OPENCODE_REQUEST_QUESTION) ==
                       (scope->kind == CLARIFY_OPENCODE_REQUEST_QUESTION);
  gboolean same_place = scope->workspace_id != NULL
                          ? g_strcmp0 (info->workspace_id, scope->workspace_id) == 0
                          : g_strcmp0 (info->directory, scope->directory) == 0;

  return same_kind && same_place && !g_hash_table_contains (scope->listed, info->id);
}

void
clarify_opencode_tracker_resync (ClarifyOpencodeTracker     *self,
                                 ClarifyOpencodeRequestKind  kind,
                                 JsonArray                  *listing,
                                 const char                 *directory,
                                 const char                 *workspace_id,
                                 gint64                      listed_at)
{
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) missing = NULL;
  ListingScope scope = { kind, directory, workspace_id, listed };
  guint n = json_array_get_length (listing);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (listing, i);
      JsonObject *properties = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *id = clarify_json_get_string_member (properties, "id");

      if (id == NULL)
        continue;
      g_hash_table_add (listed, (gpointer) id);
      decode_and_show (self, kind, properties, directory, workspace_id);
    }

  missing = collect_pending (self, missing_from_listing, &scope);
  for (guint i = 0; i < missing->len; i++)
    {
      ClarifyRequest *request = clarify_backend_lookup_request (self->backend, missing->pdata[i]);

      /* What arrived after the listing was taken is not missing from it. */
      if (clarify_request_get_received_at (request) >= listed_at)
        continue;
      finish_request (self, missing->pdata[i], _("Answered elsewhere"));
    }
}

void
clarify_opencode_tracker_begin_answer (ClarifyOpencodeTracker *self,
                                       ClarifyRequest         *request)
{
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);

  if (info != NULL)
    info->answering = TRUE;
}

void
clarify_opencode_tracker_end_answer (ClarifyOpencodeTracker *self,
                                     ClarifyRequest         *request,
                                     const GError           *error)
{
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);
  const char *id = clarify_request_get_id (request);

  if (error == NULL || g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE))
    {
      g_hash_table_add (self->finished, g_strdup (id));
      clarify_backend_forget_request (self->backend, id);
    }
  else if (info != NULL)
    {
      /* Still pending: a retry or a resync may deal with it. */
      info->answering = FALSE;
    }
}

/* Resync rounds */

void
clarify_opencode_round_begin (ClarifyOpencodeRound *round)
{
  clarify_opencode_round_cancel (round);
  round->cancellable = g_cancellable_new ();
  round->number++;
  round->pending = 1;
}

guint
clarify_opencode_round_add (ClarifyOpencodeRound *round)
{
  round->pending++;

  return round->number;
}

gboolean
clarify_opencode_round_done (ClarifyOpencodeRound *round,
                             guint                 number)
{
  /* A call of an earlier round that finished just before it was cancelled. */
  if (number != round->number)
    return FALSE;

  g_assert (round->pending > 0);

  return --round->pending == 0;
}

gboolean
clarify_opencode_round_is_stale (ClarifyOpencodeRound *round,
                                 guint                 number,
                                 const GError         *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || number != round->number;
}

void
clarify_opencode_round_cancel (ClarifyOpencodeRound *round)
{
  if (round->cancellable != NULL)
    g_cancellable_cancel (round->cancellable);
  g_clear_object (&round->cancellable);
}

/* HTTP */

static JsonNode *
parse_reply (SoupMessage  *message,
             GBytes       *body,
             GError      **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!clarify_http_check_status (message, &local_error))
    {
      if (g_error_matches (local_error, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED))
        {
          g_autofree char *excerpt = clarify_http_excerpt (body, 4096);

          /* We sent something the server does not take: that is our bug, keep the evidence. */
          g_message ("%s %s was refused (%u): %s",
                     soup_message_get_method (message),
                     g_uri_get_path (soup_message_get_uri (message)),
                     soup_message_get_status (message), excerpt);
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return clarify_http_parse_json (message, body, error);
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SoupMessage *message = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  body = clarify_http_read_finish (SOUP_SESSION (object), result, &error);
  node = body != NULL ? parse_reply (message, body, &error) : NULL;
  if (node == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
}

void
clarify_opencode_call_async (SoupSession         *session,
                             SoupMessage         *message,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (session, cancellable, callback, user_data);

  g_task_set_source_tag (task, clarify_opencode_call_async);
  g_task_set_task_data (task, g_object_ref (message), g_object_unref);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, cancellable, call_cb, task);
}

JsonNode *
clarify_opencode_call_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

SoupMessage *
clarify_opencode_post_new (const char *url,
                           const char *body)
{
  SoupMessage *message = soup_message_new (SOUP_METHOD_POST, url);
  g_autoptr(GBytes) bytes = NULL;

  if (message == NULL)
    return NULL;

  bytes = body != NULL ? g_bytes_new (body, strlen (body)) : g_bytes_new_static ("", 0);
  soup_message_set_request_body_from_bytes (message, body != NULL ? "application/json" : NULL, bytes);

  return message;
}

void
clarify_opencode_complete_reply (ClarifyOpencodeTracker *tracker,
                                 GTask                  *task,
                                 GAsyncResult           *result)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = clarify_opencode_call_finish (result, &error);
  clarify_opencode_tracker_end_answer (tracker, g_task_get_task_data (task), error);

  if (node == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

char *
clarify_opencode_base_url (ClarifyConnection *connection)
{
  char *url = g_strdup (clarify_connection_get_url (connection));
  gsize len = strlen (url);

  while (len > 0 && url[len - 1] == '/')
    url[--len] = '\0';

  return url;
}

guint
clarify_opencode_stall_limit_ms (ClarifyConnection *connection,
                                 guint              default_s)
{
  const char *option = clarify_connection_get_option (connection, "stall-limit");
  double seconds = option != NULL ? g_ascii_strtod (option, NULL) : 0;

  if (seconds <= 0 || seconds > G_MAXUINT / 1000)
    seconds = default_s;

  return (guint) (seconds * 1000);
}

SoupSession *
clarify_opencode_session_new (guint timeout_s)
{
  return soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                        "timeout", timeout_s,
                                        NULL);
}
