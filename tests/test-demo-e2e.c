/* test-demo-e2e.c: the demo agent and Clarify's core, end to end over loopback HTTP
 *
 * The demo agent streams its walkthrough; a "clarify" backend receives each
 * request; the test answers it the way the dialog would; the outbox posts
 * the answer; the agent confirms it and asks the next question.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-json-backend.h"
#include "clarify-backend-registry.h"
#include "clarify-demo-agent.h"
#include "clarify-error.h"
#include "clarify-json.h"
#include "clarify-inbox.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"
#include "clarify-validate.h"

#define WAIT_MS 10000

typedef struct
{
  ClarifyDemoAgent  *agent;
  ClarifyConnection *connection;
  ClarifyBackend    *backend;
  ClarifyOutbox     *outbox;

  GPtrArray         *added;          /* ClarifyRequest */
  /* What the agent got, one entry per answer. */
  GPtrArray         *received_ids;
  GPtrArray         *received_json;
  GPtrArray         *received_summaries;
  GPtrArray         *confirmed;      /* the backend's ::confirmed summaries */
  guint              n_delivered;
  guint              n_failed;
  GError            *failure;
} Fixture;

static void
on_request_added (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Fixture        *fixture)
{
  g_ptr_array_add (fixture->added, g_object_ref (request));
}

static void
on_received (ClarifyDemoAgent *agent,
             const char       *request_id,
             ClarifyResponse  *response,
             const char       *summary,
             Fixture          *fixture)
{
  g_autoptr(JsonNode) node = clarify_response_to_json (response);

  g_ptr_array_add (fixture->received_ids, g_strdup (request_id));
  g_ptr_array_add (fixture->received_json, clarify_json_to_string (node));
  g_ptr_array_add (fixture->received_summaries, g_strdup (summary));
}

static void
on_confirmed (ClarifyBackend *backend,
              const char     *request_id,
              const char     *summary,
              Fixture        *fixture)
{
  g_ptr_array_add (fixture->confirmed, g_strdup (summary));
}

static void
on_delivered (ClarifyOutbox   *outbox,
              ClarifyRequest  *request,
              ClarifyResponse *response,
              Fixture         *fixture)
{
  fixture->n_delivered++;
}

static void
on_failed (ClarifyOutbox   *outbox,
           ClarifyRequest  *request,
           ClarifyResponse *response,
           const GError    *error,
           Fixture         *fixture)
{
  fixture->n_failed++;
  g_clear_error (&fixture->failure);
  fixture->failure = g_error_copy (error);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *url;

  fixture->agent = clarify_demo_agent_new ();
  g_assert_true (clarify_demo_agent_start (fixture->agent, &error));
  g_assert_no_error (error);

  url = clarify_demo_agent_get_events_url (fixture->agent);
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));
  g_assert_true (g_str_has_suffix (url, "/events"));

  fixture->connection = clarify_connection_new ("demo", "clarify", url);
  fixture->backend = clarify_backend_registry_create (fixture->connection, &error);
  g_assert_no_error (error);
  /* The backend used alone has an inbox of its own; it owns the outbox. */
  fixture->outbox = g_object_ref (clarify_inbox_get_outbox (clarify_backend_get_inbox (fixture->backend)));

  fixture->added = g_ptr_array_new_with_free_func (g_object_unref);
  fixture->received_ids = g_ptr_array_new_with_free_func (g_free);
  fixture->received_json = g_ptr_array_new_with_free_func (g_free);
  fixture->received_summaries = g_ptr_array_new_with_free_func (g_free);
  fixture->confirmed = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (fixture->backend, "request-added", G_CALLBACK (on_request_added), fixture);
  g_signal_connect (fixture->backend, "confirmed", G_CALLBACK (on_confirmed), fixture);
  g_signal_connect (fixture->agent, "received", G_CALLBACK (on_received), fixture);
  g_signal_connect (fixture->outbox, "delivered", G_CALLBACK (on_delivered), fixture);
  g_signal_connect (fixture->outbox, "failed", G_CALLBACK (on_failed), fixture);

  clarify_backend_start (fixture->backend);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  clarify_backend_stop (fixture->backend);
  g_clear_object (&fixture->outbox);
  g_assert_finalize_object (fixture->backend);
  g_assert_finalize_object (fixture->agent);
  g_clear_object (&fixture->connection);
  g_clear_error (&fixture->failure);
  g_clear_pointer (&fixture->added, g_ptr_array_unref);
  g_clear_pointer (&fixture->received_ids, g_ptr_array_unref);
  g_clear_pointer (&fixture->received_json, g_ptr_array_unref);
  g_clear_pointer (&fixture->received_summaries, g_ptr_array_unref);
  g_clear_pointer (&fixture->confirmed, g_ptr_array_unref);
}

