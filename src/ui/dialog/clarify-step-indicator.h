/* clarify-step-indicator.h: "Question 2 of 3" and a dot per question
 *
 * A dot is a check once its question is answered or skipped, and the accent
 * colour while its question shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_STEP_INDICATOR (clarify_step_indicator_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyStepIndicator, clarify_step_indicator, CLARIFY, STEP_INDICATOR, GtkBox)

/* @tooltip (the question's header) may be NULL. */
void  clarify_step_indicator_add_step     (ClarifyStepIndicator *self,
                                           const char           *tooltip);
guint clarify_step_indicator_get_n_steps  (ClarifyStepIndicator *self);
void  clarify_step_indicator_set_answered (ClarifyStepIndicator *self,
                                           guint                 step,
                                           gboolean              answered);
guint clarify_step_indicator_get_current  (ClarifyStepIndicator *self);
void  clarify_step_indicator_set_current  (ClarifyStepIndicator *self,
                                           guint                 step);

G_END_DECLS
