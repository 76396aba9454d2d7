/* clarify-mark.c
 *
 * The icon theme has these marks as SVG only at the 12 px they are shown
 * at, and drawing one SVG loads librsvg (with libxml2 and ICU: ~8 MiB of
 * resident pages on Debian 12) into a process that otherwise needs none.
 * Two shapes this simple are drawn here instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-mark.h"

struct _ClarifyMark
{
  GObject          parent_instance;

  ClarifyMarkShape shape;
};

static void clarify_mark_paintable_iface_init (GdkPaintableInterface *iface);
static void clarify_mark_symbolic_iface_init  (GtkSymbolicPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (ClarifyMark, clarify_mark, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GDK_TYPE_PAINTABLE, clarify_mark_paintable_iface_init)
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SYMBOLIC_PAINTABLE, clarify_mark_symbolic_iface_init))

static void
clarify_mark_snapshot_symbolic (GtkSymbolicPaintable *paintable,
                                GdkSnapshot          *snapshot,
                                double                width,
                                double                height,
                                const GdkRGBA        *colors,
                                gsize                 n_colors)
{
  ClarifyMark *self = CLARIFY_MARK (paintable);
  double size = MIN (width, height);
  cairo_t *cr;

  if (size <= 0 || n_colors == 0)
    return;

  cr = gtk_snapshot_append_cairo (GTK_SNAPSHOT (snapshot), &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_cairo_set_source_rgba (cr, &colors[0]);
  cairo_translate (cr, (width - size) / 2, (height - size) / 2);
  cairo_scale (cr, size, size);

  if (self->shape == CLARIFY_MARK_DOT)
    {
      /* Half the box, as the theme's record mark. */
      cairo_arc (cr, 0.5, 0.5, 0.25, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  else
    {
      cairo_set_line_width (cr, 2.0 / 12);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      cairo_move_to (cr, 0.17, 0.52);
      cairo_line_to (cr, 0.40, 0.75);
      cairo_line_to (cr, 0.83, 0.28);
      cairo_stroke (cr);
    }

  cairo_destroy (cr);
}

static void
clarify_mark_snapshot (GdkPaintable *paintable,
                       GdkSnapshot  *snapshot,
                       double        width,
                       double        height)
{
  /* Outside a GtkImage: black, as an icon would be. */
  const GdkRGBA black = { 0, 0, 0, 1 };

  clarify_mark_snapshot_symbolic (GTK_SYMBOLIC_PAINTABLE (paintable), snapshot, width, height, &black, 1);
}

static GdkPaintableFlags
clarify_mark_get_flags (GdkPaintable *paintable)
{
  return GDK_PAINTABLE_STATIC_SIZE | GDK_PAINTABLE_STATIC_CONTENTS;
}

static void
clarify_mark_paintable_iface_init (GdkPaintableInterface *iface)
{
  iface->snapshot = clarify_mark_snapshot;
  iface->get_flags = clarify_mark_get_flags;
}

static void
clarify_mark_symbolic_iface_init (GtkSymbolicPaintableInterface *iface)
{
  iface->snapshot_symbolic = clarify_mark_snapshot_symbolic;
}

static void
clarify_mark_class_init (ClarifyMarkClass *klass)
{
}

static void
clarify_mark_init (ClarifyMark *self)
{
}

GdkPaintable *
clarify_mark_new (ClarifyMarkShape shape)
{
  ClarifyMark *self = g_object_new (CLARIFY_TYPE_MARK, NULL);

  self->shape = shape;

  return GDK_PAINTABLE (self);
}

ClarifyMarkShape
clarify_mark_get_shape (ClarifyMark *self)
{
  g_return_val_if_fail (CLARIFY_IS_MARK (self), CLARIFY_MARK_DOT);

  return self->shape;
}
