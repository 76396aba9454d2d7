/* clarify-option.h: one choice of a single or multi question
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_OPTION (clarify_option_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyOption, clarify_option, CLARIFY, OPTION, GObject)

/* A GObject so that a GListStore of options can feed a GtkListView directly. */
ClarifyOption *clarify_option_new             (const char    *label,
                                               const char    *value,
                                               const char    *description);
const char    *clarify_option_get_label       (ClarifyOption *self);
/* Never NULL: falls back to the label when the agent gave no value. */
const char    *clarify_option_get_value       (ClarifyOption *self);
const char    *clarify_option_get_description (ClarifyOption *self);
/* Longer text shown in monospace while the option has the focus (a
 * mockup, a code sample); NULL when there is none. */
const char    *clarify_option_get_preview     (ClarifyOption *self);
void           clarify_option_set_preview     (ClarifyOption *self,
                                               const char    *preview);

G_END_DECLS
