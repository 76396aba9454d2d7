/* bench-e2e.c: one question's round trip through the demo agent, in ms
 *
 * Not a test: it prints figures to compare between changes.
 *
 *   bench-e2e [--iterations 200]
 *
 * The demo agent runs in its own thread with its own main context (as a
 * separate agent process would), Clarify's core in the main thread: a
 * "clarify" backend receives each request, the bench answers it at once
 * the way the dialog would, and ClarifyOutbox posts the answer. A round
 * trip k runs from the agent accepting answer k-1 (right after which it
 * streams request k) to the agent accepting answer k:
 *
 *   agent streams k → SSE parser → backend → ::request-added → answer →
 *   outbox → HTTP POST → agent decodes and checks it → ::received
 *
 * The walkthrough has 12 requests, so the agent is replaced every 12; the
 * first request of each walkthrough (it rides on the new stream) is not
 * counted, nor is the first walkthrough (warm-up).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"
#include "clarify-backend-registry.h"
#include "clarify-demo-agent.h"
#include "clarify-outbox.h"
#include "clarify-test-server.h"
#include "clarify-validate.h"

#define WAIT_MS 10000

static int opt_iterations = 200;

static const GOptionEntry entries[] = {
  { "iterations", 'i', 0, G_OPTION_ARG_INT, &opt_iterations,
    "Round trips to measure (default 200)", "N" },
  { NULL }
};

/* ---- the agent's thread ------------------------------------------------- */

typedef struct
{
  GThread          *thread;
  GMainContext     *context;
  GMainLoop        *loop;
  ClarifyDemoAgent *agent;  /* touched in the agent's thread only */

  GMutex            mutex;
  GCond             cond;
  char             *url;
  guint             n_requests;   /* in one walkthrough */
  GHashTable       *received_at;  /* request id → gint64* monotonic µs */
} AgentHost;

static gpointer
agent_thread_func (gpointer data)
{
  AgentHost *host = data;

  g_main_context_push_thread_default (host->context);
  g_main_loop_run (host->loop);
  g_main_context_pop_thread_default (host->context);

  return NULL;
}

typedef struct
{
  AgentHost  *host;
  GSourceFunc func;
  gboolean    done;
} AgentCall;

static gboolean
agent_call_cb (gpointer data)
{
  AgentCall *call = data;

  call->func (call->host);

  g_mutex_lock (&call->host->mutex);
  call->done = TRUE;
  g_cond_broadcast (&call->host->cond);
  g_mutex_unlock (&call->host->mutex);

  return G_SOURCE_REMOVE;
}

/* Runs @func (@host) in the agent's thread and waits for it. */
static void
run_in_agent_thread (AgentHost  *host,
                     GSourceFunc func)
{
  AgentCall call = { host, func, FALSE };

  g_main_context_invoke (host->context, agent_call_cb, &call);

  g_mutex_lock (&host->mutex);
  while (!call.done)
    g_cond_wait (&host->cond, &host->mutex);
  g_mutex_unlock (&host->mutex);
}

static void
on_agent_received (ClarifyDemoAgent *agent,
                   const char       *request_id,
                   ClarifyResponse  *response,
                   const char       *summary,
                   AgentHost        *host)
{
  gint64 *at = g_new (gint64, 1);

  *at = g_get_monotonic_time ();
  g_mutex_lock (&host->mutex);
  g_hash_table_replace (host->received_at, g_strdup (request_id), at);
  g_mutex_unlock (&host->mutex);
}

static gboolean
agent_start_cb (gpointer data)
{
  AgentHost *host = data;
  g_autoptr(GError) error = NULL;

  host->agent = clarify_demo_agent_new ();
  g_signal_connect (host->agent, "received", G_CALLBACK (on_agent_received), host);
  if (!clarify_demo_agent_start (host->agent, &error))
    g_error ("The demo agent cannot listen: %s", error->message);

  g_mutex_lock (&host->mutex);
  g_free (host->url);
  host->url = g_strdup (clarify_demo_agent_get_events_url (host->agent));
  host->n_requests = clarify_demo_agent_get_n_requests (host->agent);
  g_hash_table_remove_all (host->received_at);
  g_mutex_unlock (&host->mutex);

  return G_SOURCE_REMOVE;
}

