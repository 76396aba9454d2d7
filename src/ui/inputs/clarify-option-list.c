/* clarify-option-list.c
 *
 * The options flow through GtkFilterListModel (search) and, with Other, a
 * GtkFlattenListModel that appends the Other row. Filtering drops rows and
 * with them their selection, so the selection model only mirrors the state
 * kept by ClarifyChoiceView and is re-applied after every search.
 *
 * GtkListView (4.8) keeps a row widget for each of up to 200 items, shown
 * or not, and measures all of them on every layout. So the rows ask for no
 * width, and a long list's rows answer GtkScrolledWindow's question for
 * their height without a width with a lower bound (ClarifyOptionTexts):
 * each text is laid out once, at the width it gets.
 *
 * Even so, 200 rows cost 150-250 ms before the first frame. A long list so
 * starts with the rows that fill its card and gets the rest a few per
 * frame (a GtkSliceListModel that grows), so the dialog is on screen
 * before most rows exist and no frame builds many.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-option-filter.h"
#include "clarify-option-list.h"
#include "clarify-option-texts.h"

struct _ClarifyOptionList
{
  ClarifyChoiceView     parent_instance;

  GtkWidget            *search_entry;
  /* Holds the list, or the empty label in its place. */
  GtkWidget            *body;
  GtkWidget            *empty_label;
  GtkWidget            *scrolled;
  GtkWidget            *list_view;
  GtkWidget            *count_label;

  ClarifyOptionFilter  *filter;
  GtkFilterListModel   *filtered;
  /* A long list's rows while they are being filled in; else NULL. */
  GtkSliceListModel    *slice;
  guint                 fill_tick;
  /* The frame that shows the rows there are; batches begin after it. */
  gint64                shown_in_frame;
  GtkSelectionModel    *selection;
  /* The row "Other…"; never part of the question's options. */
  ClarifyOption        *other_item;
  /* Checklist rows currently bound to an item (GtkCheckButton*). */
  GHashTable           *bound_checks;

  /* So many rows that the list is at LIST_MAX_HEIGHT whatever they hold
   * (count_first_rows()). */
  gboolean              long_list;
  /* Set while the rows follow the state, so their signals are not news. */
  gboolean              syncing;
};

G_DEFINE_FINAL_TYPE (ClarifyOptionList, clarify_option_list, CLARIFY_TYPE_CHOICE_VIEW)

#define OPTION_KEY CLARIFY_CHOICE_VIEW_OPTION_KEY

/* Rows up to this height, then the list scrolls. */
#define LIST_MAX_HEIGHT 264

/* The padding style.css gives a row, top and bottom together. */
#define ROW_PADDING_Y           16
#define CHECKLIST_ROW_PADDING_Y 8

/* A long list's first frame has the rows that fill LIST_MAX_HEIGHT at their
 * least height, then gets this many more each frame:
 * each costs about 1 ms to build and lay out. */
#define ROWS_PER_FRAME 12

static gboolean
item_get_active (ClarifyOptionList *self,
                 ClarifyOption     *item)
{
  ClarifyChoiceView *view = CLARIFY_CHOICE_VIEW (self);

  if (item == self->other_item)
    return clarify_choice_view_get_other_active (view);

  return clarify_choice_view_get_active (view, item);
}

static void
item_set_active (ClarifyOptionList *self,
                 ClarifyOption     *item,
                 gboolean           active)
{
  ClarifyChoiceView *view = CLARIFY_CHOICE_VIEW (self);

  if (item == self->other_item)
    clarify_choice_view_set_other_active (view, active);
  else
    clarify_choice_view_set_active (view, item, active);
}

static void
update_selection (ClarifyOptionList *self)
{
  GListModel *rows = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (rows);
  guint selected = GTK_INVALID_LIST_POSITION;

  if (!GTK_IS_SINGLE_SELECTION (self->selection))
    return;

  for (guint i = 0; i < n && selected == GTK_INVALID_LIST_POSITION; i++)
    {
      g_autoptr(ClarifyOption) item = g_list_model_get_item (rows, i);

      if (item_get_active (self, item))
        selected = i;
    }

  self->syncing = TRUE;
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (self->selection), selected);
  self->syncing = FALSE;
}

