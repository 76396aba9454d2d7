/* clarify-test-sources.h: one fake agent per stream source, asking one
 * question, for the tests that put every source under the same fault
 *
 * A row says what the agent serves while it asks and once it took the
 * answer, where the answer goes and its exact body, and what the person
 * answers (test-outbox-kill, test-agent-faults).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-inbox.h"

#include "clarify-test-server.h"

G_BEGIN_DECLS

typedef struct
{
  const char *kind;            /* the connection's kind, and the test's name */
  const char *path;            /* the connection's URL path */
  const char *password;        /* in the secret store, or NULL */
  const char *request_id;
  const char *answer_path;     /* POSTed to */
  const char *answer_query;    /* NULL: none */
  const char *answer_body;     /* exactly */
  const char *taken;           /* the agent's reply once it takes it */
  const char *stream_path;     /* the stream that brings the question */
  /* The agent, asking the question (the same before and after). */
  void             (*serve)  (ClarifyTestServer *server);
  /* The agent once it took the answer: no longer asking. */
  void             (*serve_taken) (ClarifyTestServer *server);
  /* Stops asking, on a server that asks (safe from its handlers). */
  void             (*forget) (ClarifyTestServer *server);
  guint             gone_status; /* its reply to the same answer again */
  const char       *gone_body;
  /* What the person answers. */
  ClarifyResponse *(*answer) (ClarifyRequest    *request);
} ClarifyTestSource;

/* What the "clarify" row's agent asks, as its stream sends it. */
#define CLARIFY_TEST_SOURCES_CLARIFY_REQUEST \
  "{\"id\":\"r1\",\"title\":\"Deploy\",\"questions\":[{\"id\":\"q1\",\"kind\":\"text\",\"text\":\"Which branch?\"}]}"

extern const ClarifyTestSource clarify_test_sources[];
extern const guint             clarify_test_n_sources;

const ClarifyTestSource *clarify_test_source_find      (const char               *kind);
/* An inbox keeping its answers in @dir (NULL: nowhere), with @source's
 * agent at @server_url, as the connection @name. @fast: short back-offs
 * (Phoenix's listing too); FALSE keeps the real ones. */
ClarifyInbox            *clarify_test_source_inbox_new (const ClarifyTestSource  *source,
                                                        const char               *name,
                                                        const char               *dir,
                                                        const char               *server_url,
                                                        gboolean                  fast,
                                                        ClarifyBackend          **backend);

/* Secrets in the test's own files, and none from the environment. Call
 * first in main(), after clarify_test_log_init(). */
void                     clarify_test_sources_env_init (void);
/* One test per source, named @prefix + its kind, given the source. */
void                     clarify_test_sources_add     (const char   *prefix,
                                                       GTestDataFunc func);

/* Stores @source's password (if it has one) for the connection @name in
 * the secret store, and clears it again. */
void                     clarify_test_source_store_password (const ClarifyTestSource *source,
                                                             const char              *name);
void                     clarify_test_source_clear_password (const ClarifyTestSource *source,
                                                             const char              *name);

/* The requests an inbox showed, and how many of them were withdrawn. */
typedef struct
{
  GPtrArray *added;      /* ClarifyRequest */
  guint      withdrawn;
} ClarifyTestShown;

void                     clarify_test_shown_watch (ClarifyTestShown *shown,
                                                   ClarifyInbox     *inbox);
/* Stops watching the requests shown, and drops them. */
void                     clarify_test_shown_clear (ClarifyTestShown *shown);

G_END_DECLS
