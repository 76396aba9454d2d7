/* clarify-test-inbox.h: one check that everything that shows a request agrees
 *
 * A ClarifyTestInboxWatch records an inbox's ::request-added and
 * ::request-ended. clarify_test_inbox_assert() then checks, for one request,
 * that its state, end and reason, the inbox's list, its pending view and
 * count, its backend's view and lookup and the signals all say the same,
 * and that the inbox as a whole is consistent. Header-only, for the core
 * and the UI tests alike.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-inbox.h"
#include "clarify-test-server.h"

G_BEGIN_DECLS

typedef struct
{
  ClarifyInbox *inbox;
  GPtrArray    *added;       /* ClarifyRequest, in the order of ::request-added */
  GPtrArray    *ended;       /* ClarifyRequest, in the order of ::request-ended */
  GPtrArray    *refused;     /* ClarifyRequest, in the order of ::answer-refused */
  GHashTable   *unannounced; /* ClarifyRequest expected without ::request-added */
} ClarifyTestInboxWatch;

static inline guint
clarify_test_inbox_count (GPtrArray *requests,
                          gpointer   request)
{
  guint n = 0;

  for (guint i = 0; i < requests->len; i++)
    n += g_ptr_array_index (requests, i) == request;

  return n;
}

/* How often @model lists @request. */
static inline guint
clarify_test_inbox_count_in_model (GListModel *model,
                                   gpointer    request)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      n += (gpointer) item == request;
    }

  return n;
}

static inline void
clarify_test_inbox_on_added (ClarifyInbox          *inbox,
                             ClarifyRequest        *request,
                             ClarifyTestInboxWatch *watch)
{
  g_ptr_array_add (watch->added, g_object_ref (request));
}

static inline void
clarify_test_inbox_on_ended (ClarifyInbox          *inbox,
                             ClarifyRequest        *request,
                             ClarifyTestInboxWatch *watch)
{
  /* Ended means out of every list already, and done. */
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_DONE);
  g_assert_null (clarify_inbox_get_backend_of (inbox, request));
  g_assert_cmpuint (clarify_test_inbox_count_in_model (G_LIST_MODEL (inbox), request), ==, 0);
  g_ptr_array_add (watch->ended, g_object_ref (request));
}

static inline void
clarify_test_inbox_on_refused (ClarifyInbox          *inbox,
                               ClarifyRequest        *request,
                               const GError          *error,
                               ClarifyResponse       *response,
                               ClarifyTestInboxWatch *watch)
{
  g_assert_cmpint (clarify_request_get_state (request), ==, CLARIFY_REQUEST_PENDING);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_ANSWER_REFUSED);
  g_assert_cmpstr (clarify_request_get_end_detail (request), ==, error->message);
  g_ptr_array_add (watch->refused, g_object_ref (request));
}

static inline void
clarify_test_inbox_watch_init (ClarifyTestInboxWatch *watch,
                               ClarifyInbox          *inbox)
{
  watch->inbox = g_object_ref (inbox);
  watch->added = g_ptr_array_new_with_free_func (g_object_unref);
  watch->ended = g_ptr_array_new_with_free_func (g_object_unref);
  watch->refused = g_ptr_array_new_with_free_func (g_object_unref);
  watch->unannounced = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  g_signal_connect (inbox, "request-added", G_CALLBACK (clarify_test_inbox_on_added), watch);
  g_signal_connect (inbox, "request-ended", G_CALLBACK (clarify_test_inbox_on_ended), watch);
  g_signal_connect (inbox, "answer-refused", G_CALLBACK (clarify_test_inbox_on_refused), watch);
}

static inline void
clarify_test_inbox_watch_clear (ClarifyTestInboxWatch *watch)
{
  if (watch->inbox != NULL)
    g_signal_handlers_disconnect_by_data (watch->inbox, watch);
  g_clear_object (&watch->inbox);
  g_clear_pointer (&watch->added, g_ptr_array_unref);
  g_clear_pointer (&watch->ended, g_ptr_array_unref);
  g_clear_pointer (&watch->refused, g_ptr_array_unref);
  g_clear_pointer (&watch->unannounced, g_hash_table_unref);
}

/* @request reaches the inbox without ::request-added (expired on arrival). */
static inline void
clarify_test_inbox_expect_unannounced (ClarifyTestInboxWatch *watch,
                                       ClarifyRequest        *request)
{
  g_hash_table_add (watch->unannounced, g_object_ref (request));
}

/* The inbox as a whole: the pending view is the PENDING part of the list, in
 * order, and its count; every backend's view is its part of the list. */
