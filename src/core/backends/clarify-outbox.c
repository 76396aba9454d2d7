/* clarify-outbox.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-outbox.h"
#include "clarify-outbox-store.h"

#define DEFAULT_INITIAL_DELAY_MS 1000
#define DEFAULT_MAX_DELAY_MS     60000
/* A port that refuses costs nothing to try: while it does, try every 2 s
 * for the first 10 minutes, so that an agent that is back (without a
 * stream to say so) gets its answer within 2 s. */
#define UNREACHABLE_DELAY_MS     2000
#define UNREACHABLE_FAST_US      (10 * 60 * G_USEC_PER_SEC)

/* One answer on its way. Shared between the outbox and an in-flight post,
 * so that a post finishing after the outbox went away touches nothing. */
typedef struct
{
  ClarifyOutbox   *outbox;  /* unowned; NULL once the outbox is disposed */
  ClarifyBackend  *backend;
  ClarifyRequest  *request;
  ClarifyResponse *response;
  char            *file;     /* its name in the store, or NULL: memory only */
  gboolean         kept;     /* read back from the store at start */
  gboolean         orphan;   /* let go while in flight: only its file is left to settle */
  guint            attempts;
  guint            backoff_from;  /* attempts when the back-off last started over */
  gint64           unreachable_since;  /* when its port started refusing, or 0 */
  gint64           next_attempt_at;
  gboolean         in_flight;
  gboolean         unwanted;  /* cancelled in flight: its post decides, no retry does */
} OutboxItem;

struct _ClarifyOutbox
{
  GObject       parent_instance;

  GPtrArray    *items;
  GPtrArray    *orphans;      /* OutboxItem let go while in flight */
  GCancellable *cancellable;
  ClarifyOutboxStore *store;
  guint         retry_source_id;
  guint         initial_delay_ms;
  guint         max_delay_ms;
};

G_DEFINE_FINAL_TYPE (ClarifyOutbox, clarify_outbox, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_N_PENDING,
  N_PROPS
};

