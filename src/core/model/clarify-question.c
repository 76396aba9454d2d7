/* clarify-question.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-question.h"

struct _ClarifyQuestion
{
  GObject              parent_instance;

  char                *id;
  ClarifyQuestionKind  kind;
  char                *text;
  char                *header;
  char                *placeholder;
  char                *subject;
  GListStore          *options;
  ClarifyValidation    validation;
  char               **default_values;
  guint                allow_other : 1;
  guint                skippable : 1;
  /* Options past the cap that validation dropped, for the dialog to say. */
  guint                n_options_left_out;
  guint                multi_line : 1;
  guint                takes_note : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyQuestion, clarify_question, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_KIND,
  PROP_TEXT,
  PROP_HEADER,
  PROP_PLACEHOLDER,
  PROP_SUBJECT,
  PROP_ALLOW_OTHER,
  PROP_SKIPPABLE,
  PROP_MULTI_LINE,
  PROP_TAKES_NOTE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char * const kind_names[] = {
  [CLARIFY_QUESTION_KIND_TEXT] = "text",
  [CLARIFY_QUESTION_KIND_SINGLE] = "single",
  [CLARIFY_QUESTION_KIND_MULTI] = "multi",
  [CLARIFY_QUESTION_KIND_CONFIRM] = "confirm",
  [CLARIFY_QUESTION_KIND_NUMBER] = "number",
  [CLARIFY_QUESTION_KIND_DATE] = "date",
  [CLARIFY_QUESTION_KIND_DATE_RANGE] = "date_range",
  [CLARIFY_QUESTION_KIND_PERMISSION] = "permission",
  [CLARIFY_QUESTION_KIND_LINK] = "link",
};

const char *
clarify_question_kind_to_string (ClarifyQuestionKind kind)
{
  if ((guint) kind < G_N_ELEMENTS (kind_names))
    return kind_names[kind];

  g_return_val_if_reached ("text");
}

void
clarify_validation_init (ClarifyValidation *validation)
{
  g_return_if_fail (validation != NULL);

  memset (validation, 0, sizeof *validation);
  validation->min_length = -1;
  validation->max_length = -1;
}

void
clarify_validation_clear (ClarifyValidation *validation)
{
  g_return_if_fail (validation != NULL);

  g_clear_pointer (&validation->pattern, g_free);
  g_clear_pointer (&validation->message, g_free);
  clarify_validation_init (validation);
}

void
clarify_validation_copy (const ClarifyValidation *src,
                         ClarifyValidation       *dest)
{
  g_return_if_fail (src != NULL);
  g_return_if_fail (dest != NULL);

  if (src == dest)
    return;

  *dest = *src;
  dest->pattern = g_strdup (src->pattern);
  dest->message = g_strdup (src->message);
}

static void
clarify_question_finalize (GObject *object)
{
  ClarifyQuestion *self = CLARIFY_QUESTION (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->header, g_free);
  g_clear_pointer (&self->placeholder, g_free);
  g_clear_pointer (&self->subject, g_free);
  g_clear_pointer (&self->default_values, g_strfreev);
  g_clear_object (&self->options);
  clarify_validation_clear (&self->validation);

  G_OBJECT_CLASS (clarify_question_parent_class)->finalize (object);
}

