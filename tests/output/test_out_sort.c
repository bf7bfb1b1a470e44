/*
 * test_out_sort.c — scp_out_sort_ids (out_util.c: insertion sort for a
 * few elements, merges above) against the rule it stands for: a stable
 * sort, elements that compare equal keep their order.  The reference is
 * qsort on (key, position), a total order; arrays of every length from 0
 * to 70 with many equal keys.  Independent evidence.  scp_out_top_ids
 * (a report's top rows) against the first k of that sort.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "output/out_private.h"

/* ids compare by key[id] only: ties are left to the sort */
static int by_key(void *ctx, uint32_t a, uint32_t b) {
  const unsigned *key = ctx;
  return key[a] < key[b] ? -1 : key[a] > key[b];
}

typedef struct ref {
  unsigned key, pos;
  uint32_t id;
} ref;

static int ref_cmp(const void *x, const void *y) {
  const ref *a = x, *b = y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static void test_sort_stable(void **state) {
  (void)state;
  uint64_t seed = 7;
  for (unsigned n = 0; n <= 70; n++) {
    for (unsigned round = 0; round < 50; round++) {
      unsigned key[70];
      uint32_t ids[70];
      ref want[70];
      for (unsigned i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        key[i] = (unsigned)(seed >> 33) % (1 + round % 6);   /* few keys: many ties */
        ids[i] = n - 1 - i;                                  /* ids not in key order */
      }
      for (unsigned i = 0; i < n; i++) want[i] = (ref){.key = key[ids[i]], .pos = i, .id = ids[i]};
      qsort(want, n, sizeof *want, ref_cmp);
      assert_int_equal(scp_out_sort_ids(ids, n, by_key, key), SCP_OK);
      for (unsigned i = 0; i < n; i++) assert_int_equal(ids[i], want[i].id);
    }
  }
}

/* scp_out_top_ids: the first k ids of the stable sort (checked above),
 * for every k from 0 to past n and past SCP_OUT_TOP_PICKED (where it
 * sorts them all), with many ties and in every starting order the
 * seeds give (ascending keys: every id moves in) */
static void test_top_ids(void **state) {
  (void)state;
  uint64_t seed = 11;
  for (unsigned n = 0; n <= 100; n += n < 10 ? 1 : 9) {
    for (unsigned round = 0; round < 12; round++) {
      unsigned key[100];
      uint32_t all[100], ids[100];
      for (unsigned i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        key[i] = round == 0 ? i : round == 1 ? n - i : (unsigned)(seed >> 33) % (1 + round % 7);
        all[i] = (i * 37 + round) % n;   /* a permutation: 37 is prime to n < 100 but 37, 74 */
      }
      if (n == 37 || n == 74) for (unsigned i = 0; i < n; i++) all[i] = i;
      uint32_t sorted[100];
      memcpy(sorted, all, n * sizeof *all);
      assert_int_equal(scp_out_sort_ids(sorted, n, by_key, key), SCP_OK);
      for (size_t k = 0; k <= n + 2 || k <= SCP_OUT_TOP_PICKED + 1; k += k < 25 ? 1 : 20) {
        memcpy(ids, all, n * sizeof *all);
        size_t got = n;
        assert_int_equal(scp_out_top_ids(ids, &got, k, by_key, key), SCP_OK);
        assert_int_equal(got, k < n ? k : n);
        for (size_t i = 0; i < got; i++)
          if (ids[i] != sorted[i]) fail_msg("n %u round %u k %zu: [%zu] %u, not %u", n, round, k, i, ids[i], sorted[i]);
      }
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sort_stable),
      cmocka_unit_test(test_top_ids),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
