/* clarify-date-range-input.h: the answer widget for date_range questions
 *
 * Two ClarifyDateEntry, Start and End; the answer is [start, end] in ISO
 * YYYY-MM-DD, and a start after the end is shown as invalid.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-date-entry.h"
#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_DATE_RANGE_INPUT (clarify_date_range_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyDateRangeInput, clarify_date_range_input, CLARIFY, DATE_RANGE_INPUT, ClarifyInput)

ClarifyDateEntry *clarify_date_range_input_get_start (ClarifyDateRangeInput *self);
ClarifyDateEntry *clarify_date_range_input_get_end   (ClarifyDateRangeInput *self);

G_END_DECLS
