/* clarify-choice-chips.c
 *
 * The chips are one stop for Tab, like a radio group: Tab enters on the
 * picked chip (else the first) and leaves the group, the arrow keys move
 * the focus between the chips without picking. Space picks the focused
 * chip; Enter is "done" (::activate-default) and never picks, so that a
 * stray Enter sends nothing the user did not choose.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-choice-chips.h"
#include "clarify-mark.h"
#include "clarify-wrap-bin.h"

struct _ClarifyChoiceChips
{
  ClarifyChoiceView  parent_instance;

  GtkWidget         *flow_box;
  /* GtkToggleButton per option in the agent's order, then "Other…". */
  GPtrArray         *chips;
  /* Set while the chips follow the state, so their ::toggled is not news. */
  gboolean           syncing;
};

G_DEFINE_FINAL_TYPE (ClarifyChoiceChips, clarify_choice_chips, CLARIFY_TYPE_CHOICE_VIEW)

#define OPTION_KEY CLARIFY_CHOICE_VIEW_OPTION_KEY
#define CHECK_KEY  "clarify-check"
/* The dialog's digit shortcuts pick the first nine chips. */
#define MAX_KEY_HINTS 9

static ClarifyOption *
chip_get_option (GtkWidget *chip)
{
  return g_object_get_data (G_OBJECT (chip), OPTION_KEY);
}

static void
chip_toggled_cb (GtkToggleButton    *chip,
                 ClarifyChoiceChips *self)
{
  ClarifyChoiceView *view = CLARIFY_CHOICE_VIEW (self);
  ClarifyOption *option = chip_get_option (GTK_WIDGET (chip));
  gboolean active = gtk_toggle_button_get_active (chip);
  GtkWidget *check = g_object_get_data (G_OBJECT (chip), CHECK_KEY);

  if (check != NULL)
    gtk_widget_set_visible (check, active);
  /* A radio or a check box to assistive technology, not a pressed button. */
  gtk_accessible_update_state (GTK_ACCESSIBLE (chip),
                               GTK_ACCESSIBLE_STATE_CHECKED, active,
                               -1);

  if (self->syncing)
    return;

  if (option != NULL)
    clarify_choice_view_set_active (view, option, active);
  else
    clarify_choice_view_set_other_active (view, active);
}

static GtkWidget *
new_chip_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  /* Agent text: never markup. Long labels wrap instead of widening the dialog. */
  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 36);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);

  return label;
}

/* A round mark for one of a kind, a square one for any number; filled
 * when picked (style.css). Drawing only: the chip's role says it. */
static GtkWidget *
new_indicator (ClarifyChoiceChips *self,
               GtkWidget          *chip)
{
  GtkWidget *indicator = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_add_css_class (indicator, "clarify-chip-indicator");
  gtk_widget_set_valign (indicator, GTK_ALIGN_CENTER);
  gtk_accessible_update_state (GTK_ACCESSIBLE (indicator), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);

  if (clarify_choice_view_get_multiple (CLARIFY_CHOICE_VIEW (self)))
    {
      g_autoptr(GdkPaintable) mark = clarify_mark_new (CLARIFY_MARK_CHECK);
      GtkWidget *check = gtk_image_new_from_paintable (mark);

      gtk_widget_add_css_class (indicator, "check");
      gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
      gtk_widget_set_hexpand (check, TRUE);
      gtk_widget_set_visible (check, FALSE);
      gtk_box_append (GTK_BOX (indicator), check);
      g_object_set_data (G_OBJECT (chip), CHECK_KEY, check);
    }
  else
    {
      gtk_widget_add_css_class (indicator, "radio");
    }

  return indicator;
}

/* The digit that picks the chip, always shown (style.css makes it fainter
 * away from the focus). Shown only with the focus, it either kept its width
 * while invisible (wide chips wrapped early for nothing) or, taking no
 * space then, made the chips grow and the rows rewrap as the focus came. */
static GtkWidget *
new_key_hint (const char *digit)
{
  GtkWidget *hint = gtk_label_new (digit);

  gtk_widget_add_css_class (hint, "clarify-chip-key");
  gtk_widget_set_valign (hint, GTK_ALIGN_CENTER);
  /* The chip's key-shortcuts property says it to screen readers. */
  gtk_accessible_update_state (GTK_ACCESSIBLE (hint), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);

  return hint;
}

