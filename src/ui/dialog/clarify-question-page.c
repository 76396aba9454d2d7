/* clarify-question-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-input-factory.h"
#include "clarify-question-page.h"
#include "clarify-validate.h"
#include "clarify-wrap-bin.h"

struct _ClarifyQuestionPage
{
  GtkBox           parent_instance;

  ClarifyQuestion *question;
  char            *context;
  char           **initial_values; /* a refused answer's, or NULL */
  ClarifyInput    *input;
  guint            has_skip_toggle : 1;

  /* Template widgets */
  GtkWidget       *texts_box;
  GtkLabel        *header_label;
  GtkLabel        *question_label;
  GtkToggleButton *skip_toggle;
  GtkLabel        *error_label;
  GtkExpander     *note_expander;
  GtkEntry        *note_entry;
};

G_DEFINE_FINAL_TYPE (ClarifyQuestionPage, clarify_question_page, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_QUESTION,
  PROP_CONTEXT,
  PROP_INITIAL_VALUES,
  PROP_HAS_SKIP_TOGGLE,
  PROP_SKIP_ACTIVE,
  N_PROPS
};

enum {
  CHANGED,
  ACTIVATE_DEFAULT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Nothing typed, picked or ticked (whitespace does not count). */
static gboolean
is_empty (ClarifyQuestionPage *self)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *custom_text = NULL;

  clarify_input_collect (self->input, values, &custom_text);

  for (guint i = 0; i < values->len; i++)
    if (!clarify_text_is_blank (g_ptr_array_index (values, i)))
      return FALSE;

  return clarify_text_is_blank (custom_text);
}

static gboolean
focus_is_inside (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static void
update_error (ClarifyQuestionPage *self)
{
  const char *error = clarify_input_get_error (self->input);
  gboolean show = !clarify_question_page_is_skipped (self) &&
                  clarify_input_get_touched (self->input) &&
                  !clarify_input_get_valid (self->input) &&
                  error != NULL && error[0] != '\0';

  gtk_label_set_text (self->error_label, show ? error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), show);
}

