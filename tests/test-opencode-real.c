/* test-opencode-real.c: Clarify against the real `opencode serve`
 *
 * Installs opencode-ai (pinned) from npm into the build dir, runs it offline
 * in an isolated HOME with a fake OpenAI-compatible model written here, lets
 * that model call `question` and then `bash` (which needs permission), and
 * answers both dialogs through their widgets. Asserted: OpenCode's own
 * events and what the model got back as tool results.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "clarify-opencode-events.h"
#include "clarify-choice-input.h"
#include "clarify-outbox.h"
#include "clarify-request-dialog-private.h"
#include "clarify-test-gtk-utils.h"
#include "backends/clarify-opencode-backend.h"

#include "clarify-test-opencode.h"

#define OPENCODE_VERSION "1.18.33"
#define SLOW_MS 90000

#define QUESTION_ARGS                                                                                          \
  "{\"questions\":["                                                                                           \
  "{\"question\":\"Which database should I use for the new service?\",\"header\":\"Database\","                \
  "\"options\":[{\"label\":\"PostgreSQL\",\"description\":\"Relational, robust, default choice\"},"             \
  "{\"label\":\"SQLite\",\"description\":\"Embedded, zero-config\"}],\"multiple\":false},"                      \
  "{\"question\":\"Which extras do you want?\",\"header\":\"Extras\","                                         \
  "\"options\":[{\"label\":\"Docker\",\"description\":\"Add a Dockerfile\"},"                                   \
  "{\"label\":\"CI\",\"description\":\"Add a CI workflow\"}],\"multiple\":true}]}"
#define BASH_ARGS "{\"command\":\"echo hello-from-clarify\",\"description\":\"Print a greeting\"}"

/* The fake model ---------------------------------------------------------- */

typedef struct
{
  SoupServer *server;
  char       *base_url;
  GPtrArray  *tool_results; /* every tool message content it was sent, in order */
  guint       n_calls;
} FakeModel;

static char *
tool_message_text (JsonObject *message)
{
  JsonNode *content = json_object_get_member (message, "content");
  GString *text = g_string_new (NULL);

  if (content != NULL && json_node_get_value_type (content) == G_TYPE_STRING)
    g_string_append (text, json_node_get_string (content));
  else if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *parts = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (parts); i++)
        {
          JsonObject *part = json_array_get_object_element (parts, i);

          if (part != NULL && json_object_has_member (part, "text"))
            g_string_append (text, json_object_get_string_member (part, "text"));
        }
    }

  return g_string_free (text, FALSE);
}

static char *
chunk (const char *delta,
       const char *finish_reason)
{
  return g_strdup_printf ("data: {\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,"
                          "\"model\":\"fake-model\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n",
                          delta, finish_reason);
}

static char *
tool_call_stream (const char *call_id,
                  const char *name,
                  const char *arguments)
{
  g_autoptr(JsonNode) args = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *quoted = NULL;
  g_autofree char *delta = NULL;
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;

  /* The arguments travel as a JSON string inside the JSON chunk. */
  json_node_set_string (args, arguments);
  json_generator_set_root (generator, args);
  quoted = json_generator_to_data (generator, NULL);
  delta = g_strdup_printf ("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"%s\","
                           "\"type\":\"function\",\"function\":{\"name\":\"%s\",\"arguments\":%s}}]}",
                           call_id, name, quoted);
  first = chunk (delta, "null");
  last = chunk ("{}", "\"tool_calls\"");

  return g_strconcat (first, last, "data: [DONE]\n\n", NULL);
}

static char *
text_stream (const char *text)
{
  g_autofree char *delta = g_strdup_printf ("{\"role\":\"assistant\",\"content\":\"%s\"}", text);
  g_autofree char *first = chunk (delta, "null");
  g_autofree char *last = chunk ("{}", "\"stop\"");

  return g_strconcat (first, last, "data: [DONE]\n\n", NULL);
}