typedef struct
{
  GPtrArray *array;
  guint      n;
} CountWait;

static gboolean
has_n (gpointer data)
{
  CountWait *wait = data;

  return wait->array->len >= wait->n;
}

static void
wait_for_len (GPtrArray *array,
              guint      n)
{
  CountWait wait = { array, n };

  g_assert_true (clarify_test_loop_until (has_n, &wait, WAIT_MS));
}

static gboolean
outbox_is_empty (gpointer data)
{
  return clarify_outbox_get_n_pending (data) == 0;
}

/* A value the dialog would accept for @question, checked with the same
 * validator the dialog uses. */
static void
answer_question (ClarifyResponse *response,
                 ClarifyQuestion *question)
{
  const char *id = clarify_question_get_id (question);
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;
  g_autofree char *message = NULL;
  const char *custom_text = NULL;

  switch (clarify_question_get_kind (question))
    {
    case CLARIFY_QUESTION_KIND_TEXT:
      /* The two text questions have patterns: a project name and a version. */
      if (g_str_equal (id, "version"))
        g_strv_builder_add (values, "1.4.0");
      else
        g_strv_builder_add (values, "clarify-demo");
      break;

    case CLARIFY_QUESTION_KIND_SINGLE:
      /* "Other…" where offered, to show custom text travels; else the first option. */
      if (clarify_question_get_allow_other (question))
        custom_text = "MPL-2.0";
      else
        g_strv_builder_add (values, clarify_option_get_value (clarify_question_get_option (question, 0)));
      break;

    case CLARIFY_QUESTION_KIND_MULTI:
      g_strv_builder_add (values, clarify_option_get_value (clarify_question_get_option (question, 0)));
      g_strv_builder_add (values, clarify_option_get_value (clarify_question_get_option (question, 2)));
      break;

    case CLARIFY_QUESTION_KIND_CONFIRM:
      g_strv_builder_add (values, "yes");
      break;

    case CLARIFY_QUESTION_KIND_NUMBER:
      g_strv_builder_add (values, "8");
      break;

    case CLARIFY_QUESTION_KIND_DATE:
      g_strv_builder_add (values, "2026-03-14");
      break;

    case CLARIFY_QUESTION_KIND_DATE_RANGE:
      g_strv_builder_add (values, "2026-03-16");
      g_strv_builder_add (values, "2026-03-20");
      break;

    default:
      g_assert_not_reached ();
    }

  strv = g_strv_builder_end (values);
  g_assert_true (clarify_question_check_answer (question, (const char * const *) strv, custom_text, &message));
  g_assert_null (message);

  clarify_response_add_answer (response, id, (const char * const *) strv, custom_text, FALSE);
}

