/*
 * test_codec.c — the input encodings: base58 against vectors computed by an
 * independent implementation (Python's big integers), base64 padded and
 * not, hex, a gzip stream written by Python's gzip module and a zstd frame
 * written by the zstd command, each with its refusals (bad text,
 * truncation, the size limit); hex out, against printf's "%02x".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/scp_codec.h"
#include "util/scp_util.h"

static uint8_t *hexbytes(const char *h, size_t *n) {
  uint8_t *b = NULL;
  assert_true(scp_hex_decode(h, strlen(h), &b, n, NULL));
  return b;
}

static void test_base58(void **state) {
  (void)state;
  uint8_t *b;
  size_t n;
  char out[128];
  assert_true(scp_b58_decode("StV1DL6CwTryKyV", 15, &b, &n, NULL));
  assert_int_equal(n, 11);
  assert_memory_equal(b, "hello world", 11);
  free(b);
  /* leading '1's are leading zero bytes */
  assert_true(scp_b58_decode("115T", 4, &b, &n, NULL));
  assert_int_equal(n, 4);
  assert_memory_equal(b, "\0\0\1\2", 4);
  assert_int_equal(scp_b58_encode(b, n, out, sizeof out), 4);
  assert_string_equal(out, "115T");
  free(b);
  uint8_t seq[40];
  for (int i = 0; i < 40; i++) seq[i] = (uint8_t)i;
  assert_int_equal(scp_b58_encode(seq, 40, out, sizeof out), 53);
  assert_string_equal(out, "1fAhYWqs6ctsWHNZtpYJNB9BxxQPq4Pa5LkbLC3wpAHLipXE7tXVY");
  assert_true(scp_b58_decode(out, strlen(out), &b, &n, NULL));
  assert_int_equal(n, 40);
  assert_memory_equal(b, seq, 40);
  free(b);
  assert_true(scp_b58_decode("", 0, &b, &n, NULL));
  assert_int_equal(n, 0);
  free(b);
  /* 0, O, I and l are not in the alphabet */
  assert_false(scp_b58_decode("1O", 2, &b, &n, NULL));
  assert_null(b);
  uint8_t key[32];
  assert_true(scp_b58_decode32("11111111111111111111111111111111", 32, key));
  assert_false(scp_b58_decode32("StV1DL6CwTryKyV", 15, key));   /* 11 bytes, not 32 */
}

/* scp_b58_decode32 (five digits a pass) against the general decoder on
 * keys of every leading-zero count, and the edges: 2^256 - 1 decodes,
 * 2^256 and more do not, nor bad digits. */
static void test_base58_keys(void **state) {
  (void)state;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int t = 0; t < 3000; t++) {
    uint8_t key[32], back[32];
    for (int i = 0; i < 32; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      key[i] = i < t % 34 ? 0 : (uint8_t)x;
    }
    if (t % 97 == 1) memset(key, 0xff, 32);
    char text[64];
    size_t n = scp_b58_encode(key, 32, text, sizeof text);
    assert_true(n > 0);
    uint8_t *b;
    size_t bn;
    assert_true(scp_b58_decode(text, n, &b, &bn, NULL));
    assert_int_equal(bn, 32);
    assert_true(scp_b58_decode32(text, n, back));
    assert_memory_equal(back, key, 32);
    assert_memory_equal(b, key, 32);
    free(b);
  }
  uint8_t key[32];
  /* 2^256 - 1 is JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG; one more is 2^256 */
  assert_true(scp_b58_decode32("JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG", 44, key));
  assert_false(scp_b58_decode32("JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFH", 44, key));
  assert_false(scp_b58_decode32("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", 44, key));
  assert_false(scp_b58_decode32("11111111111111111111111111111110", 32, key));   /* '0' is no digit */
  assert_false(scp_b58_decode32("1111111111111111111111111111111l", 32, key));   /* nor 'l' */
}

