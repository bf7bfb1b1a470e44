/*
 * test_profile.c — end-to-end profiles of real contracts through the
 * library: exact guest CPU worked out by hand from the fuel rules, host
 * nodes holding only their own charges, Σ self == Budget on every run,
 * budget exhaustion at N-1 / N, traps with partial profiles, and the demo
 * contract's hot line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "profile/scp_prof.h"
#include "soroban/core/scp_host.h"
#include "util/scp_util.h"
#include "build_dir.h"

typedef struct run {
  uint8_t *wasm;
  size_t len;
  scp_profile *p;
  int rc;
  scp_error err;
} run;

static void profile(run *r, const char *rel, const char *fn, const char *arg, uint64_t cpu_limit) {
  memset(r, 0, sizeof *r);
  assert_int_equal(scp_read_file(build_path(rel), &r->wasm, &r->len, &r->err), SCP_OK);
  scp_arg a;
  size_t nargs = 0;
  if (arg) {
    assert_int_equal(scp_arg_parse(arg, &a, &r->err), SCP_OK);
    nargs = 1;
  }
  scp_soroban_opts o = {.wasm_path = rel, .wasm = r->wasm, .wasm_len = r->len, .function = fn,
                        .args = &a, .nargs = nargs, .limits = {.cpu = cpu_limit}};
  r->rc = scp_soroban_profile(&o, &r->p, &r->err);
}

static void done(run *r) {
  scp_profile_destroy(r->p);
  free(r->wasm);
}

/* Node whose frame name is `name` (first in preorder), or -1. */
static int find(const scp_profile *p, const char *name) {
  for (size_t i = 0; i < p->nnodes; i++)
    if (!strcmp(scp_prof_str(p, p->frames[p->nodes[i].frame].name), name)) return (int)i;
  return -1;
}

static uint64_t self_sum(const scp_profile *p, unsigned m) {
  uint64_t s = 0;
  for (size_t i = 0; i < p->nnodes; i++) s += p->nodes[i].self[m];
  return s;
}

/* Σ self == root total == what the run reports, and inclusive adds up. */
static void check_invariants(const scp_profile *p) {
  assert_true(scp_prof_check(p));
  assert_int_equal(self_sum(p, 0), scp_profile_total(p, 0));
  assert_int_equal(self_sum(p, 1), scp_profile_total(p, 1));
}

static uint64_t guest_cpu(const scp_profile *p, const char *fn) {
  int n = find(p, fn);
  assert_true(n >= 0);
  return p->nodes[n].self[0];
}

static void test_ident_exact(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/exact.wasm", "ident", "u32:7", 0);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  /* 3 fuel x 4 CPU */
  assert_int_equal(guest_cpu(r.p, "ident"), 12);
  done(&r);
}

static void test_sum_exact(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/exact.wasm", "sum", "u32:10", 0);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  /* (12 + 14 * 11) fuel x 4 */
  assert_int_equal(guest_cpu(r.p, "sum"), (12 + 14 * 11) * 4);
  done(&r);
  profile(&r, "tests/fixtures/wat/exact.wasm", "sum", "u32:0", 0);
  assert_int_equal(guest_cpu(r.p, "sum"), (12 + 14) * 4);
  done(&r);
}

static void test_host_call_excludes_flush(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/exact.wasm", "seq", "void", 0);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  assert_int_equal(guest_cpu(r.p, "seq"), 69 * 4);
  int h = find(r.p, "host:get_ledger_sequence");
  assert_true(h >= 0);
  /* DispatchHostFunction only: the 276 CPU of guest fuel flushed at the
   * boundary must not land here */
  assert_int_equal(r.p->nodes[h].self[0], 295);
  assert_int_equal(r.p->nodes[h].calls, 1);
  assert_int_equal(r.p->nodes[h].parent, (uint32_t)find(r.p, "seq"));
  done(&r);
}

static void test_memory_grow_exact(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/exact.wasm", "grow", "u32:1", 0);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  /* static 11 fuel + 1024 fuel per page, x 4; plus MemAlloc(65536):
   * cpu 434 + (16 * 65536 >> 7) = 8626, mem 16 + 65536 */
  int g = find(r.p, "grow");
  assert_int_equal(r.p->nodes[g].self[0], (11 + 1024) * 4 + 8626);
  assert_int_equal(r.p->nodes[g].self[1], 65552);
  done(&r);
}

