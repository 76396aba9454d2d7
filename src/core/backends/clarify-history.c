/* clarify-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "clarify-history.h"
#include "clarify-json.h"
#include "clarify-private-file.h"

#define FORMAT_VERSION 1
#define BAD_SUFFIX     ".bad"

/* The outcomes' names in the file. */
static const char * const outcome_names[] = {
  [CLARIFY_HISTORY_ANSWERED]           = "answered",
  [CLARIFY_HISTORY_SKIPPED]            = "skipped",
  [CLARIFY_HISTORY_CANCELLED]          = "cancelled",
  [CLARIFY_HISTORY_TIMED_OUT]          = "timed_out",
  [CLARIFY_HISTORY_WITHDRAWN]          = "withdrawn",
  [CLARIFY_HISTORY_ANSWERED_ELSEWHERE] = "answered_elsewhere",
  [CLARIFY_HISTORY_FAILED]             = "failed",
};

/* ClarifyHistoryEntry */

struct _ClarifyHistoryEntry
{
  GObject                parent_instance;

  char                  *connection;
  char                  *caller;
  char                  *question;
  char                  *answer;
  ClarifyHistoryOutcome  outcome;
  gint64                 ended_at;
};

G_DEFINE_FINAL_TYPE (ClarifyHistoryEntry, clarify_history_entry, G_TYPE_OBJECT)

static void
clarify_history_entry_finalize (GObject *object)
{
  ClarifyHistoryEntry *self = CLARIFY_HISTORY_ENTRY (object);

  g_free (self->connection);
  g_free (self->caller);
  g_free (self->question);
  g_free (self->answer);

  G_OBJECT_CLASS (clarify_history_entry_parent_class)->finalize (object);
}

static void
clarify_history_entry_class_init (ClarifyHistoryEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = clarify_history_entry_finalize;
}

static void
clarify_history_entry_init (ClarifyHistoryEntry *self)
{
}

const char *
clarify_history_entry_get_connection (ClarifyHistoryEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ENTRY (self), NULL);
  return self->connection;
}

const char *
clarify_history_entry_get_caller (ClarifyHistoryEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ENTRY (self), NULL);
  return self->caller;
}

const char *
clarify_history_entry_get_question (ClarifyHistoryEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ENTRY (self), NULL);
  return self->question;
}

const char *
clarify_history_entry_get_answer (ClarifyHistoryEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ENTRY (self), NULL);
  return self->answer;
}

ClarifyHistoryOutcome
clarify_history_entry_get_outcome (ClarifyHistoryEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ENTRY (self), CLARIFY_HISTORY_ANSWERED);
  return self->outcome;
}

gint64
clarify_history_entry_get_ended_at (ClarifyHistoryEntry *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY_ENTRY (self), 0);
  return self->ended_at;
}

gboolean
clarify_history_entry_matches (ClarifyHistoryEntry *self,
                               const char          *words)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (CLARIFY_IS_HISTORY_ENTRY (self), FALSE);

  if (words == NULL || words[0] == '\0')
    return TRUE;

  text = g_strjoin (" ", self->connection ? self->connection : "", self->caller ? self->caller : "",
                    self->question ? self->question : "", self->answer ? self->answer : "", NULL);
  /* Every word, folded: "koln" finds "Köln". */
  {
    g_auto(GStrv) each = g_strsplit (words, " ", -1);

    for (guint i = 0; each[i] != NULL; i++)
      if (each[i][0] != '\0' && !g_str_match_string (each[i], text, TRUE))
        return FALSE;
  }

  return TRUE;
}

/* From a request that ended */

