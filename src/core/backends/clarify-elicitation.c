/* clarify-elicitation.c
 *
 * Each property is rewritten into Clarify's own JSON form of a question
 * (README, clarify-normalize.h) and read by the one question reader, so
 * options, defaults, checks and skipping behave as for every agent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "clarify-elicitation.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-normalize.h"
#include "clarify-validate.h"

typedef enum
{
  VALUE_STRING,
  VALUE_NUMBER,
  VALUE_INTEGER,
  VALUE_BOOLEAN,
  VALUE_ARRAY,
} ValueType;

typedef struct
{
  char      *name;
  ValueType  type;
} Field;

struct _ClarifyElicitationForm
{
  GArray *fields;  /* Field, one per question */
};

/* Loose on purpose: the server checks its own data, the dialog only
 * catches typing mistakes. */
#define EMAIL_PATTERN     "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"
#define URI_PATTERN       "^[A-Za-z][A-Za-z0-9+.-]*:\\S+$"
/* RFC 3339, which JSON Schema's date-time is: the offset is required. */
#define DATE_TIME_PATTERN "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"
#define DATE_TIME_EXAMPLE "2026-11-25T14:30:00Z"

static void
field_clear (gpointer data)
{
  Field *field = data;

  g_free (field->name);
}

void
clarify_elicitation_form_free (ClarifyElicitationForm *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->fields);
  g_free (self);
}

/* {label, value} options from `enum` with the legacy `enumNames` as labels. */
static JsonArray *
options_from_enum (JsonArray *values,
                   JsonArray *names)
{
  JsonArray *options = json_array_new ();
  guint n = json_array_get_length (values);
  gboolean named = names != NULL && json_array_get_length (names) == n;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *value = json_array_get_element (values, i);
      JsonObject *option = json_object_new ();

      json_object_set_member (option, "value", json_node_copy (value));
      if (named)
        json_object_set_member (option, "label", json_node_copy (json_array_get_element (names, i)));
      json_array_add_object_element (options, option);
    }

  return options;
}

/* The choices of an enum-like schema: `enum` (+ `enumNames`), or the
 * titled `oneOf`/`anyOf` lists of {const, title}, which the question
 * reader takes as they are. NULL when @schema has none. */
static JsonArray *
choices_of (JsonObject *schema)
{
  JsonArray *values = clarify_json_get_array_member (schema, "enum");
  JsonArray *titled;

  if (values != NULL)
    return options_from_enum (values, clarify_json_get_array_member (schema, "enumNames"));

  titled = clarify_json_get_array_member (schema, "oneOf");
  if (titled == NULL)
    titled = clarify_json_get_array_member (schema, "anyOf");
  if (titled != NULL)
    return json_array_ref (titled);

  return NULL;
}

static void
copy_member (JsonObject *to,
             const char *to_name,
             JsonObject *from,
             const char *from_name)
{
  JsonNode *node = json_object_get_member (from, from_name);

  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    json_object_set_member (to, to_name, json_node_copy (node));
}

/* What the form says of a string: its shape (format, pattern) and length. */
static const char *
string_kind (JsonObject *property,
             JsonObject *question,
             JsonObject *validation)
{
  const char *format = clarify_json_get_string_member (property, "format");
  const char *pattern = clarify_json_get_string_member (property, "pattern");

  copy_member (validation, "min_length", property, "minLength");
  copy_member (validation, "max_length", property, "maxLength");

  if (g_strcmp0 (format, "date") == 0)
    return "date";

  if (g_strcmp0 (format, "email") == 0)
    {
      json_object_set_string_member (validation, "pattern", EMAIL_PATTERN);
      json_object_set_string_member (validation, "message", _("Please enter an email address."));
    }
  else if (g_strcmp0 (format, "uri") == 0)
    {
      json_object_set_string_member (validation, "pattern", URI_PATTERN);
      json_object_set_string_member (validation, "message", _("Please enter an address such as https://example.org/."));
    }
  else if (g_strcmp0 (format, "date-time") == 0)
    {
      json_object_set_string_member (validation, "pattern", DATE_TIME_PATTERN);
      /* Translators: %s is an example, 2026-11-25T14:30:00Z */
      g_autofree char *message = g_strdup_printf (_("Please enter a date and time such as %s."), DATE_TIME_EXAMPLE);

      json_object_set_string_member (validation, "message", message);
      if (!json_object_has_member (question, "placeholder"))
        json_object_set_string_member (question, "placeholder", DATE_TIME_EXAMPLE);
    }

  /* The schema's own pattern, when Clarify can run it safely, is the
   * stricter word; an unsafe one is left to the server to check. */
  if (pattern != NULL && clarify_validate_pattern (pattern, NULL))
    {
      json_object_set_string_member (validation, "pattern", pattern);
      json_object_remove_member (validation, "message");
    }

  return "text";
}

