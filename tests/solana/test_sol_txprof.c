/*
 * test_sol_txprof.c — a transaction's profile taking an instruction's
 * string table whole (sol_txprof_graft_take) instead of interning each of
 * its strings again (sol_txprof_graft).  The instruction's profile is
 * built from one tree twice: seeded with the transaction profile's
 * strings (scp_resolver.seed) and taken, and unseeded and grafted; the
 * two transaction profiles read the same (every node's frame, owner,
 * costs and call site, every line and instruction row, by their strings:
 * the ids differ).  An unseeded profile given to sol_txprof_graft_take is
 * grafted as sol_txprof_graft does, id for id.  A transaction of two
 * instructions, each with a callee merged in (its rows no longer in node
 * order), reads the same node by node taken (the first one's rows taken
 * whole, the second one's copied) as grafted.  Independent evidence: the
 * graft that does not take the table is the reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "profile/scp_prof.h"
#include "solana/sol_txprof.h"

static int node_frame(void *c, const scp_tree_node *n, scp_frame_info *out) {
  out->name = n->kind == SCP_KIND_ROOT ? "program:token Transfer" : n->callee == 7 ? "f" : "g";
  out->file = "";
  out->source = n->kind == SCP_KIND_ROOT ? SCP_SRC_HOST : SCP_SRC_SYMTAB;
  return SCP_OK;
}

static const scp_frame_info F[1] = {{.name = "f", .file = ""}};
static const scp_frame_info G[1] = {{.name = "g", .file = ""}};

static size_t pc_chain(void *c, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  *chain = pc < 0x200 ? F : G;
  return 1;
}

static size_t pc_text(void *c, uint32_t module, uint64_t pc, char *buf, size_t size) {
  return (size_t)snprintf(buf, size, "op%u r1, 0x%x", (unsigned)(pc % 3), (unsigned)(pc / 8));
}

static void make_tree(scp_tree *t) {
  assert_int_equal(scp_tree_init(t, 1), SCP_OK);
  uint32_t f = scp_tree_enter(t, 0, 0x100, SCP_KIND_GUEST, 0, 7);
  uint32_t g = scp_tree_enter(t, f, 0x108, SCP_KIND_GUEST, 0, 8);
  for (uint64_t i = 0; i < 40; i++) {
    uint64_t c[SCP_MAX_METRICS] = {i + 1};
    assert_true(scp_tree_add_pc(t, f, 0x100 + 8 * (i % 13), c));
    assert_true(scp_tree_add_pc(t, g, 0x200 + 8 * (i % 7), c));
  }
}

/* the instruction's profile as sol_run.c makes it: built, then owned */
static scp_profile *ix_profile(const scp_tree *t, const scp_strtab *seed) {
  scp_resolver r = {.node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text, .seed = seed};
  scp_metric m[1] = {{.name = "CU", .unit = "compute units"}};
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_prof_build(t, m, &r, &p, &err), SCP_OK);
  sol_progframe pf = {.name = "program:token Transfer", .owner = "token", .owner_id = "Tokenkeg", .detail = "Transfer"};
  assert_int_equal(sol_txprof_own(p, &pf), SCP_OK);
  assert_int_equal(scp_prof_meta(p, "source lines", "program:token: no DWARF"), SCP_OK);
  return p;
}

static scp_profile *tx_profile(uint32_t *node) {
  scp_profile *p = NULL;
  assert_int_equal(sol_txprof_new(200000, &p), SCP_OK);
  assert_int_equal(sol_txprof_ix(p, 1, "transfer", node), SCP_OK);
  return p;
}

#define SAME_STR(a, x, b, y) assert_string_equal(scp_prof_str(a, x), scp_prof_str(b, y))

