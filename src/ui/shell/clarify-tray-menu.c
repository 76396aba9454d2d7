/* clarify-tray-menu.c
 *
 * The tray icon's menu in the dbusmenu format (what KDE, GNOME's
 * AppIndicator extension, Xfce and waybar render): one flat level under
 * the root, rebuilt when the pending requests change: once for a burst of
 * changes, at most once a frame (clarify-coalesce.h), and before any host
 * reads it. The D-Bus side is generated from com.canonical.dbusmenu.xml.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "clarify-coalesce.h"
#include "clarify-dbusmenu.h"
#include "clarify-inbox.h"
#include "clarify-tray-menu.h"

#define MAX_QUESTION_ITEMS 5
#define MAX_LABEL_CHARS    60

/* Menu item ids: fixed for the fixed items, counted up from
 * FIRST_QUESTION_ID for questions, so an id never points at another
 * question than the one the host showed. */
enum {
  ROOT_ID,
  SHOW_ID,
  SHOW_SEPARATOR_ID,
  MORE_ID,
  QUIT_SEPARATOR_ID,
  QUIT_ID,
  FIRST_QUESTION_ID = 100,
};

/* One entry of the menu under the root. */
typedef struct
{
  int         id;
  char       *label;   /* NULL: a separator */
  const char *action;  /* in the action group; NULL: nothing to do */
  char       *target;  /* open-request's request key */
} MenuItem;

struct _ClarifyTrayMenu
{
  GObject          parent_instance;

  ClarifyDbusmenu *skeleton;
  GActionGroup    *actions;         /* weak */
  GListModel      *requests;
  ClarifyCoalesce *update;

  GArray          *items;           /* MenuItem */
  GHashTable      *question_ids;    /* request key → menu item id */
  int              next_question_id;
  guint            revision;
};

G_DEFINE_FINAL_TYPE (ClarifyTrayMenu, clarify_tray_menu, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ACTIONS,
  PROP_REQUESTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
menu_item_clear (MenuItem *item)
{
  g_clear_pointer (&item->label, g_free);
  g_clear_pointer (&item->target, g_free);
}

/* Menu content */

/* One line of agent text as a dbusmenu label: '_' marks a mnemonic there. */
static char *
question_label (ClarifyRequest *request)
{
  const char *connection = clarify_request_get_connection_name (request);
  g_autofree char *flat = g_strdup (clarify_request_get_summary (request));
  g_autofree char *text = NULL;
  g_autofree char *label = NULL;
  g_auto(GStrv) parts = NULL;

  g_strdelimit (g_strstrip (flat), "\r\n\t", ' ');
  if (g_utf8_strlen (flat, -1) > MAX_LABEL_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (flat, 0, MAX_LABEL_CHARS - 1);

      text = g_strconcat (g_strchomp (cut), "…", NULL);
    }
  else
    {
      text = g_steal_pointer (&flat);
    }

  if (connection != NULL && *connection != '\0')
    /* Translators: a question in the tray menu: "<connection>: <question>" */
    label = g_strdup_printf (_("%s: %s"), connection, text);
  else
    label = g_steal_pointer (&text);

  parts = g_strsplit (label, "_", -1);
  return g_strjoinv ("__", parts);
}

static void
add_item (ClarifyTrayMenu *self,
          int              id,
          char            *label,
          const char      *action,
          char            *target)
{
  MenuItem item = { id, label, action, target };

  g_array_append_val (self->items, item);
}

static void
rebuild_items (ClarifyTrayMenu *self)
{
  g_autoptr(GHashTable) question_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_pending = g_list_model_get_n_items (self->requests);
  guint n_questions = MIN (n_pending, MAX_QUESTION_ITEMS);

  g_array_set_size (self->items, 0);

  add_item (self, SHOW_ID, g_strdup (_("Show Clarify")), "show-window", NULL);

  if (n_questions > 0)
    add_item (self, SHOW_SEPARATOR_ID, NULL, NULL, NULL);

  for (guint i = 0; i < n_questions; i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (self->requests, i);
      char *key = clarify_inbox_dup_key (request);
      gpointer id;

      /* A question keeps its id while it stays in the menu. */
      if (!g_hash_table_lookup_extended (self->question_ids, key, NULL, &id))
        id = GINT_TO_POINTER (self->next_question_id++);

      g_hash_table_insert (question_ids, g_strdup (key), id);
      add_item (self, GPOINTER_TO_INT (id), question_label (request), "open-request", key);
    }

  if (n_pending > n_questions)
    {
      guint n_more = n_pending - n_questions;

      add_item (self, MORE_ID,
                /* Translators: the last question entry of the tray menu; it opens the window */
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more question…", "%u more questions…", n_more),
                                 n_more),
                "show-window", NULL);
    }

  add_item (self, QUIT_SEPARATOR_ID, NULL, NULL, NULL);
  add_item (self, QUIT_ID, g_strdup (_("Quit")), "quit", NULL);

  g_clear_pointer (&self->question_ids, g_hash_table_unref);
  self->question_ids = g_steal_pointer (&question_ids);
}

