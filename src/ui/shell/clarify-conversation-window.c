/* clarify-conversation-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-conversation-window.h"

struct _ClarifyConversationWindow
{
  AdwWindow           parent_instance;

  AdwWindowTitle     *window_title;
  GtkDropDown        *app_dropdown;
  GtkRevealer        *error_revealer;
  GtkLabel           *error_label;
  GtkLabel           *error_detail_label;
  GtkStack           *stack;
  GtkTextView        *transcript;
  GtkEntry           *message_entry;
  GtkButton          *send_button;
  GtkButton          *stop_button;

  ClarifyIhubBackend *backend;
  ClarifyIhubChat    *chat;
  GtkStringList      *app_names;
  GPtrArray          *app_ids;
  GCancellable       *cancellable;
  GtkTextMark        *end_mark;
  /* What the user sent in the running turn, until the server took it. */
  char               *pending_text;
  guint               n_before_send;
  gboolean            streaming;
};

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_CHAT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (ClarifyConversationWindow, clarify_conversation_window, ADW_TYPE_WINDOW)

const char *
clarify_conversation_window_describe_end (ClarifyIhubEnd end)
{
  switch (end)
    {
    case CLARIFY_IHUB_END_INVALID_QUESTION:
      return _("The app asked a question that is not valid, so it cannot be shown. You can go on writing.");

    case CLARIFY_IHUB_END_LIMIT_REACHED:
      return _("The app has asked as many questions as one conversation allows (10). You can go on writing, but it cannot ask more.");

    case CLARIFY_IHUB_END_SERVER_ERROR:
      return _("The server reported an error. You can send your message again.");

    case CLARIFY_IHUB_END_STREAM_CLOSED:
      return _("The server closed the answer before it was complete. You can send your message again.");

    case CLARIFY_IHUB_END_CONNECTION_LOST:
      return _("The connection to the server was lost. You can send your message again.");

    case CLARIFY_IHUB_END_LOGIN_REQUIRED:
      return _("The server asks you to log in. Add a username and password to this connection.");

    case CLARIFY_IHUB_END_LOGIN_FAILED:
      return _("The server refused the username, password or token of this connection.");

    case CLARIFY_IHUB_END_ACCESS_DENIED:
      return _("You have no access to this app.");

    case CLARIFY_IHUB_END_COMPLETE:
    case CLARIFY_IHUB_END_CLARIFICATION:
    case CLARIFY_IHUB_END_STOPPED:
    default:
      return NULL;
    }
}

static void
show_error (ClarifyConversationWindow *self,
            const char                *text,
            const char                *detail)
{
  /* Both labels have use-markup FALSE: the detail is the server's own words. */
  gtk_label_set_text (self->error_label, text);
  gtk_label_set_text (self->error_detail_label, detail != NULL ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_detail_label), detail != NULL && *detail != '\0');
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
}

static void
error_close_clicked_cb (ClarifyConversationWindow *self)
{
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
}

/* Transcript */

static void
scroll_to_end (ClarifyConversationWindow *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->transcript);
  GtkTextIter end;

  /* Before its first layout the view scrolls to a wrong place. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->transcript)))
    return;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_move_mark (buffer, self->end_mark, &end);
  gtk_text_view_scroll_mark_onscreen (self->transcript, self->end_mark);
}

/* Appends @text with @tag (NULL: the answer's own style), starting a new
 * paragraph unless @continued. Plain text: a buffer has no markup. */
static void
append (ClarifyConversationWindow *self,
        const char                *text,
        const char                *tag,
        gboolean                   continued)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->transcript);
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  if (!continued && gtk_text_buffer_get_char_count (buffer) > 0)
    gtk_text_buffer_insert (buffer, &end, "\n", 1);
  if (tag != NULL)
    gtk_text_buffer_insert_with_tags_by_name (buffer, &end, text, -1, tag, NULL);
  else
    gtk_text_buffer_insert (buffer, &end, text, -1);

  gtk_stack_set_visible_child_name (self->stack, "transcript");
  scroll_to_end (self);
}

