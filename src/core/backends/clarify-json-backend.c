/* clarify-json-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-inbox.h"
#include "clarify-json.h"
#include "clarify-json-backend.h"
#include "clarify-outbox-store.h"
#include "clarify-recent.h"
#include "clarify-secret.h"

/* How much of a rejected answer's reply body goes into the log. */
#define MAX_LOGGED_BODY_CHARS 500
/* An agent that takes longer to accept an answer is retried by the outbox.
 * As the other backends: at 30 s an agent that answered after 31 s got the
 * answer twice (test-agent-faults /agent-faults/slow-answer). */
#define ANSWER_TIMEOUT_S      90
/* Answers the agent took, kept in case it sends their request again. */
#define ANSWERED_KEPT         256

#define DIGEST_SIZE           32

/* What the agent took for a request: which request that was, and where
 * the answer is (on disk, or here when there is no disk to keep it). */
typedef struct
{
  char     *request_id;
  char     *answer_json;  /* NULL: in the outbox's store */
  guint8    request_digest[DIGEST_SIZE];
  /* The stream asked for last when the answer was taken, and whether that
   * stream had sent the request by then (neither outlives a restart). */
  guint     taken_on_stream;
  gboolean  listed_on_that_stream;
} Answered;

static void
answered_free (gpointer data)
{
  Answered *answered = data;

  g_free (answered->request_id);
  g_free (answered->answer_json);
  g_free (answered);
}

struct _ClarifyJsonBackend
{
  ClarifyStreamBackend  parent_instance;

  SoupSession          *session;         /* answers: they time out */
  SoupSession          *stream_session;  /* the event stream: stall detection instead */
  ClarifySseClient     *sse_client;      /* owned by the parent */
  char                 *authorization;
  ClarifyRecent        *answered;        /* request id → Answered */
  gboolean              answered_loaded; /* read back from the outbox's store */
  /* Ids held when the agent came back from an outage and not sent again
   * since: a 404 for one of them is the restart, not someone else. */
  GHashTable           *unconfirmed;
  /* Counts the streams asked for; the latest ids the current one sent. */
  guint                 stream_serial;
  ClarifyRecent        *stream_ids;
};

/* Test: the events URL itself is an event stream. */
const ClarifyProbeSpec clarify_json_probe = {
  NULL, CLARIFY_PROBE_AUTH_BEARER, NULL, "text/event-stream", NULL, NULL,
};

G_DEFINE_FINAL_TYPE (ClarifyJsonBackend, clarify_json_backend, CLARIFY_TYPE_STREAM_BACKEND)

enum {
  CONFIRMED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
clarify_json_backend_get_name (ClarifyJsonBackend *self)
{
  ClarifyConnection *connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));

  return connection ? clarify_connection_get_name (connection) : "?";
}

static char *clarify_json_backend_build_response_url (ClarifyJsonBackend  *self,
                                                      const char          *request_id,
                                                      GError             **error);
static SoupMessage *clarify_json_backend_post_new (ClarifyJsonBackend *self,
                                                   const char         *url,
                                                   char               *json);

/* A post whose reply changes nothing: a refusal, an answer sent again. */
static void
on_notice_posted (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GBytes) body = clarify_http_read_finish (SOUP_SESSION (source), result, NULL);
  SoupMessage *message = clarify_http_get_message (result);

  g_debug ("The agent replied HTTP %u", soup_message_get_status (message));
}

/* Answers taken are kept beside the answers the inbox's outbox keeps, so
 * that they outlive a restart as those do (none: in memory only). */
static ClarifyOutboxStore *
get_store (ClarifyJsonBackend *self)
{
  ClarifyInbox *inbox = clarify_backend_get_inbox (CLARIFY_BACKEND (self));

  return inbox != NULL ? clarify_outbox_get_store (clarify_inbox_get_outbox (inbox)) : NULL;
}

/* Tells a request sent again from a new one under the same id. */
static void
get_request_digest (ClarifyRequest *request,
                    guint8          digest[DIGEST_SIZE])
{
  g_autoptr(JsonNode) node = clarify_request_to_json (request);
  g_autofree char *text = clarify_json_to_string (node);
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize length = DIGEST_SIZE;

  g_checksum_update (checksum, (const guchar *) text, -1);
  g_checksum_get_digest (checksum, digest, &length);
}

