/*
 * test_prof_memo.c — a resolver's kept texts (scp_resolver.pc_text_key
 * with a memo) give every profile the same rows as asking pc_text row by
 * row: the same texts, in each of several profiles built one after the
 * other with one memo (ids differ between those profiles; a stale id
 * would show a wrong text), two pcs of one text one id, each pc asked
 * once while the memo lives, each distinct text kept once in the memo's
 * mirror that later builds take at their start, and a generation counter
 * that wraps.  Independent evidence: each profile is compared with one
 * built by the same tree without the memo, node by node and row by row,
 * by their strings.
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

/* pc -> text: pcs 0x10 and 0x30 say the same; key = the text's index */
static const char *const TEXTS[] = {"mov r1, r2", "add r1, 1", "exit"};
static unsigned text_of(uint64_t pc) { return pc == 0x30 ? 0 : (unsigned)(pc / 0x10 - 1) % 3; }

typedef struct ctx {
  unsigned asked;   /* pc_text_key calls */
} ctx;

static int node_frame(void *c, const scp_tree_node *n, scp_frame_info *out) {
  out->name = n->kind == SCP_KIND_ROOT ? "root" : n->callee == 7 ? "f" : "g";
  out->file = "";
  out->source = SCP_SRC_RAW;
  return SCP_OK;
}

static size_t pc_chain(void *c, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  return 0;
}

static size_t pc_text(void *c, uint32_t module, uint64_t pc, char *buf, size_t size) {
  return (size_t)snprintf(buf, size, "%s", TEXTS[text_of(pc)]);
}

static const char *pc_text_key(void *c, uint32_t module, uint64_t pc, uint32_t *key) {
  ((ctx *)c)->asked++;
  *key = text_of(pc);
  return TEXTS[*key];
}

/* a tree of f then g; order says which pcs come first, so that the texts
 * are interned in another order from one tree to the next */
static void make_tree(scp_tree *t, const uint64_t *pcs, size_t n) {
  uint64_t cost[SCP_MAX_METRICS] = {3};
  assert_int_equal(scp_tree_init(t, 1), SCP_OK);
  uint32_t f = scp_tree_enter(t, 0, 0x100, SCP_KIND_GUEST, 0, 7);
  uint32_t g = scp_tree_enter(t, 0, 0x200, SCP_KIND_GUEST, 0, 8);
  for (size_t i = 0; i < n; i++) assert_true(scp_tree_add_pc(t, i % 2 ? g : f, pcs[i], cost));
}

static void test_memo_matches_rows(void **state) {
  static const uint64_t order[3][4] = {{0x10, 0x20, 0x30, 0x40}, {0x40, 0x30, 0x20, 0x10}, {0x20, 0x40, 0x10, 0x30}};
  ctx c = {0};
  scp_prof_memo memo = {0};
  scp_resolver plain = {.ctx = &c, .node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text};
  scp_resolver kept = plain;
  kept.pc_text_key = pc_text_key;
  kept.memo = &memo;
  for (int round = 0; round < 2; round++) {
    /* the second round starts where the generation wraps */
    if (round) memo.gen = UINT32_MAX - 1;
    for (int k = 0; k < 3; k++) {
      scp_tree t;
      make_tree(&t, order[k], 4);
      scp_profile *want = prof_build(&t, &plain);
      scp_profile *got = prof_build(&t, &kept);
      prof_assert_reads_same(got, want);
      /* 0x10 and 0x30 (both in f, or one each in f and g) share a text and an id */
      uint32_t id10 = UINT32_MAX, id30 = UINT32_MAX;
      for (size_t i = 0; i < got->npcs; i++) {
        if (got->pcs[i].pc == 0x10) id10 = got->pcs[i].text;
        if (got->pcs[i].pc == 0x30) id30 = got->pcs[i].text;
      }
      assert_int_not_equal(id10, UINT32_MAX);
      assert_int_equal(id10, id30);
      assert_string_equal(scp_prof_str(got, id10), "mov r1, r2");
      scp_profile_destroy(want);
      scp_profile_destroy(got);
      scp_tree_free(&t);
    }
  }
  assert_int_equal(c.asked, 4);   /* each pc asked for its key once while the memo lives */
  assert_int_equal(memo.ntexts, 2);   /* 0x10, 0x30 and 0x40 share theirs */
  assert_true(memo.gen >= 1 && memo.gen <= 3);   /* wrapped, restarted at 1 */
  scp_prof_memo_free(&memo);
  assert_null(memo.keys);
  assert_null(memo.pcs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_memo_matches_rows),
  };
  return cmocka_run_group_tests_name("profile_memo", tests, NULL, NULL);
}
