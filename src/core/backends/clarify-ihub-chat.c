/* clarify-ihub-chat.c
 *
 * One turn, as iHub's web client runs it: GET the chat's stream, POST the
 * message once `connected` arrives, read events until `done` or `error`,
 * then drop the stream. The POST returns only when the turn is over, so
 * nothing waits for it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-ihub-chat-private.h"
#include "clarify-ihub-codec.h"
#include "clarify-json.h"
#include "clarify-private-file.h"
#include "clarify-ihub-stream.h"

typedef struct _Turn Turn;

struct _ClarifyIhubChat
{
  GObject             parent_instance;

  ClarifyIhubBackend *backend; /* weak: the backend owns its chats */
  char               *id;
  char               *app_id;
  char               *model_id;
  char               *language;
  JsonArray          *messages;

  /* The pending clarification: the event, the model's call and the request. */
  JsonObject         *clarification;
  JsonObject         *tool_input;
  ClarifyRequest     *request;

  Turn               *turn;
};

G_DEFINE_FINAL_TYPE (ClarifyIhubChat, clarify_ihub_chat, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  TEXT,
  CLARIFICATION,
  ERROR,
  TURN_ENDED,
  EVENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* One turn: owned by the chat while it runs. */
struct _Turn
{
  ClarifyIhubChat   *chat;
  ClarifyIhubStream *stream;
  JsonObject        *message;      /* the user message this turn sends */
  JsonNode          *response;     /* its clarificationResponse, or NULL */
  GTask             *ack;          /* an answer's delivery, until the server took it */
  GString           *text;
  JsonObject        *tool_input;   /* the last ask_user call of this turn */
  ClarifyIhubEnd     tool_error;
  char              *tool_error_text;
  gboolean           has_tool_error;
  gboolean           accepted;
  gboolean           refused;      /* its stream's port refused the connection */
};

static void turn_end (Turn *turn, ClarifyIhubEnd end, const char *detail);

static void
turn_free (Turn *turn)
{
  if (turn->stream != NULL)
    {
      g_signal_handlers_disconnect_by_data (turn->stream, turn);
      clarify_ihub_stream_close (turn->stream);
      g_object_unref (turn->stream);
    }
  g_clear_pointer (&turn->message, json_object_unref);
  g_clear_pointer (&turn->response, json_node_unref);
  g_clear_object (&turn->ack);
  g_string_free (turn->text, TRUE);
  g_clear_pointer (&turn->tool_input, json_object_unref);
  g_free (turn->tool_error_text);
  g_free (turn);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Turn, turn_free)

static void
replace_str (char       **field,
             const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

gboolean
clarify_ihub_end_is_error (ClarifyIhubEnd end)
{
  return end != CLARIFY_IHUB_END_COMPLETE && end != CLARIFY_IHUB_END_CLARIFICATION &&
         end != CLARIFY_IHUB_END_STOPPED;
}

/* Keeping it */

char *
clarify_ihub_chat_dup_dir (const char *connection_name)
{
  return g_build_filename (g_get_user_data_dir (), "clarify", "ihub", connection_name, NULL);
}

static const char *
connection_name (ClarifyIhubChat *self)
{
  ClarifyConnection *connection = self->backend != NULL
                                  ? clarify_backend_get_connection (CLARIFY_BACKEND (self->backend)) : NULL;

  return connection != NULL ? clarify_connection_get_name (connection) : "?";
}

static void
save (ClarifyIhubChat *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = clarify_ihub_chat_dup_dir (connection_name (self));
  g_autofree char *name = g_strconcat (self->id, ".json", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "chatId");
  json_builder_add_string_value (builder, self->id);
  json_builder_set_member_name (builder, "appId");
  json_builder_add_string_value (builder, self->app_id);
  if (self->model_id != NULL)
    {
      json_builder_set_member_name (builder, "modelId");
      json_builder_add_string_value (builder, self->model_id);
    }
  json_builder_set_member_name (builder, "messages");
  json_builder_add_value (builder, json_node_init_array (json_node_alloc (), self->messages));
  if (self->clarification != NULL)
    {
      json_builder_set_member_name (builder, "clarification");
      json_builder_add_value (builder, json_node_init_object (json_node_alloc (), self->clarification));
    }
  if (self->clarification != NULL && self->tool_input != NULL)
    {
      json_builder_set_member_name (builder, "toolInput");
      json_builder_add_value (builder, json_node_init_object (json_node_alloc (), self->tool_input));
    }
  json_builder_end_object (builder);
  text = clarify_json_builder_to_string (builder);

  /* Only the user's: a conversation may hold anything they typed. */
  if (!clarify_private_file_write (path, text, -1, &error))
    g_message ("Connection “%s”: cannot keep conversation %s: %s", connection_name (self), self->id,
               error->message);
}

/* State */

ClarifyIhubChatState
clarify_ihub_chat_get_state (ClarifyIhubChat *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), CLARIFY_IHUB_CHAT_IDLE);

  if (self->turn != NULL)
    return CLARIFY_IHUB_CHAT_RUNNING;
  return self->clarification != NULL ? CLARIFY_IHUB_CHAT_ASKING : CLARIFY_IHUB_CHAT_IDLE;
}

