/* clarify-single-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-single-input.h"

struct _ClarifySingleInput
{
  ClarifyChoiceInput parent_instance;
};

G_DEFINE_FINAL_TYPE (ClarifySingleInput, clarify_single_input, CLARIFY_TYPE_CHOICE_INPUT)

static void
clarify_single_input_class_init (ClarifySingleInputClass *klass)
{
  CLARIFY_CHOICE_INPUT_CLASS (klass)->multiple = FALSE;
}

static void
clarify_single_input_init (ClarifySingleInput *self)
{
}
