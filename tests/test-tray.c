/* test-tray.c: the tray icon, as a StatusNotifierWatcher and a panel see it
 *
 * A fake org.kde.StatusNotifierWatcher on the test's session bus records who
 * registers; a second connection plays the panel and calls the item and its
 * menu over D-Bus. Most tests drive a tray with a hand-made action group and
 * request list; the last ones the tray of the real ClarifyApplication.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-backend.h"
#include "clarify-test-log.h"

#include "clarify-application.h"
#include "clarify-request-dialog.h"
#include "clarify-tray.h"
#include "clarify-window.h"

#define WAIT_MS 15000

#define ITEM_PATH      "/StatusNotifierItem"
#define ITEM_INTERFACE "org.kde.StatusNotifierItem"
#define MENU_INTERFACE "com.canonical.dbusmenu"
#define WATCHER_NAME   "org.kde.StatusNotifierWatcher"

static GDBusConnection *
new_bus_connection (void)
{
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GError) error = NULL;
  GDBusConnection *connection;

  g_assert_nonnull (address);
  connection = g_dbus_connection_new_for_address_sync (address,
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);
  return connection;
}

/* Calling over D-Bus without blocking the main loop the tray answers from */

typedef struct
{
  gboolean  done;
  GVariant *reply;
  GError   *error;
} CallResult;

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  CallResult *call = user_data;

  call->reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &call->error);
  call->done = TRUE;
}

static GDBusConnection *panel; /* the host that shows the icon */

static GVariant *
call_full (const char          *bus_name,
           const char          *path,
           const char          *interface,
           const char          *method,
           GVariant            *parameters,
           const GVariantType  *reply_type,
           GError             **error)
{
  CallResult call = { FALSE, NULL, NULL };

  g_dbus_connection_call (panel, bus_name, path, interface, method, parameters, reply_type,
                          G_DBUS_CALL_FLAGS_NONE, -1, NULL, call_cb, &call);
  g_assert_true (clarify_test_wait_until (clarify_test_dbus_is_true, &call.done, WAIT_MS));
  if (call.error != NULL)
    g_propagate_error (error, call.error);

  return call.reply;
}

static GVariant *
call (const char         *bus_name,
      const char         *path,
      const char         *interface,
      const char         *method,
      GVariant           *parameters,
      const GVariantType *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply = call_full (bus_name, path, interface, method, parameters, reply_type, &error);

  g_assert_no_error (error);
  return reply;
}

static GVariant *
get_property (const char *bus_name,
              const char *path,
              const char *interface,
              const char *name)
{
  g_autoptr(GVariant) reply = call (bus_name, path, "org.freedesktop.DBus.Properties", "Get",
                                    g_variant_new ("(ss)", interface, name), G_VARIANT_TYPE ("(v)"));
  GVariant *value;

  g_variant_get (reply, "(v)", &value);
  return value;
}

static char *
get_string_property (const char *bus_name,
                     const char *path,
                     const char *interface,
                     const char *name)
{
  g_autoptr(GVariant) value = get_property (bus_name, path, interface, name);

  return g_variant_dup_string (value, NULL);
}

static char *
get_item_status (const char *bus_name)
{
  return get_string_property (bus_name, ITEM_PATH, ITEM_INTERFACE, "Status");
}

/* The fake StatusNotifierWatcher */

static const char watcher_xml[] =
  "<node>"
  "  <interface name='org.kde.StatusNotifierWatcher'>"
  "    <method name='RegisterStatusNotifierItem'>"
  "      <arg type='s' name='service' direction='in'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static GDBusConnection *watcher_connection;
static guint             watcher_owner_id;
static GPtrArray        *registrations; /* "<sender> <service>" */

static void
watcher_method_call (GDBusConnection       *connection,
                     const char            *sender,
                     const char            *object_path,
                     const char            *interface_name,
                     const char            *method_name,
                     GVariant              *parameters,
                     GDBusMethodInvocation *invocation,
                     gpointer               user_data)
{
  const char *service;

  g_variant_get (parameters, "(&s)", &service);
  g_ptr_array_add (registrations, g_strdup_printf ("%s %s", sender, service));
  g_dbus_method_invocation_return_value (invocation, NULL);
}

static void
start_watcher (void)
{
  g_assert_null (watcher_connection);
  watcher_connection = new_bus_connection ();
  watcher_owner_id = clarify_test_dbus_serve (watcher_connection, WATCHER_NAME, "/StatusNotifierWatcher",
                                              watcher_xml, watcher_method_call, NULL);
}

/* Like a watcher process that exits: its connection goes. */
static void
stop_watcher (void)
{
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&watcher_owner_id, g_bus_unown_name);
  g_dbus_connection_close_sync (watcher_connection, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&watcher_connection);
}

static guint
count_registrations (const char *sender)
{
  g_autofree char *expected = g_strdup_printf ("%s %s", sender, ITEM_PATH);
  guint n = 0;

  for (guint i = 0; i < registrations->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (registrations, i), expected))
        n++;
    }

  return n;
}

typedef struct
{
  const char *sender;
  guint       n;
} RegistrationWait;

