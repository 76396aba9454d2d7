/* clarify-text-scan.c: the two byte scans the SSE parser spends its time in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#if defined(__SSE2__)
# include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
# include <immintrin.h>
# define HAVE_AVX2_PATH 1
#endif

#include "clarify-text-scan.h"

static ClarifyTextSimd simd_limit = CLARIFY_TEXT_SIMD_AVX512;
static gint cpu_simd = -1;   /* found at the first call */

static ClarifyTextSimd
detect_simd (void)
{
#ifdef HAVE_AVX2_PATH
  /* libgcc checks that the kernel saves the wide registers, too. */
  if (__builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw"))
    return CLARIFY_TEXT_SIMD_AVX512;
  if (__builtin_cpu_supports ("avx2"))
    return CLARIFY_TEXT_SIMD_AVX2;
#endif

  return CLARIFY_TEXT_SIMD_BASE;
}

ClarifyTextSimd
clarify_text_scan_get_simd (void)
{
  gint simd = g_atomic_int_get (&cpu_simd);

  if (G_UNLIKELY (simd < 0))
    {
      simd = detect_simd ();
      g_atomic_int_set (&cpu_simd, simd);
    }

  return MIN ((ClarifyTextSimd) simd, simd_limit);
}

void
clarify_text_scan_limit_simd (ClarifyTextSimd limit)
{
  simd_limit = limit;
}

static const char *
find_eol_narrow (const char *p,
               const char *end)
{
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8 ('\n');
  const __m128i cr = _mm_set1_epi8 ('\r');

  /* Most lines end within the first block; long ones are scanned 64 bytes
   * per test of the mask. */
  while (end - p >= 64)
    {
      __m128i a = _mm_loadu_si128 ((const __m128i *) p);
      __m128i b = _mm_loadu_si128 ((const __m128i *) (p + 16));
      __m128i c = _mm_loadu_si128 ((const __m128i *) (p + 32));
      __m128i d = _mm_loadu_si128 ((const __m128i *) (p + 48));
      __m128i ma = _mm_or_si128 (_mm_cmpeq_epi8 (a, lf), _mm_cmpeq_epi8 (a, cr));
      __m128i mb = _mm_or_si128 (_mm_cmpeq_epi8 (b, lf), _mm_cmpeq_epi8 (b, cr));
      __m128i mc = _mm_or_si128 (_mm_cmpeq_epi8 (c, lf), _mm_cmpeq_epi8 (c, cr));
      __m128i md = _mm_or_si128 (_mm_cmpeq_epi8 (d, lf), _mm_cmpeq_epi8 (d, cr));

      if (_mm_movemask_epi8 (_mm_or_si128 (_mm_or_si128 (ma, mb), _mm_or_si128 (mc, md))) != 0)
        {
          guint mask = (guint) _mm_movemask_epi8 (ma)
                       | (guint) _mm_movemask_epi8 (mb) << 16;

          if (mask != 0)
            return p + __builtin_ctz (mask);
          mask = (guint) _mm_movemask_epi8 (mc) | (guint) _mm_movemask_epi8 (md) << 16;
          return p + 32 + __builtin_ctz (mask);
        }
      p += 64;
    }

  while (end - p >= 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) p);
      guint mask = (guint) _mm_movemask_epi8 (_mm_or_si128 (_mm_cmpeq_epi8 (v, lf),
                                                            _mm_cmpeq_epi8 (v, cr)));

      if (mask != 0)
        return p + __builtin_ctz (mask);
      p += 16;
    }
#endif

  for (; p < end; p++)
    {
      if (*p == '\n' || *p == '\r')
        return p;
    }

  return end;
}

#ifdef HAVE_AVX2_PATH
__attribute__ ((target ("avx2")))
static const char *
find_eol_avx2 (const char *p,
               const char *end)
{
  const __m256i lf = _mm256_set1_epi8 ('\n');
  const __m256i cr = _mm256_set1_epi8 ('\r');

  while (end - p >= 64)
    {
      __m256i a = _mm256_loadu_si256 ((const __m256i *) p);
      __m256i b = _mm256_loadu_si256 ((const __m256i *) (p + 32));
      __m256i ma = _mm256_or_si256 (_mm256_cmpeq_epi8 (a, lf), _mm256_cmpeq_epi8 (a, cr));
      __m256i mb = _mm256_or_si256 (_mm256_cmpeq_epi8 (b, lf), _mm256_cmpeq_epi8 (b, cr));
      guint64 mask = (guint64) (guint32) _mm256_movemask_epi8 (ma)
                     | (guint64) (guint32) _mm256_movemask_epi8 (mb) << 32;

      if (mask != 0)
        return p + __builtin_ctzll (mask);
      p += 64;
    }

  return find_eol_narrow (p, end);
}

