/*
 * test_sol_keycache.c — the per-thread caches of 32-byte keys:
 * scp_sol_key_str's texts, scp_sol_key_parse's keys and sol_is_on_curve's
 * answers.  Every key parsed, first time or again, must be the one
 * scp_b58_decode32 gives, and a text it refuses stays refused.  Every text it
 * gives, first time or again, must be the one scp_b58_encode makes of the
 * same key, and keys that differ, even in one byte or sharing a slot, must
 * keep their own texts; every curve answer must be scp_ed_valid's.  The
 * system program's and Token's ids are the public ones, and the all-zero
 * point (y = 0, x = sqrt(-1)) is on the curve (independent evidence); the
 * rest compares the caches with the uncached functions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "solana/scp_sol.h"
#include "crypto/crypto_ed25519.h"
#include "solana/sol_sys.h"
#include "util/scp_codec.h"

/* the all-zero key first: an empty slot is zeros too, and must not pass for it */
static void test_zero_key_first(void **state) {
  (void)state;
  uint8_t zero[32] = {0};
  char s[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(zero, s);
  assert_string_equal(s, "11111111111111111111111111111111");
  memset(s, 'x', sizeof s);
  scp_sol_key_str(zero, s);
  assert_string_equal(s, "11111111111111111111111111111111");
}

static void test_known_key(void **state) {
  (void)state;
  const char *token = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
  uint8_t k[32];
  assert_true(scp_sol_key_parse(token, strlen(token), k));
  for (int i = 0; i < 2; i++) {
    char s[SCP_SOL_B58_KEY_MAX];
    scp_sol_key_str(k, s);
    assert_string_equal(s, token);
  }
}

static void fill(uint8_t k[32], uint32_t seed) {
  uint32_t x = seed * 2654435761u + 1;
  for (int i = 0; i < 32; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    k[i] = (uint8_t)x;
  }
  /* a few with leading zero bytes (leading '1's) */
  if (seed % 7 == 0) k[0] = k[1] = 0;
}

/* 2,000 keys through 256 slots, twice: hits and evictions alike give the codec's text */
static void test_many_keys(void **state) {
  (void)state;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < 2000; i++) {
      uint8_t k[32];
      char want[SCP_SOL_B58_KEY_MAX], got[SCP_SOL_B58_KEY_MAX];
      fill(k, i % 3 ? i : i / 3);
      assert_true(scp_b58_encode(k, 32, want, sizeof want) > 0);
      scp_sol_key_str(k, got);
      assert_string_equal(got, want);
    }
}

/* keys one byte apart, each byte in turn: different texts, and the first again unchanged */
static void test_one_byte_apart(void **state) {
  (void)state;
  uint8_t a[32];
  fill(a, 12345);
  char sa[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(a, sa);
  for (int i = 0; i < 32; i++) {
    uint8_t b[32];
    memcpy(b, a, 32);
    b[i] ^= 1;
    char sb[SCP_SOL_B58_KEY_MAX], again[SCP_SOL_B58_KEY_MAX];
    scp_sol_key_str(b, sb);
    assert_string_not_equal(sa, sb);
    scp_sol_key_str(a, again);
    assert_string_equal(again, sa);
  }
}

/* 2,000 texts through the slots twice, each parsed as the codec parses it */
static void test_parse_many(void **state) {
  (void)state;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < 2000; i++) {
      uint8_t k[32], want[32], got[32];
      char text[SCP_SOL_B58_KEY_MAX];
      fill(k, i);
      assert_true(scp_b58_encode(k, 32, text, sizeof text) > 0);
      assert_true(scp_b58_decode32(text, strlen(text), want));
      memset(got, 0xee, sizeof got);
      assert_true(scp_sol_key_parse(text, strlen(text), got));
      assert_memory_equal(got, want, 32);
      assert_memory_equal(got, k, 32);
    }
}

/* refusals stay refusals, the second time too, and a kept text's
 * neighbour (one character changed, one shorter) is not taken for it */
static void test_parse_refused(void **state) {
  (void)state;
  const char *token = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
  uint8_t k[32], t[32];
  assert_true(scp_sol_key_parse(token, strlen(token), t));
  const char *bad[] = {"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0",   /* '0' is no digit */
                       "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", /* over 2^256 */
                       "", "1111111111111111111111111111111111111111111111"};
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) assert_false(scp_sol_key_parse(bad[i], strlen(bad[i]), k));
  char near[64];
  snprintf(near, sizeof near, "%s", token);
  near[10] = near[10] == 'Z' ? 'Y' : 'Z';
  uint8_t want[32];
  bool ok = scp_b58_decode32(near, strlen(near), want);
  assert_int_equal(scp_sol_key_parse(near, strlen(near), k), ok);
  if (ok) assert_memory_not_equal(k, t, 32);
  assert_int_equal(scp_sol_key_parse(token, strlen(token) - 1, k), scp_b58_decode32(token, strlen(token) - 1, want));
  assert_true(scp_sol_key_parse(token, strlen(token), k));
  assert_memory_equal(k, t, 32);
}

/* the all-zero point first: an empty slot is zeros and "off" too */
static void test_curve_zero_first(void **state) {
  (void)state;
  uint8_t zero[32] = {0};
  assert_true(sol_is_on_curve(zero));
  assert_true(sol_is_on_curve(zero));
}

/* 1,000 points (about half on the curve) through the slots twice */
static void test_curve_many(void **state) {
  (void)state;
  unsigned on = 0;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < 1000; i++) {
      uint8_t p[32];
      fill(p, i);
      bool want = scp_ed_valid(false, p);
      on += want;
      assert_int_equal(sol_is_on_curve(p), want);
    }
  assert_true(on > 600 && on < 1400);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_zero_key_first),
      cmocka_unit_test(test_known_key),
      cmocka_unit_test(test_many_keys),
      cmocka_unit_test(test_one_byte_apart),
      cmocka_unit_test(test_parse_many),
      cmocka_unit_test(test_parse_refused),
      cmocka_unit_test(test_curve_zero_first),
      cmocka_unit_test(test_curve_many),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
