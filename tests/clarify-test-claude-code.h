/* clarify-test-claude-code.h: what the Claude Code hook tests share
 *
 * Header-only, like the other test helpers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* The questions of claude-code/permission-ask-user-question.json as
 * json-glib writes them back, compact. */
#define CLARIFY_TEST_AUQ_QUESTIONS \
  "[{\"question\":\"Which features should the CLI support?\",\"header\":\"Features\",\"options\":[" \
  "{\"label\":\"Export to CSV\",\"description\":\"write a .csv file\"}," \
  "{\"label\":\"Dark mode\",\"description\":\"a dark theme\"}," \
  "{\"label\":\"Plugins\",\"description\":\"load extensions\"}],\"multiSelect\":true}," \
  "{\"question\":\"Which database should we use?\",\"header\":\"Database\",\"options\":[" \
  "{\"label\":\"SQLite\",\"description\":\"embedded\",\"preview\":\"db = sqlite3.connect(\\\"app.db\\\")\"}," \
  "{\"label\":\"Postgres\",\"description\":\"server\"}],\"multiSelect\":false}]"

/* The hook's stdout for "Allow once", with the CLI's newline. */
#define CLARIFY_TEST_ALLOW_ONCE \
  "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}\n"

/* Adds @question_id's answer: @custom_text (nullable), then the values,
 * NULL-terminated. */
static inline void
clarify_test_add_answer (ClarifyResponse *response,
                         const char      *question_id,
                         const char      *custom_text,
                         ...)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  const char *value;
  va_list ap;

  va_start (ap, custom_text);
  while ((value = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (values, (gpointer) value);
  va_end (ap);
  g_ptr_array_add (values, NULL);

  clarify_response_add_answer (response, question_id, (const char * const *) values->pdata, custom_text, FALSE);
}

static inline gboolean
clarify_test_request_is_done (gpointer data)
{
  return clarify_request_get_state (data) == CLARIFY_REQUEST_DONE;
}

/* The inputs a hook refuses (tests/fixtures/claude-code/bad-*) and the
 * words of the refusal. */
static const struct {
  const char *fixture;
  const char *message;
} clarify_test_bad_hook_inputs[] = {
  { "bad-not-json.txt", "The hook input is not JSON: " },
  { "bad-array.json", "The hook input is not a JSON object" },
  { "bad-no-event.json", "The hook input has no “hook_event_name”" },
  { "bad-unknown-event.json", "Clarify does not answer the hook “PostToolUse” (only PermissionRequest, Elicitation and Notification)" },
  { "bad-no-tool-input.json", "The PermissionRequest hook input has no “tool_input”" },
  { "bad-nested-form.json", "the field “address” has the type “object”, which a form cannot ask for" },
  { "bad-url-scheme.json", "is a link without an http or https address" },
};

G_END_DECLS