static void
update_count (ClarifyOptionList *self)
{
  ClarifyChoiceView *view = CLARIFY_CHOICE_VIEW (self);
  g_autofree char *text = NULL;
  guint n;

  if (self->count_label == NULL)
    return;

  n = clarify_choice_view_get_n_active (view);
  if (clarify_choice_view_get_other_active (view))
    n++;

  /* Translators: below a checklist, how many of its entries are ticked. */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u selected", "%u selected", n), n);
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
}

static void
update_empty (ClarifyOptionList *self)
{
  gboolean none = g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) == 0;

  gtk_widget_set_visible (self->empty_label, none);
  /* Without Other there is no row left to show; with it, Other's row
   * alone, not a card stretched to the height the matches had. */
  gtk_widget_set_visible (self->scrolled,
                          g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0);
  gtk_widget_set_vexpand (self->scrolled, !none);
  /* A scroll bar, even hidden, would hold the card at its own least height. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER,
                                  none ? GTK_POLICY_NEVER : GTK_POLICY_AUTOMATIC);
}

/* While a search filters the rows, the list keeps the height it had with all
 * of them (up to its maximum): the dialog neither jumps nor leaves a gap. */
static void
keep_unfiltered_height (ClarifyOptionList *self)
{
  int height = gtk_widget_get_height (self->body);

  if (height > 0 && gtk_widget_get_visible (self->scrolled))
    gtk_widget_set_size_request (self->body, -1, height);
}

/* Rows only come in or go at the end, so the pick is not news. */
static void
set_slice_size (ClarifyOptionList *self,
                guint              size)
{
  self->syncing = TRUE;
  gtk_slice_list_model_set_size (self->slice, size);
  self->syncing = FALSE;
}

/* Before the frame is laid out, so its new rows are drawn in it. Not in
 * the frame after the map, or after a search that starts a fill: that one
 * shows what is there. */
static gboolean
fill_rows_cb (GtkWidget     *widget,
              GdkFrameClock *frame_clock,
              gpointer       user_data)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (widget);
  guint size = gtk_slice_list_model_get_size (self->slice);
  guint n_rows = g_list_model_get_n_items (gtk_slice_list_model_get_model (self->slice));

  if (gdk_frame_clock_get_frame_counter (frame_clock) <= self->shown_in_frame + 1)
    return G_SOURCE_CONTINUE;

  if (size >= n_rows || n_rows - size <= ROWS_PER_FRAME)
    {
      /* No limit, until a search lets many more through. */
      size = G_MAXUINT;
      self->fill_tick = 0;
    }
  else
    {
      size += ROWS_PER_FRAME;
    }

  set_slice_size (self, size);
  /* The pick may be in the rows just added. Emptiness cannot change: the
   * first rows were there from the start. */
  update_selection (self);

  return self->fill_tick != 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Whether @rows at their least height fill the card, and how many of the
 * first of them do: 6 with descriptions, 9 without (a checklist's 7 and 11),
 * where a bound of one line each took 17. */
static gboolean
count_first_rows (GListModel *rows,
                  gboolean    multiple,
                  guint      *n_first)
{
  int padding = multiple ? CHECKLIST_ROW_PADDING_Y : ROW_PADDING_Y;
  guint n_rows = g_list_model_get_n_items (rows);
  int height = 0;
  guint n;

  for (n = 0; n < n_rows && height < LIST_MAX_HEIGHT; n++)
    {
      g_autoptr(ClarifyOption) option = g_list_model_get_item (rows, n);

      height += padding + clarify_option_texts_least_height (clarify_option_get_description (option));
    }

  *n_first = n;
  return height >= LIST_MAX_HEIGHT;
}

static void
start_filling (ClarifyOptionList *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  if (self->fill_tick != 0)
    return;

  self->shown_in_frame = gdk_frame_clock_get_frame_counter (gtk_widget_get_frame_clock (widget));
  self->fill_tick = gtk_widget_add_tick_callback (widget, fill_rows_cb, NULL, NULL);
}

/* A search that lets many more rows through would have them all built in
 * the next frame (190 rows took 135 ms). They are held back to those shown
 * until the search is applied, and then to those that fill the card; the
 * rest come in a batch a frame. */
static void
hold_back_new_rows (ClarifyOptionList *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->slice));

  if (shown < gtk_slice_list_model_get_size (self->slice))
    set_slice_size (self, shown);
}

