/*
 * test_fuel.c — exact fuel of the WASM engine, derived by hand from
 * Soroban's wasmi 0.31 (stellar/wasmi tag v0.31.1-soroban.20.0.1).
 *
 * Every number below is worked out in a comment from these rules (see
 * docs/reference/metering.txt; "T:NNN" cites
 * crates/wasmi/src/engine/func_builder/translator.rs, "E:NNN"
 * crates/wasmi/src/engine/executor.rs, "C:NNN" engine/config.rs):
 *
 *   region entry (function body, loop, then-arm, else-arm): base 1
 *   function entry: + (params + locals) / 8                     T:181-186
 *   consts, local.*, drop, select, numeric, unreachable: 1
 *   nop: 0 (visit_nop emits nothing)                            T:832-834
 *   global.get/set, memory.size/grow/fill/copy/init, data.drop,
 *   table.init/copy, elem.drop: entity 3
 *   loads 2, stores 1, call / call_indirect 67
 *   block: no region of its own, its ops go to the parent        T:848-862
 *   if: 1 in the enclosing region (BrIfEqz), then-arm region     T:909
 *   else: + 1 in the ENCLOSING region when the then-arm end is
 *         reachable (its Br: visit_else pops the `if` frame before it
 *         bumps the fuel), else-arm region                       T:946-964
 *   br / br_if to a label: 1 (+ drop_keep fuel)                  T:1038,1070
 *   br_if to the function's outermost label: ReturnIfNez, 0     T:1086-1092
 *   br to the outermost label, return, reachable end of the
 *   function body: 1 (+ drop_keep fuel)                          T:1198-1202,
 *                                                                T:1013-1018
 *   br_table: 1 + max drop_keep fuel over its targets            T:1166-1192
 *   drop_keep fuel = keep / 8 when drop != 0 (C:148-153); keep is
 *   at most 1 without multi-value, so it is always 0 for Soroban.
 *   Dynamic (Eager mode: charged BEFORE the operation runs, and kept even
 *   when the operation then fails):                              E:777-786
 *     memory.grow: delta*65536/64 = 1024 per page; no charge when
 *       delta > 65536 pages (Pages::new fails first)             E:1099-1137
 *     memory.fill/copy/init: n/64 where n is the i32 length
 *       SIGN-EXTENDED to usize (`i32::from(n) as usize`), so a length
 *       >= 2^31 costs ~2^58 fuel: out of fuel, not out of bounds E:1141-1210
 *     table.init/copy: n/8                                       E:1304-1357
 *   out of fuel: the charge that does not fit is not taken; fuel left
 *   is unchanged (crates/wasmi/src/store.rs:252-258, checked_sub).
 *   memory.grow's limiter (our grow hook) runs for delta > 0 only, after
 *   the fuel, before the maximum check (memory/mod.rs:197-248); at
 *   instantiation it sees (0, initial bytes).
 *   Limits: 1025 live wasm frames (the running frame is not on wasmi's
 *   CallStack, engine/stack/frames.rs:74-80 + executor.rs:207) and
 *   131072 value-stack cells (engine/stack/mod.rs:23-29).
 *
 * Modules are WAT string literals converted with wat2wasm into
 * $SCP_BUILD/fuel/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "wasm/scp_wasm.h"
#include "wasm/wasm_private.h"   /* body_len: that the engine fused operators */
#include "wasm/fuel_harness.h"

static uint64_t global_value(fuel_mod *fm, const char *name) {
  uint8_t kind;
  uint32_t index;
  uint64_t v = 0;
  assert_true(scp_wasm_export_find(fm->m, name, strlen(name), &kind, &index));
  assert_int_equal(kind, SCP_EXT_GLOBAL);
  assert_true(scp_wasm_global_get(fm->inst, index, &v));
  return v;
}

/* ---- function body region --------------------------------------------- */

static void test_body_region(void **state) {
  fuel_mod fm;
  uint64_t r;
  fm_open(&fm, "body",
    "(module\n"
    "  (func (export \"empty\"))\n"
    "  (func (export \"const\") (result i32) i32.const 7)\n"
    "  (func (export \"nops\") nop nop nop nop)\n"
    "  (func (export \"add\") (result i32) i32.const 1 i32.const 2 i32.add)\n"
    "  (func (export \"select\") (result i32)\n"
    "    i32.const 1 i32.const 2 i32.const 0 select)\n"
    "  (func (export \"bigconst\") (result i64) i64.const 0x123456789)\n"
    "  (func (export \"sext\") (result i32) i32.const 0x80 i32.extend8_s)\n"
    "  (func (export \"ret\") (result i32) i32.const 1 return)\n"
    "  (func (export \"dead\") (result i32)\n"
    "    i32.const 1 return i32.const 2 i32.const 3 i32.add drop))\n");
  /* entry 1 + reachable end of the body (implicit return) 1 = 2 */
  assert_int_equal(fuel_of(&fm, "empty", NULL, NULL), 2);
  /* entry 1 + i32.const 1 + end 1 = 3 */
  assert_fuel_ret(&fm, "const", NULL, 3, 7);
  /* nop costs nothing (T:832): entry 1 + end 1 = 2 */
  assert_int_equal(fuel_of(&fm, "nops", NULL, NULL), 2);
  /* entry 1 + 2 consts + add 1 + end 1 = 5 */
  assert_fuel_ret(&fm, "add", NULL, 5, 3);
  /* entry 1 + 3 consts + select 1 + end 1 = 6 */
  assert_fuel_ret(&fm, "select", NULL, 6, 2);
  /* a 64-bit constant (ConstRef) is base too: 1 + 1 + 1 = 3 */
  assert_int_equal(fuel_of(&fm, "bigconst", NULL, &r), 3);
  assert_int_equal(r, 0x123456789ULL);
  /* sign-extension is a unary op, base: 1 + 1 + 1 + 1 = 4 */
  assert_fuel_ret(&fm, "sext", NULL, 4, 0xffffff80u);
  /* entry 1 + const 1 + return 1; the end is unreachable, no charge = 3 */
  assert_int_equal(fuel_of(&fm, "ret", NULL, NULL), 3);
  /* ops after `return` are unreachable and add nothing: 1 + 1 + 1 = 3 */
  assert_fuel_ret(&fm, "dead", NULL, 3, 1);
  fm_close(&fm);
}

static void test_locals(void **state) {
  fuel_mod fm;
  uint64_t args[3] = {1, 2, 3};
  fm_open(&fm, "locals",
    "(module\n"
    "  (func (export \"p3l4\") (param i32 i32 i32) (local i64 i64 i64 i64)\n"
    "    local.get 0 drop)\n"
    "  (func (export \"p3l5\") (param i32 i32 i32) (local i64 i64 i64 i64 i64)\n"
    "    local.get 0 drop)\n"
    "  (func (export \"l15\") (local i32 i32 i32 i32 i32 i32 i32 i32\n"
    "                             i32 i32 i32 i32 i32 i32 i32))\n"
    "  (func (export \"l16\") (local i32 i32 i32 i32 i32 i32 i32 i32\n"
    "                             i32 i32 i32 i32 i32 i32 i32 i32))\n"
    "  (func (export \"l100\") (local i64) (local i32) (local i64 i64 i64 i64 i64 i64 i64 i64\n"
    "     i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64\n"
    "     i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64\n"
    "     i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64\n"
    "     i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64\n"
    "     i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)))\n");
  /* 3 params + 4 locals = 7, 7/8 = 0: entry 1 + get 1 + drop 1 + end 1 = 4 */
  assert_int_equal(fuel_of(&fm, "p3l4", args, NULL), 4);
  /* 3 + 5 = 8, 8/8 = 1: 1 + 1 + 1 + 1 + 1 = 5 */
  assert_int_equal(fuel_of(&fm, "p3l5", args, NULL), 5);
  /* 15/8 = 1: entry 1 + 1 + end 1 = 3 */
  assert_int_equal(fuel_of(&fm, "l15", NULL, NULL), 3);
  /* 16/8 = 2: 1 + 2 + 1 = 4 */
  assert_int_equal(fuel_of(&fm, "l16", NULL, NULL), 4);
  /* 1 + 1 + 98 = 100 locals in three groups, 100/8 = 12: 1 + 12 + 1 = 14 */
  assert_int_equal(fuel_of(&fm, "l100", NULL, NULL), 14);
  fm_close(&fm);
}

/* ---- blocks and branches ---------------------------------------------- */

static void test_block_and_early_exit(void **state) {
  fuel_mod fm;
  uint64_t a0[1] = {0}, a1[1] = {1};
  fm_open(&fm, "block",
    "(module\n"
    "  (func (export \"blk\") (result i32)\n"
    "    (block (result i32) i32.const 1 i32.const 2 i32.add))\n"
    "  (func (export \"early\") (param i32) (result i32)\n"
    "    (block $b\n"
    "      local.get 0\n"
    "      br_if $b\n"
    "      i32.const 1 drop i32.const 2 drop)\n"
    "    i32.const 7)\n"
    "  (func (export \"dropkeep\") (result i32)\n"
    "    (block (result i32) i32.const 1 i32.const 2 i32.const 3 br 0)))\n");
  /* the block adds into the body: entry 1 + 3 ops + end 1 = 5 */
  assert_fuel_ret(&fm, "blk", NULL, 5, 3);
  /* one region whatever the branch does: entry 1 + local.get 1 + br_if 1 +
   * 4 ops + i32.const 1 + end 1 = 9, with or without the early exit */
  assert_fuel_ret(&fm, "early", a0, 9, 7);
  assert_fuel_ret(&fm, "early", a1, 9, 7);
  /* br with drop 2 keep 1: drop_keep fuel 1/8 = 0.  entry 1 + 3 consts +
   * br 1 + end 1 = 6 */
  assert_fuel_ret(&fm, "dropkeep", NULL, 6, 3);
  fm_close(&fm);
}

