/* clarify-number-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <langinfo.h>
#include <math.h>

#include "clarify-input-private.h"
#include "clarify-number-input.h"
#include "clarify-validate.h"

/* Limits when the agent gives none: the ones every answer is checked
 * against (clarify-validate.h), so the field never clamps a valid answer. */
#define DEFAULT_MIN  (-CLARIFY_MAX_NUMBER)
#define DEFAULT_MAX  CLARIFY_MAX_NUMBER
#define DEFAULT_STEP 1.0
#define MAX_DIGITS   17

struct _ClarifyNumberInput
{
  ClarifyInput  parent_instance;

  GtkWidget    *spin;
  GtkWidget    *hint;
  /* Set by ::input for the ::output that follows: leave the text alone. */
  gboolean      keep_text;
  /* No default, and nothing typed or stepped yet: the field stays empty
   * though GTK's ::output (on realize) would write the value the arrows
   * start from into it. */
  gboolean      starts_empty;
  /* The value it starts from: a first step's ::output comes before its
   * ::value-changed, and only the value tells it from realize's. */
  double        start_value;
};

G_DEFINE_FINAL_TYPE (ClarifyNumberInput, clarify_number_input, CLARIFY_TYPE_INPUT)

/* The fewest digits after which printf's @conversion ('f': decimals, 'g':
 * significant digits) gives @value back exactly, up to MAX_DIGITS. */
static guint
fewest_digits (double value,
               char   conversion)
{
  for (guint n = conversion == 'g' ? 1 : 0; n < MAX_DIGITS; n++)
    {
      char format[8];
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_snprintf (format, sizeof format, "%%.%u%c", n, conversion);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        return n;
    }

  return MAX_DIGITS;
}

/* The fewest decimals that give @value back exactly ("0.25" → 2, "3" → 0,
 * "0.1234567" → 7), up to MAX_DIGITS: six at most cut that one to 0.123457. */
static guint
decimals_of (double value)
{
  return fewest_digits (value, 'f');
}

/* For a number too small for MAX_DIGITS decimals (1e-300 is not 0). */
static guint
significant_digits_of (double value)
{
  return fewest_digits (value, 'g');
}

/* C-locale text for the wire: "42", not "42.0"; "2.5"; never "-0". */
static char *
format_for_wire (double value)
{
  char format[8];
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  guint decimals = decimals_of (value);

  if (decimals == MAX_DIGITS && value != 0.0)
    {
      g_snprintf (format, sizeof format, "%%.%ug", significant_digits_of (value));
      return g_strdup (g_ascii_formatd (buf, sizeof buf, format, value));
    }

  g_snprintf (format, sizeof format, "%%.%uf", decimals);
  g_ascii_formatd (buf, sizeof buf, format, value);
  if (strcmp (buf, "-0") == 0)
    return g_strdup ("0");

  return g_strdup (buf);
}

/* Locale text for people: the user's decimal separator. */
static char *
format_for_display (double value)
{
  guint decimals = decimals_of (value);

  if (decimals == MAX_DIGITS && value != 0.0)
    return g_strdup_printf ("%.*g", (int) significant_digits_of (value), value);

  return g_strdup_printf ("%.*f", (int) decimals, value);
}

static char *
range_hint (const ClarifyValidation *validation)
{
  g_autofree char *min = format_for_display (validation->min);
  g_autofree char *max = format_for_display (validation->max);

  if (validation->has_min && validation->has_max)
    /* Translators: the allowed range of a number, e.g. "Between 1 and 10". */
    return g_strdup_printf (_("Between %s and %s"), min, max);
  if (validation->has_min)
    return g_strdup_printf (_("At least %s"), min);
  if (validation->has_max)
    return g_strdup_printf (_("At most %s"), max);

  return NULL;
}

