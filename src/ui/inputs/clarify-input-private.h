/* clarify-input-private.h: what the per-kind inputs share beyond the public API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

/* Emits ::activate-default (Enter in a one-line control). */
void       clarify_input_activate_default (ClarifyInput *self);
/* Emits ::grown: something appeared that the answer did not change (a
 * preview, a field opened), and the window may have to grow for it. */
void       clarify_input_grown            (ClarifyInput *self);

/* Like clarify_input_changed(), for a change that starts the answer afresh
 * (an empty field the user just chose to type into): its error stays quiet
 * until the user changes it. */
void       clarify_input_restarted        (ClarifyInput *self);

/* A dim, small, wrapping label for the input's own hints and counters.
 * Plain text only: it may show numbers that came from the agent. */
GtkWidget *clarify_input_new_hint_label   (void);

/* A row of answer buttons, as GNOME's dialogs lay them out: @refusal (may
 * be NULL) at the start, the @n_others (NULL ones left out) at the end. */
GtkWidget *clarify_input_new_button_row   (GtkWidget        *refusal,
                                           GtkWidget *const *others,
                                           guint             n_others);

/* Tab (@direction GTK_DIR_TAB_FORWARD) or Shift+Tab through @widget's
 * children in their order; FALSE past the last. For a widget whose
 * grab_focus() names one of its controls: GTK's default would, past the
 * first control going back, fall back on grab_focus(), and Shift+Tab
 * would stay. */
gboolean   clarify_input_focus_children   (GtkWidget        *widget,
                                           GtkDirectionType  direction);

G_END_DECLS
