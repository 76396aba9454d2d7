/* clarify-inbox.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-backend-private.h"
#include "clarify-error.h"
#include "clarify-inbox-private.h"
#include "clarify-request-private.h"

static void clarify_inbox_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (ClarifyInbox, clarify_inbox, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, clarify_inbox_list_model_init))

enum {
  PROP_0,
  PROP_N_PENDING,
  N_PROPS
};

enum {
  REQUEST_ADDED,
  REQUEST_ENDED,
  ANSWER_REFUSED,
  REPLAY_ENDED,
  REQUESTS_REFUSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];

/* The last answer handed to the outbox, kept on the request itself. */
#define ANSWER_DATA_KEY "clarify-inbox-answer"
static guint signals[N_SIGNALS];

static void clarify_inbox_schedule (ClarifyInbox *self);

/* GListModel */

static GType
clarify_inbox_get_item_type (GListModel *model)
{
  return CLARIFY_TYPE_REQUEST;
}

static guint
clarify_inbox_get_n_items (GListModel *model)
{
  return CLARIFY_INBOX (model)->items->len;
}

static gpointer
clarify_inbox_get_item (GListModel *model,
                        guint       position)
{
  ClarifyInbox *self = CLARIFY_INBOX (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
clarify_inbox_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = clarify_inbox_get_item_type;
  iface->get_n_items = clarify_inbox_get_n_items;
  iface->get_item = clarify_inbox_get_item;
}

/* Entries */

static void
entry_free (InboxEntry *entry)
{
  g_clear_pointer (&entry->withdrawn_detail, g_free);
  g_clear_object (&entry->held_response);
  g_clear_pointer (&entry->held_file, g_free);
  g_clear_object (&entry->request);
  g_free (entry->key);
  g_free (entry);
}

char *
clarify_inbox_dup_key (ClarifyRequest *request)
{
  const char *connection;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  connection = clarify_request_get_connection_name (request);
  return g_strconcat (connection ? connection : "", "\x1f", clarify_request_get_id (request), NULL);
}

char *
clarify_inbox_key_for (ClarifyBackend *backend,
                       const char     *request_id)
{
  ClarifyConnection *connection = clarify_backend_get_connection (backend);
  const char *name = connection != NULL ? clarify_connection_get_name (connection) : NULL;

  return g_strconcat (name ? name : "", "\x1f", request_id, NULL);
}

static GListStore *
view_of (ClarifyInbox   *self,
         ClarifyBackend *backend)
{
  GListStore *view = g_hash_table_lookup (self->views, backend);

  if (view == NULL)
    {
      view = g_list_store_new (CLARIFY_TYPE_REQUEST);
      g_hash_table_insert (self->views, backend, view);
    }

  return view;
}

static int
compare_arrival (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  ClarifyInbox *self = user_data;
  const InboxEntry *ea = g_hash_table_lookup (self->by_request, a);
  const InboxEntry *eb = g_hash_table_lookup (self->by_request, b);

  return ea->serial < eb->serial ? -1 : ea->serial > eb->serial;
}

static void
set_pending (ClarifyInbox   *self,
             ClarifyRequest *request,
             gboolean        pending)
{
  guint position;

  if (pending)
    g_list_store_insert_sorted (self->pending, request, compare_arrival, self);
  else if (g_list_store_find (self->pending, request, &position))
    g_list_store_remove (self->pending, position);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PENDING]);
}

static int
compare_deadlines (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const InboxEntry *ea = a;
  const InboxEntry *eb = b;
  gint64 da = clarify_request_get_deadline (ea->request);
  gint64 db = clarify_request_get_deadline (eb->request);

  if (da != db)
    return da < db ? -1 : 1;

  return ea->serial < eb->serial ? -1 : ea->serial > eb->serial;
}

static void
unwatch_deadline (ClarifyInbox *self,
                  InboxEntry   *entry)
{
  if (entry->deadline_iter == NULL)
    return;

  g_sequence_remove (entry->deadline_iter);
  entry->deadline_iter = NULL;
  clarify_inbox_schedule (self);
}