/* The dialog's possible outcomes, spread over the walkthrough. */
static ClarifyResponse *
respond_like_the_dialog (ClarifyRequest *request)
{
  const char *id = clarify_request_get_id (request);
  ClarifyResponse *response;

  /* The one with a 60 s countdown: the user let it run out. */
  if (clarify_request_get_timeout_ms (request) > 0)
    return clarify_response_new (id, CLARIFY_OUTCOME_TIMED_OUT);

  response = clarify_response_new (id, CLARIFY_OUTCOME_ANSWERED);
  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);

      /* Skip what may be skipped, as a hurried user would. */
      if (clarify_question_get_skippable (question))
        clarify_response_add_answer (response, clarify_question_get_id (question), NULL, NULL, TRUE);
      else
        answer_question (response, question);
    }

  return response;
}

static char *
response_to_string (ClarifyResponse *response)
{
  g_autoptr(JsonNode) node = clarify_response_to_json (response);

  return clarify_json_to_string (node);
}

/* Walks the whole demo and checks each round trip. Returns the requests in
 * the order they arrived (owned by @fixture). */
static void
walk_the_demo (Fixture *fixture)
{
  guint n_requests = clarify_demo_agent_get_n_requests (fixture->agent);
  g_autoptr(GHashTable) kinds_seen = g_hash_table_new (NULL, NULL);
  gboolean saw_timeout = FALSE;
  gboolean saw_three = FALSE;
  gboolean saw_other = FALSE;
  gboolean saw_pattern = FALSE;

  g_assert_cmpuint (n_requests, ==, 12);

  for (guint i = 0; i < n_requests; i++)
    {
      g_autoptr(ClarifyResponse) response = NULL;
      g_autofree char *sent_json = NULL;
      ClarifyRequest *request;

      wait_for_len (fixture->added, i + 1);
      request = g_ptr_array_index (fixture->added, i);
      g_test_message ("request %u: %s", i + 1, clarify_request_get_id (request));

      /* One request at a time: the next only comes after an answer. */
      g_assert_cmpuint (fixture->added->len, ==, i + 1);
      g_assert_cmpstr (clarify_request_get_id (request), ==, clarify_demo_agent_get_current_id (fixture->agent));
      g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "demo");
      g_assert_nonnull (clarify_request_get_title (request));
      g_assert_true (clarify_backend_lookup_request (fixture->backend, clarify_request_get_id (request)) == request);

      for (guint q = 0; q < clarify_request_get_n_questions (request); q++)
        {
          ClarifyQuestion *question = clarify_request_get_question (request, q);

          g_hash_table_add (kinds_seen, GUINT_TO_POINTER (clarify_question_get_kind (question)));
          saw_other |= clarify_question_get_allow_other (question);
          saw_pattern |= clarify_question_get_validation (question) != NULL &&
                         clarify_question_get_validation (question)->pattern != NULL;
        }
      saw_three |= clarify_request_get_n_questions (request) == 3;
      if (clarify_request_get_timeout_ms (request) == 60 * 1000)
        saw_timeout = TRUE;

      response = respond_like_the_dialog (request);
      sent_json = response_to_string (response);
      clarify_inbox_answer (clarify_backend_get_inbox (fixture->backend), request, response);

      wait_for_len (fixture->received_json, i + 1);
      g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, WAIT_MS));

      /* The agent decoded exactly what was sent, and said so. */
      g_assert_cmpstr (g_ptr_array_index (fixture->received_ids, i), ==, clarify_request_get_id (request));
      g_assert_cmpstr (g_ptr_array_index (fixture->received_json, i), ==, sent_json);
      g_assert_cmpuint (fixture->n_delivered, ==, i + 1);
      g_assert_cmpuint (fixture->n_failed, ==, 0);
      g_assert_cmpuint (fixture->confirmed->len, ==, i + 1);
      g_assert_cmpstr (g_ptr_array_index (fixture->confirmed, i), ==,
                       g_ptr_array_index (fixture->received_summaries, i));
      g_assert_null (clarify_backend_lookup_request (fixture->backend, clarify_request_get_id (request)));
    }

  g_assert_cmpuint (clarify_demo_agent_get_n_received (fixture->agent), ==, 12);
  g_assert_null (clarify_demo_agent_get_current_id (fixture->agent));

  /* Every kind, and each special case of the walkthrough, came by. */
  for (ClarifyQuestionKind kind = CLARIFY_QUESTION_KIND_TEXT; kind <= CLARIFY_QUESTION_KIND_DATE_RANGE; kind++)
    g_assert_true (g_hash_table_contains (kinds_seen, GUINT_TO_POINTER (kind)));
  g_assert_true (saw_timeout);
  g_assert_true (saw_three);
  g_assert_true (saw_other);
  g_assert_true (saw_pattern);

  /* After the last one the agent asks nothing more. */
  clarify_test_loop_for (200);
  g_assert_cmpuint (fixture->added->len, ==, 12);
}

