/* test-sse-parser.c: the WHATWG text/event-stream rules, chunk by chunk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "clarify-sse-parser.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

/* What the parser logs for each event over the cap. */
#define DROP_LINE "MESSAGE: SSE: dropped an event of more than 64 bytes; the stream continues"

/* Every event and retry becomes one line of text, so whole runs compare as
 * string arrays: "[type] data #id" and "retry=N". */
typedef struct
{
  ClarifySseParser *parser;
  GPtrArray        *log;
  gboolean          reset_in_callback;
} Recorder;

/* Keeps the log one line per event and bytes ≥ 0x80 as they are. */
static char *
escape (const char *data)
{
  GString *s = g_string_new (NULL);

  for (const char *p = data; *p != '\0'; p++)
    {
      if (*p == '\n')
        g_string_append (s, "\\n");
      else if (*p == '\r')
        g_string_append (s, "\\r");
      else if (*p == '\\')
        g_string_append (s, "\\\\");
      else
        g_string_append_c (s, *p);
    }

  return g_string_free (s, FALSE);
}

static void
record_event (const char *event_type,
              const char *data,
              gsize       data_len,
              const char *last_event_id,
              gpointer    user_data)
{
  Recorder *rec = user_data;
  g_autofree char *escaped = NULL;

  g_assert_cmpuint (strlen (data), ==, data_len);
  escaped = escape (data);
  g_ptr_array_add (rec->log, g_strdup_printf ("[%s] %s #%s", event_type, escaped, last_event_id));

  if (rec->reset_in_callback)
    clarify_sse_parser_reset (rec->parser);
}

static void
record_retry (guint64  retry_ms,
              gpointer user_data)
{
  Recorder *rec = user_data;

  g_ptr_array_add (rec->log, g_strdup_printf ("retry=%" G_GUINT64_FORMAT, retry_ms));
}

static void
recorder_init (Recorder *rec)
{
  rec->parser = clarify_sse_parser_new (record_event, record_retry, rec);
  rec->log = g_ptr_array_new_with_free_func (g_free);
  rec->reset_in_callback = FALSE;
}

static void
recorder_clear (Recorder *rec)
{
  g_clear_pointer (&rec->parser, clarify_sse_parser_free);
  g_clear_pointer (&rec->log, g_ptr_array_unref);
}

static void
assert_log (GPtrArray         *log,
            const char * const *expected)
{
  guint n_expected = g_strv_length ((char **) expected);

  for (guint i = 0; i < MIN (log->len, n_expected); i++)
    g_assert_cmpstr (g_ptr_array_index (log, i), ==, expected[i]);
  g_assert_cmpuint (log->len, ==, n_expected);
}

static void
assert_logs_equal (GPtrArray *a,
                   GPtrArray *b)
{
  for (guint i = 0; i < MIN (a->len, b->len); i++)
    g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
  g_assert_cmpuint (a->len, ==, b->len);
}

/* Feeds @stream in pieces ending at each of @cuts (ascending offsets). */
static GPtrArray *
parse_cut (const char  *stream,
           gsize        len,
           const gsize *cuts,
           guint        n_cuts,
           gsize        max_event_size)
{
  Recorder rec;
  gsize start = 0;

  recorder_init (&rec);
  if (max_event_size > 0)
    clarify_sse_parser_set_max_event_size (rec.parser, max_event_size);
  for (guint i = 0; i <= n_cuts; i++)
    {
      gsize stop = i < n_cuts ? cuts[i] : len;

      clarify_sse_parser_feed (rec.parser, stream + start, stop - start);
      start = stop;
    }

  clarify_sse_parser_free (rec.parser);
  return rec.log;
}

static GPtrArray *
parse (const char *stream)
{
  return parse_cut (stream, strlen (stream), NULL, 0, 0);
}

static void
check (const char         *stream,
       const char * const *expected)
{
  g_autoptr(GPtrArray) log = parse (stream);

  assert_log (log, expected);
}

