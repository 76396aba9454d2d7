/* clarify-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-backend-private.h"
#include "clarify-inbox.h"
#include "clarify-secret.h"

typedef struct
{
  ClarifyConnection      *connection;
  ClarifyConnectionState  state;
  ClarifyBackendNote      note;
  char                   *note_subject;
  char                   *error_text;
  gint64                  retry_at;
  ClarifyInbox           *inbox;     /* weak: the inbox we were added to */
  ClarifyInbox           *own_inbox; /* a backend used alone gets its own */
  char                   *secret;    /* read before it was made; "" for none */
} ClarifyBackendPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ClarifyBackend, clarify_backend, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_SECRET,
  PROP_STATE,
  PROP_NOTE,
  N_PROPS
};

enum {
  REQUEST_ADDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
clarify_backend_real_deliver_finish (ClarifyBackend  *self,
                                     GAsyncResult    *result,
                                     GError         **error)
{
  /* Backends that complete with a GTask need not override this. */
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
clarify_backend_dispose (GObject *object)
{
  ClarifyBackend *self = CLARIFY_BACKEND (object);
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_clear_weak_pointer (&priv->inbox);
  g_clear_object (&priv->own_inbox);

  G_OBJECT_CLASS (clarify_backend_parent_class)->dispose (object);
}

static void
clarify_backend_finalize (GObject *object)
{
  ClarifyBackend *self = CLARIFY_BACKEND (object);
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_clear_object (&priv->connection);
  g_clear_pointer (&priv->secret, clarify_secret_free);
  g_clear_pointer (&priv->note_subject, g_free);
  g_clear_pointer (&priv->error_text, g_free);

  G_OBJECT_CLASS (clarify_backend_parent_class)->finalize (object);
}

static void
clarify_backend_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  ClarifyBackend *self = CLARIFY_BACKEND (object);
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, priv->connection);
      break;

    case PROP_STATE:
      g_value_set_enum (value, priv->state);
      break;

    case PROP_NOTE:
      g_value_set_enum (value, priv->note);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_backend_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  ClarifyBackend *self = CLARIFY_BACKEND (object);
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      priv->connection = g_value_dup_object (value);
      break;

    case PROP_SECRET:
      priv->secret = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_backend_class_init (ClarifyBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_backend_dispose;
  object_class->finalize = clarify_backend_finalize;
  object_class->get_property = clarify_backend_get_property;
  object_class->set_property = clarify_backend_set_property;

  klass->deliver_finish = clarify_backend_real_deliver_finish;

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL,
                         CLARIFY_TYPE_CONNECTION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /* The connection's password or token, read from the keyring without
   * blocking before the backend was made ("" for none); write-only. */
  properties[PROP_SECRET] =
    g_param_spec_string ("secret", NULL, NULL, NULL,
                         (G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       CLARIFY_TYPE_CONNECTION_STATE,
                       CLARIFY_CONNECTION_STATE_IDLE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_NOTE] =
    g_param_spec_enum ("note", NULL, NULL,
                       CLARIFY_TYPE_BACKEND_NOTE, CLARIFY_BACKEND_NOTE_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ClarifyBackend::request-added:
   * @request: the new pending ClarifyRequest
   *
   * Emitted once per request id, after it joined clarify_backend_get_requests().
   */
  signals[REQUEST_ADDED] =
    g_signal_new ("request-added",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, CLARIFY_TYPE_REQUEST);
}

static void
clarify_backend_init (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  priv->state = CLARIFY_CONNECTION_STATE_IDLE;
}

ClarifyConnection *
clarify_backend_get_connection (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);

  return priv->connection;
}

ClarifyConnectionState
clarify_backend_get_state (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), CLARIFY_CONNECTION_STATE_IDLE);

  return priv->state;
}

ClarifyBackendNote
clarify_backend_get_note (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), CLARIFY_BACKEND_NOTE_NONE);

  return priv->note;
}