static void test_branch_to_function_label(void **state) {
  fuel_mod fm;
  uint64_t a0[1] = {0}, a1[1] = {1};
  fm_open(&fm, "brfunc",
    "(module\n"
    "  (func (export \"brif\") (param i32) (result i32)\n"
    "    i32.const 5\n"
    "    local.get 0\n"
    "    br_if 0\n"
    "    drop\n"
    "    i32.const 6)\n"
    "  (func (export \"br\") (result i32)\n"
    "    i32.const 5\n"
    "    br 0))\n");
  /* br_if to the body label is ReturnIfNez and costs NOTHING (T:1091):
   * entry 1 + const 1 + local.get 1 + br_if 0 + drop 1 + const 1 + end 1 = 6.
   * (A br_if to any inner label costs 1.) */
  assert_fuel_ret(&fm, "brif", a0, 6, 6);
  assert_fuel_ret(&fm, "brif", a1, 6, 5);
  /* br to the body label is translated as `return`: 1; end unreachable.
   * entry 1 + const 1 + br 1 = 3 */
  assert_fuel_ret(&fm, "br", NULL, 3, 5);
  fm_close(&fm);
}

static void test_br_table(void **state) {
  fuel_mod fm;
  fm_open(&fm, "brtable",
    "(module\n"
    "  (func (export \"f\") (param i32) (result i32)\n"
    "    (block $a\n"
    "      (block $b\n"
    "        (block $c\n"
    "          local.get 0\n"
    "          br_table $c $b $a)\n"
    "        i32.const 100\n"
    "        return)\n"
    "      i32.const 200\n"
    "      return)\n"
    "    i32.const 300)\n"
    "  (func (export \"g\") (param i32) (result i32)\n"
    "    (block $x (result i32)\n"
    "      i32.const 9\n"
    "      i32.const 8\n"
    "      local.get 0\n"
    "      br_table $x 0 1)))\n");
  /* all blocks add into the body region: entry 1 + local.get 1 +
   * br_table 1 (+ max drop_keep 0) + (const 1 + return 1) * 2 + const 1 +
   * end 1 = 9, whichever arm is taken */
  static const uint64_t want[4] = {100, 200, 300, 300};
  for (uint64_t i = 0; i < 4; i++) {
    uint64_t a[1] = {i == 3 ? 77 : i};
    assert_fuel_ret(&fm, "f", a, 9, want[i]);
  }
  /* targets keep 1 and drop 1 (block) or drop 1 + 1 param (return):
   * drop_keep fuel 1/8 = 0.  entry 1 + 3 pushes + br_table 1 + end 1 = 6 */
  uint64_t a0[1] = {0}, a5[1] = {5};
  assert_fuel_ret(&fm, "g", a0, 6, 8);
  assert_fuel_ret(&fm, "g", a5, 6, 8);
  fm_close(&fm);
}

/* ---- loops and ifs ---------------------------------------------------- */

static const char loop_wat[] =
  "(module\n"
  "  (func (export \"down\") (param $n i32)\n"
  "    (loop $l\n"
  "      local.get $n\n"
  "      i32.const 1\n"
  "      i32.sub\n"
  "      local.tee $n\n"
  "      br_if $l))\n"
  "  (func (export \"nested\") (param $i i32) (local $j i32)\n"
  "    (loop $outer\n"
  "      i32.const 2\n"
  "      local.set $j\n"
  "      (loop $inner\n"
  "        local.get $j\n"
  "        i32.const 1\n"
  "        i32.sub\n"
  "        local.tee $j\n"
  "        br_if $inner)\n"
  "      local.get $i\n"
  "      i32.const 1\n"
  "      i32.sub\n"
  "      local.tee $i\n"
  "      br_if $outer)))\n";

static void test_loop_reentry(void **state) {
  fuel_mod fm;
  fm_open(&fm, "loop", loop_wat);
  /* body region: entry 1 + 1 param / 8 = 0 + end 1 = 2 (the loop's ops
   * are not in it).  loop region: entry 1 + get 1 + const 1 + sub 1 +
   * tee 1 + br_if 1 (drop 0) = 6, paid on every entry: 2 + 6n */
  static const uint64_t ns[] = {1, 2, 5, 100};
  for (size_t i = 0; i < SCP_ARRAY_LEN(ns); i++) {
    uint64_t a[1] = {ns[i]};
    assert_int_equal(fuel_of(&fm, "down", a, NULL), 2 + 6 * ns[i]);
  }
  /* body 2 (2 locals / 8 = 0).  outer region: entry 1 + const 1 + set 1 +
   * the five ops after the inner loop's end (get, const, sub, tee,
   * br_if) = 8.  inner region: 1 + 5 = 6.  i = 3: outer entered 3 times,
   * inner 2 times per outer: 2 + 3*8 + 6*6 = 62 */
  uint64_t a3[1] = {3};
  assert_int_equal(fuel_of(&fm, "nested", a3, NULL), 62);
  fm_close(&fm);
}

static void test_if_else(void **state) {
  fuel_mod fm;
  uint64_t a0[1] = {0}, a1[1] = {1}, a4[1] = {4};
  fm_open(&fm, "ifelse",
    "(module\n"
    "  (func (export \"ifelse\") (param i32) (result i32)\n"
    "    local.get 0\n"
    "    if (result i32)\n"
    "      i32.const 10\n"
    "    else\n"
    "      i32.const 20 i32.const 1 i32.add\n"
    "    end)\n"
    "  (func (export \"ifonly\") (param i32)\n"
    "    local.get 0\n"
    "    if\n"
    "      i32.const 1 drop\n"
    "    end)\n"
    "  (func (export \"thenret\") (param i32) (result i32)\n"
    "    local.get 0\n"
    "    if (result i32)\n"
    "      i32.const 1 return\n"
    "    else\n"
    "      i32.const 2\n"
    "    end)\n"
    "  (func (export \"inloop\") (param $n i32) (result i32) (local $acc i32)\n"
    "    (loop $l\n"
    "      local.get $n i32.const 1 i32.and\n"
    "      if\n"
    "        local.get $acc i32.const 1 i32.add local.set $acc\n"
    "      else\n"
    "        local.get $acc i32.const 10 i32.add local.set $acc\n"
    "      end\n"
    "      local.get $n i32.const 1 i32.sub local.tee $n\n"
    "      br_if $l)\n"
    "    local.get $acc))\n");
  /* body: entry 1 + get 1 + if 1 + the Br at `else` 1 + end 1 = 5.
   * then: 1 + const 1 = 2.  else: 1 + 3 ops = 4.  true 5+2 = 7,
   * false 5+4 = 9: the Br is paid although the then-arm never ran */
  assert_fuel_ret(&fm, "ifelse", a1, 7, 10);
  assert_fuel_ret(&fm, "ifelse", a0, 9, 21);
  /* no else, no Br: body 4, then-arm 1 + 2 = 3.  true 7, false 4 */
  assert_int_equal(fuel_of(&fm, "ifonly", a1, NULL), 7);
  assert_int_equal(fuel_of(&fm, "ifonly", a0, NULL), 4);
  /* then-arm ends unreachable (return), so no Br charge: then 1 + 1 +
   * return 1 = 3, else 1 + 1 = 2; body 4.  true 7, false 6 */
  assert_fuel_ret(&fm, "thenret", a1, 7, 1);
  assert_fuel_ret(&fm, "thenret", a0, 6, 2);
  /* body: entry 1 + 2 locals / 8 = 0 + get 1 + end 1 = 3.
   * loop: 1 + get, const, and 3 + if 1 + the then-arm's Br 1 + get,
   * const, sub, tee, br_if 5 = 11 (ops after the if's end go back to the
   * loop region).  then: 1 + 4 = 5.  else: 1 + 4 = 5.
   * n = 4, 3, 2, 1: 4 loop entries, odd n take `then` (3, 1), even `else`:
   * 3 + 4*11 + 2*5 + 2*5 = 67; acc = 10 + 1 + 10 + 1 = 22 */
  assert_fuel_ret(&fm, "inloop", a4, 67, 22);
  fm_close(&fm);
}

/* The Br that ends a reachable then-arm is charged where wasmi's
 * visit_else charges it: after it has popped the `if` frame, so to the
 * enclosing region, paid on every entry of that region whether or not the
 * then-arm runs.  The argument-building loops of SDK contracts have this
 * shape (`loop { if done {..} else {..; br loop} }`). */
