/* clarify-permission-input.c
 *
 * The buttons follow the GNOME HIG for a choice with a safe default: the
 * refusal on the left, the affirmative answers on the right, the usual one
 * (Allow Once) last and suggested.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-input-private.h"
#include "clarify-permission-input.h"
#include "clarify-text-frame.h"
#include "clarify-tooltip.h"

/* A longer subject scrolls (it is never cut). */
#define SUBJECT_MAX_HEIGHT 240

#define VALUE_KEY "clarify-permission-value"

struct _ClarifyPermissionInput
{
  ClarifyInput  parent_instance;

  GtkWidget    *subject_label;
  GtkWidget    *message_expander;
  GtkWidget    *message_entry;
  GtkWidget    *deny_button;
  GtkWidget    *always_button;
  GtkWidget    *once_button;

  /* The value answered, or NULL until a button is pressed. */
  char         *choice;
};

G_DEFINE_FINAL_TYPE (ClarifyPermissionInput, clarify_permission_input, CLARIFY_TYPE_INPUT)

static void
answer (ClarifyPermissionInput *self,
        const char             *value)
{
  g_free (self->choice);
  self->choice = g_strdup (value);
  clarify_input_changed (CLARIFY_INPUT (self));

  /* One click answers: the dialog submits (or moves on) right away. */
  if (clarify_input_get_valid (CLARIFY_INPUT (self)))
    clarify_input_activate_default (CLARIFY_INPUT (self));
}

static void
button_clicked_cb (GtkButton              *button,
                   ClarifyPermissionInput *self)
{
  answer (self, g_object_get_data (G_OBJECT (button), VALUE_KEY));
}

/* Enter after typing a message sends it, with the refusal it belongs to. */
static void
message_activate_cb (ClarifyPermissionInput *self)
{
  answer (self, CLARIFY_PERMISSION_REJECT);
}

static void
expanded_cb (ClarifyPermissionInput *self)
{
  if (gtk_expander_get_expanded (GTK_EXPANDER (self->message_expander)))
    {
      gtk_widget_grab_focus (self->message_entry);
      clarify_input_grown (CLARIFY_INPUT (self));
    }
}

static ClarifyOption *
find_option (ClarifyQuestion *question,
             const char      *value)
{
  guint n = clarify_question_get_n_options (question);

  for (guint i = 0; i < n; i++)
    {
      ClarifyOption *option = clarify_question_get_option (question, i);

      if (g_strcmp0 (clarify_option_get_value (option), value) == 0)
        return option;
    }

  return NULL;
}

/* NULL when the agent does not offer @value. */
static GtkWidget *
new_button (ClarifyPermissionInput *self,
            ClarifyQuestion        *question,
            const char             *value,
            const char             *label)
{
  const char *subject = clarify_question_get_subject (question);
  GtkWidget *button;

  if (find_option (question, value) == NULL)
    return NULL;

  button = gtk_button_new_with_label (label);
  g_object_set_data (G_OBJECT (button), VALUE_KEY, (gpointer) value);
  g_signal_connect (button, "clicked", G_CALLBACK (button_clicked_cb), self);

  /* A screen reader hears what the answer is about with the answer. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  if (subject != NULL && subject[0] != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subject,
                                    -1);

  return button;
}

/* Whole and in monospace: a person must see all of what they allow. Long
 * lines wrap anywhere, and a long command scrolls. */
static void
add_subject (ClarifyPermissionInput *self,
             const char             *subject)
{
  GtkWidget *frame = clarify_text_frame_new (TRUE, SUBJECT_MAX_HEIGHT);

  self->subject_label = clarify_text_frame_get_label (CLARIFY_TEXT_FRAME (frame));
  clarify_text_frame_set_text (CLARIFY_TEXT_FRAME (frame), subject);
  gtk_widget_add_css_class (frame, "clarify-subject");
  gtk_widget_set_parent (frame, GTK_WIDGET (self));
}

/* Typing is no answer yet (no error shows): the text is collected when a
 * button answers. */
static void
add_message (ClarifyPermissionInput *self)
{
  self->message_entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->message_entry),
                                  _("Why not, or what to do instead (optional)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->message_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Message with the refusal"),
                                  -1);
  g_signal_connect_swapped (self->message_entry, "activate",
                            G_CALLBACK (message_activate_cb), self);

  self->message_expander = gtk_expander_new_with_mnemonic (_("Add a _message…"));
  gtk_widget_set_margin_top (self->message_entry, 6);
  gtk_expander_set_child (GTK_EXPANDER (self->message_expander), self->message_entry);
  g_signal_connect_swapped (self->message_expander, "notify::expanded",
                            G_CALLBACK (expanded_cb), self);
  gtk_widget_set_parent (self->message_expander, GTK_WIDGET (self));
}

