/* clarify-request-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-end-reason.h"
#include "clarify-key-guard.h"
#include "clarify-fit-scroller.h"
#include "clarify-link-input.h"
#include "clarify-permission-input.h"
#include "clarify-question-stack.h"
#include "clarify-request-actions.h"
#include "clarify-request-dialog.h"
#include "clarify-request-dialog-private.h"
#include "clarify-request-header.h"
#include "clarify-request-source.h"
#include "clarify-step-indicator.h"
#include "clarify-wrap-bin.h"

/* How long the withdrawal notice stays before the dialog closes. */
#define WITHDRAWN_NOTICE_MS 2500
/* How long a dialog that just appeared ignores the keyboard: keys typed for
 * another window must not answer it (an Enter meant for an editor approving
 * a command). */
#define KEY_GUARD_MS 700

struct _ClarifyRequestDialog
{
  GtkWindow              parent_instance;

  ClarifyRequest        *request;

  /* Template widgets */
  ClarifyRequestSource  *source;
  ClarifyRequestHeader  *header;
  GtkLabel              *agent_away_label;
  ClarifyFitScroller    *scroller_fit;
  ClarifyStepIndicator  *steps_box;
  ClarifyQuestionStack  *stack;
  ClarifyRequestActions *actions;

  ClarifyResponse       *previous;  /* refused by the agent; construct-only */

  /* The header's, kept to stop it once even when disposed twice. */
  ClarifyCountdown      *countdown;

  gulong                 withdrawn_handler;
  guint                  close_timer_id;
  guint                  close_idle_id;
  /* Runs only while the dialog is young; keys are ignored until it fires. */
  ClarifyKeyGuard       *key_guard;
  guint                  finished : 1;
  guint                  withdrawn : 1;
  guint                  focused_once : 1;
  guint                  hide_countdown : 1;  /* the user's preference */
};

G_DEFINE_FINAL_TYPE (ClarifyRequestDialog, clarify_request_dialog, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_REQUEST,
  PROP_PREVIOUS_RESPONSE,
  N_PROPS
};

