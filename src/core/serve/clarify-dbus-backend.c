/* clarify-dbus-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-claude-code-codec.h"
#include "clarify-dbus-api.h"
#include "clarify-dbus-backend.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-secret.h"

struct _ClarifyDbusBackend
{
  ClarifyLocalBackend  parent_instance;

  GDBusConnection     *bus;
  char                *object_path;
  /* Generated from data/dbus/io.github.clarify.Clarify.xml; exported
   * while the backend runs. */
  ClarifyDbusApi      *skeleton;
  /* Answers Hook calls; NULL refuses them. */
  ClarifyClaudeCodeBackend *hook_backend;
};

G_DEFINE_FINAL_TYPE (ClarifyDbusBackend, clarify_dbus_backend, CLARIFY_TYPE_LOCAL_BACKEND)

enum {
  PROP_0,
  PROP_BUS,
  PROP_OBJECT_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  PASSWORD_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* One Ask or Hook call waiting for its answer. */
typedef struct
{
  ClarifyDbusApi        *skeleton;
  GDBusMethodInvocation *invocation;
  GCancellable          *cancellable;
  guint                  watch_id;
  /* The id the caller gave, or NULL; ours is unique across callers. */
  char                  *caller_id;
} Call;

static void
call_free (Call *call)
{
  g_clear_handle_id (&call->watch_id, g_bus_unwatch_name);
  g_clear_object (&call->skeleton);
  g_clear_object (&call->invocation);
  g_clear_object (&call->cancellable);
  g_free (call->caller_id);
  g_free (call);
}

static void
caller_vanished_cb (GDBusConnection *bus,
                    const char      *name,
                    gpointer         user_data)
{
  Call *call = user_data;

  /* The script was interrupted or its bus connection closed. */
  g_cancellable_cancel (call->cancellable);
}

/* Keeps @invocation until its answer; the caller leaving the bus fires
 * the call's cancellable. */
static Call *
call_new (ClarifyDbusBackend    *self,
          ClarifyDbusApi        *skeleton,
          GDBusMethodInvocation *invocation)
{
  Call *call = g_new0 (Call, 1);
  const char *sender = g_dbus_method_invocation_get_sender (invocation);

  call->skeleton = g_object_ref (skeleton);
  call->invocation = invocation;
  call->cancellable = g_cancellable_new ();

  if (sender != NULL)
    call->watch_id = g_bus_watch_name_on_connection (self->bus, sender,
                                                     G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                     NULL, caller_vanished_cb,
                                                     call, NULL);

  return call;
}

/* An error name the caller can tell apart: past the inbox's caps, it may
 * ask again later. */
static GDBusError
dbus_error_for (const GError *error)
{
  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID))
    return G_DBUS_ERROR_INVALID_ARGS;
  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_BUSY))
    return G_DBUS_ERROR_LIMITS_EXCEEDED;

  return G_DBUS_ERROR_FAILED;
}

static void
ask_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Call *call = user_data;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  response = clarify_local_backend_ask_finish (CLARIFY_LOCAL_BACKEND (object), result, &error);
  if (response == NULL)
    {
      g_dbus_method_invocation_return_error_literal (g_steal_pointer (&call->invocation),
                                                     G_DBUS_ERROR, dbus_error_for (error),
                                                     error->message);
      call_free (call);
      return;
    }

  node = clarify_response_to_json (response);
  if (call->caller_id != NULL)
    json_object_set_string_member (json_node_get_object (node), "id", call->caller_id);
  text = clarify_json_to_string (node);
  clarify_dbus_api_complete_ask (call->skeleton, g_steal_pointer (&call->invocation), text);
  call_free (call);
}

/* The skeleton hands us its reference on @invocation: each path below
 * either returns on it or keeps it in the Call until the answer. */
static gboolean
handle_ask_cb (ClarifyDbusApi        *skeleton,
               GDBusMethodInvocation *invocation,
               const char            *request_json,
               ClarifyDbusBackend    *self)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *caller_id = NULL;
  g_autofree char *request_id = NULL;
  JsonObject *object;
  Call *call;

  node = clarify_json_parse (request_json, -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             "Invalid request: %s",
                                             error != NULL ? error->message : "a request must be a JSON object");
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  /* Callers need not make their ids unique among each other: each request
   * gets one of ours, and the reply carries the caller's back. */
  object = json_node_get_object (node);
  caller_id = g_strdup (clarify_json_get_string_member (object, "id"));
  request_id = clarify_local_backend_next_request_id (CLARIFY_LOCAL_BACKEND (self));
  json_object_set_string_member (object, "id", request_id);

  request = clarify_request_new_from_json (node, &error);
  if (request == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             "Invalid request: %s", error->message);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  call = call_new (self, skeleton, invocation);
  call->caller_id = g_steal_pointer (&caller_id);

  clarify_local_backend_ask_async (CLARIFY_LOCAL_BACKEND (self), request, call->cancellable,
                                   ask_cb, call);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
