/*
 * test_prof_rows.c — the instruction rows of modules without source lines
 * (scp_resolver.no_lines), which the builder makes at the end in their
 * final order rather than row by row:
 *   - rows of two raw nodes merged into one frame, each out of pc order
 *     and sharing pcs, come out by pc, a shared pc's costs and runs
 *     summed: the sums are worked out by hand from the tree;
 *   - whatever the order raw nodes of a module with lines and of modules
 *     without come in, every node has the rows, texts, costs and runs a
 *     build that asks pc_chain for every pc gives (the same rule applied
 *     pc by pc, compared by text, since the two tables intern texts in
 *     another order);
 *   - with the memo, each pc's text is asked once while the memo lives.
 * The hand sums and the asked builds are independent evidence; nothing
 * here pins scprof's own output.
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

/* callee 7 "f" and 8 "g" in module 1 (no lines), callee 9 "h" in
 * module 0 (lines for pcs below 0x800, none from there) */
static int node_frame(void *c, const scp_tree_node *n, scp_frame_info *out) {
  out->name = n->kind == SCP_KIND_ROOT ? "root" : n->callee == 7 ? "f" : n->callee == 8 ? "g" : "h";
  out->file = "";
  out->source = SCP_SRC_RAW;
  return SCP_OK;
}

static const scp_frame_info OWN[1] = {{.name = "h", .file = "h.c", .line = 4}};
static const scp_frame_info NOFILE[1] = {{.name = "h", .file = ""}};

static size_t pc_chain(void *c, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  if (module != 0) return 0;
  *chain = pc < 0x800 ? OWN : NOFILE;
  return 1;
}

static bool no_lines(void *c, uint32_t module) { return module != 0; }

static size_t pc_text(void *c, uint32_t module, uint64_t pc, char *buf, size_t size) {
  return (size_t)snprintf(buf, size, "m%u op %llx", module, (unsigned long long)(pc / 8));
}

static const char *TEXTS[64];
static char TEXTBUF[64][32];
static unsigned asked;

/* the same texts, kept: key = the text's slot */
static const char *pc_text_key(void *c, uint32_t module, uint64_t pc, uint32_t *key) {
  asked++;
  *key = (uint32_t)((pc / 8) % 32 + 32 * module) % 64;
  if (!TEXTS[*key]) {
    pc_text(c, module, pc, TEXTBUF[*key], sizeof TEXTBUF[*key]);
    TEXTS[*key] = TEXTBUF[*key];
  }
  return TEXTS[*key];
}

/* pcs[i] costing cost[i] (runs i + 1) on node id */
static void add(scp_tree *t, uint32_t id, const uint64_t *pcs, const uint64_t *cost, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint64_t c[SCP_MAX_METRICS] = {cost[i]};
    assert_true(scp_tree_add_pc_runs(t, id, pcs[i], c, 0, i + 1));
  }
}

/* a and b alike node by node, rows compared by text (ids may differ) */
static void assert_same_rows(const scp_profile *a, const scp_profile *b) {
  assert_int_equal(a->nnodes, b->nnodes);
  for (size_t i = 0; i < a->nnodes; i++) {
    const scp_prof_node *x = &a->nodes[i], *y = &b->nodes[i];
    assert_string_equal(scp_prof_str(a, a->frames[x->frame].name), scp_prof_str(b, b->frames[y->frame].name));
    assert_int_equal(x->self[0], y->self[0]);
    assert_int_equal(x->npcs, y->npcs);
    for (uint32_t j = 0; j < x->npcs; j++) {
      const scp_prof_pc *r = &a->pcs[x->pcs_first + j], *s = &b->pcs[y->pcs_first + j];
      assert_int_equal(r->pc, s->pc);
      assert_int_equal(r->node, i);
      assert_int_equal(s->node, i);
      assert_int_equal(r->cost[0], s->cost[0]);
      assert_int_equal(r->runs, s->runs);
      assert_string_equal(scp_prof_str(a, r->text), scp_prof_str(b, s->text));
    }
    assert_int_equal(x->nlines, y->nlines);
    for (uint32_t j = 0; j < x->nlines; j++) {
      const scp_prof_line *l = &a->lines[x->lines_first + j], *m = &b->lines[y->lines_first + j];
      assert_string_equal(scp_prof_str(a, l->file), scp_prof_str(b, m->file));
      assert_int_equal(l->line, m->line);
      assert_int_equal(l->cost[0], m->cost[0]);
    }
  }
  assert_int_equal(a->npcs, b->npcs);
  assert_true(scp_prof_check(a));
}

