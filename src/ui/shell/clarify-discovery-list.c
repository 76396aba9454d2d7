/* clarify-discovery-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-application.h"
#include "clarify-backend-registry.h"
#include "clarify-cli.h"
#include "clarify-discovery-list.h"
#include "clarify-row-text.h"
#include "clarify-window.h"

struct _ClarifyDiscoveryList
{
  AdwPreferencesGroup    parent_instance;

  GtkSpinner            *spinner;
  GtkButton             *look_button;
  GtkListBox            *list;
  GtkWidget             *placeholder;

  ClarifyApplication    *application;  /* weak */
  ClarifyAgentDiscovery *discovery;
  GListModel            *backends;
  GCancellable          *cancellable;  /* the set-ups under way */
};

G_DEFINE_FINAL_TYPE (ClarifyDiscoveryList, clarify_discovery_list, ADW_TYPE_PREFERENCES_GROUP)

static void rebuild (ClarifyDiscoveryList *self);

/* The clarify command the hooks run: beside this program in a build tree,
 * else the one on $PATH. */
static char *
clarify_program (void)
{
  char *beside = clarify_cli_find_beside ("clarify");

  return beside != NULL ? beside : g_find_program_in_path ("clarify");
}

/* ~/… for a file in the home folder. */
static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize n = strlen (home);

  if (g_str_has_prefix (path, home) && path[n] == '/')
    return g_strconcat ("~", path + n, NULL);

  return g_strdup (path);
}

static gboolean
is_connected (ClarifyDiscoveryList *self,
              const char           *url)
{
  guint n = self->backends != NULL ? g_list_model_get_n_items (self->backends) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (self->backends, i);
      const char *theirs = clarify_connection_get_url (clarify_backend_get_connection (backend));
      gsize length = strlen (url);

      if (theirs != NULL && g_str_has_prefix (theirs, url) &&
          (theirs[length] == '\0' || g_str_equal (theirs + length, "/")))
        return TRUE;
    }

  return FALSE;
}

/* The kind's name, or "NAME-2" … when a connection has it already. */
static char *
free_name (ClarifyDiscoveryList *self,
           const char           *kind)
{
  char *name = g_strdup (kind);

  for (guint i = 2; clarify_application_lookup_backend (self->application, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s-%u", kind, i);
    }

  return name;
}

static void
tell (ClarifyDiscoveryList *self,
      const char           *text)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (CLARIFY_IS_WINDOW (root))
    clarify_window_show_toast (CLARIFY_WINDOW (root), text);
  else
    g_warning ("%s", text);
}

static void
set_up_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ClarifyFoundAgent *agent = CLARIFY_FOUND_AGENT (object);
  g_autoptr(GError) error = NULL;
  gboolean ok = clarify_found_agent_set_up_finish (agent, result, &error);
  ClarifyDiscoveryList *self;

  /* The list is gone (its dispose cancels): nobody to tell. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;

  if (!ok)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("Cannot change the settings: %s"), error->message);
      tell (self, text);
      /* Its button, usable again. */
      rebuild (self);
      return;
    }

  if (clarify_found_agent_get_action (agent) == CLARIFY_FOUND_ANSWER_HERE)
    tell (self, _("Claude Code sessions started from now on ask here."));
  else
    tell (self, _("Clarify was added. The agent sees it from its next start."));
}

static void
action_clicked_cb (GtkButton            *button,
                   ClarifyDiscoveryList *self)
{
  ClarifyFoundAgent *agent = g_object_get_data (G_OBJECT (button), "agent");
  const char *kind = clarify_found_agent_get_kind (agent);
  g_autofree char *program = NULL;
  g_autoptr(GError) error = NULL;

  if (self->application == NULL)
    return;

  if (clarify_found_agent_get_action (agent) == CLARIFY_FOUND_CONNECT)
    {
      g_autofree char *name = free_name (self, kind);
      g_autoptr(ClarifyConnection) connection = clarify_connection_new (name, kind, clarify_found_agent_get_location (agent));

      if (!clarify_application_add_connection (self->application, connection, &error))
        {
          g_autofree char *text = g_strdup_printf (_("Cannot connect: %s"), error->message);

          tell (self, text);
        }
      return;
    }

  /* Once: the keyring may take a while to give the token. */
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  program = clarify_program ();
  clarify_found_agent_set_up_async (agent, program, self->cancellable, set_up_cb, self);
}

static const char *
button_label (ClarifyFoundAction action)
{
  switch (action)
    {
    case CLARIFY_FOUND_ANSWER_HERE:
      return _("_Answer Its Questions Here");
    case CLARIFY_FOUND_ADD_CLARIFY:
      return _("_Add Clarify");
    case CLARIFY_FOUND_CONNECT:
    default:
      return _("_Connect");
    }
}

/* For a server: one of the connections, whatever its state (its row says). */
static const char *
done_label (ClarifyFoundAction action)
{
  switch (action)
    {
    case CLARIFY_FOUND_ANSWER_HERE:
      return _("Asks here");
    case CLARIFY_FOUND_ADD_CLARIFY:
      return _("Clarify added");
    case CLARIFY_FOUND_CONNECT:
    default:
      return _("In connections");
    }
}