static char *
digest_to_hex (const guint8 digest[DIGEST_SIZE])
{
  GString *hex = g_string_sized_new (2 * DIGEST_SIZE);

  for (guint i = 0; i < DIGEST_SIZE; i++)
    g_string_append_printf (hex, "%02x", digest[i]);

  return g_string_free (hex, FALSE);
}

static gboolean
digest_from_hex (const char *hex,
                 guint8      digest[DIGEST_SIZE])
{
  if (strlen (hex) != 2 * DIGEST_SIZE)
    return FALSE;

  for (guint i = 0; i < DIGEST_SIZE; i++)
    {
      int high = g_ascii_xdigit_value (hex[2 * i]);
      int low = g_ascii_xdigit_value (hex[2 * i + 1]);

      if (high < 0 || low < 0)
        return FALSE;
      digest[i] = (guint8) (high << 4 | low);
    }

  return TRUE;
}

/* Adds @answered as the newest; the oldest past the capacity goes, from
 * the disk too. */
static void
remember_answered (ClarifyJsonBackend *self,
                   Answered           *answered)
{
  ClarifyOutboxStore *store = get_store (self);
  Answered *oldest;

  if (store != NULL &&
      !clarify_recent_contains (self->answered, answered->request_id) &&
      clarify_recent_get_size (self->answered) == ANSWERED_KEPT &&
      (oldest = clarify_recent_peek_oldest (self->answered)) != NULL)
    clarify_outbox_store_drop_taken (store, clarify_json_backend_get_name (self), oldest->request_id);

  clarify_recent_add (self->answered, answered->request_id, answered);
}

static void
forget_answered (ClarifyJsonBackend *self,
                 const char         *request_id)
{
  ClarifyOutboxStore *store = get_store (self);

  if (store != NULL)
    clarify_outbox_store_drop_taken (store, clarify_json_backend_get_name (self), request_id);
  clarify_recent_remove (self->answered, request_id);
}

/* Once, before the table is first used: what an earlier run kept. */
static void
load_answered (ClarifyJsonBackend *self)
{
  ClarifyOutboxStore *store;
  g_autoptr(GPtrArray) taken = NULL;

  if (self->answered_loaded || (store = get_store (self)) == NULL)
    return;

  self->answered_loaded = TRUE;
  taken = clarify_outbox_store_load_taken (store, clarify_json_backend_get_name (self));
  for (guint i = 0; i < taken->len; i++)
    {
      ClarifyOutboxTaken *entry = g_ptr_array_index (taken, i);
      g_autofree Answered *answered = g_new0 (Answered, 1);

      /* The store sets aside a file whose digest is not one. */
      if (!digest_from_hex (entry->request_digest, answered->request_digest))
        continue;
      answered->request_id = g_steal_pointer (&entry->request_id);
      /* Oldest first: past the capacity the oldest go again. */
      remember_answered (self, g_steal_pointer (&answered));
    }
}

/* Keeps what the agent took: on disk when there is a store that takes it,
 * otherwise in memory. */
static void
keep_answered (ClarifyJsonBackend *self,
               Answered           *answered,
               const char         *answer_json)
{
  ClarifyOutboxStore *store = get_store (self);
  g_autofree char *digest = NULL;
  g_autoptr(GError) error = NULL;

  load_answered (self);
  if (store != NULL)
    {
      digest = digest_to_hex (answered->request_digest);
      if (clarify_outbox_store_keep_taken (store, clarify_json_backend_get_name (self), answered->request_id,
                                           digest, answer_json, &error))
        {
          remember_answered (self, answered);
          return;
        }
      g_warning ("Connection “%s”: cannot keep the answer the agent took on disk (%s); it is kept in "
                 "memory, and a request the agent sends again after a restart would be asked again",
                 clarify_json_backend_get_name (self), error->message);
      /* An earlier answer's file under the same id must not come back. */
      clarify_outbox_store_drop_taken (store, clarify_json_backend_get_name (self), answered->request_id);
    }

  answered->answer_json = g_strdup (answer_json);
  remember_answered (self, answered);
}

/* The request's id, when the event is an object that has one. */
static char *
dup_request_id (const char *data)
{
  g_autoptr(JsonNode) node = clarify_json_parse (data, -1, NULL);
  const char *id = node != NULL && JSON_NODE_HOLDS_OBJECT (node)
                     ? clarify_json_get_string_member (json_node_get_object (node), "id") : NULL;

  return id != NULL && *id != '\0' ? g_strdup (id) : NULL;
}

