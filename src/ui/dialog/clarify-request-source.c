/* clarify-request-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-backend-registry.h"
#include "clarify-request-source.h"

struct _ClarifyRequestSource
{
  AdwBin          parent_instance;

  ClarifyRequest *request;
  char           *name;
  AdwWindowTitle *title;
};

G_DEFINE_FINAL_TYPE (ClarifyRequestSource, clarify_request_source, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_REQUEST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
shorten_home (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize len = strlen (home);

  if (len > 1 && g_str_has_prefix (path, home) && (path[len] == '/' || path[len] == '\0'))
    return g_strconcat ("~", path + len, NULL);

  return g_strdup (path);
}

/* Session ids are long and only tell sessions apart: their start is enough. */
static char *
shorten_session (const char *session)
{
  g_autofree char *start = NULL;

  if (g_utf8_strlen (session, -1) <= 16)
    return g_strdup (session);

  start = g_utf8_substring (session, 0, 12);

  return g_strconcat (start, "…", NULL);
}

/* "D-Bus" and "dbus", "MCP" and "mcp": a connection named after its kind
 * needs no "(kind)" behind it. */
static gboolean
same_word (const char *a,
           const char *b)
{
  if (b == NULL)
    return FALSE;

  for (;; a++, b++)
    {
      while (*a != '\0' && !g_ascii_isalnum (*a))
        a++;
      while (*b != '\0' && !g_ascii_isalnum (*b))
        b++;
      if (g_ascii_tolower (*a) != g_ascii_tolower (*b))
        return FALSE;
      if (*a == '\0')
        return TRUE;
    }
}

static char *
format_name (ClarifyRequest *request)
{
  const char *name = clarify_request_get_connection_name (request);
  const char *kind_id = clarify_request_get_connection_kind (request);
  const char *kind = clarify_backend_registry_get_display_name (kind_id);

  if (name != NULL && name[0] != '\0' && kind != NULL && kind[0] != '\0' &&
      !same_word (name, kind_id))
    /* Translators: a connection's name and its kind, e.g. "work (OpenCode)" */
    return g_strdup_printf (_("%s (%s)"), name, kind);
  if (kind != NULL && kind[0] != '\0')
    return g_strdup (kind);
  if (name != NULL && name[0] != '\0')
    return g_strdup (name);

  return NULL;
}

static void
update (ClarifyRequestSource *self)
{
  const char *project = NULL;
  const char *session = NULL;
  g_autoptr(GString) where = g_string_new (NULL);
  g_autoptr(GString) tooltip = g_string_new (NULL);

  g_clear_pointer (&self->name, g_free);
  if (self->request != NULL)
    {
      self->name = format_name (self->request);
      project = clarify_request_get_project (self->request);
      session = clarify_request_get_session (self->request);
    }

  if (project != NULL && project[0] != '\0')
    {
      g_autofree char *shown = shorten_home (project);

      g_string_append (where, shown);
      g_string_append (tooltip, project);
    }
  if (session != NULL && session[0] != '\0')
    {
      g_autofree char *shown = shorten_session (session);

      if (where->len > 0)
        {
          g_string_append (where, " · ");
          g_string_append_c (tooltip, '\n');
        }
      g_string_append (where, shown);
      g_string_append (tooltip, session);
    }

  adw_window_title_set_title (self->title, self->name != NULL ? self->name : _("Question"));
  adw_window_title_set_subtitle (self->title, where->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title),
                               tooltip->len > 0 ? tooltip->str : NULL);
}

static void
clarify_request_source_dispose (GObject *object)
{
  ClarifyRequestSource *self = CLARIFY_REQUEST_SOURCE (object);

  g_clear_object (&self->request);
  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (clarify_request_source_parent_class)->dispose (object);
}

static void
clarify_request_source_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ClarifyRequestSource *self = CLARIFY_REQUEST_SOURCE (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_value_set_object (value, self->request);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_source_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ClarifyRequestSource *self = CLARIFY_REQUEST_SOURCE (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      clarify_request_source_set_request (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_request_source_class_init (ClarifyRequestSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_request_source_dispose;
  object_class->get_property = clarify_request_source_get_property;
  object_class->set_property = clarify_request_source_set_property;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         CLARIFY_TYPE_REQUEST,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A plain widget would be read out by its type name (GTK 4.8). */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_request_source_init (ClarifyRequestSource *self)
{
  /* A group around its labels, not an unnamed widget. */
  self->title = g_object_new (ADW_TYPE_WINDOW_TITLE,
                              "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                              NULL);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->title));
  update (self);
}

ClarifyRequest *
clarify_request_source_get_request (ClarifyRequestSource *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_SOURCE (self), NULL);

  return self->request;
}

void
clarify_request_source_set_request (ClarifyRequestSource *self,
                                    ClarifyRequest       *request)
{
  g_return_if_fail (CLARIFY_IS_REQUEST_SOURCE (self));
  g_return_if_fail (request == NULL || CLARIFY_IS_REQUEST (request));

  if (!g_set_object (&self->request, request))
    return;

  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST]);
}

const char *
clarify_request_source_get_name (ClarifyRequestSource *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_SOURCE (self), NULL);

  return self->name;
}
