/*
 * test_sbpf_ctrs.c — the block counters a VM hands its guest nodes
 * (sbpf_ctrs.c), against what they promise: a node asked again with the
 * same number of blocks gets the same counters, with another number none;
 * counters are zero when handed out, distinct nodes' never overlap, and
 * after a reset the same memory serves again (zeroed by the reset when
 * told to clear, as settling leaves it otherwise).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sbpf/sbpf_private.h"

static bool all_zero(const uint64_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return false;
  return true;
}

static void test_same_node_same_counters(void **state) {
  (void)state;
  sbpf_ctrs c = {0};
  uint64_t *a = sbpf_ctrs_get(&c, 3, 10, 5);
  assert_non_null(a);
  assert_true(all_zero(a, 5));
  a[4] = 9;
  assert_ptr_equal(sbpf_ctrs_get(&c, 3, 10, 5), a);
  /* another block count for the same node is refused */
  assert_null(sbpf_ctrs_get(&c, 3, 10, 6));
  uint64_t *b = sbpf_ctrs_get(&c, 700, 0, 2);
  assert_non_null(b);
  /* b lies outside a's five entries */
  assert_true(b + 2 <= a || b >= a + 5);
  assert_int_equal(c.n, 2);
  assert_int_equal(c.entries[0].node, 3);
  assert_int_equal(c.entries[0].fb, 10);
  assert_int_equal(c.entries[0].fnb, 5);
  assert_int_equal(c.entries[1].node, 700);
  sbpf_ctrs_free(&c);
}

static void test_reset_reuses_zeroed(void **state) {
  (void)state;
  sbpf_ctrs c = {0};
  uint64_t *a = sbpf_ctrs_get(&c, 1, 0, 8);
  uint64_t *b = sbpf_ctrs_get(&c, 2, 8, 8);
  a[0] = 1;
  b[7] = 2;
  sbpf_ctrs_reset(&c, true);
  assert_int_equal(c.n, 0);
  /* the nodes are forgotten: node 2 now gets the first counters, zero */
  uint64_t *b2 = sbpf_ctrs_get(&c, 2, 8, 8);
  assert_ptr_equal(b2, a);
  assert_true(all_zero(b2, 8));
  uint64_t *a2 = sbpf_ctrs_get(&c, 1, 0, 8);
  assert_ptr_equal(a2, b);
  assert_true(all_zero(a2, 8));
  assert_int_equal(c.nchunk, 1);
  sbpf_ctrs_free(&c);
}

/* A function bigger than a chunk gets one its size; a node that does not
 * fit in the rest of a chunk starts the next. */
static void test_chunks(void **state) {
  (void)state;
  sbpf_ctrs c = {0};
  uint64_t *a = sbpf_ctrs_get(&c, 0, 0, SBPF_CTR_CHUNK - 1);
  uint64_t *b = sbpf_ctrs_get(&c, 1, 0, 2);
  uint64_t *big = sbpf_ctrs_get(&c, 2, 0, 3 * SBPF_CTR_CHUNK);
  assert_non_null(a);
  assert_non_null(b);
  assert_non_null(big);
  assert_int_equal(c.nchunk, 3);
  assert_ptr_equal(b, c.chunk[1].p);
  assert_ptr_equal(big, c.chunk[2].p);
  assert_int_equal(c.chunk[2].n, 3 * SBPF_CTR_CHUNK);
  assert_true(all_zero(big, 3 * SBPF_CTR_CHUNK));
  sbpf_ctrs_reset(&c, false);
  /* the same sizes again take the same places, no new chunk */
  assert_ptr_equal(sbpf_ctrs_get(&c, 5, 0, SBPF_CTR_CHUNK - 1), a);
  assert_ptr_equal(sbpf_ctrs_get(&c, 6, 0, 2), b);
  assert_ptr_equal(sbpf_ctrs_get(&c, 7, 0, 3 * SBPF_CTR_CHUNK), big);
  assert_int_equal(c.nchunk, 3);
  sbpf_ctrs_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_node_same_counters),
      cmocka_unit_test(test_reset_reuses_zeroed),
      cmocka_unit_test(test_chunks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
