/*
 * test_sol_trunc.c — a profile of several program invocations says once
 * what the node budget merged (sol_trunc_note).  Three invocations run
 * under a budget of 2 nodes: ata (a CPI into token past its budget),
 * the token it invokes, and token again as the second instruction; a
 * memo instruction stays within its budget.  Each is built as sol_run.c
 * builds one (a tree, its profile, its own "call tree" note), the CPI
 * merged into ata's profile at its placeholder as sol_cpi.c does, then
 * grafted into a transaction.  Independent evidence: the calls and
 * markers scp_tree_truncated counts on each raw tree, summed; the
 * programs and invocations are those the test ran.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "profile/scp_prof.h"
#include "solana/sol_trunc.h"
#include "solana/sol_txprof.h"

enum { F = 7, G, H, INVOKE, PLACEHOLDER };

static int node_frame(void *c, const scp_tree_node *n, scp_frame_info *out) {
  static const char *const names[] = {"f", "g", "h", "sol_invoke_signed_rust", "[cpi #1]"};
  out->name = n->kind == SCP_KIND_ROOT ? c : names[n->callee - F];
  out->file = "";
  out->source = n->kind == SCP_KIND_ROOT || n->callee >= INVOKE ? SCP_SRC_HOST : SCP_SRC_SYMTAB;
  return SCP_OK;
}

static size_t pc_chain(void *c, uint32_t module, uint64_t pc, const scp_frame_info **chain) { return 0; }

static void cost(scp_tree *t, uint32_t id, uint64_t cu) {
  uint64_t c[SCP_MAX_METRICS] = {cu};
  assert_true(scp_tree_add_pc(t, id, 0x100 + 8 * id, c));
}

/* f under the root, then (past the budget of 2) g twice and h: a
 * [truncated] frame under f holding g (2 calls) and h (1); with cpi, an
 * invoke past the budget too, its placeholder under it (one more call
 * each) */
static void make_tree(scp_tree *t, uint64_t max_nodes, bool cpi) {
  assert_int_equal(scp_tree_init(t, 1), SCP_OK);
  t->max_nodes = max_nodes;
  cost(t, 0, 5);
  uint32_t f = scp_tree_enter(t, 0, 0x100, SCP_KIND_GUEST, 0, F);
  cost(t, f, 11);
  for (int i = 0; i < 2; i++) cost(t, scp_tree_enter(t, f, 0x108, SCP_KIND_GUEST, 0, G), 3);
  cost(t, scp_tree_enter(t, f, 0x110, SCP_KIND_GUEST, 0, H), 2);
  if (!cpi) return;
  uint32_t inv = scp_tree_enter(t, f, 0x118, SCP_KIND_HOST, 0, INVOKE);
  cost(t, inv, 1000);
  assert_int_not_equal(scp_tree_enter_child(t, inv, 0, SCP_KIND_CONTRACT, 0, PLACEHOLDER), SCP_NODE_NONE);
}

static void program(sol_progframe *pf, const char *owner, const char *id, const char *detail) {
  memset(pf, 0, sizeof *pf);
  snprintf(pf->name, sizeof pf->name, "program:%s %s", owner, detail);
  snprintf(pf->owner, sizeof pf->owner, "%s", owner);
  snprintf(pf->owner_id, sizeof pf->owner_id, "%s", id);
  snprintf(pf->detail, sizeof pf->detail, "%s", detail);
}

/* an invocation's profile as sol_run.c makes it: built, owned, noted */
static scp_profile *invocation(const scp_tree *t, const sol_progframe *pf) {
  scp_resolver r = {.node_frame = node_frame, .pc_chain = pc_chain, .ctx = (void *)pf->name};
  scp_metric m[1] = {{.name = "CU", .unit = "compute units"}};
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_prof_build(t, m, &r, &p, &err), SCP_OK);
  assert_int_equal(sol_txprof_own(p, pf), SCP_OK);
  assert_int_equal(scp_prof_meta(p, "source lines", "no DWARF"), SCP_OK);
  if (scp_tree_truncated(t).markers)
    assert_int_equal(scp_prof_meta(p, "call tree", "this invocation's own note"), SCP_OK);
  return p;
}

/* the CPI's profile where its placeholder is, as sol_cpi_graft does */
static void merge_cpi(scp_profile *p, const scp_profile *sub, const sol_progframe *pf) {
  uint32_t id = SCP_NODE_NONE, fr;
  for (uint32_t n = 0; n < p->nnodes; n++)
    if (!strcmp(scp_prof_str(p, p->frames[p->nodes[n].frame].name), "[cpi #1]")) id = n;
  assert_int_not_equal(id, SCP_NODE_NONE);
  assert_int_equal(sol_txprof_frame(p, pf, &fr), SCP_OK);
  p->nodes[id].frame = fr;
  assert_int_equal(sol_txprof_merge(p, id, sub), SCP_OK);
  assert_int_equal(sol_txprof_settle(p), SCP_OK);
}

static size_t notes(const scp_profile *p, const char *key, const char **value) {
  size_t n = 0;
  for (size_t i = 0; i < p->nmeta; i++) {
    if (strcmp(scp_prof_str(p, p->meta[i].key), key)) continue;
    if (!n++) *value = scp_prof_str(p, p->meta[i].value);
  }
  return n;
}

