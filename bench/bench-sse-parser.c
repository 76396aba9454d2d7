/* bench-sse-parser.c: throughput of the SSE parser against the memchr floor
 *
 * Not a test: it prints figures to compare between changes.
 *   bench-sse-parser [--mb N] [--runs N] [FILE...]
 *
 * Part 1 reads each stream file with read() in 64 KiB chunks, the way the SSE
 * client gets its bytes, and compares the parser with the floor of any line
 * scanner on the same bytes: read() plus memchr for '\n'. Without FILEs it
 * writes three streams of the shapes of shared/perf/gen_sse.py (heartbeats,
 * ~600 B agent JSON, 20 x 4 KB CRLF lines per event) to a temporary folder.
 * Part 2 feeds an OpenCode-shaped stream from memory in odd chunk sizes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bench-util.h"
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

/* Part 1: files read in 64 KiB chunks. */

#define READ_CHUNK (64 * 1024)

/* Mostly ASCII prose with the multi-byte characters agents do send. */
static const char * const words[] = {
  "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by",
  "on", "not", "this", "are", "or", "from", "at", "which", "but", "have", "an", "they", "you",
  "function", "return", "const", "async", "await", "error", "file", "path", "tool", "read",
  "write", "edit", "grep", "patch", "diff", "test", "build", "compile", "run", "output",
  "result", "token", "model", "agent", "session", "Straße", "Größe", "naïve", "–", "„Zitat“", "✓",
};

static void
append_prose (GString *out,
              GRand   *rand,
              gsize    n_bytes)
{
  gsize start = out->len;

  while (out->len - start < n_bytes)
    {
      if (out->len > start)
        g_string_append_c (out, ' ');
      g_string_append (out, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
    }
}

typedef enum { SHAPE_SMALL, SHAPE_AGENT, SHAPE_BIG } Shape;

static void
append_event (GString *out,
              GRand   *rand,
              Shape    shape,
              guint    i)
{
  switch (shape)
    {
    case SHAPE_SMALL:
      g_string_append (out, "event: x\ndata: {\"type\":\"heartbeat\"}\n\n");
      break;

    case SHAPE_AGENT:
      g_string_append_printf (out,
                              "data: {\"id\":\"evt_%024x\",\"type\":\"message.part.updated\",\"properties\":{\"part\":{"
                              "\"id\":\"prt_%024x\",\"sessionID\":\"ses_%024x\",\"messageID\":\"msg_%024x\","
                              "\"type\":\"text\",\"text\":\"",
                              g_rand_int (rand), g_rand_int (rand), g_rand_int (rand), g_rand_int (rand));
      append_prose (out, rand, 330 + g_rand_int_range (rand, 0, 20));
      g_string_append_printf (out, "\",\"time\":{\"start\":%" G_GUINT64_FORMAT "}},\"delta\":\"",
                              (guint64) 1760000000000 + i * 37);
      append_prose (out, rand, 8 + g_rand_int_range (rand, 0, 22));
      g_string_append (out, "\"}}\n\n");
      break;

    case SHAPE_BIG:
    default:
      g_string_append_printf (out, "id: %u\r\n", i);
      for (guint line = 0; line < 20; line++)
        {
          g_string_append (out, "data: ");
          append_prose (out, rand, 4000 + g_rand_int_range (rand, -64, 64));
          g_string_append (out, "\r\n");
        }
      g_string_append (out, "\r\n");
      break;
    }
}

static char *
write_stream (const char *dir,
              const char *name,
              Shape       shape,
              gsize       n_bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GString) block = g_string_new (NULL);
  gsize written = 0;
  FILE *file;

  file = fopen (path, "wb");
  if (file == NULL)
    g_error ("%s: %s", path, g_strerror (errno));

  for (guint i = 0; written < n_bytes; i++)
    {
      append_event (block, rand, shape, i);
      if (block->len >= 1024 * 1024)
        {
          fwrite (block->str, 1, block->len, file);
          written += block->len;
          g_string_truncate (block, 0);
        }
    }
  fwrite (block->str, 1, block->len, file);
  fclose (file);

  return g_steal_pointer (&path);
}

typedef struct
{
  guint64 n_bytes;
  guint64 n_units;   /* lines for the floor, events for the parser */
} Pass;

static Pass
pass_floor (const char *path)
{
  static char buffer[READ_CHUNK];
  Pass pass = { 0, 0 };
  guint64 line_len_sum = 0;
  guint64 line_len = 0;
  ssize_t n;
  int fd;

  fd = open (path, O_RDONLY);
  if (fd < 0)
    g_error ("%s: %s", path, g_strerror (errno));

  while ((n = read (fd, buffer, sizeof buffer)) > 0)
    {
      const char *p = buffer;
      const char *end = buffer + n;

      pass.n_bytes += n;
      for (;;)
        {
          const char *lf = memchr (p, '\n', end - p);

          if (lf == NULL)
            {
              line_len += end - p;
              break;
            }
          line_len_sum += line_len + (lf - p);
          line_len = 0;
          pass.n_units++;
          p = lf + 1;
        }
    }
  close (fd);

  /* Keeps the scan from being optimized away. */
  if (line_len_sum == G_MAXUINT64)
    printf ("\n");

  return pass;
}