static void test_budget_n_minus_1(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/exact.wasm", "sum", "u32:100", 0);
  assert_int_equal(r.rc, SCP_OK);
  uint64_t total = scp_profile_total(r.p, 0);
  done(&r);
  /* exactly enough: runs */
  profile(&r, "tests/fixtures/wat/exact.wasm", "sum", "u32:100", total);
  assert_int_equal(r.rc, SCP_OK);
  assert_int_equal(scp_profile_total(r.p, 0), total);
  done(&r);
  /* one short: out of fuel on the last loop entry, partial profile kept */
  profile(&r, "tests/fixtures/wat/exact.wasm", "sum", "u32:100", total - 1);
  assert_int_equal(r.rc, SCP_ERR_BUDGET);
  assert_non_null(r.p);
  check_invariants(r.p);
  /* the body region and 100 of the 101 loop entries were paid for */
  assert_int_equal(guest_cpu(r.p, "sum"), (12 + 14 * 100) * 4);
  assert_true(scp_profile_total(r.p, 0) < total);
  assert_non_null(strstr(r.err.msg, "ExceededLimit"));
  done(&r);
}

/* The profile's size depends on code and call paths, never on how many
 * instructions ran: 7,000,000 loop iterations (98M operators) give the
 * same nodes and lines as 1,000, with the exact fuel. */
static void test_bounded_memory(void **state) {
  (void)state;
  run small, big;
  profile(&small, "tests/fixtures/wat/exact.wasm", "sum", "u32:1000", 1000000000000ULL);
  profile(&big, "tests/fixtures/wat/exact.wasm", "sum", "u32:7000000", 1000000000000ULL);
  assert_int_equal(small.rc, SCP_OK);
  assert_int_equal(big.rc, SCP_OK);
  check_invariants(big.p);
  assert_int_equal(guest_cpu(big.p, "sum"), (12 + 14 * 7000001ULL) * 4);
  assert_int_equal(small.p->nnodes, big.p->nnodes);
  assert_int_equal(small.p->nlines, big.p->nlines);
  assert_int_equal(small.p->nframes, big.p->nframes);
  done(&small);
  done(&big);
}

static void test_trap_partial(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/exact.wasm", "trap", "void", 0);
  assert_int_equal(r.rc, SCP_ERR_TRAP);
  assert_non_null(r.p);
  check_invariants(r.p);
  assert_non_null(strstr(r.err.msg, "unreachable"));
  /* body 1 + unreachable 1 */
  assert_int_equal(guest_cpu(r.p, "trap"), 2 * 4);
  done(&r);
}

/* Vm::get_memory: no `memory` export is Error(WasmVm, MissingValue) after
 * bytes_new_from_linear_memory's MemAlloc(0) (434 cpu, 16 mem) and
 * MemCpy(0) (42), plus DispatchHostFunction (295) (the fixtures are
 * tests/fixtures/wat/nomem.wat and zeropage.wat); a 0-page memory
 * serves a zero-length read and fails one byte with IndexBounds after
 * MemAlloc(1) (434, 17) and MemCpy(1) (42). */
static void test_linear_memory_missing(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/nomem.wasm", "new", "void", 0);
  assert_int_not_equal(r.rc, SCP_OK);
  assert_non_null(r.p);
  check_invariants(r.p);
  /* a host error traps the guest; the profile reports it by its message,
   * and this one is only
   * raised with Error(WasmVm, MissingValue) (test_host.c checks the code) */
  assert_int_equal(r.rc, SCP_ERR_TRAP);
  assert_non_null(strstr(r.err.msg, "no linear memory named `memory`"));
  int h = find(r.p, "host:bytes_new_from_linear_memory");
  assert_true(h >= 0);
  assert_int_equal(r.p->nodes[h].self[0], 295 + 434 + 42);
  assert_int_equal(r.p->nodes[h].self[1], 16);
  done(&r);
  /* success adds add_host_object's MemAlloc(64) (442, 80), the result
   * check's VisitObject (60) and absolute_to_relative's MemAlloc(8)
   * (435, 24) */
  profile(&r, "tests/fixtures/wat/zeropage.wasm", "new", "u32:0", 0);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  h = find(r.p, "host:bytes_new_from_linear_memory");
  assert_true(h >= 0);
  assert_int_equal(r.p->nodes[h].self[0], 295 + 434 + 42 + 442 + 60 + 435);
  assert_int_equal(r.p->nodes[h].self[1], 16 + 80 + 24);
  done(&r);
  profile(&r, "tests/fixtures/wat/zeropage.wasm", "new", "u32:1", 0);
  assert_int_not_equal(r.rc, SCP_OK);
  assert_int_equal(r.rc, SCP_ERR_TRAP);
  assert_non_null(strstr(r.err.msg, "out-of-bounds access to WASM linear memory"));
  h = find(r.p, "host:bytes_new_from_linear_memory");
  assert_true(h >= 0);
  assert_int_equal(r.p->nodes[h].self[0], 295 + 434 + 42);
  assert_int_equal(r.p->nodes[h].self[1], 17);
  done(&r);
}

