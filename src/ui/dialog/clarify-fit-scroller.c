/* clarify-fit-scroller.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-fit-scroller.h"

/* The content grows the window up to this height, then scrolls. */
#define MAX_CONTENT_HEIGHT 640

struct _ClarifyFitScroller
{
  AdwBin parent_instance;

  guint  grow_idle_id;
};

G_DEFINE_FINAL_TYPE (ClarifyFitScroller, clarify_fit_scroller, ADW_TYPE_BIN)

/* GtkScrolledWindow (4.8) asks its content for its natural height without
 * the width it will get, so wrapped text and chips come out too tall and
 * leave a gap. This asks the content for the real width instead. */
static void
fit_measure (GtkWidget      *widget,
             GtkOrientation  orientation,
             int             for_size,
             int            *minimum,
             int            *natural,
             int            *minimum_baseline,
             int            *natural_baseline)
{
  GtkWidget *scroller = gtk_widget_get_first_child (widget);
  GtkWidget *content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller));

  gtk_widget_measure (scroller, orientation, for_size, minimum, natural, NULL, NULL);

  if (orientation == GTK_ORIENTATION_VERTICAL && content != NULL && for_size >= 0)
    {
      int content_natural;

      gtk_widget_measure (content, orientation, for_size, NULL, &content_natural, NULL, NULL);
      *natural = MAX (*minimum, MIN (content_natural, MAX_CONTENT_HEIGHT));
    }
}

static void
fit_allocate (GtkWidget *widget,
              int        width,
              int        height,
              int        baseline)
{
  gtk_widget_allocate (gtk_widget_get_first_child (widget), width, height, baseline, NULL);
}

/* Windows do not grow by themselves once shown: when an error message or an
 * "Other" entry appears, make room for it rather than hide it below the fold. */
static gboolean
grow_idle_cb (gpointer data)
{
  ClarifyFitScroller *self = data;
  GtkWidget *widget = GTK_WIDGET (self);
  GtkRoot *root = gtk_widget_get_root (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int natural = 0;
  int window_width, window_height;

  self->grow_idle_id = 0;

  if (!GTK_IS_WINDOW (root) || !gtk_widget_get_mapped (GTK_WIDGET (root)) ||
      gtk_window_is_maximized (GTK_WINDOW (root)) || width <= 0)
    return G_SOURCE_REMOVE;

  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width,
                      NULL, &natural, NULL, NULL);
  if (natural > height)
    {
      /* The default size counts the frame around a client-side decorated
       * window, the widget's height does not: grow from the former. */
      gtk_window_get_default_size (GTK_WINDOW (root), &window_width, &window_height);
      if (window_height <= 0)
        window_height = gtk_widget_get_height (GTK_WIDGET (root));
      gtk_window_set_default_size (GTK_WINDOW (root), window_width,
                                   window_height + natural - height);
    }

  return G_SOURCE_REMOVE;
}

static void
clarify_fit_scroller_dispose (GObject *object)
{
  ClarifyFitScroller *self = CLARIFY_FIT_SCROLLER (object);

  g_clear_handle_id (&self->grow_idle_id, g_source_remove);

  G_OBJECT_CLASS (clarify_fit_scroller_parent_class)->dispose (object);
}

static void
clarify_fit_scroller_class_init (ClarifyFitScrollerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_fit_scroller_dispose;

  /* A plain widget would be read out by its type name (GTK 4.8). */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_fit_scroller_init (ClarifyFitScroller *self)
{
  gtk_widget_set_layout_manager (GTK_WIDGET (self),
                                 gtk_custom_layout_new (NULL, fit_measure, fit_allocate));
}

void
clarify_fit_scroller_queue_grow (ClarifyFitScroller *self)
{
  g_return_if_fail (CLARIFY_IS_FIT_SCROLLER (self));

  if (self->grow_idle_id == 0)
    self->grow_idle_id = g_idle_add (grow_idle_cb, self);
}
