/* clarify-wrap-bin.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-wrap-bin.h"

struct _ClarifyWrapBin
{
  AdwBin parent_instance;
};

G_DEFINE_FINAL_TYPE (ClarifyWrapBin, clarify_wrap_bin, ADW_TYPE_BIN)

static GtkSizeRequestMode
wrap_bin_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
wrap_bin_measure (GtkWidget      *widget,
                  GtkOrientation  orientation,
                  int             for_size,
                  int            *minimum,
                  int            *natural,
                  int            *minimum_baseline,
                  int            *natural_baseline)
{
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  if (child == NULL || !gtk_widget_should_layout (child))
    return;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    for_size = -1;

  gtk_widget_measure (child, orientation, for_size,
                      minimum, natural, minimum_baseline, natural_baseline);
}

static void
wrap_bin_allocate (GtkWidget *widget,
                   int        width,
                   int        height,
                   int        baseline)
{
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  if (child != NULL && gtk_widget_should_layout (child))
    gtk_widget_allocate (child, width, height, baseline, NULL);
}

static void
clarify_wrap_bin_class_init (ClarifyWrapBinClass *klass)
{
  /* Its text speaks; a plain widget would be read out by its type name. */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_wrap_bin_init (ClarifyWrapBin *self)
{
  gtk_widget_set_layout_manager (GTK_WIDGET (self),
                                 gtk_custom_layout_new (wrap_bin_get_request_mode,
                                                        wrap_bin_measure,
                                                        wrap_bin_allocate));
}

GtkWidget *
clarify_wrap_bin_new (GtkWidget *child)
{
  return g_object_new (CLARIFY_TYPE_WRAP_BIN, "child", child, NULL);
}