static void
forget_clarification (ClarifyIhubChat *self,
                      gboolean         withdraw)
{
  if (withdraw && self->request != NULL && self->backend != NULL)
    clarify_ihub_backend_drop_clarification (self->backend, clarify_request_get_id (self->request));
  g_clear_object (&self->request);
  g_clear_pointer (&self->clarification, json_object_unref);
  g_clear_pointer (&self->tool_input, json_object_unref);
}

static gboolean
make_request (ClarifyIhubChat  *self,
              GError          **error)
{
  g_autoptr(ClarifyRequest) request = clarify_ihub_request_new (self->clarification, self->tool_input, error);

  if (request == NULL)
    return FALSE;

  g_set_object (&self->request, request);
  if (self->backend != NULL)
    clarify_ihub_backend_add_clarification (self->backend, self, request);
  return TRUE;
}

void
clarify_ihub_chat_ask_again (ClarifyIhubChat *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CLARIFY_IS_IHUB_CHAT (self));

  if (self->clarification == NULL || self->turn != NULL)
    return;
  if (self->request != NULL && clarify_request_get_state (self->request) != CLARIFY_REQUEST_DONE)
    return;
  if (!make_request (self, &error))
    g_message ("Connection “%s”: cannot ask %s again: %s", connection_name (self), self->id, error->message);
}

/* Turn: the end */

static GError *
end_to_error (ClarifyIhubEnd  end,
              gboolean        refused,
              const char     *detail)
{
  int code;

  switch (end)
    {
    case CLARIFY_IHUB_END_STREAM_CLOSED:
    case CLARIFY_IHUB_END_CONNECTION_LOST:
      code = refused ? CLARIFY_ERROR_UNREACHABLE : CLARIFY_ERROR_TRANSIENT;
      break;
    case CLARIFY_IHUB_END_LOGIN_REQUIRED:
    case CLARIFY_IHUB_END_LOGIN_FAILED:
    case CLARIFY_IHUB_END_ACCESS_DENIED:
      code = CLARIFY_ERROR_AUTH;
      break;
    case CLARIFY_IHUB_END_SERVER_ERROR:
      code = CLARIFY_ERROR_REJECTED;
      break;
    default:
      code = CLARIFY_ERROR_GONE;
      break;
    }

  return g_error_new (CLARIFY_ERROR, code, "%s", detail != NULL ? detail : "the turn ended early");
}

