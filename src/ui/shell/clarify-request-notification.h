/* clarify-request-notification.h: a question as a desktop notification
 *
 * One notification per question, named by its inbox key. Where the answer
 * fits in buttons (one question: a confirm, a single choice of at most three
 * options, a permission), each button activates
 *
 *   app.answer-request  with the target (sss): (run token, inbox key, answer value)
 *
 * and the application answers through the inbox exactly as the dialog would
 * (clarify_request_notification_answer() builds that response). The run
 * token is this process's: a notification outlives Clarify, and a local
 * agent's first request key ("D-Bus" "dbus-1") comes again after a restart,
 * so an old notification's button must not answer the new question. The
 * default action is app.open-request with the key (s): it opens the dialog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

#define CLARIFY_ANSWER_REQUEST_ACTION "answer-request"

/* Titled with who asks, the question in the body; with @body_is_markup the
 * body's <, > and & are escaped, so that a server reading markup shows the
 * agent's text as it is. */
GNotification   *clarify_request_notification_new    (ClarifyRequest  *request,
                                                      gboolean         body_is_markup);
/* Asks whether a notification body GLib sends on @bus is read as markup:
 * where it goes to org.freedesktop.Notifications and that server reads
 * "body-markup" (or cannot say, or the asking was cancelled). */
void             clarify_request_notification_ask_body_markup        (GDBusConnection     *bus,
                                                                      GCancellable        *cancellable,
                                                                      GAsyncReadyCallback  callback,
                                                                      gpointer             user_data);
gboolean         clarify_request_notification_ask_body_markup_finish (GAsyncResult        *result);
/* This process's token in the buttons' targets; the same for every
 * notification until Clarify ends. */
const char      *clarify_request_notification_get_run_token (void);
/* The response the dialog would send had the user chosen @value, or NULL
 * when the notification offers no button for @value. */
ClarifyResponse *clarify_request_notification_answer (ClarifyRequest *request,
                                                      const char     *value);

G_END_DECLS