enum {
  DELIVERED,
  FAILED,
  WAITING,
  NOT_SAVED,
  LET_GO_SETTLED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void clarify_outbox_send (ClarifyOutbox *self,
                                 OutboxItem    *item);

static void
outbox_item_clear (OutboxItem *item)
{
  g_clear_object (&item->backend);
  g_clear_object (&item->request);
  g_clear_object (&item->response);
  g_clear_pointer (&item->file, g_free);
}

static OutboxItem *
outbox_item_ref (OutboxItem *item)
{
  return g_rc_box_acquire (item);
}

static void
outbox_item_unref (OutboxItem *item)
{
  g_rc_box_release_full (item, (GDestroyNotify) outbox_item_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OutboxItem, outbox_item_unref)

static gboolean
is_worth_retrying (const GError *error)
{
  if (clarify_error_is_transient (error))
    return TRUE;

  /* Backends should map network trouble to TRANSIENT; be forgiving when one
   * hands through a raw GIO or resolver error. CANCELLED is the backend's
   * own (stopped, say, under a shared login), never the outbox's: the posts
   * it cancels at dispose finish into nothing. */
  if (error->domain == G_IO_ERROR)
    return error->code != G_IO_ERROR_NOT_SUPPORTED;

  return error->domain == G_RESOLVER_ERROR;
}

/* Exponential backoff with ±20 % jitter, so that many answers queued during
 * an outage do not all hit the agent in the same instant when it returns. */
static guint
clarify_outbox_get_delay_ms (ClarifyOutbox *self,
                             guint          attempts)
{
  guint delay = self->initial_delay_ms;

  for (guint i = 1; i < attempts && delay < self->max_delay_ms; i++)
    delay = delay > G_MAXUINT / 2 ? G_MAXUINT : delay * 2;

  delay = MIN (delay, self->max_delay_ms);

  return MIN ((guint) (delay * g_random_double_range (0.8, 1.2)), self->max_delay_ms);
}

static gboolean on_retry_timeout (gpointer user_data);

/* Keeps exactly one timer, for the earliest waiting item, and none at all
 * when nothing waits. */
static void
clarify_outbox_schedule (ClarifyOutbox *self)
{
  gint64 earliest = G_MAXINT64;
  gint64 delay_us;

  g_clear_handle_id (&self->retry_source_id, g_source_remove);

  for (guint i = 0; i < self->items->len; i++)
    {
      OutboxItem *item = g_ptr_array_index (self->items, i);

      if (!item->in_flight)
        earliest = MIN (earliest, item->next_attempt_at);
    }

  if (earliest == G_MAXINT64)
    return;

  delay_us = MAX (earliest - g_get_monotonic_time (), 0);
  self->retry_source_id = g_timeout_add_full (G_PRIORITY_DEFAULT,
                                              (guint) ((delay_us + 999) / 1000),
                                              on_retry_timeout, self, NULL);
}

static gboolean
on_retry_timeout (gpointer user_data)
{
  ClarifyOutbox *self = user_data;
  g_autoptr(GPtrArray) due = g_ptr_array_new_with_free_func ((GDestroyNotify) outbox_item_unref);
  gint64 now = g_get_monotonic_time ();

  self->retry_source_id = 0;

  for (guint i = 0; i < self->items->len; i++)
    {
      OutboxItem *item = g_ptr_array_index (self->items, i);

      if (!item->in_flight && item->next_attempt_at <= now)
        g_ptr_array_add (due, outbox_item_ref (item));
    }

  /* Sending may finish an item (a withdrawn request), which edits the array. */
  for (guint i = 0; i < due->len; i++)
    clarify_outbox_send (self, g_ptr_array_index (due, i));

  clarify_outbox_schedule (self);

  return G_SOURCE_REMOVE;
}

static void
clarify_outbox_forget_file (ClarifyOutbox *self,
                            OutboxItem    *item)
{
  if (item->file != NULL && self->store != NULL)
    clarify_outbox_store_remove (self->store, item->file);
  g_clear_pointer (&item->file, g_free);
}

/* Removes @item and emits ::delivered, or ::failed when @error is set. */
static void
clarify_outbox_finish_item (ClarifyOutbox *self,
                            OutboxItem    *item,
                            const GError  *error)
{
  g_autoptr(OutboxItem) owned = outbox_item_ref (item);

  /* Delivered, or the outcome is final: nothing left to send after a restart. */
  clarify_outbox_forget_file (self, item);
  g_ptr_array_remove (self->items, item);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PENDING]);

  if (error == NULL)
    {
      g_signal_emit (self, signals[DELIVERED], 0, item->request, item->response);
      return;
    }

  g_debug ("Giving up on the answer to %s: %s", clarify_request_get_id (item->request), error->message);

  g_signal_emit (self, signals[FAILED], 0, item->request, item->response, error);
}

/* Whether @error ends @item's answer. One sent again at start may beat the
 * backend's login: it waits for that rather than asking the user again. */
static gboolean
is_final (OutboxItem   *item,
          const GError *error)
{
  return !is_worth_retrying (error) &&
         !(item->kept && g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH));
}

/* The post of an answer whose backend went has finished: taken or final,
 * its file goes; otherwise it is still owed. ::let-go-settled tells. */
static void
clarify_outbox_settle_orphan (ClarifyOutbox *self,
                              OutboxItem    *item,
                              const GError  *error)
{
  g_autoptr(OutboxItem) owned = outbox_item_ref (item);
  gboolean owed = error != NULL && !is_final (item, error);

  g_ptr_array_remove (self->orphans, item);
  if (owed)
    g_clear_pointer (&item->file, g_free);
  else
    clarify_outbox_forget_file (self, item);

  g_signal_emit (self, signals[LET_GO_SETTLED], 0, item->request, item->kept, error == NULL, owed);
}

