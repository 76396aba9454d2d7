/* clarify-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-connection-row.h"
#include "clarify-conversation-window.h"
#include "clarify-discovery-list.h"
#include "clarify-history-view.h"
#include "clarify-ihub-backend.h"
#include "clarify-request-row.h"
#include "clarify-row-text.h"
#include "clarify-secret-banner.h"
#include "clarify-window.h"

struct _ClarifyWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  AdwPreferencesPage   *content_page;
  GtkStack             *requests_stack;
  GtkListView          *requests_list;
  GtkListBox           *connections_list;
  GtkWidget            *conversations_group;
  GtkListBox           *conversations_list;
  ClarifyHistoryView   *history_view;

  GtkWidget            *secret_banner;

  ClarifyInbox         *inbox;
  ClarifyConnectionStore *store;     /* what the user may edit; NULL: nothing */
  GListModel           *backends;
  GListModel           *requests;
  GListModel           *conversations;
};

enum {
  PROP_0,
  PROP_INBOX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (ClarifyWindow, clarify_window, ADW_TYPE_APPLICATION_WINDOW)

static GtkWidget *
create_connection_row (gpointer item,
                       gpointer user_data)
{
  ClarifyWindow *self = user_data;
  GtkWidget *row = clarify_connection_row_new (CLARIFY_BACKEND (item));
  const char *name = clarify_connection_get_name (clarify_backend_get_connection (item));

  /* Stored connections open their editor; the demo and the MCP endpoint
   * are not the user's to edit. */
  if (self->store != NULL && clarify_connection_store_lookup (self->store, name) != NULL)
    {
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "app.edit-connection");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", name);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
    }

  return row;
}

/* The open questions: a row widget for each one in view, not for each one
 * in the inbox; rows go from request to request as the list scrolls. */
static void
setup_request_item (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  gtk_list_item_set_child (item, clarify_request_row_new (NULL));
}

static void
bind_request_item (GtkSignalListItemFactory *factory,
                   GtkListItem              *item)
{
  clarify_request_row_set_request (CLARIFY_REQUEST_ROW (gtk_list_item_get_child (item)),
                                   gtk_list_item_get_item (item));
}

static void
unbind_request_item (GtkSignalListItemFactory *factory,
                     GtkListItem              *item)
{
  clarify_request_row_set_request (CLARIFY_REQUEST_ROW (gtk_list_item_get_child (item)), NULL);
}

static void
request_activated_cb (GtkListView   *list,
                      guint          position,
                      ClarifyWindow *self)
{
  g_autoptr(ClarifyRequest) request = g_list_model_get_item (self->requests, position);
  g_autofree char *key = NULL;

  if (request == NULL)
    return;

  key = clarify_inbox_dup_key (request);
  gtk_widget_activate_action (GTK_WIDGET (self), "app.open-request", "s", key);
}

/* The conversations of every iHub connection, in one list. */
static gpointer
map_backend_to_chats (gpointer item,
                      gpointer user_data)
{
  g_autoptr(ClarifyBackend) backend = item;

  if (CLARIFY_IS_IHUB_BACKEND (backend))
    return g_object_ref (clarify_ihub_backend_get_chats (CLARIFY_IHUB_BACKEND (backend)));

  return g_list_store_new (CLARIFY_TYPE_IHUB_CHAT);
}

static ClarifyIhubBackend *
find_chat_backend (ClarifyWindow   *self,
                   ClarifyIhubChat *chat)
{
  guint n = g_list_model_get_n_items (self->backends);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (self->backends, i);

      if (CLARIFY_IS_IHUB_BACKEND (backend) &&
          clarify_ihub_backend_lookup_chat (CLARIFY_IHUB_BACKEND (backend),
                                            clarify_ihub_chat_get_id (chat)) == chat)
        return CLARIFY_IHUB_BACKEND (backend);
    }

  return NULL;
}

