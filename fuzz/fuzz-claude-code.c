/* fuzz-claude-code.c: Claude Code's hook input (PermissionRequest, its
 * AskUserQuestion, Elicitation, Notification) and the hook's output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-claude-code-codec.h"
#include "clarify-fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(ClarifyClaudeHook) hook = NULL;

  clarify_fuzz_init ();
  hook = clarify_claude_hook_decode ((const char *) data, size, "request", NULL);
  if (hook == NULL || hook->action != CLARIFY_CLAUDE_HOOK_ASK)
    return 0;

  clarify_fuzz_encode_all (hook->request, clarify_claude_hook_encode);
  return 0;
}