static void test_base64_hex(void **state) {
  (void)state;
  uint8_t *b;
  size_t n;
  assert_true(scp_b64_decode("AQID", 4, true, &b, &n, NULL));
  assert_int_equal(n, 3);
  assert_memory_equal(b, "\1\2\3", 3);
  free(b);
  assert_true(scp_b64_decode("AQIDBA==", 8, true, &b, &n, NULL));
  assert_int_equal(n, 4);
  free(b);
  /* unpadded only where it is allowed */
  assert_false(scp_b64_decode("AQIDBA", 6, true, &b, &n, NULL));
  assert_true(scp_b64_decode("AQIDBA", 6, false, &b, &n, NULL));
  assert_int_equal(n, 4);
  free(b);
  assert_false(scp_b64_decode("AQ!D", 4, true, &b, &n, NULL));
  assert_false(scp_b64_decode("AQIDBA==AQ", 10, true, &b, &n, NULL));
  b = hexbytes("00fFa5", &n);
  assert_int_equal(n, 3);
  assert_memory_equal(b, "\0\377\245", 3);
  free(b);
  assert_false(scp_hex_decode("abc", 3, &b, &n, NULL));
  assert_false(scp_hex_decode("zz", 2, &b, &n, NULL));
}

static void test_gzip_zstd(void **state) {
  (void)state;
  const char *want = "abcabcabcabcabcabcabcabcabc";
  size_t gn, zn, n;
  uint8_t *gz = hexbytes("1f8b08000000000002034b4c4a4ec48100d18ef6a81b000000", &gn);
  uint8_t *zs = hexbytes("28b52ffd04584d0000186162630100826e08e2aa308e", &zn);
  uint8_t *out;
  assert_true(scp_is_gzip(gz, gn));
  assert_null(scp_gunzip(gz, gn, 1000, &out, &n));
  assert_int_equal(n, 27);
  assert_memory_equal(out, want, 27);
  free(out);
  assert_string_equal(scp_gunzip(gz, gn - 3, 1000, &out, &n), "a truncated gzip stream");
  assert_null(out);
  assert_string_equal(scp_gunzip(gz, gn, 10, &out, &n), "larger than the limit");
  assert_null(scp_unzstd(zs, zn, 1000, &out, &n));
  assert_int_equal(n, 27);
  assert_memory_equal(out, want, 27);
  free(out);
  assert_string_equal(scp_unzstd(zs, zn - 4, 1000, &out, &n), "a truncated zstd frame");
  assert_string_equal(scp_unzstd(zs, zn, 10, &out, &n), "larger than the limit");
  assert_string_equal(scp_unzstd(gz, gn, 1000, &out, &n), "not a valid zstd frame");
  free(gz);
  free(zs);
}

/* bytes to hex as "%02x" each: across its 256-byte pieces, and nothing */
static void test_put_hex(void **state) {
  (void)state;
  enum { N = 600 };
  uint8_t in[N];
  for (int i = 0; i < N; i++) in[i] = (uint8_t)(i * 7 + 3);
  size_t sizes[] = {0, 1, 255, 256, 257, 512, N};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    scp_buf b = {0}, want = {0};
    scp_buf_puts(&b, "x");
    scp_buf_puts(&want, "x");
    scp_buf_put_hex(&b, in, sizes[s]);
    for (size_t i = 0; i < sizes[s]; i++) scp_buf_printf(&want, "%02x", in[i]);
    assert_int_equal(b.len, 1 + 2 * sizes[s]);
    assert_string_equal(b.data, want.data);
    scp_buf_free(&b);
    scp_buf_free(&want);
  }
  scp_buf b = {0};
  uint8_t ab[] = {0xab, 0x00, 0x0f};
  scp_buf_put_hex(&b, ab, 3);
  assert_string_equal(b.data, "ab000f");
  scp_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_base58),
      cmocka_unit_test(test_base58_keys),
      cmocka_unit_test(test_base64_hex),
      cmocka_unit_test(test_gzip_zstd),
      cmocka_unit_test(test_put_hex),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
