/* clarify-inbox-outbox.c: the inbox's side of the outbox
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-error.h"
#include "clarify-inbox-private.h"
#include "clarify-request-private.h"

/* The outbox's results */

static ClarifyRequestEnd
end_for_outcome (ClarifyOutcome outcome)
{
  switch (outcome)
    {
    case CLARIFY_OUTCOME_CANCELLED:
      return CLARIFY_REQUEST_END_CANCELLED;
    case CLARIFY_OUTCOME_TIMED_OUT:
      return CLARIFY_REQUEST_END_TIMED_OUT;
    case CLARIFY_OUTCOME_ANSWERED:
    case CLARIFY_OUTCOME_SKIPPED:
    default:
      return CLARIFY_REQUEST_END_ANSWERED;
    }
}

static void
on_delivered (ClarifyOutbox   *outbox,
              ClarifyRequest  *request,
              ClarifyResponse *response,
              ClarifyInbox    *self)
{
  InboxEntry *entry = g_hash_table_lookup (self->by_request, request);
  ClarifyRequestEnd end = end_for_outcome (clarify_response_get_outcome (response));
  gboolean replayed = entry != NULL && entry->replayed;

  if (entry == NULL)
    return;

  if (replayed)
    g_hash_table_add (self->settled, g_strdup (entry->key));
  clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, end,
                      end == CLARIFY_REQUEST_END_TIMED_OUT ? CLARIFY_END_REASON_TIME_RAN_OUT : CLARIFY_END_REASON_NONE,
                      NULL);
  if (replayed)
    g_signal_emit_by_name (self, "replay-ended", request, TRUE);
}

static void
on_waiting (ClarifyOutbox  *outbox,
            ClarifyRequest *request,
            ClarifyInbox   *self)
{
  if (clarify_request_get_state (request) == CLARIFY_REQUEST_SENDING)
    clarify_request_set_state (request, CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE,
                               CLARIFY_END_REASON_WAITING_FOR_AGENT, NULL);
}

static void
on_failed (ClarifyOutbox   *outbox,
           ClarifyRequest  *request,
           ClarifyResponse *response,
           const GError    *error,
           ClarifyInbox    *self)
{
  InboxEntry *entry = g_hash_table_lookup (self->by_request, request);
  gboolean user_answer = clarify_response_get_outcome (response) != CLARIFY_OUTCOME_TIMED_OUT;

  if (entry == NULL)
    return;

  /* An answer kept across a restart that the agent no longer waits for. */
  if (entry->replayed && g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE))
    {
      g_hash_table_add (self->settled, g_strdup (entry->key));
      clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_FAILED,
                          CLARIFY_END_REASON_NOT_NEEDED, error->message);
      g_signal_emit_by_name (self, "replay-ended", request, FALSE);
      return;
    }

  /* Refused or failed after the agent said it no longer asks: it ends as
   * the agent said, and nobody is asked again. Unless the answer itself
   * says the question is gone (with a restart): that is the later news. */
  if (entry->withdrawn_end != CLARIFY_REQUEST_END_NONE &&
      !g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE) &&
      !g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED))
    {
      g_autofree char *detail = g_steal_pointer (&entry->withdrawn_detail);

      clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, entry->withdrawn_end, entry->withdrawn_reason, detail);
      return;
    }

  if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_GONE))
    {
      clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE,
                          CLARIFY_END_REASON_ANSWERED_ELSEWHERE, NULL);
    }
  else if (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AGENT_RESTARTED))
    {
      /* Moving it to DONE frees the entry. */
      gboolean replayed = entry->replayed;

      /* Not delivered, and nobody else answered: kept, with the truth. */
      clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_FAILED,
                          CLARIFY_END_REASON_AGENT_RESTARTED, NULL);
      if (replayed)
        g_signal_emit_by_name (self, "replay-ended", request, FALSE);
    }
  else if (user_answer &&
           (g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_REJECTED) ||
            g_error_matches (error, CLARIFY_ERROR, CLARIFY_ERROR_AUTH)))
    {
      /* The user can answer again once the value or the password is fixed. */
      clarify_inbox_move (self, entry, CLARIFY_REQUEST_PENDING, CLARIFY_REQUEST_END_NONE,
                          CLARIFY_END_REASON_ANSWER_REFUSED, error->message);
      g_signal_emit_by_name (self, "answer-refused", request, error, response);
    }
  else
    {
      clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE, CLARIFY_REQUEST_END_FAILED,
                          CLARIFY_END_REASON_DELIVERY_FAILED, error->message);
    }
}

/* The post of an answer whose backend was replaced (or removed) has
 * finished. If the connection's new backend holds the request, it ends as
 * that post says, or is sent from there; else the user hears of it alone. */
