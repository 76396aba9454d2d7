/* clarify-input.c: base class of the per-kind answer widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-validate.h"

#include "clarify-input-private.h"

typedef struct
{
  ClarifyQuestion *question;
  char           **initial_values; /* a refused answer's, else NULL: the defaults */
  char            *context;
  char            *error;
  /* Controls that carry the question as accessible label; owned children. */
  GPtrArray       *labelled;
  gboolean         valid;
  gboolean         touched;
  /* While the subclass builds its controls and applies defaults, changes
   * are not the user's doing. */
  gboolean         setting_up;
} ClarifyInputPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ClarifyInput, clarify_input, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_QUESTION,
  PROP_INITIAL_VALUES,
  PROP_CONTEXT,
  PROP_VALID,
  PROP_ERROR,
  PROP_TOUCHED,
  N_PROPS
};

enum
{
  ACTIVATE_DEFAULT,
  GROWN,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
apply_accessible_label (ClarifyInput *self,
                        GtkWidget    *target)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (target),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  clarify_question_get_text (priv->question),
                                  -1);
  if (priv->context != NULL && priv->context[0] != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (target),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    priv->context,
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (target),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
set_valid_and_error (ClarifyInput *self,
                     gboolean      valid,
                     const char   *error)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  if (priv->valid != valid)
    {
      priv->valid = valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
    }

  if (g_strcmp0 (priv->error, error) != 0)
    {
      g_free (priv->error);
      priv->error = g_strdup (error);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
    }
}

static void
update_validity (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *custom_text = NULL;
  g_autofree char *message = NULL;
  gboolean valid;

  clarify_input_collect (self, values, &custom_text);
  g_ptr_array_add (values, NULL);

  valid = clarify_question_check_answer (priv->question,
                                         (const char * const *) values->pdata,
                                         custom_text,
                                         &message);
  if (!valid && message == NULL)
    message = g_strdup (_("This answer is not valid."));

  set_valid_and_error (self, valid, valid ? NULL : message);
}

static gboolean
clarify_input_grab_focus (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (focus != NULL && gtk_widget_is_ancestor (focus, widget))
    return TRUE;

  /* The input itself never takes focus: its first control does. */
  return gtk_widget_child_focus (widget, GTK_DIR_TAB_FORWARD);
}

gboolean
clarify_input_focus_children (GtkWidget        *widget,
                              GtkDirectionType  direction)
{
  gboolean forward = direction == GTK_DIR_TAB_FORWARD;
  GtkWidget *focus_child = gtk_widget_get_focus_child (widget);
  GtkWidget *child;

  g_return_val_if_fail (direction == GTK_DIR_TAB_FORWARD || direction == GTK_DIR_TAB_BACKWARD, FALSE);

  if (focus_child != NULL)
    {
      if (gtk_widget_child_focus (focus_child, direction))
        return TRUE;
      child = forward ? gtk_widget_get_next_sibling (focus_child) : gtk_widget_get_prev_sibling (focus_child);
    }
  else
    {
      child = forward ? gtk_widget_get_first_child (widget) : gtk_widget_get_last_child (widget);
    }

  for (; child != NULL; child = forward ? gtk_widget_get_next_sibling (child) : gtk_widget_get_prev_sibling (child))
    if (gtk_widget_get_mapped (child) && gtk_widget_child_focus (child, direction))
      return TRUE;

  return FALSE;
}

static gboolean
clarify_input_focus (GtkWidget        *widget,
                     GtkDirectionType  direction)
{
  if (direction != GTK_DIR_TAB_FORWARD && direction != GTK_DIR_TAB_BACKWARD)
    return GTK_WIDGET_CLASS (clarify_input_parent_class)->focus (widget, direction);

  return clarify_input_focus_children (widget, direction);
}