/* Tells the agent why its request is not shown, at the address its answer
 * would have gone to: {"id","outcome":"refused","error":{"code","message"}}
 * (docs/clarify-protocol.md). What it replies changes nothing. */
static void
post_refusal (ClarifyJsonBackend *self,
              const char         *request_id,
              const GError       *reason)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autofree char *url = clarify_json_backend_build_response_url (self, request_id, NULL);

  if (url == NULL)
    return;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, request_id);
  json_builder_set_member_name (builder, "outcome");
  json_builder_add_string_value (builder, "refused");
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  if (g_error_matches (reason, CLARIFY_ERROR, CLARIFY_ERROR_UNSAFE_PATTERN))
    json_builder_add_string_value (builder, "unsafe_pattern");
  else if (g_error_matches (reason, CLARIFY_ERROR, CLARIFY_ERROR_BUSY))
    json_builder_add_string_value (builder, "too_many_requests");
  else
    json_builder_add_string_value (builder, "invalid_request");
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, reason->message);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  message = clarify_json_backend_post_new (self, url, clarify_json_builder_to_string (builder));
  if (message != NULL)
    clarify_http_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, NULL,
                                      on_notice_posted, NULL);
}

/* An agent that lists a request whose answer it took (its list was behind,
 * or it lost the answer) gets that answer again rather than a second
 * dialog. The same id with other questions is a new request. */
static gboolean
resend_answer (ClarifyJsonBackend *self,
               ClarifyRequest     *request)
{
  const char *id = clarify_request_get_id (request);
  ClarifyOutboxStore *store = get_store (self);
  Answered *answered;
  guint8 digest[DIGEST_SIZE];
  g_autofree char *answer_json = NULL;
  g_autofree char *url = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  load_answered (self);
  answered = clarify_recent_lookup (self->answered, id);
  if (answered == NULL)
    return FALSE;

  get_request_digest (request, digest);
  if (memcmp (digest, answered->request_digest, DIGEST_SIZE) != 0)
    {
      forget_answered (self, id);
      return FALSE;
    }

  /* A stream asked for before the answer was taken lists what was pending
   * then: its first word of this request is older than the answer (as when
   * an answer kept across a restart is posted while the stream opens).
   * Only a repeat is the agent asking again. */
  if (answered->taken_on_stream == self->stream_serial && !answered->listed_on_that_stream)
    {
      answered->listed_on_that_stream = TRUE;
      g_debug ("Connection “%s”: request “%s” came in a listing older than its answer",
               clarify_json_backend_get_name (self), id);
      return TRUE;
    }

  if (answered->answer_json != NULL)
    answer_json = g_strdup (answered->answer_json);
  else if (store != NULL)
    answer_json = clarify_outbox_store_read_taken_answer (store, clarify_json_backend_get_name (self), id, &error);
  if (answer_json == NULL)
    {
      /* Better asked twice than left without an answer. The file stays
       * (the read may fail only for now); answering again replaces it. */
      g_warning ("Connection “%s”: the agent sent request “%s” again after it took the answer, "
                 "and the answer kept for it cannot be read (%s); asking again",
                 clarify_json_backend_get_name (self), id, error != NULL ? error->message : "not kept");
      clarify_recent_remove (self->answered, id);
      return FALSE;
    }

  g_message ("Connection “%s”: the agent sent request “%s” again after it took the answer; "
             "sent it the same answer again",
             clarify_json_backend_get_name (self), id);
  url = clarify_json_backend_build_response_url (self, id, NULL);
  if (url != NULL)
    message = clarify_json_backend_post_new (self, url, g_steal_pointer (&answer_json));
  if (message != NULL)
    clarify_http_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, NULL,
                                      on_notice_posted, NULL);

  return TRUE;
}