static gboolean
has_registrations (gpointer data)
{
  RegistrationWait *wait = data;

  return count_registrations (wait->sender) >= wait->n;
}

static void
wait_for_registrations (const char *sender,
                        guint       n)
{
  RegistrationWait wait = { sender, n };

  g_assert_true (clarify_test_wait_until (has_registrations, &wait, WAIT_MS));
  g_assert_cmpuint (count_registrations (sender), ==, n);
}

/* What the panel hears from the items */

static GPtrArray *heard; /* "<sender> <member> <args>" */

static void
signal_cb (GDBusConnection *connection,
           const char      *sender,
           const char      *path,
           const char      *interface,
           const char      *member,
           GVariant        *parameters,
           gpointer         user_data)
{
  g_autofree char *args = g_variant_print (parameters, FALSE);

  g_ptr_array_add (heard, g_strdup_printf ("%s %s %s", sender, member, args));
}

typedef struct
{
  const char *sender;
  const char *signal;  /* "<member> <args>" */
} SignalWait;

static gboolean
has_heard (gpointer data)
{
  SignalWait *wait = data;
  g_autofree char *expected = g_strdup_printf ("%s %s", wait->sender, wait->signal);

  for (guint i = 0; i < heard->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (heard, i), expected))
        return TRUE;
    }

  return FALSE;
}

typedef struct
{
  const char *sender;
  const char *member;
  guint       n;
} HeardCount;

static guint count_heard (const char *sender,
                          const char *member);

/* Whether @data's member was heard @data's n times by now. */
static gboolean
heard_n (gpointer data)
{
  HeardCount *count = data;

  return count_heard (count->sender, count->member) >= count->n;
}

static guint
count_heard (const char *sender,
             const char *member)
{
  g_autofree char *prefix = g_strdup_printf ("%s %s ", sender, member);
  guint n = 0;

  for (guint i = 0; i < heard->len; i++)
    {
      if (g_str_has_prefix (g_ptr_array_index (heard, i), prefix))
        n++;
    }

  return n;
}

static void
wait_for_signal (const char *sender,
                 const char *signal)
{
  SignalWait wait = { sender, signal };

  g_test_message ("waiting for %s from %s", signal, sender);
  g_assert_true (clarify_test_wait_until (has_heard, &wait, WAIT_MS));
}

static void
assert_printed (GVariant   *value,
                const char *expected)
{
  g_autofree char *printed = g_variant_print (value, FALSE);

  g_assert_cmpstr (printed, ==, expected);
}

/* A tray with its own connection, actions and requests */

typedef struct
{
  GDBusConnection    *connection;
  const char         *name;       /* its unique name */
  GSimpleActionGroup *actions;
  GPtrArray          *activated;  /* "quit", "open-request Work\x1fr1" … */
  GListStore         *requests;
  ClarifyTray        *tray;
} Fixture;

static void
action_activated_cb (GSimpleAction *action,
                     GVariant      *parameter,
                     Fixture       *fixture)
{
  const char *name = g_action_get_name (G_ACTION (action));

  if (parameter != NULL)
    g_ptr_array_add (fixture->activated,
                     g_strdup_printf ("%s %s", name, g_variant_get_string (parameter, NULL)));
  else
    g_ptr_array_add (fixture->activated, g_strdup (name));
}

static void
add_action (Fixture            *fixture,
            const char         *name,
            const GVariantType *parameter_type)
{
  g_autoptr(GSimpleAction) action = g_simple_action_new (name, parameter_type);

  g_signal_connect (action, "activate", G_CALLBACK (action_activated_cb), fixture);
  g_action_map_add_action (G_ACTION_MAP (fixture->actions), G_ACTION (action));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->connection = new_bus_connection ();
  fixture->name = g_dbus_connection_get_unique_name (fixture->connection);
  fixture->actions = g_simple_action_group_new ();
  fixture->activated = g_ptr_array_new_with_free_func (g_free);
  add_action (fixture, "show-window", NULL);
  add_action (fixture, "open-request", G_VARIANT_TYPE_STRING);
  add_action (fixture, "quit", NULL);
  fixture->requests = g_list_store_new (CLARIFY_TYPE_REQUEST);
  fixture->tray = clarify_tray_new (fixture->connection, G_ACTION_GROUP (fixture->actions),
                                    G_LIST_MODEL (fixture->requests));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_assert_finalize_object (fixture->tray);
  g_clear_object (&fixture->requests);
  g_clear_object (&fixture->actions);
  g_clear_pointer (&fixture->activated, g_ptr_array_unref);
  g_dbus_connection_close_sync (fixture->connection, NULL, NULL);
  g_clear_object (&fixture->connection);
}

static ClarifyRequest *
new_request (const char *connection,
             const char *id,
             const char *text)
{
  ClarifyRequest *request = clarify_request_new (id);
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, text);

  clarify_request_add_question (request, question);
  if (connection != NULL)
    clarify_request_set_connection (request, connection, "opencode");

  return request;
}

static void
add_request (Fixture    *fixture,
             const char *connection,
             const char *id,
             const char *text)
{
  g_autoptr(ClarifyRequest) request = new_request (connection, id, text);

  g_list_store_append (fixture->requests, request);
}