enum {
  RESPONSE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
queue_grow (ClarifyRequestDialog *self)
{
  if (!self->finished)
    clarify_fit_scroller_queue_grow (self->scroller_fit);
}

static ClarifyQuestionPage *
get_page (ClarifyRequestDialog *self,
          guint                 position)
{
  return clarify_question_stack_get_page (self->stack, position);
}

/* None once disposed. */
static guint
n_pages (ClarifyRequestDialog *self)
{
  return self->stack != NULL ? clarify_question_stack_get_n_pages (self->stack) : 0;
}

/* The input when a permission or a link is all the request asks: its
 * buttons are the dialog's actions then. NULL otherwise. */
static ClarifyInput *
lone_with_buttons (ClarifyRequestDialog *self)
{
  ClarifyInput *input;

  if (n_pages (self) != 1)
    return NULL;

  input = clarify_question_page_get_input (get_page (self, 0));

  return CLARIFY_IS_PERMISSION_INPUT (input) || CLARIFY_IS_LINK_INPUT (input) ? input : NULL;
}

/* None for a lone permission or link: Enter then answers with the focused
 * button (Allow Once or Open in Browser from the start) and opens "Add a
 * message…" rather than approving behind it. */
static GtkWidget *
get_default_widget (ClarifyRequestDialog *self)
{
  if (lone_with_buttons (self) != NULL)
    return NULL;

  return clarify_request_actions_get_default_widget (self->actions);
}

static void
update_steps (ClarifyRequestDialog *self)
{
  guint n = clarify_question_stack_get_n_pages (self->stack);

  if (!clarify_question_stack_get_paged (self->stack))
    return;

  /* A check for what the user answered or skipped, not for an optional
   * question that is merely still empty. */
  for (guint i = 0; i < n; i++)
    clarify_step_indicator_set_answered (self->steps_box, i,
                                         clarify_question_page_is_answered (get_page (self, i)));
  clarify_step_indicator_set_current (self->steps_box,
                                      clarify_question_stack_get_visible (self->stack));
}

static void
update_actions (ClarifyRequestDialog *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint n = clarify_question_stack_get_n_pages (self->stack);
  guint visible = clarify_question_stack_get_visible (self->stack);
  gboolean paged = clarify_question_stack_get_paged (self->stack);
  gboolean open = !self->finished;
  gboolean last = !paged || visible + 1 >= n;
  ClarifyQuestionPage *current = n > 0 ? get_page (self, clarify_question_stack_get_current (self->stack)) : NULL;

  gtk_widget_action_set_enabled (widget, "dialog.submit",
                                 open && clarify_question_stack_get_all_done (self->stack));
  gtk_widget_action_set_enabled (widget, "dialog.next",
                                 open && paged && !last && clarify_question_page_is_done (current));
  gtk_widget_action_set_enabled (widget, "dialog.back", open && paged && visible > 0);
  gtk_widget_action_set_enabled (widget, "dialog.cancel",
                                 open && clarify_request_get_cancellable (self->request));
  gtk_widget_action_set_enabled (widget, "dialog.skip",
                                 open && clarify_request_get_skippable (self->request));
  gtk_widget_action_set_enabled (widget, "dialog.skip-question",
                                 open && current != NULL &&
                                 clarify_question_page_get_skip_toggle (current) != NULL);
  gtk_widget_action_set_enabled (widget, "dialog.pick", open && n > 0);

  clarify_request_actions_set_step (self->actions, paged, last);

  if (open)
    gtk_window_set_default_widget (GTK_WINDOW (self), get_default_widget (self));

  update_steps (self);
}

static void
set_page (ClarifyRequestDialog *self,
          guint                 position)
{
  clarify_question_stack_set_visible (self->stack, position);
  update_actions (self);
  clarify_question_page_focus (get_page (self, position));
}

static void
finish (ClarifyRequestDialog *self,
        ClarifyOutcome        outcome)
{
  g_autoptr(ClarifyResponse) response = NULL;

  if (self->finished)
    return;

  self->finished = TRUE;
  clarify_countdown_stop (self->countdown);

  response = clarify_response_new (clarify_request_get_id (self->request), outcome);

  if (outcome == CLARIFY_OUTCOME_ANSWERED)
    for (guint i = 0; i < clarify_question_stack_get_n_pages (self->stack); i++)
      clarify_question_page_add_answer (get_page (self, i), response);

  update_actions (self);

  g_object_ref (self);
  g_signal_emit (self, signals[RESPONSE], 0, response);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

static gboolean
close_timeout_cb (gpointer data)
{
  ClarifyRequestDialog *self = data;

  self->close_timer_id = 0;
  gtk_window_destroy (GTK_WINDOW (self));

  return G_SOURCE_REMOVE;
}

static gboolean
close_idle_cb (gpointer data)
{
  ClarifyRequestDialog *self = data;

  self->close_idle_id = 0;
  gtk_window_destroy (GTK_WINDOW (self));

  return G_SOURCE_REMOVE;
}

static void
request_withdrawn_cb (ClarifyRequestDialog *self,
                      ClarifyEndReason      reason,
                      const char           *detail,
                      ClarifyRequest       *request)
{
  g_autofree char *notice = clarify_end_reason_describe (reason, detail);
  GtkWidget *close_button;

  if (self->finished)
    return;

  self->finished = TRUE;
  self->withdrawn = TRUE;
  clarify_countdown_stop (self->countdown);

  gtk_widget_set_visible (GTK_WIDGET (self->countdown), FALSE);
  update_actions (self);

  /* In place of the buttons, so the window keeps its size. */
  clarify_request_actions_show_notice (self->actions, notice != NULL ? notice : "");
  gtk_widget_set_visible (GTK_WIDGET (self->actions), TRUE);
  close_button = clarify_request_actions_get_default_widget (self->actions);
  gtk_window_set_default_widget (GTK_WINDOW (self), close_button);
  /* Focus leaves the questions before they turn insensitive: a focused
   * entry that turns insensitive keeps its cursor blinking (GTK warns). */
  gtk_widget_grab_focus (close_button);
  gtk_widget_set_sensitive (GTK_WIDGET (self->stack), FALSE);

  g_clear_handle_id (&self->close_timer_id, g_source_remove);
  self->close_timer_id = g_timeout_add (WITHDRAWN_NOTICE_MS, close_timeout_cb, self);
}

static void
countdown_expired_cb (ClarifyRequestDialog *self)
{
  finish (self, CLARIFY_OUTCOME_TIMED_OUT);
}

static void
page_changed_cb (ClarifyRequestDialog *self)
{
  update_actions (self);
  queue_grow (self);
}

static void
page_activate_default_cb (ClarifyRequestDialog *self,
                          ClarifyQuestionPage  *page)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint position;

  if (self->finished || !clarify_question_stack_find_page (self->stack, page, &position))
    return;

  if (position + 1 < clarify_question_stack_get_n_pages (self->stack))
    {
      if (clarify_question_stack_get_paged (self->stack))
        gtk_widget_activate_action (widget, "dialog.next", NULL);
      else
        clarify_question_page_focus (get_page (self, position + 1));
    }
  else
    {
      gtk_widget_activate_action (widget, "dialog.submit", NULL);
    }
}

static void
page_skip_active_cb (ClarifyRequestDialog *self,
                     GParamSpec           *pspec,
                     ClarifyQuestionPage  *page)
{
  guint visible = clarify_question_stack_get_visible (self->stack);
  guint position;

  if (!clarify_question_stack_find_page (self->stack, page, &position))
    return;

  update_actions (self);

  /* Skipping is an answer: move on as Next would. */
  if (clarify_question_page_get_skip_active (page) &&
      clarify_question_stack_get_paged (self->stack) && position == visible &&
      visible + 1 < clarify_question_stack_get_n_pages (self->stack))
    set_page (self, visible + 1);
}

static void
submit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  /* Also from an earlier page (Ctrl+Enter) once everything is answered. */
  if (!self->finished && clarify_question_stack_get_all_done (self->stack))
    finish (self, CLARIFY_OUTCOME_ANSWERED);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  if (clarify_request_get_cancellable (self->request))
    finish (self, CLARIFY_OUTCOME_CANCELLED);
}

