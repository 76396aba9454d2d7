/* clarify-request-header.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-request-header.h"
#include "clarify-text-frame.h"

#define CONTEXT_MAX_HEIGHT 160

struct _ClarifyRequestHeader
{
  GtkBox            parent_instance;

  ClarifyRequest   *request;

  /* Template widgets */
  GtkLabel         *title_label;
  ClarifyCountdown *countdown;

  /* Built in init: a ClarifyTextFrame and its label */
  GtkWidget        *context_frame;
  GtkLabel         *context_label;
};

G_DEFINE_FINAL_TYPE (ClarifyRequestHeader, clarify_request_header, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_REQUEST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* An empty header would still add its spacing above the questions. */
static void
update_visible (ClarifyRequestHeader *self)
{
  gboolean any = FALSE;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    any = any || gtk_widget_get_visible (child);

  gtk_widget_set_visible (GTK_WIDGET (self), any);
}

static void
show_text (GtkLabel   *label,
           const char *text)
{
  gboolean any = text != NULL && text[0] != '\0';

  gtk_label_set_text (label, any ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), any);
}

/* A lone question's header ("Database") is shown as its tag; a title that
 * only repeats it would show it twice. */
static gboolean
title_repeats_header (ClarifyRequest *request)
{
  const char *title = clarify_request_get_title (request);
  const char *header;
  g_autofree char *title_key = NULL;
  g_autofree char *header_key = NULL;

  if (title == NULL || clarify_request_get_n_questions (request) != 1)
    return FALSE;

  header = clarify_question_get_header (clarify_request_get_question (request, 0));
  if (header == NULL)
    return FALSE;

  title_key = g_strstrip (g_utf8_casefold (title, -1));
  header_key = g_strstrip (g_utf8_casefold (header, -1));

  return g_utf8_collate (title_key, header_key) == 0;
}

static void
clarify_request_header_dispose (GObject *object)
{
  ClarifyRequestHeader *self = CLARIFY_REQUEST_HEADER (object);

  g_clear_object (&self->request);

  G_OBJECT_CLASS (clarify_request_header_parent_class)->dispose (object);
}

static void
clarify_request_header_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ClarifyRequestHeader *self = CLARIFY_REQUEST_HEADER (object);

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
clarify_request_header_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ClarifyRequestHeader *self = CLARIFY_REQUEST_HEADER (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      clarify_request_header_set_request (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_header_class_init (ClarifyRequestHeaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_request_header_dispose;
  object_class->get_property = clarify_request_header_get_property;
  object_class->set_property = clarify_request_header_set_property;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         CLARIFY_TYPE_REQUEST,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CLARIFY_TYPE_COUNTDOWN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/clarify/Clarify/clarify-request-header.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestHeader, title_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestHeader, countdown);
  gtk_widget_class_bind_template_callback (widget_class, update_visible);
}

static void
clarify_request_header_init (ClarifyRequestHeader *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* A long context scrolls by itself (about eight lines show), so that
   * the question and its answer stay in view. */
  self->context_frame = clarify_text_frame_new (TRUE, CONTEXT_MAX_HEIGHT);
  clarify_text_frame_set_prose (CLARIFY_TEXT_FRAME (self->context_frame));
  self->context_label = GTK_LABEL (clarify_text_frame_get_label (CLARIFY_TEXT_FRAME (self->context_frame)));
  /* Found by this name, as the template's widgets by their ids. */
  gtk_widget_set_name (GTK_WIDGET (self->context_label), "context_label");
  gtk_widget_set_visible (GTK_WIDGET (self->context_label), FALSE);
  g_object_bind_property (self->context_label, "visible", self->context_frame, "visible", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->context_frame, "notify::visible", G_CALLBACK (update_visible), self, G_CONNECT_SWAPPED);
  gtk_widget_insert_after (self->context_frame, GTK_WIDGET (self), GTK_WIDGET (self->title_label));

  update_visible (self);
}

ClarifyRequest *
clarify_request_header_get_request (ClarifyRequestHeader *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_HEADER (self), NULL);

  return self->request;
}

void
clarify_request_header_set_request (ClarifyRequestHeader *self,
                                    ClarifyRequest       *request)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_HEADER (self));
  g_return_if_fail (request == NULL || CLARIFY_IS_REQUEST (request));

  if (!g_set_object (&self->request, request))
    return;

  show_text (self->title_label,
             request != NULL && !title_repeats_header (request) ? clarify_request_get_title (request) : NULL);
  show_text (self->context_label, request != NULL ? clarify_request_get_context (request) : NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST]);
}

ClarifyCountdown *
clarify_request_header_get_countdown (ClarifyRequestHeader *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_HEADER (self), NULL);

  return self->countdown;
}
