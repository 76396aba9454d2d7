/* clarify-request.h: what an agent asks, in the one normalized form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "clarify-model-enums.h"
#include "clarify-question.h"

G_BEGIN_DECLS

/* Where a request is in its life. Only ClarifyInbox moves it on:
 * pending → sending → done, and back from sending to pending when the agent
 * refused the answer, so that the user can answer again. */
typedef enum
{
  CLARIFY_REQUEST_PENDING,  /* waiting for the user */
  CLARIFY_REQUEST_SENDING,  /* answered; the answer is on its way */
  CLARIFY_REQUEST_DONE,     /* see clarify_request_get_end() */
} ClarifyRequestState;

/* How a request ended. */
typedef enum
{
  CLARIFY_REQUEST_END_NONE,               /* not done yet */
  CLARIFY_REQUEST_END_ANSWERED,           /* the agent took the answer (or the skip) */
  CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE, /* someone answered it in another client */
  CLARIFY_REQUEST_END_WITHDRAWN,          /* the agent no longer asks */
  CLARIFY_REQUEST_END_TIMED_OUT,
  CLARIFY_REQUEST_END_CANCELLED,          /* the user declined */
  CLARIFY_REQUEST_END_FAILED,             /* the answer could not be delivered */
} ClarifyRequestEnd;

/* Why a request ended without the user's answer, or why the agent refused
 * that answer. A code, not a sentence: the UI puts it into words. */
typedef enum
{
  CLARIFY_END_REASON_NONE,                    /* nothing to tell the user */
  CLARIFY_END_REASON_AGENT_WITHDREW,          /* the agent no longer asks */
  CLARIFY_END_REASON_ANSWERED_ELSEWHERE,      /* someone answered it in another client */
  CLARIFY_END_REASON_ANSWERED_IN_TERMINAL,    /* the person answered in the agent's own terminal */
  CLARIFY_END_REASON_SESSION_ENDED,           /* the agent's session stopped */
  CLARIFY_END_REASON_CALLER_LEFT,             /* a local caller (MCP, D-Bus) stopped waiting */
  CLARIFY_END_REASON_STOPPED_LISTENING,       /* Clarify stopped serving local callers */
  CLARIFY_END_REASON_TIME_RAN_OUT,            /* its deadline passed */
  CLARIFY_END_REASON_CONNECTION_REMOVED,      /* its connection went while it was pending */
  CLARIFY_END_REASON_REMOVED_BEFORE_DELIVERY, /* its connection went while the answer was on its way */
  CLARIFY_END_REASON_ANSWER_REFUSED,          /* the agent refused the answer; pending again */
  CLARIFY_END_REASON_DELIVERY_FAILED,         /* the answer could not be delivered */
  CLARIFY_END_REASON_WAITING_FOR_AGENT,       /* sending: the agent did not take it yet; retried */
  CLARIFY_END_REASON_NOT_NEEDED,              /* an answer kept across a restart the agent no longer wanted */
  CLARIFY_END_REASON_AGENT_RESTARTED,         /* the agent restarted and its question is gone */
} ClarifyEndReason;

#define CLARIFY_TYPE_REQUEST (clarify_request_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyRequest, clarify_request, CLARIFY, REQUEST, GObject)

ClarifyRequest  *clarify_request_new                 (const char     *id);

/* Unique within the backend (connection) that produced it. */
const char      *clarify_request_get_id              (ClarifyRequest *self);

/* Which connection asks: set by the backend, shown by the dialog. */
const char      *clarify_request_get_connection_name (ClarifyRequest *self);
const char      *clarify_request_get_connection_kind (ClarifyRequest *self);
void             clarify_request_set_connection      (ClarifyRequest *self,
                                                      const char     *name,
                                                      const char     *kind);
/* Optional project (e.g. a directory) and session the question belongs to. */
const char      *clarify_request_get_project         (ClarifyRequest *self);
void             clarify_request_set_project         (ClarifyRequest *self,
                                                      const char     *project);
const char      *clarify_request_get_session         (ClarifyRequest *self);
void             clarify_request_set_session         (ClarifyRequest *self,
                                                      const char     *session);
