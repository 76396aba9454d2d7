/* clarify-inbox-limits.c: how many requests the inbox holds
 *
 * A request costs memory while it waits, and a dialog when it is shown; an
 * agent that sends thousands must not take the desktop down. So the inbox
 * holds at most max_per_connection requests (pending or sending) of one
 * connection, max_total in all, and max_bytes of them by a rough estimate
 * (one request at the size caps is ~0.9 MiB, so a count alone would let
 * 1,000 of them take a GiB), and refuses the rest with CLARIFY_ERROR_BUSY,
 * which each protocol turns into its own error.
 *
 * The user hears of it once per episode: the first refusal starts one, and
 * it ends when the count is down to half the cap, so that answering one
 * question of a flood does not start another notification. Then the
 * backends whose requests were turned away are asked to fetch again what
 * their agents still ask (a stream's agent does not send it again).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-backend-private.h"
#include "clarify-error.h"
#include "clarify-inbox-private.h"

void
clarify_inbox_init_limits (ClarifyInbox *self)
{
  self->max_per_connection = CLARIFY_INBOX_MAX_PER_CONNECTION;
  self->max_total = CLARIFY_INBOX_MAX_TOTAL;
  self->max_bytes = CLARIFY_INBOX_MAX_BYTES;
  self->refusing = g_hash_table_new (NULL, NULL);
  self->refused_in_all = g_hash_table_new (NULL, NULL);
}

static guint
count_of (ClarifyInbox   *self,
          ClarifyBackend *backend)
{
  GListModel *view = clarify_inbox_get_requests_of (self, backend);

  return g_list_model_get_n_items (view);
}

static gsize
text_bytes (const char *text)
{
  return text != NULL ? strlen (text) + 1 : 0;
}

/* Text plus the objects that hold it; the overheads were measured with
 * bench-flood (~220 bytes per option of short text, all told). */
gsize
clarify_inbox_estimate_bytes (ClarifyRequest *request)
{
  gsize bytes = 1024 + text_bytes (clarify_request_get_title (request)) +
                text_bytes (clarify_request_get_context (request));

  for (guint q = 0; q < clarify_request_get_n_questions (request); q++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, q);

      bytes += 512 + text_bytes (clarify_question_get_text (question)) +
               text_bytes (clarify_question_get_header (question)) +
               text_bytes (clarify_question_get_placeholder (question));
      for (guint o = 0; o < clarify_question_get_n_options (question); o++)
        {
          ClarifyOption *option = clarify_question_get_option (question, o);

          bytes += 160 + text_bytes (clarify_option_get_label (option)) +
                   text_bytes (clarify_option_get_value (option)) +
                   text_bytes (clarify_option_get_description (option));
        }
    }

  return bytes;
}

static void
start_episode_of_all (ClarifyInbox   *self,
                      ClarifyBackend *backend)
{
  g_hash_table_add (self->refused_in_all, backend);
  if (self->refusing_all)
    return;

  self->refusing_all = TRUE;
  clarify_inbox_emit_refused (self, NULL, MAX (self->items->len, 1));
}

gboolean
clarify_inbox_check_room (ClarifyInbox    *self,
                          ClarifyBackend  *backend,
                          ClarifyRequest  *request,
                          GError         **error)
{
  if (self->items->len >= self->max_total)
    {
      start_episode_of_all (self, backend);
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_BUSY,
                   "Too many questions wait for the user (%u at most in all); ask again later",
                   self->max_total);
      return FALSE;
    }

  if (self->bytes + clarify_inbox_estimate_bytes (request) > self->max_bytes)
    {
      start_episode_of_all (self, backend);
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_BUSY,
                   "The questions that wait for the user take as much memory as Clarify allows "
                   "(%" G_GSIZE_FORMAT " MiB); ask again later",
                   self->max_bytes / (1024 * 1024));
      return FALSE;
    }

  if (count_of (self, backend) >= self->max_per_connection)
    {
      if (g_hash_table_add (self->refusing, backend))
        clarify_inbox_emit_refused (self, backend, self->max_per_connection);
      g_set_error (error, CLARIFY_ERROR, CLARIFY_ERROR_BUSY,
                   "Too many questions from this connection wait for the user (%u at most); ask again later",
                   self->max_per_connection);
      return FALSE;
    }

  return TRUE;
}

void
clarify_inbox_forget_refusals (ClarifyInbox   *self,
                               ClarifyBackend *backend)
{
  g_hash_table_remove (self->refused_in_all, backend);
  g_hash_table_remove (self->refusing, backend);
}

void
clarify_inbox_update_room (ClarifyInbox   *self,
                           ClarifyBackend *backend)
{
  if (self->refusing_all && self->items->len <= self->max_total / 2 && self->bytes <= self->max_bytes / 2)
    {
      g_autoptr(GList) refused = g_hash_table_get_keys (self->refused_in_all);

      self->refusing_all = FALSE;
      g_hash_table_steal_all (self->refused_in_all);
      for (GList *l = refused; l != NULL; l = l->next)
        clarify_backend_resync (l->data);
    }

  if (g_hash_table_contains (self->refusing, backend) &&
      count_of (self, backend) <= self->max_per_connection / 2)
    {
      g_hash_table_remove (self->refusing, backend);
      clarify_backend_resync (backend);
    }
}

void
clarify_inbox_set_limits (ClarifyInbox *self,
                          guint         max_per_connection,
                          guint         max_total)
{
  g_return_if_fail (CLARIFY_IS_INBOX (self));
  g_return_if_fail (max_per_connection > 0 && max_total > 0);

  self->max_per_connection = max_per_connection;
  self->max_total = max_total;
}

void
clarify_inbox_set_max_bytes (ClarifyInbox *self,
                             gsize         max_bytes)
{
  g_return_if_fail (CLARIFY_IS_INBOX (self));
  g_return_if_fail (max_bytes > 0);

  self->max_bytes = max_bytes;
}
