/* clarify-confirm-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-choice-chips.h"
#include "clarify-confirm-input.h"
#include "clarify-input-private.h"

struct _ClarifyConfirmInput
{
  ClarifyInput  parent_instance;

  GtkWidget    *chips;
};

G_DEFINE_FINAL_TYPE (ClarifyConfirmInput, clarify_confirm_input, CLARIFY_TYPE_INPUT)

static void
clarify_confirm_input_setup (ClarifyInput    *input,
                             ClarifyQuestion *question)
{
  ClarifyConfirmInput *self = CLARIFY_CONFIRM_INPUT (input);
  const char * const *defaults = clarify_input_get_initial_values (input);
  g_autoptr(GListStore) answers = g_list_store_new (CLARIFY_TYPE_OPTION);
  g_autoptr(ClarifyOption) yes = clarify_option_new (_("Yes"), "yes", NULL);
  g_autoptr(ClarifyOption) no = clarify_option_new (_("No"), "no", NULL);

  g_list_store_append (answers, yes);
  g_list_store_append (answers, no);

  self->chips = clarify_choice_chips_new (G_LIST_MODEL (answers), FALSE, FALSE);
  clarify_choice_chips_set_homogeneous (CLARIFY_CHOICE_CHIPS (self->chips), TRUE);
  gtk_widget_add_css_class (self->chips, "clarify-confirm");
  clarify_input_label_accessible (input, self->chips);
  gtk_widget_set_parent (self->chips, GTK_WIDGET (self));

  if (defaults[0] != NULL)
    {
      if (g_ascii_strcasecmp (defaults[0], "yes") == 0 || g_ascii_strcasecmp (defaults[0], "true") == 0)
        clarify_choice_view_set_active (CLARIFY_CHOICE_VIEW (self->chips), yes, TRUE);
      else if (g_ascii_strcasecmp (defaults[0], "no") == 0 || g_ascii_strcasecmp (defaults[0], "false") == 0)
        clarify_choice_view_set_active (CLARIFY_CHOICE_VIEW (self->chips), no, TRUE);
    }

  g_signal_connect_swapped (self->chips, "changed", G_CALLBACK (clarify_input_changed), self);
  g_signal_connect_swapped (self->chips, "activate-default", G_CALLBACK (clarify_input_activate_default), self);
}

static void
clarify_confirm_input_collect (ClarifyInput  *input,
                               GPtrArray     *values,
                               char         **custom_text)
{
  ClarifyConfirmInput *self = CLARIFY_CONFIRM_INPUT (input);

  clarify_choice_view_collect (CLARIFY_CHOICE_VIEW (self->chips), values);
}

static gboolean
clarify_confirm_input_pick (ClarifyInput *input,
                            guint         index)
{
  ClarifyConfirmInput *self = CLARIFY_CONFIRM_INPUT (input);

  return clarify_choice_view_pick (CLARIFY_CHOICE_VIEW (self->chips), index);
}

static gboolean
clarify_confirm_input_grab_focus (GtkWidget *widget)
{
  ClarifyConfirmInput *self = CLARIFY_CONFIRM_INPUT (widget);

  return gtk_widget_grab_focus (self->chips);
}

static void
clarify_confirm_input_dispose (GObject *object)
{
  ClarifyConfirmInput *self = CLARIFY_CONFIRM_INPUT (object);

  self->chips = NULL;

  G_OBJECT_CLASS (clarify_confirm_input_parent_class)->dispose (object);
}

static void
clarify_confirm_input_class_init (ClarifyConfirmInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_confirm_input_dispose;

  widget_class->grab_focus = clarify_confirm_input_grab_focus;

  input_class->setup = clarify_confirm_input_setup;
  input_class->collect = clarify_confirm_input_collect;
  input_class->pick = clarify_confirm_input_pick;
}

static void
clarify_confirm_input_init (ClarifyConfirmInput *self)
{
}
