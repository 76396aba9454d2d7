/* clarify-opencode-events.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-json.h"
#include "clarify-opencode-events.h"
#include "clarify-recent.h"

/* A 404 to our answer that nothing explains yet: the restarted server may
 * have answered before the old stream's end was read. The stream gets this
 * long to show a restart before the answer ends as "answered elsewhere". */
#define GONE_VERDICT_MS 1000

struct _ClarifyOpencodeTracker
{
  ClarifyBackend *backend; /* unowned: the backend owns the tracker */
  ClarifyRecent  *finished;
  GHashTable     *went_away; /* workspace ids, "" for the whole server */
  GHashTable     *verdicts;  /* request id → Verdict: a 404 waiting for its reason */
};

typedef struct
{
  ClarifyOpencodeTracker *tracker;
  char                   *request_id;
  GTask                  *task;
  GError                 *error;
  guint                   timeout_id;
} Verdict;

static void
verdict_free (Verdict *verdict)
{
  g_clear_handle_id (&verdict->timeout_id, g_source_remove);
  g_clear_object (&verdict->task);
  g_clear_error (&verdict->error);
  g_free (verdict->request_id);
  g_free (verdict);
}

/* Tracking */

ClarifyOpencodeTracker *
clarify_opencode_tracker_new (ClarifyBackend *backend)
{
  ClarifyOpencodeTracker *self = g_new0 (ClarifyOpencodeTracker, 1);

  self->backend = backend;
  self->finished = clarify_recent_new (CLARIFY_RECENT_FINISHED_IDS, NULL);
  self->went_away = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->verdicts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) verdict_free);

  return self;
}

void
clarify_opencode_tracker_free (ClarifyOpencodeTracker *self)
{
  if (self == NULL)
    return;
  clarify_recent_free (self->finished);
  g_hash_table_unref (self->went_away);
  /* Empty: each verdict holds its backend, which owns the tracker. */
  g_hash_table_unref (self->verdicts);
  g_free (self);
}

gboolean
clarify_opencode_tracker_is_finished (ClarifyOpencodeTracker *self,
                                      const char             *request_id)
{
  return clarify_recent_contains (self->finished, request_id);
}

static gboolean settle_verdict (ClarifyOpencodeTracker *self,
                                const char             *request_id,
                                gboolean                restarted);

static void
finish_request (ClarifyOpencodeTracker *self,
                const char             *request_id,
                ClarifyEndReason        reason)
{
  ClarifyRequest *request = clarify_backend_lookup_request (self->backend, request_id);
  ClarifyOpencodeRequestInfo *info = request != NULL ? clarify_opencode_request_get_info (request) : NULL;

  clarify_recent_add (self->finished, request_id, NULL);

  /* Someone else's answer: the 404 our answer got is explained. */
  if (settle_verdict (self, request_id, FALSE))
    return;
  if (request == NULL)
    return;

  /* The echo of our own reply is no news to the user. */
  if (info != NULL && info->answering)
    clarify_backend_forget_request (self->backend, request_id);
  else
    clarify_backend_withdraw_request (self->backend, request_id, reason, NULL);
}

/* Whether the agent of @info was seen going away since the last resync. */
static gboolean
agent_went_away (ClarifyOpencodeTracker     *self,
                 ClarifyOpencodeRequestInfo *info)
{
  return g_hash_table_contains (self->went_away, "") ||
         (info->workspace_id != NULL && g_hash_table_contains (self->went_away, info->workspace_id));
}

/* The agent no longer has @request_id: a pending question is withdrawn;
 * an answer on its way will fail, and is told why. */
static void
forget_missing (ClarifyOpencodeTracker *self,
                const char             *request_id,
                ClarifyEndReason        reason)
{
  ClarifyRequest *request = clarify_backend_lookup_request (self->backend, request_id);
  ClarifyOpencodeRequestInfo *info = request != NULL ? clarify_opencode_request_get_info (request) : NULL;

  /* A late answer to it is then told the same. */
  if (info != NULL)
    info->agent_gone = reason == CLARIFY_END_REASON_AGENT_RESTARTED;
  if (settle_verdict (self, request_id, reason == CLARIFY_END_REASON_AGENT_RESTARTED))
    return;
  if (info != NULL && info->answering)
    return;
  finish_request (self, request_id, reason);
}

