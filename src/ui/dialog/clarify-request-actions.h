/* clarify-request-actions.h: the request dialog's buttons, or its closing notice
 *
 * The buttons activate the dialog's "dialog.*" actions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-request.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_REQUEST_ACTIONS (clarify_request_actions_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequestActions, clarify_request_actions, CLARIFY, REQUEST_ACTIONS, AdwBin)

ClarifyRequest *clarify_request_actions_get_request          (ClarifyRequestActions *self);
/* Cancel and Skip show when the request allows them. */
void            clarify_request_actions_set_request          (ClarifyRequestActions *self,
                                                              ClarifyRequest        *request);
/* Back shows on pages, Next before the last page, Submit on the last one
 * (or the only form). */
void            clarify_request_actions_set_step             (ClarifyRequestActions *self,
                                                              gboolean               paged,
                                                              gboolean               last);
/* Next or Submit, whichever shows; Close once the notice shows. */
GtkWidget      *clarify_request_actions_get_default_widget   (ClarifyRequestActions *self);
gboolean        clarify_request_actions_get_submit_sensitive (ClarifyRequestActions *self);
/* A line between the buttons (how many more questions wait), or NULL for none. */
void            clarify_request_actions_set_waiting_text     (ClarifyRequestActions *self,
                                                              const char            *text);
const char     *clarify_request_actions_get_waiting_text     (ClarifyRequestActions *self);
/* Replaces the buttons with @text and a Close button that closes the window. */
void            clarify_request_actions_show_notice          (ClarifyRequestActions *self,
                                                              const char            *text);

G_END_DECLS
