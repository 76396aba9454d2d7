/* clarify-text-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-input-private.h"
#include "clarify-text-input.h"

#define MIN_LINES 3
#define MAX_LINES 8
#define TEXT_MARGIN_X 10
#define TEXT_MARGIN_Y 8

/* When a text answer gets a box instead of a line. No protocol Clarify
 * speaks can say "long text": MCP elicitation strings carry only
 * minLength/maxLength/format, OpenCode's and Claude Code's free text is the
 * "Other" of a choice, iHub's ask_user has a placeholder only. So a box when
 * Clarify's JSON form says "multiline", when the answer may be longer than
 * about three lines of the entry, when the placeholder (the agent's example)
 * would not fit in the entry, or when the default already has a line break.
 * Everything else is one line, where Enter answers. */
#define MULTI_LINE_MAX_LENGTH        200
#define MULTI_LINE_PLACEHOLDER_CHARS 60

struct _ClarifyTextInput
{
  ClarifyInput  parent_instance;

  /* One of the two: a GtkEntry, or a GtkTextView in a scrolled window. */
  GtkWidget    *entry;
  GtkWidget    *scrolled;
  GtkWidget    *text_view;
  GtkWidget    *placeholder;
  GtkWidget    *hint;
  GtkWidget    *counter;
  int           min_length;
  int           max_length;
};

G_DEFINE_FINAL_TYPE (ClarifyTextInput, clarify_text_input, CLARIFY_TYPE_INPUT)

static gboolean
wants_multi_line (ClarifyQuestion *question,
                  const char      *first_default)
{
  const ClarifyValidation *validation = clarify_question_get_validation (question);
  const char *placeholder = clarify_question_get_placeholder (question);

  return clarify_question_get_multi_line (question) ||
         validation->max_length > MULTI_LINE_MAX_LENGTH ||
         (placeholder != NULL &&
          (strchr (placeholder, '\n') != NULL ||
           g_utf8_strlen (placeholder, -1) > MULTI_LINE_PLACEHOLDER_CHARS)) ||
         (first_default != NULL && strchr (first_default, '\n') != NULL);
}

/* Line breaks after the last line with text are nothing the user could see
 * (a newline left by Enter, blank lines below); they go. Line breaks inside
 * the text are the user's layout and stay, as do spaces on the last line. */
static void
trim_trailing_lines (char *text)
{
  char *end = text + strlen (text);
  char *cut = NULL;

  while (end > text && g_ascii_isspace (end[-1]))
    {
      end--;
      if (*end == '\n' || *end == '\r')
        cut = end;
    }

  if (cut != NULL)
    *cut = '\0';
}

/* The answer as it will be sent. */
static char *
get_text (ClarifyTextInput *self)
{
  char *text;

  if (self->entry != NULL)
    {
      text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry)));
    }
  else
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
    }

  trim_trailing_lines (text);
  return text;
}

static void
update_counter (ClarifyTextInput *self)
{
  g_autofree char *text = get_text (self);
  int count = g_utf8_strlen (text, -1);
  g_autofree char *label = NULL;

  if (self->placeholder != NULL)
    gtk_widget_set_visible (self->placeholder,
                            gtk_text_buffer_get_char_count (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view))) == 0);

  /* The dialog's error says "at least N characters" while there are
   * fewer: the same words twice would be noise. */
  if (self->hint != NULL)
    gtk_widget_set_visible (self->hint, count == 0 || count >= self->min_length);

  if (self->counter == NULL)
    return;

  /* Translators: characters typed / characters allowed, e.g. "12 / 200". */
  label = g_strdup_printf (_("%d / %d"), count, self->max_length);
  gtk_label_set_text (GTK_LABEL (self->counter), label);

  if (count > self->max_length)
    gtk_widget_add_css_class (self->counter, "error");
  else
    gtk_widget_remove_css_class (self->counter, "error");
}

static void
text_changed_cb (ClarifyTextInput *self)
{
  update_counter (self);
  clarify_input_changed (CLARIFY_INPUT (self));
}