static gboolean
parse_number (const char *text,
              double     *value)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end = NULL;

  if (copy[0] == '\0')
    return FALSE;

  /* g_strtod takes the user's decimal separator as well as '.'. */
  *value = g_strtod (copy, &end);

  return end != NULL && *end == '\0' && isfinite (*value);
}

/* @text without the locale's thousands separators, when it is grouped
 * exactly so ("1.000" or "1.234,5" in German, "1,000.5" in English), or
 * NULL: read as it was, "1.000" was 1 to a German user meaning a thousand. */
static char *
drop_grouping (const char *text)
{
  const char *separator = nl_langinfo (THOUSEP);
  const char *radix = nl_langinfo (RADIXCHAR);
  gsize separator_len = strlen (separator);
  const char *p = text;
  g_autoptr(GString) out = NULL;
  guint lead = 0;
  guint groups = 0;

  if (separator_len == 0 || g_str_equal (separator, radix))
    return NULL;

  if (*p == '-' || *p == '+')
    p++;
  while (g_ascii_isdigit (p[lead]))
    lead++;
  if (lead == 0 || lead > 3)
    return NULL;

  out = g_string_new_len (text, (p - text) + lead);
  for (p += lead;
       strncmp (p, separator, separator_len) == 0 &&
       g_ascii_isdigit (p[separator_len]) && g_ascii_isdigit (p[separator_len + 1]) &&
       g_ascii_isdigit (p[separator_len + 2]) && !g_ascii_isdigit (p[separator_len + 3]);
       p += separator_len + 3, groups++)
    g_string_append_len (out, p + separator_len, 3);

  if (groups == 0 || (*p != '\0' && !g_str_has_prefix (p, radix)))
    return NULL;

  g_string_append (out, p);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* What the user typed, in the locale's way; defaults come in C's. */
static gboolean
parse_typed (const char *text,
             double     *value)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autofree char *ungrouped = drop_grouping (stripped);

  return parse_number (ungrouped != NULL ? ungrouped : stripped, value);
}

/* The spin button commits what was typed (Tab, a click elsewhere) through
 * ::input, then clamps it and writes it back through ::output. Text that
 * is no valid answer ("abc", 50 of at most 10, 5 in steps of 3) stays as
 * typed, with its error: committed, it would be a number nobody typed.
 * GtkSpinButton reads only the locale's separator: "2.5" in a German
 * session would snap back. Take either, as parse_number does. */
static int
spin_input_cb (GtkSpinButton      *spin,
               double             *new_value,
               ClarifyNumberInput *self)
{
  /* An empty field (no default: nothing is answered for the user) stays
   * empty too. */
  if (!clarify_input_get_valid (CLARIFY_INPUT (self)) ||
      !parse_typed (gtk_editable_get_text (GTK_EDITABLE (spin)), new_value))
    {
      *new_value = gtk_spin_button_get_value (spin);
      self->keep_text = TRUE;
    }

  return TRUE;
}

/* The value in the locale's notation ("3.75" shows as "3,75" in German),
 * unless that would lose digits the user typed: GTK's own output rounds
 * to the spin's digits, and 0.7 with no step became 1. */
static gboolean
spin_output_cb (GtkSpinButton      *spin,
                ClarifyNumberInput *self)
{
  double value = gtk_adjustment_get_value (gtk_spin_button_get_adjustment (spin));
  g_autofree char *shown = format_for_display (value);
  double number;

  if (self->keep_text)
    {
      self->keep_text = FALSE;
      return TRUE;
    }
  if (self->starts_empty && value == self->start_value &&
      gtk_editable_get_text (GTK_EDITABLE (spin))[0] == '\0')
    return TRUE;
  if ((!parse_typed (shown, &number) || number != value) &&
      parse_typed (gtk_editable_get_text (GTK_EDITABLE (spin)), &number) && number == value)
    return TRUE;

  if (g_strcmp0 (shown, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), shown);
  return TRUE;
}

/* Out of range, the dialog's error names the limit ("The number must be at
 * most 64."): the hint saying it too would be the same error twice. */