static void
input_state_cb (ClarifyQuestionPage *self)
{
  update_error (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
input_activate_default_cb (ClarifyQuestionPage *self)
{
  g_signal_emit (self, signals[ACTIVATE_DEFAULT], 0);
}

static void
skip_toggled_cb (ClarifyQuestionPage *self)
{
  gboolean skip = gtk_toggle_button_get_active (self->skip_toggle);

  /* Skipped from the keyboard while typing: the focus goes to Skip, not
   * into a field turning insensitive (whose cursor would blink on). */
  if (skip && focus_is_inside (GTK_WIDGET (self->input)))
    gtk_widget_grab_focus (GTK_WIDGET (self->skip_toggle));
  gtk_widget_set_sensitive (GTK_WIDGET (self->input), !skip);
  update_error (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SKIP_ACTIVE]);
}

static void
note_expanded_cb (ClarifyQuestionPage *self)
{
  if (gtk_expander_get_expanded (self->note_expander))
    gtk_widget_grab_focus (GTK_WIDGET (self->note_entry));
  /* The dialog grows to show the field. */
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Enter after the note answers, as Enter in a one-line answer does. */
static void
note_activate_cb (ClarifyQuestionPage *self)
{
  g_signal_emit (self, signals[ACTIVATE_DEFAULT], 0);
}

static void
clarify_question_page_constructed (GObject *object)
{
  ClarifyQuestionPage *self = CLARIFY_QUESTION_PAGE (object);
  const char *header;

  G_OBJECT_CLASS (clarify_question_page_parent_class)->constructed (object);

  g_return_if_fail (self->question != NULL);

  header = clarify_question_get_header (self->question);
  /* As the agent wrote it: upper-casing is no style for every language. */
  if (header != NULL && header[0] != '\0')
    {
      gtk_label_set_text (self->header_label, header);
      gtk_widget_set_visible (GTK_WIDGET (self->header_label), TRUE);
    }
  gtk_label_set_text (self->question_label, clarify_question_get_text (self->question));
  gtk_widget_set_visible (GTK_WIDGET (self->skip_toggle), self->has_skip_toggle);
  gtk_widget_set_visible (GTK_WIDGET (self->note_expander), clarify_question_get_takes_note (self->question));

  self->input = clarify_input_new_for_question (self->question, (const char * const *) self->initial_values);
  clarify_input_set_context (self->input, self->context);
  gtk_box_insert_child_after (GTK_BOX (self), GTK_WIDGET (self->input), self->texts_box);
  g_signal_connect_object (self->input, "notify::valid",
                           G_CALLBACK (input_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->input, "notify::error",
                           G_CALLBACK (input_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->input, "notify::touched",
                           G_CALLBACK (input_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->input, "activate-default",
                           G_CALLBACK (input_activate_default_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->input, "grown",
                           G_CALLBACK (input_state_cb), self, G_CONNECT_SWAPPED);

  update_error (self);
}

static void
clarify_question_page_dispose (GObject *object)
{
  ClarifyQuestionPage *self = CLARIFY_QUESTION_PAGE (object);

  /* The input goes with the box; stop hearing from it first. */
  if (self->input != NULL)
    g_signal_handlers_disconnect_by_data (self->input, self);
  self->input = NULL;

  G_OBJECT_CLASS (clarify_question_page_parent_class)->dispose (object);
}

static void
clarify_question_page_finalize (GObject *object)
{
  ClarifyQuestionPage *self = CLARIFY_QUESTION_PAGE (object);

  g_clear_object (&self->question);
  g_clear_pointer (&self->context, g_free);
  g_clear_pointer (&self->initial_values, g_strfreev);

  G_OBJECT_CLASS (clarify_question_page_parent_class)->finalize (object);
}

static void
clarify_question_page_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  ClarifyQuestionPage *self = CLARIFY_QUESTION_PAGE (object);

  switch (prop_id)
    {
    case PROP_QUESTION:
      g_value_set_object (value, self->question);
      break;

    case PROP_CONTEXT:
      g_value_set_string (value, self->context);
      break;

    case PROP_INITIAL_VALUES:
      g_value_set_boxed (value, self->initial_values);
      break;

    case PROP_HAS_SKIP_TOGGLE:
      g_value_set_boolean (value, self->has_skip_toggle);
      break;

    case PROP_SKIP_ACTIVE:
      g_value_set_boolean (value, clarify_question_page_get_skip_active (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_question_page_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  ClarifyQuestionPage *self = CLARIFY_QUESTION_PAGE (object);

  switch (prop_id)
    {
    case PROP_QUESTION:
      self->question = g_value_dup_object (value);
      break;

    case PROP_CONTEXT:
      self->context = g_value_dup_string (value);
      break;

    case PROP_INITIAL_VALUES:
      self->initial_values = g_value_dup_boxed (value);
      break;

    case PROP_HAS_SKIP_TOGGLE:
      self->has_skip_toggle = g_value_get_boolean (value);
      break;

    case PROP_SKIP_ACTIVE:
      clarify_question_page_set_skip_active (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_question_page_class_init (ClarifyQuestionPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = clarify_question_page_constructed;
  object_class->dispose = clarify_question_page_dispose;
  object_class->finalize = clarify_question_page_finalize;
  object_class->get_property = clarify_question_page_get_property;
  object_class->set_property = clarify_question_page_set_property;

  properties[PROP_QUESTION] =
    g_param_spec_object ("question", NULL, NULL,
                         CLARIFY_TYPE_QUESTION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONTEXT] =
    g_param_spec_string ("context", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INITIAL_VALUES] =
    g_param_spec_boxed ("initial-values", NULL, NULL,
                        G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_SKIP_TOGGLE] =
    g_param_spec_boolean ("has-skip-toggle", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SKIP_ACTIVE] =
    g_param_spec_boolean ("skip-active", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[ACTIVATE_DEFAULT] =
    g_signal_new ("activate-default",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (CLARIFY_TYPE_WRAP_BIN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/clarify/Clarify/clarify-question-page.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyQuestionPage, texts_box);
  gtk_widget_class_bind_template_child (widget_class, ClarifyQuestionPage, header_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyQuestionPage, question_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyQuestionPage, skip_toggle);
  gtk_widget_class_bind_template_child (widget_class, ClarifyQuestionPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyQuestionPage, note_expander);
  gtk_widget_class_bind_template_child (widget_class, ClarifyQuestionPage, note_entry);
  gtk_widget_class_bind_template_callback (widget_class, skip_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, note_expanded_cb);
  gtk_widget_class_bind_template_callback (widget_class, note_activate_cb);
}

static void
clarify_question_page_init (ClarifyQuestionPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

ClarifyQuestionPage *
clarify_question_page_new (ClarifyQuestion    *question,
                           const char         *context,
                           gboolean            has_skip_toggle,
                           const char * const *initial_values)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION (question), NULL);

  return g_object_new (CLARIFY_TYPE_QUESTION_PAGE,
                       "question", question,
                       "context", context,
                       "has-skip-toggle", has_skip_toggle,
                       "initial-values", initial_values,
                       NULL);
}

ClarifyQuestion *
clarify_question_page_get_question (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), NULL);

  return self->question;
}

ClarifyInput *
clarify_question_page_get_input (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), NULL);

  return self->input;
}

GtkLabel *
clarify_question_page_get_error_label (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), NULL);

  return self->error_label;
}

GtkExpander *
clarify_question_page_get_note_expander (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->note_expander)) ? self->note_expander : NULL;
}

GtkEntry *
clarify_question_page_get_note_entry (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), NULL);

  return self->note_entry;
}

GtkToggleButton *
clarify_question_page_get_skip_toggle (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), NULL);

  return self->has_skip_toggle ? self->skip_toggle : NULL;
}

