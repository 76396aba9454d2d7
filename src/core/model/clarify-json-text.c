/* clarify-json-text.c
 *
 * JSON text from agents is parsed only after a scan that json-glib cannot
 * be trusted with: nesting depth (it recurses per level) and NUL escapes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "clarify-error.h"
#include "clarify-json-text.h"

/* Whether the JSON text @data escapes a NUL at @i ("\\u0000"). */
static gboolean
is_nul_escape (const char *data,
               gsize       length,
               gsize       i)
{
  return i + 5 < length && data[i + 1] == 'u' && strncmp (data + i + 2, "0000", 4) == 0;
}

/* The value of the four hex digits after data[i] ("\\u" at i - 1), or -1. */
static int
hex4 (const char *data,
      gsize       length,
      gsize       i)
{
  int value = 0;

  if (i + 4 >= length)
    return -1;
  for (gsize k = i + 1; k <= i + 4; k++)
    {
      int digit = g_ascii_xdigit_value (data[k]);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* Whether the escape at data[i] ('\\') is one JSON knows, leaving @i on its
 * last character. json-glib turns an unknown escape or a lone UTF-16
 * surrogate into bytes that are no UTF-8, which no JSON text (the outbox's
 * copy, the reply to the agent) can hold again. */
static gboolean
escape_valid (const char *data,
              gsize       length,
              gsize      *i)
{
  int unit;

  if (*i + 1 >= length)
    return FALSE;
  if (strchr ("\"\\/bfnrt", data[*i + 1]) != NULL && data[*i + 1] != '\0')
    {
      *i += 1;
      return TRUE;
    }
  if (data[*i + 1] != 'u' || (unit = hex4 (data, length, *i + 1)) < 0)
    return FALSE;
  *i += 5;
  if (unit >= 0xdc00 && unit <= 0xdfff)
    return FALSE;
  if (unit >= 0xd800 && unit <= 0xdbff)
    {
      int low;

      if (*i + 2 >= length || data[*i + 1] != '\\' || data[*i + 2] != 'u' ||
          (low = hex4 (data, length, *i + 2)) < 0xdc00 || low > 0xdfff)
        return FALSE;
      *i += 6;
    }
  return TRUE;
}

typedef enum
{
  SCAN_OK,
  SCAN_TOO_DEEP,
  SCAN_NUL,
  SCAN_BAD_ESCAPE,
} Scan;

/* Nesting of @data outside strings, stopping once it passes @limit; a NUL
 * (raw or escaped) stops it too: C strings would cut the text there, and an
 * option's value would go back to the agent cut. So does an escape that
 * would not decode to UTF-8 (escape_valid()). */
static Scan
scan (const char *data,
      gsize       length,
      guint       limit)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  if (memchr (data, '\0', length) != NULL)
    return SCAN_NUL;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\' && is_nul_escape (data, length, i))
            return SCAN_NUL;
          if (c == '\\' && !escape_valid (data, length, &i))
            return SCAN_BAD_ESCAPE;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > limit)
            return SCAN_TOO_DEEP;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  return SCAN_OK;
}

JsonNode *
clarify_json_parse (const char  *data,
                    gssize       length,
                    GError     **error)
{
  /* Mutable: the D-Bus and CLI fronts put their own id into what they parse. */
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  if (length < 0)
    length = strlen (data);

  switch (scan (data, length, CLARIFY_JSON_MAX_DEPTH))
    {
    case SCAN_NUL:
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "not accepted: a text holds a NUL character (\\u0000), "
                           "which cannot be shown or sent back whole");
      return NULL;
    case SCAN_TOO_DEEP:
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "not valid JSON: nested deeper than %u levels", CLARIFY_JSON_MAX_DEPTH);
      return NULL;
    case SCAN_BAD_ESCAPE:
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "not valid JSON: a string holds an unknown escape or a lone UTF-16 surrogate");
      return NULL;
    case SCAN_OK:
    default:
      break;
    }

  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   "not valid JSON: %s", local_error->message);
      return NULL;
    }

  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error_literal (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                           "not valid JSON: the document is empty");
      return NULL;
    }

  return json_parser_steal_root (parser);
}

const char *
clarify_json_get_string_member (JsonObject *object,
                                const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

JsonObject *
clarify_json_get_object_member (JsonObject *object,
                                const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

JsonArray *
clarify_json_get_array_member (JsonObject *object,
                               const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

char *
clarify_json_to_string (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  g_return_val_if_fail (node != NULL, NULL);

  json_generator_set_pretty (generator, FALSE);
  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}

char *
clarify_json_builder_to_string (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (JSON_IS_BUILDER (builder), NULL);

  root = json_builder_get_root (builder);
  g_return_val_if_fail (root != NULL, NULL);

  return clarify_json_to_string (root);
}

static double
printable_double (double value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  /* json-glib 1.6 prints "%.17g" and appends ".0" when it finds no dot, so
   * 1e-300 would go out as "1e-300.0", which is not JSON. The neighbouring
   * double prints all its digits, with a dot. */
  for (guint i = 0; i < 4; i++)
    {
      g_ascii_formatd (text, sizeof text, "%.17g", value);
      if (strchr (text, 'e') == NULL || strchr (text, '.') != NULL)
        break;
      value = nextafter (value, 0.0);
    }

  return value;
}

JsonNode *
clarify_json_node_new_double (double value)
{
  g_return_val_if_fail (isfinite (value), NULL);

  return json_node_init_double (json_node_alloc (), printable_double (value));
}

static gboolean
holds_double (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE;
}

/* FALSE when @node is a number that cannot be printed at all. */
static gboolean
make_printable (JsonNode *node)
{
  if (holds_double (node))
    {
      if (!isfinite (json_node_get_double (node)))
        return FALSE;
      json_node_set_double (node, printable_double (json_node_get_double (node)));
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (GList *l = members; l != NULL; l = l->next)
        if (!make_printable (json_object_get_member (object, l->data)))
          json_object_remove_member (object, l->data);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = json_array_get_length (array); i > 0; i--)
        if (!make_printable (json_array_get_element (array, i - 1)))
          json_array_remove_element (array, i - 1);
    }

  return TRUE;
}

void
clarify_json_make_printable (JsonNode *node)
{
  g_return_if_fail (node != NULL);

  /* A lone infinite number has nothing to go with. */
  if (!make_printable (node))
    json_node_init_null (node);
}