static gboolean
is_registered (gpointer data)
{
  return clarify_tray_get_registered (data);
}

static gboolean
is_unregistered (gpointer data)
{
  return !clarify_tray_get_registered (data);
}

static void
wait_registered (Fixture *fixture)
{
  g_assert_true (clarify_test_wait_until (is_registered, fixture->tray, WAIT_MS));
}

static void
assert_activated (Fixture    *fixture,
                  const char *expected)
{
  g_assert_cmpuint (fixture->activated->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->activated, 0), ==, expected);
  g_ptr_array_set_size (fixture->activated, 0);
}

/* The menu as the panel reads it */

typedef struct
{
  int    id;
  char  *label;      /* NULL for a separator */
  char  *type;
} LayoutItem;

static void
layout_item_clear (LayoutItem *item)
{
  g_free (item->label);
  g_free (item->type);
}

static GArray *
get_layout (const char *bus_name,
            guint      *revision)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) root_props = NULL;
  g_autoptr(GVariantIter) children = NULL;
  GArray *items = g_array_new (FALSE, TRUE, sizeof (LayoutItem));
  GVariant *child;
  int root_id;

  g_array_set_clear_func (items, (GDestroyNotify) layout_item_clear);
  reply = call (bus_name, "/MenuBar", MENU_INTERFACE, "GetLayout",
                g_variant_new ("(ii^as)", 0, -1, (const char * const[]) { NULL }),
                G_VARIANT_TYPE ("(u(ia{sv}av))"));
  g_variant_get (reply, "(u(i@a{sv}av))", revision, &root_id, &root_props, &children);

  g_assert_cmpint (root_id, ==, 0);
  g_assert_true (g_variant_lookup (root_props, "children-display", "&s", NULL));

  while (g_variant_iter_next (children, "v", &child))
    {
      g_autoptr(GVariant) props = NULL;
      g_autoptr(GVariantIter) grandchildren = NULL;
      LayoutItem item = { 0, NULL, NULL };

      g_variant_get (child, "(i@a{sv}av)", &item.id, &props, &grandchildren);
      g_variant_lookup (props, "label", "s", &item.label);
      g_variant_lookup (props, "type", "s", &item.type);
      g_assert_cmpuint (g_variant_iter_n_children (grandchildren), ==, 0);
      g_array_append_val (items, item);
      g_variant_unref (child);
    }

  return items;
}

/* "Show Clarify|-|Work: …|-|Quit": what the panel would draw. */
static char *
describe_layout (GArray *items)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      LayoutItem *item = &g_array_index (items, LayoutItem, i);

      if (i > 0)
        g_string_append_c (out, '|');
      if (g_strcmp0 (item->type, "separator") == 0)
        g_string_append_c (out, '-');
      else
        g_string_append (out, item->label);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static int
find_item_id (GArray     *items,
              const char *label)
{
  for (guint i = 0; i < items->len; i++)
    {
      LayoutItem *item = &g_array_index (items, LayoutItem, i);

      if (g_strcmp0 (item->label, label) == 0)
        return item->id;
    }

  g_assert_not_reached ();
}

static void
click (const char *bus_name,
       int         id)
{
  g_autoptr(GVariant) reply = call (bus_name, "/MenuBar", MENU_INTERFACE, "Event",
                                    g_variant_new ("(isvu)", id, "clicked", g_variant_new_int32 (0), 0),
                                    NULL);
}

static void
item_call (const char *bus_name,
           const char *method,
           GVariant   *parameters)
{
  g_autoptr(GVariant) reply = call (bus_name, ITEM_PATH, ITEM_INTERFACE, method, parameters, NULL);
}

/* Tests of a tray on its own */

static void
test_register (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GVariant) names = NULL;
  g_autofree const char **name_list = NULL;

  /* With the unique name and the object path, as Flatpak allows. */
  wait_for_registrations (fixture->name, 1);
  wait_registered (fixture);
  g_assert_true (clarify_tray_get_registered (fixture->tray));

  /* No well-known name: org.kde.StatusNotifierItem-PID-ID is not owned. */
  names = call ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
                NULL, G_VARIANT_TYPE ("(as)"));
  g_variant_get (names, "(^a&s)", &name_list);
  for (guint i = 0; name_list[i] != NULL; i++)
    g_assert_false (g_str_has_prefix (name_list[i], "org.kde.StatusNotifierItem"));

  /* The watcher restarts (a panel crash, a shell restart). */
  stop_watcher ();
  g_assert_true (clarify_test_wait_until (is_unregistered, fixture->tray, WAIT_MS));
  start_watcher ();
  wait_for_registrations (fixture->name, 2);
  wait_registered (fixture);
}

static void
watcher_vanished_cb (GDBusConnection *connection,
                     const char      *name,
                     gpointer         user_data)
{
  *(gboolean *) user_data = TRUE;
}