static void test_demo_profile(void **state) {
  (void)state;
  run r;
  profile(&r, "examples/demo.wasm", "run", "u32:200", 0);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  /* the inlined helper is a frame of its own under run, named from DWARF */
  int run_node = find(r.p, "run");
  int mix = find(r.p, "mix");
  assert_true(run_node >= 0 && mix >= 0);
  assert_int_equal(r.p->nodes[mix].parent, (uint32_t)run_node);
  assert_int_equal(r.p->frames[r.p->nodes[mix].frame].kind, SCP_KIND_INLINED);
  /* calls made from collect's loop hang under collect */
  int collect = find(r.p, "collect");
  int push = find(r.p, "host:vec_push_back");
  assert_true(collect >= 0 && push >= 0);
  assert_int_equal(r.p->nodes[push].parent, (uint32_t)collect);
  assert_int_equal(r.p->nodes[push].calls, 200 / 20 + 1);
  /* the hottest source line (line 0 = compiler-generated aside) is the
   * hot loop's line in run or a line of its inlined helper */
  uint64_t best = 0;
  uint32_t best_line = 0;
  for (size_t i = 0; i < r.p->nlines; i++)
    if (r.p->lines[i].line && r.p->lines[i].cost[0] > best) {
      best = r.p->lines[i].cost[0];
      best_line = r.p->lines[i].line;
    }
  assert_int_equal(best_line, 41);
  done(&r);
}

/* A call made from inlined code sits under the inlined frame (found
 * through the call's pc), with every call counted. */
static void test_call_from_inlined_code(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wasm/inline_call.wasm", "run", "u32:5", 0);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  int run_node = find(r.p, "run"), pair = find(r.p, "push_pair");
  int push = find(r.p, "host:vec_push_back");
  assert_true(run_node >= 0 && pair >= 0 && push >= 0);
  assert_int_equal(r.p->frames[r.p->nodes[pair].frame].kind, SCP_KIND_INLINED);
  assert_int_equal(r.p->nodes[pair].parent, (uint32_t)run_node);
  assert_int_equal(r.p->nodes[push].parent, (uint32_t)pair);
  assert_int_equal(r.p->nodes[push].calls, 10);
  /* vec_new and vec_len are called from run itself */
  assert_int_equal(r.p->nodes[find(r.p, "host:vec_new")].parent, (uint32_t)run_node);
  assert_int_equal(r.p->nodes[find(r.p, "host:vec_len")].parent, (uint32_t)run_node);
  done(&r);
}

static void test_demo_traps(void **state) {
  (void)state;
  run r;
  profile(&r, "examples/demo.wasm", "run", "u32:9999", 0);
  assert_int_equal(r.rc, SCP_ERR_TRAP);
  assert_non_null(r.p);
  check_invariants(r.p);
  assert_non_null(strstr(r.err.msg, "integer divide by zero"));
  done(&r);
  profile(&r, "examples/demo.wasm", "run", "u32:20000", 0);
  assert_int_equal(r.rc, SCP_ERR_TRAP);
  assert_non_null(r.p);
  check_invariants(r.p);
  assert_true(find(r.p, "host:fail_with_error") >= 0);
  done(&r);
}

static void test_bad_inputs(void **state) {
  (void)state;
  run r;
  profile(&r, "tests/fixtures/wat/exact.wasm", "nope", "void", 0);
  assert_int_equal(r.rc, SCP_ERR_NOTFOUND);
  assert_null(r.p);
  assert_non_null(strstr(r.err.msg, "nope"));
  done(&r);
  /* truncated module */
  uint8_t *w;
  size_t n;
  scp_error e;
  assert_int_equal(scp_read_file(build_path("examples/demo.wasm"), &w, &n, &e), SCP_OK);
  for (size_t cut = 0; cut < n; cut += 97) {
    scp_soroban_opts o = {.wasm_path = "cut.wasm", .wasm = w, .wasm_len = cut, .function = "run"};
    scp_profile *p = NULL;
    int rc = scp_soroban_profile(&o, &p, &e);
    assert_int_equal(rc, SCP_ERR_MALFORMED);
    assert_null(p);
    assert_non_null(strstr(e.msg, "cut.wasm"));
  }
  free(w);
}