/* The same events whether @stream comes whole, cut once at every offset,
 * cut twice at every pair of offsets (short streams), or byte by byte. */
static void
check_every_split (const char *stream,
                   gsize       len,
                   gsize       max_event_size,
                   GPtrArray  *expected)
{
  g_autofree gsize *bytes = g_new (gsize, len);

  for (gsize i = 0; i <= len; i++)
    {
      g_autoptr(GPtrArray) log = parse_cut (stream, len, &i, 1, max_event_size);

      assert_logs_equal (log, expected);
    }

  if (len <= 160)
    for (gsize i = 0; i <= len; i++)
      for (gsize j = i; j <= len; j++)
        {
          gsize cuts[2] = { i, j };
          g_autoptr(GPtrArray) log = parse_cut (stream, len, cuts, 2, max_event_size);

          assert_logs_equal (log, expected);
        }

  for (gsize i = 0; i < len; i++)
    bytes[i] = i;
  {
    g_autoptr(GPtrArray) log = parse_cut (stream, len, bytes, len, max_event_size);

    assert_logs_equal (log, expected);
  }
}

static void
test_basic (void)
{
  check ("data: hello\n\n", (const char *[]) { "[message] hello #", NULL });
  check ("data: a\ndata: b\n\n", (const char *[]) { "[message] a\\nb #", NULL });
  /* Exactly one leading space goes; none is fine too. */
  check ("data:  two\n\ndata:x\n\n", (const char *[]) { "[message]  two #", "[message] x #", NULL });
  /* The value may itself contain colons. */
  check ("data: a: b:c\n\n", (const char *[]) { "[message] a: b:c #", NULL });
  /* The spec's own example: a field without colon has an empty value. */
  check ("data\n\ndata\ndata\n\ndata:", (const char *[]) { "[message]  #", "[message] \\n #", NULL });
  check ("data:\n\n", (const char *[]) { "[message]  #", NULL });
  /* Field names are case-sensitive and unknown ones are ignored. */
  check ("Data: no\nfoo: bar\ndata: yes\n\n", (const char *[]) { "[message] yes #", NULL });
  /* A trailing data line of an event is "\n" only when it was empty. */
  check ("data: a\ndata:\n\n", (const char *[]) { "[message] a\\n #", NULL });
}

static void
test_event_type (void)
{
  check ("event: add\ndata: 1\n\ndata: 2\n\n",
         (const char *[]) { "[add] 1 #", "[message] 2 #", NULL });
  /* An event type without data dispatches nothing and does not linger. */
  check ("event: lonely\n\ndata: y\n\n", (const char *[]) { "[message] y #", NULL });
  /* The last event: line wins; an empty one means "message". */
  check ("event: a\nevent: b\ndata: 1\n\nevent:\ndata: 2\n\n",
         (const char *[]) { "[b] 1 #", "[message] 2 #", NULL });
}

static void
test_comments (void)
{
  check (": hb\n\n", (const char *[]) { NULL });
  check (":\n:x\ndata: a\n: in between\ndata: b\n\n",
         (const char *[]) { "[message] a\\nb #", NULL });
  /* A comment is no blank line: it does not dispatch. */
  check ("data: a\n: hb\n", (const char *[]) { NULL });
}

