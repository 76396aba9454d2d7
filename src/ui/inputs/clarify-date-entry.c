/* clarify-date-entry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-date-entry.h"
#include "clarify-date-text.h"
#include "clarify-input-private.h"
#include "clarify-tooltip.h"

struct _ClarifyDateEntry
{
  GtkWidget  parent_instance;

  GtkWidget *entry;
  GtkWidget *button;
  GtkWidget *calendar;
  /* The date understood, in words; placed by the input that owns us. */
  GtkWidget *words;
  char      *hint_iso;
  /* Set while we move the calendar ourselves, so ::day-selected is not news. */
  gboolean   syncing;
  /* Arrow keys in the calendar move the selection; only Enter or a click pick. */
  gboolean   keyboard_nav;
  /* Enter was pressed in the calendar (not the release of the key that opened it). */
  gboolean   pick_pending;
  /* The last press was on the calendar's month or year arrows. */
  gboolean   browsing;
};

G_DEFINE_FINAL_TYPE (ClarifyDateEntry, clarify_date_entry, GTK_TYPE_WIDGET)

enum
{
  CHANGED,
  ACTIVATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_date (ClarifyDateEntry *self,
           const GDate      *date)
{
  g_autofree char *text = clarify_date_text_format (date);

  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (self->entry))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
}

static void
reformat (ClarifyDateEntry *self)
{
  GDate date;

  if (clarify_date_text_parse (gtk_editable_get_text (GTK_EDITABLE (self->entry)), &date))
    show_date (self, &date);
}

static void
pick_calendar_date (ClarifyDateEntry *self)
{
  g_autoptr(GDateTime) picked = gtk_calendar_get_date (GTK_CALENDAR (self->calendar));
  GDate date;

  g_date_clear (&date, 1);
  g_date_set_dmy (&date,
                  (GDateDay) g_date_time_get_day_of_month (picked),
                  (GDateMonth) g_date_time_get_month (picked),
                  (GDateYear) g_date_time_get_year (picked));
  show_date (self, &date);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (self->button));
  gtk_widget_grab_focus (self->entry);
}

/* GTK 4.8's arrows select the month's last day when the day shown does
 * not exist there (31 January, next month: 28 February): browsing, not a
 * pick, so the calendar stays open and the field as it was. */
static void
calendar_pressed_cb (GtkGestureClick  *gesture,
                     int               n_press,
                     double            x,
                     double            y,
                     ClarifyDateEntry *self)
{
  GtkWidget *target = gtk_widget_pick (self->calendar, x, y, GTK_PICK_DEFAULT);

  self->browsing = target != NULL &&
                   (GTK_IS_BUTTON (target) || gtk_widget_get_ancestor (target, GTK_TYPE_BUTTON) != NULL);
}

static void
day_selected_cb (ClarifyDateEntry *self)
{
  if (self->syncing || self->keyboard_nav || self->browsing)
    return;

  pick_calendar_date (self);
}

static gboolean
is_pick_key (guint keyval)
{
  return keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter ||
         keyval == GDK_KEY_ISO_Enter || keyval == GDK_KEY_space || keyval == GDK_KEY_KP_Space;
}

static gboolean
calendar_key_pressed_cb (GtkEventControllerKey *controller,
                         guint                  keyval,
                         guint                  keycode,
                         GdkModifierType        state,
                         ClarifyDateEntry      *self)
{
  self->keyboard_nav = TRUE;
  self->pick_pending = is_pick_key (keyval);
  return FALSE;
}

static void
calendar_key_released_cb (GtkEventControllerKey *controller,
                          guint                  keyval,
                          guint                  keycode,
                          GdkModifierType        state,
                          ClarifyDateEntry      *self)
{
  self->keyboard_nav = FALSE;

  /* The calendar has selected the focused day on press; take it now. */
  if (self->pick_pending && is_pick_key (keyval))
    pick_calendar_date (self);
  self->pick_pending = FALSE;
}

