/* clarify-sse-parser.c: incremental text/event-stream parser (WHATWG rules)
 *
 * Lines that lie wholly inside a fed chunk are parsed in place; only a line
 * split across chunks is collected in @line, and only data values are
 * copied (into @data, where they must be joined anyway).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "clarify-sse-parser.h"
#include "clarify-text-scan.h"

static const char utf8_bom[] = { '\xef', '\xbb', '\xbf' };

/* A buffered line may exceed the event cap by its field name ("event: "). */
#define LINE_SLACK 32

struct _ClarifySseParser
{
  ClarifySseEventFunc event_func;
  ClarifySseRetryFunc retry_func;
  gpointer            user_data;

  GString            *line;            /* the unfinished line of the last chunk */
  GString            *data;            /* "\n"-terminated data lines of this event */
  GString            *event_type;
  GString            *id_buffer;       /* set by id:, published at the blank line */
  GString            *last_event_id;

  char               *name;            /* the stream, for the log */
  gsize               max_event_size;
  guint               n_dropped;
  guint               generation;      /* bumped by reset(), to stop a running feed() */

  guint               bom_matched;     /* BOM bytes seen so far at the stream start */
  guint               bom_done : 1;
  guint               skip_lf : 1;     /* a chunk ended in CR: a leading LF belongs to it */
  guint               discarding : 1;  /* an oversized event: ignore lines until a blank one */
  guint               skipping_line : 1; /* ignore the rest of this (non-blank) line */
  guint               data_invalid : 1;  /* @data holds bytes that are not UTF-8 */
  guint               id_changed : 1;    /* @id_buffer differs from @last_event_id */
};

/* g_string_truncate() and g_string_append_len() are calls; per line of a
 * stream of small events they showed in profiles. */
static inline void
string_set_len (GString    *string,
                gsize       len)
{
  string->len = len;
  string->str[len] = '\0';
}

static inline void
string_set (GString    *string,
            const char *value,
            gsize       len)
{
  if (len >= string->allocated_len)
    g_string_set_size (string, len);
  memcpy (string->str, value, len);
  string_set_len (string, len);
}

ClarifySseParser *
clarify_sse_parser_new (ClarifySseEventFunc event_func,
                        ClarifySseRetryFunc retry_func,
                        gpointer            user_data)
{
  ClarifySseParser *self = g_new0 (ClarifySseParser, 1);

  self->event_func = event_func;
  self->retry_func = retry_func;
  self->user_data = user_data;
  self->line = g_string_new (NULL);
  self->data = g_string_new (NULL);
  self->event_type = g_string_new (NULL);
  self->id_buffer = g_string_new (NULL);
  self->last_event_id = g_string_new (NULL);
  self->max_event_size = CLARIFY_SSE_DEFAULT_MAX_EVENT_SIZE;

  return self;
}

void
clarify_sse_parser_free (ClarifySseParser *self)
{
  if (self == NULL)
    return;

  g_string_free (self->line, TRUE);
  g_string_free (self->data, TRUE);
  g_string_free (self->event_type, TRUE);
  g_string_free (self->id_buffer, TRUE);
  g_string_free (self->last_event_id, TRUE);
  g_free (self->name);
  g_free (self);
}

void
clarify_sse_parser_reset (ClarifySseParser *self)
{
  g_return_if_fail (self != NULL);

  g_string_truncate (self->line, 0);
  g_string_truncate (self->data, 0);
  g_string_truncate (self->event_type, 0);
  /* The spec starts each stream with an empty id buffer, which would forget
   * the id we just sent as Last-Event-ID at the first id-less event; keep it,
   * as browsers do. */
  g_string_assign (self->id_buffer, self->last_event_id->str);
  self->id_changed = FALSE;
  self->data_invalid = FALSE;
  self->bom_matched = 0;
  self->bom_done = FALSE;
  self->skip_lf = FALSE;
  self->discarding = FALSE;
  self->skipping_line = FALSE;
  self->generation++;
}

const char *
clarify_sse_parser_get_last_event_id (ClarifySseParser *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->last_event_id->str;
}

void
clarify_sse_parser_set_max_event_size (ClarifySseParser *self,
                                       gsize             max_bytes)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_bytes > 0);

  self->max_event_size = max_bytes;
}

