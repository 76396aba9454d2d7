/* clarify-backend.h: the one interface every agent protocol implements
 *
 * A backend turns one connection's stream into ClarifyRequests and encodes
 * ClarifyResponses back onto that agent's wire. See HACKING.md for how to add one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "clarify-connection.h"
#include "clarify-request.h"
#include "clarify-response.h"
#include "clarify-backends-enums.h"

G_BEGIN_DECLS

typedef struct _ClarifyInbox ClarifyInbox;

/* What there is to say about a backend's state beyond the state itself.
 * Core says it with a code and the data it needs; the UI words it. */
typedef enum
{
  CLARIFY_BACKEND_NOTE_NONE,
  CLARIFY_BACKEND_NOTE_RETRYING,               /* next try at clarify_backend_get_retry_at() */
  CLARIFY_BACKEND_NOTE_LOGGING_IN,
  CLARIFY_BACKEND_NOTE_LISTENING,              /* serving local callers */
  CLARIFY_BACKEND_NOTE_ONE_DIRECTORY,          /* an OpenCode too old for /global/event */
  CLARIFY_BACKEND_NOTE_WORKSPACE_CONNECTING,   /* subject: the workspace */
  CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR,        /* subject: the workspace */
  CLARIFY_BACKEND_NOTE_WORKSPACE_DISCONNECTED, /* subject: the workspace */
  CLARIFY_BACKEND_NOTE_BAD_ADDRESS,
  CLARIFY_BACKEND_NOTE_NO_TOKEN,
  CLARIFY_BACKEND_NOTE_CANNOT_LISTEN,          /* subject: the address */
  CLARIFY_BACKEND_NOTE_CANNOT_EXPORT,          /* the D-Bus API could not be offered */
  CLARIFY_BACKEND_NOTE_LOGIN_FAILED,           /* the username, password or token was refused */
  CLARIFY_BACKEND_NOTE_ACCESS_DENIED,          /* logged in, but not let in */
} ClarifyBackendNote;

/* How agent discovery recognises a kind's server on this machine: one
 * loopback GET of @path on each default port. A backend that can be found
 * defines one of these in its own file and names it in its registry line. */
typedef struct
{
  const char *scheme;     /* "http", or "https" (a self-signed loopback certificate is fine) */
  guint16     ports[4];   /* default ports, 0 after the last */
  const char *path;       /* answered without a login */
  /* Whether the answer (@status, @body parsed when it was a JSON object,
   * else NULL) is this kind's server. */
  gboolean  (*recognise) (guint       status,
                          JsonObject *body);
  /* default ports served over HTTPS (the server's own, self-signed
   * certificate is accepted, on loopback only), 0 after the last */
  guint16     https_ports[2];
} ClarifyBackendProbe;

#define CLARIFY_TYPE_BACKEND (clarify_backend_get_type ())
G_DECLARE_DERIVABLE_TYPE (ClarifyBackend, clarify_backend, CLARIFY, BACKEND, GObject)

struct _ClarifyBackendClass
{
  GObjectClass parent_class;

  /* Open the stream(s); report progress with clarify_backend_set_state(). */
  void     (*start)          (ClarifyBackend       *self);
  /* Close everything; no signal is emitted afterwards. */
  void     (*stop)           (ClarifyBackend       *self);
  /* Deliver @response exactly as the agent's own client would: post it, or
   * complete the caller that waits for it. The inbox calls this through its
   * outbox and makes the result the request's state. Errors use
   * CLARIFY_ERROR: GONE for "already answered elsewhere", TRANSIENT for
   * network trouble worth retrying, REJECTED/PROTOCOL/AUTH otherwise. */
  void     (*deliver_async)  (ClarifyBackend       *self,
                              ClarifyRequest       *request,
                              ClarifyResponse      *response,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data);
  gboolean (*deliver_finish) (ClarifyBackend       *self,
                              GAsyncResult         *result,
                              GError              **error);

  /* What deliver_async() needs beyond the request's JSON form, so that an
   * answer kept on disk can be sent again after Clarify restarted: a JSON
   * object, never a secret. NULL (the default) when this backend's answers
   * cannot outlive the process, as for a caller waiting on a socket. */
  JsonNode *(*save_delivery)    (ClarifyBackend       *self,
                                 ClarifyRequest       *request);
  /* Gives @request, rebuilt from its JSON form, what save_delivery() kept. */
  gboolean  (*restore_delivery) (ClarifyBackend       *self,
                                 ClarifyRequest       *request,
                                 JsonNode             *data,
                                 GError              **error);

  /* Fetch again what the agent still asks: the inbox turned some of it
   * away (CLARIFY_ERROR_BUSY) and has room again. NULL (the default): the
   * agent sends it again by itself, or was told why it was turned away. */
  void      (*resync)           (ClarifyBackend       *self);

  gpointer padding[5];
};