static void
on_let_go_settled (ClarifyOutbox  *outbox,
                   ClarifyRequest *request,
                   gboolean        kept,
                   gboolean        delivered,
                   gboolean        owed,
                   ClarifyInbox   *self)
{
  g_autofree char *key = clarify_inbox_dup_key (request);
  InboxEntry *entry = g_hash_table_lookup (self->by_key, key);
  g_autoptr(ClarifyRequest) replayed = NULL;

  if (entry != NULL && entry->held_response != NULL)
    {
      g_autoptr(ClarifyResponse) response = g_steal_pointer (&entry->held_response);
      g_autofree char *file = g_steal_pointer (&entry->held_file);

      if (owed)
        {
          clarify_outbox_post_saved (self->outbox, entry->backend, entry->request, response, file);
          return;
        }
      /* Ending it frees the entry and the inbox's hold on the request. */
      replayed = g_object_ref (entry->request);
      g_hash_table_add (self->settled, g_strdup (key));
      clarify_inbox_move (self, entry, CLARIFY_REQUEST_DONE,
                          delivered ? CLARIFY_REQUEST_END_ANSWERED : CLARIFY_REQUEST_END_FAILED,
                          delivered ? CLARIFY_END_REASON_NONE : CLARIFY_END_REASON_NOT_NEEDED, NULL);
      g_signal_emit_by_name (self, "replay-ended", replayed, delivered);
      return;
    }

  if (kept && !owed)
    {
      g_hash_table_add (self->settled, g_strdup (key));
      g_signal_emit_by_name (self, "replay-ended", request, delivered);
    }
}

void
clarify_inbox_watch_outbox (ClarifyInbox *self)
{
  g_signal_connect_object (self->outbox, "delivered", G_CALLBACK (on_delivered), self, 0);
  g_signal_connect_object (self->outbox, "failed", G_CALLBACK (on_failed), self, 0);
  g_signal_connect_object (self->outbox, "waiting", G_CALLBACK (on_waiting), self, 0);
  g_signal_connect_object (self->outbox, "let-go-settled", G_CALLBACK (on_let_go_settled), self, 0);
}

static void
on_backend_state (ClarifyBackend *backend,
                  GParamSpec     *pspec,
                  ClarifyInbox   *self)
{
  if (clarify_backend_get_state (backend) == CLARIFY_CONNECTION_STATE_CONNECTED)
    clarify_outbox_retry_backend (self->outbox, backend);
}

/* An agent whose stream opens again is reachable: what waits for it goes. */
void
clarify_inbox_watch_backend (ClarifyInbox   *self,
                             ClarifyBackend *backend)
{
  g_signal_connect_object (backend, "notify::state", G_CALLBACK (on_backend_state), self, 0);
}

/* Sends again what the store kept for @backend's connection. Each request
 * joins the inbox as sending, so that the agent's resync of the same
 * question shows no dialog, and ends as the agent's answer says. */
void
clarify_inbox_replay_saved (ClarifyInbox   *self,
                            ClarifyBackend *backend)
{
  ClarifyOutboxStore *store = clarify_outbox_get_store (self->outbox);
  ClarifyConnection *connection = clarify_backend_get_connection (backend);
  g_autoptr(GPtrArray) saved = NULL;

  if (store == NULL || connection == NULL)
    return;

  saved = clarify_outbox_store_load (store, backend);
  for (guint i = 0; i < saved->len; i++)
    {
      ClarifyOutboxSaved *item = g_ptr_array_index (saved, i);
      g_autofree char *key = clarify_inbox_key_for (backend, clarify_request_get_id (item->request));
      InboxEntry *entry;

      if (g_hash_table_contains (self->by_key, key))
        continue;

      g_message ("Sending again the answer to %s of %s, kept since before Clarify restarted",
                 clarify_request_get_id (item->request), clarify_connection_get_name (connection));
      clarify_request_set_connection (item->request, clarify_connection_get_name (connection),
                                      clarify_connection_get_kind (connection));
      clarify_request_set_state (item->request, CLARIFY_REQUEST_SENDING, CLARIFY_REQUEST_END_NONE,
                                 CLARIFY_END_REASON_WAITING_FOR_AGENT, NULL);
      entry = clarify_inbox_insert_entry (self, backend, item->request, g_steal_pointer (&key));
      entry->replayed = TRUE;
      /* What the user answered before the restart, for the history. */
      clarify_inbox_keep_answer (item->request, item->response);
      g_list_model_items_changed (G_LIST_MODEL (self), self->items->len - 1, 0, 1);

      /* Its post to the connection's previous backend is still under way:
       * on_let_go_settled() decides. */
      if (clarify_outbox_holds_file (self->outbox, item->name))
        {
          entry->held_response = g_object_ref (item->response);
          entry->held_file = g_strdup (item->name);
          continue;
        }
      clarify_outbox_post_saved (self->outbox, backend, item->request, item->response, item->name);
    }
}