static void
clarify_question_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  ClarifyQuestion *self = CLARIFY_QUESTION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;

    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;

    case PROP_HEADER:
      g_value_set_string (value, self->header);
      break;

    case PROP_PLACEHOLDER:
      g_value_set_string (value, self->placeholder);
      break;

    case PROP_SUBJECT:
      g_value_set_string (value, self->subject);
      break;

    case PROP_ALLOW_OTHER:
      g_value_set_boolean (value, self->allow_other);
      break;

    case PROP_SKIPPABLE:
      g_value_set_boolean (value, self->skippable);
      break;

    case PROP_MULTI_LINE:
      g_value_set_boolean (value, self->multi_line);
      break;

    case PROP_TAKES_NOTE:
      g_value_set_boolean (value, self->takes_note);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_question_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  ClarifyQuestion *self = CLARIFY_QUESTION (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      break;

    case PROP_KIND:
      clarify_question_set_kind (self, g_value_get_enum (value));
      break;

    case PROP_TEXT:
      clarify_question_set_text (self, g_value_get_string (value));
      break;

    case PROP_HEADER:
      clarify_question_set_header (self, g_value_get_string (value));
      break;

    case PROP_PLACEHOLDER:
      clarify_question_set_placeholder (self, g_value_get_string (value));
      break;

    case PROP_SUBJECT:
      clarify_question_set_subject (self, g_value_get_string (value));
      break;

    case PROP_ALLOW_OTHER:
      clarify_question_set_allow_other (self, g_value_get_boolean (value));
      break;

    case PROP_SKIPPABLE:
      clarify_question_set_skippable (self, g_value_get_boolean (value));
      break;

    case PROP_MULTI_LINE:
      clarify_question_set_multi_line (self, g_value_get_boolean (value));
      break;

    case PROP_TAKES_NOTE:
      clarify_question_set_takes_note (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_question_class_init (ClarifyQuestionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = clarify_question_finalize;
  object_class->get_property = clarify_question_get_property;
  object_class->set_property = clarify_question_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       CLARIFY_TYPE_QUESTION_KIND,
                       CLARIFY_QUESTION_KIND_TEXT,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_HEADER] =
    g_param_spec_string ("header", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PLACEHOLDER] =
    g_param_spec_string ("placeholder", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SUBJECT] =
    g_param_spec_string ("subject", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ALLOW_OTHER] =
    g_param_spec_boolean ("allow-other", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SKIPPABLE] =
    g_param_spec_boolean ("skippable", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_MULTI_LINE] =
    g_param_spec_boolean ("multi-line", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_TAKES_NOTE] =
    g_param_spec_boolean ("takes-note", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_question_init (ClarifyQuestion *self)
{
  self->text = g_strdup ("");
  self->options = g_list_store_new (CLARIFY_TYPE_OPTION);
  self->default_values = g_new0 (char *, 1);
  clarify_validation_init (&self->validation);
}

ClarifyQuestion *
clarify_question_new (const char          *id,
                      ClarifyQuestionKind  kind,
                      const char          *text)
{
  g_return_val_if_fail (id != NULL, NULL);

  return g_object_new (CLARIFY_TYPE_QUESTION,
                       "id", id,
                       "kind", kind,
                       "text", text,
                       NULL);
}

const char *
clarify_question_get_id (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return self->id;
}

ClarifyQuestionKind
clarify_question_get_kind (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), CLARIFY_QUESTION_KIND_TEXT);

  return self->kind;
}

void
clarify_question_set_kind (ClarifyQuestion     *self,
                           ClarifyQuestionKind  kind)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));
  g_return_if_fail ((guint) kind < G_N_ELEMENTS (kind_names));

  if (self->kind == kind)
    return;

  self->kind = kind;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

/* Replaces *@field and notifies @prop when the text changed. */
static void
set_string (ClarifyQuestion  *self,
            char            **field,
            const char       *value,
            guint             prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

const char *
clarify_question_get_text (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return self->text;
}

void
clarify_question_set_text (ClarifyQuestion *self,
                           const char      *text)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  /* The text is never NULL, so labels can bind to it without checks. */
  set_string (self, &self->text, text != NULL ? text : "", PROP_TEXT);
}

const char *
clarify_question_get_header (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return self->header;
}

void
clarify_question_set_header (ClarifyQuestion *self,
                             const char      *header)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  set_string (self, &self->header, header, PROP_HEADER);
}

const char *
clarify_question_get_placeholder (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return self->placeholder;
}

void
clarify_question_set_placeholder (ClarifyQuestion *self,
                                  const char      *placeholder)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  set_string (self, &self->placeholder, placeholder, PROP_PLACEHOLDER);
}

const char *
clarify_question_get_subject (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return self->subject;
}

void
clarify_question_set_subject (ClarifyQuestion *self,
                              const char      *subject)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  set_string (self, &self->subject, subject, PROP_SUBJECT);
}

gboolean
clarify_question_get_allow_other (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), FALSE);

  return self->allow_other;
}

