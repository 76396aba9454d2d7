/* soak.c: fake agents of mixed kinds ask, restart and go away for a
 * while; Clarify's core answers as the UI would. Counts what was lost.
 *
 * Not a test (too long for meson test): a program to run by hand.
 *
 *   soak [--duration 600] [--agents 10] [--seed N]
 *
 * Two processes, so that the resident set size of each says what it
 * holds: the fake agents and the soak's records of every question in a
 * child, Clarify's core alone in the parent. They talk over a socket pair
 * in lines: the child gives the agents' ports, the parent tells what
 * Clarify did with each question (shown, answered, ended and why).
 *
 * Every agent is a fake server on 127.0.0.1 in its own thread
 * (tests/clarify-test-server.c), half of them speaking Clarify's own
 * protocol (which keeps its questions across a restart and sends them all
 * again on every stream), half OpenCode (which forgets its questions when
 * it restarts). One ClarifyInbox with one backend per agent runs in the
 * parent's main thread, as in the application, with a durable outbox in a
 * temporary folder. Every 100 ms, at random: an agent asks, a pending
 * question is answered through clarify_inbox_answer() (the dialog's path),
 * an agent restarts (its port refuses for 0.1–5 s, then it listens again on
 * the same port). At the end the agents stay up until every answer has
 * settled, and the child prints, for each question:
 *
 *   lost        answered, delivered according to Clarify, never received;
 *               or answered and never settled
 *   duplicate   received more than once, or shown in more than one dialog
 *   untrue      ended as "answered elsewhere" (nobody else answers here),
 *               or as "the agent restarted" while the agent still had it
 *
 * each with its trail (asked, shown, answered, forgotten in a restart, the
 * answer taken or refused, how it ended, in seconds from the start); the
 * parent prints both processes' resident set size once a minute. Exit
 * status 1 when any of these counts is not zero.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib-unix.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* One question an agent asked, in the child. n_received is written in
 * the agent's thread (its answer handler), the rest in the main thread
 * as the agents act and as Clarify's process reports: all under the one
 * lock. */
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
/* The child's main thread: inbox key ("name\x1fid") → Question. */
static GHashTable *questions_by_key;

/* Under the lock, or in the main thread while no answer can arrive.
 * @at_us is monotonic time, the same clock in both processes. */
static void
question_note_at (Question   *question,
                  gint64      at_us,
                  const char *what)
{
  g_string_append_printf (question->trail, "%s%.3f s %s", question->trail->len > 0 ? "; " : "",
                          (at_us - soak_started_at) / 1e6, what);
}

