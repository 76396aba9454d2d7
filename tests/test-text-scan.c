/* test-text-scan.c: the SSE parser's byte scans give GLib's answers
 *
 * The fast UTF-8 check must agree with g_utf8_validate_len() on every input:
 * all strings of up to three bytes, and many longer ones placed across the
 * 16-, 32- and 64-byte blocks the SIMD code works in, with each width of
 * vector code this CPU has.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clarify-test-log.h"
#include "clarify-text-scan.h"

/* Bytes after the copy that the vector code must leave alone. */
#define GUARD_LEN 64

static void
assert_agrees (const char *text,
               gsize       len)
{
  /* One buffer for all calls: a malloc per call made this test take
   * minutes under ASan, which records where each block came from. */
  static char *copy;
  static gsize copy_size;
  gboolean expected = g_utf8_validate_len (text, len, NULL);
  gboolean copied_valid;

  if (copy_size < len + GUARD_LEN)
    {
      copy_size = len + GUARD_LEN;
      copy = g_realloc (copy, copy_size);
    }
  /* Not the text's bytes: a copy that misses some cannot pass for done. */
  memset (copy, '~', len);
  memset (copy + len, '#', GUARD_LEN);
  copied_valid = clarify_text_copy_utf8 (copy, text, len);

  g_assert_true (memcmp (copy, text, len) == 0);
  for (gsize i = len; i < len + GUARD_LEN; i++)
    g_assert_cmpint (copy[i], ==, '#');
  if (clarify_text_utf8_validate (text, len) != expected
      || clarify_text_utf8_validate_portable (text, len) != expected
      || copied_valid != expected)
    {
      g_autoptr(GString) hex = g_string_new (NULL);

      for (gsize i = 0; i < len; i++)
        g_string_append_printf (hex, "%02x ", (guchar) text[i]);
      g_error ("UTF-8 check of [%s] (%" G_GSIZE_FORMAT " bytes): GLib says %s, %s / %s (portable) / %s (copied)",
               hex->str, len, expected ? "valid" : "invalid",
               clarify_text_utf8_validate (text, len) ? "valid" : "invalid",
               clarify_text_utf8_validate_portable (text, len) ? "valid" : "invalid",
               copied_valid ? "valid" : "invalid");
    }
}

static void
test_utf8_all_short (void)
{
  char text[3];

  assert_agrees ("", 0);
  for (guint a = 0; a < 256; a++)
    {
      text[0] = (char) a;
      assert_agrees (text, 1);
      for (guint b = 0; b < 256; b++)
        {
          text[1] = (char) b;
          assert_agrees (text, 2);
          for (guint c = 0; c < 256; c++)
            {
              text[2] = (char) c;
              assert_agrees (text, 3);
            }
        }
    }
}

/* Every four-byte string whose first byte is a lead of four (or an invalid
 * lead above it), the only ones the three-byte sweep does not cover. */
static void
test_utf8_all_four (void)
{
  char text[4];

  for (guint a = 0xF0; a < 0x100; a++)
    for (guint b = 0x70; b < 0xD0; b++)
      for (guint c = 0x70; c < 0xD0; c++)
        for (guint d = 0x70; d < 0xD0; d++)
          {
            text[0] = (char) a;
            text[1] = (char) b;
            text[2] = (char) c;
            text[3] = (char) d;
            assert_agrees (text, 4);
          }
}

/* Bytes drawn mostly from the interesting classes, so that random strings
 * are often valid and the errors are near misses. */
static char
random_byte (GRand *rand)
{
  static const guchar interesting[] = {
    'a', ' ', '\n', 0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
    0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF,
  };

  if (g_rand_boolean (rand))
    return (char) interesting[g_rand_int_range (rand, 0, G_N_ELEMENTS (interesting))];
  return (char) g_rand_int_range (rand, 0, 256);
}

