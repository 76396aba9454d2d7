/* clarify-tray.c
 *
 * GTK 4 has no tray icon of its own, and the libraries that export one link
 * GTK 3, so this speaks the two D-Bus interfaces itself: StatusNotifierItem
 * for the icon here, com.canonical.dbusmenu for its menu in
 * clarify-tray-menu.c. gdbus-codegen writes their D-Bus side from the XML
 * beside these files.
 *
 * No well-known name is owned: the item registers with the connection's
 * unique name, which every watcher accepts and which needs no --own-name in
 * Flatpak. Without a watcher the tray stays unregistered and quiet; the
 * window and the notifications carry everything on their own.
 *
 * Clicking the icon answers the oldest question when one waits (that is what
 * the "needs attention" icon asks for) and shows the window otherwise; the
 * menu offers both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "clarify-coalesce.h"
#include "clarify-inbox.h"
#include "clarify-status-notifier-item.h"
#include "clarify-tray.h"
#include "clarify-tray-menu.h"

#define ITEM_PATH         "/StatusNotifierItem"
#define MENU_PATH         "/MenuBar"
#define WATCHER_NAME      "org.kde.StatusNotifierWatcher"
#define WATCHER_PATH      "/StatusNotifierWatcher"
#define WATCHER_INTERFACE "org.kde.StatusNotifierWatcher"

#define ICON_NAME           APP_ID "-symbolic"
#define ATTENTION_ICON_NAME APP_ID

struct _ClarifyTray
{
  GObject                    parent_instance;

  GDBusConnection           *connection;
  GActionGroup              *actions;         /* weak */
  GListModel                *requests;
  ClarifyCoalesce           *update;

  /* Generated from the XML beside this file. */
  ClarifyStatusNotifierItem *item;
  ClarifyTrayMenu           *menu;
  guint                      watcher_id;
  GCancellable              *register_cancellable;

  guint                      n_pending;

  guint                      registered : 1;
  guint                      told_no_host : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyTray, clarify_tray, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_ACTIONS,
  PROP_REQUESTS,
  PROP_REGISTERED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
get_status (ClarifyTray *self)
{
  return self->n_pending > 0 ? "NeedsAttention" : "Active";
}

static void
set_registered (ClarifyTray *self,
                gboolean     registered)
{
  if (self->registered == !!registered)
    return;

  self->registered = !!registered;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REGISTERED]);
}

static GVariant *
tooltip (ClarifyTray *self)
{
  g_autofree char *text = NULL;

  if (self->n_pending == 0)
    text = g_strdup (_("No open questions"));
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u open question", "%u open questions",
                                         self->n_pending),
                            self->n_pending);

  return g_variant_new ("(s@a(iiay)ss)", ICON_NAME, g_variant_new_array (G_VARIANT_TYPE ("(iiay)"), NULL, 0),
                        _("Clarify"), text);
}

/* Reacting to the pending requests */

/* Once for a burst of changes, at most once a frame (clarify-coalesce.h). */
static void
update (gpointer data,
        gpointer unused)
{
  ClarifyTray *self = data;
  guint old_n_pending = self->n_pending;

  self->n_pending = g_list_model_get_n_items (self->requests);
  if (old_n_pending == self->n_pending)
    return;

  clarify_status_notifier_item_set_tool_tip (self->item, tooltip (self));
  clarify_status_notifier_item_emit_new_tool_tip (self->item);

  if ((old_n_pending > 0) != (self->n_pending > 0))
    {
      clarify_status_notifier_item_set_status (self->item, get_status (self));
      clarify_status_notifier_item_emit_new_status (self->item, get_status (self));
      clarify_status_notifier_item_emit_new_icon (self->item);
    }
}

/* org.kde.StatusNotifierItem: each handler answers @invocation. */