/* The program that asks, as it names itself (an MCP client's
 * clientInfo.name), when a source that serves any caller knows it. */
const char      *clarify_request_get_caller          (ClarifyRequest *self);
void             clarify_request_set_caller          (ClarifyRequest *self,
                                                      const char     *caller);
/* The session's title as the agent's own UI shows it, once the backend
 * learnt it (it may come after the request; :session-title notifies). */
const char      *clarify_request_get_session_title   (ClarifyRequest *self);
void             clarify_request_set_session_title   (ClarifyRequest *self,
                                                      const char     *session_title);

const char      *clarify_request_get_title           (ClarifyRequest *self);
void             clarify_request_set_title           (ClarifyRequest *self,
                                                      const char     *title);
const char      *clarify_request_get_context         (ClarifyRequest *self);
void             clarify_request_set_context         (ClarifyRequest *self,
                                                      const char     *context);

guint            clarify_request_get_n_questions     (ClarifyRequest *self);
ClarifyQuestion *clarify_request_get_question        (ClarifyRequest *self,
                                                      guint           position);
void             clarify_request_add_question        (ClarifyRequest *self,
                                                      ClarifyQuestion *question);

/* 0 means no timeout. */
guint            clarify_request_get_timeout_ms      (ClarifyRequest *self);
void             clarify_request_set_timeout_ms      (ClarifyRequest *self,
                                                      guint           timeout_ms);
/* g_get_monotonic_time() when the request arrived; the countdown runs from here. */
gint64           clarify_request_get_received_at     (ClarifyRequest *self);
void             clarify_request_set_received_at     (ClarifyRequest *self,
                                                      gint64          monotonic_us);
/* Monotonic deadline in µs, or 0 without a timeout. */
gint64           clarify_request_get_deadline        (ClarifyRequest *self);

/* Whether the whole request may be skipped (answered as "skipped"). */
gboolean         clarify_request_get_skippable       (ClarifyRequest *self);
void             clarify_request_set_skippable       (ClarifyRequest *self,
                                                      gboolean        skippable);
/* How the dialog words Skip and Cancel for this request ("Answer in the
 * Terminal", "Decline"), already translated; NULL for the usual words. */
const char      *clarify_request_get_skip_label      (ClarifyRequest *self);
void             clarify_request_set_skip_label      (ClarifyRequest *self,
                                                      const char     *skip_label);
const char      *clarify_request_get_cancel_label    (ClarifyRequest *self);
void             clarify_request_set_cancel_label    (ClarifyRequest *self,
                                                      const char     *cancel_label);
/* Whether the protocol can decline; FALSE hides Cancel (closing then only hides). */
gboolean         clarify_request_get_cancellable     (ClarifyRequest *self);
void             clarify_request_set_cancellable     (ClarifyRequest *self,
                                                      gboolean        cancellable);

/* What the backend needs later to answer; opaque to everything else. */
gpointer         clarify_request_get_backend_data    (ClarifyRequest *self);
void             clarify_request_set_backend_data    (ClarifyRequest *self,
                                                      gpointer        data,
                                                      GDestroyNotify  destroy);

/* One line that names the request: its title, else its first question. */
const char      *clarify_request_get_summary         (ClarifyRequest *self);

ClarifyRequestState clarify_request_get_state       (ClarifyRequest *self);
ClarifyRequestEnd   clarify_request_get_end         (ClarifyRequest *self);
/* Why it ended, why the agent refused the last answer while it is pending
 * again, or why its answer still waits while sending; NONE when there is
 * nothing to say. */
ClarifyEndReason    clarify_request_get_end_reason  (ClarifyRequest *self);
/* Untranslated data that goes with the reason, or NULL: the words an agent
 * sent with its withdrawal, or the transport's error message. */
const char         *clarify_request_get_end_detail  (ClarifyRequest *self);

/* TRUE once the request ended without the user's answer (withdrawn, answered
 * elsewhere, timed out): an open dialog shows the reason and closes. */
gboolean         clarify_request_is_withdrawn        (ClarifyRequest *self);

G_END_DECLS
