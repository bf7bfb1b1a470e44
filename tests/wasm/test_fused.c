/*
 * test_fused.c — the engine's superinstructions (operators fused into one
 * internal instruction) compute what the unfused operators compute and
 * charge the same fuel, booked at the same pcs, as wasmi 0.31 (the fuel
 * rules are listed at the top of test_fuel.c).  Every test runs with both
 * dispatch builds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "wasm/scp_wasm.h"
#include "wasm/fuel_harness.h"

/* ---- fused forms ---------------------------------------------------------- */

/* The compiler folds a local.set into the binary operator before it (_S,
 * _C_S, _LC_S, _LL_S) and a local.tee too (_C_T, _LC_T), a constant into
 * the local.set after it (LOCAL_SET_C), a local.get into the store after
 * it (_L) and into the br_if after it (BR_IF_L), a local.tee into the load
 * after it (_T).  Each must compute what the unfused
 * operators compute (the expected values are worked out here in C), charge
 * the same fuel (counted from the rules: 1 per operator, the function's
 * base and end 1 each), and book each operator's fuel at its own pc. */
static void test_fused_forms(void **state) {
  static const char wat[] =
    "(module (memory 1)\n"
    "  (func (export \"f\") (param $x i32) (param $y i32) (result i64)\n"
    "    (local $r i32) (local $q i64) (local $i i32)\n"
    "    local.get $x local.get $y i32.sub local.set $r\n"                 /* LL_S */
    "    local.get $r i32.const -5 i32.mul local.set $r\n"                 /* LC_S */
    "    local.get $x local.get $y i32.add i32.const 3 i32.shl local.set $r\n" /* C_S */
    "    local.get $x local.get $y i32.add local.get $r local.get $x i32.xor\n"
    "    i32.sub local.set $r\n"                                            /* _S */
    "    i32.const 5 local.set $i\n"                                      /* LOCAL_SET_C */
    "    local.get $x local.get $i i32.add i32.const 2 i32.shl local.tee $r\n" /* C_T */
    "    local.get $x i32.const 7 i32.add local.tee $i\n"                 /* LC_T */
    "    i32.mul local.get $r i32.add local.get $i i32.xor local.set $r\n" /* reads both */
    "    local.get $r i64.extend_i32_u local.set $q\n"
    "    local.get $q i64.const -3 i64.add local.set $q\n"                 /* LC_S, sign-extended */
    "    local.get $q i64.const 2147483648 i64.add local.set $q\n"         /* does not fit: unfused */
    "    local.get $q i64.const 21474836480 i64.xor local.set $q\n"        /* does not fit: unfused */
    "    local.get $y local.get $q i64.store offset=8\n"                   /* store _LL (i64) */
    "    local.get $y i32.const 0 i32.add local.get $r i32.store offset=4\n" /* store _L (i32) */
    "    local.get $x local.set $i\n"
    "    (loop $l\n"
    "      local.get $i i32.const 1 i32.sub local.set $i\n"
    "      local.get $i br_if $l)\n"                                        /* BR_IF_L */
    "    local.get $x i32.const 35 i32.shl i32.const -16 i32.add local.set $r\n" /* SHL_ADD */
    "    local.get $y local.get $r i32.store offset=12\n"
    "    local.get $y i64.load offset=8 local.get $y local.tee $i i32.load offset=4\n" /* load _T */
    "    i64.extend_i32_u\n"
    "    i64.const 32 i64.shl i64.xor\n"
    "    local.get $i i64.extend_i32_u i64.const 40 i64.shl i64.xor)\n"
    "  (func (export \"oob\") (param $v i32)\n"
    "    i32.const 65534 local.get $v i32.store)\n"
    "  (func (export \"oob_ll\") (param $v i32)\n"
    "    local.get $v local.get $v i32.store)\n"
    "  (func (export \"oob_t\") (param $v i32) (result i32)\n"
    "    local.get $v local.tee $v i32.load))\n";
  fuel_mod fm;
  scp_tree t;
  fm_open(&fm, "fused", wat);
  assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
  scp_wasm_attach(fm.inst, &t, 0, 1, 4);
  uint32_t x = 9, y = 100, r;
  r = x - y;
  r = r * (uint32_t)-5;
  r = (x + y) << 3;
  r = (x + y) - (r ^ x);
  r = (((x + 5) << 2) * (x + 7) + ((x + 5) << 2)) ^ (x + 7);
  uint64_t q = r;
  q += (uint64_t)-3;
  q += 2147483648u;
  q ^= 21474836480u;   /* 5 << 32 */
  uint32_t s = (x << (35 & 31)) - 16;   /* stored at y + 12: the i64's high half */
  q = (q & 0xffffffffu) | (uint64_t)s << 32;
  uint64_t want = q ^ ((uint64_t)r << 32) ^ ((uint64_t)y << 40);
  uint64_t a[2] = {x, y}, res = 0;
  /* Fuel from the rules, over the operators read from the binary: the
   * body's base 1 + 5 locals / 8 (= 0); loads 2, every other operator 1 (the
   * body's end is the return); the loop opens a region of base 1 that
   * holds its 6 operators, entered x times; its end is free. */
  size_t len;
  uint8_t *bin = wat_binary("fused", &len);
  op_pc ops[128];
  size_t n = body_ops(bin, len, 0, ops, 128);
  assert_true(n < 128);   /* the whole body was read */
  uint64_t body = 1, loop = 0;
  bool in_loop = false;
  for (size_t i = 0; i < n; i++) {
    uint64_t cost = ops[i].op == 0x29 || ops[i].op == 0x28 ? 2 : 1;
    if (ops[i].op == 0x03) { in_loop = true; loop = 1; continue; }
    if (in_loop && ops[i].op == 0x0b) { in_loop = false; continue; }
    if (in_loop) loop += cost;
    else body += cost;
  }
  assert_int_equal(loop, 7);
  uint64_t fuel = fuel_of(&fm, "f", a, &res);
  assert_int_equal(res, want);
  assert_int_equal(fuel, body + x * loop);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  uint32_t node = find_guest(&t, 0);
  assert_int_not_equal(node, SCP_NODE_NONE);
  /* every operator's fuel at its own pc: 4 CPU per unit, loop ones x times */
  in_loop = false;
  for (size_t i = 0; i < n; i++) {
    uint64_t cost = ops[i].op == 0x29 || ops[i].op == 0x28 ? 2 : 1;
    if (ops[i].op == 0x03) { in_loop = true; continue; }
    if (in_loop && ops[i].op == 0x0b) { in_loop = false; continue; }
    uint64_t want_pc = 4 * cost * (in_loop ? x : 1);
    if (pc_cost(&t, node, ops[i].pc) != want_pc)
      print_message("operator %zu (0x%02x) at pc %llu\n", i, ops[i].op, (unsigned long long)ops[i].pc);
    assert_int_equal(pc_cost(&t, node, ops[i].pc), want_pc);
  }
  /* the loop's base: x entries at the loop's pc */
  for (size_t i = 0; i < n; i++)
    if (ops[i].op == 0x03) assert_int_equal(pc_cost(&t, node, ops[i].pc), 4 * x);

  /* a fused store that traps names the store's pc, not the local.get's */
  uint64_t v[1] = {7}, consumed = 0;
  assert_int_equal(fm_call(&fm, "oob", v, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_MEM_OOB);
  assert_int_equal(consumed, 5);   /* base 1, const, get, store, end */
  n = body_ops(bin, len, 1, ops, 128);
  assert_int_equal(n, 4);
  uint32_t func = 0;
  uint64_t pc = 0;
  assert_true(scp_wasm_trap_trace(fm.inst, 0, &func, &pc) >= 1);
  assert_int_equal(pc, ops[2].pc);
  /* and so does a store with both operands from locals (function 2),
   * and a load fused with the local.tee of its address (function 3) */
  v[0] = 65535;
  assert_int_equal(fm_call(&fm, "oob_ll", v, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_MEM_OOB);
  assert_int_equal(consumed, 5);   /* base 1, get, get, store, end */
  assert_int_equal(body_ops(bin, len, 2, ops, 128), 4);
  assert_true(scp_wasm_trap_trace(fm.inst, 0, &func, &pc) >= 1);
  assert_int_equal(pc, ops[2].pc);
  assert_int_equal(fm_call(&fm, "oob_t", v, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_MEM_OOB);
  assert_int_equal(consumed, 6);   /* base 1, get, tee, load 2, end */
  assert_int_equal(body_ops(bin, len, 3, ops, 128), 4);
  assert_true(scp_wasm_trap_trace(fm.inst, 0, &func, &pc) >= 1);
  assert_int_equal(pc, ops[2].pc);
  free(bin);
  scp_wasm_attach(fm.inst, NULL, 0, 0, 0);
  fm_close(&fm);
  scp_tree_free(&t);
}

static int setup_goto(void **state) { use_switch = false; return 0; }
static int setup_switch(void **state) { use_switch = true; return 0; }

int main(void) {
  static const struct { const char *name; CMUnitTestFunction fn; } cases[] = {
#define CASE(f) {#f, f}
    CASE(test_fused_forms),
#undef CASE
  };
  enum { N = sizeof cases / sizeof cases[0] };
  static char names[2 * N][80];
  struct CMUnitTest tests[2 * N];
  for (size_t i = 0; i < 2 * N; i++) {
    bool sw = i >= N;
    snprintf(names[i], sizeof names[i], "%s%s", cases[i % N].name, sw ? "/switch" : "");
    tests[i] = (struct CMUnitTest){names[i], cases[i % N].fn,
                                   sw ? setup_switch : setup_goto, NULL, NULL};
  }
  return _cmocka_run_group_tests("wasm_fused", tests, 2 * N, NULL, NULL);
}