static const char *meta(const scp_profile *p, const char *key) {
  for (size_t i = 0; i < p->nmeta; i++)
    if (!strcmp(scp_prof_str(p, p->meta[i].key), key)) return scp_prof_str(p, p->meta[i].value);
  return NULL;
}

/* The cross-contract example: caller.run(counter, 3) calls
 * counter.increment three times and try_calls counter.fail once.  The
 * callee's frames hang under host:call / host:try_call as
 * contract:counter.wasm, every unit of every metric sits on one node, and
 * the storage and auth the callee did are where it did them. */
static void test_cross_contract(void **state) {
  (void)state;
  run r, callee;
  memset(&r, 0, sizeof r);
  memset(&callee, 0, sizeof callee);
  assert_int_equal(scp_read_file(build_path("examples/caller.wasm"), &r.wasm, &r.len, &r.err), SCP_OK);
  assert_int_equal(scp_read_file(build_path("examples/counter.wasm"), &callee.wasm, &callee.len, &r.err),
                   SCP_OK);
  /* the counter's id: deployer = zero account, salt = 1 (scprof.h) */
  scp_budget b;
  scp_budget_init(&b, 0, 0);
  scp_host *h;
  assert_int_equal(scp_host_create(&b, NULL, &h), SCP_OK);
  uint8_t zero[32] = {0}, salt[32] = {0}, id[32];
  salt[31] = 1;
  scp_host_contract_id(h, false, zero, salt, id);
  scp_host_destroy(h);
  char text[64] = "str:";
  scp_host_contract_strkey(id, text + 4);
  scp_arg a[2];
  assert_int_equal(scp_arg_parse(text, &a[0], &r.err), SCP_OK);
  assert_int_equal(scp_arg_parse("u32:3", &a[1], &r.err), SCP_OK);
  scp_contract_file cf = {"examples/counter.wasm", callee.wasm, callee.len};
  scp_soroban_opts o = {.wasm_path = "examples/caller.wasm", .wasm = r.wasm, .wasm_len = r.len,
                        .function = "run", .args = a, .nargs = 2, .ledger = {.contracts = &cf, .ncontracts = 1}};
  r.rc = scp_soroban_profile(&o, &r.p, &r.err);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  assert_string_equal(meta(r.p, "result"), "u32:3");
  assert_non_null(strstr(meta(r.p, "contract id 1"), text + 4));
  /* nesting: host:call -> contract:counter.wasm -> increment -> host:... */
  int call = find(r.p, "host:call"), callee_node = find(r.p, "contract:counter.wasm");
  int inc = find(r.p, "increment");
  assert_true(call >= 0 && callee_node >= 0 && inc >= 0);
  assert_int_equal(r.p->nodes[callee_node].parent, (uint32_t)call);
  assert_int_equal(r.p->frames[r.p->nodes[callee_node].frame].kind, SCP_KIND_CONTRACT);
  assert_int_equal(r.p->nodes[callee_node].calls, 3);
  assert_int_equal(r.p->nodes[inc].parent, (uint32_t)callee_node);
  assert_int_equal(r.p->nodes[find(r.p, "host:require_auth")].parent, (uint32_t)inc);
  int fail = find(r.p, "fail");
  assert_true(fail >= 0);
  uint32_t fail_contract = r.p->nodes[fail].parent;
  assert_int_equal(r.p->nodes[r.p->nodes[fail_contract].parent].frame,
                   r.p->nodes[find(r.p, "host:try_call")].frame);
  /* the callee's VM instantiation is its own node under the callee */
  bool vm_under_callee = false;
  for (size_t i = 0; i < r.p->nnodes; i++)
    if (r.p->nodes[i].parent == (uint32_t)callee_node &&
        r.p->frames[r.p->nodes[i].frame].kind == SCP_KIND_VM)
      vm_under_callee = r.p->nodes[i].self[0] > 0;
  assert_true(vm_under_callee);
  /* storage metrics: 3 x (has, get or not, put, extend) in the counter, 1
   * temporary put in the caller; every metric's Σ self == its total */
  assert_int_equal(r.p->nmetrics, 6);
  for (unsigned m = 2; m < 6; m++) assert_int_equal(self_sum(r.p, m), scp_profile_total(r.p, m));
  assert_int_equal(scp_profile_total(r.p, 2), 3 + 2 + 3);   /* has x3, get x2, extend x3 */
  assert_int_equal(scp_profile_total(r.p, 3), 4);
  assert_int_equal(r.p->nodes[find(r.p, "host:put_contract_data")].self[3], 3);
  /* the three require_auth calls are listed */
  assert_non_null(meta(r.p, "auth 3"));
  assert_null(meta(r.p, "auth 4"));
  assert_non_null(strstr(meta(r.p, "auth 1"), "authorized increment(all args)"));
  /* the memory of the 5 VMs is refunded as their frames pop */
  assert_non_null(strstr(meta(r.p, "memory"), " - refunded "));
  /* the limit is checked against the Budget's count after refunds: its
   * peak is below everything charged, which the tree books */
  assert_true(r.p->enforced_set & 2u);
  assert_true(scp_prof_checked(r.p, 1) < scp_profile_total(r.p, 1));
  done(&r);
  free(callee.wasm);
}