static void
popover_show_cb (ClarifyDateEntry *self)
{
  g_autoptr(GDateTime) shown = NULL;
  GDate date;

  if (clarify_date_text_parse (gtk_editable_get_text (GTK_EDITABLE (self->entry)), &date) ||
      clarify_date_text_parse (self->hint_iso, &date))
    shown = g_date_time_new_local (g_date_get_year (&date), g_date_get_month (&date),
                                   g_date_get_day (&date), 0, 0, 0);
  else
    shown = g_date_time_new_now_local ();

  self->keyboard_nav = FALSE;
  self->pick_pending = FALSE;
  self->browsing = FALSE;
  self->syncing = TRUE;
  gtk_calendar_select_day (GTK_CALENDAR (self->calendar), shown);
  self->syncing = FALSE;
}

/* Built when first opened: a calendar is some sixty widgets, and the two
 * of a date range cost more to build than the rest of their page. */
static void
ensure_calendar (ClarifyDateEntry *self)
{
  GtkEventController *keys;
  GtkGesture *click;
  GtkWidget *popover;

  if (self->calendar != NULL)
    return;

  self->calendar = gtk_calendar_new ();
  g_signal_connect_swapped (self->calendar, "day-selected", G_CALLBACK (day_selected_cb), self);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (calendar_key_pressed_cb), self);
  g_signal_connect (keys, "key-released", G_CALLBACK (calendar_key_released_cb), self);
  gtk_widget_add_controller (self->calendar, keys);
  click = gtk_gesture_click_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (calendar_pressed_cb), self);
  gtk_widget_add_controller (self->calendar, GTK_EVENT_CONTROLLER (click));

  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), self->calendar);
  g_signal_connect_swapped (popover, "show", G_CALLBACK (popover_show_cb), self);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), popover);
}

static void
create_popup_cb (GtkMenuButton *button,
                 gpointer       user_data)
{
  ensure_calendar (user_data);
}

static void
update_words (ClarifyDateEntry *self)
{
  g_autofree char *words = NULL;
  GDate date;

  /* Nothing while there is no date: the dialog says what is wrong. */
  if (clarify_date_text_parse (gtk_editable_get_text (GTK_EDITABLE (self->entry)), &date))
    words = clarify_date_text_format_words (&date);

  gtk_label_set_text (GTK_LABEL (self->words), words != NULL ? words : "");
  gtk_widget_set_visible (self->words, words != NULL);
}

