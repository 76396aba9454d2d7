/* test-opencode-real.c: Clarify against the real `opencode serve`
 *
 * Installs opencode-ai (pinned) from npm into the build dir, runs it offline
 * in an isolated HOME with a fake OpenAI-compatible model (the harness in
 * clarify-test-opencode-real.c), lets that model call `question` and then
 * `bash` (which needs permission), and
 * answers both dialogs through their widgets. Asserted: OpenCode's own
 * events and what the model got back as tool results. Then Clarify's core,
 * in a child process, is killed while it delivers an answer OpenCode has
 * not read, and started again: the answer kept on disk arrives once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "clarify-inbox.h"
#include "clarify-opencode-events.h"
#include "clarify-choice-input.h"
#include "clarify-outbox.h"
#include "clarify-permission-input.h"
#include "clarify-request-dialog-private.h"
#include "clarify-test-gtk-utils.h"
#include "clarify-opencode-backend.h"

#include "clarify-test-log.h"
#include "clarify-test-opencode.h"
#include "clarify-test-outbox.h"
#include "clarify-test-opencode-real.h"

#define SLOW_MS CLARIFY_TEST_OPENCODE_SLOW_MS

#define QUESTION_ARGS                                                                                          \
  "{\"questions\":["                                                                                           \
  "{\"question\":\"Which database should I use for the new service?\",\"header\":\"Database\","                \
  "\"options\":[{\"label\":\"PostgreSQL\",\"description\":\"Relational, robust, default choice\"},"             \
  "{\"label\":\"SQLite\",\"description\":\"Embedded, zero-config\"}],\"multiple\":false},"                      \
  "{\"question\":\"Which extras do you want?\",\"header\":\"Extras\","                                         \
  "\"options\":[{\"label\":\"Docker\",\"description\":\"Add a Dockerfile\"},"                                   \
  "{\"label\":\"CI\",\"description\":\"Add a CI workflow\"}],\"multiple\":true}]}"
#define BASH_ARGS "{\"command\":\"echo hello-from-clarify\",\"description\":\"Print a greeting\"}"

/* The model asks, then runs bash (which needs permission). */
static const ClarifyTestToolCall script[] = {
  { "call_question1", "question", QUESTION_ARGS },
  { "call_bash1", "bash", BASH_ARGS },
};

/* Through the widgets -------------------------------------------------------- */

/* The toggle button (a chip) whose label reads @label. */
static GtkWidget *
find_chip (GtkWidget  *root,
           const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && gtk_widget_get_visible (child) &&
          g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), label) == 0)
        {
          GtkWidget *button = gtk_widget_get_ancestor (child, GTK_TYPE_TOGGLE_BUTTON);

          if (button != NULL)
            return button;
        }
      if ((found = find_chip (child, label)) != NULL)
        return found;
    }
  return NULL;
}

static gboolean
toggle_is_active (gpointer data)
{
  return gtk_toggle_button_get_active (data);
}

static void
click (GtkWidget *root,
       const char *chip_label)
{
  GtkWidget *chip = find_chip (root, chip_label);

  g_assert_nonnull (chip);
  /* Keyboard activation: GtkButton shows the press for a moment, then clicks. */
  gtk_widget_activate (chip);
  g_assert_true (clarify_test_wait_until (toggle_is_active, chip, 5000));
}

static void
press_button (GtkWidget  *root,
              const char *label)
{
  GtkWidget *button = clarify_test_find_button (root, label);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  gtk_widget_activate (button);
  clarify_test_spin (400);
}

static void
on_dialog_response (ClarifyRequestDialog *dialog,
                    ClarifyResponse      *response,
                    gpointer              user_data)
{
  ClarifyOutbox *outbox = g_object_get_data (G_OBJECT (dialog), "outbox");
  ClarifyBackend *backend = g_object_get_data (G_OBJECT (dialog), "backend");

  /* As the application does: through the outbox, which retries. */
  clarify_outbox_post (outbox, backend, clarify_request_dialog_get_request (dialog), response);
}