/* A contract created at run time from code in the ledger, then called:
 * create_contract instantiates the new contract's VM once to read its
 * protocol, runs its (missing: no-op) __constructor, and the call nests it
 * as contract:counter.wasm@<id>. */
static void test_create_and_call(void **state) {
  (void)state;
  run r, callee;
  memset(&r, 0, sizeof r);
  memset(&callee, 0, sizeof callee);
  assert_int_equal(scp_read_file(build_path("tests/fixtures/wasm/deployer.wasm"), &r.wasm, &r.len, &r.err),
                   SCP_OK);
  assert_int_equal(scp_read_file(build_path("examples/counter.wasm"), &callee.wasm, &callee.len, &r.err),
                   SCP_OK);
  uint8_t hash[32];
  SHA256(callee.wasm, callee.len, hash);
  char text[80] = "bytes:";
  for (int i = 0; i < 32; i++) snprintf(text + 6 + 2 * i, 3, "%02x", hash[i]);
  scp_arg a[2];
  assert_int_equal(scp_arg_parse(text, &a[0], &r.err), SCP_OK);
  assert_int_equal(scp_arg_parse("bytes:0000000000000000000000000000000000000000000000000000000000000042",
                                 &a[1], &r.err), SCP_OK);
  scp_contract_file cf = {"examples/counter.wasm", callee.wasm, callee.len};
  scp_soroban_opts o = {.wasm_path = "deployer.wasm", .wasm = r.wasm, .wasm_len = r.len,
                        .function = "run", .args = a, .nargs = 2, .ledger = {.contracts = &cf, .ncontracts = 1}};
  r.rc = scp_soroban_profile(&o, &r.p, &r.err);
  assert_int_equal(r.rc, SCP_OK);
  check_invariants(r.p);
  assert_string_equal(meta(r.p, "result"), "u32:5");
  int create = find(r.p, "host:create_contract"), call = find(r.p, "host:call");
  assert_true(create >= 0 && call >= 0);
  /* under create_contract: the new contract, entered twice (protocol
   * probe, constructor), with its VM instantiated each time */
  int created = -1;
  for (size_t i = 0; i < r.p->nnodes; i++)
    if (r.p->nodes[i].parent == (uint32_t)create &&
        r.p->frames[r.p->nodes[i].frame].kind == SCP_KIND_CONTRACT)
      created = (int)i;
  assert_true(created >= 0);
  assert_int_equal(r.p->nodes[created].calls, 2);
  assert_non_null(strstr(scp_prof_str(r.p, r.p->frames[r.p->nodes[created].frame].name),
                         "contract:counter.wasm@"));
  int inc = find(r.p, "increment");
  assert_true(inc >= 0);
  assert_int_equal(r.p->nodes[r.p->nodes[inc].parent].parent, (uint32_t)call);
  done(&r);
  free(callee.wasm);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ident_exact),
    cmocka_unit_test(test_sum_exact),
    cmocka_unit_test(test_host_call_excludes_flush),
    cmocka_unit_test(test_memory_grow_exact),
    cmocka_unit_test(test_budget_n_minus_1),
    cmocka_unit_test(test_bounded_memory),
    cmocka_unit_test(test_trap_partial),
    cmocka_unit_test(test_linear_memory_missing),
    cmocka_unit_test(test_demo_profile),
    cmocka_unit_test(test_call_from_inlined_code),
    cmocka_unit_test(test_demo_traps),
    cmocka_unit_test(test_bad_inputs),
    cmocka_unit_test(test_cross_contract),
    cmocka_unit_test(test_create_and_call),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
