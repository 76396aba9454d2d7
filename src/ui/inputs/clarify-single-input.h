/* clarify-single-input.h: the answer widget for single questions
 *
 * Picks one option (radio chips, or a searchable list), plus "Other…" when the question allows it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-choice-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_SINGLE_INPUT (clarify_single_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifySingleInput, clarify_single_input, CLARIFY, SINGLE_INPUT, ClarifyChoiceInput)

G_END_DECLS