static inline void
clarify_test_inbox_assert_consistent (ClarifyInbox *inbox)
{
  GListModel *list = G_LIST_MODEL (inbox);
  GListModel *pending = clarify_inbox_get_pending (inbox);
  GListModel *backends = clarify_inbox_get_backends (inbox);
  guint n_items = g_list_model_get_n_items (list);
  guint n_in_views = 0;
  guint next = 0;

  g_assert_cmpuint (clarify_inbox_get_n_pending (inbox), ==, g_list_model_get_n_items (pending));

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(ClarifyRequest) request = g_list_model_get_item (list, i);
      ClarifyRequestState state = clarify_request_get_state (request);
      g_autofree char *key = clarify_inbox_dup_key (request);

      g_assert_cmpint (state, !=, CLARIFY_REQUEST_DONE);
      g_assert_cmpint (clarify_request_get_end (request), ==, CLARIFY_REQUEST_END_NONE);
      g_assert_true (clarify_inbox_lookup_key (inbox, key) == request);
      g_assert_nonnull (clarify_inbox_get_backend_of (inbox, request));
      if (state == CLARIFY_REQUEST_PENDING)
        {
          g_autoptr(ClarifyRequest) in_view = g_list_model_get_item (pending, next++);

          g_assert_true (in_view == request);
        }
    }
  g_assert_cmpuint (next, ==, g_list_model_get_n_items (pending));

  for (guint b = 0; b < g_list_model_get_n_items (backends); b++)
    {
      g_autoptr(ClarifyBackend) backend = g_list_model_get_item (backends, b);
      GListModel *view = clarify_backend_get_requests (backend);

      for (guint i = 0; i < g_list_model_get_n_items (view); i++)
        {
          g_autoptr(ClarifyRequest) request = g_list_model_get_item (view, i);

          g_assert_true (clarify_inbox_get_backend_of (inbox, request) == backend);
          g_assert_true (clarify_backend_lookup_request (backend, clarify_request_get_id (request)) == request);
          g_assert_cmpuint (clarify_test_inbox_count_in_model (list, request), ==, 1);
        }
      n_in_views += g_list_model_get_n_items (view);
    }
  /* Requests of sources that are not listed backends (D-Bus) are the rest. */
  g_assert_cmpuint (n_in_views, <=, n_items);
}

/* @request of @backend is in @state with @end, @reason and @detail, and
 * everything that shows it agrees. */
static inline void
clarify_test_inbox_assert (ClarifyTestInboxWatch *watch,
                           ClarifyBackend        *backend,
                           ClarifyRequest        *request,
                           ClarifyRequestState    state,
                           ClarifyRequestEnd      end,
                           ClarifyEndReason       reason,
                           const char            *detail)
{
  ClarifyInbox *inbox = watch->inbox;
  gboolean done = state == CLARIFY_REQUEST_DONE;
  guint in_list = done ? 0 : 1;
  ClarifyRequest *found = clarify_backend_lookup_request (backend, clarify_request_get_id (request));

  g_assert_cmpint (clarify_request_get_state (request), ==, state);
  g_assert_cmpint (clarify_request_get_end (request), ==, end);
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, reason);
  g_assert_cmpstr (clarify_request_get_end_detail (request), ==, detail);

  g_assert_cmpuint (clarify_test_inbox_count_in_model (G_LIST_MODEL (inbox), request), ==, in_list);
  g_assert_cmpuint (clarify_test_inbox_count_in_model (clarify_backend_get_requests (backend), request), ==, in_list);
  g_assert_cmpuint (clarify_test_inbox_count_in_model (clarify_inbox_get_pending (inbox), request), ==,
                    state == CLARIFY_REQUEST_PENDING ? 1 : 0);
  if (done)
    {
      g_autofree char *key = clarify_inbox_dup_key (request);

      g_assert_true (found != request);
      g_assert_true (clarify_inbox_lookup_key (inbox, key) != request);
      g_assert_null (clarify_inbox_get_backend_of (inbox, request));
    }
  else
    {
      g_assert_true (found == request);
      g_assert_true (clarify_inbox_get_backend_of (inbox, request) == backend);
    }

  g_assert_cmpuint (clarify_test_inbox_count (watch->added, request), ==,
                    g_hash_table_contains (watch->unannounced, request) ? 0 : 1);
  g_assert_cmpuint (clarify_test_inbox_count (watch->ended, request), ==, done ? 1 : 0);

  clarify_test_inbox_assert_consistent (inbox);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ClarifyTestInboxWatch, clarify_test_inbox_watch_clear)

/* For clarify_test_loop_until(): an answer was refused. */
static inline gboolean
clarify_test_inbox_has_refused (gpointer data)
{
  return ((ClarifyTestInboxWatch *) data)->refused->len > 0;
}

typedef struct
{
  ClarifyRequest      *request;
  ClarifyRequestState  state;
} ClarifyTestInboxWait;

static inline gboolean
clarify_test_inbox_is_in_state (gpointer data)
{
  ClarifyTestInboxWait *wait = data;

  return clarify_request_get_state (wait->request) == wait->state;
}

/* Iterates the main context until @request is in @state. */
static inline void
clarify_test_inbox_wait_state (ClarifyRequest      *request,
                               ClarifyRequestState  state,
                               guint                timeout_ms)
{
  ClarifyTestInboxWait wait = { request, state };

  g_assert_true (clarify_test_loop_until (clarify_test_inbox_is_in_state, &wait, timeout_ms));
}

G_END_DECLS
