/* clarify-mark.h: a small dot or check mark, drawn in the text colour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_MARK_DOT,
  CLARIFY_MARK_CHECK,
} ClarifyMarkShape;

#define CLARIFY_TYPE_MARK (clarify_mark_get_type ())

G_DECLARE_FINAL_TYPE (ClarifyMark, clarify_mark, CLARIFY, MARK, GObject)

/* A paintable for a GtkImage, which sizes it as an icon and gives it the
 * CSS colour: recoloured like a symbolic icon. */
GdkPaintable     *clarify_mark_new       (ClarifyMarkShape  shape);
ClarifyMarkShape  clarify_mark_get_shape (ClarifyMark      *self);

G_END_DECLS