static void
turn_end (Turn           *turn,
          ClarifyIhubEnd  end,
          const char     *detail)
{
  g_autoptr(ClarifyIhubChat) self = g_object_ref (turn->chat);
  g_autoptr(Turn) owned = g_steal_pointer (&self->turn);
  gboolean told = FALSE;

  g_return_if_fail (owned == turn);
  g_signal_handlers_disconnect_by_data (turn->stream, turn);
  clarify_ihub_stream_close (turn->stream);

  /* A tool call the server refused outlives the text that follows it. */
  if (end == CLARIFY_IHUB_END_COMPLETE && turn->has_tool_error)
    {
      /* ::error said so when it happened. */
      end = turn->tool_error;
      detail = turn->tool_error_text;
      told = TRUE;
    }

  if (turn->accepted)
    {
      JsonObject *reply = json_object_new ();

      json_object_set_string_member (reply, "role", "assistant");
      json_object_set_string_member (reply, "content", turn->text->str);
      json_array_add_object_element (self->messages, reply);
    }

  if (turn->ack != NULL)
    {
      g_task_return_error (turn->ack, end_to_error (end, turn->refused, detail));
      g_clear_object (&turn->ack);
    }

  if (self->clarification != NULL && end != CLARIFY_IHUB_END_CLARIFICATION)
    {
      /* An answer the server never took may be sent again. */
      if (turn->response != NULL && !turn->accepted)
        clarify_ihub_chat_ask_again (self);
      else if (turn->accepted)
        forget_clarification (self, FALSE);
    }

  save (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  if (clarify_ihub_end_is_error (end) && !told)
    g_signal_emit (self, signals[ERROR], 0, end, detail);
  g_signal_emit (self, signals[TURN_ENDED], 0, end, detail);
}

static void
turn_accepted (Turn *turn)
{
  ClarifyIhubChat *self = turn->chat;

  if (turn->accepted)
    return;
  turn->accepted = TRUE;
  json_array_add_object_element (self->messages, json_object_ref (turn->message));
  if (turn->response != NULL)
    forget_clarification (self, FALSE);
  if (turn->ack != NULL)
    {
      g_task_return_boolean (turn->ack, TRUE);
      g_clear_object (&turn->ack);
    }
}

/* Turn: the events */

static void
on_tool_end (Turn       *turn,
             JsonObject *event)
{
  JsonObject *output = clarify_json_get_object_member (event, "toolOutput");
  JsonNode *error = json_object_get_member (event, "error");

  if (error == NULL || !JSON_NODE_HOLDS_VALUE (error) || !json_node_get_boolean (error))
    return;

  turn->has_tool_error = TRUE;
  turn->tool_error = g_strcmp0 (clarify_json_get_string_member (output, "code"), "CLARIFICATION_LIMIT_REACHED") == 0
                     ? CLARIFY_IHUB_END_LIMIT_REACHED : CLARIFY_IHUB_END_INVALID_QUESTION;
  g_free (turn->tool_error_text);
  turn->tool_error_text = g_strdup (clarify_json_get_string_member (output, "message"));
  g_signal_emit (turn->chat, signals[ERROR], 0, turn->tool_error, turn->tool_error_text);
}

static void
on_clarification (Turn       *turn,
                  JsonObject *event)
{
  ClarifyIhubChat *self = turn->chat;
  g_autoptr(GError) error = NULL;

  forget_clarification (self, TRUE);
  self->clarification = json_object_ref (event);
  self->tool_input = turn->tool_input != NULL ? json_object_ref (turn->tool_input) : NULL;
  if (!make_request (self, &error))
    {
      g_message ("Connection “%s”: cannot show a clarification: %s", connection_name (self), error->message);
      forget_clarification (self, FALSE);
      turn->has_tool_error = TRUE;
      turn->tool_error = CLARIFY_IHUB_END_INVALID_QUESTION;
      g_free (turn->tool_error_text);
      turn->tool_error_text = g_strdup (error->message);
      g_signal_emit (self, signals[ERROR], 0, turn->tool_error, turn->tool_error_text);
      return;
    }

  g_signal_emit (self, signals[CLARIFICATION], 0, self->request);
}

static void turn_post (Turn *turn);

static void
on_event (Turn       *turn,
          const char *type,
          JsonObject *event)
{
  ClarifyIhubChat *self = turn->chat;

  if (g_str_equal (type, "connected"))
    turn_post (turn);
  else if (g_str_equal (type, "session.start"))
    turn_accepted (turn);
  else if (g_str_equal (type, "chunk"))
    {
      const char *content = clarify_json_get_string_member (event, "content");

      if (content != NULL)
        {
          turn_accepted (turn);
          g_string_append (turn->text, content);
          g_signal_emit (self, signals[TEXT], 0, content);
        }
    }
  else if (g_str_equal (type, "tool.call.start"))
    {
      JsonObject *input = clarify_json_get_object_member (event, "toolInput");

      /* The model works on the message: taken, with or without a
       * session.start before. */
      turn_accepted (turn);

      if (g_strcmp0 (clarify_json_get_string_member (event, "toolName"), "ask_user") == 0 && input != NULL)
        {
          g_clear_pointer (&turn->tool_input, json_object_unref);
          turn->tool_input = json_object_ref (input);
        }
    }
  else if (g_str_equal (type, "clarification"))
    {
      turn_accepted (turn);
      on_clarification (turn, event);
    }
  else if (g_str_equal (type, "tool.call.end"))
    on_tool_end (turn, event);
  else if (g_str_equal (type, "error"))
    {
      const char *message = clarify_json_get_string_member (event, "message");

      turn_end (turn, CLARIFY_IHUB_END_SERVER_ERROR,
                message != NULL ? message : clarify_json_get_string_member (event, "error"));
    }
  /* The server stopped the stream (a shutdown, or a /stop we did not send):
   * an answer it never took is sent again, not taken as answered elsewhere. */
  else if (g_str_equal (type, "disconnected"))
    turn_end (turn, turn->response != NULL && !turn->accepted ? CLARIFY_IHUB_END_CONNECTION_LOST
                                                               : CLARIFY_IHUB_END_STOPPED, NULL);
  else if (g_str_equal (type, "done"))
    turn_end (turn, self->clarification != NULL && self->request != NULL &&
                    g_strcmp0 (clarify_json_get_string_member (event, "finishReason"), "clarification") == 0
                    ? CLARIFY_IHUB_END_CLARIFICATION : CLARIFY_IHUB_END_COMPLETE, NULL);
}

static void
stream_event_cb (ClarifyIhubStream *stream,
                 const char        *type,
                 const char        *data,
                 Turn              *turn)
{
  g_autoptr(JsonNode) node = NULL;

  g_signal_emit (turn->chat, signals[EVENT], 0, type, data);
  node = clarify_json_parse (data, -1, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_debug ("iHub chat %s: ignored a “%s” event that is not a JSON object", turn->chat->id, type);
      return;
    }
  on_event (turn, type, json_node_get_object (node));
}

static void
stream_failed_cb (ClarifyIhubStream *stream,
                  ClarifyIhubEnd     end,
                  const char        *detail,
                  Turn              *turn)
{
  turn->refused = clarify_ihub_stream_get_refused (stream);
  turn_end (turn, end, detail);
}

static char *
chat_path (ClarifyIhubChat *self,
           const char      *tail)
{
  /* clarify_ihub_backend_open_chat() refused ids that cannot be escaped. */
  g_autofree char *app = clarify_http_escape_segment (self->app_id, NULL);
  g_autofree char *chat = clarify_http_escape_segment (self->id, NULL);

  g_return_val_if_fail (app != NULL && chat != NULL, NULL);

  return g_strconcat ("/api/apps/", app, "/chat/", chat, tail, NULL);
}

static void
turn_post (Turn *turn)
{
  ClarifyIhubChat *self = turn->chat;
  g_autofree char *body = clarify_ihub_body_new (self->messages, turn->message, self->model_id,
                                                 self->language, turn->response);

  clarify_ihub_stream_post (turn->stream, body);
}

static void
turn_start (ClarifyIhubChat *self,
            JsonObject      *message,
            JsonNode        *response,
            GTask           *ack)
{
  g_autofree char *path = chat_path (self, "");
  Turn *turn = g_new0 (Turn, 1);

  turn->chat = self;
  turn->stream = clarify_ihub_stream_new (self->backend, path);
  turn->message = message;
  turn->response = response;
  turn->ack = ack;
  turn->text = g_string_new (NULL);
  self->turn = turn;
  g_signal_connect (turn->stream, "event", G_CALLBACK (stream_event_cb), turn);
  g_signal_connect (turn->stream, "failed", G_CALLBACK (stream_failed_cb), turn);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);

  clarify_ihub_stream_open (turn->stream);
}

