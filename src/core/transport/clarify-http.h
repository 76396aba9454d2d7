/* clarify-http.h: what an agent's reply to one of our HTTP calls means
 *
 * Every backend that posts to an agent reads replies the same way, so that
 * an error code (and the outbox's decision to retry) never depends on which
 * agent sent the reply.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* The most of a reply that is not a stream we read: a hostile agent's
 * endless reply to an answer must not eat the memory. */
#define CLARIFY_HTTP_MAX_BODY (4 * 1024 * 1024)

/* soup_session_send_and_read_async() that reads at most
 * CLARIFY_HTTP_MAX_BODY; a longer reply is a CLARIFY_ERROR_PROTOCOL. */
void      clarify_http_send_and_read_async (SoupSession         *session,
                                            SoupMessage         *message,
                                            int                  priority,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* The message a clarify_http_send_and_read_async() @result is for. */
SoupMessage *clarify_http_get_message      (GAsyncResult        *result);
/* Its body, with network trouble as CLARIFY_ERROR_TRANSIENT (a refused
 * connection as CLARIFY_ERROR_UNREACHABLE); a cancellation stays
 * G_IO_ERROR_CANCELLED. */
GBytes   *clarify_http_read_finish  (SoupSession   *session,
                                     GAsyncResult  *result,
                                     GError       **error);

/* TRUE for a 2xx status. Otherwise a CLARIFY_ERROR ("HTTP 404 Not Found"):
 * AUTH for 401/403, GONE for 404/410, REJECTED for 400/422 (we sent
 * something wrong: log the body), TRANSIENT for 408/429/5xx, else PROTOCOL. */
gboolean  clarify_http_check_status (SoupMessage   *message,
                                     GError       **error);

/* The JSON body of a successful reply; a JSON null for 204 No Content or an
 * empty body that does not claim to be JSON. Anything else that is not JSON
 * is a PROTOCOL error: web UIs answer unknown paths with 200 text/html. */
JsonNode *clarify_http_parse_json   (SoupMessage   *message,
                                     GBytes        *body,
                                     GError       **error);

/* @segment (an id from an agent) percent-encoded as exactly one path
 * segment, "/" included; NULL and CLARIFY_ERROR_INVALID for "", "." and
 * "..", which no encoding keeps from changing the URL. */
char     *clarify_http_escape_segment (const char  *segment,
                                       GError     **error);
/* Whether clarify_http_escape_segment() takes @segment. */
gboolean  clarify_http_can_be_segment (const char  *segment);

/* Makes @session take any certificate from a server on this machine
 * (127.0.0.1, ::1, localhost), as a browser does once told to: agents that
 * serve HTTPS on loopback make their own. Other hosts are checked as ever. */
void      clarify_http_accept_loopback_certificates (SoupSession *session);
/* The same for one @message. */
void      clarify_http_message_accept_loopback_certificate (SoupMessage *message);

/* For dispose: aborts what is still in flight on *@session and clears it. */
void      clarify_http_clear_session (SoupSession  **session);

/* At most @max_chars of @body as valid UTF-8, for a log line. */
char     *clarify_http_excerpt      (GBytes        *body,
                                     gsize          max_chars);

G_END_DECLS