static gboolean
outcome_of (ClarifyRequest        *request,
            ClarifyResponse       *response,
            ClarifyHistoryOutcome *outcome)
{
  switch (clarify_request_get_end (request))
    {
    case CLARIFY_REQUEST_END_ANSWERED:
      if (response != NULL && clarify_response_get_outcome (response) == CLARIFY_OUTCOME_SKIPPED)
        *outcome = CLARIFY_HISTORY_SKIPPED;
      else if (response != NULL && clarify_response_get_outcome (response) == CLARIFY_OUTCOME_CANCELLED)
        *outcome = CLARIFY_HISTORY_CANCELLED;
      else if (response != NULL && clarify_response_get_outcome (response) == CLARIFY_OUTCOME_TIMED_OUT)
        *outcome = CLARIFY_HISTORY_TIMED_OUT;
      else
        *outcome = CLARIFY_HISTORY_ANSWERED;
      return TRUE;
    case CLARIFY_REQUEST_END_CANCELLED:
      *outcome = CLARIFY_HISTORY_CANCELLED;
      return TRUE;
    case CLARIFY_REQUEST_END_TIMED_OUT:
      *outcome = CLARIFY_HISTORY_TIMED_OUT;
      return TRUE;
    case CLARIFY_REQUEST_END_WITHDRAWN:
      /* Claude Code's terminal took it: answered, only not here. */
      if (clarify_request_get_end_reason (request) == CLARIFY_END_REASON_ANSWERED_IN_TERMINAL)
        *outcome = CLARIFY_HISTORY_ANSWERED_ELSEWHERE;
      else
        *outcome = CLARIFY_HISTORY_WITHDRAWN;
      return TRUE;
    case CLARIFY_REQUEST_END_ANSWERED_ELSEWHERE:
      *outcome = CLARIFY_HISTORY_ANSWERED_ELSEWHERE;
      return TRUE;
    case CLARIFY_REQUEST_END_FAILED:
      *outcome = CLARIFY_HISTORY_FAILED;
      return TRUE;
    case CLARIFY_REQUEST_END_NONE:
    default:
      return FALSE;
    }
}

/* An option's label for its value, as the person saw it. */
static const char *
label_of (ClarifyQuestion *question,
          const char      *value)
{
  ClarifyOption *option;

  if (question == NULL)
    return value;
  if (clarify_question_get_kind (question) == CLARIFY_QUESTION_KIND_CONFIRM)
    return g_strcmp0 (value, "yes") == 0 ? _("Yes") : g_strcmp0 (value, "no") == 0 ? _("No") : value;

  option = clarify_question_find_option (question, value);
  return option != NULL ? clarify_option_get_label (option) : value;
}

static ClarifyQuestion *
find_question (ClarifyRequest *request,
               const char     *id)
{
  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    if (g_strcmp0 (clarify_question_get_id (clarify_request_get_question (request, i)), id) == 0)
      return clarify_request_get_question (request, i);

  return NULL;
}

/* One line per answered question: its choices and words, comma-separated. */
static char *
format_answer (ClarifyRequest  *request,
               ClarifyResponse *response)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < clarify_response_get_n_answers (response); i++)
    {
      const ClarifyAnswer *answer = clarify_response_get_answer (response, i);
      ClarifyQuestion *question = find_question (request, answer->question_id);
      g_autoptr(GString) line = g_string_new (NULL);

      if (answer->skipped)
        continue;
      for (guint v = 0; answer->values != NULL && answer->values[v] != NULL; v++)
        {
          if (line->len > 0)
            g_string_append (line, ", ");
          g_string_append (line, label_of (question, answer->values[v]));
        }
      if (answer->custom_text != NULL && answer->custom_text[0] != '\0')
        {
          if (line->len > 0)
            g_string_append (line, ", ");
          g_string_append (line, answer->custom_text);
        }
      if (line->len == 0)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line->str);
    }

  return text->len > 0 ? g_strdup (text->str) : NULL;
}

/* ClarifyHistory */

struct _ClarifyHistory
{
  GObject       parent_instance;