static void
fake_model_handler (SoupServer        *server,
                    SoupServerMessage *message,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  FakeModel *fake = user_data;
  SoupMessageBody *request_body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (request_body);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *reply = NULL;
  JsonObject *root;
  JsonArray *messages;
  const char *last_tool_call = NULL;
  gboolean has_tools;
  gsize len;

  if (g_str_has_suffix (path, "/models"))
    {
      const char *models = "{\"object\":\"list\",\"data\":[{\"id\":\"fake-model\",\"object\":\"model\",\"owned_by\":\"test\"}]}";

      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, models, strlen (models));
      return;
    }

  if (!g_str_has_suffix (path, "/chat/completions") ||
      !json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      soup_server_message_set_status (message, 404, NULL);
      return;
    }

  fake->n_calls++;
  root = json_node_get_object (json_parser_get_root (parser));
  has_tools = json_object_has_member (root, "tools");
  messages = json_object_get_array_member (root, "messages");

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *m = json_array_get_object_element (messages, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (m, "role", ""), "tool") == 0)
        {
          last_tool_call = json_object_get_string_member_with_default (m, "tool_call_id", "");
          if (i + 1 == json_array_get_length (messages))
            g_ptr_array_add (fake->tool_results, tool_message_text (m));
        }
    }

  /* Title generation and the like come without tools. */
  if (!has_tools)
    reply = text_stream ("Fake session");
  else if (last_tool_call == NULL)
    reply = tool_call_stream ("call_question1", "question", QUESTION_ARGS);
  else if (g_str_equal (last_tool_call, "call_question1"))
    reply = tool_call_stream ("call_bash1", "bash", BASH_ARGS);
  else
    reply = text_stream ("All done.");

  soup_server_message_set_status (message, 200, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Cache-Control", "no-cache");
  len = strlen (reply);
  soup_server_message_set_response (message, "text/event-stream", SOUP_MEMORY_TAKE, g_steal_pointer (&reply), len);
}

