/* clarify-claude-code-transcript.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-claude-code-transcript.h"
#include "clarify-json.h"

#define READ_CHUNK      (64 * 1024)
/* A line longer than this (a pasted image, a huge tool result) is skipped:
 * the lines that matter hold a tool call or a result's id. */
#define MAX_LINE_BYTES  (32 * 1024 * 1024)
/* Calls answered before a watch arrives: the terminal may have been
 * quicker than Clarify's start. The latest few are enough. */
#define N_RECENT_ANSWERED 32
/* Calls that never get a result (an interrupted turn) are forgotten. */
#define MAX_OPEN_CALLS  256

typedef struct
{
  char     *id;
  char     *name;
  JsonNode *input;
  char     *watch_key;  /* the watch it answers, or NULL */
  goffset   result_end; /* where its result's line ends in the file, once answered */
} ToolCall;

typedef struct
{
  char     *key;
  char     *tool_name;
  JsonNode *tool_input;
  ToolCall *call;       /* once found in the transcript */
} Watch;

struct _ClarifyClaudeCodeTranscript
{
  GObject       parent_instance;

  GFile        *file;
  GFileMonitor *monitor;
  goffset       offset;
  GString      *partial;       /* the last line, not yet complete */
  gboolean      skipping;      /* inside an overlong line */
  goffset       line_end;      /* of the line being read */
  GQueue        open_calls;    /* ToolCall without a result, oldest first */
  GQueue        answered;      /* the latest answered ToolCalls, oldest first */
  GHashTable   *watches;       /* key → Watch */
  GPtrArray    *newly_answered;  /* keys, emitted once a read is done */
};

G_DEFINE_FINAL_TYPE (ClarifyClaudeCodeTranscript, clarify_claude_code_transcript, G_TYPE_OBJECT)

enum {
  ANSWERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
tool_call_free (ToolCall *call)
{
  g_free (call->id);
  g_free (call->name);
  g_clear_pointer (&call->input, json_node_unref);
  g_free (call->watch_key);
  g_free (call);
}

static void
watch_free (Watch *watch)
{
  if (watch->call != NULL)
    g_clear_pointer (&watch->call->watch_key, g_free);
  g_free (watch->key);
  g_free (watch->tool_name);
  g_clear_pointer (&watch->tool_input, json_node_unref);
  g_free (watch);
}

/* The hook's tool_input and the transcript's input are the same call when
 * every member they share is equal: one side may carry a default the other
 * left out. */
static gboolean
inputs_match (JsonNode *hook_input,
              JsonNode *call_input)
{
  g_autoptr(GList) members = NULL;
  JsonObject *a, *b;
  guint shared = 0;

  if (json_node_equal (hook_input, call_input))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (hook_input) || !JSON_NODE_HOLDS_OBJECT (call_input))
    return FALSE;

  a = json_node_get_object (hook_input);
  b = json_node_get_object (call_input);
  members = json_object_get_members (a);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *other = json_object_get_member (b, l->data);

      if (other == NULL)
        continue;
      if (!json_node_equal (json_object_get_member (a, l->data), other))
        return FALSE;
      shared++;
    }

  return shared > 0;
}

static gboolean
watch_matches (Watch    *watch,
               ToolCall *call)
{
  return g_strcmp0 (watch->tool_name, call->name) == 0 && inputs_match (watch->tool_input, call->input);
}

static void
bind (Watch    *watch,
      ToolCall *call)
{
  watch->call = call;
  call->watch_key = g_strdup (watch->key);
}

/* A new call in the transcript: a watch still looking for it takes it
 * (two equal calls go to two watches). */
static void
bind_new_call (ClarifyClaudeCodeTranscript *self,
               ToolCall                    *call)
{
  GHashTableIter iter;
  Watch *watch;

  g_hash_table_iter_init (&iter, self->watches);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &watch))
    {
      if (watch->call == NULL && watch_matches (watch, call))
        {
          bind (watch, call);
          return;
        }
    }
}