gboolean
clarify_ihub_chat_send (ClarifyIhubChat *self,
                        const char      *text)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->turn != NULL || self->backend == NULL)
    return FALSE;

  /* A new message instead of an answer: the question is moot. */
  forget_clarification (self, TRUE);
  turn_start (self, clarify_ihub_user_message_new (self->messages, text), NULL, NULL);
  return TRUE;
}

void
clarify_ihub_chat_answer_async (ClarifyIhubChat     *self,
                                ClarifyRequest      *request,
                                ClarifyResponse     *response,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  JsonObject *message;
  JsonNode *answer;

  g_task_set_source_tag (task, clarify_ihub_chat_answer_async);

  if (self->clarification == NULL || self->request != request)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_GONE, "the question is no longer asked");
      return;
    }
  if (self->turn != NULL)
    {
      g_task_return_new_error (task, CLARIFY_ERROR, CLARIFY_ERROR_TRANSIENT, "a turn is running");
      return;
    }
  message = clarify_ihub_answer_message_new (self->messages, request, self->clarification, response,
                                            &answer, &error);
  if (message == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  turn_start (self, message, answer, g_steal_pointer (&task));
}

gboolean
clarify_ihub_chat_answer_finish (ClarifyIhubChat  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
clarify_ihub_chat_stop (ClarifyIhubChat *self)
{
  g_autofree char *path = NULL;
  g_autoptr(SoupMessage) message = NULL;

  g_return_if_fail (CLARIFY_IS_IHUB_CHAT (self));

  if (self->turn == NULL)
    return;

  /* The server aborts the model's call; we need not wait for it. */
  path = chat_path (self, "/stop");
  message = clarify_ihub_backend_new_message (self->backend, SOUP_METHOD_POST, path, "{}");
  clarify_http_send_and_read_async (clarify_ihub_backend_get_session (self->backend), message,
                                    G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  turn_end (self->turn, CLARIFY_IHUB_END_STOPPED, NULL);
}

void
clarify_ihub_chat_shutdown (ClarifyIhubChat *self)
{
  g_return_if_fail (CLARIFY_IS_IHUB_CHAT (self));

  if (self->turn == NULL)
    return;

  /* Clarify stops, not the server: an answer it has not taken is neither
   * refused nor answered elsewhere, and is not the user's to give again. */
  if (self->turn->ack != NULL)
    {
      g_autoptr(GTask) ack = g_steal_pointer (&self->turn->ack);

      g_task_return_new_error (ack, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the connection stopped");
    }
  if (self->turn != NULL)
    turn_end (self->turn, CLARIFY_IHUB_END_STOPPED, NULL);
}

/* The object */

const char *
clarify_ihub_chat_get_id (ClarifyIhubChat *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), NULL);

  return self->id;
}

const char *
clarify_ihub_chat_get_app_id (ClarifyIhubChat *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), NULL);

  return self->app_id;
}

