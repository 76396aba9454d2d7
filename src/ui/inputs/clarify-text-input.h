/* clarify-text-input.h: the answer widget for text questions
 *
 * A one-line entry where Enter is handed on as ::activate-default; or, when
 * the agent expects a longer answer, a text view that grows with its content
 * up to about eight lines, where Enter is a newline and Ctrl+Enter is handed
 * on. The agent's placeholder while empty, and a character counter when the
 * question limits the length. Line breaks after the last line with text are
 * never part of the answer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_TEXT_INPUT (clarify_text_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyTextInput, clarify_text_input, CLARIFY, TEXT_INPUT, ClarifyInput)

/* Whether the answer is typed into a GtkTextView rather than a GtkEntry. */
gboolean   clarify_text_input_get_multi_line (ClarifyTextInput *self);
/* The GtkEntry or the GtkTextView the user types into. */
GtkWidget *clarify_text_input_get_field      (ClarifyTextInput *self);

G_END_DECLS