void
clarify_sse_parser_set_name (ClarifySseParser *self,
                             const char       *name)
{
  g_return_if_fail (self != NULL);

  g_free (self->name);
  self->name = g_strdup (name);
}

guint
clarify_sse_parser_get_n_dropped (ClarifySseParser *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_dropped;
}

/* With several agents, which stream lost an event is what the reader needs. */
static void
log_dropped (ClarifySseParser *self,
             const char       *what)
{
  self->n_dropped++;
  if (self->name != NULL)
    g_message ("SSE %s: dropped %s; the stream continues", self->name, what);
  else
    g_message ("SSE: dropped %s; the stream continues", what);
}

static void
drop_event (ClarifySseParser *self)
{
  g_autofree char *what = g_strdup_printf ("an event of more than %" G_GSIZE_FORMAT " bytes", self->max_event_size);

  log_dropped (self, what);

  g_string_truncate (self->data, 0);
  g_string_truncate (self->event_type, 0);
  self->data_invalid = FALSE;
  self->discarding = TRUE;
}

static void
dispatch (ClarifySseParser *self)
{
  const char *type;
  g_autofree char *valid_data = NULL;
  const char *data;
  gsize data_len;

  if (self->id_changed)
    {
      g_string_assign (self->last_event_id, self->id_buffer->str);
      self->id_changed = FALSE;
    }

  if (self->data->len == 0)
    {
      g_string_truncate (self->event_type, 0);
      return;
    }

  string_set_len (self->data, self->data->len - 1);
  type = self->event_type->len > 0 ? self->event_type->str : "message";
  data = self->data->str;
  data_len = self->data->len;

  /* The spec keeps a NUL, but every agent's events are JSON, which never
   * holds a raw one, and Clarify's strings would end there: the event is
   * dropped rather than passed on cut, or repaired into an id or option
   * the agent never sent. */
  if (self->data_invalid && memchr (data, '\0', data_len) != NULL)
    {
      log_dropped (self, "an event with a NUL byte in its data");
      string_set_len (self->data, 0);
      self->data_invalid = FALSE;
      string_set_len (self->event_type, 0);
      return;
    }

  /* The spec decodes the stream as UTF-8 with replacement characters; the
   * line scan has already checked the bytes. */
  if (self->data_invalid)
    {
      valid_data = g_utf8_make_valid (data, data_len);
      data = valid_data;
      data_len = strlen (valid_data);
    }

  if (self->event_func != NULL)
    self->event_func (type, data, data_len, self->last_event_id->str, self->user_data);

  string_set_len (self->data, 0);
  self->data_invalid = FALSE;
  string_set_len (self->event_type, 0);
}

static gboolean
field_is (const char *field,
          gsize       field_len,
          const char *name)
{
  gsize name_len = strlen (name);

  return field_len == name_len && memcmp (field, name, name_len) == 0;
}

static void
process_retry (ClarifySseParser *self,
               const char       *value,
               gsize             value_len)
{
  guint64 retry_ms = 0;

  if (value_len == 0)
    return;

  for (gsize i = 0; i < value_len; i++)
    {
      if (!g_ascii_isdigit (value[i]))
        return;
      if (retry_ms > (G_MAXUINT64 - 9) / 10)
        retry_ms = G_MAXUINT64;
      else
        retry_ms = retry_ms * 10 + (guint64) (value[i] - '0');
    }

  if (self->retry_func != NULL)
    self->retry_func (retry_ms, self->user_data);
}