static void
test_id (void)
{
  Recorder rec;

  /* The id persists across events until changed; "id" alone clears it. */
  check ("id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
         (const char *[]) { "[message] a #1", "[message] b #1", "[message] c #", NULL });
  /* An id containing NUL is ignored. */
  {
    static const char stream[] = "id: 5\ndata: a\n\nid: 6\0x\ndata: b\n\n";
    g_autoptr(GPtrArray) log = parse_cut (stream, sizeof stream - 1, NULL, 0, 0);

    assert_log (log, (const char *[]) { "[message] a #5", "[message] b #5", NULL });
  }

  recorder_init (&rec);
  /* The id takes effect at the blank line, even when nothing is dispatched. */
  clarify_sse_parser_feed (rec.parser, "id: 41\ndata: x\n\nid: 42\n", 23);
  g_assert_cmpstr (clarify_sse_parser_get_last_event_id (rec.parser), ==, "41");
  clarify_sse_parser_feed (rec.parser, "\n", 1);
  g_assert_cmpstr (clarify_sse_parser_get_last_event_id (rec.parser), ==, "42");
  assert_log (rec.log, (const char *[]) { "[message] x #41", NULL });

  /* A new stream keeps the id, so that events match the Last-Event-ID sent. */
  clarify_sse_parser_reset (rec.parser);
  g_assert_cmpstr (clarify_sse_parser_get_last_event_id (rec.parser), ==, "42");
  clarify_sse_parser_feed (rec.parser, "data: y\n\n", 9);
  assert_log (rec.log, (const char *[]) { "[message] x #41", "[message] y #42", NULL });
  recorder_clear (&rec);
}

static void
test_retry (void)
{
  check ("retry: 1500\n", (const char *[]) { "retry=1500", NULL });
  check ("retry:0\n", (const char *[]) { "retry=0", NULL });
  /* Anything but ASCII digits: ignored. */
  check ("retry: 15a0\nretry: -1\nretry:  5\nretry: 5 \nretry:\nretry\nretry: +3\nretry: 1e3\n",
         (const char *[]) { NULL });
  /* retry does not dispatch, and interleaves with events. */
  check ("data: a\nretry: 10\n\nretry: 20\n",
         (const char *[]) { "retry=10", "[message] a #", "retry=20", NULL });
  /* Too large to count: saturates instead of wrapping. */
  check ("retry: 99999999999999999999999\n", (const char *[]) { "retry=18446744073709551615", NULL });
}

static void
test_no_dispatch_at_end (void)
{
  Recorder rec;

  check ("data: x\n", (const char *[]) { NULL });
  check ("data: x", (const char *[]) { NULL });
  check ("data: x\n\ndata: unfinished\n", (const char *[]) { "[message] x #", NULL });

  recorder_init (&rec);
  clarify_sse_parser_feed (rec.parser, "event: e\ndata: x\n", 17);
  clarify_sse_parser_feed (rec.parser, "data: half", 10);
  clarify_sse_parser_reset (rec.parser);
  clarify_sse_parser_feed (rec.parser, "\ndata: y\n\n", 10);
  /* Nothing of the old stream survives: no "half", no type, no x. */
  assert_log (rec.log, (const char *[]) { "[message] y #", NULL });
  recorder_clear (&rec);
}

static void
test_reset_in_callback (void)
{
  Recorder rec;

  recorder_init (&rec);
  rec.reset_in_callback = TRUE;
  clarify_sse_parser_feed (rec.parser, "data: a\n\ndata: b\n\n", 18);
  assert_log (rec.log, (const char *[]) { "[message] a #", NULL });
  rec.reset_in_callback = FALSE;
  clarify_sse_parser_feed (rec.parser, "data: c\n\n", 9);
  assert_log (rec.log, (const char *[]) { "[message] a #", "[message] c #", NULL });
  recorder_clear (&rec);
}

