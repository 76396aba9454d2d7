/* clarify-test-server.h: a fake HTTP backend for the protocol tests, and
 * a watch on the ClarifyBackend under test
 *
 * A SoupServer on 127.0.0.1 (random port) that runs in its own thread with
 * its own GMainContext, so that tests may block or spin their own context
 * while it answers. Every function here is called from the test's thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "clarify-backend.h"

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
/* On @port (0: any free one): an agent that comes back where it was. */
ClarifyTestServer  *clarify_test_server_new_on_port     (guint               port);
/* Over HTTPS, with a self-signed certificate for 127.0.0.1 (fixtures/tls). */
ClarifyTestServer  *clarify_test_server_new_https       (void);
void                clarify_test_server_free            (ClarifyTestServer  *self);
/* "http(s)://127.0.0.1:PORT" + @path (which should start with '/'; may carry a query). */
char               *clarify_test_server_get_url         (ClarifyTestServer  *self,
                                                         const char         *path);
guint               clarify_test_server_get_port        (ClarifyTestServer  *self);
/* Another program on 127.0.0.1:@port: bound (with SO_REUSEADDR, so that a
 * socket just shut down there does not stop it) and listening. Returns the
 * socket; close() lets the port go. */
int                 clarify_test_hold_port              (guint               port);
/* A TCP port on 127.0.0.1 that nobody holds right now. */
guint               clarify_test_free_port              (void);

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
/* Replaces the replies queued for METHOD + path (and a handler) with this
 * one, for every later request: a listing a test changes as it goes. */
void                clarify_test_server_set_json        (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         guint               status,
                                                         const char         *content_type,
                                                         const char         *body);
/* A dynamic reply; replaces any queued ones for METHOD + path. */
void                clarify_test_server_add_handler     (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path,
                                                         ClarifyTestHandlerFunc func,
                                                         gpointer            user_data);

/* The next request for @path (any method; query ignored) is handled only
 * after @ms, and while it waits the server answers nothing else: a server
 * that hangs. Logged once it is handled. */
void                clarify_test_server_stall_next      (ClarifyTestServer  *self,
                                                         const char         *path,
                                                         guint               ms);

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

/* GET @path takes the connection over from libsoup and writes @head to it
 * verbatim: a recorded HTTP response (status line, headers, chunk framing and
 * all) replayed byte for byte. The connection stays open and counts as one of
 * @path's streams until raw_close(). @len -1: NUL-terminated. */
void                clarify_test_server_add_raw         (ClarifyTestServer  *self,
                                                         const char         *path,
                                                         const char         *head,
                                                         gssize              len);
/* Writes @bytes verbatim to every connection of the raw @path. */
void                clarify_test_server_raw_send        (ClarifyTestServer  *self,
                                                         const char         *path,
                                                         const char         *bytes,
                                                         gssize              len);
/* Closes every connection of the raw @path (the client sees the end). */
void                clarify_test_server_raw_close       (ClarifyTestServer  *self,
                                                         const char         *path);

/* Requests for @method (NULL: any) and @path (query ignored) received so far. */
guint               clarify_test_server_get_n_requests  (ClarifyTestServer  *self,
                                                         const char         *method,
                                                         const char         *path);
/* Copies of every request received so far, in order (free the array). */
GPtrArray          *clarify_test_server_get_requests    (ClarifyTestServer  *self);
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
/* @ms times CLARIFY_TEST_TIMEOUT_SCALE: what sanitized builds wait for. */
guint               clarify_test_scaled_ms              (guint             ms);
gboolean            clarify_test_loop_until             (gboolean          (*condition) (gpointer data),
                                                         gpointer            data,
                                                         guint               timeout_ms);
/* Iterates the thread-default main context for about @ms. */
void                clarify_test_loop_for               (guint               ms);

/* Reads tests/fixtures/@relative_path byte for byte (fails the test if
 * missing); tests/fixtures/README.md says where each file came from. */
char               *clarify_test_load_fixture           (const char         *relative_path);
/* Deletes @path and everything below it. */
void                clarify_test_remove_tree            (const char         *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyTestServer, clarify_test_server_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifyTestRequest, clarify_test_request_free)

/* What a backend under test did: every ::request-added, every withdrawal of
 * one of those requests and, for backends that have it, every ::resynced. */
typedef struct
{
  ClarifyBackend *backend;
  GPtrArray      *added;
  guint           withdrawn;
  guint           resynced;
  GAsyncResult   *result;
} ClarifyTestWatch;

typedef struct
{
  ClarifyTestWatch *watch;
  guint             n;
} ClarifyTestWatchWait;

static inline void
clarify_test_watch_on_withdrawn (ClarifyRequest   *request,
                                 ClarifyEndReason  reason,
                                 const char       *detail,
                                 ClarifyTestWatch *watch)
{
  watch->withdrawn++;
}

static inline void
clarify_test_watch_on_added (ClarifyBackend   *backend,
                             ClarifyRequest   *request,
                             ClarifyTestWatch *watch)
{
  g_ptr_array_add (watch->added, g_object_ref (request));
  g_signal_connect (request, "withdrawn", G_CALLBACK (clarify_test_watch_on_withdrawn), watch);
}

