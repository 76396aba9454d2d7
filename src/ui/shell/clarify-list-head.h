/* clarify-list-head.h: the first items of a list model
 *
 * As GtkSliceListModel from 0, but an item that comes in at the front of a
 * full head moves the others along: it is reported as one item added and
 * the last one dropped, not as the whole head replaced. A list view then
 * builds one row, not a row for every item in the head.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_LIST_HEAD (clarify_list_head_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyListHead, clarify_list_head, CLARIFY, LIST_HEAD, GObject)

/* The first @size items of @model (taken). */
ClarifyListHead *clarify_list_head_new      (GListModel      *model,
                                             guint            size);
guint            clarify_list_head_get_size (ClarifyListHead *self);
void             clarify_list_head_set_size (ClarifyListHead *self,
                                             guint            size);

G_END_DECLS