/* Answer the oldest question when there is one, else show the window. */
static gboolean
handle_activate (ClarifyStatusNotifierItem *item,
                 GDBusMethodInvocation     *invocation,
                 int                        x,
                 int                        y,
                 ClarifyTray               *self)
{
  if (self->actions != NULL && self->n_pending > 0)
    {
      g_autoptr(ClarifyRequest) oldest = g_list_model_get_item (self->requests, 0);
      g_autofree char *key = clarify_inbox_dup_key (oldest);

      g_action_group_activate_action (self->actions, "open-request", g_variant_new_string (key));
    }
  else if (self->actions != NULL)
    {
      g_action_group_activate_action (self->actions, "show-window", NULL);
    }

  g_dbus_method_invocation_return_value (invocation, NULL);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* ContextMenu and Scroll do nothing: the host shows the Menu itself. */
static gboolean
handle_nothing (ClarifyStatusNotifierItem *item,
                GDBusMethodInvocation     *invocation)
{
  g_dbus_method_invocation_return_value (invocation, NULL);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static ClarifyStatusNotifierItem *
item_new (ClarifyTray *self)
{
  ClarifyStatusNotifierItem *item = clarify_status_notifier_item_skeleton_new ();
  /* Icons come from the theme by name; a path inside a sandbox means
   * nothing to the host. */
  const GVariantType *pixmaps = G_VARIANT_TYPE ("a(iiay)");

  clarify_status_notifier_item_set_category (item, "ApplicationStatus");
  clarify_status_notifier_item_set_id (item, APP_ID);
  clarify_status_notifier_item_set_title (item, _("Clarify"));
  clarify_status_notifier_item_set_status (item, get_status (self));
  clarify_status_notifier_item_set_window_id (item, 0);
  clarify_status_notifier_item_set_icon_theme_path (item, "");
  clarify_status_notifier_item_set_icon_name (item, ICON_NAME);
  clarify_status_notifier_item_set_icon_pixmap (item, g_variant_new_array (g_variant_type_element (pixmaps), NULL, 0));
  clarify_status_notifier_item_set_overlay_icon_name (item, "");
  clarify_status_notifier_item_set_overlay_icon_pixmap (item, g_variant_new_array (g_variant_type_element (pixmaps), NULL, 0));
  clarify_status_notifier_item_set_attention_icon_name (item, ATTENTION_ICON_NAME);
  clarify_status_notifier_item_set_attention_icon_pixmap (item, g_variant_new_array (g_variant_type_element (pixmaps), NULL, 0));
  clarify_status_notifier_item_set_attention_movie_name (item, "");
  clarify_status_notifier_item_set_tool_tip (item, tooltip (self));
  clarify_status_notifier_item_set_item_is_menu (item, FALSE);
  clarify_status_notifier_item_set_menu (item, MENU_PATH);

  g_signal_connect (item, "handle-activate", G_CALLBACK (handle_activate), self);
  g_signal_connect (item, "handle-secondary-activate", G_CALLBACK (handle_activate), self);
  g_signal_connect (item, "handle-context-menu", G_CALLBACK (handle_nothing), NULL);
  g_signal_connect (item, "handle-scroll", G_CALLBACK (handle_nothing), NULL);

  return item;
}

static void
requests_changed_cb (ClarifyTray *self)
{
  if (self->update != NULL)
    clarify_coalesce_queue (self->update);
}

/* Registration with the watcher */

static void
register_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (error != NULL)
    g_debug ("The tray watcher did not take the item: %s", error->message);

  set_registered (CLARIFY_TRAY (user_data), error == NULL);
}

static void
watcher_appeared_cb (GDBusConnection *connection,
                     const char      *name,
                     const char      *name_owner,
                     gpointer         user_data)
{
  ClarifyTray *self = user_data;

  g_cancellable_cancel (self->register_cancellable);
  g_clear_object (&self->register_cancellable);
  self->register_cancellable = g_cancellable_new ();

  /* A path, not a name: the watcher pairs it with our unique name. */
  g_dbus_connection_call (connection, name_owner, WATCHER_PATH, WATCHER_INTERFACE,
                          "RegisterStatusNotifierItem", g_variant_new ("(s)", ITEM_PATH),
                          NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1,
                          self->register_cancellable, register_cb, self);
}

static void
watcher_vanished_cb (GDBusConnection *connection,
                     const char      *name,
                     gpointer         user_data)
{
  ClarifyTray *self = user_data;

  g_cancellable_cancel (self->register_cancellable);
  set_registered (self, FALSE);

  /* Plain GNOME has no tray: questions still come as notifications and in
   * the window. Said once, not at each panel restart. */
  if (!self->told_no_host)
    {
      self->told_no_host = TRUE;
      g_message ("No tray on this desktop (no %s): questions come as notifications and in the window",
                 WATCHER_NAME);
    }
}

/* GObject */

static void
clarify_tray_constructed (GObject *object)
{
  ClarifyTray *self = CLARIFY_TRAY (object);
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (clarify_tray_parent_class)->constructed (object);

  /* The menu first: hosts hear of its new layout before the new status. */
  self->menu = clarify_tray_menu_new (self->actions, self->requests);
  self->update = clarify_coalesce_new (update, self);
  g_signal_connect_object (self->requests, "items-changed", G_CALLBACK (requests_changed_cb), self,
                           G_CONNECT_SWAPPED);
  self->n_pending = g_list_model_get_n_items (self->requests);
  self->item = item_new (self);

  if (!g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self->item), self->connection,
                                         ITEM_PATH, &error))
    {
      g_warning ("Cannot export the tray icon: %s", error->message);
      return;
    }

  if (!clarify_tray_menu_export (self->menu, self->connection, MENU_PATH, &error))
    {
      g_warning ("Cannot export the tray menu: %s", error->message);
      return;
    }

  self->watcher_id = g_bus_watch_name_on_connection (self->connection, WATCHER_NAME,
                                                     G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                     watcher_appeared_cb, watcher_vanished_cb,
                                                     self, NULL);
}

