/* clarify-request-dialog-private.h: what the tests look at inside the dialog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-countdown.h"
#include "clarify-input.h"
#include "clarify-request-dialog.h"

G_BEGIN_DECLS

/* One page per question (TRUE), or all questions in one form (FALSE). */
gboolean          clarify_request_dialog_get_paged             (ClarifyRequestDialog *self);
/* The question shown (paged), or the one holding the focus (form). */
guint             clarify_request_dialog_get_page              (ClarifyRequestDialog *self);
ClarifyInput     *clarify_request_dialog_get_input             (ClarifyRequestDialog *self,
                                                                guint                 position);
GtkLabel         *clarify_request_dialog_get_error_label       (ClarifyRequestDialog *self,
                                                                guint                 position);
/* The per-question "Skip" toggle, or NULL when that question cannot be skipped. */
GtkToggleButton  *clarify_request_dialog_get_skip_toggle       (ClarifyRequestDialog *self,
                                                                guint                 position);
gboolean          clarify_request_dialog_is_submit_sensitive   (ClarifyRequestDialog *self);
ClarifyCountdown *clarify_request_dialog_get_countdown         (ClarifyRequestDialog *self);
/* How long the dialog ignores keys after it maps (before it is shown). */
void              clarify_request_dialog_set_key_guard_ms      (ClarifyRequestDialog *self,
                                                                guint                 ms);
/* Keys are still ignored; and how many were. */
gboolean          clarify_request_dialog_get_key_guarded       (ClarifyRequestDialog *self);
guint             clarify_request_dialog_get_n_keys_ignored    (ClarifyRequestDialog *self);
/* The withdrawal notice is showing. */
gboolean          clarify_request_dialog_get_withdrawn         (ClarifyRequestDialog *self);

G_END_DECLS
