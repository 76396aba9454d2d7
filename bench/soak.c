/* soak.c: fake agents of mixed kinds ask, restart and go away for a
 * while; Clarify's core answers as the UI would. Counts what was lost.
 *
 * Not a test (too long for meson test): a program to run by hand.
 *
 *   soak [--duration 600] [--agents 10] [--seed N]
 *
 * Every agent is a fake server on 127.0.0.1 in its own thread
 * (tests/clarify-test-server.c), half of them speaking Clarify's own
 * protocol (which keeps its questions across a restart and sends them all
 * again on every stream), half OpenCode (which forgets its questions when
 * it restarts). One ClarifyInbox with one backend per agent runs in the
 * main thread, as in the application, with a durable outbox in a
 * temporary folder. Every 100 ms, at random: an agent asks, a pending
 * question is answered through clarify_inbox_answer() (the dialog's path),
 * an agent restarts (its port refuses for 0.1–5 s, then it listens again on
 * the same port). At the end the agents stay up until every answer has
 * settled, and the program prints, for each question:
 *
 *   lost        answered, delivered according to Clarify, never received;
 *               or answered and never settled
 *   duplicate   received more than once, or shown in more than one dialog
 *   untrue      ended as "answered elsewhere" (nobody else answers here),
 *               or as "the agent restarted" while the agent still had it
 *
 * each with its trail (asked, shown, answered, forgotten in a restart, the
 * answer taken or refused, how it ended, in seconds from the start), and
 * the resident set size once a minute. Exit status 1 when any of these
 * counts is not zero.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-util.h"
#include "clarify-backend-registry.h"
#include "clarify-inbox.h"
#include "clarify-outbox.h"
#include "clarify-outbox-store.h"
#include "clarify-test-opencode.h"
#include "clarify-test-server.h"

#define DIR        "/home/dev/soak"
#define TICK_MS    100
#define SETTLE_S   60
#define MAX_OPEN   4

static int opt_duration = 600;
static int opt_agents = 10;
static int opt_seed = 0;

static const GOptionEntry entries[] = {
  { "duration", 'd', 0, G_OPTION_ARG_INT, &opt_duration, "Seconds of faults (default 600)", "S" },
  { "agents", 'a', 0, G_OPTION_ARG_INT, &opt_agents, "Fake agents (default 10)", "N" },
  { "seed", 's', 0, G_OPTION_ARG_INT, &opt_seed, "Random seed (default: the time)", "N" },
  { NULL }
};

typedef enum { KIND_CLARIFY, KIND_OPENCODE } Kind;

typedef struct _Agent Agent;

/* One question an agent asked. n_received is written in the agent's
 * thread (its answer handler), the rest in the main thread: all under
 * the one lock. */
typedef struct
{
  Agent    *agent;
  char     *id;
  char     *path;        /* where its answer is posted */
  gboolean  alive;       /* the agent still waits for it */
  gboolean  forgotten;   /* the agent lost it in a restart */
  gboolean  answered;    /* the user answered it */
  guint     n_received;
  guint     n_dialogs;
  gboolean  shown;       /* it reached the inbox */
  gboolean  done;        /* it ended, and why: no request is kept alive here */
  ClarifyEndReason reason;
  GString  *trail;       /* what happened to it, printed when it went wrong */
} Question;

struct _Agent
{
  guint              index;
  Kind               kind;
  char              *name;
  guint              port;
  ClarifyTestServer *server;    /* NULL while down */
  gint64             up_at;     /* monotonic µs to come back, while down */
  GPtrArray         *questions; /* Question, in asking order */
  guint              n_asked;
  guint              n_restarts;
};

static GMutex lock;
static gint64 soak_started_at;

/* Under the lock, or in the main thread while no answer can arrive. */
static void
question_note (Question   *question,
               const char *what)
{
  g_string_append_printf (question->trail, "%s%.3f s %s", question->trail->len > 0 ? "; " : "",
                          (g_get_monotonic_time () - soak_started_at) / 1e6, what);
}

static void
question_free (gpointer data)
{
  Question *question = data;

  g_string_free (question->trail, TRUE);
  g_free (question->id);
  g_free (question->path);
  g_free (question);
}

static void agent_publish (Agent *agent);

/* The agent's thread: an answer arrives; from now on the agent no longer
 * lists the question, as a real one would not. */