static FakeModel *
fake_model_new (void)
{
  FakeModel *fake = g_new0 (FakeModel, 1);
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;

  fake->tool_results = g_ptr_array_new_with_free_func (g_free);
  fake->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (fake->server, "/v1", fake_model_handler, fake, NULL);
  soup_server_listen_local (fake->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (fake->server);
  fake->base_url = g_strdup_printf ("http://127.0.0.1:%d/v1", g_uri_get_port (uris->data));

  return fake;
}

static void
fake_model_free (FakeModel *fake)
{
  soup_server_disconnect (fake->server);
  g_object_unref (fake->server);
  g_ptr_array_unref (fake->tool_results);
  g_free (fake->base_url);
  g_free (fake);
}

/* npm and the server ------------------------------------------------------ */

static gboolean
is_network_failure (const char *npm_output)
{
  static const char *markers[] = {
    "ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH",
    "EHOSTUNREACH", "network", "request to https://", "getaddrinfo",
  };

  for (guint i = 0; i < G_N_ELEMENTS (markers); i++)
    if (strstr (npm_output, markers[i]) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
installed_version_matches (const char *cache)
{
  g_autofree char *package = g_build_filename (cache, "node_modules", "opencode-ai", "package.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_file (parser, package, NULL) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return FALSE;
  return g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (json_parser_get_root (parser)),
                                                                "version", NULL),
                    OPENCODE_VERSION) == 0;
}

/* The opencode binary from the build dir's cache, installed on first use.
 * NULL when the test was skipped because npm cannot reach the registry. */
static char *
ensure_opencode (void)
{
  g_autofree char *cache = g_test_build_filename (G_TEST_BUILT, "opencode-npm", NULL);
  g_autofree char *bin = g_build_filename (cache, "node_modules", ".bin", "opencode", NULL);
  g_autofree char *npm_cache = g_build_filename (cache, "npm-cache", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  const char *argv[] = { "npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", cache,
                         "opencode-ai@" OPENCODE_VERSION, NULL };
  int status = 0;

  if (g_file_test (bin, G_FILE_TEST_IS_EXECUTABLE) && installed_version_matches (cache))
    return g_steal_pointer (&bin);

  g_assert_cmpint (g_mkdir_with_parents (cache, 0755), ==, 0);
  env = g_environ_setenv (env, "npm_config_cache", npm_cache, TRUE);
  env = g_environ_setenv (env, "npm_config_update_notifier", "false", TRUE);
  g_test_message ("Installing opencode-ai@%s into %s", OPENCODE_VERSION, cache);
  g_spawn_sync (cache, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);

  if (!g_spawn_check_wait_status (status, NULL))
    {
      if (is_network_failure (err))
        {
          g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
          g_autoptr(GString) why = g_string_new (NULL);

          /* TAP keeps one line: npm's error lines, joined. */
          for (guint i = 0; lines[i] != NULL; i++)
            if (g_str_has_prefix (lines[i], "npm error") || g_str_has_prefix (lines[i], "npm ERR!"))
              g_string_append_printf (why, "%s%s", why->len > 0 ? " | " : "", lines[i]);
          g_test_skip_printf ("npm cannot reach the registry: %s", why->len > 0 ? why->str : err);
          return NULL;
        }
      g_error ("npm install opencode-ai@%s failed:\n%s\n%s", OPENCODE_VERSION, out, err);
    }

  g_assert_true (g_file_test (bin, G_FILE_TEST_IS_EXECUTABLE));
  return g_steal_pointer (&bin);
}

static void
write_project (const char *project,
               const char *model_url)
{
  g_autofree char *config_path = g_build_filename (project, "opencode.json", NULL);
  g_autofree char *config = g_strdup_printf (
    "{\n"
    "  \"$schema\": \"https://opencode.ai/config.json\",\n"
    "  \"autoupdate\": false,\n"
    "  \"share\": \"disabled\",\n"
    "  \"model\": \"fake/fake-model\",\n"
    "  \"small_model\": \"fake/fake-model\",\n"
    "  \"enabled_providers\": [\"fake\"],\n"
    "  \"provider\": {\n"
    "    \"fake\": {\n"
    "      \"npm\": \"@ai-sdk/openai-compatible\",\n"
    "      \"name\": \"Fake LLM\",\n"
    "      \"options\": { \"baseURL\": \"%s\", \"apiKey\": \"sk-fake\" },\n"
    "      \"models\": { \"fake-model\": { \"name\": \"Fake Model\", \"tool_call\": true,\n"
    "                                  \"limit\": { \"context\": 128000, \"output\": 4096 } } }\n"
    "    }\n"
    "  }\n"
    "}\n", model_url);
  g_autoptr(GError) error = NULL;
  const char *git[] = { "git", "init", "-q", NULL };

  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  g_file_set_contents (config_path, config, -1, &error);
  g_assert_no_error (error);
  /* A git repository makes it a project of its own; without git it still works. */
  g_spawn_sync (project, (char **) git, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, NULL, NULL);
}

typedef struct
{
  GSubprocess      *process;
  GDataInputStream *stdout_lines;
  char             *base_url;
} Server;

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Server *server = user_data;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, NULL);
  const char *url;

  if (line == NULL)
    return;

  /* "opencode server listening on http://127.0.0.1:PORT" */
  if (server->base_url == NULL && strstr (line, "listening on") != NULL && (url = strstr (line, "http://")) != NULL)
    server->base_url = g_strstrip (g_strdup (url));

  /* Keep draining so the pipe never fills. */
  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (object), G_PRIORITY_DEFAULT, NULL, read_line_cb, server);
}

static gboolean
server_listening (gpointer data)
{
  return ((Server *) data)->base_url != NULL;
}

