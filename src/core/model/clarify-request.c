/* clarify-request.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-request-private.h"

struct _ClarifyRequest
{
  GObject         parent_instance;

  char           *id;
  char           *connection_name;
  char           *connection_kind;
  char           *project;
  char           *session;
  char           *caller;
  char           *session_title;
  char           *title;
  char           *context;
  char           *skip_label;
  char           *cancel_label;
  GPtrArray      *questions;
  guint           timeout_ms;
  gint64          received_at;
  gpointer        backend_data;
  GDestroyNotify  backend_data_destroy;
  char           *end_detail;
  ClarifyRequestState state;
  ClarifyRequestEnd end;
  ClarifyEndReason end_reason;
  guint           skippable : 1;
  guint           cancellable : 1;
  guint           withdrawn : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyRequest, clarify_request, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_CONNECTION_NAME,
  PROP_CONNECTION_KIND,
  PROP_PROJECT,
  PROP_SESSION,
  PROP_CALLER,
  PROP_SESSION_TITLE,
  PROP_TITLE,
  PROP_CONTEXT,
  PROP_TIMEOUT_MS,
  PROP_RECEIVED_AT,
  PROP_SKIPPABLE,
  PROP_CANCELLABLE,
  PROP_SKIP_LABEL,
  PROP_CANCEL_LABEL,
  PROP_WITHDRAWN,
  PROP_STATE,
  PROP_END,
  PROP_END_REASON,
  PROP_END_DETAIL,
  N_PROPS
};

enum {
  WITHDRAWN,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
clarify_request_dispose (GObject *object)
{
  ClarifyRequest *self = CLARIFY_REQUEST (object);

  /* Backend data may hold references back to the backend: drop it early. */
  if (self->backend_data_destroy != NULL && self->backend_data != NULL)
    self->backend_data_destroy (self->backend_data);
  self->backend_data = NULL;
  self->backend_data_destroy = NULL;

  G_OBJECT_CLASS (clarify_request_parent_class)->dispose (object);
}

static void
clarify_request_finalize (GObject *object)
{
  ClarifyRequest *self = CLARIFY_REQUEST (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->connection_name, g_free);
  g_clear_pointer (&self->connection_kind, g_free);
  g_clear_pointer (&self->project, g_free);
  g_clear_pointer (&self->session, g_free);
  g_clear_pointer (&self->caller, g_free);
  g_clear_pointer (&self->session_title, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->context, g_free);
  g_clear_pointer (&self->skip_label, g_free);
  g_clear_pointer (&self->cancel_label, g_free);
  g_clear_pointer (&self->end_detail, g_free);
  g_clear_pointer (&self->questions, g_ptr_array_unref);

  G_OBJECT_CLASS (clarify_request_parent_class)->finalize (object);
}