void
clarify_opencode_tracker_went_away (ClarifyOpencodeTracker *self,
                                    const char             *workspace_id)
{
  g_autoptr(GPtrArray) waiting = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  Verdict *verdict;

  g_hash_table_add (self->went_away, g_strdup (workspace_id != NULL ? workspace_id : ""));

  /* Collected first: settling changes the table. */
  g_hash_table_iter_init (&iter, self->verdicts);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &verdict))
    {
      ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (g_task_get_task_data (verdict->task));

      if (info != NULL && agent_went_away (self, info))
        g_ptr_array_add (waiting, g_strdup (verdict->request_id));
    }
  for (guint i = 0; i < waiting->len; i++)
    settle_verdict (self, waiting->pdata[i], TRUE);
}

void
clarify_opencode_tracker_synced (ClarifyOpencodeTracker *self)
{
  g_hash_table_remove_all (self->went_away);
}

void
clarify_opencode_tracker_keep_workspaces (ClarifyOpencodeTracker *self,
                                          GHashTable             *listed)
{
  GListModel *requests = clarify_backend_get_requests (self->backend);
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func (g_free);

  /* Collected first: withdrawing changes the list being walked. */
  for (guint i = 0; i < g_list_model_get_n_items (requests); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);
      ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);

      if (info != NULL && info->workspace_id != NULL && !g_hash_table_contains (listed, info->workspace_id))
        g_ptr_array_add (gone, g_strdup (info->id));
    }

  for (guint i = 0; i < gone->len; i++)
    forget_missing (self, gone->pdata[i], CLARIFY_END_REASON_AGENT_RESTARTED);
}

static void
show_request (ClarifyOpencodeTracker *self,
              ClarifyRequest         *request)
{
  if (clarify_opencode_tracker_is_finished (self, clarify_request_get_id (request)))
    return;
  clarify_backend_add_request (self->backend, request);
}

typedef gboolean (*RequestFilter) (ClarifyOpencodeRequestInfo *info,
                                   gconstpointer               data);

/* Collects first: withdrawing changes the list being walked. */
static GPtrArray *
collect_pending (ClarifyOpencodeTracker *self,
                 RequestFilter           filter,
                 gconstpointer           data)
{
  GListModel *requests = clarify_backend_get_requests (self->backend);
  guint n = g_list_model_get_n_items (requests);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (requests, i);
      ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);

      if (info != NULL && !info->answering && filter (info, data))
        g_ptr_array_add (ids, g_strdup (info->id));
    }

  return ids;
}

static gboolean
in_session (ClarifyOpencodeRequestInfo *info,
            gconstpointer               session_id)
{
  return g_strcmp0 (info->session_id, session_id) == 0;
}

static void
end_session (ClarifyOpencodeTracker *self,
             const char             *session_id,
             ClarifyEndReason        reason)
{
  g_autoptr(GPtrArray) ids = NULL;

  if (session_id == NULL)
    return;

  ids = collect_pending (self, in_session, session_id);
  for (guint i = 0; i < ids->len; i++)
    {
      /* An aborted session leaves its question listed: never show it again. */
      clarify_recent_add (self->finished, ids->pdata[i], NULL);
      clarify_backend_withdraw_request (self->backend, ids->pdata[i], reason, NULL);
    }
}

static void
decode_and_show (ClarifyOpencodeTracker     *self,
                 ClarifyOpencodeRequestKind  kind,
                 JsonObject                 *properties,
                 const char                 *directory,
                 const char                 *workspace_id)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  const char *id = clarify_json_get_string_member (properties, "id");

  /* Decode nothing for a request that is already on screen or done. */
  if (id != NULL && (clarify_opencode_tracker_is_finished (self, id) ||
                     clarify_backend_lookup_request (self->backend, id) != NULL))
    return;

  request = clarify_opencode_request_decode (kind, properties, directory, workspace_id, &error);
  if (request == NULL)
    {
      ClarifyConnection *connection = clarify_backend_get_connection (self->backend);

      g_message ("Connection “%s”: ignoring an OpenCode request: %s",
                 connection != NULL ? clarify_connection_get_name (connection) : "", error->message);
      return;
    }

  show_request (self, request);
}