static void
test_without_watcher (void)
{
  g_autoptr(GDBusConnection) connection = new_bus_connection ();
  g_autoptr(GSimpleActionGroup) actions = g_simple_action_group_new ();
  g_autoptr(GListStore) requests = g_list_store_new (CLARIFY_TYPE_REQUEST);
  g_autoptr(ClarifyTray) tray = NULL;
  g_auto(GStrv) log = NULL;
  gboolean vanished = FALSE;
  guint watch_id;

  stop_watcher ();
  clarify_test_log_start ();
  tray = clarify_tray_new (connection, G_ACTION_GROUP (actions), G_LIST_MODEL (requests));

  /* The tray asked for the watcher's owner first on this connection, so
   * once this watch hears "no owner" the tray has heard it too. */
  watch_id = g_bus_watch_name_on_connection (connection, WATCHER_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                             NULL, watcher_vanished_cb, &vanished, NULL);
  g_assert_true (clarify_test_wait_until (clarify_test_dbus_is_true, &vanished, WAIT_MS));
  g_bus_unwatch_name (watch_id);

  log = clarify_test_log_stop ();
  g_assert_cmpstrv (log, ((const char * const[]) {
    "MESSAGE: No tray on this desktop (no org.kde.StatusNotifierWatcher): "
    "questions come as notifications and in the window",
    NULL }));
  g_assert_false (clarify_tray_get_registered (tray));

  /* A panel that starts later still gets the icon; when it goes again,
   * nothing more is logged. */
  start_watcher ();
  g_assert_true (clarify_test_wait_until (is_registered, tray, WAIT_MS));
  g_assert_cmpuint (count_registrations (g_dbus_connection_get_unique_name (connection)), ==, 1);
  clarify_test_log_start ();
  stop_watcher ();
  g_assert_true (clarify_test_wait_until (is_unregistered, tray, WAIT_MS));
  g_clear_pointer (&log, g_strfreev);
  log = clarify_test_log_stop ();
  g_assert_cmpstrv (log, (const char * const[]) { NULL });
  start_watcher ();

  g_clear_object (&tray);
  g_dbus_connection_close_sync (connection, NULL, NULL);
}

static void
test_properties (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *icon_name = NULL;
  g_autofree char *attention_icon_name = NULL;
  g_autofree char *icon_file = NULL;
  g_autofree char *attention_icon_file = NULL;
  g_autofree char *tooltip_title = NULL;
  g_autofree char *tooltip_text = NULL;
  g_autoptr(GVariant) menu = NULL;
  g_autoptr(GVariant) item_is_menu = NULL;
  g_autoptr(GVariant) tooltip = NULL;
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GVariant) all_props = NULL;
  g_autoptr(GVariant) version = NULL;
  g_autoptr(GVariant) theme_path = NULL;
  g_autofree char *id = get_string_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "Id");
  g_autofree char *category = get_string_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "Category");
  g_autofree char *title = get_string_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "Title");
  g_autofree char *status = get_item_status (fixture->name);
  g_autofree char *menu_status = NULL;
  g_autofree char *direction = NULL;

  g_assert_cmpstr (id, ==, "io.github.clarify.Clarify");
  g_assert_cmpstr (category, ==, "ApplicationStatus");
  g_assert_cmpstr (title, ==, "Clarify");
  g_assert_cmpstr (status, ==, "Active");

  /* Icons by name, from the theme the app installs. */
  icon_name = get_string_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "IconName");
  attention_icon_name = get_string_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "AttentionIconName");
  g_assert_cmpstr (icon_name, ==, "io.github.clarify.Clarify-symbolic");
  g_assert_cmpstr (attention_icon_name, ==, "io.github.clarify.Clarify");
  icon_file = g_strconcat (icon_name, ".svg", NULL);
  attention_icon_file = g_strconcat (attention_icon_name, ".svg", NULL);
  g_assert_true (g_file_test (g_test_get_filename (G_TEST_DIST, "..", "data", "icons", "hicolor", "symbolic",
                                                   "apps", icon_file, NULL), G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (g_test_get_filename (G_TEST_DIST, "..", "data", "icons", "hicolor", "scalable",
                                                   "apps", attention_icon_file, NULL), G_FILE_TEST_IS_REGULAR));

  /* GNOME's AppIndicator extension needs Id and a valid Menu path. */
  menu = get_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "Menu");
  g_assert_true (g_variant_is_of_type (menu, G_VARIANT_TYPE_OBJECT_PATH));
  g_assert_cmpstr (g_variant_get_string (menu, NULL), ==, "/MenuBar");
  item_is_menu = get_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "ItemIsMenu");
  g_assert_false (g_variant_get_boolean (item_is_menu));

  tooltip = get_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "ToolTip");
  g_variant_get (tooltip, "(&s@a(iiay)ss)", NULL, NULL, &tooltip_title, &tooltip_text);
  g_assert_cmpstr (tooltip_title, ==, "Clarify");
  g_assert_cmpstr (tooltip_text, ==, "No open questions");

  /* Hosts read everything at once, too. */
  all = call (fixture->name, ITEM_PATH, "org.freedesktop.DBus.Properties", "GetAll",
              g_variant_new ("(s)", ITEM_INTERFACE), G_VARIANT_TYPE ("(a{sv})"));
  g_variant_get (all, "(@a{sv})", &all_props);
  g_assert_true (g_variant_lookup (all_props, "IconPixmap", "a(iiay)", NULL));
  g_assert_true (g_variant_lookup (all_props, "WindowId", "i", NULL));
  g_assert_cmpuint (g_variant_n_children (all_props), ==, 16);

  /* The menu's own properties. */
  version = get_property (fixture->name, "/MenuBar", MENU_INTERFACE, "Version");
  g_assert_cmpuint (g_variant_get_uint32 (version), ==, 3);
  menu_status = get_string_property (fixture->name, "/MenuBar", MENU_INTERFACE, "Status");
  g_assert_cmpstr (menu_status, ==, "normal");
  direction = get_string_property (fixture->name, "/MenuBar", MENU_INTERFACE, "TextDirection");
  g_assert_cmpstr (direction, ==, "ltr");
  theme_path = get_property (fixture->name, "/MenuBar", MENU_INTERFACE, "IconThemePath");
  g_assert_cmpuint (g_variant_n_children (theme_path), ==, 0);
}

