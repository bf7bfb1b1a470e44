/*
 * test_sbpf_callret.c — calls and returns the interpreter takes its short
 * ways on: a `call imm` made again from the same node (its callee's first
 * block and the caller's block after it charged and counted as worked out
 * on the first such call), the return into that block, and the general
 * path those fall back on (the meter too short for the block, a block no
 * counter of the frame covers).
 *
 * Each program's run is written out by hand as the list of pcs it
 * executes (independent of the interpreter).  Every meter limit from 0 to
 * past the end runs in both dispatch modes, with a tree and without: with
 * limit k below the run's length the meter stops before the k-th
 * instruction of the list (EXCEEDED_MAX_INSTRUCTIONS at that pc, k CU
 * used); a trap at the end of the list counts its instruction.  With a
 * tree, each node's per-pc CU are how often the list ran that pc (up to
 * the stop) in that function, and the callee's node counts every call
 * executed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sbpf/sbpf_private.h"

typedef struct ins { uint8_t op, dst, src; int16_t off; int32_t imm; } ins;
#define I(op, d, s, off, imm) { op, d, s, off, imm }
#define MOV(d, imm) I(0xb7, d, 0, 0, imm)
#define MOVR(d, s) I(0xbf, d, s, 0, 0)
#define SUBI(d, imm) I(0x17, d, 0, 0, imm)
#define DIVR(d, s) I(0x3f, d, s, 0, 0)
/* pc-relative call: the target is pc + 1 + imm */
#define CALL(imm) I(0x85, 0, 0, 0, imm)
#define JNEI(d, imm, off) I(0x55, d, 0, off, imm)
#define EXIT I(0x95, 0, 0, 0, 0)
#define ADDI(d, imm) I(0x07, d, 0, 0, imm)
#define JA(off) I(0x05, 0, 0, off, 0)
/* lddw: two slots, one instruction (its tail slot leads a block of its own) */
#define LDDW(d, v) I(0x18, d, 0, 0, (int32_t)(v)), I(0, 0, 0, 0, 0)

#define T(x) SCP_SBPF_TRAP_##x
enum { OK = -1 };

typedef struct prog_case {
  const char *name;
  ins code[16];
  size_t ncode;
  uint32_t callee;          /* the called function's first pc */
  uint32_t call_pc;         /* the call instruction */
  int16_t trace[24];        /* pcs executed, in order; -1 ends */
  int end;                  /* how the whole run ends: OK or the trap at the last pc */
  uint64_t r0;              /* r0 when it ends OK */
} prog_case;

static const prog_case progs[] = {
  /* f divides by r7 = r6 - 1: its first block faults on the second
   * call, the one that reuses what the first worked out */
  { "fault in the callee's first block",
    { MOV(6, 2), MOVR(7, 6), SUBI(7, 1), CALL(4), SUBI(6, 1), JNEI(6, 0, -5), MOV(0, 0), EXIT,
      MOV(0, 10), DIVR(0, 7), EXIT }, 11, 8, 3,
    { 0, 1, 2, 3, 8, 9, 10, 4, 5, 1, 2, 3, 8, 9, -1 }, T(DIVIDE_BY_ZERO), 0 },
  /* the block after the call divides by r7: it faults on the second
   * return */
  { "fault in the block after the call",
    { MOV(6, 2), MOVR(7, 6), SUBI(7, 1), CALL(5), MOV(0, 10), DIVR(0, 7), SUBI(6, 1), JNEI(6, 0, -7),
      EXIT, MOV(0, 1), EXIT }, 11, 9, 3,
    { 0, 1, 2, 3, 9, 10, 4, 5, 6, 7, 1, 2, 3, 9, 10, 4, 5, -1 }, T(DIVIDE_BY_ZERO), 0 },
  /* three rounds of a call, to the end */
  { "a loop of calls",
    { MOV(6, 3), MOV(0, 0), CALL(5), SUBI(6, 1), JNEI(6, 0, -3), EXIT, EXIT, EXIT,
      I(0x07, 0, 0, 0, 5), EXIT }, 10, 8, 2,
    { 0, 1, 2, 8, 9, 3, 4, 2, 8, 9, 3, 4, 2, 8, 9, 3, 4, 5, -1 }, OK, 15 },
  /* the call's return pc starts the function it calls, so the caller's
   * block after the call is the callee's, which no counter of the
   * caller's frame covers (a stray), on both calls from pc 1: r0 odd
   * there is the callee, which returns; even, the caller calls again
   * until r0 is 4 */
  { "return into another function",
    { MOV(0, 0), CALL(0), I(0x07, 0, 0, 0, 1), I(0x45, 0, 0, 2, 1), I(0xa5, 0, 0, -4, 4), EXIT, EXIT },
    7, 2, 1, { 0, 1, 2, 3, 6, 2, 3, 4, 1, 2, 3, 6, 2, 3, 4, 5, -1 }, OK, 4 },
  /* a straight run through an lddw (one instruction over two slots) and
   * into a jump target: the first round jumps into it at pc 5, the
   * second falls into it from pc 2, so pc 5 counts both; then a call */
  { "through an lddw into a jump target",
    { MOV(6, 2), JA(3), ADDI(0, 1), LDDW(1, 0x1234), ADDI(0, 2), SUBI(6, 1), JNEI(6, 0, -6), CALL(1), EXIT,
      MOV(0, 7), EXIT },
    12, 10, 8, { 0, 1, 5, 6, 7, 2, 3, 5, 6, 7, 8, 10, 11, 9, -1 }, OK, 7 },
};

