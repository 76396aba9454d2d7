/* clarify-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "clarify-backend.h"
#include "clarify-connection.h"
#include "clarify-request-dialog.h"

G_BEGIN_DECLS

#define CLARIFY_TYPE_APPLICATION (clarify_application_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyApplication, clarify_application, CLARIFY, APPLICATION, AdwApplication)

/* Exit status for bad command-line arguments (a bad --connect spec …). */
#define CLARIFY_EXIT_USAGE 2

ClarifyApplication   *clarify_application_new             (void);

/* Every running backend (ClarifyBackend), stored connections and temporary
 * ones alike, sorted by connection name. */
GListModel           *clarify_application_get_backends    (ClarifyApplication *self);
ClarifyBackend       *clarify_application_lookup_backend  (ClarifyApplication *self,
                                                           const char         *name);
/* The requests waiting for the user (ClarifyRequest), across all backends,
 * oldest first. */
GListModel           *clarify_application_get_requests    (ClarifyApplication *self);

/* Runs @backend for this process only (nothing is stored): the demo, the
 * MCP endpoint, the D-Bus API. Its requests get dialogs like any agent's and
 * answers go back through clarify_backend_respond_async(). A running backend
 * with the same connection name is replaced. Starts @backend. */
void                  clarify_application_add_backend     (ClarifyApplication *self,
                                                           ClarifyBackend     *backend);
/* Stops @backend and withdraws the dialogs of its pending requests. */
void                  clarify_application_remove_backend  (ClarifyApplication *self,
                                                           ClarifyBackend     *backend);

/* The one path from a request to the user: shows @request's dialog, or when
 * another Clarify dialog has the focus, queues it behind that one and sends a
 * notification instead. With a @backend the answer is posted there; with
 * NULL the caller handles the returned dialog's ::response. Calling it again
 * for a pending request presents its dialog. Returns NULL when the request
 * is already over (withdrawn, or its time ran out: then "timed_out" is sent). */
ClarifyRequestDialog *clarify_application_present_request (ClarifyApplication *self,
                                                           ClarifyBackend     *backend,
                                                           ClarifyRequest     *request);

/* Checks a `--connect` spec: the syntax (clarify_connection_new_from_spec)
 * and that its kind has a backend. The error lists the known kinds. */
ClarifyConnection    *clarify_application_parse_connect_spec (const char   *spec,
                                                              GError      **error);

/* Starts the built-in demo agent and connects to it as the temporary
 * connection "Demo" (kind "clarify"). Does nothing when it runs already. */
gboolean              clarify_application_start_demo      (ClarifyApplication *self,
                                                           GError            **error);

/* "<connection name>\x1f<request id>": the target of app.open-request and
 * the id of the request's notification. */
char                 *clarify_application_dup_request_key (ClarifyRequest     *request);

G_END_DECLS
