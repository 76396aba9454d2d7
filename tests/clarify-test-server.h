/* clarify-test-server.h: a fake HTTP backend for the protocol tests
 *
 * A SoupServer on 127.0.0.1 (random port) that runs in its own thread with
 * its own GMainContext, so that tests may block or spin their own context
 * while it answers. Every function here is called from the test's thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct _ClarifyTestServer ClarifyTestServer;

/* One request as the server received it (a copy; free it). */
typedef struct
{
  char               *method;
  char               *path;
  char               *query;    /* raw query without '?', or NULL */
  SoupMessageHeaders *headers;
  char               *body;     /* NUL-terminated, "" when empty */
  gsize               body_len;
} ClarifyTestRequest;

/* For clarify_test_server_add_handler(): runs in the SERVER thread; set
 * @status and optionally @content_type / @body (both newly allocated). */
typedef void (*ClarifyTestHandlerFunc) (const ClarifyTestRequest *request,
                                        guint                    *status,
                                        char                    **content_type,
                                        char                    **body,
                                        gpointer                  user_data);

ClarifyTestServer  *clarify_test_server_new             (void);
void                clarify_test_server_free            (ClarifyTestServer  *self);
/* "http://127.0.0.1:PORT" + @path (which should start with '/'; may carry a query). */
char               *clarify_test_server_get_url         (ClarifyTestServer  *self,
                                                         const char         *path);
guint               clarify_test_server_get_port        (ClarifyTestServer  *self);

/* Canned replies for METHOD + path (query ignored). Successive calls queue
 * replies for successive requests; the last one repeats. Unknown routes 404.
 * A NULL @content_type sends no Content-Type header; a NULL @body no body. */
void                clarify_test_server_add_json        (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         guint               status,
                                                         const char         *content_type,
                                                         const char         *body);
/* The same with extra response headers, "Name: value" strings (e.g. Set-Cookie). */
void                clarify_test_server_add_reply       (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         guint               status,
                                                         const char         *content_type,
                                                         const char         *body,
                                                         const char * const *headers);
/* A dynamic reply; replaces any queued ones for METHOD + path. */
void                clarify_test_server_add_handler     (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         ClarifyTestHandlerFunc func,
                                                         gpointer            user_data);

/* GET @path answers 200 text/event-stream and stays open. */
void                clarify_test_server_add_sse         (ClarifyTestServer  *self,
                                                         const char         *path);
/* Changes how later GETs of an SSE @path are answered: a 2xx @status opens a
 * stream with @content_type (e.g. a wrong one); any other status is a plain
 * reply with @content_type and a short body. Open streams stay as they are. */
void                clarify_test_server_set_sse_response (ClarifyTestServer *self,
                                                         const char         *path,
                                                         guint               status,
                                                         const char         *content_type);
/* Bytes written first to every new stream of @path (NULL: none), e.g. a
 * "server.connected" frame. */
void                clarify_test_server_set_sse_greeting (ClarifyTestServer *self,
                                                         const char         *path,
                                                         const char         *bytes);
/* Streams of @path that are open now (closed by either side drop out). */
guint               clarify_test_server_get_n_streams   (ClarifyTestServer  *self,
                                                         const char         *path);
/* Writes @bytes verbatim (@len -1: NUL-terminated) to every open stream of @path. */
void                clarify_test_server_sse_send        (ClarifyTestServer  *self,
                                                         const char         *path,
                                                         const char         *bytes,
                                                         gssize              len);
/* Ends every open stream of @path (clean end of the chunked body). */
void                clarify_test_server_sse_close       (ClarifyTestServer  *self,
                                                         const char         *path);

/* Requests for @method (NULL: any) and @path (query ignored) received so far. */
guint               clarify_test_server_get_n_requests  (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path);
/* A copy of the @index-th such request (0-based), or NULL. */
ClarifyTestRequest *clarify_test_server_get_request     (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         guint               index);
/* Iterates the caller's thread-default main context until a matching request
 * that no earlier wait_for_request() returned has arrived, and returns a copy
 * of the oldest one; NULL after @timeout_ms. */
ClarifyTestRequest *clarify_test_server_wait_for_request (ClarifyTestServer *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         guint               timeout_ms);
/* Iterates the caller's context until @n matching requests have arrived
 * in total; returns whether they did. */
gboolean            clarify_test_server_wait_for_n_requests (ClarifyTestServer *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         guint               n,
                                                         guint               timeout_ms);
/* Iterates the caller's context until @path has exactly @n open streams. */
gboolean            clarify_test_server_wait_for_n_streams (ClarifyTestServer *self,
                                                         const char         *path,
                                                         guint               n,
                                                         guint               timeout_ms);

ClarifyTestRequest *clarify_test_request_copy           (const ClarifyTestRequest *request);
void                clarify_test_request_free           (ClarifyTestRequest *request);
/* The request header @name, or NULL. */
const char         *clarify_test_request_get_header     (const ClarifyTestRequest *request,
                                                         const char         *name);

/* Iterates the thread-default main context until @condition (@data) holds or
 * @timeout_ms passes; returns the condition's last value. Needs no GTK. */
gboolean            clarify_test_loop_until             (gboolean          (*condition) (gpointer data),
                                                         gpointer            data,
                                                         guint               timeout_ms);
/* Iterates the thread-default main context for about @ms. */
void                clarify_test_loop_for               (guint               ms);

/* Reads $CLARIFY_SHARED_DIR/@relative_path (fails the test if missing). */
char               *clarify_test_load_shared_file       (const char         *relative_path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyTestServer, clarify_test_server_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyTestRequest, clarify_test_request_free)

G_END_DECLS