static void
entry_activate_cb (ClarifyTextInput *self)
{
  clarify_input_activate_default (CLARIFY_INPUT (self));
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                ClarifyTextInput      *self)
{
  gboolean enter = keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter;

  /* A text view would insert a newline for Ctrl+Enter too; that is the
   * dialog's submit, so hand it on. */
  if (enter && (state & GDK_CONTROL_MASK) != 0)
    {
      clarify_input_activate_default (CLARIFY_INPUT (self));
      return TRUE;
    }

  return FALSE;
}

/* Once the text view knows its font: when it is rooted, so that the dialog
 * is sized for it from the start, and again when it is realized. */
static void
update_heights (ClarifyTextInput *self)
{
  g_autoptr(PangoLayout) layout = NULL;
  int line_height = 0;

  if (self->text_view == NULL)
    return;

  /* Grow with the content from a few lines up to MAX_LINES, then scroll. */
  layout = gtk_widget_create_pango_layout (self->text_view, "Ag");
  pango_layout_get_pixel_size (layout, NULL, &line_height);
  line_height = MAX (line_height, 1);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->scrolled), -1);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->scrolled),
                                              MAX_LINES * line_height + 2 * TEXT_MARGIN_Y);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->scrolled),
                                              MIN_LINES * line_height + 2 * TEXT_MARGIN_Y);
}

static void
setup_entry (ClarifyTextInput *self,
             const char       *placeholder,
             const char       *text)
{
  self->entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->entry), placeholder);
  clarify_input_label_accessible (CLARIFY_INPUT (self), self->entry);
  if (text != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  gtk_widget_set_parent (self->entry, GTK_WIDGET (self));

  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (text_changed_cb), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (entry_activate_cb), self);
}

static void
setup_text_view (ClarifyTextInput *self,
                 const char       *placeholder,
                 const char       *text)
{
  GtkTextBuffer *buffer;
  GtkEventController *keys;
  GtkWidget *overlay;

  self->text_view = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->text_view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (self->text_view), FALSE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->text_view), TEXT_MARGIN_X);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (self->text_view), TEXT_MARGIN_X);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (self->text_view), TEXT_MARGIN_Y);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (self->text_view), TEXT_MARGIN_Y);
  gtk_widget_add_css_class (self->text_view, "clarify-text-view");
  clarify_input_label_accessible (CLARIFY_INPUT (self), self->text_view);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE,
                                  GTK_ACCESSIBLE_PROPERTY_PLACEHOLDER, placeholder,
                                  -1);
  g_signal_connect_swapped (self->text_view, "realize", G_CALLBACK (update_heights), self);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (self->text_view, keys);

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), self->text_view);

  /* GtkTextView has no placeholder: a dim label on top while it is empty. */
  self->placeholder = gtk_label_new (placeholder);
  gtk_label_set_use_markup (GTK_LABEL (self->placeholder), FALSE);
  gtk_label_set_wrap (GTK_LABEL (self->placeholder), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->placeholder), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (self->placeholder), 0.0);
  gtk_widget_set_halign (self->placeholder, GTK_ALIGN_FILL);
  gtk_widget_set_valign (self->placeholder, GTK_ALIGN_START);
  gtk_widget_set_margin_start (self->placeholder, TEXT_MARGIN_X);
  gtk_widget_set_margin_end (self->placeholder, TEXT_MARGIN_X);
  gtk_widget_set_margin_top (self->placeholder, TEXT_MARGIN_Y);
  gtk_widget_set_can_target (self->placeholder, FALSE);
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->placeholder),
                               GTK_ACCESSIBLE_STATE_HIDDEN, TRUE,
                               -1);

  overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), self->scrolled);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->placeholder);
  gtk_widget_set_overflow (overlay, GTK_OVERFLOW_HIDDEN);
  gtk_widget_add_css_class (overlay, "clarify-text-area");
  gtk_widget_set_parent (overlay, GTK_WIDGET (self));

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  if (text != NULL)
    gtk_text_buffer_set_text (buffer, text, -1);
  g_signal_connect_swapped (buffer, "changed", G_CALLBACK (text_changed_cb), self);
}

