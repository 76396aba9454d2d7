/* test-agent-faults.c: every stream source under the same slow server and
 * the same minute-long outage
 *
 * One fake agent per source (clarify-test-sources.c: Clarify's protocol,
 * OpenCode, CodeNomad, Phoenix, Ag3ntum), each on its own server and
 * inbox. Each case runs all of them at once, so that it takes the time of
 * one fault rather than five: about 31 s for each slow case and 60 s for
 * the outage. The waits are real (an agent that answers after 30 s, a
 * port that refuses for a minute); what is asserted is the outcome, not
 * how long it took, except that a server that is back is talked to within
 * the 2 s the reconnect promises (scaled, with a second to spare for a
 * busy machine).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-test-log.h"
#include "clarify-test-outbox.h"
#include "clarify-test-sources.h"

#define WAIT_MS       10000
/* An agent that answers only after 30 s, and more than the 30 s some
 * timeouts (OpenCode's stream, libsoup's) were. */
#define SLOW_MS       31000
#define OUTAGE_MS     60000
/* The reconnect's 2 s while refused, and a second for a busy machine. */
#define BACK_WITHIN_MS 3000
/* The answer goes once the connection is up again: for most sources its
 * stream, for Phoenix its listing, whose back-off reaches 30 s. */
#define ANSWER_BACK_MS 45000
/* Later than the outage and ANSWER_BACK_MS together, jitter included. */
#define LATE_RETRY_MS  200000

typedef struct
{
  const ClarifyTestSource *source;
  ClarifyTestServer       *server;
  ClarifyInbox            *inbox;
  ClarifyBackend          *backend;
  ClarifyTestShown         shown;
  gboolean                 answer_at_once;
} Agent;

typedef struct
{
  Agent agents[8];
  guint n;
} Agents;

static void
answer (Agent          *agent,
        ClarifyRequest *request)
{
  g_autoptr(ClarifyResponse) response = agent->source->answer (request);

  clarify_inbox_answer (agent->inbox, request, response);
}

static void
on_added (ClarifyInbox   *inbox,
          ClarifyRequest *request,
          Agent          *agent)
{
  if (agent->answer_at_once)
    answer (agent, request);
}

/* The agent takes the answer and, as a real one, stops asking. SERVER
 * thread. */
static void
take (const ClarifyTestRequest  *request,
      guint                     *status,
      char                     **content_type,
      char                     **body,
      gpointer                   user_data)
{
  Agent *agent = user_data;

  agent->source->forget (agent->server);
  *status = 200;
  *content_type = g_strdup ("application/json");
  *body = g_strdup (agent->source->taken);
}

/* What every agent serves: the question, and its answer taken. */
static void
serve (Agent *agent)
{
  agent->source->serve (agent->server);
  clarify_test_server_add_handler (agent->server, "POST", agent->source->answer_path, take, agent);
}

static void
agents_init (Agents   *agents,
             gboolean  answer_at_once)
{
  agents->n = clarify_test_n_sources;
  g_assert_cmpuint (agents->n, <=, G_N_ELEMENTS (agents->agents));
  for (guint i = 0; i < agents->n; i++)
    {
      Agent *agent = &agents->agents[i];

      agent->source = &clarify_test_sources[i];
      agent->server = clarify_test_server_new ();
      agent->answer_at_once = answer_at_once;
      serve (agent);
      clarify_test_source_store_password (agent->source, agent->source->kind);
    }
}

/* Starts every agent's Clarify, with the real back-offs. */
static void
agents_start (Agents *agents)
{
  for (guint i = 0; i < agents->n; i++)
    {
      Agent *agent = &agents->agents[i];
      g_autofree char *url = clarify_test_server_get_url (agent->server, "");

      agent->inbox = clarify_test_source_inbox_new (agent->source, agent->source->kind, NULL, url, FALSE,
                                                    &agent->backend);
      clarify_test_shown_watch (&agent->shown, agent->inbox);
      g_signal_connect (agent->inbox, "request-added", G_CALLBACK (on_added), agent);
      clarify_inbox_add_backend (agent->inbox, agent->backend);
      clarify_backend_start (agent->backend);
    }
}

static void
agents_clear (Agents *agents)
{
  for (guint i = 0; i < agents->n; i++)
    {
      Agent *agent = &agents->agents[i];

      clarify_test_shown_clear (&agent->shown);
      clarify_backend_stop (agent->backend);
      g_clear_object (&agent->backend);
      g_clear_object (&agent->inbox);
      g_clear_pointer (&agent->server, clarify_test_server_free);
      clarify_test_source_clear_password (agent->source, agent->source->kind);
    }
}

static gboolean
all_shown (gpointer data)
{
  Agents *agents = data;

  for (guint i = 0; i < agents->n; i++)
    if (agents->agents[i].shown.added->len == 0)
      return FALSE;
  return TRUE;
}

static gboolean
all_done (gpointer data)
{
  Agents *agents = data;

  for (guint i = 0; i < agents->n; i++)
    {
      Agent *agent = &agents->agents[i];

      if (agent->shown.added->len == 0 ||
          clarify_request_get_state (agent->shown.added->pdata[0]) != CLARIFY_REQUEST_DONE)
        return FALSE;
    }
  return TRUE;
}

static gboolean
all_streams_asked (gpointer data)
{
  Agents *agents = data;

  for (guint i = 0; i < agents->n; i++)
    if (clarify_test_server_get_n_requests (agents->agents[i].server, "GET", agents->agents[i].source->stream_path) == 0)
      return FALSE;
  return TRUE;
}

/* The truth for every agent: one dialog, never withdrawn, answered, and
 * the agent got the answer exactly once, with the exact body. */
