/* clarify-countdown.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-countdown.h"

struct _ClarifyCountdown
{
  GtkWidget       parent_instance;

  GtkProgressBar *bar;
  GtkLabel       *label;

  gint64          deadline;
  gint64          duration;
  guint           timer_id;
  guint           seconds;
  guint           running : 1;
  guint           warning : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyCountdown, clarify_countdown, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_SECONDS,
  PROP_WARNING,
  N_PROPS
};

enum {
  EXPIRED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void schedule (ClarifyCountdown *self);

static void
set_warning (ClarifyCountdown *self,
             gboolean          warning)
{
  if (self->warning == !!warning)
    return;

  self->warning = !!warning;
  if (warning)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->bar), "warning");
      gtk_widget_add_css_class (GTK_WIDGET (self->label), "warning");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->bar), "warning");
      gtk_widget_remove_css_class (GTK_WIDGET (self->label), "warning");
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WARNING]);
}

static void
set_running (ClarifyCountdown *self,
             gboolean          running)
{
  if (self->running == !!running)
    return;

  self->running = !!running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* Returns the µs left at @now. */
static gint64
update (ClarifyCountdown *self,
        gint64            now)
{
  gint64 left = MAX (self->deadline - now, 0);
  /* Rounded up, so that "0:00" shows only at the very end. */
  guint seconds = (guint) ((left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
  double fraction = self->duration > 0 ? (double) left / (double) self->duration : 0.0;

  gtk_progress_bar_set_fraction (self->bar, CLAMP (fraction, 0.0, 1.0));
  set_warning (self, seconds <= CLARIFY_COUNTDOWN_WARNING_SECONDS);

  if (seconds != self->seconds || gtk_label_get_label (self->label)[0] == '\0')
    {
      g_autofree char *text = clarify_countdown_format (seconds);

      gtk_label_set_text (self->label, text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                      -1);
      if (seconds != self->seconds)
        {
          self->seconds = seconds;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SECONDS]);
        }
    }

  return left;
}

static gboolean
tick_cb (gpointer data)
{
  ClarifyCountdown *self = data;

  self->timer_id = 0;

  if (update (self, g_get_monotonic_time ()) > 0)
    {
      schedule (self);
      return G_SOURCE_REMOVE;
    }

  set_running (self, FALSE);
  g_signal_emit (self, signals[EXPIRED], 0);

  return G_SOURCE_REMOVE;
}

/* One timer at a time: on screen, it wakes when the shown second changes;
 * otherwise (hidden, or still waiting in the queue and never realized) only
 * at the deadline, which the agent must hear about all the same. */
static void
schedule (ClarifyCountdown *self)
{
  gint64 left;
  gint64 delay_us;

  g_clear_handle_id (&self->timer_id, g_source_remove);

  if (!self->running)
    return;

  left = MAX (self->deadline - g_get_monotonic_time (), 0);

  if (left == 0)
    delay_us = 0;
  else if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    delay_us = left % G_USEC_PER_SEC ? left % G_USEC_PER_SEC : G_USEC_PER_SEC;
  else
    delay_us = left;

  /* Rounded up: waking a little late lands on the right side of the boundary. */
  self->timer_id = g_timeout_add_full (G_PRIORITY_DEFAULT,
                                       (guint) ((delay_us + 999) / 1000),
                                       tick_cb, self, NULL);
}

static void
clarify_countdown_map (GtkWidget *widget)
{
  ClarifyCountdown *self = CLARIFY_COUNTDOWN (widget);

  GTK_WIDGET_CLASS (clarify_countdown_parent_class)->map (widget);

  if (self->running)
    {
      update (self, g_get_monotonic_time ());
      schedule (self);
    }
}

static void
clarify_countdown_unmap (GtkWidget *widget)
{
  ClarifyCountdown *self = CLARIFY_COUNTDOWN (widget);

  GTK_WIDGET_CLASS (clarify_countdown_parent_class)->unmap (widget);

  schedule (self);
}

static void
clarify_countdown_dispose (GObject *object)
{
  ClarifyCountdown *self = CLARIFY_COUNTDOWN (object);

  g_clear_handle_id (&self->timer_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), CLARIFY_TYPE_COUNTDOWN);

  G_OBJECT_CLASS (clarify_countdown_parent_class)->dispose (object);
}

static void
clarify_countdown_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  ClarifyCountdown *self = CLARIFY_COUNTDOWN (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;

    case PROP_SECONDS:
      g_value_set_uint (value, self->seconds);
      break;

    case PROP_WARNING:
      g_value_set_boolean (value, self->warning);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_countdown_class_init (ClarifyCountdownClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_countdown_dispose;
  object_class->get_property = clarify_countdown_get_property;

  widget_class->map = clarify_countdown_map;
  widget_class->unmap = clarify_countdown_unmap;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SECONDS] =
    g_param_spec_uint ("seconds", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WARNING] =
    g_param_spec_boolean ("warning", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[EXPIRED] =
    g_signal_new ("expired",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/clarify/Clarify/clarify-countdown.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyCountdown, bar);
  gtk_widget_class_bind_template_child (widget_class, ClarifyCountdown, label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TIMER);
  gtk_widget_class_set_css_name (widget_class, "countdown");
}

static void
clarify_countdown_init (ClarifyCountdown *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

ClarifyCountdown *
clarify_countdown_new (void)
{
  return g_object_new (CLARIFY_TYPE_COUNTDOWN, NULL);
}

void
clarify_countdown_start (ClarifyCountdown *self,
                         gint64            deadline_us,
                         gint64            duration_us)
{
  g_return_if_fail (CLARIFY_IS_COUNTDOWN (self));

  self->deadline = deadline_us;
  self->duration = MAX (duration_us, 1);
  set_running (self, TRUE);
  update (self, g_get_monotonic_time ());
  schedule (self);
}

void
clarify_countdown_stop (ClarifyCountdown *self)
{
  g_return_if_fail (CLARIFY_IS_COUNTDOWN (self));

  set_running (self, FALSE);
  g_clear_handle_id (&self->timer_id, g_source_remove);
}

gboolean
clarify_countdown_get_running (ClarifyCountdown *self)
{
  g_return_val_if_fail (CLARIFY_IS_COUNTDOWN (self), FALSE);

  return self->running;
}

guint
clarify_countdown_get_seconds (ClarifyCountdown *self)
{
  g_return_val_if_fail (CLARIFY_IS_COUNTDOWN (self), 0);

  return self->seconds;
}

gboolean
clarify_countdown_get_warning (ClarifyCountdown *self)
{
  g_return_val_if_fail (CLARIFY_IS_COUNTDOWN (self), FALSE);

  return self->warning;
}

char *
clarify_countdown_format (guint seconds)
{
  /* An hour or more in hours: "120:58" read as two hours only after a sum. */
  if (seconds >= 3600)
    /* Translators: hours, minutes and seconds left to answer, e.g. "2:00:58 left" */
    return g_strdup_printf (_("%u:%02u:%02u left"), seconds / 3600, seconds / 60 % 60, seconds % 60);

  /* Translators: minutes and seconds left to answer, e.g. "4:59 left" */
  return g_strdup_printf (_("%d:%02d left"), (int) (seconds / 60), (int) (seconds % 60));
}
