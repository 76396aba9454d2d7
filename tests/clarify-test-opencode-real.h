/* clarify-test-opencode-real.h: the real `opencode serve` for tests
 *
 * opencode-ai (pinned) from npm, cached in the build dir; the server runs
 * offline in a temporary HOME with a fake OpenAI-compatible model whose tool
 * calls each test scripts. Needs no GTK: it iterates the default main
 * context while it waits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "clarify-sse-client.h"

G_BEGIN_DECLS

#define CLARIFY_TEST_OPENCODE_VERSION "1.18.33"
/* A real first turn (plugin and catalog init) may take this long. */
#define CLARIFY_TEST_OPENCODE_SLOW_MS 90000

/* One tool call the fake model makes. */
typedef struct
{
  const char *call_id;
  const char *tool;
  const char *arguments; /* JSON text */
} ClarifyTestToolCall;

/* The fake model's script: the first call when the conversation has no tool
 * result yet, then after the result of call k the call k + 1, and after the
 * last one the text "All done.". Requests without tools (title generation)
 * get the text "Fake session". */
typedef struct
{
  SoupServer                *server;
  char                      *base_url;     /* http://127.0.0.1:PORT/v1 */
  const ClarifyTestToolCall *script;
  guint                      n_script;
  GPtrArray                 *requests;     /* JsonNode: every chat/completions body, in order */
  GPtrArray                 *tool_results; /* char *: each tool message that ended a request, in order */
  guint                      n_calls;
  guint                      want;
} ClarifyTestFakeModel;

typedef struct
{
  ClarifyTestFakeModel *model;
  char                 *root;         /* temporary: HOME, XDG dirs and the project */
  char                 *project;      /* root/project, opencode.json and the server's cwd */
  GSubprocess          *process;
  GDataInputStream     *stdout_lines;
  char                 *base_url;     /* http://127.0.0.1:PORT once listening */
  SoupSession          *session;
  ClarifySseClient     *recorder;     /* /global/event */
  GPtrArray            *events;       /* JsonNode: every payload it carried */
} ClarifyTestOpencode;

/* Installs opencode if needed, starts the fake model (@script stays the
 * caller's) and `opencode serve` with @extra_config (top-level members such
 * as "\"mcp\": {…}", or NULL) in opencode.json, and records OpenCode's
 * events. FALSE when the test was skipped because npm cannot reach the
 * registry. */
gboolean    clarify_test_opencode_start              (ClarifyTestOpencode       *self,
                                                      const ClarifyTestToolCall *script,
                                                      guint                      n_script,
                                                      const char                *extra_config);
/* Stops the recorder and the server (SIGTERM, waited for) and removes root. */
void        clarify_test_opencode_stop               (ClarifyTestOpencode       *self);

/* @method base_url@path with @body (JSON or NULL); asserts the status and
 * returns the parsed reply, or NULL when it was empty or no JSON. */
JsonNode   *clarify_test_opencode_request            (ClarifyTestOpencode       *self,
                                                      const char                *method,
                                                      const char                *path,
                                                      const char                *body,
                                                      guint                      expected_status);
/* POST /session with @body; returns the new session's id. */
char       *clarify_test_opencode_create_session     (ClarifyTestOpencode       *self,
                                                      const char                *body);
/* POST /session/@session_id/prompt_async with one text part (204). */
void        clarify_test_opencode_prompt             (ClarifyTestOpencode       *self,
                                                      const char                *session_id,
                                                      const char                *text);

/* The properties of the first recorded event of @type, waiting for it. */
JsonObject *clarify_test_opencode_wait_for_event     (ClarifyTestOpencode       *self,
                                                      const char                *type);
/* The tool part of call @call_id once a message.part.updated shows it in
 * @status ("completed", "error" …). */
JsonObject *clarify_test_opencode_wait_for_tool_part (ClarifyTestOpencode       *self,
                                                      const char                *call_id,
                                                      const char                *status);

/* Waits until the fake model has been sent @n tool results. */
void        clarify_test_fake_model_wait_for_tool_results (ClarifyTestFakeModel *fake,
                                                           guint                 n);
/* Waits for a request that offers tools; returns the tool @name
 * ({"name","description","parameters"}) as the latest such request offers
 * it, or NULL. */
JsonObject *clarify_test_fake_model_wait_for_tool    (ClarifyTestFakeModel      *fake,
                                                      const char                *name);

char       *clarify_test_to_json                     (JsonNode                  *node);

G_END_DECLS
