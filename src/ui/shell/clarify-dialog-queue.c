/* clarify-dialog-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#if HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

#include "clarify-dialog-queue.h"
#include "clarify-end-reason.h"
#include "clarify-request-notification.h"

struct _ClarifyDialogQueue
{
  GObject               parent_instance;

  GtkApplication       *application; /* weak: it owns us */
  ClarifyInbox         *inbox;
  GQueue                queue;       /* ClarifyRequest (owned) waiting for their turn */
  GHashTable           *dialogs;     /* ClarifyRequest → ClarifyRequestDialog (GTK owns it) */
  GHashTable           *notified;    /* keys of requests with a notification out */
  /* ClarifyRequest → the ClarifyResponse the agent refused, both owned, for
   * each dialog built for the request (one closed unanswered and opened
   * again from the list too) until it is answered again or ends. */
  GHashTable           *refused;
  gboolean              body_markup; /* whether the server reads bodies as markup (until it says, yes) */
  GCancellable         *asking;      /* … while asked */
  ClarifyRequestDialog *presenting;  /* weak: presented, focus not yet seen */
  guint                 focus_left_id; /* idle: has the focus left Clarify? */
  guint                 release_id;  /* idle: give freed memory back */
  guint                 show_id;     /* idle: the next step toward the head's dialog */
  ClarifyRequest       *showing;     /* not owned, compared only: whose step it is */
  guint                 show_step;
  /* The user's preferences */
  gboolean              notifications;
  gboolean              sound;
  gboolean              show_countdown;
};

G_DEFINE_FINAL_TYPE (ClarifyDialogQueue, clarify_dialog_queue, G_TYPE_OBJECT)

static gboolean
is_blocking (ClarifyDialogQueue *self,
             GtkWindow          *window)
{
  if (!CLARIFY_IS_REQUEST_DIALOG (window) || !gtk_widget_get_visible (GTK_WIDGET (window)))
    return FALSE;

  /* Right after gtk_window_present() the window manager has not focused the
   * dialog yet; it still counts as the one the user is about to answer. */
  return gtk_window_is_active (window) || window == GTK_WINDOW (self->presenting);
}

static gboolean
has_blocking_dialog (ClarifyDialogQueue *self)
{
  for (GList *l = gtk_application_get_windows (self->application); l != NULL; l = l->next)
    {
      if (is_blocking (self, l->data))
        return TRUE;
    }

  return FALSE;
}

static gboolean
has_active_window (ClarifyDialogQueue *self)
{
  for (GList *l = gtk_application_get_windows (self->application); l != NULL; l = l->next)
    {
      if (gtk_widget_get_visible (l->data) && gtk_window_is_active (l->data))
        return TRUE;
    }

  return FALSE;
}

/* Notifications */

static void
body_markup_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ClarifyDialogQueue *self = user_data;

  /* Cancelled in dispose: @self is gone. */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  self->body_markup = clarify_request_notification_ask_body_markup_finish (result);
  g_clear_object (&self->asking);
}

static void
notify_request (ClarifyDialogQueue *self,
                ClarifyRequest     *request)
{
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *key = clarify_inbox_dup_key (request);

  if (!self->notifications || g_hash_table_contains (self->notified, key))
    return;

  notification = clarify_request_notification_new (request, self->body_markup);
  g_application_send_notification (G_APPLICATION (self->application), key, notification);
  g_hash_table_add (self->notified, g_steal_pointer (&key));
}

/* A new question: one notification, unless a Clarify window has the focus;
 * there the user sees it already, in the dialog's "more questions" line or
 * the window's list. */
static void
announce_request (ClarifyDialogQueue *self,
                  ClarifyRequest     *request)
{
  /* The alert sound says a question came, notification or not. */
  if (self->sound)
    gdk_display_beep (gdk_display_get_default ());
  if (!has_active_window (self))
    notify_request (self, request);
}

static void
withdraw_notification (ClarifyDialogQueue *self,
                       ClarifyRequest     *request)
{
  g_autofree char *key = clarify_inbox_dup_key (request);

  if (g_hash_table_remove (self->notified, key) && self->application != NULL)
    g_application_withdraw_notification (G_APPLICATION (self->application), key);
}