static void
on_deliver_finished (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(OutboxItem) item = user_data;
  g_autoptr(GError) error = NULL;
  ClarifyOutbox *self = item->outbox;
  guint delay_ms;
  gint64 now;

  item->in_flight = FALSE;

  if (self != NULL && item->orphan)
    {
      clarify_backend_deliver_finish (CLARIFY_BACKEND (source), result, &error);
      clarify_outbox_settle_orphan (self, item, error);
      return;
    }

  if (clarify_backend_deliver_finish (CLARIFY_BACKEND (source), result, &error))
    {
      if (self != NULL)
        clarify_outbox_finish_item (self, item, NULL);
      return;
    }

  if (self == NULL)
    return;

  if (is_final (item, error) || item->unwanted)
    {
      clarify_outbox_finish_item (self, item, error);
      return;
    }

  /* Once per answer: the user sees that it waits for the agent. */
  if (item->attempts == 1)
    g_signal_emit (self, signals[WAITING], 0, item->request);

  now = g_get_monotonic_time ();
  delay_ms = clarify_outbox_get_delay_ms (self, item->attempts - item->backoff_from);
  if (!clarify_error_is_unreachable (error))
    item->unreachable_since = 0;
  else if (item->unreachable_since == 0)
    item->unreachable_since = now;
  if (item->unreachable_since != 0 && now - item->unreachable_since < UNREACHABLE_FAST_US)
    delay_ms = MIN (delay_ms, MAX (UNREACHABLE_DELAY_MS, self->initial_delay_ms));
  item->next_attempt_at = now + (gint64) delay_ms * 1000;
  g_debug ("Answer to %s not delivered (%s); retrying in %u ms",
           clarify_request_get_id (item->request), error->message, delay_ms);

  clarify_outbox_schedule (self);
}

static void
clarify_outbox_send (ClarifyOutbox *self,
                     OutboxItem    *item)
{
  item->in_flight = TRUE;
  item->attempts++;
  clarify_backend_deliver_async (item->backend, item->request, item->response,
                                 self->cancellable, on_deliver_finished,
                                 outbox_item_ref (item));
}

void
clarify_outbox_retry_backend (ClarifyOutbox  *self,
                              ClarifyBackend *backend)
{
  gint64 now = g_get_monotonic_time ();
  gboolean due = FALSE;

  g_return_if_fail (CLARIFY_IS_OUTBOX (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));

  for (guint i = 0; i < self->items->len; i++)
    {
      OutboxItem *item = g_ptr_array_index (self->items, i);

      if (item->backend != backend || item->in_flight || item->next_attempt_at <= now)
        continue;

      item->next_attempt_at = now;
      item->backoff_from = item->attempts;
      due = TRUE;
    }

  if (due)
    {
      g_debug ("The agent is back: sending what waits for it now");
      clarify_outbox_schedule (self);
    }
}

static void
clarify_outbox_dispose (GObject *object)
{
  ClarifyOutbox *self = CLARIFY_OUTBOX (object);

  g_clear_handle_id (&self->retry_source_id, g_source_remove);

  /* Before the cancel, which may finish a post at once: it retries nothing. */
  for (guint i = 0; i < self->items->len; i++)
    ((OutboxItem *) g_ptr_array_index (self->items, i))->outbox = NULL;
  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < self->orphans->len; i++)
    ((OutboxItem *) g_ptr_array_index (self->orphans, i))->outbox = NULL;
  g_ptr_array_set_size (self->orphans, 0);
  g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (clarify_outbox_parent_class)->dispose (object);
}

