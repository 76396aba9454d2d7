/* clarify-normalize.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "clarify-error.h"
#include "clarify-normalize.h"

static const struct {
  const char          *name;
  ClarifyQuestionKind  kind;
} kind_aliases[] = {
  { "text", CLARIFY_QUESTION_KIND_TEXT },
  { "select", CLARIFY_QUESTION_KIND_SINGLE },
  { "single_select", CLARIFY_QUESTION_KIND_SINGLE },
  { "single-select", CLARIFY_QUESTION_KIND_SINGLE },
  { "single", CLARIFY_QUESTION_KIND_SINGLE },
  { "multiselect", CLARIFY_QUESTION_KIND_MULTI },
  { "multi_select", CLARIFY_QUESTION_KIND_MULTI },
  { "multi-select", CLARIFY_QUESTION_KIND_MULTI },
  { "multi", CLARIFY_QUESTION_KIND_MULTI },
  { "confirm", CLARIFY_QUESTION_KIND_CONFIRM },
  { "number", CLARIFY_QUESTION_KIND_NUMBER },
  { "date", CLARIFY_QUESTION_KIND_DATE },
  { "date_range", CLARIFY_QUESTION_KIND_DATE_RANGE },
  { "date-range", CLARIFY_QUESTION_KIND_DATE_RANGE },
  { "daterange", CLARIFY_QUESTION_KIND_DATE_RANGE },
  { "permission", CLARIFY_QUESTION_KIND_PERMISSION },
  { "link", CLARIFY_QUESTION_KIND_LINK },
};

gboolean
clarify_question_kind_from_string (const char          *str,
                                   ClarifyQuestionKind *kind)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (kind_aliases); i++)
    {
      if (g_ascii_strcasecmp (str, kind_aliases[i].name) == 0)
        {
          if (kind != NULL)
            *kind = kind_aliases[i].kind;
          return TRUE;
        }
    }

  return FALSE;
}

/* Agents are not always careful with encodings; GTK would warn on every draw. */
static char *
dup_valid_utf8 (const char *text)
{
  if (g_utf8_validate (text, -1, NULL))
    return g_strdup (text);

  return g_utf8_make_valid (text, -1);
}

/* "de_DE" matches "de-de" and "DE_de": agents write BCP 47 tags, GLib POSIX ones. */
static gboolean
language_tag_equal (const char *a,
                    const char *b)
{
  for (; *a != '\0' && *b != '\0'; a++, b++)
    {
      char ca = *a == '-' ? '_' : g_ascii_tolower (*a);
      char cb = *b == '-' ? '_' : g_ascii_tolower (*b);

      if (ca != cb)
        return FALSE;
    }

  return *a == '\0' && *b == '\0';
}

static const char *
lookup_language (JsonObject *object,
                 const char *language)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);

      if (language_tag_equal (l->data, language) &&
          JSON_NODE_HOLDS_VALUE (value) &&
          json_node_get_value_type (value) == G_TYPE_STRING)
        return json_node_get_string (value);
    }

  return NULL;
}

static const char *
pick_localized (JsonObject         *object,
                const char * const *languages)
{
  g_autoptr(GList) members = NULL;
  const char *text;

  if (languages == NULL)
    languages = g_get_language_names ();

  for (guint i = 0; languages[i] != NULL; i++)
    {
      g_auto(GStrv) variants = NULL;

      if (g_str_equal (languages[i], "C") || g_str_equal (languages[i], "POSIX"))
        continue;

      /* "de_DE.UTF-8@euro" also tries "de_DE" and "de", so callers may pass
       * raw locale names. */
      variants = g_get_locale_variants (languages[i]);
      for (guint j = 0; variants[j] != NULL; j++)
        {
          if ((text = lookup_language (object, variants[j])) != NULL)
            return text;
        }
    }

  if ((text = lookup_language (object, "en")) != NULL)
    return text;

  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);

      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
        return json_node_get_string (value);
    }

  return NULL;
}

char *
clarify_localized_text (JsonNode           *node,
                        const char * const *languages)
{
  const char *text = NULL;

  if (node == NULL)
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    text = json_node_get_string (node);
  else if (JSON_NODE_HOLDS_OBJECT (node))
    text = pick_localized (json_node_get_object (node), languages);

  return text != NULL ? dup_valid_utf8 (text) : NULL;
}

