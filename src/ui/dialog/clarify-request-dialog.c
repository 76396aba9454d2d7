/* clarify-request-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-backend-registry.h"
#include "clarify-countdown.h"
#include "clarify-input.h"
#include "clarify-request-dialog.h"
#include "clarify-request-dialog-private.h"
#include "clarify-validate.h"

/* How long the "answered elsewhere" notice stays before the dialog closes. */
#define WITHDRAWN_NOTICE_MS 2500
/* Choices up to this many are chips (as in ClarifySingleInput/MultiInput),
 * which are short enough to share one form with other questions. */
#define CHIPS_MAX_OPTIONS 4
#define FORM_MAX_QUESTIONS 3
/* A free-text answer up to this long is a short one (a name, a ticket id). */
#define SHORT_TEXT_MAX_LENGTH 200
/* The content grows the window up to this height, then scrolls. */
#define MAX_CONTENT_HEIGHT 640

typedef struct
{
  ClarifyInput    *input;
  GtkWidget       *block;
  GtkLabel        *error_label;
  GtkToggleButton *skip_toggle;
  GtkImage        *dot;
  gboolean         skippable;
} QuestionPage;

struct _ClarifyRequestDialog
{
  GtkWindow         parent_instance;

  ClarifyRequest   *request;
  GArray           *pages;

  /* Template widgets */
  AdwWindowTitle   *window_title;
  GtkStack         *bottom_stack;
  GtkLabel         *notice_label;
  GtkWidget        *notice_close_button;
  GtkWidget        *intro_box;
  GtkLabel         *title_label;
  GtkLabel         *context_label;
  GtkWidget        *scroller_fit;
  GtkWidget        *scroller;
  ClarifyCountdown *countdown;
  GtkWidget        *steps_box;
  GtkLabel         *steps_label;
  GtkWidget        *dots_box;
  GtkStack         *stack;
  GtkWidget        *action_box;
  GtkWidget        *cancel_button;
  GtkWidget        *skip_button;
  GtkWidget        *back_button;
  GtkWidget        *next_button;
  GtkWidget        *submit_button;

  gulong            withdrawn_handler;
  guint             grow_idle_id;
  guint             close_timer_id;
  guint             close_idle_id;
  guint             page;
  guint             paged : 1;
  guint             finished : 1;
  guint             withdrawn : 1;
  guint             focused_once : 1;
};

G_DEFINE_FINAL_TYPE (ClarifyRequestDialog, clarify_request_dialog, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_REQUEST,
  N_PROPS
};

enum {
  RESPONSE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static inline QuestionPage *
get_page (ClarifyRequestDialog *self,
          guint                 position)
{
  return &g_array_index (self->pages, QuestionPage, position);
}

/* Nothing typed, picked or ticked (whitespace does not count). */
static gboolean
page_is_empty (QuestionPage *page)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *custom_text = NULL;

  clarify_input_collect (page->input, values, &custom_text);

  for (guint i = 0; i < values->len; i++)
    if (!clarify_text_is_blank (g_ptr_array_index (values, i)))
      return FALSE;

  return clarify_text_is_blank (custom_text);
}

static gboolean
page_skip_toggled (QuestionPage *page)
{
  return page->skip_toggle != NULL && gtk_toggle_button_get_active (page->skip_toggle);
}

/* An optional question left empty is skipped without a press on its Skip:
 * an empty optional message must not hold back the answer. */
static gboolean
page_is_skipped (QuestionPage *page)
{
  return page_skip_toggled (page) || (page->skippable && page_is_empty (page));
}

/* Skipped questions count as answered. */
static gboolean
page_is_done (QuestionPage *page)
{
  return page_is_skipped (page) || clarify_input_get_valid (page->input);
}

static gboolean
all_done (ClarifyRequestDialog *self)
{
  for (guint i = 0; i < self->pages->len; i++)
    if (!page_is_done (get_page (self, i)))
      return FALSE;

  return self->pages->len > 0;
}

