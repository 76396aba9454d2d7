/* clarify-response.h: the user's answer to one ClarifyRequest
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "clarify-model-enums.h"

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_OUTCOME_ANSWERED,
  CLARIFY_OUTCOME_SKIPPED,
  CLARIFY_OUTCOME_CANCELLED,
  CLARIFY_OUTCOME_TIMED_OUT,
} ClarifyOutcome;

const char *clarify_outcome_to_string   (ClarifyOutcome  outcome);
gboolean    clarify_outcome_from_string (const char     *str,
                                         ClarifyOutcome *outcome);

/* One question's answer. values are option *values* for choices, ISO dates
 * for dates (start, end for a range), "yes"/"no" for confirm, the number as
 * text (C locale) for numbers. note is what the user added beside the
 * answer, where the question takes one, or NULL. */
typedef struct
{
  char      *question_id;
  char     **values;
  char      *custom_text;
  gboolean   skipped;
  char      *note;
} ClarifyAnswer;

#define CLARIFY_TYPE_RESPONSE (clarify_response_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyResponse, clarify_response, CLARIFY, RESPONSE, GObject)

ClarifyResponse     *clarify_response_new           (const char          *request_id,
                                                     ClarifyOutcome       outcome);
const char          *clarify_response_get_request_id (ClarifyResponse    *self);
ClarifyOutcome       clarify_response_get_outcome   (ClarifyResponse     *self);

/* Copies everything it is given. */
void                 clarify_response_add_answer    (ClarifyResponse     *self,
                                                     const char          *question_id,
                                                     const char * const  *values,
                                                     const char          *custom_text,
                                                     gboolean             skipped);
/* Sets the note of the answer to @question_id, added before, trimmed; a
 * blank @note is none. */
void                 clarify_response_set_note      (ClarifyResponse     *self,
                                                     const char          *question_id,
                                                     const char          *note);
guint                clarify_response_get_n_answers (ClarifyResponse     *self);
const ClarifyAnswer *clarify_response_get_answer    (ClarifyResponse     *self,
                                                     guint                position);
const ClarifyAnswer *clarify_response_lookup_answer (ClarifyResponse     *self,
                                                     const char          *question_id);

G_END_DECLS