const char *
clarify_backend_get_note_subject (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);

  return priv->note_subject;
}

const char *
clarify_backend_get_error_text (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);

  return priv->error_text;
}

gint64
clarify_backend_get_retry_at (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), 0);

  return priv->retry_at;
}

void
clarify_backend_set_retry_at (ClarifyBackend *self,
                              gint64          retry_at)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_BACKEND (self));

  priv->retry_at = retry_at;
}

void
clarify_backend_set_state (ClarifyBackend         *self,
                           ClarifyConnectionState  state,
                           ClarifyBackendNote      note,
                           const char             *subject,
                           const char             *error_text)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);
  gboolean note_changed;

  g_return_if_fail (CLARIFY_IS_BACKEND (self));
  g_return_if_fail (state <= CLARIFY_CONNECTION_STATE_FAILED);

  g_object_freeze_notify (G_OBJECT (self));

  /* A retry time changes with every attempt: it is news as well. */
  note_changed = priv->note != note ||
                 g_strcmp0 (priv->note_subject, subject) != 0 ||
                 g_strcmp0 (priv->error_text, error_text) != 0 ||
                 note == CLARIFY_BACKEND_NOTE_RETRYING;
  if (note_changed)
    {
      priv->note = note;
      g_free (priv->note_subject);
      priv->note_subject = g_strdup (subject);
      g_free (priv->error_text);
      priv->error_text = g_strdup (error_text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE]);
    }

  if (priv->state != state)
    {
      priv->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

void
clarify_backend_start (ClarifyBackend *self)
{
  g_return_if_fail (CLARIFY_IS_BACKEND (self));
  g_return_if_fail (CLARIFY_BACKEND_GET_CLASS (self)->start != NULL);

  CLARIFY_BACKEND_GET_CLASS (self)->start (self);
}

void
clarify_backend_stop (ClarifyBackend *self)
{
  g_return_if_fail (CLARIFY_IS_BACKEND (self));

  if (CLARIFY_BACKEND_GET_CLASS (self)->stop != NULL)
    CLARIFY_BACKEND_GET_CLASS (self)->stop (self);
}

void
clarify_backend_deliver_async (ClarifyBackend      *self,
                               ClarifyRequest      *request,
                               ClarifyResponse     *response,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (CLARIFY_IS_BACKEND (self));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));
  g_return_if_fail (CLARIFY_IS_RESPONSE (response));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (CLARIFY_BACKEND_GET_CLASS (self)->deliver_async == NULL)
    {
      g_task_report_new_error (self, callback, user_data, clarify_backend_deliver_async,
                               G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "%s cannot answer requests", G_OBJECT_TYPE_NAME (self));
      return;
    }

  CLARIFY_BACKEND_GET_CLASS (self)->deliver_async (self, request, response, cancellable,
                                                   callback, user_data);
}

gboolean
clarify_backend_deliver_finish (ClarifyBackend  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  if (g_async_result_is_tagged (result, clarify_backend_deliver_async))
    return g_task_propagate_boolean (G_TASK (result), error);

  return CLARIFY_BACKEND_GET_CLASS (self)->deliver_finish (self, result, error);
}

void
clarify_backend_resync (ClarifyBackend *self)
{
  g_return_if_fail (CLARIFY_IS_BACKEND (self));

  if (CLARIFY_BACKEND_GET_CLASS (self)->resync != NULL)
    CLARIFY_BACKEND_GET_CLASS (self)->resync (self);
}

JsonNode *
clarify_backend_save_delivery (ClarifyBackend *self,
                               ClarifyRequest *request)
{
  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  if (CLARIFY_BACKEND_GET_CLASS (self)->save_delivery == NULL)
    return NULL;

  return CLARIFY_BACKEND_GET_CLASS (self)->save_delivery (self, request);
}

