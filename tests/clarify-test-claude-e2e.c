/* clarify-test-claude-e2e.c: the real Claude Code with Clarify's own hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-choice-chips.h"
#include "clarify-choice-input.h"
#include "clarify-dbus-backend.h"
#include "clarify-test-claude-e2e.h"
#include "clarify-test-dbus.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-test-log.h"

#define ARRIVED_AT "clarify-test-e2e-arrived-at"
#define SHOWN_AT   "clarify-test-e2e-shown-at"
#define LEFT_AT    "clarify-test-e2e-left-at"

static GTestDBus          *bus;
static char               *config_home;
static char               *binary;
static ClarifyApplication *app;
/* The inbox as it was at its last items-changed, to see what left it. */
static GPtrArray          *inbox_mirror;
/* Every request that reached the inbox, in order. */
static GPtrArray          *arrived;
/* The monitor's messages, from its worker thread: Seen. */
static GDBusConnection    *monitor;
static GAsyncQueue        *seen;
/* ClarifyTestE2eHookCall, in order. */
static GPtrArray          *hook_calls;

/* Stamps ------------------------------------------------------------------------ */

static void
stamp (gpointer    object,
       const char *key)
{
  gint64 *now;

  if (g_object_get_data (object, key) != NULL)
    return;
  now = g_new (gint64, 1);
  *now = g_get_monotonic_time ();
  g_object_set_data_full (object, key, now, g_free);
}

static gint64
stamp_of (ClarifyRequest *request,
          const char     *key)
{
  gint64 *at = g_object_get_data (G_OBJECT (request), key);

  return at != NULL ? *at : 0;
}

gint64
clarify_test_e2e_arrived_at (ClarifyRequest *request)
{
  return stamp_of (request, ARRIVED_AT);
}

gint64
clarify_test_e2e_shown_at (ClarifyRequest *request)
{
  return stamp_of (request, SHOWN_AT);
}

gint64
clarify_test_e2e_left_at (ClarifyRequest *request)
{
  return stamp_of (request, LEFT_AT);
}

static void
inbox_changed_cb (GListModel *inbox,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  for (guint i = position; i < position + removed; i++)
    stamp (inbox_mirror->pdata[i], LEFT_AT);
  g_ptr_array_remove_range (inbox_mirror, position, removed);

  for (guint i = position; i < position + added; i++)
    {
      ClarifyRequest *request = g_list_model_get_item (inbox, i);

      g_ptr_array_insert (inbox_mirror, i, request);
      if (!g_ptr_array_find (arrived, request, NULL))
        {
          stamp (request, ARRIVED_AT);
          g_ptr_array_add (arrived, g_object_ref (request));
        }
    }
}

static void
dialog_mapped_cb (GtkWidget *dialog,
                  gpointer   user_data)
{
  stamp (clarify_request_dialog_get_request (CLARIFY_REQUEST_DIALOG (dialog)), SHOWN_AT);
}

static void
window_added_cb (GtkApplication *application,
                 GtkWindow      *window,
                 gpointer        user_data)
{
  if (CLARIFY_IS_REQUEST_DIALOG (window))
    g_signal_connect (window, "map", G_CALLBACK (dialog_mapped_cb), NULL);
}

/* Watching the Hook calls --------------------------------------------------------- */

typedef struct
{
  GDBusMessage *message;
  gint64        at;
} Seen;

static void
hook_call_free (ClarifyTestE2eHookCall *call)
{
  g_free (call->sender);
  g_free (call->session_id);
  g_free (call->event);
  g_free (call->tool_name);
  g_free (call->transcript_path);
  g_free (call->output);
  g_free (call->error);
  g_free (call);
}

/* Worker thread: keeps the message for the test's thread, and drops it, as
 * a monitor must neither answer nor dispatch. */