static gboolean
focus_is_inside (ClarifyRequestDialog *self,
                 GtkWidget            *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Paged: the visible question. Form: the question holding the focus, else the
 * first one still unanswered. */
static guint
current_position (ClarifyRequestDialog *self)
{
  if (self->paged)
    return self->page;

  for (guint i = 0; i < self->pages->len; i++)
    if (focus_is_inside (self, get_page (self, i)->block))
      return i;

  for (guint i = 0; i < self->pages->len; i++)
    if (!page_is_done (get_page (self, i)))
      return i;

  return 0;
}

static int
find_page_of (ClarifyRequestDialog *self,
              gpointer              widget)
{
  for (guint i = 0; i < self->pages->len; i++)
    {
      QuestionPage *page = get_page (self, i);

      if (widget == (gpointer) page->input || widget == (gpointer) page->skip_toggle)
        return (int) i;
    }

  return -1;
}

static void
focus_input (ClarifyRequestDialog *self,
             guint                 position)
{
  GtkWidget *input = GTK_WIDGET (get_page (self, position)->input);

  if (focus_is_inside (self, input))
    return;

  /* The inputs know their best target (the chosen chip, the entry). */
  gtk_widget_grab_focus (input);
  if (!focus_is_inside (self, input))
    gtk_widget_child_focus (input, GTK_DIR_TAB_FORWARD);
}

/* An empty intro box would still add its spacing above the questions. */
static void
update_intro (ClarifyRequestDialog *self)
{
  gboolean any = FALSE;

  for (GtkWidget *child = gtk_widget_get_first_child (self->intro_box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    any = any || gtk_widget_get_visible (child);

  gtk_widget_set_visible (self->intro_box, any);
}

static void
update_error (QuestionPage *page)
{
  const char *error = clarify_input_get_error (page->input);
  gboolean show = !page_is_skipped (page) &&
                  clarify_input_get_touched (page->input) &&
                  !clarify_input_get_valid (page->input) &&
                  error != NULL && error[0] != '\0';

  gtk_label_set_text (page->error_label, show ? error : "");
  gtk_widget_set_visible (GTK_WIDGET (page->error_label), show);
}

/* Windows do not grow by themselves once shown: when an error message or an
 * "Other" entry appears, make room for it rather than hide it below the fold. */
static gboolean
grow_idle_cb (gpointer data)
{
  ClarifyRequestDialog *self = data;
  int width = gtk_widget_get_width (self->scroller_fit);
  int height = gtk_widget_get_height (self->scroller_fit);
  int natural = 0;
  int window_width, window_height;

  self->grow_idle_id = 0;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) ||
      gtk_window_is_maximized (GTK_WINDOW (self)) || width <= 0)
    return G_SOURCE_REMOVE;

  gtk_widget_measure (self->scroller_fit, GTK_ORIENTATION_VERTICAL, width,
                      NULL, &natural, NULL, NULL);
  if (natural > height)
    {
      /* The default size counts the frame around a client-side decorated
       * window, the widget's height does not: grow from the former. */
      gtk_window_get_default_size (GTK_WINDOW (self), &window_width, &window_height);
      if (window_height <= 0)
        window_height = gtk_widget_get_height (GTK_WIDGET (self));
      gtk_window_set_default_size (GTK_WINDOW (self), window_width,
                                   window_height + natural - height);
    }

  return G_SOURCE_REMOVE;
}

static void
queue_grow (ClarifyRequestDialog *self)
{
  if (self->grow_idle_id == 0 && !self->finished)
    self->grow_idle_id = g_idle_add (grow_idle_cb, self);
}

static void
update_steps (ClarifyRequestDialog *self)
{
  g_autofree char *text = NULL;

  if (!self->paged)
    return;

  /* Translators: the step indicator of a request with several questions */
  text = g_strdup_printf (_("Question %u of %u"), self->page + 1, self->pages->len);
  gtk_label_set_text (self->steps_label, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->steps_box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  -1);

  for (guint i = 0; i < self->pages->len; i++)
    {
      QuestionPage *page = get_page (self, i);
      GtkWidget *dot = GTK_WIDGET (page->dot);

      /* A check for what the user answered or skipped, not for an optional
       * question that is merely still empty. */
      gboolean answered = page_skip_toggled (page) || clarify_input_get_valid (page->input);

      if (i != self->page && answered)
        gtk_image_set_from_icon_name (page->dot, "object-select-symbolic");
      else
        gtk_image_set_from_icon_name (page->dot, "media-record-symbolic");

      if (i == self->page)
        {
          gtk_widget_add_css_class (dot, "accent");
          gtk_widget_remove_css_class (dot, "dim-label");
        }
      else
        {
          gtk_widget_remove_css_class (dot, "accent");
          if (answered)
            gtk_widget_remove_css_class (dot, "dim-label");
          else
            gtk_widget_add_css_class (dot, "dim-label");
        }
    }
}

static void
update_actions (ClarifyRequestDialog *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint n = self->pages->len;
  gboolean open = !self->finished;
  gboolean last = !self->paged || self->page + 1 >= n;
  QuestionPage *current = n > 0 ? get_page (self, current_position (self)) : NULL;

  gtk_widget_action_set_enabled (widget, "dialog.submit", open && all_done (self));
  gtk_widget_action_set_enabled (widget, "dialog.next",
                                 open && self->paged && !last && page_is_done (current));
  gtk_widget_action_set_enabled (widget, "dialog.back", open && self->paged && self->page > 0);
  gtk_widget_action_set_enabled (widget, "dialog.cancel",
                                 open && clarify_request_get_cancellable (self->request));
  gtk_widget_action_set_enabled (widget, "dialog.skip",
                                 open && clarify_request_get_skippable (self->request));
  gtk_widget_action_set_enabled (widget, "dialog.skip-question",
                                 open && current != NULL && current->skip_toggle != NULL);
  gtk_widget_action_set_enabled (widget, "dialog.pick", open && n > 0);

  gtk_widget_set_visible (self->back_button, self->paged);
  gtk_widget_set_visible (self->next_button, self->paged && !last);
  gtk_widget_set_visible (self->submit_button, last);

  if (open)
    gtk_window_set_default_widget (GTK_WINDOW (self), last ? self->submit_button : self->next_button);

  update_steps (self);
}

static void
set_page (ClarifyRequestDialog *self,
          guint                 position)
{
  g_assert (position < self->pages->len);

  /* Otherwise the stack hands the focus to the page's first focusable
   * widget, the selectable question label, which then selects all its text. */
  if (focus_is_inside (self, GTK_WIDGET (self->stack)))
    gtk_window_set_focus (GTK_WINDOW (self), NULL);

  self->page = position;
  gtk_stack_set_visible_child (self->stack, get_page (self, position)->block);
  update_actions (self);
  focus_input (self, position);
}

static void
finish (ClarifyRequestDialog *self,
        ClarifyOutcome        outcome)
{
  g_autoptr(ClarifyResponse) response = NULL;

  if (self->finished)
    return;

  self->finished = TRUE;
  clarify_countdown_stop (self->countdown);

  response = clarify_response_new (clarify_request_get_id (self->request), outcome);

  if (outcome == CLARIFY_OUTCOME_ANSWERED)
    {
      for (guint i = 0; i < self->pages->len; i++)
        {
          QuestionPage *page = get_page (self, i);
          ClarifyQuestion *question = clarify_input_get_question (page->input);
          const char *id = clarify_question_get_id (question);

          if (page_is_skipped (page))
            {
              const char *none[] = { NULL };

              clarify_response_add_answer (response, id, none, NULL, TRUE);
            }
          else
            {
              g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
              g_autofree char *custom_text = NULL;

              clarify_input_collect (page->input, values, &custom_text);
              g_ptr_array_add (values, NULL);
              clarify_response_add_answer (response, id,
                                           (const char * const *) values->pdata,
                                           custom_text, FALSE);
            }
        }
    }

  update_actions (self);

  g_object_ref (self);
  g_signal_emit (self, signals[RESPONSE], 0, response);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

static gboolean
close_timeout_cb (gpointer data)
{
  ClarifyRequestDialog *self = data;

  self->close_timer_id = 0;
  gtk_window_destroy (GTK_WINDOW (self));

  return G_SOURCE_REMOVE;
}

static gboolean
close_idle_cb (gpointer data)
{
  ClarifyRequestDialog *self = data;

  self->close_idle_id = 0;
  gtk_window_destroy (GTK_WINDOW (self));

  return G_SOURCE_REMOVE;
}

static void
request_withdrawn_cb (ClarifyRequestDialog *self,
                      const char           *reason,
                      ClarifyRequest       *request)
{
  if (self->finished)
    return;

  self->finished = TRUE;
  self->withdrawn = TRUE;
  clarify_countdown_stop (self->countdown);

  gtk_widget_set_sensitive (GTK_WIDGET (self->stack), FALSE);
  gtk_widget_set_sensitive (self->action_box, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->countdown), FALSE);
  update_intro (self);
  update_actions (self);

  /* In place of the buttons, so the window keeps its size. */
  gtk_label_set_text (self->notice_label,
                      reason != NULL && reason[0] != '\0'
                        ? reason
                        : _("This question was answered elsewhere."));
  gtk_stack_set_visible_child_name (self->bottom_stack, "notice");
  gtk_window_set_default_widget (GTK_WINDOW (self), self->notice_close_button);
  gtk_widget_grab_focus (self->notice_close_button);

  g_clear_handle_id (&self->close_timer_id, g_source_remove);
  self->close_timer_id = g_timeout_add (WITHDRAWN_NOTICE_MS, close_timeout_cb, self);
}

static void
notice_close_clicked_cb (ClarifyRequestDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
countdown_expired_cb (ClarifyRequestDialog *self)
{
  finish (self, CLARIFY_OUTCOME_TIMED_OUT);
}

static void
input_state_cb (ClarifyRequestDialog *self,
                GParamSpec           *pspec,
                ClarifyInput         *input)
{
  int position = find_page_of (self, input);

  if (position < 0)
    return;

  update_error (get_page (self, position));
  update_actions (self);
  queue_grow (self);
}

static void
input_activate_default_cb (ClarifyRequestDialog *self,
                           ClarifyInput         *input)
{
  int position = find_page_of (self, input);
  GtkWidget *widget = GTK_WIDGET (self);

  if (position < 0 || self->finished)
    return;

  if ((guint) position + 1 < self->pages->len)
    {
      if (self->paged)
        gtk_widget_activate_action (widget, "dialog.next", NULL);
      else
        focus_input (self, position + 1);
    }
  else
    {
      gtk_widget_activate_action (widget, "dialog.submit", NULL);
    }
}

static void
skip_toggled_cb (ClarifyRequestDialog *self,
                 GtkToggleButton      *toggle)
{
  int position = find_page_of (self, toggle);
  QuestionPage *page;
  gboolean skipped;

  if (position < 0)
    return;

  page = get_page (self, position);
  skipped = gtk_toggle_button_get_active (toggle);
  gtk_widget_set_sensitive (GTK_WIDGET (page->input), !skipped);
  update_error (page);
  update_actions (self);

  /* Skipping is an answer: move on as Next would. */
  if (skipped && self->paged && (guint) position == self->page &&
      self->page + 1 < self->pages->len)
    set_page (self, self->page + 1);
}

static void
submit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  /* Also from an earlier page (Ctrl+Enter) once everything is answered. */
  if (!self->finished && all_done (self))
    finish (self, CLARIFY_OUTCOME_ANSWERED);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  if (clarify_request_get_cancellable (self->request))
    finish (self, CLARIFY_OUTCOME_CANCELLED);
}

static void
skip_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  if (clarify_request_get_skippable (self->request))
    finish (self, CLARIFY_OUTCOME_SKIPPED);
}

