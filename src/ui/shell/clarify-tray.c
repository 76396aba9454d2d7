/* clarify-tray.c
 *
 * GTK 4 has no tray icon of its own, and the libraries that export one link
 * GTK 3, so this speaks the two D-Bus interfaces itself: StatusNotifierItem
 * for the icon and com.canonical.dbusmenu for its menu (the menu format KDE,
 * GNOME's AppIndicator extension, Xfce and waybar all render).
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

#include "clarify-request.h"
#include "clarify-inbox.h"
#include "clarify-tray.h"

#define ITEM_PATH         "/StatusNotifierItem"
#define ITEM_INTERFACE    "org.kde.StatusNotifierItem"
#define MENU_PATH         "/MenuBar"
#define MENU_INTERFACE    "com.canonical.dbusmenu"
#define WATCHER_NAME      "org.kde.StatusNotifierWatcher"
#define WATCHER_PATH      "/StatusNotifierWatcher"
#define WATCHER_INTERFACE "org.kde.StatusNotifierWatcher"

#define ICON_NAME           APP_ID "-symbolic"
#define ATTENTION_ICON_NAME APP_ID

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

/* D-Bus introspection, static: nothing to parse at startup. */

#define ARG(name, signature) (&(GDBusArgInfo) { -1, (char *) name, (char *) signature, NULL })
#define ARGS(...)            ((GDBusArgInfo *[]) { __VA_ARGS__, NULL })
#define METHOD(name, in, out) (&(GDBusMethodInfo) { -1, (char *) name, in, out, NULL })
#define SIGNAL(name, args)   (&(GDBusSignalInfo) { -1, (char *) name, args, NULL })
#define PROPERTY(name, signature) \
  (&(GDBusPropertyInfo) { -1, (char *) name, (char *) signature, G_DBUS_PROPERTY_INFO_FLAGS_READABLE, NULL })

static GDBusInterfaceInfo item_interface_info = {
  -1, (char *) ITEM_INTERFACE,
  (GDBusMethodInfo *[]) {
    METHOD ("ContextMenu", ARGS (ARG ("x", "i"), ARG ("y", "i")), NULL),
    METHOD ("Activate", ARGS (ARG ("x", "i"), ARG ("y", "i")), NULL),
    METHOD ("SecondaryActivate", ARGS (ARG ("x", "i"), ARG ("y", "i")), NULL),
    METHOD ("Scroll", ARGS (ARG ("delta", "i"), ARG ("orientation", "s")), NULL),
    NULL
  },
  (GDBusSignalInfo *[]) {
    SIGNAL ("NewTitle", NULL),
    SIGNAL ("NewIcon", NULL),
    SIGNAL ("NewAttentionIcon", NULL),
    SIGNAL ("NewOverlayIcon", NULL),
    SIGNAL ("NewToolTip", NULL),
    SIGNAL ("NewStatus", ARGS (ARG ("status", "s"))),
    NULL
  },
  (GDBusPropertyInfo *[]) {
    PROPERTY ("Category", "s"),
    PROPERTY ("Id", "s"),
    PROPERTY ("Title", "s"),
    PROPERTY ("Status", "s"),
    PROPERTY ("WindowId", "i"),
    PROPERTY ("IconThemePath", "s"),
    PROPERTY ("IconName", "s"),
    PROPERTY ("IconPixmap", "a(iiay)"),
    PROPERTY ("OverlayIconName", "s"),
    PROPERTY ("OverlayIconPixmap", "a(iiay)"),
    PROPERTY ("AttentionIconName", "s"),
    PROPERTY ("AttentionIconPixmap", "a(iiay)"),
    PROPERTY ("AttentionMovieName", "s"),
    PROPERTY ("ToolTip", "(sa(iiay)ss)"),
    PROPERTY ("ItemIsMenu", "b"),
    PROPERTY ("Menu", "o"),
    NULL
  },
  NULL
};

