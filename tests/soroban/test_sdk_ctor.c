/*
 * test_sdk_ctor.c — the storage map a soroban-sdk test Env holds after
 * e.register(WASM, args) of a contract with a constructor
 * (scp_sor_testenv_constructed, src/soroban/run/sor_testenv.c), on
 * tests/fixtures/wasm/ctor.wasm: __constructor(owner, start) puts "count"
 * = start and "owner" = owner in persistent storage.
 *
 * Hand-derived from the host's rules and the XDR: the map holds the
 * register's four entries (code, instance, the deployer's instance as
 * None, the deployer's recording nonce) and the constructor's two, each
 * persistent entry live until 0 + 4,096 - 1 = 4,095 (the test Env's
 * ledger sequence 0 and minimum persistent TTL); the values' ScVal XDR:
 * SCV_U32 (3) 41, and SCV_ADDRESS (18) of an account (type 0, ed25519
 * 0, the key).  A contract without a constructor gives no map; a
 * constructor whose arity the arguments do not match is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/run/sor_testenv.h"
#include "soroban/run/scp_scenario.h"
#include "util/scp_util.h"
#include "build_dir.h"

#define OWNER "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5"

/* soroban-sdk's Env::default ledger (sor_run.c's sdk-test options) */
static void test_env_opts(scp_host_opts *ho) {
  memset(ho, 0, sizeof *ho);
  ho->protocol = 28;
  ho->min_persistent_entry_ttl = 4096;
  ho->min_temp_entry_ttl = 16;
  ho->max_entry_ttl = 6312000;
  ho->module_cache = true;
}

typedef struct ctor_run {
  uint8_t *wasm;
  size_t len;
  scp_contract_file file;
  scp_ledger_deploy dep;
  scp_ledger *l;
  scp_sor_session sess;
  scp_arg a[2];
  scp_soroban_opts o;
} ctor_run;

/* fixture's Wasm registered in a scenario with nargs of (owner, 41) */
static void ctor_open(ctor_run *r, const char *fixture, size_t nargs) {
  scp_error err;
  memset(r, 0, sizeof *r);
  assert_int_equal(scp_read_file(build_path(fixture), &r->wasm, &r->len, &err), SCP_OK);
  r->file = (scp_contract_file){.path = "ctor.wasm", .wasm = r->wasm, .len = r->len};
  assert_int_equal(scp_arg_parse("addr:" OWNER, &r->a[0], &err), SCP_OK);
  assert_int_equal(scp_arg_parse("u32:41", &r->a[1], &err), SCP_OK);
  r->dep = (scp_ledger_deploy){.construct = true, .ctor = r->a, .nctor = nargs, .where = "contracts[0]",
                               .test_gen = 1};
  assert_non_null(r->l = scp_ledger_new(&r->file, 1));
  r->l->deploys = &r->dep;
  r->sess = (scp_sor_session){.ledger = r->l, .main = 0};
  r->o = (scp_soroban_opts){.wasm_path = "ctor.wasm", .wasm = r->wasm, .wasm_len = r->len,
                            .function = "get", .sdk_test = true, .session = &r->sess};
}

/* scp_sor_testenv_constructed on r in the test Env's ledger */
static int constructed(ctor_run *r, scp_sentry **m, size_t *n, scp_error *err) {
  scp_host_opts ho;
  test_env_opts(&ho);
  memset(err, 0, sizeof *err);
  return scp_sor_testenv_constructed(&r->o, &ho, m, n, err);
}

static void ctor_close(ctor_run *r) {
  scp_ledger_free(r->l);
  free(r->wasm);
}

/* The map's persistent ContractData entry under Symbol name (n < 9). */
static const scp_sentry *data(const scp_sentry *m, size_t n, const char *name) {
  uint8_t k[16] = { 0, 0, 0, 15, 0, 0, 0, 0 };
  size_t len = strlen(name);
  k[7] = (uint8_t)len;
  memcpy(k + 8, name, len);
  for (size_t i = 0; i < n; i++)
    if (m[i].k.type == SCP_LK_CONTRACT_DATA && m[i].k.dur == SCP_DUR_PERSISTENT && m[i].k.keylen == 16 &&
        !memcmp(m[i].k.key, k, 16))
      return &m[i];
  return NULL;
}

static void test_constructor_entries(void **state) {
  (void)state;
  ctor_run r;
  ctor_open(&r, "tests/fixtures/wasm/ctor.wasm", 2);
  scp_sentry *m = NULL;
  size_t n = 0;
  scp_error err;
  assert_int_equal(constructed(&r, &m, &n, &err), SCP_OK);
  assert_int_equal(n, 6);
  size_t code = 0, none = 0, temp = 0;
  for (size_t i = 0; i < n; i++) {
    code += m[i].k.type == SCP_LK_CONTRACT_CODE;
    none += !m[i].present;
    temp += m[i].k.type == SCP_LK_CONTRACT_DATA && m[i].k.dur == SCP_DUR_TEMPORARY;
  }
  assert_int_equal(code, 1);
  assert_int_equal(none, 1);   /* the deployer's instance, read and missing */
  assert_int_equal(temp, 1);   /* the deployer's recording nonce */
  const scp_sentry *c = data(m, n, "count"), *o = data(m, n, "owner");
  assert_non_null(c);
  assert_non_null(o);
  static const uint8_t u32_41[8] = { 0, 0, 0, 3, 0, 0, 0, 41 };
  assert_true(c->present);
  assert_int_equal(c->live_until, 4095);
  assert_int_equal(c->vallen, 8);
  assert_memory_equal(c->val, u32_41, 8);
  uint8_t owner[32];
  assert_true(scp_account_strkey(OWNER, owner));
  assert_true(o->present);
  assert_int_equal(o->live_until, 4095);
  assert_int_equal(o->vallen, 44);
  static const uint8_t head[12] = { 0, 0, 0, 18, 0, 0, 0, 0, 0, 0, 0, 0 };
  assert_memory_equal(o->val, head, 12);
  assert_memory_equal(o->val + 12, owner, 32);
  /* both under the new contract's id, the instance's */
  assert_memory_equal(c->k.id, o->k.id, 32);
  scp_storage_snapshot_free(m, n);
  ctor_close(&r);
}

static void test_no_constructor(void **state) {
  (void)state;
  ctor_run r;
  ctor_open(&r, "tests/fixtures/wasm/kv_store.wasm", 0);
  r.dep.construct = false;
  scp_sentry *m = (scp_sentry *)&r;
  size_t n = 7;
  scp_error err;
  assert_int_equal(constructed(&r, &m, &n, &err), SCP_OK);
  assert_null(m);
  assert_int_equal(n, 0);
  ctor_close(&r);
}

static void test_arity_refused(void **state) {
  (void)state;
  ctor_run r;
  ctor_open(&r, "tests/fixtures/wasm/ctor.wasm", 1);
  scp_sentry *m = NULL;
  size_t n = 0;
  scp_error err;
  assert_int_equal(constructed(&r, &m, &n, &err), SCP_ERR_ARG);
  assert_string_equal(err.msg, "contracts[0]: ctor.wasm: context sdk-test: __constructor takes 2 arguments, "
                               "1 given (e.register's constructor arguments: a scenario's \"constructor_args\")");
  assert_null(m);
  ctor_close(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_constructor_entries),
    cmocka_unit_test(test_no_constructor),
    cmocka_unit_test(test_arity_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