static void
watch_deadline (ClarifyInbox *self,
                InboxEntry   *entry)
{
  if (entry->deadline_iter != NULL || clarify_request_get_deadline (entry->request) == 0)
    return;

  entry->deadline_iter = g_sequence_insert_sorted (self->deadlines, entry, compare_deadlines, NULL);
  clarify_inbox_schedule (self);
}

/* Moves @entry's request to @state; DONE removes it from the inbox and frees @entry. */
void
clarify_inbox_move (ClarifyInbox        *self,
                    InboxEntry          *entry,
                    ClarifyRequestState  state,
                    ClarifyRequestEnd    end,
                    ClarifyEndReason     reason,
                    const char          *detail)
{
  g_autoptr(ClarifyRequest) request = g_object_ref (entry->request);
  ClarifyRequestState old = clarify_request_get_state (request);

  if (old == CLARIFY_REQUEST_PENDING && state != CLARIFY_REQUEST_PENDING)
    {
      unwatch_deadline (self, entry);
      set_pending (self, request, FALSE);
    }
  else if (old != CLARIFY_REQUEST_PENDING && state == CLARIFY_REQUEST_PENDING)
    {
      set_pending (self, request, TRUE);
      watch_deadline (self, entry);
    }

  if (state == CLARIFY_REQUEST_DONE)
    {
      ClarifyBackend *backend = entry->backend;
      GListStore *view = view_of (self, backend);
      guint position;

      self->bytes -= entry->bytes;
      if (g_ptr_array_find (self->items, request, &position))
        {
          g_ptr_array_remove_index (self->items, position);
          g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
        }
      if (g_list_store_find (view, request, &position))
        g_list_store_remove (view, position);

      g_hash_table_remove (self->by_request, request);
      g_hash_table_remove (self->by_key, entry->key);
      entry = NULL;
      clarify_inbox_update_room (self, backend);

      /* A dialog still asking closes with the reason. */
      if (old == CLARIFY_REQUEST_PENDING &&
          (end == CLARIFY_REQUEST_END_WITHDRAWN ||
           end == CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE ||
           end == CLARIFY_REQUEST_END_TIMED_OUT))
        clarify_request_withdraw (request, reason, detail);
    }

  clarify_request_set_state (request, state, end, reason, detail);

  if (state == CLARIFY_REQUEST_DONE)
    g_signal_emit (self, signals[REQUEST_ENDED], 0, request);
}

/* Timeouts */

static gboolean
on_deadline (gpointer user_data)
{
  ClarifyInbox *self = user_data;
  gint64 now = g_get_monotonic_time ();

  self->timer_id = 0;

  for (;;)
    {
      GSequenceIter *first = g_sequence_get_begin_iter (self->deadlines);
      g_autoptr(ClarifyResponse) response = NULL;
      InboxEntry *entry;

      if (g_sequence_iter_is_end (first))
        break;

      entry = g_sequence_get (first);
      if (clarify_request_get_deadline (entry->request) > now)
        break;

      response = clarify_response_new (clarify_request_get_id (entry->request),
                                       CLARIFY_OUTCOME_TIMED_OUT);
      /* The agent hears "timed out"; a dialog on screen closes with the reason. */
      clarify_request_withdraw (entry->request, CLARIFY_END_REASON_TIME_RAN_OUT, NULL);
      clarify_inbox_answer (self, entry->request, response);
    }

  clarify_inbox_schedule (self);

  return G_SOURCE_REMOVE;
}

/* One timer, for the earliest deadline, and none while no deadline waits. */
static void
clarify_inbox_schedule (ClarifyInbox *self)
{
  GSequenceIter *first = g_sequence_get_begin_iter (self->deadlines);
  gint64 delay_us;

  g_clear_handle_id (&self->timer_id, g_source_remove);

  if (g_sequence_iter_is_end (first))
    return;

  delay_us = clarify_request_get_deadline (((InboxEntry *) g_sequence_get (first))->request) - g_get_monotonic_time ();
  delay_us = CLAMP (delay_us, 0, (gint64) G_MAXUINT * 1000);
  self->timer_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) ((delay_us + 999) / 1000),
                                       on_deadline, self, NULL);
}