static void
add_rule (ClarifyPermissionInput *self,
          ClarifyQuestion        *question)
{
  ClarifyOption *always = find_option (question, CLARIFY_PERMISSION_ALWAYS);
  const char *rule = always != NULL ? clarify_option_get_description (always) : NULL;
  const char *subject = clarify_question_get_subject (question);
  GtkWidget *label;

  if (rule == NULL || rule[0] == '\0')
    return;

  /* The rule Always Allow adds, under the buttons and on the button. The
   * tooltip would take the place of the subject as the description. */
  clarify_tooltip_set_text (self->always_button, rule);
  if (subject != NULL && subject[0] != '\0')
    {
      g_autofree char *description = g_strdup_printf ("%s\n%s", subject, rule);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->always_button),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                      -1);
    }
  label = clarify_input_new_hint_label ();
  gtk_label_set_text (GTK_LABEL (label), rule);
  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  gtk_widget_set_parent (label, GTK_WIDGET (self));
}

static void
clarify_permission_input_setup (ClarifyInput    *input,
                                ClarifyQuestion *question)
{
  ClarifyPermissionInput *self = CLARIFY_PERMISSION_INPUT (input);
  const char *subject = clarify_question_get_subject (question);
  GtkWidget *buttons;

  if (subject != NULL && subject[0] != '\0')
    add_subject (self, subject);

  self->deny_button = new_button (self, question, CLARIFY_PERMISSION_REJECT, _("Deny"));
  self->always_button = new_button (self, question, CLARIFY_PERMISSION_ALWAYS, _("Always Allow"));
  self->once_button = new_button (self, question, CLARIFY_PERMISSION_ONCE, _("Allow Once"));

  if (self->deny_button != NULL && clarify_question_get_allow_other (question))
    add_message (self);

  if (self->once_button != NULL)
    gtk_widget_add_css_class (self->once_button, "suggested-action");
  buttons = clarify_input_new_button_row (self->deny_button,
                                          (GtkWidget *[]) { self->always_button, self->once_button }, 2);
  gtk_widget_set_parent (buttons, GTK_WIDGET (self));

  if (self->always_button != NULL)
    add_rule (self, question);
}

static void
clarify_permission_input_collect (ClarifyInput  *input,
                                  GPtrArray     *values,
                                  char         **custom_text)
{
  ClarifyPermissionInput *self = CLARIFY_PERMISSION_INPUT (input);

  if (self->choice == NULL)
    return;

  g_ptr_array_add (values, g_strdup (self->choice));

  /* The message goes with a refusal only. */
  if (self->message_entry != NULL && g_str_equal (self->choice, CLARIFY_PERMISSION_REJECT))
    {
      g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->message_entry)));

      g_strstrip (text);
      if (text[0] != '\0')
        *custom_text = g_steal_pointer (&text);
    }
}

static gboolean
clarify_permission_input_grab_focus (GtkWidget *widget)
{
  ClarifyPermissionInput *self = CLARIFY_PERMISSION_INPUT (widget);
  GtkWidget *target = self->once_button != NULL ? self->once_button : self->deny_button;

  /* Allow Once is the default; Enter takes it. */
  return target != NULL && gtk_widget_grab_focus (target);
}

static void
clarify_permission_input_dispose (GObject *object)
{
  ClarifyPermissionInput *self = CLARIFY_PERMISSION_INPUT (object);

  /* Children go with the base class; drop the borrowed pointers. */
  self->subject_label = NULL;
  self->message_expander = NULL;
  self->message_entry = NULL;
  self->deny_button = NULL;
  self->always_button = NULL;
  self->once_button = NULL;

  G_OBJECT_CLASS (clarify_permission_input_parent_class)->dispose (object);
}

static void
clarify_permission_input_finalize (GObject *object)
{
  ClarifyPermissionInput *self = CLARIFY_PERMISSION_INPUT (object);

  g_clear_pointer (&self->choice, g_free);

  G_OBJECT_CLASS (clarify_permission_input_parent_class)->finalize (object);
}

static void
clarify_permission_input_class_init (ClarifyPermissionInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_permission_input_dispose;
  object_class->finalize = clarify_permission_input_finalize;

  widget_class->grab_focus = clarify_permission_input_grab_focus;

  input_class->setup = clarify_permission_input_setup;
  input_class->collect = clarify_permission_input_collect;
}

static void
clarify_permission_input_init (ClarifyPermissionInput *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 12);
}

GtkWidget *
clarify_permission_input_get_button (ClarifyPermissionInput *self,
                                     const char             *value)
{
  g_return_val_if_fail (CLARIFY_IS_PERMISSION_INPUT (self), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  if (g_str_equal (value, CLARIFY_PERMISSION_ONCE))
    return self->once_button;
  if (g_str_equal (value, CLARIFY_PERMISSION_ALWAYS))
    return self->always_button;
  if (g_str_equal (value, CLARIFY_PERMISSION_REJECT))
    return self->deny_button;

  return NULL;
}

GtkWidget *
clarify_permission_input_get_default_button (ClarifyPermissionInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_PERMISSION_INPUT (self), NULL);

  return self->once_button;
}

GtkWidget *
clarify_permission_input_get_subject_label (ClarifyPermissionInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_PERMISSION_INPUT (self), NULL);

  return self->subject_label;
}

GtkWidget *
clarify_permission_input_get_message_expander (ClarifyPermissionInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_PERMISSION_INPUT (self), NULL);

  return self->message_expander;
}

GtkWidget *
clarify_permission_input_get_message_entry (ClarifyPermissionInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_PERMISSION_INPUT (self), NULL);

  return self->message_entry;
}
