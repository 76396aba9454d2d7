/* clarify-backend-probe.h: "Test" for a connection not yet made
 *
 * One request to the URL the user gave (nowhere else), with the password
 * or token the user typed, and a verdict in a few words' worth of codes:
 * the UI words them. Each backend file says in a ClarifyProbeSpec what its
 * server answers when it is the right kind; the registry holds the specs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "clarify-connection.h"

G_BEGIN_DECLS

typedef enum
{
  CLARIFY_PROBE_REACHABLE,    /* the right kind of server, and it let us in */
  CLARIFY_PROBE_AUTH_FAILED,  /* it refused the password or token (401/403) */
  CLARIFY_PROBE_WRONG_KIND,   /* something answered, but not this kind of agent */
  CLARIFY_PROBE_TLS_ERROR,    /* the secure connection could not be set up */
  CLARIFY_PROBE_UNREACHABLE,  /* nothing answers at that address */
} ClarifyProbeVerdict;

typedef enum
{
  CLARIFY_PROBE_AUTH_NONE,
  CLARIFY_PROBE_AUTH_BASIC,   /* username (option "username" or default_user) : secret */
  CLARIFY_PROBE_AUTH_BEARER,  /* Authorization: Bearer secret */
  CLARIFY_PROBE_AUTH_LOGIN,   /* POST login_body() as JSON to the path */
} ClarifyProbeAuth;

typedef struct
{
  /* Appended to the connection's URL; NULL: the URL itself. */
  const char       *path;
  ClarifyProbeAuth  auth;
  const char       *default_user;
  /* "text/event-stream" or "application/json": what the right server sends. */
  const char       *content_type;
  /* For CLARIFY_PROBE_AUTH_LOGIN: the login request's JSON (free it with
   * clarify_secret_free()). */
  char           *(*login_body) (ClarifyConnection *connection,
                                 const char        *secret);
  /* For a JSON reply: whether it is this agent's (NULL: any JSON). */
  gboolean        (*recognize)  (JsonNode          *reply);
  /* Whether the backend takes a loopback server's own certificate, as it
   * connects (clarify_http_accept_loopback_certificates()). */
  gboolean          loopback_certificates;
} ClarifyProbeSpec;

/* @secret may be NULL (none typed or stored). */
void                clarify_backend_probe_async  (const ClarifyProbeSpec *spec,
                                                  ClarifyConnection      *connection,
                                                  const char             *secret,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
/* @detail (nullable out): untranslated data for the UI to add, such as
 * "HTTP 404 Not Found" or the TLS library's words. */
ClarifyProbeVerdict clarify_backend_probe_finish (GAsyncResult           *result,
                                                  char                  **detail);

G_END_DECLS