static const MenuItem *
find_item (ClarifyTrayMenu *self,
           int              id)
{
  for (guint i = 0; i < self->items->len; i++)
    {
      const MenuItem *item = &g_array_index (self->items, MenuItem, i);

      if (item->id == id)
        return item;
    }

  return NULL;
}

/* Every handler of a host's call asks this first: a change still queued
 * is made now, so that no host reads a menu older than the requests. */
static gboolean
item_exists (ClarifyTrayMenu *self,
             int              id)
{
  if (self->update != NULL)
    clarify_coalesce_flush (self->update);
  return id == ROOT_ID || find_item (self, id) != NULL;
}

static void
add_property (GVariantBuilder    *builder,
              const char * const *names,
              const char         *name,
              GVariant           *value)
{
  if (names == NULL || names[0] == NULL || g_strv_contains (names, name))
    g_variant_builder_add (builder, "{sv}", name, value);
  else
    g_variant_unref (g_variant_ref_sink (value));
}

/* The a{sv} of item @id, only the properties in @names (all when empty). */
static GVariant *
item_properties (ClarifyTrayMenu    *self,
                 int                 id,
                 const char * const *names)
{
  GVariantBuilder builder;
  const MenuItem *item = find_item (self, id);

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);

  if (id == ROOT_ID)
    {
      add_property (&builder, names, "children-display", g_variant_new_string ("submenu"));
    }
  else if (item != NULL && item->label == NULL)
    {
      add_property (&builder, names, "type", g_variant_new_string ("separator"));
    }
  else if (item != NULL)
    {
      add_property (&builder, names, "label", g_variant_new_string (item->label));
      add_property (&builder, names, "enabled", g_variant_new_boolean (TRUE));
      add_property (&builder, names, "visible", g_variant_new_boolean (TRUE));
    }

  return g_variant_builder_end (&builder);
}

static GVariant *
item_layout (ClarifyTrayMenu    *self,
             int                 id,
             int                 depth,
             const char * const *names)
{
  GVariantBuilder children;

  g_variant_builder_init (&children, G_VARIANT_TYPE ("av"));

  /* Only the root has children; a depth of -1 means all levels. */
  if (id == ROOT_ID && depth != 0)
    {
      for (guint i = 0; i < self->items->len; i++)
        g_variant_builder_add (&children, "v",
                               item_layout (self, g_array_index (self->items, MenuItem, i).id,
                                            depth - 1, names));
    }

  return g_variant_new ("(i@a{sv}av)", id, item_properties (self, id, names), &children);
}

static void
update (gpointer data,
        gpointer unused)
{
  ClarifyTrayMenu *self = data;

  rebuild_items (self);

  self->revision++;
  clarify_dbusmenu_emit_layout_updated (self->skeleton, self->revision, ROOT_ID);
}

static void
requests_changed_cb (ClarifyTrayMenu *self)
{
  if (self->update != NULL)
    clarify_coalesce_queue (self->update);
}

/* com.canonical.dbusmenu: each handler answers @invocation. */

static void
return_unknown_item (GDBusMethodInvocation *invocation,
                     int                    id)
{
  g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                         "No menu item with id %d", id);
}

