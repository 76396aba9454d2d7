/* clarify-permission-input.h: may the agent do this? Deny, Always Allow, Allow Once
 *
 * The command or path the question is about, whole and in monospace, and
 * one button per answer the agent supports. A click (or Enter on the
 * focused Allow Once) answers and emits ::activate-default, so the dialog
 * submits at once. With allow_other, "Add a message…" opens an entry whose
 * text goes with Deny.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_PERMISSION_INPUT (clarify_permission_input_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyPermissionInput, clarify_permission_input, CLARIFY, PERMISSION_INPUT, ClarifyInput)

/* The button answering @value (CLARIFY_PERMISSION_ONCE, _ALWAYS or _REJECT),
 * or NULL when the agent does not offer it. */
GtkWidget *clarify_permission_input_get_button          (ClarifyPermissionInput *self,
                                                         const char             *value);
/* Allow Once, which takes the focus (Enter answers with it). */
GtkWidget *clarify_permission_input_get_default_button  (ClarifyPermissionInput *self);
/* The label showing the subject, or NULL when the question has none. */
GtkWidget *clarify_permission_input_get_subject_label   (ClarifyPermissionInput *self);
/* "Add a message…" and the entry it opens; NULL without allow_other. */
GtkWidget *clarify_permission_input_get_message_expander (ClarifyPermissionInput *self);
GtkWidget *clarify_permission_input_get_message_entry   (ClarifyPermissionInput *self);

G_END_DECLS