static void
test_bom (void)
{
  Recorder rec;

  check ("\xef\xbb\xbf" "data: x\n\n", (const char *[]) { "[message] x #", NULL });
  /* Only one BOM is stripped: the second belongs to the field name. */
  check ("\xef\xbb\xbf\xef\xbb\xbf" "data: x\n\n", (const char *[]) { NULL });
  /* Later BOMs are data, or make a field name unknown. */
  check ("data: \xef\xbb\xbfx\n\n", (const char *[]) { "[message] \xef\xbb\xbfx #", NULL });
  check ("data: a\n\n\xef\xbb\xbf" "data: b\n\n", (const char *[]) { "[message] a #", NULL });
  /* A BOM's first bytes without the rest are not a BOM and are kept. */
  check ("\xef" "data: x\n\ndata: y\n\n", (const char *[]) { "[message] y #", NULL });
  check ("\xef\xbb" "\n" "data: y\n\n", (const char *[]) { "[message] y #", NULL });

  /* A BOM split across chunks; and a new stream may start with one again. */
  recorder_init (&rec);
  clarify_sse_parser_feed (rec.parser, "\xef", 1);
  clarify_sse_parser_feed (rec.parser, "\xbb", 1);
  clarify_sse_parser_feed (rec.parser, "\xbf" "data: 1\n\n", 10);
  clarify_sse_parser_reset (rec.parser);
  clarify_sse_parser_feed (rec.parser, "\xef\xbb\xbf" "data: 2\n\n", 12);
  assert_log (rec.log, (const char *[]) { "[message] 1 #", "[message] 2 #", NULL });
  recorder_clear (&rec);
}

static void
test_invalid_utf8 (void)
{
  /* Decoded as UTF-8 with replacement characters, like a browser does. */
  check ("data: a\xff" "b\n\n", (const char *[]) { "[message] a\xef\xbf\xbd" "b #", NULL });
}

/* A raw NUL would cut the JSON, or turn an id into one the agent never
 * sent: the event is dropped, short or long (the scans differ), and the
 * stream goes on. */
static void
test_nul_in_data (void)
{
  static const char short_stream[] = "data: {\"id\":\"u2\0z\"}\n\ndata: next\n\n";
  g_autofree char *long_stream = NULL;
  g_autofree char *padding = g_strnfill (100, 'x');
  gsize long_len;
  Recorder rec;
  char **log;

  recorder_init (&rec);
  clarify_test_log_start ();
  clarify_sse_parser_feed (rec.parser, short_stream, sizeof short_stream - 1);
  log = clarify_test_log_stop ();
  assert_log (rec.log, (const char *[]) { "[message] next #", NULL });
  g_assert_cmpuint (clarify_sse_parser_get_n_dropped (rec.parser), ==, 1);
  g_assert_cmpstrv (log, ((const char * const[]) {
    "MESSAGE: SSE: dropped an event with a NUL byte in its data; the stream continues", NULL }));
  g_strfreev (log);
  recorder_clear (&rec);

  long_stream = g_strdup_printf ("data: %s@%s\ndata: second line\n\ndata: next\n\n", padding, padding);
  long_len = strlen (long_stream);
  *strchr (long_stream, '@') = '\0';
  recorder_init (&rec);
  clarify_test_log_start ();
  clarify_sse_parser_feed (rec.parser, long_stream, long_len);
  log = clarify_test_log_stop ();
  assert_log (rec.log, (const char *[]) { "[message] next #", NULL });
  g_assert_cmpuint (clarify_sse_parser_get_n_dropped (rec.parser), ==, 1);
  g_strfreev (log);
  recorder_clear (&rec);
}

/* One logical stream written with each line ending. A wrongly split CRLF
 * shows up as an extra blank line, which would dispatch "a" early. */
static char *
stream_with_endings (const char *const *lines,
                     const char        *eol)
{
  GString *s = g_string_new (NULL);
  const char *previous = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *ending = eol;

      /* "mixed": cycle through the three endings, except that CR + an empty
       * line ended by LF would spell one CRLF. */
      if (ending == NULL)
        {
          ending = (const char *[]) { "\r", "\n", "\r\n" }[i % 3];
          if (g_strcmp0 (previous, "\r") == 0 && lines[i][0] == '\0' && ending[0] == '\n')
            ending = "\r\n";
        }
      g_string_append (s, lines[i]);
      g_string_append (s, ending);
      previous = ending;
    }

  return g_string_free (s, FALSE);
}