static void
fill_in_held_rows (ClarifyOptionList *self)
{
  GListModel *rows = gtk_slice_list_model_get_model (self->slice);
  guint n_rows = g_list_model_get_n_items (rows);
  guint fill_card;

  count_first_rows (rows, clarify_choice_view_get_multiple (CLARIFY_CHOICE_VIEW (self)), &fill_card);
  if (gtk_slice_list_model_get_size (self->slice) < fill_card)
    set_slice_size (self, fill_card);

  /* A fill under way goes on as it was. */
  if (self->fill_tick != 0)
    return;

  if (gtk_slice_list_model_get_size (self->slice) >= n_rows)
    set_slice_size (self, G_MAXUINT);
  else if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_filling (self);
  /* Else clarify_option_list_map() starts it. */
}

/* On ::notify::text rather than ::changed: gtk_editable_set_text() deletes,
 * then inserts, and ::changed would show all rows in between. */
static void
search_text_cb (ClarifyOptionList *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  gboolean changed;

  if (!clarify_option_filter_get_searching (self->filter))
    keep_unfiltered_height (self);

  if (self->slice != NULL)
    hold_back_new_rows (self);
  self->syncing = TRUE;
  changed = clarify_option_filter_set_search (self->filter, text);
  self->syncing = FALSE;
  if (self->slice != NULL)
    fill_in_held_rows (self);
  if (!changed)
    return;

  update_selection (self);
  update_empty (self);
}

static void
search_activate_cb (ClarifyOptionList *self)
{
  g_autoptr(ClarifyOption) first = NULL;

  if (clarify_option_filter_get_searching (self->filter))
    {
      first = g_list_model_get_item (G_LIST_MODEL (self->filtered), 0);
      /* Nothing matches: Enter would send a pick the search hides. */
      if (first == NULL)
        {
          gtk_widget_error_bell (self->search_entry);
          return;
        }
    }

  if (first == NULL || item_get_active (self, first))
    {
      clarify_choice_view_activate_default (CLARIFY_CHOICE_VIEW (self));
      return;
    }

  /* Enter takes the best match; in a checklist, clear the search for the next one. */
  item_set_active (self, first, TRUE);
  if (clarify_choice_view_get_multiple (CLARIFY_CHOICE_VIEW (self)))
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
}

static void
stop_search_cb (ClarifyOptionList *self)
{
  /* Esc empties the search first (when the dialog lets it get here). */
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
}

static gboolean
search_key_pressed_cb (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       ClarifyOptionList     *self)
{
  if ((keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down) &&
      (state & GDK_MODIFIER_MASK) == 0)
    return gtk_widget_child_focus (self->list_view, GTK_DIR_TAB_FORWARD);

  return FALSE;
}

static void
selected_changed_cb (ClarifyOptionList *self)
{
  GObject *item;

  if (self->syncing)
    return;

  item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (self->selection));
  if (item != NULL)
    item_set_active (self, CLARIFY_OPTION (item), TRUE);
  else
    update_selection (self);
}

/* Enter (or a double click) on a row of a single choice picks it and goes
 * on, as Enter in a one-line answer does: the next question, or the answer
 * when it is the last (the whole answer, with one question). That is what
 * activating a row means in GNOME's lists; the arrows alone only move the
 * pick, so nothing is sent by looking. Chips differ: Enter there submits
 * what Space picked and never picks, since a chip is a toggle, not a row.
 * The dialog's key guard keeps an Enter meant for another window out. */
static void
list_activate_cb (ClarifyOptionList *self,
                  guint              position)
{
  if (!GTK_IS_SINGLE_SELECTION (self->selection))
    return;

  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (self->selection), position);
  clarify_choice_view_activate_default (CLARIFY_CHOICE_VIEW (self));
}