static void test_merged_raw_nodes(void **state) {
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  uint32_t f1 = scp_tree_enter(&t, 0, 0x100, SCP_KIND_GUEST, 1, 7);
  uint32_t f2 = scp_tree_enter(&t, 0, 0x200, SCP_KIND_GUEST, 1, 7);
  uint32_t g = scp_tree_enter(&t, f1, 0x18, SCP_KIND_GUEST, 1, 8);
  add(&t, f1, (const uint64_t[]){0x30, 0x10, 0x18}, (const uint64_t[]){1, 2, 4}, 3);
  add(&t, f2, (const uint64_t[]){0x18, 0x40, 0x10}, (const uint64_t[]){8, 16, 32}, 3);
  add(&t, g, (const uint64_t[]){0x50}, (const uint64_t[]){64}, 1);
  scp_resolver asked_r = {.node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text};
  scp_resolver told = asked_r;
  told.no_lines = no_lines;
  scp_profile *want = prof_build(&t, &asked_r), *got = prof_build(&t, &told);
  assert_same_rows(got, want);
  /* f: 0x10 = 2 + 32 (runs 2 + 3), 0x18 = 4 + 8 (runs 3 + 1), 0x30, 0x40 */
  uint32_t f = prof_child_named(got, 0, "f");
  const scp_prof_pc *r = &got->pcs[got->nodes[f].pcs_first];
  assert_int_equal(got->nodes[f].npcs, 4);
  static const uint64_t pc[4] = {0x10, 0x18, 0x30, 0x40}, cost[4] = {34, 12, 1, 16}, runs[4] = {5, 4, 1, 2};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(r[i].pc, pc[i]);
    assert_int_equal(r[i].cost[0], cost[i]);
    assert_int_equal(r[i].runs, runs[i]);
  }
  assert_string_equal(scp_prof_str(got, r[0].text), "m1 op 2");
  assert_int_equal(got->nodes[prof_child_named(got, f, "g")].npcs, 1);
  scp_profile_destroy(want);
  scp_profile_destroy(got);
  scp_tree_free(&t);
}

/* raw nodes of both kinds of module, in the order kinds[] gives (f: no
 * lines, h: lines), each under the root at its own call site */
static void mixed(const char *kinds, bool memo_on) {
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  for (size_t i = 0; kinds[i]; i++) {
    bool lines = kinds[i] == 'h';
    uint32_t id = scp_tree_enter(&t, 0, 0x100 * (i + 1), SCP_KIND_GUEST, lines ? 0 : 1, lines ? 9 : 7);
    uint64_t base = lines ? 0x7f0 : 0x10;   /* h: one pc with a line, two without */
    add(&t, id, (const uint64_t[]){base + 16, base, base + 8 * (i % 3)}, (const uint64_t[]){i + 1, 10, 100}, 3);
  }
  scp_prof_memo memo = {0};
  scp_resolver asked_r = {.node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text};
  scp_resolver told = asked_r;
  told.no_lines = no_lines;
  if (memo_on) {
    told.pc_text_key = pc_text_key;
    told.memo = &memo;
  }
  scp_profile *want = prof_build(&t, &asked_r);
  for (int round = 0; round < 2; round++) {
    scp_profile *got = prof_build(&t, &told);
    assert_same_rows(got, want);
    scp_profile_destroy(got);
  }
  scp_profile_destroy(want);
  scp_prof_memo_free(&memo);
  scp_tree_free(&t);
}

static void test_mixed_modules(void **state) {
  static const char *const orders[] = {"fhf", "hf", "fh", "hhff", "ffhh", "f", "h"};
  for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
    mixed(orders[i], false);
    mixed(orders[i], true);
  }
}

static void test_memo_asks_once(void **state) {
  asked = 0;
  mixed("ff", true);
  /* two builds of one tree; the two raw nodes' pcs are 0x10, 0x18, 0x20 */
  assert_int_equal(asked, 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_merged_raw_nodes),
    cmocka_unit_test(test_mixed_modules),
    cmocka_unit_test(test_memo_asks_once),
  };
  return cmocka_run_group_tests_name("profile_rows", tests, NULL, NULL);
}