static void
skip_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  if (clarify_request_get_skippable (self->request))
    finish (self, CLARIFY_OUTCOME_SKIPPED);
}

static void
skip_question_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);
  ClarifyQuestionPage *page;

  if (self->finished || clarify_question_stack_get_n_pages (self->stack) == 0)
    return;

  page = get_page (self, clarify_question_stack_get_current (self->stack));
  clarify_question_page_set_skip_active (page, !clarify_question_page_get_skip_active (page));
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);
  guint visible = clarify_question_stack_get_visible (self->stack);

  if (self->finished || !clarify_question_stack_get_paged (self->stack) ||
      visible + 1 >= clarify_question_stack_get_n_pages (self->stack))
    return;
  if (!clarify_question_page_is_done (get_page (self, visible)))
    return;

  set_page (self, visible + 1);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);
  guint visible = clarify_question_stack_get_visible (self->stack);

  if (self->finished || !clarify_question_stack_get_paged (self->stack) || visible == 0)
    return;

  set_page (self, visible - 1);
}

static gboolean
pick (ClarifyRequestDialog *self,
      guint                 index)
{
  if (self->finished || clarify_question_stack_get_n_pages (self->stack) == 0)
    return FALSE;

  return clarify_question_page_pick (get_page (self, clarify_question_stack_get_current (self->stack)),
                                     index);
}

static void
pick_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  pick (CLARIFY_REQUEST_DIALOG (widget), g_variant_get_uint32 (parameter));
}

/* Digits pick a choice, unless the user is typing. */
static gboolean
digit_shortcut_cb (GtkWidget *widget,
                   GVariant  *args,
                   gpointer   user_data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;

  return pick (CLARIFY_REQUEST_DIALOG (widget), g_variant_get_uint32 (args));
}

