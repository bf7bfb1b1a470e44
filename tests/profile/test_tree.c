/*
 * test_tree.c — the raw calling-context tree's shape rules: the node
 * budget (flat [truncated] markers, the root's marker past 1.5 x the
 * budget, answers that never change for a key), recursion folding (direct,
 * indirect, not across a contract entry or a module), the per-pc side
 * table of metrics past the first, and the chunks counters and a node's
 * first per-pc entries come from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "profile/scp_tree.h"

#define G SCP_KIND_GUEST

static uint32_t enter(scp_tree *t, uint32_t parent, uint64_t callsite, uint32_t callee) {
  uint32_t id = scp_tree_enter(t, parent, callsite, G, 0, callee);
  assert_int_not_equal(id, SCP_NODE_NONE);
  return id;
}

static const scp_tree_node *at(scp_tree *t, uint32_t id) { return scp_tree_at(t, id); }

/* Budget 4: root and a chain a -> b -> c fill it.  A new path below c gets
 * a marker under c and one flat node per callee below it; past 6 nodes
 * (1.5 x 4) new callees go under the root's marker. */
static void test_budget_markers(void **state) {
  (void)state;
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 2), SCP_OK);
  t.max_nodes = 4;
  uint32_t a = enter(&t, 0, 0x10, 100), b = enter(&t, a, 0x20, 101), c = enter(&t, b, 0x30, 102);
  assert_int_equal(t.n, 4);
  uint32_t d = enter(&t, c, 0x40, 103);              /* past the budget */
  uint32_t mk = at(&t, d)->parent;
  assert_int_equal(at(&t, mk)->kind, SCP_KIND_TRUNCATED);
  assert_int_equal(at(&t, mk)->parent, c);
  assert_int_equal(at(&t, mk)->marker, mk);
  assert_int_equal(at(&t, d)->marker, mk);
  assert_int_equal(at(&t, d)->callee, 103);
  assert_int_equal(at(&t, d)->callsite, 0);
  assert_int_equal(t.n, 6);
  /* d calling itself (another call site): the same flat node */
  assert_int_equal(enter(&t, d, 0x44, 103), d);
  assert_int_equal(at(&t, d)->calls, 2);
  /* the same key again: the same answer; kept paths are still found */
  assert_int_equal(enter(&t, c, 0x40, 103), d);
  assert_int_equal(enter(&t, b, 0x30, 102), c);
  /* a new callee under the marker: past 1.5 x 4, the root's marker */
  uint32_t e = enter(&t, d, 0x48, 104);
  uint32_t rm = at(&t, e)->parent;
  assert_int_equal(rm, t.root_marker);
  assert_int_equal(at(&t, rm)->parent, 0);
  assert_int_equal(at(&t, rm)->kind, SCP_KIND_TRUNCATED);
  assert_int_equal(enter(&t, a, 0x14, 104), e);      /* another new path, same callee */
  assert_int_equal(enter(&t, d, 0x48, 104), e);
  assert_int_equal(t.n, 8);
  /* a host call from a flat node is flat too */
  uint32_t h = scp_tree_enter(&t, e, 0x50, SCP_KIND_HOST, 0, 7);
  assert_int_equal(at(&t, h)->parent, rm);
  assert_int_equal(at(&t, h)->kind, SCP_KIND_HOST);
  scp_tree_trunc tr = scp_tree_truncated(&t);
  assert_int_equal(tr.markers, 2);
  assert_int_equal(tr.calls, 3 + 3 + 1);             /* d: 3, e: 3, h: 1 */
  scp_tree_free(&t);
}

/* A marker made under the root (the root being the deepest kept
 * ancestor) is also the root's marker past 1.5 x the budget: one node,
 * and an answer given under it stays the answer. */
static void test_root_marker_is_one(void **state) {
  (void)state;
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  t.max_nodes = 4;
  uint32_t a = enter(&t, 0, 0x10, 100), b = enter(&t, a, 0x20, 101);
  enter(&t, b, 0x30, 102);
  uint32_t d = enter(&t, 0, 0x40, 103);              /* marker under the root, n = 6 */
  uint32_t mk = at(&t, d)->parent;
  assert_int_equal(at(&t, mk)->parent, 0);
  uint32_t e = enter(&t, a, 0x14, 104);              /* no room under a: the root's marker */
  assert_int_equal(at(&t, e)->parent, mk);
  assert_int_equal(t.root_marker, mk);
  assert_int_equal(enter(&t, 0, 0x40, 103), d);
  size_t markers = 0;
  for (uint32_t c = at(&t, 0)->first_child; c != SCP_NODE_NONE; c = at(&t, c)->next_sibling)
    markers += at(&t, c)->kind == SCP_KIND_TRUNCATED;
  assert_int_equal(markers, 1);
  scp_tree_free(&t);
}

