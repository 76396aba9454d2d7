/* clarify-ag3ntum-sessions.h: watching Ag3ntum's sessions
 *
 * Split from the backend because one connection watches many streams: this
 * unit lists the sessions, keeps a stream per running one (its history
 * first, for where the stream starts), and turns their events into
 * requests and withdrawals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-ag3ntum-backend-private.h"

G_BEGIN_DECLS

/* The free function of the backend's watches table. */
void clarify_ag3ntum_watch_free    (Watch                  *watch);
/* Asks which sessions run, then watches those and lets go of the rest. */
void clarify_ag3ntum_list_sessions (ClarifyAg3ntumBackend  *self);
/* Called on every stream's state: a refused one logs in again, once. */
void clarify_ag3ntum_stream_failed (ClarifyAg3ntumBackend  *self,
                                    ClarifyConnectionState  state);
/* The server could not be reached and now can: it may have restarted and
 * lost questions; each watched session is asked what is pending. */
void clarify_ag3ntum_came_back     (ClarifyAg3ntumBackend  *self);

G_END_DECLS