static GDBusMessage *
monitor_filter (GDBusConnection *connection,
                GDBusMessage    *message,
                gboolean         incoming,
                gpointer         user_data)
{
  GDBusMessageType type = g_dbus_message_get_message_type (message);
  Seen *one;

  /* The call to BecomeMonitor, and its reply. */
  if (!incoming)
    return message;
  if (type != G_DBUS_MESSAGE_TYPE_METHOD_CALL && type != G_DBUS_MESSAGE_TYPE_SIGNAL &&
      g_strcmp0 (g_dbus_message_get_destination (message), g_dbus_connection_get_unique_name (connection)) == 0)
    return message;

  one = g_new (Seen, 1);
  one->message = message;
  one->at = g_get_monotonic_time ();
  g_async_queue_push (seen, one);
  g_main_context_wakeup (NULL);
  return NULL;
}

static void
add_hook_call (GDBusMessage *message,
               gint64        at)
{
  ClarifyTestE2eHookCall *call = g_new0 (ClarifyTestE2eHookCall, 1);
  GVariant *body = g_dbus_message_get_body (message);
  const char *input = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  call->sender = g_strdup_printf ("%s %u", g_dbus_message_get_sender (message), g_dbus_message_get_serial (message));
  call->called_at = at;
  if (body != NULL && g_variant_is_of_type (body, G_VARIANT_TYPE ("(ss)")))
    g_variant_get (body, "(&s&s)", NULL, &input);
  if (input != NULL && json_parser_load_from_data (parser, input, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      JsonObject *object = json_node_get_object (json_parser_get_root (parser));

      call->session_id = g_strdup (json_object_get_string_member_with_default (object, "session_id", NULL));
      call->event = g_strdup (json_object_get_string_member_with_default (object, "hook_event_name", NULL));
      call->tool_name = g_strdup (json_object_get_string_member_with_default (object, "tool_name", NULL));
      call->transcript_path = g_strdup (json_object_get_string_member_with_default (object, "transcript_path", NULL));
    }
  g_ptr_array_add (hook_calls, call);
}

static void
add_hook_reply (GDBusMessage *message,
                gint64        at)
{
  g_autofree char *key = g_strdup_printf ("%s %u", g_dbus_message_get_destination (message),
                                          g_dbus_message_get_reply_serial (message));
  GVariant *body = g_dbus_message_get_body (message);

  for (guint i = 0; i < hook_calls->len; i++)
    {
      ClarifyTestE2eHookCall *call = hook_calls->pdata[i];

      if (!g_str_equal (call->sender, key) || call->replied_at != 0)
        continue;
      call->replied_at = at;
      if (g_dbus_message_get_message_type (message) == G_DBUS_MESSAGE_TYPE_ERROR)
        call->error = g_strdup (g_dbus_message_get_error_name (message));
      else if (body != NULL && g_variant_is_of_type (body, G_VARIANT_TYPE ("(s)")))
        g_variant_get (body, "(s)", &call->output);
      return;
    }
}

/* Test's thread: what the monitor saw since the last look. */
static void
take_seen (void)
{
  Seen *one;

  while ((one = g_async_queue_try_pop (seen)) != NULL)
    {
      GDBusMessage *message = one->message;

      if (g_dbus_message_get_message_type (message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL)
        {
          if (g_strcmp0 (g_dbus_message_get_member (message), "Hook") == 0)
            add_hook_call (message, one->at);
        }
      else
        {
          add_hook_reply (message, one->at);
        }
      g_object_unref (message);
      g_free (one);
    }
}

static void
start_monitor (void)
{
  const char *rules[] = {
    "type='method_call',interface='" CLARIFY_DBUS_NAME "',member='Hook'",
    "type='method_return'",
    "type='error'",
    NULL,
  };
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  seen = g_async_queue_new ();
  hook_calls = g_ptr_array_new_with_free_func ((GDestroyNotify) hook_call_free);
  monitor = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (bus),
                                                    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                    G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                    NULL, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_add_filter (monitor, monitor_filter, NULL, NULL);
  reply = g_dbus_connection_call_sync (monitor, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.Monitoring", "BecomeMonitor",
                                       g_variant_new ("(^asu)", rules, 0), NULL,
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
}

GPtrArray *
clarify_test_e2e_hook_calls_of (ClarifyTestClaude *claude)
{
  GPtrArray *found = g_ptr_array_new ();

  take_seen ();
  for (guint i = 0; i < hook_calls->len; i++)
    {
      ClarifyTestE2eHookCall *call = hook_calls->pdata[i];

      if (g_strcmp0 (call->session_id, clarify_test_claude_get_session_id (claude)) == 0)
        g_ptr_array_add (found, call);
    }
  return found;
}

typedef struct
{
  ClarifyTestClaude *claude;
  guint              n;
} HookWait;

static gboolean
has_hook_reply (gpointer data)
{
  HookWait *wait = data;
  g_autoptr(GPtrArray) calls = clarify_test_e2e_hook_calls_of (wait->claude);

  return calls->len >= wait->n && ((ClarifyTestE2eHookCall *) calls->pdata[wait->n - 1])->replied_at != 0;
}

const ClarifyTestE2eHookCall *
clarify_test_e2e_wait_for_hook_reply (ClarifyTestClaude *claude,
                                      guint              n,
                                      guint              timeout_ms)
{
  HookWait wait = { claude, n };
  g_autoptr(GPtrArray) calls = NULL;

  g_return_val_if_fail (n > 0, NULL);

  if (!clarify_test_wait_until (has_hook_reply, &wait, timeout_ms))
    return NULL;
  calls = clarify_test_e2e_hook_calls_of (claude);
  return calls->pdata[n - 1];
}

/* The process ---------------------------------------------------------------------- */

void
clarify_test_e2e_init (int    *argc,
                       char ***argv)
{
  g_autofree char *mcp_ini = NULL;
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));
  const char *built = g_getenv ("CLARIFY_BINARY");

  clarify_test_log_init ();
  /* Before anything caches the user dirs or connects to a bus. */
  mcp_ini = g_strdup_printf ("[mcp]\nport=%u\n", clarify_test_free_port ());
  config_home = clarify_test_private_config_home (mcp_ini);
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  /* GTestDBus unsets it for the test; the windows need it. */
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);
  clarify_test_gtk_init (argc, argv);

  g_assert_nonnull (built);
  binary = g_canonicalize_filename (built, NULL);
  g_assert_true (g_file_test (binary, G_FILE_TEST_IS_EXECUTABLE));
  clarify_test_notifications_start (NULL);
  start_monitor ();
}