/* Costs booked on merged nodes are still booked once: Σ self is what was
 * added, whatever the budget. */
static void test_budget_keeps_totals(void **state) {
  (void)state;
  for (size_t budget = 1; budget <= 64; budget *= 2) {
    scp_tree t;
    assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
    t.max_nodes = budget;
    uint64_t seed = 7, want = 0;
    for (int it = 0; it < 50; it++) {
      uint32_t node = 0;
      for (int depth = 0; depth < 20; depth++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t callee = (uint32_t)(seed >> 33) % 9;
        node = enter(&t, node, 8 * callee, callee);
        uint64_t cost[SCP_MAX_METRICS] = {callee + 1};
        assert_true(scp_tree_add_pc(&t, node, 8 * callee + 1, cost));
        want += callee + 1;
        assert_int_equal(at(&t, node)->callee, callee);
      }
    }
    assert_int_equal(scp_tree_total(&t, 0), want);
    /* 1.5 x the budget, the root's marker, and one node per callee */
    assert_true(t.n <= budget + budget / 2 + 1 + 9);
    scp_tree_free(&t);
  }
}

/* No budget (0): every path is kept. */
static void test_no_budget(void **state) {
  (void)state;
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  uint32_t node = 0;
  for (uint32_t i = 0; i < 1000; i++) node = enter(&t, node, i, i % 3);
  assert_int_equal(t.n, 1001);
  assert_int_equal(scp_tree_truncated(&t).markers, 0);
  scp_tree_free(&t);
}

/* fib-like direct recursion, even/odd indirect recursion, and the limits:
 * a contract entry (another invocation) and another module are not folded. */
static void test_fold_recursion(void **state) {
  (void)state;
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  t.fold_recursion = true;
  uint32_t run = enter(&t, 0, 0, 1);
  uint32_t fib = enter(&t, run, 0x10, 2);
  assert_int_equal(enter(&t, fib, 0x20, 2), fib);    /* fib(n - 1) */
  assert_int_equal(enter(&t, fib, 0x24, 2), fib);    /* fib(n - 2) */
  assert_int_equal(at(&t, fib)->calls, 3);
  uint32_t even = enter(&t, run, 0x14, 3), odd = enter(&t, even, 0x30, 4);
  assert_int_equal(enter(&t, odd, 0x40, 3), even);
  assert_int_equal(enter(&t, even, 0x30, 4), odd);
  assert_int_equal(t.n, 5);
  uint32_t k = scp_tree_enter(&t, odd, 0x44, SCP_KIND_CONTRACT, 1, 1);
  uint32_t inner = scp_tree_enter(&t, k, 0, G, 0, 3);
  assert_int_not_equal(inner, even);
  assert_int_equal(at(&t, inner)->parent, k);
  uint32_t other = scp_tree_enter(&t, even, 0x38, G, 1, 3);   /* module 1 */
  assert_int_equal(at(&t, other)->parent, even);
  scp_tree_free(&t);
}

/* Metrics past the first live in the side table, only where used. */
static void test_pc_side_table(void **state) {
  (void)state;
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 3), SCP_OK);
  uint32_t n = enter(&t, 0, 0, 1);
  uint64_t c1[SCP_MAX_METRICS] = {5, 0, 0}, c2[SCP_MAX_METRICS] = {1, 2, 0};
  assert_true(scp_tree_add_pc(&t, n, 0x100, c1));
  assert_true(scp_tree_add_pc(&t, n, 0x104, c1));
  const scp_tree_node *nd = at(&t, n);
  assert_int_equal(nd->npcs, 2);
  assert_int_equal(nd->pcs[0].more, 0);
  assert_int_equal(t.nmore, 0);
  assert_true(scp_tree_add_pc(&t, n, 0x100, c2));
  assert_int_equal(t.nmore, 1);
  assert_int_equal(scp_tree_pc_cost(&t, &nd->pcs[0], 0), 6);
  assert_int_equal(scp_tree_pc_cost(&t, &nd->pcs[0], 1), 2);
  assert_int_equal(scp_tree_pc_cost(&t, &nd->pcs[1], 1), 0);
  assert_true(scp_tree_pc_add(&t, n, 1, 2, 7));
  assert_true(scp_tree_pc_add(&t, n, 1, 0, 3));
  assert_int_equal(scp_tree_pc_cost(&t, &nd->pcs[1], 2), 7);
  assert_int_equal(scp_tree_pc_cost(&t, &nd->pcs[1], 0), 8);
  assert_int_equal(t.nmore, 2);
  assert_int_equal(nd->self[0], 11);                 /* pc_add leaves self to the caller */
  assert_int_equal(nd->self[1], 2);
  scp_tree_free(&t);
}