static void
assert_delivered_once (Agents *agents)
{
  for (guint i = 0; i < agents->n; i++)
    {
      Agent *agent = &agents->agents[i];
      const char *path = agent->source->answer_path;
      g_autoptr(ClarifyTestRequest) post = NULL;

      g_test_message ("%s", agent->source->kind);
      g_assert_cmpuint (agent->shown.added->len, ==, 1);
      g_assert_cmpuint (agent->shown.withdrawn, ==, 0);
      g_assert_cmpint (clarify_request_get_end (agent->shown.added->pdata[0]), ==, CLARIFY_REQUEST_END_ANSWERED);
      g_assert_cmpuint (clarify_test_server_get_n_requests (agent->server, "POST", path), ==, 1);
      post = clarify_test_server_get_request (agent->server, "POST", path, 0);
      g_assert_cmpstr (post->body, ==, agent->source->answer_body);
    }
}

/* The stream's first answer comes after 31 s, and the server answers
 * nothing else meanwhile: the question is shown once it comes, once. */
static void
test_slow_stream (void)
{
  Agents agents = { 0 };

  agents_init (&agents, TRUE);
  for (guint i = 0; i < agents.n; i++)
    clarify_test_server_stall_next (agents.agents[i].server, agents.agents[i].source->stream_path, SLOW_MS);
  agents_start (&agents);

  g_assert_true (clarify_test_loop_until (all_done, &agents, SLOW_MS + 4 * WAIT_MS));
  for (guint i = 0; i < agents.n; i++)
    g_assert_cmpuint (clarify_test_server_get_n_requests (agents.agents[i].server, "GET",
                                                          agents.agents[i].source->stream_path), >=, 1);
  clarify_test_loop_for (300);
  assert_delivered_once (&agents);
  agents_clear (&agents);
}

/* The answer's reply comes after 31 s: it is waited for, not given up on
 * and posted a second time. */
static void
test_slow_answer (void)
{
  Agents agents = { 0 };

  agents_init (&agents, FALSE);
  agents_start (&agents);
  g_assert_true (clarify_test_loop_until (all_shown, &agents, WAIT_MS));
  for (guint i = 0; i < agents.n; i++)
    {
      Agent *agent = &agents.agents[i];

      clarify_test_server_stall_next (agent->server, agent->source->answer_path, SLOW_MS);
      answer (agent, agent->shown.added->pdata[0]);
    }

  g_assert_true (clarify_test_loop_until (all_done, &agents, SLOW_MS + 4 * WAIT_MS));
  clarify_test_loop_for (300);
  assert_delivered_once (&agents);
  agents_clear (&agents);
}

/* Every agent's port refuses connections for a minute, and the person
 * answers meanwhile. Clarify keeps trying, the question stays, and once
 * the agent is back (on the same port, still asking) its stream is open
 * again within 2 s, and the answer follows as soon as the connection is
 * up, once. */
static void
test_outage_minute (void)
{
  Agents agents = { 0 };
  guint ports[G_N_ELEMENTS (agents.agents)];

  agents_init (&agents, FALSE);
  agents_start (&agents);
  g_assert_true (clarify_test_loop_until (all_shown, &agents, WAIT_MS));
  /* Answers retried later than the outage lasts (the real cap is a
   * minute, with jitter): only the agent being back can send them in time. */
  for (guint i = 0; i < agents.n; i++)
    clarify_outbox_set_backoff (clarify_inbox_get_outbox (agents.agents[i].inbox), LATE_RETRY_MS, LATE_RETRY_MS);

  for (guint i = 0; i < agents.n; i++)
    {
      ports[i] = clarify_test_server_get_port (agents.agents[i].server);
      g_clear_pointer (&agents.agents[i].server, clarify_test_server_free);
    }
  for (guint i = 0; i < agents.n; i++)
    answer (&agents.agents[i], agents.agents[i].shown.added->pdata[0]);

  clarify_test_loop_for (OUTAGE_MS);
  for (guint i = 0; i < agents.n; i++)
    {
      Agent *agent = &agents.agents[i];

      g_test_message ("%s during the outage", agent->source->kind);
      g_assert_cmpuint (agent->shown.withdrawn, ==, 0);
      g_assert_cmpint (clarify_request_get_state (agent->shown.added->pdata[0]), ==, CLARIFY_REQUEST_SENDING);
      g_assert_cmpint (clarify_backend_get_state (agent->backend), !=, CLARIFY_CONNECTION_STATE_CONNECTED);
      g_assert_cmpint (clarify_backend_get_state (agent->backend), !=, CLARIFY_CONNECTION_STATE_FAILED);
    }

  for (guint i = 0; i < agents.n; i++)
    {
      agents.agents[i].server = clarify_test_server_new_on_port (ports[i]);
      serve (&agents.agents[i]);
    }
  g_assert_true (clarify_test_loop_until (all_streams_asked, &agents, BACK_WITHIN_MS));
  clarify_test_loop_until (all_done, &agents, ANSWER_BACK_MS);
  for (guint i = 0; i < agents.n; i++)
    {
      g_test_message ("%s: connection state %d", agents.agents[i].source->kind,
                      clarify_backend_get_state (agents.agents[i].backend));
      g_assert_cmpint (clarify_request_get_state (agents.agents[i].shown.added->pdata[0]), ==, CLARIFY_REQUEST_DONE);
    }
  clarify_test_loop_for (300);
  assert_delivered_once (&agents);
  agents_clear (&agents);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  clarify_test_sources_env_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agent-faults/slow-stream", test_slow_stream);
  g_test_add_func ("/agent-faults/slow-answer", test_slow_answer);
  g_test_add_func ("/agent-faults/outage-minute", test_outage_minute);

  return g_test_run ();
}