ClarifyRequest *
clarify_ihub_chat_get_clarification (ClarifyIhubChat *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), NULL);

  return self->clarification != NULL ? self->request : NULL;
}

guint
clarify_ihub_chat_get_n_messages (ClarifyIhubChat *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), 0);

  return json_array_get_length (self->messages);
}

const char *
clarify_ihub_chat_get_message (ClarifyIhubChat  *self,
                               guint             position,
                               const char      **role)
{
  JsonObject *message;

  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), NULL);
  g_return_val_if_fail (position < json_array_get_length (self->messages), NULL);

  message = json_array_get_object_element (self->messages, position);
  if (role != NULL)
    *role = clarify_json_get_string_member (message, "role");
  return clarify_json_get_string_member (message, "content");
}

void
clarify_ihub_chat_set_model_id (ClarifyIhubChat *self,
                                const char      *model_id)
{
  g_return_if_fail (CLARIFY_IS_IHUB_CHAT (self));

  replace_str (&self->model_id, model_id);
}

const char *
clarify_ihub_chat_get_model_id (ClarifyIhubChat *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), NULL);

  return self->model_id;
}

void
clarify_ihub_chat_set_language (ClarifyIhubChat *self,
                                const char      *language)
{
  g_return_if_fail (CLARIFY_IS_IHUB_CHAT (self));
  g_return_if_fail (language != NULL);

  replace_str (&self->language, language);
}

const char *
clarify_ihub_chat_get_language (ClarifyIhubChat *self)
{
  g_return_val_if_fail (CLARIFY_IS_IHUB_CHAT (self), NULL);

  return self->language;
}

ClarifyIhubChat *
clarify_ihub_chat_new (ClarifyIhubBackend *backend,
                       const char         *app_id,
                       const char         *chat_id)
{
  ClarifyIhubChat *self;

  g_return_val_if_fail (CLARIFY_IS_IHUB_BACKEND (backend), NULL);
  g_return_val_if_fail (app_id != NULL, NULL);

  self = g_object_new (CLARIFY_TYPE_IHUB_CHAT, NULL);
  self->backend = backend;
  g_object_add_weak_pointer (G_OBJECT (backend), (gpointer *) &self->backend);
  self->app_id = g_strdup (app_id);
  /* As the web client names them. */
  if (chat_id != NULL)
    self->id = g_strdup (chat_id);
  else
    {
      g_autofree char *uuid = g_uuid_string_random ();

      self->id = g_strconcat ("chat-", uuid, NULL);
    }

  return self;
}