static GtkWidget *
new_chip (ClarifyChoiceChips *self,
          ClarifyOption      *option,
          const char         *label,
          const char         *description)
{
  gboolean multiple = clarify_choice_view_get_multiple (CLARIFY_CHOICE_VIEW (self));
  guint index = self->chips->len;
  GtkWidget *chip;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *wrap;

  chip = g_object_new (GTK_TYPE_TOGGLE_BUTTON,
                       "accessible-role", multiple ? GTK_ACCESSIBLE_ROLE_CHECKBOX : GTK_ACCESSIBLE_ROLE_RADIO,
                       NULL);
  gtk_widget_add_css_class (chip, "pill");
  gtk_widget_add_css_class (chip, "clarify-chip");
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);

  gtk_box_append (GTK_BOX (box), new_indicator (self, chip));

  gtk_box_append (GTK_BOX (texts), new_chip_label (label));
  if (description != NULL && description[0] != '\0')
    {
      GtkWidget *subtitle = new_chip_label (description);

      gtk_widget_add_css_class (subtitle, "dim-label");
      gtk_widget_add_css_class (subtitle, "caption");
      gtk_box_append (GTK_BOX (texts), subtitle);
      gtk_widget_add_css_class (chip, "with-description");
    }
  /* The texts wrap beside the mark and the key (clarify-wrap-bin.h); the
   * bin, not the texts, is centred, or they would be measured again on
   * every allocation. */
  wrap = clarify_wrap_bin_new (texts);
  gtk_widget_set_valign (wrap, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), wrap);

  if (index < MAX_KEY_HINTS)
    {
      g_autofree char *digit = g_strdup_printf ("%u", index + 1);

      gtk_box_append (GTK_BOX (box), new_key_hint (digit));
      gtk_accessible_update_property (GTK_ACCESSIBLE (chip),
                                      GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS, digit,
                                      -1);
    }
  gtk_button_set_child (GTK_BUTTON (chip), box);

  /* The button has a custom child, so name it for screen readers. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (chip),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  if (description != NULL && description[0] != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (chip),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (chip), GTK_ACCESSIBLE_STATE_CHECKED, FALSE, -1);

  g_object_set_data (G_OBJECT (chip), OPTION_KEY, option);
  g_signal_connect (chip, "toggled", G_CALLBACK (chip_toggled_cb), self);
  clarify_choice_view_track_pointer (CLARIFY_CHOICE_VIEW (self), chip);

  return chip;
}

static void
add_chip (ClarifyChoiceChips *self,
          GtkWidget          *chip)
{
  /* Our own cell, so that it is no "grid cell" to assistive technology;
   * nor does it take the focus: the chip does. */
  GtkWidget *child = g_object_new (GTK_TYPE_FLOW_BOX_CHILD,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                   "focusable", FALSE,
                                   "child", chip,
                                   NULL);

  if (!clarify_choice_view_get_multiple (CLARIFY_CHOICE_VIEW (self)) && self->chips->len > 0)
    gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (chip),
                                 g_ptr_array_index (self->chips, 0));

  g_ptr_array_add (self->chips, chip);
  gtk_flow_box_append (GTK_FLOW_BOX (self->flow_box), child);
}

static void
clarify_choice_chips_setup (ClarifyChoiceView *view)
{
  ClarifyChoiceChips *self = CLARIFY_CHOICE_CHIPS (view);
  GListModel *options = clarify_choice_view_get_options (view);
  guint n = g_list_model_get_n_items (options);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyOption) option = g_list_model_get_item (options, i);

      add_chip (self, new_chip (self, option,
                                clarify_option_get_label (option),
                                clarify_option_get_description (option)));
    }

  if (clarify_choice_view_get_with_other (view))
    add_chip (self, new_chip (self, NULL, _("Other…"), NULL));
}

