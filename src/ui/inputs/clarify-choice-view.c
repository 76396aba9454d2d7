/* clarify-choice-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-choice-view.h"

typedef struct
{
  GListModel *options;
  /* The active ClarifyOptions in the order they were picked, as the
   * agents' own clients send them; the options model keeps them alive. */
  GPtrArray  *active;
  gboolean    multiple;
  gboolean    with_other;
  gboolean    other_active;

  /* The highlighted option is the first of hovered, focused and picked
   * that is set: the option under the pointer, with the focus, picked last. */
  ClarifyOption *hovered;
  ClarifyOption *focused;
  ClarifyOption *picked;
  ClarifyOption *highlighted;
  GtkRoot       *root;
  gulong         focus_handler;
} ClarifyChoiceViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ClarifyChoiceView, clarify_choice_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_OPTIONS,
  PROP_MULTIPLE,
  PROP_WITH_OTHER,
  PROP_HIGHLIGHTED,
  N_PROPS
};

enum
{
  CHANGED,
  ACTIVATE_DEFAULT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
update_highlighted (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);
  ClarifyOption *highlighted;

  if (priv->hovered != NULL)
    highlighted = priv->hovered;
  else if (priv->focused != NULL)
    highlighted = priv->focused;
  else
    highlighted = priv->picked;

  if (g_set_object (&priv->highlighted, highlighted))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHTED]);
}

/* The option an option widget stands for: set on the widget or one of its
 * ancestors inside the view, or on its first child (a list row's focus is
 * on the row around our child). */
static ClarifyOption *
option_for_widget (ClarifyChoiceView *self,
                   GtkWidget         *widget)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  for (GtkWidget *w = widget; w != NULL && w != GTK_WIDGET (self); w = gtk_widget_get_parent (w))
    if (g_object_get_data (G_OBJECT (w), CLARIFY_CHOICE_VIEW_OPTION_KEY) != NULL)
      return g_object_get_data (G_OBJECT (w), CLARIFY_CHOICE_VIEW_OPTION_KEY);

  return child != NULL ? g_object_get_data (G_OBJECT (child), CLARIFY_CHOICE_VIEW_OPTION_KEY) : NULL;
}

static void
focus_widget_cb (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);
  GtkWidget *focus = priv->root != NULL ? gtk_root_get_focus (priv->root) : NULL;
  ClarifyOption *focused = NULL;

  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self)))
    focused = option_for_widget (self, focus);

  g_set_object (&priv->focused, focused);
  update_highlighted (self);
}

static void
pointer_enter_cb (GtkEventControllerMotion *motion,
                  double                    x,
                  double                    y,
                  ClarifyChoiceView        *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (motion));

  g_set_object (&priv->hovered, option_for_widget (self, widget));
  update_highlighted (self);
}

static void
pointer_leave_cb (GtkEventControllerMotion *motion,
                  ClarifyChoiceView        *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_clear_object (&priv->hovered);
  update_highlighted (self);
}

static void
state_changed (ClarifyChoiceView *self)
{
  if (CLARIFY_CHOICE_VIEW_GET_CLASS (self)->sync != NULL)
    CLARIFY_CHOICE_VIEW_GET_CLASS (self)->sync (self);

  update_highlighted (self);

  g_signal_emit (self, signals[CHANGED], 0);
}

static void
clarify_choice_view_constructed (GObject *object)
{
  ClarifyChoiceView *self = CLARIFY_CHOICE_VIEW (object);
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  G_OBJECT_CLASS (clarify_choice_view_parent_class)->constructed (object);

  if (priv->options == NULL)
    priv->options = G_LIST_MODEL (g_list_store_new (CLARIFY_TYPE_OPTION));

  if (CLARIFY_CHOICE_VIEW_GET_CLASS (self)->setup != NULL)
    CLARIFY_CHOICE_VIEW_GET_CLASS (self)->setup (self);
}

static void
clarify_choice_view_map (GtkWidget *widget)
{
  ClarifyChoiceView *self = CLARIFY_CHOICE_VIEW (widget);
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  GTK_WIDGET_CLASS (clarify_choice_view_parent_class)->map (widget);

  /* The focus moves between our widgets without telling us otherwise. */
  priv->root = gtk_widget_get_root (widget);
  priv->focus_handler = g_signal_connect_swapped (priv->root, "notify::focus-widget",
                                                  G_CALLBACK (focus_widget_cb), self);
  focus_widget_cb (self);
}

static void
clarify_choice_view_unmap (GtkWidget *widget)
{
  ClarifyChoiceView *self = CLARIFY_CHOICE_VIEW (widget);
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  if (priv->root != NULL)
    g_clear_signal_handler (&priv->focus_handler, priv->root);
  priv->root = NULL;

  GTK_WIDGET_CLASS (clarify_choice_view_parent_class)->unmap (widget);
}

static void
clarify_choice_view_dispose (GObject *object)
{
  ClarifyChoiceView *self = CLARIFY_CHOICE_VIEW (object);
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);
  GtkWidget *child;

  g_clear_object (&priv->hovered);
  g_clear_object (&priv->focused);
  g_clear_object (&priv->picked);
  g_clear_object (&priv->highlighted);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (clarify_choice_view_parent_class)->dispose (object);
}

static void
clarify_choice_view_finalize (GObject *object)
{
  ClarifyChoiceView *self = CLARIFY_CHOICE_VIEW (object);
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_clear_pointer (&priv->active, g_ptr_array_unref);
  g_clear_object (&priv->options);

  G_OBJECT_CLASS (clarify_choice_view_parent_class)->finalize (object);
}

