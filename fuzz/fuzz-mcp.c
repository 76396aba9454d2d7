/* fuzz-mcp.c: the MCP JSON-RPC handler without HTTP
 *
 * The input is up to eight messages, one per line, handled in turn by one
 * protocol in one session (so that an initialize can precede a call);
 * every ask_user is answered at once, each in another way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-fuzz.h"
#include "clarify-json.h"
#include "clarify-mcp-protocol.h"

#define MAX_MESSAGES 8

static void
ask (ClarifyRequest      *request,
     GCancellable        *cancellable,
     GAsyncReadyCallback  callback,
     gpointer             callback_data,
     gpointer             user_data)
{
  guint *n_asked = user_data;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, callback_data);

  clarify_fuzz_round_trip (request);
  if ((*n_asked)++ % (CLARIFY_FUZZ_N_RESPONSES + 1) == CLARIFY_FUZZ_N_RESPONSES)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "withdrawn");
  else
    g_task_return_pointer (task, clarify_fuzz_response_new (request, *n_asked), g_object_unref);
}

static ClarifyResponse *
ask_finish (GAsyncResult  *result,
            gpointer       user_data,
            GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
event_cb (ClarifyMcpEvent  event,
          const char      *message,
          gpointer         user_data)
{
}

typedef struct
{
  gboolean done;
  char    *reply;
} Handled;

static void
handled_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Handled *handled = user_data;
  ClarifyMcpReplyFlags flags;

  handled->reply = clarify_mcp_protocol_handle_finish (CLARIFY_MCP_PROTOCOL (object), result, &flags);
  handled->done = TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto(GStrv) messages = NULL;
  g_autoptr(ClarifyMcpProtocol) protocol = NULL;
  guint n_asked = 0;

  clarify_fuzz_init ();
  protocol = clarify_mcp_protocol_new (ask, ask_finish, &n_asked);
  /* Bytes after a NUL do not reach the handler through HTTP either way. */
  messages = g_strsplit (text, "\n", MAX_MESSAGES);

  for (guint i = 0; messages[i] != NULL; i++)
    {
      Handled handled = { FALSE, NULL };

      clarify_mcp_protocol_handle_async (protocol, "session", messages[i], strlen (messages[i]),
                                         NULL, event_cb, handled_cb, &handled);
      while (!handled.done)
        g_main_context_iteration (NULL, TRUE);
      g_free (handled.reply);
    }

  /* Nothing may be left behind for the next input. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return 0;
}
