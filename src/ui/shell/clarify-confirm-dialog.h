/* clarify-confirm-dialog.h: the question before something that cannot be undone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* A message dialog over @parent (nullable) asking @heading, with @body
 * (both plain text), and the answers "cancel" and @response (labelled
 * @label, destructive). Cancel is the default and what Escape or closing
 * it answers. Not yet presented: connect ::response first. */
AdwMessageDialog *clarify_confirm_dialog_new (GtkWindow  *parent,
                                       const char *heading,
                                       const char *body,
                                       const char *response,
                                       const char *label);

G_END_DECLS