__attribute__ ((target ("avx512f,avx512bw")))
static const char *
find_eol_avx512 (const char *p,
                 const char *end)
{
  const __m512i lf = _mm512_set1_epi8 ('\n');
  const __m512i cr = _mm512_set1_epi8 ('\r');

  for (; end - p >= 64; p += 64)
    {
      __m512i v = _mm512_loadu_si512 (p);
      guint64 mask = _mm512_cmpeq_epi8_mask (v, lf) | _mm512_cmpeq_epi8_mask (v, cr);

      if (mask != 0)
        return p + __builtin_ctzll (mask);
    }

  if (p < end)
    {
      /* The masked load reads nothing past @end and gives zeros there. */
      __mmask64 valid = (G_GUINT64_CONSTANT (1) << (end - p)) - 1;
      __m512i v = _mm512_maskz_loadu_epi8 (valid, p);
      guint64 mask = _mm512_cmpeq_epi8_mask (v, lf) | _mm512_cmpeq_epi8_mask (v, cr);

      if (mask != 0)
        return p + __builtin_ctzll (mask);
    }

  return end;
}
#endif

const char *
clarify_text_find_eol (const char *p,
                       const char *end)
{
#ifdef HAVE_AVX2_PATH
# if defined(__SSE2__)
  /* Most lines are short and end in the first block. */
  if (end - p >= 16)
    {
      const __m128i v = _mm_loadu_si128 ((const __m128i *) p);
      guint mask = (guint) _mm_movemask_epi8 (_mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\n')),
                                                            _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\r'))));

      if (mask != 0)
        return p + __builtin_ctz (mask);
      p += 16;
    }
# endif
  if (end - p >= 64)
    {
      ClarifyTextSimd simd = clarify_text_scan_get_simd ();

      if (simd == CLARIFY_TEXT_SIMD_AVX512)
        return find_eol_avx512 (p, end);
      if (simd == CLARIFY_TEXT_SIMD_AVX2)
        return find_eol_avx2 (p, end);
    }
#endif

  return find_eol_narrow (p, end);
}

/* Length of the leading run of ASCII bytes other than NUL. */
static inline gsize
plain_ascii_prefix (const guchar *s,
                    gsize         len)
{
  gsize i = 0;

#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128 ();

  for (; i + 32 <= len; i += 32)
    {
      __m128i a = _mm_loadu_si128 ((const __m128i *) (s + i));
      __m128i b = _mm_loadu_si128 ((const __m128i *) (s + i + 16));
      /* A byte ≥ 0x80 has its top bit set; NUL compares equal to zero. */
      guint mask = (guint) _mm_movemask_epi8 (_mm_or_si128 (a, _mm_cmpeq_epi8 (a, zero)))
                   | (guint) _mm_movemask_epi8 (_mm_or_si128 (b, _mm_cmpeq_epi8 (b, zero))) << 16;

      if (mask != 0)
        return i + __builtin_ctz (mask);
    }
  for (; i + 16 <= len; i += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (s + i));
      guint mask = (guint) _mm_movemask_epi8 (_mm_or_si128 (v, _mm_cmpeq_epi8 (v, zero)));

      if (mask != 0)
        return i + __builtin_ctz (mask);
    }
#else
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);

  for (; i + 8 <= len; i += 8)
    {
      guint64 word;

      memcpy (&word, s + i, sizeof word);
      /* The top bit of a byte, or a byte that is zero. */
      if (((word | ((word - ones) & ~word)) & highs) != 0)
        break;
    }
#endif

  while (i < len && s[i] != 0 && s[i] < 0x80)
    i++;

  return i;
}

/* Length of the well-formed UTF-8 sequence with lead byte ≥ 0x80 at @s, or 0
 * (NUL and ASCII are not handled here). */