/* Declines where the protocol can; otherwise the request stays pending and
 * only the window goes: destroyed, not hidden, so that a request waiting in
 * the list is data, not widgets. The list builds a new one to answer it. */
static void
decline_or_close (ClarifyRequestDialog *self)
{
  if (self->finished || !clarify_request_get_cancellable (self->request))
    gtk_window_destroy (GTK_WINDOW (self));
  else
    finish (self, CLARIFY_OUTCOME_CANCELLED);
}

static gboolean
escape_shortcut_cb (GtkWidget *widget,
                    GVariant  *args,
                    gpointer   user_data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));
  GtkWidget *search = focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY) : NULL;

  /* Esc closes an open calendar, or empties a search, before the dialog. */
  if (focus != NULL && gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL)
    return FALSE;
  if (search != NULL && gtk_editable_get_text (GTK_EDITABLE (search))[0] != '\0')
    return FALSE;

  decline_or_close (CLARIFY_REQUEST_DIALOG (widget));

  return TRUE;
}

static void
update_title (ClarifyRequestDialog *self)
{
  const char *title = clarify_request_get_title (self->request);
  const char *source = clarify_request_source_get_name (self->source);
  g_autofree char *window_title = NULL;

  if (title != NULL && title[0] != '\0')
    window_title = g_strdup (title);
  else if (source != NULL)
    /* Translators: the window title of a request without its own title */
    window_title = g_strdup_printf (_("Question from %s"), source);
  else
    window_title = g_strdup (_("Question"));

  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

static void
setup_questions (ClarifyRequestDialog *self)
{
  guint n;

  clarify_question_stack_set_request (self->stack, self->request, self->previous);
  n = clarify_question_stack_get_n_pages (self->stack);

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestionPage *page = get_page (self, i);

      g_signal_connect_object (page, "changed",
                               G_CALLBACK (page_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (page, "activate-default",
                               G_CALLBACK (page_activate_default_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (page, "notify::skip-active",
                               G_CALLBACK (page_skip_active_cb), self, G_CONNECT_SWAPPED);
      if (clarify_question_stack_get_paged (self->stack))
        clarify_step_indicator_add_step (self->steps_box,
                                         clarify_question_get_header (clarify_question_page_get_question (page)));
    }

  gtk_widget_set_visible (GTK_WIDGET (self->steps_box), clarify_question_stack_get_paged (self->stack));
  /* A lone permission's or link's own buttons answer it; Esc and closing the window
   * still cancel or close as they always do. The margin the buttons had
   * stays below the content. */
  if (lone_with_buttons (self) != NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->actions), FALSE);
      gtk_widget_set_margin_bottom (GTK_WIDGET (self->stack), 6);
    }
}

static void
clarify_request_dialog_constructed (GObject *object)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  G_OBJECT_CLASS (clarify_request_dialog_parent_class)->constructed (object);

  g_return_if_fail (self->request != NULL);

  clarify_request_source_set_request (self->source, self->request);
  clarify_request_header_set_request (self->header, self->request);
  clarify_request_actions_set_request (self->actions, self->request);
  update_title (self);
  setup_questions (self);

  if (clarify_request_is_withdrawn (self->request))
    {
      /* Nothing to ask any more; the owner still holds us until idle. */
      self->finished = TRUE;
      self->withdrawn = TRUE;
      self->close_idle_id = g_idle_add (close_idle_cb, self);
      update_actions (self);
      return;
    }

  self->withdrawn_handler =
    g_signal_connect_object (self->request, "withdrawn",
                             G_CALLBACK (request_withdrawn_cb), self,
                             G_CONNECT_SWAPPED);

  if (clarify_request_get_timeout_ms (self->request) > 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->countdown), !self->hide_countdown);
      clarify_countdown_start (self->countdown,
                               clarify_request_get_deadline (self->request),
                               (gint64) clarify_request_get_timeout_ms (self->request) * 1000);
    }

  update_actions (self);
}

