/* clarify-multi-input.h: the answer widget for multi questions
 *
 * Picks any number of options (chips with check marks, or a checklist),
 * plus "Other…" when the question allows it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-choice-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_MULTI_INPUT (clarify_multi_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyMultiInput, clarify_multi_input, CLARIFY, MULTI_INPUT, ClarifyChoiceInput)

G_END_DECLS