static void
check_toggled_cb (GtkCheckButton    *check,
                  ClarifyOptionList *self)
{
  ClarifyOption *item = g_object_get_data (G_OBJECT (check), OPTION_KEY);

  if (self->syncing || item == NULL)
    return;

  item_set_active (self, item, gtk_check_button_get_active (check));
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              ClarifyOptionList        *self)
{
  GtkWidget *texts = clarify_option_texts_new (self->long_list);

  g_object_set_data (G_OBJECT (list_item), "texts", texts);

  if (clarify_choice_view_get_multiple (CLARIFY_CHOICE_VIEW (self)))
    {
      GtkWidget *check = gtk_check_button_new ();

      /* Its mark is drawing, the row says "checked" (GTK 4.8 names it by
       * its type otherwise). */
      for (GtkWidget *mark = gtk_widget_get_first_child (check); mark != NULL; mark = gtk_widget_get_next_sibling (mark))
        gtk_accessible_update_state (GTK_ACCESSIBLE (mark), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
      gtk_widget_set_margin_start (texts, 6);
      gtk_check_button_set_child (GTK_CHECK_BUTTON (check), texts);
      g_signal_connect (check, "toggled", G_CALLBACK (check_toggled_cb), self);
      clarify_choice_view_track_pointer (CLARIFY_CHOICE_VIEW (self), check);
      gtk_list_item_set_child (list_item, check);
    }
  else
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      /* Drawing only, the row's "selected" says it (GTK resets the hidden
       * state when the mark shows). */
      GtkWidget *mark = g_object_new (GTK_TYPE_IMAGE,
                                      "icon-name", "object-select-symbolic",
                                      "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                                      NULL);
      GtkExpression *selected;

      selected = gtk_property_expression_new (GTK_TYPE_LIST_ITEM, NULL, "selected");
      gtk_expression_bind (selected, mark, "visible", list_item);
      gtk_widget_add_css_class (mark, "accent");

      gtk_box_append (GTK_BOX (box), texts);
      gtk_box_append (GTK_BOX (box), mark);
      clarify_choice_view_track_pointer (CLARIFY_CHOICE_VIEW (self), box);
      gtk_list_item_set_child (list_item, box);
    }
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             ClarifyOptionList        *self)
{
  ClarifyOption *item = gtk_list_item_get_item (list_item);
  ClarifyOptionTexts *texts = g_object_get_data (G_OBJECT (list_item), "texts");
  GtkWidget *child = gtk_list_item_get_child (list_item);

  clarify_option_texts_set (texts, clarify_option_get_label (item), clarify_option_get_description (item));

  /* The row's option, for the preview too (see ClarifyChoiceView). */
  g_object_set_data (G_OBJECT (child), OPTION_KEY, item);
  /* The row takes the focus, or its check button in a checklist. */
  clarify_option_texts_describe (texts, gtk_widget_get_parent (child));

  if (GTK_IS_CHECK_BUTTON (child))
    {
      self->syncing = TRUE;
      gtk_check_button_set_active (GTK_CHECK_BUTTON (child), item_get_active (self, item));
      self->syncing = FALSE;
      g_hash_table_add (self->bound_checks, child);
      clarify_option_texts_describe (texts, child);
    }
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               ClarifyOptionList        *self)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  g_object_set_data (G_OBJECT (child), OPTION_KEY, NULL);
  if (GTK_IS_CHECK_BUTTON (child))
    g_hash_table_remove (self->bound_checks, child);
}

