/* clarify-normalize.h: the agents' vocabularies mapped onto one model
 *
 * Backends stay thin by calling these for the pieces every protocol shares.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-question.h"

G_BEGIN_DECLS

/* "text", "select", "single_select", "single-select", "single", "multiselect",
 * "multi_select", "multi-select", "multi", "confirm", "number", "date",
 * "date_range" (also "date-range", "daterange"). Case-insensitive.
 * Returns FALSE for anything else. */
gboolean       clarify_question_kind_from_string     (const char          *str,
                                                      ClarifyQuestionKind *kind);

/* A text that is either a JSON string or a localized object {"en":…,"de":…}.
 * Picks by @languages (NULL = g_get_language_names ()), then "en", then the
 * first member. Returns NULL when @node is neither. */
char          *clarify_localized_text                (JsonNode            *node,
                                                      const char * const  *languages);
/* Same, for a member of @object that may be absent. */
char          *clarify_localized_member              (JsonObject          *object,
                                                      const char          *member,
                                                      const char * const  *languages);

/* An option as a plain string, {label,value}, {label,description} or
 * {label,value,description}; labels may be localized objects. Non-string
 * values are kept as their JSON text (42 → "42"). */
ClarifyOption *clarify_option_new_from_json          (JsonNode            *node,
                                                      const char * const  *languages,
                                                      GError             **error);

/* A question object in any of the seeds' shapes: text in "text", "question"
 * or "label"; kind in "kind", "type", "input_type" or "inputType", with
 * "multiSelect"/"multiple": true making it multi; "allow_other"/"allowOther"/
 * "custom"; "skippable"/"allow_skip"/"allowSkip"/"required": false; options;
 * "placeholder"; "validation"; "default". An unknown kind becomes text with a
 * warning in the log. @index names questions that come without an id ("q1"…). */
ClarifyQuestion *clarify_question_new_from_json_object (JsonObject        *object,
                                                        guint              index,
                                                        const char * const *languages,
                                                        GError           **error);

/* @text with every bidi control (U+202A–202E, U+2066–2069) and zero-width
 * character (U+200B–200D, U+2060, U+FEFF) written out as a visible mark,
 * "⟨U+202E⟩", so that agent text cannot hide or reorder what the user reads;
 * NULL when @text has none of them. */
char *clarify_text_show_invisible (const char *text);

G_END_DECLS
