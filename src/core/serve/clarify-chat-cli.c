/* clarify-chat-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>

#include "clarify-chat-cli.h"
#include "clarify-cli.h"
#include "clarify-cli-private.h"
#include "clarify-connection-store.h"
#include "clarify-error.h"
#include "clarify-http.h"
#include "clarify-ihub-backend.h"
#include "clarify-ihub-chat-private.h"
#include "clarify-inbox.h"
#include "clarify-json.h"

typedef struct
{
  GMainLoop          *loop;
  ClarifyIhubBackend *backend;
  ClarifyIhubChat    *chat;
  ClarifyDbusApi     *app;
  char               *app_id;
  char               *chat_id;
  char               *model;
  char               *text;
  SoupMessage        *stop_message;
  guint               sigint_id;
  gboolean            json;
  gboolean            asking;
  gboolean            ends_in_newline;
  int                 status;
} Chat;

static void
quit (Chat *chat,
      int   status)
{
  chat->status = status;
  g_main_loop_quit (chat->loop);
}

/* The words for a turn's end: core says it with a code. */
static char *
describe_end (ClarifyIhubEnd  end,
              const char     *detail)
{
  switch (end)
    {
    case CLARIFY_IHUB_END_INVALID_QUESTION:
      /* Translators: %s is the server's reason, in English */
      return g_strdup_printf (_("The model asked a question that cannot be shown: %s"), detail ? detail : "?");
    case CLARIFY_IHUB_END_LIMIT_REACHED:
      return g_strdup (_("The model has asked as many questions as this conversation allows."));
    case CLARIFY_IHUB_END_SERVER_ERROR:
      /* Translators: %s is the server's message */
      return g_strdup_printf (_("The server reported an error: %s"), detail ? detail : "?");
    case CLARIFY_IHUB_END_STREAM_CLOSED:
      return g_strdup (_("The server closed the conversation’s stream before the answer was complete."));
    case CLARIFY_IHUB_END_CONNECTION_LOST:
      /* Translators: %s says why */
      return g_strdup_printf (_("The connection to the server was lost: %s"), detail ? detail : _("no reply"));
    case CLARIFY_IHUB_END_LOGIN_REQUIRED:
      return g_strdup (_("The server wants a login. Set a username and store the password with “clarify set-password”."));
    case CLARIFY_IHUB_END_LOGIN_FAILED:
      return g_strdup (_("The server refused the username, password or token."));
    case CLARIFY_IHUB_END_ACCESS_DENIED:
      return g_strdup (_("The server does not let this account use the app."));
    case CLARIFY_IHUB_END_STOPPED:
      return g_strdup (_("The answer was stopped."));
    case CLARIFY_IHUB_END_COMPLETE:
    case CLARIFY_IHUB_END_CLARIFICATION:
    default:
      return NULL;
    }
}

static void
text_cb (ClarifyIhubChat *ihub_chat,
         const char      *chunk,
         Chat            *chat)
{
  if (chat->json || *chunk == '\0')
    return;
  fputs (chunk, stdout);
  fflush (stdout);
  chat->ends_in_newline = g_str_has_suffix (chunk, "\n");
}

static void
event_cb (ClarifyIhubChat *ihub_chat,
          const char      *type,
          const char      *data,
          Chat            *chat)
{
  if (!chat->json)
    return;
  /* iHub's data already names its event; one JSON object per line. */
  printf ("%s\n", data);
  fflush (stdout);
}

static void
turn_ended_cb (ClarifyIhubChat *ihub_chat,
               ClarifyIhubEnd   end,
               const char      *detail,
               Chat            *chat)
{
  g_autofree char *words = NULL;

  if (end == CLARIFY_IHUB_END_CLARIFICATION)
    return;

  if (!chat->json && !chat->ends_in_newline)
    printf ("\n");
  if (end == CLARIFY_IHUB_END_COMPLETE)
    {
      quit (chat, CLARIFY_CLI_EXIT_ANSWERED);
      return;
    }

  words = describe_end (end, detail);
  g_printerr (_("clarify chat: %s\n"), words);
  /* An answer the server did not take: its question waits in the kept
   * conversation, as after Cancel. */
  if (clarify_ihub_chat_get_state (ihub_chat) == CLARIFY_IHUB_CHAT_ASKING && end != CLARIFY_IHUB_END_STOPPED)
    g_printerr (_("clarify chat: the question waits; answer it with --chat %s\n"),
                clarify_ihub_chat_get_id (ihub_chat));
  /* Ctrl+C: leave once the server was told to stop. */
  if (end == CLARIFY_IHUB_END_STOPPED && chat->stop_message != NULL)
    chat->status = CLARIFY_CLI_EXIT_CANCELLED;
  else if (end == CLARIFY_IHUB_END_STOPPED)
    quit (chat, CLARIFY_CLI_EXIT_CANCELLED);
  else if (end == CLARIFY_IHUB_END_CONNECTION_LOST || end == CLARIFY_IHUB_END_STREAM_CLOSED)
    quit (chat, CLARIFY_CLI_EXIT_UNREACHABLE);
  else
    quit (chat, CLARIFY_CLI_EXIT_SERVER_ERROR);
}