char *
clarify_localized_member (JsonObject         *object,
                          const char         *member,
                          const char * const *languages)
{
  if (object == NULL || member == NULL)
    return NULL;

  return clarify_localized_text (json_object_get_member (object, member), languages);
}

/* Numbers become C-locale text that reads like the agent wrote it:
 * 42 → "42", 2.5 → "2.5", 0.1 → "0.1" (not 0.10000000000000001). */
static char *
number_to_string (JsonNode *node)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double value;

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));

  value = json_node_get_double (node);
  g_ascii_formatd (buf, sizeof buf, "%.15g", value);
  if (g_ascii_strtod (buf, NULL) != value)
    g_ascii_formatd (buf, sizeof buf, "%.17g", value);

  return g_strdup (buf);
}

/* A scalar as text: strings as they are, numbers in C locale, booleans as
 * "true"/"false"; anything else as its JSON text. NULL for JSON null. */
static char *
scalar_to_string (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_STRING)
        return dup_valid_utf8 (json_node_get_string (node));
      if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
        return number_to_string (node);
      if (type == G_TYPE_BOOLEAN)
        return g_strdup (json_node_get_boolean (node) ? "true" : "false");
    }

  return json_to_string (node, FALSE);
}

ClarifyOption *
clarify_option_new_from_json (JsonNode           *node,
                              const char * const *languages,
                              GError            **error)
{
  g_autofree char *label = NULL;
  g_autofree char *value = NULL;
  g_autofree char *description = NULL;
  g_autofree char *preview = NULL;
  ClarifyOption *option;
  JsonObject *object;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node) || JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "an option must be a string or an object with a label");
      return NULL;
    }

  if (JSON_NODE_HOLDS_VALUE (node))
    {
      label = scalar_to_string (node);
      return clarify_option_new (label, label, NULL);
    }

  object = json_node_get_object (node);

  label = clarify_localized_member (object, "label", languages);
  /* MCP elicitation's titled enums say {const, title}. */
  if (label == NULL)
    label = clarify_localized_member (object, "title", languages);

  value = scalar_to_string (json_object_get_member (object, "value"));
  if (value == NULL)
    value = scalar_to_string (json_object_get_member (object, "const"));

  if (label == NULL)
    label = g_strdup (value);

  if (label == NULL || label[0] == '\0')
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "an option has no label");
      return NULL;
    }

  description = clarify_localized_member (object, "description", languages);
  option = clarify_option_new (label, value, description);
  preview = clarify_localized_member (object, "preview", languages);
  clarify_option_set_preview (option, preview);

  return option;
}

/* The first of @names that @object has, or NULL. */
static JsonNode *
get_any_member (JsonObject         *object,
                const char * const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (object, names[i]);

      if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
        return node;
    }

  return NULL;
}

/* TRUE/FALSE for a JSON boolean; @fallback for anything else, so that a
 * sloppy agent still gets its question shown. */
static gboolean
get_boolean (JsonNode *node,
             gboolean  fallback)
{
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (node);

  return fallback;
}

/* A number, also one sent as text ("5"): iHub coerces with Number(). */
static gboolean
get_number (JsonNode *node,
            double   *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
    case G_TYPE_DOUBLE:
      *out = json_node_get_double (node);
      return isfinite (*out);

    case G_TYPE_STRING:
      {
        const char *text = json_node_get_string (node);
        char *end = NULL;

        *out = g_ascii_strtod (text, &end);
        return end != text && *end == '\0' && isfinite (*out);
      }

    default:
      return FALSE;
    }
}

static int
get_length (JsonNode *node)
{
  double value;

  if (!get_number (node, &value) || value < 0)
    return -1;

  return value > G_MAXINT ? G_MAXINT : (int) value;
}

