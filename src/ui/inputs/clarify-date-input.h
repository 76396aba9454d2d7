/* clarify-date-input.h: the answer widget for date questions
 *
 * One ClarifyDateEntry; the answer is ISO YYYY-MM-DD.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-date-entry.h"
#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_DATE_INPUT (clarify_date_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyDateInput, clarify_date_input, CLARIFY, DATE_INPUT, ClarifyInput)

ClarifyDateEntry *clarify_date_input_get_date_entry (ClarifyDateInput *self);

G_END_DECLS
