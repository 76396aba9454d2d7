/* clarify-confirm-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-confirm-dialog.h"

AdwMessageDialog *
clarify_confirm_dialog_new (GtkWindow  *parent,
                     const char *heading,
                     const char *body,
                     const char *response,
                     const char *label)
{
  AdwMessageDialog *dialog;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (response != NULL && label != NULL, NULL);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading, body));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    response, label,
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, response, ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");

  return dialog;
}