ClarifyIhubChat *
clarify_ihub_chat_new_from_file (ClarifyIhubBackend  *backend,
                                 const char          *path,
                                 GError             **error)
{
  g_autoptr(ClarifyIhubChat) self = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  JsonObject *object;
  JsonArray *messages;
  const char *chat_id;
  const char *app_id;

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  node = clarify_json_parse (text, -1, error);
  if (node == NULL)
    return NULL;

  object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  chat_id = clarify_json_get_string_member (object, "chatId");
  app_id = clarify_json_get_string_member (object, "appId");
  messages = clarify_json_get_array_member (object, "messages");
  if (chat_id == NULL || app_id == NULL || messages == NULL)
    {
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_INVALID, "%s is not a conversation", path);
      return NULL;
    }

  self = clarify_ihub_chat_new (backend, app_id, chat_id);
  replace_str (&self->model_id, clarify_json_get_string_member (object, "modelId"));
  g_clear_pointer (&self->messages, json_array_unref);
  self->messages = json_array_ref (messages);
  if (clarify_json_get_object_member (object, "clarification") != NULL)
    {
      JsonObject *tool_input = clarify_json_get_object_member (object, "toolInput");

      self->clarification = json_object_ref (clarify_json_get_object_member (object, "clarification"));
      self->tool_input = tool_input != NULL ? json_object_ref (tool_input) : NULL;
    }

  return g_steal_pointer (&self);
}

static void
clarify_ihub_chat_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  ClarifyIhubChat *self = CLARIFY_IHUB_CHAT (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, clarify_ihub_chat_get_state (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
clarify_ihub_chat_dispose (GObject *object)
{
  ClarifyIhubChat *self = CLARIFY_IHUB_CHAT (object);

  if (self->turn != NULL)
    {
      /* No signal from a chat that goes. */
      g_autoptr(Turn) turn = g_steal_pointer (&self->turn);
      g_autoptr(GTask) ack = g_steal_pointer (&turn->ack);

      if (ack != NULL)
        g_task_return_new_error (ack, CLARIFY_ERROR, CLARIFY_ERROR_GONE, "the conversation is gone");
    }
  if (self->backend != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->backend), (gpointer *) &self->backend);
  self->backend = NULL;
  g_clear_object (&self->request);

  G_OBJECT_CLASS (clarify_ihub_chat_parent_class)->dispose (object);
}

static void
clarify_ihub_chat_finalize (GObject *object)
{
  ClarifyIhubChat *self = CLARIFY_IHUB_CHAT (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->app_id, g_free);
  g_clear_pointer (&self->model_id, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->messages, json_array_unref);
  g_clear_pointer (&self->clarification, json_object_unref);
  g_clear_pointer (&self->tool_input, json_object_unref);

  G_OBJECT_CLASS (clarify_ihub_chat_parent_class)->finalize (object);
}

static void
clarify_ihub_chat_class_init (ClarifyIhubChatClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = clarify_ihub_chat_get_property;
  object_class->dispose = clarify_ihub_chat_dispose;
  object_class->finalize = clarify_ihub_chat_finalize;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       CLARIFY_TYPE_IHUB_CHAT_STATE, CLARIFY_IHUB_CHAT_IDLE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[TEXT] =
    g_signal_new ("text", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[CLARIFICATION] =
    g_signal_new ("clarification", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CLARIFY_TYPE_REQUEST);
  signals[ERROR] =
    g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_IHUB_END, G_TYPE_STRING);
  signals[TURN_ENDED] =
    g_signal_new ("turn-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, CLARIFY_TYPE_IHUB_END, G_TYPE_STRING);
  signals[EVENT] =
    g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
clarify_ihub_chat_init (ClarifyIhubChat *self)
{
  const char *language = g_get_language_names ()[0];

  self->messages = json_array_new ();
  /* "de_DE.UTF-8" → "de"; C and POSIX are English. */
  self->language = g_strndup (language, strcspn (language, "_.@"));
  if (g_str_equal (self->language, "C") || g_str_equal (self->language, "POSIX"))
    replace_str (&self->language, "en");
}
