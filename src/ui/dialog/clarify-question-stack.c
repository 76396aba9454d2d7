/* clarify-question-stack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-choice-input.h"
#include "clarify-question-stack.h"
#include "clarify-wrap-bin.h"

#define FORM_MAX_QUESTIONS 3
/* A free-text answer up to this long is a short one (a name, a ticket id). */
#define SHORT_TEXT_MAX_LENGTH 200

struct _ClarifyQuestionStack
{
  AdwBin          parent_instance;

  ClarifyRequest *request;
  GPtrArray      *pages;
  GtkStack       *stack;
  guint           visible;
  guint           paged : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyQuestionStack, clarify_question_stack, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_REQUEST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* A free-text question fits into a form when the answer is optional (a note
 * next to a choice, like OpenCode's message with a permission) or limited
 * to a short one. A longer required text gets a page of its own. */
static gboolean
text_is_short (ClarifyQuestion *question)
{
  const ClarifyValidation *validation = clarify_question_get_validation (question);

  return clarify_question_get_skippable (question) ||
         (validation->max_length > 0 && validation->max_length <= SHORT_TEXT_MAX_LENGTH);
}

/* One form reads best when every question is short: no long lists, no long
 * free text. */
static gboolean
question_is_short (ClarifyQuestion *question)
{
  switch (clarify_question_get_kind (question))
    {
    case CLARIFY_QUESTION_KIND_SINGLE:
    case CLARIFY_QUESTION_KIND_MULTI:
      /* Chips are short enough to share one form; a list is not. */
      return clarify_choice_input_uses_chips (question);

    case CLARIFY_QUESTION_KIND_CONFIRM:
    case CLARIFY_QUESTION_KIND_NUMBER:
    case CLARIFY_QUESTION_KIND_DATE:
    case CLARIFY_QUESTION_KIND_DATE_RANGE:
    case CLARIFY_QUESTION_KIND_PERMISSION:
    case CLARIFY_QUESTION_KIND_LINK:
      return TRUE;

    case CLARIFY_QUESTION_KIND_TEXT:
      return text_is_short (question);

    default:
      return FALSE;
    }
}

/* Up to FORM_MAX_QUESTIONS short questions share one form, with at most one
 * text area among them; anything else pages. */
static gboolean
use_one_form (ClarifyRequest *request)
{
  guint n = clarify_request_get_n_questions (request);
  guint n_text = 0;

  if (n <= 1)
    return TRUE;
  if (n > FORM_MAX_QUESTIONS)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);

      if (!question_is_short (question))
        return FALSE;
      if (clarify_question_get_kind (question) == CLARIFY_QUESTION_KIND_TEXT && ++n_text > 1)
        return FALSE;
    }

  return TRUE;
}

/* Each stack child is a ClarifyWrapBin: GtkStack (4.8) asks its visible
 * child for its width at the height it has, and a box of wrapped text
 * answers that by laying out everything at one width after another. */
static void
show_page (ClarifyQuestionStack *self,
           guint                 position)
{
  gtk_stack_set_visible_child (self->stack,
                               gtk_widget_get_parent (g_ptr_array_index (self->pages, position)));
}

/* What an input starts with when its question is asked again: the
 * refused answer's values, with the "Other…" text a choice takes as one. */
static GStrv
dup_initial_values (ClarifyResponse *previous,
                    ClarifyQuestion *question)
{
  const ClarifyAnswer *answer;
  g_autoptr(GStrvBuilder) builder = NULL;

  if (previous == NULL)
    return NULL;
  answer = clarify_response_lookup_answer (previous, clarify_question_get_id (question));
  if (answer == NULL || answer->skipped)
    return NULL;

  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) answer->values);
  if (answer->custom_text != NULL && answer->custom_text[0] != '\0')
    g_strv_builder_add (builder, answer->custom_text);

  return g_strv_builder_end (builder);
}

static void
build_pages (ClarifyQuestionStack *self,
             ClarifyResponse      *previous)
{
  guint n = clarify_request_get_n_questions (self->request);
  gboolean request_skippable = clarify_request_get_skippable (self->request);
  const char *context = clarify_request_get_context (self->request);
  GtkWidget *form = NULL;

  self->paged = !use_one_form (self->request);

  if (!self->paged)
    {
      form = gtk_box_new (GTK_ORIENTATION_VERTICAL, 30);
      gtk_stack_add_child (self->stack, clarify_wrap_bin_new (form));
    }

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (self->request, i);
      /* With one question, the request's Skip already says it. */
      gboolean has_skip_toggle = clarify_question_get_skippable (question) &&
                                 !(n == 1 && request_skippable);
      g_auto(GStrv) initial_values = dup_initial_values (previous, question);
      ClarifyQuestionPage *page = clarify_question_page_new (question, context, has_skip_toggle,
                                                             (const char * const *) initial_values);

      g_ptr_array_add (self->pages, g_object_ref (page));
      if (self->paged)
        gtk_stack_add_child (self->stack, clarify_wrap_bin_new (GTK_WIDGET (page)));
      else
        gtk_box_append (GTK_BOX (form), GTK_WIDGET (page));
    }

  /* Pages keep one height, so that the window does not jump while paging. */
  gtk_stack_set_vhomogeneous (self->stack, TRUE);

  if (self->paged && n > 0)
    show_page (self, 0);
}

