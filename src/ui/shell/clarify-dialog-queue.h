/* clarify-dialog-queue.h: one dialog on screen at a time, the rest in line
 *
 * Observes the inbox: every new pending request gets a dialog, which never
 * takes the focus from the one the user is answering (it waits in line, and
 * the dialog on screen says how many wait). A notification says a question
 * came only while no Clarify window has the focus; those that came while one
 * had it get theirs when the focus leaves Clarify with them still in line.
 * A dialog is built only when it is shown, and destroyed when it closes: a
 * request in line is data, not widgets.
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
/* Hands the user's answer to the inbox, from the dialog or a notification:
 * the notification goes, and a dialog still open for it closes. Nothing
 * happens when @request no longer waits for an answer. */
void                  clarify_dialog_queue_answer       (ClarifyDialogQueue *self,
                                                         ClarifyRequest     *request,
                                                         ClarifyResponse    *response);

/* The user's preferences; each applies at once. Without notifications a
 * question in line waits silently (the window and the tray still count it). */
void                  clarify_dialog_queue_set_notifications  (ClarifyDialogQueue *self,
                                                               gboolean            notifications);
void                  clarify_dialog_queue_set_sound          (ClarifyDialogQueue *self,
                                                               gboolean            sound);
void                  clarify_dialog_queue_set_show_countdown (ClarifyDialogQueue *self,
                                                               gboolean            show_countdown);

G_END_DECLS