static void
test_line_endings (void)
{
  static const char * const lines[] = {
    "\xef\xbb\xbf" "data: a", "data:", "data:b", "", ": keepalive", "",
    "event: e", "id: 7", "retry: 25", "data: c", "", "", "data: d", "", "data: tail", NULL
  };
  static const char * const expected[] = {
    "[message] a\\n\\nb #", "retry=25", "[e] c #7", "[message] d #7", NULL
  };
  const char *endings[] = { "\n", "\r", "\r\n", NULL };
  g_autoptr(GPtrArray) expected_log = g_ptr_array_new ();

  for (guint i = 0; expected[i] != NULL; i++)
    g_ptr_array_add (expected_log, (gpointer) expected[i]);

  for (guint e = 0; e < G_N_ELEMENTS (endings); e++)
    {
      g_autofree char *stream = stream_with_endings (lines, endings[e]);

      g_test_message ("line ending #%u", e);
      check (stream, expected);
      check_every_split (stream, strlen (stream), 0, expected_log);
    }

  /* CR CR is two line ends (a blank line), CR LF is one. */
  check ("data: a\r\rdata: b\r\n\r\n", (const char *[]) { "[message] a #", "[message] b #", NULL });
  check ("data: a\r\ndata: b\n\r\n", (const char *[]) { "[message] a\\nb #", NULL });
  /* LF CR is two line ends as well. */
  check ("data: a\n\rdata: b\n\n", (const char *[]) { "[message] a #", "[message] b #", NULL });
}

static void
test_size_cap (void)
{
  g_autofree char *exact = g_strnfill (64, 'x');
  g_autofree char *big = g_strnfill (65, 'y');
  g_autofree char *stream = NULL;
  g_autofree char *expected_exact = g_strdup_printf ("[message] %s #", exact);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();
  g_auto(GStrv) log = NULL;
  Recorder rec;

  /* 64 bytes pass; 65 in one line, in two lines, or as a single partial
   * line do not; the events around them do. */
  stream = g_strdup_printf ("data: %s\n\n"
                            "data: %s\nid: dropped\n\n"
                            "data: before\n\n"
                            "data: %.40s\ndata: %.24s\n\n"
                            "data: after\n\n"
                            "event: %s%s\ndata: no\n\n"
                            "data: end\n\n",
                            exact, big, big, big, big, big);

  g_ptr_array_add (expected, expected_exact);
  g_ptr_array_add (expected, "[message] before #");
  g_ptr_array_add (expected, "[message] after #");
  g_ptr_array_add (expected, "[message] end #");
  /* Each parse logs its drops; captured, they do not flood the test log. */
  clarify_test_log_start ();
  check_every_split (stream, strlen (stream), 64, expected);
  log = clarify_test_log_stop ();
  for (guint i = 0; log[i] != NULL; i++)
    g_assert_cmpstr (log[i], ==, DROP_LINE);
  g_clear_pointer (&log, g_strfreev);

  recorder_init (&rec);
  clarify_sse_parser_set_max_event_size (rec.parser, 64);
  clarify_test_log_start ();
  clarify_sse_parser_feed (rec.parser, stream, strlen (stream));
  log = clarify_test_log_stop ();
  g_assert_cmpuint (clarify_sse_parser_get_n_dropped (rec.parser), ==, 3);
  g_assert_cmpstrv (log, ((const char * const[]) { DROP_LINE, DROP_LINE, DROP_LINE, NULL }));
  g_clear_pointer (&log, g_strfreev);
  /* The dropped event's id did not take effect. */
  g_assert_cmpstr (clarify_sse_parser_get_last_event_id (rec.parser), ==, "");
  recorder_clear (&rec);

  /* An endless line is dropped while it streams, not buffered. */
  recorder_init (&rec);
  clarify_sse_parser_set_max_event_size (rec.parser, 64);
  clarify_test_log_start ();
  clarify_sse_parser_feed (rec.parser, "data: ", 6);
  for (guint i = 0; i < 100; i++)
    clarify_sse_parser_feed (rec.parser, big, 65);
  clarify_sse_parser_feed (rec.parser, "\n\ndata: next\n\n", 14);
  log = clarify_test_log_stop ();
  g_assert_cmpstrv (log, ((const char * const[]) { DROP_LINE, NULL }));
  assert_log (rec.log, (const char *[]) { "[message] next #", NULL });
  g_assert_cmpuint (clarify_sse_parser_get_n_dropped (rec.parser), ==, 1);
  recorder_clear (&rec);
}

