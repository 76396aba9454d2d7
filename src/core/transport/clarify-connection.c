/* clarify-connection.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "clarify-connection.h"
#include "clarify-error.h"

struct _ClarifyConnection
{
  GObject     parent_instance;

  char       *name;
  char       *kind;
  char       *url;
  GHashTable *options;
};

G_DEFINE_FINAL_TYPE (ClarifyConnection, clarify_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_KIND,
  PROP_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
clarify_connection_finalize (GObject *object)
{
  ClarifyConnection *self = CLARIFY_CONNECTION (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->kind, g_free);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->options, g_hash_table_unref);

  G_OBJECT_CLASS (clarify_connection_parent_class)->finalize (object);
}

static void
clarify_connection_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  ClarifyConnection *self = CLARIFY_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_KIND:
      g_value_set_string (value, self->kind);
      break;

    case PROP_URL:
      g_value_set_string (value, self->url);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_connection_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  ClarifyConnection *self = CLARIFY_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_NAME:
      self->name = g_value_dup_string (value);
      break;

    case PROP_KIND:
      self->kind = g_value_dup_string (value);
      break;

    case PROP_URL:
      self->url = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_connection_class_init (ClarifyConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = clarify_connection_finalize;
  object_class->get_property = clarify_connection_get_property;
  object_class->set_property = clarify_connection_set_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_connection_init (ClarifyConnection *self)
{
  self->options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

ClarifyConnection *
clarify_connection_new (const char *name,
                        const char *kind,
                        const char *url)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);

  return g_object_new (CLARIFY_TYPE_CONNECTION,
                       "name", name,
                       "kind", kind,
                       "url", url,
                       NULL);
}

/* Letters and digits (ASCII), and the characters in @also. */
static gboolean
is_made_of (const char *text,
            const char *also)
{
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr (also, *p) == NULL)
      return FALSE;

  return TRUE;
}

gboolean
clarify_connection_name_is_valid (const char *name)
{
  return name != NULL && name[0] != '\0' && is_made_of (name, "-_.");
}

/* Kinds are backend names such as "opencode" or "json-sse". */
static gboolean
is_valid_kind (const char *kind)
{
  return g_ascii_isalpha (kind[0]) && is_made_of (kind, "-_");
}

/* An international name is already in its xn-- form here. */
static gboolean
is_host_name (const char *host)
{
  return g_hostname_is_ip_address (host) || is_made_of (host, "-._");
}

/* An http(s) address libsoup can reach: the message says what is wrong
 * with it, in the words of someone who typed it. */
static gboolean
check_http_url (const char  *url,
                GError     **error)
{
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  for (const char *p = url; *p != '\0'; p++)
    if ((guchar) *p <= ' ')
      {
        g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                     _("“%s” has a space in it, which an address cannot have."), url);
        return FALSE;
      }

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, &parse_error);
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  host = uri != NULL ? g_uri_get_host (uri) : NULL;

  /* GLib's reason only where the address was meant as one (a port of 99999). */
  if (uri == NULL && (g_ascii_strncasecmp (url, "http://", 7) == 0 || g_ascii_strncasecmp (url, "https://", 8) == 0))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   /* Translators: the first %s is the address, the second why it is not one */
                   _("“%s” is not a valid address: %s"), url, parse_error->message);
      return FALSE;
    }

  if (uri == NULL || (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      host == NULL || host[0] == '\0')
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("“%s” is not an http:// or https:// address."), url);
      return FALSE;
    }

  if (!is_host_name (host))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("“%s” is not a valid host name."), host);
      return FALSE;
    }

  if (g_uri_get_port (uri) == 0)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("“%s” has port 0, which cannot be reached. A port is a number from 1 to 65535."), url);
      return FALSE;
    }

  return TRUE;
}

static gboolean
has_password (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_HAS_PASSWORD, NULL);

  return uri != NULL && g_uri_get_password (uri) != NULL;
}

