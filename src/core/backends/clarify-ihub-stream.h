/* clarify-ihub-stream.h: the HTTP side of one iHub chat turn
 *
 * GET the chat's event stream (logging in first, and once more on a 401),
 * POST the message on it, and say how it failed: a ClarifyIhubEnd code.
 * The chat decides what the events mean. Single use: one per turn.
 *
 * Signals:
 *   ::event (const char *type, const char *data)
 *   ::failed (ClarifyIhubEnd code, const char *detail)
 *     the stream is over before the chat closed it; no signal follows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-ihub-backend.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_IHUB_STREAM (clarify_ihub_stream_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyIhubStream, clarify_ihub_stream, CLARIFY, IHUB_STREAM, GObject)

/* @path is the chat's, "/api/apps/APP/chat/CHAT". */
ClarifyIhubStream *clarify_ihub_stream_new   (ClarifyIhubBackend *backend,
                                              const char         *path);
void               clarify_ihub_stream_open  (ClarifyIhubStream  *self);
/* Sends the message; a refusal or a failed POST is ::failed. */
void               clarify_ihub_stream_post  (ClarifyIhubStream  *self,
                                              const char         *body);
/* Whether it failed (CLARIFY_IHUB_END_CONNECTION_LOST) because the port
 * refused the connection: the server is down or restarting. */
gboolean           clarify_ihub_stream_get_refused (ClarifyIhubStream *self);
/* Drops the stream and the POST; nothing is emitted afterwards. */
void               clarify_ihub_stream_close (ClarifyIhubStream  *self);

G_END_DECLS