static void
remember_answered (ClarifyClaudeCodeTranscript *self,
                   ToolCall                    *call)
{
  if (call->watch_key != NULL)
    {
      Watch *watch = g_hash_table_lookup (self->watches, call->watch_key);

      /* The watch has done its work. */
      if (watch != NULL)
        {
          watch->call = NULL;
          g_hash_table_remove (self->watches, call->watch_key);
        }
      g_ptr_array_add (self->newly_answered, g_steal_pointer (&call->watch_key));
    }

  /* Only its name and input are still needed. */
  g_clear_pointer (&call->id, g_free);
  g_queue_push_tail (&self->answered, call);
  if (g_queue_get_length (&self->answered) > N_RECENT_ANSWERED)
    tool_call_free (g_queue_pop_head (&self->answered));
}

static void
add_call (ClarifyClaudeCodeTranscript *self,
          JsonObject                  *item)
{
  const char *id = clarify_json_get_string_member (item, "id");
  const char *name = clarify_json_get_string_member (item, "name");
  JsonNode *input = json_object_get_member (item, "input");
  ToolCall *call;

  if (id == NULL || name == NULL || input == NULL)
    return;

  call = g_new0 (ToolCall, 1);
  call->id = g_strdup (id);
  call->name = g_strdup (name);
  call->input = json_node_copy (input);
  g_queue_push_tail (&self->open_calls, call);

  if (g_queue_get_length (&self->open_calls) > MAX_OPEN_CALLS)
    {
      ToolCall *oldest = g_queue_pop_head (&self->open_calls);

      /* A watched call stays: it is the one that matters. */
      if (oldest->watch_key != NULL)
        g_queue_push_tail (&self->open_calls, oldest);
      else
        tool_call_free (oldest);
    }

  bind_new_call (self, call);
}

static void
add_result (ClarifyClaudeCodeTranscript *self,
            JsonObject                  *item)
{
  const char *id = clarify_json_get_string_member (item, "tool_use_id");

  if (id == NULL)
    return;

  for (GList *l = self->open_calls.head; l != NULL; l = l->next)
    {
      ToolCall *call = l->data;

      if (g_strcmp0 (call->id, id) == 0)
        {
          g_queue_delete_link (&self->open_calls, l);
          call->result_end = self->line_end;
          remember_answered (self, call);
          return;
        }
    }
}

static void
read_line (ClarifyClaudeCodeTranscript *self,
           const char                  *line,
           gsize                        length)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *message;
  JsonArray *content;

  /* Most lines are text, thinking or progress: skip them unparsed. */
  if (g_strstr_len (line, length, "\"tool_use\"") == NULL &&
      g_strstr_len (line, length, "\"tool_result\"") == NULL)
    return;

  node = clarify_json_parse (line, length, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  message = clarify_json_get_object_member (json_node_get_object (node), "message");
  content = clarify_json_get_array_member (message, "content");
  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonNode *element = json_array_get_element (content, i);
      JsonObject *item = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *type = clarify_json_get_string_member (item, "type");

      if (g_strcmp0 (type, "tool_use") == 0)
        add_call (self, item);
      else if (g_strcmp0 (type, "tool_result") == 0)
        add_result (self, item);
    }
}

/* Splits what was appended into lines; a last line without its newline
 * waits for the rest. */
static void
take_bytes (ClarifyClaudeCodeTranscript *self,
            const char                  *data,
            gsize                        length,
            goffset                      data_offset)
{
  while (length > 0)
    {
      const char *newline = memchr (data, '\n', length);
      gsize part = newline != NULL ? (gsize) (newline - data) : length;

      if (!self->skipping)
        {
          if (self->partial->len + part > MAX_LINE_BYTES)
            {
              self->skipping = TRUE;
              g_string_truncate (self->partial, 0);
            }
          else
            {
              g_string_append_len (self->partial, data, part);
            }
        }

      if (newline == NULL)
        return;

      self->line_end = data_offset + part + 1;
      if (!self->skipping)
        read_line (self, self->partial->str, self->partial->len);
      g_string_truncate (self->partial, 0);
      self->skipping = FALSE;

      data += part + 1;
      length -= part + 1;
      data_offset += part + 1;
    }
}