static void
text_changed_cb (ClarifyNumberInput *self)
{
  const ClarifyValidation *validation = clarify_question_get_validation (clarify_input_get_question (CLARIFY_INPUT (self)));
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (self->spin));
  double value;
  gboolean parsed = parse_typed (gtk_editable_get_text (GTK_EDITABLE (self->spin)), &value);

  self->starts_empty = FALSE;

  if (self->hint != NULL)
    gtk_widget_set_visible (self->hint,
                            !parsed ||
                            ((!validation->has_min || value >= validation->min) &&
                             (!validation->has_max || value <= validation->max)));

  /* The arrows go on from the number typed (99 of at most 16: "−" gives
   * 15, "+" is off), and the text stays as typed. */
  if (parsed)
    {
      self->keep_text = TRUE;
      gtk_adjustment_set_value (adjustment, CLAMP (value, gtk_adjustment_get_lower (adjustment),
                                                   gtk_adjustment_get_upper (adjustment)));
      self->keep_text = FALSE;
    }

  clarify_input_changed (CLARIFY_INPUT (self));
}

static void
value_changed_cb (ClarifyNumberInput *self)
{
  self->starts_empty = FALSE;
  clarify_input_changed (CLARIFY_INPUT (self));
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                ClarifyNumberInput    *self)
{
  gboolean enter = keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter;

  if (!enter || (state & GDK_CONTROL_MASK) != 0)
    return FALSE;

  /* A wrong number answers nothing: it stays as typed, with its error. */
  if (!clarify_input_get_valid (CLARIFY_INPUT (self)))
    return TRUE;

  /* Commit what was typed first, so the answer is what the user sees. */
  gtk_spin_button_update (GTK_SPIN_BUTTON (self->spin));
  clarify_input_activate_default (CLARIFY_INPUT (self));

  return TRUE;
}