static void
clarify_option_list_setup (ClarifyChoiceView *view)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (view);
  GListModel *options = clarify_choice_view_get_options (view);
  gboolean multiple = clarify_choice_view_get_multiple (view);
  g_autoptr(GListModel) rows = NULL;
  GtkListItemFactory *factory;
  GtkEventController *keys;
  guint n_first;

  self->filter = clarify_option_filter_new ();
  self->filtered = gtk_filter_list_model_new (g_object_ref (options), g_object_ref (GTK_FILTER (self->filter)));

  if (clarify_choice_view_get_with_other (view))
    {
      GListStore *parts = g_list_store_new (G_TYPE_LIST_MODEL);
      g_autoptr(GListStore) other = g_list_store_new (CLARIFY_TYPE_OPTION);

      self->other_item = clarify_option_new (_("Other…"), NULL, NULL);
      g_list_store_append (other, self->other_item);
      g_list_store_append (parts, self->filtered);
      g_list_store_append (parts, other);
      rows = G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (parts)));
    }
  else
    {
      rows = g_object_ref (G_LIST_MODEL (self->filtered));
    }

  self->long_list = count_first_rows (rows, multiple, &n_first);
  if (self->long_list)
    {
      self->slice = gtk_slice_list_model_new (g_steal_pointer (&rows), 0, n_first);
      rows = g_object_ref (G_LIST_MODEL (self->slice));
    }

  if (multiple)
    {
      self->selection = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (rows)));
    }
  else
    {
      GtkSingleSelection *single = gtk_single_selection_new (g_object_ref (rows));

      gtk_single_selection_set_autoselect (single, FALSE);
      gtk_single_selection_set_can_unselect (single, TRUE);
      gtk_single_selection_set_selected (single, GTK_INVALID_LIST_POSITION);
      g_signal_connect_swapped (single, "notify::selected", G_CALLBACK (selected_changed_cb), self);
      self->selection = GTK_SELECTION_MODEL (single);
    }

  /* Search */
  self->search_entry = gtk_search_entry_new ();
  g_object_set (self->search_entry, "placeholder-text", _("Search…"), NULL);
  g_signal_connect_swapped (self->search_entry, "notify::text", G_CALLBACK (search_text_cb), self);
  g_signal_connect_swapped (self->search_entry, "activate", G_CALLBACK (search_activate_cb), self);
  g_signal_connect_swapped (self->search_entry, "stop-search", G_CALLBACK (stop_search_cb), self);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (search_key_pressed_cb), self);
  gtk_widget_add_controller (self->search_entry, keys);
  gtk_widget_set_parent (self->search_entry, GTK_WIDGET (self));

  /* List */
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), self);

  /* A long list gets its rows when first shown (clarify_option_list_map()):
   * the list view builds up to 200 of them as soon as it has a model, and a
   * request of 20 such questions would hold 4,000 rows for one page shown. */
  self->list_view = gtk_list_view_new (self->long_list ? NULL : g_object_ref (self->selection), factory);
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (self->list_view), FALSE);
  gtk_widget_add_css_class (self->list_view, "clarify-option-list");
  if (multiple)
    gtk_widget_add_css_class (self->list_view, "checklist");
  g_signal_connect_swapped (self->list_view, "activate", G_CALLBACK (list_activate_cb), self);

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->scrolled), LIST_MAX_HEIGHT);
  /* Until then, the height it will have with them. */
  if (self->long_list)
    gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->scrolled), LIST_MAX_HEIGHT);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), self->list_view);
  /* The keyboard scrolls the list; unnamed, GTK 4.8 would call the
   * scroll bars "GtkScrollbar" to screen readers. */
  gtk_accessible_update_state (GTK_ACCESSIBLE (gtk_scrolled_window_get_hscrollbar (GTK_SCROLLED_WINDOW (self->scrolled))),
                               GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (gtk_scrolled_window_get_vscrollbar (GTK_SCROLLED_WINDOW (self->scrolled))),
                               GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  gtk_widget_add_css_class (self->scrolled, "card");
  gtk_widget_add_css_class (self->scrolled, "clarify-option-list-frame");
  /* The card fills what keep_unfiltered_height() reserves. */
  gtk_widget_set_vexpand (self->scrolled, TRUE);

  self->empty_label = gtk_label_new (_("No options found"));
  gtk_widget_add_css_class (self->empty_label, "dim-label");
  gtk_widget_set_margin_top (self->empty_label, 6);
  gtk_widget_set_margin_bottom (self->empty_label, 6);
  gtk_widget_set_vexpand (self->empty_label, TRUE);
  gtk_widget_set_valign (self->empty_label, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (self->empty_label, FALSE);

  self->body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  /* Expanding inside the body, not the dialog around it. */
  gtk_widget_set_vexpand (self->body, FALSE);
  gtk_box_append (GTK_BOX (self->body), self->empty_label);
  gtk_box_append (GTK_BOX (self->body), self->scrolled);
  gtk_widget_set_parent (self->body, GTK_WIDGET (self));

  if (multiple)
    {
      self->count_label = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (self->count_label), 0.0);
      gtk_widget_add_css_class (self->count_label, "dim-label");
      gtk_widget_add_css_class (self->count_label, "caption");
      gtk_widget_set_parent (self->count_label, GTK_WIDGET (self));
      update_count (self);
    }

  update_empty (self);
}