/* Reads what was appended since the last read. */
static void
read_appended (ClarifyClaudeCodeTranscript *self)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *buffer = NULL;
  goffset size;

  stream = g_file_read (self->file, NULL, NULL);
  if (stream == NULL)
    return;

  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
  size = info != NULL ? g_file_info_get_size (info) : -1;
  if (size >= 0 && size < self->offset)
    {
      /* Rewritten from the start: read it all again. */
      self->offset = 0;
      g_string_truncate (self->partial, 0);
      self->skipping = FALSE;
    }
  if (size == self->offset)
    return;

  if (self->offset > 0 &&
      !g_seekable_seek (G_SEEKABLE (stream), self->offset, G_SEEK_SET, NULL, NULL))
    return;

  buffer = g_malloc (READ_CHUNK);
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, READ_CHUNK, NULL, NULL);

      if (n <= 0)
        break;
      self->offset += n;
      take_bytes (self, buffer, (gsize) n, self->offset - n);
    }
}

static void
emit_answered (ClarifyClaudeCodeTranscript *self)
{
  g_autoptr(GPtrArray) keys = g_steal_pointer (&self->newly_answered);

  self->newly_answered = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < keys->len; i++)
    g_signal_emit (self, signals[ANSWERED], 0, (const char *) keys->pdata[i]);
}

static void
changed_cb (GFileMonitor                *monitor,
            GFile                       *file,
            GFile                       *other_file,
            GFileMonitorEvent            event,
            ClarifyClaudeCodeTranscript *self)
{
  g_autoptr(ClarifyClaudeCodeTranscript) hold = NULL;

  if (event != G_FILE_MONITOR_EVENT_CHANGED &&
      event != G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT &&
      event != G_FILE_MONITOR_EVENT_CREATED)
    return;

  /* An ::answered handler may drop the last reference. */
  hold = g_object_ref (self);
  read_appended (self);
  emit_answered (self);
}

static void
clarify_claude_code_transcript_dispose (GObject *object)
{
  ClarifyClaudeCodeTranscript *self = CLARIFY_CLAUDE_CODE_TRANSCRIPT (object);

  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  g_hash_table_remove_all (self->watches);

  G_OBJECT_CLASS (clarify_claude_code_transcript_parent_class)->dispose (object);
}

static void
clarify_claude_code_transcript_finalize (GObject *object)
{
  ClarifyClaudeCodeTranscript *self = CLARIFY_CLAUDE_CODE_TRANSCRIPT (object);

  g_clear_pointer (&self->watches, g_hash_table_unref);
  g_queue_clear_full (&self->open_calls, (GDestroyNotify) tool_call_free);
  g_queue_clear_full (&self->answered, (GDestroyNotify) tool_call_free);
  g_string_free (self->partial, TRUE);
  g_clear_pointer (&self->newly_answered, g_ptr_array_unref);
  g_clear_object (&self->file);

  G_OBJECT_CLASS (clarify_claude_code_transcript_parent_class)->finalize (object);
}

static void
clarify_claude_code_transcript_class_init (ClarifyClaudeCodeTranscriptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = clarify_claude_code_transcript_dispose;
  object_class->finalize = clarify_claude_code_transcript_finalize;

  /**
   * ClarifyClaudeCodeTranscript::answered:
   * @key: the watch whose call got its result
   *
   * The watch has ended; it need not be unwatched.
   */
  signals[ANSWERED] =
    g_signal_new ("answered",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
clarify_claude_code_transcript_init (ClarifyClaudeCodeTranscript *self)
{
  self->partial = g_string_new (NULL);
  g_queue_init (&self->open_calls);
  g_queue_init (&self->answered);
  self->watches = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) watch_free);
  self->newly_answered = g_ptr_array_new_with_free_func (g_free);
}

