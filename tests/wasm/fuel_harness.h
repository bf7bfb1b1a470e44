/*
 * fuel_harness.h — what the WASM fuel tests share (test_fuel, test_fused):
 * WAT modules compiled with wat2wasm into $SCP_BUILD/fuel/, instantiated
 * with a host import and a grow hook, called with a fuel tank, and the
 * operators' pcs read from the binary independently of the engine.
 */
#ifndef SCP_TEST_FUEL_HARNESS_H
#define SCP_TEST_FUEL_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wasm/scp_wasm.h"
#include "profile/scp_tree.h"

#define BIG_FUEL 1000000000000ULL   /* 10^12: metered, never the limit */

/* Every test runs twice: computed-goto dispatch, then the portable switch
 * (STYLE.md 8: both dispatch modes must give identical results). */
extern bool use_switch;

typedef struct fuel_mod {
  scp_wasm_module *m;
  scp_wasm_instance *inst;
  unsigned host_calls;
  bool refuse_grow;
  int grow_status;                   /* when non-zero, the hook returns it */
  unsigned grow_calls;
  uint64_t grow_cur, grow_desired;   /* arguments of the last hook call */
  uint32_t last_import;              /* import_index of the last host call */
} fuel_mod;

/* The pcs (code-section payload offsets) of the operators of function body
 * `func` in a wasm binary, read independently of the engine.  Knows only
 * the opcodes the test modules use. */
typedef struct op_pc {
  uint8_t op;
  uint64_t pc;
} op_pc;

void fm_open(fuel_mod *fm, const char *name, const char *wat);
void fm_close(fuel_mod *fm);
/* fm_open with a profile tree of nmetrics attached at its root (module 1,
 * fuel metric scale 4), and its undoing: detach, close, free the tree. */
void fm_open_tree(fuel_mod *fm, scp_tree *t, unsigned nmetrics, const char *name,
                  const char *wat);
void fm_close_tree(fuel_mod *fm, scp_tree *t);
int fm_call(fuel_mod *fm, const char *fn, const uint64_t *args, uint64_t *result, uint64_t fuel, uint64_t *consumed);
uint64_t fuel_of(fuel_mod *fm, const char *fn, const uint64_t *args, uint64_t *result);
/* fn(args) costs fuel and returns ret (its low 32 bits): the two checks,
 * reported at the caller's line. */
#define assert_fuel_ret(fm, fn, args, fuel, ret)                              \
  do {                                                                        \
    uint64_t r_;                                                              \
    assert_int_equal(fuel_of((fm), (fn), (args), &r_), (fuel));               \
    assert_int_equal((uint32_t)r_, (ret));                                    \
  } while (0)
size_t body_ops(const uint8_t *wasm, size_t len, uint32_t func, op_pc *out, size_t cap);
uint8_t *wat_binary(const char *name, size_t *len);
uint32_t find_guest(scp_tree *t, uint32_t callee);
uint64_t pc_cost(scp_tree *t, uint32_t node, uint64_t pc);
uint64_t pc_runs(scp_tree *t, uint32_t node, uint64_t pc);

/* Runs every case twice, goto dispatch then switch ("NAME/switch"), as one
 * cmocka group; returns cmocka's status. */
typedef void (*fuel_test_fn)(void **state);
typedef struct fuel_case {
  const char *name;
  fuel_test_fn fn;
} fuel_case;
int fuel_run_both_builds(const char *group, const fuel_case *cases, size_t n);

#endif