static ClarifyRequestDialog *
open_dialog (ClarifyRequest *request,
             ClarifyOutbox  *outbox,
             ClarifyBackend *backend,
             const char     *screenshot)
{
  ClarifyRequestDialog *dialog = clarify_request_dialog_new (NULL, request);
  g_autofree char *path = NULL;

  g_object_set_data (G_OBJECT (dialog), "outbox", outbox);
  g_object_set_data (G_OBJECT (dialog), "backend", backend);
  if (outbox != NULL)
    g_signal_connect (dialog, "response", G_CALLBACK (on_dialog_response), NULL);
  clarify_test_present_and_wait (GTK_WINDOW (dialog));
  path = clarify_test_save_screenshot (GTK_WIDGET (dialog), screenshot);
  g_test_message ("screenshot: %s", path);

  return dialog;
}

static gboolean
has_session_title (gpointer data)
{
  return clarify_request_get_session_title (data) != NULL;
}

/* Shows @request's German dialog only for the screenshot; no answer. */
static void
screenshot_german (ClarifyRequest *request,
                   const char     *name)
{
  ClarifyRequestDialog *dialog;

  clarify_test_set_language ("de");
  dialog = open_dialog (request, NULL, NULL, name);
  gtk_window_destroy (GTK_WINDOW (dialog));
  clarify_test_set_language ("en");
}

static gboolean
resynced (gpointer data)
{
  return ((ClarifyTestWatch *) data)->resynced > 0;
}

static void
test_real_server (void)
{
  g_autofree char *answers = NULL;
  g_autofree char *session_id = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyOutbox) outbox = NULL;
  g_autoptr(JsonNode) permissions = NULL;
  g_autoptr(ClarifyRequest) german = NULL;
  ClarifyTestWatch watch = { 0 };
  ClarifyTestOpencode server;
  ClarifyTestFakeModel *fake;
  ClarifyRequestDialog *dialog;
  ClarifyRequest *request;
  JsonObject *replied;
  const char *project;
  ClarifyPermissionInput *permission;
  GtkWidget *entry;

  /* OpenCode and its own view of what happens (the recorder). */
  if (!clarify_test_opencode_start (&server, script, G_N_ELEMENTS (script), NULL))
    return;
  fake = server.model;
  project = server.project;

  connection = clarify_connection_new ("real", "opencode", server.base_url);
  backend = clarify_opencode_backend_new (connection);
  outbox = clarify_outbox_new ();
  clarify_test_watch_init (&watch, backend);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_wait_until (resynced, &watch, SLOW_MS));

  /* A session whose bash calls need permission, and a prompt. */
  session_id = clarify_test_opencode_create_session (&server,
                                                     "{\"title\":\"clarify\",\"permission\":[{\"permission\":\"bash\","
                                                     "\"pattern\":\"*\",\"action\":\"ask\"}]}");
  clarify_test_opencode_prompt (&server, session_id, "Ask me two questions, then RUNBASH");

  /* The question: pick a label, tick another, type a custom one. */
  request = clarify_test_watch_wait_request_for (&watch, 1, SLOW_MS);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "question");
  g_assert_cmpstr (clarify_request_get_project (request), ==, project);
  /* The session's title, as OpenCode's UI shows it, from GET /session/{id}. */
  g_assert_true (clarify_test_wait_until (has_session_title, request, SLOW_MS));
  g_assert_cmpstr (clarify_request_get_session_title (request), ==, "clarify");
  screenshot_german (request, "opencode-question-de");
  dialog = open_dialog (request, outbox, backend, "opencode-question-en");

  click (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 0)), "SQLite");
  if (clarify_request_dialog_get_paged (dialog))
    press_button (GTK_WIDGET (dialog), "Next");
  click (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 1)), "Docker");
  click (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 1)), "Other…");
  entry = clarify_choice_input_get_other_entry (CLARIFY_CHOICE_INPUT (clarify_request_dialog_get_input (dialog, 1)));
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_get_visible (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), "Kubernetes manifests");
  clarify_test_spin (50);
  press_button (GTK_WIDGET (dialog), "Submit");

  replied = clarify_test_opencode_wait_for_event (&server, "question.replied");
  g_assert_cmpstr (json_object_get_string_member (replied, "requestID"), ==, clarify_request_get_id (request));
  answers = clarify_test_to_json (json_object_get_member (replied, "answers"));
  g_assert_cmpstr (answers, ==, "[[\"SQLite\"],[\"Docker\",\"Kubernetes manifests\"]]");

  clarify_test_fake_model_wait_for_tool_results (fake, 1);
  g_assert_nonnull (strstr (fake->tool_results->pdata[0],
                            "\"Which database should I use for the new service?\"=\"SQLite\""));
  g_assert_nonnull (strstr (fake->tool_results->pdata[0],
                            "\"Which extras do you want?\"=\"Docker, Kubernetes manifests\""));

  /* The permission for bash: Allow once, no message. */
  request = clarify_test_watch_wait_request_for (&watch, 2, SLOW_MS);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "permission");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Allow “bash”?");
  g_assert_nonnull (strstr (clarify_question_get_subject (clarify_request_get_question (request, 0)),
                            "echo hello-from-clarify"));
  /* Said once, in the subject: not again in the context. */
  g_assert_true (clarify_request_get_context (request) == NULL ||
                 strstr (clarify_request_get_context (request), "echo hello-from-clarify") == NULL);

  /* German from the start: decode the server's own listing under LANGUAGE=de. */
  clarify_test_set_language ("de");
  permissions = clarify_test_opencode_request (&server, SOUP_METHOD_GET, "/permission", NULL, 200);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (permissions));
  german = clarify_opencode_permission_new (json_array_get_object_element (json_node_get_array (permissions), 0),
                                            FALSE, project, NULL, NULL);
  g_assert_nonnull (german);
  clarify_request_set_connection (german, "real", "opencode");
  screenshot_german (german, "opencode-permission-de");

  /* The command whole; Allow Once has the focus, and Enter answers. */
  dialog = open_dialog (request, outbox, backend, "opencode-permission-en");
  permission = CLARIFY_PERMISSION_INPUT (clarify_request_dialog_get_input (dialog, 0));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (clarify_permission_input_get_subject_label (permission))), ==,
                   "echo hello-from-clarify");
  g_assert_true (gtk_root_get_focus (GTK_ROOT (dialog)) == clarify_permission_input_get_default_button (permission));
  g_assert_true (clarify_test_send_key (GTK_WIDGET (dialog), GDK_KEY_Return, 0));

  replied = clarify_test_opencode_wait_for_event (&server, "permission.replied");
  g_assert_cmpstr (json_object_get_string_member (replied, "requestID"), ==, clarify_request_get_id (request));
  g_assert_cmpstr (json_object_get_string_member (replied, "reply"), ==, "once");

  clarify_test_fake_model_wait_for_tool_results (fake, 2);
  g_assert_nonnull (strstr (fake->tool_results->pdata[1], "hello-from-clarify"));
  g_assert_cmpuint (watch.added->len, ==, 2);

  clarify_test_watch_clear (&watch);
  clarify_test_opencode_stop (&server);
}

