/* clarify-secret-banner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-secret.h"
#include "clarify-secret-banner.h"
#include "clarify-tooltip.h"

struct _ClarifySecretBanner
{
  GtkBox        parent_instance;

  GtkLabel     *label;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (ClarifySecretBanner, clarify_secret_banner, GTK_TYPE_BOX)

static void
choose (ClarifySecretBanner   *self,
        ClarifySecretFallback  fallback)
{
  g_autoptr(GError) error = NULL;

  if (!clarify_secret_set_fallback (fallback, &error))
    {
      gtk_label_set_text (self->label, error->message);
      return;
    }

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static void
keep_file_clicked_cb (ClarifySecretBanner *self)
{
  choose (self, CLARIFY_SECRET_FALLBACK_FILE);
}

static void
keep_memory_clicked_cb (ClarifySecretBanner *self)
{
  choose (self, CLARIFY_SECRET_FALLBACK_MEMORY);
}

static void
service_checked_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(ClarifySecretBanner) self = user_data;
  gboolean service = clarify_secret_check_service_finish (result);

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  gtk_widget_set_visible (GTK_WIDGET (self),
                          !service && clarify_secret_get_fallback () == CLARIFY_SECRET_FALLBACK_UNSET);
}

void
clarify_secret_banner_refresh (ClarifySecretBanner *self)
{
  g_return_if_fail (CLARIFY_IS_SECRET_BANNER (self));

  clarify_secret_check_service_async (self->cancellable, service_checked_cb, g_object_ref (self));
}

static GtkWidget *
add_button (ClarifySecretBanner *self,
            const char          *label,
            const char          *tooltip,
            GCallback            callback)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  clarify_tooltip_set_text (button, tooltip);
  g_signal_connect_object (button, "clicked", callback, self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self), button);

  return button;
}

static void
clarify_secret_banner_dispose (GObject *object)
{
  ClarifySecretBanner *self = CLARIFY_SECRET_BANNER (object);

  g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (clarify_secret_banner_parent_class)->dispose (object);
}

static void
clarify_secret_banner_finalize (GObject *object)
{
  ClarifySecretBanner *self = CLARIFY_SECRET_BANNER (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (clarify_secret_banner_parent_class)->finalize (object);
}

static void
clarify_secret_banner_class_init (ClarifySecretBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_secret_banner_dispose;
  object_class->finalize = clarify_secret_banner_finalize;
}

static void
clarify_secret_banner_init (ClarifySecretBanner *self)
{
  GtkWidget *button;

  self->cancellable = g_cancellable_new ();
  gtk_widget_set_name (GTK_WIDGET (self), "secret_banner");
  gtk_box_set_spacing (GTK_BOX (self), 12);
  gtk_widget_add_css_class (GTK_WIDGET (self), "clarify-secret-banner");
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);

  self->label = GTK_LABEL (gtk_label_new (_("No keyring answers: passwords and tokens are kept in a file that only you can read.")));
  gtk_label_set_wrap (self->label, TRUE);
  gtk_label_set_xalign (self->label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->label), TRUE);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->label));

  add_button (self, _("_Keep in File"),
              _("Keep passwords and tokens in the file, readable only by you"),
              G_CALLBACK (keep_file_clicked_cb));
  button = add_button (self, _("_Don’t Store"),
                       _("Keep them only until Clarify quits; after a restart, enter them again in each connection"),
                       G_CALLBACK (keep_memory_clicked_cb));
  gtk_widget_add_css_class (button, "suggested-action");

  clarify_secret_banner_refresh (self);
}

GtkWidget *
clarify_secret_banner_new (void)
{
  return g_object_new (CLARIFY_TYPE_SECRET_BANNER, NULL);
}
