/* clarify-date-range-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-date-range-input.h"
#include "clarify-input-private.h"

struct _ClarifyDateRangeInput
{
  ClarifyInput  parent_instance;

  GtkWidget    *start;
  GtkWidget    *end;
};

G_DEFINE_FINAL_TYPE (ClarifyDateRangeInput, clarify_date_range_input, CLARIFY_TYPE_INPUT)

static void
start_changed_cb (ClarifyDateRangeInput *self)
{
  g_autofree char *start = clarify_date_entry_get_iso (CLARIFY_DATE_ENTRY (self->start));

  /* The end's calendar opens where the range starts. */
  clarify_date_entry_set_calendar_hint (CLARIFY_DATE_ENTRY (self->end), start);
  clarify_input_changed (CLARIFY_INPUT (self));
}

static void
start_activate_cb (ClarifyDateRangeInput *self)
{
  gtk_widget_grab_focus (self->end);
}

static GtkWidget *
add_field (ClarifyDateRangeInput *self,
           GtkGrid               *grid,
           int                    column,
           const char            *title,
           const char            *value)
{
  ClarifyInput *input = CLARIFY_INPUT (self);
  GtkWidget *label = gtk_label_new_with_mnemonic (title);
  GtkWidget *field = clarify_date_entry_new ();
  GtkWidget *entry = clarify_date_entry_get_entry (CLARIFY_DATE_ENTRY (field));

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_set_hexpand (field, TRUE);
  clarify_input_label_accessible (input, entry);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (entry),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                  -1);

  if (value != NULL)
    clarify_date_entry_set_date (CLARIFY_DATE_ENTRY (field), value);

  gtk_grid_attach (grid, label, column, 0, 1, 1);
  gtk_grid_attach (grid, field, column, 1, 1, 1);
  gtk_grid_attach (grid, clarify_date_entry_get_words (CLARIFY_DATE_ENTRY (field)), column, 2, 1, 1);

  return field;
}

static void
clarify_date_range_input_setup (ClarifyInput    *input,
                                ClarifyQuestion *question)
{
  ClarifyDateRangeInput *self = CLARIFY_DATE_RANGE_INPUT (input);
  const char * const *defaults = clarify_input_get_initial_values (input);
  const char *start = defaults[0];
  const char *end = start != NULL ? defaults[1] : NULL;
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_homogeneous (GTK_GRID (grid), TRUE);
  gtk_widget_set_parent (grid, GTK_WIDGET (self));

  /* Translators: the first day of a date range. */
  self->start = add_field (self, GTK_GRID (grid), 0, _("_Start"), start);
  /* Translators: the last day of a date range. */
  self->end = add_field (self, GTK_GRID (grid), 1, _("_End"), end);
  start_changed_cb (self);

  g_signal_connect_swapped (self->start, "changed", G_CALLBACK (start_changed_cb), self);
  g_signal_connect_swapped (self->end, "changed", G_CALLBACK (clarify_input_changed), self);
  g_signal_connect_swapped (self->start, "activate", G_CALLBACK (start_activate_cb), self);
  g_signal_connect_swapped (self->end, "activate", G_CALLBACK (clarify_input_activate_default), self);
}

static char *
collect_one (GtkWidget *field)
{
  ClarifyDateEntry *entry = CLARIFY_DATE_ENTRY (field);
  char *iso = clarify_date_entry_get_iso (entry);

  /* Text that is no date goes as it is, so that the check can say so. */
  return iso != NULL ? iso : g_strdup (clarify_date_entry_get_text (entry));
}

static void
clarify_date_range_input_collect (ClarifyInput  *input,
                                  GPtrArray     *values,
                                  char         **custom_text)
{
  ClarifyDateRangeInput *self = CLARIFY_DATE_RANGE_INPUT (input);
  g_autofree char *start = collect_one (self->start);
  g_autofree char *end = collect_one (self->end);

  /* Always both, in place, once either is filled: [start, end]. */
  if (start[0] == '\0' && end[0] == '\0')
    return;

  g_ptr_array_add (values, g_steal_pointer (&start));
  g_ptr_array_add (values, g_steal_pointer (&end));
}

static gboolean
clarify_date_range_input_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (CLARIFY_DATE_RANGE_INPUT (widget)->start);
}

static void
clarify_date_range_input_dispose (GObject *object)
{
  ClarifyDateRangeInput *self = CLARIFY_DATE_RANGE_INPUT (object);

  self->start = NULL;
  self->end = NULL;

  G_OBJECT_CLASS (clarify_date_range_input_parent_class)->dispose (object);
}

static void
clarify_date_range_input_class_init (ClarifyDateRangeInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_date_range_input_dispose;

  widget_class->grab_focus = clarify_date_range_input_grab_focus;

  input_class->setup = clarify_date_range_input_setup;
  input_class->collect = clarify_date_range_input_collect;
}

static void
clarify_date_range_input_init (ClarifyDateRangeInput *self)
{
}

ClarifyDateEntry *
clarify_date_range_input_get_start (ClarifyDateRangeInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_RANGE_INPUT (self), NULL);

  return CLARIFY_DATE_ENTRY (self->start);
}

ClarifyDateEntry *
clarify_date_range_input_get_end (ClarifyDateRangeInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_RANGE_INPUT (self), NULL);

  return CLARIFY_DATE_ENTRY (self->end);
}

