/* clarify-inbox-private.h: what the inbox's own files share
 *
 * clarify-inbox.c holds the requests; clarify-inbox-outbox.c turns the
 * outbox's results into their state and sends again what the outbox's
 * store kept across a restart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-inbox.h"

G_BEGIN_DECLS

/* One request the inbox holds, pending or sending. */
typedef struct
{
  ClarifyBackend *backend;      /* unowned: removing a backend ends its entries */
  ClarifyRequest *request;
  char           *key;
  GSequenceIter  *deadline_iter; /* NULL unless pending with a deadline */
  guint64         serial;        /* arrival order, to break deadline ties */
  /* The agent withdrew it while our answer was in flight: if that answer
   * is not taken, the request ends this way rather than asking again. */
  ClarifyRequestEnd withdrawn_end;
  ClarifyEndReason  withdrawn_reason;
  char             *withdrawn_detail;
  gboolean          replayed;    /* an answer kept across a restart */
  gsize             bytes;       /* what it costs while held, roughly */
  /* Kept, but its post to the connection's previous backend is still
   * under way: sent from here only if that one does not settle it. */
  ClarifyResponse  *held_response;
  char             *held_file;
} InboxEntry;

struct _ClarifyInbox
{
  GObject        parent_instance;

  GPtrArray     *items;          /* ClarifyRequest, the GListModel */
  GHashTable    *by_key;         /* key → InboxEntry (owned) */
  GHashTable    *by_request;     /* ClarifyRequest → InboxEntry */
  GHashTable    *views;          /* ClarifyBackend → GListStore */
  GListStore    *backends;
  GListStore    *pending;        /* ClarifyRequest in state PENDING, in arrival order */
  GSequence     *deadlines;      /* InboxEntry, earliest first */
  GHashTable    *settled;        /* keys of replayed answers that ended */
  ClarifyOutbox *outbox;
  guint          timer_id;
  guint64        next_serial;
  /* Caps on what it holds (clarify-inbox-limits.c). */
  guint          max_per_connection;
  guint          max_total;
  gsize          max_bytes;
  gsize          bytes;          /* of every entry held */
  gboolean       refusing_all;   /* an overflow episode of the whole inbox */
  GHashTable    *refusing;       /* ClarifyBackend (unowned) in an episode of its own */
  GHashTable    *refused_in_all; /* ClarifyBackend (unowned) turned away in the episode of all */
};

/* clarify-inbox.c */
char       *clarify_inbox_key_for      (ClarifyBackend      *backend,
                                        const char          *request_id);
/* Adds @request to the model and the backend's view (not to the pending
 * list); takes @key. */
InboxEntry *clarify_inbox_insert_entry (ClarifyInbox        *self,
                                        ClarifyBackend      *backend,
                                        ClarifyRequest      *request,
                                        char                *key);
/* Moves @entry's request to @state; DONE removes it from the inbox and frees @entry. */
void        clarify_inbox_move         (ClarifyInbox        *self,
                                        InboxEntry          *entry,
                                        ClarifyRequestState  state,
                                        ClarifyRequestEnd    end,
                                        ClarifyEndReason     reason,
                                        const char          *detail);
/* Keeps @response on @request for clarify_inbox_get_answer(). */
void        clarify_inbox_keep_answer  (ClarifyRequest      *request,
                                        ClarifyResponse     *response);

/* clarify-inbox-limits.c */
#define CLARIFY_INBOX_MAX_PER_CONNECTION 200
#define CLARIFY_INBOX_MAX_TOTAL          1000
/* A request at the size caps holds 4,000 options: ~0.9 MiB. */
#define CLARIFY_INBOX_MAX_BYTES          (64 * 1024 * 1024)

void        clarify_inbox_init_limits  (ClarifyInbox        *self);
/* FALSE, with CLARIFY_ERROR_BUSY, when @backend or the whole inbox holds
 * as many requests (or bytes) as it keeps, @request included; the first
 * refusal of an episode emits ::requests-refused. */
gboolean    clarify_inbox_check_room   (ClarifyInbox        *self,
                                        ClarifyBackend      *backend,
                                        ClarifyRequest      *request,
                                        GError             **error);
/* What @request costs while the inbox holds it, roughly. */
gsize       clarify_inbox_estimate_bytes (ClarifyRequest    *request);
/* After @backend's requests went down (or it went): ends the episodes that
 * have room again. */
void        clarify_inbox_update_room  (ClarifyInbox        *self,
                                        ClarifyBackend      *backend);
/* @backend goes: it is in no episode, and nobody asks it again. */
void        clarify_inbox_forget_refusals (ClarifyInbox     *self,
                                          ClarifyBackend   *backend);
/* For tests: other caps than the defaults. */
void        clarify_inbox_set_limits   (ClarifyInbox        *self,
                                        guint                max_per_connection,
                                        guint                max_total);
void        clarify_inbox_set_max_bytes (ClarifyInbox       *self,
                                        gsize                max_bytes);
/* Emits ::requests-refused (clarify-inbox.c owns the signals). */
void        clarify_inbox_emit_refused (ClarifyInbox        *self,
                                        ClarifyBackend      *backend,
                                        guint                limit);

/* clarify-inbox-outbox.c */
void        clarify_inbox_watch_outbox (ClarifyInbox        *self);
void        clarify_inbox_watch_backend (ClarifyInbox       *self,
                                         ClarifyBackend     *backend);
void        clarify_inbox_replay_saved (ClarifyInbox        *self,
                                        ClarifyBackend      *backend);

G_END_DECLS