static void
question_note (Question   *question,
               const char *what)
{
  question_note_at (question, g_get_monotonic_time (), what);
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
  GString *text;

  if (agent->server == NULL)
    return;

  text = g_string_new (NULL);

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

  g_hash_table_insert (questions_by_key, g_strdup_printf ("%s\x1f%s", agent->name, question->id), question);
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
  ClarifyTestServer *server;

  /* An answer arriving now publishes under the lock: it must see the
   * server gone, and freeing it waits for that handler to end. */
  g_mutex_lock (&lock);
  server = g_steal_pointer (&agent->server);
  g_mutex_unlock (&lock);
  clarify_test_server_free (server);
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

/* Lines over the socket pair */

/* The other process is gone: nothing left to count. */
G_GNUC_NORETURN static void
other_side_gone (const char *who)
{
  g_printerr ("soak: %s went away\n", who);
  exit (2);
}

static void
send_line (int         fd,
           const char *format,
           ...) G_GNUC_PRINTF (2, 3);

static void
send_line (int         fd,
           const char *format,
           ...)
{
  g_autofree char *line = NULL;
  va_list args;
  gsize done = 0, length;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  length = strlen (line);
  while (done < length)
    {
      ssize_t n = send (fd, line + done, length - done, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        other_side_gone ("the other process");
      done += n;
    }
}

/* Appends what one read gets to @buffer (waiting for it if @blocking).
 * FALSE when the other side is gone. */
static gboolean
receive (int      fd,
         GString *buffer,
         gboolean blocking)
{
  char chunk[4096];
  ssize_t n;

  do
    n = recv (fd, chunk, sizeof chunk, blocking ? 0 : MSG_DONTWAIT);
  while (n < 0 && errno == EINTR);
  if (n > 0)
    g_string_append_len (buffer, chunk, n);
  return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
}

/* The first whole line in @buffer, taken out of it; NULL if none yet. */
static char *
take_line (GString *buffer)
{
  const char *end = memchr (buffer->str, '\n', buffer->len);
  char *line;

  if (end == NULL)
    return NULL;
  line = g_strndup (buffer->str, end - buffer->str);
  g_string_erase (buffer, 0, end - buffer->str + 1);
  return line;
}

static void
agent_init (Agent *agent,
            guint  index)
{
  agent->index = index;
  agent->kind = index % 2 == 0 ? KIND_CLARIFY : KIND_OPENCODE;
  agent->name = g_strdup_printf ("%s%u", agent->kind == KIND_CLARIFY ? "clarify" : "opencode", index);
}

/* The child: the fake agents and the records */

typedef struct
{
  Agent     *agents;
  int        fd;          /* to Clarify's process */
  GString   *input;
  gboolean   settling;    /* nobody asks, everyone is up */
  gint64     settle_until;
  gboolean   settled_sent;
  GMainLoop *loop;
  int        status;
} Fakes;

/* Every answer the user gave has ended one way or another. */
static gboolean
settled (Fakes *fakes)
{
  gboolean done = TRUE;

  g_mutex_lock (&lock);
  for (int a = 0; a < opt_agents && done; a++)
    for (guint i = 0; i < fakes->agents[a].questions->len && done; i++)
      {
        Question *question = fakes->agents[a].questions->pdata[i];

        if (question->answered && !question->done)
          done = FALSE;
      }
  g_mutex_unlock (&lock);

  return done;
}

static gboolean
fakes_tick (gpointer user_data)
{
  Fakes *fakes = user_data;
  gboolean faults = !fakes->settling;
  gint64 now = g_get_monotonic_time ();

  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &fakes->agents[a];

      if (agent->server == NULL)
        {
          if (now >= agent->up_at || !faults)
            agent_listen (agent);
          continue;
        }
      if (faults && g_random_int_range (0, 1000) < 3)
        agent_stop (agent, g_random_int_range (100, 5000));
      else if (faults && agent_n_open (agent) < MAX_OPEN && g_random_int_range (0, 100) < 4)
        agent_ask (agent);
      else
        {
          /* An answer changes what the agent lists. */
          g_mutex_lock (&lock);
          agent_publish (agent);
          g_mutex_unlock (&lock);
        }
    }

  if (fakes->settling && !fakes->settled_sent && (settled (fakes) || now >= fakes->settle_until))
    {
      send_line (fakes->fd, "settled\n");
      fakes->settled_sent = TRUE;
    }
  return G_SOURCE_CONTINUE;
}

static int
fakes_report (Fakes *fakes)
{
  guint lost = 0, duplicate = 0, untrue = 0, asked = 0, answered = 0, delivered = 0;
  guint withdrawn_restart = 0, never_shown = 0, restarts = 0;

  g_mutex_lock (&lock);
  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &fakes->agents[a];

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
  g_print ("lost %u, duplicate %u, untrue %u; the fake agents' RSS at the end %" G_GINT64_FORMAT " kB\n",
           lost, duplicate, untrue, bench_proc_status (FALSE, "VmRSS"));

  return lost + duplicate + untrue > 0 ? 1 : 0;
}

/* "shown|answered\t<µs>\t<key>" or "ended\t<µs>\t<key>\t<reason>\t<what>",
 * "settle", "report". */
static void
fakes_handle_line (Fakes      *fakes,
                   const char *line)
{
  g_auto(GStrv) parts = g_strsplit (line, "\t", 5);
  guint n_parts = g_strv_length (parts);
  Question *question;
  gint64 at_us;

  if (n_parts == 0)
    g_error ("soak: an empty line from Clarify's process");
  if (g_str_equal (parts[0], "settle"))
    {
      fakes->settling = TRUE;
      fakes->settle_until = g_get_monotonic_time () + SETTLE_S * G_USEC_PER_SEC;
      return;
    }
  if (g_str_equal (parts[0], "report"))
    {
      fakes->status = fakes_report (fakes);
      g_main_loop_quit (fakes->loop);
      return;
    }
  if (n_parts < 3)
    g_error ("soak: a line from Clarify's process that makes no sense: %s", line);

  at_us = g_ascii_strtoll (parts[1], NULL, 10);
  question = g_hash_table_lookup (questions_by_key, parts[2]);
  if (question == NULL)
    {
      g_printerr ("soak: %s, a request nobody asked: %s\n", parts[0], parts[2]);
      return;
    }

  g_mutex_lock (&lock);
  if (g_str_equal (parts[0], "shown"))
    {
      question->n_dialogs++;
      question->shown = TRUE;
      question->done = FALSE;
      question_note_at (question, at_us, "shown");
    }
  else if (g_str_equal (parts[0], "answered"))
    {
      question->answered = TRUE;
      question_note_at (question, at_us, "answered by the user");
    }
  else if (g_str_equal (parts[0], "ended") && n_parts == 5)
    {
      question->done = TRUE;
      question->reason = (ClarifyEndReason) g_ascii_strtoll (parts[3], NULL, 10);
      question_note_at (question, at_us, parts[4]);
    }
  else
    g_error ("soak: a line from Clarify's process that makes no sense: %s", line);
  g_mutex_unlock (&lock);
}

static gboolean
fakes_on_input (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  Fakes *fakes = user_data;
  char *line;

  if (!receive (fd, fakes->input, TRUE))
    {
      g_printerr ("soak: Clarify's process went away\n");
      fakes->status = 2;
      g_main_loop_quit (fakes->loop);
      return G_SOURCE_REMOVE;
    }
  while ((line = take_line (fakes->input)) != NULL)
    {
      fakes_handle_line (fakes, line);
      g_free (line);
    }
  return G_SOURCE_CONTINUE;
}

static int
fakes_main (int fd)
{
  Fakes fakes = { 0, };

  fakes.fd = fd;
  fakes.input = g_string_new (NULL);
  fakes.loop = g_main_loop_new (NULL, FALSE);
  fakes.agents = g_new0 (Agent, opt_agents);
  questions_by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &fakes.agents[a];

      agent_init (agent, a);
      agent->questions = g_ptr_array_new_with_free_func (question_free);
      agent_listen (agent);
      send_line (fd, "port\t%d\t%u\n", a, agent->port);
    }
  send_line (fd, "ready\n");

  g_unix_fd_add (fd, G_IO_IN | G_IO_HUP | G_IO_ERR, fakes_on_input, &fakes);
  g_timeout_add (TICK_MS, fakes_tick, &fakes);
  g_main_loop_run (fakes.loop);

  for (int a = 0; a < opt_agents; a++)
    g_clear_pointer (&fakes.agents[a].server, clarify_test_server_free);
  return fakes.status;
}