/* Dialogs */

static void unqueue      (ClarifyDialogQueue *self,
                          ClarifyRequest     *request);

/* @answering is the dialog that answered, or NULL for a notification's button. */
static void
answer (ClarifyDialogQueue   *self,
        ClarifyRequest       *request,
        ClarifyResponse      *response,
        ClarifyRequestDialog *answering)
{
  ClarifyRequestDialog *dialog = g_hash_table_lookup (self->dialogs, request);

  if (clarify_request_get_state (request) != CLARIFY_REQUEST_PENDING)
    return;

  /* Answered: nothing needs to call the user to it any more. */
  unqueue (self, request);
  withdraw_notification (self, request);
  g_hash_table_remove (self->refused, request);
  clarify_inbox_answer (self->inbox, request, response);

  /* Another way answered it: a dialog still open for it goes. */
  if (dialog != NULL && dialog != answering)
    gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
dialog_response_cb (ClarifyRequestDialog *dialog,
                    ClarifyResponse      *response,
                    ClarifyDialogQueue   *self)
{
  /* It closes itself once it has told us. */
  answer (self, clarify_request_dialog_get_request (dialog), response, dialog);
}

static void
dialog_is_active_cb (ClarifyRequestDialog *dialog,
                     GParamSpec           *pspec,
                     ClarifyDialogQueue   *self)
{
  if (gtk_window_is_active (GTK_WINDOW (dialog)) && self->presenting == dialog)
    g_clear_weak_pointer (&self->presenting);
}

static void show_in_turns (ClarifyDialogQueue *self);

static void
dialog_closed (ClarifyDialogQueue   *self,
               ClarifyRequestDialog *dialog)
{
  if (self->presenting == dialog)
    g_clear_weak_pointer (&self->presenting);

  show_in_turns (self);
}

static void
dialog_visible_cb (ClarifyRequestDialog *dialog,
                   GParamSpec           *pspec,
                   ClarifyDialogQueue   *self)
{
  if (!gtk_widget_get_visible (GTK_WIDGET (dialog)))
    dialog_closed (self, dialog);
}

static gboolean
release_memory_cb (gpointer data)
{
  ClarifyDialogQueue *self = data;

  self->release_id = 0;
#if HAVE_MALLOC_TRIM
  /* A dialog frees its widgets all over the heap; glibc gives back only
   * the heap's top by itself, and a burst of questions would stay. */
  malloc_trim (0);
#endif

  return G_SOURCE_REMOVE;
}

/* gtk_window_destroy() does not notify :visible, so both are watched. */
static void
dialog_destroy_cb (ClarifyRequestDialog *dialog,
                   ClarifyDialogQueue   *self)
{
  /* The request stays in the inbox without its dialog; the list reopens it. */
  g_hash_table_remove (self->dialogs, clarify_request_dialog_get_request (dialog));
  dialog_closed (self, dialog);

  /* The last one gone and none to follow: once it is finalized. */
  if (g_hash_table_size (self->dialogs) == 0 && g_queue_is_empty (&self->queue) && self->release_id == 0)
    self->release_id = g_idle_add_full (G_PRIORITY_LOW, release_memory_cb, self, NULL);
}

/* While the agent is away, an open dialog says what becomes of the answer:
 * the outbox keeps it and retries until the agent is back. */
static void
update_agent_away (ClarifyRequestDialog *dialog,
                   ClarifyBackend       *backend)
{
  ClarifyConnectionState state = clarify_backend_get_state (backend);
  ClarifyBackendNote note = clarify_backend_get_note (backend);
  ClarifyRequest *request = clarify_request_dialog_get_request (dialog);
  const char *name = clarify_request_get_connection_name (request);
  g_autofree char *text = NULL;

  /* An answer would be refused as well: nothing is promised. */
  if (state == CLARIFY_CONNECTION_STATE_FAILED &&
      (note == CLARIFY_BACKEND_NOTE_LOGIN_FAILED || note == CLARIFY_BACKEND_NOTE_ACCESS_DENIED))
    /* Translators: both %s are the name of an agent connection, e.g. “work” */
    text = g_strdup_printf (_("“%s” does not accept Clarify's password. Set it with “clarify set-password %s”, then answer."),
                            name, name);
  else if (state == CLARIFY_CONNECTION_STATE_RECONNECTING || state == CLARIFY_CONNECTION_STATE_FAILED)
    /* Translators: %s is the name of an agent connection, e.g. “OpenCode” */
    text = g_strdup_printf (_("“%s” cannot be reached right now. Clarify keeps your answer and sends it when the agent is back."),
                            name);
  /* Back after the agent refused the answer: why, so the next one can do better. */
  else if (clarify_request_get_end_reason (request) == CLARIFY_END_REASON_ANSWER_REFUSED)
    text = clarify_end_reason_describe (CLARIFY_END_REASON_ANSWER_REFUSED, clarify_request_get_end_detail (request));

  clarify_request_dialog_set_agent_away (dialog, text);
}

static void
backend_state_cb (ClarifyBackend       *backend,
                  GParamSpec           *pspec,
                  ClarifyRequestDialog *dialog)
{
  /* A closed dialog lives on until its last reference goes. */
  if (!gtk_widget_in_destruction (GTK_WIDGET (dialog)))
    update_agent_away (dialog, backend);
}

/* The head's dialog is built while it is still in line. */
static guint
n_waiting_behind (ClarifyDialogQueue *self,
                  ClarifyRequest     *request)
{
  guint n = g_queue_get_length (&self->queue);

  return g_queue_find (&self->queue, request) != NULL ? n - 1 : n;
}

static ClarifyRequestDialog *
ensure_dialog (ClarifyDialogQueue *self,
               ClarifyRequest     *request)
{
  ClarifyBackend *backend;
  ClarifyRequestDialog *dialog = g_hash_table_lookup (self->dialogs, request);

  if (dialog != NULL)
    return dialog;

  dialog = clarify_request_dialog_new_again (self->application, request, g_hash_table_lookup (self->refused, request));
  clarify_request_dialog_set_show_countdown (dialog, self->show_countdown);
  clarify_request_dialog_set_n_waiting (dialog, n_waiting_behind (self, request));
  g_hash_table_insert (self->dialogs, request, dialog);
  g_signal_connect_object (dialog, "response", G_CALLBACK (dialog_response_cb), self, 0);
  g_signal_connect_object (dialog, "notify::visible", G_CALLBACK (dialog_visible_cb), self, 0);
  g_signal_connect_object (dialog, "notify::is-active", G_CALLBACK (dialog_is_active_cb), self, 0);
  g_signal_connect_object (dialog, "destroy", G_CALLBACK (dialog_destroy_cb), self, 0);

  backend = clarify_inbox_get_backend_of (self->inbox, request);
  if (backend != NULL)
    {
      g_signal_connect_object (backend, "notify::state", G_CALLBACK (backend_state_cb), dialog, 0);
      update_agent_away (dialog, backend);
    }

  return dialog;
}

/* Every dialog says how many wait in line behind it. */
static void
update_n_waiting (ClarifyDialogQueue *self)
{
  GHashTableIter iter;
  gpointer request, dialog;

  if (self->dialogs == NULL)
    return;

  g_hash_table_iter_init (&iter, self->dialogs);
  while (g_hash_table_iter_next (&iter, &request, &dialog))
    clarify_request_dialog_set_n_waiting (dialog, n_waiting_behind (self, request));
}

static void
unqueue (ClarifyDialogQueue *self,
         ClarifyRequest     *request)
{
  GList *link = g_queue_find (&self->queue, request);

  if (link != NULL)
    {
      /* Its address may be a new request's next. */
      if (self->showing == request)
        self->showing = NULL;
      g_signal_handlers_disconnect_by_data (request, self);
      g_queue_delete_link (&self->queue, link);
      g_object_unref (request);
      update_n_waiting (self);
    }
}

static void
queued_state_cb (ClarifyRequest     *request,
                 GParamSpec         *pspec,
                 ClarifyDialogQueue *self)
{
  /* Timed out or answered elsewhere while in line: nobody needs to see it. */
  if (clarify_request_get_state (request) != CLARIFY_REQUEST_PENDING)
    {
      g_hash_table_remove (self->refused, request);
      unqueue (self, request);
      withdraw_notification (self, request);
    }
}

static void
enqueue (ClarifyDialogQueue *self,
         ClarifyRequest     *request)
{
  if (g_queue_find (&self->queue, request) != NULL)
    return;

  g_queue_push_tail (&self->queue, g_object_ref (request));
  g_signal_connect_object (request, "notify::state", G_CALLBACK (queued_state_cb), self, 0);
  update_n_waiting (self);
}

ClarifyRequestDialog *
clarify_dialog_queue_present (ClarifyDialogQueue *self,
                              ClarifyRequest     *request)
{
  ClarifyRequestDialog *dialog;

  g_return_val_if_fail (CLARIFY_IS_DIALOG_QUEUE (self), NULL);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  unqueue (self, request);
  if (clarify_request_get_state (request) != CLARIFY_REQUEST_PENDING)
    return NULL;

  dialog = ensure_dialog (self, request);
  /* One with the focus already gets no is-active change to end a wait:
   * the head's turn waits for it to close, as for one presented now. */
  if (gtk_window_is_active (GTK_WINDOW (dialog)))
    {
      g_clear_handle_id (&self->show_id, g_source_remove);
      self->showing = NULL;
    }
  else
    {
      g_set_weak_pointer (&self->presenting, dialog);
    }
  gtk_window_present (GTK_WINDOW (dialog));

  return dialog;
}

/* The head of the line comes on screen in four turns of the main loop:
 * built, measured, icons, presented. The first dialog of a process loads
 * styles and fonts as it is measured and the icon theme as it is mapped; in
 * one turn it held the loop for two frames (bench-flood --paced). */
enum {
  SHOW_BUILD,
  SHOW_MEASURE,
  SHOW_ICONS,
  SHOW_PRESENT,
};

static gboolean
show_step_cb (gpointer data)
{
  ClarifyDialogQueue *self = data;
  ClarifyRequest *request = g_queue_peek_head (&self->queue);
  ClarifyRequestDialog *dialog;
  int default_width, default_height, min_width, width;

  /* The one whose turn it was went while it waited. */
  if (request != self->showing)
    self->show_step = SHOW_BUILD;

  /* Once begun, only a dialog presented meanwhile (from the list, say)
   * stops it: the focus going back to a dialog left open would leave the
   * head built and hidden until that one closes. */
  if (self->application == NULL || request == NULL ||
      (self->show_step == SHOW_BUILD ? has_blocking_dialog (self) : self->presenting != NULL))
    {
      self->show_id = 0;
      self->showing = NULL;
      return G_SOURCE_REMOVE;
    }
  self->showing = request;

  switch (self->show_step++)
    {
    case SHOW_BUILD:
      ensure_dialog (self, request);
      return G_SOURCE_CONTINUE;

    case SHOW_MEASURE:
      /* At the width the present asks for; GTK keeps the sizes. */
      dialog = ensure_dialog (self, request);
      gtk_window_get_default_size (GTK_WINDOW (dialog), &default_width, &default_height);
      gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, &width, NULL, NULL);
      if (default_width > 0)
        width = MAX (min_width, default_width);
      gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_VERTICAL, width, NULL, NULL, NULL, NULL);
      return G_SOURCE_CONTINUE;

    case SHOW_ICONS:
      /* The icon theme's index files and caches, which the first map would
       * read (8-9 ms): any name loads them. */
      gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (gdk_display_get_default ()), "window-close-symbolic");
      return G_SOURCE_CONTINUE;

    case SHOW_PRESENT:
    default:
      self->show_id = 0;
      self->showing = NULL;
      clarify_dialog_queue_present (self, request);
      return G_SOURCE_REMOVE;
    }
}