/* Found by fuzz-sse-parser: a line longer than the cap allows whose value
 * is short (no colon, or a long field name) dropped its event only when
 * the stream was cut inside it. */
static void
test_long_other_line (void)
{
  g_autofree char *big = g_strnfill (130, 'y');
  g_autofree char *stream = g_strdup_printf ("%s\ndata: no\n\n"
                                             "%s: x\ndata: no\n\n"
                                             "data: end\n\n", big, big);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();
  g_auto(GStrv) log = NULL;

  g_ptr_array_add (expected, "[message] end #");
  clarify_test_log_start ();
  check_every_split (stream, strlen (stream), 64, expected);
  log = clarify_test_log_stop ();
  for (guint i = 0; log[i] != NULL; i++)
    g_assert_cmpstr (log[i], ==, DROP_LINE);
}

static void
test_default_size_cap (void)
{
  gsize big_len = CLARIFY_SSE_DEFAULT_MAX_EVENT_SIZE + 1;
  g_autofree char *big = g_strnfill (big_len, 'z');
  g_autofree char *drop_line = g_strdup_printf ("MESSAGE: SSE: dropped an event of more than %d bytes; "
                                                "the stream continues", CLARIFY_SSE_DEFAULT_MAX_EVENT_SIZE);
  g_auto(GStrv) log = NULL;
  Recorder rec;

  recorder_init (&rec);
  clarify_test_log_start ();
  clarify_sse_parser_feed (rec.parser, "data: ", 6);
  for (gsize off = 0; off < big_len; off += 4096)
    clarify_sse_parser_feed (rec.parser, big + off, MIN (4096, big_len - off));
  clarify_sse_parser_feed (rec.parser, "\n\ndata: small\n\n", 15);
  log = clarify_test_log_stop ();
  g_assert_cmpstrv (log, ((const char * const[]) { drop_line, NULL }));
  /* Exactly the cap is still fine. */
  clarify_sse_parser_feed (rec.parser, "data: ", 6);
  clarify_sse_parser_feed (rec.parser, big, big_len - 1);
  clarify_sse_parser_feed (rec.parser, "\n\n", 2);

  g_assert_cmpuint (rec.log->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (rec.log, 0), ==, "[message] small #");
  g_assert_cmpuint (strlen (g_ptr_array_index (rec.log, 1)), ==, strlen ("[message]  #") + big_len - 1);
  g_assert_cmpuint (clarify_sse_parser_get_n_dropped (rec.parser), ==, 1);
  recorder_clear (&rec);
}

/* A frame fixture as the stream carries it: the notes close a block's fence
 * right after a frame's last line. */
static char *
load_frames (const char *relative_path)
{
  g_autofree char *text = clarify_test_load_fixture (relative_path);

  if (g_str_has_suffix (text, "\n\n"))
    return g_steal_pointer (&text);

  return g_strconcat (text, "\n", NULL);
}

