/* clarify-confirm-input.h: the answer widget for confirm questions
 *
 * Two large buttons, Yes and No; the answer is "yes" or "no".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CONFIRM_INPUT (clarify_confirm_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyConfirmInput, clarify_confirm_input, CLARIFY, CONFIRM_INPUT, ClarifyInput)

G_END_DECLS