static void
server_start (Server     *server,
              const char *bin,
              const char *root,
              const char *project)
{
  static const char *dirs[][2] = {
    { "HOME", "home" },
    { "XDG_CONFIG_HOME", "config" },
    { "XDG_DATA_HOME", "data" },
    { "XDG_CACHE_HOME", "cache" },
    { "XDG_STATE_HOME", "state" },
  };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GError) error = NULL;
  /* Every switch from the protocol notes (A7): nothing may leave loopback. */
  static const char *offline[][2] = {
    { "OPENCODE_DISABLE_MODELS_FETCH", "1" },
    { "OPENCODE_DISABLE_AUTOUPDATE", "1" },
    { "OPENCODE_DISABLE_DEFAULT_PLUGINS", "1" },
    { "OPENCODE_DISABLE_LSP_DOWNLOAD", "1" },
    { "OPENCODE_DISABLE_SHARE", "1" },
    { "OPENCODE_DISABLE_CLAUDE_CODE", "1" },
    { "OPENCODE_DISABLE_EXTERNAL_SKILLS", "1" },
    { "OPENCODE_PURE", "1" },
    { "npm_config_registry", "http://127.0.0.1:9/" },
  };

  /* Nothing of the user's: a HOME and XDG dirs of its own. */
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (root, dirs[i][1], NULL);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      g_subprocess_launcher_setenv (launcher, dirs[i][0], dir, TRUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (offline); i++)
    g_subprocess_launcher_setenv (launcher, offline[i][0], offline[i][1], TRUE);
  g_subprocess_launcher_unsetenv (launcher, "OPENCODE_SERVER_PASSWORD");
  g_subprocess_launcher_set_cwd (launcher, project);

  server->process = g_subprocess_launcher_spawn (launcher, &error, bin, "serve", "--port", "0",
                                                 "--hostname", "127.0.0.1", "--pure", NULL);
  g_assert_no_error (error);
  server->stdout_lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  g_data_input_stream_read_line_async (server->stdout_lines, G_PRIORITY_DEFAULT, NULL, read_line_cb, server);

  /* A request sent before this line can hang forever. */
  g_assert_true (clarify_test_wait_until (server_listening, server, SLOW_MS));
  g_test_message ("opencode serve: %s", server->base_url);
}

static void
server_stop (Server *server)
{
  if (server->process != NULL)
    {
      g_subprocess_send_signal (server->process, SIGTERM);
      g_subprocess_wait (server->process, NULL, NULL);
    }
  g_clear_object (&server->stdout_lines);
  g_clear_object (&server->process);
  g_clear_pointer (&server->base_url, g_free);
}

/* HTTP to the real server, with the main loop running meanwhile. */

typedef struct
{
  GBytes      *body;
  SoupMessage *message;
  gboolean     done;
} Call;

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Call *call = user_data;

  call->body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);
  call->done = TRUE;
}

static gboolean
call_done (gpointer data)
{
  return ((Call *) data)->done;
}

static JsonNode *
http_json (SoupSession *session,
           const char  *method,
           const char  *url,
           const char  *body,
           guint        expected_status)
{
  g_autoptr(SoupMessage) message = soup_message_new (method, url);
  g_autoptr(JsonParser) parser = json_parser_new ();
  Call call = { NULL, message, FALSE };
  gsize size = 0;
  const char *data;

  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (message, "application/json", bytes);
    }
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, call_cb, &call);
  g_assert_true (clarify_test_wait_until (call_done, &call, SLOW_MS));
  g_assert_nonnull (call.body);
  g_assert_cmpuint (soup_message_get_status (message), ==, expected_status);

  data = g_bytes_get_data (call.body, &size);
  if (size == 0 || !json_parser_load_from_data (parser, data, size, NULL))
    {
      g_bytes_unref (call.body);
      return NULL;
    }
  g_bytes_unref (call.body);
  return json_node_ref (json_parser_get_root (parser));
}

/* OpenCode's own events, as its other clients see them. */

typedef struct
{
  GPtrArray  *payloads; /* JsonNode */
  const char *type;
  JsonObject *found;
} Events;

