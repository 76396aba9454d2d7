/* clarify-history-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-confirm-dialog.h"
#include "clarify-history-row.h"
#include "clarify-history-view.h"
#include "clarify-list-head.h"

struct _ClarifyHistoryView
{
  AdwPreferencesGroup  parent_instance;

  GtkButton           *clear_button;
  GtkSearchEntry      *search_entry;
  GtkStack            *stack;
  GtkListView         *list;
  GtkLabel            *placeholder;

  ClarifyHistory      *history;
  GtkCustomFilter     *filter;
  GtkFilterListModel  *shown;
  ClarifyListHead     *head;
  GtkAdjustment       *adjustment;
  guint                grow_id;
  gboolean             was_at_top;
};

G_DEFINE_FINAL_TYPE (ClarifyHistoryView, clarify_history_view, ADW_TYPE_PREFERENCES_GROUP)

/* GtkListView (4.8) builds and measures up to 200 rows, in view or not, at
 * about a millisecond each. The list so holds the newest entries first and
 * takes the next ones in as it is scrolled to its end; an entry that ends
 * while the window is open is one new row (ClarifyListHead). 25 rows of at
 * least 50 px (libadwaita's row header) overfill the list's 480 px, so the
 * list can always be scrolled towards its end. */
#define ROWS_AT_ONCE 25

static void
setup_item (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_child (item, clarify_history_row_new ());
}

static void
bind_item (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  ClarifyHistoryRow *row = CLARIFY_HISTORY_ROW (gtk_list_item_get_child (item));

  clarify_history_row_set_entry (row, gtk_list_item_get_item (item));
}