static void
answer_handler (const ClarifyTestRequest  *request,
                guint                     *status,
                char                     **content_type,
                char                     **body,
                gpointer                   user_data)
{
  Question *question = user_data;
  gboolean taken;

  g_mutex_lock (&lock);
  taken = question->alive;
  if (taken)
    {
      question->alive = FALSE;
      question->n_received++;
      agent_publish (question->agent);
    }
  question_note (question, taken ? "answer taken (200)" : "answer refused (404)");
  g_mutex_unlock (&lock);

  *content_type = g_strdup ("application/json");
  if (taken)
    {
      *status = 200;
      *body = g_strdup (question->agent->kind == KIND_OPENCODE ? "true" : "{}");
    }
  else
    {
      *status = 404;
      *body = g_strdup (question->agent->kind == KIND_OPENCODE ? "{\"_tag\":\"QuestionNotFoundError\"}"
                                                                : "{\"error\":\"no such request\"}");
    }
}

static char *
clarify_request_json (Question *question)
{
  return g_strdup_printf ("{\"id\":\"%s\",\"title\":\"Soak %s\",\"questions\":"
                          "[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Name?\"}]}",
                          question->id, question->agent->name);
}

static char *
opencode_question_json (Question *question)
{
  return g_strdup_printf ("{\"id\":\"%s\",\"sessionID\":\"ses_soak\",\"questions\":[{\"question\":\"Pick one?\","
                          "\"header\":\"Pick\",\"options\":[{\"label\":\"A\",\"description\":\"first\"},"
                          "{\"label\":\"B\",\"description\":\"second\"}],\"multiple\":false}],"
                          "\"tool\":{\"messageID\":\"msg_soak\",\"callID\":\"call_soak\"}}",
                          question->id);
}

/* Lock held (either thread): what a new stream or a listing shows now. */
static void
agent_publish (Agent *agent)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < agent->questions->len; i++)
    {
      Question *question = agent->questions->pdata[i];
      g_autofree char *json = NULL;

      if (!question->alive)
        continue;
      if (agent->kind == KIND_CLARIFY)
        {
          json = clarify_request_json (question);
          g_string_append_printf (text, "event: request\ndata: %s\n\n", json);
        }
      else
        {
          json = opencode_question_json (question);
          g_string_append_printf (text, "%s%s", text->len > 0 ? "," : "[", json);
        }
    }

  if (agent->kind == KIND_CLARIFY)
    clarify_test_server_set_sse_greeting (agent->server, "/agent/events", text->len > 0 ? text->str : NULL);
  else
    {
      g_string_append (text, text->len > 0 ? "]" : "[]");
      clarify_test_server_set_json (agent->server, "GET", "/question", 200, "application/json", text->str);
    }
  g_string_free (text, TRUE);
}

static void
agent_listen (Agent *agent)
{
  agent->server = clarify_test_server_new_on_port (agent->port);
  agent->port = clarify_test_server_get_port (agent->server);

  if (agent->kind == KIND_CLARIFY)
    clarify_test_server_add_sse (agent->server, "/agent/events");
  else
    {
      clarify_test_server_add_sse (agent->server, "/global/event");
      clarify_test_server_set_sse_greeting (agent->server, "/global/event",
                                            "data: {\"payload\":{\"id\":\"evt_soak0\",\"type\":\"server.connected\",\"properties\":{}}}\n\n");
      clarify_test_server_add_sse (agent->server, "/event");
      clarify_test_server_set_json (agent->server, "GET", "/permission", 200, "application/json", "[]");
      clarify_test_server_add_json (agent->server, "GET", "/session/ses_soak", 200, "application/json",
                                    "{\"id\":\"ses_soak\",\"title\":\"Soak\"}");
      clarify_test_server_add_json (agent->server, "GET", "/project", 200, "application/json", "[]");
      clarify_test_server_add_json (agent->server, "GET", "/path", 200, "application/json",
                                    "{\"home\":\"/home/dev\",\"state\":\"/s\",\"config\":\"/c\",\"worktree\":\"" DIR "\",\"directory\":\"" DIR "\"}");
    }

  g_mutex_lock (&lock);
  for (guint i = 0; i < agent->questions->len; i++)
    {
      Question *question = agent->questions->pdata[i];

      if (question->alive)
        clarify_test_server_add_handler (agent->server, "POST", question->path, answer_handler, question);
    }
  agent_publish (agent);
  g_mutex_unlock (&lock);
}