static void
update_conversation_row (AdwActionRow    *row,
                         GParamSpec      *pspec,
                         ClarifyIhubChat *chat)
{
  g_autofree char *subtitle = NULL;
  const char *title = NULL;
  const char *state;

  for (guint i = 0; title == NULL && i < clarify_ihub_chat_get_n_messages (chat); i++)
    {
      const char *role = NULL;
      const char *content = clarify_ihub_chat_get_message (chat, i, &role);

      if (g_strcmp0 (role, "user") == 0 && content != NULL && *content != '\0')
        title = content;
    }

  switch (clarify_ihub_chat_get_state (chat))
    {
    case CLARIFY_IHUB_CHAT_RUNNING:
      state = _("Answering…");
      break;

    case CLARIFY_IHUB_CHAT_ASKING:
      state = _("Waiting for your answer");
      break;

    case CLARIFY_IHUB_CHAT_IDLE:
    default:
      state = NULL;
      break;
    }

  if (state != NULL)
    /* Translators: app · state, e.g. "translator · Waiting for your answer" */
    subtitle = g_strdup_printf (_("%s · %s"), clarify_ihub_chat_get_app_id (chat), state);
  else
    subtitle = g_strdup (clarify_ihub_chat_get_app_id (chat));

  clarify_row_set_texts (row, title != NULL ? title : _("New conversation"), subtitle);
}

static void
conversation_row_activated_cb (AdwActionRow  *row,
                               ClarifyWindow *self)
{
  ClarifyIhubChat *chat = g_object_get_data (G_OBJECT (row), "chat");
  ClarifyIhubBackend *backend = find_chat_backend (self, chat);

  if (backend != NULL)
    clarify_conversation_window_present (gtk_window_get_application (GTK_WINDOW (self)), backend, chat);
}

static GtkWidget *
create_conversation_row (gpointer item,
                         gpointer user_data)
{
  ClarifyIhubChat *chat = CLARIFY_IHUB_CHAT (item);
  GtkWidget *row = adw_action_row_new ();

  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  g_object_set_data_full (G_OBJECT (row), "chat", g_object_ref (chat), g_object_unref);

  g_signal_connect_object (chat, "notify::state", G_CALLBACK (update_conversation_row), row, G_CONNECT_SWAPPED);
  g_signal_connect (row, "activated", G_CALLBACK (conversation_row_activated_cb), user_data);
  update_conversation_row (ADW_ACTION_ROW (row), NULL, chat);
  return row;
}

/* The MCP endpoint serves whoever calls; it is not an agent the user added. */
static gboolean
has_agent_connections (ClarifyWindow *self)
{
  guint n = g_list_model_get_n_items (self->backends);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (self->backends, i);
      ClarifyConnection *connection = clarify_backend_get_connection (backend);

      if (g_strcmp0 (clarify_connection_get_kind (connection), "mcp") != 0)
        return TRUE;
    }

  return FALSE;
}

static void
update_visible_page (ClarifyWindow *self)
{
  ClarifyHistory *history = clarify_history_view_get_history (self->history_view);
  gboolean empty = !has_agent_connections (self) &&
                   g_list_model_get_n_items (self->requests) == 0 &&
                   (history == NULL || g_list_model_get_n_items (G_LIST_MODEL (history)) == 0);

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "content");
  gtk_stack_set_visible_child_name (self->requests_stack,
                                    g_list_model_get_n_items (self->requests) > 0 ? "list" : "empty");
  gtk_widget_set_visible (self->conversations_group, g_list_model_get_n_items (self->conversations) > 0);
}

static void
models_changed_cb (ClarifyWindow *self)
{
  update_visible_page (self);
}