static inline gsize
utf8_sequence_length (const guchar *s,
                      const guchar *end)
{
  guchar c = s[0];

  if (c < 0xC2)
    {
      /* NUL, a continuation byte, or the start of an overlong pair. */
      return 0;
    }
  else if (c < 0xE0)
    {
      if (end - s < 2 || (s[1] & 0xC0) != 0x80)
        return 0;
      return 2;
    }
  else if (c < 0xF0)
    {
      if (end - s < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
        return 0;
      if (c == 0xE0 && s[1] < 0xA0)
        return 0;   /* overlong */
      if (c == 0xED && s[1] > 0x9F)
        return 0;   /* a UTF-16 surrogate */
      return 3;
    }
  else if (c < 0xF5)
    {
      if (end - s < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
        return 0;
      if (c == 0xF0 && s[1] < 0x90)
        return 0;   /* overlong */
      if (c == 0xF4 && s[1] > 0x8F)
        return 0;   /* above U+10FFFF */
      return 4;
    }

  return 0;
}

#ifdef HAVE_AVX2_PATH
/* UTF-8 checked 32 bytes at a time without a branch per character, after
 * Keiser and Lemire, "Validating UTF-8 in less than one instruction per
 * byte" (2021): three table lookups classify each pair of adjacent bytes,
 * and the bytes that must be the 2nd or 3rd continuation of a longer
 * sequence are checked from the two and three bytes before. Each bit is one
 * kind of error; a pair is wrong when all three lookups agree on a bit. */
enum
{
  TOO_SHORT      = 1 << 0,   /* a lead byte not followed by a continuation */
  TOO_LONG       = 1 << 1,   /* a continuation after ASCII */
  OVERLONG_3     = 1 << 2,   /* E0 80..9F */
  TOO_LARGE      = 1 << 3,   /* F4 90..BF, F5.. */
  SURROGATE      = 1 << 4,   /* ED A0..BF */
  OVERLONG_2     = 1 << 5,   /* C0, C1 */
  TOO_LARGE_1000 = 1 << 6,   /* F5.. 80..8F */
  OVERLONG_4     = 1 << 6,   /* F0 80..8F */
  TWO_CONTS      = 1 << 7,   /* a continuation after a continuation */
  CARRY          = TOO_SHORT | TOO_LONG | TWO_CONTS,
};

/* Indexed by the high nibble of the first byte of a pair, its low nibble,
 * and the high nibble of the second byte. */
static const guint8 first_high_errors[16] = {
  TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
  TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
  TOO_SHORT | OVERLONG_2,
  TOO_SHORT,
  TOO_SHORT | OVERLONG_3 | SURROGATE,
  TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
};
static const guint8 first_low_errors[16] = {
  CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
  CARRY | OVERLONG_2,
  CARRY,
  CARRY,
  CARRY | TOO_LARGE,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
  CARRY | TOO_LARGE | TOO_LARGE_1000,
};
static const guint8 second_high_errors[16] = {
  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
};

__attribute__ ((target ("avx2")))
static inline __m256i
pair_errors (__m256i input,
             __m256i previous)
{
  const __m256i first_high_table = _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) first_high_errors));
  const __m256i first_low_table = _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) first_low_errors));
  const __m256i second_high_table = _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) second_high_errors));
  const __m256i nibble = _mm256_set1_epi8 (0x0F);
  /* alignr works within each 128-bit lane: give it the lane before. */
  __m256i lane_before = _mm256_permute2x128_si256 (previous, input, 0x21);
  __m256i before1 = _mm256_alignr_epi8 (input, lane_before, 15);
  __m256i before2 = _mm256_alignr_epi8 (input, lane_before, 14);
  __m256i before3 = _mm256_alignr_epi8 (input, lane_before, 13);
  __m256i special;
  __m256i third, fourth, must_continue;

  special = _mm256_and_si256 (
    _mm256_and_si256 (_mm256_shuffle_epi8 (first_high_table, _mm256_and_si256 (_mm256_srli_epi16 (before1, 4), nibble)),
                      _mm256_shuffle_epi8 (first_low_table, _mm256_and_si256 (before1, nibble))),
    _mm256_shuffle_epi8 (second_high_table, _mm256_and_si256 (_mm256_srli_epi16 (input, 4), nibble)));

  /* 3rd byte of E0..EF, 3rd/4th of F0..FF: must be a continuation, which
   * the pair table marked TWO_CONTS; the xor cancels exactly those. */
  third = _mm256_subs_epu8 (before2, _mm256_set1_epi8 ((char) (0xE0 - 0x80)));
  fourth = _mm256_subs_epu8 (before3, _mm256_set1_epi8 ((char) (0xF0 - 0x80)));
  must_continue = _mm256_and_si256 (_mm256_or_si256 (third, fourth), _mm256_set1_epi8 ((char) 0x80));

  return _mm256_xor_si256 (must_continue, special);
}

