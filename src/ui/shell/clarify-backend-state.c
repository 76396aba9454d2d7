/* clarify-backend-state.c
 *
 * Core reports a state, a note code and the data the note needs; the words
 * are chosen here, in the user's language.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-backend-state.h"
#include "clarify-mcp-server.h"

static char *
describe_workspace (const char *what,
                    const char *workspace,
                    const char *reason)
{
  if (reason != NULL)
    /* Translators: 1: a workspace id, 2: its state, 3: why */
    return g_strdup_printf (_("Workspace %s: %s (%s)"), workspace, what, reason);

  /* Translators: 1: a workspace id, 2: its state */
  return g_strdup_printf (_("Workspace %s: %s"), workspace, what);
}

static char *
describe_state (ClarifyBackend *backend)
{
  const char *error_text = clarify_backend_get_error_text (backend);

  switch (clarify_backend_get_state (backend))
    {
    case CLARIFY_CONNECTION_STATE_CONNECTING:
      return g_strdup (_("Connecting…"));

    case CLARIFY_CONNECTION_STATE_CONNECTED:
      return g_strdup (_("Connected"));

    case CLARIFY_CONNECTION_STATE_FAILED:
      /* Translators: %s says why, e.g. "Connection refused" */
      return g_strdup_printf (_("Failed: %s"), error_text != NULL ? error_text : _("Unknown error"));

    case CLARIFY_CONNECTION_STATE_RECONNECTING:
    case CLARIFY_CONNECTION_STATE_IDLE:
    default:
      return NULL;
    }
}

char *
clarify_backend_state_describe (ClarifyBackend *backend)
{
  const char *subject = clarify_backend_get_note_subject (backend);
  const char *error_text = clarify_backend_get_error_text (backend);

  g_return_val_if_fail (CLARIFY_IS_BACKEND (backend), NULL);

  switch (clarify_backend_get_note (backend))
    {
    case CLARIFY_BACKEND_NOTE_RETRYING:
      {
        gint64 wait_us = MAX (clarify_backend_get_retry_at (backend) - g_get_monotonic_time (), 0);
        int seconds = (int) ((wait_us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);

        /* Why, so that a connection that keeps failing says what to mend. */
        if (error_text != NULL && *error_text != '\0')
          /* Translators: 1: a number of seconds, 2: why the connection was
           * lost, in the server's or the network library's words */
          return g_strdup_printf (_("Reconnecting in %d s… (%s)"), seconds, error_text);

        /* Translators: %d is a number of seconds */
        return g_strdup_printf (_("Reconnecting in %d s…"), seconds);
      }

    case CLARIFY_BACKEND_NOTE_LOGGING_IN:
      return g_strdup (_("Logging in…"));

    case CLARIFY_BACKEND_NOTE_LISTENING:
      return g_strdup (_("Listening"));

    case CLARIFY_BACKEND_NOTE_ONE_DIRECTORY:
      return g_strdup (_("Connected (one directory only: the server is older)"));

    case CLARIFY_BACKEND_NOTE_WORKSPACE_CONNECTING:
      /* Translators: the state of a workspace's OpenCode instance */
      return describe_workspace (_("connecting"), subject, error_text);

    case CLARIFY_BACKEND_NOTE_WORKSPACE_ERROR:
      /* Translators: the state of a workspace's OpenCode instance */
      return describe_workspace (_("error"), subject, error_text);

    case CLARIFY_BACKEND_NOTE_WORKSPACE_DISCONNECTED:
      /* Translators: the state of a workspace's OpenCode instance */
      return describe_workspace (_("disconnected"), subject, error_text);

    case CLARIFY_BACKEND_NOTE_BAD_ADDRESS:
      return g_strdup_printf (_("Invalid MCP address: %s"), error_text);

    case CLARIFY_BACKEND_NOTE_NO_TOKEN:
      return g_strdup_printf (_("Cannot create the MCP access token: %s"), error_text);

    case CLARIFY_BACKEND_NOTE_CANNOT_LISTEN:
      /* Translators: 1: an address such as 127.0.0.1:7111, 2: why */
      return g_strdup_printf (_("Cannot listen on %s for MCP clients: %s"), subject, error_text);

    case CLARIFY_BACKEND_NOTE_CANNOT_EXPORT:
      return g_strdup_printf (_("Cannot offer the D-Bus API: %s"), error_text);

    case CLARIFY_BACKEND_NOTE_LOGIN_FAILED:
      return g_strdup (_("The server refused the username, password or token"));

    case CLARIFY_BACKEND_NOTE_ACCESS_DENIED:
      return g_strdup (_("The server does not let this account in"));

    case CLARIFY_BACKEND_NOTE_NONE:
    default:
      return describe_state (backend);
    }
}

char *
clarify_backend_state_dup_url (ClarifyBackend *backend)
{
  char *listening = NULL;

  g_return_val_if_fail (CLARIFY_IS_BACKEND (backend), NULL);

  if (CLARIFY_IS_MCP_SERVER (backend))
    listening = clarify_mcp_server_get_url (CLARIFY_MCP_SERVER (backend));
  if (listening != NULL)
    return listening;

  return g_strdup (clarify_connection_get_url (clarify_backend_get_connection (backend)));
}