static GtkWidget *
create_row (ClarifyDiscoveryList *self,
            ClarifyFoundAgent    *agent)
{
  ClarifyFoundAction action = clarify_found_agent_get_action (agent);
  const char *location = clarify_found_agent_get_location (agent);
  const char *name = clarify_backend_registry_get_display_name (clarify_found_agent_get_kind (agent));
  g_autofree char *path = display_path (location);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  GtkWidget *row = adw_action_row_new ();
  gboolean done;

  switch (action)
    {
    case CLARIFY_FOUND_ANSWER_HERE:
      title = g_strdup (name);
      /* Translators: %s is a file, e.g. ~/.claude/settings.json */
      subtitle = g_strdup_printf (_("Questions and permission prompts, through hooks in %s"), path);
      done = clarify_found_agent_get_done (agent);
      break;
    case CLARIFY_FOUND_ADD_CLARIFY:
      if (clarify_found_agent_get_project (agent) != NULL)
        {
          g_autofree char *project = display_path (clarify_found_agent_get_project (agent));

          /* Translators: the first %s is an agent, e.g. "Claude Code"; the second a folder, e.g. ~/src/app */
          title = g_strdup_printf (C_("discovered project", "%s in %s"), name, project);
        }
      else
        /* Translators: %s is an agent, e.g. "OpenCode" */
        title = g_strdup_printf (_("%s’s MCP servers"), name);
      /* Translators: %s is a file, e.g. ~/.claude.json */
      subtitle = g_strdup_printf (_("Clarify’s ask_user tool, in %s"), path);
      done = clarify_found_agent_get_done (agent);
      break;
    case CLARIFY_FOUND_CONNECT:
    default:
      title = g_strdup (name);
      subtitle = g_strdup (location);
      done = is_connected (self, location);
      break;
    }

  /* Paths and URLs are not markup. */
  clarify_row_set_texts (ADW_ACTION_ROW (row), title, subtitle);

  if (done)
    {
      /* A project's entry is the user's or the team's, not Clarify's doing. */
      GtkWidget *label = gtk_label_new (clarify_found_agent_get_project (agent) != NULL
                                        ? _("Already set up") : done_label (action));

      gtk_widget_add_css_class (label, "dim-label");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
    }
  else
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (button_label (action));

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      g_object_set_data_full (G_OBJECT (button), "agent", g_object_ref (agent), g_object_unref);
      g_signal_connect (button, "clicked", G_CALLBACK (action_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
    }

  return row;
}

static void
rebuild (ClarifyDiscoveryList *self)
{
  GListModel *found;
  GtkListBoxRow *row;
  guint n;

  while ((row = gtk_list_box_get_row_at_index (self->list, 0)) != NULL)
    gtk_list_box_remove (self->list, GTK_WIDGET (row));

  if (self->discovery == NULL)
    return;

  found = clarify_agent_discovery_get_found (self->discovery);
  n = g_list_model_get_n_items (found);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyFoundAgent) agent = g_list_model_get_item (found, i);

      g_signal_handlers_disconnect_by_data (agent, self);
      g_signal_connect_object (agent, "notify::done", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
      gtk_list_box_append (self->list, create_row (self, agent));
    }
}

static void
looking_changed_cb (ClarifyDiscoveryList *self)
{
  gboolean looking = clarify_agent_discovery_get_looking (self->discovery);

  gtk_spinner_set_spinning (self->spinner, looking);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), looking);
  gtk_label_set_label (GTK_LABEL (self->placeholder),
                       looking ? _("Looking for agents…")
                               : clarify_agent_discovery_has_looked (self->discovery)
                                   ? _("No agents found on this computer")
                                   : _("Not looked yet"));
}

static void
clarify_discovery_list_map (GtkWidget *widget)
{
  ClarifyDiscoveryList *self = CLARIFY_DISCOVERY_LIST (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkApplication *application = GTK_IS_WINDOW (root) ? gtk_window_get_application (GTK_WINDOW (root)) : NULL;

  GTK_WIDGET_CLASS (clarify_discovery_list_parent_class)->map (widget);

  /* The application is the window's by now; bound once. */
  if (self->discovery != NULL || !CLARIFY_IS_APPLICATION (application))
    return;

  g_set_weak_pointer (&self->application, CLARIFY_APPLICATION (application));
  self->discovery = g_object_ref (clarify_application_get_discovery (self->application));
  self->backends = g_object_ref (clarify_application_get_backends (self->application));

  g_signal_connect_object (self->discovery, "notify::looking", G_CALLBACK (looking_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (clarify_agent_discovery_get_found (self->discovery), "items-changed",
                           G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->backends, "items-changed", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  looking_changed_cb (self);
  rebuild (self);
}

static void
clarify_discovery_list_dispose (GObject *object)
{
  ClarifyDiscoveryList *self = CLARIFY_DISCOVERY_LIST (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_weak_pointer (&self->application);
  g_clear_object (&self->discovery);
  g_clear_object (&self->backends);

  G_OBJECT_CLASS (clarify_discovery_list_parent_class)->dispose (object);
}

static void
clarify_discovery_list_class_init (ClarifyDiscoveryListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = clarify_discovery_list_dispose;
  widget_class->map = clarify_discovery_list_map;

  gtk_widget_class_set_template_from_resource (widget_class, APP_PATH "/clarify-discovery-list.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyDiscoveryList, spinner);
  gtk_widget_class_bind_template_child (widget_class, ClarifyDiscoveryList, look_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyDiscoveryList, list);
}

static void
clarify_discovery_list_init (ClarifyDiscoveryList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->placeholder = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->placeholder), TRUE);
  gtk_widget_set_margin_top (self->placeholder, 12);
  gtk_widget_set_margin_bottom (self->placeholder, 12);
  gtk_widget_set_margin_start (self->placeholder, 12);
  gtk_widget_set_margin_end (self->placeholder, 12);
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_list_box_set_placeholder (self->list, self->placeholder);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
}