void
clarify_test_e2e_shutdown (void)
{
  clarify_test_remove_tree (config_home);
  g_clear_pointer (&config_home, g_free);
  /* Only stopped: finalizing waits for the shared connection to go. */
  g_test_dbus_stop (bus);
}

const char *
clarify_test_e2e_binary (void)
{
  return binary;
}

ClarifyApplication *
clarify_test_e2e_app (void)
{
  g_autoptr(GError) error = NULL;
  GListModel *inbox;

  if (app != NULL)
    return app;

  app = clarify_application_new ();
  g_signal_connect (app, "window-added", G_CALLBACK (window_added_cb), NULL);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
  clarify_application_ensure_backends_started (app);

  inbox = G_LIST_MODEL (clarify_application_get_inbox (app));
  inbox_mirror = g_ptr_array_new_with_free_func (g_object_unref);
  arrived = g_ptr_array_new_with_free_func (g_object_unref);
  inbox_changed_cb (inbox, 0, 0, g_list_model_get_n_items (inbox), NULL);
  g_signal_connect (inbox, "items-changed", G_CALLBACK (inbox_changed_cb), NULL);

  return app;
}

/* Setup --------------------------------------------------------------------------- */

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The one command of @event's hooks in @settings. */
static const char *
hook_command (JsonObject *settings,
              const char *event)
{
  JsonObject *hooks = json_object_get_object_member (settings, "hooks");
  JsonArray *groups = json_object_get_array_member (hooks, event);
  JsonArray *entries;

  g_assert_nonnull (groups);
  g_assert_cmpuint (json_array_get_length (groups), ==, 1);
  entries = json_object_get_array_member (json_array_get_object_element (groups, 0), "hooks");
  g_assert_cmpuint (json_array_get_length (entries), ==, 1);
  return json_object_get_string_member (json_array_get_object_element (entries, 0), "command");
}

