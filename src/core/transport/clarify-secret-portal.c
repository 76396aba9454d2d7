/* clarify-secret-portal.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <libsecret/secret.h>

#include "clarify-secret-portal.h"
#include "clarify-secret-private.h"

/* In a Flatpak, libsecret opens its keyring file with a key it asks the
 * Secret portal for. Before 0.21.4 it subscribes to the portal's Response
 * only once RetrieveSecret has returned, on the caller's main context; the
 * portal answers a millisecond later, so a busy caller loses the answer
 * and libsecret waits for ever (libsecret issue 58). The answer still
 * reaches the connection: a message filter sees it, and the caller can
 * ask again. The portal has finished that request, so asking again
 * starts a new one rather than waiting behind it. */

#define PORTAL_REQUEST_INTERFACE "org.freedesktop.portal.Request"

typedef struct
{
  char                        *request_path;
  char                        *collision_prefix;
  ClarifySecretPortalAnswered  answered;
  gpointer                     user_data;
  GDestroyNotify               destroy;
} PortalWatch;

static void
portal_watch_free (gpointer data)
{
  PortalWatch *watch = data;

  if (watch->destroy != NULL)
    watch->destroy (watch->user_data);
  g_free (watch->request_path);
  g_free (watch->collision_prefix);
  g_free (watch);
}

static GDBusMessage *
portal_filter_cb (GDBusConnection *bus,
                  GDBusMessage    *message,
                  gboolean         incoming,
                  gpointer         data)
{
  PortalWatch *watch = data;
  const char *path;

  if (!incoming ||
      g_dbus_message_get_message_type (message) != G_DBUS_MESSAGE_TYPE_SIGNAL ||
      g_strcmp0 (g_dbus_message_get_member (message), "Response") != 0 ||
      g_strcmp0 (g_dbus_message_get_interface (message), PORTAL_REQUEST_INTERFACE) != 0)
    return message;

  path = g_dbus_message_get_path (message);
  if (g_strcmp0 (path, watch->request_path) == 0 ||
      (path != NULL && g_str_has_prefix (path, watch->collision_prefix)))
    watch->answered (watch->user_data);

  return message;
}

struct _ClarifySecretPortalWatch
{
  /* Held: libsecret's g_bus_get() must find this connection, not a new
   * one under another name. */
  GDBusConnection *bus;
  guint            filter_id;
};

/* Calls @answered when the Secret portal answers one of libsecret's
 * requests, until clarify_secret_portal_unwatch(). NULL (and @destroy
 * called) where libsecret cannot miss it: no portal, a libsecret that
 * subscribes first, or no session bus. */
ClarifySecretPortalWatch *
clarify_secret_portal_watch (ClarifySecretPortalAnswered  answered,
                             gpointer                     user_data,
                             GDestroyNotify               destroy)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autofree char *sender = NULL;
  ClarifySecretPortalWatch *self;
  PortalWatch *watch;

  g_return_val_if_fail (answered != NULL, NULL);

#if !SECRET_CHECK_VERSION (0, 21, 4)
  if (clarify_secret_uses_portal ())
    bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
#endif
  if (bus == NULL || g_dbus_connection_get_unique_name (bus) == NULL)
    {
      if (destroy != NULL)
        destroy (user_data);
      return NULL;
    }

  /* The portal's request path for a caller that names no handle_token,
   * as libsecret does: ":1.42" asks at …/request/1_42/t, or at
   * …/request/1_42/t/N while an earlier such request is open. */
  sender = g_strdup (g_dbus_connection_get_unique_name (bus) + 1);
  g_strdelimit (sender, ".", '_');

  watch = g_new0 (PortalWatch, 1);
  watch->request_path = g_strdup_printf ("/org/freedesktop/portal/desktop/request/%s/t", sender);
  watch->collision_prefix = g_strconcat (watch->request_path, "/", NULL);
  watch->answered = answered;
  watch->user_data = user_data;
  watch->destroy = destroy;

  self = g_new0 (ClarifySecretPortalWatch, 1);
  self->filter_id = g_dbus_connection_add_filter (bus, portal_filter_cb, watch, portal_watch_free);
  self->bus = g_steal_pointer (&bus);

  return self;
}

void
clarify_secret_portal_unwatch (ClarifySecretPortalWatch *self)
{
  if (self == NULL)
    return;

  g_dbus_connection_remove_filter (self->bus, self->filter_id);
  g_object_unref (self->bus);
  g_free (self);
}