static gboolean
agent_stop_cb (gpointer data)
{
  AgentHost *host = data;

  if (host->agent != NULL)
    clarify_demo_agent_stop (host->agent);
  g_clear_object (&host->agent);

  return G_SOURCE_REMOVE;
}

static gboolean
agent_quit_cb (gpointer data)
{
  AgentHost *host = data;

  g_main_loop_quit (host->loop);

  return G_SOURCE_REMOVE;
}

static AgentHost *
agent_host_new (void)
{
  AgentHost *host = g_new0 (AgentHost, 1);

  g_mutex_init (&host->mutex);
  g_cond_init (&host->cond);
  host->context = g_main_context_new ();
  host->loop = g_main_loop_new (host->context, FALSE);
  host->received_at = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  host->thread = g_thread_new ("bench-agent", agent_thread_func, host);

  return host;
}

static void
agent_host_free (AgentHost *host)
{
  run_in_agent_thread (host, agent_stop_cb);
  run_in_agent_thread (host, agent_quit_cb);
  g_thread_join (host->thread);

  g_main_loop_unref (host->loop);
  g_main_context_unref (host->context);
  g_hash_table_unref (host->received_at);
  g_free (host->url);
  g_mutex_clear (&host->mutex);
  g_cond_clear (&host->cond);
  g_free (host);
}

/* Monotonic µs at which the agent accepted the answer to @request_id, or 0. */
static gint64
agent_host_received_at (AgentHost  *host,
                        const char *request_id)
{
  gint64 *at;
  gint64 value;

  g_mutex_lock (&host->mutex);
  at = g_hash_table_lookup (host->received_at, request_id);
  value = at ? *at : 0;
  g_mutex_unlock (&host->mutex);

  return value;
}

/* ---- Clarify's side, in the main thread ---------------------------------- */

/* A value the dialog would accept, without knowing the walkthrough: the
 * question's defaults, its placeholder, its first option. */
static GStrv
plausible_values (ClarifyQuestion *question)
{
  const char * const *defaults = clarify_question_get_default_values (question);
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();

  if (defaults != NULL && defaults[0] != NULL)
    return g_strdupv ((char **) defaults);

  switch (clarify_question_get_kind (question))
    {
    case CLARIFY_QUESTION_KIND_SINGLE:
    case CLARIFY_QUESTION_KIND_MULTI:
      g_strv_builder_add (values, clarify_option_get_value (clarify_question_get_option (question, 0)));
      break;

    case CLARIFY_QUESTION_KIND_CONFIRM:
      g_strv_builder_add (values, "yes");
      break;

    case CLARIFY_QUESTION_KIND_NUMBER:
      g_strv_builder_add (values, "1");
      break;

    case CLARIFY_QUESTION_KIND_DATE:
      g_strv_builder_add (values, "2026-05-04");
      break;

    case CLARIFY_QUESTION_KIND_DATE_RANGE:
      g_strv_builder_add (values, "2026-05-04");
      g_strv_builder_add (values, "2026-05-08");
      break;

    case CLARIFY_QUESTION_KIND_TEXT:
    default:
      {
        const char *placeholder = clarify_question_get_placeholder (question);

        g_strv_builder_add (values, placeholder && *placeholder ? placeholder : "benchmark");
      }
      break;
    }

  return g_strv_builder_end (values);
}

static ClarifyResponse *
answer_request (ClarifyRequest *request,
                guint          *n_cancelled)
{
  const char *id = clarify_request_get_id (request);
  g_autoptr(ClarifyResponse) response = clarify_response_new (id, CLARIFY_OUTCOME_ANSWERED);

  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      g_auto(GStrv) values = plausible_values (question);
      g_autofree char *message = NULL;

      if (clarify_question_check_answer (question, (const char * const *) values, NULL, &message))
        clarify_response_add_answer (response, clarify_question_get_id (question),
                                     (const char * const *) values, NULL, FALSE);
      else if (clarify_question_get_skippable (question))
        clarify_response_add_answer (response, clarify_question_get_id (question), NULL, NULL, TRUE);
      else
        {
          /* Still a full round trip, just a shorter body. */
          (*n_cancelled)++;
          return clarify_response_new (id, CLARIFY_OUTCOME_CANCELLED);
        }
    }

  return g_steal_pointer (&response);
}