static ClarifyRequest *
find_added (Fixture    *fixture,
            const char *id)
{
  for (guint i = 0; i < fixture->added->len; i++)
    {
      ClarifyRequest *request = g_ptr_array_index (fixture->added, i);

      if (g_str_equal (clarify_request_get_id (request), id))
        return request;
    }

  g_assert_not_reached ();
}

static void
test_walkthrough (Fixture       *fixture,
                  gconstpointer  data)
{
  ClarifyRequest *request;
  ClarifyQuestion *question;
  const char *summary;

  walk_the_demo (fixture);

  /* The first: a project name with a pattern and its own message. */
  request = g_ptr_array_index (fixture->added, 0);
  question = clarify_request_get_question (request, 0);
  g_assert_cmpint (clarify_question_get_kind (question), ==, CLARIFY_QUESTION_KIND_TEXT);
  g_assert_cmpstr (clarify_question_get_validation (question)->pattern, ==, "^[a-z][a-z0-9-]*$");
  g_assert_nonnull (clarify_question_get_validation (question)->message);
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 0), ==, "Project name: clarify-demo");

  /* The database: three options, each described; the summary names the label. */
  request = find_added (fixture, "demo-database");
  question = clarify_request_get_question (request, 0);
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_nonnull (clarify_option_get_description (clarify_question_get_option (question, i)));
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 1), ==, "Database: PostgreSQL");

  /* Eight cities with accents, for the searchable list. */
  request = find_added (fixture, "demo-region");
  question = clarify_request_get_question (request, 0);
  g_assert_cmpuint (clarify_question_get_n_options (question), ==, 8);
  g_assert_nonnull (clarify_question_find_option (question, "Köln"));
  g_assert_nonnull (clarify_question_find_option (question, "Zürich"));

  /* "Other…" text travels as custom text and comes back quoted. */
  summary = g_ptr_array_index (fixture->received_summaries, 4);
  g_assert_cmpstr (summary, ==, "License: “MPL-2.0”");

  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 5), ==, "Migrations: Yes");
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 7), ==, "Feature freeze: skipped");
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 8), ==, "On call: 2026-03-16 – 2026-03-20");
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 9), ==,
                   "Version: 1.4.0; Branch: main; Release notes: Yes");
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 10), ==,
                   "“Deployment window” timed out without an answer.");

  /* The localized request, in English here (LANGUAGE=en). */
  request = find_added (fixture, "demo-channel");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Release channel");
  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==,
                   "Which channel should receive this build?");
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 11), ==, "Channel: Stable");
}

static void
test_walkthrough_german_objects (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *language = g_strdup (g_getenv ("LANGUAGE"));
  ClarifyRequest *request;

  /* The {"en","de"} objects are picked by the user's language; the other
   * texts go through gettext and need the catalog, which po/ provides. */
  g_setenv ("LANGUAGE", "de", TRUE);
  walk_the_demo (fixture);
  g_setenv ("LANGUAGE", language ? language : "en", TRUE);

  request = find_added (fixture, "demo-channel");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Veröffentlichungskanal");
  g_assert_cmpstr (clarify_question_get_text (clarify_request_get_question (request, 0)), ==,
                   "Welcher Kanal soll diesen Build erhalten?");
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (clarify_request_get_question (request, 0), 0)), ==,
                   "Stabil");
  /* The agent reads the labels in the same language back. */
  g_assert_cmpstr (g_ptr_array_index (fixture->received_summaries, 11), ==, "Kanal: Stabil");
}

