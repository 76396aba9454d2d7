/* clarify-request-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-backend-registry.h"
#include "clarify-dbus-backend.h"
#include "clarify-mcp-server.h"
#include "clarify-request-source.h"
#include "clarify-tooltip.h"

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

/* Local sources serve whoever calls: the caller is the agent. */
static gboolean
is_local_kind (const char *kind)
{
  return g_strcmp0 (kind, "mcp") == 0 || g_strcmp0 (kind, "dbus") == 0;
}

/* MCP clients name themselves by an id; the names their users know. */
static const char *
caller_display_name (const char *caller)
{
  static const struct { const char *id; const char *name; } known[] = {
    { "claude-code", "Claude Code" },
    { "opencode", "OpenCode" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_ascii_strcasecmp (caller, known[i].id) == 0)
      return known[i].name;

  return caller;
}

/* The agent as its own UI names it; NULL when not known. Clarify's own
 * protocol is spoken by any agent, so that connection's name names it. */
static char *
format_name (ClarifyRequest *request)
{
  const char *name = clarify_request_get_connection_name (request);
  const char *kind = clarify_request_get_connection_kind (request);
  const char *caller = clarify_request_get_caller (request);

  if (caller != NULL && caller[0] != '\0')
    return g_strdup (caller_display_name (caller));
  if (is_local_kind (kind))
    return NULL;
  if ((kind == NULL || g_strcmp0 (kind, "clarify") == 0) && name != NULL && name[0] != '\0')
    return g_strdup (name);
  if (kind != NULL && kind[0] != '\0')
    return g_strdup (clarify_backend_registry_get_display_name (kind));

  return NULL;
}

/* A project folder's name; the whole path is in the tooltip. */
static char *
format_project (const char *project)
{
  if (!g_path_is_absolute (project))
    return g_strdup (project);
  if (g_strcmp0 (project, g_get_home_dir ()) == 0)
    return g_strdup ("~");

  return g_path_get_basename (project);
}

static void
add_line (GString    *text,
          const char *line)
{
  if (text->len > 0)
    g_string_append_c (text, '\n');
  g_string_append (text, line);
}

/* The details behind the title: the connection, its kind, the whole path
 * and the ids, for whoever needs to tell two sessions apart. */
static char *
format_details (ClarifyRequest *request)
{
  const char *name = clarify_request_get_connection_name (request);
  const char *kind = clarify_request_get_connection_kind (request);
  const char *caller = clarify_request_get_caller (request);
  const char *project = clarify_request_get_project (request);
  const char *session = clarify_request_get_session (request);
  g_autoptr(GString) details = g_string_new (NULL);

  if (kind != NULL && kind[0] != '\0')
    {
      g_autofree char *line = NULL;

      if (name != NULL && name[0] != '\0')
        /* Translators: 1: a connection's name, 2: its kind, e.g. "work (OpenCode)" */
        line = g_strdup_printf (_("Connection: %s (%s)"), name,
                                clarify_backend_registry_get_display_name (kind));
      else
        line = g_strdup_printf (_("Connection: %s"), clarify_backend_registry_get_display_name (kind));
      add_line (details, line);
    }
  if (caller != NULL && caller[0] != '\0')
    {
      /* Translators: %s is how the calling program names itself */
      g_autofree char *line = g_strdup_printf (_("Program: %s"), caller);

      add_line (details, line);
    }
  if (project != NULL && project[0] != '\0')
    add_line (details, project);
  if (session != NULL && session[0] != '\0')
    {
      /* Translators: %s is the agent's id of a session */
      g_autofree char *line = g_strdup_printf (_("Session: %s"), session);

      add_line (details, line);
    }

  return details->len > 0 ? g_strdup (details->str) : NULL;
}

static void
update (ClarifyRequestSource *self)
{
  const char *project = NULL;
  g_autofree char *where = NULL;
  g_autofree char *details = NULL;
  const char *title;

  g_clear_pointer (&self->name, g_free);
  if (self->request != NULL)
    {
      self->name = format_name (self->request);
      project = clarify_request_get_project (self->request);
      details = format_details (self->request);
    }
  /* The session as the agent's own UI names it, else the project's folder
   * (the whole path stays in the tooltip). */
  if (self->request != NULL && clarify_request_get_session_title (self->request) != NULL &&
      clarify_request_get_session_title (self->request)[0] != '\0')
    where = g_strdup (clarify_request_get_session_title (self->request));
  else if (project != NULL && project[0] != '\0')
    where = format_project (project);

  if (self->name != NULL)
    title = self->name;
  else if (self->request != NULL && is_local_kind (clarify_request_get_connection_kind (self->request)))
    title = _("A program on this computer");
  else
    title = _("Question");

  adw_window_title_set_title (self->title, title);
  adw_window_title_set_subtitle (self->title, where != NULL ? where : "");
  clarify_tooltip_set_text (GTK_WIDGET (self->title), details);
}

static void
clarify_request_source_dispose (GObject *object)
{
  ClarifyRequestSource *self = CLARIFY_REQUEST_SOURCE (object);

  if (self->request != NULL)
    g_signal_handlers_disconnect_by_func (self->request, update, self);
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

  if (self->request == request)
    return;

  if (self->request != NULL)
    g_signal_handlers_disconnect_by_func (self->request, update, self);
  g_set_object (&self->request, request);
  /* A backend may learn the session's title after the request came. */
  if (request != NULL)
    g_signal_connect_object (request, "notify::session-title", G_CALLBACK (update), self, G_CONNECT_SWAPPED);

  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST]);
}

const char *
clarify_request_source_get_name (ClarifyRequestSource *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_SOURCE (self), NULL);

  return self->name;
}

const char *
clarify_request_source_get_agent_name (ClarifyRequest *request)
{
  const char *caller;
  const char *connection;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  caller = clarify_request_get_caller (request);
  if (caller != NULL && caller[0] != '\0')
    return caller_display_name (caller);

  /* "D-Bus" and "MCP" are Clarify's doors, not who knocked. */
  if (is_local_kind (clarify_request_get_connection_kind (request)))
    return NULL;

  connection = clarify_request_get_connection_name (request);
  return connection != NULL && connection[0] != '\0' ? connection : NULL;
}

const char *
clarify_request_source_get_asker (ClarifyRequest *request)
{
  const char *name;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  /* As the dialog's header names an unnamed local caller. */
  name = clarify_request_source_get_agent_name (request);
  if (name == NULL && is_local_kind (clarify_request_get_connection_kind (request)))
    return _("A program on this computer");

  return name != NULL ? name : "";
}

const char *
clarify_request_source_name_caller (const char *caller)
{
  g_return_val_if_fail (caller != NULL, NULL);

  return caller_display_name (caller);
}

const char *
clarify_request_source_name_connection (const char *connection)
{
  g_return_val_if_fail (connection != NULL, NULL);

  /* Clarify's own doors: no user connection may take their names. */
  if (g_str_equal (connection, CLARIFY_DBUS_BACKEND_NAME) || g_str_equal (connection, CLARIFY_MCP_CONNECTION_NAME))
    return _("A program on this computer");

  return connection;
}