  char         *path;     /* "" for memory only */
  GPtrArray    *entries;  /* ClarifyHistoryEntry, newest first */
  ClarifyInbox *inbox;
  guint64       generation; /* of the entries, one more for each change */
  guint64       attempted;  /* the generation last written, or refused */
  guint         save_id;    /* idle: write the entries */
  gboolean      writing;    /* a write is on its thread */
  /* The worker thread's too: writes take the lock and skip a text older
   * than the one on disk, so a late background write cannot undo a newer
   * one. The task running a write holds a reference to the history. */
  GMutex        write_lock;
  guint64       on_disk;    /* the generation last written; under the lock */
};

static void clarify_history_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (ClarifyHistory, clarify_history, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, clarify_history_list_model_init))

static GType
clarify_history_get_item_type (GListModel *model)
{
  return CLARIFY_TYPE_HISTORY_ENTRY;
}

static guint
clarify_history_get_n_items (GListModel *model)
{
  return CLARIFY_HISTORY (model)->entries->len;
}

static gpointer
clarify_history_get_item (GListModel *model,
                          guint       position)
{
  ClarifyHistory *self = CLARIFY_HISTORY (model);

  if (position >= self->entries->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->entries, position));
}

static void
clarify_history_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = clarify_history_get_item_type;
  iface->get_n_items = clarify_history_get_n_items;
  iface->get_item = clarify_history_get_item;
}

/* Any thread. @text is the entries of @generation. */
static gboolean
write_text (ClarifyHistory  *self,
            const char      *text,
            guint64          generation,
            GError         **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->write_lock);

  if (generation <= self->on_disk)
    return TRUE;
  if (!clarify_private_file_write (self->path, text, -1, error))
    return FALSE;

  self->on_disk = generation;
  return TRUE;
}

static char *
to_json (ClarifyHistory *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, FORMAT_VERSION);
  json_builder_set_member_name (builder, "entries");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->entries->len; i++)
    {
      ClarifyHistoryEntry *entry = g_ptr_array_index (self->entries, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "ended_at");
      json_builder_add_int_value (builder, entry->ended_at);
      clarify_json_add_string_member (builder, "outcome", outcome_names[entry->outcome]);
      clarify_json_add_string_member (builder, "connection", entry->connection);
      clarify_json_add_string_member (builder, "caller", entry->caller);
      clarify_json_add_string_member (builder, "question", entry->question);
      clarify_json_add_string_member (builder, "answer", entry->answer);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return clarify_json_builder_to_string (builder);
}

/* Writes what is not on disk yet, on this thread. */
static gboolean
save_now (ClarifyHistory  *self,
          GError         **error)
{
  g_autofree char *text = NULL;

  if (self->path[0] == '\0')
    return TRUE;

  g_clear_handle_id (&self->save_id, g_source_remove);
  text = to_json (self);
  self->attempted = self->generation;
  return write_text (self, text, self->generation, error);
}

typedef struct
{
  char    *text;
  guint64  generation;
} WriteJob;

static void
write_job_free (gpointer data)
{
  WriteJob *job = data;

  g_free (job->text);
  g_free (job);
}

