/* clarify-link-input.c
 *
 * MCP 2025-11-25 asks a client in URL mode to show the whole address, to
 * stress its domain and to open nothing without the person's consent. The
 * buttons follow the permission input: the refusal on the left, the
 * suggested action last.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "clarify-input-private.h"
#include "clarify-link-input.h"
#include "clarify-text-frame.h"

/* A longer address scrolls (it is never cut). */
#define ADDRESS_MAX_HEIGHT 160

struct _ClarifyLinkInput
{
  ClarifyInput  parent_instance;

  GtkWidget    *address_label;
  GtkWidget    *error_label;
  GtkWidget    *decline_button;
  GtkWidget    *open_button;

  char         *address;
  /* The value answered, or NULL until then. */
  char         *choice;
  GCancellable *opening;
};

G_DEFINE_FINAL_TYPE (ClarifyLinkInput, clarify_link_input, CLARIFY_TYPE_INPUT)

gboolean
clarify_link_find_host (const char *address,
                        gsize      *start,
                        gsize      *end)
{
  const char *authority, *authority_end, *host, *host_end;

  g_return_val_if_fail (start != NULL && end != NULL, FALSE);

  authority = address != NULL ? strstr (address, "://") : NULL;
  if (authority == NULL)
    return FALSE;
  authority += 3;
  authority_end = authority + strcspn (authority, "/?#");

  /* The host follows the last "@": "https://bank.example@evil.example/"
   * leads to evil.example, and that is what must stand out. */
  host = authority;
  for (const char *p = authority; p < authority_end; p++)
    if (*p == '@')
      host = p + 1;

  if (*host == '[')
    {
      host_end = memchr (host, ']', authority_end - host);
      host_end = host_end != NULL ? host_end + 1 : authority_end;
    }
  else
    {
      host_end = memchr (host, ':', authority_end - host);
      if (host_end == NULL)
        host_end = authority_end;
    }

  if (host_end == host)
    return FALSE;

  *start = host - address;
  *end = host_end - address;

  return TRUE;
}

static void
answer (ClarifyLinkInput *self,
        const char       *value)
{
  g_free (self->choice);
  self->choice = g_strdup (value);
  clarify_input_changed (CLARIFY_INPUT (self));

  if (clarify_input_get_valid (CLARIFY_INPUT (self)))
    clarify_input_activate_default (CLARIFY_INPUT (self));
}

static void
opened_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  ClarifyLinkInput *self;

  /* Cancelled only when the input is gone. */
  if (!g_app_info_launch_default_for_uri_finish (result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = CLARIFY_LINK_INPUT (user_data);
  g_clear_object (&self->opening);
  gtk_widget_set_sensitive (self->open_button, TRUE);

  if (error != NULL)
    {
      g_autofree char *text = NULL;

      /* Translators: %s is the system's reason */
      text = g_strdup_printf (_("The address could not be opened: %s"), error->message);
      gtk_label_set_text (GTK_LABEL (self->error_label), text);
      gtk_widget_set_visible (self->error_label, TRUE);
      clarify_input_grown (CLARIFY_INPUT (self));
      return;
    }

  /* Opened: the agent may go on, whatever the browser does next. */
  answer (self, CLARIFY_LINK_OPEN);
}

/* Only here, on the person's click (or Enter/Space on the button), is
 * anything opened. */
static void
open_clicked_cb (ClarifyLinkInput *self)
{
  g_autoptr(GdkAppLaunchContext) context = NULL;

  if (self->opening != NULL)
    return;

  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_widget_set_sensitive (self->open_button, FALSE);
  self->opening = g_cancellable_new ();
  context = gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (self)));
  g_app_info_launch_default_for_uri_async (self->address, G_APP_LAUNCH_CONTEXT (context),
                                           self->opening, opened_cb, self);
}

static void
decline_clicked_cb (ClarifyLinkInput *self)
{
  answer (self, CLARIFY_LINK_DECLINE);
}

/* Whole, wrapping anywhere, with the host in bold. The text stays plain:
 * the weight is an attribute on byte offsets, no markup is parsed. */