static size_t trace_len(const prog_case *c) {
  size_t n = 0;
  while (c->trace[n] >= 0) n++;
  return n;
}

static scp_sbpf_prog *load(const scp_sbpf_loader *l, const prog_case *c) {
  uint8_t text[16 * 8];
  for (size_t i = 0; i < c->ncode; i++) {
    const ins *x = &c->code[i];
    text[8 * i] = x->op;
    text[8 * i + 1] = (uint8_t)(x->dst | x->src << 4);
    memcpy(text + 8 * i + 2, &x->off, 2);
    memcpy(text + 8 * i + 4, &x->imm, 4);
  }
  scp_sbpf_prog *p;
  scp_error err = { 0 };
  if (sbpf_load_text(l, text, 8 * c->ncode, SCP_SBPF_V0, &p, &err)) fail_msg("%s: %s", c->name, err.msg);
  return p;
}

/* The CU the tree gives pc in the node of the function at fpc (the entry
 * at 0, or the callee). */
static uint64_t pc_cu(const scp_tree *t, uint32_t fpc, uint32_t pc) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < t->n; i++) {
    const scp_tree_node *n = &t->nodes[i];
    if (n->kind != SCP_KIND_GUEST || n->callee != fpc) continue;
    for (uint32_t k = 0; k < n->npcs; k++)
      if (n->pcs[k].pc == 8ull * pc) sum += n->pcs[k].cost0;
  }
  return sum;
}

static uint64_t callee_calls(const scp_tree *t, uint32_t callee) {
  uint64_t calls = 0;
  for (uint32_t i = 0; i < t->n; i++)
    if (t->nodes[i].kind == SCP_KIND_GUEST && t->nodes[i].callee == callee) calls += t->nodes[i].calls;
  return calls;
}

/* The profile of a run that executed the first `used` pcs of the list. */
static void check_tree(const prog_case *c, const scp_tree *t, size_t used, uint64_t limit) {
  uint64_t want[16] = { 0 }, callee_cu[16] = { 0 }, calls = 0;
  for (size_t i = 0; i < used; i++) {
    uint32_t pc = (uint32_t)c->trace[i];
    /* which function ran it: the callee from its entry to its exit */
    bool in_callee = false;
    for (size_t j = i + 1; j-- > 0;) {
      if (j < i && c->trace[j] == (int16_t)c->call_pc) { in_callee = true; break; }
      if (j < i && c->code[c->trace[j]].op == 0x95) break;
    }
    (in_callee ? callee_cu : want)[pc]++;
    calls += pc == c->call_pc;
  }
  for (uint32_t pc = 0; pc < c->ncode; pc++) {
    if (pc_cu(t, 0, pc) != want[pc] || (c->callee && pc_cu(t, c->callee, pc) != callee_cu[pc]))
      fail_msg("%s, limit %llu: pc %u has %llu CU in the entry and %llu in the callee, want %llu and %llu",
               c->name, (unsigned long long)limit, pc, (unsigned long long)pc_cu(t, 0, pc),
               (unsigned long long)pc_cu(t, c->callee, pc), (unsigned long long)want[pc],
               (unsigned long long)callee_cu[pc]);
  }
  if (callee_calls(t, c->callee) != calls)
    fail_msg("%s, limit %llu: the callee counts %llu calls, want %llu", c->name, (unsigned long long)limit,
             (unsigned long long)callee_calls(t, c->callee), (unsigned long long)calls);
  assert_int_equal(scp_tree_total(t, 0), used);
}