gboolean
clarify_backend_restore_delivery (ClarifyBackend  *self,
                                  ClarifyRequest  *request,
                                  JsonNode        *data,
                                  GError         **error)
{
  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), FALSE);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if (CLARIFY_BACKEND_GET_CLASS (self)->restore_delivery == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s keeps no answers across restarts", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }

  return CLARIFY_BACKEND_GET_CLASS (self)->restore_delivery (self, request, data, error);
}

JsonNode *
clarify_backend_save_nothing (ClarifyBackend *self,
                              ClarifyRequest *request)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, json_object_new ());
  return node;
}

gboolean
clarify_backend_restore_nothing (ClarifyBackend  *self,
                                 ClarifyRequest  *request,
                                 JsonNode        *data,
                                 GError         **error)
{
  return TRUE;
}

ClarifyInbox *
clarify_backend_get_inbox (ClarifyBackend *self)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);

  if (priv->inbox != NULL)
    return priv->inbox;

  if (priv->own_inbox == NULL)
    priv->own_inbox = clarify_inbox_new ();

  return priv->own_inbox;
}

void
clarify_backend_set_inbox (ClarifyBackend *self,
                           ClarifyInbox   *inbox)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_BACKEND (self));

  g_set_weak_pointer (&priv->inbox, inbox);
  if (inbox != NULL)
    g_clear_object (&priv->own_inbox);
}

void
clarify_backend_emit_request_added (ClarifyBackend *self,
                                    ClarifyRequest *request)
{
  g_signal_emit (self, signals[REQUEST_ADDED], 0, request);
}

GListModel *
clarify_backend_get_requests (ClarifyBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);

  return clarify_inbox_get_requests_of (clarify_backend_get_inbox (self), self);
}

ClarifyRequest *
clarify_backend_lookup_request (ClarifyBackend *self,
                                const char     *request_id)
{
  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);

  return clarify_inbox_lookup (clarify_backend_get_inbox (self), self, request_id);
}

gboolean
clarify_backend_add_request (ClarifyBackend *self,
                             ClarifyRequest *request)
{
  return clarify_backend_add_request_full (self, request, NULL);
}

gboolean
clarify_backend_add_request_full (ClarifyBackend  *self,
                                  ClarifyRequest  *request,
                                  GError         **error)
{
  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), FALSE);

  /* The countdown of a timeout starts when the request reached us. */
  if (clarify_request_get_received_at (request) == 0)
    clarify_request_set_received_at (request, g_get_monotonic_time ());

  return clarify_inbox_add (clarify_backend_get_inbox (self), self, request, error);
}

void
clarify_backend_withdraw_request (ClarifyBackend   *self,
                                  const char       *request_id,
                                  ClarifyEndReason  reason,
                                  const char       *detail)
{
  g_return_if_fail (CLARIFY_IS_BACKEND (self));
  g_return_if_fail (reason != CLARIFY_END_REASON_NONE);

  clarify_inbox_withdraw (clarify_backend_get_inbox (self), self, request_id,
                          CLARIFY_REQUEST_END_WITHDRAWN, reason, detail);
}

void
clarify_backend_forget_request (ClarifyBackend *self,
                                const char     *request_id)
{
  g_return_if_fail (CLARIFY_IS_BACKEND (self));

  clarify_inbox_withdraw (clarify_backend_get_inbox (self), self, request_id,
                          CLARIFY_REQUEST_END_ANSWERED, CLARIFY_END_REASON_NONE, NULL);
}

char *
clarify_backend_dup_secret (ClarifyBackend  *self,
                            GError         **error)
{
  ClarifyBackendPrivate *priv = clarify_backend_get_instance_private (self);
  g_autofree char *key = NULL;

  g_return_val_if_fail (CLARIFY_IS_BACKEND (self), NULL);

  if (priv->secret != NULL)
    return *priv->secret != '\0' ? g_strdup (priv->secret) : NULL;

  /* Made without it (as in tests): ask, blocking. */
  key = g_strconcat ("connection:", clarify_connection_get_name (priv->connection), NULL);

  return clarify_secret_lookup (key, error);
}
