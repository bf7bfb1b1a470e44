/*
 * test_calls.c — the WASM engine's call and return paths, on
 * tests/fixtures/wat/calls.wat, in both dispatch builds.
 *
 * Independent evidence: results worked out from the module's code, fuel
 * from the wasmi 0.31 rules written at the head of test_fuel.c (a call or
 * call_indirect 67 in the caller's region; a function entry 1 + (params +
 * locals) / 8; a region is charged whole on entry or not at all), call
 * counts of calling-context nodes from the calls the code makes, and the
 * DESIGN.md invariant that settled CPU is 4 x fuel.  Regression pins of
 * scprof's own choices: the trap backtrace's pcs (the code-section offsets
 * of the operators, read from the binary here), and that a callee whose
 * entry region found no fuel still has its node, entered once, costing 0.
 *
 * What breaks them (each checked by a mutation of wasm_interp.c or
 * wasm_instance.c): zeroing one local fewer, a call found in its frame
 * slot without comparing the call instruction, the caller's node or the
 * callee, the slot's counters taken for the callee's, a slot kept across
 * a new tree, the entry region counted or charged when it does not fit,
 * a trapping function's index derived wrongly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "wasm/scp_wasm.h"
#include "profile/scp_tree.h"
#include "util/scp_util.h"
#include "build_dir.h"

#define BIG_FUEL 1000000000000ULL

/* function indices in calls.wat (the import $h is 0) */
enum { F_H, F_INC, F_DBL, F_DIRTY, F_L1, F_L4, F_P5, F_L9, F_ZEROED, F_ALT, F_SITES, F_REC,
       F_MIX, F_BOOM, F_TRAP_IN, F_TRAP_AFTER, F_BAD_IND, F_WRAP, F_NEST, F_DEEP };

/* both dispatch builds must give identical results */
static bool use_switch;

typedef struct calls_mod {
  scp_wasm_module *m;
  scp_wasm_instance *inst;
  uint8_t *bin;
  size_t len;
  unsigned host_calls;
  bool host_fails;
} calls_mod;

/* $h: its argument plus one, or a failure when asked */
static int host_call(void *ctx, scp_wasm_instance *inst, uint32_t import_index,
                     uint64_t *args, scp_error *err) {
  calls_mod *cm = ctx;
  cm->host_calls++;
  if (cm->host_fails) return scp_fail(err, SCP_ERR_HOST, "host refused");
  args[0] = (uint32_t)(args[0] + 1);
  return SCP_OK;
}

static void cm_open(calls_mod *cm) {
  memset(cm, 0, sizeof *cm);
  scp_error err = {0};
  const char *path = build_path("tests/fixtures/wat/calls.wasm");
  assert_int_equal(scp_read_file(path, &cm->bin, &cm->len, &err), SCP_OK);
  assert_int_equal(scp_wasm_load(cm->bin, cm->len, &cm->m, &err), SCP_OK);
  scp_wasm_env env = {.call = host_call, .ctx = cm};
  assert_int_equal(scp_wasm_instantiate(cm->m, &env, &cm->inst, &err), SCP_OK);
  scp_wasm_set_switch_dispatch(cm->inst, use_switch);
}

static void cm_close(calls_mod *cm) {
  scp_wasm_attach(cm->inst, NULL, 0, 0, 0);
  scp_wasm_instance_free(cm->inst);
  scp_wasm_module_free(cm->m);
  free(cm->bin);
}

/* A new tree t attached (module 1, CPU = fuel x 4). */
static void new_tree(calls_mod *cm, scp_tree *t) {
  assert_int_equal(scp_tree_init(t, 1), SCP_OK);
  scp_wasm_attach(cm->inst, t, 0, 1, 4);
}

static void cm_close_tree(calls_mod *cm, scp_tree *t) {
  cm_close(cm);
  scp_tree_free(t);
}

/* Call f(arg) with `fuel`; returns the status, sets the result and the
 * fuel consumed (checked against the tank). */
static int cm_call(calls_mod *cm, uint32_t f, uint64_t arg, uint64_t fuel, uint64_t *result,
                   uint64_t *consumed) {
  uint64_t args[1] = {arg}, res[1] = {0};
  scp_error err = {0};
  scp_wasm_set_fuel(cm->inst, fuel);
  uint64_t before = scp_wasm_fuel_consumed(cm->inst);
  int rc = scp_wasm_call(cm->inst, f, args, res, &err);
  *consumed = scp_wasm_fuel_consumed(cm->inst) - before;
  assert_int_equal(scp_wasm_fuel(cm->inst), fuel - *consumed);
  *result = res[0];
  return rc;
}