static void
setup_footer (ClarifyTextInput        *self,
              const ClarifyValidation *validation)
{
  GtkWidget *footer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  if (validation->min_length > 0)
    {
      g_autofree char *text = NULL;

      self->min_length = validation->min_length;
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "At least %d character",
                                           "At least %d characters",
                                           validation->min_length),
                              validation->min_length);
      self->hint = clarify_input_new_hint_label ();
      gtk_label_set_text (GTK_LABEL (self->hint), text);
      gtk_widget_set_hexpand (self->hint, TRUE);
      gtk_box_append (GTK_BOX (footer), self->hint);
    }
  if (validation->max_length > 0)
    {
      self->max_length = validation->max_length;
      self->counter = clarify_input_new_hint_label ();
      gtk_widget_set_hexpand (self->counter, TRUE);
      gtk_widget_set_halign (self->counter, GTK_ALIGN_END);
      gtk_label_set_xalign (GTK_LABEL (self->counter), 1.0);
      gtk_widget_add_css_class (self->counter, "numeric");
      gtk_box_append (GTK_BOX (footer), self->counter);
    }
  gtk_widget_set_visible (footer, self->hint != NULL || self->counter != NULL);
  gtk_widget_set_parent (footer, GTK_WIDGET (self));
}

static void
clarify_text_input_setup (ClarifyInput    *input,
                          ClarifyQuestion *question)
{
  ClarifyTextInput *self = CLARIFY_TEXT_INPUT (input);
  const char *placeholder = clarify_question_get_placeholder (question);
  const char *text = clarify_input_get_initial_values (input)[0];

  if (placeholder == NULL)
    placeholder = _("Type your answer…");

  if (wants_multi_line (question, text))
    setup_text_view (self, placeholder, text);
  else
    setup_entry (self, placeholder, text);

  setup_footer (self, clarify_question_get_validation (question));
  update_counter (self);
}

static void
clarify_text_input_collect (ClarifyInput  *input,
                            GPtrArray     *values,
                            char         **custom_text)
{
  ClarifyTextInput *self = CLARIFY_TEXT_INPUT (input);
  g_autofree char *text = get_text (self);

  /* Empty stays empty: the question then counts as unanswered. */
  if (text[0] != '\0')
    g_ptr_array_add (values, g_steal_pointer (&text));
}

static gboolean
clarify_text_input_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (clarify_text_input_get_field (CLARIFY_TEXT_INPUT (widget)));
}

static void
clarify_text_input_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (clarify_text_input_parent_class)->root (widget);

  update_heights (CLARIFY_TEXT_INPUT (widget));
}

static void
clarify_text_input_dispose (GObject *object)
{
  ClarifyTextInput *self = CLARIFY_TEXT_INPUT (object);

  if (self->text_view != NULL)
    g_signal_handlers_disconnect_by_data (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)), self);

  self->entry = NULL;
  self->scrolled = NULL;
  self->text_view = NULL;
  self->placeholder = NULL;
  self->hint = NULL;
  self->counter = NULL;

  G_OBJECT_CLASS (clarify_text_input_parent_class)->dispose (object);
}

static void
clarify_text_input_class_init (ClarifyTextInputClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ClarifyInputClass *input_class = CLARIFY_INPUT_CLASS (klass);

  object_class->dispose = clarify_text_input_dispose;

  widget_class->grab_focus = clarify_text_input_grab_focus;
  widget_class->root = clarify_text_input_root;

  input_class->setup = clarify_text_input_setup;
  input_class->collect = clarify_text_input_collect;
}

static void
clarify_text_input_init (ClarifyTextInput *self)
{
}

gboolean
clarify_text_input_get_multi_line (ClarifyTextInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_TEXT_INPUT (self), FALSE);

  return self->text_view != NULL;
}

GtkWidget *
clarify_text_input_get_field (ClarifyTextInput *self)
{
  g_return_val_if_fail (CLARIFY_IS_TEXT_INPUT (self), NULL);

  return self->entry != NULL ? self->entry : self->text_view;
}