const char *
clarify_opencode_tracker_handle_event (ClarifyOpencodeTracker *self,
                                       JsonObject             *event,
                                       const char             *directory,
                                       const char             *workspace_id)
{
  ClarifyOpencodeEvent decoded;

  clarify_opencode_event_decode (event, &decoded);

  switch (decoded.action)
    {
    case CLARIFY_OPENCODE_EVENT_ASKED:
      decode_and_show (self, decoded.kind, decoded.properties, directory, workspace_id);
      break;

    case CLARIFY_OPENCODE_EVENT_WITHDRAW:
      finish_request (self, decoded.request_id, decoded.reason);
      break;

    case CLARIFY_OPENCODE_EVENT_SESSION_ENDED:
      end_session (self, decoded.session_id, decoded.reason);
      break;

    case CLARIFY_OPENCODE_EVENT_NONE:
    default:
      break;
    }

  return decoded.type;
}

typedef struct
{
  ClarifyOpencodeRequestKind  kind;
  const char                 *directory;
  const char                 *workspace_id;
  GHashTable                 *listed;
} ListingScope;

static gboolean
missing_from_listing (ClarifyOpencodeRequestInfo *info,
                      gconstpointer               data)
{
  const ListingScope *scope = data;
  gboolean same_kind = (info->kind == CLARIFY_OPENCODE_REQUEST_QUESTION) ==
                       (scope->kind == CLARIFY_OPENCODE_REQUEST_QUESTION);
  gboolean same_place = scope->workspace_id != NULL
                          ? g_strcmp0 (info->workspace_id, scope->workspace_id) == 0
                          : g_strcmp0 (info->directory, scope->directory) == 0;

  return same_kind && same_place && !g_hash_table_contains (scope->listed, info->id);
}

void
clarify_opencode_tracker_resync (ClarifyOpencodeTracker     *self,
                                 ClarifyOpencodeRequestKind  kind,
                                 JsonArray                  *listing,
                                 const char                 *directory,
                                 const char                 *workspace_id,
                                 gint64                      listed_at)
{
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) missing = NULL;
  ListingScope scope = { kind, directory, workspace_id, listed };
  guint n = json_array_get_length (listing);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (listing, i);
      JsonObject *properties = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *id = clarify_json_get_string_member (properties, "id");

      if (id == NULL)
        continue;
      g_hash_table_add (listed, (gpointer) id);
      decode_and_show (self, kind, properties, directory, workspace_id);
    }

  missing = collect_pending (self, missing_from_listing, &scope);
  for (guint i = 0; i < missing->len; i++)
    {
      ClarifyRequest *request = clarify_backend_lookup_request (self->backend, missing->pdata[i]);
      ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);

      /* What arrived after the listing was taken is not missing from it. */
      if (clarify_request_get_received_at (request) >= listed_at)
        continue;
      /* Gone with a restart is not the same as answered by someone else;
       * nor is one whose answer did not get through (a restart faster than
       * the stream's reconnect). */
      forget_missing (self, missing->pdata[i],
                      agent_went_away (self, info) || (info != NULL && info->unreached)
                      ? CLARIFY_END_REASON_AGENT_RESTARTED : CLARIFY_END_REASON_ANSWERED_ELSEWHERE);
    }
}

void
clarify_opencode_tracker_begin_answer (ClarifyOpencodeTracker *self,
                                       ClarifyRequest         *request)
{
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);

  if (info != NULL)
    info->answering = TRUE;
}

void
clarify_opencode_tracker_end_answer (ClarifyOpencodeTracker *self,
                                     ClarifyRequest         *request,
                                     const GError           *error)
{
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);
  const char *id = clarify_request_get_id (request);

  if (error == NULL || g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE) ||
      g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED))
    {
      clarify_recent_add (self->finished, id, NULL);
      clarify_backend_forget_request (self->backend, id);
    }
  else if (info != NULL)
    {
      /* Still pending: a retry or a resync may deal with it. */
      info->answering = FALSE;
    }
}