/* A successful call's result; its fuel must be `fuel`. */
static uint64_t cm_ok(calls_mod *cm, uint32_t f, uint64_t arg, uint64_t fuel) {
  uint64_t r, consumed;
  assert_int_equal(cm_call(cm, f, arg, BIG_FUEL, &r, &consumed), SCP_OK);
  assert_int_equal(consumed, fuel);
  return r;
}

/* The guest children of node `parent` (module 1) that call `callee`, in callsite
 * order (the tree keeps them per call site); returns how many. */
static size_t children(scp_tree *t, uint32_t parent, uint32_t callee, uint32_t *out, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < t->n; i++) {
    const scp_tree_node *nd = &t->nodes[i];
    if (nd->kind != SCP_KIND_GUEST || nd->module != 1 || nd->parent != parent || nd->callee != callee)
      continue;
    size_t k = n < cap ? n : cap - 1;
    while (k > 0 && t->nodes[out[k - 1]].callsite > nd->callsite) { out[k] = out[k - 1]; k--; }
    out[k] = (uint32_t)i;
    n++;
  }
  return n;
}

/* The one guest child of parent calling callee. */
static uint32_t child(scp_tree *t, uint32_t parent, uint32_t callee) {
  uint32_t id[4];
  assert_int_equal(children(t, parent, callee, id, 4), 1);
  return id[0];
}

/* ---- reading the binary ---------------------------------------------------- */

static const uint8_t *bin_end;   /* of the binary being read */

static uint64_t leb(const uint8_t **p) {
  uint64_t v = 0;
  assert_true(scp_leb_u64(p, bin_end, &v));
  return v;
}

/* Function f's body in the binary (one import before it): where its
 * locals declaration starts, the code section's payload and the body's
 * end. */
static const uint8_t *body_at(const calls_mod *cm, uint32_t f, const uint8_t **payload,
                              const uint8_t **bend) {
  const uint8_t *p = cm->bin + 8, *end = cm->bin + cm->len;
  bin_end = end;
  for (;;) {
    assert_true(p < end);
    uint8_t id = *p++;
    uint64_t size = leb(&p);
    if (id == 10) break;
    p += size;
  }
  *payload = p;
  leb(&p);                                     /* body count */
  for (uint32_t i = 0; i < f - 1; i++) {
    uint64_t size = leb(&p);
    p += size;
  }
  uint64_t size = leb(&p);
  *bend = p + size;
  return p;
}

/* The code-section pc of the k-th operator op (0x10 call, 0x00
 * unreachable) in function f's body.  Knows the immediates of the
 * operators of the bodies it is used on. */
static uint64_t op_pc(const calls_mod *cm, uint32_t f, uint8_t op, int k) {
  const uint8_t *payload, *bend, *p = body_at(cm, f, &payload, &bend);
  for (uint64_t g = leb(&p); g > 0; g--) { leb(&p); p++; }   /* local groups */
  while (p < bend) {
    if (*p == op && k-- == 0) return (uint64_t)(p - payload);
    uint8_t o = *p++;
    if (o == 0x10 || o == 0x20 || o == 0x41) leb(&p);
    else if (o == 0x04) p++;                   /* blocktype */
  }
  fail();
  return 0;
}

/* The pc a function's entry region is booked at: its locals declaration. */
static uint64_t entry_pc(const calls_mod *cm, uint32_t f) {
  const uint8_t *payload, *bend, *p = body_at(cm, f, &payload, &bend);
  return (uint64_t)(p - payload);
}

/* ---- locals -------------------------------------------------------------- */

/* Each callee's locals start at zero although $dirty left -1 in those very
 * cells: 1 and 4 locals (the stores), a param and 5 locals, 9 locals (the
 * stores and the rest). */
static void test_locals_zeroed(void **state) {
  calls_mod cm;
  cm_open(&cm);
  /* fuel: zeroed 1 + 8 calls x 67 + const 1 + 3 x or + end 1 = 542;
   * dirty 1 + 9/8 + 18 + end 1 = 21, 4 times; l1 1 + 1/8 + get + end = 3;
   * l4 1 + 4/8 + 7 + 1 = 9; p5 1 + 6/8 + 9 + 1 = 11; l9 1 + 9/8 + 17 + 1 =
   * 20.  542 + 84 + 43 = 669 */
  assert_int_equal(cm_ok(&cm, F_ZEROED, 0, 669), 0);
  cm_close(&cm);
}

