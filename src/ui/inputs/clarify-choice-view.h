/* clarify-choice-view.h: the state of a set of choices, shown as chips or a list
 *
 * The view keeps which options are active (one for single, any for multi)
 * and whether "Other…" is; its subclasses (ClarifyChoiceChips,
 * ClarifyOptionList) only draw that state and report the user's clicks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "clarify-option.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_CHOICE_VIEW (clarify_choice_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (ClarifyChoiceView, clarify_choice_view, CLARIFY, CHOICE_VIEW, GtkWidget)

struct _ClarifyChoiceViewClass
{
  GtkWidgetClass parent_class;

  /* Build the controls; the construct properties are set. */
  void     (*setup) (ClarifyChoiceView *self);
  /* The state changed (by the user or the API): update the controls. */
  void     (*sync)  (ClarifyChoiceView *self);
  /* Activate the n-th visible choice, as a click would. */
  gboolean (*pick)  (ClarifyChoiceView *self,
                     guint              index);
};

GListModel *clarify_choice_view_get_options      (ClarifyChoiceView *self);
gboolean    clarify_choice_view_get_multiple     (ClarifyChoiceView *self);
gboolean    clarify_choice_view_get_with_other   (ClarifyChoiceView *self);

gboolean    clarify_choice_view_get_active       (ClarifyChoiceView *self,
                                                  ClarifyOption     *option);
/* For single choice, activating one option deactivates the rest and Other. */
void        clarify_choice_view_set_active       (ClarifyChoiceView *self,
                                                  ClarifyOption     *option,
                                                  gboolean           active);
gboolean    clarify_choice_view_get_other_active (ClarifyChoiceView *self);
void        clarify_choice_view_set_other_active (ClarifyChoiceView *self,
                                                  gboolean           active);
/* Active options, not counting Other. */
guint       clarify_choice_view_get_n_active     (ClarifyChoiceView *self);

/* Appends the active options' values in the order the user picked them,
 * as the agents' own clients (a JavaScript Set) send them. */
void        clarify_choice_view_collect          (ClarifyChoiceView *self,
                                                  GPtrArray         *values);
gboolean    clarify_choice_view_pick             (ClarifyChoiceView *self,
                                                  guint              index);

/* The option the user is looking at: the one under the pointer, else the
 * one with the focus, else the one picked last; NULL when there is none.
 * The input shows its preview. */
ClarifyOption *clarify_choice_view_get_highlighted (ClarifyChoiceView *self);

/* For subclasses: the option a widget of theirs shows is set on it with
 * g_object_set_data (widget, CLARIFY_CHOICE_VIEW_OPTION_KEY, option), on the
 * focusable widget or its only child; track_pointer() follows the pointer
 * over it. */
#define CLARIFY_CHOICE_VIEW_OPTION_KEY "clarify-option"
void        clarify_choice_view_track_pointer    (ClarifyChoiceView *self,
                                                  GtkWidget         *widget);
/* For subclasses: emits ::activate-default, Enter where it means "done
 * choosing", so that the input can move on or submit. */
void        clarify_choice_view_activate_default (ClarifyChoiceView *self);

/* Signals: ::changed after every change of the state; ::activate-default
 * when the user is done choosing (Enter on a chip, in the search).
 * :highlighted notifies when the highlighted option changes. */

G_END_DECLS