static void
clarify_request_dialog_map (GtkWidget *widget)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  GTK_WIDGET_CLASS (clarify_request_dialog_parent_class)->map (widget);

  /* From every map: a window shown again is just as new. */
  if (!self->finished)
    clarify_key_guard_arm (self->key_guard);

  if (!self->focused_once && !self->finished && clarify_question_stack_get_n_pages (self->stack) > 0)
    {
      self->focused_once = TRUE;
      clarify_question_page_focus (get_page (self, clarify_question_stack_get_current (self->stack)));
    }
}

static gboolean
clarify_request_dialog_close_request (GtkWindow *window)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (window);

  if (self->finished)
    return FALSE;

  /* Unlike Esc, whatever the focus holds: the user asked for the window. */
  decline_or_close (self);

  return TRUE;
}

static void
clarify_request_dialog_dispose (GObject *object)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  self->finished = TRUE;
  g_clear_handle_id (&self->close_timer_id, g_source_remove);
  g_clear_handle_id (&self->close_idle_id, g_source_remove);
  clarify_key_guard_disarm (self->key_guard);
  /* Dispose may run twice; the countdown is gone after the first. */
  if (self->countdown != NULL)
    clarify_countdown_stop (g_steal_pointer (&self->countdown));
  if (self->request != NULL)
    g_clear_signal_handler (&self->withdrawn_handler, self->request);

  /* The pages go with the window; stop hearing from them first. */
  if (self->stack != NULL)
    {
      for (guint i = 0; i < clarify_question_stack_get_n_pages (self->stack); i++)
        g_signal_handlers_disconnect_by_data (get_page (self, i), self);
      self->stack = NULL;
    }

  G_OBJECT_CLASS (clarify_request_dialog_parent_class)->dispose (object);
}

static void
clarify_request_dialog_finalize (GObject *object)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  g_clear_object (&self->request);
  g_clear_object (&self->previous);
  /* Until here: tests read what it swallowed after the dialog closed. */
  g_clear_object (&self->key_guard);

  G_OBJECT_CLASS (clarify_request_dialog_parent_class)->finalize (object);
}

static void
clarify_request_dialog_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_value_set_object (value, self->request);
      break;

    case PROP_PREVIOUS_RESPONSE:
      g_value_set_object (value, self->previous);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_dialog_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_set_object (&self->request, g_value_get_object (value));
      break;

    case PROP_PREVIOUS_RESPONSE:
      g_set_object (&self->previous, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_shortcuts (GtkWidgetClass *widget_class)
{
  static const guint digit_keys[][2] = {
    { GDK_KEY_1, GDK_KEY_KP_1 }, { GDK_KEY_2, GDK_KEY_KP_2 }, { GDK_KEY_3, GDK_KEY_KP_3 },
    { GDK_KEY_4, GDK_KEY_KP_4 }, { GDK_KEY_5, GDK_KEY_KP_5 }, { GDK_KEY_6, GDK_KEY_KP_6 },
    { GDK_KEY_7, GDK_KEY_KP_7 }, { GDK_KEY_8, GDK_KEY_KP_8 }, { GDK_KEY_9, GDK_KEY_KP_9 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (digit_keys); i++)
    {
      gtk_widget_class_add_binding (widget_class, digit_keys[i][0], 0,
                                    digit_shortcut_cb, "u", i);
      gtk_widget_class_add_binding (widget_class, digit_keys[i][1], 0,
                                    digit_shortcut_cb, "u", i);
    }

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "dialog.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "dialog.next", NULL);
}

static void
clarify_request_dialog_class_init (ClarifyRequestDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = clarify_request_dialog_constructed;
  object_class->dispose = clarify_request_dialog_dispose;
  object_class->finalize = clarify_request_dialog_finalize;
  object_class->get_property = clarify_request_dialog_get_property;
  object_class->set_property = clarify_request_dialog_set_property;

  widget_class->map = clarify_request_dialog_map;
  window_class->close_request = clarify_request_dialog_close_request;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         CLARIFY_TYPE_REQUEST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /* An answer to the request the agent refused: the inputs start from it. */
  properties[PROP_PREVIOUS_RESPONSE] =
    g_param_spec_object ("previous-response", NULL, NULL,
                         CLARIFY_TYPE_RESPONSE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ClarifyRequestDialog::response:
   * @response: the user's answer, or how the request ended
   *
   * Emitted exactly once; the dialog destroys itself right after.
   */
  signals[RESPONSE] =
    g_signal_new ("response",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CLARIFY_TYPE_RESPONSE);

  g_type_ensure (CLARIFY_TYPE_FIT_SCROLLER);
  g_type_ensure (CLARIFY_TYPE_WRAP_BIN);
  g_type_ensure (CLARIFY_TYPE_QUESTION_STACK);
  g_type_ensure (CLARIFY_TYPE_REQUEST_ACTIONS);
  g_type_ensure (CLARIFY_TYPE_REQUEST_HEADER);
  g_type_ensure (CLARIFY_TYPE_REQUEST_SOURCE);
  g_type_ensure (CLARIFY_TYPE_STEP_INDICATOR);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/clarify/Clarify/clarify-request-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, source);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, header);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, agent_away_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, scroller_fit);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, steps_box);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, actions);

  gtk_widget_class_install_action (widget_class, "dialog.submit", NULL, submit_action);
  gtk_widget_class_install_action (widget_class, "dialog.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "dialog.skip", NULL, skip_action);
  gtk_widget_class_install_action (widget_class, "dialog.skip-question", NULL, skip_question_action);
  gtk_widget_class_install_action (widget_class, "dialog.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "dialog.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "dialog.pick", "u", pick_action);

  add_shortcuts (widget_class);
}

