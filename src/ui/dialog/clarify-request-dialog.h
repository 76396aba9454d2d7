/* clarify-request-dialog.h: the native dialog for one ClarifyRequest
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_REQUEST_DIALOG (clarify_request_dialog_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequestDialog, clarify_request_dialog, CLARIFY, REQUEST_DIALOG, GtkWindow)

ClarifyRequestDialog *clarify_request_dialog_new         (GtkApplication       *application,
                                                          ClarifyRequest       *request);
/* The dialog for @request asked again after the agent refused @previous
 * (NULL: as new): each input starts from what the user answered. */
ClarifyRequestDialog *clarify_request_dialog_new_again   (GtkApplication       *application,
                                                          ClarifyRequest       *request,
                                                          ClarifyResponse      *previous);
ClarifyRequest       *clarify_request_dialog_get_request (ClarifyRequestDialog *self);
/* A line saying the agent cannot be reached right now, or NULL. */
void                  clarify_request_dialog_set_agent_away (ClarifyRequestDialog *self,
                                                             const char           *text);
/* Whether the time left shows (it runs either way). */
void                  clarify_request_dialog_set_show_countdown (ClarifyRequestDialog *self,
                                                                 gboolean              show_countdown);
const char           *clarify_request_dialog_get_agent_away (ClarifyRequestDialog *self);
/* A line saying how many more questions wait behind this one (none: no line):
 * while the user answers here, they get no notification. */
void                  clarify_request_dialog_set_n_waiting (ClarifyRequestDialog *self,
                                                            guint                 n_waiting);
/* The line's text, or NULL while it is hidden. */
const char           *clarify_request_dialog_get_waiting_text (ClarifyRequestDialog *self);

/* Signals:
 *   ::response (ClarifyResponse *response)
 *     emitted exactly once, when the user submits, skips or cancels, or the
 *     timeout runs out; the dialog then closes itself.
 * A withdrawn request (ClarifyRequest::withdrawn) shows a short notice and
 * closes without ::response.
 */

G_END_DECLS