static void test_else_br_enclosing(void **state) {
  fuel_mod fm;
  fm_open(&fm, "elsebr",
    "(module\n"
    "  (func (export \"sdkloop\") (param $n i32) (result i32) (local $i i32)\n"
    "    (loop $l\n"
    "      local.get $i local.get $n i32.ge_u\n"
    "      if\n"
    "        local.get $i i32.const 100 i32.add local.set $i\n"
    "      else\n"
    "        local.get $i i32.const 1 i32.add local.set $i\n"
    "        br $l\n"
    "      end)\n"
    "    local.get $i)\n"
    "  (func (export \"nestloop\") (param $n i32) (param $m i32) (result i32)\n"
    "    (local $acc i32)\n"
    "    (loop $l\n"
    "      local.get $n\n"
    "      if\n"
    "        local.get $m\n"
    "        if\n"
    "          local.get $acc i32.const 1 i32.add local.set $acc\n"
    "        else\n"
    "          local.get $acc i32.const 2 i32.add local.set $acc\n"
    "        end\n"
    "        local.get $n i32.const 1 i32.sub local.set $n\n"
    "        br $l\n"
    "      end)\n"
    "    local.get $acc))\n");
  /* sdkloop: body = entry 1 + (1 param + 1 local)/8 0 + get 1 + end 1 = 3.
   * loop: 1 + get, get, ge_u 3 + if 1 + the then-arm's Br 1 = 6.
   * then: 1 + get, const, add, set 4 = 5.  else: 1 + 4 + br 1 = 6.
   * n = 3: i = 0, 1, 2 take the else-arm (3 loop entries), i = 3 the
   * then-arm (a 4th): 3 + 4*6 + 3*6 + 5 = 50 (with the Br in the then-arm
   * it would be 3 + 4*5 + 3*6 + 6 = 47: 1 fuel per loop entry that does
   * not take the then-arm).  n = 0: then-arm at once: 3 + 6 + 5 = 14. */
  uint64_t a3[1] = {3}, a0[1] = {0};
  assert_fuel_ret(&fm, "sdkloop", a3, 50, 103);
  assert_fuel_ret(&fm, "sdkloop", a0, 14, 100);
  /* nestloop: body = 1 + (2 params + 1 local)/8 0 + get 1 + end 1 = 3.
   * loop: 1 + get 1 + if 1 = 3 (the outer then-arm ends in `br`, so it
   * has no Br over an else-arm).  outer then: 1 + get 1 + inner if 1 +
   * the inner then-arm's Br 1 + get, const, sub, set 4 + br 1 = 9.
   * inner then: 1 + 4 = 5; inner else: 1 + 4 = 5.
   * n = 2: 3 loop entries (n = 2, 1, 0), 2 outer then-arms, 2 inner arms:
   * 3 + 3*3 + 2*9 + 2*5 = 40 for m = 1 (acc 2) and m = 0 (acc 4); the
   * Br in the inner then-arm would give m = 0 38 */
  uint64_t a21[2] = {2, 1}, a20[2] = {2, 0};
  assert_fuel_ret(&fm, "nestloop", a21, 40, 2);
  assert_fuel_ret(&fm, "nestloop", a20, 40, 4);
  fm_close(&fm);
}

/* ---- calls ------------------------------------------------------------ */

static void test_calls(void **state) {
  fuel_mod fm;
  fm_open(&fm, "calls",
    "(module\n"
    "  (type $t (func (param i32) (result i32)))\n"
    "  (import \"env\" \"h\" (func $h (type $t)))\n"
    "  (table 2 funcref)\n"
    "  (elem (i32.const 0) $callee $h)\n"
    "  (func $callee (type $t) local.get 0 i32.const 1 i32.add)\n"
    "  (func (export \"direct\") (result i32) i32.const 41 call $callee)\n"
    "  (func (export \"indirect\") (result i32)\n"
    "    i32.const 41 i32.const 0 call_indirect (type $t))\n"
    "  (func (export \"host\") (result i32) i32.const 41 call $h)\n"
    "  (func (export \"hostind\") (result i32)\n"
    "    i32.const 41 i32.const 1 call_indirect (type $t)))\n");
  /* callee: entry 1 + 1 param / 8 = 0 + 3 ops + end 1 = 5.
   * direct: entry 1 + const 1 + call 67 + end 1 = 70; total 75 */
  assert_fuel_ret(&fm, "direct", NULL, 75, 42);
  /* indirect: 1 + 2 consts + call_indirect 67 + end 1 = 71; + callee 5 = 76 */
  assert_fuel_ret(&fm, "indirect", NULL, 76, 42);
  /* host import: the call is 67 in the caller, the host body costs no
   * fuel: 1 + 1 + 67 + 1 = 70 */
  assert_fuel_ret(&fm, "host", NULL, 70, 42);
  assert_int_equal(fm.host_calls, 1);
  /* host import through the table: 1 + 2 + 67 + 1 = 71 */
  assert_fuel_ret(&fm, "hostind", NULL, 71, 42);
  assert_int_equal(fm.host_calls, 2);
  fm_close(&fm);
}

/* The host hook's import_index is the index among ALL imports (the
 * header's word, and what scp_wasm_import_get takes), not among function
 * imports: here the function is import 1, function 0. */
static void test_import_index(void **state) {
  fuel_mod fm;
  fm_open(&fm, "impidx",
    "(module\n"
    "  (import \"env\" \"g\" (global $g i32))\n"
    "  (import \"env\" \"h\" (func $h (param i32) (result i32)))\n"
    "  (func (export \"f\") (result i32) global.get $g call $h))\n");
  /* 1 + global.get 3 + call 67 + end 1 = 72; g = 1000 (first global import) */
  assert_fuel_ret(&fm, "f", NULL, 72, 1001);
  assert_int_equal(fm.last_import, 1);
  const scp_wasm_import *imp = scp_wasm_import_get(fm.m, fm.last_import);
  assert_non_null(imp);
  assert_int_equal(imp->kind, SCP_EXT_FUNC);
  fm_close(&fm);
}

/* ---- globals and memory ----------------------------------------------- */

static void test_globals_loads_stores(void **state) {
  fuel_mod fm;
  uint64_t r;
  fm_open(&fm, "mem",
    "(module\n"
    "  (memory 1)\n"
    "  (global $g (export \"g\") (mut i32) (i32.const 0))\n"
    "  (global $c i32 (i32.const 5))\n"
    "  (func (export \"inc\") global.get $g i32.const 1 i32.add global.set $g)\n"
    "  (func (export \"imm\") (result i32) global.get $c)\n"
    "  (func (export \"ldst\") (result i32)\n"
    "    i32.const 0 i32.const 7 i32.store\n"
    "    i32.const 0 i32.load)\n"
    "  (func (export \"narrow\") (result i64)\n"
    "    i32.const 8 i64.const -1 i64.store8\n"
    "    i32.const 8 i64.load8_u)\n"
    "  (func (export \"size\") (result i32) memory.size))\n");
  /* entry 1 + global.get 3 + const 1 + add 1 + global.set 3 + end 1 = 10 */
  assert_int_equal(fuel_of(&fm, "inc", NULL, NULL), 10);
  assert_int_equal(global_value(&fm, "g"), 1);
  /* an immutable global.get is still entity (T:1421): 1 + 3 + 1 = 5 */
  assert_fuel_ret(&fm, "imm", NULL, 5, 5);
  /* 1 + const 1 + const 1 + store 1 + const 1 + load 2 + end 1 = 8 */
  assert_fuel_ret(&fm, "ldst", NULL, 8, 7);
  /* narrow forms cost the same: 1 + 1 + 1 + 1 + 1 + 2 + 1 = 8 */
  assert_int_equal(fuel_of(&fm, "narrow", NULL, &r), 8);
  assert_int_equal(r, 0xff);
  /* 1 + memory.size 3 + 1 = 5 */
  assert_fuel_ret(&fm, "size", NULL, 5, 1);
  fm_close(&fm);
}

static const char grow_wat[] =
  "(module\n"
  "  (memory 1 10)\n"
  "  (func (export \"grow\") (param i32) (result i32) local.get 0 memory.grow)\n"
  "  (func (export \"size\") (result i32) memory.size))\n";