static void
clarify_request_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  ClarifyRequest *self = CLARIFY_REQUEST (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_CONNECTION_NAME:
      g_value_set_string (value, self->connection_name);
      break;

    case PROP_CONNECTION_KIND:
      g_value_set_string (value, self->connection_kind);
      break;

    case PROP_PROJECT:
      g_value_set_string (value, self->project);
      break;

    case PROP_SESSION:
      g_value_set_string (value, self->session);
      break;

    case PROP_CALLER:
      g_value_set_string (value, self->caller);
      break;

    case PROP_SESSION_TITLE:
      g_value_set_string (value, self->session_title);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_CONTEXT:
      g_value_set_string (value, self->context);
      break;

    case PROP_TIMEOUT_MS:
      g_value_set_uint (value, self->timeout_ms);
      break;

    case PROP_RECEIVED_AT:
      g_value_set_int64 (value, self->received_at);
      break;

    case PROP_SKIPPABLE:
      g_value_set_boolean (value, self->skippable);
      break;

    case PROP_CANCELLABLE:
      g_value_set_boolean (value, self->cancellable);
      break;

    case PROP_SKIP_LABEL:
      g_value_set_string (value, self->skip_label);
      break;

    case PROP_CANCEL_LABEL:
      g_value_set_string (value, self->cancel_label);
      break;

    case PROP_WITHDRAWN:
      g_value_set_boolean (value, self->withdrawn);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_END:
      g_value_set_enum (value, self->end);
      break;

    case PROP_END_REASON:
      g_value_set_enum (value, self->end_reason);
      break;

    case PROP_END_DETAIL:
      g_value_set_string (value, self->end_detail);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  ClarifyRequest *self = CLARIFY_REQUEST (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      break;

    case PROP_PROJECT:
      clarify_request_set_project (self, g_value_get_string (value));
      break;

    case PROP_SESSION:
      clarify_request_set_session (self, g_value_get_string (value));
      break;

    case PROP_CALLER:
      clarify_request_set_caller (self, g_value_get_string (value));
      break;

    case PROP_SESSION_TITLE:
      clarify_request_set_session_title (self, g_value_get_string (value));
      break;

    case PROP_TITLE:
      clarify_request_set_title (self, g_value_get_string (value));
      break;

    case PROP_CONTEXT:
      clarify_request_set_context (self, g_value_get_string (value));
      break;

    case PROP_TIMEOUT_MS:
      clarify_request_set_timeout_ms (self, g_value_get_uint (value));
      break;

    case PROP_RECEIVED_AT:
      clarify_request_set_received_at (self, g_value_get_int64 (value));
      break;

    case PROP_SKIPPABLE:
      clarify_request_set_skippable (self, g_value_get_boolean (value));
      break;

    case PROP_SKIP_LABEL:
      clarify_request_set_skip_label (self, g_value_get_string (value));
      break;

    case PROP_CANCEL_LABEL:
      clarify_request_set_cancel_label (self, g_value_get_string (value));
      break;

    case PROP_CANCELLABLE:
      clarify_request_set_cancellable (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_class_init (ClarifyRequestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_request_dispose;
  object_class->finalize = clarify_request_finalize;
  object_class->get_property = clarify_request_get_property;
  object_class->set_property = clarify_request_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CONNECTION_NAME] =
    g_param_spec_string ("connection-name", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CONNECTION_KIND] =
    g_param_spec_string ("connection-kind", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PROJECT] =
    g_param_spec_string ("project", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SESSION] =
    g_param_spec_string ("session", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CALLER] =
    g_param_spec_string ("caller", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SESSION_TITLE] =
    g_param_spec_string ("session-title", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CONTEXT] =
    g_param_spec_string ("context", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_TIMEOUT_MS] =
    g_param_spec_uint ("timeout-ms", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_RECEIVED_AT] =
    g_param_spec_int64 ("received-at", NULL, NULL,
                        0, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SKIPPABLE] =
    g_param_spec_boolean ("skippable", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SKIP_LABEL] =
    g_param_spec_string ("skip-label", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CANCEL_LABEL] =
    g_param_spec_string ("cancel-label", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CANCELLABLE] =
    g_param_spec_boolean ("cancellable", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_WITHDRAWN] =
    g_param_spec_boolean ("withdrawn", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       CLARIFY_TYPE_REQUEST_STATE, CLARIFY_REQUEST_PENDING,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_END] =
    g_param_spec_enum ("end", NULL, NULL,
                       CLARIFY_TYPE_REQUEST_END, CLARIFY_REQUEST_END_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_END_REASON] =
    g_param_spec_enum ("end-reason", NULL, NULL,
                       CLARIFY_TYPE_END_REASON, CLARIFY_END_REASON_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_END_DETAIL] =
    g_param_spec_string ("end-detail", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ClarifyRequest::withdrawn:
   * @reason: a #ClarifyEndReason, never NONE
   * @detail: (nullable): untranslated data that goes with it
   *
   * The backend no longer wants an answer. Emitted at most once.
   */
  signals[WITHDRAWN] =
    g_signal_new ("withdrawn",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_END_REASON, G_TYPE_STRING);
}

static void
clarify_request_init (ClarifyRequest *self)
{
  self->questions = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = TRUE;
  self->received_at = g_get_monotonic_time ();
}

ClarifyRequest *
clarify_request_new (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  return g_object_new (CLARIFY_TYPE_REQUEST,
                       "id", id,
                       NULL);
}

const char *
clarify_request_get_id (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->id;
}

static void
set_string (ClarifyRequest  *self,
            char           **field,
            const char      *value,
            guint            prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

const char *
clarify_request_get_connection_name (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->connection_name;
}

const char *
clarify_request_get_connection_kind (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->connection_kind;
}

void
clarify_request_set_connection (ClarifyRequest *self,
                                const char     *name,
                                const char     *kind)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->connection_name, name, PROP_CONNECTION_NAME);
  set_string (self, &self->connection_kind, kind, PROP_CONNECTION_KIND);
  g_object_thaw_notify (G_OBJECT (self));
}

const char *
clarify_request_get_project (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->project;
}

void
clarify_request_set_project (ClarifyRequest *self,
                             const char     *project)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->project, project, PROP_PROJECT);
}

