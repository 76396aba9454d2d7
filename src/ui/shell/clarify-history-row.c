/* clarify-history-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-history-row.h"
#include "clarify-request-source.h"
#include "clarify-row-text.h"
#include "clarify-tooltip.h"

/* Laid out and styled as libadwaita 1.2 lays out an action row's content
 * (CSS "row > box.header"), as ClarifyRequestRow is. */
struct _ClarifyHistoryRow
{
  GtkWidget            parent_instance;

  ClarifyHistoryEntry *entry;
  ClarifyOptionTexts  *texts;
};

G_DEFINE_FINAL_TYPE (ClarifyHistoryRow, clarify_history_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ENTRY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

static char *
describe_entry (ClarifyHistoryEntry *entry)
{
  const char *caller = clarify_history_entry_get_caller (entry);
  const char *connection = clarify_history_entry_get_connection (entry);
  const char *answer = clarify_history_entry_get_answer (entry);
  g_autofree char *when = format_when (clarify_history_entry_get_ended_at (entry));
  g_autofree char *what = NULL;

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
  return g_strdup_printf (_("%s · %s · %s"),
                          caller != NULL && caller[0] != '\0' ? clarify_request_source_name_caller (caller)
                          : connection != NULL                   ? clarify_request_source_name_connection (connection)
                                                                 : "",
                          what, when);
}

static void
clarify_history_row_dispose (GObject *object)
{
  ClarifyHistoryRow *self = CLARIFY_HISTORY_ROW (object);
  GtkWidget *child;

  g_clear_object (&self->entry);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (clarify_history_row_parent_class)->dispose (object);
}

static void
clarify_history_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  ClarifyHistoryRow *self = CLARIFY_HISTORY_ROW (object);

  switch (prop_id)
    {
    case PROP_ENTRY:
      g_value_set_object (value, self->entry);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_history_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  ClarifyHistoryRow *self = CLARIFY_HISTORY_ROW (object);

  switch (prop_id)
    {
    case PROP_ENTRY:
      clarify_history_row_set_entry (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_history_row_class_init (ClarifyHistoryRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_history_row_dispose;
  object_class->get_property = clarify_history_row_get_property;
  object_class->set_property = clarify_history_row_set_property;

  properties[PROP_ENTRY] =
    g_param_spec_object ("entry", NULL, NULL,
                         CLARIFY_TYPE_HISTORY_ENTRY,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "box");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_history_row_init (ClarifyHistoryRow *self)
{
  self->texts = clarify_row_add_texts (GTK_WIDGET (self), 0, 3);
}

GtkWidget *
clarify_history_row_new (void)
{
  return g_object_new (CLARIFY_TYPE_HISTORY_ROW, NULL);
}

/* A list view hands a row from one entry to the next as it scrolls. */
void
clarify_history_row_set_entry (ClarifyHistoryRow   *self,
                               ClarifyHistoryEntry *entry)
{
  g_autofree char *subtitle = NULL;

  g_return_if_fail (CLARIFY_IS_HISTORY_ROW (self));
  g_return_if_fail (entry == NULL || CLARIFY_IS_HISTORY_ENTRY (entry));

  if (!g_set_object (&self->entry, entry))
    return;

  if (entry != NULL)
    subtitle = describe_entry (entry);
  clarify_option_texts_set (self->texts, entry != NULL ? clarify_history_entry_get_question (entry) : "", subtitle);
  clarify_tooltip_set_text (GTK_WIDGET (self), entry != NULL ? clarify_history_entry_get_answer (entry) : NULL);
  /* In a list view the list item around the row takes the focus. */
  if (entry != NULL && gtk_widget_get_parent (GTK_WIDGET (self)) != NULL)
    clarify_option_texts_describe (self->texts, gtk_widget_get_parent (GTK_WIDGET (self)));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENTRY]);
}

ClarifyHistoryEntry *
clarify_history_row_get_entry (ClarifyHistoryRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ROW (self), NULL);

  return self->entry;
}

const char *
clarify_history_row_get_title (ClarifyHistoryRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ROW (self), NULL);

  return clarify_option_texts_get_label (self->texts);
}

const char *
clarify_history_row_get_subtitle (ClarifyHistoryRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ROW (self), NULL);

  return clarify_option_texts_get_description (self->texts);
}
