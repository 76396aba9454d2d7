/* clarify-option-texts.c
 *
 * The texts ask for no width: measured across, a wrapping label is laid out
 * as narrow as it goes, one character per line, and GtkListView (4.8)
 * measures every row across. The list takes the width of its dialog or
 * window anyway.
 *
 * GtkScrolledWindow (4.8) asks for its content's natural height without a
 * width, so every row would also be laid out unwrapped for that. In a long
 * list the answer is the list's maximum height whatever the rows hold, and
 * a lower bound per row gives it as well: the same bound by which the list
 * counts the rows that fill its first frame. In a short list the answer
 * is the texts' height at the width they were last given, and a new width
 * asks again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-option-texts.h"

#define SPACING 2
/* The texts are at least one line of small text, and a description
 * another line of smaller text below. */
#define MIN_HEIGHT             16
#define MIN_DESCRIPTION_HEIGHT 12

struct _ClarifyOptionTexts
{
  GtkWidget  parent_instance;

  GtkWidget *title;
  GtkWidget *subtitle;
  gboolean   estimate_height;
  gboolean   asked_without_width;
  int        last_width;
  int        height_without_width;  /* the answer then */
  guint      resize_id;
};

G_DEFINE_FINAL_TYPE (ClarifyOptionTexts, clarify_option_texts, GTK_TYPE_WIDGET)

static GtkWidget *
new_label (ClarifyOptionTexts *self)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_parent (label, GTK_WIDGET (self));

  return label;
}

/* Stacks the shown texts from the top at @width, allocating them if
 * @allocate; returns their height. */
static int
stack_texts (ClarifyOptionTexts *self,
             int                 width,
             gboolean            allocate)
{
  gboolean first = TRUE;
  int y = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int height;

      if (!gtk_widget_should_layout (child))
        continue;

      if (!first)
        y += SPACING;
      first = FALSE;

      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, &height, NULL, NULL, NULL);
      if (allocate)
        gtk_widget_allocate (child, width, height, -1,
                             gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, y)));
      y += height;
    }

  return y;
}

static GtkSizeRequestMode
clarify_option_texts_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
clarify_option_texts_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  ClarifyOptionTexts *self = CLARIFY_OPTION_TEXTS (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = 0;
  else if (for_size < 0 && self->estimate_height)
    *minimum = clarify_option_texts_least_height (gtk_label_get_text (GTK_LABEL (self->subtitle)));
  else if (for_size < 0)
    {
      self->asked_without_width = TRUE;
      self->height_without_width = stack_texts (self, self->last_width > 0 ? self->last_width : -1, FALSE);
      *minimum = self->height_without_width;
    }
  else
    *minimum = stack_texts (self, for_size, FALSE);

  *natural = *minimum;
}

static gboolean
resize_cb (gpointer data)
{
  ClarifyOptionTexts *self = data;

  self->resize_id = 0;
  self->asked_without_width = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));

  return G_SOURCE_REMOVE;
}

static void
clarify_option_texts_size_allocate (GtkWidget *widget,
                                    int        width,
                                    int        height,
                                    int        baseline)
{
  ClarifyOptionTexts *self = CLARIFY_OPTION_TEXTS (widget);

  self->last_width = width;
  /* Answered without a width otherwise than at this one: asked again after
   * this layout. */
  if (stack_texts (self, width, TRUE) != self->height_without_width &&
      self->asked_without_width && self->resize_id == 0)
    self->resize_id = g_idle_add (resize_cb, self);
}

static void
clarify_option_texts_dispose (GObject *object)
{
  ClarifyOptionTexts *self = CLARIFY_OPTION_TEXTS (object);

  g_clear_handle_id (&self->resize_id, g_source_remove);
  g_clear_pointer (&self->title, gtk_widget_unparent);
  g_clear_pointer (&self->subtitle, gtk_widget_unparent);

  G_OBJECT_CLASS (clarify_option_texts_parent_class)->dispose (object);
}

static void
clarify_option_texts_class_init (ClarifyOptionTextsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_option_texts_dispose;

  widget_class->get_request_mode = clarify_option_texts_get_request_mode;
  widget_class->measure = clarify_option_texts_measure;
  widget_class->size_allocate = clarify_option_texts_size_allocate;

  /* Its labels speak; a plain widget would be read out by its type name. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_option_texts_init (ClarifyOptionTexts *self)
{
  self->title = new_label (self);
  self->subtitle = new_label (self);
  gtk_widget_add_css_class (self->subtitle, "dim-label");
  gtk_widget_add_css_class (self->subtitle, "caption");
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_CENTER);
}

GtkWidget *
clarify_option_texts_new (gboolean estimate_height)
{
  ClarifyOptionTexts *self = g_object_new (CLARIFY_TYPE_OPTION_TEXTS, NULL);

  self->estimate_height = estimate_height;

  return GTK_WIDGET (self);
}

int
clarify_option_texts_least_height (const char *description)
{
  if (description == NULL || description[0] == '\0')
    return MIN_HEIGHT;

  return MIN_HEIGHT + SPACING + MIN_DESCRIPTION_HEIGHT;
}

void
clarify_option_texts_set (ClarifyOptionTexts *self,
                          const char         *label,
                          const char         *description)
{
  g_return_if_fail (CLARIFY_IS_OPTION_TEXTS (self));

  gtk_label_set_text (GTK_LABEL (self->title), label);
  gtk_label_set_text (GTK_LABEL (self->subtitle), description != NULL ? description : "");
  gtk_widget_set_visible (self->subtitle, description != NULL && description[0] != '\0');
}

static void
limit_lines (GtkWidget *label,
             int        lines)
{
  gtk_label_set_lines (GTK_LABEL (label), lines > 0 ? lines : -1);
  gtk_label_set_ellipsize (GTK_LABEL (label), lines > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
}

void
clarify_option_texts_set_lines (ClarifyOptionTexts *self,
                                int                 label_lines,
                                int                 description_lines)
{
  g_return_if_fail (CLARIFY_IS_OPTION_TEXTS (self));

  limit_lines (self->title, label_lines);
  limit_lines (self->subtitle, description_lines);
}

const char *
clarify_option_texts_get_label (ClarifyOptionTexts *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION_TEXTS (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->title));
}

const char *
clarify_option_texts_get_description (ClarifyOptionTexts *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION_TEXTS (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->subtitle));
}

void
clarify_option_texts_describe (ClarifyOptionTexts *self,
                               GtkWidget          *widget)
{
  const char *description;

  g_return_if_fail (CLARIFY_IS_OPTION_TEXTS (self));
  g_return_if_fail (GTK_IS_WIDGET (widget));

  description = clarify_option_texts_get_description (self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, clarify_option_texts_get_label (self),
                                  -1);
  if (description[0] != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}