static void
clarify_option_list_sync (ClarifyChoiceView *view)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (view);
  GHashTableIter iter;
  gpointer check;

  update_selection (self);
  update_count (self);

  self->syncing = TRUE;
  g_hash_table_iter_init (&iter, self->bound_checks);
  while (g_hash_table_iter_next (&iter, &check, NULL))
    {
      ClarifyOption *item = g_object_get_data (G_OBJECT (check), OPTION_KEY);

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), item_get_active (self, item));
    }
  self->syncing = FALSE;
}

static gboolean
clarify_option_list_pick (ClarifyChoiceView *view,
                          guint              index)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (view);
  g_autoptr(ClarifyOption) item = g_list_model_get_item (G_LIST_MODEL (self->selection), index);

  if (item == NULL)
    return FALSE;

  /* Like a click on the row: a single choice selects, a checklist flips. */
  if (clarify_choice_view_get_multiple (view))
    item_set_active (self, item, !item_get_active (self, item));
  else
    item_set_active (self, item, TRUE);

  return TRUE;
}

static gboolean
clarify_option_list_grab_focus (GtkWidget *widget)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (widget);

  return gtk_widget_grab_focus (self->search_entry);
}

static gboolean
has_focus_within (GtkWidget *focus,
                  GtkWidget *widget)
{
  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* The row showing @item, if the list view has made one. */
static GtkWidget *
find_row (ClarifyOptionList *self,
          ClarifyOption     *item)
{
  for (GtkWidget *row = gtk_widget_get_first_child (self->list_view);
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *child = gtk_widget_get_first_child (row);

      if (child != NULL && g_object_get_data (G_OBJECT (child), OPTION_KEY) == item)
        return row;
    }

  return NULL;
}

/* The first picked row, else the first row. A picked row still to come
 * in a batch comes in now, with those before it: Tab goes to the pick. */
static guint
get_entry_position (ClarifyOptionList *self)
{
  GListModel *rows = self->slice != NULL ? gtk_slice_list_model_get_model (self->slice)
                                         : G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyOption) item = g_list_model_get_item (rows, i);

      if (!item_get_active (self, item))
        continue;

      if (self->slice != NULL && i >= gtk_slice_list_model_get_size (self->slice))
        {
          set_slice_size (self, i + 1);
          update_selection (self);
        }
      return i;
    }

  return 0;
}

/* Into the list as into a radio group: on the first picked row. */
static gboolean
focus_list (ClarifyOptionList *self)
{
  guint position = get_entry_position (self);
  g_autoptr(ClarifyOption) item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  GtkWidget *row;

  if (item == NULL || !gtk_widget_get_visible (self->scrolled))
    return FALSE;

  gtk_widget_activate_action (self->list_view, "list.scroll-to-item", "u", position);
  row = find_row (self, item);
  if (row != NULL && gtk_widget_grab_focus (row))
    return TRUE;

  return gtk_widget_child_focus (self->list_view, GTK_DIR_TAB_FORWARD);
}

/* Tab goes from the search to the list to what follows; the list is one
 * stop, its rows are for the arrow keys. */
static gboolean
clarify_option_list_focus (GtkWidget        *widget,
                           GtkDirectionType  direction)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (widget);
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));
  gboolean in_search = has_focus_within (focus, self->search_entry);
  gboolean in_list = has_focus_within (focus, self->list_view);

  switch (direction)
    {
    case GTK_DIR_TAB_FORWARD:
      if (in_list)
        return FALSE;
      if (in_search)
        return focus_list (self);
      return gtk_widget_grab_focus (self->search_entry);

    case GTK_DIR_TAB_BACKWARD:
      if (in_list)
        return gtk_widget_grab_focus (self->search_entry);
      if (in_search)
        return FALSE;
      return focus_list (self) || gtk_widget_grab_focus (self->search_entry);

    case GTK_DIR_UP:
    case GTK_DIR_DOWN:
    case GTK_DIR_LEFT:
    case GTK_DIR_RIGHT:
    default:
      return GTK_WIDGET_CLASS (clarify_option_list_parent_class)->focus (widget, direction);
    }
}

