/* clarify-option.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-option.h"

struct _ClarifyOption
{
  GObject  parent_instance;

  char    *label;
  char    *value;
  char    *description;
  char    *preview;
};

G_DEFINE_FINAL_TYPE (ClarifyOption, clarify_option, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LABEL,
  PROP_VALUE,
  PROP_DESCRIPTION,
  PROP_PREVIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
clarify_option_constructed (GObject *object)
{
  ClarifyOption *self = CLARIFY_OPTION (object);

  G_OBJECT_CLASS (clarify_option_parent_class)->constructed (object);

  if (self->label == NULL)
    self->label = g_strdup ("");
  /* An empty value is as useless to the agent as none: answer with the label. */
  if (self->value == NULL || self->value[0] == '\0')
    {
      g_free (self->value);
      self->value = g_strdup (self->label);
    }
}

static void
clarify_option_finalize (GObject *object)
{
  ClarifyOption *self = CLARIFY_OPTION (object);

  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->value, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->preview, g_free);

  G_OBJECT_CLASS (clarify_option_parent_class)->finalize (object);
}

static void
clarify_option_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  ClarifyOption *self = CLARIFY_OPTION (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;

    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_PREVIEW:
      g_value_set_string (value, self->preview);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_option_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  ClarifyOption *self = CLARIFY_OPTION (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      self->label = g_value_dup_string (value);
      break;

    case PROP_VALUE:
      self->value = g_value_dup_string (value);
      break;

    case PROP_DESCRIPTION:
      {
        const char *description = g_value_get_string (value);

        /* "" and NULL mean the same to the UI: no subtitle. */
        self->description = (description != NULL && description[0] != '\0') ? g_strdup (description) : NULL;
      }
      break;

    case PROP_PREVIEW:
      clarify_option_set_preview (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_option_class_init (ClarifyOptionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = clarify_option_constructed;
  object_class->finalize = clarify_option_finalize;
  object_class->get_property = clarify_option_get_property;
  object_class->set_property = clarify_option_set_property;

  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_VALUE] =
    g_param_spec_string ("value", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PREVIEW] =
    g_param_spec_string ("preview", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_option_init (ClarifyOption *self)
{
}

ClarifyOption *
clarify_option_new (const char *label,
                    const char *value,
                    const char *description)
{
  return g_object_new (CLARIFY_TYPE_OPTION,
                       "label", label,
                       "value", value,
                       "description", description,
                       NULL);
}

const char *
clarify_option_get_label (ClarifyOption *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION (self), NULL);

  return self->label;
}

const char *
clarify_option_get_value (ClarifyOption *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION (self), NULL);

  return self->value;
}

const char *
clarify_option_get_description (ClarifyOption *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION (self), NULL);

  return self->description;
}

const char *
clarify_option_get_preview (ClarifyOption *self)
{
  g_return_val_if_fail (CLARIFY_IS_OPTION (self), NULL);

  return self->preview;
}

void
clarify_option_set_preview (ClarifyOption *self,
                            const char    *preview)
{
  g_return_if_fail (CLARIFY_IS_OPTION (self));

  /* As with descriptions, "" means no preview. */
  if (preview != NULL && preview[0] == '\0')
    preview = NULL;
  if (g_strcmp0 (self->preview, preview) == 0)
    return;

  g_free (self->preview);
  self->preview = g_strdup (preview);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PREVIEW]);
}