static Pass
pass_parser (const char *path)
{
  static char buffer[READ_CHUNK];
  g_autoptr(ClarifySseParser) parser = NULL;
  Counts counts = { 0, 0 };
  Pass pass = { 0, 0 };
  ssize_t n;
  int fd;

  parser = clarify_sse_parser_new (count_event, NULL, &counts);
  fd = open (path, O_RDONLY);
  if (fd < 0)
    g_error ("%s: %s", path, g_strerror (errno));

  while ((n = read (fd, buffer, sizeof buffer)) > 0)
    {
      clarify_sse_parser_feed (parser, buffer, n);
      pass.n_bytes += n;
    }
  close (fd);
  pass.n_units = counts.n_events;

  return pass;
}

/* CPU time of this thread, user and kernel (the read() copies): a busy
 * machine then slows both sides of the comparison alike. */
static double
thread_cpu_seconds (void)
{
  struct timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + now.tv_nsec / 1e9;
}

/* Median MB (1e6 bytes) per CPU second of @runs passes after one warm-up. */
static double
median_mb_per_s (Pass      (*pass_func) (const char *path),
                 const char *path,
                 guint       runs,
                 Pass       *last)
{
  g_autoptr(GArray) rates = g_array_new (FALSE, FALSE, sizeof (double));

  *last = pass_func (path);
  for (guint i = 0; i < runs; i++)
    {
      double start = thread_cpu_seconds ();
      double rate;

      *last = pass_func (path);
      rate = last->n_bytes / 1e6 / MAX (thread_cpu_seconds () - start, 1e-9);
      g_array_append_val (rates, rate);
    }

  return bench_percentile (rates, 0.5);
}

/* "floor" or "parser" runs only that side, for perf stat. */
static const char *only;

static void
compare_with_floor (const char *path,
                    guint       runs)
{
  g_autofree char *name = g_path_get_basename (path);
  Pass floor_pass, parser_pass;
  double floor_rate, parser_rate;

  if (g_strcmp0 (only, "floor") == 0 || g_strcmp0 (only, "parser") == 0)
    {
      gboolean floor = g_strcmp0 (only, "floor") == 0;

      floor_rate = median_mb_per_s (floor ? pass_floor : pass_parser, path, runs, &floor_pass);
      printf ("%-14s %6.1f MB  %s %7.0f MB/s\n", name, floor_pass.n_bytes / 1e6, only, floor_rate);
      return;
    }

  /* One after the other, so both see much the same machine load. */
  floor_rate = median_mb_per_s (pass_floor, path, runs, &floor_pass);
  parser_rate = median_mb_per_s (pass_parser, path, runs, &parser_pass);

  printf ("%-14s %6.1f MB  floor %7.0f MB/s  parser %7.0f MB/s  = %3.0f %% of the floor  (%" G_GUINT64_FORMAT " events)\n",
          name, parser_pass.n_bytes / 1e6, floor_rate, parser_rate,
          100.0 * parser_rate / floor_rate, parser_pass.n_units);
}

int
main (int   argc,
      char *argv[])
{
  int mb = 100;
  int runs = 5;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "mb", 0, 0, G_OPTION_ARG_INT, &mb, "Size of each generated stream in MB (100)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed passes per stream; the median counts (5)", "N" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "Run only the floor or the parser in part 1, and skip part 2 (for perf stat)", "floor|parser" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "[FILE…]" },
    { NULL }
  };
  g_autofree char *dir = NULL;
  g_autoptr(GString) stream = NULL;
  g_autoptr(GString) crlf = NULL;
  long rss_before;

  context = g_option_context_new ("- SSE parser throughput");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || mb < 1 || runs < 1)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "--mb and --runs must be positive");
      return 2;
    }

  printf ("Part 1: read() in 64 KiB chunks, median of %d passes, MB per second of CPU time\n", runs);
  if (files == NULL)
    {
      static const struct { const char *name; Shape shape; } shapes[] = {
        { "a_small.sse", SHAPE_SMALL },
        { "b_agent.sse", SHAPE_AGENT },
        { "c_big.sse", SHAPE_BIG },
      };

      dir = g_dir_make_tmp ("bench-sse-XXXXXX", &error);
      if (dir == NULL)
        g_error ("%s", error->message);
      for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
        {
          g_autofree char *path = write_stream (dir, shapes[i].name, shapes[i].shape, (gsize) mb * 1000000);

          compare_with_floor (path, runs);
          g_unlink (path);
        }
      g_rmdir (dir);
    }
  else
    {
      for (guint i = 0; files[i] != NULL; i++)
        compare_with_floor (files[i], runs);
    }

  if (only != NULL)
    return 0;

  printf ("\nPart 2: an OpenCode-shaped stream from memory\n");
  /* One 8 MiB stream, replayed; the parser keeps no state between frames. */
  stream = build_stream (8 * 1024 * 1024);
  {
    g_auto(GStrv) lines = g_strsplit (stream->str, "\n", -1);
    g_autofree char *joined = g_strjoinv ("\r\n", lines);

    crlf = g_string_new (joined);
  }
  rss_before = peak_rss_kib ();

  run ("4 KiB chunks, LF", stream, 64 * 1024 * 1024, 4096);
  run ("4 KiB chunks, CRLF", crlf, 64 * 1024 * 1024, 4096);
  run ("64 KiB chunks, LF", stream, 64 * 1024 * 1024, 65536);
  run ("1-byte chunks, LF", stream, 4 * 1024 * 1024, 1);

  printf ("peak RSS %ld KiB; %ld KiB before parsing (the input buffers)\n", peak_rss_kib (), rss_before);

  return 0;
}