/* GObject */

static void
clarify_inbox_dispose (GObject *object)
{
  ClarifyInbox *self = CLARIFY_INBOX (object);

  /* Going away is not the user removing connections: what waits for an
   * agent stays on disk for the next start. */
  if (self->outbox != NULL)
    clarify_outbox_set_store (self->outbox, NULL);

  while (g_list_model_get_n_items (G_LIST_MODEL (self->backends)) > 0)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (G_LIST_MODEL (self->backends), 0);

      clarify_inbox_remove_backend (self, backend);
    }

  g_clear_handle_id (&self->timer_id, g_source_remove);
  if (self->outbox != NULL)
    g_signal_handlers_disconnect_by_data (self->outbox, self);
  g_clear_object (&self->outbox);

  G_OBJECT_CLASS (clarify_inbox_parent_class)->dispose (object);
}

static void
clarify_inbox_finalize (GObject *object)
{
  ClarifyInbox *self = CLARIFY_INBOX (object);

  /* Entries of backends that were never added (used alone, as in tests). */
  g_clear_pointer (&self->deadlines, g_sequence_free);
  g_clear_pointer (&self->settled, g_hash_table_unref);
  g_clear_pointer (&self->refusing, g_hash_table_unref);
  g_clear_pointer (&self->refused_in_all, g_hash_table_unref);
  g_clear_pointer (&self->by_request, g_hash_table_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->views, g_hash_table_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_object (&self->backends);
  g_clear_object (&self->pending);

  G_OBJECT_CLASS (clarify_inbox_parent_class)->finalize (object);
}

static void
clarify_inbox_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  ClarifyInbox *self = CLARIFY_INBOX (object);

  switch (prop_id)
    {
    case PROP_N_PENDING:
      g_value_set_uint (value, clarify_inbox_get_n_pending (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_inbox_class_init (ClarifyInboxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_inbox_dispose;
  object_class->finalize = clarify_inbox_finalize;
  object_class->get_property = clarify_inbox_get_property;

  properties[PROP_N_PENDING] =
    g_param_spec_uint ("n-pending", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ClarifyInbox::request-added:
   * @request: a new pending ClarifyRequest
   */
  signals[REQUEST_ADDED] =
    g_signal_new ("request-added",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CLARIFY_TYPE_REQUEST);

  /**
   * ClarifyInbox::request-ended:
   * @request: a ClarifyRequest that is now DONE; see clarify_request_get_end()
   */
  signals[REQUEST_ENDED] =
    g_signal_new ("request-ended",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CLARIFY_TYPE_REQUEST);

  /**
   * ClarifyInbox::answer-refused:
   * @request: the ClarifyRequest, pending again
   * @error: why the agent refused the answer (REJECTED or AUTH)
   * @response: the answer it refused
   */
  signals[ANSWER_REFUSED] =
    g_signal_new ("answer-refused",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, CLARIFY_TYPE_REQUEST, G_TYPE_ERROR, CLARIFY_TYPE_RESPONSE);

  /**
   * ClarifyInbox::replay-ended:
   * @request: a ClarifyRequest whose answer was kept across a restart and
   *   sent again, now DONE
   * @delivered: TRUE when the agent took it (late), FALSE when it no longer
   *   needed it
   */
  signals[REPLAY_ENDED] =
    g_signal_new ("replay-ended",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_REQUEST, G_TYPE_BOOLEAN);

  /**
   * ClarifyInbox::requests-refused:
   * @backend: (nullable): the connection that holds as many requests as
   *   one may, or NULL when the whole inbox is full
   * @limit: that cap; for the memory budget, how many requests it holds
   *
   * Emitted once per overflow episode, at its first refusal; the refused
   * requests' agents heard CLARIFY_ERROR_BUSY in their own protocol.
   */
  signals[REQUESTS_REFUSED] =
    g_signal_new ("requests-refused",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_BACKEND, G_TYPE_UINT);
}

void
clarify_inbox_emit_refused (ClarifyInbox   *self,
                            ClarifyBackend *backend,
                            guint           limit)
{
  g_signal_emit (self, signals[REQUESTS_REFUSED], 0, backend, limit);
}

static void
clarify_inbox_init (ClarifyInbox *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) entry_free);
  self->by_request = g_hash_table_new (NULL, NULL);
  self->views = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->backends = g_list_store_new (CLARIFY_TYPE_BACKEND);
  self->pending = g_list_store_new (CLARIFY_TYPE_REQUEST);
  self->deadlines = g_sequence_new (NULL);
  self->settled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  clarify_inbox_init_limits (self);

  self->outbox = clarify_outbox_new ();
  clarify_inbox_watch_outbox (self);
}

ClarifyInbox *
clarify_inbox_new (void)
{
  return g_object_new (CLARIFY_TYPE_INBOX, NULL);
}

/* Entries of requests */

InboxEntry *
clarify_inbox_insert_entry (ClarifyInbox   *self,
                            ClarifyBackend *backend,
                            ClarifyRequest *request,
                            char           *key)
{
  InboxEntry *entry = g_new0 (InboxEntry, 1);

  entry->backend = backend;
  entry->request = g_object_ref (request);
  entry->key = key;
  entry->serial = self->next_serial++;
  entry->bytes = clarify_inbox_estimate_bytes (request);
  self->bytes += entry->bytes;
  g_hash_table_insert (self->by_key, entry->key, entry);
  g_hash_table_insert (self->by_request, request, entry);

  g_ptr_array_add (self->items, g_object_ref (request));
  g_list_store_append (view_of (self, backend), request);

  return entry;
}

/* Backends */

static const char *
connection_name_of (ClarifyBackend *backend)
{
  ClarifyConnection *connection = clarify_backend_get_connection (backend);

  return connection != NULL ? clarify_connection_get_name (connection) : NULL;
}

static int
compare_backends (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const char *na = connection_name_of ((ClarifyBackend *) a);
  const char *nb = connection_name_of ((ClarifyBackend *) b);

  return g_utf8_collate (na ? na : "", nb ? nb : "");
}

void
clarify_inbox_add_backend (ClarifyInbox   *self,
                           ClarifyBackend *backend)
{
  ClarifyBackend *existing;

  g_return_if_fail (CLARIFY_IS_INBOX (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));

  existing = clarify_inbox_lookup_backend (self, connection_name_of (backend));
  if (existing == backend)
    return;
  if (existing != NULL)
    clarify_inbox_remove_backend (self, existing);

  clarify_backend_set_inbox (backend, self);
  g_list_store_insert_sorted (self->backends, backend, compare_backends, NULL);
  clarify_inbox_watch_backend (self, backend);
  clarify_inbox_replay_saved (self, backend);
}

void
clarify_inbox_remove_backend (ClarifyInbox   *self,
                              ClarifyBackend *backend)
{
  g_autoptr(ClarifyBackend) owned = NULL;
  GListModel *view;
  guint position;

  g_return_if_fail (CLARIFY_IS_INBOX (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));

  if (!g_list_store_find (self->backends, backend, &position))
    return;

  owned = g_object_ref (backend);
  g_signal_handlers_disconnect_by_data (backend, self);
  clarify_backend_stop (backend);
  /* Going: not one to ask again when there is room. */
  clarify_inbox_forget_refusals (self, backend);

  /* What it still holds ends here: nobody could deliver an answer to it. */
  view = G_LIST_MODEL (view_of (self, backend));
  while (g_list_model_get_n_items (view) > 0)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (view, 0);
      InboxEntry *entry = g_hash_table_lookup (self->by_request, request);

      /* A kept answer stays on disk for the connection's next backend. */
      clarify_outbox_let_go (self->outbox, request);
      if (clarify_request_get_state (request) == CLARIFY_REQUEST_PENDING)
        clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_WITHDRAWN,
                            CLARIFY_END_REASON_CONNECTION_REMOVED, NULL);
      else
        clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_FAILED,
                            CLARIFY_END_REASON_REMOVED_BEFORE_DELIVERY, NULL);
    }

  g_hash_table_remove (self->views, backend);
  g_list_store_remove (self->backends, position);
  clarify_backend_set_inbox (backend, NULL);
  clarify_inbox_update_room (self, backend);
}