static void
on_event (ClarifySseClient *client,
          const char       *type,
          const char       *data,
          const char       *id,
          Events           *events)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *payload;

  if (!json_parser_load_from_data (parser, data, -1, NULL) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;
  payload = json_object_get_member (json_node_get_object (json_parser_get_root (parser)), "payload");
  if (payload != NULL && JSON_NODE_HOLDS_OBJECT (payload))
    g_ptr_array_add (events->payloads, json_node_copy (payload));
}

static gboolean
has_event (gpointer data)
{
  Events *events = data;

  for (guint i = 0; i < events->payloads->len; i++)
    {
      JsonObject *payload = json_node_get_object (events->payloads->pdata[i]);

      if (g_strcmp0 (json_object_get_string_member_with_default (payload, "type", NULL), events->type) == 0)
        {
          events->found = json_object_get_object_member (payload, "properties");
          return TRUE;
        }
    }
  return FALSE;
}

static JsonObject *
wait_for_event (Events     *events,
                const char *type)
{
  events->type = type;
  events->found = NULL;
  g_assert_true (clarify_test_wait_until (has_event, events, SLOW_MS));
  return events->found;
}

static char *
to_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

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

static void
remove_tree (const char *path)
{
  const char *argv[] = { "rm", "-rf", path, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

static gboolean
has_tool_results (gpointer data)
{
  FakeModel *fake = data;

  return fake->tool_results->len >= GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (fake->server), "want"));
}

static void
wait_for_tool_results (FakeModel *fake,
                       guint      n)
{
  g_object_set_data (G_OBJECT (fake->server), "want", GUINT_TO_POINTER (n));
  g_assert_true (clarify_test_wait_until (has_tool_results, fake, SLOW_MS));
}

static gboolean
resynced (gpointer data)
{
  return ((ClarifyTestWatch *) data)->resynced > 0;
}