__attribute__ ((target ("avx2")))
static gboolean
utf8_validate_avx2 (const guchar *s,
                    gsize         len,
                    guchar       *copy)
{
  const __m256i zero = _mm256_setzero_si256 ();
  __m256i previous = zero;
  __m256i errors = zero;
  guchar tail[32];
  gsize i = 0;

  /* Two blocks per round: their checks do not depend on each other. */
  for (; i + 64 <= len; i += 64)
    {
      __m256i first = _mm256_loadu_si256 ((const __m256i *) (s + i));
      __m256i second = _mm256_loadu_si256 ((const __m256i *) (s + i + 32));

      if (copy != NULL)
        {
          _mm256_storeu_si256 ((__m256i *) (copy + i), first);
          _mm256_storeu_si256 ((__m256i *) (copy + i + 32), second);
        }
      errors = _mm256_or_si256 (errors, _mm256_or_si256 (pair_errors (first, previous),
                                                         pair_errors (second, first)));
      errors = _mm256_or_si256 (errors, _mm256_cmpeq_epi8 (_mm256_min_epu8 (first, second), zero));
      previous = second;
    }
  for (; i + 32 <= len; i += 32)
    {
      __m256i input = _mm256_loadu_si256 ((const __m256i *) (s + i));

      /* Copying while the bytes are in registers saves a pass. */
      if (copy != NULL)
        _mm256_storeu_si256 ((__m256i *) (copy + i), input);
      errors = _mm256_or_si256 (errors, _mm256_or_si256 (pair_errors (input, previous),
                                                         _mm256_cmpeq_epi8 (input, zero)));
      previous = input;
    }
  if (copy != NULL)
    memcpy (copy + i, s + i, len - i);

  /* The rest, padded with spaces: a sequence cut short at the end meets an
   * ASCII byte and counts as too short (the tail always has room for one
   * space; an empty tail checks the last whole block). */
  memset (tail, ' ', sizeof tail);
  memcpy (tail, s + i, len - i);
  {
    __m256i input = _mm256_loadu_si256 ((const __m256i *) tail);

    errors = _mm256_or_si256 (errors, _mm256_or_si256 (pair_errors (input, previous),
                                                       _mm256_cmpeq_epi8 (input, zero)));
  }

  return _mm256_testz_si256 (errors, errors);
}
/* The same 64 bytes at a time; the tables and the steps are those of the
 * AVX2 check above. */
__attribute__ ((target ("avx512f,avx512bw")))
static inline __m512i
pair_errors_avx512 (__m512i input,
                    __m512i previous)
{
  const __m512i first_high_table = _mm512_broadcast_i32x4 (_mm_loadu_si128 ((const __m128i *) first_high_errors));
  const __m512i first_low_table = _mm512_broadcast_i32x4 (_mm_loadu_si128 ((const __m128i *) first_low_errors));
  const __m512i second_high_table = _mm512_broadcast_i32x4 (_mm_loadu_si128 ((const __m128i *) second_high_errors));
  const __m512i nibble = _mm512_set1_epi8 (0x0F);
  /* Each 128-bit lane's lane before: the last of @previous, then @input's. */
  const __m512i lanes_before = _mm512_setr_epi64 (6, 7, 8, 9, 10, 11, 12, 13);
  __m512i lane_before = _mm512_permutex2var_epi64 (previous, lanes_before, input);
  __m512i before1 = _mm512_alignr_epi8 (input, lane_before, 15);
  __m512i before2 = _mm512_alignr_epi8 (input, lane_before, 14);
  __m512i before3 = _mm512_alignr_epi8 (input, lane_before, 13);
  __m512i special;
  __m512i third, fourth, must_continue;

  special = _mm512_and_si512 (
    _mm512_and_si512 (_mm512_shuffle_epi8 (first_high_table, _mm512_and_si512 (_mm512_srli_epi16 (before1, 4), nibble)),
                      _mm512_shuffle_epi8 (first_low_table, _mm512_and_si512 (before1, nibble))),
    _mm512_shuffle_epi8 (second_high_table, _mm512_and_si512 (_mm512_srli_epi16 (input, 4), nibble)));

  third = _mm512_subs_epu8 (before2, _mm512_set1_epi8 ((char) (0xE0 - 0x80)));
  fourth = _mm512_subs_epu8 (before3, _mm512_set1_epi8 ((char) (0xF0 - 0x80)));
  must_continue = _mm512_and_si512 (_mm512_or_si512 (third, fourth), _mm512_set1_epi8 ((char) 0x80));

  return _mm512_xor_si512 (must_continue, special);
}

