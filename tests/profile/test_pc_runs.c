/*
 * test_pc_runs.c — per-pc run counts from the raw tree to the profile:
 * scp_tree_add_pc_runs adds them per pc and marks the tree; the profile
 * builder gives each instruction row the runs of its raw entries, summed
 * where several raw nodes (one function called from two call sites) become
 * one profile node.  Figures are the test's own (what goes in comes out).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "profile/scp_prof.h"

static int node_frame(void *ctx, const scp_tree_node *n, scp_frame_info *out) {
  out->name = n->kind == SCP_KIND_ROOT ? "root" : "f";
  out->file = "";
  out->source = SCP_SRC_RAW;
  return SCP_OK;
}

static size_t pc_chain(void *ctx, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  return 0;   /* no source lines: every pc gets an instruction row */
}

static size_t pc_text(void *ctx, uint32_t module, uint64_t pc, char *buf, size_t size) {
  return (size_t)snprintf(buf, size, "op@%llu", (unsigned long long)pc);
}

static void test_tree_runs(void **state) {
  scp_tree t;
  uint64_t cost[SCP_MAX_METRICS] = {8};
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  uint32_t a = scp_tree_enter(&t, 0, 0x100, SCP_KIND_GUEST, 0, 7);
  assert_true(scp_tree_add_pc_ahead(&t, a, 0x10, cost, 0));
  assert_false(t.pc_runs);   /* costs alone: nobody counted runs */
  assert_true(scp_tree_add_pc_runs(&t, a, 0x10, cost, 4, 1));
  assert_true(scp_tree_add_pc_runs(&t, a, 0x12, cost, 0, 0));
  assert_true(scp_tree_add_pc_runs(&t, a, 0x10, cost, 0, 2));
  assert_true(t.pc_runs);
  scp_tree_node *n = scp_tree_at(&t, a);
  assert_int_equal(n->npcs, 2);
  assert_int_equal(n->pcs[0].pc, 0x10);
  assert_int_equal(n->pcs[0].runs, 3);
  assert_int_equal(n->pcs[0].cost0, 24);
  assert_int_equal(n->pcs[0].ahead, 4);
  assert_int_equal(n->pcs[1].runs, 0);
  assert_int_equal(n->self[0], 32);
  scp_tree_free(&t);
}

static void test_profile_rows_runs(void **state) {
  scp_tree t;
  uint64_t cost[SCP_MAX_METRICS] = {4};
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  /* f called from two call sites: two raw nodes, one profile node */
  uint32_t a = scp_tree_enter(&t, 0, 0x100, SCP_KIND_GUEST, 0, 7);
  uint32_t b = scp_tree_enter(&t, 0, 0x200, SCP_KIND_GUEST, 0, 7);
  assert_int_not_equal(a, b);
  assert_true(scp_tree_add_pc_runs(&t, a, 0x10, cost, 0, 1));
  assert_true(scp_tree_add_pc_runs(&t, a, 0x12, cost, 0, 5));
  assert_true(scp_tree_add_pc_runs(&t, b, 0x12, cost, 0, 7));
  scp_resolver r = {.node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text};
  scp_metric m[1] = {{.name = "CPU", .unit = "instructions"}};
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_prof_build(&t, m, &r, &p, &err), SCP_OK);
  assert_true(p->pc_runs);
  assert_int_equal(p->npcs, 2);
  assert_int_equal(p->pcs[0].pc, 0x10);
  assert_int_equal(p->pcs[0].runs, 1);
  assert_int_equal(p->pcs[1].pc, 0x12);
  assert_int_equal(p->pcs[1].runs, 5 + 7);
  assert_int_equal(p->pcs[1].cost[0], 8);
  assert_string_equal(scp_prof_str(p, p->pcs[1].text), "op@18");
  scp_profile_destroy(p);
  scp_tree_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tree_runs),
    cmocka_unit_test(test_profile_rows_runs),
  };
  return cmocka_run_group_tests_name("profile_pc_runs", tests, NULL, NULL);
}