/* scp_tree_add_pcs gives what scp_tree_add_pc one pc at a time gives:
 * on a fresh node (the linear path), on one with entries already, and
 * for a metric past 0. */
static void test_add_pcs(void **state) {
  (void)state;
  static const uint64_t pcs[] = {0x108, 0x100, 0x200, 0x104}, amt[] = {3, 1, 7, 2};
  for (unsigned metric = 0; metric < 2; metric++)
    for (int pre = 0; pre < 2; pre++) {
      scp_tree a, b;
      assert_int_equal(scp_tree_init(&a, 2), SCP_OK);
      assert_int_equal(scp_tree_init(&b, 2), SCP_OK);
      uint32_t na = enter(&a, 0, 0, 1), nb = enter(&b, 0, 0, 1);
      uint64_t c[SCP_MAX_METRICS] = {0};
      if (pre) {
        c[0] = 9;
        assert_true(scp_tree_add_pc(&a, na, 0x200, c));
        assert_true(scp_tree_add_pc(&b, nb, 0x200, c));
        c[0] = 0;
      }
      for (int i = 0; i < 4; i++) {
        c[metric] = amt[i];
        assert_true(scp_tree_add_pc(&a, na, pcs[i], c));
      }
      assert_true(scp_tree_add_pcs(&b, nb, pcs, amt, 4, metric));
      const scp_tree_node *x = at(&a, na), *y = at(&b, nb);
      assert_int_equal(x->npcs, y->npcs);
      assert_int_equal(x->npcs, 4);   /* 0x200 once, also when it was there */
      assert_int_equal(x->self[0], y->self[0]);
      assert_int_equal(x->self[1], y->self[1]);
      for (uint32_t i = 0; i < x->npcs; i++) {
        assert_int_equal(x->pcs[i].pc, y->pcs[i].pc);
        for (unsigned m = 0; m < 2; m++)
          assert_int_equal(scp_tree_pc_cost(&a, &x->pcs[i], m), scp_tree_pc_cost(&b, &y->pcs[i], m));
      }
      scp_tree_free(&a);
      scp_tree_free(&b);
    }
}

/* Counters and a node's first per-pc entries come from the tree's
 * chunks: each node's counters are its own, zeroed, and stay put as more
 * nodes get theirs (a chunk's worth and more); a node's entries outgrow
 * their chunk room and keep every cost. */
static void test_arena(void **state) {
  (void)state;
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  uint32_t id[40];
  uint64_t *c[40];
  for (uint32_t i = 0; i < 40; i++) {
    id[i] = enter(&t, 0, 0x10 * (i + 1), 100 + i);
    c[i] = scp_tree_counters(&t, id[i], 100 * (i + 1));   /* 800 bytes to 32 KB */
    assert_non_null(c[i]);
    for (uint32_t k = 0; k < 100 * (i + 1); k++) assert_int_equal(c[i][k], 0);
    for (uint32_t k = 0; k < 100 * (i + 1); k++) c[i][k] = i + 1;
  }
  for (uint32_t i = 0; i < 40; i++) {
    assert_ptr_equal(scp_tree_counters(&t, id[i], 7), c[i]);   /* allocated once */
    for (uint32_t k = 0; k < 100 * (i + 1); k++) assert_int_equal(c[i][k], i + 1);
  }
  static const uint64_t pcs[3] = {0x30, 0x10, 0x20}, amount[3] = {3, 1, 2};
  assert_true(scp_tree_add_pcs(&t, id[0], pcs, amount, 3, 0));
  assert_true(t.nodes[id[0]].pcs_in_arena);
  uint64_t more[SCP_MAX_METRICS] = {5};
  for (uint64_t pc = 0x40; pc < 0x240; pc += 0x10) assert_true(scp_tree_add_pc(&t, id[0], pc, more));
  assert_true(scp_tree_add_pc(&t, id[0], 0x10, more));
  const scp_tree_node *n = &t.nodes[id[0]];
  assert_false(n->pcs_in_arena);
  assert_int_equal(n->npcs, 3 + 32);
  assert_int_equal(n->pcs[0].pc, 0x30);
  assert_int_equal(n->pcs[0].cost0, 3);
  assert_int_equal(n->pcs[1].cost0, 1 + 5);
  assert_int_equal(n->pcs[2].cost0, 2);
  assert_int_equal(n->pcs[34].pc, 0x230);
  assert_int_equal(n->self[0], 6 + 33 * 5);
  scp_tree_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_budget_markers),
    cmocka_unit_test(test_root_marker_is_one),
    cmocka_unit_test(test_budget_keeps_totals),
    cmocka_unit_test(test_no_budget),
    cmocka_unit_test(test_fold_recursion),
    cmocka_unit_test(test_pc_side_table),
    cmocka_unit_test(test_add_pcs),
    cmocka_unit_test(test_arena),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
