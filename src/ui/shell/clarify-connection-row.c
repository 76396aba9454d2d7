/* clarify-connection-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-backend-registry.h"
#include "clarify-backend-state.h"
#include "clarify-connection-row.h"
#include "clarify-row-text.h"
#include "clarify-conversation-window.h"
#include "clarify-ihub-backend.h"
#include "clarify-mcp-server.h"
#include "clarify-tooltip.h"
#include "clarify-wrap-bin.h"

struct _ClarifyConnectionRow
{
  AdwActionRow    parent_instance;

  ClarifyBackend *backend;
  GtkImage       *state_icon;
  GtkLabel       *state_label;
};

G_DEFINE_FINAL_TYPE (ClarifyConnectionRow, clarify_connection_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_BACKEND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char * const state_css_classes[] = { "success", "warning", "error", "dim-label" };

static void
describe_state (ClarifyConnectionState   state,
                const char             **icon_name,
                const char             **css_class,
                const char             **text)
{
  switch (state)
    {
    case CLARIFY_CONNECTION_STATE_CONNECTING:
      *icon_name = "content-loading-symbolic";
      *css_class = "dim-label";
      *text = _("Connecting…");
      break;

    case CLARIFY_CONNECTION_STATE_CONNECTED:
      *icon_name = "emblem-ok-symbolic";
      *css_class = "success";
      *text = _("Connected");
      break;

    case CLARIFY_CONNECTION_STATE_RECONNECTING:
      *icon_name = "content-loading-symbolic";
      *css_class = "warning";
      *text = _("Reconnecting…");
      break;

    case CLARIFY_CONNECTION_STATE_FAILED:
      *icon_name = "dialog-error-symbolic";
      *css_class = "error";
      *text = _("Failed");
      break;

    case CLARIFY_CONNECTION_STATE_IDLE:
    default:
      *icon_name = "network-offline-symbolic";
      *css_class = "dim-label";
      *text = _("Not connected");
      break;
    }
}

static void
update_state (ClarifyConnectionRow *self)
{
  const char *icon_name, *css_class, *text;
  g_autofree char *message = NULL;

  describe_state (clarify_backend_get_state (self->backend), &icon_name, &css_class, &text);

  /* The note says more ("Reconnecting in 4 s…"). */
  message = clarify_backend_state_describe (self->backend);
  if (message != NULL && *message != '\0')
    text = message;

  gtk_image_set_from_icon_name (self->state_icon, icon_name);
  for (guint i = 0; i < G_N_ELEMENTS (state_css_classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->state_icon), state_css_classes[i]);
  gtk_widget_add_css_class (GTK_WIDGET (self->state_icon), css_class);

  gtk_label_set_text (self->state_label, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->state_icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  -1);
}

static void
backend_state_changed_cb (ClarifyConnectionRow *self)
{
  update_state (self);
}

static void
chat_clicked_cb (ClarifyConnectionRow *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkApplication *application = GTK_IS_WINDOW (root) ? gtk_window_get_application (GTK_WINDOW (root)) : NULL;

  clarify_conversation_window_present (application, CLARIFY_IHUB_BACKEND (self->backend), NULL);
}

/* iHub has no stream to watch: the user starts its conversations here. */
static void
add_chat_button (ClarifyConnectionRow *self)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Chat"));

  gtk_widget_set_name (button, "chat_button");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  clarify_tooltip_set_text (button, _("Start a conversation with an app of this server"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (chat_clicked_cb), self, G_CONNECT_SWAPPED);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self), button);
}

/* Kind · URL, the URL as it is now (a port changed in Preferences shows
 * at once). */
static void
update_subtitle (ClarifyConnectionRow *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (self->backend);
  const char *kind = clarify_backend_registry_get_display_name (clarify_connection_get_kind (connection));
  g_autofree char *url = clarify_backend_state_dup_url (self->backend);
  g_autofree char *subtitle = NULL;

  if (url != NULL && *url != '\0')
    /* Translators: connection kind · URL, e.g. "OpenCode · http://127.0.0.1:4096" */
    subtitle = g_strdup_printf (_("%s · %s"), kind ? kind : "", url);
  else
    subtitle = g_strdup (kind);

  clarify_row_set_texts (ADW_ACTION_ROW (self), clarify_connection_get_name (connection), subtitle);
}

static void
setup_backend (ClarifyConnectionRow *self)
{
  update_subtitle (self);
  if (CLARIFY_IS_MCP_SERVER (self->backend))
    g_signal_connect_object (self->backend, "notify::port",
                             G_CALLBACK (update_subtitle), self,
                             G_CONNECT_SWAPPED);

  g_signal_connect_object (self->backend, "notify::state",
                           G_CALLBACK (backend_state_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->backend, "notify::note",
                           G_CALLBACK (backend_state_changed_cb), self,
                           G_CONNECT_SWAPPED);
  update_state (self);

  if (CLARIFY_IS_IHUB_BACKEND (self->backend))
    add_chat_button (self);
}

static void
clarify_connection_row_dispose (GObject *object)
{
  ClarifyConnectionRow *self = CLARIFY_CONNECTION_ROW (object);

  g_clear_object (&self->backend);

  G_OBJECT_CLASS (clarify_connection_row_parent_class)->dispose (object);
}

static void
clarify_connection_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ClarifyConnectionRow *self = CLARIFY_CONNECTION_ROW (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_value_set_object (value, self->backend);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_connection_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ClarifyConnectionRow *self = CLARIFY_CONNECTION_ROW (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      self->backend = g_value_dup_object (value);
      setup_backend (self);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_connection_row_class_init (ClarifyConnectionRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_connection_row_dispose;
  object_class->get_property = clarify_connection_row_get_property;
  object_class->set_property = clarify_connection_row_set_property;

  properties[PROP_BACKEND] =
    g_param_spec_object ("backend", NULL, NULL,
                         CLARIFY_TYPE_BACKEND,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
clarify_connection_row_init (ClarifyConnectionRow *self)
{
  GtkWidget *state_bin;

  adw_action_row_set_title_lines (ADW_ACTION_ROW (self), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (self), 1);

  self->state_icon = GTK_IMAGE (gtk_image_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->state_icon), GTK_ALIGN_CENTER);
  adw_action_row_add_prefix (ADW_ACTION_ROW (self), GTK_WIDGET (self->state_icon));

  /* Wrapped, not cut: a reason such as why the MCP endpoint cannot listen
   * is read whole, on as many lines as it takes. */
  self->state_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->state_label, TRUE);
  gtk_label_set_wrap_mode (self->state_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (self->state_label, 28);
  gtk_label_set_justify (self->state_label, GTK_JUSTIFY_RIGHT);
  gtk_label_set_xalign (self->state_label, 1.0);
  gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "dim-label");
  state_bin = clarify_wrap_bin_new (GTK_WIDGET (self->state_label));
  gtk_widget_set_valign (state_bin, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_top (state_bin, 6);
  gtk_widget_set_margin_bottom (state_bin, 6);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self), state_bin);
}

GtkWidget *
clarify_connection_row_new (ClarifyBackend *backend)
{
  g_return_val_if_fail (CLARIFY_IS_BACKEND (backend), NULL);

  return g_object_new (CLARIFY_TYPE_CONNECTION_ROW, "backend", backend, NULL);
}

const char *
clarify_connection_row_get_state_text (ClarifyConnectionRow *self)
{
  g_return_val_if_fail (CLARIFY_IS_CONNECTION_ROW (self), NULL);

  return gtk_label_get_text (self->state_label);
}