static void
append_valid_character (GString *out,
                        GRand   *rand)
{
  static const gunichar ranges[][2] = {
    { 0x01, 0x7F }, { 0x80, 0x7FF }, { 0x800, 0xD7FF }, { 0xE000, 0xFFFF }, { 0x10000, 0x10FFFF },
  };
  guint r = g_rand_int_range (rand, 0, G_N_ELEMENTS (ranges));

  g_string_append_unichar (out, g_rand_int_range (rand, ranges[r][0], ranges[r][1] + 1));
}

static void
test_utf8_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint round = 0; round < 200000; round++)
    {
      guint n_chars = g_rand_int_range (rand, 0, round % 10 == 0 ? 200 : 40);

      g_string_truncate (text, 0);
      /* An ASCII run first moves what follows across the block edges. */
      for (guint i = g_rand_int_range (rand, 0, 34); i > 0; i--)
        g_string_append_c (text, 'x');
      for (guint i = 0; i < n_chars; i++)
        append_valid_character (text, rand);
      assert_agrees (text->str, text->len);

      /* One byte changed, cut, or added. */
      if (text->len > 0)
        {
          switch (g_rand_int_range (rand, 0, 3))
            {
            case 0:
              text->str[g_rand_int_range (rand, 0, text->len)] = random_byte (rand);
              break;
            case 1:
              g_string_truncate (text, g_rand_int_range (rand, 0, text->len));
              break;
            default:
              g_string_insert_c (text, g_rand_int_range (rand, 0, text->len + 1), random_byte (rand));
              break;
            }
          assert_agrees (text->str, text->len);
        }

      /* Noise. */
      g_string_truncate (text, 0);
      for (guint i = g_rand_int_range (rand, 0, 48); i > 0; i--)
        g_string_append_c (text, random_byte (rand));
      assert_agrees (text->str, text->len);
    }
}

/* A sequence cut at every offset of the 32- and 64-byte blocks, at the very
 * end of the input (the SIMD check pads the tail and must still see that it
 * is incomplete) or before a run of ASCII that fills the next block. */
static void
test_utf8_cut_at_end (void)
{
  static const char *const characters[] = { "\xC3\xA4", "\xE2\x80\x93", "\xF0\x9F\x98\x80" };
  static const guint after_lengths[] = { 0, 1, 70 };
  /* The ASCII check skips a plain prefix: one that starts with "é" moves
   * the cut across the vector code's blocks instead. */
  static const char *const starts[] = { "", "\xC3\xA9" };
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint s = 0; s < G_N_ELEMENTS (starts); s++)
    for (guint prefix = 0; prefix < 140; prefix++)
      for (guint c = 0; c < G_N_ELEMENTS (characters); c++)
        for (gsize keep = 0; keep <= strlen (characters[c]); keep++)
          for (guint a = 0; a < G_N_ELEMENTS (after_lengths); a++)
            {
              g_string_assign (text, starts[s]);
              for (guint i = 0; i < prefix; i++)
                g_string_append_c (text, 'y');
              g_string_append_len (text, characters[c], keep);
              for (guint i = 0; i < after_lengths[a]; i++)
                g_string_append_c (text, 'z');
              assert_agrees (text->str, text->len);
              g_assert_cmpint (clarify_text_utf8_validate (text->str, text->len), ==,
                               keep == 0 || keep == strlen (characters[c]));
            }
}

/* A NUL at every offset of a long ASCII text: no sequence error to see,
 * so only the NUL check can find it. */
static void
test_utf8_nul_in_ascii (void)
{
  char text[200];

  /* Plain, and after an "é" that starts the vector code at the front. */
  for (guint start = 0; start < 2; start++)
    {
      memset (text, 'n', sizeof text);
      if (start == 1)
        memcpy (text, "\xC3\xA9", 2);
      for (gsize nul = 2 * start; nul < sizeof text; nul++)
        {
          text[nul] = '\0';
          assert_agrees (text, sizeof text);
          g_assert_false (clarify_text_utf8_validate (text, sizeof text));
          text[nul] = 'n';
        }
      assert_agrees (text, sizeof text);
    }
}

/* Values that end right before a page that cannot be read: a scan that
 * reads past the end crashes here, ASan or not. */