static void ask_user (Chat *chat, ClarifyRequest *request);

typedef struct
{
  Chat           *chat;
  ClarifyRequest *request;
} Asking;

static void
asked_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Asking *asking = user_data;
  Chat *chat = asking->chat;
  g_autoptr(ClarifyRequest) request = asking->request;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *response_json = NULL;

  g_free (asking);
  chat->asking = FALSE;
  response_json = clarify_cli_ask_app_finish (object, result, &error);
  if (response_json != NULL)
    response = clarify_response_new_from_data (response_json, -1, &error);
  if (response == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_printerr (_("clarify chat: cannot reach Clarify: %s\n"), error->message);
      quit (chat, CLARIFY_CLI_EXIT_UNREACHABLE);
      return;
    }

  /* iHub cannot be told no: the question waits in the kept conversation. */
  if (clarify_response_get_outcome (response) == CLARIFY_OUTCOME_CANCELLED ||
      clarify_response_get_outcome (response) == CLARIFY_OUTCOME_TIMED_OUT)
    {
      g_printerr (_("clarify chat: cancelled; answer later with --chat %s\n"),
                  clarify_ihub_chat_get_id (chat->chat));
      quit (chat, CLARIFY_CLI_EXIT_CANCELLED);
      return;
    }

  clarify_inbox_answer (clarify_backend_get_inbox (CLARIFY_BACKEND (chat->backend)), request, response);
}

static void
request_state_cb (ClarifyRequest *request,
                  GParamSpec     *pspec,
                  Chat           *chat)
{
  /* Refused on its way (it did not fit the question): ask again. */
  if (clarify_request_get_state (request) == CLARIFY_REQUEST_PENDING)
    ask_user (chat, request);
}

static void
ask_user (Chat           *chat,
          ClarifyRequest *request)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *request_json = NULL;
  Asking *asking;

  if (chat->asking)
    return;
  chat->asking = TRUE;

  node = clarify_request_to_json (request);
  /* Asked by the iHub connection, not "a program on this computer": the
   * dialog, the list and the history name it so. */
  json_object_set_string_member (json_node_get_object (node), "caller",
                                 clarify_connection_get_name (clarify_backend_get_connection (CLARIFY_BACKEND (chat->backend))));
  request_json = clarify_json_to_string (node);
  asking = g_new0 (Asking, 1);
  asking->chat = chat;
  asking->request = g_object_ref (request);
  clarify_cli_ask_app_async (chat->app, request_json, NULL, asked_cb, asking);
}

static void
request_added_cb (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Chat           *chat)
{
  g_signal_connect (request, "notify::state", G_CALLBACK (request_state_cb), chat);
  ask_user (chat, request);
}