static void
test_invalid_answer_rejected (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(ClarifyResponse) response = NULL;
  ClarifyRequest *request;

  wait_for_len (fixture->added, 1);
  request = g_ptr_array_index (fixture->added, 0);

  /* Not a valid project name: a careful agent refuses it. */
  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, "project-name", (const char *[]) { "Not A Name!", NULL }, NULL, FALSE);
  clarify_inbox_answer (clarify_backend_get_inbox (fixture->backend), request, response);

  g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, WAIT_MS));
  g_assert_error (fixture->failure, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED);
  g_assert_cmpuint (fixture->n_delivered, ==, 0);
  g_assert_cmpuint (fixture->received_json->len, ==, 0);
  g_assert_cmpuint (clarify_demo_agent_get_n_received (fixture->agent), ==, 0);
  /* Still pending: it may be answered again. */
  g_assert_true (clarify_backend_lookup_request (fixture->backend, clarify_request_get_id (request)) == request);
  g_assert_cmpstr (clarify_demo_agent_get_current_id (fixture->agent), ==, clarify_request_get_id (request));
}

static void
test_unknown_request_gone (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(ClarifyRequest) stale = clarify_request_new ("demo-from-yesterday");
  g_autoptr(ClarifyResponse) response = clarify_response_new ("demo-from-yesterday", CLARIFY_OUTCOME_CANCELLED);

  wait_for_len (fixture->added, 1);
  clarify_outbox_post (fixture->outbox, fixture->backend, stale, response);

  g_assert_true (clarify_test_loop_until (outbox_is_empty, fixture->outbox, WAIT_MS));
  g_assert_error (fixture->failure, CLARIFY_ERROR, CLARIFY_ERROR_GONE);
  g_assert_cmpuint (clarify_demo_agent_get_n_received (fixture->agent), ==, 0);
}

static void
count_request_events (ClarifySseClient *client,
                      const char       *type,
                      const char       *data,
                      const char       *id,
                      guint            *n_request_events)
{
  if (g_strcmp0 (type, "request") == 0)
    (*n_request_events)++;
}

static gboolean
is_positive (gpointer data)
{
  return *(guint *) data > 0;
}

static void
test_reconnect_resends_pending (Fixture       *fixture,
                                gconstpointer  data)
{
  ClarifySseClient *client = clarify_json_backend_get_sse_client (CLARIFY_JSON_BACKEND (fixture->backend));
  guint n_request_events = 0;
  gulong handler;

  wait_for_len (fixture->added, 1);

  /* A reconnecting Clarify gets the pending request again, and shows it once. */
  handler = g_signal_connect (client, "event", G_CALLBACK (count_request_events), &n_request_events);
  clarify_sse_client_set_backoff (client, 10, 50);
  clarify_sse_client_reconnect (client);
  g_assert_true (clarify_test_loop_until (is_positive, &n_request_events, WAIT_MS));
  g_signal_handler_disconnect (client, handler);

  g_assert_cmpuint (n_request_events, ==, 1);
  g_assert_cmpuint (fixture->added->len, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_backend_get_requests (fixture->backend)), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/demo-e2e/walkthrough", test_walkthrough);
  ADD ("/demo-e2e/walkthrough-german-objects", test_walkthrough_german_objects);
  ADD ("/demo-e2e/invalid-answer-rejected", test_invalid_answer_rejected);
  ADD ("/demo-e2e/unknown-request-gone", test_unknown_request_gone);
  ADD ("/demo-e2e/reconnect-resends-pending", test_reconnect_resends_pending);
#undef ADD

  return g_test_run ();
}