static inline void
clarify_test_watch_on_resynced (ClarifyBackend   *backend,
                                ClarifyTestWatch *watch)
{
  watch->resynced++;
}

static inline void
clarify_test_watch_init (ClarifyTestWatch *watch,
                         ClarifyBackend   *backend)
{
  watch->backend = g_object_ref (backend);
  watch->added = g_ptr_array_new_with_free_func (g_object_unref);
  watch->withdrawn = 0;
  watch->resynced = 0;
  watch->result = NULL;
  g_signal_connect (backend, "request-added", G_CALLBACK (clarify_test_watch_on_added), watch);
  if (g_signal_lookup ("resynced", G_OBJECT_TYPE (backend)) != 0)
    g_signal_connect (backend, "resynced", G_CALLBACK (clarify_test_watch_on_resynced), watch);
}

/* Stops the backend and lets go of it. */
static inline void
clarify_test_watch_clear (ClarifyTestWatch *watch)
{
  if (watch->backend != NULL)
    {
      clarify_backend_stop (watch->backend);
      g_signal_handlers_disconnect_by_data (watch->backend, watch);
    }
  for (guint i = 0; watch->added != NULL && i < watch->added->len; i++)
    g_signal_handlers_disconnect_by_data (watch->added->pdata[i], watch);
  g_clear_object (&watch->backend);
  g_clear_object (&watch->result);
  g_clear_pointer (&watch->added, g_ptr_array_unref);
}

static inline gboolean
clarify_test_watch_has_added (gpointer data)
{
  ClarifyTestWatchWait *wait = data;

  return wait->watch->added->len >= wait->n;
}

/* The @n-th request added (1-based), once it is there. */
static inline ClarifyRequest *
clarify_test_watch_wait_request_for (ClarifyTestWatch *watch,
                                     guint             n,
                                     guint             timeout_ms)
{
  ClarifyTestWatchWait wait = { watch, n };

  g_assert_true (clarify_test_loop_until (clarify_test_watch_has_added, &wait, timeout_ms));
  return watch->added->pdata[n - 1];
}

static inline ClarifyRequest *
clarify_test_watch_wait_request (ClarifyTestWatch *watch,
                                 guint             n)
{
  return clarify_test_watch_wait_request_for (watch, n, 5000);
}

static inline gboolean
clarify_test_watch_has_withdrawn (gpointer data)
{
  ClarifyTestWatchWait *wait = data;

  return wait->watch->withdrawn >= wait->n;
}

/* Until @n of the added requests were withdrawn, and no more. */
static inline void
clarify_test_watch_wait_withdrawn (ClarifyTestWatch *watch,
                                   guint             n,
                                   guint             timeout_ms)
{
  ClarifyTestWatchWait wait = { watch, n };

  g_assert_true (clarify_test_loop_until (clarify_test_watch_has_withdrawn, &wait, timeout_ms));
  g_assert_cmpuint (watch->withdrawn, ==, n);
}

static inline gboolean
clarify_test_watch_has_resynced (gpointer data)
{
  ClarifyTestWatchWait *wait = data;

  return wait->watch->resynced >= wait->n;
}

static inline void
clarify_test_watch_wait_resynced (ClarifyTestWatch *watch,
                                  guint             n)
{
  ClarifyTestWatchWait wait = { watch, n };

  g_assert_true (clarify_test_loop_until (clarify_test_watch_has_resynced, &wait, 5000));
}

static inline void
clarify_test_watch_respond_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data)
{
  ClarifyTestWatch *watch = user_data;

  watch->result = g_object_ref (result);
}

static inline gboolean
clarify_test_watch_has_result (gpointer data)
{
  return ((ClarifyTestWatch *) data)->result != NULL;
}

/* Answers through the backend and waits for the outcome. */
static inline gboolean
clarify_test_watch_respond (ClarifyTestWatch  *watch,
                            ClarifyRequest    *request,
                            ClarifyResponse   *response,
                            GError           **error)
{
  gboolean ok;

  g_clear_object (&watch->result);
  clarify_backend_deliver_async (watch->backend, request, response, NULL,
                                 clarify_test_watch_respond_cb, watch);
  g_assert_true (clarify_test_loop_until (clarify_test_watch_has_result, watch, 5000));
  ok = clarify_backend_deliver_finish (watch->backend, watch->result, error);
  g_clear_object (&watch->result);

  return ok;
}

/* The same, for an answer the backend must deliver. */
static inline void
clarify_test_watch_answer (ClarifyTestWatch *watch,
                           ClarifyRequest   *request,
                           ClarifyResponse  *response)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = clarify_test_watch_respond (watch, request, response, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
}


/* Option @position of @question is exactly this. */
static inline void
clarify_test_assert_option (ClarifyQuestion *question,
                            guint            position,
                            const char      *label,
                            const char      *value,
                            const char      *description)
{
  ClarifyOption *option = clarify_question_get_option (question, position);

  g_assert_nonnull (option);
  g_assert_cmpstr (clarify_option_get_label (option), ==, label);
  g_assert_cmpstr (clarify_option_get_value (option), ==, value);
  g_assert_cmpstr (clarify_option_get_description (option), ==, description);
}

G_END_DECLS