static JsonObject *
parse_json_object (const char *data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, data, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The bracketed type of a log line and its unescaped data as JSON. */
static JsonObject *
logged_json (GPtrArray  *log,
             guint       index,
             const char *expected_type)
{
  const char *line = g_ptr_array_index (log, index);
  g_autofree char *prefix = g_strdup_printf ("[%s] ", expected_type);
  g_autofree char *escaped = NULL;
  g_autofree char *data = NULL;

  g_assert_true (g_str_has_prefix (line, prefix));
  g_assert_true (g_str_has_suffix (line, " #"));
  escaped = g_strndup (line + strlen (prefix), strlen (line) - strlen (prefix) - 2);
  data = g_strcompress (escaped);

  return parse_json_object (data);
}

static void
test_real_frames (void)
{
  g_autofree char *opencode = load_frames ("protocols/opencode-mcp-claude/a1-event-streams.sse");
  g_autofree char *ihub = load_frames ("protocols/ihub-and-codenomad/f-ihub-5.sse");
  g_autofree char *cn_block = load_frames ("protocols/ihub-and-codenomad/f-cn-2.txt");
  g_autofree char *codenomad = g_strndup (cn_block, strstr (cn_block, "\n\n") + 2 - cn_block);
  g_autofree char *stream = g_strconcat (opencode, ": heartbeat\n\n", codenomad, ihub, ": heartbeat\n\n", NULL);
  g_autofree char *crlf = NULL;
  g_autoptr(GPtrArray) log = parse (stream);
  g_auto(GStrv) crlf_lines = NULL;
  g_autoptr(JsonObject) connected = NULL;
  g_autoptr(JsonObject) heartbeat = NULL;
  g_autoptr(JsonObject) ping = NULL;
  g_autoptr(JsonObject) clarification = NULL;
  g_autoptr(JsonObject) done = NULL;

  g_assert_cmpuint (log->len, ==, 6);

  connected = logged_json (log, 0, "message");
  g_assert_cmpstr (json_object_get_string_member (connected, "type"), ==, "server.connected");
  heartbeat = logged_json (log, 1, "message");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (heartbeat, "payload"), "type"),
                   ==, "server.heartbeat");
  ping = logged_json (log, 2, "codenomad.client.ping");
  g_assert_cmpint (json_object_get_int_member (ping, "ts"), ==, 1767225600000);
  clarification = logged_json (log, 3, "clarification");
  g_assert_cmpstr (json_object_get_string_member (clarification, "question"), ==, "Delete all 15 drafts?");
  g_assert_cmpstr (json_object_get_string_member (clarification, "inputType"), ==, "single_select");
  g_clear_pointer (&clarification, json_object_unref);
  clarification = logged_json (log, 4, "tool.call.end");
  done = logged_json (log, 5, "done");
  g_assert_cmpstr (json_object_get_string_member (done, "finishReason"), ==, "clarification");

  /* Byte-exact replay is split-proof, in CRLF too. */
  check_every_split (stream, strlen (stream), 0, log);
  crlf_lines = g_strsplit (stream, "\n", -1);
  crlf = g_strjoinv ("\r\n", crlf_lines);
  check_every_split (crlf, strlen (crlf), 0, log);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/sse-parser/basic", test_basic);
  g_test_add_func ("/sse-parser/event-type", test_event_type);
  g_test_add_func ("/sse-parser/comments", test_comments);
  g_test_add_func ("/sse-parser/id", test_id);
  g_test_add_func ("/sse-parser/retry", test_retry);
  g_test_add_func ("/sse-parser/no-dispatch-at-end", test_no_dispatch_at_end);
  g_test_add_func ("/sse-parser/reset-in-callback", test_reset_in_callback);
  g_test_add_func ("/sse-parser/bom", test_bom);
  g_test_add_func ("/sse-parser/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/sse-parser/nul-in-data", test_nul_in_data);
  g_test_add_func ("/sse-parser/line-endings", test_line_endings);
  g_test_add_func ("/sse-parser/size-cap", test_size_cap);
  g_test_add_func ("/sse-parser/default-size-cap", test_default_size_cap);
  g_test_add_func ("/sse-parser/long-other-line", test_long_other_line);
  g_test_add_func ("/sse-parser/real-frames", test_real_frames);

  return g_test_run ();
}
