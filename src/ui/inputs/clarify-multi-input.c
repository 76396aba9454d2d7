/* clarify-multi-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-multi-input.h"

struct _ClarifyMultiInput
{
  ClarifyChoiceInput parent_instance;
};

G_DEFINE_FINAL_TYPE (ClarifyMultiInput, clarify_multi_input, CLARIFY_TYPE_CHOICE_INPUT)

static void
clarify_multi_input_class_init (ClarifyMultiInputClass *klass)
{
  CLARIFY_CHOICE_INPUT_CLASS (klass)->multiple = TRUE;
}

static void
clarify_multi_input_init (ClarifyMultiInput *self)
{
}
