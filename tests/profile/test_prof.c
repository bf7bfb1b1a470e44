/*
 * test_prof.c — the profile's shared finishing steps: renumbering nodes in
 * preorder (siblings as linked or as a comparison sorts them, unreachable
 * nodes dropped, the old-to-new id map), inclusive totals and depths, and
 * the frame a resolver names itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "profile/scp_prof.h"

#define NONE SCP_NODE_NONE

/* A bare profile of n nodes, all unlinked; frame i for node i. */
static scp_profile *bare(size_t n) {
  scp_profile *p = calloc(1, sizeof *p);
  assert_non_null(p);
  p->nmetrics = 2;
  p->nodes = calloc(n, sizeof *p->nodes);
  assert_non_null(p->nodes);
  p->nnodes = p->capnodes = n;
  for (size_t i = 0; i < n; i++) {
    p->nodes[i].frame = (uint32_t)i;
    p->nodes[i].parent = p->nodes[i].first_child = p->nodes[i].next_sibling = NONE;
  }
  return p;
}

/* Link kids (in this order) under parent. */
static void link_kids(scp_profile *p, uint32_t parent, const uint32_t *kids, size_t n) {
  for (size_t i = n; i-- > 0;) {
    p->nodes[kids[i]].parent = parent;
    p->nodes[kids[i]].next_sibling = p->nodes[parent].first_child;
    p->nodes[parent].first_child = kids[i];
  }
}

static uint32_t kid(const scp_profile *p, uint32_t parent, unsigned k) {
  uint32_t c = p->nodes[parent].first_child;
  while (k-- && c != NONE) c = p->nodes[c].next_sibling;
  return c;
}

/* Root 0 -> [3, 1], 1 -> [2]; node 4 hangs nowhere. */
static scp_profile *sample(void) {
  scp_profile *p = bare(5);
  link_kids(p, 0, (const uint32_t[]){3, 1}, 2);
  link_kids(p, 1, (const uint32_t[]){2}, 1);
  return p;
}

static void test_preorder_link_order(void **state) {
  (void)state;
  scp_profile *p = sample();
  uint32_t *newid = NULL;
  assert_int_equal(scp_prof_preorder(p, NULL, &newid), SCP_OK);
  assert_non_null(newid);
  assert_int_equal(p->nnodes, 4);                      /* node 4 dropped */
  const uint32_t want_new[5] = {0, 2, 3, 1, NONE};
  for (int i = 0; i < 5; i++) assert_int_equal(newid[i], want_new[i]);
  const uint32_t want_frame[4] = {0, 3, 1, 2};
  for (int i = 0; i < 4; i++) assert_int_equal(p->nodes[i].frame, want_frame[i]);
  assert_int_equal(p->nodes[0].parent, NONE);
  assert_int_equal(kid(p, 0, 0), 1);
  assert_int_equal(kid(p, 0, 1), 2);
  assert_int_equal(kid(p, 0, 2), NONE);
  assert_int_equal(kid(p, 2, 0), 3);
  assert_int_equal(p->nodes[3].parent, 2);
  assert_int_equal(p->nodes[1].first_child, NONE);
  free(newid);
  scp_profile_destroy(p);
}

static int by_frame(const void *a, const void *b, void *ctx) {
  const scp_profile *p = ctx;
  uint32_t x = p->nodes[*(const uint32_t *)a].frame, y = p->nodes[*(const uint32_t *)b].frame;
  return x < y ? -1 : x > y;
}

static void test_preorder_sorted(void **state) {
  (void)state;
  scp_profile *p = sample();
  assert_int_equal(scp_prof_preorder(p, by_frame, NULL), SCP_OK);
  assert_int_equal(p->nnodes, 4);
  const uint32_t want_frame[4] = {0, 1, 2, 3};          /* 1 (and its 2) before 3 */
  for (int i = 0; i < 4; i++) assert_int_equal(p->nodes[i].frame, want_frame[i]);
  assert_int_equal(kid(p, 0, 0), 1);
  assert_int_equal(kid(p, 0, 1), 3);
  assert_int_equal(kid(p, 1, 0), 2);
  scp_profile_destroy(p);
}

static void test_totals_and_depths(void **state) {
  (void)state;
  scp_profile *p = sample();
  assert_int_equal(scp_prof_preorder(p, by_frame, NULL), SCP_OK);
  /* preorder now: 0 -> [1 -> [2], 3] */
  const uint64_t self[4][2] = {{1, 10}, {2, 20}, {4, 40}, {8, 80}};
  for (int i = 0; i < 4; i++) memcpy(p->nodes[i].self, self[i], sizeof self[i]);
  p->nodes[3].total[1] = 999;                          /* stale: overwritten */
  scp_prof_totals(p);
  assert_int_equal(p->nodes[0].total[0], 15);
  assert_int_equal(p->nodes[0].total[1], 150);
  assert_int_equal(p->nodes[1].total[0], 6);
  assert_int_equal(p->nodes[1].total[1], 60);
  assert_int_equal(p->nodes[3].total[1], 80);
  const uint32_t depth[4] = {0, 1, 2, 1};
  for (int i = 0; i < 4; i++) assert_int_equal(p->nodes[i].depth, depth[i]);
  scp_profile_destroy(p);
}

static void test_frame_printf(void **state) {
  (void)state;
  char buf[12];
  scp_frame_info fi = {0};
  assert_int_equal(scp_prof_frame_printf(&fi, buf, sizeof buf, SCP_SRC_RAW, "func[%u]", 42u), SCP_OK);
  assert_ptr_equal(fi.name, buf);
  assert_string_equal(fi.name, "func[42]");
  assert_int_equal(fi.source, SCP_SRC_RAW);
  scp_prof_frame_printf(&fi, buf, sizeof buf, SCP_SRC_HOST, "host:%s", "a_long_name");
  assert_string_equal(fi.name, "host:a_long");                 /* cut to fit */
  assert_int_equal(fi.source, SCP_SRC_HOST);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_preorder_link_order),
    cmocka_unit_test(test_preorder_sorted),
    cmocka_unit_test(test_totals_and_depths),
    cmocka_unit_test(test_frame_printf),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
