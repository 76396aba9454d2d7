/* clarify-text-frame.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-text-frame.h"

struct _ClarifyTextFrame
{
  GtkWidget  parent_instance;

  GtkWidget *scrolled;
  GtkWidget *label;
  int        max_height;
};

G_DEFINE_FINAL_TYPE (ClarifyTextFrame, clarify_text_frame, GTK_TYPE_WIDGET)

static gboolean
overflows (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_lower (adjustment) >
         gtk_adjustment_get_page_size (adjustment);
}

/* can-focus too: GTK 4.8's scrolled window, asked to take the focus while
 * it cannot, still says it did, and Tab stopped dead before it. */
static void
update_tab_stop (GtkScrolledWindow *scrolled)
{
  gboolean stop = overflows (gtk_scrolled_window_get_vadjustment (scrolled)) ||
                  overflows (gtk_scrolled_window_get_hadjustment (scrolled));

  gtk_widget_set_can_focus (GTK_WIDGET (scrolled), stop);
  gtk_widget_set_focusable (GTK_WIDGET (scrolled), stop);
}

/* A Tab stop only while there is something in it to scroll to with the
 * keys: text that fits is passed over. */
static void
track_tab_stop (GtkScrolledWindow *scrolled)
{
  update_tab_stop (scrolled);
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (scrolled), "changed",
                           G_CALLBACK (update_tab_stop), scrolled, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_scrolled_window_get_hadjustment (scrolled), "changed",
                           G_CALLBACK (update_tab_stop), scrolled, G_CONNECT_SWAPPED);
}

static GtkSizeRequestMode
clarify_text_frame_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
clarify_text_frame_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  ClarifyTextFrame *self = CLARIFY_TEXT_FRAME (widget);
  int height;

  if (orientation == GTK_ORIENTATION_HORIZONTAL || for_size < 0)
    {
      gtk_widget_measure (self->scrolled, orientation, for_size, minimum, natural, NULL, NULL);
      return;
    }

  /* All of the text at this width (the viewport adds nothing around it),
   * up to the limit; the scrolled window shows the rest. */
  gtk_widget_measure (self->label, GTK_ORIENTATION_VERTICAL, for_size, NULL, &height, NULL, NULL);
  *minimum = *natural = MIN (height, self->max_height);
}

static void
clarify_text_frame_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  ClarifyTextFrame *self = CLARIFY_TEXT_FRAME (widget);

  gtk_widget_allocate (self->scrolled, width, height, baseline, NULL);
}

static void
clarify_text_frame_dispose (GObject *object)
{
  ClarifyTextFrame *self = CLARIFY_TEXT_FRAME (object);

  self->label = NULL;
  g_clear_pointer (&self->scrolled, gtk_widget_unparent);

  G_OBJECT_CLASS (clarify_text_frame_parent_class)->dispose (object);
}

static void
clarify_text_frame_class_init (ClarifyTextFrameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_text_frame_dispose;

  widget_class->get_request_mode = clarify_text_frame_get_request_mode;
  widget_class->measure = clarify_text_frame_measure;
  widget_class->size_allocate = clarify_text_frame_size_allocate;

  gtk_widget_class_set_css_name (widget_class, "clarifytextframe");
}

static void
clarify_text_frame_init (ClarifyTextFrame *self)
{
  self->label = gtk_label_new (NULL);
  gtk_label_set_use_markup (GTK_LABEL (self->label), FALSE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0.0);
  gtk_label_set_yalign (GTK_LABEL (self->label), 0.0);
  gtk_widget_set_margin_top (self->label, 8);
  gtk_widget_set_margin_bottom (self->label, 8);
  gtk_widget_set_margin_start (self->label, 12);
  gtk_widget_set_margin_end (self->label, 12);
  gtk_widget_add_css_class (self->label, "monospace");

  self->scrolled = gtk_scrolled_window_new ();
  /* A scrollbar that stays: more of the command is to be read. */
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (self->scrolled), FALSE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), self->label);
  gtk_widget_add_css_class (self->scrolled, "card");
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));

  track_tab_stop (GTK_SCROLLED_WINDOW (self->scrolled));
}

GtkWidget *
clarify_text_frame_new (gboolean wrap,
                        int      max_height)
{
  ClarifyTextFrame *self = g_object_new (CLARIFY_TYPE_TEXT_FRAME, NULL);

  self->max_height = max_height;
  gtk_label_set_wrap (GTK_LABEL (self->label), wrap);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled),
                                  wrap ? GTK_POLICY_NEVER : GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);

  return GTK_WIDGET (self);
}

void
clarify_text_frame_set_prose (ClarifyTextFrame *self)
{
  g_return_if_fail (CLARIFY_IS_TEXT_FRAME (self));

  gtk_widget_remove_css_class (self->label, "monospace");
  gtk_widget_add_css_class (self->label, "dim-label");
  gtk_widget_set_margin_top (self->label, 0);
  gtk_widget_set_margin_bottom (self->label, 0);
  gtk_widget_set_margin_start (self->label, 0);
  gtk_widget_set_margin_end (self->label, 0);
  gtk_widget_remove_css_class (self->scrolled, "card");
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (self->scrolled), TRUE);
}

GtkWidget *
clarify_text_frame_get_label (ClarifyTextFrame *self)
{
  g_return_val_if_fail (CLARIFY_IS_TEXT_FRAME (self), NULL);

  return self->label;
}

void
clarify_text_frame_set_text (ClarifyTextFrame *self,
                             const char       *text)
{
  g_return_if_fail (CLARIFY_IS_TEXT_FRAME (self));

  gtk_label_set_text (GTK_LABEL (self->label), text != NULL ? text : "");
}