static void
agent_ask (Agent *agent)
{
  Question *question = g_new0 (Question, 1);
  g_autofree char *json = NULL;
  g_autofree char *frame = NULL;

  question->agent = agent;
  question->alive = TRUE;
  question->trail = g_string_new (NULL);
  question_note (question, "asked");
  if (agent->kind == KIND_CLARIFY)
    {
      question->id = g_strdup_printf ("r%u", agent->n_asked++);
      question->path = g_strdup_printf ("/agent/requests/%s/response", question->id);
      json = clarify_request_json (question);
      frame = g_strdup_printf ("event: request\ndata: %s\n\n", json);
    }
  else
    {
      g_autofree char *payload = NULL;

      question->id = g_strdup_printf ("que_soak%02u%06u", agent->index, agent->n_asked++);
      question->path = g_strdup_printf ("/question/%s/reply", question->id);
      json = opencode_question_json (question);
      payload = g_strdup_printf ("{\"id\":\"evt_soak%s\",\"type\":\"question.asked\",\"properties\":%s}",
                                 question->id, json);
      frame = clarify_test_global_frame (DIR, payload);
    }

  g_mutex_lock (&lock);
  g_ptr_array_add (agent->questions, question);
  clarify_test_server_add_handler (agent->server, "POST", question->path, answer_handler, question);
  agent_publish (agent);
  g_mutex_unlock (&lock);

  clarify_test_server_sse_send (agent->server, agent->kind == KIND_CLARIFY ? "/agent/events" : "/global/event",
                                frame, -1);
}

/* Down for a while; OpenCode keeps its questions in memory only. */
static void
agent_stop (Agent *agent,
            guint  outage_ms)
{
  g_clear_pointer (&agent->server, clarify_test_server_free);
  agent->up_at = g_get_monotonic_time () + (gint64) outage_ms * 1000;
  agent->n_restarts++;

  if (agent->kind != KIND_OPENCODE)
    return;
  g_mutex_lock (&lock);
  for (guint i = 0; i < agent->questions->len; i++)
    {
      Question *question = agent->questions->pdata[i];

      if (question->alive)
        {
          question->alive = FALSE;
          question->forgotten = TRUE;
          question_note (question, "forgotten: the agent restarts");
        }
    }
  g_mutex_unlock (&lock);
}

static guint
agent_n_open (Agent *agent)
{
  guint n = 0;

  g_mutex_lock (&lock);
  for (guint i = 0; i < agent->questions->len; i++)
    n += ((Question *) agent->questions->pdata[i])->alive;
  g_mutex_unlock (&lock);

  return n;
}

/* Clarify's side */

typedef struct
{
  ClarifyInbox *inbox;
  Agent        *agents;
  GHashTable   *by_key;  /* inbox key → Question */
} Soak;

static Question *
question_of (Soak           *soak,
             ClarifyRequest *request)
{
  g_autofree char *key = clarify_inbox_dup_key (request);

  return g_hash_table_lookup (soak->by_key, key);
}

/* Requests the inbox showed that are not finalized yet. */
static int n_alive;

static void
request_finalized (gpointer  data,
                   GObject  *where_the_object_was)
{
  n_alive--;
}

static void
on_request_added (ClarifyInbox   *inbox,
                  ClarifyRequest *request,
                  Soak           *soak)
{
  Question *question = question_of (soak, request);

  if (question == NULL)
    {
      g_printerr ("soak: a request nobody asked: %s\n", clarify_request_get_id (request));
      return;
    }
  question->n_dialogs++;
  g_mutex_lock (&lock);
  question_note (question, "shown");
  g_mutex_unlock (&lock);
  if (!question->shown)
    {
      n_alive++;
      g_object_weak_ref (G_OBJECT (request), request_finalized, NULL);
    }
  question->shown = TRUE;
  question->done = FALSE;
}

static void
on_request_ended (ClarifyInbox   *inbox,
                  ClarifyRequest *request,
                  Soak           *soak)
{
  Question *question = question_of (soak, request);

  if (question == NULL)
    return;
  question->done = TRUE;
  question->reason = clarify_request_get_end_reason (request);
  {
    const char *detail = clarify_request_get_end_detail (request);
    g_autofree char *what = g_strdup_printf ("ended: end %d, reason %d%s%s", clarify_request_get_end (request),
                                             question->reason, detail != NULL ? ", " : "", detail != NULL ? detail : "");

    g_mutex_lock (&lock);
    question_note (question, what);
    g_mutex_unlock (&lock);
  }
}