static void
clarify_choice_chips_sync (ClarifyChoiceView *view)
{
  ClarifyChoiceChips *self = CLARIFY_CHOICE_CHIPS (view);

  self->syncing = TRUE;

  /* Deactivate first, so a radio group never holds two active chips. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->chips->len; i++)
      {
        GtkToggleButton *chip = g_ptr_array_index (self->chips, i);
        ClarifyOption *option = chip_get_option (GTK_WIDGET (chip));
        gboolean active;

        if (option != NULL)
          active = clarify_choice_view_get_active (view, option);
        else
          active = clarify_choice_view_get_other_active (view);

        if (active == (pass == 1))
          gtk_toggle_button_set_active (chip, active);
      }

  self->syncing = FALSE;
}

static gboolean
clarify_choice_chips_pick (ClarifyChoiceView *view,
                           guint              index)
{
  ClarifyChoiceChips *self = CLARIFY_CHOICE_CHIPS (view);
  GtkToggleButton *chip;

  if (index >= self->chips->len)
    return FALSE;

  chip = g_ptr_array_index (self->chips, index);
  gtk_widget_grab_focus (GTK_WIDGET (chip));

  /* Like a click: a radio chip stays on, a check chip flips. */
  if (clarify_choice_view_get_multiple (view))
    gtk_toggle_button_set_active (chip, !gtk_toggle_button_get_active (chip));
  else
    gtk_toggle_button_set_active (chip, TRUE);

  return TRUE;
}

static gboolean
clarify_choice_chips_grab_focus (GtkWidget *widget)
{
  ClarifyChoiceChips *self = CLARIFY_CHOICE_CHIPS (widget);

  /* Like a radio group: focus lands on the active chip, else the first. */
  for (guint i = 0; i < self->chips->len; i++)
    {
      GtkWidget *chip = g_ptr_array_index (self->chips, i);

      if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (chip)))
        return gtk_widget_grab_focus (chip);
    }

  if (self->chips->len > 0)
    return gtk_widget_grab_focus (g_ptr_array_index (self->chips, 0));

  return FALSE;
}

/* The index of the chip with the focus, or -1. */
static int
get_focused_index (ClarifyChoiceChips *self)
{
  for (guint i = 0; i < self->chips->len; i++)
    if (gtk_widget_is_focus (g_ptr_array_index (self->chips, i)))
      return (int) i;

  return -1;
}

/* Up and Left go back, Down and Right on (Left and Right the other way
 * round in a right-to-left language), round from the last to the first. */
static gboolean
move_focus (ClarifyChoiceChips *self,
            GtkDirectionType    direction)
{
  gboolean rtl = gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL;
  int focused = get_focused_index (self);
  int n = (int) self->chips->len;
  int step;

  if (focused < 0)
    return gtk_widget_grab_focus (GTK_WIDGET (self));

  switch (direction)
    {
    case GTK_DIR_UP:
      step = -1;
      break;

    case GTK_DIR_DOWN:
      step = 1;
      break;

    case GTK_DIR_LEFT:
      step = rtl ? 1 : -1;
      break;

    case GTK_DIR_RIGHT:
      step = rtl ? -1 : 1;
      break;

    case GTK_DIR_TAB_FORWARD:
    case GTK_DIR_TAB_BACKWARD:
    default:
      return FALSE;
    }

  return gtk_widget_grab_focus (g_ptr_array_index (self->chips, (focused + step + n) % n));
}

/* One stop for Tab: entering lands on the picked chip, Tab leaves. */
static gboolean
clarify_choice_chips_focus (GtkWidget        *widget,
                            GtkDirectionType  direction)
{
  ClarifyChoiceChips *self = CLARIFY_CHOICE_CHIPS (widget);

  if (get_focused_index (self) < 0)
    return gtk_widget_grab_focus (widget);

  return move_focus (self, direction);
}

static gboolean
arrow_cb (GtkWidget *widget,
          GVariant  *args,
          gpointer   user_data)
{
  return move_focus (CLARIFY_CHOICE_CHIPS (widget), g_variant_get_int32 (args));
}

static gboolean
enter_cb (GtkWidget *widget,
          GVariant  *args,
          gpointer   user_data)
{
  clarify_choice_view_activate_default (CLARIFY_CHOICE_VIEW (widget));

  return TRUE;
}

static void
add_shortcut (GtkShortcutController *controller,
              guint                  keyval,
              GtkShortcutFunc        callback,
              GVariant              *args)
{
  GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (keyval, 0),
                                            gtk_callback_action_new (callback, NULL, NULL));

  gtk_shortcut_set_arguments (shortcut, args);
  gtk_shortcut_controller_add_shortcut (controller, shortcut);
}

/* In the capture phase, before the chip (Enter would toggle it) and the
 * flow box (whose arrows move a cursor that is not the focus) see them. */
