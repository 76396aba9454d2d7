/* clarify-test-window.h: the main window's list of open questions, as tests read it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "clarify-request-row.h"
#include "clarify-test-gtk-utils.h"

/* How many rows the window's list (a GtkListView) holds now: one for each
 * question in view, not one for each question. */
static inline guint
clarify_test_count_request_rows (GtkWidget *window)
{
  GtkWidget *list = clarify_test_find_widget (window, "requests_list");
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (CLARIFY_IS_REQUEST_ROW (gtk_widget_get_first_child (row)))
      n++;

  return n;
}

/* The row built for @request (when @request_id is NULL) or for the request
 * whose id is @request_id in the window's list, or NULL. */
static inline ClarifyRequestRow *
clarify_test_find_request_row_full (GtkWidget      *window,
                                    ClarifyRequest *request,
                                    const char     *request_id)
{
  GtkWidget *list = clarify_test_find_widget (window, "requests_list");

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *child = gtk_widget_get_first_child (row);
      ClarifyRequest *shown;

      if (!CLARIFY_IS_REQUEST_ROW (child))
        continue;
      shown = clarify_request_row_get_request (CLARIFY_REQUEST_ROW (child));
      if (shown != NULL &&
          (request_id != NULL ? g_strcmp0 (clarify_request_get_id (shown), request_id) == 0 : shown == request))
        return CLARIFY_REQUEST_ROW (child);
    }

  return NULL;
}

#define clarify_test_find_request_row(window, request_id) \
  clarify_test_find_request_row_full ((window), NULL, (request_id))
