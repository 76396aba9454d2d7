/* clarify-choice-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-choice-chips.h"
#include "clarify-choice-input.h"
#include "clarify-input-private.h"
#include "clarify-option-list.h"
#include "clarify-text-frame.h"
#include "clarify-validate.h"

/* More options than this get the searchable list. */
#define CHIPS_MAX_OPTIONS 4
/* A longer preview scrolls. */
#define PREVIEW_MAX_HEIGHT 240

typedef struct
{
  GtkWidget *view;
  GtkWidget *other_entry;
  /* Only when an option has a preview: its frame and its text. */
  GtkWidget *preview_frame;
  GtkWidget *preview_label;
  /* To move focus into the entry only when Other has just been chosen. */
  gboolean   other_was_active;
} ClarifyChoiceInputPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ClarifyChoiceInput, clarify_choice_input, CLARIFY_TYPE_INPUT)

static void
view_changed_cb (ClarifyChoiceInput *self)
{
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);
  gboolean other_active = clarify_choice_view_get_other_active (CLARIFY_CHOICE_VIEW (priv->view));
  gboolean other_opened = other_active && !priv->other_was_active;

  if (priv->other_entry != NULL)
    {
      gtk_widget_set_visible (priv->other_entry, other_active);
      if (other_opened && gtk_widget_get_mapped (priv->view))
        gtk_widget_grab_focus (priv->other_entry);
      /* The window must grow for it even when the answer's state did not
       * change (nothing picked before: still unanswered, still untouched). */
      if (other_opened)
        clarify_input_grown (CLARIFY_INPUT (self));
    }
  priv->other_was_active = other_active;

  /* Searched for, not found, and "Other…" picked: what was searched for is
   * the likely answer, to be kept or typed over. */
  if (other_opened && priv->other_entry != NULL && CLARIFY_IS_OPTION_LIST (priv->view) &&
      clarify_text_is_blank (gtk_editable_get_text (GTK_EDITABLE (priv->other_entry))))
    {
      ClarifyOptionList *list = CLARIFY_OPTION_LIST (priv->view);
      g_autofree char *searched = g_strstrip (g_strdup (gtk_editable_get_text (
        GTK_EDITABLE (clarify_option_list_get_search_entry (list)))));

      /* Other's row alone is left. */
      if (searched[0] != '\0' && g_list_model_get_n_items (G_LIST_MODEL (clarify_option_list_get_model (list))) == 1)
        gtk_editable_set_text (GTK_EDITABLE (priv->other_entry), searched);
    }

  /* "Other…" just picked with nothing typed yet: not a wrong answer. */
  if (other_opened && priv->other_entry != NULL &&
      clarify_text_is_blank (gtk_editable_get_text (GTK_EDITABLE (priv->other_entry))))
    clarify_input_restarted (CLARIFY_INPUT (self));
  else
    clarify_input_changed (CLARIFY_INPUT (self));
}

static void
highlighted_cb (ClarifyChoiceInput *self)
{
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);
  ClarifyOption *option = clarify_choice_view_get_highlighted (CLARIFY_CHOICE_VIEW (priv->view));
  const char *preview = option != NULL ? clarify_option_get_preview (option) : NULL;
  gboolean any = preview != NULL && preview[0] != '\0';

  clarify_text_frame_set_text (CLARIFY_TEXT_FRAME (priv->preview_frame), preview);
  gtk_widget_set_visible (priv->preview_frame, any);
  if (any)
    clarify_input_grown (CLARIFY_INPUT (self));
}

static gboolean
any_preview (GListModel *options)
{
  guint n = g_list_model_get_n_items (options);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyOption) option = g_list_model_get_item (options, i);
      const char *preview = clarify_option_get_preview (option);

      if (preview != NULL && preview[0] != '\0')
        return TRUE;
    }

  return FALSE;
}

/* Monospace, as the agent laid it out (a mockup, code): it scrolls rather
 * than wraps. */
static void
add_preview (ClarifyChoiceInput *self)
{
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);
  GtkWidget *frame = clarify_text_frame_new (FALSE, PREVIEW_MAX_HEIGHT);

  priv->preview_label = clarify_text_frame_get_label (CLARIFY_TEXT_FRAME (frame));

  gtk_widget_add_css_class (frame, "clarify-preview");
  gtk_accessible_update_property (GTK_ACCESSIBLE (frame),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Preview"),
                                  -1);
  gtk_widget_set_visible (frame, FALSE);
  gtk_widget_set_parent (frame, GTK_WIDGET (self));

  priv->preview_frame = frame;
  g_signal_connect_object (priv->view, "notify::highlighted",
                           G_CALLBACK (highlighted_cb), self, G_CONNECT_SWAPPED);
}

/* Validation keeps the first options of a longer list: say so, or a search
 * for a later one would find nothing without a word why. */
static void
add_left_out_note (ClarifyChoiceInput *self,
                   ClarifyQuestion    *question)
{
  guint left_out = clarify_question_get_n_options_left_out (question);
  guint shown = clarify_question_get_n_options (question);
  g_autofree char *text = NULL;
  GtkWidget *label;

  if (left_out == 0)
    return;

  /* Translators: the first number is the options shown, the second all the agent sent */
  text = g_strdup_printf (ngettext ("Only the first %u of %u choices is shown.",
                                    "Only the first %u of %u choices are shown.", shown),
                          shown, shown + left_out);
  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_parent (label, GTK_WIDGET (self));
}