static void
clarify_outbox_finalize (GObject *object)
{
  ClarifyOutbox *self = CLARIFY_OUTBOX (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->orphans, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (clarify_outbox_parent_class)->finalize (object);
}

static void
clarify_outbox_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  ClarifyOutbox *self = CLARIFY_OUTBOX (object);

  switch (prop_id)
    {
    case PROP_N_PENDING:
      g_value_set_uint (value, clarify_outbox_get_n_pending (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_outbox_class_init (ClarifyOutboxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_outbox_dispose;
  object_class->finalize = clarify_outbox_finalize;
  object_class->get_property = clarify_outbox_get_property;

  properties[PROP_N_PENDING] =
    g_param_spec_uint ("n-pending", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ClarifyOutbox::delivered:
   * @request: the answered ClarifyRequest
   * @response: the ClarifyResponse the agent accepted
   */
  signals[DELIVERED] =
    g_signal_new ("delivered",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_REQUEST, CLARIFY_TYPE_RESPONSE);

  /**
   * ClarifyOutbox::failed:
   * @request: the ClarifyRequest
   * @response: the ClarifyResponse that could not be delivered
   * @error: why; CLARIFY_ERROR_GONE when the agent no longer waits for it
   */
  signals[FAILED] =
    g_signal_new ("failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 3, CLARIFY_TYPE_REQUEST, CLARIFY_TYPE_RESPONSE, G_TYPE_ERROR);

  /**
   * ClarifyOutbox::waiting:
   * @request: the ClarifyRequest whose answer the agent did not take at
   *   the first try; it is retried (emitted once per answer)
   */
  signals[WAITING] =
    g_signal_new ("waiting",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CLARIFY_TYPE_REQUEST);

  /**
   * ClarifyOutbox::not-saved:
   * @request: the ClarifyRequest whose answer could not be written to the
   *   store; it is sent from memory all the same, but would not survive a
   *   restart
   * @error: why the disk refused
   */
  signals[NOT_SAVED] =
    g_signal_new ("not-saved",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_REQUEST, G_TYPE_ERROR);

  /**
   * ClarifyOutbox::let-go-settled:
   * @request: a ClarifyRequest whose answer was let go while its post was
   *   under way (clarify_outbox_let_go()), and that post has finished
   * @kept: whether the answer had been read back from the store
   * @delivered: whether the agent took it
   * @owed: whether it is still to be sent (its file stays)
   */
  signals[LET_GO_SETTLED] =
    g_signal_new ("let-go-settled",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, CLARIFY_TYPE_REQUEST, G_TYPE_BOOLEAN, G_TYPE_BOOLEAN, G_TYPE_BOOLEAN);
}

static void
clarify_outbox_init (ClarifyOutbox *self)
{
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) outbox_item_unref);
  self->orphans = g_ptr_array_new_with_free_func ((GDestroyNotify) outbox_item_unref);
  self->cancellable = g_cancellable_new ();
  self->initial_delay_ms = DEFAULT_INITIAL_DELAY_MS;
  self->max_delay_ms = DEFAULT_MAX_DELAY_MS;
}

ClarifyOutbox *
clarify_outbox_new (void)
{
  return g_object_new (CLARIFY_TYPE_OUTBOX, NULL);
}

static OutboxItem *
clarify_outbox_find (ClarifyOutbox  *self,
                     ClarifyBackend *backend,
                     const char     *request_id)
{
  for (guint i = 0; i < self->items->len; i++)
    {
      OutboxItem *item = g_ptr_array_index (self->items, i);

      if (item->backend == backend &&
          g_strcmp0 (clarify_request_get_id (item->request), request_id) == 0)
        return item;
    }

  return NULL;
}

static void
clarify_outbox_add (ClarifyOutbox   *self,
                    ClarifyBackend  *backend,
                    ClarifyRequest  *request,
                    ClarifyResponse *response,
                    char            *file,
                    gboolean         kept)
{
  OutboxItem *item = g_rc_box_new0 (OutboxItem);

  item->outbox = self;
  item->backend = g_object_ref (backend);
  item->request = g_object_ref (request);
  item->response = g_object_ref (response);
  item->file = file;
  item->kept = kept;
  item->next_attempt_at = g_get_monotonic_time ();

  g_ptr_array_add (self->items, item);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PENDING]);

  clarify_outbox_send (self, item);
}

void
clarify_outbox_post (ClarifyOutbox   *self,
                     ClarifyBackend  *backend,
                     ClarifyRequest  *request,
                     ClarifyResponse *response)
{
  g_autoptr(GError) error = NULL;
  char *file = NULL;

  g_return_if_fail (CLARIFY_IS_OUTBOX (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));
  g_return_if_fail (CLARIFY_IS_RESPONSE (response));

  /* A request is answered once: a second answer while the first is still
   * on its way would reach the agent twice. */
  if (clarify_outbox_find (self, backend, clarify_request_get_id (request)) != NULL)
    {
      g_debug ("An answer to %s is already on its way; ignoring another one",
               clarify_request_get_id (request));
      return;
    }

  /* On disk before it leaves, so that a crash mid-way loses nothing; a
   * full or read-only disk costs only that, never the answer. */
  if (self->store != NULL)
    file = clarify_outbox_store_save (self->store, backend, request, response, &error);
  if (error != NULL)
    {
      g_warning ("Cannot keep the answer to %s on disk, sending it from memory: %s",
                 clarify_request_get_id (request), error->message);
      g_signal_emit (self, signals[NOT_SAVED], 0, request, error);
    }

  clarify_outbox_add (self, backend, request, response, file, FALSE);
}

void
clarify_outbox_post_saved (ClarifyOutbox   *self,
                           ClarifyBackend  *backend,
                           ClarifyRequest  *request,
                           ClarifyResponse *response,
                           const char      *file)
{
  g_return_if_fail (CLARIFY_IS_OUTBOX (self));
  g_return_if_fail (CLARIFY_IS_BACKEND (backend));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));
  g_return_if_fail (CLARIFY_IS_RESPONSE (response));
  g_return_if_fail (file != NULL);

  if (clarify_outbox_find (self, backend, clarify_request_get_id (request)) != NULL)
    return;

  clarify_outbox_add (self, backend, request, response, g_strdup (file), TRUE);
}