static gboolean
handle_get_layout (ClarifyDbusmenu       *skeleton,
                   GDBusMethodInvocation *invocation,
                   int                    parent_id,
                   int                    depth,
                   const char * const    *names,
                   ClarifyTrayMenu       *self)
{
  if (!item_exists (self, parent_id))
    return_unknown_item (invocation, parent_id);
  else
    clarify_dbusmenu_complete_get_layout (skeleton, invocation, self->revision,
                                          item_layout (self, parent_id, depth, names));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_get_group_properties (ClarifyDbusmenu       *skeleton,
                             GDBusMethodInvocation *invocation,
                             GVariant              *ids,
                             const char * const    *names,
                             ClarifyTrayMenu       *self)
{
  GVariantBuilder builder;
  GVariantIter iter;
  int id;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ia{sv})"));

  /* No ids: every item. */
  if (g_variant_n_children (ids) == 0)
    {
      for (guint i = 0; i < self->items->len; i++)
        {
          id = g_array_index (self->items, MenuItem, i).id;
          g_variant_builder_add (&builder, "(i@a{sv})", id, item_properties (self, id, names));
        }
    }

  g_variant_iter_init (&iter, ids);
  while (g_variant_iter_next (&iter, "i", &id))
    {
      if (item_exists (self, id))
        g_variant_builder_add (&builder, "(i@a{sv})", id, item_properties (self, id, names));
    }

  clarify_dbusmenu_complete_get_group_properties (skeleton, invocation, g_variant_builder_end (&builder));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_get_property (ClarifyDbusmenu       *skeleton,
                     GDBusMethodInvocation *invocation,
                     int                    id,
                     const char            *name,
                     ClarifyTrayMenu       *self)
{
  const char *names[2] = { name, NULL };
  g_autoptr(GVariant) props = NULL;
  g_autoptr(GVariant) value = NULL;

  if (!item_exists (self, id))
    {
      return_unknown_item (invocation, id);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  props = g_variant_ref_sink (item_properties (self, id, names));
  value = g_variant_lookup_value (props, name, NULL);
  if (value == NULL)
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                           "Menu item %d has no property “%s”", id, name);
  else
    clarify_dbusmenu_complete_get_property (skeleton, invocation, g_variant_new_variant (value));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_event (ClarifyTrayMenu *self,
              int              id,
              const char      *event_id)
{
  const MenuItem *item = find_item (self, id);

  if (!item_exists (self, id))
    return FALSE;

  if (item != NULL && item->action != NULL && self->actions != NULL && g_str_equal (event_id, "clicked"))
    g_action_group_activate_action (self->actions, item->action,
                                    item->target ? g_variant_new_string (item->target) : NULL);

  return TRUE;
}

static gboolean
handle_event_cb (ClarifyDbusmenu       *skeleton,
                 GDBusMethodInvocation *invocation,
                 int                    id,
                 const char            *event_id,
                 GVariant              *data,
                 guint                  timestamp,
                 ClarifyTrayMenu       *self)
{
  if (!handle_event (self, id, event_id))
    return_unknown_item (invocation, id);
  else
    clarify_dbusmenu_complete_event (skeleton, invocation);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_event_group (ClarifyDbusmenu       *skeleton,
                    GDBusMethodInvocation *invocation,
                    GVariant              *events,
                    ClarifyTrayMenu       *self)
{
  GVariantBuilder errors;
  GVariantIter iter;
  const char *event_id;
  int id;

  g_variant_builder_init (&errors, G_VARIANT_TYPE ("ai"));
  g_variant_iter_init (&iter, events);
  while (g_variant_iter_next (&iter, "(i&svu)", &id, &event_id, NULL, NULL))
    {
      if (!handle_event (self, id, event_id))
        g_variant_builder_add (&errors, "i", id);
    }

  clarify_dbusmenu_complete_event_group (skeleton, invocation, g_variant_builder_end (&errors));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_about_to_show (ClarifyDbusmenu       *skeleton,
                      GDBusMethodInvocation *invocation,
                      int                    id,
                      ClarifyTrayMenu       *self)
{
  /* The layout is always current: LayoutUpdated says when it changes. */
  clarify_dbusmenu_complete_about_to_show (skeleton, invocation, FALSE);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_about_to_show_group (ClarifyDbusmenu       *skeleton,
                            GDBusMethodInvocation *invocation,
                            GVariant              *ids,
                            ClarifyTrayMenu       *self)
{
  GVariantBuilder updates, errors;
  GVariantIter iter;
  int id;

  g_variant_builder_init (&updates, G_VARIANT_TYPE ("ai"));
  g_variant_builder_init (&errors, G_VARIANT_TYPE ("ai"));
  g_variant_iter_init (&iter, ids);
  while (g_variant_iter_next (&iter, "i", &id))
    {
      if (!item_exists (self, id))
        g_variant_builder_add (&errors, "i", id);
    }

  clarify_dbusmenu_complete_about_to_show_group (skeleton, invocation,
                                                 g_variant_builder_end (&updates),
                                                 g_variant_builder_end (&errors));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* GObject */

static void
clarify_tray_menu_constructed (GObject *object)
{
  ClarifyTrayMenu *self = CLARIFY_TRAY_MENU (object);

  G_OBJECT_CLASS (clarify_tray_menu_parent_class)->constructed (object);

  self->update = clarify_coalesce_new (update, self);
  g_signal_connect_object (self->requests, "items-changed", G_CALLBACK (requests_changed_cb), self, G_CONNECT_SWAPPED);
  rebuild_items (self);
}

static void
clarify_tray_menu_dispose (GObject *object)
{
  ClarifyTrayMenu *self = CLARIFY_TRAY_MENU (object);

  if (self->skeleton != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->skeleton, self);
      clarify_tray_menu_unexport (self);
      g_clear_object (&self->skeleton);
    }

  g_clear_weak_pointer (&self->actions);
  g_clear_object (&self->requests);
  g_clear_pointer (&self->update, clarify_coalesce_free);

  G_OBJECT_CLASS (clarify_tray_menu_parent_class)->dispose (object);
}

static void
clarify_tray_menu_finalize (GObject *object)
{
  ClarifyTrayMenu *self = CLARIFY_TRAY_MENU (object);

  g_clear_pointer (&self->items, g_array_unref);
  g_clear_pointer (&self->question_ids, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_tray_menu_parent_class)->finalize (object);
}

static void
clarify_tray_menu_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  ClarifyTrayMenu *self = CLARIFY_TRAY_MENU (object);

  switch (prop_id)
    {
    case PROP_ACTIONS:
      g_value_set_object (value, self->actions);
      break;

    case PROP_REQUESTS:
      g_value_set_object (value, self->requests);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_tray_menu_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  ClarifyTrayMenu *self = CLARIFY_TRAY_MENU (object);

  switch (prop_id)
    {
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
clarify_tray_menu_class_init (ClarifyTrayMenuClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = clarify_tray_menu_constructed;
  object_class->dispose = clarify_tray_menu_dispose;
  object_class->finalize = clarify_tray_menu_finalize;
  object_class->get_property = clarify_tray_menu_get_property;
  object_class->set_property = clarify_tray_menu_set_property;

  properties[PROP_ACTIONS] =
    g_param_spec_object ("actions", NULL, NULL,
                         G_TYPE_ACTION_GROUP,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_REQUESTS] =
    g_param_spec_object ("requests", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_tray_menu_init (ClarifyTrayMenu *self)
{
  self->items = g_array_new (FALSE, TRUE, sizeof (MenuItem));
  g_array_set_clear_func (self->items, (GDestroyNotify) menu_item_clear);
  self->question_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->next_question_id = FIRST_QUESTION_ID;

  self->skeleton = clarify_dbusmenu_skeleton_new ();
  clarify_dbusmenu_set_version (self->skeleton, 3);
  clarify_dbusmenu_set_text_direction (self->skeleton,
                                       gtk_widget_get_default_direction () == GTK_TEXT_DIR_RTL ? "rtl" : "ltr");
  clarify_dbusmenu_set_status (self->skeleton, "normal");
  clarify_dbusmenu_set_icon_theme_path (self->skeleton, (const char * const[]) { NULL });

  g_signal_connect (self->skeleton, "handle-get-layout", G_CALLBACK (handle_get_layout), self);
  g_signal_connect (self->skeleton, "handle-get-group-properties", G_CALLBACK (handle_get_group_properties), self);
  g_signal_connect (self->skeleton, "handle-get-property", G_CALLBACK (handle_get_property), self);
  g_signal_connect (self->skeleton, "handle-event", G_CALLBACK (handle_event_cb), self);
  g_signal_connect (self->skeleton, "handle-event-group", G_CALLBACK (handle_event_group), self);
  g_signal_connect (self->skeleton, "handle-about-to-show", G_CALLBACK (handle_about_to_show), self);
  g_signal_connect (self->skeleton, "handle-about-to-show-group", G_CALLBACK (handle_about_to_show_group), self);
}

ClarifyTrayMenu *
clarify_tray_menu_new (GActionGroup *actions,
                       GListModel   *requests)
{
  g_return_val_if_fail (G_IS_ACTION_GROUP (actions), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (requests), NULL);

  return g_object_new (CLARIFY_TYPE_TRAY_MENU,
                       "actions", actions,
                       "requests", requests,
                       NULL);
}

gboolean
clarify_tray_menu_export (ClarifyTrayMenu  *self,
                          GDBusConnection  *connection,
                          const char       *object_path,
                          GError          **error)
{
  g_return_val_if_fail (CLARIFY_IS_TRAY_MENU (self), FALSE);

  return g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self->skeleton),
                                           connection, object_path, error);
}

void
clarify_tray_menu_unexport (ClarifyTrayMenu *self)
{
  GDBusInterfaceSkeleton *skeleton;

  g_return_if_fail (CLARIFY_IS_TRAY_MENU (self));

  /* Unexporting what is not exported is a critical. */
  skeleton = G_DBUS_INTERFACE_SKELETON (self->skeleton);
  if (g_dbus_interface_skeleton_get_connection (skeleton) != NULL)
    g_dbus_interface_skeleton_unexport (skeleton);
}