static void run_case(const scp_sbpf_loader *l, const prog_case *c, uint64_t limit, bool sw, bool tree,
                     scp_sbpf_pool *pool) {
  size_t n = trace_len(c);
  scp_sbpf_prog *p = load(l, c);
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  uint64_t meter = limit, r0 = 0;
  scp_sbpf_vm_config cfg = { .meter = &meter, .tree = tree ? &t : NULL, .node = 0, .module = 7, .pool = pool };
  scp_sbpf_vm *vm;
  scp_error err = { 0 };
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  scp_sbpf_vm_set_switch_dispatch(vm, sw);
  int rc = scp_sbpf_vm_run(vm, &r0, &err);
  size_t used = limit < n ? (size_t)limit : n;
  int want = limit < n ? T(EXCEEDED_MAX_INSTRUCTIONS) : c->end;
  uint32_t want_pc = (uint32_t)c->trace[limit < n ? limit : n - 1];
  int got = rc ? (int)scp_sbpf_vm_trap(vm) : OK;
  if (got != want || limit - meter != used || scp_sbpf_vm_insns(vm) != used ||
      (rc && scp_sbpf_vm_trap_pc(vm) != want_pc) || (!rc && r0 != c->r0))
    fail_msg("%s, limit %llu (%s, %s): trap %d at pc %u, %llu CU, r0 %llu; want trap %d at pc %u, %zu CU",
             c->name, (unsigned long long)limit, sw ? "switch" : "goto", tree ? "tree" : "no tree", got,
             scp_sbpf_vm_trap_pc(vm), (unsigned long long)(limit - meter), (unsigned long long)r0, want,
             want_pc, used);
  if (tree) check_tree(c, &t, used, limit);
  scp_sbpf_vm_destroy(vm);
  scp_tree_free(&t);
  scp_sbpf_prog_free(p);
}

static void test_call_return_meter(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  /* and each on one pool's memory, whose VM struct, call cache and block
   * counters every earlier case used (each with a tree of its own) */
  scp_sbpf_pool *pool = scp_sbpf_pool_new();
  assert_non_null(pool);
  for (size_t i = 0; i < SCP_ARRAY_LEN(progs); i++)
    for (uint64_t limit = 0; limit <= trace_len(&progs[i]) + 2; limit++)
      for (int sw = 0; sw < 2; sw++)
        for (int tree = 0; tree < 2; tree++) {
          run_case(l, &progs[i], limit, sw, tree, NULL);
          run_case(l, &progs[i], limit, sw, tree, pool);
        }
  scp_sbpf_pool_free(pool);
  scp_sbpf_loader_destroy(l);
}

/* A profiled VM made first, then eight more taking slots of its pool,
 * which moves the slots (as a CPI's callees do while their caller runs):
 * the first one's nodes still count in its slot's counters, and "a loop
 * of calls" settles as its trace says. */
static void test_pool_grows_under_a_vm(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  scp_sbpf_pool *pool = scp_sbpf_pool_new();
  assert_non_null(pool);
  const prog_case *c = &progs[2];
  scp_sbpf_prog *p = load(l, c);
  scp_tree t;
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  uint64_t meter = 1000, other = 1000, r0 = 0;
  scp_sbpf_vm_config cfg = { .meter = &meter, .tree = &t, .node = 0, .module = 7, .pool = pool };
  scp_sbpf_vm_config plain = { .meter = &other, .pool = pool };
  scp_sbpf_vm *vm, *more[8];
  scp_error err = { 0 };
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  for (int i = 0; i < 8; i++) assert_int_equal(scp_sbpf_vm_create(p, &plain, &more[i], &err), SCP_OK);
  assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_OK);
  assert_int_equal(r0, c->r0);
  check_tree(c, &t, trace_len(c), 1000);
  for (int i = 0; i < 8; i++) scp_sbpf_vm_destroy(more[i]);
  scp_sbpf_vm_destroy(vm);
  scp_tree_free(&t);
  scp_sbpf_prog_free(p);
  scp_sbpf_pool_free(pool);
  scp_sbpf_loader_destroy(l);
}

/* A function calling itself from the same pc: every call past the first
 * finds the frame above filled by the same key (without a tree every
 * frame has the entry's node), until the 64th frame: the call that would
 * push it traps and counts.  mov r0, 0; call 0: 64 rounds of 2. */
