/* clarify-fuzz.c: what every libFuzzer target shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clarify-fuzz.h"
#include "clarify-json.h"
#include "clarify-validate.h"

static GLogWriterOutput
quiet_writer (GLogLevelFlags   log_level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  /* A critical is a bug: show it, then abort so that libFuzzer keeps the input. */
  if (log_level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR))
    {
      g_log_writer_standard_streams (log_level, fields, n_fields, user_data);
      abort ();
    }
  return G_LOG_WRITER_HANDLED;
}

void
clarify_fuzz_init (void)
{
  static gboolean done;

  if (done)
    return;
  done = TRUE;
  g_setenv ("GIO_USE_VFS", "local", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_log_set_writer_func (quiet_writer, NULL, NULL);
}

JsonNode *
clarify_fuzz_parse_object (const uint8_t *data,
                           size_t         size)
{
  JsonNode *node = clarify_json_parse ((const char *) data, size, NULL);

  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    g_clear_pointer (&node, json_node_unref);
  return node;
}

/* The values that answer @question as @how says (NULL-terminated). */
static GStrv
answer_values (ClarifyQuestion *question,
               guint            how)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n_options = clarify_question_get_n_options (question);
  const char * const *defaults = clarify_question_get_default_values (question);

  if (how == 2 && defaults[0] != NULL)
    g_strv_builder_addv (builder, (const char **) defaults);
  else if (n_options > 0)
    {
      /* how 1: the first option; otherwise every option (a multi choice's all). */
      guint n = how == 1 || clarify_question_get_kind (question) != CLARIFY_QUESTION_KIND_MULTI ? 1 : n_options;

      for (guint i = 0; i < n; i++)
        {
          ClarifyOption *option = clarify_question_get_option (question, how == 1 ? 0 : n_options - 1 - i);

          g_strv_builder_add (builder, clarify_option_get_value (option));
        }
    }
  else
    {
      switch (clarify_question_get_kind (question))
        {
        case CLARIFY_QUESTION_KIND_NUMBER:
          g_strv_builder_add (builder, how == 1 ? "42" : "-1.5e3");
          break;
        case CLARIFY_QUESTION_KIND_DATE:
          g_strv_builder_add (builder, "2026-11-26");
          break;
        case CLARIFY_QUESTION_KIND_DATE_RANGE:
          g_strv_builder_add (builder, "2026-11-26");
          g_strv_builder_add (builder, "2026-12-24");
          break;
        case CLARIFY_QUESTION_KIND_CONFIRM:
          g_strv_builder_add (builder, how == 1 ? "yes" : "no");
          break;
        case CLARIFY_QUESTION_KIND_TEXT:
        case CLARIFY_QUESTION_KIND_SINGLE:
        case CLARIFY_QUESTION_KIND_MULTI:
        case CLARIFY_QUESTION_KIND_PERMISSION:
        case CLARIFY_QUESTION_KIND_LINK:
        default:
          g_strv_builder_add (builder, how == 1 ? "text" : "ünïcode \"quoted\"\n/path");
          break;
        }
    }
  return g_strv_builder_end (builder);
}

ClarifyResponse *
clarify_fuzz_response_new (ClarifyRequest *request,
                           guint           how)
{
  const char *id = clarify_request_get_id (request);
  ClarifyResponse *response;

  how %= CLARIFY_FUZZ_N_RESPONSES;
  if (how == 0)
    return clarify_response_new (id, CLARIFY_OUTCOME_CANCELLED);
  if (how == 5)
    return clarify_response_new (id, CLARIFY_OUTCOME_TIMED_OUT);

  response = clarify_response_new (id, CLARIFY_OUTCOME_ANSWERED);
  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      const char *question_id = clarify_question_get_id (question);
      g_auto(GStrv) values = answer_values (question, how);
      g_autofree char *message = NULL;
      const char *custom = how == 3 && clarify_question_get_allow_other (question) ? "my own answer" : NULL;

      if (how == 4 && clarify_question_get_skippable (question))
        {
          clarify_response_add_answer (response, question_id, NULL, NULL, TRUE);
          continue;
        }

      /* Whatever the verdict, the check itself must hold up. */
      clarify_question_check_answer (question, (const char * const *) values, custom, &message);
      clarify_response_add_answer (response, question_id,
                                   custom != NULL ? NULL : (const char * const *) values, custom, FALSE);
      if (how == 3 && clarify_question_get_takes_note (question))
        clarify_response_set_note (response, question_id, "a note");
    }
  return response;
}

void
clarify_fuzz_round_trip (ClarifyRequest *request)
{
  g_autoptr(JsonNode) node = clarify_request_to_json (request);
  g_autofree char *text = clarify_json_to_string (node);
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyRequest) again = clarify_request_new_from_data (text, -1, &error);

  if (again == NULL)
    {
      g_printerr ("A request Clarify accepted does not read back from its JSON form: %s\n%s\n",
                  error->message, text);
      abort ();
    }
}

void
clarify_fuzz_check_path (const char *path)
{
  g_auto(GStrv) segments = NULL;

  if (path[0] != '/' || strpbrk (path, "?#") != NULL)
    goto bad;
  segments = g_strsplit (path + 1, "/", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    if (g_str_equal (segments[i], "") || g_str_equal (segments[i], ".") || g_str_equal (segments[i], ".."))
      goto bad;
  return;

bad:
  g_printerr ("The path leaves where it is appended: %s\n", path);
  abort ();
}

void
clarify_fuzz_encode_all (ClarifyRequest        *request,
                         ClarifyFuzzEncodeFunc  encode)
{
  clarify_fuzz_round_trip (request);
  for (guint how = 0; how < CLARIFY_FUZZ_N_RESPONSES; how++)
    {
      g_autoptr(ClarifyResponse) response = clarify_fuzz_response_new (request, how);
      g_autofree char *encoded = encode (request, response, NULL);
    }
}
