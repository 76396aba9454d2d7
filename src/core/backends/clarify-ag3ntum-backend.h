/* clarify-ag3ntum-backend.h: kind "ag3ntum", an Ag3ntum API server
 *
 * Ag3ntum streams events per session (GET /api/v1/sessions/{sid}/events),
 * so one connection watches several streams. The backend is a
 * ClarifyStreamBackend whose own stream is the user's stream
 * (GET /api/v1/auth/me/events): it carries the connection's state and tells
 * when a session starts or stops, so sessions are found without polling.
 * Beside it the backend keeps one ClarifySseClient per session that is
 * running or waiting for input, and lets it go when the session is done.
 *
 * It logs in with POST /api/v1/auth/login (email and password) and keeps the
 * JWT in memory only: on the streams as the Authorization header (the user
 * stream takes it only as ?token=, which no log line shows), on the API
 * calls as Authorization. A 401 logs in again, and so does a timer shortly
 * before the token expires, which runs only while a session is watched.
 *
 * Answers are posted as the web client does: POST …/answer, then the resume
 * POST …/task. Ag3ntum cannot decline a question, so its requests are not
 * cancellable. Connection options:
 *   "email"        the login; otherwise the URL's user part
 *                  (http://me%40example.com@host:40080); the password is the
 *                  secret "connection:<name>"
 *   "host"         the Host header; default the URL's host without the port
 *                  (Ag3ntum accepts only its own name, localhost or 127.0.0.1)
 *   "model"        the model to resume with; default the session's own
 *   "stall-limit"  seconds without a byte before reconnecting a session's
 *                  stream, default 45 (the server sends a heartbeat every 30)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-stream-backend.h"
#include "clarify-backend-probe.h"

G_BEGIN_DECLS

extern const ClarifyProbeSpec clarify_ag3ntum_probe;

#define CLARIFY_TYPE_AG3NTUM_BACKEND (clarify_ag3ntum_backend_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyAg3ntumBackend, clarify_ag3ntum_backend, CLARIFY, AG3NTUM_BACKEND, ClarifyStreamBackend)

ClarifyBackend   *clarify_ag3ntum_backend_new                (ClarifyConnection     *connection);
/* For tests. */
ClarifySseClient *clarify_ag3ntum_backend_get_user_stream    (ClarifyAg3ntumBackend *self);
/* The stream of session @session_id, or NULL when it is not watched. */
ClarifySseClient *clarify_ag3ntum_backend_get_session_stream (ClarifyAg3ntumBackend *self,
                                                              const char            *session_id);
guint             clarify_ag3ntum_backend_get_n_sessions     (ClarifyAg3ntumBackend *self);
/* Whether the timer that logs in again before the token expires is armed. */
gboolean          clarify_ag3ntum_backend_has_timer          (ClarifyAg3ntumBackend *self);
/* Sets the back-off of every stream, present and future. */
void              clarify_ag3ntum_backend_set_backoff        (ClarifyAg3ntumBackend *self,
                                                              guint                  initial_ms,
                                                              guint                  max_ms);

/* How discovery recognises one on this machine. */
extern const ClarifyBackendProbe clarify_ag3ntum_backend_probe;

G_END_DECLS