static GDBusInterfaceInfo menu_interface_info = {
  -1, (char *) MENU_INTERFACE,
  (GDBusMethodInfo *[]) {
    METHOD ("GetLayout",
            ARGS (ARG ("parentId", "i"), ARG ("recursionDepth", "i"), ARG ("propertyNames", "as")),
            ARGS (ARG ("revision", "u"), ARG ("layout", "(ia{sv}av)"))),
    METHOD ("GetGroupProperties",
            ARGS (ARG ("ids", "ai"), ARG ("propertyNames", "as")),
            ARGS (ARG ("properties", "a(ia{sv})"))),
    METHOD ("GetProperty",
            ARGS (ARG ("id", "i"), ARG ("name", "s")),
            ARGS (ARG ("value", "v"))),
    METHOD ("Event",
            ARGS (ARG ("id", "i"), ARG ("eventId", "s"), ARG ("data", "v"), ARG ("timestamp", "u")),
            NULL),
    METHOD ("EventGroup",
            ARGS (ARG ("events", "a(isvu)")),
            ARGS (ARG ("idErrors", "ai"))),
    METHOD ("AboutToShow",
            ARGS (ARG ("id", "i")),
            ARGS (ARG ("needUpdate", "b"))),
    METHOD ("AboutToShowGroup",
            ARGS (ARG ("ids", "ai")),
            ARGS (ARG ("updatesNeeded", "ai"), ARG ("idErrors", "ai"))),
    NULL
  },
  (GDBusSignalInfo *[]) {
    SIGNAL ("ItemsPropertiesUpdated", ARGS (ARG ("updatedProps", "a(ia{sv})"), ARG ("removedProps", "a(ias)"))),
    SIGNAL ("LayoutUpdated", ARGS (ARG ("revision", "u"), ARG ("parent", "i"))),
    SIGNAL ("ItemActivationRequested", ARGS (ARG ("id", "i"), ARG ("timestamp", "u"))),
    NULL
  },
  (GDBusPropertyInfo *[]) {
    PROPERTY ("Version", "u"),
    PROPERTY ("TextDirection", "s"),
    PROPERTY ("Status", "s"),
    PROPERTY ("IconThemePath", "as"),
    NULL
  },
  NULL
};

/* One entry of the menu under the root. */
typedef struct
{
  int         id;
  char       *label;   /* NULL: a separator */
  const char *action;  /* in the action group; NULL: nothing to do */
  char       *target;  /* open-request's request key */
} MenuItem;

struct _ClarifyTray
{
  GObject          parent_instance;

  GDBusConnection *connection;
  GActionGroup    *actions;         /* weak */
  GListModel      *requests;

  guint            item_registration_id;
  guint            menu_registration_id;
  guint            watcher_id;
  GCancellable    *register_cancellable;

  GArray          *items;           /* MenuItem */
  GHashTable      *question_ids;    /* request key → menu item id */
  int              next_question_id;
  guint            revision;
  guint            n_pending;