static void
skip_question_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);
  QuestionPage *page;

  if (self->finished || self->pages->len == 0)
    return;

  page = get_page (self, current_position (self));
  if (page->skip_toggle != NULL)
    gtk_toggle_button_set_active (page->skip_toggle,
                                  !gtk_toggle_button_get_active (page->skip_toggle));
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  if (self->finished || !self->paged || self->page + 1 >= self->pages->len)
    return;
  if (!page_is_done (get_page (self, self->page)))
    return;

  set_page (self, self->page + 1);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  if (self->finished || !self->paged || self->page == 0)
    return;

  set_page (self, self->page - 1);
}

static gboolean
pick (ClarifyRequestDialog *self,
      guint                 index)
{
  QuestionPage *page;

  if (self->finished || self->pages->len == 0)
    return FALSE;

  page = get_page (self, current_position (self));
  if (page_skip_toggled (page))
    return FALSE;

  return clarify_input_pick (page->input, index);
}

static void
pick_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  pick (CLARIFY_REQUEST_DIALOG (widget), g_variant_get_uint32 (parameter));
}

/* Digits pick a choice, unless the user is typing. */
static gboolean
digit_shortcut_cb (GtkWidget *widget,
                   GVariant  *args,
                   gpointer   user_data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;

  return pick (CLARIFY_REQUEST_DIALOG (widget), g_variant_get_uint32 (args));
}