gboolean
clarify_outbox_cancel (ClarifyOutbox  *self,
                       ClarifyRequest *request)
{
  g_return_val_if_fail (CLARIFY_IS_OUTBOX (self), FALSE);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), FALSE);

  for (guint i = 0; i < self->items->len; i++)
    {
      OutboxItem *item = g_ptr_array_index (self->items, i);

      if (item->request != request)
        continue;
      /* Its post decides; the agent may already have it. */
      if (item->in_flight)
        {
          item->unwanted = TRUE;
          return FALSE;
        }

      /* Not wanted any more: not after a restart either. */
      clarify_outbox_forget_file (self, item);
      item->outbox = NULL;
      g_ptr_array_remove_index (self->items, i);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PENDING]);
      clarify_outbox_schedule (self);
      return TRUE;
    }

  return TRUE;
}

void
clarify_outbox_let_go (ClarifyOutbox  *self,
                       ClarifyRequest *request)
{
  g_return_if_fail (CLARIFY_IS_OUTBOX (self));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));

  for (guint i = 0; i < self->items->len; i++)
    {
      OutboxItem *item = g_ptr_array_index (self->items, i);

      if (item->request != request)
        continue;

      /* A post under way still settles its file (see
       * clarify_outbox_settle_orphan()); one waiting leaves it to whoever
       * takes the connection over. */
      if (item->in_flight)
        {
          item->orphan = TRUE;
          g_ptr_array_add (self->orphans, outbox_item_ref (item));
        }
      else
        {
          item->outbox = NULL;
        }
      g_ptr_array_remove_index (self->items, i);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PENDING]);
      clarify_outbox_schedule (self);
      return;
    }
}

guint
clarify_outbox_get_n_pending (ClarifyOutbox *self)
{
  g_return_val_if_fail (CLARIFY_IS_OUTBOX (self), 0);

  return self->items->len;
}

void
clarify_outbox_set_backoff (ClarifyOutbox *self,
                            guint          initial_ms,
                            guint          max_ms)
{
  g_return_if_fail (CLARIFY_IS_OUTBOX (self));
  g_return_if_fail (initial_ms > 0);
  g_return_if_fail (max_ms >= initial_ms);

  self->initial_delay_ms = initial_ms;
  self->max_delay_ms = max_ms;
}

void
clarify_outbox_set_store (ClarifyOutbox      *self,
                          ClarifyOutboxStore *store)
{
  g_return_if_fail (CLARIFY_IS_OUTBOX (self));
  g_return_if_fail (store == NULL || CLARIFY_IS_OUTBOX_STORE (store));

  g_set_object (&self->store, store);
}

ClarifyOutboxStore *
clarify_outbox_get_store (ClarifyOutbox *self)
{
  g_return_val_if_fail (CLARIFY_IS_OUTBOX (self), NULL);

  return self->store;
}

gboolean
clarify_outbox_holds_file (ClarifyOutbox *self,
                           const char    *file)
{
  g_return_val_if_fail (CLARIFY_IS_OUTBOX (self), FALSE);

  for (guint i = 0; i < self->items->len; i++)
    if (g_strcmp0 (((OutboxItem *) g_ptr_array_index (self->items, i))->file, file) == 0)
      return TRUE;
  for (guint i = 0; i < self->orphans->len; i++)
    if (g_strcmp0 (((OutboxItem *) g_ptr_array_index (self->orphans, i))->file, file) == 0)
      return TRUE;

  return FALSE;
}