/* The keyboard scrolls to what has the focus; unnamed, GTK 4.8 would call
 * the scroll bars "GtkScrollbar" to screen readers. */
static void
hide_scroll_bars (GtkScrolledWindow *scroller)
{
  gtk_accessible_update_state (GTK_ACCESSIBLE (gtk_scrolled_window_get_hscrollbar (scroller)),
                               GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (gtk_scrolled_window_get_vscrollbar (scroller)),
                               GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}

static void
clarify_request_dialog_init (ClarifyRequestDialog *self)
{
  g_autoptr(GtkWindowGroup) group = gtk_window_group_new ();
  GtkEventController *controller;
  GtkShortcutTrigger *trigger;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* A group of its own: a modal window of the main window (Preferences, a
   * connection's editor) grabs its group, and a question in it would take
   * no key or click until that window closed. */
  gtk_window_group_add_window (group, GTK_WINDOW (self));
  hide_scroll_bars (GTK_SCROLLED_WINDOW (adw_bin_get_child (ADW_BIN (self->scroller_fit))));

  /* First of all, before any shortcut or the focused widget sees a key. */
  self->key_guard = clarify_key_guard_new (GTK_WIDGET (self), KEY_GUARD_MS);

  self->countdown = clarify_request_header_get_countdown (self->header);
  g_signal_connect_object (self->countdown, "expired",
                           G_CALLBACK (countdown_expired_cb), self, G_CONNECT_SWAPPED);
  gtk_window_set_default_widget (GTK_WINDOW (self),
                                 clarify_request_actions_get_default_widget (self->actions));

  /* Capture phase: Ctrl+Enter must submit even from inside a text view, and
   * Esc must get past a search entry that has nothing left to clear. */
  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  trigger = gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_CONTROL_MASK),
                                         gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_CONTROL_MASK));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (trigger, gtk_named_action_new ("dialog.submit")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_callback_action_new (escape_shortcut_cb, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

ClarifyRequestDialog *
clarify_request_dialog_new (GtkApplication *application,
                            ClarifyRequest *request)
{
  return clarify_request_dialog_new_again (application, request, NULL);
}

ClarifyRequestDialog *
clarify_request_dialog_new_again (GtkApplication  *application,
                                  ClarifyRequest  *request,
                                  ClarifyResponse *previous)
{
  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);
  g_return_val_if_fail (previous == NULL || CLARIFY_IS_RESPONSE (previous), NULL);

  return g_object_new (CLARIFY_TYPE_REQUEST_DIALOG,
                       "application", application,
                       "request", request,
                       "previous-response", previous,
                       NULL);
}

ClarifyRequest *
clarify_request_dialog_get_request (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);

  return self->request;
}