/* ---- fuel at the call ------------------------------------------------------ */

/* mix: entry 1 + (const 1 + call 67) x 2 + const 1 + call_indirect 67 +
 * call 67 + const 1 + call_indirect 67 + end 1 = 341, all charged on entry;
 * each of inc, inc, (host: nothing), dbl then pays its entry region 1 +
 * 1 param / 8 = 0, plus get, const/get, add 3 and end 1 = 5.  So with N fuel
 * the run consumes 0 below 341, then 341 + 5k for the k callees whose
 * region fitted, and stops out of fuel in the callee that did not fit, or
 * returns 10 with 356. */
static void check_mix_fuel(calls_mod *cm, scp_tree *t) {
  static const uint32_t callee_at[3] = {F_INC, F_INC, F_DBL};
  uint64_t total = 0;
  for (uint64_t n = 0; n <= 356; n++) {
    uint64_t r, consumed;
    int rc = cm_call(cm, F_MIX, 0, n, &r, &consumed);
    total += consumed;
    uint64_t want = n < 341 ? 0 : 341 + 5 * ((n - 341) / 5);
    assert_int_equal(consumed, want);
    if (t) {
      assert_int_equal(scp_wasm_settle(cm->inst), SCP_OK);
      assert_int_equal(scp_tree_total(t, 0), 4 * total);
    }
    if (n == 356) {
      assert_int_equal(rc, SCP_OK);
      assert_int_equal(r, 10);
      continue;
    }
    assert_int_equal(rc, SCP_ERR_TRAP);
    assert_int_equal(scp_wasm_last_trap(cm->inst), SCP_TRAP_OUT_OF_FUEL);
    assert_int_equal(scp_wasm_last_trap_func(cm->inst), n < 341 ? F_MIX : callee_at[(n - 341) / 5]);
    /* a callee whose entry did not fit stopped at its entry (a pin of
     * where the engine says it stopped: before its first operator) */
    uint32_t func;
    uint64_t pc;
    assert_int_equal(scp_wasm_trap_trace(cm->inst, 0, &func, &pc), n < 341 ? 1 : 2);
    assert_int_equal(func, n < 341 ? F_MIX : callee_at[(n - 341) / 5]);
    assert_int_equal(pc, entry_pc(cm, func));
  }
  /* the runs given 351 fuel or more called the host twice */
  assert_int_equal(cm->host_calls, 12);
}

static void test_fuel_at_call(void **state) {
  calls_mod cm;
  cm_open(&cm);
  check_mix_fuel(&cm, NULL);
  cm_close(&cm);
}

/* The same profiled: settled CPU is 4 x fuel after every run, and a callee
 * whose entry did not fit was entered (its node counts the call) but
 * costs nothing. */
