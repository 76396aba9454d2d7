/* clarify-test-answer.h: answering a ClarifyRequestDialog through its widgets
 *
 * For tests that show a backend's requests without ClarifyApplication.
 * Header-only (static inline): tests/meson.build links no extra test sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend.h"
#include "clarify-request-dialog-private.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-text-input.h"

static inline void
clarify_test_answer_respond_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_backend_deliver_finish (CLARIFY_BACKEND (object), result, &error));
}

static inline void
clarify_test_answer_response_cb (ClarifyRequestDialog *dialog,
                                 ClarifyResponse      *response,
                                 ClarifyBackend       *backend)
{
  clarify_backend_deliver_async (backend, clarify_request_dialog_get_request (dialog),
                                 response, NULL, clarify_test_answer_respond_cb, NULL);
}

/* A dialog for @request whose ::response goes back through
 * clarify_backend_deliver_async(), as ClarifyApplication does. Not presented yet. */
static inline ClarifyRequestDialog *
clarify_test_answer_dialog_new (ClarifyBackend *backend,
                                ClarifyRequest *request)
{
  ClarifyRequestDialog *dialog = clarify_request_dialog_new (NULL, request);

  g_signal_connect_object (dialog, "response", G_CALLBACK (clarify_test_answer_response_cb), backend, 0);
  return dialog;
}

static inline GtkWidget *
clarify_test_answer_find_by_id (ClarifyRequestDialog *dialog,
                                const char           *id)
{
  GtkWidget *widget = clarify_test_find_widget (GTK_WIDGET (dialog), id);

  g_assert_nonnull (widget);
  return widget;
}

/* Clicks the dialog's button @id ("submit_button", "cancel_button" …). */
static inline void
clarify_test_answer_press (ClarifyRequestDialog *dialog,
                           const char           *id)
{
  GtkWidget *button = clarify_test_answer_find_by_id (dialog, id);

  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static inline gboolean
clarify_test_answer_shows_label (GtkWidget  *root,
                                 const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (clarify_test_answer_shows_label (child, text))
      return TRUE;

  return FALSE;
}

/* The visible button (toggle, check or plain) below @root that shows @label. */
static inline GtkWidget *
clarify_test_answer_find_choice (GtkWidget  *root,
                                 const char *label)
{
  if (!gtk_widget_get_visible (root))
    return NULL;

  if ((GTK_IS_BUTTON (root) || GTK_IS_CHECK_BUTTON (root)) && clarify_test_answer_shows_label (root, label))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = clarify_test_answer_find_choice (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Clicks the choice @label of question @position. */
static inline void
clarify_test_answer_click_choice (ClarifyRequestDialog *dialog,
                                  guint                 position,
                                  const char           *label)
{
  GtkWidget *button = clarify_test_answer_find_choice (GTK_WIDGET (clarify_request_dialog_get_input (dialog, position)),
                                                       label);

  g_assert_nonnull (button);
  if (GTK_IS_BUTTON (button))
    g_signal_emit_by_name (button, "clicked");
  else
    gtk_widget_activate (button);
}

/* Types @text into the text question @position. */
static inline void
clarify_test_answer_type_text (ClarifyRequestDialog *dialog,
                               guint                 position,
                               const char           *text)
{
  ClarifyInput *input = clarify_request_dialog_get_input (dialog, position);

  clarify_test_set_field_text (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (input)), text);
}

/* On a paged dialog, moves on to the next question. */
static inline void
clarify_test_answer_next_page (ClarifyRequestDialog *dialog)
{
  if (clarify_request_dialog_get_paged (dialog))
    clarify_test_answer_press (dialog, "next_button");
}
