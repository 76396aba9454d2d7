/* clarify-claude-questions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-claude-questions.h"
#include "clarify-error.h"
#include "clarify-json.h"

/* The question texts as the agent sent them (the answers' keys, byte for
 * byte) and the options' previews, which go back as annotations. */
struct _ClarifyClaudeQuestions
{
  GPtrArray *texts;     /* char *, one per question */
  GPtrArray *previews;  /* GHashTable label → preview, or NULL, one per question */
};

static void
hash_table_unref0 (gpointer data)
{
  if (data != NULL)
    g_hash_table_unref (data);
}

void
clarify_claude_questions_free (ClarifyClaudeQuestions *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->texts);
  g_ptr_array_unref (self->previews);
  g_free (self);
}

static ClarifyQuestion *
decode_one (JsonObject  *object,
            guint        index,
            GHashTable **previews,
            GError     **error)
{
  const char *text = clarify_json_get_string_member (object, "question");
  const char *header = clarify_json_get_string_member (object, "header");
  JsonArray *options = clarify_json_get_array_member (object, "options");
  JsonNode *multi = json_object_get_member (object, "multiSelect");
  gboolean is_multi = multi != NULL && json_node_get_value_type (multi) == G_TYPE_BOOLEAN &&
                      json_node_get_boolean (multi);
  g_autofree char *id = g_strdup_printf ("q%u", index + 1);
  g_autoptr(ClarifyQuestion) question = NULL;

  if (text == NULL || options == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %u has no text or no options", index + 1);
      return NULL;
    }

  question = clarify_question_new (id, is_multi ? CLARIFY_QUESTION_KIND_MULTI : CLARIFY_QUESTION_KIND_SINGLE, text);
  clarify_question_set_header (question, header);
  /* The clients always offer "Other" with a text box. */
  clarify_question_set_allow_other (question, TRUE);
  clarify_question_set_skippable (question, FALSE);
  /* And take a note beside the answer (annotations[question].notes). */
  clarify_question_set_takes_note (question, TRUE);

  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonNode *node = json_array_get_element (options, i);
      JsonObject *option = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *label = clarify_json_get_string_member (option, "label");
      const char *preview = clarify_json_get_string_member (option, "preview");
      g_autoptr(ClarifyOption) choice = NULL;

      if (label == NULL)
        continue;

      /* Some Claude Code versions call the preview "markdown". */
      if (preview == NULL)
        preview = clarify_json_get_string_member (option, "markdown");

      choice = clarify_option_new (label, label, clarify_json_get_string_member (option, "description"));
      clarify_option_set_preview (choice, preview);
      clarify_question_add_option (question, choice);

      /* Only single-select answers carry a preview (Phoenix's buildAnnotations). */
      if (preview != NULL && !is_multi)
        {
          if (*previews == NULL)
            *previews = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          /* The first of duplicate labels wins, as options.find() does. */
          if (!g_hash_table_contains (*previews, label))
            g_hash_table_insert (*previews, g_strdup (label), g_strdup (preview));
        }
    }

  return g_steal_pointer (&question);
}

ClarifyClaudeQuestions *
clarify_claude_questions_decode (JsonArray       *questions,
                                 ClarifyRequest  *request,
                                 GError         **error)
{
  g_autoptr(ClarifyClaudeQuestions) self = NULL;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  if (questions == NULL || json_array_get_length (questions) == 0)
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "there are no questions");
      return NULL;
    }

  self = g_new0 (ClarifyClaudeQuestions, 1);
  self->texts = g_ptr_array_new_with_free_func (g_free);
  self->previews = g_ptr_array_new_with_free_func (hash_table_unref0);

  for (guint i = 0; i < json_array_get_length (questions); i++)
    {
      JsonNode *node = json_array_get_element (questions, i);
      GHashTable *previews = NULL;
      g_autoptr(ClarifyQuestion) question = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "question %u is not an object", i + 1);
          return NULL;
        }
      question = decode_one (json_node_get_object (node), i, &previews, error);
      if (question == NULL)
        return NULL;

      g_ptr_array_add (self->texts, g_strdup (clarify_json_get_string_member (json_node_get_object (node), "question")));
      g_ptr_array_add (self->previews, previews);
      clarify_request_add_question (request, question);
    }

  return g_steal_pointer (&self);
}

