/* clarify-dialog-queue.h: one dialog on screen at a time, the rest in line
 *
 * Observes the inbox: every new pending request gets a dialog, which never
 * takes the focus from the one the user is answering (it waits in line, and a
 * notification says it came). A dialog is built only when it is shown,
 * and destroyed when it closes: a request in line is data, not widgets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "clarify-inbox.h"
#include "clarify-request-dialog.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_DIALOG_QUEUE (clarify_dialog_queue_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyDialogQueue, clarify_dialog_queue, CLARIFY, DIALOG_QUEUE, GObject)

ClarifyDialogQueue   *clarify_dialog_queue_new         (GtkApplication     *application,
                                                        ClarifyInbox       *inbox);
/* Shows @request's dialog now, ahead of the line; NULL when it is no longer pending. */
ClarifyRequestDialog *clarify_dialog_queue_present     (ClarifyDialogQueue *self,
                                                        ClarifyRequest     *request);
guint                 clarify_dialog_queue_get_n_queued (ClarifyDialogQueue *self);

G_END_DECLS