static void
add_address (ClarifyLinkInput *self)
{
  GtkWidget *frame = clarify_text_frame_new (TRUE, ADDRESS_MAX_HEIGHT);
  GtkWidget *where;
  gsize start, end;

  self->address_label = clarify_text_frame_get_label (CLARIFY_TEXT_FRAME (frame));
  clarify_text_frame_set_text (CLARIFY_TEXT_FRAME (frame), self->address);
  gtk_widget_add_css_class (frame, "clarify-subject");
  gtk_widget_set_parent (frame, GTK_WIDGET (self));

  if (!clarify_link_find_host (self->address, &start, &end))
    return;

  {
    g_autoptr(PangoAttrList) attributes = pango_attr_list_new ();
    g_autofree char *host = g_strndup (self->address + start, end - start);
    g_autofree char *text = NULL;
    PangoAttribute *bold = pango_attr_weight_new (PANGO_WEIGHT_BOLD);

    bold->start_index = start;
    bold->end_index = end;
    pango_attr_list_insert (attributes, bold);
    gtk_label_set_attributes (GTK_LABEL (self->address_label), attributes);

    /* The host once more in words, for eyes and screen readers alike. */
    /* Translators: %s is a web site's host name, such as example.com */
    text = g_strdup_printf (_("The page is on %s."), host);
    where = clarify_input_new_hint_label ();
    gtk_label_set_text (GTK_LABEL (where), text);
    gtk_widget_set_parent (where, GTK_WIDGET (self));
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->open_button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                    -1);
  }
}

static void
clarify_link_input_setup (ClarifyInput    *input,
                          ClarifyQuestion *question)
{
  ClarifyLinkInput *self = CLARIFY_LINK_INPUT (input);
  GtkWidget *buttons;

  self->address = g_strdup (clarify_question_get_subject (question));

  self->decline_button = gtk_button_new_with_mnemonic (_("_Decline"));
  g_signal_connect_swapped (self->decline_button, "clicked", G_CALLBACK (decline_clicked_cb), self);
  self->open_button = gtk_button_new_with_mnemonic (_("_Open in Browser"));
  gtk_widget_add_css_class (self->open_button, "suggested-action");
  g_signal_connect_swapped (self->open_button, "clicked", G_CALLBACK (open_clicked_cb), self);

  add_address (self);

  /* An alert, so that screen readers announce it when it appears. */
  self->error_label = g_object_new (GTK_TYPE_LABEL,
                                    "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT,
                                    "wrap", TRUE,
                                    "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                    "xalign", 0.0f,
                                    NULL);
  gtk_widget_add_css_class (self->error_label, "error");
  gtk_widget_add_css_class (self->error_label, "caption");
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_widget_set_parent (self->error_label, GTK_WIDGET (self));

  buttons = clarify_input_new_button_row (self->decline_button, &self->open_button, 1);
  gtk_widget_set_parent (buttons, GTK_WIDGET (self));
}

static void
clarify_link_input_collect (ClarifyInput  *input,
                            GPtrArray     *values,
                            char         **custom_text)
{
  ClarifyLinkInput *self = CLARIFY_LINK_INPUT (input);

  if (self->choice != NULL)
    g_ptr_array_add (values, g_strdup (self->choice));
}

static gboolean
clarify_link_input_grab_focus (GtkWidget *widget)
{
  ClarifyLinkInput *self = CLARIFY_LINK_INPUT (widget);

  return self->open_button != NULL && gtk_widget_grab_focus (self->open_button);
}

static void
clarify_link_input_dispose (GObject *object)
{
  ClarifyLinkInput *self = CLARIFY_LINK_INPUT (object);

  /* A launch still under way must not call back into a dead input. */
  g_cancellable_cancel (self->opening);
  g_clear_object (&self->opening);
  self->address_label = NULL;
  self->error_label = NULL;
  self->decline_button = NULL;
  self->open_button = NULL;

  G_OBJECT_CLASS (clarify_link_input_parent_class)->dispose (object);
}

static void
clarify_link_input_finalize (GObject *object)
{
  ClarifyLinkInput *self = CLARIFY_LINK_INPUT (object);

  g_clear_pointer (&self->address, g_free);
  g_clear_pointer (&self->choice, g_free);

  G_OBJECT_CLASS (clarify_link_input_parent_class)->finalize (object);
}

static void
clarify_link_input_class_init (ClarifyLinkInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_link_input_dispose;
  object_class->finalize = clarify_link_input_finalize;

  widget_class->grab_focus = clarify_link_input_grab_focus;

  input_class->setup = clarify_link_input_setup;
  input_class->collect = clarify_link_input_collect;
}

static void
clarify_link_input_init (ClarifyLinkInput *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 12);
}

GtkWidget *
clarify_link_input_get_open_button (ClarifyLinkInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_LINK_INPUT (self), NULL);

  return self->open_button;
}

GtkWidget *
clarify_link_input_get_decline_button (ClarifyLinkInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_LINK_INPUT (self), NULL);

  return self->decline_button;
}

GtkWidget *
clarify_link_input_get_address_label (ClarifyLinkInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_LINK_INPUT (self), NULL);

  return self->address_label;
}
