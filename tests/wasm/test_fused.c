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
#include <string.h>

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
  fm_open_tree(&fm, &t, 1, "fused", wat);
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
  fm_close_tree(&fm, &t);
}

/* ---- compare-and-branch on locals, element loads, select into a local ---- */

/* Static fuel of the operators of the module below (test_fuel.c's rules):
 * loads 2; block, loop and a block's end 0 (the loop's base is its own
 * region's); every other operator 1. */
static uint64_t static_fuel(uint8_t op) {
  if (op == 0x02 || op == 0x03 || op == 0x0b) return 0;
  return op >= 0x28 && op <= 0x35 ? 2 : 1;
}

/* What function "g" below computes, written in C. */
static uint64_t g_in_c(const uint32_t *mem, uint32_t n, uint64_t m, uint64_t *skipped) {
  uint64_t acc = 0;
  uint32_t i = 0, j = 0;
  for (;;) {
    acc += mem[i];
    if (!((int32_t)i > 5)) acc += (uint64_t)-2; else skipped[0]++;
    if (!((int64_t)m < -7)) acc <<= 1; else skipped[1]++;
    if (!(i > j)) acc ^= 3; else skipped[2]++;
    if (!(m > 4294967296u)) acc += 5; else skipped[3]++;
    j = (i & 1) ? i : j;
    acc += j;
    i++;
    if (!(i < n)) break;
  }
  return acc;
}

/* A local compared with a constant (_LC_BRIF: i32, i64 with a negative
 * constant; an i64 constant beyond 32 bits stays unfused) or with a local
 * (_LL_BRIF) and a br_if, all one instruction; a load whose address is an
 * element's, local << k + constant, at offset 0 (_X; with an offset it
 * stays unfused); a select into a local (SELECT_S).  Each computes what C
 * computes, charges the fuel of the rules, books each operator's fuel at
 * its pc, and the operators a taken fused branch skips ran as often as C
 * says (the branch counts its taken runs like an unfused br_if). */
