/* clarify-key-guard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-key-guard.h"

struct _ClarifyKeyGuard
{
  GObject  parent_instance;

  guint    duration_ms;
  guint    timeout_id;
  guint    n_ignored;
};

G_DEFINE_FINAL_TYPE (ClarifyKeyGuard, clarify_key_guard, G_TYPE_OBJECT)

static void
clarify_key_guard_dispose (GObject *object)
{
  ClarifyKeyGuard *self = CLARIFY_KEY_GUARD (object);

  g_clear_handle_id (&self->timeout_id, g_source_remove);

  G_OBJECT_CLASS (clarify_key_guard_parent_class)->dispose (object);
}

static void
clarify_key_guard_class_init (ClarifyKeyGuardClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = clarify_key_guard_dispose;
}

static void
clarify_key_guard_init (ClarifyKeyGuard *self)
{
}

static gboolean
key_pressed_cb (ClarifyKeyGuard *self,
                guint            keyval,
                guint            keycode,
                GdkModifierType  state)
{
  if (self->timeout_id == 0)
    return FALSE;

  /* Someone still typing is typing for another window: the guard holds
   * until the keys have paused for the whole duration. */
  self->n_ignored++;
  clarify_key_guard_arm (self);

  return TRUE;
}

static gboolean
expired_cb (gpointer data)
{
  ClarifyKeyGuard *self = data;

  self->timeout_id = 0;

  return G_SOURCE_REMOVE;
}

ClarifyKeyGuard *
clarify_key_guard_new (GtkWidget *widget,
                       guint      duration_ms)
{
  ClarifyKeyGuard *self;
  GtkEventController *controller;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  self = g_object_new (CLARIFY_TYPE_KEY_GUARD, NULL);
  self->duration_ms = duration_ms;

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  /* The widget owns the controller; the handler goes with the guard. */
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (widget, controller);

  return self;
}

void
clarify_key_guard_set_duration (ClarifyKeyGuard *self,
                                guint            duration_ms)
{
  g_return_if_fail (CLARIFY_IS_KEY_GUARD (self));

  self->duration_ms = duration_ms;
}

void
clarify_key_guard_arm (ClarifyKeyGuard *self)
{
  g_return_if_fail (CLARIFY_IS_KEY_GUARD (self));

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->timeout_id = g_timeout_add (self->duration_ms, expired_cb, self);
}

void
clarify_key_guard_disarm (ClarifyKeyGuard *self)
{
  g_return_if_fail (CLARIFY_IS_KEY_GUARD (self));

  g_clear_handle_id (&self->timeout_id, g_source_remove);
}

gboolean
clarify_key_guard_get_armed (ClarifyKeyGuard *self)
{
  g_return_val_if_fail (CLARIFY_IS_KEY_GUARD (self), FALSE);

  return self->timeout_id != 0;
}

guint
clarify_key_guard_get_n_ignored (ClarifyKeyGuard *self)
{
  g_return_val_if_fail (CLARIFY_IS_KEY_GUARD (self), 0);

  return self->n_ignored;
}