/* Esc declines where the protocol can; otherwise the request stays pending
 * and only the window goes away. */
static gboolean
escape_shortcut_cb (GtkWidget *widget,
                    GVariant  *args,
                    gpointer   user_data)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));
  GtkWidget *search = focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY) : NULL;

  /* Esc closes an open calendar, or empties a search, before the dialog. */
  if (focus != NULL && gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL)
    return FALSE;
  if (search != NULL && gtk_editable_get_text (GTK_EDITABLE (search))[0] != '\0')
    return FALSE;

  if (self->finished)
    gtk_window_destroy (GTK_WINDOW (self));
  else if (clarify_request_get_cancellable (self->request))
    finish (self, CLARIFY_OUTCOME_CANCELLED);
  else
    gtk_widget_set_visible (widget, FALSE);

  return TRUE;
}

/* GtkScrolledWindow (4.8) asks its content for its natural height without
 * the width it will get, so wrapped text and chips come out too tall and
 * leave a gap. This asks the content for the real width instead. */
static void
scroller_fit_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  GtkWidget *scroller = gtk_widget_get_first_child (widget);
  GtkWidget *content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller));

  gtk_widget_measure (scroller, orientation, for_size, minimum, natural, NULL, NULL);

  if (orientation == GTK_ORIENTATION_VERTICAL && content != NULL && for_size >= 0)
    {
      int content_natural;

      gtk_widget_measure (content, orientation, for_size, NULL, &content_natural, NULL, NULL);
      *natural = MAX (*minimum, MIN (content_natural, MAX_CONTENT_HEIGHT));
    }
}