gboolean
clarify_request_dialog_get_paged (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), FALSE);

  return self->stack != NULL && clarify_question_stack_get_paged (self->stack);
}

guint
clarify_request_dialog_get_page (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), 0);

  return n_pages (self) > 0 ? clarify_question_stack_get_current (self->stack) : 0;
}

ClarifyInput *
clarify_request_dialog_get_input (ClarifyRequestDialog *self,
                                  guint                 position)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);
  g_return_val_if_fail (position < n_pages (self), NULL);

  return clarify_question_page_get_input (get_page (self, position));
}

GtkLabel *
clarify_request_dialog_get_error_label (ClarifyRequestDialog *self,
                                        guint                 position)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);
  g_return_val_if_fail (position < n_pages (self), NULL);

  return clarify_question_page_get_error_label (get_page (self, position));
}

GtkToggleButton *
clarify_request_dialog_get_skip_toggle (ClarifyRequestDialog *self,
                                        guint                 position)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);
  g_return_val_if_fail (position < n_pages (self), NULL);

  return clarify_question_page_get_skip_toggle (get_page (self, position));
}

gboolean
clarify_request_dialog_is_submit_sensitive (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), FALSE);

  return clarify_request_actions_get_submit_sensitive (self->actions);
}

void
clarify_request_dialog_set_show_countdown (ClarifyRequestDialog *self,
                                           gboolean              show_countdown)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_DIALOG (self));

  self->hide_countdown = !show_countdown;
  /* Hidden, it still ends the question at the deadline. */
  if (self->countdown != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->countdown),
                            show_countdown && clarify_countdown_get_running (self->countdown));
}

ClarifyCountdown *
clarify_request_dialog_get_countdown (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);

  return self->countdown;
}

void
clarify_request_dialog_set_key_guard_ms (ClarifyRequestDialog *self,
                                         guint                 ms)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_DIALOG (self));

  clarify_key_guard_set_duration (self->key_guard, ms);
}

gboolean
clarify_request_dialog_get_key_guarded (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), FALSE);

  return clarify_key_guard_get_armed (self->key_guard);
}

guint
clarify_request_dialog_get_n_keys_ignored (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), 0);

  return clarify_key_guard_get_n_ignored (self->key_guard);
}

/* Said above the question while the agent cannot be reached, so that the
 * person knows what becomes of their answer; NULL hides it. */
void
clarify_request_dialog_set_agent_away (ClarifyRequestDialog *self,
                                       const char           *text)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_DIALOG (self));

  /* Plain text: it names the agent, which the agent may have chosen. */
  gtk_label_set_text (self->agent_away_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->agent_away_label), text != NULL);
  /* Shown on an open dialog, it would push the answer's field out of view. */
  if (text != NULL)
    queue_grow (self);
}

const char *
clarify_request_dialog_get_agent_away (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->agent_away_label)))
    return NULL;

  return gtk_label_get_text (self->agent_away_label);
}

gboolean
clarify_request_dialog_get_withdrawn (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), FALSE);

  return self->withdrawn;
}

void
clarify_request_dialog_set_n_waiting (ClarifyRequestDialog *self,
                                      guint                 n_waiting)
{
  g_autofree char *text = NULL;

  g_return_if_fail (CLARIFY_IS_REQUEST_DIALOG (self));

  if (n_waiting > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more question is waiting", "%u more questions are waiting", n_waiting),
                            n_waiting);
  clarify_request_actions_set_waiting_text (self->actions, text);
}

const char *
clarify_request_dialog_get_waiting_text (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);

  return clarify_request_actions_get_waiting_text (self->actions);
}