static void
test_end_of_page (void)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  char *pages = mmap (NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *end = pages + page;

  g_assert_true (pages != MAP_FAILED);
  g_assert_cmpint (mprotect (end, page, PROT_NONE), ==, 0);

  for (gsize len = 0; len <= 200; len++)
    {
      char *text = end - len;

      /* Mostly ASCII with a few sequences, no line end. */
      for (gsize i = 0; i < len; i++)
        text[i] = (char) ('a' + i % 26);
      for (gsize i = 3; i + 2 <= len; i += 37)
        memcpy (text + i, "\xC3\xA4", 2);
      assert_agrees (text, len);
      g_assert_true (clarify_text_find_eol (text, end) == end);

      if (len > 0)
        {
          /* A sequence cut by the end of the page. */
          text[len - 1] = (char) 0xE2;
          assert_agrees (text, len);
          g_assert_false (clarify_text_utf8_validate (text, len));
          text[len - 1] = '\n';
          g_assert_true (clarify_text_find_eol (text, end) == end - 1);
        }
    }

  munmap (pages, 2 * page);
}

static const char *
find_eol_slowly (const char *p,
                 const char *end)
{
  for (; p < end; p++)
    {
      if (*p == '\n' || *p == '\r')
        return p;
    }

  return end;
}

static void
test_find_eol (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  char buffer[301];

  for (guint round = 0; round < 20000; round++)
    {
      gsize len = g_rand_int_range (rand, 0, sizeof buffer - 1);

      /* A line end just past the end must not be found. */
      buffer[len] = '\n';

      for (gsize i = 0; i < len; i++)
        {
          /* Line ends are rare, as in real streams; bytes that differ from
           * CR and LF only in the top bit too. */
          guint r = g_rand_int_range (rand, 0, 400);

          buffer[i] = r == 0 ? '\n' : r == 1 ? '\r' : r == 2 ? (char) 0x8A : r == 3 ? (char) 0x8D
                      : (char) g_rand_int_range (rand, 0x20, 0x7F);
        }
      for (gsize start = 0; start <= MIN (len, 17); start++)
        g_assert_true (clarify_text_find_eol (buffer + start, buffer + len)
                       == find_eol_slowly (buffer + start, buffer + len));
    }
}

/* Each test runs once per vector width, the widest this CPU has included:
 * one CPU checks every path it can run. */
typedef struct
{
  ClarifyTextSimd simd;
  GTestFunc       func;
} ScanTest;

static ClarifyTextSimd cpu_simd;

static void
run_with_simd (gconstpointer data)
{
  const ScanTest *test = data;

  if (test->simd > cpu_simd)
    {
      g_test_skip ("this CPU cannot run that vector code");
      return;
    }
  clarify_text_scan_limit_simd (test->simd);
  g_assert_cmpint (clarify_text_scan_get_simd (), ==, test->simd);
  test->func ();
  clarify_text_scan_limit_simd (CLARIFY_TEXT_SIMD_AVX512);
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    GTestFunc   func;
  } tests[] = {
    { "utf8/all-short", test_utf8_all_short },
    { "utf8/all-four", test_utf8_all_four },
    { "utf8/random", test_utf8_random },
    { "utf8/cut-at-end", test_utf8_cut_at_end },
    { "utf8/nul-in-ascii", test_utf8_nul_in_ascii },
    { "end-of-page", test_end_of_page },
    { "find-eol", test_find_eol },
  };
  static const struct
  {
    const char     *name;
    ClarifyTextSimd simd;
  } widths[] = {
    { "base", CLARIFY_TEXT_SIMD_BASE },
    { "avx2", CLARIFY_TEXT_SIMD_AVX2 },
    { "avx512", CLARIFY_TEXT_SIMD_AVX512 },
  };

  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);
  cpu_simd = clarify_text_scan_get_simd ();

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
      {
        ScanTest *test = g_new (ScanTest, 1);
        g_autofree char *path = g_strdup_printf ("/text-scan/%s/%s", widths[w].name, tests[t].name);

        test->simd = widths[w].simd;
        test->func = tests[t].func;
        g_test_add_data_func_full (path, test, run_with_simd, g_free);
      }

  return g_test_run ();
}