static void
clarify_number_input_setup (ClarifyInput    *input,
                            ClarifyQuestion *question)
{
  ClarifyNumberInput *self = CLARIFY_NUMBER_INPUT (input);
  const ClarifyValidation *validation = clarify_question_get_validation (question);
  const char * const *defaults = clarify_input_get_initial_values (input);
  double step = validation->step > 0 ? validation->step : DEFAULT_STEP;
  double lower, upper, value;
  gboolean has_default;
  guint digits;
  g_autofree char *hint = NULL;
  GtkAdjustment *adjustment;
  GtkEventController *keys;

  lower = validation->has_min ? validation->min : DEFAULT_MIN;
  upper = validation->has_max ? validation->max : DEFAULT_MAX;
  if (upper < lower)
    upper = lower;

  digits = decimals_of (step);
  if (validation->has_min)
    digits = MAX (digits, decimals_of (validation->min));
  if (validation->has_max)
    digits = MAX (digits, decimals_of (validation->max));

  has_default = defaults[0] != NULL && parse_number (defaults[0], &value);
  if (!has_default)
    {
      /* No default: the field starts empty, as nothing is answered for
       * the user; the arrows start from 0 on the step grid (from the
       * minimum, or from 0), moved into the range. */
      double base = validation->has_min ? validation->min : 0.0;

      value = CLAMP (0.0, lower, upper);
      value = base + round ((value - base) / step) * step;
      if (value > upper)
        value -= step;
    }
  value = CLAMP (value, lower, upper);
  self->starts_empty = !has_default;
  self->start_value = value;

  adjustment = gtk_adjustment_new (value, lower, upper, step, step * 10, 0);
  self->spin = gtk_spin_button_new (adjustment, 0, digits);
  /* Not numeric: that filter drops '.' where ',' is the separator, and
   * anything else typed is answered inline as "not a number". */
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (self->spin), FALSE);
  /* No snapping: an answer off the step is shown as typed, with its error
   * (and snapping far from 0, as on ±10^15 without a minimum, turned 1.15
   * in steps of 0.01 into 1.12). */
  gtk_spin_button_set_snap_to_ticks (GTK_SPIN_BUTTON (self->spin), FALSE);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (self->spin), GTK_UPDATE_ALWAYS);
  gtk_widget_set_halign (self->spin, GTK_ALIGN_START);
  /* Small ranges would give a cramped field; leave room to type, and
   * for the widest numbers the range allows, up to a point. */
  {
    g_autofree char *widest = format_for_display (MAX (fabs (lower), fabs (upper)));
    int chars = (int) strlen (widest) + (lower < 0 ? 1 : 0) + (digits > 0 ? (int) digits + 1 : 0);

    chars = CLAMP (chars, 8, 12);
    if (gtk_editable_get_width_chars (GTK_EDITABLE (self->spin)) < chars)
      gtk_editable_set_width_chars (GTK_EDITABLE (self->spin), chars);
  }
  clarify_input_label_accessible (input, self->spin);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (self->spin, keys);

  gtk_widget_set_parent (self->spin, GTK_WIDGET (self));

  hint = range_hint (validation);
  if (hint != NULL)
    {
      self->hint = clarify_input_new_hint_label ();
      gtk_label_set_text (GTK_LABEL (self->hint), hint);
      gtk_widget_set_parent (self->hint, GTK_WIDGET (self));
      gtk_accessible_update_relation (GTK_ACCESSIBLE (self->spin),
                                      GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, self->hint, NULL,
                                      -1);
    }

  /* Typing counts at once (Ctrl+Enter may come before the spin commits). */
  g_signal_connect (self->spin, "input", G_CALLBACK (spin_input_cb), self);
  g_signal_connect (self->spin, "output", G_CALLBACK (spin_output_cb), self);
  /* The default as it is, not rounded to the spin's digits (0.7 showed 1). */
  {
    g_autofree char *shown = has_default ? format_for_display (value) : g_strdup ("");

    gtk_editable_set_text (GTK_EDITABLE (self->spin), shown);
  }
  g_signal_connect_swapped (self->spin, "changed", G_CALLBACK (text_changed_cb), self);
  g_signal_connect_swapped (self->spin, "value-changed", G_CALLBACK (value_changed_cb), self);
}

static void
clarify_number_input_collect (ClarifyInput  *input,
                              GPtrArray     *values,
                              char         **custom_text)
{
  ClarifyNumberInput *self = CLARIFY_NUMBER_INPUT (input);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->spin));
  double value;

  /* What is typed, not yet committed, is the answer too. Text that is no
   * number goes as it is, so that the check can say so. */
  if (parse_typed (text, &value))
    g_ptr_array_add (values, format_for_wire (value));
  else if (text[0] != '\0')
    g_ptr_array_add (values, g_strdup (text));
}

static gboolean
clarify_number_input_grab_focus (GtkWidget *widget)
{
  ClarifyNumberInput *self = CLARIFY_NUMBER_INPUT (widget);

  return gtk_widget_grab_focus (self->spin);
}

static void
clarify_number_input_dispose (GObject *object)
{
  ClarifyNumberInput *self = CLARIFY_NUMBER_INPUT (object);

  self->spin = NULL;
  self->hint = NULL;

  G_OBJECT_CLASS (clarify_number_input_parent_class)->dispose (object);
}

static void
clarify_number_input_class_init (ClarifyNumberInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_number_input_dispose;

  widget_class->grab_focus = clarify_number_input_grab_focus;

  input_class->setup = clarify_number_input_setup;
  input_class->collect = clarify_number_input_collect;
}

static void
clarify_number_input_init (ClarifyNumberInput *self)
{
}

GtkSpinButton *
clarify_number_input_get_spin_button (ClarifyNumberInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_NUMBER_INPUT (self), NULL);

  return GTK_SPIN_BUTTON (self->spin);
}