/* The parent: Clarify's core, as in the application */

typedef struct
{
  ClarifyInbox *inbox;
  int           fd;  /* to the fake agents' process */
  guint         n_shown;
  guint         n_answered;
} Soak;

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
  g_autofree char *key = clarify_inbox_dup_key (request);

  soak->n_shown++;
  n_alive++;
  g_object_weak_ref (G_OBJECT (request), request_finalized, NULL);
  send_line (soak->fd, "shown\t%" G_GINT64_FORMAT "\t%s\n", g_get_monotonic_time (), key);
}

static void
on_request_ended (ClarifyInbox   *inbox,
                  ClarifyRequest *request,
                  Soak           *soak)
{
  g_autofree char *key = clarify_inbox_dup_key (request);
  g_autofree char *detail = g_strdup (clarify_request_get_end_detail (request));
  ClarifyEndReason reason = clarify_request_get_end_reason (request);

  /* One line per message, whatever the detail says. */
  if (detail != NULL)
    g_strdelimit (detail, "\t\n\r", ' ');
  send_line (soak->fd, "ended\t%" G_GINT64_FORMAT "\t%s\t%d\tended: end %d, reason %d%s%s\n",
             g_get_monotonic_time (), key, reason, clarify_request_get_end (request), reason,
             detail != NULL ? ", " : "", detail != NULL ? detail : "");
}

