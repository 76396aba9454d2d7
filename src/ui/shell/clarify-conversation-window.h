/* clarify-conversation-window.h: a conversation with an iHub app
 *
 * Choose the app, type, send; the answer streams in as plain text. The
 * app's questions go into the inbox like any other request, so Clarify's
 * request dialog asks them; this window shows the transcript, a Stop button
 * while a turn runs and, worded here, why a turn failed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-ihub-backend.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CONVERSATION_WINDOW (clarify_conversation_window_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyConversationWindow, clarify_conversation_window, CLARIFY, CONVERSATION_WINDOW, AdwWindow)

/* A window for @chat of @backend, or for a new conversation when @chat is NULL. */
GtkWidget       *clarify_conversation_window_new      (ClarifyIhubBackend        *backend,
                                                       ClarifyIhubChat           *chat);
/* The conversation shown, or NULL before the first message. */
ClarifyIhubChat *clarify_conversation_window_get_chat (ClarifyConversationWindow *self);
/* The window already showing @chat, or a new one of @application; presented. */
GtkWidget       *clarify_conversation_window_present  (GtkApplication            *application,
                                                       ClarifyIhubBackend        *backend,
                                                       ClarifyIhubChat           *chat);
/* One translated sentence for how a turn ended, NULL when it went well. */
const char      *clarify_conversation_window_describe_end (ClarifyIhubEnd          end);

G_END_DECLS
