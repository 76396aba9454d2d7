/* clarify-test-outbox.h: answers an earlier run of Clarify left on disk
 *
 * Header-only, for the core and the UI tests of the outbox's store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-backend-registry.h"
#include "clarify-inbox.h"
#include "clarify-json.h"
#include "clarify-outbox-store.h"

G_BEGIN_DECLS

/* Writes the answer "main" to question q1 of @request_json, for the
 * "clarify" connection "work" at @url, into the store at @dir. */
static inline void
clarify_test_outbox_keep_answer (const char *dir,
                                 const char *url,
                                 const char *request_json)
{
  g_autoptr(ClarifyConnection) connection = clarify_connection_new ("work", "clarify", url);
  g_autoptr(ClarifyOutboxStore) store = clarify_outbox_store_new (dir);
  g_autoptr(ClarifyBackend) backend = NULL;
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  const char *values[] = { "main", NULL };

  backend = clarify_backend_registry_create (connection, &error);
  g_assert_no_error (error);
  request = clarify_request_new_from_data (request_json, -1, &error);
  g_assert_no_error (error);
  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, "q1", values, NULL, FALSE);
  name = clarify_outbox_store_save (store, backend, request, response, &error);
  g_assert_no_error (error);
  g_assert_nonnull (name);
}

/* How many files in @dir end with @suffix (".json": answers kept). */
static inline guint
clarify_test_outbox_count (const char *dir,
                           const char *suffix)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    n += g_str_has_suffix (name, suffix);

  return n;
}

/* What an inbox showed and which kept answers it settled. */
typedef struct
{
  GPtrArray *added;      /* ids of the requests shown */
  GPtrArray *replayed;   /* "id=delivered" or "id=not needed" */
} ClarifyTestSeen;

static inline void
clarify_test_seen_on_added (ClarifyInbox    *inbox,
                            ClarifyRequest  *request,
                            ClarifyTestSeen *seen)
{
  g_ptr_array_add (seen->added, g_strdup (clarify_request_get_id (request)));
}

static inline void
clarify_test_seen_on_replay_ended (ClarifyInbox    *inbox,
                                   ClarifyRequest  *request,
                                   gboolean         delivered,
                                   ClarifyTestSeen *seen)
{
  /* The answer kept since before the restart is the one given. */
  g_assert_nonnull (clarify_inbox_get_answer (request));
  g_assert_cmpstr (clarify_response_get_request_id (clarify_inbox_get_answer (request)), ==,
                   clarify_request_get_id (request));
  g_ptr_array_add (seen->replayed, g_strdup_printf ("%s=%s", clarify_request_get_id (request),
                                                    delivered ? "delivered" : "not needed"));
}

static inline void
clarify_test_seen_init (ClarifyTestSeen *seen,
                        ClarifyInbox    *inbox)
{
  seen->added = g_ptr_array_new_with_free_func (g_free);
  seen->replayed = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (inbox, "request-added", G_CALLBACK (clarify_test_seen_on_added), seen);
  g_signal_connect (inbox, "replay-ended", G_CALLBACK (clarify_test_seen_on_replay_ended), seen);
}

static inline void
clarify_test_seen_clear (ClarifyTestSeen *seen)
{
  g_clear_pointer (&seen->added, g_ptr_array_unref);
  g_clear_pointer (&seen->replayed, g_ptr_array_unref);
}

static inline gboolean
clarify_test_seen_has_replayed (gpointer data)
{
  return ((ClarifyTestSeen *) data)->replayed->len > 0;
}

static inline gboolean
clarify_test_seen_has_added (gpointer data)
{
  return ((ClarifyTestSeen *) data)->added->len > 0;
}

G_END_DECLS