static void
clarify_option_list_dispose (GObject *object)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (object);

  if (self->bound_checks != NULL)
    g_hash_table_remove_all (self->bound_checks);

  if (GTK_IS_SINGLE_SELECTION (self->selection))
    g_signal_handlers_disconnect_by_data (self->selection, self);

  self->search_entry = NULL;
  self->body = NULL;
  self->empty_label = NULL;
  self->scrolled = NULL;
  self->list_view = NULL;
  self->count_label = NULL;

  G_OBJECT_CLASS (clarify_option_list_parent_class)->dispose (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->slice);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->other_item);
}

static void
clarify_option_list_finalize (GObject *object)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (object);

  g_clear_pointer (&self->bound_checks, g_hash_table_unref);


  G_OBJECT_CLASS (clarify_option_list_parent_class)->finalize (object);
}

static void
clarify_option_list_map (GtkWidget *widget)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (widget);

  if (gtk_list_view_get_model (GTK_LIST_VIEW (self->list_view)) == NULL)
    {
      gtk_list_view_set_model (GTK_LIST_VIEW (self->list_view), self->selection);
      /* A search may leave a row or two, and the card must shrink to them. */
      gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->scrolled), -1);
    }

  if (clarify_option_list_get_filling (self))
    start_filling (self);

  GTK_WIDGET_CLASS (clarify_option_list_parent_class)->map (widget);
}

/* A page left before its list was full: the ticks would go on while it is
 * hidden (they run while realized), building rows no one sees. */
static void
clarify_option_list_unmap (GtkWidget *widget)
{
  ClarifyOptionList *self = CLARIFY_OPTION_LIST (widget);

  if (self->fill_tick != 0)
    {
      gtk_widget_remove_tick_callback (widget, self->fill_tick);
      self->fill_tick = 0;
    }

  GTK_WIDGET_CLASS (clarify_option_list_parent_class)->unmap (widget);
}

static void
clarify_option_list_class_init (ClarifyOptionListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyChoiceViewClass *view_class = CLARIFY_CHOICE_VIEW_CLASS (klass);

  object_class->dispose = clarify_option_list_dispose;
  object_class->finalize = clarify_option_list_finalize;

  widget_class->map = clarify_option_list_map;
  widget_class->unmap = clarify_option_list_unmap;
  widget_class->grab_focus = clarify_option_list_grab_focus;
  widget_class->focus = clarify_option_list_focus;

  view_class->setup = clarify_option_list_setup;
  view_class->sync = clarify_option_list_sync;
  view_class->pick = clarify_option_list_pick;

  gtk_widget_class_set_css_name (widget_class, "clarifyoptionlist");
}

static void
clarify_option_list_init (ClarifyOptionList *self)
{
  self->bound_checks = g_hash_table_new (NULL, NULL);
}

GtkWidget *
clarify_option_list_new (GListModel *options,
                         gboolean    multiple,
                         gboolean    with_other)
{
  g_return_val_if_fail (G_IS_LIST_MODEL (options), NULL);

  return g_object_new (CLARIFY_TYPE_OPTION_LIST,
                       "options", options,
                       "multiple", multiple,
                       "with-other", with_other,
                       NULL);
}

GtkWidget *
clarify_option_list_get_search_entry (ClarifyOptionList *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION_LIST (self), NULL);

  return self->search_entry;
}

GtkWidget *
clarify_option_list_get_list_view (ClarifyOptionList *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION_LIST (self), NULL);

  return self->list_view;
}

GtkSelectionModel *
clarify_option_list_get_model (ClarifyOptionList *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION_LIST (self), NULL);

  return self->selection;
}

gboolean
clarify_option_list_get_filling (ClarifyOptionList *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION_LIST (self), FALSE);

  return self->slice != NULL && gtk_slice_list_model_get_size (self->slice) != G_MAXUINT;
}