static void
clarify_json_backend_handle_request (ClarifyJsonBackend *self,
                                     const char         *data)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  request = clarify_request_new_from_data (data, -1, &error);
  if (request == NULL)
    {
      g_autofree char *id = dup_request_id (data);

      /* One bad request must not take the others down with it. */
      g_message ("Connection “%s”: ignored a request the agent sent: %s%s",
                 clarify_json_backend_get_name (self), error->message,
                 id != NULL ? " (the agent was told why)" : "");
      if (id != NULL)
        post_refusal (self, id, error);
      return;
    }

  g_hash_table_remove (self->unconfirmed, clarify_request_get_id (request));
  if (resend_answer (self, request))
    return;
  clarify_recent_add (self->stream_ids, clarify_request_get_id (request), NULL);

  /* Past the inbox's caps the agent hears so, and may send it again later. */
  if (!clarify_backend_add_request_full (CLARIFY_BACKEND (self), request, &error) &&
      g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_BUSY))
    post_refusal (self, clarify_request_get_id (request), error);
}

static void
clarify_json_backend_handle_withdraw (ClarifyJsonBackend *self,
                                      const char         *data)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  const char *id;
  const char *reason;

  node = clarify_json_parse (data, -1, &error);
  if (node == NULL)
    {
      g_message ("Connection “%s”: ignored a withdraw event: %s",
                 clarify_json_backend_get_name (self), error->message);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("Connection “%s”: ignored a withdraw event that is not a JSON object",
                 clarify_json_backend_get_name (self));
      return;
    }

  object = json_node_get_object (node);
  id = clarify_json_get_string_member (object, "id");
  reason = clarify_json_get_string_member (object, "reason");

  if (id == NULL)
    {
      g_message ("Connection “%s”: ignored a withdraw event without an id",
                 clarify_json_backend_get_name (self));
      return;
    }

  /* The agent's own words, if any, are data the UI shows as they are. */
  clarify_backend_withdraw_request (CLARIFY_BACKEND (self), id,
                                    CLARIFY_END_REASON_AGENT_WITHDREW, reason);
}

static void
clarify_json_backend_event (ClarifyStreamBackend *backend,
                            const char           *type,
                            const char           *data,
                            const char           *id)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (backend);

  if (g_strcmp0 (type, "request") == 0)
    clarify_json_backend_handle_request (self, data);
  else if (g_strcmp0 (type, "withdraw") == 0)
    clarify_json_backend_handle_withdraw (self, data);
  else
    g_debug ("Connection “%s”: ignored event “%s”", clarify_json_backend_get_name (self), type);
}

static void
clarify_json_backend_connected (ClarifyStreamBackend *backend)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (backend);
  GListModel *held;

  /* Nothing to fetch: the agent re-sends what is pending on every new
   * stream, and clarify_backend_add_request() drops what we already have. */
  g_debug ("Connection “%s”: stream open", clarify_json_backend_get_name (self));

  /* Unreachable since the last stream: it restarted, and what it does not
   * send again it may have lost. The protocol marks no end of that resend,
   * so the question stays until its answer meets a 404. */
  g_hash_table_remove_all (self->unconfirmed);
  if (!clarify_sse_client_came_back (self->sse_client) ||
      clarify_backend_get_inbox (CLARIFY_BACKEND (self)) == NULL)
    return;
  held = clarify_backend_get_requests (CLARIFY_BACKEND (self));
  for (guint i = 0; i < g_list_model_get_n_items (held); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (held, i);

      g_hash_table_add (self->unconfirmed, g_strdup (clarify_request_get_id (request)));
    }
}

/* POST <stream URL minus its last segment>/requests/<id>/response */
static char *
clarify_json_backend_build_response_url (ClarifyJsonBackend *self,
                                         const char         *request_id,
                                         GError            **error)
{
  g_autofree char *escaped_id = clarify_http_escape_segment (request_id, error);
  g_autofree char *directory = NULL;

  if (escaped_id == NULL)
    return NULL;

  /* RFC 3986 resolution drops the last segment and the query, which is
   * exactly "the stream URL's directory". The id is added after it, so
   * that resolution cannot treat it as a dot segment. */
  directory = g_uri_resolve_relative (clarify_sse_client_get_url (self->sse_client),
                                      "requests/", G_URI_FLAGS_NONE, error);
  if (directory == NULL)
    return NULL;

  return g_strconcat (directory, escaped_id, "/response", NULL);
}

/* A JSON POST to the agent, with its token; takes @json. NULL for a bad URL. */
static SoupMessage *
clarify_json_backend_post_new (ClarifyJsonBackend *self,
                               const char         *url,
                               char               *json)
{
  SoupMessage *message = soup_message_new ("POST", url);
  g_autoptr(GBytes) bytes = g_bytes_new_take (json, strlen (json));

  if (message == NULL)
    return NULL;

  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");
  if (self->authorization != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "Authorization", self->authorization);

  return message;
}