/* @property as a question in Clarify's JSON form, or NULL with an error. */
static JsonObject *
question_for (const char  *name,
              JsonObject  *property,
              gboolean     required,
              ValueType   *value_type,
              GError     **error)
{
  g_autoptr(JsonObject) question = json_object_new ();
  g_autoptr(JsonObject) validation = json_object_new ();
  g_autoptr(JsonArray) choices = choices_of (property);
  const char *type = clarify_json_get_string_member (property, "type");
  const char *title = clarify_json_get_string_member (property, "title");
  const char *description = clarify_json_get_string_member (property, "description");
  const char *kind;

  json_object_set_string_member (question, "id", name);
  /* The description is the sentence a person reads, the title its short
   * name: with both, the title becomes the question's tag. A placeholder
   * would vanish on typing, and choices show none. */
  if (title != NULL && description != NULL)
    {
      json_object_set_string_member (question, "header", title);
      json_object_set_string_member (question, "question", description);
    }
  else
    {
      json_object_set_string_member (question, "question",
                                     title != NULL ? title : description != NULL ? description : name);
    }
  json_object_set_boolean_member (question, "required", required);
  copy_member (question, "default", property, "default");

  if (g_strcmp0 (type, "array") == 0)
    {
      JsonObject *items = clarify_json_get_object_member (property, "items");

      g_clear_pointer (&choices, json_array_unref);
      if (items != NULL)
        choices = choices_of (items);
      if (choices == NULL)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "the list “%s” has no choices (items.enum or items.anyOf)", name);
          return NULL;
        }
      kind = "multi";
      *value_type = VALUE_ARRAY;
      /* For multi, min and max count the choices. */
      copy_member (validation, "min", property, "minItems");
      copy_member (validation, "max", property, "maxItems");
    }
  else if (choices != NULL)
    {
      kind = "select";
      *value_type = VALUE_STRING;
    }
  else if (g_strcmp0 (type, "string") == 0)
    {
      kind = string_kind (property, question, validation);
      *value_type = VALUE_STRING;
    }
  else if (g_strcmp0 (type, "number") == 0 || g_strcmp0 (type, "integer") == 0)
    {
      kind = "number";
      copy_member (validation, "min", property, "minimum");
      copy_member (validation, "max", property, "maximum");
      if (g_str_equal (type, "integer"))
        {
          json_object_set_int_member (validation, "step", 1);
          *value_type = VALUE_INTEGER;
        }
      else
        {
          *value_type = VALUE_NUMBER;
        }
    }
  else if (g_strcmp0 (type, "boolean") == 0)
    {
      kind = "confirm";
      *value_type = VALUE_BOOLEAN;
    }
  else
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "the field “%s” has the type “%s”, which a form cannot ask for",
                   name, type != NULL ? type : "(none)");
      return NULL;
    }

  json_object_set_string_member (question, "type", kind);
  if (choices != NULL)
    json_object_set_array_member (question, "options", g_steal_pointer (&choices));
  if (json_object_get_size (validation) > 0)
    json_object_set_object_member (question, "validation", g_steal_pointer (&validation));

  return g_steal_pointer (&question);
}