hook_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Call *call = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;

  output = clarify_claude_code_backend_handle_hook_finish (CLARIFY_CLAUDE_CODE_BACKEND (object), result, &error);
  if (output == NULL)
    g_dbus_method_invocation_return_error_literal (g_steal_pointer (&call->invocation), G_DBUS_ERROR,
                                                   dbus_error_for (error), error->message);
  else
    clarify_dbus_api_complete_hook (call->skeleton, g_steal_pointer (&call->invocation), output);

  call_free (call);
}

static gboolean
handle_hook_cb (ClarifyDbusApi        *skeleton,
                GDBusMethodInvocation *invocation,
                const char            *agent,
                const char            *input_json,
                ClarifyDbusBackend    *self)
{
  Call *call;

  if (!g_str_equal (agent, CLARIFY_CLAUDE_CODE_KIND))
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             "Clarify answers the hooks of “%s”, not of “%s”",
                                             CLARIFY_CLAUDE_CODE_KIND, agent);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (self->hook_backend == NULL)
    {
      g_dbus_method_invocation_return_error_literal (invocation, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED,
                                                     "Clarify does not answer hooks here");
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  call = call_new (self, skeleton, invocation);
  clarify_claude_code_backend_handle_hook_async (self->hook_backend, input_json, call->cancellable,
                                                 hook_cb, call);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* One SetPassword call, until its secret is stored (or removed). */
typedef struct
{
  ClarifyDbusBackend    *self;
  GDBusMethodInvocation *invocation;
  char                  *name;
  gboolean               removing;
} PasswordCall;

static void
password_stored_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  PasswordCall *call = user_data;
  g_autoptr(GError) error = NULL;
  gboolean reconnected = FALSE;
  gboolean ok = call->removing ? clarify_secret_clear_finish (result, &error)
                               : clarify_secret_store_finish (result, &error);

  if (ok)
    {
      g_signal_emit (call->self, signals[PASSWORD_CHANGED], 0, call->name, &reconnected);
      clarify_dbus_api_complete_set_password (call->self->skeleton, call->invocation, reconnected);
    }
  else
    {
      g_dbus_method_invocation_return_error_literal (call->invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED,
                                                     error->message);
    }

  g_object_unref (call->self);
  g_free (call->name);
  g_free (call);
}

/* Stored by this process's own secret store: in a Flatpak, libsecret reads
 * its keyring file once per process, so a store made by `clarify` itself
 * would reach a running Clarify only after a restart. Never logged. */
static gboolean
handle_set_password_cb (ClarifyDbusApi        *skeleton,
                        GDBusMethodInvocation *invocation,
                        const char            *name,
                        const char            *password,
                        ClarifyDbusBackend    *self)
{
  g_autofree char *key = NULL;
  PasswordCall *call;

  if (!clarify_connection_name_is_valid (name))
    {
      g_dbus_method_invocation_return_error_literal (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                                     "A connection name is letters, digits, “-”, “_” and “.”");
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  call = g_new0 (PasswordCall, 1);
  call->self = g_object_ref (self);
  call->invocation = invocation;
  call->name = g_strdup (name);
  call->removing = *password == '\0';
  key = clarify_secret_connection_key (name);

  if (call->removing)
    {
      clarify_secret_clear_async (key, NULL, password_stored_cb, call);
    }
  else
    {
      g_autofree char *label = clarify_secret_connection_label (name);

      clarify_secret_store_async (key, label, password, NULL, password_stored_cb, call);
    }

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
unexport (ClarifyDbusBackend *self)
{
  GDBusInterfaceSkeleton *skeleton = G_DBUS_INTERFACE_SKELETON (self->skeleton);

  /* Unexporting what is not exported is a critical. */
  if (g_dbus_interface_skeleton_get_connection (skeleton) != NULL)
    g_dbus_interface_skeleton_unexport (skeleton);
}

static void
clarify_dbus_backend_start (ClarifyBackend *backend)
{
  ClarifyDbusBackend *self = CLARIFY_DBUS_BACKEND (backend);
  g_autoptr(GError) error = NULL;

  if (g_dbus_interface_skeleton_get_connection (G_DBUS_INTERFACE_SKELETON (self->skeleton)) != NULL)
    return;

  if (!g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self->skeleton), self->bus,
                                         self->object_path, &error))
    {
      g_message ("Cannot offer the D-Bus API: %s", error->message);
      clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_FAILED,
                                 CLARIFY_BACKEND_NOTE_CANNOT_EXPORT, NULL, error->message);
      return;
    }

  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_CONNECTED, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