/* Resync rounds */

void
clarify_opencode_round_begin (ClarifyOpencodeRound *round)
{
  clarify_opencode_round_cancel (round);
  round->cancellable = g_cancellable_new ();
  round->number++;
  round->pending = 1;
}

guint
clarify_opencode_round_add (ClarifyOpencodeRound *round)
{
  round->pending++;

  return round->number;
}

gboolean
clarify_opencode_round_done (ClarifyOpencodeRound *round,
                             guint                 number)
{
  /* A call of an earlier round that finished just before it was cancelled. */
  if (number != round->number)
    return FALSE;

  g_assert (round->pending > 0);

  return --round->pending == 0;
}

gboolean
clarify_opencode_round_is_stale (ClarifyOpencodeRound *round,
                                 guint                 number,
                                 const GError         *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || number != round->number;
}

void
clarify_opencode_round_cancel (ClarifyOpencodeRound *round)
{
  if (round->cancellable != NULL)
    g_cancellable_cancel (round->cancellable);
  g_clear_object (&round->cancellable);
}

/* HTTP */

static gboolean
names_gone_workspace (GBytes *body)
{
  gsize size = 0;
  const char *data = body != NULL ? g_bytes_get_data (body, &size) : NULL;
  g_autoptr(JsonNode) node = data != NULL ? clarify_json_parse (data, size, NULL) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) &&
         g_strcmp0 (clarify_json_get_string_member (json_node_get_object (node), "error"),
                    "Workspace not found") == 0;
}