static void
process_line (ClarifySseParser *self,
              const char       *line,
              gsize             len)
{
  const char *colon;
  const char *value;
  gsize field_len;
  gsize value_len;

  if (self->discarding)
    {
      if (len == 0)
        self->discarding = FALSE;
      return;
    }

  if (len == 0)
    {
      dispatch (self);
      return;
    }

  if (line[0] == ':')
    return;

  /* Field names are short: a plain loop beats memchr's set-up for them. */
  colon = NULL;
  for (gsize i = 0; i < MIN (len, 8); i++)
    {
      if (line[i] == ':')
        {
          colon = line + i;
          break;
        }
    }
  if (colon == NULL && len > 8)
    colon = memchr (line + 8, ':', len - 8);
  if (colon != NULL)
    {
      field_len = colon - line;
      value = colon + 1;
      value_len = len - field_len - 1;
      if (value_len > 0 && value[0] == ' ')
        {
          value++;
          value_len--;
        }
    }
  else
    {
      field_len = len;
      value = "";
      value_len = 0;
    }

  if (field_is (line, field_len, "data"))
    {
      if (self->data->len + value_len > self->max_event_size)
        {
          drop_event (self);
          return;
        }
      gsize old_len = self->data->len;

      g_string_set_size (self->data, old_len + value_len + 1);
      if (!clarify_text_copy_utf8 (self->data->str + old_len, value, value_len))
        self->data_invalid = TRUE;
      self->data->str[old_len + value_len] = '\n';
    }
  else if (value_len > self->max_event_size)
    {
      drop_event (self);
    }
  else if (field_is (line, field_len, "event"))
    {
      string_set (self->event_type, value, value_len);
    }
  else if (field_is (line, field_len, "id"))
    {
      if (memchr (value, '\0', value_len) == NULL)
        {
          string_set (self->id_buffer, value, value_len);
          self->id_changed = TRUE;
        }
    }
  else if (field_is (line, field_len, "retry"))
    {
      process_retry (self, value, value_len);
    }
  /* Any other field is ignored. */
}

/* Part of a line whose end is in a later chunk. Comments and lines of a
 * dropped event are never buffered; a line too long to buffer drops its event. */
static void
append_partial (ClarifySseParser *self,
                const char       *bytes,
                gsize             len)
{
  if (len == 0 || self->skipping_line)
    return;

  if (self->line->len == 0 && (bytes[0] == ':' || self->discarding))
    {
      self->skipping_line = TRUE;
      return;
    }

  if (self->line->len + len > self->max_event_size + LINE_SLACK)
    {
      g_string_truncate (self->line, 0);
      self->skipping_line = TRUE;
      drop_event (self);
      return;
    }

  g_string_append_len (self->line, bytes, len);
}

static void
feed_lines (ClarifySseParser *self,
            const char       *p,
            const char       *end)
{
  guint generation = self->generation;

  if (self->skip_lf && p < end)
    {
      if (*p == '\n')
        p++;
      self->skip_lf = FALSE;
    }

  while (p < end)
    {
      const char *eol = clarify_text_find_eol (p, end);

      if (eol == end)
        {
          append_partial (self, p, end - p);
          return;
        }

      if (self->line->len > 0)
        append_partial (self, p, eol - p);

      if (self->skipping_line)
        self->skipping_line = FALSE;
      else if (self->line->len > 0)
        process_line (self, self->line->str, self->line->len);
      else if ((gsize) (eol - p) > self->max_event_size + LINE_SLACK && *p != ':' && !self->discarding)
        /* As append_partial() does for the same line cut in two: how the
         * stream was cut must not decide (found by fuzz-sse-parser). */
        drop_event (self);
      else
        process_line (self, p, eol - p);
      if (self->line->len > 0)
        string_set_len (self->line, 0);

      if (self->generation != generation)
        return;

      if (*eol == '\r')
        {
          if (eol + 1 == end)
            self->skip_lf = TRUE;
          else if (eol[1] == '\n')
            eol++;
        }
      p = eol + 1;
    }
}

void
clarify_sse_parser_feed (ClarifySseParser *self,
                         const char       *data,
                         gsize             length)
{
  const char *p = data;
  const char *end = data + length;

  g_return_if_fail (self != NULL);
  g_return_if_fail (data != NULL || length == 0);

  /* A BOM counts only as the very first bytes of a stream, and may itself
   * arrive split across chunks. */
  while (!self->bom_done && p < end)
    {
      if (*p == utf8_bom[self->bom_matched])
        {
          p++;
          if (++self->bom_matched == sizeof utf8_bom)
            self->bom_done = TRUE;
        }
      else
        {
          guint matched = self->bom_matched;

          self->bom_done = TRUE;
          /* The bytes we held back were data after all. */
          if (matched > 0)
            {
              guint generation = self->generation;

              feed_lines (self, utf8_bom, utf8_bom + matched);
              if (self->generation != generation)
                return;
            }
        }
    }

  feed_lines (self, p, end);
}