static void
show_in_turns (ClarifyDialogQueue *self)
{
  if (self->show_id == 0 && !g_queue_is_empty (&self->queue))
    self->show_id = g_idle_add (show_step_cb, self);
}

/* The inbox */

static void
request_added_cb (ClarifyInbox       *inbox,
                  ClarifyRequest     *request,
                  ClarifyDialogQueue *self)
{
  if (clarify_request_get_state (request) != CLARIFY_REQUEST_PENDING)
    return;

  /* Never steal the focus from the question being answered, nor the turn
   * of the one next in line. The user may be elsewhere: a dialog alone
   * could go unnoticed, so a notification says it too. */
  enqueue (self, request);
  announce_request (self, request);
  if (!has_blocking_dialog (self))
    show_in_turns (self);
}

/* The focus went from a Clarify window to another program: what waits in
 * line was announced only by the dialog's line, which the user no longer
 * looks at, so each gets its notification now. A question whose dialog is
 * on screen needs none: its window is in front of the user already. */
static gboolean
focus_left_cb (gpointer data)
{
  ClarifyDialogQueue *self = data;

  self->focus_left_id = 0;
  /* Between one dialog and the next nothing has the focus for a moment. */
  if (self->application == NULL || has_active_window (self) || self->presenting != NULL || self->show_id != 0)
    return G_SOURCE_REMOVE;

  for (GList *l = self->queue.head; l != NULL; l = l->next)
    notify_request (self, l->data);

  return G_SOURCE_REMOVE;
}