static void assert_reads_same(const scp_profile *a, const scp_profile *b) {
  assert_int_equal(a->nnodes, b->nnodes);
  assert_int_equal(a->nframes, b->nframes);
  for (size_t i = 0; i < a->nnodes; i++) {
    const scp_prof_node *x = &a->nodes[i], *y = &b->nodes[i];
    const scp_prof_frame *fx = &a->frames[x->frame], *fy = &b->frames[y->frame];
    assert_int_equal(x->frame, y->frame);
    SAME_STR(a, fx->name, b, fy->name);
    SAME_STR(a, fx->file, b, fy->file);
    SAME_STR(a, fx->owner, b, fy->owner);
    SAME_STR(a, fx->owner_id, b, fy->owner_id);
    SAME_STR(a, fx->detail, b, fy->detail);
    assert_int_equal(fx->kind, fy->kind);
    assert_int_equal(fx->source, fy->source);
    assert_int_equal(x->parent, y->parent);
    assert_int_equal(x->first_child, y->first_child);
    assert_int_equal(x->next_sibling, y->next_sibling);
    assert_int_equal(x->calls, y->calls);
    assert_int_equal(x->self[0], y->self[0]);
    assert_int_equal(x->call_line, y->call_line);
    SAME_STR(a, x->call_file, b, y->call_file);
    assert_int_equal(x->nlines, y->nlines);
    assert_int_equal(x->lines_first, y->lines_first);
    assert_int_equal(x->npcs, y->npcs);
    assert_int_equal(x->pcs_first, y->pcs_first);
  }
  assert_int_equal(a->nlines, b->nlines);
  for (size_t i = 0; i < a->nlines; i++) {
    SAME_STR(a, a->lines[i].file, b, b->lines[i].file);
    assert_int_equal(a->lines[i].line, b->lines[i].line);
    assert_int_equal(a->lines[i].cost[0], b->lines[i].cost[0]);
  }
  assert_int_equal(a->npcs, b->npcs);
  for (size_t i = 0; i < a->npcs; i++) {
    assert_int_equal(a->pcs[i].pc, b->pcs[i].pc);
    assert_int_equal(a->pcs[i].node, b->pcs[i].node);
    SAME_STR(a, a->pcs[i].text, b, b->pcs[i].text);
    assert_int_equal(a->pcs[i].cost[0], b->pcs[i].cost[0]);
  }
  assert_int_equal(a->nmeta, b->nmeta);
  for (size_t i = 0; i < a->nmeta; i++) {
    SAME_STR(a, a->meta[i].key, b, b->meta[i].key);
    SAME_STR(a, a->meta[i].value, b, b->meta[i].value);
  }
}

static void test_take_reads_as_graft(void **state) {
  scp_tree t;
  make_tree(&t);
  uint32_t n1, n2;
  scp_profile *want = tx_profile(&n2), *got = tx_profile(&n1);
  scp_profile *plain = ix_profile(&t, NULL), *seeded = ix_profile(&t, &got->strs);
  size_t had = got->strs.n, sub_n = seeded->strs.n;
  assert_int_equal(sol_txprof_graft(want, n2, plain), SCP_OK);
  assert_int_equal(sol_txprof_graft_take(got, n1, seeded), SCP_OK);
  /* taken: the transaction's table is the instruction's, and the
   * instruction is left with the transaction's old one */
  assert_int_equal(got->strs.n, sub_n);
  assert_int_equal(seeded->strs.n, had);
  assert_true(got->npcs > 10);
  assert_int_equal(sol_txprof_finish(want, scp_tree_total(&t, 0)), SCP_OK);
  assert_int_equal(sol_txprof_finish(got, scp_tree_total(&t, 0)), SCP_OK);
  assert_reads_same(got, want);
  scp_profile_destroy(plain);
  scp_profile_destroy(seeded);
  scp_profile_destroy(want);
  scp_profile_destroy(got);
  scp_tree_free(&t);
}

static void test_take_unseeded_is_graft(void **state) {
  scp_tree t;
  make_tree(&t);
  uint32_t n1, n2;
  scp_profile *want = tx_profile(&n2), *got = tx_profile(&n1);
  scp_profile *a = ix_profile(&t, NULL), *b = ix_profile(&t, NULL);
  size_t b_n = b->strs.n;
  assert_int_equal(sol_txprof_graft(want, n2, a), SCP_OK);
  assert_int_equal(sol_txprof_graft_take(got, n1, b), SCP_OK);
  assert_int_equal(b->strs.n, b_n);   /* not taken */
  assert_int_equal(got->strs.n, want->strs.n);
  for (uint32_t i = 0; i < got->strs.n; i++) assert_string_equal(scp_prof_str(got, i), scp_prof_str(want, i));
  assert_reads_same(got, want);
  for (size_t i = 0; i < got->npcs; i++) assert_int_equal(got->pcs[i].text, want->pcs[i].text);
  scp_profile_destroy(a);
  scp_profile_destroy(b);
  scp_profile_destroy(want);
  scp_profile_destroy(got);
  scp_tree_free(&t);
}

/* a and b read the same node by node: each node's lines and rows through
 * its own ranges, wherever they lie in the arrays */