static void test_call_depth(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  prog_case c = { "recursion", { MOV(0, 0), CALL(-2) }, 2, 0, 1, { -1 }, OK, 0 };
  for (int sw = 0; sw < 2; sw++)
    for (int tree = 0; tree < 2; tree++) {
      scp_sbpf_prog *p = load(l, &c);
      scp_tree t;
      assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
      uint64_t meter = 1000, r0 = 0;
      scp_sbpf_vm_config cfg = { .meter = &meter, .tree = tree ? &t : NULL, .node = 0, .module = 7 };
      scp_sbpf_vm *vm;
      scp_error err = { 0 };
      assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
      scp_sbpf_vm_set_switch_dispatch(vm, sw);
      assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_ERR_TRAP);
      assert_int_equal(scp_sbpf_vm_trap(vm), T(CALL_DEPTH_EXCEEDED));
      assert_int_equal(scp_sbpf_vm_trap_pc(vm), 1);
      assert_int_equal(1000 - meter, 2 * SCP_SBPF_MAX_CALL_DEPTH);
      assert_int_equal(scp_sbpf_vm_depth(vm), SCP_SBPF_MAX_CALL_DEPTH);
      if (tree) {
        assert_int_equal(scp_tree_total(&t, 0), 2 * SCP_SBPF_MAX_CALL_DEPTH);
        /* the entry (called once by the runtime) and 63 calls of it */
        assert_int_equal(callee_calls(&t, 0), SCP_SBPF_MAX_CALL_DEPTH);
      }
      scp_sbpf_vm_destroy(vm);
      scp_tree_free(&t);
      scp_sbpf_prog_free(p);
    }
  scp_sbpf_loader_destroy(l);
}

/* With a call hook every call calls it (none is reused), with a return
 * hook every return does, and a hook reading the tree sees the callee's
 * node count the call it is told of: "a loop of calls" with either hook
 * and both, with a tree and without. */
typedef struct hook_seen {
  scp_tree *t;
  uint64_t calls, rets;
  int bad;
} hook_seen;

static void h_call(void *c, scp_sbpf_vm *vm, uint32_t site, uint32_t target, uint32_t node) {
  hook_seen *h = c;
  h->calls++;
  if (site != 2 || target != 8 || scp_sbpf_vm_depth(vm) != 1 || (h->t && h->t->nodes[node].calls != h->calls))
    h->bad++;
}

static void h_ret(void *c, scp_sbpf_vm *vm, uint32_t ret_pc, uint32_t node) {
  hook_seen *h = c;
  (void)node;
  h->rets++;
  if (ret_pc != 3 || scp_sbpf_vm_depth(vm) != 0) h->bad++;
}

static void test_hooks_every_call(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  const prog_case *c = &progs[2];
  for (int which = 1; which <= 3; which++)
    for (int tree = 0; tree < 2; tree++)
      for (int sw = 0; sw < 2; sw++) {
        scp_sbpf_prog *p = load(l, c);
        scp_tree t;
        assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
        hook_seen h = { .t = tree ? &t : NULL };
        scp_sbpf_hooks hooks = { .call = which & 1 ? h_call : NULL, .ret = which & 2 ? h_ret : NULL };
        uint64_t meter = 100, r0 = 0;
        scp_sbpf_vm_config cfg = { .meter = &meter, .tree = tree ? &t : NULL, .node = 0, .module = 7,
                                   .hooks = &hooks, .hooks_ctx = &h };
        scp_sbpf_vm *vm;
        scp_error err = { 0 };
        assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
        scp_sbpf_vm_set_switch_dispatch(vm, sw);
        assert_int_equal(scp_sbpf_vm_run(vm, &r0, &err), SCP_OK);
        assert_int_equal(r0, 15);
        assert_int_equal(100 - meter, 18);
        assert_int_equal(h.calls, which & 1 ? 3 : 0);
        assert_int_equal(h.rets, which & 2 ? 3 : 0);
        assert_int_equal(h.bad, 0);
        if (tree) check_tree(c, &t, 18, 100);
        scp_sbpf_vm_destroy(vm);
        scp_tree_free(&t);
        scp_sbpf_prog_free(p);
      }
  scp_sbpf_loader_destroy(l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_call_return_meter),
    cmocka_unit_test(test_pool_grows_under_a_vm),
    cmocka_unit_test(test_call_depth),
    cmocka_unit_test(test_hooks_every_call),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
