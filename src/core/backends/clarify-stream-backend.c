/* clarify-stream-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-stream-backend.h"

typedef struct
{
  ClarifySseClient *client;
} ClarifyStreamBackendPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ClarifyStreamBackend, clarify_stream_backend, CLARIFY_TYPE_BACKEND)

static void
on_event (ClarifySseClient     *client,
          const char           *type,
          const char           *data,
          const char           *id,
          ClarifyStreamBackend *self)
{
  if (CLARIFY_STREAM_BACKEND_GET_CLASS (self)->event != NULL)
    CLARIFY_STREAM_BACKEND_GET_CLASS (self)->event (self, type, data, id);
}

static void
on_connected (ClarifySseClient     *client,
              ClarifyStreamBackend *self)
{
  if (CLARIFY_STREAM_BACKEND_GET_CLASS (self)->connected != NULL)
    CLARIFY_STREAM_BACKEND_GET_CLASS (self)->connected (self);
}

static void
on_state_changed (ClarifySseClient     *client,
                  GParamSpec           *pspec,
                  ClarifyStreamBackend *self)
{
  ClarifyBackend *backend = CLARIFY_BACKEND (self);
  ClarifyConnectionState state = clarify_sse_client_get_state (client);

  switch (state)
    {
    case CLARIFY_CONNECTION_STATE_RECONNECTING:
      clarify_backend_set_retry_at (backend, clarify_sse_client_get_retry_at (client));
      clarify_backend_set_state (backend, state, CLARIFY_BACKEND_NOTE_RETRYING, NULL,
                                 clarify_sse_client_get_state_reason (client));
      break;

    case CLARIFY_CONNECTION_STATE_FAILED:
      clarify_backend_set_state (backend, state, CLARIFY_BACKEND_NOTE_NONE, NULL,
                                 clarify_sse_client_get_state_reason (client));
      break;

    case CLARIFY_CONNECTION_STATE_CONNECTING:
    case CLARIFY_CONNECTION_STATE_CONNECTED:
    case CLARIFY_CONNECTION_STATE_IDLE:
    default:
      clarify_backend_set_state (backend, state, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
      break;
    }

  if (CLARIFY_STREAM_BACKEND_GET_CLASS (self)->stream_state != NULL)
    CLARIFY_STREAM_BACKEND_GET_CLASS (self)->stream_state (self, state);
}

static void
clarify_stream_backend_real_start (ClarifyBackend *backend)
{
  clarify_stream_backend_connect (CLARIFY_STREAM_BACKEND (backend));
}

static void
clarify_stream_backend_real_stop (ClarifyBackend *backend)
{
  ClarifyStreamBackendPrivate *priv =
    clarify_stream_backend_get_instance_private (CLARIFY_STREAM_BACKEND (backend));

  if (priv->client != NULL)
    clarify_sse_client_stop (priv->client);
  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_IDLE, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
clarify_stream_backend_dispose (GObject *object)
{
  clarify_stream_backend_close (CLARIFY_STREAM_BACKEND (object));

  G_OBJECT_CLASS (clarify_stream_backend_parent_class)->dispose (object);
}

static void
clarify_stream_backend_class_init (ClarifyStreamBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  object_class->dispose = clarify_stream_backend_dispose;

  backend_class->start = clarify_stream_backend_real_start;
  backend_class->stop = clarify_stream_backend_real_stop;
}

static void
clarify_stream_backend_init (ClarifyStreamBackend *self)
{
}

ClarifySseClient *
clarify_stream_backend_open (ClarifyStreamBackend *self,
                             SoupSession          *session,
                             const char           *url)
{
  ClarifyStreamBackendPrivate *priv = clarify_stream_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_STREAM_BACKEND (self), NULL);
  g_return_val_if_fail (SOUP_IS_SESSION (session), NULL);
  g_return_val_if_fail (priv->client == NULL, priv->client);

  priv->client = clarify_sse_client_new (session, url);
  g_signal_connect_object (priv->client, "event", G_CALLBACK (on_event), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (priv->client, "connected", G_CALLBACK (on_connected), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (priv->client, "notify::state", G_CALLBACK (on_state_changed), self, G_CONNECT_DEFAULT);

  return priv->client;
}

ClarifySseClient *
clarify_stream_backend_get_client (ClarifyStreamBackend *self)
{
  ClarifyStreamBackendPrivate *priv = clarify_stream_backend_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_STREAM_BACKEND (self), NULL);

  return priv->client;
}

void
clarify_stream_backend_connect (ClarifyStreamBackend *self)
{
  ClarifyStreamBackendPrivate *priv = clarify_stream_backend_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_STREAM_BACKEND (self));
  g_return_if_fail (priv->client != NULL);

  clarify_sse_client_start (priv->client);
}

void
clarify_stream_backend_close (ClarifyStreamBackend *self)
{
  ClarifyStreamBackendPrivate *priv = clarify_stream_backend_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_STREAM_BACKEND (self));

  if (priv->client == NULL)
    return;

  /* Stopping notifies: nothing of a backend being disposed may hear it. */
  g_signal_handlers_disconnect_by_data (priv->client, self);
  clarify_sse_client_stop (priv->client);
  g_clear_object (&priv->client);
}
