/* clarify-question.h: one question of a request, already normalized
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-option.h"

#include "clarify-model-enums.h"

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_QUESTION_KIND_TEXT,
  CLARIFY_QUESTION_KIND_SINGLE,
  CLARIFY_QUESTION_KIND_MULTI,
  CLARIFY_QUESTION_KIND_CONFIRM,
  CLARIFY_QUESTION_KIND_NUMBER,
  CLARIFY_QUESTION_KIND_DATE,
  CLARIFY_QUESTION_KIND_DATE_RANGE,
  /* May the agent do something? The options carry the values
   * CLARIFY_PERMISSION_ONCE, _ALWAYS and _REJECT (those the agent
   * supports); the answer is one of them, and with _REJECT the custom
   * text is the optional message to the agent (when allow-other). */
  CLARIFY_QUESTION_KIND_PERMISSION,
  /* Will the person open an address (the subject, http or https) in their
   * browser? MCP's URL mode. The answer is CLARIFY_LINK_OPEN once the
   * dialog opened it on their click, or CLARIFY_LINK_DECLINE. */
  CLARIFY_QUESTION_KIND_LINK,
} ClarifyQuestionKind;

#define CLARIFY_PERMISSION_ONCE   "once"
#define CLARIFY_PERMISSION_ALWAYS "always"
#define CLARIFY_PERMISSION_REJECT "reject"

#define CLARIFY_LINK_OPEN    "open"
#define CLARIFY_LINK_DECLINE "decline"

/* The wire names of the kinds in the JSON form ("text", "single", …). */
const char *clarify_question_kind_to_string (ClarifyQuestionKind kind);

/* Constraints on the answer. Unset numeric limits are flagged by has_*;
 * unset lengths are -1; an unset step is 0. */
typedef struct
{
  char     *pattern;
  char     *message;
  gboolean  has_min;
  gboolean  has_max;
  double    min;
  double    max;
  double    step;
  int       min_length;
  int       max_length;
} ClarifyValidation;

#define CLARIFY_TYPE_QUESTION (clarify_question_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyQuestion, clarify_question, CLARIFY, QUESTION, GObject)

ClarifyQuestion          *clarify_question_new                (const char          *id,
                                                               ClarifyQuestionKind  kind,
                                                               const char          *text);

const char               *clarify_question_get_id             (ClarifyQuestion     *self);
ClarifyQuestionKind       clarify_question_get_kind           (ClarifyQuestion     *self);
void                      clarify_question_set_kind           (ClarifyQuestion     *self,
                                                               ClarifyQuestionKind  kind);
const char               *clarify_question_get_text           (ClarifyQuestion     *self);
void                      clarify_question_set_text           (ClarifyQuestion     *self,
                                                               const char          *text);
const char               *clarify_question_get_header         (ClarifyQuestion     *self);
void                      clarify_question_set_header         (ClarifyQuestion     *self,
                                                               const char          *header);
const char               *clarify_question_get_placeholder    (ClarifyQuestion     *self);
void                      clarify_question_set_placeholder    (ClarifyQuestion     *self,
                                                               const char          *placeholder);
/* What the question is about, shown whole in monospace: the command or
 * path of a permission. NULL when there is none. */
const char               *clarify_question_get_subject        (ClarifyQuestion     *self);
void                      clarify_question_set_subject        (ClarifyQuestion     *self,
                                                               const char          *subject);
gboolean                  clarify_question_get_allow_other    (ClarifyQuestion     *self);
void                      clarify_question_set_allow_other    (ClarifyQuestion     *self,
                                                               gboolean             allow_other);
gboolean                  clarify_question_get_skippable      (ClarifyQuestion     *self);
void                      clarify_question_set_skippable      (ClarifyQuestion     *self,
                                                               gboolean             skippable);
/* How many options the agent sent past the cap (clarify_request_validate()
 * drops them), so that the dialog can say the list is not all of them. */
guint                     clarify_question_get_n_options_left_out (ClarifyQuestion *self);
void                      clarify_question_set_n_options_left_out (ClarifyQuestion *self,
                                                                   guint            n_left_out);
/* For text: the agent expects more than a line (Enter is a newline). */
gboolean                  clarify_question_get_multi_line     (ClarifyQuestion     *self);
void                      clarify_question_set_multi_line     (ClarifyQuestion     *self,
                                                               gboolean             multi_line);
/* The agent reads a note beside the answer (AskUserQuestion's annotations). */
gboolean                  clarify_question_get_takes_note     (ClarifyQuestion     *self);
void                      clarify_question_set_takes_note     (ClarifyQuestion     *self,
                                                               gboolean             takes_note);

/* A GListModel of ClarifyOption, in the agent's order. */
GListModel               *clarify_question_get_options        (ClarifyQuestion     *self);
guint                     clarify_question_get_n_options      (ClarifyQuestion     *self);
ClarifyOption            *clarify_question_get_option         (ClarifyQuestion     *self,
                                                               guint                position);
void                      clarify_question_add_option         (ClarifyQuestion     *self,
                                                               ClarifyOption       *option);
/* The option whose value or label equals @value_or_label, or NULL. */
ClarifyOption            *clarify_question_find_option        (ClarifyQuestion     *self,
                                                               const char          *value_or_label);

const ClarifyValidation  *clarify_question_get_validation     (ClarifyQuestion     *self);
/* Copies @validation; NULL clears it. */
void                      clarify_question_set_validation     (ClarifyQuestion     *self,
                                                               const ClarifyValidation *validation);

/* Defaults: one value for most kinds, several for multi, two (start, end)
 * for date_range. NULL-terminated; never NULL (empty when unset). */
const char * const       *clarify_question_get_default_values (ClarifyQuestion     *self);
void                      clarify_question_set_default_values (ClarifyQuestion     *self,
                                                               const char * const  *values);

void                      clarify_validation_init             (ClarifyValidation       *validation);
void                      clarify_validation_clear            (ClarifyValidation       *validation);
void                      clarify_validation_copy             (const ClarifyValidation *src,
                                                               ClarifyValidation       *dest);

G_END_DECLS