typedef struct
{
  GQueue   requests;     /* ClarifyRequest*, newest last */
  GQueue   added_at;     /* gint64* */
  gboolean settled;      /* the current answer was delivered or failed */
  gint64   settled_at;
  guint    n_failed;
  guint    n_cancelled;
} Client;

static void
on_request_added (ClarifyBackend *backend,
                  ClarifyRequest *request,
                  Client         *client)
{
  gint64 *at = g_new (gint64, 1);

  *at = g_get_monotonic_time ();
  g_queue_push_tail (&client->requests, g_object_ref (request));
  g_queue_push_tail (&client->added_at, at);
}

static void
on_delivered (ClarifyOutbox   *outbox,
              ClarifyRequest  *request,
              ClarifyResponse *response,
              Client          *client)
{
  client->settled = TRUE;
  client->settled_at = g_get_monotonic_time ();
}

static void
on_failed (ClarifyOutbox   *outbox,
           ClarifyRequest  *request,
           ClarifyResponse *response,
           const GError    *error,
           Client          *client)
{
  g_printerr ("The agent did not take the answer to %s: %s\n",
              clarify_request_get_id (request), error->message);
  client->n_failed++;
  client->settled = TRUE;
  client->settled_at = g_get_monotonic_time ();
}

static gboolean
has_request (gpointer data)
{
  Client *client = data;

  return !g_queue_is_empty (&client->requests);
}

static gboolean
is_settled (gpointer data)
{
  Client *client = data;

  return client->settled;
}

typedef struct
{
  GArray *round_trip;  /* ms */
  GArray *stream_leg;  /* agent streams k → ::request-added */
  GArray *answer_leg;  /* answer posted → agent accepted it */
  GArray *confirmed;   /* answer posted → Clarify has the agent's reply */
} Samples;

/* One walkthrough against a fresh agent. Returns how many round trips it
 * measured (into @samples, unless NULL). */
static guint
run_walkthrough (AgentHost     *host,
                 ClarifyOutbox *outbox,
                 Samples       *samples,
                 guint          max_samples,
                 Client        *client)
{
  g_autoptr(ClarifyConnection) connection = NULL;
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  gint64 previous_received_at = 0;
  guint n_measured = 0;
  guint n_answered = 0;
  guint n_requests;
  gulong delivered_id, failed_id;

  run_in_agent_thread (host, agent_start_cb);
  g_mutex_lock (&host->mutex);
  url = g_strdup (host->url);
  n_requests = host->n_requests;
  g_mutex_unlock (&host->mutex);

  connection = clarify_connection_new ("demo", "clarify", url);
  backend = clarify_backend_registry_create (connection, &error);
  if (backend == NULL)
    g_error ("Cannot create a \"clarify\" backend: %s", error->message);
  g_signal_connect (backend, "request-added", G_CALLBACK (on_request_added), client);
  delivered_id = g_signal_connect (outbox, "delivered", G_CALLBACK (on_delivered), client);
  failed_id = g_signal_connect (outbox, "failed", G_CALLBACK (on_failed), client);
  clarify_backend_start (backend);

  while (n_answered < n_requests && (samples == NULL || n_measured < max_samples))
    {
      g_autoptr(ClarifyRequest) request = NULL;
      g_autoptr(ClarifyResponse) response = NULL;
      g_autofree gint64 *added_at = NULL;
      gint64 answered_at, received_at;

      if (!clarify_test_loop_until (has_request, client, WAIT_MS))
        g_error ("No request arrived within %d ms", WAIT_MS);

      request = g_queue_pop_head (&client->requests);
      added_at = g_queue_pop_head (&client->added_at);

      response = answer_request (request, &client->n_cancelled);
      client->settled = FALSE;
      answered_at = g_get_monotonic_time ();
      clarify_outbox_post (outbox, backend, request, response);
      n_answered++;
      if (!clarify_test_loop_until (is_settled, client, WAIT_MS))
        g_error ("The answer to %s was not delivered within %d ms", clarify_request_get_id (request), WAIT_MS);
      /* What the dialog does once the answer is out. */
      clarify_backend_forget_request (backend, clarify_request_get_id (request));

      received_at = agent_host_received_at (host, clarify_request_get_id (request));
      if (received_at == 0)
        break;

      if (previous_received_at != 0 && samples != NULL)
        {
          double round_trip = (received_at - previous_received_at) / 1000.0;
          double stream_leg = (*added_at - previous_received_at) / 1000.0;
          double answer_leg = (received_at - answered_at) / 1000.0;
          double confirmed = (client->settled_at - answered_at) / 1000.0;

          g_array_append_val (samples->round_trip, round_trip);
          g_array_append_val (samples->stream_leg, stream_leg);
          g_array_append_val (samples->answer_leg, answer_leg);
          g_array_append_val (samples->confirmed, confirmed);
          n_measured++;
        }
      previous_received_at = received_at;

      if (clarify_outbox_get_n_pending (outbox) > 0)
        g_error ("The outbox still holds an answer");
    }

  clarify_backend_stop (backend);
  g_signal_handler_disconnect (outbox, delivered_id);
  g_signal_handler_disconnect (outbox, failed_id);
  g_queue_clear_full (&client->requests, g_object_unref);
  g_queue_clear_full (&client->added_at, g_free);
  run_in_agent_thread (host, agent_stop_cb);

  return n_measured;
}