static void
test_real_server (void)
{
  g_autofree char *bin = ensure_opencode ();
  g_autofree char *root = NULL;
  g_autofree char *project = NULL;
  g_autofree char *url = NULL;
  g_autofree char *body = NULL;
  g_autofree char *answers = NULL;
  g_autofree char *listing_url = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(ClarifySseClient) recorder = NULL;
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyOutbox) outbox = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(JsonNode) permissions = NULL;
  g_autoptr(ClarifyRequest) german = NULL;
  ClarifyTestWatch watch = { 0 };
  Events events = { g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref), NULL, NULL };
  Server server = { 0 };
  FakeModel *fake;
  ClarifyRequestDialog *dialog;
  ClarifyRequest *request;
  JsonObject *replied;
  const char *session_id;
  GtkWidget *entry;
  GtkWidget *skip;

  if (bin == NULL)
    return;

  fake = fake_model_new ();
  root = g_dir_make_tmp ("clarify-opencode-real-XXXXXX", NULL);
  g_assert_nonnull (root);
  project = g_build_filename (root, "project", NULL);
  write_project (project, fake->base_url);
  server_start (&server, bin, root, project);
  session = soup_session_new ();

  /* OpenCode's own view of what happens. */
  url = g_strconcat (server.base_url, "/global/event", NULL);
  recorder = clarify_sse_client_new (session, url);
  g_signal_connect (recorder, "event", G_CALLBACK (on_event), &events);
  clarify_sse_client_start (recorder);

  connection = clarify_connection_new ("real", "opencode", server.base_url);
  backend = clarify_opencode_backend_new (connection);
  outbox = clarify_outbox_new ();
  clarify_test_watch_init (&watch, backend);
  clarify_backend_start (backend);
  g_assert_true (clarify_test_wait_until (resynced, &watch, SLOW_MS));

  /* A session whose bash calls need permission, and a prompt. */
  g_free (url);
  url = g_strconcat (server.base_url, "/session", NULL);
  created = http_json (session, SOUP_METHOD_POST, url,
                       "{\"title\":\"clarify\",\"permission\":[{\"permission\":\"bash\",\"pattern\":\"*\",\"action\":\"ask\"}]}", 200);
  g_assert_nonnull (created);
  session_id = json_object_get_string_member (json_node_get_object (created), "id");
  g_free (url);
  url = g_strdup_printf ("%s/session/%s/prompt_async", server.base_url, session_id);
  g_clear_pointer (&body, g_free);
  json_node_unref (http_json (session, SOUP_METHOD_POST, url,
                              "{\"parts\":[{\"type\":\"text\",\"text\":\"Ask me two questions, then RUNBASH\"}]}", 204)
                   ?: json_node_new (JSON_NODE_NULL));

  /* The question: pick a label, tick another, type a custom one. */
  request = clarify_test_watch_wait_request_for (&watch, 1, SLOW_MS);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "question");
  g_assert_cmpstr (clarify_request_get_project (request), ==, project);
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

  replied = wait_for_event (&events, "question.replied");
  g_assert_cmpstr (json_object_get_string_member (replied, "requestID"), ==, clarify_request_get_id (request));
  answers = to_json (json_object_get_member (replied, "answers"));
  g_assert_cmpstr (answers, ==, "[[\"SQLite\"],[\"Docker\",\"Kubernetes manifests\"]]");

  wait_for_tool_results (fake, 1);
  g_assert_nonnull (strstr (fake->tool_results->pdata[0],
                            "\"Which database should I use for the new service?\"=\"SQLite\""));
  g_assert_nonnull (strstr (fake->tool_results->pdata[0],
                            "\"Which extras do you want?\"=\"Docker, Kubernetes manifests\""));

  /* The permission for bash: Allow once, no message. */
  request = clarify_test_watch_wait_request_for (&watch, 2, SLOW_MS);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (request), CLARIFY_REQUEST_DATA_KIND), ==, "permission");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Allow “bash”?");
  g_assert_nonnull (strstr (clarify_request_get_context (request), "echo hello-from-clarify"));

  /* German from the start: decode the server's own listing under LANGUAGE=de. */
  clarify_test_set_language ("de");
  listing_url = g_strdup_printf ("%s/permission", server.base_url);
  permissions = http_json (session, SOUP_METHOD_GET, listing_url, NULL, 200);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (permissions));
  german = clarify_opencode_permission_new (json_array_get_object_element (json_node_get_array (permissions), 0),
                                            FALSE, project, NULL, NULL);
  g_assert_nonnull (german);
  clarify_request_set_connection (german, "real", "opencode");
  screenshot_german (german, "opencode-permission-de");

  dialog = open_dialog (request, outbox, backend, "opencode-permission-en");
  click (GTK_WIDGET (clarify_request_dialog_get_input (dialog, 0)), "Allow once");
  if (clarify_request_dialog_get_paged (dialog))
    press_button (GTK_WIDGET (dialog), "Next");
  /* The message is optional: say so. */
  skip = GTK_WIDGET (clarify_request_dialog_get_skip_toggle (dialog, 1));
  g_assert_nonnull (skip);
  gtk_widget_activate (skip);
  g_assert_true (clarify_test_wait_until (toggle_is_active, skip, 5000));
  press_button (GTK_WIDGET (dialog), "Submit");

  replied = wait_for_event (&events, "permission.replied");
  g_assert_cmpstr (json_object_get_string_member (replied, "requestID"), ==, clarify_request_get_id (request));
  g_assert_cmpstr (json_object_get_string_member (replied, "reply"), ==, "once");

  wait_for_tool_results (fake, 2);
  g_assert_nonnull (strstr (fake->tool_results->pdata[1], "hello-from-clarify"));
  g_assert_cmpuint (watch.added->len, ==, 2);

  clarify_sse_client_stop (recorder);
  clarify_test_watch_clear (&watch);
  server_stop (&server);
  fake_model_free (fake);
  g_ptr_array_unref (events.payloads);
  remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_gtk_init (&argc, &argv);

  g_test_add_func ("/opencode-real/question-and-permission", test_real_server);

  return g_test_run ();
}