static char *
answer_string (ClarifyQuestion     *question,
               const ClarifyAnswer *answer)
{
  g_autofree char *other = NULL;
  GString *joined;

  if (answer == NULL || answer->skipped)
    return g_strdup ("");

  other = g_strstrip (g_strdup (answer->custom_text != NULL ? answer->custom_text : ""));

  if (clarify_question_get_kind (question) != CLARIFY_QUESTION_KIND_MULTI)
    {
      if (answer->values != NULL && answer->values[0] != NULL && *answer->values[0] != '\0')
        return g_strdup (answer->values[0]);
      return g_steal_pointer (&other);
    }

  /* The labels in the order they were picked, joined by ", " as Claude
   * Code's terminal does (Array.from(selected).join(', ') in Phoenix),
   * with the trimmed Other text last. */
  joined = g_string_new (NULL);
  for (guint i = 0; answer->values != NULL && answer->values[i] != NULL; i++)
    {
      if (joined->len > 0)
        g_string_append (joined, ", ");
      g_string_append (joined, answer->values[i]);
    }
  if (*other != '\0')
    {
      if (joined->len > 0)
        g_string_append (joined, ", ");
      g_string_append (joined, other);
    }

  return g_string_free (joined, FALSE);
}

/* One question's annotations, in the clients' order: {notes?, preview?}. */
typedef struct
{
  const char *notes;
  const char *preview;
} Annotation;

/* A JavaScript object keeps a repeated key at its first place with its last
 * value; two questions with one text must come out the same way. */
static void
set_member (GPtrArray  *keys,
            GHashTable *values,
            const char *key,
            gpointer    value)
{
  if (!g_hash_table_contains (values, key))
    g_ptr_array_add (keys, (gpointer) key);
  g_hash_table_replace (values, (gpointer) key, value);
}

gboolean
clarify_claude_questions_add_answers (ClarifyClaudeQuestions  *self,
                                      ClarifyRequest          *request,
                                      ClarifyResponse         *response,
                                      JsonBuilder             *builder,
                                      GError                 **error)
{
  g_autoptr(GPtrArray) answer_keys = g_ptr_array_new ();
  g_autoptr(GHashTable) answers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) annotation_keys = g_ptr_array_new ();
  g_autoptr(GHashTable) annotations = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  if (self == NULL || self->texts->len != clarify_request_get_n_questions (request))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "request %s is not an AskUserQuestion", clarify_request_get_id (request));
      return FALSE;
    }

  for (guint i = 0; i < self->texts->len; i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, clarify_question_get_id (question));
      const char *text = self->texts->pdata[i];
      GHashTable *options = self->previews->pdata[i];
      char *value = answer_string (question, answer);
      gboolean answered = answer != NULL && !answer->skipped;
      Annotation annotation = { NULL, NULL };

      if (options != NULL && answered && answer->values != NULL && answer->values[0] != NULL)
        annotation.preview = g_hash_table_lookup (options, answer->values[0]);
      if (answered)
        annotation.notes = answer->note;

      set_member (answer_keys, answers, text, value);
      /* Only set when there is one: an earlier one of the same text stays. */
      if (annotation.notes != NULL || annotation.preview != NULL)
        set_member (annotation_keys, annotations, text, g_memdup2 (&annotation, sizeof annotation));
    }

  json_builder_set_member_name (builder, "answers");
  json_builder_begin_object (builder);
  for (guint i = 0; i < answer_keys->len; i++)
    {
      json_builder_set_member_name (builder, answer_keys->pdata[i]);
      json_builder_add_string_value (builder, g_hash_table_lookup (answers, answer_keys->pdata[i]));
    }
  json_builder_end_object (builder);

  /* JSON.stringify leaves out annotations: undefined, and each question's
   * notes or preview when it has none. */
  if (annotation_keys->len > 0)
    {
      json_builder_set_member_name (builder, "annotations");
      json_builder_begin_object (builder);
      for (guint i = 0; i < annotation_keys->len; i++)
        {
          const Annotation *annotation = g_hash_table_lookup (annotations, annotation_keys->pdata[i]);

          json_builder_set_member_name (builder, annotation_keys->pdata[i]);
          json_builder_begin_object (builder);
          if (annotation->notes != NULL)
            {
              json_builder_set_member_name (builder, "notes");
              json_builder_add_string_value (builder, annotation->notes);
            }
          if (annotation->preview != NULL)
            {
              json_builder_set_member_name (builder, "preview");
              json_builder_add_string_value (builder, annotation->preview);
            }
          json_builder_end_object (builder);
        }
      json_builder_end_object (builder);
    }

  return TRUE;
}
