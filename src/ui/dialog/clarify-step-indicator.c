/* clarify-step-indicator.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-mark.h"
#include "clarify-step-indicator.h"
#include "clarify-tooltip.h"

struct _ClarifyStepIndicator
{
  GtkBox     parent_instance;

  /* One gboolean per step. */
  GArray       *answered;
  guint         current;
  /* Shared by the dots: a step to answer, or answered. */
  GdkPaintable *dot_mark;
  GdkPaintable *done_mark;

  /* Template widgets */
  GtkLabel     *steps_label;
  GtkWidget    *dots_box;
};

G_DEFINE_FINAL_TYPE (ClarifyStepIndicator, clarify_step_indicator, GTK_TYPE_BOX)

static GtkWidget *
get_dot (ClarifyStepIndicator *self,
         guint                 step)
{
  GtkWidget *dot = gtk_widget_get_first_child (self->dots_box);

  for (guint i = 0; i < step && dot != NULL; i++)
    dot = gtk_widget_get_next_sibling (dot);

  return dot;
}

static void
update_dot (ClarifyStepIndicator *self,
            guint                 step)
{
  GtkWidget *dot = get_dot (self, step);
  gboolean answered = g_array_index (self->answered, gboolean, step);

  if (step != self->current && answered)
    gtk_image_set_from_paintable (GTK_IMAGE (dot), self->done_mark);
  else
    gtk_image_set_from_paintable (GTK_IMAGE (dot), self->dot_mark);

  if (step == self->current)
    {
      gtk_widget_add_css_class (dot, "accent");
      gtk_widget_remove_css_class (dot, "dim-label");
    }
  else
    {
      gtk_widget_remove_css_class (dot, "accent");
      if (answered)
        gtk_widget_remove_css_class (dot, "dim-label");
      else
        gtk_widget_add_css_class (dot, "dim-label");
    }
}

static void
update_label (ClarifyStepIndicator *self)
{
  g_autofree char *text = NULL;

  /* Translators: the step indicator of a request with several questions */
  text = g_strdup_printf (_("Question %u of %u"), self->current + 1, self->answered->len);
  gtk_label_set_text (self->steps_label, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  -1);
}

static void
clarify_step_indicator_dispose (GObject *object)
{
  ClarifyStepIndicator *self = CLARIFY_STEP_INDICATOR (object);

  g_clear_object (&self->dot_mark);
  g_clear_object (&self->done_mark);

  G_OBJECT_CLASS (clarify_step_indicator_parent_class)->dispose (object);
}

static void
clarify_step_indicator_finalize (GObject *object)
{
  ClarifyStepIndicator *self = CLARIFY_STEP_INDICATOR (object);

  g_clear_pointer (&self->answered, g_array_unref);

  G_OBJECT_CLASS (clarify_step_indicator_parent_class)->finalize (object);
}

static void
clarify_step_indicator_class_init (ClarifyStepIndicatorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_step_indicator_dispose;
  object_class->finalize = clarify_step_indicator_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/clarify/Clarify/clarify-step-indicator.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyStepIndicator, steps_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyStepIndicator, dots_box);
}

static void
clarify_step_indicator_init (ClarifyStepIndicator *self)
{
  self->answered = g_array_new (FALSE, TRUE, sizeof (gboolean));
  self->dot_mark = clarify_mark_new (CLARIFY_MARK_DOT);
  self->done_mark = clarify_mark_new (CLARIFY_MARK_CHECK);
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
clarify_step_indicator_add_step (ClarifyStepIndicator *self,
                                 const char           *tooltip)
{
  GtkWidget *dot;
  gboolean answered = FALSE;

  g_return_if_fail (CLARIFY_IS_STEP_INDICATOR (self));

  dot = gtk_image_new_from_paintable (self->dot_mark);
  gtk_image_set_pixel_size (GTK_IMAGE (dot), 12);
  clarify_tooltip_set_text (dot, tooltip);
  gtk_box_append (GTK_BOX (self->dots_box), dot);
  g_array_append_val (self->answered, answered);
}

guint
clarify_step_indicator_get_n_steps (ClarifyStepIndicator *self)
{
  g_return_val_if_fail (CLARIFY_IS_STEP_INDICATOR (self), 0);

  return self->answered->len;
}

void
clarify_step_indicator_set_answered (ClarifyStepIndicator *self,
                                     guint                 step,
                                     gboolean              answered)
{
  g_return_if_fail (CLARIFY_IS_STEP_INDICATOR (self));
  g_return_if_fail (step < self->answered->len);

  g_array_index (self->answered, gboolean, step) = !!answered;
  update_dot (self, step);
}

guint
clarify_step_indicator_get_current (ClarifyStepIndicator *self)
{
  g_return_val_if_fail (CLARIFY_IS_STEP_INDICATOR (self), 0);

  return self->current;
}

void
clarify_step_indicator_set_current (ClarifyStepIndicator *self,
                                    guint                 step)
{
  guint previous;

  g_return_if_fail (CLARIFY_IS_STEP_INDICATOR (self));
  g_return_if_fail (step < self->answered->len);

  previous = self->current;
  self->current = step;
  if (previous < self->answered->len)
    update_dot (self, previous);
  update_dot (self, step);
  update_label (self);
}
