/* clarify-number-input.h: the answer widget for number questions
 *
 * A spin button that honours the question's min / max / step, with the
 * range as a hint. It starts at the default, or else at 0 moved into the
 * range, so it always holds a valid number. On the wire the value is
 * C-locale text with as many decimals as the step needs ("42", "2.5").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_NUMBER_INPUT (clarify_number_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyNumberInput, clarify_number_input, CLARIFY, NUMBER_INPUT, ClarifyInput)

GtkSpinButton *clarify_number_input_get_spin_button (ClarifyNumberInput *self);

G_END_DECLS