static void
scroller_fit_allocate (GtkWidget *widget,
                       int        width,
                       int        height,
                       int        baseline)
{
  gtk_widget_allocate (gtk_widget_get_first_child (widget), width, height, baseline, NULL);
}

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

static void
setup_header (ClarifyRequestDialog *self)
{
  const char *name = clarify_request_get_connection_name (self->request);
  const char *kind_id = clarify_request_get_connection_kind (self->request);
  const char *kind = clarify_backend_registry_get_display_name (kind_id);
  const char *project = clarify_request_get_project (self->request);
  const char *session = clarify_request_get_session (self->request);
  const char *title = clarify_request_get_title (self->request);
  g_autofree char *source = NULL;
  g_autofree char *window_title = NULL;
  g_autoptr(GString) where = g_string_new (NULL);
  g_autoptr(GString) tooltip = g_string_new (NULL);

  if (name != NULL && name[0] != '\0' && kind != NULL && kind[0] != '\0' &&
      !same_word (name, kind_id))
    /* Translators: a connection's name and its kind, e.g. "work (OpenCode)" */
    source = g_strdup_printf (_("%s (%s)"), name, kind);
  else if (kind != NULL && kind[0] != '\0')
    source = g_strdup (kind);
  else if (name != NULL && name[0] != '\0')
    source = g_strdup (name);

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

  adw_window_title_set_title (self->window_title, source != NULL ? source : _("Question"));
  adw_window_title_set_subtitle (self->window_title, where->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->window_title),
                               tooltip->len > 0 ? tooltip->str : NULL);

  if (title != NULL && title[0] != '\0')
    {
      gtk_label_set_text (self->title_label, title);
      gtk_widget_set_visible (GTK_WIDGET (self->title_label), TRUE);
      window_title = g_strdup (title);
    }
  else if (source != NULL)
    {
      /* Translators: the window title of a request without its own title */
      window_title = g_strdup_printf (_("Question from %s"), source);
    }
  else
    {
      window_title = g_strdup (_("Question"));
    }
  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

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
      return clarify_question_get_n_options (question) <= CHIPS_MAX_OPTIONS;

    case CLARIFY_QUESTION_KIND_CONFIRM:
    case CLARIFY_QUESTION_KIND_NUMBER:
    case CLARIFY_QUESTION_KIND_DATE:
    case CLARIFY_QUESTION_KIND_DATE_RANGE:
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