static void
apps_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Chat *chat = user_data;
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GError) error = NULL;
  gboolean known = chat->app_id == NULL;

  apps = clarify_ihub_backend_list_apps_finish (chat->backend, result, &error);
  if (apps == NULL)
    {
      g_printerr (_("clarify chat: cannot list the apps: %s\n"), error->message);
      quit (chat, clarify_error_is_transient (error)
                  ? CLARIFY_CLI_EXIT_UNREACHABLE : CLARIFY_CLI_EXIT_SERVER_ERROR);
      return;
    }

  for (guint i = 0; !known && i < apps->len; i++)
    known = g_strcmp0 (((ClarifyIhubApp *) g_ptr_array_index (apps, i))->id, chat->app_id) == 0;
  if (!known)
    {
      g_printerr (_("clarify chat: there is no app “%s” (or it is not yours to use)\n"), chat->app_id);
      quit (chat, CLARIFY_CLI_EXIT_BAD_ARGS);
      return;
    }

  chat->chat = clarify_ihub_backend_open_chat (chat->backend, chat->app_id, chat->chat_id);
  if (chat->chat == NULL)
    {
      g_printerr (_("clarify chat: there is no conversation “%s”; name an --app to start one\n"), chat->chat_id);
      quit (chat, CLARIFY_CLI_EXIT_BAD_ARGS);
      return;
    }
  if (chat->model != NULL)
    clarify_ihub_chat_set_model_id (chat->chat, chat->model);

  g_signal_connect (chat->chat, "text", G_CALLBACK (text_cb), chat);
  g_signal_connect (chat->chat, "event", G_CALLBACK (event_cb), chat);
  g_signal_connect (chat->chat, "turn-ended", G_CALLBACK (turn_ended_cb), chat);

  if (chat->text != NULL)
    clarify_ihub_chat_send (chat->chat, chat->text);
  else if (clarify_ihub_chat_get_state (chat->chat) == CLARIFY_IHUB_CHAT_ASKING)
    clarify_ihub_chat_ask_again (chat->chat);
  else
    {
      g_printerr (_("clarify chat: conversation “%s” asks nothing; give a message\n"), chat->chat_id);
      quit (chat, CLARIFY_CLI_EXIT_BAD_ARGS);
    }
}

static void
stop_sent_cb (SoupSession *session,
              SoupMessage *message,
              Chat        *chat)
{
  if (message != chat->stop_message)
    return;
  g_clear_object (&chat->stop_message);
  quit (chat, CLARIFY_CLI_EXIT_CANCELLED);
}

static void
stop_queued_cb (SoupSession *session,
                SoupMessage *message,
                Chat        *chat)
{
  g_set_object (&chat->stop_message, message);
}

/* Ctrl+C stops the answer as the web client's stop button does; a second
 * one leaves without waiting for the server. */
static gboolean
sigint_cb (gpointer user_data)
{
  Chat *chat = user_data;
  ClarifyIhubChatState state = chat->chat != NULL ? clarify_ihub_chat_get_state (chat->chat)
                                                  : CLARIFY_IHUB_CHAT_IDLE;
  SoupSession *session = clarify_ihub_backend_get_session (chat->backend);
  gulong queued_id;

  if (state == CLARIFY_IHUB_CHAT_RUNNING && chat->stop_message == NULL)
    {
      /* The chat sends its /stop without waiting: catch it to wait here. */
      g_signal_connect (session, "request-unqueued", G_CALLBACK (stop_sent_cb), chat);
      queued_id = g_signal_connect (session, "request-queued", G_CALLBACK (stop_queued_cb), chat);
      clarify_ihub_chat_stop (chat->chat);
      g_signal_handler_disconnect (session, queued_id);
      return G_SOURCE_CONTINUE;
    }

  if (state == CLARIFY_IHUB_CHAT_ASKING)
    g_printerr (_("clarify chat: cancelled; answer later with --chat %s\n"),
                clarify_ihub_chat_get_id (chat->chat));
  else
    g_printerr (_("clarify chat: interrupted\n"));
  quit (chat, CLARIFY_CLI_EXIT_CANCELLED);
  return G_SOURCE_CONTINUE;
}

static ClarifyConnection *
find_connection (const char  *name,
                 GError     **error)
{
  g_autoptr(ClarifyConnectionStore) store = NULL;
  ClarifyConnection *connection;

  if (strchr (name, '=') != NULL)
    return clarify_connection_new_from_spec (name, error);

  store = clarify_connection_store_new (NULL);
  if (!clarify_connection_store_load (store, error))
    return NULL;
  connection = clarify_connection_store_lookup (store, name);
  if (connection == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("There is no connection named “%s”."), name);
      return NULL;
    }
  return g_object_ref (connection);
}