static void
log_rejection (ClarifyJsonBackend *self,
               SoupMessage        *message,
               GBytes             *body)
{
  g_autofree char *text = clarify_http_excerpt (body, MAX_LOGGED_BODY_CHARS);

  /* A rejected answer is a bug on one side or the other: keep the evidence. */
  g_message ("Connection “%s”: the agent rejected the answer (HTTP %u): %s",
             clarify_json_backend_get_name (self), soup_message_get_status (message), text);
}

typedef struct
{
  char     *request_id;
  char     *answer_json;
  Answered *answered;
} Delivery;

static void
delivery_free (gpointer data)
{
  Delivery *delivery = data;

  g_free (delivery->request_id);
  g_free (delivery->answer_json);
  g_clear_pointer (&delivery->answered, answered_free);
  g_free (delivery);
}

static void
on_response_posted (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  SoupSession *session = SOUP_SESSION (source);
  g_autoptr(GTask) task = user_data;
  ClarifyJsonBackend *self = g_task_get_source_object (task);
  Delivery *delivery = g_task_get_task_data (task);
  SoupMessage *message = clarify_http_get_message (result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *summary = NULL;

  body = clarify_http_read_finish (session, result, &error);
  if (body != NULL && !clarify_http_check_status (message, &error) &&
      g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED))
    log_rejection (self, message, body);
  if (error == NULL)
    reply = clarify_http_parse_json (message, body, &error);
  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE) &&
      g_hash_table_contains (self->unconfirmed, delivery->request_id))
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED,
                               "the agent restarted: %s", error->message);
      return;
    }
  if (reply == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The agent's summary of what it received, if it gives one. */
  if (JSON_NODE_HOLDS_OBJECT (reply))
    summary = clarify_json_get_string_member (json_node_get_object (reply), "received");
  if (summary != NULL)
    g_signal_emit (self, signals[CONFIRMED], 0, delivery->request_id, summary);
  delivery->answered->taken_on_stream = self->stream_serial;
  delivery->answered->listed_on_that_stream = clarify_recent_contains (self->stream_ids, delivery->request_id);
  keep_answered (self, g_steal_pointer (&delivery->answered), delivery->answer_json);

  g_task_return_boolean (task, TRUE);
}

static void
clarify_json_backend_deliver_async (ClarifyBackend      *backend,
                                    ClarifyRequest      *request,
                                    ClarifyResponse     *response,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (backend);
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  Delivery *delivery;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_json_backend_deliver_async);
  delivery = g_new0 (Delivery, 1);
  delivery->request_id = g_strdup (clarify_request_get_id (request));
  g_task_set_task_data (task, delivery, delivery_free);

  url = clarify_json_backend_build_response_url (self, clarify_request_get_id (request), &error);
  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  node = clarify_response_to_json (response);
  delivery->answered = g_new0 (Answered, 1);
  delivery->answered->request_id = g_strdup (clarify_request_get_id (request));
  get_request_digest (request, delivery->answered->request_digest);
  delivery->answer_json = clarify_json_to_string (node);
  if (url != NULL)
    message = clarify_json_backend_post_new (self, url, g_strdup (delivery->answer_json));
  if (message == NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_PROTOCOL,
                               "Cannot build the answer URL from “%s”: %s",
                               clarify_sse_client_get_url (self->sse_client),
                               error ? error->message : "invalid URL");
      return;
    }

  clarify_http_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, cancellable,
                                    on_response_posted, g_steal_pointer (&task));
}

/* A new stream is asked for: what it lists is composed from now on. */
static void
on_stream_state (ClarifyJsonBackend *self)
{
  if (clarify_sse_client_get_state (self->sse_client) != CLARIFY_CONNECTION_STATE_CONNECTING)
    return;

  self->stream_serial++;
  clarify_recent_free (self->stream_ids);
  self->stream_ids = clarify_recent_new (CLARIFY_RECENT_FINISHED_IDS, NULL);
}