static void
answer (Soak           *soak,
        ClarifyRequest *request)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);
  Question *question = question_of (soak, request);

  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *item = clarify_request_get_question (request, i);
      const char *value = clarify_question_get_n_options (item) > 0
                          ? clarify_option_get_value (clarify_question_get_option (item, 0)) : "soak";

      clarify_response_add_answer (response, clarify_question_get_id (item),
                                   (const char *[]) { value, NULL }, NULL, FALSE);
    }
  if (question != NULL)
    {
      question->answered = TRUE;
      g_mutex_lock (&lock);
      question_note (question, "answered by the user");
      g_mutex_unlock (&lock);
    }
  clarify_inbox_answer (soak->inbox, request, response);
}

static void
register_questions (Soak *soak)
{
  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &soak->agents[a];

      for (guint i = 0; i < agent->questions->len; i++)
        {
          Question *question = agent->questions->pdata[i];
          g_autofree char *key = g_strdup_printf ("%s\x1f%s", agent->name, question->id);

          if (!g_hash_table_contains (soak->by_key, key))
            g_hash_table_insert (soak->by_key, g_steal_pointer (&key), question);
        }
    }
}

static void
tick (Soak    *soak,
      gboolean faults)
{
  GListModel *pending = clarify_inbox_get_pending (soak->inbox);
  gint64 now = g_get_monotonic_time ();

  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &soak->agents[a];

      if (agent->server == NULL)
        {
          if (now >= agent->up_at || !faults)
            agent_listen (agent);
          continue;
        }
      if (!faults)
        {
          g_mutex_lock (&lock);
          agent_publish (agent);
          g_mutex_unlock (&lock);
          continue;
        }
      if (g_random_int_range (0, 1000) < 3)
        {
          agent_stop (agent, g_random_int_range (100, 5000));
          continue;
        }
      if (agent_n_open (agent) < MAX_OPEN && g_random_int_range (0, 100) < 4)
        agent_ask (agent);
      else
        {
          /* An answer changes what the agent lists. */
          g_mutex_lock (&lock);
          agent_publish (agent);
          g_mutex_unlock (&lock);
        }
    }
  register_questions (soak);

  for (guint i = 0; faults && i < g_list_model_get_n_items (pending); i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (pending, i);

      if (g_random_int_range (0, 100) < 5)
        {
          answer (soak, request);
          break;
        }
    }
}