void
clarify_question_set_allow_other (ClarifyQuestion *self,
                                  gboolean         allow_other)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  allow_other = !!allow_other;
  if (self->allow_other == allow_other)
    return;

  self->allow_other = allow_other;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOW_OTHER]);
}

gboolean
clarify_question_get_skippable (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), FALSE);

  return self->skippable;
}

void
clarify_question_set_skippable (ClarifyQuestion *self,
                                gboolean         skippable)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  skippable = !!skippable;
  if (self->skippable == skippable)
    return;

  self->skippable = skippable;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SKIPPABLE]);
}

guint
clarify_question_get_n_options_left_out (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), 0);

  return self->n_options_left_out;
}

void
clarify_question_set_n_options_left_out (ClarifyQuestion *self,
                                         guint            n_left_out)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  self->n_options_left_out = n_left_out;
}

gboolean
clarify_question_get_multi_line (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), FALSE);

  return self->multi_line;
}

void
clarify_question_set_multi_line (ClarifyQuestion *self,
                                 gboolean         multi_line)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  multi_line = !!multi_line;
  if (self->multi_line == multi_line)
    return;

  self->multi_line = multi_line;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MULTI_LINE]);
}

gboolean
clarify_question_get_takes_note (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), FALSE);

  return self->takes_note;
}

void
clarify_question_set_takes_note (ClarifyQuestion *self,
                                 gboolean         takes_note)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  takes_note = !!takes_note;
  if (self->takes_note == takes_note)
    return;

  self->takes_note = takes_note;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TAKES_NOTE]);
}

GListModel *
clarify_question_get_options (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return G_LIST_MODEL (self->options);
}

guint
clarify_question_get_n_options (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->options));
}

/* Transfer none, unlike g_list_model_get_item(): the store keeps it alive. */
ClarifyOption *
clarify_question_get_option (ClarifyQuestion *self,
                             guint            position)
{
  ClarifyOption *option;

  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  option = g_list_model_get_item (G_LIST_MODEL (self->options), position);
  if (option != NULL)
    g_object_unref (option);

  return option;
}

void
clarify_question_add_option (ClarifyQuestion *self,
                             ClarifyOption   *option)
{
  g_return_if_fail (CLARIFY_IS_QUESTION (self));
  g_return_if_fail (CLARIFY_IS_OPTION (option));

  g_list_store_append (self->options, option);
}

ClarifyOption *
clarify_question_find_option (ClarifyQuestion *self,
                              const char      *value_or_label)
{
  guint n;

  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  if (value_or_label == NULL)
    return NULL;

  n = clarify_question_get_n_options (self);

  /* Values first: a label that happens to equal another option's value must
   * not shadow that option. */
  for (guint i = 0; i < n; i++)
    {
      ClarifyOption *option = clarify_question_get_option (self, i);

      if (g_strcmp0 (clarify_option_get_value (option), value_or_label) == 0)
        return option;
    }

  for (guint i = 0; i < n; i++)
    {
      ClarifyOption *option = clarify_question_get_option (self, i);

      if (g_strcmp0 (clarify_option_get_label (option), value_or_label) == 0)
        return option;
    }

  return NULL;
}

const ClarifyValidation *
clarify_question_get_validation (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return &self->validation;
}

void
clarify_question_set_validation (ClarifyQuestion         *self,
                                 const ClarifyValidation *validation)
{
  ClarifyValidation copy;

  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  if (validation == &self->validation)
    return;

  /* Copy before clearing: @validation may share strings with ours. */
  if (validation != NULL)
    clarify_validation_copy (validation, &copy);
  else
    clarify_validation_init (&copy);

  clarify_validation_clear (&self->validation);
  self->validation = copy;
}

const char * const *
clarify_question_get_default_values (ClarifyQuestion *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (self), NULL);

  return (const char * const *) self->default_values;
}

void
clarify_question_set_default_values (ClarifyQuestion    *self,
                                     const char * const *values)
{
  char **copy;

  g_return_if_fail (CLARIFY_IS_QUESTION (self));

  copy = values != NULL ? g_strdupv ((char **) values) : g_new0 (char *, 1);
  g_strfreev (self->default_values);
  self->default_values = copy;
}