static void
write_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  WriteJob *job = task_data;
  GError *error = NULL;

  if (write_text (source_object, job->text, job->generation, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void schedule_save (ClarifyHistory *self);

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  ClarifyHistory *self = CLARIFY_HISTORY (object);
  g_autoptr(GError) error = NULL;

  self->writing = FALSE;
  /* The list in the window still has it; the next question to end tries
   * again, and so does quitting. */
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_message ("Cannot save the history to %s: %s", self->path, error->message);

  /* What ended while it wrote goes in one more write. */
  schedule_save (self);
}

static gboolean
save_cb (gpointer data)
{
  ClarifyHistory *self = data;
  g_autoptr(GTask) task = NULL;
  WriteJob *job;

  self->save_id = 0;
  job = g_new0 (WriteJob, 1);
  job->text = to_json (self);
  job->generation = self->generation;
  self->attempted = self->generation;

  self->writing = TRUE;
  task = g_task_new (self, NULL, written_cb, NULL);
  g_task_set_source_tag (task, save_cb);
  g_task_set_task_data (task, job, write_job_free);
  g_task_run_in_thread (task, write_in_thread);

  return G_SOURCE_REMOVE;
}

/* Written off the main thread, one write at a time: a burst of questions
 * ending is one write, and a slow disk holds up no dialog. */
static void
schedule_save (ClarifyHistory *self)
{
  /* A write the disk refused is tried again when the next question ends. */
  if (self->path[0] == '\0' || self->writing || self->save_id != 0 || self->generation <= self->attempted)
    return;

  self->save_id = g_idle_add_full (G_PRIORITY_LOW, save_cb, self, NULL);
}

static ClarifyHistoryEntry *
entry_from_json (JsonObject *object)
{
  g_autoptr(ClarifyHistoryEntry) entry = NULL;
  JsonNode *ended_at = object != NULL ? json_object_get_member (object, "ended_at") : NULL;
  const char *outcome = clarify_json_get_string_member (object, "outcome");
  const char *question = clarify_json_get_string_member (object, "question");
  gboolean known = FALSE;

  if (ended_at == NULL || json_node_get_value_type (ended_at) != G_TYPE_INT64 || outcome == NULL || question == NULL)
    return NULL;

  entry = g_object_new (CLARIFY_TYPE_HISTORY_ENTRY, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (outcome_names); i++)
    if (g_str_equal (outcome, outcome_names[i]))
      {
        entry->outcome = i;
        known = TRUE;
      }
  if (!known)
    return NULL;

  entry->ended_at = json_node_get_int (ended_at);
  entry->question = g_strdup (question);
  entry->connection = g_strdup (clarify_json_get_string_member (object, "connection"));
  entry->caller = g_strdup (clarify_json_get_string_member (object, "caller"));
  entry->answer = g_strdup (clarify_json_get_string_member (object, "answer"));

  return g_steal_pointer (&entry);
}

static gboolean
load (ClarifyHistory  *self,
      GError         **error)
{
  g_autofree char *text = NULL;
  gsize length;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) read_error = NULL;
  JsonObject *object;
  JsonArray *entries;
  JsonNode *version;

  if (!g_file_get_contents (self->path, &text, &length, &read_error))
    {
      /* None yet is an empty history. */
      if (g_error_matches (read_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&read_error));
      return FALSE;
    }

  root = clarify_json_parse (text, length, error);
  if (root == NULL)
    return FALSE;

  object = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  version = object != NULL ? json_object_get_member (object, "version") : NULL;
  entries = clarify_json_get_array_member (object, "entries");
  if (version == NULL || json_node_get_value_type (version) != G_TYPE_INT64 ||
      json_node_get_int (version) != FORMAT_VERSION || entries == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not a history of version %d", FORMAT_VERSION);
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (entries) && self->entries->len < CLARIFY_HISTORY_MAX; i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      ClarifyHistoryEntry *entry = entry_from_json (JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL);

      if (entry == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "entry %u is not one", i);
          return FALSE;
        }
      g_ptr_array_add (self->entries, entry);
    }

  return TRUE;
}

static void
request_ended_cb (ClarifyInbox   *inbox,
                  ClarifyRequest *request,
                  ClarifyHistory *self)
{
  clarify_history_add_request (self, request);
}

static void
clarify_history_dispose (GObject *object)
{
  ClarifyHistory *self = CLARIFY_HISTORY (object);

  clarify_history_unwatch (self);
  clarify_history_flush (self);

  G_OBJECT_CLASS (clarify_history_parent_class)->dispose (object);
}

static void
clarify_history_finalize (GObject *object)
{
  ClarifyHistory *self = CLARIFY_HISTORY (object);

  g_free (self->path);
  g_ptr_array_unref (self->entries);
  g_mutex_clear (&self->write_lock);

  G_OBJECT_CLASS (clarify_history_parent_class)->finalize (object);
}

static void
clarify_history_class_init (ClarifyHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_history_dispose;
  object_class->finalize = clarify_history_finalize;
}

static void
clarify_history_init (ClarifyHistory *self)
{
  self->entries = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&self->write_lock);
}

