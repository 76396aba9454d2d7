/* clarify-found-agent.h: one agent ClarifyAgentDiscovery found on this machine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What the user can do with it, in one click. */
typedef enum
{
  CLARIFY_FOUND_CONNECT,      /* a server: add a connection to its URL */
  CLARIFY_FOUND_ANSWER_HERE,  /* Claude Code: install Clarify's hooks */
  CLARIFY_FOUND_ADD_CLARIFY,  /* an MCP client's config: add Clarify's endpoint */
} ClarifyFoundAction;

#define CLARIFY_TYPE_FOUND_AGENT (clarify_found_agent_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyFoundAgent, clarify_found_agent, CLARIFY, FOUND_AGENT, GObject)

/* @kind is a backend kind, or "claude-code"; @location the server's URL
 * (CONNECT) or the file to change. @done: nothing left to do (the hooks
 * or the entry are there already). */
ClarifyFoundAgent  *clarify_found_agent_new          (ClarifyFoundAction  action,
                                                      const char         *kind,
                                                      const char         *location,
                                                      gboolean            done);

/* A project of @kind whose own config at @location names Clarify
 * already: listed, with nothing to do (ADD_CLARIFY, done). */
ClarifyFoundAgent  *clarify_found_agent_new_in_project (const char         *kind,
                                                        const char         *location,
                                                        const char         *project);

ClarifyFoundAction  clarify_found_agent_get_action   (ClarifyFoundAgent  *self);
const char         *clarify_found_agent_get_kind     (ClarifyFoundAgent  *self);
/* The URL to connect to, or the file that holds (or would hold) the
 * entry. */
const char         *clarify_found_agent_get_location (ClarifyFoundAgent  *self);
/* The project's folder, or NULL for the user's own config. */
const char         *clarify_found_agent_get_project  (ClarifyFoundAgent  *self);
gboolean            clarify_found_agent_get_done     (ClarifyFoundAgent  *self);

/* ANSWER_HERE and ADD_CLARIFY: change the file as `clarify setup
 * claude-code` does (hooks running @program, the clarify command, an
 * absolute path; ignored in Flatpak), or add the entry `clarify
 * --mcp-info` prints, with the MCP token read (or made) without blocking.
 * Keeps what else is in the file, with a backup. Sets ::done (notify) on
 * success. */
void                clarify_found_agent_set_up_async  (ClarifyFoundAgent   *self,
                                                       const char          *program,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            clarify_found_agent_set_up_finish (ClarifyFoundAgent   *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* The entry of Clarify's MCP endpoint at @url for a client's config:
 * "opencode" (opencode.json's "mcp") or "claude-code" (.claude.json's
 * "mcpServers"). */
JsonNode           *clarify_found_agent_mcp_entry    (const char         *client,
                                                      const char         *url,
                                                      const char         *token);

G_END_DECLS