static GtkWidget *
build_question (ClarifyRequestDialog *self,
                ClarifyQuestion      *question,
                gboolean              skippable,
                QuestionPage         *page)
{
  const char *header = clarify_question_get_header (question);
  GtkWidget *block = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  /* The question and, on its first line, its Skip. */
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label;

  gtk_box_append (GTK_BOX (block), texts);

  if (header != NULL && header[0] != '\0')
    {
      g_autofree char *upper = g_utf8_strup (header, -1);

      label = gtk_label_new (NULL);
      gtk_label_set_text (GTK_LABEL (label), upper);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "caption-heading");
      gtk_widget_add_css_class (label, "accent");
      gtk_box_append (GTK_BOX (texts), label);
    }

  label = gtk_label_new (NULL);
  gtk_label_set_text (GTK_LABEL (label), clarify_question_get_text (question));
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_valign (label, GTK_ALIGN_BASELINE);
  gtk_box_append (GTK_BOX (line), label);
  gtk_box_append (GTK_BOX (texts), line);

  if (skippable)
    {
      GtkWidget *toggle = gtk_toggle_button_new_with_label (_("Skip"));

      gtk_widget_set_valign (toggle, GTK_ALIGN_BASELINE);
      gtk_widget_set_tooltip_text (toggle, _("Skip this question"));
      gtk_widget_add_css_class (toggle, "flat");
      gtk_widget_add_css_class (toggle, "clarify-skip");
      g_signal_connect_object (toggle, "toggled",
                               G_CALLBACK (skip_toggled_cb), self,
                               G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (line), toggle);
      page->skip_toggle = GTK_TOGGLE_BUTTON (toggle);
    }

  page->input = clarify_input_new_for_question (question);
  clarify_input_set_context (page->input, clarify_request_get_context (self->request));
  gtk_box_append (GTK_BOX (block), GTK_WIDGET (page->input));
  g_signal_connect_object (page->input, "notify::valid",
                           G_CALLBACK (input_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page->input, "notify::error",
                           G_CALLBACK (input_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page->input, "notify::touched",
                           G_CALLBACK (input_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page->input, "activate-default",
                           G_CALLBACK (input_activate_default_cb), self,
                           G_CONNECT_SWAPPED);

  /* An alert, so that screen readers announce it when it appears. */
  label = g_object_new (GTK_TYPE_LABEL,
                        "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT,
                        "xalign", 0.0f,
                        "wrap", TRUE,
                        "wrap-mode", PANGO_WRAP_WORD_CHAR,
                        "visible", FALSE,
                        NULL);
  gtk_widget_add_css_class (label, "error");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (block), label);
  page->error_label = GTK_LABEL (label);

  page->block = block;

  return block;
}

static void
setup_questions (ClarifyRequestDialog *self)
{
  guint n = clarify_request_get_n_questions (self->request);
  gboolean request_skippable = clarify_request_get_skippable (self->request);
  GtkWidget *form = NULL;

  self->paged = !use_one_form (self->request);
  g_array_set_size (self->pages, n);

  if (!self->paged)
    {
      form = gtk_box_new (GTK_ORIENTATION_VERTICAL, 30);
      gtk_stack_add_child (self->stack, form);
    }

  for (guint i = 0; i < n; i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (self->request, i);
      QuestionPage *page = get_page (self, i);
      /* With one question, the request's Skip already says it. */
      gboolean skippable = clarify_question_get_skippable (question) &&
                           !(n == 1 && request_skippable);
      GtkWidget *block = build_question (self, question, skippable, page);

      page->skippable = clarify_question_get_skippable (question);

      if (self->paged)
        {
          GtkWidget *dot = gtk_image_new_from_icon_name ("media-record-symbolic");
          const char *header = clarify_question_get_header (question);

          gtk_stack_add_child (self->stack, block);
          gtk_image_set_pixel_size (GTK_IMAGE (dot), 12);
          if (header != NULL && header[0] != '\0')
            gtk_widget_set_tooltip_text (dot, header);
          gtk_box_append (GTK_BOX (self->dots_box), dot);
          page->dot = GTK_IMAGE (dot);
        }
      else
        {
          gtk_box_append (GTK_BOX (form), block);
        }
    }

  gtk_widget_set_visible (self->steps_box, self->paged);
  /* Pages keep one height, so that the window does not jump while paging. */
  gtk_stack_set_vhomogeneous (self->stack, TRUE);

  if (self->paged && n > 0)
    gtk_stack_set_visible_child (self->stack, get_page (self, 0)->block);

  for (guint i = 0; i < n; i++)
    update_error (get_page (self, i));
}

static void
clarify_request_dialog_constructed (GObject *object)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);
  const char *context;

  G_OBJECT_CLASS (clarify_request_dialog_parent_class)->constructed (object);

  g_return_if_fail (self->request != NULL);

  setup_header (self);

  context = clarify_request_get_context (self->request);
  if (context != NULL && context[0] != '\0')
    {
      gtk_label_set_text (self->context_label, context);
      gtk_widget_set_visible (GTK_WIDGET (self->context_label), TRUE);
    }

  gtk_widget_set_visible (self->cancel_button, clarify_request_get_cancellable (self->request));
  gtk_widget_set_visible (self->skip_button, clarify_request_get_skippable (self->request));
  if (clarify_request_get_n_questions (self->request) > 1)
    gtk_button_set_label (GTK_BUTTON (self->skip_button), _("Skip All"));

  setup_questions (self);

  if (clarify_request_is_withdrawn (self->request))
    {
      /* Nothing to ask any more; the owner still holds us until idle. */
      self->finished = TRUE;
      self->withdrawn = TRUE;
      self->close_idle_id = g_idle_add (close_idle_cb, self);
      update_actions (self);
      return;
    }

  self->withdrawn_handler =
    g_signal_connect_object (self->request, "withdrawn",
                             G_CALLBACK (request_withdrawn_cb), self,
                             G_CONNECT_SWAPPED);

  if (clarify_request_get_timeout_ms (self->request) > 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->countdown), TRUE);
      clarify_countdown_start (self->countdown,
                               clarify_request_get_deadline (self->request),
                               (gint64) clarify_request_get_timeout_ms (self->request) * 1000);
    }

  update_intro (self);
  update_actions (self);
}