static double
mean (GArray *values)
{
  double sum = 0;

  for (guint i = 0; i < values->len; i++)
    sum += g_array_index (values, double, i);

  return values->len > 0 ? sum / values->len : 0;
}

static void
print_row (const char *label,
           GArray     *values)
{
  double average = mean (values);

  printf ("%-44s %9.3f %9.3f %9.3f %9.3f %9.3f\n", label,
          bench_percentile (values, 0.0), bench_percentile (values, 0.5), average,
          bench_percentile (values, 0.95), bench_percentile (values, 1.0));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) options = g_option_context_new ("- round trips through the demo agent");
  g_autoptr(GError) error = NULL;
  g_autoptr(ClarifyOutbox) outbox = NULL;
  Samples samples;
  Client client = { G_QUEUE_INIT, G_QUEUE_INIT, FALSE, 0, 0, 0 };
  AgentHost *host;
  guint n_walkthroughs = 0;
  gint64 start, elapsed;

  bench_quiet_logs ();

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  opt_iterations = MAX (opt_iterations, 1);

  samples.round_trip = g_array_new (FALSE, FALSE, sizeof (double));
  samples.stream_leg = g_array_new (FALSE, FALSE, sizeof (double));
  samples.answer_leg = g_array_new (FALSE, FALSE, sizeof (double));
  samples.confirmed = g_array_new (FALSE, FALSE, sizeof (double));

  host = agent_host_new ();
  outbox = clarify_outbox_new ();

  /* Warm-up: one walkthrough unmeasured. */
  run_walkthrough (host, outbox, NULL, 0, &client);

  start = g_get_monotonic_time ();
  while (samples.round_trip->len < (guint) opt_iterations)
    {
      guint n = run_walkthrough (host, outbox, &samples, opt_iterations - samples.round_trip->len, &client);

      n_walkthroughs++;
      if (n == 0)
        g_error ("A walkthrough measured nothing");
    }
  elapsed = g_get_monotonic_time () - start;

  printf ("bench-e2e: %u round trips through the demo agent (%u walkthroughs, one warm-up before), "
          "%.2f s in all\n",
          samples.round_trip->len, n_walkthroughs, elapsed / (double) G_USEC_PER_SEC);
  printf ("agent in its own thread, Clarify's core in the main thread; %u answers rejected, %u cancelled\n\n",
          client.n_failed, client.n_cancelled);
  printf ("%-44s %9s %9s %9s %9s %9s\n", "ms", "min", "median", "mean", "p95", "max");
  print_row ("round trip (agent → Clarify → agent)", samples.round_trip);
  print_row ("  stream leg: agent sends → request-added", samples.stream_leg);
  print_row ("  answer leg: posted → agent accepted", samples.answer_leg);
  print_row ("posted → agent's reply back in Clarify", samples.confirmed);
  printf ("\npeak RSS (VmHWM) %" G_GINT64_FORMAT " KiB\n", bench_proc_status (FALSE, "VmHWM"));

  g_clear_object (&outbox);
  agent_host_free (host);
  g_array_unref (samples.round_trip);
  g_array_unref (samples.stream_leg);
  g_array_unref (samples.answer_leg);
  g_array_unref (samples.confirmed);

  return client.n_failed > 0 ? 1 : 0;
}