GListModel *
clarify_inbox_get_backends (ClarifyInbox *self)
{
  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);

  return G_LIST_MODEL (self->backends);
}

ClarifyBackend *
clarify_inbox_lookup_backend (ClarifyInbox *self,
                              const char   *connection_name)
{
  guint n;

  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->backends));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (G_LIST_MODEL (self->backends), i);

      /* The list keeps it alive. */
      if (g_strcmp0 (connection_name_of (backend), connection_name) == 0)
        return backend;
    }

  return NULL;
}

/* Requests */

gboolean
clarify_inbox_add (ClarifyInbox    *self,
                   ClarifyBackend  *backend,
                   ClarifyRequest  *request,
                   GError         **error)
{
  ClarifyConnection *connection;
  InboxEntry *entry;
  gint64 deadline;
  g_autofree char *key = NULL;

  g_return_val_if_fail (CLARIFY_IS_INBOX (self), FALSE);
  g_return_val_if_fail (CLARIFY_IS_BACKEND (backend), FALSE);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), FALSE);
  g_return_val_if_fail (clarify_request_get_id (request) != NULL, FALSE);
  g_return_val_if_fail (clarify_request_get_state (request) == CLARIFY_REQUEST_PENDING, FALSE);

  /* A resync after a reconnect must never show a question twice. */
  key = clarify_inbox_key_for (backend, clarify_request_get_id (request));
  /* Nor one whose answer, kept across a restart, the agent already had. */
  if (g_hash_table_contains (self->by_key, key) || g_hash_table_contains (self->settled, key))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   "A request with the id “%s” is already known", clarify_request_get_id (request));
      return FALSE;
    }
  if (!clarify_inbox_check_room (self, backend, request, error))
    return FALSE;

  connection = clarify_backend_get_connection (backend);
  if (connection != NULL)
    clarify_request_set_connection (request,
                                    clarify_connection_get_name (connection),
                                    clarify_connection_get_kind (connection));

  entry = clarify_inbox_insert_entry (self, backend, request, g_steal_pointer (&key));
  set_pending (self, request, TRUE);
  watch_deadline (self, entry);

  g_list_model_items_changed (G_LIST_MODEL (self), self->items->len - 1, 0, 1);

  /* Its time ran out before it got here (a resync after a long outage):
   * the timer answers "timed out" at once, and nobody is asked. */
  deadline = clarify_request_get_deadline (request);
  if (deadline != 0 && deadline <= g_get_monotonic_time ())
    return TRUE;

  clarify_backend_emit_request_added (backend, request);
  /* A handler may have answered it already; observers still hear of it. */
  g_signal_emit (self, signals[REQUEST_ADDED], 0, request);

  return TRUE;
}