gboolean
clarify_question_page_get_skip_active (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), FALSE);

  return self->has_skip_toggle && gtk_toggle_button_get_active (self->skip_toggle);
}

void
clarify_question_page_set_skip_active (ClarifyQuestionPage *self,
                                       gboolean             skip_active)
{
  g_return_if_fail (CLARIFY_IS_QUESTION_PAGE (self));

  /* The toggle notifies through skip_toggled_cb. */
  if (self->has_skip_toggle)
    gtk_toggle_button_set_active (self->skip_toggle, skip_active);
}

gboolean
clarify_question_page_is_skipped (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), FALSE);

  /* An empty optional message must not hold back the answer. */
  return clarify_question_page_get_skip_active (self) ||
         (clarify_question_get_skippable (self->question) && is_empty (self));
}

gboolean
clarify_question_page_is_done (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), FALSE);

  return clarify_question_page_is_skipped (self) || clarify_input_get_valid (self->input);
}

gboolean
clarify_question_page_is_answered (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), FALSE);

  return clarify_question_page_get_skip_active (self) || clarify_input_get_valid (self->input);
}

gboolean
clarify_question_page_has_focus (ClarifyQuestionPage *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), FALSE);

  return focus_is_inside (GTK_WIDGET (self));
}

void
clarify_question_page_focus (ClarifyQuestionPage *self)
{
  GtkWidget *input;

  g_return_if_fail (CLARIFY_IS_QUESTION_PAGE (self));

  input = GTK_WIDGET (self->input);
  if (focus_is_inside (input))
    return;

  /* The inputs know their best target (the chosen chip, the entry). */
  gtk_widget_grab_focus (input);
  if (!focus_is_inside (input))
    gtk_widget_child_focus (input, GTK_DIR_TAB_FORWARD);
}

gboolean
clarify_question_page_pick (ClarifyQuestionPage *self,
                            guint                index)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_PAGE (self), FALSE);

  if (clarify_question_page_get_skip_active (self))
    return FALSE;

  return clarify_input_pick (self->input, index);
}

void
clarify_question_page_add_answer (ClarifyQuestionPage *self,
                                  ClarifyResponse     *response)
{
  const char *id;

  g_return_if_fail (CLARIFY_IS_QUESTION_PAGE (self));
  g_return_if_fail (CLARIFY_IS_RESPONSE (response));

  id = clarify_question_get_id (self->question);

  if (clarify_question_page_is_skipped (self))
    {
      const char *none[] = { NULL };

      clarify_response_add_answer (response, id, none, NULL, TRUE);
    }
  else
    {
      g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *custom_text = NULL;

      clarify_input_collect (self->input, values, &custom_text);
      g_ptr_array_add (values, NULL);
      clarify_response_add_answer (response, id,
                                   (const char * const *) values->pdata,
                                   custom_text, FALSE);
      /* Only what is shown goes: a note typed and then folded away stays out. */
      if (clarify_question_get_takes_note (self->question) && gtk_expander_get_expanded (self->note_expander))
        clarify_response_set_note (response, id, gtk_editable_get_text (GTK_EDITABLE (self->note_entry)));
    }
}