static void
run_for (double seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

/* Every answer the user gave has ended one way or another. */
static gboolean
settled (Soak *soak)
{
  gboolean done = TRUE;

  g_mutex_lock (&lock);
  for (int a = 0; a < opt_agents && done; a++)
    for (guint i = 0; i < soak->agents[a].questions->len && done; i++)
      {
        Question *question = soak->agents[a].questions->pdata[i];

        if (question->answered && !question->done)
          done = FALSE;
      }
  g_mutex_unlock (&lock);

  return done;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) options = g_option_context_new ("— fake agents that fail, for a while");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(ClarifyOutboxStore) store = NULL;
  Soak soak = { 0, };
  guint lost = 0, duplicate = 0, untrue = 0, asked = 0, answered = 0, delivered = 0;
  guint withdrawn_restart = 0, never_shown = 0, restarts = 0;
  gint64 start, next_minute;
  guint minute = 0;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  g_random_set_seed (opt_seed != 0 ? (guint32) opt_seed : (guint32) time (NULL));
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

  dir = g_dir_make_tmp ("clarify-soak-XXXXXX", &error);
  g_assert_no_error (error);
  soak.inbox = clarify_inbox_new ();
  store = clarify_outbox_store_new (dir);
  clarify_outbox_set_store (clarify_inbox_get_outbox (soak.inbox), store);
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (soak.inbox), 200, 3000);
  soak.by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  soak.agents = g_new0 (Agent, opt_agents);
  g_signal_connect (soak.inbox, "request-added", G_CALLBACK (on_request_added), &soak);
  g_signal_connect (soak.inbox, "request-ended", G_CALLBACK (on_request_ended), &soak);

  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &soak.agents[a];
      g_autoptr(ClarifyConnection) connection = NULL;
      g_autoptr(ClarifyBackend) backend = NULL;
      g_autofree char *url = NULL;

      agent->index = a;
      agent->kind = a % 2 == 0 ? KIND_CLARIFY : KIND_OPENCODE;
      agent->name = g_strdup_printf ("%s%d", agent->kind == KIND_CLARIFY ? "clarify" : "opencode", a);
      agent->questions = g_ptr_array_new_with_free_func (question_free);
      agent_listen (agent);

      url = clarify_test_server_get_url (agent->server, agent->kind == KIND_CLARIFY ? "/agent/events" : "/");
      connection = clarify_connection_new (agent->name, agent->kind == KIND_CLARIFY ? "clarify" : "opencode", url);
      backend = clarify_backend_registry_create (connection, &error);
      g_assert_no_error (error);
      clarify_inbox_add_backend (soak.inbox, backend);
      clarify_backend_start (backend);
    }

  soak_started_at = g_get_monotonic_time ();
  g_print ("soak: %d agents (clarify and opencode), %d s of faults, outbox in %s\n", opt_agents, opt_duration, dir);
  /* Clarify's own share of the memory, apart from the fakes' records:
   * the requests still alive. */
  g_print ("minute\tRSS kB\tasked\tanswered\trestarts\trequests alive\n");
  start = g_get_monotonic_time ();
  next_minute = start;
  while (g_get_monotonic_time () - start < (gint64) opt_duration * G_USEC_PER_SEC)
    {
      tick (&soak, TRUE);
      run_for (TICK_MS / 1000.0);
      if (g_get_monotonic_time () >= next_minute)
        {
          guint n_asked = 0, n_answered = 0, n_restarts = 0;

          g_mutex_lock (&lock);
          for (int a = 0; a < opt_agents; a++)
            {
              n_restarts += soak.agents[a].n_restarts;
              for (guint i = 0; i < soak.agents[a].questions->len; i++)
                {
                  n_asked++;
                  n_answered += ((Question *) soak.agents[a].questions->pdata[i])->answered;
                }
            }
          g_mutex_unlock (&lock);
          g_print ("%u\t%" G_GINT64_FORMAT "\t%u\t%u\t%u\t%d\n", minute++, bench_proc_status (FALSE, "VmRSS"),
                   n_asked, n_answered, n_restarts, n_alive);
          next_minute += 60 * G_USEC_PER_SEC;
        }
    }

  /* Everyone up, nobody asks: let the answers settle. */
  for (int i = 0; i < SETTLE_S * 1000 / TICK_MS && !settled (&soak); i++)
    {
      tick (&soak, FALSE);
      run_for (TICK_MS / 1000.0);
    }
  run_for (2);

  g_mutex_lock (&lock);
  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &soak.agents[a];

      restarts += agent->n_restarts;
      for (guint i = 0; i < agent->questions->len; i++)
        {
          Question *question = agent->questions->pdata[i];
          gboolean done = question->done;
          ClarifyEndReason reason = done ? question->reason : CLARIFY_END_REASON_NONE;
          const char *problem = NULL;

          asked++;
          answered += question->answered;
          delivered += question->n_received > 0;
          if (!question->shown)
            never_shown++;
          if (question->n_received > 1 || question->n_dialogs > 1)
            duplicate++, problem = "duplicate";
          else if (question->answered && (!done || (question->n_received == 0 && !question->forgotten)))
            lost++, problem = "lost";
          else if (done && reason == CLARIFY_END_REASON_ANSWERED_ELSEWHERE)
            untrue++, problem = "untrue: answered elsewhere";
          else if (done && reason == CLARIFY_END_REASON_AGENT_RESTARTED && !question->forgotten)
            untrue++, problem = "untrue: restarted";
          if (done && reason == CLARIFY_END_REASON_AGENT_RESTARTED)
            withdrawn_restart++;
          if (problem != NULL)
            g_print ("  %s %s: %s (received %u, dialogs %u, %s, reason %d)\n    %s\n", agent->name, question->id,
                     problem, question->n_received, question->n_dialogs,
                     question->forgotten ? "forgotten" : "kept", reason, question->trail->str);
        }
    }
  g_mutex_unlock (&lock);

  g_print ("asked %u, shown never %u, answered %u, received %u, gone with a restart %u, restarts %u\n",
           asked, never_shown, answered, delivered, withdrawn_restart, restarts);
  g_print ("lost %u, duplicate %u, untrue %u, RSS at the end %" G_GINT64_FORMAT " kB\n",
           lost, duplicate, untrue, bench_proc_status (FALSE, "VmRSS"));

  for (int a = 0; a < opt_agents; a++)
    {
      g_clear_pointer (&soak.agents[a].server, clarify_test_server_free);
    }
  clarify_test_remove_tree (dir);

  return lost + duplicate + untrue > 0 ? 1 : 0;
}