ClarifyHistory *
clarify_history_new (const char *path)
{
  ClarifyHistory *self = g_object_new (CLARIFY_TYPE_HISTORY, NULL);
  g_autoptr(GError) error = NULL;

  self->path = path != NULL ? g_strdup (path)
                            : g_build_filename (g_get_user_data_dir (), "clarify", "history.json", NULL);

  if (self->path[0] != '\0' && !load (self, &error))
    {
      g_autofree char *bad = g_strconcat (self->path, BAD_SUFFIX, NULL);

      /* Kept for a person to look at; the history starts again. */
      g_warning ("Cannot read the history %s (%s); moved it to %s", self->path, error->message, bad);
      if (g_rename (self->path, bad) != 0)
        g_warning ("Cannot move %s aside: %s", self->path, g_strerror (errno));
      g_ptr_array_set_size (self->entries, 0);
    }

  return self;
}

const char *
clarify_history_get_path (ClarifyHistory *self)
{
  g_return_val_if_fail (CLARIFY_IS_HISTORY (self), NULL);

  return self->path;
}

void
clarify_history_watch (ClarifyHistory *self,
                       ClarifyInbox   *inbox)
{
  g_return_if_fail (CLARIFY_IS_HISTORY (self));
  g_return_if_fail (CLARIFY_IS_INBOX (inbox));
  g_return_if_fail (self->inbox == NULL);

  self->inbox = g_object_ref (inbox);
  g_signal_connect_object (inbox, "request-ended", G_CALLBACK (request_ended_cb), self, 0);
}

void
clarify_history_unwatch (ClarifyHistory *self)
{
  g_return_if_fail (CLARIFY_IS_HISTORY (self));

  if (self->inbox == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->inbox, self);
  g_clear_object (&self->inbox);
}

void
clarify_history_add_request (ClarifyHistory *self,
                             ClarifyRequest *request)
{
  ClarifyResponse *response;
  ClarifyHistoryEntry *entry;
  ClarifyHistoryOutcome outcome;
  guint removed = 0;

  g_return_if_fail (CLARIFY_IS_HISTORY (self));
  g_return_if_fail (CLARIFY_IS_REQUEST (request));

  response = clarify_inbox_get_answer (request);
  if (!outcome_of (request, response, &outcome))
    return;

  entry = g_object_new (CLARIFY_TYPE_HISTORY_ENTRY, NULL);
  entry->connection = g_strdup (clarify_request_get_connection_name (request));
  entry->caller = g_strdup (clarify_request_get_caller (request));
  entry->question = g_strdup (clarify_request_get_summary (request));
  entry->outcome = outcome;
  entry->ended_at = g_get_real_time ();
  /* Only what the user's own answer said: an agent that took the question
   * back after refusing an answer got none. */
  if (response != NULL && (outcome == CLARIFY_HISTORY_ANSWERED || outcome == CLARIFY_HISTORY_FAILED))
    entry->answer = format_answer (request, response);

  g_ptr_array_insert (self->entries, 0, entry);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, 1);
  if (self->entries->len > CLARIFY_HISTORY_MAX)
    {
      removed = self->entries->len - CLARIFY_HISTORY_MAX;
      g_ptr_array_set_size (self->entries, CLARIFY_HISTORY_MAX);
      g_list_model_items_changed (G_LIST_MODEL (self), CLARIFY_HISTORY_MAX, removed, 0);
    }
  self->generation++;
  schedule_save (self);
}

void
clarify_history_flush (ClarifyHistory *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CLARIFY_IS_HISTORY (self));

  if (!save_now (self, &error))
    g_message ("Cannot save the history to %s: %s", self->path, error->message);
}

gboolean
clarify_history_clear (ClarifyHistory  *self,
                       GError         **error)
{
  guint n;

  g_return_val_if_fail (CLARIFY_IS_HISTORY (self), FALSE);

  n = self->entries->len;
  g_ptr_array_set_size (self->entries, 0);
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
  self->generation++;

  return save_now (self, error);
}