static void
answer (Soak           *soak,
        ClarifyRequest *request)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new (clarify_request_get_id (request),
                                                              CLARIFY_OUTCOME_ANSWERED);
  g_autofree char *key = clarify_inbox_dup_key (request);

  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *item = clarify_request_get_question (request, i);
      const char *value = clarify_question_get_n_options (item) > 0
                          ? clarify_option_get_value (clarify_question_get_option (item, 0)) : "soak";

      clarify_response_add_answer (response, clarify_question_get_id (item),
                                   (const char *[]) { value, NULL }, NULL, FALSE);
    }
  soak->n_answered++;
  send_line (soak->fd, "answered\t%" G_GINT64_FORMAT "\t%s\n", g_get_monotonic_time (), key);
  clarify_inbox_answer (soak->inbox, request, response);
}

/* The user answers one of the pending questions now and then. */
static void
tick (Soak *soak)
{
  GListModel *pending = clarify_inbox_get_pending (soak->inbox);

  for (guint i = 0; i < g_list_model_get_n_items (pending); i++)
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

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) options = g_option_context_new ("— fake agents that fail, for a while");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(ClarifyOutboxStore) store = NULL;
  g_autoptr(GString) input = g_string_new (NULL);
  Soak soak = { 0, };
  Agent *agents;
  guint32 seed;
  int fds[2];
  int status = 0;
  GPid child;
  gint64 start, next_minute, settle_deadline;
  guint minute = 0;
  char *line;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (opt_agents < 1)
    {
      g_printerr ("--agents: at least one\n");
      return 2;
    }
  seed = opt_seed != 0 ? (guint32) opt_seed : (guint32) time (NULL);
  soak_started_at = g_get_monotonic_time ();

  /* Before any thread: the child starts its own. */
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    g_error ("soak: socketpair: %s", g_strerror (errno));
  fflush (NULL);
  child = fork ();
  if (child < 0)
    g_error ("soak: fork: %s", g_strerror (errno));
  if (child == 0)
    {
      close (fds[0]);
      g_random_set_seed (seed + 1);
      _exit (fakes_main (fds[1]));
    }
  close (fds[1]);
  soak.fd = fds[0];
  g_random_set_seed (seed);
  g_setenv ("CLARIFY_SECRET_STORE", "file", TRUE);

  dir = g_dir_make_tmp ("clarify-soak-XXXXXX", &error);
  g_assert_no_error (error);
  soak.inbox = clarify_inbox_new ();
  store = clarify_outbox_store_new (dir);
  clarify_outbox_set_store (clarify_inbox_get_outbox (soak.inbox), store);
  clarify_outbox_set_backoff (clarify_inbox_get_outbox (soak.inbox), 200, 3000);
  g_signal_connect (soak.inbox, "request-added", G_CALLBACK (on_request_added), &soak);
  g_signal_connect (soak.inbox, "request-ended", G_CALLBACK (on_request_ended), &soak);

  agents = g_new0 (Agent, opt_agents);
  for (int a = 0; a < opt_agents; a++)
    agent_init (&agents[a], a);
  while (TRUE)
    {
      int index;
      guint port;

      while ((line = take_line (input)) == NULL)
        if (!receive (soak.fd, input, TRUE))
          other_side_gone ("the fake agents' process");
      if (g_str_equal (line, "ready"))
        break;
      if (sscanf (line, "port\t%d\t%u", &index, &port) != 2 || index < 0 || index >= opt_agents)
        g_error ("soak: a line from the fake agents' process that makes no sense: %s", line);
      agents[index].port = port;
      g_free (line);
    }
  g_free (line);

  for (int a = 0; a < opt_agents; a++)
    {
      Agent *agent = &agents[a];
      g_autoptr(ClarifyConnection) connection = NULL;
      g_autoptr(ClarifyBackend) backend = NULL;
      g_autofree char *url = NULL;

      url = g_strdup_printf ("http://127.0.0.1:%u%s", agent->port, agent->kind == KIND_CLARIFY ? "/agent/events" : "/");
      connection = clarify_connection_new (agent->name, agent->kind == KIND_CLARIFY ? "clarify" : "opencode", url);
      backend = clarify_backend_registry_create (connection, &error);
      g_assert_no_error (error);
      clarify_inbox_add_backend (soak.inbox, backend);
      clarify_backend_start (backend);
    }

  g_print ("soak: %d agents (clarify and opencode), %d s of faults, seed %u, outbox in %s\n",
           opt_agents, opt_duration, seed, dir);
  g_print ("minute\tClarify RSS kB (anonymous + file)\tafter malloc_trim()\tmain arena in use / free kB\tfake agents RSS kB\tshown\tanswered\trequests alive\n");
  start = g_get_monotonic_time ();
  next_minute = start;
  while (g_get_monotonic_time () - start < (gint64) opt_duration * G_USEC_PER_SEC)
    {
      if (waitpid (child, &status, WNOHANG) == child)
        {
          g_printerr ("soak: the fake agents' process ended early\n");
          return 2;
        }
      tick (&soak);
      run_for (TICK_MS / 1000.0);
      if (g_get_monotonic_time () >= next_minute)
        {
          gint64 rss = bench_proc_status (FALSE, "VmRSS");
          gint64 anon = bench_proc_status (FALSE, "RssAnon");
          gint64 file = bench_proc_status (FALSE, "RssFile");

          struct mallinfo2 heap;

          /* What glibc keeps of freed memory apart from what is in use;
           * the application trims too, when its last dialog closes. */
          malloc_trim (0);
          /* The main arena's, where the growth is ([heap] in smaps); the
           * worker threads' arenas are not counted. */
          heap = mallinfo2 ();
          g_print ("%u\t%" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " + %" G_GINT64_FORMAT ")\t%" G_GINT64_FORMAT
                   "\t%zu / %zu\t%" G_GINT64_FORMAT "\t%u\t%u\t%d\n", minute++, rss, anon, file,
                   bench_proc_status (FALSE, "VmRSS"), (heap.uordblks + heap.hblkhd) / 1024, heap.fordblks / 1024,
                   bench_pid_status (child, "VmRSS"), soak.n_shown, soak.n_answered, n_alive);
          fflush (stdout);
          next_minute += 60 * G_USEC_PER_SEC;
        }
    }

  /* Everyone up, nobody asks: let the answers settle. */
  send_line (soak.fd, "settle\n");
  settle_deadline = g_get_monotonic_time () + (SETTLE_S + 10) * G_USEC_PER_SEC;
  while (strstr (input->str, "settled\n") == NULL && g_get_monotonic_time () < settle_deadline)
    {
      run_for (TICK_MS / 1000.0);
      if (!receive (soak.fd, input, FALSE))
        other_side_gone ("the fake agents' process");
    }
  run_for (2);
  g_print ("Clarify's RSS at the end %" G_GINT64_FORMAT " kB, requests alive %d\n",
           bench_proc_status (FALSE, "VmRSS"), n_alive);
  fflush (stdout);

  send_line (soak.fd, "report\n");
  if (waitpid (child, &status, 0) < 0 || !WIFEXITED (status))
    status = 2;
  else
    status = WEXITSTATUS (status);

  /* The child is gone: nobody to tell of the requests ended now. */
  g_signal_handlers_disconnect_by_data (soak.inbox, &soak);
  g_clear_object (&soak.inbox);
  clarify_test_remove_tree (dir);
  return status;
}