static void
test_status (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *status = NULL;
  g_autoptr(GVariant) tooltip = NULL;
  const char *tooltip_text;

  add_request (fixture, "Work", "r1", "Deploy now?");
  wait_for_signal (fixture->name, "NewStatus ('NeedsAttention',)");
  wait_for_signal (fixture->name, "NewToolTip ()");
  status = get_item_status (fixture->name);
  g_assert_cmpstr (status, ==, "NeedsAttention");
  tooltip = get_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "ToolTip");
  g_variant_get (tooltip, "(&s@a(iiay)&s&s)", NULL, NULL, NULL, &tooltip_text);
  g_assert_cmpstr (tooltip_text, ==, "1 open question");
  g_clear_pointer (&tooltip, g_variant_unref);

  /* Hosts read it again when they hear NewToolTip. */
  add_request (fixture, "Home", "r2", "Which color?");
  g_assert_true (clarify_test_wait_until (heard_n, &(HeardCount) { fixture->name, "NewToolTip", 2 }, WAIT_MS));
  tooltip = get_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "ToolTip");
  g_variant_get (tooltip, "(&s@a(iiay)&s&s)", NULL, NULL, NULL, &tooltip_text);
  g_assert_cmpstr (tooltip_text, ==, "2 open questions");

  g_list_store_remove_all (fixture->requests);
  wait_for_signal (fixture->name, "NewStatus ('Active',)");
  g_clear_pointer (&status, g_free);
  status = get_item_status (fixture->name);
  g_assert_cmpstr (status, ==, "Active");

  /* Only the change is announced: one flip each way. */
  g_assert_cmpuint (count_heard (fixture->name, "NewStatus"), ==, 2);
}

static void
test_layout (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GArray) items = NULL;
  g_autoptr(GVariant) label = NULL;
  g_autoptr(GVariant) group = NULL;
  g_autoptr(GVariant) filtered = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *description = NULL;
  g_autofree char *expected_signal = NULL;
  g_autofree char *expected = NULL;
  guint revision, first_revision;
  int quit_id, question_id;

  items = get_layout (fixture->name, &first_revision);
  description = describe_layout (items);
  g_assert_cmpstr (description, ==, "Show Clarify|-|Quit");
  g_clear_pointer (&items, g_array_unref);
  g_clear_pointer (&description, g_free);

  add_request (fixture, "Work", "r1", "Deploy to_prod now?");
  add_request (fixture, NULL, "r2", "  A script asks\nover two lines ");
  add_request (fixture, "Home", "r3", "Which of these very long options should the agent take for the new kitchen?");
  add_request (fixture, "Home", "r4", "Four?");
  add_request (fixture, "Home", "r5", "Five?");
  add_request (fixture, "Home", "r6", "Six?");
  add_request (fixture, "Home", "r7", "Seven?");

  /* Changes made in one go are one new revision, made before the menu is read. */
  items = get_layout (fixture->name, &revision);
  g_assert_cmpuint (revision, ==, first_revision + 1);
  expected_signal = g_strdup_printf ("LayoutUpdated (%u, 0)", revision);
  wait_for_signal (fixture->name, expected_signal);

  /* Plain text, with '_' doubled so it is no mnemonic; five questions at most. */
  description = describe_layout (items);
  g_assert_cmpstr (description, ==,
                   "Show Clarify|-|"
                   "Work: Deploy to__prod now?|"
                   "A script asks over two lines|"
                   "Home: Which of these very long options should the agent take for…|"
                   "Home: Four?|"
                   "Home: Five?|"
                   "2 more questions…|-|Quit");

  /* Single items and properties. */
  quit_id = find_item_id (items, "Quit");
  label = call (fixture->name, "/MenuBar", MENU_INTERFACE, "GetProperty",
                g_variant_new ("(is)", quit_id, "label"), G_VARIANT_TYPE ("(v)"));
  assert_printed (label, "(<'Quit'>,)");

  group = call (fixture->name, "/MenuBar", MENU_INTERFACE, "GetGroupProperties",
                g_variant_new ("(@ai^as)", g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, &quit_id, 1, sizeof (int)),
                               (const char * const[]) { "label", NULL }),
                G_VARIANT_TYPE ("(a(ia{sv}))"));
  expected = g_strdup_printf ("([(%d, {'label': <'Quit'>})],)", quit_id);
  assert_printed (group, expected);
  g_clear_pointer (&expected, g_free);

  filtered = call (fixture->name, "/MenuBar", MENU_INTERFACE, "GetLayout",
                   g_variant_new ("(ii^as)", quit_id, 0, (const char * const[]) { "enabled", NULL }),
                   G_VARIANT_TYPE ("(u(ia{sv}av))"));
  expected = g_strdup_printf ("(%u, (%d, {'enabled': <true>}, []))", revision, quit_id);
  assert_printed (filtered, expected);

  /* A question keeps its id when the ones before it go. */
  question_id = find_item_id (items, "Home: Four?");
  g_list_store_remove (fixture->requests, 0);
  g_clear_pointer (&items, g_array_unref);
  items = get_layout (fixture->name, &revision);
  g_assert_cmpint (find_item_id (items, "Home: Four?"), ==, question_id);
  g_assert_cmpint (find_item_id (items, "Home: Six?"), !=, question_id);

  g_clear_pointer (&label, g_variant_unref);
  label = call_full (fixture->name, "/MenuBar", MENU_INTERFACE, "GetProperty",
                     g_variant_new ("(is)", 4242, "label"), NULL, &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS);
  g_assert_null (label);
}