/* The history as the server keeps it, then what is still on its way. */
static void
render (ClarifyConversationWindow *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->transcript);
  guint n = self->chat != NULL ? clarify_ihub_chat_get_n_messages (self->chat) : 0;

  gtk_text_buffer_set_text (buffer, "", 0);
  for (guint i = 0; i < n; i++)
    {
      const char *role = NULL;
      const char *content = clarify_ihub_chat_get_message (self->chat, i, &role);

      /* A turn that only asked has an empty answer. */
      if (content == NULL || *content == '\0')
        continue;
      append (self, content, g_strcmp0 (role, "user") == 0 ? "user" : NULL, FALSE);
    }

  if (self->pending_text != NULL)
    append (self, self->pending_text, "user", FALSE);

  if (self->chat != NULL && clarify_ihub_chat_get_state (self->chat) == CLARIFY_IHUB_CHAT_ASKING)
    append (self, _("The app asked you a question."), "note", FALSE);

  gtk_stack_set_visible_child_name (self->stack,
                                    gtk_text_buffer_get_char_count (buffer) > 0 ? "transcript" : "empty");
}

/* Buttons */

static gboolean
is_running (ClarifyConversationWindow *self)
{
  return self->chat != NULL && clarify_ihub_chat_get_state (self->chat) == CLARIFY_IHUB_CHAT_RUNNING;
}

static void
update_sensitivity (ClarifyConversationWindow *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->message_entry))));
  gboolean running = is_running (self);
  gboolean has_app = self->chat != NULL ||
                     gtk_drop_down_get_selected (self->app_dropdown) != GTK_INVALID_LIST_POSITION;

  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), running);
  gtk_widget_set_visible (GTK_WIDGET (self->send_button), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->send_button), !running && has_app && *text != '\0');
  gtk_widget_set_sensitive (GTK_WIDGET (self->app_dropdown),
                            self->chat == NULL && self->app_ids != NULL && self->app_ids->len > 0);
}

/* Chat signals */

static void
chat_text_cb (ClarifyConversationWindow *self,
              const char                *chunk)
{
  /* The answer comes once the server took the message: the history now
   * holds it (and an answer to the app's question sent from the inbox). */
  if (!self->streaming)
    {
      if (clarify_ihub_chat_get_n_messages (self->chat) > self->n_before_send)
        g_clear_pointer (&self->pending_text, g_free);
      render (self);
    }

  append (self, chunk, NULL, self->streaming);
  self->streaming = TRUE;
}

static void
chat_error_cb (ClarifyConversationWindow *self,
               ClarifyIhubEnd             end,
               const char                *detail)
{
  const char *text = clarify_conversation_window_describe_end (end);

  if (text != NULL)
    show_error (self, text, detail);
}