/* Clarify killed while it delivers -------------------------------------------- */

/* A TCP proxy in front of OpenCode that passes everything but answers:
 * from the first read of a connection's request that starts with
 * "POST /question/", that connection's bytes are kept here and never
 * forwarded, as if OpenCode had stopped reading. Threads with blocking
 * sockets, so the test's main loop has nothing to do with it. */
typedef struct
{
  GSocket      *listener;
  guint16       port;
  guint16       upstream_port;
  GCancellable *cancellable;
  GThread      *acceptor;
  GMutex        lock;
  GPtrArray    *threads;   /* GThread: the pumps, joined at the end */
  GPtrArray    *sockets;   /* GSocket: closed at the end */
  GString      *held;      /* what the answers' connections sent */
} HoldProxy;

typedef struct
{
  HoldProxy *proxy;
  GSocket   *from;
  GSocket   *to;
  gboolean   from_client;
} Pump;

static gpointer
pump_thread (gpointer data)
{
  Pump *pump = data;
  HoldProxy *proxy = pump->proxy;
  gboolean holding = FALSE;
  char buffer[64 * 1024];

  for (;;)
    {
      gssize n = g_socket_receive (pump->from, buffer, sizeof buffer, proxy->cancellable, NULL);

      if (n <= 0)
        break;
      if (pump->from_client && !holding && n >= 15 && memcmp (buffer, "POST /question/", 15) == 0)
        holding = TRUE;
      if (holding)
        {
          g_mutex_lock (&proxy->lock);
          g_string_append_len (proxy->held, buffer, n);
          g_mutex_unlock (&proxy->lock);
          continue;
        }
      for (gssize sent = 0; sent < n;)
        {
          gssize w = g_socket_send (pump->to, buffer + sent, n - sent, proxy->cancellable, NULL);

          if (w <= 0)
            goto done;
          sent += w;
        }
    }
done:
  /* The other side sees the end; a held connection stays open. */
  if (!holding)
    g_socket_shutdown (pump->to, FALSE, TRUE, NULL);
  g_free (pump);
  return NULL;
}