#define BURST 500

/* A resync brings 500 questions and takes all but three back before the
 * main loop turns: one menu and one count for the host, not a thousand. */
static void
test_burst (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GArray) items = NULL;
  g_autoptr(GVariant) tooltip = NULL;
  g_autofree char *description = NULL;
  g_autofree char *expected_signal = NULL;
  const char *tooltip_text;
  guint first_revision, revision, n_layouts, n_tooltips;
  gint64 start, elapsed_us;

  items = get_layout (fixture->name, &first_revision);
  g_clear_pointer (&items, g_array_unref);
  n_layouts = count_heard (fixture->name, "LayoutUpdated");
  n_tooltips = count_heard (fixture->name, "NewToolTip");

  for (guint i = 0; i < BURST; i++)
    {
      g_autofree char *id = g_strdup_printf ("b%u", i);
      g_autofree char *text = g_strdup_printf ("Question %u?", i);

      add_request (fixture, "Work", id, text);
    }
  for (guint i = 0; i < BURST - 3; i++)
    g_list_store_remove (fixture->requests, 0);

  expected_signal = g_strdup_printf ("LayoutUpdated (%u, 0)", first_revision + 1);
  wait_for_signal (fixture->name, expected_signal);
  g_assert_true (clarify_test_wait_until (heard_n, &(HeardCount) { fixture->name, "NewToolTip", n_tooltips + 1 }, WAIT_MS));

  /* Read back: nothing was left queued, and it is the final state. */
  items = get_layout (fixture->name, &revision);
  g_assert_cmpuint (revision, ==, first_revision + 1);
  description = describe_layout (items);
  g_assert_cmpstr (description, ==,
                   "Show Clarify|-|Work: Question 497?|Work: Question 498?|Work: Question 499?|-|Quit");
  tooltip = get_property (fixture->name, ITEM_PATH, ITEM_INTERFACE, "ToolTip");
  g_variant_get (tooltip, "(&s@a(iiay)&s&s)", NULL, NULL, NULL, &tooltip_text);
  g_assert_cmpstr (tooltip_text, ==, "3 open questions");
  g_assert_cmpuint (count_heard (fixture->name, "LayoutUpdated"), ==, n_layouts + 1);
  g_assert_cmpuint (count_heard (fixture->name, "NewToolTip"), ==, n_tooltips + 1);
  g_assert_cmpuint (count_heard (fixture->name, "NewStatus"), ==, 1);

  /* Changes that come one by one, the main loop turning between them, are
   * shown at most once a frame (16 ms): the bound grows with the time the
   * changes took, so a slow machine cannot fail it. */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < BURST; i++)
    {
      g_autofree char *id = g_strdup_printf ("s%u", i);

      add_request (fixture, "Home", id, "One more?");
      if (i % 2 == 1)
        g_list_store_remove (fixture->requests, 0);
      g_main_context_iteration (NULL, FALSE);
    }
  elapsed_us = g_get_monotonic_time () - start;
  g_clear_pointer (&items, g_array_unref);
  items = get_layout (fixture->name, &revision);
  g_test_message ("%u menus for %u changes in %" G_GINT64_FORMAT " µs",
                  revision - first_revision - 1, BURST + BURST / 2, elapsed_us);
  g_assert_cmpuint (revision - first_revision - 1, <=, elapsed_us / (G_USEC_PER_SEC / 60) + 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->requests)), ==, 3 + BURST / 2);
  g_clear_pointer (&description, g_free);
  description = describe_layout (items);
  g_assert_true (g_str_has_suffix (description, "248 more questions…|-|Quit"));
}