static void test_fuel_at_call_profiled(void **state) {
  calls_mod cm;
  scp_tree t;
  cm_open(&cm);
  new_tree(&cm, &t);
  uint64_t r, consumed;
  assert_int_equal(cm_call(&cm, F_MIX, 0, 341, &r, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  uint32_t mix = child(&t, 0, F_MIX), inc = child(&t, mix, F_INC);
  assert_int_equal(t.nodes[inc].calls, 1);
  assert_int_equal(t.nodes[inc].self[0], 0);
  assert_int_equal(t.nodes[mix].self[0], 4 * 341);
  scp_tree_free(&t);
  new_tree(&cm, &t);
  check_mix_fuel(&cm, &t);
  /* mix's callees: inc at two sites, dbl; each entered by the runs that
   * reached its call (inc's first site by every run from 341 on) and paid
   * for by those whose fuel covered its entry too (from 346, 351, 356) */
  mix = child(&t, 0, F_MIX);
  uint32_t incs[2];
  assert_int_equal(children(&t, mix, F_INC, incs, 2), 2);
  assert_int_equal(t.nodes[incs[0]].calls, 16);   /* n = 341..356 */
  assert_int_equal(t.nodes[incs[1]].calls, 11);   /* n = 346..356 */
  uint32_t dbl = child(&t, mix, F_DBL);
  assert_int_equal(t.nodes[dbl].calls, 6);        /* n = 351..356 */
  assert_int_equal(t.nodes[incs[0]].self[0], 11 * 20);
  assert_int_equal(t.nodes[incs[1]].self[0], 6 * 20);
  assert_int_equal(t.nodes[dbl].self[0], 1 * 20);
  cm_close_tree(&cm, &t);
}

/* ---- calling-context nodes -------------------------------------------------- */

/* alt(7): one call_indirect reaches inc at i = 0, 2, 4, 6 and dbl at 1, 3,
 * 5: 0 -> 1 -> 2 -> 3 -> 6 -> 7 -> 14 -> 15.  Fuel: entry 1 + 3/8 + get,
 * end 2 = 3; the loop 1 + 12 + call_indirect 67 = 80 a round; each callee
 * 5: 3 + 85 x 7 = 598.  Two runs: inc's node 8 calls, dbl's 6, each call
 * 5 x 4 CPU. */
static void test_indirect_callees(void **state) {
  calls_mod cm;
  scp_tree t;
  cm_open(&cm);
  new_tree(&cm, &t);
  assert_int_equal(cm_ok(&cm, F_ALT, 7, 598), 15);
  assert_int_equal(cm_ok(&cm, F_ALT, 7, 598), 15);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  uint32_t alt = child(&t, 0, F_ALT), inc = child(&t, alt, F_INC), dbl = child(&t, alt, F_DBL);
  assert_int_equal(t.nodes[alt].calls, 2);
  assert_int_equal(t.nodes[inc].calls, 8);
  assert_int_equal(t.nodes[dbl].calls, 6);
  assert_int_equal(t.nodes[inc].self[0], 8 * 20);
  assert_int_equal(t.nodes[dbl].self[0], 6 * 20);
  assert_int_equal(scp_tree_total(&t, 0), 4 * 2 * 598);
  cm_close_tree(&cm, &t);
}

/* sites(n): three call sites of inc, n calls each; 3n.  Fuel: entry 1 +
 * 3/8 + const, set, get, end 4 = 5; loop a 1 + 9 + 2 x 67 = 144 and two
 * callees 10; loop b 1 + 9 + 67 = 77 and one callee 5: 5 + 236n. */
static void check_sites(scp_tree *t, uint64_t runs, uint64_t n) {
  uint32_t sites = child(t, 0, F_SITES), inc[3];
  assert_int_equal(t->nodes[sites].calls, runs);
  assert_int_equal(children(t, sites, F_INC, inc, 3), 3);
  for (int k = 0; k < 3; k++) {
    assert_int_equal(t->nodes[inc[k]].calls, runs * n);
    assert_int_equal(t->nodes[inc[k]].self[0], runs * n * 20);
  }
}

static void test_call_sites(void **state) {
  calls_mod cm;
  scp_tree t;
  cm_open(&cm);
  new_tree(&cm, &t);
  assert_int_equal(cm_ok(&cm, F_SITES, 50, 5 + 236 * 50), 150);
  assert_int_equal(cm_ok(&cm, F_SITES, 50, 5 + 236 * 50), 150);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  check_sites(&t, 2, 50);
  assert_int_equal(scp_tree_total(&t, 0), 4 * 2 * (5 + 236 * 50));
  cm_close_tree(&cm, &t);
}

/* nest(n): wrap's one call of inc runs under two nodes of wrap (two call
 * sites in nest), alternately, at the same depth.  Fuel: entry 1 + 3/8 +
 * get, end 2 = 3; the loop 1 + 9 + 2 x 67 = 144, two wraps of 1 + get,
 * call 67, end 1 = 70 each, each calling inc, 5: 3 + 294n = 2n. */
static void test_one_site_two_callers(void **state) {
  calls_mod cm;
  scp_tree t;
  cm_open(&cm);
  new_tree(&cm, &t);
  assert_int_equal(cm_ok(&cm, F_NEST, 30, 3 + 294 * 30), 60);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  uint32_t nest = child(&t, 0, F_NEST), wrap[2];
  assert_int_equal(children(&t, nest, F_WRAP, wrap, 2), 2);
  for (int k = 0; k < 2; k++) {
    uint32_t inc = child(&t, wrap[k], F_INC);
    assert_int_equal(t.nodes[wrap[k]].calls, 30);
    assert_int_equal(t.nodes[wrap[k]].self[0], 30 * 70 * 4);
    assert_int_equal(t.nodes[inc].calls, 30);
    assert_int_equal(t.nodes[inc].self[0], 30 * 20);
  }
  cm_close_tree(&cm, &t);
}

/* A new tree: the nodes a frame slot kept belong to the old one.  The
 * second tree gets a node of its own first, so the same paths have other
 * ids there; the first tree is not touched by the second run. */
static void test_new_tree(void **state) {
  calls_mod cm;
  scp_tree t1, t2;
  cm_open(&cm);
  assert_int_equal(scp_tree_init(&t1, 1), SCP_OK);
  assert_int_equal(scp_tree_init(&t2, 1), SCP_OK);
  scp_wasm_attach(cm.inst, &t1, 0, 1, 4);
  assert_int_equal(cm_ok(&cm, F_SITES, 10, 5 + 236 * 10), 30);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  uint32_t other = scp_tree_enter(&t2, 0, 999, SCP_KIND_GUEST, 2, F_SITES);
  assert_int_not_equal(other, SCP_NODE_NONE);
  scp_wasm_attach(cm.inst, &t2, 0, 1, 4);
  assert_int_equal(cm_ok(&cm, F_SITES, 10, 5 + 236 * 10), 30);
  assert_int_equal(cm_ok(&cm, F_SITES, 10, 5 + 236 * 10), 30);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  check_sites(&t1, 1, 10);
  assert_int_equal(scp_tree_total(&t1, 0), 4 * (5 + 236 * 10));
  check_sites(&t2, 2, 10);
  assert_int_equal(t2.nodes[other].calls, 1);
  assert_int_equal(t2.nodes[other].self[0], 0);
  assert_int_equal(scp_tree_total(&t2, 0), 4 * 2 * (5 + 236 * 10));
  scp_tree_free(&t1);
  scp_tree_free(&t2);
  cm_close(&cm);
}

/* rec(n) = n + 1, n calls deep to the host.  Fuel (test_fuel.c's
 * test_call_depth, with a then-arm of const, call 69): body 6, the
 * then-arm 69, each else-arm 73: 79n + 75.  Each depth is a node of its
 * own, entered once a run. */
static void check_rec_chain(scp_tree *t, uint64_t runs, uint32_t depth) {
  uint32_t id = child(t, 0, F_REC);
  for (uint32_t d = 0; d <= depth; d++) {
    assert_int_equal(t->nodes[id].calls, runs);
    /* the deepest pays body and then-arm, the others body and else-arm */
    assert_int_equal(t->nodes[id].self[0], runs * 4 * (d == depth ? 75 : 79));
    if (d < depth) id = child(t, id, F_REC);
  }
  uint32_t none[1];
  assert_int_equal(children(t, id, F_REC, none, 1), 0);
}

static void test_recursion(void **state) {
  calls_mod cm;
  scp_tree t;
  uint64_t r, consumed;
  cm_open(&cm);
  new_tree(&cm, &t);
  for (int k = 0; k < 3; k++) assert_int_equal(cm_ok(&cm, F_REC, 40, 79 * 40 + 75), 41);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  check_rec_chain(&t, 3, 40);
  scp_tree_free(&t);
  /* the deepest the engine allows: 1025 frames, rec(1024); rec(1025)
   * fails making frame 1026 after 1025 x 79 fuel; the instance, and its
   * frame slots, serve the next runs as before */
  new_tree(&cm, &t);
  assert_int_equal(cm_ok(&cm, F_REC, 1024, 79 * 1024 + 75), 1025);
  assert_int_equal(cm_call(&cm, F_REC, 1025, BIG_FUEL, &r, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(cm.inst), SCP_TRAP_STACK_EXHAUSTED);
  assert_int_equal(consumed, 79 * 1025);
  assert_int_equal(cm_ok(&cm, F_REC, 1024, 79 * 1024 + 75), 1025);
  assert_int_equal(scp_wasm_settle(cm.inst), SCP_OK);
  assert_int_equal(scp_tree_total(&t, 0), 4 * (2 * (79 * 1024 + 75) + 79 * 1025));
  assert_int_equal(cm.host_calls, 5);
  cm_close_tree(&cm, &t);
}

/* The value stack (131072 cells) holds frames of 1 + 1023 cells only
 * while each call can also reserve its callee's operand cells: deep's
 * max height is 2 (get, const), so frame n + 1 starts iff
 * n x 1024 + 1 (its param) + 1023 + 2 <= 131072: 127 frames.  Fuel:
 * entry 1 + 1024/8 = 129 + get, eqz, if, the then-arm's Br, end 5 = 134;
 * then-arm 2, else-arm 73: deep(n) = 207n + 136; deep(127) fails making
 * frame 128 when 127 frames paid 207. */
static void test_value_stack_reserve(void **state) {
  calls_mod cm;
  uint64_t r, consumed;
  cm_open(&cm);
  assert_int_equal(cm_ok(&cm, F_DEEP, 126, 207 * 126 + 136), 126);
  assert_int_equal(cm_call(&cm, F_DEEP, 127, BIG_FUEL, &r, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(cm.inst), SCP_TRAP_STACK_EXHAUSTED);
  assert_int_equal(consumed, 207 * 127);
  cm_close(&cm);
}

/* ---- traps -------------------------------------------------------------- */

/* A trap names the function it happened in and the guest stack, whether
 * in a callee, in the caller after a callee returned, at a call_indirect
 * past the table, or in the host under a deep recursion. */
static void test_traps(void **state) {
  calls_mod cm;
  uint64_t r, consumed;
  uint32_t func;
  uint64_t pc;
  cm_open(&cm);
  /* trap_in 1 + const 1 + call 67 + end 1 = 70; boom 1 + get 1 + call 67 +
   * unreachable 1 = 70 (its end is unreachable); inc 5 */
  assert_int_equal(cm_call(&cm, F_TRAP_IN, 0, BIG_FUEL, &r, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(cm.inst), SCP_TRAP_UNREACHABLE);
  assert_int_equal(scp_wasm_last_trap_func(cm.inst), F_BOOM);
  assert_int_equal(consumed, 145);
  assert_int_equal(scp_wasm_trap_trace(cm.inst, 0, &func, &pc), 2);
  assert_int_equal(func, F_BOOM);
  assert_int_equal(pc, op_pc(&cm, F_BOOM, 0x00, 0));
  scp_wasm_trap_trace(cm.inst, 1, &func, &pc);
  assert_int_equal(func, F_TRAP_IN);
  assert_int_equal(pc, op_pc(&cm, F_TRAP_IN, 0x10, 0));
  /* 1 + const 1 + call 67 + unreachable 1 = 70, inc 5 */
  assert_int_equal(cm_call(&cm, F_TRAP_AFTER, 0, BIG_FUEL, &r, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap_func(cm.inst), F_TRAP_AFTER);
  assert_int_equal(consumed, 75);
  assert_int_equal(scp_wasm_trap_trace(cm.inst, 0, &func, &pc), 1);
  assert_int_equal(func, F_TRAP_AFTER);
  /* 1 + 2 consts + call_indirect 67 + end 1 = 71, element 3 of 3 */
  assert_int_equal(cm_call(&cm, F_BAD_IND, 0, BIG_FUEL, &r, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(cm.inst), SCP_TRAP_TABLE_OOB);
  assert_int_equal(scp_wasm_last_trap_func(cm.inst), F_BAD_IND);
  assert_int_equal(consumed, 71);
  /* the host fails under rec(5): six frames of rec, innermost at the
   * host call, the others at the recursive call */
  cm.host_fails = true;
  assert_int_equal(cm_call(&cm, F_REC, 5, BIG_FUEL, &r, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(cm.inst), SCP_TRAP_HOST);
  assert_int_equal(consumed, 79 * 5 + 75);
  assert_int_equal(scp_wasm_trap_trace(cm.inst, 0, &func, &pc), 6);
  assert_int_equal(func, F_REC);
  assert_int_equal(pc, op_pc(&cm, F_REC, 0x10, 0));
  for (size_t i = 1; i < 6; i++) {
    scp_wasm_trap_trace(cm.inst, i, &func, &pc);
    assert_int_equal(func, F_REC);
    assert_int_equal(pc, op_pc(&cm, F_REC, 0x10, 1));
  }
  cm.host_fails = false;
  assert_int_equal(cm_ok(&cm, F_REC, 5, 79 * 5 + 75), 6);
  cm_close(&cm);
}

static int setup_goto(void **state) { use_switch = false; return 0; }
static int setup_switch(void **state) { use_switch = true; return 0; }

/* every test in both dispatch builds */
#define BOTH(f) {.name = #f, .test_func = f, .setup_func = setup_goto},           \
                {.name = #f "/switch", .test_func = f, .setup_func = setup_switch}

int main(void) {
  const struct CMUnitTest tests[] = {
    BOTH(test_locals_zeroed),
    BOTH(test_fuel_at_call),
    BOTH(test_fuel_at_call_profiled),
    BOTH(test_indirect_callees),
    BOTH(test_call_sites),
    BOTH(test_one_site_two_callers),
    BOTH(test_new_tree),
    BOTH(test_recursion),
    BOTH(test_value_stack_reserve),
    BOTH(test_traps),
  };
  return cmocka_run_group_tests_name("wasm_calls", tests, NULL, NULL);
}
