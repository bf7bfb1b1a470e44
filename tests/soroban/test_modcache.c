/*
 * test_modcache.c — contract code loaded once per code hash for a
 * scenario's ledger (sor_modcache.h): the same Wasm under two ledger file
 * slots and by its hash is one load; another Wasm is another; a load that
 * fails is not kept and fails again the same way; and a scenario of many
 * calls on a ledger of several contracts loads each distinct code once,
 * whatever the number of contracts and calls, with every call's Budget
 * the one a lone call of that contract is charged (vm:instantiate
 * unchanged: the cache saves scprof's work, not the network's charges).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/scp_prof.h"
#include "soroban/run/scp_scenario.h"
#include "soroban/run/sor_modcache.h"
#include "util/scp_util.h"
#include "build_dir.h"

#include <openssl/sha.h>

static uint8_t *read_wasm(const char *rel, size_t *len) {
  scp_error err;
  uint8_t *w = NULL;
  assert_int_equal(scp_read_file(build_path(rel), &w, len, &err), SCP_OK);
  return w;
}

static void test_once_per_hash(void **state) {
  (void)state;
  size_t dl, cl;
  uint8_t *demo = read_wasm("examples/demo.wasm", &dl), *counter = read_wasm("examples/counter.wasm", &cl);
  uint8_t hash[32];
  SHA256(demo, dl, hash);
  sor_modcache *c = scp_sor_modcache_new();
  assert_non_null(c);
  const sor_code *a = NULL, *b = NULL, *h = NULL, *d = NULL;
  scp_error err = {0};
  assert_int_equal(scp_sor_modcache_get(c, 0, demo, dl, NULL, "demo.wasm", &a, &err), SCP_OK);
  assert_int_equal(scp_sor_modcache_get(c, 5, demo, dl, NULL, "other.wasm", &b, &err), SCP_OK);
  assert_int_equal(scp_sor_modcache_get(c, SIZE_MAX, demo, dl, hash, "x.wasm", &h, &err), SCP_OK);
  assert_ptr_equal(a, b);
  assert_ptr_equal(a, h);
  assert_memory_equal(a->hash, hash, 32);
  assert_non_null(a->mod);
  assert_non_null(a->import_fn);
  assert_int_equal(scp_sor_modcache_get(c, 1, counter, cl, NULL, "counter.wasm", &d, &err), SCP_OK);
  assert_ptr_not_equal(a, d);
  /* slot 0 still finds demo (the slot table grew past it) */
  assert_int_equal(scp_sor_modcache_get(c, 0, demo, dl, NULL, "demo.wasm", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  /* a Wasm that does not load: not kept, the same error each time */
  static const uint8_t bad[] = {0, 'a', 's', 'm', 1, 0, 0, 0, 0x7f};
  for (int k = 0; k < 2; k++) {
    scp_error e = {0};
    const sor_code *x = NULL;
    assert_int_not_equal(scp_sor_modcache_get(c, 2, bad, sizeof bad, NULL, "bad.wasm", &x, &e), SCP_OK);
    assert_null(x);
    assert_non_null(strstr(e.msg, "bad.wasm"));
  }
  scp_sor_modcache_free(c);
  free(demo);
  free(counter);
}

/* Many codes: the hash table grows and finds every one again. */
static void test_many_codes(void **state) {
  (void)state;
  size_t dl;
  uint8_t *demo = read_wasm("examples/demo.wasm", &dl);
  enum { N = 150 };
  sor_modcache *c = scp_sor_modcache_new();
  const sor_code *got[N];
  uint8_t *w[N];
  scp_error err = {0};
  for (int i = 0; i < N; i++) {
    /* a distinct code: demo with a custom section of i's bytes appended */
    w[i] = malloc(dl + 8);
    memcpy(w[i], demo, dl);
    const uint8_t sec[8] = {0, 6, 1, 'z', (uint8_t)i, (uint8_t)(i >> 8), 0, 0};
    memcpy(w[i] + dl, sec, 8);
    assert_int_equal(scp_sor_modcache_get(c, SIZE_MAX, w[i], dl + 8, NULL, "d.wasm", &got[i], &err), SCP_OK);
  }
  for (int i = 0; i < N; i++) {
    const sor_code *again = NULL;
    assert_int_equal(scp_sor_modcache_get(c, SIZE_MAX, w[i], dl + 8, NULL, "d.wasm", &again, &err), SCP_OK);
    assert_ptr_equal(again, got[i]);
    for (int k = 0; k < i; k++) assert_ptr_not_equal(got[k], got[i]);
  }
  scp_sor_modcache_free(c);
  for (int i = 0; i < N; i++) free(w[i]);
  free(demo);
}

static void run_call(scp_ledger *l, size_t main, const char *wasm_path, const scp_contract_file *f,
                    uint64_t *cpu, uint64_t *mem) {
  scp_arg arg = {0};
  scp_error err = {0};
  assert_int_equal(scp_arg_parse("u32:3", &arg, &err), SCP_OK);
  scp_sor_session sess = {.ledger = l, .main = main};
  scp_soroban_opts o = {.wasm_path = wasm_path, .wasm = f->wasm, .wasm_len = f->len, .function = "run",
                        .args = &arg, .nargs = 1, .session = l ? &sess : NULL};
  scp_profile *p = NULL;
  if (l && scp_ledger_setup(l, &o, &err)) fail_msg("%s", err.msg);
  int rc = scp_soroban_profile(&o, &p, &err);
  if (rc) fail_msg("%s", err.msg);
  *cpu = scp_profile_total(p, 0);
  *mem = scp_profile_total(p, 1);
  scp_profile_destroy(p);
}

/* 12 contracts of 2 codes, 30 calls: the cache ends with 2 codes, and
 * every call of demo is charged what demo alone is. */
static void test_scenario_loads_each_code_once(void **state) {
  (void)state;
  size_t dl, cl;
  uint8_t *demo = read_wasm("examples/demo.wasm", &dl), *counter = read_wasm("examples/counter.wasm", &cl);
  enum { NC = 12 };
  scp_contract_file files[NC];
  for (int i = 0; i < NC; i++)
    files[i] = (scp_contract_file){.path = i % 3 ? "demo.wasm" : "counter.wasm",
                                   .wasm = i % 3 ? demo : counter, .len = i % 3 ? dl : cl};
  uint64_t cpu1, mem1;
  scp_contract_file lone = {.path = "demo.wasm", .wasm = demo, .len = dl};
  run_call(NULL, 0, "demo.wasm", &lone, &cpu1, &mem1);
  scp_ledger *l = scp_ledger_new(files, NC);
  assert_non_null(l);
  for (int k = 0; k < 30; k++) {
    size_t i = (size_t)(k * 7) % NC;
    if (!(i % 3)) i++;
    uint64_t cpu, mem;
    run_call(l, i, "demo.wasm", &files[i], &cpu, &mem);
    assert_int_equal(cpu, cpu1);
    assert_int_equal(mem, mem1);
  }
  /* both codes are in the cache, found by hash, and nothing else was loaded */
  uint8_t h[32];
  const sor_code *x = NULL;
  scp_error err = {0};
  SHA256(counter, cl, h);
  assert_int_equal(scp_sor_modcache_get(l->modcache, SIZE_MAX, counter, cl, h, "c", &x, &err), SCP_OK);
  assert_int_equal(scp_sor_modcache_count(l->modcache), 2);
  scp_ledger_free(l);
  free(demo);
  free(counter);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_once_per_hash),
    cmocka_unit_test(test_many_codes),
    cmocka_unit_test(test_scenario_loads_each_code_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
