/* clarify-text-input.h: the answer widget for text questions
 *
 * A multi-line text view that grows with its content up to about eight
 * lines, the agent's placeholder while empty, and a character counter when
 * the question limits the length. Enter is a newline; Ctrl+Enter is handed
 * on as ::activate-default.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_TEXT_INPUT (clarify_text_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyTextInput, clarify_text_input, CLARIFY, TEXT_INPUT, ClarifyInput)

GtkTextView *clarify_text_input_get_text_view (ClarifyTextInput *self);

G_END_DECLS