static void
clarify_request_dialog_map (GtkWidget *widget)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (widget);

  GTK_WIDGET_CLASS (clarify_request_dialog_parent_class)->map (widget);

  if (!self->focused_once && !self->finished && self->pages->len > 0)
    {
      self->focused_once = TRUE;
      focus_input (self, current_position (self));
    }
}

static gboolean
clarify_request_dialog_close_request (GtkWindow *window)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (window);

  if (self->finished)
    return FALSE;

  escape_shortcut_cb (GTK_WIDGET (window), NULL, NULL);

  return TRUE;
}

static void
clarify_request_dialog_dispose (GObject *object)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  self->finished = TRUE;
  g_clear_handle_id (&self->grow_idle_id, g_source_remove);
  g_clear_handle_id (&self->close_timer_id, g_source_remove);
  g_clear_handle_id (&self->close_idle_id, g_source_remove);
  /* Dispose may run twice; the countdown is gone after the first. */
  if (self->countdown != NULL)
    clarify_countdown_stop (g_steal_pointer (&self->countdown));
  if (self->request != NULL)
    g_clear_signal_handler (&self->withdrawn_handler, self->request);

  if (self->pages != NULL)
    {
      for (guint i = 0; i < self->pages->len; i++)
        {
          QuestionPage *page = get_page (self, i);

          g_signal_handlers_disconnect_by_data (page->input, self);
          if (page->skip_toggle != NULL)
            g_signal_handlers_disconnect_by_data (page->skip_toggle, self);
        }
      g_array_set_size (self->pages, 0);
    }

  G_OBJECT_CLASS (clarify_request_dialog_parent_class)->dispose (object);
}

static void
clarify_request_dialog_finalize (GObject *object)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  g_clear_pointer (&self->pages, g_array_unref);
  g_clear_object (&self->request);

  G_OBJECT_CLASS (clarify_request_dialog_parent_class)->finalize (object);
}