static void
clarify_tray_dispose (GObject *object)
{
  ClarifyTray *self = CLARIFY_TRAY (object);

  g_clear_handle_id (&self->watcher_id, g_bus_unwatch_name);
  if (self->register_cancellable != NULL)
    g_cancellable_cancel (self->register_cancellable);
  g_clear_object (&self->register_cancellable);

  if (self->item != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->item, self);
      if (g_dbus_interface_skeleton_get_connection (G_DBUS_INTERFACE_SKELETON (self->item)) != NULL)
        g_dbus_interface_skeleton_unexport (G_DBUS_INTERFACE_SKELETON (self->item));
      g_clear_object (&self->item);
    }
  if (self->menu != NULL)
    clarify_tray_menu_unexport (self->menu);
  g_clear_object (&self->menu);
  g_clear_pointer (&self->update, clarify_coalesce_free);

  g_clear_weak_pointer (&self->actions);
  g_clear_object (&self->requests);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (clarify_tray_parent_class)->dispose (object);
}

static void
clarify_tray_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  ClarifyTray *self = CLARIFY_TRAY (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;

    case PROP_ACTIONS:
      g_value_set_object (value, self->actions);
      break;

    case PROP_REQUESTS:
      g_value_set_object (value, self->requests);
      break;

    case PROP_REGISTERED:
      g_value_set_boolean (value, self->registered);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_tray_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  ClarifyTray *self = CLARIFY_TRAY (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      self->connection = g_value_dup_object (value);
      break;

    case PROP_ACTIONS:
      g_set_weak_pointer (&self->actions, g_value_get_object (value));
      break;

    case PROP_REQUESTS:
      self->requests = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_tray_class_init (ClarifyTrayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = clarify_tray_constructed;
  object_class->dispose = clarify_tray_dispose;
  object_class->get_property = clarify_tray_get_property;
  object_class->set_property = clarify_tray_set_property;

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL,
                         G_TYPE_DBUS_CONNECTION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_ACTIONS] =
    g_param_spec_object ("actions", NULL, NULL,
                         G_TYPE_ACTION_GROUP,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_REQUESTS] =
    g_param_spec_object ("requests", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_REGISTERED] =
    g_param_spec_boolean ("registered", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_tray_init (ClarifyTray *self)
{
}

ClarifyTray *
clarify_tray_new (GDBusConnection *connection,
                  GActionGroup    *actions,
                  GListModel      *requests)
{
  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);
  g_return_val_if_fail (G_IS_ACTION_GROUP (actions), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (requests), NULL);

  return g_object_new (CLARIFY_TYPE_TRAY,
                       "connection", connection,
                       "actions", actions,
                       "requests", requests,
                       NULL);
}

gboolean
clarify_tray_get_registered (ClarifyTray *self)
{
  g_return_val_if_fail (CLARIFY_IS_TRAY (self), FALSE);

  return self->registered;
}