static void
clarify_input_constructed (GObject *object)
{
  ClarifyInput *self = CLARIFY_INPUT (object);
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  G_OBJECT_CLASS (clarify_input_parent_class)->constructed (object);

  g_return_if_fail (CLARIFY_IS_QUESTION (priv->question));

  priv->setting_up = TRUE;
  if (CLARIFY_INPUT_GET_CLASS (self)->setup != NULL)
    CLARIFY_INPUT_GET_CLASS (self)->setup (self, priv->question);
  priv->setting_up = FALSE;

  update_validity (self);
}

static void
clarify_input_dispose (GObject *object)
{
  ClarifyInput *self = CLARIFY_INPUT (object);
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);
  GtkWidget *child;

  g_clear_pointer (&priv->labelled, g_ptr_array_unref);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (clarify_input_parent_class)->dispose (object);
}

static void
clarify_input_finalize (GObject *object)
{
  ClarifyInput *self = CLARIFY_INPUT (object);
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_clear_object (&priv->question);
  g_clear_pointer (&priv->initial_values, g_strfreev);
  g_clear_pointer (&priv->context, g_free);
  g_clear_pointer (&priv->error, g_free);

  G_OBJECT_CLASS (clarify_input_parent_class)->finalize (object);
}

static void
clarify_input_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  ClarifyInput *self = CLARIFY_INPUT (object);
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_QUESTION:
      g_value_set_object (value, priv->question);
      break;

    case PROP_INITIAL_VALUES:
      g_value_set_boxed (value, priv->initial_values);
      break;

    case PROP_CONTEXT:
      g_value_set_string (value, priv->context);
      break;

    case PROP_VALID:
      g_value_set_boolean (value, priv->valid);
      break;

    case PROP_ERROR:
      g_value_set_string (value, priv->error);
      break;

    case PROP_TOUCHED:
      g_value_set_boolean (value, priv->touched);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_input_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  ClarifyInput *self = CLARIFY_INPUT (object);
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_QUESTION:
      priv->question = g_value_dup_object (value);
      break;

    case PROP_INITIAL_VALUES:
      priv->initial_values = g_value_dup_boxed (value);
      break;

    case PROP_CONTEXT:
      clarify_input_set_context (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_input_class_init (ClarifyInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = clarify_input_constructed;
  object_class->dispose = clarify_input_dispose;
  object_class->finalize = clarify_input_finalize;
  object_class->get_property = clarify_input_get_property;
  object_class->set_property = clarify_input_set_property;

  widget_class->grab_focus = clarify_input_grab_focus;
  widget_class->focus = clarify_input_focus;

  properties[PROP_QUESTION] =
    g_param_spec_object ("question", NULL, NULL,
                         CLARIFY_TYPE_QUESTION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /* Set for a question asked again after the agent refused the answer: the
   * user starts from it rather than from nothing. */
  properties[PROP_INITIAL_VALUES] =
    g_param_spec_boxed ("initial-values", NULL, NULL,
                        G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CONTEXT] =
    g_param_spec_string ("context", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_TOUCHED] =
    g_param_spec_boolean ("touched", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[ACTIVATE_DEFAULT] =
    g_signal_new ("activate-default",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);

  signals[GROWN] =
    g_signal_new ("grown",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);

  /* Subclasses inherit the layout manager type; each instance is vertical. */
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "clarifyinput");
  /* Unnamed, GTK 4.8 reads a plain widget out by its type name. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_input_init (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  priv->labelled = g_ptr_array_new_with_free_func (g_object_unref);

  if (GTK_IS_BOX_LAYOUT (layout))
    {
      gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
      gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
    }
}

ClarifyQuestion *
clarify_input_get_question (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_INPUT (self), NULL);

  return priv->question;
}

const char * const *
clarify_input_get_initial_values (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_INPUT (self), NULL);

  if (priv->initial_values != NULL)
    return (const char * const *) priv->initial_values;

  return clarify_question_get_default_values (priv->question);
}

gboolean
clarify_input_get_valid (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_INPUT (self), FALSE);

  return priv->valid;
}

const char *
clarify_input_get_error (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_INPUT (self), NULL);

  return priv->error;
}

gboolean
clarify_input_get_touched (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_INPUT (self), FALSE);

  return priv->touched;
}

void
clarify_input_collect (ClarifyInput  *self,
                       GPtrArray     *values,
                       char         **custom_text)
{
  g_return_if_fail (CLARIFY_IS_INPUT (self));
  g_return_if_fail (values != NULL);

  if (custom_text != NULL)
    *custom_text = NULL;

  if (CLARIFY_INPUT_GET_CLASS (self)->collect != NULL)
    {
      g_autofree char *custom = NULL;

      CLARIFY_INPUT_GET_CLASS (self)->collect (self, values, &custom);
      if (custom_text != NULL)
        *custom_text = g_steal_pointer (&custom);
    }
}

gboolean
clarify_input_pick (ClarifyInput *self,
                    guint         index)
{
  g_return_val_if_fail (CLARIFY_IS_INPUT (self), FALSE);

  if (CLARIFY_INPUT_GET_CLASS (self)->pick == NULL)
    return FALSE;

  return CLARIFY_INPUT_GET_CLASS (self)->pick (self, index);
}

static void
revalidate (ClarifyInput *self,
            gboolean      touched)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  /* constructed() validates once the controls are complete. */
  if (priv->setting_up)
    return;

  g_object_freeze_notify (G_OBJECT (self));

  update_validity (self);

  if (priv->touched != touched)
    {
      priv->touched = touched;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOUCHED]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

void
clarify_input_changed (ClarifyInput *self)
{
  g_return_if_fail (CLARIFY_IS_INPUT (self));

  revalidate (self, TRUE);
}

void
clarify_input_restarted (ClarifyInput *self)
{
  g_return_if_fail (CLARIFY_IS_INPUT (self));

  revalidate (self, FALSE);
}

void
clarify_input_label_accessible (ClarifyInput *self,
                                GtkWidget    *target)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_INPUT (self));
  g_return_if_fail (GTK_IS_WIDGET (target));

  if (!g_ptr_array_find (priv->labelled, target, NULL))
    g_ptr_array_add (priv->labelled, g_object_ref (target));

  apply_accessible_label (self, target);
}

void
clarify_input_set_context (ClarifyInput *self,
                           const char   *context)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_if_fail (CLARIFY_IS_INPUT (self));

  if (g_strcmp0 (priv->context, context) == 0)
    return;

  g_free (priv->context);
  priv->context = g_strdup (context);

  if (priv->labelled != NULL)
    for (guint i = 0; i < priv->labelled->len; i++)
      apply_accessible_label (self, g_ptr_array_index (priv->labelled, i));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT]);
}

const char *
clarify_input_get_context (ClarifyInput *self)
{
  ClarifyInputPrivate *priv = clarify_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_INPUT (self), NULL);

  return priv->context;
}

void
clarify_input_activate_default (ClarifyInput *self)
{
  g_return_if_fail (CLARIFY_IS_INPUT (self));

  g_signal_emit (self, signals[ACTIVATE_DEFAULT], 0);
}

void
clarify_input_grown (ClarifyInput *self)
{
  g_return_if_fail (CLARIFY_IS_INPUT (self));

  g_signal_emit (self, signals[GROWN], 0);
}

GtkWidget *
clarify_input_new_hint_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");

  return label;
}

GtkWidget *
clarify_input_new_button_row (GtkWidget        *refusal,
                              GtkWidget *const *others,
                              guint             n_others)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_set_hexpand (spacer, TRUE);
  if (refusal != NULL)
    gtk_box_append (GTK_BOX (row), refusal);
  gtk_box_append (GTK_BOX (row), spacer);
  for (guint i = 0; i < n_others; i++)
    if (others[i] != NULL)
      gtk_box_append (GTK_BOX (row), others[i]);

  return row;
}
