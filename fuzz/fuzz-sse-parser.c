/* fuzz-sse-parser.c: the event-stream parser, fed whole and in chunks
 *
 * The first byte picks the chunk size and the event size cap; the events
 * must be the same however the bytes are cut.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clarify-fuzz.h"
#include "clarify-sse-parser.h"

static void
event_cb (const char *event_type,
          const char *data,
          gsize       data_len,
          const char *last_event_id,
          gpointer    user_data)
{
  GString *events = user_data;

  g_string_append (events, event_type);
  g_string_append_c (events, '\0');
  g_string_append_len (events, data, data_len);
  g_string_append_c (events, '\0');
  g_string_append (events, last_event_id);
  g_string_append_c (events, '\n');
}

static void
retry_cb (guint64  retry_ms,
          gpointer user_data)
{
  g_string_append_printf (user_data, "retry %" G_GUINT64_FORMAT "\n", retry_ms);
}

/* What the parser dispatches for @data cut every @chunk bytes (0: whole). */
static GString *
parse (const char *data,
       gsize       size,
       gsize       chunk,
       gsize       max_event_size)
{
  GString *events = g_string_new (NULL);
  g_autoptr(ClarifySseParser) parser = clarify_sse_parser_new (event_cb, retry_cb, events);

  clarify_sse_parser_set_max_event_size (parser, max_event_size);
  if (chunk == 0)
    clarify_sse_parser_feed (parser, data, size);
  else
    for (gsize at = 0; at < size; at += chunk)
      clarify_sse_parser_feed (parser, data + at, MIN (chunk, size - at));
  g_string_append_printf (events, "dropped %u\n", clarify_sse_parser_get_n_dropped (parser));
  return events;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GString) whole = NULL;
  g_autoptr(GString) cut = NULL;
  gsize chunk, max_event_size;

  clarify_fuzz_init ();
  if (size < 1)
    return 0;

  chunk = 1 + (data[0] & 0x0f);
  max_event_size = data[0] & 0x10 ? 64 : CLARIFY_SSE_DEFAULT_MAX_EVENT_SIZE;
  data++;
  size--;

  whole = parse ((const char *) data, size, 0, max_event_size);
  cut = parse ((const char *) data, size, chunk, max_event_size);
  if (!g_string_equal (whole, cut))
    {
      g_printerr ("Cut every %" G_GSIZE_FORMAT " bytes, the stream gave other events\n", chunk);
      abort ();
    }

  /* A reconnect in the middle of an event must leave a working parser. */
  {
    GString *events = g_string_new (NULL);
    g_autoptr(ClarifySseParser) parser = clarify_sse_parser_new (event_cb, NULL, events);

    clarify_sse_parser_feed (parser, (const char *) data, size / 2);
    clarify_sse_parser_reset (parser);
    clarify_sse_parser_feed (parser, (const char *) data + size / 2, size - size / 2);
    (void) strlen (clarify_sse_parser_get_last_event_id (parser));
    g_string_free (events, TRUE);
  }
  return 0;
}