static void
entry_changed_cb (ClarifyDateEntry *self)
{
  update_words (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
entry_activate_cb (ClarifyDateEntry *self)
{
  reformat (self);
  g_signal_emit (self, signals[ACTIVATE], 0);
}

static void
clarify_date_entry_dispose (GObject *object)
{
  ClarifyDateEntry *self = CLARIFY_DATE_ENTRY (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  self->entry = NULL;
  self->button = NULL;
  self->calendar = NULL;
  g_clear_object (&self->words);

  G_OBJECT_CLASS (clarify_date_entry_parent_class)->dispose (object);
}

static void
clarify_date_entry_finalize (GObject *object)
{
  ClarifyDateEntry *self = CLARIFY_DATE_ENTRY (object);

  g_clear_pointer (&self->hint_iso, g_free);

  G_OBJECT_CLASS (clarify_date_entry_parent_class)->finalize (object);
}

static gboolean
clarify_date_entry_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (CLARIFY_DATE_ENTRY (widget)->entry);
}

static gboolean
clarify_date_entry_focus (GtkWidget        *widget,
                          GtkDirectionType  direction)
{
  if (direction != GTK_DIR_TAB_FORWARD && direction != GTK_DIR_TAB_BACKWARD)
    return GTK_WIDGET_CLASS (clarify_date_entry_parent_class)->focus (widget, direction);

  return clarify_input_focus_children (widget, direction);
}

static void
clarify_date_entry_class_init (ClarifyDateEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_date_entry_dispose;
  object_class->finalize = clarify_date_entry_finalize;

  widget_class->grab_focus = clarify_date_entry_grab_focus;
  widget_class->focus = clarify_date_entry_focus;

  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  signals[ACTIVATE] =
    g_signal_new ("activate",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "clarifydateentry");
}

static void
clarify_date_entry_init (ClarifyDateEntry *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *example = NULL;
  g_autofree char *placeholder = NULL;
  GtkEventController *keys;
  GDate today;

  gtk_widget_add_css_class (GTK_WIDGET (self), "linked");

  g_date_clear (&today, 1);
  g_date_set_dmy (&today,
                  (GDateDay) g_date_time_get_day_of_month (now),
                  (GDateMonth) g_date_time_get_month (now),
                  (GDateYear) g_date_time_get_year (now));
  example = clarify_date_text_format (&today);
  /* Translators: placeholder of a date field; %s is a date in the user's format. */
  placeholder = g_strdup_printf (_("e.g. %s"), example);

  self->entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->entry), placeholder);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->entry), 14);
  gtk_widget_set_hexpand (self->entry, TRUE);
  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (entry_changed_cb), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (entry_activate_cb), self);
  keys = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (keys, "leave", G_CALLBACK (reformat), self);
  gtk_widget_add_controller (self->entry, keys);
  gtk_widget_set_parent (self->entry, GTK_WIDGET (self));

  self->words = g_object_ref_sink (clarify_input_new_hint_label ());
  gtk_widget_set_visible (self->words, FALSE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->entry),
                                  GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, self->words, NULL,
                                  -1);

  self->button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (self->button), "x-office-calendar-symbolic");
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->button), create_popup_cb, self, NULL);
  clarify_tooltip_set_text (self->button, _("Choose a date"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Choose a date"),
                                  -1);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
}

GtkWidget *
clarify_date_entry_new (void)
{
  return g_object_new (CLARIFY_TYPE_DATE_ENTRY, NULL);
}

char *
clarify_date_entry_get_iso (ClarifyDateEntry *self)
{
  GDate date;

  g_return_val_if_fail (CLARIFY_IS_DATE_ENTRY (self), NULL);

  if (!clarify_date_text_parse (gtk_editable_get_text (GTK_EDITABLE (self->entry)), &date))
    return NULL;

  return clarify_date_text_format_iso (&date);
}

const char *
clarify_date_entry_get_text (ClarifyDateEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_ENTRY (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->entry));
}

gboolean
clarify_date_entry_set_date (ClarifyDateEntry *self,
                             const char       *text)
{
  GDate date;

  g_return_val_if_fail (CLARIFY_IS_DATE_ENTRY (self), FALSE);

  if (!clarify_date_text_parse (text, &date))
    {
      gtk_editable_set_text (GTK_EDITABLE (self->entry), text != NULL ? text : "");
      return FALSE;
    }

  show_date (self, &date);
  return TRUE;
}

void
clarify_date_entry_set_calendar_hint (ClarifyDateEntry *self,
                                      const char       *iso)
{
  g_return_if_fail (CLARIFY_IS_DATE_ENTRY (self));

  g_free (self->hint_iso);
  self->hint_iso = g_strdup (iso);
}

GtkWidget *
clarify_date_entry_get_entry (ClarifyDateEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_ENTRY (self), NULL);

  return self->entry;
}

GtkWidget *
clarify_date_entry_get_calendar (ClarifyDateEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_ENTRY (self), NULL);

  ensure_calendar (self);
  return self->calendar;
}

GtkWidget *
clarify_date_entry_get_words (ClarifyDateEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_ENTRY (self), NULL);

  return self->words;
}

GtkWidget *
clarify_date_entry_get_button (ClarifyDateEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_DATE_ENTRY (self), NULL);

  return self->button;
}