static void test_one_note_per_transaction(void **state) {
  scp_tree_opts shape = {.max_nodes = 2};
  scp_tree ta, tc, tb, tm;
  make_tree(&ta, 2, true);
  make_tree(&tc, 2, false);
  make_tree(&tb, 2, false);
  make_tree(&tm, 0, false);
  sol_progframe ata, token, token2, memo;
  program(&ata, "ata", "ATokenG", "Create");
  program(&token, "token", "Tokenkeg", "GetAccountDataSize");
  program(&token2, "token", "Tokenkeg", "Transfer");
  program(&memo, "memo", "Memo", "");
  scp_tree_trunc ra = scp_tree_truncated(&ta), rc = scp_tree_truncated(&tc), rb = scp_tree_truncated(&tb);
  /* the trees as worked out above: g 2 + h 1 (+ invoke 1 + placeholder 1) */
  assert_int_equal(ra.calls, 5);
  assert_int_equal(rc.calls, 3);
  assert_int_equal(ra.markers + rc.markers + rb.markers, 3);
  assert_int_equal(scp_tree_truncated(&tm).markers, 0);

  scp_profile *pa = invocation(&ta, &ata), *pc = invocation(&tc, &token), *pb = invocation(&tb, &token2),
              *pm = invocation(&tm, &memo);
  merge_cpi(pa, pc, &token);
  assert_int_equal(sol_trunc_note(pa, &shape), SCP_OK);
  const char *v = NULL;
  assert_int_equal(notes(pa, "call tree", &v), 1);
  assert_string_equal(v, "node budget of 2 reached in 2 program invocations (ata 1, token 1): 8 calls on paths "
                         "past it merged into 2 [truncated] frames (costs exact; raise --max-nodes to see them)");

  scp_profile *tx = NULL;
  uint32_t at;
  assert_int_equal(sol_txprof_new(200000, &tx), SCP_OK);
  assert_int_equal(sol_txprof_ix(tx, 1, NULL, &at), SCP_OK);
  assert_int_equal(sol_txprof_graft(tx, at, pa), SCP_OK);
  assert_int_equal(sol_txprof_ix(tx, 2, NULL, &at), SCP_OK);
  assert_int_equal(sol_txprof_graft(tx, at, pm), SCP_OK);
  assert_int_equal(sol_txprof_ix(tx, 3, NULL, &at), SCP_OK);
  assert_int_equal(sol_txprof_graft(tx, at, pb), SCP_OK);
  /* the grafts copied each instruction's note: two, one per instruction cut */
  assert_int_equal(notes(tx, "call tree", &v), 2);
  assert_int_equal(sol_trunc_note(tx, &shape), SCP_OK);
  assert_int_equal(notes(tx, "call tree", &v), 1);
  char want[300];
  snprintf(want, sizeof want,
           "node budget of 2 reached in 3 program invocations (ata 1, token 2): %llu calls on paths past it "
           "merged into %zu [truncated] frames (costs exact; raise --max-nodes to see them)",
           (unsigned long long)(ra.calls + rc.calls + rb.calls), ra.markers + rc.markers + rb.markers);
  assert_string_equal(v, want);
  assert_string_equal(v, "node budget of 2 reached in 3 program invocations (ata 1, token 2): 11 calls on paths "
                         "past it merged into 3 [truncated] frames (costs exact; raise --max-nodes to see them)");
  /* where the grafts put it: after the first "source lines" note, which stays */
  assert_string_equal(scp_prof_str(tx, tx->meta[0].key), "source lines");
  assert_string_equal(scp_prof_str(tx, tx->meta[1].key), "call tree");
  assert_int_equal(tx->nmeta, 2);
  scp_profile *each[] = {pa, pb, pc, pm, tx};
  for (size_t i = 0; i < 5; i++) scp_profile_destroy(each[i]);
  scp_tree *trees[] = {&ta, &tb, &tc, &tm};
  for (size_t i = 0; i < 4; i++) scp_tree_free(trees[i]);
}

/* no note, nothing done; one invocation said in the singular; the
 * default budget (shape's 0) said as 100,000 */
static void test_no_note_one_invocation(void **state) {
  scp_tree_opts shape = {0};
  scp_tree tm, tt;
  make_tree(&tm, 0, false);
  make_tree(&tt, 2, false);
  sol_progframe memo, token;
  program(&memo, "memo", "Memo", "");
  program(&token, "token", "Tokenkeg", "Transfer");
  scp_profile *pm = invocation(&tm, &memo), *pt = invocation(&tt, &token);
  assert_int_equal(sol_trunc_note(pm, &shape), SCP_OK);
  assert_int_equal(pm->nmeta, 1);
  assert_string_equal(scp_prof_str(pm, pm->meta[0].key), "source lines");
  assert_int_equal(sol_trunc_note(pt, &shape), SCP_OK);
  const char *v = NULL;
  assert_int_equal(notes(pt, "call tree", &v), 1);
  assert_string_equal(v, "node budget of 100,000 reached in 1 program invocation (token 1): 3 calls on paths "
                         "past it merged into 1 [truncated] frame (costs exact; raise --max-nodes to see them)");
  scp_profile_destroy(pm);
  scp_profile_destroy(pt);
  scp_tree_free(&tm);
  scp_tree_free(&tt);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_one_note_per_transaction),
    cmocka_unit_test(test_no_note_one_invocation),
  };
  return cmocka_run_group_tests_name("sol_trunc", tests, NULL, NULL);
}