static void test_fused_branch_load(void **state) {
  static const char wat[] =
    "(module (memory 1)\n"
    "  (data (i32.const 1024) \"\\01\\00\\00\\00\\04\\00\\00\\00\\07\\00\\00\\00\\0a\\00\\00\\00"
    "\\0d\\00\\00\\00\\10\\00\\00\\00\\13\\00\\00\\00\\16\\00\\00\\00\\19\\00\\00\\00\\1c\\00\\00\\00"
    "\\1f\\00\\00\\00\\22\\00\\00\\00\")\n"
    "  (func (export \"g\") (param $n i32) (param $m i64) (result i64)\n"
    "    (local $i i32) (local $acc i64) (local $j i32)\n"
    "    (loop $l\n"
    "      local.get $acc\n"
    "      local.get $i i32.const 2 i32.shl i32.const 1024 i32.add i64.load32_u\n" /* _X */
    "      i64.add local.set $acc\n"
    "      (block $b\n"
    "        local.get $i i32.const 5 i32.gt_s br_if $b\n"                  /* LC_BRIF i32 */
    "        local.get $acc i64.const -2 i64.add local.set $acc)\n"
    "      (block $c\n"
    "        local.get $m i64.const -7 i64.lt_s br_if $c\n"                 /* LC_BRIF i64 */
    "        local.get $acc i64.const 1 i64.shl local.set $acc)\n"
    "      (block $d\n"
    "        local.get $i local.get $j i32.gt_u br_if $d\n"                  /* LL_BRIF */
    "        local.get $acc i64.const 3 i64.xor local.set $acc)\n"
    "      (block $e\n"
    "        local.get $m i64.const 4294967296 i64.gt_u br_if $e\n"         /* does not fit */
    "        local.get $acc i64.const 5 i64.add local.set $acc)\n"
    "      local.get $i local.get $j local.get $i i32.const 1 i32.and select local.set $j\n" /* SELECT_S */
    "      local.get $acc local.get $j i64.extend_i32_u i64.add local.set $acc\n"
    "      local.get $i i32.const 1 i32.add local.tee $i\n"
    "      local.get $n i32.lt_u br_if $l)\n"
    "    local.get $acc)\n"
    "  (func (export \"x\") (param $i i32) (result i32)\n"
    "    local.get $i i32.const 2 i32.shl i32.const 1024 i32.add i32.load\n"         /* _X */
    "    local.get $i i32.const 2 i32.shl i32.const 1024 i32.add i32.load offset=4\n" /* unfused */
    "    i32.add))\n";
  uint32_t mem[16] = {0};
  for (uint32_t k = 0; k < 12; k++) mem[k] = 1 + 3 * k;
  fuel_mod fm;
  scp_tree t;
  fm_open_tree(&fm, &t, 1, "fused_br", wat);
  size_t len;
  uint8_t *bin = wat_binary("fused_br", &len);
  op_pc ops[128];
  size_t n = body_ops(bin, len, 0, ops, 128);
  assert_true(n < 128);
  /* fuel from the rules: the body's base 1 + 5 locals / 8 (= 0) and its
   * last end 1 (the return), the loop's base 1 and its operators */
  uint64_t body = 1, loop = 1;
  bool in_loop = false;
  for (size_t i = 0; i < n; i++) {
    if (ops[i].op == 0x03) in_loop = true;
    if (in_loop) loop += static_fuel(ops[i].op);
    else body += static_fuel(ops[i].op);
    if (i + 3 == n) in_loop = false;    /* the loop's end, before local.get $acc */
  }
  body += 1;
  assert_int_equal(loop, 1 + 61);
  /* m = 5: no branch taken but $b's after i = 5 and $d's while i > j;
   * m = -9 takes $c's, and as unsigned $e's too; m = 2^33 takes $e's */
  static const uint64_t ms[3] = {5, (uint64_t)-9, 8589934592u};
  uint64_t skipped[4] = {0};
  for (int k = 0; k < 3; k++) {
    uint64_t a[2] = {10, ms[k]}, res = 0, skip[4] = {0};
    assert_int_equal(fuel_of(&fm, "g", a, &res), body + 10 * loop);
    assert_int_equal(res, g_in_c(mem, 10, ms[k], skip));
    for (int s = 0; s < 4; s++) skipped[s] += skip[s];
  }
  assert_int_equal(skipped[0], 3 * 4);   /* i = 6..9 */
  assert_int_equal(skipped[1], 10);
  assert_int_equal(skipped[3], 20);   /* 2^33 and -9 as unsigned */
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  uint32_t node = find_guest(&t, 0);
  assert_int_not_equal(node, SCP_NODE_NONE);
  /* every operator's fuel at its own pc (3 calls: the loop's 30 times);
   * the four operators after each fused br_if ran 30 - skipped times */
  in_loop = false;
  int block = -1;
  for (size_t i = 0; i < n; i++) {
    if (ops[i].op == 0x03) in_loop = true;
    uint64_t times = in_loop ? 30 : 3;
    /* the loop's own pc: its base, once per entry; the body's end: the return */
    uint64_t fuel = ops[i].op == 0x03 || i + 1 == n ? 1 : static_fuel(ops[i].op);
    assert_int_equal(pc_cost(&t, node, ops[i].pc), 4 * fuel * times);
    if (ops[i].op == 0x02) block++;
    if (i >= 4 && ops[i - 4].op == 0x0d && block >= 0 && block < 4) {
      for (size_t k = i - 3; k <= i; k++) {
        if (pc_runs(&t, node, ops[k].pc) != 30 - skipped[block])
          print_message("block %d operator %zu (0x%02x)\n", block, k, ops[k].op);
        assert_int_equal(pc_runs(&t, node, ops[k].pc), 30 - skipped[block]);
      }
    }
    if (i + 3 == n) in_loop = false;
  }
  assert_int_equal(block, 3);

  /* the element load: wraps its address to 32 bits, keeps the other's
   * offset, and a trap names the load that trapped */
  uint64_t v[1] = {2}, res = 0, consumed = 0;
  fuel_of(&fm, "x", v, &res);
  assert_int_equal(res, mem[2] + mem[3]);
  v[0] = 0x40000003;   /* << 2 wraps to 12 */
  fuel_of(&fm, "x", v, &res);
  assert_int_equal(res, mem[3] + mem[4]);
  n = body_ops(bin, len, 1, ops, 128);
  assert_int_equal(n, 14);
  uint32_t func = 0;
  uint64_t pc = 0;
  v[0] = 16128;        /* 1024 + 4 * 16128 = 65536: the first load */
  assert_int_equal(fm_call(&fm, "x", v, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_MEM_OOB);
  assert_int_equal(consumed, 1 + 2 * (5 + 2) + 1 + 1);   /* base, 2 loads' 7, add, end */
  assert_true(scp_wasm_trap_trace(fm.inst, 0, &func, &pc) >= 1);
  assert_int_equal(pc, ops[5].pc);
  v[0] = 16127;        /* the first reads 65532..65535, the second 65536 */
  assert_int_equal(fm_call(&fm, "x", v, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_true(scp_wasm_trap_trace(fm.inst, 0, &func, &pc) >= 1);
  assert_int_equal(pc, ops[11].pc);
  free(bin);
  fm_close_tree(&fm, &t);
}

/* ---- a load into a local ---------------------------------------------------- */

/* A load addressed by a local (_LS) or by a local.tee (_TS) with the
 * local.set after it folded in: the value lands in the local, the fuel is
 * the rules', and a trap names the load's pc, not the local.set's, and
 * does not count a run of the local.set (nor of what follows). */
static void test_fused_load_set(void **state) {
  static const char wat[] =
    "(module (memory 1)\n"
    "  (func (export \"ls\") (param $p i32) (result i32) (local $v i32) (local $w i32) (local $u i32)\n"
    "    local.get $p i32.load offset=4 local.set $v\n"                  /* _LS */
    "    local.get $p local.tee $u i32.load16_u offset=8 local.set $w\n"  /* _TS */
    "    local.get $v local.get $w i32.sub local.get $u i32.add))\n";
  fuel_mod fm;
  scp_tree t;
  fm_open_tree(&fm, &t, 1, "fused_ls", wat);
  size_t len;
  uint8_t *bin = wat_binary("fused_ls", &len);
  op_pc ops[32];
  size_t n = body_ops(bin, len, 0, ops, 32);
  assert_int_equal(n, 13);
  uint64_t mem_len = 0;
  uint8_t *mem = scp_wasm_memory(fm.inst, &mem_len);
  assert_int_equal(mem_len, 65536);
  /* memory at 100: bytes 104..107 = 0x11223344, 108..109 = 0xbeef */
  static const uint8_t init[] = {0x44, 0x33, 0x22, 0x11, 0xef, 0xbe};
  memcpy(mem + 104, init, sizeof init);
  memcpy(mem + 65528, init, 4);   /* the second trap's first load reads these */
  uint64_t a[1] = {100}, res = 0, consumed = 0;
  /* base 1 + 4 locals / 8 (= 0); 2 loads of 2; 11 more operators of 1
   * (the end is the return) */
  assert_int_equal(fuel_of(&fm, "ls", a, &res), 1 + 2 * 2 + 11);
  assert_int_equal(res, (uint32_t)(0x11223344u - 0xbeefu + 100u));
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  /* the first load traps (65533 + 4 + 4 > 65536): its pc; the second
   * load traps (65528 + 8 + 2 > 65536): its pc */
  static const uint32_t ps[2] = {65533, 65528};
  static const size_t trap_op[2] = {1, 5};
  for (int k = 0; k < 2; k++) {
    uint32_t func = 0;
    uint64_t pc = 0;
    a[0] = ps[k];
    assert_int_equal(fm_call(&fm, "ls", a, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
    assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_MEM_OOB);
    assert_int_equal(consumed, 1 + 2 * 2 + 11);   /* the body's region, charged on entry */
    assert_true(scp_wasm_trap_trace(fm.inst, 0, &func, &pc) >= 1);
    assert_int_equal(pc, ops[trap_op[k]].pc);
    assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  }
  /* 3 entries: the operators up to the first load ran 3 times, from its
   * local.set to the second load twice, the rest once; every pc costs
   * its fuel x 3 entries x 4 */
  uint32_t node = find_guest(&t, 0);
  assert_int_not_equal(node, SCP_NODE_NONE);
  for (size_t i = 0; i < n; i++) {
    uint64_t want_runs = i <= 1 ? 3 : i <= 5 ? 2 : 1;
    uint64_t fuel = ops[i].op == 0x28 || ops[i].op == 0x2f ? 2 : 1;
    if (pc_runs(&t, node, ops[i].pc) != want_runs)
      print_message("operator %zu (0x%02x): ran %llu\n", i, ops[i].op,
                    (unsigned long long)pc_runs(&t, node, ops[i].pc));
    assert_int_equal(pc_runs(&t, node, ops[i].pc), want_runs);
    assert_int_equal(pc_cost(&t, node, ops[i].pc), 4 * fuel * 3);
  }
  free(bin);
  fm_close_tree(&fm, &t);
}

/* ---- a loop's back edge ------------------------------------------------------ */

/* A taken branch to a loop's start counts the branch and enters the loop's
 * region in one instruction (TAKEN_FUEL): each entry charges the loop's
 * fuel, and an entry the tank cannot pay stops at the loop, whose pc the
 * trap names, with nothing of that entry run. */
static void test_fused_back_edge(void **state) {
  static const char wat[] =
    "(module\n"
    "  (func (export \"f\") (param $n i32) (result i32) (local $s i32)\n"
    "    (loop $l\n"
    "      local.get $s local.get $n i32.add local.set $s\n"
    "      local.get $n i32.const 1 i32.sub local.tee $n\n"
    "      br_if $l)\n"
    "    local.get $s))\n";
  fuel_mod fm;
  scp_tree t;
  fm_open_tree(&fm, &t, 1, "fused_loop", wat);
  size_t len;
  uint8_t *bin = wat_binary("fused_loop", &len);
  op_pc ops[16];
  size_t n = body_ops(bin, len, 0, ops, 16);
  assert_int_equal(n, 13);
  assert_int_equal(ops[0].op, 0x03);
  /* body: base 1 + local.get, end 1 = 3; loop: base 1 + 9 operators
   * (its end 0) = 10 */
  uint64_t a[1] = {4}, res = 0, consumed = 0;
  assert_int_equal(fuel_of(&fm, "f", a, &res), 3 + 4 * 10);
  assert_int_equal(res, 4 + 3 + 2 + 1);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  /* 3 + 2 * 10 + 9: the third entry cannot pay its 10 */
  uint32_t func = 0;
  uint64_t pc = 0;
  assert_int_equal(fm_call(&fm, "f", a, NULL, 3 + 2 * 10 + 9, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 3 + 2 * 10);
  assert_true(scp_wasm_trap_trace(fm.inst, 0, &func, &pc) >= 1);
  assert_int_equal(pc, ops[0].pc);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  /* the loop entered 4 + 2 times, its operators ran as often */
  uint32_t node = find_guest(&t, 0);
  assert_int_not_equal(node, SCP_NODE_NONE);
  for (size_t i = 0; i < 10; i++) assert_int_equal(pc_runs(&t, node, ops[i].pc), 6);
  assert_int_equal(pc_cost(&t, node, ops[0].pc), 4 * 6);
  free(bin);
  fm_close_tree(&fm, &t);
}


int main(void) {
  static const fuel_case cases[] = {
#define CASE(f) {#f, f}
    CASE(test_fused_forms),
    CASE(test_fused_branch_load),
    CASE(test_fused_load_set),
    CASE(test_fused_back_edge),
#undef CASE
  };
  return fuel_run_both_builds("wasm_fused", cases, sizeof cases / sizeof cases[0]);
}