static void
unbind_item (GtkSignalListItemFactory *factory,
             GtkListItem              *item)
{
  clarify_history_row_set_entry (CLARIFY_HISTORY_ROW (gtk_list_item_get_child (item)), NULL);
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  ClarifyHistoryView *self = user_data;

  return clarify_history_entry_matches (item, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
update (ClarifyHistoryView *self)
{
  gboolean any = self->history != NULL && g_list_model_get_n_items (G_LIST_MODEL (self->history)) > 0;
  gboolean shown = g_list_model_get_n_items (G_LIST_MODEL (self->shown)) > 0;

  gtk_widget_set_sensitive (GTK_WIDGET (self->clear_button), any);
  gtk_label_set_text (self->placeholder,
                      any ? _("Nothing in the history matches") : _("Questions that ended show up here"));
  gtk_stack_set_visible_child_name (self->stack, shown ? "list" : "empty");
  /* Cleared: what comes next starts a short list again. */
  if (!shown)
    clarify_list_head_set_size (self->head, ROWS_AT_ONCE);
}

/* GtkListView keeps the row at its top in view when rows come in above
 * it; a list looked at from its top shows what just ended instead. */
static void
head_changing_cb (ClarifyHistoryView *self)
{
  self->was_at_top = gtk_adjustment_get_value (self->adjustment) <= 0;
}

static void
head_changed_cb (ClarifyHistoryView *self,
                 guint               position,
                 guint               removed,
                 guint               added)
{
  if (position == 0 && added > 0 && self->was_at_top)
    gtk_widget_activate_action (GTK_WIDGET (self->list), "list.scroll-to-item", "u", 0);
}

static gboolean
grow_cb (gpointer data)
{
  ClarifyHistoryView *self = data;

  self->grow_id = 0;
  clarify_list_head_set_size (self->head, clarify_list_head_get_size (self->head) + ROWS_AT_ONCE);

  return G_SOURCE_REMOVE;
}

/* Within a page of the end: more rows, once the list view is done with
 * its layout (which moves the adjustment too). */
static void
scrolled_cb (ClarifyHistoryView *self,
             GtkAdjustment      *adjustment)
{
  double page = gtk_adjustment_get_page_size (adjustment);

  if (self->grow_id != 0 || page <= 0 ||
      gtk_adjustment_get_value (adjustment) + 2 * page < gtk_adjustment_get_upper (adjustment) ||
      clarify_list_head_get_size (self->head) >= g_list_model_get_n_items (G_LIST_MODEL (self->shown)))
    return;

  self->grow_id = g_idle_add (grow_cb, self);
}

/* A new search, or a new history: from the top, with the first rows. */
static void
start_over (ClarifyHistoryView *self)
{
  g_clear_handle_id (&self->grow_id, g_source_remove);
  gtk_adjustment_set_value (self->adjustment, 0);
  clarify_list_head_set_size (self->head, ROWS_AT_ONCE);
}

static void
search_changed_cb (ClarifyHistoryView *self)
{
  start_over (self);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
clear_response_cb (AdwMessageDialog   *dialog,
                   const char         *response,
                   ClarifyHistoryView *self)
{
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "clear") != 0 || self->history == NULL)
    return;

  if (!clarify_history_clear (self->history, &error))
    g_message ("Cannot clear the history on disk: %s", error->message);
}

static void
clear_clicked_cb (ClarifyHistoryView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  AdwMessageDialog *dialog;

  dialog = clarify_confirm_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                       _("Clear the History?"),
                                       _("Clarify forgets the questions that ended and what you answered. The agents keep what they received."),
                                       "clear", _("C_lear"));
  g_signal_connect_object (dialog, "response", G_CALLBACK (clear_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
clarify_history_view_dispose (GObject *object)
{
  ClarifyHistoryView *self = CLARIFY_HISTORY_VIEW (object);

  /* The list view's model outlives this view, and so does its adjustment. */
  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  if (self->shown != NULL)
    g_signal_handlers_disconnect_by_data (self->shown, self);
  if (self->head != NULL)
    g_signal_handlers_disconnect_by_data (self->head, self);
  if (self->adjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->adjustment, self);
  /* The filter asks this view, and the history lives on. Last: emptying
   * the filter is news to the head and the list, not to this view. */
  if (self->shown != NULL)
    gtk_filter_list_model_set_model (self->shown, NULL);
  g_clear_object (&self->adjustment);
  g_clear_handle_id (&self->grow_id, g_source_remove);
  g_clear_object (&self->history);
  g_clear_object (&self->head);
  g_clear_object (&self->shown);
  g_clear_object (&self->filter);

  G_OBJECT_CLASS (clarify_history_view_parent_class)->dispose (object);
}

static void
clarify_history_view_class_init (ClarifyHistoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_history_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, APP_PATH "/clarify-history-view.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyHistoryView, clear_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyHistoryView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, ClarifyHistoryView, stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyHistoryView, list);
  gtk_widget_class_bind_template_child (widget_class, ClarifyHistoryView, placeholder);
  gtk_widget_class_bind_template_callback (widget_class, clear_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
}

static void
clarify_history_view_init (ClarifyHistoryView *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSelectionModel) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->shown = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->head = clarify_list_head_new (g_object_ref (G_LIST_MODEL (self->shown)), ROWS_AT_ONCE);
  g_signal_connect_object (self->shown, "items-changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->head, "items-changed", G_CALLBACK (head_changing_cb), self, G_CONNECT_SWAPPED);
  /* After the list view has seen the change. */
  g_signal_connect_object (self->head, "items-changed", G_CALLBACK (head_changed_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_item), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_item), NULL);
  gtk_list_view_set_factory (self->list, factory);
  g_object_unref (factory);
  selection = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->head))));
  gtk_list_view_set_model (self->list, selection);
  /* Scrolled, or the end moved: an entry that ended took one row away. */
  self->adjustment = g_object_ref (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->list)));
  g_signal_connect_swapped (self->adjustment, "value-changed", G_CALLBACK (scrolled_cb), self);
  g_signal_connect_swapped (self->adjustment, "changed", G_CALLBACK (scrolled_cb), self);

  update (self);
}

GtkWidget *
clarify_history_view_new (void)
{
  return g_object_new (CLARIFY_TYPE_HISTORY_VIEW, NULL);
}

ClarifyHistory *
clarify_history_view_get_history (ClarifyHistoryView *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_VIEW (self), NULL);

  return self->history;
}

void
clarify_history_view_set_history (ClarifyHistoryView *self,
                                  ClarifyHistory     *history)
{
  g_return_if_fail (CLARIFY_IS_HISTORY_VIEW (self));
  g_return_if_fail (history == NULL || CLARIFY_IS_HISTORY (history));

  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  g_set_object (&self->history, history);
  start_over (self);
  gtk_filter_list_model_set_model (self->shown, G_LIST_MODEL (history));
  if (history != NULL)
    g_signal_connect_object (history, "items-changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);
}

guint
clarify_history_view_get_n_shown (ClarifyHistoryView *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_VIEW (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->shown));
}