static void test_memory_grow(void **state) {
  fuel_mod fm;
  uint64_t r, consumed;
  fm_open(&fm, "grow", grow_wat);
  /* static: entry 1 + local.get 1 + memory.grow 3 + end 1 = 6;
   * dynamic: 1024 per page (65536 bytes / 64), charged before growing.
   * The limiter hook (wasmi memory/mod.rs:197-248) runs for every delta > 0
   * once the fuel is paid, before the maximum is checked.  Instantiation
   * already called it once for the initial memory, as wasmi's
   * MemoryEntity::new does (memory_growing(0, initial)). */
  assert_int_equal(fm.grow_calls, 1);
  assert_int_equal(fm.grow_cur, 0);
  assert_int_equal(fm.grow_desired, 65536);
  fm.grow_calls = 0;
  uint64_t a0[1] = {0}, a2[1] = {2}, a20[1] = {20}, amax[1] = {65536},
           aover[1] = {65537}, a1[1] = {1};
  assert_fuel_ret(&fm, "grow", a0, 6, 1);
  assert_int_equal(fm.grow_calls, 0);                   /* delta 0: no hook */
  assert_int_equal(fuel_of(&fm, "grow", a2, &r), 6 + 2 * 1024);
  assert_int_equal((uint32_t)r, 1);                     /* old size */
  assert_int_equal(fm.grow_calls, 1);
  assert_int_equal(fm.grow_cur, 65536);
  assert_int_equal(fm.grow_desired, 3 * 65536);
  /* over the maximum: Eager mode has charged 20 pages before the grow
   * fails, and keeps the charge: 6 + 20480, result -1 */
  assert_fuel_ret(&fm, "grow", a20, 6 + 20 * 1024, 0xffffffffu);
  assert_int_equal(fm.grow_calls, 2);
  assert_int_equal(fm.grow_desired, 23 * 65536);
  /* 65536 pages is a valid Pages value: charged 65536*1024, then fails */
  assert_fuel_ret(&fm, "grow", amax, 6 + 65536ULL * 1024, 0xffffffffu);
  assert_int_equal(fm.grow_calls, 3);
  /* 65537 pages: Pages::new fails first, -1 with no dynamic charge and
   * no hook */
  assert_fuel_ret(&fm, "grow", aover, 6, 0xffffffffu);
  assert_int_equal(fm.grow_calls, 3);
  /* refused by the embedder (after the fuel was taken): 6 + 1024, -1 */
  fm.refuse_grow = true;
  assert_fuel_ret(&fm, "grow", a1, 6 + 1024, 0xffffffffu);
  assert_int_equal(fm.grow_calls, 4);
  fm.refuse_grow = false;
  assert_fuel_ret(&fm, "size", NULL, 5, 3);
  /* out of fuel on the dynamic charge: with 6 + 2048 - 1 the static 6 is
   * taken, the 2048 is not; the memory does not grow */
  assert_int_equal(fm_call(&fm, "grow", a2, NULL, 6 + 2048 - 1, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 6);
  assert_fuel_ret(&fm, "size", NULL, 5, 3);
  /* exactly enough: grows, tank ends at 0 */
  assert_int_equal(fm_call(&fm, "grow", a2, &r, 6 + 2048, &consumed), SCP_OK);
  assert_int_equal(consumed, 6 + 2048);
  assert_int_equal((uint32_t)r, 3);
  assert_int_equal(scp_wasm_fuel(fm.inst), 0);
  fm_close(&fm);
}

static const char bulk_wat[] =
  "(module\n"
  "  (memory 1)\n"
  "  (data $d \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"\n"
  "           \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\")\n"
  "  (func (export \"fill\") (param $d i32) (param $n i32)\n"
  "    local.get $d i32.const 0x55 local.get $n memory.fill)\n"
  "  (func (export \"copy\") (param $d i32) (param $n i32)\n"
  "    local.get $d i32.const 0 local.get $n memory.copy)\n"
  "  (func (export \"init\") (param $d i32) (param $n i32)\n"
  "    local.get $d i32.const 0 local.get $n memory.init $d)\n"
  "  (func (export \"drop\") data.drop $d))\n";

static void test_bulk_memory(void **state) {
  fuel_mod fm;
  uint64_t consumed;
  uint64_t mlen;
  fm_open(&fm, "bulk", bulk_wat);
  /* fill / copy / init: entry 1 + 2 params / 8 = 0 + 3 pushes + op 3 +
   * end 1 = 8 static, + n/64 dynamic.
   * First, while memory is all zero: out of fuel on the dynamic part
   * (8 + 640/64 - 1) takes the 8, not the 10, and fills nothing. */
  uint64_t a640[2] = {1000, 640};
  uint8_t *mem = scp_wasm_memory(fm.inst, &mlen);
  assert_non_null(mem);
  assert_int_equal(mem[1000], 0);
  assert_int_equal(fm_call(&fm, "fill", a640, NULL, 8 + 10 - 1, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 8);
  mem = scp_wasm_memory(fm.inst, &mlen);
  assert_int_equal(mem[1000], 0);
  assert_int_equal(fm_call(&fm, "fill", a640, NULL, 8 + 10, &consumed), SCP_OK);
  assert_int_equal(consumed, 18);
  mem = scp_wasm_memory(fm.inst, &mlen);
  assert_int_equal(mem[1000], 0x55);
  static const struct { uint64_t n, dyn; } cases[] = {
    {0, 0}, {63, 0}, {64, 1}, {127, 1}, {128, 2}, {1000, 15}, {65536, 1024}};
  for (size_t i = 0; i < SCP_ARRAY_LEN(cases); i++) {
    uint64_t a[2] = {0, cases[i].n};
    assert_int_equal(fuel_of(&fm, "fill", a, NULL), 8 + cases[i].dyn);
    assert_int_equal(fuel_of(&fm, "copy", a, NULL), 8 + cases[i].dyn);
  }
  mem = scp_wasm_memory(fm.inst, &mlen);
  assert_int_equal(mem[100], 0x55);
  uint64_t ai[2] = {200, 128};
  assert_int_equal(fuel_of(&fm, "init", ai, NULL), 8 + 2);
  mem = scp_wasm_memory(fm.inst, &mlen);
  assert_int_equal(mem[200], '0');
  assert_int_equal(mem[215], 'f');
  /* out of bounds: the n/64 charge comes first (Eager), then the trap:
   * 8 + 100/64 = 9 consumed */
  uint64_t aoob[2] = {65530, 100};
  assert_int_equal(fm_call(&fm, "fill", aoob, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_MEM_OOB);
  assert_int_equal(consumed, 9);
  /* a length >= 2^31 is sign-extended to usize before n/64, so the charge
   * is ~2^58 and the call runs out of fuel instead of trapping out of
   * bounds; the failed charge is not taken: consumed 8 */
  uint64_t aneg[2] = {0, 0x80000000u}, am1[2] = {0, 0xffffffffu};
  assert_int_equal(fm_call(&fm, "fill", aneg, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 8);
  assert_int_equal(fm_call(&fm, "copy", am1, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 8);
  /* data.drop: entry 1 + 3 + end 1 = 5 */
  assert_int_equal(fuel_of(&fm, "drop", NULL, NULL), 5);
  fm_close(&fm);
}

static void test_table_bulk(void **state) {
  fuel_mod fm;
  fm_open(&fm, "tablebulk",
    "(module\n"
    "  (table 40 funcref)\n"
    "  (func $a)\n"
    "  (elem $e func $a $a $a $a $a $a $a $a $a $a $a $a $a $a $a $a $a $a $a $a)\n"
    "  (func (export \"init\") (param $n i32)\n"
    "    i32.const 0 i32.const 0 local.get $n table.init $e)\n"
    "  (func (export \"copy\") (param $n i32)\n"
    "    i32.const 20 i32.const 0 local.get $n table.copy)\n"
    "  (func (export \"drop\") elem.drop $e))\n");
  /* table.init / table.copy are bulk-memory operators Soroban accepts:
   * entry 1 + 3 pushes + op 3 + end 1 = 8, + n/8 */
  uint64_t a0[1] = {0}, a7[1] = {7}, a8[1] = {8}, a20[1] = {20};
  assert_int_equal(fuel_of(&fm, "init", a0, NULL), 8);
  assert_int_equal(fuel_of(&fm, "init", a7, NULL), 8);
  assert_int_equal(fuel_of(&fm, "init", a8, NULL), 9);
  assert_int_equal(fuel_of(&fm, "init", a20, NULL), 10);
  assert_int_equal(fuel_of(&fm, "copy", a20, NULL), 10);
  /* elem.drop: 1 + 3 + 1 = 5 */
  assert_int_equal(fuel_of(&fm, "drop", NULL, NULL), 5);
  fm_close(&fm);
}

/* ---- more region shapes ------------------------------------------------ */

static void test_region_shapes(void **state) {
  fuel_mod fm;
  uint64_t r, consumed;
  fm_open(&fm, "shapes",
    "(module\n"
    "  (type $t (func (result i32)))\n"
    "  (table 2 funcref)\n"
    "  (elem (i32.const 0) $seven)\n"
    "  (func $seven (type $t) i32.const 7)\n"
    /* a br out of the loop to an enclosing block: the rest of the loop
     * region was paid anyway */
    "  (func (export \"loopexit\") (param $n i32) (result i32)\n"
    "    (block $out\n"
    "      (loop $l\n"
    "        local.get $n\n"
    "        i32.eqz\n"
    "        br_if $out\n"
    "        local.get $n i32.const 1 i32.sub local.set $n\n"
    "        br $l))\n"
    "    i32.const 9)\n"
    /* an if inside a block inside the body: the if's own base goes to
     * the body region through the block */
    "  (func (export \"ifinblock\") (param i32) (result i32)\n"
    "    (block (result i32)\n"
    "      local.get 0\n"
    "      if (result i32) i32.const 1 else i32.const 2 end\n"
    "      i32.const 10\n"
    "      i32.add))\n"
    /* nested ifs: the inner if's base is in the outer then-arm */
    "  (func (export \"nestedif\") (param i32 i32) (result i32)\n"
    "    local.get 0\n"
    "    if (result i32)\n"
    "      local.get 1\n"
    "      if (result i32) i32.const 11 else i32.const 12 end\n"
    "    else\n"
    "      i32.const 13\n"
    "    end)\n"
    /* call_indirect that traps: the caller paid its region */
    "  (func (export \"badind\") (param i32) (result i32)\n"
    "    local.get 0 call_indirect (type $t)))\n");
  /* loopexit: body = entry 1 + (1 param)/8 0 + const 1 + end 1 = 3.
   * loop region: 1 + get 1 + eqz 1 + br_if 1 + get, const, sub, set 4 +
   * br 1 = 9, paid on each of the n+1 entries (the last one exits at
   * br_if).  n = 4: 3 + 5*9 = 48 */
  uint64_t a4[1] = {4}, a0[1] = {0};
  assert_fuel_ret(&fm, "loopexit", a4, 48, 9);
  assert_int_equal(fuel_of(&fm, "loopexit", a0, &r), 3 + 9);
  /* ifinblock: body = 1 + get 1 + if 1 + the then-arm's Br 1 (the block
   * adds into the body) + const 1 + add 1 + end 1 = 7; then 1 + 1 = 2;
   * else 1 + 1 = 2.  true 9 (11), false 9 (12) */
  uint64_t a1[1] = {1};
  assert_fuel_ret(&fm, "ifinblock", a1, 9, 11);
  assert_fuel_ret(&fm, "ifinblock", a0, 9, 12);
  /* nestedif: body = 1 + (2 params)/8 0 + get 1 + if 1 + the outer
   * then-arm's Br 1 + end 1 = 5.
   * outer then: 1 + get 1 + inner if 1 + the inner then-arm's Br 1 = 4;
   * inner then: 1 + 1 = 2; inner else: 1 + 1 = 2; outer else: 1 + 1 = 2.
   * (1,1): 5 + 4 + 2 = 11; (1,0): 5 + 4 + 2 = 11; (0,x): 5 + 2 = 7 */
  uint64_t a11[2] = {1, 1}, a10[2] = {1, 0}, a01[2] = {0, 1};
  assert_fuel_ret(&fm, "nestedif", a11, 11, 11);
  assert_fuel_ret(&fm, "nestedif", a10, 11, 12);
  assert_fuel_ret(&fm, "nestedif", a01, 7, 13);
  /* badind: 1 + get 1 + call_indirect 67 + end 1 = 70 paid, then the
   * trap; entry 0 works: + $seven 1 + 1 + 1 = 73 */
  assert_fuel_ret(&fm, "badind", a0, 73, 7);
  uint64_t anull[1] = {1}, aoob[1] = {5};
  assert_int_equal(fm_call(&fm, "badind", anull, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_NULL_ELEM);
  assert_int_equal(consumed, 70);
  assert_int_equal(fm_call(&fm, "badind", aoob, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_TABLE_OOB);
  assert_int_equal(consumed, 70);
  fm_close(&fm);
}

/* A grow hook that fails with another status traps (SCP_TRAP_HOST), after
 * the grow's fuel was taken (wasmi: the limiter's error becomes
 * TrapCode::GrowthOperationLimited inside the Eager-charged closure). */
static void test_grow_hook_trap(void **state) {
  fuel_mod fm;
  uint64_t consumed;
  fm_open(&fm, "growtrap", grow_wat);
  fm.grow_status = SCP_ERR_BUDGET;
  uint64_t a2[1] = {2};
  assert_int_equal(fm_call(&fm, "grow", a2, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_HOST);
  assert_int_equal(scp_wasm_host_status(fm.inst), SCP_ERR_BUDGET);
  assert_int_equal(consumed, 6 + 2048);
  fm.grow_status = 0;
  assert_fuel_ret(&fm, "size", NULL, 5, 1);
  fm_close(&fm);
}

/* ---- running out of fuel ---------------------------------------------- */

static const char count_wat[] =
  "(module\n"
  "  (global $count (export \"count\") (mut i32) (i32.const 0))\n"
  "  (func (export \"f\") (param $n i32)\n"
  "    (loop $l\n"
  "      global.get $count i32.const 1 i32.add global.set $count\n"
  "      local.get $n i32.const 1 i32.sub local.tee $n\n"
  "      br_if $l)))\n";

/* body: entry 1 + end 1 = 2.  loop: 1 + get 3 + const 1 + add 1 + set 3 +
 * get 1 + const 1 + sub 1 + tee 1 + br_if 1 = 14.  n = 10: 2 + 140 = 142. */
#define COUNT_BODY 2u
#define COUNT_LOOP 14u

static void test_out_of_fuel_point(void **state) {
  fuel_mod fm;
  uint64_t consumed, a10[1] = {10};
  fm_open(&fm, "count", count_wat);
  const uint64_t n = COUNT_BODY + 10 * COUNT_LOOP;          /* 142 */
  assert_int_equal(n, 142);

  /* N: succeeds, tank empty, 10 increments */
  uint64_t c0 = global_value(&fm, "count");
  assert_int_equal(fm_call(&fm, "f", a10, NULL, n, &consumed), SCP_OK);
  assert_int_equal(consumed, n);
  assert_int_equal(scp_wasm_fuel(fm.inst), 0);
  assert_int_equal(global_value(&fm, "count") - c0, 10);

  /* N + 1: succeeds, 1 left */
  c0 = global_value(&fm, "count");
  assert_int_equal(fm_call(&fm, "f", a10, NULL, n + 1, &consumed), SCP_OK);
  assert_int_equal(consumed, n);
  assert_int_equal(scp_wasm_fuel(fm.inst), 1);
  assert_int_equal(global_value(&fm, "count") - c0, 10);

  /* N - 1: the 10th loop entry cannot pay its 14; it is not taken, so
   * consumed = 2 + 9*14 = 128, 13 left, 9 increments done */
  c0 = global_value(&fm, "count");
  assert_int_equal(fm_call(&fm, "f", a10, NULL, n - 1, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, COUNT_BODY + 9 * COUNT_LOOP);
  assert_int_equal(scp_wasm_fuel(fm.inst), 13);
  assert_int_equal(global_value(&fm, "count") - c0, 9);

  /* fuel 50 = 2 + 3*14 + 6: three iterations, the 4th entry fails */
  c0 = global_value(&fm, "count");
  assert_int_equal(fm_call(&fm, "f", a10, NULL, 50, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 44);
  assert_int_equal(global_value(&fm, "count") - c0, 3);

  /* fuel 1: the body region (2) cannot be entered; nothing runs */
  c0 = global_value(&fm, "count");
  assert_int_equal(fm_call(&fm, "f", a10, NULL, 1, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 0);
  assert_int_equal(scp_wasm_fuel(fm.inst), 1);
  assert_int_equal(global_value(&fm, "count") - c0, 0);

  /* the instance stays usable after running out */
  c0 = global_value(&fm, "count");
  assert_int_equal(fuel_of(&fm, "f", a10, NULL), n);
  assert_int_equal(global_value(&fm, "count") - c0, 10);
  fm_close(&fm);
}

static void test_out_of_fuel_in_callee(void **state) {
  fuel_mod fm;
  uint64_t consumed;
  fm_open(&fm, "callee_oof",
    "(module\n"
    "  (global $g (export \"g\") (mut i32) (i32.const 0))\n"
    "  (func $callee (result i32)\n"
    "    i32.const 1 global.set $g i32.const 5)\n"
    "  (func (export \"f\") (result i32)\n"
    "    i32.const 2 global.set $g call $callee))\n");
  /* caller: entry 1 + const 1 + set 3 + call 67 + end 1 = 73 (all charged
   * on entry).  callee: 1 + 1 + 3 + 1 + end 1 = 7.  N = 80. */
  uint64_t r;
  assert_int_equal(fm_call(&fm, "f", NULL, &r, 80, &consumed), SCP_OK);
  assert_int_equal(consumed, 80);
  assert_int_equal((uint32_t)r, 5);
  assert_int_equal(global_value(&fm, "g"), 1);
  /* N - 1: the caller ran (g = 2), the callee's entry fails: 73 consumed */
  assert_int_equal(fm_call(&fm, "f", NULL, NULL, 79, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 73);
  assert_int_equal(global_value(&fm, "g"), 2);
  /* 72: even the caller's region does not fit: nothing runs */
  assert_int_equal(fm_call(&fm, "f", NULL, NULL, 72, &consumed), SCP_ERR_TRAP);
  assert_int_equal(consumed, 0);
  fm_close(&fm);
}

static void test_unreachable_trap_fuel(void **state) {
  fuel_mod fm;
  uint64_t consumed;
  fm_open(&fm, "unreach",
    "(module\n"
    "  (func (export \"f\") i32.const 1 drop unreachable))\n");
  /* entry 1 + const 1 + drop 1 + unreachable 1; end unreachable = 4 */
  assert_int_equal(fm_call(&fm, "f", NULL, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_UNREACHABLE);
  assert_int_equal(consumed, 4);
  /* with 3 the region is not entered: out of fuel, not unreachable */
  assert_int_equal(fm_call(&fm, "f", NULL, NULL, 3, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  assert_int_equal(consumed, 0);
  fm_close(&fm);
}

/* ---- call depth --------------------------------------------------------- */

static void test_call_depth(void **state) {
  fuel_mod fm;
  uint64_t r, consumed;
  fm_open(&fm, "depth",
    "(module\n"
    "  (func $r (export \"r\") (param i32) (result i32)\n"
    "    local.get 0\n"
    "    i32.eqz\n"
    "    if (result i32)\n"
    "      i32.const 0\n"
    "    else\n"
    "      local.get 0 i32.const 1 i32.sub call $r i32.const 1 i32.add\n"
    "    end))\n");
  /* body: entry 1 + 1 param / 8 = 0 + get 1 + eqz 1 + if 1 + the
   * then-arm's Br 1 + end 1 = 6; then: 1 + const 1 = 2; else: 1 + 3 +
   * call 67 + 2 = 73.  r(0) = 8, r(n) = 79 + r(n-1) = 79n + 8. */
  uint64_t a10[1] = {10};
  assert_fuel_ret(&fm, "r", a10, 79 * 10 + 8, 10);
  /* wasmi 0.31 (engine/stack/frames.rs:74-80, executor.rs:207): the
   * running frame is popped off the CallStack; a call pushes the CALLER
   * and fails when 1024 callers are already there.  So 1025 wasm frames
   * can be live: r(1024) = frames r(1024)..r(0) works. */
  uint64_t a1024[1] = {1024}, a1025[1] = {1025};
  assert_fuel_ret(&fm, "r", a1024, 79 * 1024 + 8, 1024);
  /* r(1025): r(1) is the 1025th frame and its call fails after it paid
   * body 6 + else 73; all 1025 frames paid 79: 80975 */
  assert_int_equal(fm_call(&fm, "r", a1025, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_STACK_EXHAUSTED);
  assert_int_equal(consumed, 79 * 1025);
  /* still usable */
  assert_int_equal(fuel_of(&fm, "r", a10, &r), 79 * 10 + 8);
  fm_close(&fm);
}

/* wasmi's value stack is limited too (default StackLimits, which Soroban's
 * get_wasmi_config keeps): 1024*1024 bytes / 8-byte cells = 131072 cells
 * (engine/stack/mod.rs:23-29, 84-97).  A call reserves the callee's
 * max operand height + its declared locals, checked against the cells in
 * use (stack/values/mod.rs:182-188, 234-248).  For $big below: 1 param,
 * 999 locals, max operand height 2 (translator's ValueStackHeight: get,
 * const -> 2).  Frame n's cells end at n*(1 + 999) (its param + locals,
 * the caller's argument being the callee's param); frame n+1 can start
 * iff n*1000 + 1 (argument) + 2 + 999 = (n+1)*1000 + 2 <= 131072, i.e. at most 131 frames live: big(130)
 * works, big(131) traps "call stack exhausted" creating frame 132.
 * Fuel: body 1 + (1 + 999)/8 = 125 + get, eqz, if, the then-arm's Br,
 * end 5 = 131; then 2; else 73.  big(n) = 204n + 133.  At the overflow,
 * frames 1..131 each paid 204 (the 132nd never starts): 26724. */
static void test_value_stack_limit(void **state) {
  fuel_mod fm;
  uint64_t r, consumed;
  char wat[16384];
  int n = snprintf(wat, sizeof wat,
    "(module\n"
    "  (func $big (export \"big\") (param i32) (result i32)\n"
    "    (local");
  for (int i = 0; i < 999; i++) n += snprintf(wat + n, sizeof wat - (size_t)n, " i32");
  snprintf(wat + n, sizeof wat - (size_t)n, ")\n"
    "    local.get 0\n"
    "    i32.eqz\n"
    "    if (result i32)\n"
    "      i32.const 0\n"
    "    else\n"
    "      local.get 0 i32.const 1 i32.sub call $big i32.const 1 i32.add\n"
    "    end))\n");
  fm_open(&fm, "bigframes", wat);
  uint64_t a10[1] = {10}, a130[1] = {130}, a131[1] = {131};
  assert_int_equal(fuel_of(&fm, "big", a10, &r), 204 * 10 + 133);
  assert_fuel_ret(&fm, "big", a130, 204 * 130 + 133, 130);
  assert_int_equal(fm_call(&fm, "big", a131, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_STACK_EXHAUSTED);
  assert_int_equal(consumed, 204 * 131);
  fm_close(&fm);
}

/* ---- profiling: settled per-pc costs add up to the fuel ------------------ */

static void test_settle_totals(void **state) {
  fuel_mod fm;
  scp_tree t;
  uint64_t consumed, total = 0, r;
  fm_open(&fm, "settle",
    "(module\n"
    "  (type $t (func (param i32) (result i32)))\n"
    "  (import \"env\" \"h\" (func $h (type $t)))\n"
    "  (memory 1 4)\n"
    "  (table 2 funcref)\n"
    "  (elem (i32.const 0) $sq $h)\n"
    "  (func $sq (type $t) local.get 0 local.get 0 i32.mul)\n"
    "  (func (export \"work\") (param $n i32) (result i32) (local $acc i32)\n"
    "    (loop $l\n"
    "      local.get $acc\n"
    "      local.get $n call $sq\n"
    "      local.get $n i32.const 1 call_indirect (type $t)\n"
    "      i32.add i32.add local.set $acc\n"
    "      local.get $n i32.const 1 i32.and\n"
    "      if i32.const 0 i32.const 7 i32.const 200 memory.fill end\n"
    "      local.get $n i32.const 1 i32.sub local.tee $n\n"
    "      br_if $l)\n"
    "    i32.const 1 memory.grow drop\n"
    "    local.get $acc))\n");
  assert_int_equal(scp_tree_init(&t, 2), SCP_OK);
  scp_wasm_attach(fm.inst, &t, 0, 7, 4);
  uint64_t a5[1] = {5}, a3[1] = {3};
  /* a complete run */
  assert_int_equal(fm_call(&fm, "work", a5, &r, BIG_FUEL, &consumed), SCP_OK);
  total += consumed;
  /* a run that stops half-way: its partial fuel is in the profile too */
  assert_int_equal(fm_call(&fm, "work", a3, NULL, consumed / 2, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_OUT_OF_FUEL);
  total += consumed;
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  /* DESIGN.md invariant: sum of self CPU == 4 x fuel (WasmInsnExec) */
  assert_int_equal(scp_tree_total(&t, 0), 4 * total);
  /* settling twice adds nothing */
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  assert_int_equal(scp_tree_total(&t, 0), 4 * total);
  /* guest nodes: self is exactly the sum of their per-pc costs */
  for (size_t i = 0; i < t.n; i++) {
    scp_tree_node *nd = scp_tree_at(&t, (uint32_t)i);
    if (nd->kind != SCP_KIND_GUEST) continue;
    uint64_t sum = 0;
    for (uint32_t k = 0; k < nd->npcs; k++) sum += nd->pcs[k].cost0;
    assert_int_equal(sum, nd->self[0]);
  }
  fm_close_tree(&fm, &t);
}

/* ---- profiling: exact per-pc costs --------------------------------------- */

static uint64_t pc_ahead(scp_tree *t, uint32_t node, uint64_t pc) {
  uint64_t c = 0;
  scp_tree_node *nd = scp_tree_at(t, node);
  for (uint32_t i = 0; i < nd->npcs; i++)
    if (nd->pcs[i].pc == pc) c += nd->pcs[i].ahead;
  return c;
}

/* fm_open with a tree attached (module id 1, CPU = fuel x 4); returns the
 * module's bytes as wat2wasm wrote them, for body_ops. */
static uint8_t *fm_open_profiled(fuel_mod *fm, scp_tree *t, const char *name, const char *wat,
                                 size_t *len) {
  fm_open(fm, name, wat);
  assert_int_equal(scp_tree_init(t, 1), SCP_OK);
  scp_wasm_attach(fm->inst, t, 0, 1, 4);
  return wat_binary(name, len);
}

static void fm_close_profiled(fuel_mod *fm, scp_tree *t, uint8_t *bin) {
  free(bin);
  scp_wasm_attach(fm->inst, NULL, 0, 0, 0);
  fm_close(fm);
  scp_tree_free(t);
}

/* "Charged ahead": a region pays for all its operators on entry; those an
 * early exit skips were paid without running.  Per pc, ahead = (region
 * entries - times the operator ran) x fuel x 4, and it is part of the pc's
 * cost, never added to it. */
static void test_settle_ahead(void **state) {
  static const char wat[] =
    "(module\n"
    "  (func (export \"exit\") (param $n i32) (result i32) (local $i i32)\n"
    "    (block $out\n"
    "      (loop $l\n"
    "        local.get $i local.get $n i32.ge_u\n"
    "        br_if $out\n"
    "        local.get $i i32.const 1 i32.add local.set $i\n"
    "        br $l))\n"
    "    local.get $i)\n"
    "  (func (export \"sdk\") (param $n i32) (result i32) (local $i i32)\n"
    "    (loop $l\n"
    "      local.get $i local.get $n i32.ge_u\n"
    "      if\n"
    "        local.get $i i32.const 100 i32.add local.set $i\n"
    "      else\n"
    "        local.get $i i32.const 1 i32.add local.set $i\n"
    "        br $l\n"
    "      end)\n"
    "    local.get $i)\n"
    "  (func (export \"ret\") (param $n i32)\n"
    "    (loop $l\n"
    "      local.get $n i32.eqz br_if 1\n"
    "      local.get $n i32.const 1 i32.sub local.set $n\n"
    "      br $l)))\n";
  fuel_mod fm;
  scp_tree t;
  size_t len;
  uint8_t *bin = fm_open_profiled(&fm, &t, "ahead", wat, &len);
  op_pc ops[32];
  uint64_t a3[1] = {3}, a2[1] = {2};

  /* exit(3): body 1 + get 1 + end 1 = 3; loop 1 + get, get, ge_u, br_if 4
   * + get, const, add, set 4 + br 1 = 10, entered 4 times (i = 0..3, the
   * 4th leaves at br_if): 43.  The five operators after the br_if ran 3
   * times: 1 x 4 CPU ahead each. */
  assert_fuel_ret(&fm, "exit", a3, 43, 3);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  uint32_t node = find_guest(&t, 0);
  assert_int_not_equal(node, SCP_NODE_NONE);
  /* block, loop, get, get, ge_u, br_if, get, const, add, set, br, end,
   * end, get, end */
  assert_int_equal(body_ops(bin, len, 0, ops, 32), 15);
  static const uint64_t exit_ahead[15] = {0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 0, 0, 0, 0};
  uint64_t sum = 0;
  for (size_t i = 0; i < 15; i++) {
    assert_int_equal(pc_ahead(&t, node, ops[i].pc), exit_ahead[i]);
    sum += pc_ahead(&t, node, ops[i].pc);
  }
  assert_int_equal(sum, 20);
  assert_int_equal(pc_cost(&t, node, ops[6].pc), 4 * 4);   /* charged 4 times */

  /* sdk(3): body 3; loop 1 + get, get, ge_u 3 + if 1 + the then-arm's Br
   * 1 = 6 (entered 4 times); then 1 + 4 = 5 (once); else 1 + 4 + br 1 = 6
   * (3 times): 3 + 24 + 5 + 18 = 50.  Only the Br at `else` is charged
   * ahead: 4 loop entries pay it, it runs once: 3 x 4 = 12 CPU. */
  assert_fuel_ret(&fm, "sdk", a3, 50, 103);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  node = find_guest(&t, 1);
  /* loop, get, get, ge_u, if, get, const, add, set, else, get, const, add,
   * set, br, end, end, get, end */
  assert_int_equal(body_ops(bin, len, 1, ops, 32), 19);
  sum = 0;
  for (size_t i = 0; i < 19; i++) {
    assert_int_equal(pc_ahead(&t, node, ops[i].pc), i == 9 ? 12 : 0);
    sum += pc_ahead(&t, node, ops[i].pc);
  }
  assert_int_equal(sum, 12);
  /* the else pc: the Br (4 x 1) and the else-arm's own base (3 x 1) */
  assert_int_equal(pc_cost(&t, node, ops[9].pc), 4 * (4 + 3));

  /* ret(2): body 1 + end 1 = 2; loop 1 + get, eqz 2 (br_if to the body is
   * ReturnIfNez: 0) + get, const, sub, set 4 + br 1 = 8, entered 3 times:
   * 26.  The 5 operators after the br_if ran twice (4 CPU ahead each), and
   * the body's end never ran (the return was the br_if's): 4 more. */
  assert_int_equal(fuel_of(&fm, "ret", a2, NULL), 26);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  node = find_guest(&t, 2);
  /* loop, get, eqz, br_if, get, const, sub, set, br, end, end */
  assert_int_equal(body_ops(bin, len, 2, ops, 32), 11);
  static const uint64_t ret_ahead[11] = {0, 0, 0, 0, 4, 4, 4, 4, 4, 0, 4};
  for (size_t i = 0; i < 11; i++) assert_int_equal(pc_ahead(&t, node, ops[i].pc), ret_ahead[i]);
  fm_close_profiled(&fm, &t, bin);
}

/* A trap ends the run where it happens: in the trapping frame and in each
 * caller (whose call never came back), the rest of the region was charged
 * and did not run. */
static void test_settle_ahead_trap(void **state) {
  static const char wat[] =
    "(module\n"
    "  (memory 1)\n"
    "  (func $t unreachable)\n"
    "  (func (export \"calltrap\") i32.const 1 drop call $t i32.const 2 drop)\n"
    "  (func (export \"oob\")\n"
    "    i32.const 1 drop i32.const 65536 i32.load drop i32.const 2 drop))\n";
  fuel_mod fm;
  scp_tree t;
  uint64_t consumed;
  size_t len;
  uint8_t *bin = fm_open_profiled(&fm, &t, "aheadtrap", wat, &len);
  op_pc ops[32];

  /* calltrap: body 1 + const, drop 2 + call 67 + const, drop 2 + end 1 =
   * 73; $t: 1 + unreachable 1 = 2.  The call never comes back: the
   * const, drop and end after it (3 fuel) are 12 CPU charged ahead. */
  assert_int_equal(fm_call(&fm, "calltrap", NULL, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(consumed, 75);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  uint32_t node = find_guest(&t, 1);
  assert_int_not_equal(node, SCP_NODE_NONE);
  /* const, drop, call, const, drop, end */
  assert_int_equal(body_ops(bin, len, 1, ops, 32), 6);
  static const uint64_t call_ahead[6] = {0, 0, 0, 4, 4, 4};
  for (size_t i = 0; i < 6; i++) assert_int_equal(pc_ahead(&t, node, ops[i].pc), call_ahead[i]);
  uint32_t tnode = find_guest(&t, 0);
  assert_int_equal(body_ops(bin, len, 0, ops, 32), 2);   /* unreachable, end */
  assert_int_equal(pc_ahead(&t, tnode, ops[0].pc), 0);

  /* oob: 1 + const, drop 2 + const 1 + load 2 + drop 1 + const, drop 2 +
   * end 1 = 10, all paid on entry; the load traps: drop, const, drop and
   * end (4 fuel) are 16 CPU charged ahead, the load itself ran. */
  assert_int_equal(fm_call(&fm, "oob", NULL, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(consumed, 10);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  node = find_guest(&t, 2);
  /* const, drop, const, load, drop, const, drop, end */
  assert_int_equal(body_ops(bin, len, 2, ops, 32), 8);
  static const uint64_t oob_ahead[8] = {0, 0, 0, 0, 4, 4, 4, 4};
  for (size_t i = 0; i < 8; i++) assert_int_equal(pc_ahead(&t, node, ops[i].pc), oob_ahead[i]);
  /* a second settle (no new run) takes nothing more off */
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  assert_int_equal(pc_ahead(&t, node, ops[4].pc), 4);
  fm_close_profiled(&fm, &t, bin);
}

/* DESIGN.md: the cost of instruction i in a node is entries(region(i)) x
 * static_cost(i) (x 4 for CPU), dynamic charges added at their pc.
 * f(5): the loop runs 5 times. */
static void test_settle_per_pc(void **state) {
  static const char wat[] =
    "(module\n"
    "  (global $g (mut i32) (i32.const 0))\n"
    "  (memory 1)\n"
    "  (func $leaf (param i32) (result i32) local.get 0 i32.const 1 i32.add)\n"
    "  (func (export \"f\") (param $n i32)\n"
    "    (loop $l\n"
    "      global.get $g\n"
    "      local.get $n\n"
    "      call $leaf\n"
    "      i32.add\n"
    "      global.set $g\n"
    "      i32.const 0 i32.const 0 i32.const 100 memory.fill\n"
    "      local.get $n i32.const 1 i32.sub local.tee $n\n"
    "      br_if $l)))\n";
  fuel_mod fm;
  scp_tree t;
  fm_open_tree(&fm, &t, 2, "perpc", wat);
  /* f: body 1 + end 1 = 2; loop 1 + get 3 + get 1 + call 67 + add 1 +
   * set 3 + 3 consts + fill 3 + get, const, sub, tee, br_if 5 = 87;
   * dynamic 100/64 = 1 per fill.  leaf: 1 + 3 + 1 = 5.
   * f(5) = 2 + 5*87 + 5*1 + 5*5 = 467 */
  uint64_t a5[1] = {5};
  assert_int_equal(fuel_of(&fm, "f", a5, NULL), 467);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  assert_int_equal(scp_tree_total(&t, 0), 4 * 467);

  size_t len;
  uint8_t *bin = wat_binary("perpc", &len);
  op_pc ops[32];
  size_t nops = body_ops(bin, len, 1, ops, 32);
  free(bin);
  /* loop, global.get, local.get, call, i32.add, global.set, 3 x i32.const,
   * memory.fill, local.get, i32.const, i32.sub, local.tee, br_if, end, end */
  assert_int_equal(nops, 17);
  static const uint8_t want_ops[17] = {0x03, 0x23, 0x20, 0x10, 0x6a, 0x24, 0x41, 0x41,
                                       0x41, 0xfc, 0x20, 0x41, 0x6b, 0x22, 0x0d, 0x0b, 0x0b};
  static const uint64_t want_fuel[17] = {0, 3, 1, 67, 1, 3, 1, 1, 1, 3 + 1, 1, 1, 1, 1, 1, 0, 0};
  uint32_t fnode = find_guest(&t, 1), lnode = find_guest(&t, 0);
  assert_int_not_equal(fnode, SCP_NODE_NONE);
  assert_int_not_equal(lnode, SCP_NODE_NONE);
  for (size_t i = 1; i <= 14; i++) {
    assert_int_equal(ops[i].op, want_ops[i]);
    /* 5 loop entries x static fuel (+ 5 x 1 dynamic for memory.fill), x 4 */
    if (pc_cost(&t, fnode, ops[i].pc) != 5 * want_fuel[i] * 4)
      print_message("op %zu (0x%02x) at pc %llu: %llu, want %llu\n", i, ops[i].op,
                    (unsigned long long)ops[i].pc,
                    (unsigned long long)pc_cost(&t, fnode, ops[i].pc),
                    (unsigned long long)(5 * want_fuel[i] * 4));
    assert_int_equal(pc_cost(&t, fnode, ops[i].pc), 5 * want_fuel[i] * 4);
  }
  /* the callee node hangs under the call's pc */
  assert_int_equal(scp_tree_at(&t, lnode)->parent, fnode);
  assert_int_equal(scp_tree_at(&t, lnode)->callsite, ops[3].pc);
  assert_int_equal(scp_tree_at(&t, lnode)->calls, 5);
  /* f node: everything but the leaf's 25 fuel; leaf: 25 */
  assert_int_equal(scp_tree_at(&t, fnode)->self[0], 4 * (467 - 25));
  assert_int_equal(scp_tree_at(&t, lnode)->self[0], 4 * 25);
  /* leaf ops: local.get, i32.const, i32.add: 5 calls x 1 x 4 each */
  nops = 0;
  bin = wat_binary("perpc", &len);
  nops = body_ops(bin, len, 0, ops, 32);
  free(bin);
  assert_int_equal(nops, 4);
  for (size_t i = 0; i < 3; i++) assert_int_equal(pc_cost(&t, lnode, ops[i].pc), 20);
  fm_close_tree(&fm, &t);
}

/* ---- profiling: how often each operator ran ------------------------------ */

/* Static fuel of the operators the modules below use (the header's
 * rules): i32.load 2, call 67, the rest 1; the function entry 1 (no more
 * than 7 params + locals). */
static uint64_t op_fuel(uint8_t op) { return op == 0x28 ? 2 : op == 0x10 ? 67 : 1; }

/* Function `func`'s operators ran want[i] times in node; the entry (the
 * one row before the first operator) ran `calls` times; and every row but
 * an `if`'s or an `else`'s (which also carry their arm's entry fuel) costs
 * exactly runs x fuel x 4 CPU plus what was charged ahead. */
static void check_runs(scp_tree *t, uint32_t node, const uint8_t *bin, size_t len, uint32_t func,
                       const uint64_t *want, size_t nwant, uint64_t calls) {
  op_pc ops[32];
  size_t n = body_ops(bin, len, func, ops, 32);
  assert_int_equal(n, nwant);
  scp_tree_node *nd = scp_tree_at(t, node);
  size_t checked = 0;
  for (uint32_t r = 0; r < nd->npcs; r++) {
    const scp_pc_cost *e = &nd->pcs[r];
    size_t i = 0;
    while (i < n && ops[i].pc != e->pc) i++;
    uint64_t fuel = 1, runs = calls;
    if (i == n) {
      assert_true(e->pc < ops[0].pc);        /* the entry, at the locals */
    } else {
      if (ops[i].op == 0x04 || ops[i].op == 0x05) continue;
      fuel = op_fuel(ops[i].op);
      runs = want[i];
    }
    if (e->runs != runs || e->cost0 - e->ahead != runs * fuel * 4)
      print_message("func %u pc %llu (op %zu): runs %llu, want %llu; cost %llu - ahead %llu\n", func,
                    (unsigned long long)e->pc, i, (unsigned long long)e->runs,
                    (unsigned long long)runs, (unsigned long long)e->cost0,
                    (unsigned long long)e->ahead);
    assert_int_equal(e->runs, runs);
    assert_int_equal(e->cost0 - e->ahead, runs * fuel * 4);
    checked++;
  }
  assert_true(checked > 0);
  for (size_t i = 0; i < n; i++)
    if (pc_runs(t, node, ops[i].pc) != want[i])
      print_message("func %u op %zu (0x%02x): ran %llu, want %llu\n", func, i, ops[i].op,
                    (unsigned long long)pc_runs(t, node, ops[i].pc), (unsigned long long)want[i]);
  for (size_t i = 0; i < n; i++) assert_int_equal(pc_runs(t, node, ops[i].pc), want[i]);
}

/* Settling also gives how often each operator ran: a loop's operators as
 * often as it is entered, operators fused into one internal instruction
 * each as often as it ran, an `if`'s two arms apart, an early return's
 * skipped operators 0 times although they are paid. */
static void test_settle_runs(void **state) {
  static const char wat[] =
    "(module\n"
    "  (func (export \"count\") (param $n i32) (result i32) (local $i i32)\n"
    "    (loop $l\n"
    "      local.get $i i32.const 1 i32.add local.tee $i\n"
    "      local.get $n i32.lt_u\n"
    "      br_if $l)\n"
    "    local.get $i)\n"
    "  (func (export \"split\") (param $x i32) (result i32)\n"
    "    local.get $x i32.const 3 i32.lt_u\n"
    "    if (result i32)\n"
    "      i32.const 1 return\n"
    "    else\n"
    "      local.get $x i32.const 3 i32.rem_u\n"
    "    end\n"
    "    i32.const 2 i32.mul)\n"
    "  (func (export \"pick\") (param $x i32) (result i32)\n"
    "    local.get $x i32.const 3 i32.lt_u\n"
    "    if (result i32) i32.const 10 else i32.const 20 end))\n";
  fuel_mod fm;
  scp_tree t;
  size_t len;
  uint8_t *bin = fm_open_profiled(&fm, &t, "runs", wat, &len);
  uint64_t r;

  /* count(5): entry 1 (1 + 2/8) + loop 1 + 7 ops = 8 per entry, i = 1..5
   * so 5 entries (the br_if is taken 4 times) + get, end 2 = 43.  The
   * engine fuses get+const+add into one instruction and lt_u+br_if into
   * another: 8 internal instructions for the entry and 11 operators. */
  uint64_t a5[1] = {5};
  assert_int_equal(fuel_of(&fm, "count", a5, &r), 43);
  assert_int_equal(r, 5);
  assert_true(fm.m->funcs[0].body_len < 11);
  /* loop, get, const, add, tee, get, lt_u, br_if, end (the loop's: no
   * fuel, no row), get, end */
  static const uint64_t count_runs[11] = {5, 5, 5, 5, 5, 5, 5, 5, 0, 1, 1};
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  assert_true(t.pc_runs);
  check_runs(&t, find_guest(&t, 0), bin, len, 0, count_runs, 11, 1);

  /* split(0..9): x < 3 three times (then-arm: const, return), else seven
   * times.  The body pays const, mul and end on every call (10) and runs
   * them 7 times; the then-arm does not reach `else`, so `else` is only
   * the else-arm's entry (7). */
  for (uint64_t x = 0; x < 10; x++) {
    fuel_of(&fm, "split", &x, &r);
    assert_int_equal(r, x < 3 ? 1 : x % 3 * 2);
  }
  /* get, const, lt_u, if, const, return, else, get, const, rem_u, end,
   * const, mul, end */
  static const uint64_t split_runs[14] = {10, 10, 10, 10, 3, 3, 7, 7, 7, 7, 0, 7, 7, 7};
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  uint32_t node = find_guest(&t, 1);
  check_runs(&t, node, bin, len, 1, split_runs, 14, 10);
  op_pc ops[32];
  body_ops(bin, len, 1, ops, 32);
  /* `if`: its test in the body (10 x 1) and the then-arm's entry (3 x 1);
   * `else`: the else-arm's entry (7 x 1) */
  assert_int_equal(pc_cost(&t, node, ops[3].pc), 4 * (10 + 3));
  assert_int_equal(pc_cost(&t, node, ops[6].pc), 4 * 7);
  assert_int_equal(pc_ahead(&t, node, ops[11].pc), 4 * 3);

  /* pick(0..9): the then-arm ends at `else`, which jumps over the
   * else-arm: `else` ran 3 times; its jump is paid in the body (10 x 1,
   * 7 of them ahead) and the else-arm's entry (7 x 1) there too. */
  for (uint64_t x = 0; x < 10; x++) fuel_of(&fm, "pick", &x, &r);
  /* get, const, lt_u, if, const, else, const, end, end */
  static const uint64_t pick_runs[9] = {10, 10, 10, 10, 3, 3, 7, 0, 10};
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  node = find_guest(&t, 2);
  check_runs(&t, node, bin, len, 2, pick_runs, 9, 10);
  body_ops(bin, len, 2, ops, 32);
  assert_int_equal(pc_cost(&t, node, ops[5].pc), 4 * (10 + 7));
  assert_int_equal(pc_ahead(&t, node, ops[5].pc), 4 * 7);
  fm_close_profiled(&fm, &t, bin);
}

/* A trap stops the counts at the trapping operator: it ran, what follows
 * it in its region did not (in the trapping frame and in each caller). */
static void test_settle_runs_trap(void **state) {
  static const char wat[] =
    "(module\n"
    "  (memory 1)\n"
    "  (func $t unreachable)\n"
    "  (func (export \"walk\") (param $n i32) (local $p i32)\n"
    "    (loop $l\n"
    "      local.get $p i32.load drop\n"
    "      local.get $p i32.const 32768 i32.add local.tee $p\n"
    "      local.get $n i32.lt_u\n"
    "      br_if $l))\n"
    "  (func (export \"calltrap\") i32.const 1 drop call $t i32.const 2 drop))\n";
  fuel_mod fm;
  scp_tree t;
  uint64_t consumed, big[1] = {1000000};
  size_t len;
  uint8_t *bin = fm_open_profiled(&fm, &t, "runstrap", wat, &len);

  /* walk: the loads at 0 and 32768 pass, the one at 65536 traps in the
   * third entry of the loop.  Entry 1 + end 1 = 2; loop 1 + get 1 +
   * load 2 + drop 1 + 7 = 12 per entry: 38.  get+load are one fused
   * instruction: both ran 3 times, the rest of the loop twice, the
   * function's end never. */
  assert_int_equal(fm_call(&fm, "walk", big, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_last_trap(fm.inst), SCP_TRAP_MEM_OOB);
  assert_int_equal(consumed, 38);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  /* loop, get, load, drop, get, const, add, tee, get, lt_u, br_if, end, end */
  static const uint64_t walk_runs[13] = {3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0};
  check_runs(&t, find_guest(&t, 1), bin, len, 1, walk_runs, 13, 1);

  /* calltrap: the call ran and never came back; $t's unreachable ran */
  assert_int_equal(fm_call(&fm, "calltrap", NULL, NULL, BIG_FUEL, &consumed), SCP_ERR_TRAP);
  assert_int_equal(scp_wasm_settle(fm.inst), SCP_OK);
  static const uint64_t call_runs[6] = {1, 1, 1, 0, 0, 0};
  check_runs(&t, find_guest(&t, 2), bin, len, 2, call_runs, 6, 1);
  static const uint64_t t_runs[2] = {1, 0};
  check_runs(&t, find_guest(&t, 0), bin, len, 0, t_runs, 2, 1);
  fm_close_profiled(&fm, &t, bin);
}


int main(void) {
  static const fuel_case cases[] = {
#define CASE(f) {#f, f}
    CASE(test_body_region),
    CASE(test_locals),
    CASE(test_block_and_early_exit),
    CASE(test_branch_to_function_label),
    CASE(test_br_table),
    CASE(test_loop_reentry),
    CASE(test_if_else),
    CASE(test_else_br_enclosing),
    CASE(test_region_shapes),
    CASE(test_calls),
    CASE(test_import_index),
    CASE(test_globals_loads_stores),
    CASE(test_memory_grow),
    CASE(test_grow_hook_trap),
    CASE(test_bulk_memory),
    CASE(test_table_bulk),
    CASE(test_out_of_fuel_point),
    CASE(test_out_of_fuel_in_callee),
    CASE(test_unreachable_trap_fuel),
    CASE(test_call_depth),
    CASE(test_value_stack_limit),
    CASE(test_settle_totals),
    CASE(test_settle_per_pc),
    CASE(test_settle_ahead),
    CASE(test_settle_ahead_trap),
    CASE(test_settle_runs),
    CASE(test_settle_runs_trap),
#undef CASE
  };
  return fuel_run_both_builds("wasm_fuel", cases, sizeof cases / sizeof cases[0]);
}