static void
clarify_json_backend_constructed (GObject *object)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (object);
  ClarifyConnection *connection;
  g_autoptr(SoupCookieJar) jar = NULL;
  g_autoptr(GError) error = NULL;
  char *stored = NULL;
  const char *token;

  G_OBJECT_CLASS (clarify_json_backend_parent_class)->constructed (object);

  connection = clarify_backend_get_connection (CLARIFY_BACKEND (self));
  g_return_if_fail (connection != NULL);

  /* One cookie jar per backend: its cookies belong to this connection only.
   * A quiet agent may send nothing for minutes, so the stream's session has
   * no I/O timeout (libsoup's default of 60 s would cut it and reconnect). */
  jar = soup_cookie_jar_new ();
  self->session = soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                                 "timeout", ANSWER_TIMEOUT_S,
                                                 NULL);
  self->stream_session = soup_session_new_with_options ("user-agent", "Clarify/" PACKAGE_VERSION,
                                                        "timeout", 0,
                                                        NULL);
  soup_session_add_feature (self->session, SOUP_SESSION_FEATURE (jar));
  soup_session_add_feature (self->stream_session, SOUP_SESSION_FEATURE (jar));

  self->sse_client = clarify_stream_backend_open (CLARIFY_STREAM_BACKEND (self), self->stream_session,
                                                  clarify_connection_get_url (connection));
  g_signal_connect_object (self->sse_client, "notify::state", G_CALLBACK (on_stream_state), self,
                           G_CONNECT_SWAPPED);

  /* The token the connection editor keeps in the keyring, or an older
   * connection's "token" option. */
  stored = clarify_backend_dup_secret (CLARIFY_BACKEND (self), &error);
  if (error != NULL)
    g_message ("Connection “%s”: cannot read its token: %s", clarify_connection_get_name (connection), error->message);
  token = stored != NULL ? stored : clarify_connection_get_option (connection, "token");
  if (token != NULL && *token != '\0')
    {
      self->authorization = g_strconcat ("Bearer ", token, NULL);
      clarify_sse_client_set_header (self->sse_client, "Authorization", self->authorization);
    }
  clarify_secret_free (stored);
}

static void
clarify_json_backend_dispose (GObject *object)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (object);

  clarify_stream_backend_close (CLARIFY_STREAM_BACKEND (self));
  self->sse_client = NULL;
  clarify_http_clear_session (&self->session);
  clarify_http_clear_session (&self->stream_session);

  G_OBJECT_CLASS (clarify_json_backend_parent_class)->dispose (object);
}

static void
clarify_json_backend_finalize (GObject *object)
{
  ClarifyJsonBackend *self = CLARIFY_JSON_BACKEND (object);

  g_clear_pointer (&self->authorization, g_free);
  g_clear_pointer (&self->answered, clarify_recent_free);
  g_clear_pointer (&self->unconfirmed, g_hash_table_unref);
  g_clear_pointer (&self->stream_ids, clarify_recent_free);

  G_OBJECT_CLASS (clarify_json_backend_parent_class)->finalize (object);
}

static void
clarify_json_backend_class_init (ClarifyJsonBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ClarifyBackendClass *backend_class = CLARIFY_BACKEND_CLASS (klass);
  ClarifyStreamBackendClass *stream_class = CLARIFY_STREAM_BACKEND_CLASS (klass);

  object_class->constructed = clarify_json_backend_constructed;
  object_class->dispose = clarify_json_backend_dispose;
  object_class->finalize = clarify_json_backend_finalize;

  backend_class->deliver_async = clarify_json_backend_deliver_async;
  /* The answer goes to requests/ID/response beside the stream: the id is all it needs. */
  backend_class->save_delivery = clarify_backend_save_nothing;
  backend_class->restore_delivery = clarify_backend_restore_nothing;

  stream_class->event = clarify_json_backend_event;
  stream_class->connected = clarify_json_backend_connected;

  /**
   * ClarifyJsonBackend::confirmed:
   * @request_id: the answered request
   * @summary: the agent's own words for what it received
   */
  signals[CONFIRMED] =
    g_signal_new ("confirmed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
clarify_json_backend_init (ClarifyJsonBackend *self)
{
  self->answered = clarify_recent_new (ANSWERED_KEPT, answered_free);
  self->unconfirmed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stream_ids = clarify_recent_new (CLARIFY_RECENT_FINISHED_IDS, NULL);
}

ClarifySseClient *
clarify_json_backend_get_sse_client (ClarifyJsonBackend *self)
{
  g_return_val_if_fail (CLARIFY_IS_JSON_BACKEND (self), NULL);

  return self->sse_client;
}