ClarifyRequest *
clarify_inbox_lookup (ClarifyInbox   *self,
                      ClarifyBackend *backend,
                      const char     *request_id)
{
  g_autofree char *key = NULL;
  InboxEntry *entry;

  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);

  if (request_id == NULL)
    return NULL;

  key = clarify_inbox_key_for (backend, request_id);
  entry = g_hash_table_lookup (self->by_key, key);

  return entry != NULL ? entry->request : NULL;
}

void
clarify_inbox_withdraw (ClarifyInbox      *self,
                        ClarifyBackend    *backend,
                        const char        *request_id,
                        ClarifyRequestEnd  end,
                        ClarifyEndReason   reason,
                        const char        *detail)
{
  ClarifyRequest *request;
  InboxEntry *entry;

  g_return_if_fail (CLARIFY_IS_INBOX (self));
  g_return_if_fail (end != CLARIFY_REQUEST_END_NONE);

  request = clarify_inbox_lookup (self, backend, request_id);
  if (request == NULL)
    return;
  entry = g_hash_table_lookup (self->by_request, request);

  /* An answer on its way decides by its own result (the agent's news may be
   * the echo of it); one waiting to be retried is no longer wanted. */
  if (clarify_request_get_state (request) == CLARIFY_REQUEST_SENDING &&
      !clarify_outbox_cancel (self->outbox, request))
    {
      entry->withdrawn_end = end;
      entry->withdrawn_reason = reason;
      g_free (entry->withdrawn_detail);
      entry->withdrawn_detail = g_strdup (detail);
      return;
    }

  clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, end, reason, detail);
}