static void
clarify_window_constructed (GObject *object)
{
  ClarifyWindow *self = CLARIFY_WINDOW (object);
  GtkListItemFactory *factory;
  g_autoptr(GtkSelectionModel) selection = NULL;

  G_OBJECT_CLASS (clarify_window_parent_class)->constructed (object);

  /* Under the header bar, above the pages (no AdwBanner in libadwaita 1.2). */
  self->secret_banner = clarify_secret_banner_new ();
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->stack))), self->secret_banner,
                              gtk_widget_get_prev_sibling (GTK_WIDGET (self->stack)));

  self->backends = g_object_ref (clarify_inbox_get_backends (self->inbox));
  self->requests = g_object_ref (G_LIST_MODEL (self->inbox));

  gtk_list_box_bind_model (self->connections_list, self->backends,
                           create_connection_row, self, NULL);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_request_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_request_item), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_request_item), NULL);
  gtk_list_view_set_factory (self->requests_list, factory);
  g_object_unref (factory);
  selection = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (self->requests)));
  gtk_list_view_set_model (self->requests_list, selection);
  g_signal_connect_object (self->requests_list, "activate", G_CALLBACK (request_activated_cb), self, 0);
  self->conversations =
    G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (gtk_map_list_model_new (g_object_ref (self->backends),
                                                                                     map_backend_to_chats,
                                                                                     NULL, NULL))));
  gtk_list_box_bind_model (self->conversations_list, self->conversations,
                           create_conversation_row, self, NULL);

  g_signal_connect_object (self->backends, "items-changed",
                           G_CALLBACK (models_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->requests, "items-changed",
                           G_CALLBACK (models_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->conversations, "items-changed",
                           G_CALLBACK (models_changed_cb), self, G_CONNECT_SWAPPED);
  update_visible_page (self);
}

static void
clarify_window_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  ClarifyWindow *self = CLARIFY_WINDOW (object);

  switch (prop_id)
    {
    case PROP_INBOX:
      self->inbox = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_window_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  ClarifyWindow *self = CLARIFY_WINDOW (object);

  switch (prop_id)
    {
    case PROP_INBOX:
      g_value_set_object (value, self->inbox);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_window_dispose (GObject *object)
{
  ClarifyWindow *self = CLARIFY_WINDOW (object);

  g_clear_object (&self->backends);
  g_clear_object (&self->requests);
  g_clear_object (&self->conversations);
  g_clear_object (&self->inbox);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (clarify_window_parent_class)->dispose (object);
}

static void
clarify_window_class_init (ClarifyWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = clarify_window_constructed;
  object_class->dispose = clarify_window_dispose;
  object_class->get_property = clarify_window_get_property;
  object_class->set_property = clarify_window_set_property;

  properties[PROP_INBOX] =
    g_param_spec_object ("inbox", NULL, NULL,
                         CLARIFY_TYPE_INBOX,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CLARIFY_TYPE_DISCOVERY_LIST);
  g_type_ensure (CLARIFY_TYPE_HISTORY_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, APP_PATH "/clarify-window.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, content_page);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, requests_stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, requests_list);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, connections_list);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, conversations_group);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, conversations_list);
  gtk_widget_class_bind_template_child (widget_class, ClarifyWindow, history_view);

  /* Closing only hides the window (hide-on-close): Clarify keeps listening. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
clarify_window_init (ClarifyWindow *self)
{
  GtkWidget *scroller;

  gtk_widget_init_template (GTK_WIDGET (self));

  /* The page's viewport hands its groups their minimum height, which for
   * the open questions' own scroller is one row: it hands them their
   * natural height, and the page scrolls. */
  scroller = gtk_widget_get_first_child (GTK_WIDGET (self->content_page));
  if (GTK_IS_SCROLLED_WINDOW (scroller) &&
      GTK_IS_SCROLLABLE (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))))
    gtk_scrollable_set_vscroll_policy (GTK_SCROLLABLE (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))),
                                       GTK_SCROLL_NATURAL);
}

ClarifyWindow *
clarify_window_new (GtkApplication *application,
                    ClarifyInbox   *inbox)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (CLARIFY_IS_INBOX (inbox), NULL);

  return g_object_new (CLARIFY_TYPE_WINDOW,
                       "application", application,
                       "inbox", inbox,
                       NULL);
}

void
clarify_window_show_toast (ClarifyWindow *self,
                           const char    *text)
{
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (CLARIFY_IS_WINDOW (self));
  g_return_if_fail (text != NULL);

  /* AdwToast:title is always Pango markup in libadwaita 1.2; the text may
   * come from an agent, so it is escaped to show literally. */
  escaped = g_markup_escape_text (text, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
clarify_window_set_history (ClarifyWindow  *self,
                            ClarifyHistory *history)
{
  g_return_if_fail (CLARIFY_IS_WINDOW (self));

  clarify_history_view_set_history (self->history_view, history);
  /* A history to show is reason enough for the page. */
  if (history != NULL)
    g_signal_connect_object (history, "items-changed", G_CALLBACK (models_changed_cb), self, G_CONNECT_SWAPPED);
  update_visible_page (self);
}

void
clarify_window_set_connection_store (ClarifyWindow          *self,
                                     ClarifyConnectionStore *store)
{
  g_return_if_fail (CLARIFY_IS_WINDOW (self));
  g_return_if_fail (store == NULL || CLARIFY_IS_CONNECTION_STORE (store));

  if (!g_set_object (&self->store, store))
    return;

  /* The rows are made again, editable or not. */
  gtk_list_box_bind_model (self->connections_list, self->backends,
                           create_connection_row, self, NULL);
}