const char *
clarify_request_get_session (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->session;
}

void
clarify_request_set_session (ClarifyRequest *self,
                             const char     *session)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->session, session, PROP_SESSION);
}

const char *
clarify_request_get_caller (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->caller;
}

void
clarify_request_set_caller (ClarifyRequest *self,
                            const char     *caller)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->caller, caller, PROP_CALLER);
}

const char *
clarify_request_get_session_title (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->session_title;
}

void
clarify_request_set_session_title (ClarifyRequest *self,
                                   const char     *session_title)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->session_title, session_title, PROP_SESSION_TITLE);
}

const char *
clarify_request_get_title (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->title;
}

void
clarify_request_set_title (ClarifyRequest *self,
                           const char     *title)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->title, title, PROP_TITLE);
}

const char *
clarify_request_get_context (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->context;
}

void
clarify_request_set_context (ClarifyRequest *self,
                             const char     *context)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->context, context, PROP_CONTEXT);
}

guint
clarify_request_get_n_questions (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), 0);

  return self->questions->len;
}

ClarifyQuestion *
clarify_request_get_question (ClarifyRequest *self,
                              guint           position)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  if (position >= self->questions->len)
    return NULL;

  return g_ptr_array_index (self->questions, position);
}

void
clarify_request_add_question (ClarifyRequest  *self,
                              ClarifyQuestion *question)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));
  g_return_if_fail (CLARIFY_IS_QUESTION (question));

  g_ptr_array_add (self->questions, g_object_ref (question));
}

guint
clarify_request_get_timeout_ms (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), 0);

  return self->timeout_ms;
}

void
clarify_request_set_timeout_ms (ClarifyRequest *self,
                                guint           timeout_ms)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  if (self->timeout_ms == timeout_ms)
    return;

  self->timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT_MS]);
}

gint64
clarify_request_get_received_at (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), 0);

  return self->received_at;
}

void
clarify_request_set_received_at (ClarifyRequest *self,
                                 gint64          monotonic_us)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  if (self->received_at == monotonic_us)
    return;

  self->received_at = monotonic_us;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECEIVED_AT]);
}

gint64
clarify_request_get_deadline (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), 0);

  if (self->timeout_ms == 0)
    return 0;

  return self->received_at + (gint64) self->timeout_ms * 1000;
}

gboolean
clarify_request_get_skippable (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), FALSE);

  return self->skippable;
}

void
clarify_request_set_skippable (ClarifyRequest *self,
                               gboolean        skippable)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  skippable = !!skippable;
  if (self->skippable == skippable)
    return;

  self->skippable = skippable;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SKIPPABLE]);
}

const char *
clarify_request_get_skip_label (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->skip_label;
}

void
clarify_request_set_skip_label (ClarifyRequest *self,
                                const char     *skip_label)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->skip_label, skip_label, PROP_SKIP_LABEL);
}

