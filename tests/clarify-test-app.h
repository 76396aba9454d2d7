/* clarify-test-app.h: what the tests of a running ClarifyApplication look for
 *
 * Header-only (static inline): tests/meson.build links no extra test sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-test-gtk-utils.h"

#include "clarify-connection-row.h"
#include "clarify-request-dialog.h"
#include "clarify-window.h"

/* The dialog @application shows for the request @request_id, or NULL. */
static inline ClarifyRequestDialog *
clarify_test_find_request_dialog (GtkApplication *application,
                                  const char     *request_id)
{
  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    {
      if (CLARIFY_IS_REQUEST_DIALOG (l->data) &&
          g_strcmp0 (clarify_request_get_id (clarify_request_dialog_get_request (l->data)), request_id) == 0)
        return l->data;
    }

  return NULL;
}

/* Whether the application @data (a GtkApplication) shows its main window;
 * for clarify_test_wait_until(). */
static inline gboolean
clarify_test_main_window_is_shown (gpointer data)
{
  for (GList *l = gtk_application_get_windows (data); l != NULL; l = l->next)
    {
      if (CLARIFY_IS_WINDOW (l->data) && gtk_widget_get_mapped (l->data))
        return TRUE;
    }

  return FALSE;
}

/* The main window's row of the connection @name, or NULL. */
static inline ClarifyConnectionRow *
clarify_test_find_connection_row (GtkApplication *application,
                                  const char     *name)
{
  GtkWidget *list = NULL;

  for (GList *l = gtk_application_get_windows (application); l != NULL && list == NULL; l = l->next)
    {
      if (CLARIFY_IS_WINDOW (l->data))
        list = clarify_test_find_widget (l->data, "connections_list");
    }

  for (GtkWidget *row = list ? gtk_widget_get_first_child (list) : NULL; row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      if (CLARIFY_IS_CONNECTION_ROW (row) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), name) == 0)
        return CLARIFY_CONNECTION_ROW (row);
    }

  return NULL;
}