static void
add_keys (ClarifyChoiceChips *self)
{
  static const struct
  {
    guint            keyval;
    GtkDirectionType direction;
  } arrows[] = {
    { GDK_KEY_Left, GTK_DIR_LEFT }, { GDK_KEY_KP_Left, GTK_DIR_LEFT },
    { GDK_KEY_Right, GTK_DIR_RIGHT }, { GDK_KEY_KP_Right, GTK_DIR_RIGHT },
    { GDK_KEY_Up, GTK_DIR_UP }, { GDK_KEY_KP_Up, GTK_DIR_UP },
    { GDK_KEY_Down, GTK_DIR_DOWN }, { GDK_KEY_KP_Down, GTK_DIR_DOWN },
  };
  static const guint enter_keys[] = { GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
    add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), arrows[i].keyval, arrow_cb,
                  g_variant_new_int32 (arrows[i].direction));
  for (guint i = 0; i < G_N_ELEMENTS (enter_keys); i++)
    add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), enter_keys[i], enter_cb, NULL);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

static void
clarify_choice_chips_dispose (GObject *object)
{
  ClarifyChoiceChips *self = CLARIFY_CHOICE_CHIPS (object);

  if (self->chips != NULL)
    g_ptr_array_set_size (self->chips, 0);
  self->flow_box = NULL;

  G_OBJECT_CLASS (clarify_choice_chips_parent_class)->dispose (object);
}

static void
clarify_choice_chips_finalize (GObject *object)
{
  ClarifyChoiceChips *self = CLARIFY_CHOICE_CHIPS (object);

  g_clear_pointer (&self->chips, g_ptr_array_unref);

  G_OBJECT_CLASS (clarify_choice_chips_parent_class)->finalize (object);
}

static void
clarify_choice_chips_class_init (ClarifyChoiceChipsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyChoiceViewClass *view_class = CLARIFY_CHOICE_VIEW_CLASS (klass);

  object_class->dispose = clarify_choice_chips_dispose;
  object_class->finalize = clarify_choice_chips_finalize;

  widget_class->grab_focus = clarify_choice_chips_grab_focus;
  widget_class->focus = clarify_choice_chips_focus;

  view_class->setup = clarify_choice_chips_setup;
  view_class->sync = clarify_choice_chips_sync;
  view_class->pick = clarify_choice_chips_pick;

  gtk_widget_class_set_css_name (widget_class, "clarifychips");
}

static void
clarify_choice_chips_init (ClarifyChoiceChips *self)
{
  /* Borrowed pointers: the flow box owns the chips. */
  self->chips = g_ptr_array_new ();

  /* A group, not a "grid" to assistive technology: the view is the group
   * that carries the question as its name. */
  self->flow_box = g_object_new (GTK_TYPE_FLOW_BOX,
                                 "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                 NULL);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->flow_box), GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->flow_box), FALSE);
  gtk_flow_box_set_activate_on_single_click (GTK_FLOW_BOX (self->flow_box), FALSE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->flow_box), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (self->flow_box), 6);
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (self->flow_box), 1);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->flow_box), 8);
  gtk_widget_set_focusable (self->flow_box, FALSE);
  gtk_widget_set_valign (self->flow_box, GTK_ALIGN_START);
  gtk_widget_add_css_class (self->flow_box, "clarify-chips");
  gtk_widget_set_parent (self->flow_box, GTK_WIDGET (self));

  add_keys (self);
}

GtkWidget *
clarify_choice_chips_new (GListModel *options,
                          gboolean    multiple,
                          gboolean    with_other)
{
  g_return_val_if_fail (G_IS_LIST_MODEL (options), NULL);

  return g_object_new (CLARIFY_TYPE_CHOICE_CHIPS,
                       "options", options,
                       "multiple", multiple,
                       "with-other", with_other,
                       NULL);
}

void
clarify_choice_chips_set_homogeneous (ClarifyChoiceChips *self,
                                      gboolean            homogeneous)
{
  g_return_if_fail (CLARIFY_IS_CHOICE_CHIPS (self));

  guint n = MAX (self->chips->len, 1);

  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->flow_box), homogeneous);
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (self->flow_box), homogeneous ? n : 1);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->flow_box), homogeneous ? n : 8);
}

GtkWidget *
clarify_choice_chips_get_chip (ClarifyChoiceChips *self,
                               guint               index)
{
  g_return_val_if_fail (CLARIFY_IS_CHOICE_CHIPS (self), NULL);

  if (index >= self->chips->len)
    return NULL;

  return g_ptr_array_index (self->chips, index);
}