ClarifyClaudeCodeTranscript *
clarify_claude_code_transcript_new (const char *path)
{
  ClarifyClaudeCodeTranscript *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (CLARIFY_TYPE_CLAUDE_CODE_TRANSCRIPT, NULL);
  self->file = g_file_new_for_path (path);

  return self;
}

/* The latest call of @calls that @watch is about; an answered one only
 * when its result ends after @answered_after. */
static ToolCall *
find_latest (GQueue   *calls,
             Watch    *watch,
             gboolean  unbound_only,
             goffset   answered_after)
{
  for (GList *l = calls->tail; l != NULL; l = l->prev)
    {
      ToolCall *call = l->data;

      if ((!unbound_only || call->watch_key == NULL) && call->result_end >= answered_after &&
          watch_matches (watch, call))
        return call;
    }

  return NULL;
}

gboolean
clarify_claude_code_transcript_watch (ClarifyClaudeCodeTranscript *self,
                                      const char                  *key,
                                      const char                  *tool_name,
                                      JsonNode                    *tool_input,
                                      goffset                      hook_began_at)
{
  g_autoptr(ClarifyClaudeCodeTranscript) hold = NULL;
  g_autoptr(GError) error = NULL;
  gboolean answered = FALSE;
  Watch *watch;
  ToolCall *call;

  g_return_val_if_fail (CLARIFY_IS_CLAUDE_CODE_TRANSCRIPT (self), FALSE);
  g_return_val_if_fail (key != NULL && tool_name != NULL && tool_input != NULL, FALSE);
  g_return_val_if_fail (!g_hash_table_contains (self->watches, key), FALSE);

  /* Watch first, then read: an append between the two is not missed. */
  if (self->monitor == NULL)
    {
      self->monitor = g_file_monitor_file (self->file, G_FILE_MONITOR_NONE, NULL, &error);
      if (self->monitor == NULL)
        g_message ("Cannot watch the Claude Code transcript %s: %s",
                   g_file_peek_path (self->file), error->message);
      else
        g_signal_connect (self->monitor, "changed", G_CALLBACK (changed_cb), self);
    }

  /* Other watches of the session may be answered by what is read now,
   * and their handlers may drop the last reference. */
  hold = g_object_ref (self);
  read_appended (self);

  watch = g_new0 (Watch, 1);
  watch->key = g_strdup (key);
  watch->tool_name = g_strdup (tool_name);
  watch->tool_input = json_node_copy (tool_input);

  /* The call waiting for its answer, else one answered already (the
   * terminal was quicker: its result came after the hook began, as the
   * prompt cannot be answered before it shows; an equal call answered
   * earlier is the agent asking the same again), else one still to come. */
  call = find_latest (&self->open_calls, watch, TRUE, 0);
  if (call == NULL && find_latest (&self->answered, watch, FALSE, hook_began_at + 1) != NULL)
    {
      watch_free (watch);
      answered = TRUE;
    }
  else
    {
      g_hash_table_insert (self->watches, watch->key, watch);
      if (call != NULL)
        bind (watch, call);
    }

  emit_answered (self);

  return answered;
}

void
clarify_claude_code_transcript_unwatch (ClarifyClaudeCodeTranscript *self,
                                        const char                  *key)
{
  g_return_if_fail (CLARIFY_IS_CLAUDE_CODE_TRANSCRIPT (self));
  g_return_if_fail (key != NULL);

  g_hash_table_remove (self->watches, key);
}

guint
clarify_claude_code_transcript_get_n_watches (ClarifyClaudeCodeTranscript *self)
{
  g_return_val_if_fail (CLARIFY_IS_CLAUDE_CODE_TRANSCRIPT (self), 0);

  return g_hash_table_size (self->watches);
}