int
clarify_chat_cli_run (int    argc,
                      char **argv)
{
  Chat chat = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) args = NULL;
  GOptionGroup *group;
  const GOptionEntry entries[] = {
    { "app", 0, 0, G_OPTION_ARG_STRING, &chat.app_id, N_("The iHub app to chat with"), N_("APP") },
    { "chat", 0, 0, G_OPTION_ARG_STRING, &chat.chat_id, N_("Go on with this conversation (or start one under this id)"), N_("ID") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &chat.model, N_("The model (default: the app’s)"), N_("MODEL") },
    { "output", 0, 0, G_OPTION_ARG_STRING, &output, N_("plain (the answer, the default) or json (the turn’s events, one per line)"), N_("FORMAT") },
    { NULL }
  };

  context = g_option_context_new (_("CONNECTION [MESSAGE] — chat with an iHub app"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("Sends the message, shows the app’s questions in Clarify and prints the answer.\n"
                                  "CONNECTION is a saved connection or NAME=ihub:URL.\n"
                                  "Exit status: 0 answered, 1 cancelled (in the dialog, or Ctrl+C),\n"
                                  "2 bad arguments, 3 unreachable, 4 the server refused or failed."));
  group = g_option_group_new ("chat", NULL, NULL, &chat, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);

  args = clarify_cli_args_new ("clarify chat", argc, argv);

  chat.status = CLARIFY_CLI_EXIT_BAD_ARGS;
  if (!g_option_context_parse_strv (context, &args, &error))
    goto bad_args;
  if (g_strv_length (args) < 2 || g_strv_length (args) > 3)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           _("Give a connection and a message"));
      goto bad_args;
    }
  if (output != NULL && g_strcmp0 (output, "plain") != 0 && g_strcmp0 (output, "json") != 0)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Unknown --output “%s” (use plain or json)"), output);
      goto bad_args;
    }
  if (chat.app_id == NULL && chat.chat_id == NULL)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("--app is required"));
      goto bad_args;
    }
  if ((chat.app_id != NULL && !clarify_http_can_be_segment (chat.app_id)) ||
      (chat.chat_id != NULL && !clarify_http_can_be_segment (chat.chat_id)))
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("An app or conversation id cannot be empty, “.” or “..”"));
      goto bad_args;
    }
  if (g_strv_length (args) < 3 && chat.chat_id == NULL)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("Give a message"));
      goto bad_args;
    }

  connection = find_connection (args[1], &error);
  if (connection == NULL)
    goto bad_args;
  if (g_strcmp0 (clarify_connection_get_kind (connection), "ihub") != 0)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s” is not an iHub connection"), clarify_connection_get_name (connection));
      goto bad_args;
    }

  chat.app = clarify_cli_app_proxy_new (&error);
  if (chat.app == NULL)
    {
      g_printerr (_("clarify chat: cannot reach the session bus: %s\n"), error->message);
      chat.status = CLARIFY_CLI_EXIT_UNREACHABLE;
      goto out;
    }

  chat.json = g_strcmp0 (output, "json") == 0;
  chat.text = g_strdup (args[2]);
  chat.ends_in_newline = TRUE;
  chat.loop = g_main_loop_new (NULL, FALSE);
  chat.backend = CLARIFY_IHUB_BACKEND (clarify_ihub_backend_new (connection));
  g_signal_connect (chat.backend, "request-added", G_CALLBACK (request_added_cb), &chat);
  chat.sigint_id = g_unix_signal_add (SIGINT, sigint_cb, &chat);
  clarify_ihub_backend_list_apps_async (chat.backend, NULL, apps_cb, &chat);
  g_main_loop_run (chat.loop);
  goto out;

bad_args:
  g_printerr (_("clarify chat: %s\n"), error->message);
  g_printerr (_("Run “clarify chat --help” to see the options.\n"));
  chat.status = CLARIFY_CLI_EXIT_BAD_ARGS;

out:
  g_clear_handle_id (&chat.sigint_id, g_source_remove);
  if (chat.chat != NULL)
    g_signal_handlers_disconnect_by_data (chat.chat, &chat);
  if (chat.backend != NULL)
    {
      g_signal_handlers_disconnect_by_data (chat.backend, &chat);
      g_signal_handlers_disconnect_by_data (clarify_ihub_backend_get_session (chat.backend), &chat);
      clarify_backend_stop (CLARIFY_BACKEND (chat.backend));
    }
  g_clear_object (&chat.stop_message);
  g_clear_object (&chat.backend);
  g_clear_object (&chat.app);
  g_clear_pointer (&chat.loop, g_main_loop_unref);
  g_free (chat.app_id);
  g_free (chat.chat_id);
  g_free (chat.model);
  g_free (chat.text);

  return chat.status;
}
