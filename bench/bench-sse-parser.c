/* bench-sse-parser.c: throughput of the SSE parser on OpenCode-shaped frames
 *
 * Not a test: it prints figures to compare between changes.
 *   bench-sse-parser [MiB for 4 KiB chunks (64)] [MiB for 1-byte chunks (4)]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "clarify-sse-parser.h"

typedef struct
{
  guint64 n_events;
  guint64 n_data_bytes;
} Counts;

static void
count_event (const char *event_type,
             const char *data,
             gsize       data_len,
             const char *last_event_id,
             gpointer    user_data)
{
  Counts *counts = user_data;

  counts->n_events++;
  counts->n_data_bytes += data_len;
}

/* A stream the way `opencode serve` writes /event: one-line JSON data
 * frames, mostly heartbeats and streaming message parts, some questions,
 * now and then a long tool output. */
static GString *
build_stream (gsize target_len)
{
  GString *stream = g_string_sized_new (target_len + 128 * 1024);
  g_autofree char *long_text = g_strnfill (48 * 1024, 'x');
  guint i = 0;

  while (stream->len < target_len)
    {
      switch (i % 16)
        {
        case 0:
          g_string_append_printf (stream,
                                  "data: {\"id\":\"evt_%012u\",\"type\":\"server.heartbeat\",\"properties\":{}}\n\n", i);
          break;

        case 5:
          g_string_append_printf (stream,
                                  "data: {\"id\":\"evt_%012u\",\"type\":\"question.asked\",\"properties\":{"
                                  "\"id\":\"que_%012u\",\"sessionID\":\"ses_dffd799eaffeGncNzFSIPjwM93\","
                                  "\"questions\":[{\"question\":\"Which database should I use for the new service?\","
                                  "\"header\":\"Database\",\"options\":["
                                  "{\"label\":\"PostgreSQL\",\"description\":\"Relational, robust, default choice\"},"
                                  "{\"label\":\"SQLite\",\"description\":\"Embedded, zero setup\"},"
                                  "{\"label\":\"MongoDB\",\"description\":\"Document store\"}],\"multiple\":false}]}}\n\n",
                                  i, i);
          break;

        case 11:
          if (i % 64 == 11)
            {
              g_string_append_printf (stream,
                                      "data: {\"id\":\"evt_%012u\",\"type\":\"message.part.updated\",\"properties\":{"
                                      "\"part\":{\"type\":\"tool\",\"state\":{\"output\":\"%s\"}}}}\n\n",
                                      i, long_text);
              break;
            }
          G_GNUC_FALLTHROUGH;

        default:
          g_string_append_printf (stream,
                                  "data: {\"id\":\"evt_%012u\",\"type\":\"message.part.updated\",\"properties\":{"
                                  "\"part\":{\"id\":\"prt_%012u\",\"sessionID\":\"ses_dffd799eaffeGncNzFSIPjwM93\","
                                  "\"messageID\":\"msg_2002871fe001\",\"type\":\"text\","
                                  "\"text\":\"Let me look at the repository layout first, then I will propose a schema "
                                  "for the new service and ask you which database you prefer.\"},"
                                  "\"delta\":\" prefer.\"}}\n\n",
                                  i, i);
          break;
        }
      i++;
    }

  return stream;
}

static long
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static void
run (const char *label,
     GString    *stream,
     gsize       total_len,
     gsize       chunk_len)
{
  g_autoptr(ClarifySseParser) parser = NULL;
  Counts counts = { 0, 0 };
  gsize fed = 0;
  gint64 start, elapsed_us;
  double seconds;

  parser = clarify_sse_parser_new (count_event, NULL, &counts);

  start = g_get_monotonic_time ();
  while (fed < total_len)
    {
      gsize offset = fed % stream->len;
      gsize len = MIN (chunk_len, stream->len - offset);

      len = MIN (len, total_len - fed);
      clarify_sse_parser_feed (parser, stream->str + offset, len);
      fed += len;
    }
  elapsed_us = g_get_monotonic_time () - start;
  seconds = MAX (elapsed_us, 1) / (double) G_USEC_PER_SEC;

  printf ("%-22s %8.1f MiB in %7.3f s: %9.1f MB/s, %11.0f events/s (%" G_GUINT64_FORMAT " events, %u dropped)\n",
          label, fed / (1024.0 * 1024.0), seconds,
          fed / seconds / 1e6, counts.n_events / seconds, counts.n_events,
          clarify_sse_parser_get_n_dropped (parser));
}

int
main (int   argc,
      char *argv[])
{
  gsize big_mib = argc > 1 ? (gsize) atoi (argv[1]) : 64;
  gsize small_mib = argc > 2 ? (gsize) atoi (argv[2]) : 4;
  g_autoptr(GString) stream = NULL;
  g_autoptr(GString) crlf = NULL;
  long rss_before;

  /* One 8 MiB stream, replayed; the parser keeps no state between frames. */
  stream = build_stream (8 * 1024 * 1024);
  {
    g_auto(GStrv) lines = g_strsplit (stream->str, "\n", -1);
    g_autofree char *joined = g_strjoinv ("\r\n", lines);

    crlf = g_string_new (joined);
  }
  rss_before = peak_rss_kib ();

  run ("4 KiB chunks, LF", stream, big_mib * 1024 * 1024, 4096);
  run ("4 KiB chunks, CRLF", crlf, big_mib * 1024 * 1024, 4096);
  run ("64 KiB chunks, LF", stream, big_mib * 1024 * 1024, 65536);
  run ("1-byte chunks, LF", stream, small_mib * 1024 * 1024, 1);

  printf ("peak RSS %ld KiB; %ld KiB before parsing (the input buffers)\n", peak_rss_kib (), rss_before);

  return 0;
}