/* A query parameter that reads like a credential ("?token=…"). */
static gboolean
has_secret_in_query (const char *url)
{
  static const char * const secret_words[] = { "token", "password", "passwd", "secret", "apikey", "api_key",
                                                "access_key", "credential", "authorization", "bearer", NULL };
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED_QUERY, NULL);
  g_autoptr(GHashTable) params = NULL;
  GHashTableIter iter;
  gpointer key;

  if (uri == NULL || g_uri_get_query (uri) == NULL)
    return FALSE;

  params = g_uri_parse_params (g_uri_get_query (uri), -1, "&;", G_URI_PARAMS_CASE_INSENSITIVE, NULL);
  if (params == NULL)
    return FALSE;

  g_hash_table_iter_init (&iter, params);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *name = g_ascii_strdown (key, -1);

      if (g_str_equal (name, "key") || g_str_equal (name, "auth") || g_str_equal (name, "sig"))
        return TRUE;
      for (guint i = 0; secret_words[i] != NULL; i++)
        if (strstr (name, secret_words[i]) != NULL)
          return TRUE;
    }

  return FALSE;
}

ClarifyConnection *
clarify_connection_new_from_spec (const char  *spec,
                                  GError     **error)
{
  g_autofree char *name = NULL;
  g_autofree char *kind = NULL;
  const char *equals;
  const char *rest;
  const char *colon;

  g_return_val_if_fail (spec != NULL, NULL);

  equals = strchr (spec, '=');
  if (equals == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   /* Translators: NAME=KIND:URL is literal syntax; keep it */
                   _("“%s” is not of the form NAME=KIND:URL."), spec);
      return NULL;
    }

  name = g_strndup (spec, equals - spec);
  if (name[0] == '\0')
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("The connection in “%s” has no name."), spec);
      return NULL;
    }

  if (!clarify_connection_name_is_valid (name))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("“%s” is not a valid connection name. Use letters, digits, “-”, “_” and “.”."), name);
      return NULL;
    }

  rest = equals + 1;
  colon = strchr (rest, ':');

  if (colon == NULL && is_valid_kind (rest))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("The connection “%s” has no address. Write it as NAME=KIND:URL."), name);
      return NULL;
    }

  kind = colon != NULL ? g_strndup (rest, colon - rest) : NULL;

  /* "work=http://…" forgot the kind: its first colon belongs to the URL. */
  if (kind == NULL || kind[0] == '\0' || !is_valid_kind (kind) ||
      (g_str_has_prefix (colon, "://") &&
       (g_ascii_strcasecmp (kind, "http") == 0 || g_ascii_strcasecmp (kind, "https") == 0)))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("The connection “%s” has no kind. Write it as NAME=KIND:URL."), name);
      return NULL;
    }

  if (!check_http_url (colon + 1, error))
    return NULL;

  /* The spec ends up in connections.ini and in logs: no secrets in it. */
  if (has_password (colon + 1) || has_secret_in_query (colon + 1))
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID,
                   _("Leave the password or token out of the address and store it with “clarify set-password %s”."),
                   name);
      return NULL;
    }

  return clarify_connection_new (name, kind, colon + 1);
}

const char *
clarify_connection_get_name (ClarifyConnection *self)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (self), NULL);

  return self->name;
}

const char *
clarify_connection_get_kind (ClarifyConnection *self)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (self), NULL);

  return self->kind;
}

const char *
clarify_connection_get_url (ClarifyConnection *self)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (self), NULL);

  return self->url;
}

const char *
clarify_connection_get_option (ClarifyConnection *self,
                               const char        *key)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->options, key);
}

/* NULL @value removes the option. */
void
clarify_connection_set_option (ClarifyConnection *self,
                               const char        *key,
                               const char        *value)
{
  g_return_if_fail (CLARIFY_IS_CONNECTION (self));
  g_return_if_fail (key != NULL && key[0] != '\0');
  /* They would collide with the store's own keys. */
  g_return_if_fail (!g_str_equal (key, "kind") && !g_str_equal (key, "url"));

  if (value == NULL)
    g_hash_table_remove (self->options, key);
  else
    g_hash_table_insert (self->options, g_strdup (key), g_strdup (value));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

char **
clarify_connection_list_options (ClarifyConnection *self)
{
  g_autofree const char **keys = NULL;
  char **copy;
  guint n;

  g_return_val_if_fail (CLARIFY_IS_CONNECTION (self), NULL);

  keys = (const char **) g_hash_table_get_keys_as_array (self->options, &n);
  copy = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    copy[i] = g_strdup (keys[i]);

  g_qsort_with_data (copy, n, sizeof (char *), compare_strings, NULL);

  return copy;
}

char *
clarify_connection_to_spec (ClarifyConnection *self)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION (self), NULL);

  return g_strdup_printf ("%s=%s:%s", self->name, self->kind, self->url);
}
