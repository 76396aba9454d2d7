/* clarify-history-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-history-view.h"
#include "clarify-request-source.h"
#include "clarify-row-text.h"
#include "clarify-tooltip.h"

struct _ClarifyHistoryView
{
  AdwPreferencesGroup  parent_instance;

  GtkButton           *clear_button;
  GtkSearchEntry      *search_entry;
  GtkListBox          *list;
  GtkWidget           *placeholder;

  ClarifyHistory      *history;
  GtkCustomFilter     *filter;
  GtkFilterListModel  *shown;
};

G_DEFINE_FINAL_TYPE (ClarifyHistoryView, clarify_history_view, ADW_TYPE_PREFERENCES_GROUP)

/* How it ended, when nothing was answered. */
static const char *
describe_outcome (ClarifyHistoryOutcome outcome)
{
  switch (outcome)
    {
    case CLARIFY_HISTORY_ANSWERED:
      return _("Answered");
    case CLARIFY_HISTORY_SKIPPED:
      return _("Skipped");
    case CLARIFY_HISTORY_CANCELLED:
      return _("Declined");
    case CLARIFY_HISTORY_TIMED_OUT:
      return _("Time ran out");
    case CLARIFY_HISTORY_WITHDRAWN:
      return _("Withdrawn by the agent");
    case CLARIFY_HISTORY_ANSWERED_ELSEWHERE:
      return _("Answered elsewhere");
    case CLARIFY_HISTORY_FAILED:
      return _("Not delivered");
    default:
      return "";
    }
}

static char *
format_when (gint64 ended_at)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (ended_at / G_USEC_PER_SEC);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  if (when == NULL)
    return g_strdup ("");
  if (g_date_time_get_year (when) == g_date_time_get_year (now) &&
      g_date_time_get_day_of_year (when) == g_date_time_get_day_of_year (now))
    /* Translators: the time of day a question ended, today (strftime format) */
    return g_date_time_format (when, _("%H:%M"));

  /* Translators: the day and time a question ended, before today (strftime format) */
  return g_date_time_format (when, _("%b %-d, %H:%M"));
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  ClarifyHistoryEntry *entry = item;
  const char *caller = clarify_history_entry_get_caller (entry);
  const char *connection = clarify_history_entry_get_connection (entry);
  const char *answer = clarify_history_entry_get_answer (entry);
  g_autofree char *when = format_when (clarify_history_entry_get_ended_at (entry));
  g_autofree char *what = NULL;
  g_autofree char *subtitle = NULL;
  GtkWidget *row = adw_action_row_new ();

  if (answer != NULL && clarify_history_entry_get_outcome (entry) == CLARIFY_HISTORY_ANSWERED)
    {
      g_auto(GStrv) lines = g_strsplit (answer, "\n", -1);
      g_autofree char *joined = g_strjoinv ("; ", lines);

      /* Translators: what the user answered, in the history: "Answered: PostgreSQL" */
      what = g_strdup_printf (_("Answered: %s"), joined);
    }
  else
    {
      what = g_strdup (describe_outcome (clarify_history_entry_get_outcome (entry)));
    }

  /* Translators: a history row's subtitle: "<who asked> · <what became of it> · <when>" */
  subtitle = g_strdup_printf (_("%s · %s · %s"),
                              caller != NULL && caller[0] != '\0' ? clarify_request_source_name_caller (caller)
                                                                  : (connection != NULL ? connection : ""),
                              what, when);
  clarify_row_set_texts (ADW_ACTION_ROW (row), clarify_history_entry_get_question (entry), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
  clarify_tooltip_set_text (row, answer);

  return row;
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

  gtk_widget_set_sensitive (GTK_WIDGET (self->clear_button), any);
  gtk_label_set_text (GTK_LABEL (self->placeholder),
                      any ? _("Nothing in the history matches") : _("Questions that ended show up here"));
}

static void
search_changed_cb (ClarifyHistoryView *self)
{
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

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("Clear the History?"),
                                                       _("Clarify forgets the questions that ended and what you answered. The agents keep what they received.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "clear", _("C_lear"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "clear", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (clear_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
clarify_history_view_dispose (GObject *object)
{
  ClarifyHistoryView *self = CLARIFY_HISTORY_VIEW (object);

  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  g_clear_object (&self->history);
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
  gtk_widget_class_bind_template_child (widget_class, ClarifyHistoryView, list);
  gtk_widget_class_bind_template_callback (widget_class, clear_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
}

static void
clarify_history_view_init (ClarifyHistoryView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->shown = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (self->shown), create_row, NULL, NULL);

  self->placeholder = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->placeholder), TRUE);
  gtk_widget_set_margin_top (self->placeholder, 18);
  gtk_widget_set_margin_bottom (self->placeholder, 18);
  gtk_widget_set_margin_start (self->placeholder, 12);
  gtk_widget_set_margin_end (self->placeholder, 12);
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_list_box_set_placeholder (self->list, self->placeholder);
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