GListModel *
clarify_inbox_get_requests_of (ClarifyInbox   *self,
                               ClarifyBackend *backend)
{
  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);
  g_return_val_if_fail (CLARIFY_IS_BACKEND (backend), NULL);

  return G_LIST_MODEL (view_of (self, backend));
}

void
clarify_inbox_answer (ClarifyInbox    *self,
                      ClarifyRequest  *request,
                      ClarifyResponse *response)
{
  InboxEntry *entry;

  g_return_if_fail (CLARIFY_IS_INBOX (self));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));
  g_return_if_fail (CLARIFY_IS_RESPONSE (response));

  /* A request is answered once: a second answer would reach the agent twice. */
  entry = g_hash_table_lookup (self->by_request, request);
  if (entry == NULL || clarify_request_get_state (request) != CLARIFY_REQUEST_PENDING)
    {
      g_debug ("%s is not waiting for an answer; ignoring one", clarify_request_get_id (request));
      return;
    }

  clarify_inbox_move (self, entry, CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE, CLARIFY_END_REASON_NONE, NULL);
  clarify_inbox_keep_answer (request, response);
  clarify_outbox_post (self->outbox, entry->backend, request, response);
}

void
clarify_inbox_keep_answer (ClarifyRequest  *request,
                           ClarifyResponse *response)
{
  g_object_set_data_full (G_OBJECT (request), ANSWER_DATA_KEY, g_object_ref (response), g_object_unref);
}

ClarifyResponse *
clarify_inbox_get_answer (ClarifyRequest *request)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  return g_object_get_data (G_OBJECT (request), ANSWER_DATA_KEY);
}

ClarifyBackend *
clarify_inbox_get_backend_of (ClarifyInbox   *self,
                              ClarifyRequest *request)
{
  InboxEntry *entry;

  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);

  entry = g_hash_table_lookup (self->by_request, request);
  return entry != NULL ? entry->backend : NULL;
}

ClarifyRequest *
clarify_inbox_lookup_key (ClarifyInbox *self,
                          const char   *key)
{
  InboxEntry *entry;

  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);

  entry = key != NULL ? g_hash_table_lookup (self->by_key, key) : NULL;
  return entry != NULL ? entry->request : NULL;
}

GListModel *
clarify_inbox_get_pending (ClarifyInbox *self)
{
  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);

  return G_LIST_MODEL (self->pending);
}

guint
clarify_inbox_get_n_pending (ClarifyInbox *self)
{
  g_return_val_if_fail (CLARIFY_IS_INBOX (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->pending));
}

ClarifyOutbox *
clarify_inbox_get_outbox (ClarifyInbox *self)
{
  g_return_val_if_fail (CLARIFY_IS_INBOX (self), NULL);

  return self->outbox;
}

gboolean
clarify_inbox_has_timer (ClarifyInbox *self)
{
  g_return_val_if_fail (CLARIFY_IS_INBOX (self), FALSE);

  return self->timer_id != 0;
}