static void
clarify_choice_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  ClarifyChoiceView *self = CLARIFY_CHOICE_VIEW (object);
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_OPTIONS:
      g_value_set_object (value, priv->options);
      break;

    case PROP_MULTIPLE:
      g_value_set_boolean (value, priv->multiple);
      break;

    case PROP_WITH_OTHER:
      g_value_set_boolean (value, priv->with_other);
      break;

    case PROP_HIGHLIGHTED:
      g_value_set_object (value, priv->highlighted);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_choice_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  ClarifyChoiceView *self = CLARIFY_CHOICE_VIEW (object);
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_OPTIONS:
      priv->options = g_value_dup_object (value);
      break;

    case PROP_MULTIPLE:
      priv->multiple = g_value_get_boolean (value);
      break;

    case PROP_WITH_OTHER:
      priv->with_other = g_value_get_boolean (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_choice_view_class_init (ClarifyChoiceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = clarify_choice_view_constructed;
  object_class->dispose = clarify_choice_view_dispose;
  object_class->finalize = clarify_choice_view_finalize;
  object_class->get_property = clarify_choice_view_get_property;
  object_class->set_property = clarify_choice_view_set_property;

  widget_class->map = clarify_choice_view_map;
  widget_class->unmap = clarify_choice_view_unmap;

  properties[PROP_OPTIONS] =
    g_param_spec_object ("options", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_MULTIPLE] =
    g_param_spec_boolean ("multiple", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_WITH_OTHER] =
    g_param_spec_boolean ("with-other", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_HIGHLIGHTED] =
    g_param_spec_object ("highlighted", NULL, NULL,
                         CLARIFY_TYPE_OPTION,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);

  signals[ACTIVATE_DEFAULT] =
    g_signal_new ("activate-default",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_choice_view_init (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  priv->active = g_ptr_array_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
}

GListModel *
clarify_choice_view_get_options (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), NULL);

  return priv->options;
}

gboolean
clarify_choice_view_get_multiple (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), FALSE);

  return priv->multiple;
}

gboolean
clarify_choice_view_get_with_other (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), FALSE);

  return priv->with_other;
}

gboolean
clarify_choice_view_get_active (ClarifyChoiceView *self,
                                ClarifyOption     *option)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), FALSE);

  return option != NULL && g_ptr_array_find (priv->active, option, NULL);
}

void
clarify_choice_view_set_active (ClarifyChoiceView *self,
                                ClarifyOption     *option,
                                gboolean           active)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_CHOICE_VIEW (self));
  g_return_if_fail (CLARIFY_IS_OPTION (option));

  if (active == g_ptr_array_find (priv->active, option, NULL))
    return;

  if (active)
    {
      if (!priv->multiple)
        {
          g_ptr_array_set_size (priv->active, 0);
          priv->other_active = FALSE;
        }
      g_ptr_array_add (priv->active, option);
      g_set_object (&priv->picked, option);
    }
  else
    {
      g_ptr_array_remove (priv->active, option);
      /* The preview follows the last option still picked. */
      if (priv->picked == option)
        {
          ClarifyOption *last = NULL;

          if (priv->active->len > 0)
            last = g_ptr_array_index (priv->active, priv->active->len - 1);
          g_set_object (&priv->picked, last);
        }
    }

  state_changed (self);
}

gboolean
clarify_choice_view_get_other_active (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), FALSE);

  return priv->other_active;
}

void
clarify_choice_view_set_other_active (ClarifyChoiceView *self,
                                      gboolean           active)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_CHOICE_VIEW (self));

  active = active && priv->with_other;
  if (priv->other_active == active)
    return;

  priv->other_active = active;
  /* In a single choice, "Other…" is one more option of the group. */
  if (active && !priv->multiple)
    g_ptr_array_set_size (priv->active, 0);
  if (active)
    g_clear_object (&priv->picked);

  state_changed (self);
}

guint
clarify_choice_view_get_n_active (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), 0);

  return priv->active->len;
}

void
clarify_choice_view_collect (ClarifyChoiceView *self,
                             GPtrArray         *values)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_CHOICE_VIEW (self));
  g_return_if_fail (values != NULL);

  for (guint i = 0; i < priv->active->len; i++)
    g_ptr_array_add (values, g_strdup (clarify_option_get_value (g_ptr_array_index (priv->active, i))));
}

gboolean
clarify_choice_view_pick (ClarifyChoiceView *self,
                          guint              index)
{
  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), FALSE);

  if (CLARIFY_CHOICE_VIEW_GET_CLASS (self)->pick == NULL)
    return FALSE;

  return CLARIFY_CHOICE_VIEW_GET_CLASS (self)->pick (self, index);
}

ClarifyOption *
clarify_choice_view_get_highlighted (ClarifyChoiceView *self)
{
  ClarifyChoiceViewPrivate *priv = clarify_choice_view_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_VIEW (self), NULL);

  return priv->highlighted;
}

void
clarify_choice_view_track_pointer (ClarifyChoiceView *self,
                                   GtkWidget         *widget)
{
  GtkEventController *motion;

  g_return_if_fail (CLARIFY_IS_CHOICE_VIEW (self));
  g_return_if_fail (GTK_IS_WIDGET (widget));

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_object (motion, "enter", G_CALLBACK (pointer_enter_cb), self, 0);
  g_signal_connect_object (motion, "leave", G_CALLBACK (pointer_leave_cb), self, 0);
  gtk_widget_add_controller (widget, motion);
}

void
clarify_choice_view_activate_default (ClarifyChoiceView *self)
{
  g_return_if_fail (CLARIFY_IS_CHOICE_VIEW (self));

  g_signal_emit (self, signals[ACTIVATE_DEFAULT], 0);
}