static void
parse_validation (JsonObject         *object,
                  ClarifyQuestionKind kind,
                  const char * const *languages,
                  ClarifyValidation  *validation)
{
  static const char * const min_length_names[] = { "min_length", "minLength", NULL };
  static const char * const max_length_names[] = { "max_length", "maxLength", NULL };
  JsonNode *pattern = json_object_get_member (object, "pattern");

  if (pattern != NULL && JSON_NODE_HOLDS_VALUE (pattern) &&
      json_node_get_value_type (pattern) == G_TYPE_STRING &&
      json_node_get_string (pattern)[0] != '\0')
    validation->pattern = dup_valid_utf8 (json_node_get_string (pattern));

  validation->message = clarify_localized_member (object, "message", languages);
  validation->has_min = get_number (json_object_get_member (object, "min"), &validation->min);
  validation->has_max = get_number (json_object_get_member (object, "max"), &validation->max);
  if (!get_number (json_object_get_member (object, "step"), &validation->step))
    validation->step = 0;
  validation->min_length = get_length (get_any_member (object, min_length_names));
  validation->max_length = get_length (get_any_member (object, max_length_names));

  /* iHub agents put text lengths in min/max ("Letters only, 2-80 characters");
   * for text nothing else could be meant. */
  if (kind == CLARIFY_QUESTION_KIND_TEXT)
    {
      if (validation->has_min && validation->min_length < 0 && validation->min >= 0)
        validation->min_length = (int) MIN (ceil (validation->min), G_MAXINT);
      if (validation->has_max && validation->max_length < 0 && validation->max >= 0)
        validation->max_length = (int) MIN (floor (validation->max), G_MAXINT);
      validation->has_min = FALSE;
      validation->has_max = FALSE;
    }
}

static char **
parse_default (JsonNode           *node,
               ClarifyQuestionKind kind,
               const char * const *languages)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          char *text = scalar_to_string (json_array_get_element (array, i));

          if (text != NULL)
            g_ptr_array_add (values, text);
        }
    }
  else if (JSON_NODE_HOLDS_OBJECT (node) && kind == CLARIFY_QUESTION_KIND_DATE_RANGE)
    {
      /* iHub's date_range value is {start, end}. */
      JsonObject *object = json_node_get_object (node);
      char *start = scalar_to_string (json_object_get_member (object, "start"));
      char *end = scalar_to_string (json_object_get_member (object, "end"));

      if (start != NULL && end != NULL)
        {
          g_ptr_array_add (values, start);
          g_ptr_array_add (values, end);
        }
      else
        {
          g_free (start);
          g_free (end);
        }
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      char *text = clarify_localized_text (node, languages);

      if (text != NULL)
        g_ptr_array_add (values, text);
    }
  else if (JSON_NODE_HOLDS_VALUE (node) &&
           json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
           kind == CLARIFY_QUESTION_KIND_CONFIRM)
    {
      g_ptr_array_add (values, g_strdup (json_node_get_boolean (node) ? "yes" : "no"));
    }
  else
    {
      char *text = scalar_to_string (node);

      if (text != NULL)
        g_ptr_array_add (values, text);
    }

  g_ptr_array_add (values, NULL);

  return (char **) g_ptr_array_free (g_steal_pointer (&values), FALSE);
}