ClarifyTestClaudeHome *
clarify_test_e2e_home_new (const char * const *projects)
{
  ClarifyTestClaudeHome *home = clarify_test_claude_home_new (projects);
  const char *argv[] = { binary, "setup", "claude-code", "--user", NULL };
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonObject) settings = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  int status = 0;

  if (home == NULL)
    return NULL;

  /* As the user runs it, in the HOME Claude Code will use. */
  env = g_environ_setenv (env, "HOME", clarify_test_claude_home_get_dir (home), TRUE);
  env = g_environ_unsetenv (env, "CLAUDE_CONFIG_DIR");
  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_test_message ("clarify setup claude-code --user:\n%s%s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "Added PermissionRequest"));

  path = g_build_filename (clarify_test_claude_home_get_dir (home), ".claude", "settings.json", NULL);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  settings = parse_object (contents);
  expected = g_strconcat (binary, " hook claude-code", NULL);
  g_assert_cmpstr (hook_command (settings, "PermissionRequest"), ==, expected);
  g_assert_cmpstr (hook_command (settings, "Elicitation"), ==, expected);
  g_assert_cmpstr (hook_command (settings, "Notification"), ==, expected);

  return home;
}

/* Requests and dialogs ------------------------------------------------------------ */

GPtrArray *
clarify_test_e2e_requests_of (ClarifyTestClaude *claude)
{
  GPtrArray *found = g_ptr_array_new ();
  g_autofree char *project = g_path_get_basename (clarify_test_claude_get_project (claude));
  const char *session = clarify_test_claude_get_session_id (claude);

  for (guint i = 0; arrived != NULL && i < arrived->len; i++)
    {
      ClarifyRequest *request = arrived->pdata[i];
      const char *short_session = clarify_request_get_session (request);

      if (g_strcmp0 (clarify_request_get_connection_kind (request), "claude-code") == 0 &&
          g_strcmp0 (clarify_request_get_project (request), project) == 0 &&
          short_session != NULL && *short_session != '\0' && g_str_has_prefix (session, short_session))
        g_ptr_array_add (found, request);
    }
  return found;
}

typedef struct
{
  ClarifyTestClaude *claude;
  guint              n;
} RequestWait;

static gboolean
has_requests (gpointer data)
{
  RequestWait *wait = data;
  g_autoptr(GPtrArray) requests = clarify_test_e2e_requests_of (wait->claude);

  return requests->len >= wait->n;
}

ClarifyRequest *
clarify_test_e2e_wait_for_request (ClarifyTestClaude *claude,
                                   guint              n,
                                   guint              timeout_ms)
{
  RequestWait wait = { claude, n };
  g_autoptr(GPtrArray) requests = NULL;

  g_return_val_if_fail (n > 0, NULL);

  clarify_test_e2e_app ();
  clarify_test_wait_until (has_requests, &wait, timeout_ms);
  requests = clarify_test_e2e_requests_of (claude);
  return requests->len >= n ? requests->pdata[n - 1] : NULL;
}

typedef struct
{
  const char *kind;
  guint       n;
  ClarifyRequest *found;
} KindWait;

static gboolean
has_kind (gpointer data)
{
  KindWait *wait = data;
  guint n = 0;

  for (guint i = 0; arrived != NULL && i < arrived->len; i++)
    if (g_strcmp0 (clarify_request_get_connection_kind (arrived->pdata[i]), wait->kind) == 0 && ++n == wait->n)
      {
        wait->found = arrived->pdata[i];
        return TRUE;
      }
  return FALSE;
}

