/* clarify-date-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-date-input.h"
#include "clarify-input-private.h"

struct _ClarifyDateInput
{
  ClarifyInput  parent_instance;

  GtkWidget    *date_entry;
};

G_DEFINE_FINAL_TYPE (ClarifyDateInput, clarify_date_input, CLARIFY_TYPE_INPUT)

static void
clarify_date_input_setup (ClarifyInput    *input,
                          ClarifyQuestion *question)
{
  ClarifyDateInput *self = CLARIFY_DATE_INPUT (input);
  const char * const *defaults = clarify_input_get_initial_values (input);
  ClarifyDateEntry *entry;

  self->date_entry = clarify_date_entry_new ();
  entry = CLARIFY_DATE_ENTRY (self->date_entry);
  gtk_widget_set_halign (self->date_entry, GTK_ALIGN_START);
  clarify_input_label_accessible (input, clarify_date_entry_get_entry (entry));
  gtk_widget_set_parent (self->date_entry, GTK_WIDGET (self));
  gtk_widget_set_parent (clarify_date_entry_get_words (entry), GTK_WIDGET (self));

  if (defaults[0] != NULL)
    clarify_date_entry_set_date (entry, defaults[0]);

  g_signal_connect_swapped (entry, "changed", G_CALLBACK (clarify_input_changed), self);
  g_signal_connect_swapped (entry, "activate", G_CALLBACK (clarify_input_activate_default), self);
}

static void
clarify_date_input_collect (ClarifyInput  *input,
                            GPtrArray     *values,
                            char         **custom_text)
{
  ClarifyDateEntry *entry = CLARIFY_DATE_ENTRY (CLARIFY_DATE_INPUT (input)->date_entry);
  char *iso = clarify_date_entry_get_iso (entry);
  const char *text = clarify_date_entry_get_text (entry);

  /* Text that is no date goes as it is, so that the check can say so. */
  if (iso != NULL)
    g_ptr_array_add (values, iso);
  else if (text[0] != '\0')
    g_ptr_array_add (values, g_strdup (text));
}

static gboolean
clarify_date_input_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (CLARIFY_DATE_INPUT (widget)->date_entry);
}

static void
clarify_date_input_dispose (GObject *object)
{
  CLARIFY_DATE_INPUT (object)->date_entry = NULL;

  G_OBJECT_CLASS (clarify_date_input_parent_class)->dispose (object);
}

static void
clarify_date_input_class_init (ClarifyDateInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_date_input_dispose;

  widget_class->grab_focus = clarify_date_input_grab_focus;

  input_class->setup = clarify_date_input_setup;
  input_class->collect = clarify_date_input_collect;
}

static void
clarify_date_input_init (ClarifyDateInput *self)
{
}

ClarifyDateEntry *
clarify_date_input_get_date_entry (ClarifyDateInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_INPUT (self), NULL);

  return CLARIFY_DATE_ENTRY (self->date_entry);
}