ClarifyQuestion *
clarify_question_new_from_json_object (JsonObject         *object,
                                       guint               index,
                                       const char * const *languages,
                                       GError            **error)
{
  static const char * const id_names[] = { "id", "question_id", "questionId", NULL };
  static const char * const text_names[] = { "text", "question", "label", NULL };
  static const char * const kind_names[] = { "kind", "type", "input_type", "inputType", NULL };
  static const char * const other_names[] = { "allow_other", "allowOther", "custom", NULL };
  static const char * const skip_names[] = { "skippable", "allow_skip", "allowSkip", NULL };
  static const char * const multi_names[] = { "multiSelect", "multiple", NULL };
  static const char * const multi_line_names[] = { "multiline", "multi_line", "multiLine", NULL };
  g_autoptr(ClarifyQuestion) question = NULL;
  g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *id = NULL;
  g_autofree char *text = NULL;
  g_autofree char *header = NULL;
  g_autofree char *placeholder = NULL;
  g_autofree char *subject = NULL;
  ClarifyQuestionKind kind = CLARIFY_QUESTION_KIND_TEXT;
  gboolean has_kind = FALSE;
  gboolean allow_other;
  gboolean skippable;
  JsonNode *node;

  g_return_val_if_fail (object != NULL, NULL);

  node = get_any_member (object, id_names);
  id = scalar_to_string (node);
  if (id == NULL || id[0] == '\0')
    {
      g_free (id);
      id = g_strdup_printf ("q%u", index + 1);
    }

  for (guint i = 0; text_names[i] != NULL && text == NULL; i++)
    text = clarify_localized_member (object, text_names[i], languages);
  if (text == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "question %s has no text", id);
      return NULL;
    }

  node = json_object_get_member (object, "options");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                       "the options of question %s must be an array", id);
          return NULL;
        }

      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autoptr(GError) local_error = NULL;
          ClarifyOption *option;

          option = clarify_option_new_from_json (json_array_get_element (array, i), languages, &local_error);
          if (option == NULL)
            {
              g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "option %u of question %s: %s", i + 1, id, local_error->message);
              return NULL;
            }
          g_ptr_array_add (options, option);
        }
    }

  node = get_any_member (object, kind_names);
  if (node != NULL)
    {
      g_autofree char *kind_name = scalar_to_string (node);

      if (clarify_question_kind_from_string (kind_name, &kind))
        has_kind = TRUE;
      else
        g_warning ("Question %s has the unknown kind “%s”; showing it as text", id, kind_name);
    }

  /* OpenCode, Claude and Phoenix have no kind: options make a choice, and
   * multiSelect/multiple: true make it multi. */
  if (get_boolean (get_any_member (object, multi_names), FALSE) &&
      (!has_kind || kind == CLARIFY_QUESTION_KIND_SINGLE || kind == CLARIFY_QUESTION_KIND_MULTI))
    kind = CLARIFY_QUESTION_KIND_MULTI;
  else if (!has_kind && options->len > 0)
    kind = CLARIFY_QUESTION_KIND_SINGLE;

  allow_other = get_boolean (get_any_member (object, other_names), FALSE);

  /* A choice without options can only be answered in words. This is how an
   * iHub `confirm` arrives (single_select, no options, allowOther false), and
   * iHub's web client shows it as a text area; we ask for text too instead of
   * guessing Yes/No, because the agent reads the answer as free text. */
  if ((kind == CLARIFY_QUESTION_KIND_SINGLE || kind == CLARIFY_QUESTION_KIND_MULTI) &&
      options->len == 0 && !allow_other)
    kind = CLARIFY_QUESTION_KIND_TEXT;

  skippable = get_boolean (get_any_member (object, skip_names), FALSE);
  if (!get_boolean (json_object_get_member (object, "required"), TRUE))
    skippable = TRUE;

  question = clarify_question_new (id, kind, text);
  clarify_question_set_allow_other (question, allow_other);
  clarify_question_set_skippable (question, skippable);
  clarify_question_set_multi_line (question, get_boolean (get_any_member (object, multi_line_names), FALSE));
  clarify_question_set_takes_note (question, get_boolean (json_object_get_member (object, "notes"), FALSE));

  header = clarify_localized_member (object, "header", languages);
  clarify_question_set_header (question, header);
  placeholder = clarify_localized_member (object, "placeholder", languages);
  clarify_question_set_placeholder (question, placeholder);
  subject = clarify_localized_member (object, "subject", languages);
  clarify_question_set_subject (question, subject);

  for (guint i = 0; i < options->len; i++)
    clarify_question_add_option (question, g_ptr_array_index (options, i));

  node = json_object_get_member (object, "validation");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      ClarifyValidation validation;

      clarify_validation_init (&validation);
      parse_validation (json_node_get_object (node), kind, languages, &validation);
      clarify_question_set_validation (question, &validation);
      clarify_validation_clear (&validation);
    }

  node = json_object_get_member (object, "default");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      g_auto(GStrv) defaults = parse_default (node, kind, languages);

      clarify_question_set_default_values (question, (const char * const *) defaults);
    }

  return g_steal_pointer (&question);
}

static gboolean
is_invisible (gunichar c)
{
  return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
         (c >= 0x200B && c <= 0x200D) || c == 0x2060 || c == 0xFEFF;
}

char *
clarify_text_show_invisible (const char *text)
{
  GString *shown = NULL;
  const char *copied = text;

  if (text == NULL)
    return NULL;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!is_invisible (c))
        continue;
      if (shown == NULL)
        shown = g_string_new (NULL);
      g_string_append_len (shown, copied, p - copied);
      g_string_append_printf (shown, "⟨U+%04X⟩", c);
      copied = g_utf8_next_char (p);
    }

  if (shown == NULL)
    return NULL;
  g_string_append (shown, copied);

  return g_string_free (shown, FALSE);
}
