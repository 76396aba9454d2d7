/* clarify-response.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-response.h"
#include "clarify-validate.h"

struct _ClarifyResponse
{
  GObject         parent_instance;

  char           *request_id;
  ClarifyOutcome  outcome;
  GArray         *answers;
};

G_DEFINE_FINAL_TYPE (ClarifyResponse, clarify_response, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_REQUEST_ID,
  PROP_OUTCOME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char * const outcome_names[] = {
  [CLARIFY_OUTCOME_ANSWERED] = "answered",
  [CLARIFY_OUTCOME_SKIPPED] = "skipped",
  [CLARIFY_OUTCOME_CANCELLED] = "cancelled",
  [CLARIFY_OUTCOME_TIMED_OUT] = "timed_out",
};

const char *
clarify_outcome_to_string (ClarifyOutcome outcome)
{
  if ((guint) outcome < G_N_ELEMENTS (outcome_names))
    return outcome_names[outcome];

  g_return_val_if_reached ("cancelled");
}

gboolean
clarify_outcome_from_string (const char     *str,
                             ClarifyOutcome *outcome)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (outcome_names); i++)
    {
      if (g_str_equal (str, outcome_names[i]))
        {
          if (outcome != NULL)
            *outcome = (ClarifyOutcome) i;
          return TRUE;
        }
    }

  return FALSE;
}

static void
clear_answer (gpointer data)
{
  ClarifyAnswer *answer = data;

  g_clear_pointer (&answer->question_id, g_free);
  g_clear_pointer (&answer->values, g_strfreev);
  g_clear_pointer (&answer->custom_text, g_free);
  g_clear_pointer (&answer->note, g_free);
}

static void
clarify_response_finalize (GObject *object)
{
  ClarifyResponse *self = CLARIFY_RESPONSE (object);

  g_clear_pointer (&self->request_id, g_free);
  g_clear_pointer (&self->answers, g_array_unref);

  G_OBJECT_CLASS (clarify_response_parent_class)->finalize (object);
}

static void
clarify_response_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  ClarifyResponse *self = CLARIFY_RESPONSE (object);

  switch (prop_id)
    {
    case PROP_REQUEST_ID:
      g_value_set_string (value, self->request_id);
      break;

    case PROP_OUTCOME:
      g_value_set_enum (value, self->outcome);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_response_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  ClarifyResponse *self = CLARIFY_RESPONSE (object);

  switch (prop_id)
    {
    case PROP_REQUEST_ID:
      self->request_id = g_value_dup_string (value);
      break;

    case PROP_OUTCOME:
      self->outcome = g_value_get_enum (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_response_class_init (ClarifyResponseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = clarify_response_finalize;
  object_class->get_property = clarify_response_get_property;
  object_class->set_property = clarify_response_set_property;

  properties[PROP_REQUEST_ID] =
    g_param_spec_string ("request-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_OUTCOME] =
    g_param_spec_enum ("outcome", NULL, NULL,
                       CLARIFY_TYPE_OUTCOME,
                       CLARIFY_OUTCOME_ANSWERED,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_response_init (ClarifyResponse *self)
{
  self->answers = g_array_new (FALSE, TRUE, sizeof (ClarifyAnswer));
  g_array_set_clear_func (self->answers, clear_answer);
}

ClarifyResponse *
clarify_response_new (const char     *request_id,
                      ClarifyOutcome  outcome)
{
  g_return_val_if_fail (request_id != NULL, NULL);
  g_return_val_if_fail ((guint) outcome < G_N_ELEMENTS (outcome_names), NULL);

  return g_object_new (CLARIFY_TYPE_RESPONSE,
                       "request-id", request_id,
                       "outcome", outcome,
                       NULL);
}

const char *
clarify_response_get_request_id (ClarifyResponse *self)
{
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (self), NULL);

  return self->request_id;
}

ClarifyOutcome
clarify_response_get_outcome (ClarifyResponse *self)
{
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (self), CLARIFY_OUTCOME_CANCELLED);

  return self->outcome;
}

void
clarify_response_add_answer (ClarifyResponse    *self,
                             const char         *question_id,
                             const char * const *values,
                             const char         *custom_text,
                             gboolean            skipped)
{
  ClarifyAnswer answer;

  g_return_if_fail (CLARIFY_IS_RESPONSE (self));
  g_return_if_fail (question_id != NULL);

  answer.question_id = g_strdup (question_id);
  /* Never NULL, so encoders can iterate without checks. */
  answer.values = values != NULL ? g_strdupv ((char **) values) : g_new0 (char *, 1);
  answer.custom_text = g_strdup (custom_text);
  answer.skipped = !!skipped;
  answer.note = NULL;

  g_array_append_val (self->answers, answer);
}

void
clarify_response_set_note (ClarifyResponse *self,
                           const char      *question_id,
                           const char      *note)
{
  ClarifyAnswer *answer;

  g_return_if_fail (CLARIFY_IS_RESPONSE (self));

  answer = (ClarifyAnswer *) clarify_response_lookup_answer (self, question_id);
  g_return_if_fail (answer != NULL);

  /* Kept trimmed, as the answers' Other text is sent. */
  g_clear_pointer (&answer->note, g_free);
  if (!clarify_text_is_blank (note))
    answer->note = g_strstrip (g_strdup (note));
}

guint
clarify_response_get_n_answers (ClarifyResponse *self)
{
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (self), 0);

  return self->answers->len;
}

const ClarifyAnswer *
clarify_response_get_answer (ClarifyResponse *self,
                             guint            position)
{
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (self), NULL);

  if (position >= self->answers->len)
    return NULL;

  return &g_array_index (self->answers, ClarifyAnswer, position);
}

const ClarifyAnswer *
clarify_response_lookup_answer (ClarifyResponse *self,
                                const char      *question_id)
{
  g_return_val_if_fail (CLARIFY_IS_RESPONSE (self), NULL);

  if (question_id == NULL)
    return NULL;

  for (guint i = 0; i < self->answers->len; i++)
    {
      const ClarifyAnswer *answer = &g_array_index (self->answers, ClarifyAnswer, i);

      if (g_str_equal (answer->question_id, question_id))
        return answer;
    }

  return NULL;
}