static void
chat_turn_ended_cb (ClarifyConversationWindow *self,
                    ClarifyIhubEnd             end,
                    const char                *detail)
{
  /* A message the server never took goes back to the entry to send again. */
  if (self->pending_text != NULL &&
      clarify_ihub_chat_get_n_messages (self->chat) <= self->n_before_send &&
      *gtk_editable_get_text (GTK_EDITABLE (self->message_entry)) == '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->message_entry), self->pending_text);
  g_clear_pointer (&self->pending_text, g_free);
  self->streaming = FALSE;

  render (self);
  if (end == CLARIFY_IHUB_END_STOPPED)
    append (self, _("Stopped."), "note", FALSE);
  update_sensitivity (self);
}

static void
chat_state_cb (ClarifyConversationWindow *self)
{
  /* An answer to the app's question starts a turn from the inbox. */
  if (is_running (self) && self->pending_text == NULL && !self->streaming)
    {
      self->n_before_send = clarify_ihub_chat_get_n_messages (self->chat);
      render (self);
    }
  update_sensitivity (self);
}

static void
set_chat (ClarifyConversationWindow *self,
          ClarifyIhubChat           *chat)
{
  g_assert (self->chat == NULL);

  self->chat = g_object_ref (chat);
  g_signal_connect_object (chat, "text", G_CALLBACK (chat_text_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (chat, "error", G_CALLBACK (chat_error_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (chat, "turn-ended", G_CALLBACK (chat_turn_ended_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (chat, "notify::state", G_CALLBACK (chat_state_cb), self, G_CONNECT_SWAPPED);
}

static void
send_cb (ClarifyConversationWindow *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->message_entry))));

  if (*text == '\0' || is_running (self))
    return;

  if (self->chat == NULL)
    {
      guint selected = gtk_drop_down_get_selected (self->app_dropdown);
      ClarifyIhubChat *chat;

      if (self->app_ids == NULL || selected >= self->app_ids->len)
        return;
      chat = clarify_ihub_backend_open_chat (self->backend, g_ptr_array_index (self->app_ids, selected), NULL);
      set_chat (self, chat);
    }

  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  self->n_before_send = clarify_ihub_chat_get_n_messages (self->chat);
  self->streaming = FALSE;
  g_free (self->pending_text);
  self->pending_text = g_strdup (text);
  gtk_editable_set_text (GTK_EDITABLE (self->message_entry), "");

  if (!clarify_ihub_chat_send (self->chat, text))
    {
      gtk_editable_set_text (GTK_EDITABLE (self->message_entry), text);
      g_clear_pointer (&self->pending_text, g_free);
      return;
    }

  render (self);
  update_sensitivity (self);
}

static void
stop_cb (ClarifyConversationWindow *self)
{
  if (is_running (self))
    clarify_ihub_chat_stop (self->chat);
}

/* Apps */

static void
select_app (ClarifyConversationWindow *self,
            const char                *app_id)
{
  for (guint i = 0; app_id != NULL && i < self->app_ids->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->app_ids, i), app_id) == 0)
      {
        gtk_drop_down_set_selected (self->app_dropdown, i);
        return;
      }

  /* An app the server no longer lists still names the conversation. */
  if (app_id != NULL)
    {
      g_ptr_array_add (self->app_ids, g_strdup (app_id));
      gtk_string_list_append (self->app_names, app_id);
      gtk_drop_down_set_selected (self->app_dropdown, self->app_ids->len - 1);
    }
}

static void
apps_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  ClarifyConversationWindow *self;
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GError) error = NULL;

  apps = clarify_ihub_backend_list_apps_finish (CLARIFY_IHUB_BACKEND (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = CLARIFY_CONVERSATION_WINDOW (user_data);
  if (apps == NULL)
    show_error (self, _("The apps of this server could not be listed."), error->message);

  for (guint i = 0; apps != NULL && i < apps->len; i++)
    {
      ClarifyIhubApp *app = g_ptr_array_index (apps, i);

      g_ptr_array_add (self->app_ids, g_strdup (app->id));
      gtk_string_list_append (self->app_names, app->name);
    }

  if (self->chat != NULL)
    select_app (self, clarify_ihub_chat_get_app_id (self->chat));
  update_sensitivity (self);
}

static void
clarify_conversation_window_constructed (GObject *object)
{
  ClarifyConversationWindow *self = CLARIFY_CONVERSATION_WINDOW (object);
  ClarifyConnection *connection;

  G_OBJECT_CLASS (clarify_conversation_window_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self->backend));
  adw_window_title_set_subtitle (self->window_title, clarify_connection_get_name (connection));

  if (self->chat != NULL)
    {
      ClarifyIhubChat *chat = g_steal_pointer (&self->chat);

      set_chat (self, chat);
      g_object_unref (chat);
    }

  clarify_ihub_backend_list_apps_async (self->backend, self->cancellable, apps_cb, self);
  render (self);
  update_sensitivity (self);
}