static void
window_is_active_cb (GtkWindow          *window,
                     GParamSpec         *pspec,
                     ClarifyDialogQueue *self)
{
  /* Seen once the focus events that came with it are handled. */
  if (!gtk_window_is_active (window) && self->focus_left_id == 0)
    self->focus_left_id = g_idle_add (focus_left_cb, self);
}

static void
window_added_cb (GtkApplication     *application,
                 GtkWindow          *window,
                 ClarifyDialogQueue *self)
{
  g_signal_connect_object (window, "notify::is-active", G_CALLBACK (window_is_active_cb), self, 0);
}

static void
request_ended_cb (ClarifyInbox       *inbox,
                  ClarifyRequest     *request,
                  ClarifyDialogQueue *self)
{
  ClarifyRequestDialog *dialog = g_hash_table_lookup (self->dialogs, request);

  unqueue (self, request);
  withdraw_notification (self, request);
  g_hash_table_remove (self->refused, request);

  /* A dialog on screen shows why and closes itself; a hidden one just goes. */
  if (dialog != NULL && !gtk_widget_get_visible (GTK_WIDGET (dialog)))
    gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
answer_refused_cb (ClarifyInbox       *inbox,
                   ClarifyRequest     *request,
                   const GError       *error,
                   ClarifyResponse    *response,
                   ClarifyDialogQueue *self)
{
  ClarifyRequestDialog *dialog = g_hash_table_lookup (self->dialogs, request);

  /* Its dialog answered and closed; the question comes back, its inputs
   * holding what the user answered, to be mended rather than typed again. */
  if (dialog != NULL && !gtk_widget_get_visible (GTK_WIDGET (dialog)))
    gtk_window_destroy (GTK_WINDOW (dialog));
  if (clarify_response_get_outcome (response) == CLARIFY_OUTCOME_ANSWERED)
    g_hash_table_replace (self->refused, g_object_ref (request), g_object_ref (response));
  request_added_cb (inbox, request, self);
}

/* GObject */

static void
clarify_dialog_queue_dispose (GObject *object)
{
  ClarifyDialogQueue *self = CLARIFY_DIALOG_QUEUE (object);

  if (self->inbox != NULL)
    g_signal_handlers_disconnect_by_data (self->inbox, self);
  while (!g_queue_is_empty (&self->queue))
    unqueue (self, g_queue_peek_head (&self->queue));
  g_clear_pointer (&self->dialogs, g_hash_table_unref);
  g_clear_pointer (&self->notified, g_hash_table_unref);
  g_clear_pointer (&self->refused, g_hash_table_unref);
  g_clear_weak_pointer (&self->presenting);
  g_clear_handle_id (&self->focus_left_id, g_source_remove);
  g_clear_handle_id (&self->release_id, g_source_remove);
  g_clear_handle_id (&self->show_id, g_source_remove);
  g_cancellable_cancel (self->asking);
  g_clear_object (&self->asking);
  if (self->application != NULL)
    g_signal_handlers_disconnect_by_data (self->application, self);
  g_clear_weak_pointer (&self->application);
  g_clear_object (&self->inbox);

  G_OBJECT_CLASS (clarify_dialog_queue_parent_class)->dispose (object);
}

static void
clarify_dialog_queue_class_init (ClarifyDialogQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_dialog_queue_dispose;
}

static void
clarify_dialog_queue_init (ClarifyDialogQueue *self)
{
  g_queue_init (&self->queue);
  self->dialogs = g_hash_table_new (NULL, NULL);
  self->notified = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->refused = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
  self->notifications = TRUE;
  self->body_markup = TRUE;
  self->sound = TRUE;
  self->show_countdown = TRUE;
}

ClarifyDialogQueue *
clarify_dialog_queue_new (GtkApplication *application,
                          ClarifyInbox   *inbox)
{
  ClarifyDialogQueue *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (CLARIFY_IS_INBOX (inbox), NULL);

  self = g_object_new (CLARIFY_TYPE_DIALOG_QUEUE, NULL);
  g_set_weak_pointer (&self->application, application);
  self->inbox = g_object_ref (inbox);
  g_signal_connect_object (inbox, "request-added", G_CALLBACK (request_added_cb), self, 0);
  g_signal_connect_object (inbox, "request-ended", G_CALLBACK (request_ended_cb), self, 0);
  g_signal_connect_object (inbox, "answer-refused", G_CALLBACK (answer_refused_cb), self, 0);
  g_signal_connect_object (application, "window-added", G_CALLBACK (window_added_cb), self, 0);
  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    window_added_cb (application, l->data, self);

  /* Asked once, as GLib picks the way out once; never waited for. */
  if (g_application_get_dbus_connection (G_APPLICATION (application)) != NULL)
    {
      self->asking = g_cancellable_new ();
      clarify_request_notification_ask_body_markup (g_application_get_dbus_connection (G_APPLICATION (application)),
                                                    self->asking, body_markup_cb, self);
    }

  return self;
}

guint
clarify_dialog_queue_get_n_queued (ClarifyDialogQueue *self)
{
  g_return_val_if_fail (CLARIFY_IS_DIALOG_QUEUE (self), 0);

  return g_queue_get_length (&self->queue);
}

void
clarify_dialog_queue_answer (ClarifyDialogQueue *self,
                             ClarifyRequest     *request,
                             ClarifyResponse    *response)
{
  g_return_if_fail (CLARIFY_IS_DIALOG_QUEUE (self));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));
  g_return_if_fail (CLARIFY_IS_RESPONSE (response));

  answer (self, request, response, NULL);
}

void
clarify_dialog_queue_set_notifications (ClarifyDialogQueue *self,
                                        gboolean            notifications)
{
  g_return_if_fail (CLARIFY_IS_DIALOG_QUEUE (self));

  self->notifications = !!notifications;
}

void
clarify_dialog_queue_set_sound (ClarifyDialogQueue *self,
                                gboolean            sound)
{
  g_return_if_fail (CLARIFY_IS_DIALOG_QUEUE (self));

  self->sound = !!sound;
}

void
clarify_dialog_queue_set_show_countdown (ClarifyDialogQueue *self,
                                         gboolean            show_countdown)
{
  GHashTableIter iter;
  gpointer dialog;

  g_return_if_fail (CLARIFY_IS_DIALOG_QUEUE (self));

  self->show_countdown = !!show_countdown;
  /* The dialogs open now change at once. */
  g_hash_table_iter_init (&iter, self->dialogs);
  while (g_hash_table_iter_next (&iter, NULL, &dialog))
    clarify_request_dialog_set_show_countdown (dialog, self->show_countdown);
}