static JsonNode *
parse_reply (SoupMessage  *message,
             GBytes       *body,
             GError      **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!clarify_http_check_status (message, &local_error))
    {
      if (g_error_matches (local_error, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED))
        {
          g_autofree char *excerpt = clarify_http_excerpt (body, 4096);

          /* We sent something the server does not take: that is our bug, keep the evidence. */
          g_message ("%s %s was refused (%u): %s",
                     soup_message_get_method (message),
                     g_uri_get_path (soup_message_get_uri (message)),
                     soup_message_get_status (message), excerpt);
        }
      /* CodeNomad's proxy: the workspace, and its OpenCode, went away (B1a). */
      if (g_error_matches (local_error, CLARIFY_ERROR, CLARIFY_ERROR_GONE) && names_gone_workspace (body))
        {
          g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED, "%s: workspace not found",
                       local_error->message);
          return NULL;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return clarify_http_parse_json (message, body, error);
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SoupMessage *message = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  body = clarify_http_read_finish (SOUP_SESSION (object), result, &error);
  node = body != NULL ? parse_reply (message, body, &error) : NULL;
  if (node == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
}

void
clarify_opencode_call_async (SoupSession         *session,
                             SoupMessage         *message,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (session, cancellable, callback, user_data);

  g_task_set_source_tag (task, clarify_opencode_call_async);
  g_task_set_task_data (task, g_object_ref (message), g_object_unref);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");
  clarify_http_send_and_read_async (session, message, G_PRIORITY_DEFAULT, cancellable, call_cb, task);
}

JsonNode *
clarify_opencode_call_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

SoupMessage *
clarify_opencode_post_new (const char *url,
                           const char *body)
{
  SoupMessage *message = soup_message_new (SOUP_METHOD_POST, url);
  g_autoptr(GBytes) bytes = NULL;

  if (message == NULL)
    return NULL;

  bytes = body != NULL ? g_bytes_new (body, strlen (body)) : g_bytes_new_static ("", 0);
  soup_message_set_request_body_from_bytes (message, body != NULL ? "application/json" : NULL, bytes);

  return message;
}

/* Ends a reply: @error NULL when the agent took it. */
static void
return_reply (ClarifyOpencodeTracker *tracker,
              GTask                  *task,
              GError                 *error)
{
  clarify_opencode_tracker_end_answer (tracker, g_task_get_task_data (task), error);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static GError *
restarted_error (GError *gone)
{
  GError *error = g_error_new (CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED, "the agent restarted: %s", gone->message);

  g_error_free (gone);
  return error;
}

/* Ends the reply waiting for @request_id's reason, if one waits: a restart
 * (@restarted) or someone else's answer. Returns whether one waited. */
static gboolean
settle_verdict (ClarifyOpencodeTracker *self,
                const char             *request_id,
                gboolean                restarted)
{
  Verdict *verdict = g_hash_table_lookup (self->verdicts, request_id);
  g_autoptr(GTask) task = NULL;
  GError *error;

  if (verdict == NULL)
    return FALSE;

  task = g_steal_pointer (&verdict->task);
  error = g_steal_pointer (&verdict->error);
  g_hash_table_remove (self->verdicts, request_id);
  return_reply (self, task, restarted ? restarted_error (error) : error);
  return TRUE;
}

static gboolean
verdict_timeout_cb (gpointer user_data)
{
  Verdict *verdict = user_data;

  /* The stream stayed: nothing restarted, someone else answered. */
  verdict->timeout_id = 0;
  settle_verdict (verdict->tracker, verdict->request_id, FALSE);
  return G_SOURCE_REMOVE;
}

void
clarify_opencode_complete_reply (ClarifyOpencodeTracker *tracker,
                                 GTask                  *task,
                                 GAsyncResult           *result)
{
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  Verdict *verdict;

  ClarifyRequest *request = g_task_get_task_data (task);
  ClarifyOpencodeRequestInfo *info = clarify_opencode_request_get_info (request);

  node = clarify_opencode_call_finish (result, &error);
  /* Not through (no server, a 5xx): the agent may be restarting, too fast
   * for the stream to notice. */
  if (info != NULL && clarify_error_is_transient (error))
    info->unreached = TRUE;
  if (!g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE) || info == NULL)
    {
      return_reply (tracker, task, node == NULL ? error : NULL);
      return;
    }

  /* Unknown to an agent that was seen restarting, or that our answer did
   * not reach before: it forgot, nobody answered. */
  if (info->agent_gone || info->unreached || agent_went_away (tracker, info))
    {
      return_reply (tracker, task, restarted_error (error));
      return;
    }

  settle_verdict (tracker, clarify_request_get_id (request), FALSE);
  verdict = g_new0 (Verdict, 1);
  verdict->tracker = tracker;
  verdict->request_id = g_strdup (clarify_request_get_id (request));
  verdict->task = g_object_ref (task);
  verdict->error = error;
  verdict->timeout_id = g_timeout_add (GONE_VERDICT_MS, verdict_timeout_cb, verdict);
  g_hash_table_insert (tracker->verdicts, verdict->request_id, verdict);
}

JsonNode *
clarify_opencode_save_delivery (ClarifyBackend *backend,
                                ClarifyRequest *request)
{
  return clarify_opencode_request_save_info (request);
}

gboolean
clarify_opencode_restore_delivery (ClarifyBackend  *backend,
                                   ClarifyRequest  *request,
                                   JsonNode        *data,
                                   GError         **error)
{
  return clarify_opencode_request_restore_info (request, data, error);
}

char *
clarify_opencode_base_url (ClarifyConnection *connection)
{
  char *url = g_strdup (clarify_connection_get_url (connection));
  gsize len = strlen (url);

  while (len > 0 && url[len - 1] == '/')
    url[--len] = '\0';

  return url;
}

guint
clarify_opencode_stall_limit_ms (ClarifyConnection *connection,
                                 guint              default_s)
{
  const char *option = clarify_connection_get_option (connection, "stall-limit");
  double seconds = option != NULL ? g_ascii_strtod (option, NULL) : 0;

  if (seconds <= 0 || seconds > G_MAXUINT / 1000)
    seconds = default_s;

  return (guint) (seconds * 1000);
}

SoupSession *
clarify_opencode_session_new (guint timeout_s)
{
  return soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                        "timeout", timeout_s,
                                        NULL);
}