static void assert_nodes_read_same(const scp_profile *a, const scp_profile *b) {
  assert_int_equal(a->nnodes, b->nnodes);
  for (size_t i = 0; i < a->nnodes; i++) {
    const scp_prof_node *x = &a->nodes[i], *y = &b->nodes[i];
    SAME_STR(a, a->frames[x->frame].name, b, b->frames[y->frame].name);
    SAME_STR(a, a->frames[x->frame].owner_id, b, b->frames[y->frame].owner_id);
    assert_int_equal(x->parent, y->parent);
    assert_int_equal(x->self[0], y->self[0]);
    assert_int_equal(x->total[0], y->total[0]);
    assert_int_equal(x->calls, y->calls);
    assert_int_equal(x->nlines, y->nlines);
    for (uint32_t k = 0; k < x->nlines; k++) {
      const scp_prof_line *l = &a->lines[x->lines_first + k], *m = &b->lines[y->lines_first + k];
      SAME_STR(a, l->file, b, m->file);
      assert_int_equal(l->cost[0], m->cost[0]);
    }
    assert_int_equal(x->npcs, y->npcs);
    for (uint32_t k = 0; k < x->npcs; k++) {
      const scp_prof_pc *r = &a->pcs[x->pcs_first + k], *q = &b->pcs[y->pcs_first + k];
      assert_int_equal(r->pc, q->pc);
      assert_int_equal(r->node, i);
      assert_int_equal(q->node, i);
      SAME_STR(a, r->text, b, q->text);
      assert_int_equal(r->cost[0], q->cost[0]);
    }
  }
  assert_int_equal(a->npcs, b->npcs);
  assert_int_equal(a->nlines, b->nlines);
}

/* the instruction's profile with a callee's merged in under f, as
 * sol_cpi_graft leaves it: its rows no longer in node order */
static scp_profile *ix_with_callee(const scp_tree *t, const scp_strtab *seed) {
  scp_profile *p = ix_profile(t, seed), *callee = ix_profile(t, NULL);
  sol_progframe pf = {.name = "program:callee", .owner = "callee", .owner_id = "Callee1"};
  uint32_t f = p->nodes[0].first_child, leaf;
  assert_int_equal(sol_txprof_leaf(p, f, &pf, 0), SCP_OK);
  leaf = (uint32_t)p->nnodes - 1;
  /* f's first child, before g (an invoke before f's other calls) */
  uint32_t g = p->nodes[f].first_child;
  assert_int_equal(p->nodes[g].next_sibling, leaf);
  p->nodes[g].next_sibling = SCP_NODE_NONE;
  p->nodes[leaf].next_sibling = g;
  p->nodes[f].first_child = leaf;
  assert_int_equal(sol_txprof_merge(p, leaf, callee), SCP_OK);
  assert_int_equal(sol_txprof_settle(p), SCP_OK);
  scp_profile_destroy(callee);
  return p;
}

/* a transaction of two instructions, each taken (the first one's rows
 * whole, the second's copied) or each grafted; the instructions' rows
 * out of node order (a callee merged in) */
static void test_take_two_instructions(void **state) {
  scp_tree t;
  make_tree(&t);
  uint32_t a1, a2, b1, b2;
  scp_profile *want = tx_profile(&a1), *got = tx_profile(&b1);
  scp_profile *w1 = ix_with_callee(&t, NULL), *g1 = ix_with_callee(&t, &got->strs);
  bool ordered = true;
  for (size_t i = 1; i < g1->npcs; i++) ordered &= g1->pcs[i - 1].node <= g1->pcs[i].node;
  assert_false(ordered);
  assert_int_equal(sol_txprof_graft(want, a1, w1), SCP_OK);
  assert_int_equal(sol_txprof_graft_take(got, b1, g1), SCP_OK);
  assert_int_equal(sol_txprof_ix(want, 2, NULL, &a2), SCP_OK);
  assert_int_equal(sol_txprof_ix(got, 2, NULL, &b2), SCP_OK);
  scp_profile *w2 = ix_with_callee(&t, NULL), *g2 = ix_with_callee(&t, &got->strs);
  size_t g2n = g2->strs.n;
  assert_int_equal(sol_txprof_graft(want, a2, w2), SCP_OK);
  assert_int_equal(sol_txprof_graft_take(got, b2, g2), SCP_OK);
  /* the first one's rows were taken, the second one's table */
  assert_int_equal(g1->npcs, 0);
  assert_int_equal(got->strs.n, g2n);
  assert_true(g2->npcs > 0);
  assert_int_equal(sol_txprof_finish(want, 4 * scp_tree_total(&t, 0)), SCP_OK);
  assert_int_equal(sol_txprof_finish(got, 4 * scp_tree_total(&t, 0)), SCP_OK);
  assert_nodes_read_same(got, want);
  scp_profile *ps[] = {w1, g1, w2, g2, want, got};
  for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) scp_profile_destroy(ps[i]);
  scp_tree_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_take_reads_as_graft),
    cmocka_unit_test(test_take_unseeded_is_graft),
    cmocka_unit_test(test_take_two_instructions),
  };
  return cmocka_run_group_tests_name("sol_txprof", tests, NULL, NULL);
}
