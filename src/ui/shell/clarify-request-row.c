/* clarify-request-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-end-reason.h"
#include "clarify-inbox.h"
#include "clarify-request-row.h"
#include "clarify-request-source.h"
#include "clarify-row-text.h"
#include "clarify-tooltip.h"

/* Laid out and styled as libadwaita 1.2 lays out an action row's content
 * (CSS "row > box.header"), so that it looks the same as the child of a
 * GtkListView's row or of a GtkListBox's. Plain labels: agent text is never
 * markup. */
struct _ClarifyRequestRow
{
  GtkWidget       parent_instance;

  ClarifyRequest *request;
  ClarifyOptionTexts *texts;
  GtkLabel       *time_left_label;
  guint           tick_id;
};

G_DEFINE_FINAL_TYPE (ClarifyRequestRow, clarify_request_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_REQUEST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static guint n_rows_built;

static gboolean
update_time_left (ClarifyRequestRow *self)
{
  gint64 deadline = clarify_request_get_deadline (self->request);
  gint64 left_s;
  g_autofree char *text = NULL;

  /* Answered: the row stays until the agent has the answer. */
  if (clarify_request_get_state (self->request) == CLARIFY_REQUEST_SENDING)
    {
      /* The agent did not take it at once, or it was kept across a restart. */
      if (clarify_request_get_end_reason (self->request) == CLARIFY_END_REASON_WAITING_FOR_AGENT)
        gtk_label_set_text (self->time_left_label, _("Waiting to be delivered"));
      else
        gtk_label_set_text (self->time_left_label, _("Sending…"));
      gtk_widget_set_visible (GTK_WIDGET (self->time_left_label), TRUE);
      return FALSE;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->time_left_label), deadline != 0);
  if (deadline == 0)
    return FALSE;

  left_s = MAX (0, (deadline - g_get_monotonic_time () + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
  /* Translators: the time an agent still waits for an answer, minutes:seconds */
  text = g_strdup_printf (_("%d:%02d left"), (int) (left_s / 60), (int) (left_s % 60));
  gtk_label_set_text (self->time_left_label, text);

  if (left_s <= 30)
    gtk_widget_add_css_class (GTK_WIDGET (self->time_left_label), "warning");

  return left_s > 0;
}

static gboolean
tick_cb (gpointer data)
{
  ClarifyRequestRow *self = data;

  if (update_time_left (self))
    return G_SOURCE_CONTINUE;

  self->tick_id = 0;
  return G_SOURCE_REMOVE;
}

/* The countdown only ticks while someone can see it. */
static void
clarify_request_row_map (GtkWidget *widget)
{
  ClarifyRequestRow *self = CLARIFY_REQUEST_ROW (widget);

  GTK_WIDGET_CLASS (clarify_request_row_parent_class)->map (widget);

  if (self->request != NULL && self->tick_id == 0 && update_time_left (self))
    self->tick_id = g_timeout_add_seconds (1, tick_cb, self);
}

static void
clarify_request_row_unmap (GtkWidget *widget)
{
  ClarifyRequestRow *self = CLARIFY_REQUEST_ROW (widget);

  g_clear_handle_id (&self->tick_id, g_source_remove);

  GTK_WIDGET_CLASS (clarify_request_row_parent_class)->unmap (widget);
}

static void
state_changed_cb (ClarifyRequestRow *self)
{
  g_autofree char *why = NULL;

  /* Back to pending after the agent refused the answer: say why. */
  if (clarify_request_get_end_reason (self->request) != CLARIFY_END_REASON_NONE)
    why = clarify_end_reason_describe (clarify_request_get_end_reason (self->request),
                                       clarify_request_get_end_detail (self->request));
  clarify_tooltip_set_text (GTK_WIDGET (self), why);

  gtk_widget_remove_css_class (GTK_WIDGET (self->time_left_label), "warning");
  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (update_time_left (self) && gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->tick_id = g_timeout_add_seconds (1, tick_cb, self);
}

static void
show_request (ClarifyRequestRow *self)
{
  /* Who asks: an MCP client by its own name, not the endpoint's. */
  const char *connection = clarify_request_source_get_asker (self->request);
  const char *project = clarify_request_get_project (self->request);
  const char *title = clarify_request_get_title (self->request);
  guint n_questions = clarify_request_get_n_questions (self->request);
  g_autoptr(GString) subtitle = g_string_new (connection ? connection : "");

  if (project != NULL && *project != '\0')
    {
      /* Translators: separates the parts of a row's subtitle: "OpenCode · ~/src/app · 3 questions" */
      g_string_append (subtitle, _(" · "));
      g_string_append (subtitle, project);
    }
  if (n_questions > 1)
    {
      g_string_append (subtitle, _(" · "));
      g_string_append_printf (subtitle,
                              g_dngettext (GETTEXT_PACKAGE, "%u question", "%u questions", n_questions),
                              n_questions);
    }
  else if (n_questions == 1 && title != NULL && *title != '\0')
    {
      /* The title is the row's title; the question itself says more. */
      g_string_append (subtitle, _(" · "));
      g_string_append (subtitle, clarify_question_get_text (clarify_request_get_question (self->request, 0)));
    }
  clarify_option_texts_set (self->texts, clarify_request_get_summary (self->request), subtitle->str);
  /* In a list view the list item around the row takes the focus. */
  if (gtk_widget_get_parent (GTK_WIDGET (self)) != NULL)
    clarify_option_texts_describe (self->texts, gtk_widget_get_parent (GTK_WIDGET (self)));

  state_changed_cb (self);
  g_signal_connect_object (self->request, "notify::state", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->request, "notify::end-reason", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
}

static void
clarify_request_row_dispose (GObject *object)
{
  ClarifyRequestRow *self = CLARIFY_REQUEST_ROW (object);

  GtkWidget *child;

  clarify_request_row_set_request (self, NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (clarify_request_row_parent_class)->dispose (object);
}

static void
clarify_request_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  ClarifyRequestRow *self = CLARIFY_REQUEST_ROW (object);

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
clarify_request_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  ClarifyRequestRow *self = CLARIFY_REQUEST_ROW (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      clarify_request_row_set_request (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_row_class_init (ClarifyRequestRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_request_row_dispose;
  object_class->get_property = clarify_request_row_get_property;
  object_class->set_property = clarify_request_row_set_property;

  widget_class->map = clarify_request_row_map;
  widget_class->unmap = clarify_request_row_unmap;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         CLARIFY_TYPE_REQUEST,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* libadwaita's rules for an action row's content apply (see above). */
  gtk_widget_class_set_css_name (widget_class, "box");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_request_row_init (ClarifyRequestRow *self)
{
  GtkWidget *arrow;

  n_rows_built++;
  self->texts = clarify_row_add_texts (GTK_WIDGET (self), 2, 1);

  self->time_left_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->time_left_label), "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (self->time_left_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->time_left_label), FALSE);
  gtk_widget_set_parent (GTK_WIDGET (self->time_left_label), GTK_WIDGET (self));

  arrow = gtk_image_new_from_icon_name ("go-next-symbolic");
  gtk_accessible_update_property (GTK_ACCESSIBLE (arrow),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Answer"),
                                  -1);
  gtk_widget_set_parent (arrow, GTK_WIDGET (self));
}

GtkWidget *
clarify_request_row_new (ClarifyRequest *request)
{
  g_return_val_if_fail (request == NULL || CLARIFY_IS_REQUEST (request), NULL);

  return g_object_new (CLARIFY_TYPE_REQUEST_ROW, "request", request, NULL);
}

/* A list view hands a row from one request to the next as it scrolls. */
void
clarify_request_row_set_request (ClarifyRequestRow *self,
                                 ClarifyRequest    *request)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_ROW (self));
  g_return_if_fail (request == NULL || CLARIFY_IS_REQUEST (request));

  if (self->request == request)
    return;

  if (self->request != NULL)
    g_signal_handlers_disconnect_by_data (self->request, self);
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_set_object (&self->request, request);

  if (request != NULL)
    show_request (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST]);
}

ClarifyRequest *
clarify_request_row_get_request (ClarifyRequestRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ROW (self), NULL);

  return self->request;
}

const char *
clarify_request_row_get_title (ClarifyRequestRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ROW (self), NULL);

  return clarify_option_texts_get_label (self->texts);
}

const char *
clarify_request_row_get_subtitle (ClarifyRequestRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ROW (self), NULL);

  return clarify_option_texts_get_description (self->texts);
}

const char *
clarify_request_row_get_time_left (ClarifyRequestRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ROW (self), NULL);

  if (self->request == NULL ||
      clarify_request_get_timeout_ms (self->request) == 0 ||
      clarify_request_get_state (self->request) != CLARIFY_REQUEST_PENDING)
    return NULL;

  return gtk_label_get_text (self->time_left_label);
}

const char *
clarify_request_row_get_delivery (ClarifyRequestRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_ROW (self), NULL);

  if (self->request == NULL || clarify_request_get_state (self->request) != CLARIFY_REQUEST_SENDING)
    return NULL;

  return gtk_label_get_text (self->time_left_label);
}

guint
clarify_request_row_get_n_built (void)
{
  return n_rows_built;
}
