/* clarify-ihub-chat.h: one conversation with an iHub app
 *
 * iHub has no stream to watch: a clarification arrives on the stream of
 * the chat turn that caused it, and its answer is the next turn. For iHub
 * Clarify is the chat client, and this object is one conversation: its
 * history, its running turn and its pending clarification. The
 * clarification is a ClarifyRequest in the inbox like any other; answering
 * it there (clarify_inbox_answer()) sends the next turn.
 *
 * Create conversations with clarify_ihub_backend_new_chat(). They are kept
 * on disk (no secrets) under g_get_user_data_dir()/clarify/ihub/.
 *
 * Signals:
 *   ::text (const char *chunk)            streamed text of the answer
 *   ::clarification (ClarifyRequest *)    the model asks; it is in the inbox
 *   ::error (ClarifyIhubEnd code, const char *detail)
 *                                          something went wrong in this turn;
 *                                          @detail is the server's own words or NULL
 *   ::turn-ended (ClarifyIhubEnd end, const char *detail)
 *                                          the turn is over; the chat takes
 *                                          the next message or answer
 *   ::event (const char *type, const char *data)
 *                                          every event of the turn, as it came
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-request.h"
#include "clarify-backends-enums.h"

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_IHUB_CHAT_IDLE,    /* takes a message */
  CLARIFY_IHUB_CHAT_RUNNING, /* a turn streams */
  CLARIFY_IHUB_CHAT_ASKING,  /* a clarification waits for its answer (or a new message) */
} ClarifyIhubChatState;

/* How a turn ended. Core says it with a code; the UI words it. */
typedef enum
{
  CLARIFY_IHUB_END_COMPLETE,         /* the model answered */
  CLARIFY_IHUB_END_CLARIFICATION,    /* the model asks: see clarify_ihub_chat_get_clarification() */
  CLARIFY_IHUB_END_STOPPED,          /* clarify_ihub_chat_stop() */
  CLARIFY_IHUB_END_INVALID_QUESTION, /* the model's question was refused (by the server or by us) */
  CLARIFY_IHUB_END_LIMIT_REACHED,    /* the chat used its 10 clarifications */
  CLARIFY_IHUB_END_SERVER_ERROR,     /* an `error` event or a refused message */
  CLARIFY_IHUB_END_STREAM_CLOSED,    /* the server closed the stream early (an idle stream) */
  CLARIFY_IHUB_END_CONNECTION_LOST,  /* the network failed, or the stream fell silent */
  CLARIFY_IHUB_END_LOGIN_REQUIRED,   /* 401 AUTH_REQUIRED, and no login helped */
  CLARIFY_IHUB_END_LOGIN_FAILED,     /* the username, password or token was refused */
  CLARIFY_IHUB_END_ACCESS_DENIED,    /* 403 APP_ACCESS_DENIED */
} ClarifyIhubEnd;

#define CLARIFY_TYPE_IHUB_CHAT (clarify_ihub_chat_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyIhubChat, clarify_ihub_chat, CLARIFY, IHUB_CHAT, GObject)

const char           *clarify_ihub_chat_get_id            (ClarifyIhubChat  *self);
const char           *clarify_ihub_chat_get_app_id        (ClarifyIhubChat  *self);
ClarifyIhubChatState  clarify_ihub_chat_get_state         (ClarifyIhubChat  *self);
/* The pending clarification (in ASKING), or NULL. */
ClarifyRequest       *clarify_ihub_chat_get_clarification (ClarifyIhubChat  *self);

/* The history as the server gets it: {"role","content",…} objects. */
guint                 clarify_ihub_chat_get_n_messages    (ClarifyIhubChat  *self);
const char           *clarify_ihub_chat_get_message       (ClarifyIhubChat  *self,
                                                           guint             position,
                                                           const char      **role);

/* The chat settings the web client sends with every message. */
void                  clarify_ihub_chat_set_model_id      (ClarifyIhubChat  *self,
                                                           const char       *model_id);
const char           *clarify_ihub_chat_get_model_id      (ClarifyIhubChat  *self);
void                  clarify_ihub_chat_set_language      (ClarifyIhubChat  *self,
                                                           const char       *language);
const char           *clarify_ihub_chat_get_language      (ClarifyIhubChat  *self);

/* Sends @text as the next message (in IDLE or ASKING; a pending
 * clarification is withdrawn). FALSE while a turn runs. */
gboolean              clarify_ihub_chat_send              (ClarifyIhubChat  *self,
                                                           const char       *text);
/* Stops the running turn (the server's /stop); it ends as STOPPED. */
void                  clarify_ihub_chat_stop              (ClarifyIhubChat  *self);

/* Whether @end is a failure (not COMPLETE, CLARIFICATION or STOPPED). */
gboolean              clarify_ihub_end_is_error           (ClarifyIhubEnd    end);

G_END_DECLS
