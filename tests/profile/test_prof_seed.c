/*
 * test_prof_seed.c — what the builder does per executed pc and per build
 * to save work, checked against the rules it must keep:
 *   - a run of pcs that share an inline chain is booked once: the lines'
 *     and rows' costs below are worked out by hand from the tree (a
 *     chain through an inlined frame, one in the function itself, one
 *     without a file, no chain at all, interleaved);
 *   - a module the resolver says has no lines (scp_resolver.no_lines) is
 *     booked without asking pc_chain, as asking would book it;
 *   - a kept text's text-rule check is remembered in the memo across
 *     builds: texts the rule escapes and texts it keeps, built twice with
 *     one memo, equal a build that asks pc_text row by row (the first
 *     build string table and rows id by id, the second by their strings);
 *   - a seed (scp_resolver.seed) puts its strings first with their ids:
 *     seeded with the table of the same tree's unseeded build, the table
 *     and every row are that build's id for id; seeded with another
 *     table, its strings come first and the rest read the same.
 * The first and the last are independent evidence (hand sums, and a
 * build the seed or memo does not touch); none pins scprof's own output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "profile/scp_prof.h"
#include "prof_same.h"

static int node_frame(void *c, const scp_tree_node *n, scp_frame_info *out) {
  out->name = n->kind == SCP_KIND_ROOT ? "root" : "f";
  out->file = "";
  out->source = SCP_SRC_RAW;
  return SCP_OK;
}

/* 0x10, 0x20, 0x40: h inlined into f at a.c:7, running a.c:1; 0x30: f at
 * a.c:2; 0x70: f at a.c:3; 0x50: f, no file; 0x60: no chain */
static const scp_frame_info INL[2] = {{.name = "h", .file = "a.c", .line = 1, .inlined = 1},
                                      {.name = "f", .file = "a.c", .line = 7}};
static const scp_frame_info OWN[1] = {{.name = "f", .file = "a.c", .line = 2}};
static const scp_frame_info OWN3[1] = {{.name = "f", .file = "a.c", .line = 3}};
static const scp_frame_info NOFILE[1] = {{.name = "f", .file = ""}};

static size_t pc_chain(void *c, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  switch (pc) {
  case 0x10: case 0x20: case 0x40: *chain = INL; return 2;
  case 0x30: *chain = OWN; return 1;
  case 0x70: *chain = OWN3; return 1;
  case 0x50: *chain = NOFILE; return 1;
  default: return 0;
  }
}

static const char *const TEXTS[] = {"ok text", "bad\x01text", "also \x7f odd", "exit"};

static size_t pc_text(void *c, uint32_t module, uint64_t pc, char *buf, size_t size) {
  return (size_t)snprintf(buf, size, "%s", TEXTS[pc / 0x10 % 4]);
}

static const char *pc_text_key(void *c, uint32_t module, uint64_t pc, uint32_t *key) {
  *key = (uint32_t)(pc / 0x10 % 4);
  return TEXTS[*key];
}

static size_t no_chain(void *c, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  return 0;
}

static void make_tree(scp_tree *t, const uint64_t *pcs, const uint64_t *cost, size_t n) {
  assert_int_equal(scp_tree_init(t, 1), SCP_OK);
  uint32_t f = scp_tree_enter(t, 0, 0x100, SCP_KIND_GUEST, 0, 7);
  for (size_t i = 0; i < n; i++) {
    uint64_t c[SCP_MAX_METRICS] = {cost[i]};
    assert_true(scp_tree_add_pc(t, f, pcs[i], c));
  }
}

static uint64_t line_cost(const scp_profile *p, uint32_t node, const char *file, uint32_t line) {
  const scp_prof_node *n = &p->nodes[node];
  for (uint32_t i = 0; i < n->nlines; i++) {
    const scp_prof_line *l = &p->lines[n->lines_first + i];
    if (l->line == line && !strcmp(scp_prof_str(p, l->file), file)) return l->cost[0];
  }
  return UINT64_MAX;
}