clarify_dbus_backend_stop (ClarifyBackend *backend)
{
  ClarifyDbusBackend *self = CLARIFY_DBUS_BACKEND (backend);

  CLARIFY_BACKEND_CLASS (clarify_dbus_backend_parent_class)->stop (backend);

  unexport (self);

  clarify_backend_set_state (backend, CLARIFY_CONNECTION_STATE_IDLE, CLARIFY_BACKEND_NOTE_NONE, NULL, NULL);
}

static void
clarify_dbus_backend_dispose (GObject *object)
{
  ClarifyDbusBackend *self = CLARIFY_DBUS_BACKEND (object);

  if (self->skeleton != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->skeleton, self);
      unexport (self);
      g_clear_object (&self->skeleton);
    }

  G_OBJECT_CLASS (clarify_dbus_backend_parent_class)->dispose (object);
}

static void
clarify_dbus_backend_finalize (GObject *object)
{
  ClarifyDbusBackend *self = CLARIFY_DBUS_BACKEND (object);

  g_clear_object (&self->bus);
  g_clear_object (&self->hook_backend);
  g_clear_pointer (&self->object_path, g_free);

  G_OBJECT_CLASS (clarify_dbus_backend_parent_class)->finalize (object);
}

static void
clarify_dbus_backend_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  ClarifyDbusBackend *self = CLARIFY_DBUS_BACKEND (object);

  switch (prop_id)
    {
    case PROP_BUS:
      g_value_set_object (value, self->bus);
      break;

    case PROP_OBJECT_PATH:
      g_value_set_string (value, self->object_path);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_dbus_backend_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  ClarifyDbusBackend *self = CLARIFY_DBUS_BACKEND (object);

  switch (prop_id)
    {
    case PROP_BUS:
      self->bus = g_value_dup_object (value);
      break;

    case PROP_OBJECT_PATH:
      g_free (self->object_path);
      self->object_path = g_strdup (g_value_get_string (value) != NULL
                                    ? g_value_get_string (value) : CLARIFY_DBUS_PATH);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_dbus_backend_class_init (ClarifyDbusBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);

  object_class->dispose = clarify_dbus_backend_dispose;
  object_class->finalize = clarify_dbus_backend_finalize;
  object_class->get_property = clarify_dbus_backend_get_property;
  object_class->set_property = clarify_dbus_backend_set_property;

  backend_class->start = clarify_dbus_backend_start;
  backend_class->stop = clarify_dbus_backend_stop;

  properties[PROP_BUS] =
    g_param_spec_object ("bus", NULL, NULL,
                         G_TYPE_DBUS_CONNECTION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_OBJECT_PATH] =
    g_param_spec_string ("object-path", NULL, NULL,
                         CLARIFY_DBUS_PATH,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ClarifyDbusBackend::password-changed:
   * @name: the connection whose password was stored or removed
   *
   * Returns: TRUE when a handler started that connection again with it.
   */
  signals[PASSWORD_CHANGED] =
    g_signal_new ("password-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  g_signal_accumulator_true_handled, NULL,
                  NULL,
                  G_TYPE_BOOLEAN, 1, G_TYPE_STRING);
}

static void
clarify_dbus_backend_init (ClarifyDbusBackend *self)
{
  self->skeleton = clarify_dbus_api_skeleton_new ();
  g_signal_connect (self->skeleton, "handle-ask", G_CALLBACK (handle_ask_cb), self);
  g_signal_connect (self->skeleton, "handle-hook", G_CALLBACK (handle_hook_cb), self);
  g_signal_connect (self->skeleton, "handle-set-password", G_CALLBACK (handle_set_password_cb), self);
}

ClarifyBackend *
clarify_dbus_backend_new (GDBusConnection *bus,
                          const char      *object_path)
{
  g_autoptr(ClarifyConnection) connection = NULL;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (bus), NULL);

  /* Shown in the dialog as who asks: a script on this machine. */
  connection = clarify_connection_new (CLARIFY_DBUS_BACKEND_NAME, "dbus", "dbus:" CLARIFY_DBUS_NAME);

  return g_object_new (CLARIFY_TYPE_DBUS_BACKEND,
                       "connection", connection,
                       "bus", bus,
                       "object-path", object_path,
                       NULL);
}

void
clarify_dbus_backend_set_mcp_port (ClarifyDbusBackend *self,
                                   guint               port)
{
  g_return_if_fail (CLARIFY_IS_DBUS_BACKEND (self));
  g_return_if_fail (port <= G_MAXUINT16);

  clarify_dbus_api_set_mcp_port (self->skeleton, (guint16) port);
}

void
clarify_dbus_backend_set_hook_backend (ClarifyDbusBackend       *self,
                                       ClarifyClaudeCodeBackend *backend)
{
  g_return_if_fail (CLARIFY_IS_DBUS_BACKEND (self));
  g_return_if_fail (!backend || CLARIFY_IS_CLAUDE_CODE_BACKEND (backend));

  g_set_object (&self->hook_backend, backend);
}