static void
clarify_question_stack_dispose (GObject *object)
{
  ClarifyQuestionStack *self = CLARIFY_QUESTION_STACK (object);

  g_ptr_array_set_size (self->pages, 0);
  g_clear_object (&self->request);

  G_OBJECT_CLASS (clarify_question_stack_parent_class)->dispose (object);
}

static void
clarify_question_stack_finalize (GObject *object)
{
  ClarifyQuestionStack *self = CLARIFY_QUESTION_STACK (object);

  g_clear_pointer (&self->pages, g_ptr_array_unref);

  G_OBJECT_CLASS (clarify_question_stack_parent_class)->finalize (object);
}

static void
clarify_question_stack_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ClarifyQuestionStack *self = CLARIFY_QUESTION_STACK (object);

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
clarify_question_stack_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ClarifyQuestionStack *self = CLARIFY_QUESTION_STACK (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      clarify_question_stack_set_request (self, g_value_get_object (value), NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_question_stack_class_init (ClarifyQuestionStackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_question_stack_dispose;
  object_class->finalize = clarify_question_stack_finalize;
  object_class->get_property = clarify_question_stack_get_property;
  object_class->set_property = clarify_question_stack_set_property;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         CLARIFY_TYPE_REQUEST,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A plain widget would be read out by its type name (GTK 4.8). */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
clarify_question_stack_init (ClarifyQuestionStack *self)
{
  self->pages = g_ptr_array_new_with_free_func (g_object_unref);
  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_set_transition_type (self->stack, GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT);
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->stack));
}

ClarifyRequest *
clarify_question_stack_get_request (ClarifyQuestionStack *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), NULL);

  return self->request;
}

void
clarify_question_stack_set_request (ClarifyQuestionStack *self,
                                    ClarifyRequest       *request,
                                    ClarifyResponse      *previous)
{
  g_return_if_fail (CLARIFY_IS_QUESTION_STACK (self));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));
  g_return_if_fail (previous == NULL || CLARIFY_IS_RESPONSE (previous));
  g_return_if_fail (self->request == NULL);

  self->request = g_object_ref (request);
  build_pages (self, previous);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST]);
}

gboolean
clarify_question_stack_get_paged (ClarifyQuestionStack *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), FALSE);

  return self->paged;
}

guint
clarify_question_stack_get_n_pages (ClarifyQuestionStack *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), 0);

  return self->pages->len;
}

ClarifyQuestionPage *
clarify_question_stack_get_page (ClarifyQuestionStack *self,
                                 guint                 position)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), NULL);
  g_return_val_if_fail (position < self->pages->len, NULL);

  return g_ptr_array_index (self->pages, position);
}

gboolean
clarify_question_stack_find_page (ClarifyQuestionStack *self,
                                  ClarifyQuestionPage  *page,
                                  guint                *position)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), FALSE);

  return g_ptr_array_find (self->pages, page, position);
}

guint
clarify_question_stack_get_visible (ClarifyQuestionStack *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), 0);

  return self->visible;
}

void
clarify_question_stack_set_visible (ClarifyQuestionStack *self,
                                    guint                 position)
{
  ClarifyQuestionPage *current;

  g_return_if_fail (CLARIFY_IS_QUESTION_STACK (self));
  g_return_if_fail (self->paged);
  g_return_if_fail (position < self->pages->len);

  /* Otherwise the stack hands the focus to the page's first focusable
   * widget, not where the page puts it (the picked chip, the entry). */
  current = g_ptr_array_index (self->pages, self->visible);
  if (clarify_question_page_has_focus (current))
    gtk_root_set_focus (gtk_widget_get_root (GTK_WIDGET (self)), NULL);

  self->visible = position;
  show_page (self, position);
}

guint
clarify_question_stack_get_current (ClarifyQuestionStack *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), 0);

  if (self->paged)
    return self->visible;

  for (guint i = 0; i < self->pages->len; i++)
    if (clarify_question_page_has_focus (g_ptr_array_index (self->pages, i)))
      return i;

  for (guint i = 0; i < self->pages->len; i++)
    if (!clarify_question_page_is_done (g_ptr_array_index (self->pages, i)))
      return i;

  return 0;
}

gboolean
clarify_question_stack_get_all_done (ClarifyQuestionStack *self)
{
  g_return_val_if_fail (CLARIFY_IS_QUESTION_STACK (self), FALSE);

  for (guint i = 0; i < self->pages->len; i++)
    if (!clarify_question_page_is_done (g_ptr_array_index (self->pages, i)))
      return FALSE;

  return self->pages->len > 0;
}