static void test_chain_runs(void **state) {
  static const uint64_t pcs[] = {0x10, 0x20, 0x30, 0x70, 0x40, 0x50, 0x60, 0x20};
  static const uint64_t cost[] = {1, 2, 4, 128, 8, 16, 32, 64};
  scp_tree t;
  make_tree(&t, pcs, cost, 8);
  scp_resolver r = {.node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text};
  scp_profile *p = prof_build(&t, &r);
  uint32_t f = prof_child_named(p, 0, "f"), h = prof_child_named(p, f, "h");
  /* h at a.c:1: 0x10, 0x20 twice, 0x40 */
  assert_int_equal(p->nodes[h].nlines, 1);
  assert_int_equal(line_cost(p, h, "a.c", 1), 1 + 2 + 8 + 64);
  assert_int_equal(p->nodes[h].self[0], 75);
  assert_int_equal(p->nodes[h].call_line, 7);
  /* f: a.c:2 (0x30), a.c:3 (0x70, right after it), and no file (0x50, 0x60) */
  assert_int_equal(p->nodes[f].nlines, 3);
  assert_int_equal(line_cost(p, f, "a.c", 2), 4);
  assert_int_equal(line_cost(p, f, "a.c", 3), 128);
  assert_int_equal(line_cost(p, f, "", 0), 16 + 32);
  assert_int_equal(p->nodes[f].self[0], 180);
  assert_int_equal(p->nodes[f].total[0], 255);
  /* rows only where there is no file: f's 0x50 and 0x60, by pc */
  assert_int_equal(p->npcs, 2);
  assert_int_equal(p->nodes[f].npcs, 2);
  assert_int_equal(p->nodes[h].npcs, 0);
  const scp_prof_pc *a = &p->pcs[p->nodes[f].pcs_first];
  assert_int_equal(a[0].pc, 0x50);
  assert_int_equal(a[0].cost[0], 16);
  assert_string_equal(scp_prof_str(p, a[0].text), "bad\\x01text");
  assert_int_equal(a[1].pc, 0x60);
  assert_int_equal(a[1].cost[0], 32);
  assert_string_equal(scp_prof_str(p, a[1].text), "also \\x7F odd");
  /* every raw pc is linked to where it went */
  assert_int_equal(scp_prof_node_of_raw_pc(p, 1, 0x40), h);
  assert_int_equal(scp_prof_node_of_raw_pc(p, 1, 0x30), f);
  assert_int_equal(scp_prof_node_of_raw_pc(p, 1, 0x60), f);
  /* only the pcs that went elsewhere than f (to h) are linked one by one */
  assert_int_equal(p->nraw_pcs, 3);
  assert_true(scp_prof_check(p));
  scp_profile_destroy(p);
  scp_tree_free(&t);
}

static void test_memo_rule_known(void **state) {
  static const uint64_t pcs[] = {0x10, 0x20, 0x30, 0x40, 0x50, 0x60};
  static const uint64_t cost[] = {1, 2, 3, 4, 5, 6};
  scp_tree t;
  make_tree(&t, pcs, cost, 6);
  scp_prof_memo memo = {0};
  scp_resolver plain = {.node_frame = node_frame, .pc_chain = no_chain, .pc_text = pc_text};
  scp_resolver kept = plain;
  kept.pc_text_key = pc_text_key;
  kept.memo = &memo;
  scp_profile *want = prof_build(&t, &plain);
  for (int round = 0; round < 2; round++) {
    scp_profile *got = prof_build(&t, &kept);
    /* the first build interns as the plain one does, id for id; a later
     * one takes the memo's texts first */
    if (round == 0) prof_assert_same(got, want);
    prof_assert_reads_same(got, want);
    scp_profile_destroy(got);
    /* the first build knew the rule's answer for every text it met */
    assert_int_equal(memo.keys[0].safe, 1);
    assert_int_equal(memo.keys[1].safe, 2);
    assert_int_equal(memo.keys[2].safe, 2);
    assert_int_equal(memo.keys[3].safe, 1);
  }
  scp_profile_destroy(want);
  scp_prof_memo_free(&memo);
  assert_null(memo.keys);
  scp_tree_free(&t);
}