const char *
clarify_request_get_cancel_label (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->cancel_label;
}

void
clarify_request_set_cancel_label (ClarifyRequest *self,
                                  const char     *cancel_label)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  set_string (self, &self->cancel_label, cancel_label, PROP_CANCEL_LABEL);
}

gboolean
clarify_request_get_cancellable (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), TRUE);

  return self->cancellable;
}

void
clarify_request_set_cancellable (ClarifyRequest *self,
                                 gboolean        cancellable)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  cancellable = !!cancellable;
  if (self->cancellable == cancellable)
    return;

  self->cancellable = cancellable;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLABLE]);
}

gpointer
clarify_request_get_backend_data (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->backend_data;
}

void
clarify_request_set_backend_data (ClarifyRequest *self,
                                  gpointer        data,
                                  GDestroyNotify  destroy)
{
  gpointer old_data;
  GDestroyNotify old_destroy;

  g_return_if_fail (CLARIFY_IS_REQUEST (self));

  old_data = self->backend_data;
  old_destroy = self->backend_data_destroy;

  self->backend_data = data;
  self->backend_data_destroy = destroy;

  if (old_destroy != NULL && old_data != NULL && old_data != data)
    old_destroy (old_data);
}

/* Notifies on change; the caller freezes notifications around it. */
static void
set_end_reason (ClarifyRequest   *self,
                ClarifyEndReason  reason,
                const char       *detail)
{
  if (self->end_reason != reason)
    {
      self->end_reason = reason;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END_REASON]);
    }

  set_string (self, &self->end_detail, detail, PROP_END_DETAIL);
}

void
clarify_request_withdraw (ClarifyRequest   *self,
                          ClarifyEndReason  reason,
                          const char       *detail)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));
  g_return_if_fail (reason != CLARIFY_END_REASON_NONE);

  if (self->withdrawn)
    return;

  /* Set before emitting so that handlers see a consistent state, and a
   * handler that withdraws again cannot emit twice. */
  self->withdrawn = TRUE;

  g_object_ref (self);
  g_object_freeze_notify (G_OBJECT (self));
  set_end_reason (self, reason, detail);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WITHDRAWN]);
  g_object_thaw_notify (G_OBJECT (self));
  /* The request's own copy: a handler may change the caller's. */
  g_signal_emit (self, signals[WITHDRAWN], 0, reason, self->end_detail);
  g_object_unref (self);
}

gboolean
clarify_request_is_withdrawn (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), FALSE);

  return self->withdrawn;
}

ClarifyRequestState
clarify_request_get_state (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), CLARIFY_REQUEST_PENDING);

  return self->state;
}

ClarifyRequestEnd
clarify_request_get_end (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), CLARIFY_REQUEST_END_NONE);

  return self->end;
}

ClarifyEndReason
clarify_request_get_end_reason (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), CLARIFY_END_REASON_NONE);

  return self->end_reason;
}

const char *
clarify_request_get_end_detail (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  return self->end_detail;
}

void
clarify_request_set_state (ClarifyRequest      *self,
                           ClarifyRequestState  state,
                           ClarifyRequestEnd    end,
                           ClarifyEndReason     reason,
                           const char          *detail)
{
  g_return_if_fail (CLARIFY_IS_REQUEST (self));
  g_return_if_fail ((state == CLARIFY_REQUEST_DONE) == (end != CLARIFY_REQUEST_END_NONE));

  g_object_freeze_notify (G_OBJECT (self));

  set_end_reason (self, reason, detail);

  if (self->end != end)
    {
      self->end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END]);
    }

  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

const char *
clarify_request_get_summary (ClarifyRequest *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST (self), NULL);

  if (self->title != NULL && *self->title != '\0')
    return self->title;

  if (self->questions->len > 0)
    return clarify_question_get_text (g_ptr_array_index (self->questions, 0));

  return self->id;
}