__attribute__ ((target ("avx512f,avx512bw")))
static gboolean
utf8_validate_avx512 (const guchar *s,
                      gsize         len,
                      guchar       *copy)
{
  const __m512i zero = _mm512_setzero_si512 ();
  __m512i previous = zero;
  __m512i errors = zero;
  gsize i = 0;

  for (; i + 64 <= len; i += 64)
    {
      __m512i input = _mm512_loadu_si512 (s + i);

      if (copy != NULL)
        _mm512_storeu_si512 (copy + i, input);
      errors = _mm512_or_si512 (errors, pair_errors_avx512 (input, previous));
      errors = _mm512_or_si512 (errors, _mm512_movm_epi8 (_mm512_cmpeq_epi8_mask (input, zero)));
      previous = input;
    }

  /* The rest, padded with spaces as in the AVX2 check; the masked load and
   * store touch nothing past @len. */
  {
    __mmask64 rest = (G_GUINT64_CONSTANT (1) << (len - i)) - 1;
    __m512i input = _mm512_mask_loadu_epi8 (_mm512_set1_epi8 (' '), rest, s + i);

    if (copy != NULL)
      _mm512_mask_storeu_epi8 (copy + i, rest, input);
    errors = _mm512_or_si512 (errors, pair_errors_avx512 (input, previous));
    errors = _mm512_or_si512 (errors, _mm512_movm_epi8 (_mm512_cmpeq_epi8_mask (input, zero)));
  }

  return _mm512_test_epi8_mask (errors, errors) == 0;
}
#endif

typedef gboolean (*Utf8Check) (const guchar *s,
                               gsize         len,
                               guchar       *copy);

/* The widest vector check this CPU may run, or NULL for none. */
static Utf8Check
vector_utf8_check (void)
{
#ifdef HAVE_AVX2_PATH
  switch (clarify_text_scan_get_simd ())
    {
    case CLARIFY_TEXT_SIMD_AVX512:
      return utf8_validate_avx512;
    case CLARIFY_TEXT_SIMD_AVX2:
      return utf8_validate_avx2;
    case CLARIFY_TEXT_SIMD_BASE:
    default:
      break;
    }
#endif

  return NULL;
}

gboolean
clarify_text_utf8_validate (const char *text,
                            gsize       len)
{
  /* Short and ASCII-only values (most event types, ids and small events)
   * are done after the first scan. */
  gsize ascii = plain_ascii_prefix ((const guchar *) text, len);
  Utf8Check check;

  if (ascii == len)
    return TRUE;

  check = vector_utf8_check ();
  if (check != NULL)
    return check ((const guchar *) text + ascii, len - ascii, NULL);

  return clarify_text_utf8_validate_portable (text + ascii, len - ascii);
}

gboolean
clarify_text_copy_utf8 (char       *dest,
                        const char *text,
                        gsize       len)
{
  /* Short values are mostly ASCII and done by the plain scan. */
  Utf8Check check = len >= 64 ? vector_utf8_check () : NULL;

  if (check != NULL)
    return check ((const guchar *) text, len, (guchar *) dest);

  memcpy (dest, text, len);
  return clarify_text_utf8_validate (text, len);
}

gboolean
clarify_text_utf8_validate_portable (const char *text,
                                     gsize       len)
{
  const guchar *s = (const guchar *) text;
  const guchar *end = s + len;

  while (s < end)
    {
      gsize n;

      s += plain_ascii_prefix (s, end - s);
      if (s == end)
        break;

      /* Only NUL or the lead byte of a sequence stops the prefix. */
      n = utf8_sequence_length (s, end);
      if (n == 0)
        return FALSE;
      s += n;
    }

  return TRUE;
}