  guint            registered : 1;
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

static void
menu_item_clear (MenuItem *item)
{
  g_clear_pointer (&item->label, g_free);
  g_clear_pointer (&item->target, g_free);
}

static void
emit_signal (ClarifyTray *self,
             const char  *path,
             const char  *interface,
             const char  *name,
             GVariant    *parameters)
{
  g_autoptr(GError) error = NULL;

  if (!g_dbus_connection_emit_signal (self->connection, NULL, path, interface, name, parameters, &error))
    g_debug ("Cannot emit %s.%s: %s", interface, name, error->message);
}

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

static void
activate_action (ClarifyTray *self,
                 const char  *action,
                 const char  *target)
{
  if (self->actions == NULL || action == NULL)
    return;

  g_action_group_activate_action (self->actions, action, target ? g_variant_new_string (target) : NULL);
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
add_item (ClarifyTray *self,
          int          id,
          char        *label,
          const char  *action,
          char        *target)
{
  MenuItem item = { id, label, action, target };

  g_array_append_val (self->items, item);
}

static void
rebuild_items (ClarifyTray *self)
{
  g_autoptr(GHashTable) question_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_questions = MIN (self->n_pending, MAX_QUESTION_ITEMS);

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

  if (self->n_pending > n_questions)
    {
      guint n_more = self->n_pending - n_questions;

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
find_item (ClarifyTray *self,
           int          id)
{
  for (guint i = 0; i < self->items->len; i++)
    {
      const MenuItem *item = &g_array_index (self->items, MenuItem, i);

      if (item->id == id)
        return item;
    }

  return NULL;
}

static gboolean
item_exists (ClarifyTray *self,
             int          id)
{
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
item_properties (ClarifyTray        *self,
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
item_layout (ClarifyTray        *self,
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

/* Reacting to the pending requests */

static void
update_tooltip_and_status (ClarifyTray *self,
                           guint        old_n_pending)
{
  emit_signal (self, ITEM_PATH, ITEM_INTERFACE, "NewToolTip", NULL);

  if ((old_n_pending > 0) != (self->n_pending > 0))
    {
      emit_signal (self, ITEM_PATH, ITEM_INTERFACE, "NewStatus", g_variant_new ("(s)", get_status (self)));
      emit_signal (self, ITEM_PATH, ITEM_INTERFACE, "NewIcon", NULL);
    }
}

static void
requests_changed_cb (GListModel  *requests,
                     guint        position,
                     guint        removed,
                     guint        added,
                     ClarifyTray *self)
{
  guint old_n_pending = self->n_pending;

  self->n_pending = g_list_model_get_n_items (requests);
  rebuild_items (self);

  self->revision++;
  emit_signal (self, MENU_PATH, MENU_INTERFACE, "LayoutUpdated", g_variant_new ("(ui)", self->revision, ROOT_ID));

  if (old_n_pending != self->n_pending)
    update_tooltip_and_status (self, old_n_pending);
}

/* org.kde.StatusNotifierItem */

/* Answer the oldest question when there is one, else show the window. */
static void
activate (ClarifyTray *self)
{
  if (self->n_pending > 0)
    {
      g_autoptr(ClarifyRequest) oldest = g_list_model_get_item (self->requests, 0);
      g_autofree char *key = clarify_inbox_dup_key (oldest);

      activate_action (self, "open-request", key);
    }
  else
    {
      activate_action (self, "show-window", NULL);
    }
}

static void
item_method_call (GDBusConnection       *connection,
                  const char            *sender,
                  const char            *object_path,
                  const char            *interface_name,
                  const char            *method_name,
                  GVariant              *parameters,
                  GDBusMethodInvocation *invocation,
                  gpointer               user_data)
{
  ClarifyTray *self = user_data;

  /* ContextMenu and Scroll do nothing: the host shows the Menu itself. */
  if (g_str_equal (method_name, "Activate") || g_str_equal (method_name, "SecondaryActivate"))
    activate (self);

  g_dbus_method_invocation_return_value (invocation, NULL);
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

static GVariant *
item_get_property (GDBusConnection  *connection,
                   const char       *sender,
                   const char       *object_path,
                   const char       *interface_name,
                   const char       *property_name,
                   GError          **error,
                   gpointer          user_data)
{
  ClarifyTray *self = user_data;

  if (g_str_equal (property_name, "Category"))
    return g_variant_new_string ("ApplicationStatus");
  if (g_str_equal (property_name, "Id"))
    return g_variant_new_string (APP_ID);
  if (g_str_equal (property_name, "Title"))
    return g_variant_new_string (_("Clarify"));
  if (g_str_equal (property_name, "Status"))
    return g_variant_new_string (get_status (self));
  if (g_str_equal (property_name, "WindowId"))
    return g_variant_new_int32 (0);
  if (g_str_equal (property_name, "IconName"))
    return g_variant_new_string (ICON_NAME);
  if (g_str_equal (property_name, "AttentionIconName"))
    return g_variant_new_string (ATTENTION_ICON_NAME);
  if (g_str_equal (property_name, "ToolTip"))
    return tooltip (self);
  if (g_str_equal (property_name, "ItemIsMenu"))
    return g_variant_new_boolean (FALSE);
  if (g_str_equal (property_name, "Menu"))
    return g_variant_new_object_path (MENU_PATH);
  /* Icons come from the theme by name; a path inside a sandbox means
   * nothing to the host. */
  if (g_str_has_suffix (property_name, "Pixmap"))
    return g_variant_new_array (G_VARIANT_TYPE ("(iiay)"), NULL, 0);

  /* IconThemePath, OverlayIconName, AttentionMovieName */
  return g_variant_new_string ("");
}

/* com.canonical.dbusmenu */

static void
return_unknown_item (GDBusMethodInvocation *invocation,
                     int                    id)
{
  g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                         "No menu item with id %d", id);
}

static gboolean
handle_event (ClarifyTray *self,
              int          id,
              const char  *event_id)
{
  const MenuItem *item = find_item (self, id);

  if (!item_exists (self, id))
    return FALSE;

  if (item != NULL && g_str_equal (event_id, "clicked"))
    activate_action (self, item->action, item->target);

  return TRUE;
}

static void
menu_method_call (GDBusConnection       *connection,
                  const char            *sender,
                  const char            *object_path,
                  const char            *interface_name,
                  const char            *method_name,
                  GVariant              *parameters,
                  GDBusMethodInvocation *invocation,
                  gpointer               user_data)
{
  ClarifyTray *self = user_data;

  if (g_str_equal (method_name, "GetLayout"))
    {
      g_autofree const char **names = NULL;
      int parent_id, depth;

      g_variant_get (parameters, "(ii^a&s)", &parent_id, &depth, &names);
      if (!item_exists (self, parent_id))
        return_unknown_item (invocation, parent_id);
      else
        g_dbus_method_invocation_return_value (invocation,
                                               g_variant_new ("(u@(ia{sv}av))", self->revision,
                                                              item_layout (self, parent_id, depth, names)));
    }
  else if (g_str_equal (method_name, "GetGroupProperties"))
    {
      g_autoptr(GVariantIter) ids = NULL;
      g_autofree const char **names = NULL;
      GVariantBuilder builder;
      int id;

      g_variant_get (parameters, "(ai^a&s)", &ids, &names);
      g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ia{sv})"));

      /* No ids: every item. */
      if (g_variant_iter_n_children (ids) == 0)
        {
          for (guint i = 0; i < self->items->len; i++)
            {
              id = g_array_index (self->items, MenuItem, i).id;
              g_variant_builder_add (&builder, "(i@a{sv})", id, item_properties (self, id, names));
            }
        }

      while (g_variant_iter_next (ids, "i", &id))
        {
          if (item_exists (self, id))
            g_variant_builder_add (&builder, "(i@a{sv})", id, item_properties (self, id, names));
        }

      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a(ia{sv}))", &builder));
    }
  else if (g_str_equal (method_name, "GetProperty"))
    {
      const char *names[2] = { NULL, NULL };
      g_autoptr(GVariant) props = NULL;
      g_autoptr(GVariant) value = NULL;
      int id;

      g_variant_get (parameters, "(i&s)", &id, &names[0]);
      if (!item_exists (self, id))
        {
          return_unknown_item (invocation, id);
          return;
        }

      props = g_variant_ref_sink (item_properties (self, id, names));
      value = g_variant_lookup_value (props, names[0], NULL);
      if (value == NULL)
        g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                               "Menu item %d has no property “%s”", id, names[0]);
      else
        g_dbus_method_invocation_return_value (invocation, g_variant_new ("(v)", value));
    }
  else if (g_str_equal (method_name, "Event"))
    {
      const char *event_id;
      int id;

      g_variant_get (parameters, "(i&svu)", &id, &event_id, NULL, NULL);
      if (!handle_event (self, id, event_id))
        return_unknown_item (invocation, id);
      else
        g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "EventGroup"))
    {
      g_autoptr(GVariantIter) events = NULL;
      GVariantBuilder errors;
      const char *event_id;
      int id;

      g_variant_get (parameters, "(a(isvu))", &events);
      g_variant_builder_init (&errors, G_VARIANT_TYPE ("ai"));
      while (g_variant_iter_loop (events, "(i&svu)", &id, &event_id, NULL, NULL))
        {
          if (!handle_event (self, id, event_id))
            g_variant_builder_add (&errors, "i", id);
        }

      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(ai)", &errors));
    }
  else if (g_str_equal (method_name, "AboutToShow"))
    {
      /* The layout is always current: LayoutUpdated says when it changes. */
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(b)", FALSE));
    }
  else if (g_str_equal (method_name, "AboutToShowGroup"))
    {
      g_autoptr(GVariantIter) ids = NULL;
      GVariantBuilder updates, errors;
      int id;

      g_variant_get (parameters, "(ai)", &ids);
      g_variant_builder_init (&updates, G_VARIANT_TYPE ("ai"));
      g_variant_builder_init (&errors, G_VARIANT_TYPE ("ai"));
      while (g_variant_iter_next (ids, "i", &id))
        {
          if (!item_exists (self, id))
            g_variant_builder_add (&errors, "i", id);
        }

      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(aiai)", &updates, &errors));
    }
  else
    {
      g_assert_not_reached ();
    }
}

static GVariant *
menu_get_property (GDBusConnection  *connection,
                   const char       *sender,
                   const char       *object_path,
                   const char       *interface_name,
                   const char       *property_name,
                   GError          **error,
                   gpointer          user_data)
{
  if (g_str_equal (property_name, "Version"))
    return g_variant_new_uint32 (3);
  if (g_str_equal (property_name, "TextDirection"))
    return g_variant_new_string (gtk_widget_get_default_direction () == GTK_TEXT_DIR_RTL ? "rtl" : "ltr");
  if (g_str_equal (property_name, "Status"))
    return g_variant_new_string ("normal");

  /* IconThemePath */
  return g_variant_new_strv (NULL, 0);
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
}

/* GObject */

static void
clarify_tray_constructed (GObject *object)
{
  ClarifyTray *self = CLARIFY_TRAY (object);
  static const GDBusInterfaceVTable item_vtable = { item_method_call, item_get_property, NULL };
  static const GDBusInterfaceVTable menu_vtable = { menu_method_call, menu_get_property, NULL };
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (clarify_tray_parent_class)->constructed (object);

  g_signal_connect_object (self->requests, "items-changed", G_CALLBACK (requests_changed_cb), self, 0);
  self->n_pending = g_list_model_get_n_items (self->requests);
  rebuild_items (self);

  self->item_registration_id =
    g_dbus_connection_register_object (self->connection, ITEM_PATH, &item_interface_info,
                                       &item_vtable, self, NULL, &error);
  if (self->item_registration_id == 0)
    {
      g_warning ("Cannot export the tray icon: %s", error->message);
      return;
    }

  self->menu_registration_id =
    g_dbus_connection_register_object (self->connection, MENU_PATH, &menu_interface_info,
                                       &menu_vtable, self, NULL, &error);
  if (self->menu_registration_id == 0)
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

  if (self->item_registration_id != 0)
    g_dbus_connection_unregister_object (self->connection, self->item_registration_id);
  if (self->menu_registration_id != 0)
    g_dbus_connection_unregister_object (self->connection, self->menu_registration_id);
  self->item_registration_id = 0;
  self->menu_registration_id = 0;

  g_clear_weak_pointer (&self->actions);
  g_clear_object (&self->requests);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (clarify_tray_parent_class)->dispose (object);
}

static void
clarify_tray_finalize (GObject *object)
{
  ClarifyTray *self = CLARIFY_TRAY (object);

  g_clear_pointer (&self->items, g_array_unref);
  g_clear_pointer (&self->question_ids, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_tray_parent_class)->finalize (object);
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
  object_class->finalize = clarify_tray_finalize;
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
  self->items = g_array_new (FALSE, TRUE, sizeof (MenuItem));
  g_array_set_clear_func (self->items, (GDestroyNotify) menu_item_clear);
  self->question_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->next_question_id = FIRST_QUESTION_ID;
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