ClarifyConnection      *clarify_backend_get_connection    (ClarifyBackend      *self);
ClarifyConnectionState  clarify_backend_get_state         (ClarifyBackend      *self);
/* More about the state, for the UI to put in words; ::notify::note follows
 * every change of the note, its subject, its error text and retry time. */
ClarifyBackendNote      clarify_backend_get_note          (ClarifyBackend      *self);
/* What the note is about: a workspace, an address. Data, not a sentence. */
const char             *clarify_backend_get_note_subject  (ClarifyBackend      *self);
/* The peer's or the transport's own words for what went wrong, or NULL. */
const char             *clarify_backend_get_error_text    (ClarifyBackend      *self);
/* With CLARIFY_BACKEND_NOTE_RETRYING: the monotonic time of the next try. */
gint64                  clarify_backend_get_retry_at      (ClarifyBackend      *self);

void                    clarify_backend_start             (ClarifyBackend      *self);
void                    clarify_backend_stop              (ClarifyBackend      *self);
void                    clarify_backend_deliver_async     (ClarifyBackend      *self,
                                                           ClarifyRequest      *request,
                                                           ClarifyResponse     *response,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean                clarify_backend_deliver_finish    (ClarifyBackend      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

/* For the outbox's store: see save_delivery and restore_delivery above. */
JsonNode               *clarify_backend_save_delivery     (ClarifyBackend      *self,
                                                           ClarifyRequest      *request);
gboolean                clarify_backend_restore_delivery  (ClarifyBackend      *self,
                                                           ClarifyRequest      *request,
                                                           JsonNode            *data,
                                                           GError             **error);

/* save_delivery and restore_delivery for backends that need nothing beyond
 * the request's JSON form (its id, session and questions). */
JsonNode               *clarify_backend_save_nothing      (ClarifyBackend      *self,
                                                           ClarifyRequest      *request);
gboolean                clarify_backend_restore_nothing   (ClarifyBackend      *self,
                                                           ClarifyRequest      *request,
                                                           JsonNode            *data,
                                                           GError             **error);

/* The inbox that holds this backend's requests. A backend used alone (as in
 * tests) gets one of its own. */
ClarifyInbox           *clarify_backend_get_inbox         (ClarifyBackend      *self);
/* Sends this backend's requests to @inbox (held weakly) without listing the
 * backend there: for sources that are not connections, like the D-Bus API.
 * clarify_inbox_add_backend() calls it too. */
void                    clarify_backend_set_inbox         (ClarifyBackend      *self,
                                                           ClarifyInbox        *inbox);
/* This backend's requests that are pending or sending (a view of the inbox). */
GListModel             *clarify_backend_get_requests      (ClarifyBackend      *self);
ClarifyRequest         *clarify_backend_lookup_request    (ClarifyBackend      *self,
                                                           const char          *request_id);

/* For subclasses. */
/* The connection's password or token ("connection:NAME" in clarify-secret.h),
 * or NULL: what the registry read without blocking before it made the
 * backend (clarify_backend_registry_create_async()), else a blocking lookup. */
char                   *clarify_backend_dup_secret        (ClarifyBackend      *self,
                                                           GError             **error);
void                    clarify_backend_set_state         (ClarifyBackend      *self,
                                                           ClarifyConnectionState state,
                                                           ClarifyBackendNote  note,
                                                           const char          *subject,
                                                           const char          *error_text);
void                    clarify_backend_set_retry_at      (ClarifyBackend      *self,
                                                           gint64               retry_at);
/* Adds @request to the inbox, stamped with the connection, and emits
 * ::request-added. A request whose id the inbox holds already is ignored
 * (a resync after a reconnect must never show a question twice): returns
 * FALSE then, and when the inbox refuses it as one too many. */
gboolean                clarify_backend_add_request       (ClarifyBackend      *self,
                                                           ClarifyRequest      *request);
/* The same, saying why not: G_IO_ERROR_EXISTS, or CLARIFY_ERROR_BUSY for a
 * request past the caps, which the agent should hear in its protocol. */
gboolean                clarify_backend_add_request_full  (ClarifyBackend      *self,
                                                           ClarifyRequest      *request,
                                                           GError             **error);
/* The agent no longer asks: the inbox ends the request as withdrawn, unless
 * an answer to it is on its way (its result decides). @reason is not NONE;
 * @detail (nullable) is untranslated data, such as the agent's own words. */
void                    clarify_backend_withdraw_request  (ClarifyBackend      *self,
                                                           const char          *request_id,
                                                           ClarifyEndReason     reason,
                                                           const char          *detail);
/* The agent has an answer to the request (ours, or the echo of it): the
 * inbox ends it as answered, without a word to the user. */
void                    clarify_backend_forget_request    (ClarifyBackend      *self,
                                                           const char          *request_id);

G_END_DECLS