ClarifyRequest *
clarify_test_e2e_wait_for_kind (const char *kind,
                                guint       n,
                                guint       timeout_ms)
{
  KindWait wait = { kind, n, NULL };

  g_return_val_if_fail (n > 0, NULL);

  clarify_test_e2e_app ();
  clarify_test_wait_until (has_kind, &wait, timeout_ms);
  return wait.found;
}

static ClarifyRequestDialog *
find_dialog (ClarifyRequest *request)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (CLARIFY_IS_REQUEST_DIALOG (l->data) && clarify_request_dialog_get_request (l->data) == request)
      return l->data;
  return NULL;
}

static gboolean
dialog_is_shown (gpointer data)
{
  ClarifyRequestDialog *dialog = find_dialog (data);

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

ClarifyRequestDialog *
clarify_test_e2e_wait_for_dialog (ClarifyRequest *request)
{
  g_assert_true (clarify_test_wait_until (dialog_is_shown, request, CLARIFY_TEST_E2E_WAIT_MS));
  clarify_test_present_and_wait (GTK_WINDOW (find_dialog (request)));
  return find_dialog (request);
}

static gboolean
has_left (gpointer data)
{
  return clarify_test_e2e_left_at (data) != 0;
}

gboolean
clarify_test_e2e_wait_gone (ClarifyRequest *request,
                            guint           timeout_ms)
{
  return clarify_test_wait_until (has_left, request, timeout_ms);
}

/* Widgets ------------------------------------------------------------------------- */

void
clarify_test_e2e_click (GtkWidget *button)
{
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_assert_true (gtk_widget_grab_focus (button));
  g_signal_emit_by_name (button, "clicked");
}

GtkWidget *
clarify_test_e2e_chip (ClarifyRequestDialog *dialog,
                       guint                 position,
                       const char           *label)
{
  ClarifyInput *input = clarify_request_dialog_get_input (dialog, position);
  GtkWidget *view;

  g_assert_true (CLARIFY_IS_CHOICE_INPUT (input));
  view = clarify_choice_input_get_view (CLARIFY_CHOICE_INPUT (input));
  g_assert_true (CLARIFY_IS_CHOICE_CHIPS (view));
  for (guint i = 0;; i++)
    {
      GtkWidget *chip = clarify_choice_chips_get_chip (CLARIFY_CHOICE_CHIPS (view), i);

      g_assert_nonnull (chip);
      if (clarify_test_find_label (chip, label) != NULL)
        return chip;
    }
}

GtkWidget *
clarify_test_e2e_action (ClarifyRequestDialog *dialog,
                         const char           *id)
{
  GtkWidget *button = clarify_test_find_widget (GTK_WIDGET (dialog), id);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  return button;
}

gboolean
clarify_test_e2e_process_gone (gpointer pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", GPOINTER_TO_INT (pid));
  g_autofree char *stat = NULL;
  const char *end;

  /* Gone, or a zombie its parent has yet to reap. */
  return !g_file_get_contents (path, &stat, NULL, NULL) || (end = strrchr (stat, ')')) == NULL || end[2] == 'Z';
}

/* Claude Code's side ---------------------------------------------------------------- */

void
clarify_test_e2e_see (ClarifyTestClaude *claude,
                      const char        *text)
{
  g_assert_true (clarify_test_claude_wait_for_text (claude, text, CLARIFY_TEST_CLAUDE_SLOW_MS));
}

void
clarify_test_e2e_assert_no_strays (ClarifyTestClaude *claude)
{
  g_auto(GStrv) strays = clarify_test_claude_api_get_strays (clarify_test_claude_get_api (claude));
  g_autofree char *list = g_strjoinv (", ", strays);

  g_assert_cmpstr (list, ==, "");
}
