/* clarify-stream-backend.h: a backend that watches an agent's event stream
 *
 * The base of every agent protocol whose questions arrive on an SSE stream
 * (OpenCode, CodeNomad, Clarify's own). It owns the stream: connecting,
 * reconnecting with back-off, and keeping the backend's state in step with
 * it. A subclass decodes the events and delivers the answers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "clarify-backend.h"
#include "clarify-sse-client.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_STREAM_BACKEND (clarify_stream_backend_get_type ())
G_DECLARE_DERIVABLE_TYPE (ClarifyStreamBackend, clarify_stream_backend, CLARIFY, STREAM_BACKEND, ClarifyBackend)

struct _ClarifyStreamBackendClass
{
  ClarifyBackendClass parent_class;

  /* One event of the stream. */
  void (*event)         (ClarifyStreamBackend   *self,
                         const char             *type,
                         const char             *data,
                         const char             *id);
  /* The stream (re)opened: the time to catch up on what was missed. */
  void (*connected)     (ClarifyStreamBackend   *self);
  /* The stream's state changed; the backend's state has followed it already. */
  void (*stream_state)  (ClarifyStreamBackend   *self,
                         ClarifyConnectionState  state);

  gpointer padding[4];
};

/* Creates the stream for @url on @session, which must have no I/O timeout
 * (a quiet agent may send nothing for minutes). Call once, from constructed(). */
ClarifySseClient *clarify_stream_backend_open       (ClarifyStreamBackend *self,
                                                     SoupSession          *session,
                                                     const char           *url);
ClarifySseClient *clarify_stream_backend_get_client (ClarifyStreamBackend *self);
/* Opens the stream. start() does this; a backend that logs in first
 * overrides start() and calls it afterwards. */
void              clarify_stream_backend_connect    (ClarifyStreamBackend *self);

/* For dispose, before the stream's session goes: stops and drops the stream. */
void              clarify_stream_backend_close      (ClarifyStreamBackend *self);

G_END_DECLS