static void
test_events (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GArray) items = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) need_update = NULL;
  g_autoptr(GError) error = NULL;
  guint revision;

  /* Nothing waits: the icon shows the window. */
  item_call (fixture->name, "Activate", g_variant_new ("(ii)", 0, 0));
  assert_activated (fixture, "show-window");
  item_call (fixture->name, "SecondaryActivate", g_variant_new ("(ii)", 0, 0));
  assert_activated (fixture, "show-window");
  item_call (fixture->name, "ContextMenu", g_variant_new ("(ii)", 0, 0));
  item_call (fixture->name, "Scroll", g_variant_new ("(is)", 1, "vertical"));
  g_assert_cmpuint (fixture->activated->len, ==, 0);

  /* A question waits: the icon opens the oldest. */
  add_request (fixture, "Work", "r1", "Deploy now?");
  add_request (fixture, "Home", "r2", "Which color?");
  item_call (fixture->name, "Activate", g_variant_new ("(ii)", 0, 0));
  assert_activated (fixture, "open-request Work\x1fr1");

  items = get_layout (fixture->name, &revision);
  click (fixture->name, find_item_id (items, "Show Clarify"));
  assert_activated (fixture, "show-window");
  click (fixture->name, find_item_id (items, "Home: Which color?"));
  assert_activated (fixture, "open-request Home\x1fr2");
  click (fixture->name, find_item_id (items, "Quit"));
  assert_activated (fixture, "quit");

  /* Hovering is no click. */
  reply = call (fixture->name, "/MenuBar", MENU_INTERFACE, "Event",
                g_variant_new ("(isvu)", find_item_id (items, "Quit"), "hovered", g_variant_new_int32 (0), 0),
                NULL);
  g_assert_cmpuint (fixture->activated->len, ==, 0);
  g_clear_pointer (&reply, g_variant_unref);

  /* Several at once; unknown ids come back. */
  reply = call (fixture->name, "/MenuBar", MENU_INTERFACE, "EventGroup",
                g_variant_new_parsed ("([(%i, 'clicked', <0>, uint32 0), (4242, 'clicked', <0>, uint32 0)],)",
                                      find_item_id (items, "Show Clarify")),
                G_VARIANT_TYPE ("(ai)"));
  assert_printed (reply, "([4242],)");
  assert_activated (fixture, "show-window");

  need_update = call (fixture->name, "/MenuBar", MENU_INTERFACE, "AboutToShow",
                      g_variant_new ("(i)", 0), G_VARIANT_TYPE ("(b)"));
  assert_printed (need_update, "(false,)");
  g_clear_pointer (&reply, g_variant_unref);
  reply = call (fixture->name, "/MenuBar", MENU_INTERFACE, "AboutToShowGroup",
                g_variant_new_parsed ("([0, 4242],)"), G_VARIANT_TYPE ("(aiai)"));
  assert_printed (reply, "([], [4242])");

  g_clear_pointer (&reply, g_variant_unref);
  reply = call_full (fixture->name, "/MenuBar", MENU_INTERFACE, "Event",
                     g_variant_new ("(isvu)", 4242, "clicked", g_variant_new_int32 (0), 0), NULL, &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS);
  g_assert_cmpuint (fixture->activated->len, ==, 0);
}

static void
test_flatpak_manifest (void)
{
  const char *path = g_test_get_filename (G_TEST_DIST, "..", "flatpak", "io.github.clarify.Clarify.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *finish_args;
  gboolean talks_to_watcher = FALSE;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  finish_args = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "finish-args");
  g_assert_nonnull (finish_args);

  for (guint i = 0; i < json_array_get_length (finish_args); i++)
    {
      const char *arg = json_array_get_string_element (finish_args, i);

      if (g_str_equal (arg, "--talk-name=org.kde.StatusNotifierWatcher"))
        talks_to_watcher = TRUE;
      /* The item registers with its unique name: no name to own. */
      g_assert_false (g_str_has_prefix (arg, "--own-name"));
    }

  g_assert_true (talks_to_watcher);
}

/* The tray of the real application */

static ClarifyApplication *app;
static const char         *app_name;

static void
ensure_app (void)
{
  g_autoptr(GError) error = NULL;

  if (app != NULL)
    return;

  app = clarify_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  app_name = g_dbus_connection_get_unique_name (g_application_get_dbus_connection (G_APPLICATION (app)));
}

static gboolean
main_window_is_shown (gpointer data)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    {
      if (CLARIFY_IS_WINDOW (l->data) && gtk_widget_get_mapped (l->data))
        return TRUE;
    }

  return FALSE;
}

static gboolean
widget_is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static gboolean
widget_is_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (data);
}

/* Found first, hidden after: hiding changes the application's list of
 * windows under a loop over it. */
static void
hide_main_window (void)
{
  GtkWidget *main_window = NULL;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    {
      if (CLARIFY_IS_WINDOW (l->data))
        {
          main_window = l->data;
          break;
        }
    }
  g_assert_nonnull (main_window);
  gtk_widget_set_visible (main_window, FALSE);
}

static gboolean
main_window_is_gone (gpointer data)
{
  return !main_window_is_shown (data);
}