static void
hold_proxy_pump (HoldProxy *proxy,
                 GSocket   *from,
                 GSocket   *to,
                 gboolean   from_client)
{
  Pump *pump = g_new0 (Pump, 1);

  pump->proxy = proxy;
  pump->from = from;
  pump->to = to;
  pump->from_client = from_client;
  g_ptr_array_add (proxy->threads, g_thread_new ("proxy-pump", pump_thread, pump));
}

static gpointer
accept_thread (gpointer data)
{
  HoldProxy *proxy = data;

  for (;;)
    {
      g_autoptr(GSocket) client = g_socket_accept (proxy->listener, proxy->cancellable, NULL);
      g_autoptr(GSocket) upstream = NULL;
      g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
      g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, proxy->upstream_port);

      if (client == NULL)
        break;
      upstream = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
      /* Refused only once the test tears the proxy down. */
      if (!g_socket_connect (upstream, address, proxy->cancellable, NULL))
        {
          g_assert_true (g_cancellable_is_cancelled (proxy->cancellable));
          break;
        }

      g_mutex_lock (&proxy->lock);
      g_ptr_array_add (proxy->sockets, g_object_ref (client));
      g_ptr_array_add (proxy->sockets, g_object_ref (upstream));
      hold_proxy_pump (proxy, client, upstream, TRUE);
      hold_proxy_pump (proxy, upstream, client, FALSE);
      g_mutex_unlock (&proxy->lock);
    }

  return NULL;
}

