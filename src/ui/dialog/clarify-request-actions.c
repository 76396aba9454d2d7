/* clarify-request-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-request-actions.h"
#include "clarify-tooltip.h"

struct _ClarifyRequestActions
{
  AdwBin          parent_instance;

  ClarifyRequest *request;
  gboolean        last;

  /* Template widgets */
  GtkStack       *bottom_stack;
  GtkWidget      *action_box;
  GtkWidget      *cancel_button;
  GtkWidget      *skip_button;
  GtkWidget      *back_button;
  GtkWidget      *next_button;
  GtkWidget      *submit_button;
  GtkLabel       *waiting_label;
  GtkLabel       *notice_label;
  GtkWidget      *notice_close_button;
};

G_DEFINE_FINAL_TYPE (ClarifyRequestActions, clarify_request_actions, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_REQUEST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
clarify_request_actions_dispose (GObject *object)
{
  ClarifyRequestActions *self = CLARIFY_REQUEST_ACTIONS (object);

  g_clear_object (&self->request);

  G_OBJECT_CLASS (clarify_request_actions_parent_class)->dispose (object);
}

static void
clarify_request_actions_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  ClarifyRequestActions *self = CLARIFY_REQUEST_ACTIONS (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_value_set_object (value, self->request);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_actions_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  ClarifyRequestActions *self = CLARIFY_REQUEST_ACTIONS (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      clarify_request_actions_set_request (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_actions_class_init (ClarifyRequestActionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_request_actions_dispose;
  object_class->get_property = clarify_request_actions_get_property;
  object_class->set_property = clarify_request_actions_set_property;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         CLARIFY_TYPE_REQUEST,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/clarify/Clarify/clarify-request-actions.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, bottom_stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, action_box);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, skip_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, back_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, next_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, submit_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, waiting_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, notice_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestActions, notice_close_button);

  /* A plain widget would be read out by its type name (GTK 4.8). */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_request_actions_init (ClarifyRequestActions *self)
{
  self->last = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Until it has something to say: an empty alert is read as "GtkLabel". */
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->notice_label), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}

ClarifyRequest *
clarify_request_actions_get_request (ClarifyRequestActions *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self), NULL);

  return self->request;
}

void
clarify_request_actions_set_request (ClarifyRequestActions *self,
                                     ClarifyRequest        *request)
{
  const char *skip_label;
  const char *cancel_label;
  gboolean several;

  g_return_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self));
  g_return_if_fail (request == NULL || CLARIFY_IS_REQUEST (request));

  if (!g_set_object (&self->request, request))
    return;

  several = request != NULL && clarify_request_get_n_questions (request) > 1;
  gtk_widget_set_visible (self->cancel_button,
                          request != NULL && clarify_request_get_cancellable (request));
  gtk_widget_set_visible (self->skip_button,
                          request != NULL && clarify_request_get_skippable (request));

  /* The request may word them itself ("Answer in the Terminal", "Decline"). */
  skip_label = request != NULL ? clarify_request_get_skip_label (request) : NULL;
  cancel_label = request != NULL ? clarify_request_get_cancel_label (request) : NULL;
  if (skip_label == NULL || skip_label[0] == '\0')
    skip_label = several ? _("Skip All") : _("Skip");
  if (cancel_label == NULL || cancel_label[0] == '\0')
    cancel_label = _("Cancel");
  gtk_button_set_label (GTK_BUTTON (self->skip_button), skip_label);
  gtk_button_set_label (GTK_BUTTON (self->cancel_button), cancel_label);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST]);
}

void
clarify_request_actions_set_step (ClarifyRequestActions *self,
                                  gboolean               paged,
                                  gboolean               last)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self));

  self->last = last;
  gtk_widget_set_visible (self->back_button, paged);
  gtk_widget_set_visible (self->next_button, paged && !last);
  gtk_widget_set_visible (self->submit_button, last);
}

GtkWidget *
clarify_request_actions_get_default_widget (ClarifyRequestActions *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self), NULL);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->bottom_stack), "notice") == 0)
    return self->notice_close_button;

  return self->last ? self->submit_button : self->next_button;
}

gboolean
clarify_request_actions_get_submit_sensitive (ClarifyRequestActions *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self), FALSE);

  return gtk_widget_is_sensitive (self->submit_button);
}

void
clarify_request_actions_show_notice (ClarifyRequestActions *self,
                                     const char            *text)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self));

  gtk_widget_set_sensitive (self->action_box, FALSE);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->notice_label), GTK_ACCESSIBLE_STATE_HIDDEN, FALSE, -1);
  gtk_label_set_text (self->notice_label, text);
  gtk_stack_set_visible_child_name (self->bottom_stack, "notice");
}

void
clarify_request_actions_set_waiting_text (ClarifyRequestActions *self,
                                          const char            *text)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self));

  gtk_label_set_text (self->waiting_label, text != NULL ? text : "");
  clarify_tooltip_set_text (GTK_WIDGET (self->waiting_label), text);
  /* Empty, it would be read out as "label". */
  gtk_widget_set_visible (GTK_WIDGET (self->waiting_label), text != NULL);
}

const char *
clarify_request_actions_get_waiting_text (ClarifyRequestActions *self)
{
  const char *text;

  g_return_val_if_fail (CLARIFY_IS_REQUEST_ACTIONS (self), NULL);

  text = gtk_label_get_text (self->waiting_label);
  return gtk_widget_get_visible (GTK_WIDGET (self->waiting_label)) ? text : NULL;
}