static void
clarify_request_dialog_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

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
clarify_request_dialog_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ClarifyRequestDialog *self = CLARIFY_REQUEST_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_set_object (&self->request, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_shortcuts (GtkWidgetClass *widget_class)
{
  static const guint digit_keys[][2] = {
    { GDK_KEY_1, GDK_KEY_KP_1 }, { GDK_KEY_2, GDK_KEY_KP_2 }, { GDK_KEY_3, GDK_KEY_KP_3 },
    { GDK_KEY_4, GDK_KEY_KP_4 }, { GDK_KEY_5, GDK_KEY_KP_5 }, { GDK_KEY_6, GDK_KEY_KP_6 },
    { GDK_KEY_7, GDK_KEY_KP_7 }, { GDK_KEY_8, GDK_KEY_KP_8 }, { GDK_KEY_9, GDK_KEY_KP_9 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (digit_keys); i++)
    {
      gtk_widget_class_add_binding (widget_class, digit_keys[i][0], 0,
                                    digit_shortcut_cb, "u", i);
      gtk_widget_class_add_binding (widget_class, digit_keys[i][1], 0,
                                    digit_shortcut_cb, "u", i);
    }

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "dialog.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "dialog.next", NULL);
}

static void
clarify_request_dialog_class_init (ClarifyRequestDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = clarify_request_dialog_constructed;
  object_class->dispose = clarify_request_dialog_dispose;
  object_class->finalize = clarify_request_dialog_finalize;
  object_class->get_property = clarify_request_dialog_get_property;
  object_class->set_property = clarify_request_dialog_set_property;

  widget_class->map = clarify_request_dialog_map;
  window_class->close_request = clarify_request_dialog_close_request;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         CLARIFY_TYPE_REQUEST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ClarifyRequestDialog::response:
   * @response: the user's answer, or how the request ended
   *
   * Emitted exactly once; the dialog destroys itself right after.
   */
  signals[RESPONSE] =
    g_signal_new ("response",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CLARIFY_TYPE_RESPONSE);

  g_type_ensure (CLARIFY_TYPE_COUNTDOWN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/clarify/Clarify/clarify-request-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, bottom_stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, notice_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, notice_close_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, intro_box);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, title_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, context_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, scroller_fit);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, scroller);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, countdown);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, steps_box);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, steps_label);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, dots_box);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, action_box);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, skip_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, back_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, next_button);
  gtk_widget_class_bind_template_child (widget_class, ClarifyRequestDialog, submit_button);
  gtk_widget_class_bind_template_callback (widget_class, notice_close_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, countdown_expired_cb);

  gtk_widget_class_install_action (widget_class, "dialog.submit", NULL, submit_action);
  gtk_widget_class_install_action (widget_class, "dialog.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "dialog.skip", NULL, skip_action);
  gtk_widget_class_install_action (widget_class, "dialog.skip-question", NULL, skip_question_action);
  gtk_widget_class_install_action (widget_class, "dialog.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "dialog.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "dialog.pick", "u", pick_action);

  add_shortcuts (widget_class);
}

static void
clarify_request_dialog_init (ClarifyRequestDialog *self)
{
  GtkEventController *controller;
  GtkShortcutTrigger *trigger;

  self->pages = g_array_new (FALSE, TRUE, sizeof (QuestionPage));

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_widget_set_layout_manager (self->scroller_fit,
                                 gtk_custom_layout_new (NULL, scroller_fit_measure,
                                                        scroller_fit_allocate));

  /* Capture phase: Ctrl+Enter must submit even from inside a text view, and
   * Esc must get past a search entry that has nothing left to clear. */
  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  trigger = gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_CONTROL_MASK),
                                         gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_CONTROL_MASK));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (trigger, gtk_named_action_new ("dialog.submit")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_callback_action_new (escape_shortcut_cb, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

ClarifyRequestDialog *
clarify_request_dialog_new (GtkApplication *application,
                            ClarifyRequest *request)
{
  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  return g_object_new (CLARIFY_TYPE_REQUEST_DIALOG,
                       "application", application,
                       "request", request,
                       NULL);
}

ClarifyRequest *
clarify_request_dialog_get_request (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);

  return self->request;
}

gboolean
clarify_request_dialog_get_paged (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), FALSE);

  return self->paged;
}

guint
clarify_request_dialog_get_page (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), 0);

  return self->pages->len > 0 ? current_position (self) : 0;
}

ClarifyInput *
clarify_request_dialog_get_input (ClarifyRequestDialog *self,
                                  guint                 position)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);
  g_return_val_if_fail (position < self->pages->len, NULL);

  return get_page (self, position)->input;
}

GtkLabel *
clarify_request_dialog_get_error_label (ClarifyRequestDialog *self,
                                        guint                 position)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);
  g_return_val_if_fail (position < self->pages->len, NULL);

  return get_page (self, position)->error_label;
}

GtkToggleButton *
clarify_request_dialog_get_skip_toggle (ClarifyRequestDialog *self,
                                        guint                 position)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);
  g_return_val_if_fail (position < self->pages->len, NULL);

  return get_page (self, position)->skip_toggle;
}

gboolean
clarify_request_dialog_is_submit_sensitive (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), FALSE);

  return gtk_widget_is_sensitive (self->submit_button);
}

ClarifyCountdown *
clarify_request_dialog_get_countdown (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), NULL);

  return self->countdown;
}

gboolean
clarify_request_dialog_get_withdrawn (ClarifyRequestDialog *self)
{
  g_return_val_if_fail (CLARIFY_IS_REQUEST_DIALOG (self), FALSE);

  return self->withdrawn;
}