static HoldProxy *
hold_proxy_new (const char *upstream_url)
{
  HoldProxy *proxy = g_new0 (HoldProxy, 1);
  g_autoptr(GUri) uri = g_uri_parse (upstream_url, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (uri);
  proxy->upstream_port = g_uri_get_port (uri);
  proxy->cancellable = g_cancellable_new ();
  proxy->threads = g_ptr_array_new ();
  proxy->sockets = g_ptr_array_new_with_free_func (g_object_unref);
  proxy->held = g_string_new (NULL);
  g_mutex_init (&proxy->lock);

  proxy->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (proxy->listener, any, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (g_socket_listen (proxy->listener, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (proxy->listener, &error);
  g_assert_no_error (error);
  proxy->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  proxy->acceptor = g_thread_new ("proxy-accept", accept_thread, proxy);

  return proxy;
}

static char *
hold_proxy_get_held (HoldProxy *proxy)
{
  char *held;

  g_mutex_lock (&proxy->lock);
  held = g_strndup (proxy->held->str, proxy->held->len);
  g_mutex_unlock (&proxy->lock);

  return held;
}

/* Drops what it held, unsent, and every connection. */
static void
hold_proxy_free (HoldProxy *proxy)
{
  g_cancellable_cancel (proxy->cancellable);
  g_thread_join (proxy->acceptor);
  g_mutex_lock (&proxy->lock);
  for (guint i = 0; i < proxy->sockets->len; i++)
    g_socket_shutdown (proxy->sockets->pdata[i], TRUE, TRUE, NULL);
  g_mutex_unlock (&proxy->lock);
  for (guint i = 0; i < proxy->threads->len; i++)
    g_thread_join (proxy->threads->pdata[i]);
  g_ptr_array_unref (proxy->threads);
  g_ptr_array_unref (proxy->sockets);
  g_string_free (proxy->held, TRUE);
  g_object_unref (proxy->listener);
  g_object_unref (proxy->cancellable);
  g_mutex_clear (&proxy->lock);
  g_free (proxy);
}

#define KILL_QUESTION_ARGS                                                                                     \
  "{\"questions\":["                                                                                           \
  "{\"question\":\"Which database should I use for the new service?\",\"header\":\"Database\","                \
  "\"options\":[{\"label\":\"PostgreSQL\",\"description\":\"Relational, robust, default choice\"},"             \
  "{\"label\":\"SQLite\",\"description\":\"Embedded, zero-config\"}],\"multiple\":false}]}"

static const ClarifyTestToolCall kill_script[] = {
  { "call_question1", "question", KILL_QUESTION_ARGS },
};

static ClarifyInbox *
inbox_for (const char      *url,
           const char      *dir,
           ClarifyBackend **backend)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("agent", "opencode", url);
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);
  ClarifyInbox *inbox = clarify_inbox_new ();

  *backend = clarify_opencode_backend_new (connection);
  clarify_outbox_set_store (clarify_inbox_get_outbox (inbox), store);
  clarify_inbox_add_backend (inbox, *backend);

  return inbox;
}

static gboolean
child_answer (gpointer data)
{
  ClarifyRequest *request = data;
  ClarifyInbox *inbox = g_object_get_data (G_OBJECT (request), "test-inbox");
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);
  const char *values[] = { "SQLite", NULL };

  clarify_response_add_answer (response, clarify_question_get_id (clarify_request_get_question (request, 0)),
                               values, NULL, FALSE);
  clarify_inbox_answer (inbox, request, response);
  g_object_unref (request);
  return G_SOURCE_REMOVE;
}

static void
child_shown (ClarifyInbox   *inbox,
             ClarifyRequest *request)
{
  g_object_set_data (G_OBJECT (request), "test-inbox", inbox);
  g_idle_add (child_answer, g_object_ref (request));
}

/* The child: Clarify's core, whose person answers at once; then it waits
 * to be killed. */
static int
run_child (const char *url,
           const char *dir,
           const char *parent)
{
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;

  /* A test that failed before killing it leaves no child behind, even
   * one that died before this line. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (parent == NULL || getppid () != (pid_t) g_ascii_strtoll (parent, NULL, 10))
    return 1;

  inbox = inbox_for (url, dir, &backend);
  g_signal_connect (inbox, "request-added", G_CALLBACK (child_shown), NULL);
  clarify_backend_start (backend);

  for (;;)
    g_main_context_iteration (NULL, TRUE);

  return 0;
}

typedef struct
{
  HoldProxy  *proxy;
  const char *dir;
} KillWait;

#define KILL_ANSWER_BODY "{\"answers\":[[\"SQLite\"]]}"

static gboolean
answer_held_and_kept (gpointer data)
{
  KillWait *wait = data;
  g_autofree char *held = hold_proxy_get_held (wait->proxy);

  return g_str_has_suffix (held, "\r\n\r\n" KILL_ANSWER_BODY) && clarify_test_outbox_count (wait->dir, ".json") == 1;
}

static gboolean
outbox_empty (gpointer data)
{
  return clarify_test_outbox_count (data, ".json") == 0;
}

static guint
n_events (ClarifyTestOpencode *server,
          const char          *type)
{
  guint n = 0;

  for (guint i = 0; i < server->events->len; i++)
    {
      JsonObject *payload = json_node_get_object (server->events->pdata[i]);

      n += g_strcmp0 (json_object_get_string_member_with_default (payload, "type", ""), type) == 0;
    }

  return n;
}

/* The real OpenCode asks; Clarify (a child process) answers, keeps the
 * answer on disk and sends it, but OpenCode never reads it (the proxy
 * holds it); Clarify is killed (SIGKILL). OpenCode still asks. Clarify
 * starts again: the kept answer is posted once, nobody is asked again,
 * OpenCode takes it once and its model gets it; the folder is empty. */
static void
test_killed_while_delivering (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *root = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *parent = g_strdup_printf ("%d", (int) getpid ());
  g_autofree char *proxy_url = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *held = NULL;
  g_autofree char *answers = NULL;
  g_autoptr(JsonNode) pending = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyInbox) inbox = NULL;
  ClarifyTestSeen seen = { NULL, NULL };
  ClarifyTestOpencode server;
  HoldProxy *proxy;
  KillWait wait;
  JsonObject *replied;
  const char *question_id;

  if (!clarify_test_opencode_start (&server, kill_script, G_N_ELEMENTS (kill_script), NULL))
    return;
  root = g_dir_make_tmp ("clarify-kill-XXXXXX", NULL);
  dir = g_build_filename (root, "outbox", NULL);
  proxy = hold_proxy_new (server.base_url);
  proxy_url = g_strdup_printf ("http://127.0.0.1:%u", proxy->port);
  wait.proxy = proxy;
  wait.dir = dir;

  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_KILL_URL", proxy_url, TRUE);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_KILL_DIR", dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "CLARIFY_TEST_KILL_PARENT", parent, TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, "/proc/self/exe", NULL);
  g_assert_no_error (error);

  session_id = clarify_test_opencode_create_session (&server, "{\"title\":\"clarify\"}");
  clarify_test_opencode_prompt (&server, session_id, "Ask me which database to use");

  /* Answered, on disk, sent, and not read by OpenCode: then killed. */
  g_assert_true (clarify_test_wait_until (answer_held_and_kept, &wait, SLOW_MS));
  held = hold_proxy_get_held (proxy);
  g_assert_true (g_str_has_prefix (held, "POST /question/"));
  g_assert_true (g_str_has_suffix (held, "\r\n\r\n" KILL_ANSWER_BODY));
  g_subprocess_send_signal (child, SIGKILL);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));
  hold_proxy_free (proxy);

  /* OpenCode still asks, and has taken no answer. */
  pending = clarify_test_opencode_request (&server, SOUP_METHOD_GET, "/question", NULL, 200);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (pending)), ==, 1);
  question_id = json_object_get_string_member (json_array_get_object_element (json_node_get_array (pending), 0), "id");
  g_assert_nonnull (strstr (held, question_id));
  g_assert_cmpuint (n_events (&server, "question.replied"), ==, 0);

  /* Clarify starts again, straight to OpenCode. */
  inbox = inbox_for (server.base_url, dir, &backend);
  clarify_test_seen_init (&seen, inbox);
  clarify_backend_start (backend);

  replied = clarify_test_opencode_wait_for_event (&server, "question.replied");
  g_assert_cmpstr (json_object_get_string_member (replied, "requestID"), ==, question_id);
  answers = clarify_test_to_json (json_object_get_member (replied, "answers"));
  g_assert_cmpstr (answers, ==, "[[\"SQLite\"]]");
  clarify_test_fake_model_wait_for_tool_results (server.model, 1);
  g_assert_nonnull (strstr (server.model->tool_results->pdata[0],
                            "\"Which database should I use for the new service?\"=\"SQLite\""));

  g_assert_true (clarify_test_wait_until (clarify_test_seen_has_replayed, &seen, SLOW_MS));
  g_assert_true (clarify_test_wait_until (outbox_empty, dir, SLOW_MS));
  /* Settled: once, nobody asked again, nothing left. */
  clarify_test_spin (1000);
  g_assert_cmpuint (seen.replayed->len, ==, 1);
  {
    g_autofree char *expected = g_strconcat (question_id, "=delivered", NULL);

    g_assert_cmpstr (seen.replayed->pdata[0], ==, expected);
  }
  g_assert_cmpuint (seen.added->len, ==, 0);
  g_assert_cmpuint (n_events (&server, "question.replied"), ==, 1);
  g_assert_cmpuint (server.model->tool_results->len, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (inbox)), ==, 0);

  clarify_backend_stop (backend);
  clarify_test_seen_clear (&seen);
  clarify_test_opencode_stop (&server);
  clarify_test_remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  if (g_getenv ("CLARIFY_TEST_KILL_URL") != NULL)
    return run_child (g_getenv ("CLARIFY_TEST_KILL_URL"), g_getenv ("CLARIFY_TEST_KILL_DIR"),
                      g_getenv ("CLARIFY_TEST_KILL_PARENT"));
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/opencode-real/question-and-permission", test_real_server);
  g_test_add_func ("/opencode-real/killed-while-delivering", test_killed_while_delivering);

  return g_test_run ();
}