static void
apply_defaults (ClarifyChoiceInput *self,
                ClarifyQuestion    *question)
{
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);
  ClarifyChoiceView *view = CLARIFY_CHOICE_VIEW (priv->view);
  const char * const *defaults = clarify_input_get_initial_values (CLARIFY_INPUT (self));
  gboolean multiple = CLARIFY_CHOICE_INPUT_GET_CLASS (self)->multiple;

  for (guint i = 0; defaults[i] != NULL; i++)
    {
      ClarifyOption *option = clarify_question_find_option (question, defaults[i]);

      if (option != NULL)
        clarify_choice_view_set_active (view, option, TRUE);
      /* A default that is no option is what the agent would expect as "Other". */
      else if (priv->other_entry != NULL && !clarify_choice_view_get_other_active (view))
        {
          gtk_editable_set_text (GTK_EDITABLE (priv->other_entry), defaults[i]);
          clarify_choice_view_set_other_active (view, TRUE);
        }

      if (!multiple)
        break;
    }
}

static void
clarify_choice_input_setup (ClarifyInput    *input,
                            ClarifyQuestion *question)
{
  ClarifyChoiceInput *self = CLARIFY_CHOICE_INPUT (input);
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);
  GListModel *options = clarify_question_get_options (question);
  gboolean multiple = CLARIFY_CHOICE_INPUT_GET_CLASS (self)->multiple;
  gboolean with_other = clarify_question_get_allow_other (question);

  if (clarify_choice_input_uses_chips (question))
    {
      priv->view = clarify_choice_chips_new (options, multiple, with_other);
      clarify_input_label_accessible (input, priv->view);
    }
  else
    {
      ClarifyOptionList *list;

      priv->view = clarify_option_list_new (options, multiple, with_other);
      list = CLARIFY_OPTION_LIST (priv->view);
      clarify_input_label_accessible (input, clarify_option_list_get_search_entry (list));
      clarify_input_label_accessible (input, clarify_option_list_get_list_view (list));
    }
  g_signal_connect_swapped (priv->view, "activate-default",
                            G_CALLBACK (clarify_input_activate_default), self);
  gtk_widget_set_parent (priv->view, GTK_WIDGET (self));
  add_left_out_note (self, question);

  if (any_preview (options))
    add_preview (self);

  if (with_other)
    {
      priv->other_entry = gtk_entry_new ();
      gtk_entry_set_placeholder_text (GTK_ENTRY (priv->other_entry), _("Type your answer…"));
      gtk_widget_set_visible (priv->other_entry, FALSE);
      clarify_input_label_accessible (input, priv->other_entry);
      g_signal_connect_swapped (priv->other_entry, "changed",
                                G_CALLBACK (clarify_input_changed), self);
      g_signal_connect_swapped (priv->other_entry, "activate",
                                G_CALLBACK (clarify_input_activate_default), self);
      gtk_widget_set_parent (priv->other_entry, GTK_WIDGET (self));
    }

  g_signal_connect_swapped (priv->view, "changed", G_CALLBACK (view_changed_cb), self);
  apply_defaults (self, question);
}

static void
clarify_choice_input_collect (ClarifyInput  *input,
                              GPtrArray     *values,
                              char         **custom_text)
{
  ClarifyChoiceInput *self = CLARIFY_CHOICE_INPUT (input);
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);
  ClarifyChoiceView *view = CLARIFY_CHOICE_VIEW (priv->view);

  clarify_choice_view_collect (view, values);

  if (priv->other_entry != NULL && clarify_choice_view_get_other_active (view))
    {
      g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (priv->other_entry)));

      g_strstrip (text);
      if (text[0] != '\0')
        *custom_text = g_steal_pointer (&text);
    }
}

static gboolean
clarify_choice_input_pick (ClarifyInput *input,
                           guint         index)
{
  ClarifyChoiceInput *self = CLARIFY_CHOICE_INPUT (input);
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);

  return clarify_choice_view_pick (CLARIFY_CHOICE_VIEW (priv->view), index);
}

static gboolean
clarify_choice_input_grab_focus (GtkWidget *widget)
{
  ClarifyChoiceInput *self = CLARIFY_CHOICE_INPUT (widget);
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);

  return gtk_widget_grab_focus (priv->view);
}

static void
clarify_choice_input_dispose (GObject *object)
{
  ClarifyChoiceInput *self = CLARIFY_CHOICE_INPUT (object);
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);

  /* Children go with the base class; drop the borrowed pointers. */
  priv->view = NULL;
  priv->other_entry = NULL;
  priv->preview_frame = NULL;
  priv->preview_label = NULL;

  G_OBJECT_CLASS (clarify_choice_input_parent_class)->dispose (object);
}

static void
clarify_choice_input_class_init (ClarifyChoiceInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_choice_input_dispose;

  widget_class->grab_focus = clarify_choice_input_grab_focus;

  input_class->setup = clarify_choice_input_setup;
  input_class->collect = clarify_choice_input_collect;
  input_class->pick = clarify_choice_input_pick;
}

static void
clarify_choice_input_init (ClarifyChoiceInput *self)
{
}

gboolean
clarify_choice_input_uses_chips (ClarifyQuestion *question)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (question), FALSE);

  return clarify_question_get_n_options (question) <= CHIPS_MAX_OPTIONS;
}

GtkWidget *
clarify_choice_input_get_view (ClarifyChoiceInput *self)
{
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_INPUT (self), NULL);

  return priv->view;
}

GtkWidget *
clarify_choice_input_get_other_entry (ClarifyChoiceInput *self)
{
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_INPUT (self), NULL);

  return priv->other_entry;
}

GtkWidget *
clarify_choice_input_get_preview (ClarifyChoiceInput *self)
{
  ClarifyChoiceInputPrivate *priv = clarify_choice_input_get_instance_private (self);

  g_return_val_if_fail (CLARIFY_IS_CHOICE_INPUT (self), NULL);

  return priv->preview_label;
}
