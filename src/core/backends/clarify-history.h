/* clarify-history.h: the questions that ended, and how
 *
 * Fed by the inbox's ::request-ended: each ended request becomes one
 * ClarifyHistoryEntry (who asked, through which connection, the question,
 * what was answered, how it ended, when). The last CLARIFY_HISTORY_MAX are
 * kept, newest first, as a GListModel, and on disk in one JSON file
 * (written atomically, mode 0600, in a folder of mode 0700). The file holds
 * only what the list shows: never a URL, a token or a backend's data. A
 * file that cannot be read back is renamed FILE.bad and the history starts
 * empty.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-inbox.h"

G_BEGIN_DECLS

#define CLARIFY_HISTORY_MAX 500

typedef enum
{
  CLARIFY_HISTORY_ANSWERED,
  CLARIFY_HISTORY_SKIPPED,
  CLARIFY_HISTORY_CANCELLED,
  CLARIFY_HISTORY_TIMED_OUT,
  CLARIFY_HISTORY_WITHDRAWN,
  CLARIFY_HISTORY_ANSWERED_ELSEWHERE,
  CLARIFY_HISTORY_FAILED,
} ClarifyHistoryOutcome;

#define CLARIFY_TYPE_HISTORY_ENTRY (clarify_history_entry_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyHistoryEntry, clarify_history_entry, CLARIFY, HISTORY_ENTRY, GObject)

/* Who asked: the connection, and the calling program as it names itself
 * (an MCP client's clientInfo.name) or NULL. */
const char            *clarify_history_entry_get_connection (ClarifyHistoryEntry *self);
const char            *clarify_history_entry_get_caller     (ClarifyHistoryEntry *self);
const char            *clarify_history_entry_get_question   (ClarifyHistoryEntry *self);
/* What was answered, one line per question; NULL when nothing was. */
const char            *clarify_history_entry_get_answer     (ClarifyHistoryEntry *self);
ClarifyHistoryOutcome  clarify_history_entry_get_outcome    (ClarifyHistoryEntry *self);
/* When it ended, in µs since the epoch (g_get_real_time()). */
gint64                 clarify_history_entry_get_ended_at   (ClarifyHistoryEntry *self);
/* Whether @words (folded as g_str_match_string() does) all occur in it. */
gboolean               clarify_history_entry_matches        (ClarifyHistoryEntry *self,
                                                             const char          *words);

#define CLARIFY_TYPE_HISTORY (clarify_history_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyHistory, clarify_history, CLARIFY, HISTORY, GObject)

/* Reads @path (NULL: g_get_user_data_dir()/clarify/history.json); an empty
 * @path keeps the history in memory only. */
ClarifyHistory *clarify_history_new          (const char      *path);
const char     *clarify_history_get_path     (ClarifyHistory  *self);
/* Records each request @inbox ends from now on. */
void            clarify_history_watch        (ClarifyHistory  *self,
                                              ClarifyInbox    *inbox);
/* Records no more: what Clarify's own quitting ends (questions still open,
 * answers kept for the next start) is not how they ended. */
void            clarify_history_unwatch      (ClarifyHistory  *self);
/* Records @request, which ended (as ::request-ended hands it over). */
void            clarify_history_add_request  (ClarifyHistory  *self,
                                              ClarifyRequest  *request);
/* Writes now what is not on disk yet (it is written in the background
 * otherwise); before quitting. */
void            clarify_history_flush        (ClarifyHistory  *self);
/* Forgets everything, on disk too. */
gboolean        clarify_history_clear        (ClarifyHistory  *self,
                                              GError         **error);

G_END_DECLS
