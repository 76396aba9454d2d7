/* clarify-sse-parser.h: incremental text/event-stream parser (WHATWG rules)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CLARIFY_SSE_DEFAULT_MAX_EVENT_SIZE (1024 * 1024)

typedef struct _ClarifySseParser ClarifySseParser;

/* One dispatched event. @event_type is "message" when the stream named none.
 * @data is NUL-terminated and valid only during the call. @last_event_id is
 * the stream's current last event id ("" when none). */
typedef void (*ClarifySseEventFunc) (const char *event_type,
                                     const char *data,
                                     gsize       data_len,
                                     const char *last_event_id,
                                     gpointer    user_data);

/* Called for every valid "retry:" field, in milliseconds. */
typedef void (*ClarifySseRetryFunc) (guint64    retry_ms,
                                     gpointer   user_data);

ClarifySseParser *clarify_sse_parser_new                (ClarifySseEventFunc  event_func,
                                                         ClarifySseRetryFunc  retry_func,
                                                         gpointer             user_data);
void              clarify_sse_parser_free               (ClarifySseParser    *self);
/* Bytes in chunks of any size; events are dispatched from within. */
void              clarify_sse_parser_feed               (ClarifySseParser    *self,
                                                         const char          *data,
                                                         gsize                length);
/* A new stream begins (reconnect): drops any partial line and event, expects
 * a BOM again, keeps the last event id. */
void              clarify_sse_parser_reset              (ClarifySseParser    *self);
const char       *clarify_sse_parser_get_last_event_id  (ClarifySseParser    *self);
void              clarify_sse_parser_set_max_event_size (ClarifySseParser    *self,
                                                         gsize                max_bytes);
/* Names the stream in the log's lines about dropped events (NULL: none). */
void              clarify_sse_parser_set_name           (ClarifySseParser    *self,
                                                         const char          *name);
/* How many events were dropped for exceeding the cap. */
guint             clarify_sse_parser_get_n_dropped      (ClarifySseParser    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClarifySseParser, clarify_sse_parser_free)

G_END_DECLS