static void test_seed(void **state) {
  static const uint64_t pcs[] = {0x10, 0x30, 0x50, 0x60, 0x20};
  static const uint64_t cost[] = {5, 6, 7, 8, 9};
  scp_tree t;
  make_tree(&t, pcs, cost, 5);
  scp_resolver r = {.node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text};
  scp_profile *want = prof_build(&t, &r);
  /* its own table: nothing new, every id the same */
  r.seed = &want->strs;
  scp_profile *again = prof_build(&t, &r);
  prof_assert_same(again, want);
  /* another table: its strings first, then the build's, reading the same */
  scp_strtab other = {0};
  assert_int_equal(scp_strtab_intern(&other, "transaction"), 1);
  assert_int_equal(scp_strtab_intern(&other, "a.c"), 2);
  assert_int_equal(scp_strtab_intern(&other, "instruction #1"), 3);
  r.seed = &other;
  scp_profile *got = prof_build(&t, &r);
  for (uint32_t i = 0; i < other.n; i++) assert_string_equal(scp_prof_str(got, i), scp_strtab_get(&other, i));
  assert_int_equal(got->strs.n, want->strs.n + 2);   /* "a.c" was in both */
  assert_int_equal(got->nnodes, want->nnodes);
  assert_int_equal(got->nlines, want->nlines);
  for (size_t i = 0; i < got->nlines; i++) {
    assert_string_equal(scp_prof_str(got, got->lines[i].file), scp_prof_str(want, want->lines[i].file));
    assert_int_equal(got->lines[i].cost[0], want->lines[i].cost[0]);
  }
  assert_int_equal(got->npcs, want->npcs);
  for (size_t i = 0; i < got->npcs; i++)
    assert_string_equal(scp_prof_str(got, got->pcs[i].text), scp_prof_str(want, want->pcs[i].text));
  scp_profile_destroy(got);
  scp_profile_destroy(again);
  scp_profile_destroy(want);
  scp_strtab_free(&other);
  scp_tree_free(&t);
}

/* one frame without a file for pcs below 0x40, none above: no lines */
static size_t flat_chain(void *c, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  if (pc >= 0x40) return 0;
  *chain = NOFILE;
  return 1;
}

static bool no_lines(void *c, uint32_t module) { return true; }

static void test_no_lines(void **state) {
  static const uint64_t pcs[] = {0x30, 0x10, 0x50, 0x20, 0x60, 0x10};
  static const uint64_t cost[] = {1, 2, 4, 8, 16, 32};
  scp_tree t;
  make_tree(&t, pcs, cost, 6);
  scp_resolver asked = {.node_frame = node_frame, .pc_chain = flat_chain, .pc_text = pc_text};
  scp_resolver told = asked;
  told.no_lines = no_lines;
  scp_profile *want = prof_build(&t, &asked), *got = prof_build(&t, &told);
  prof_assert_same(got, want);
  uint32_t f = prof_child_named(got, 0, "f");
  assert_int_equal(got->nodes[f].nlines, 1);
  assert_int_equal(line_cost(got, f, "", 0), 63);
  assert_int_equal(got->nodes[f].npcs, 5);   /* 0x10 twice: one row */
  assert_int_equal(got->pcs[got->nodes[f].pcs_first].cost[0], 34);
  for (size_t i = 0; i < sizeof pcs / sizeof *pcs; i++)
    assert_int_equal(scp_prof_node_of_raw_pc(got, 1, pcs[i]), scp_prof_node_of_raw_pc(want, 1, pcs[i]));
  assert_int_equal(scp_prof_node_of_raw_pc(got, 1, 0x10), f);
  scp_profile_destroy(want);
  scp_profile_destroy(got);
  scp_tree_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_chain_runs),
    cmocka_unit_test(test_memo_rule_known),
    cmocka_unit_test(test_seed),
    cmocka_unit_test(test_no_lines),
  };
  return cmocka_run_group_tests_name("profile_seed", tests, NULL, NULL);
}
