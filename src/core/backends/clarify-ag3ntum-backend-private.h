/* clarify-ag3ntum-backend-private.h: what the Ag3ntum backend's files share
 *
 * The backend is one object in three files: clarify-ag3ntum-api.c logs in
 * and makes the API calls, clarify-ag3ntum-sessions.c watches the sessions'
 * streams, and clarify-ag3ntum-backend.c ties them to the user stream,
 * start(), stop() and the answers. They share the instance struct.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-ag3ntum-backend.h"
#include "clarify-recent.h"

G_BEGIN_DECLS

struct _ClarifyAg3ntumBackend
{
  ClarifyStreamBackend  parent_instance;

  SoupSession          *api_session;
  SoupSession          *stream_session;
  ClarifySseClient     *user_stream;     /* owned by the parent */
  GHashTable           *watches;         /* session id → Watch */
  ClarifyRecent        *finished;        /* question ids answered or withdrawn */
  ClarifyRecent        *vanished;        /* question ids lost in a restart */
  GPtrArray            *login_waiters;   /* GTasks */
  GCancellable         *cancellable;     /* what start() began; stop() cancels it */

  char                 *base_url;
  char                 *host;
  char                 *email;
  char                 *password;
  char                 *model;
  char                 *token;
  char                 *authorization;
  gint64                token_expires_at;
  guint                 stall_ms;
  guint                 backoff_initial_ms;
  guint                 backoff_max_ms;
  guint                 relogin_source;

  guint                 logging_in : 1;
  guint                 listing : 1;
  guint                 list_again : 1;
  guint                 relogged_since_connect : 1;
};

/* One watched session (clarify-ag3ntum-sessions.c). */
typedef struct
{
  ClarifyAg3ntumBackend *self;
  char                  *session_id;
  char                  *model;
  ClarifySseClient      *client;       /* NULL until the history is read */
  GCancellable          *cancellable;
  gint64                 after;
  gboolean               server_away;  /* its stream found nobody listening */
} Watch;

const char *clarify_ag3ntum_connection_name (ClarifyAg3ntumBackend *self);

G_END_DECLS