static void
test_app_activate (void)
{
  g_autofree char *status = NULL;

  ensure_app ();
  wait_for_registrations (app_name, 1);

  status = get_item_status (app_name);
  g_assert_cmpstr (status, ==, "Active");

  item_call (app_name, "Activate", g_variant_new ("(ii)", 0, 0));
  g_assert_true (clarify_test_wait_until (main_window_is_shown, NULL, WAIT_MS));

  hide_main_window ();
  g_assert_true (clarify_test_wait_until (main_window_is_gone, NULL, WAIT_MS));
}

static void
test_app_question (void)
{
  g_autoptr(ClarifyRequest) request = new_request ("Work", "tray-1", "Ship_it today?");
  g_autoptr(ClarifyBackend) backend = clarify_test_backend_new ("Work");
  g_autoptr(GArray) items = NULL;
  g_autofree char *description = NULL;
  g_autofree char *status = NULL;
  g_autofree char *screenshot = NULL;
  ClarifyRequestDialog *dialog;
  guint revision;

  ensure_app ();
  wait_for_registrations (app_name, 1);

  clarify_application_add_backend (app, backend);
  g_assert_true (clarify_backend_add_request (backend, request));
  dialog = clarify_application_present_request (app, request);
  g_assert_nonnull (dialog);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_assert_true (clarify_test_wait_until (widget_is_mapped, dialog, WAIT_MS));

  wait_for_signal (app_name, "NewStatus ('NeedsAttention',)");
  status = get_item_status (app_name);
  g_assert_cmpstr (status, ==, "NeedsAttention");

  items = get_layout (app_name, &revision);
  description = describe_layout (items);
  g_assert_cmpstr (description, ==, "Show Clarify|-|Work: Ship__it today?|-|Quit");

  /* Put aside, the question comes back with a click on the icon. */
  gtk_widget_set_visible (GTK_WIDGET (dialog), FALSE);
  g_assert_true (clarify_test_wait_until (widget_is_unmapped, dialog, WAIT_MS));
  item_call (app_name, "Activate", g_variant_new ("(ii)", 0, 0));
  g_assert_true (clarify_test_wait_until (widget_is_mapped, dialog, WAIT_MS));
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  screenshot = clarify_test_save_screenshot (GTK_WIDGET (dialog), "tray-activate-question");

  /* The menu's first entry shows the window even then. */
  click (app_name, find_item_id (items, "Show Clarify"));
  g_assert_true (clarify_test_wait_until (main_window_is_shown, NULL, WAIT_MS));

  clarify_backend_withdraw_request (backend, "tray-1", CLARIFY_END_REASON_AGENT_WITHDREW, "Answered in the terminal");
  wait_for_signal (app_name, "NewStatus ('Active',)");
  g_clear_pointer (&status, g_free);
  status = get_item_status (app_name);
  g_assert_cmpstr (status, ==, "Active");
  g_clear_pointer (&items, g_array_unref);
  g_clear_pointer (&description, g_free);
  items = get_layout (app_name, &revision);
  description = describe_layout (items);
  g_assert_cmpstr (description, ==, "Show Clarify|-|Quit");
  clarify_application_remove_backend (app, backend);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  int status;

  /* The app must not read the user's connections; no MCP endpoint: this
   * test is about the tray. */
  home = clarify_test_private_config_home ("[mcp]\nenabled=false\n");

  clarify_test_log_init ();
  clarify_test_gtk_init (&argc, &argv);

  registrations = g_ptr_array_new_with_free_func (g_free);
  heard = g_ptr_array_new_with_free_func (g_free);
  panel = new_bus_connection ();
  g_dbus_connection_signal_subscribe (panel, NULL, ITEM_INTERFACE, NULL, NULL, NULL,
                                      G_DBUS_SIGNAL_FLAGS_NONE, signal_cb, NULL, NULL);
  g_dbus_connection_signal_subscribe (panel, NULL, MENU_INTERFACE, NULL, NULL, NULL,
                                      G_DBUS_SIGNAL_FLAGS_NONE, signal_cb, NULL, NULL);
  start_watcher ();
  clarify_test_notifications_start (panel);

  g_test_add ("/tray/register", Fixture, NULL, fixture_set_up, test_register, fixture_tear_down);
  g_test_add_func ("/tray/without-watcher", test_without_watcher);
  g_test_add ("/tray/properties", Fixture, NULL, fixture_set_up, test_properties, fixture_tear_down);
  g_test_add ("/tray/status", Fixture, NULL, fixture_set_up, test_status, fixture_tear_down);
  g_test_add ("/tray/layout", Fixture, NULL, fixture_set_up, test_layout, fixture_tear_down);
  g_test_add ("/tray/burst", Fixture, NULL, fixture_set_up, test_burst, fixture_tear_down);
  g_test_add ("/tray/events", Fixture, NULL, fixture_set_up, test_events, fixture_tear_down);
  g_test_add_func ("/tray/flatpak-manifest", test_flatpak_manifest);
  g_test_add_func ("/tray/app-activate", test_app_activate);
  g_test_add_func ("/tray/app-question", test_app_question);

  status = g_test_run ();

  g_clear_object (&app);
  g_clear_object (&panel);
  clarify_test_remove_tree (home);

  return status;
}