static void
clarify_conversation_window_set_property (GObject      *object,
                                          guint         prop_id,
                                          const GValue *value,
                                          GParamSpec   *pspec)
{
  ClarifyConversationWindow *self = CLARIFY_CONVERSATION_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      self->backend = g_value_dup_object (value);
      break;

    case PROP_CHAT:
      self->chat = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_conversation_window_get_property (GObject    *object,
                                          guint       prop_id,
                                          GValue     *value,
                                          GParamSpec *pspec)
{
  ClarifyConversationWindow *self = CLARIFY_CONVERSATION_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_value_set_object (value, self->backend);
      break;

    case PROP_CHAT:
      g_value_set_object (value, self->chat);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_conversation_window_dispose (GObject *object)
{
  ClarifyConversationWindow *self = CLARIFY_CONVERSATION_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->chat);
  g_clear_object (&self->backend);
  g_clear_pointer (&self->app_ids, g_ptr_array_unref);
  g_clear_pointer (&self->pending_text, g_free);

  G_OBJECT_CLASS (clarify_conversation_window_parent_class)->dispose (object);
}

static void
clarify_conversation_window_class_init (ClarifyConversationWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = clarify_conversation_window_constructed;
  object_class->dispose = clarify_conversation_window_dispose;
  object_class->get_property = clarify_conversation_window_get_property;
  object_class->set_property = clarify_conversation_window_set_property;

  properties[PROP_BACKEND] =
    g_param_spec_object ("backend", NULL, NULL,
                         CLARIFY_TYPE_IHUB_BACKEND,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CHAT] =
    g_param_spec_object ("chat", NULL, NULL,
                         CLARIFY_TYPE_IHUB_CHAT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, APP_PATH "/clarify-conversation-window.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, app_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, error_detail_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, transcript);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, message_entry);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, send_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyConversationWindow, stop_button);
  gtk_widget_class_bind_template_callback (widget_class, send_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, update_sensitivity);
  gtk_widget_class_bind_template_callback (widget_class, error_close_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
clarify_conversation_window_init (ClarifyConversationWindow *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter end;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->app_ids = g_ptr_array_new_with_free_func (g_free);
  self->app_names = gtk_string_list_new (NULL);
  /* The drop-down owns the list; names are plain strings, never markup. */
  gtk_drop_down_set_model (self->app_dropdown, G_LIST_MODEL (self->app_names));
  g_object_unref (self->app_names);
  g_signal_connect_object (self->app_dropdown, "notify::selected",
                           G_CALLBACK (update_sensitivity), self, G_CONNECT_SWAPPED);

  buffer = gtk_text_view_get_buffer (self->transcript);
  gtk_text_buffer_create_tag (buffer, "user",
                              "weight", PANGO_WEIGHT_BOLD,
                              "pixels-above-lines", 12,
                              NULL);
  gtk_text_buffer_create_tag (buffer, "note",
                              "style", PANGO_STYLE_ITALIC,
                              "scale", PANGO_SCALE_SMALL,
                              NULL);
  gtk_text_buffer_get_end_iter (buffer, &end);
  self->end_mark = gtk_text_buffer_create_mark (buffer, "end", &end, FALSE);
}

GtkWidget *
clarify_conversation_window_new (ClarifyIhubBackend *backend,
                                 ClarifyIhubChat    *chat)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (backend), NULL);
  g_return_val_if_fail (chat == NULL || CLARIFY_IS_IHUB_CHAT (chat), NULL);

  return g_object_new (CLARIFY_TYPE_CONVERSATION_WINDOW,
                       "backend", backend,
                       "chat", chat,
                       NULL);
}

ClarifyIhubChat *
clarify_conversation_window_get_chat (ClarifyConversationWindow *self)
{
  g_return_val_if_fail (CLARIFY_IS_CONVERSATION_WINDOW (self), NULL);

  return self->chat;
}

GtkWidget *
clarify_conversation_window_present (GtkApplication     *application,
                                     ClarifyIhubBackend *backend,
                                     ClarifyIhubChat    *chat)
{
  g_autoptr(GListModel) toplevels = NULL;
  GtkWidget *window = NULL;

  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (backend), NULL);

  toplevels = g_object_ref (gtk_window_get_toplevels ());
  for (guint i = 0; chat != NULL && window == NULL && i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (CLARIFY_IS_CONVERSATION_WINDOW (item) &&
          CLARIFY_CONVERSATION_WINDOW (item)->chat == chat)
        window = GTK_WIDGET (item);
    }

  if (window == NULL)
    {
      window = clarify_conversation_window_new (backend, chat);
      /* The application keeps running while a conversation is open. */
      gtk_window_set_application (GTK_WINDOW (window), application);
    }
  gtk_window_present (GTK_WINDOW (window));
  return window;
}