ClarifyElicitationForm *
clarify_elicitation_form_decode (JsonObject      *schema,
                                 ClarifyRequest  *request,
                                 GError         **error)
{
  g_autoptr(ClarifyElicitationForm) self = NULL;
  g_autoptr(GHashTable) required = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GList) names = NULL;
  JsonObject *properties = clarify_json_get_object_member (schema, "properties");
  JsonArray *required_names = clarify_json_get_array_member (schema, "required");
  guint index = 0;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  if (properties == NULL || json_object_get_size (properties) == 0)
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "the form has no fields (requested_schema.properties)");
      return NULL;
    }

  for (guint i = 0; required_names != NULL && i < json_array_get_length (required_names); i++)
    {
      JsonNode *node = json_array_get_element (required_names, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_hash_table_add (required, (gpointer) json_node_get_string (node));
    }

  self = g_new0 (ClarifyElicitationForm, 1);
  self->fields = g_array_new (FALSE, TRUE, sizeof (Field));
  g_array_set_clear_func (self->fields, field_clear);

  /* json-glib keeps the members in the order the server wrote them. */
  names = json_object_get_members (properties);
  for (GList *l = names; l != NULL; l = l->next, index++)
    {
      const char *name = l->data;
      JsonObject *property = clarify_json_get_object_member (properties, name);
      g_autoptr(JsonObject) object = NULL;
      g_autoptr(ClarifyQuestion) question = NULL;
      Field field = { NULL, VALUE_STRING };

      if (property == NULL)
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "the field “%s” is not described by an object", name);
          return NULL;
        }

      object = question_for (name, property, g_hash_table_contains (required, name), &field.type, error);
      if (object == NULL)
        return NULL;

      question = clarify_question_new_from_json_object (object, index, NULL, error);
      if (question == NULL)
        return NULL;

      field.name = g_strdup (name);
      g_array_append_val (self->fields, field);
      clarify_request_add_question (request, question);
    }

  return g_steal_pointer (&self);
}

static gboolean
add_number (JsonBuilder  *builder,
            const char   *text,
            ValueType     type,
            GError      **error)
{
  char *end = NULL;
  double value = text != NULL ? g_ascii_strtod (text, &end) : NAN;

  if (text == NULL || end == text || *end != '\0' || !isfinite (value))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "“%s” is not a number", text != NULL ? text : "");
      return FALSE;
    }

  /* 30, not 30.0: whole numbers read as integers on the other side too. */
  if (type == VALUE_INTEGER || (value == floor (value) && fabs (value) < 1e15))
    json_builder_add_int_value (builder, (gint64) llround (value));
  else
    json_builder_add_value (builder, clarify_json_node_new_double (value));

  return TRUE;
}

gboolean
clarify_elicitation_form_add_content (ClarifyElicitationForm  *self,
                                      ClarifyRequest          *request,
                                      ClarifyResponse         *response,
                                      JsonBuilder             *builder,
                                      GError                 **error)
{
  g_autoptr(JsonBuilder) content = json_builder_new ();

  if (self == NULL || self->fields->len != clarify_request_get_n_questions (request))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "request %s is not an elicitation form", clarify_request_get_id (request));
      return FALSE;
    }

  /* Built apart, so that a bad value adds nothing to @builder. */
  json_builder_begin_object (content);
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = &g_array_index (self->fields, Field, i);
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, field->name);
      const char *first;

      if (answer == NULL || answer->skipped)
        continue;

      first = answer->values != NULL && answer->values[0] != NULL ? answer->values[0] : NULL;
      json_builder_set_member_name (content, field->name);

      switch (field->type)
        {
        case VALUE_STRING:
          json_builder_add_string_value (content, first != NULL && *first != '\0' ? first
                                                  : answer->custom_text != NULL ? answer->custom_text : "");
          break;

        case VALUE_NUMBER:
        case VALUE_INTEGER:
          if (!add_number (content, first, field->type, error))
            return FALSE;
          break;

        case VALUE_BOOLEAN:
          json_builder_add_boolean_value (content, g_strcmp0 (first, "yes") == 0);
          break;

        case VALUE_ARRAY:
          json_builder_begin_array (content);
          for (guint j = 0; answer->values != NULL && answer->values[j] != NULL; j++)
            json_builder_add_string_value (content, answer->values[j]);
          json_builder_end_array (content);
          break;

        default:
          g_assert_not_reached ();
        }
    }
  json_builder_end_object (content);

  json_builder_set_member_name (builder, "content");
  json_builder_add_value (builder, json_builder_get_root (content));

  return TRUE;
}
