/*
 * test_scenario_scale.c — reading a scenario stays linear: 100,000
 * contracts, assets, accounts, trustlines, storage entries, spec functions
 * and calls, each named thing referenced by name 100,000 times (deployers,
 * calls, "addr:" arguments, signers, storage, trustlines, functions), load
 * within a second, and so do the classic entries of 100,000 accounts with
 * a trustline each; a duplicate that is the last of 100,000 is found; an
 * object of 100,000 keys (jansson hashes them) is read and refused within
 * a second too, also when its last key repeats the first.
 *
 * The scenarios are written under SCP_BUILD/tests/soroban/scale (at most
 * 16 MiB each, the scenario limit), with an 8-byte WASM module as every
 * contract's code.  Times are the process's CPU time, so other work on the
 * machine does not count: a second in the release build, five under the
 * sanitizers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "soroban/core/host_private.h"
#include "soroban/core/scp_host.h"
#include "soroban/run/scp_scenario.h"
#include "util/scp_util.h"
#include "build_dir.h"
#include "scale_test.h"

#ifndef N
#define N 100000
#endif

/* The folder the scenarios are written to, with m.wasm in it. */
static const char *folder(void) {
  static char dir[512];
  if (!dir[0]) scale_folder(dir, sizeof dir, "soroban", "m.wasm", "\0asm\1\0\0\0", 8);
  return dir;
}

/* Write b as folder()/name; returns the path (static). */
static const char *write_scenario(const char *name, scp_buf *b) {
  static char path[600];
  assert_true(b->len < SCP_MAX_SCENARIO_BYTES);
  return scale_write(path, sizeof path, folder(), name, b);
}

/* The G... strkey of the account whose key is i's bytes. */
static void account(size_t i, char out[57]) {
  uint8_t addr[33] = {0};
  for (int k = 0; k < 8; k++) addr[1 + k] = (uint8_t)(i >> (8 * k));
  addr[32] = 0x5a;
  scp_host_address_strkey(addr, out);
}

/* Load path, timed; returns the scenario (NULL and *rc on failure). */
static scp_scenario *timed_load(const char *path, int *rc, scp_error *err, double *dt) {
  scp_scenario *s = NULL;
  double t0 = cpu_now();
  *rc = scp_scenario_load(path, &s, err);
  *dt = cpu_now() - t0;
  return s;
}

static scp_scenario *load_within_limit(const char *path, const char *what) {
  int rc;
  scp_error err = {0};
  double dt;
  scp_scenario *s = timed_load(path, &rc, &err, &dt);
  if (rc) fail_msg("%s: %s", what, err.msg);
  printf("# %s: loaded in %.3f s\n", what, dt);
  assert_true(dt < CPU_LIMIT);
  return s;
}

/* Contracts deployed each by the one before it (named), and calls to each
 * by name. */
static void test_contracts_and_calls(void **state) {
  (void)state;
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"contracts\":[");
  for (size_t i = 0; i < N; i++) {
    scp_buf_printf(&b, "%s{\"name\":\"c%zu\",\"wasm\":\"m.wasm\"", i ? "," : "", i);
    if (i) scp_buf_printf(&b, ",\"deployer\":\"c%zu\"", i - 1);
    scp_buf_putc(&b, '}');
  }
  scp_buf_printf(&b, "],\"calls\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"contract\":\"c%zu\",\"function\":\"f\"}", i ? "," : "", (i * 7919) % N);
  scp_buf_printf(&b, "]}");
  scp_scenario *s = load_within_limit(write_scenario("contracts.json", &b), "contracts");
  assert_int_equal(s->ncontracts, N);
  assert_int_equal(s->ncalls, N);
  assert_int_equal(s->calls[N - 1].contract, ((size_t)(N - 1) * 7919) % N);
  assert_false(s->calls[N - 1].is_asset);
  assert_true(s->deploys[N - 1].by_contract);
  assert_int_equal(s->deploys[N - 1].deployer_index, N - 2);
  /* one file, read once: every contract shares its bytes */
  assert_ptr_equal(s->contracts[N - 1].wasm, s->contracts[0].wasm);
  scp_scenario_free(s);
}

/* Calls signed ("signers") by contracts named in the file. */
static void test_signers(void **state) {
  (void)state;
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"contracts\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"name\":\"c%zu\",\"wasm\":\"m.wasm\"}", i ? "," : "", i);
  scp_buf_printf(&b, "],\"calls\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"contract\":\"c0\",\"function\":\"f\",\"auth\":\"enforce\","
                   "\"signers\":[\"c%zu=S\"]}", i ? "," : "", (i * 7919) % N);
  scp_buf_printf(&b, "]}");
  scp_scenario *s = load_within_limit(write_scenario("signers.json", &b), "signers");
  const scp_scenario_call *last = &s->calls[N - 1];
  assert_int_equal(last->nauth_signers, 1);
  char sk[57];
  scp_host_contract_strkey(s->ids[((size_t)(N - 1) * 7919) % N], sk);
  assert_true(!strncmp(last->auth_signers[0], sk, 56) && !strcmp(last->auth_signers[0] + 56, "=S"));
  scp_scenario_free(s);
}

/* Asset contracts called by name, with an "addr:" argument naming
 * another. */
static void test_assets_and_calls(void **state) {
  (void)state;
  char issuer[57];
  account(SIZE_MAX, issuer);
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"assets\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"name\":\"a%zu\",\"asset\":\"A%zu:%s\"}", i ? "," : "", i, i, issuer);
  scp_buf_printf(&b, "],\"calls\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"contract\":\"a%zu\",\"function\":\"f\",\"args\":[\"addr:a%zu\"]}",
                   i ? "," : "", i, (i * 7919) % N);
  scp_buf_printf(&b, "]}");
  scp_scenario *s = load_within_limit(write_scenario("assets.json", &b), "assets");
  assert_int_equal(s->nassets, N);
  const scp_scenario_call *last = &s->calls[N - 1];
  assert_true(last->is_asset);
  assert_int_equal(last->contract, N - 1);
  char sk[57];
  scp_host_contract_strkey(s->ids[((size_t)(N - 1) * 7919) % N], sk);
  assert_int_equal(last->nargs, 1);
  assert_int_equal(last->args[0].kind, SCP_ARG_ADDRESS);
  assert_memory_equal(last->args[0].data, sk, 56);
  scp_scenario_free(s);
}

/* Accounts with a trustline each to one asset named in the file, and
 * storage entries of contracts named by the entries (their values name
 * other contracts); then the ledger's classic entries. */
static void test_accounts_trustlines_storage(void **state) {
  (void)state;
  char issuer[57], acc[57];
  account(SIZE_MAX, issuer);
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"assets\":[{\"name\":\"usd\",\"asset\":\"USD:%s\"}],\"accounts\":[", issuer);
  for (size_t i = 0; i < N; i++) {
    account(i, acc);
    scp_buf_printf(&b, "%s{\"id\":\"%s\"}", i ? "," : "", acc);
  }
  scp_buf_printf(&b, "],\"trustlines\":[");
  for (size_t i = 0; i < N; i++) {
    account(i, acc);
    scp_buf_printf(&b, "%s{\"account\":\"%s\",\"asset\":\"usd\"}", i ? "," : "", acc);
  }
  scp_buf_printf(&b, "],\"calls\":[{\"contract\":\"usd\",\"function\":\"f\"}]}");
  scp_scenario *s = load_within_limit(write_scenario("accounts.json", &b), "accounts");
  assert_int_equal(s->naccounts, N);
  assert_int_equal(s->ntrustlines, N);

  /* the classic entries: every account counts its one trustline */
  scp_ledger *l = scp_scenario_ledger(s, NULL, 0);
  assert_non_null(l);
  scp_budget bg;
  scp_budget_init(&bg, UINT64_MAX, UINT64_MAX);
  scp_host_opts ho = {0};
  scp_host *h = NULL;
  assert_int_equal(scp_host_create(&bg, &ho, &h), SCP_OK);
  scp_error err = {0};
  double t0 = cpu_now();
  assert_int_equal(scp_ledger_seed_classic(h, l, &err), SCP_OK);
  double dt = cpu_now() - t0;
  printf("# classic entries: %zu accounts, %zu trustlines in %.3f s\n", s->naccounts,
         s->ntrustlines, dt);
  assert_true(dt < CPU_LIMIT);
  assert_int_equal(h->nsnap, 2 * N);
  /* numSubEntries (offset 52 of AccountEntry): one trustline */
  assert_int_equal(scp_be32(h->snap[N - 1].val + 52), 1);
  scp_host_destroy(h);
  scp_ledger_free(l);
  scp_scenario_free(s);

  b = (scp_buf){0};
  scp_buf_printf(&b, "{\"contracts\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"name\":\"c%zu\",\"wasm\":\"m.wasm\"}", i ? "," : "", i);
  scp_buf_printf(&b, "],\"storage\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"contract\":\"c%zu\",\"key\":\"u32:1\",\"value\":\"addr:c%zu\"}",
                   i ? "," : "", (i * 7919) % N, i);
  scp_buf_printf(&b, "],\"calls\":[{\"contract\":\"c0\",\"function\":\"f\"}]}");
  s = load_within_limit(write_scenario("storage.json", &b), "storage");
  assert_int_equal(s->nstorage, N);
  assert_int_equal(s->storage[N - 1].contract, ((size_t)(N - 1) * 7919) % N);
  scp_scenario_free(s);
}

/* A duplicate name, deployer and salt, account or trustline is still found
 * when it is the last of 100,000. */
static void test_duplicate_last(void **state) {
  (void)state;
  static const char *const want[] = {"two contracts or assets have this name",
                                     "this account is already in \"accounts\"",
                                     "this account already has this trustline"};
  char acc[57], issuer[57];
  account(SIZE_MAX, issuer);
  for (int kind = 0; kind < 3; kind++) {
    scp_buf b = {0};
    if (kind == 0) {
      scp_buf_printf(&b, "{\"contracts\":[");
      for (size_t i = 0; i < N; i++)
        scp_buf_printf(&b, "%s{\"name\":\"c%zu\",\"wasm\":\"m.wasm\"}", i ? "," : "",
                       i == N - 1 ? 0 : i);
      scp_buf_printf(&b, "],");
    } else {
      scp_buf_printf(&b, "{\"assets\":[{\"name\":\"usd\",\"asset\":\"USD:%s\"}],\"%s\":[",
                     issuer, kind == 1 ? "accounts" : "trustlines");
      for (size_t i = 0; i < N; i++) {
        account(i == N - 1 ? 0 : i, acc);
        scp_buf_printf(&b, kind == 1 ? "%s{\"id\":\"%s\"}" : "%s{\"account\":\"%s\",\"asset\":\"usd\"}",
                       i ? "," : "", acc);
      }
      scp_buf_printf(&b, "],");
    }
    scp_buf_printf(&b, "\"calls\":[{\"contract\":\"%s\",\"function\":\"f\"}]}", kind ? "usd" : "c0");
    int rc;
    scp_error err = {0};
    double dt;
    assert_null(timed_load(write_scenario("dup.json", &b), &rc, &err, &dt));
    printf("# duplicate %d: refused in %.3f s: %s\n", kind, dt, err.msg);
    assert_int_equal(rc, SCP_ERR_MALFORMED);
    assert_non_null(strstr(err.msg, want[kind]));
    char where[40];
    snprintf(where, sizeof where, "%s[%d]: ", kind == 0 ? "contracts" : kind == 1 ? "accounts"
             : "trustlines", N - 1);
    assert_non_null(strstr(err.msg, where));
    assert_true(dt < CPU_LIMIT);
  }
}

static void be32(scp_buf *b, uint32_t v) {
  for (int k = 3; k >= 0; k--) scp_buf_putc(b, (char)(v >> (8 * k)));
}

static void uleb(scp_buf *b, size_t v) {
  do {
    uint8_t c = v & 0x7f;
    v >>= 7;
    scp_buf_putc(b, (char)(c | (v ? 0x80 : 0)));
  } while (v);
}

/* A contract whose contractspecv0 has 100,000 functions (f0, f1, ...,
 * no parameters), each called by name (no "args": the spec is read). */
static void test_spec_functions(void **state) {
  (void)state;
  scp_buf spec = {0}, m = {0};
  for (size_t i = 0; i < N; i++) {
    char name[16];
    int n = snprintf(name, sizeof name, "f%zu", i);
    be32(&spec, 0);                        /* SC_SPEC_ENTRY_FUNCTION_V0 */
    be32(&spec, 0);                        /* doc */
    be32(&spec, (uint32_t)n);
    scp_buf_put(&spec, name, (size_t)n);
    for (int k = n; k % 4; k++) scp_buf_putc(&spec, 0);
    be32(&spec, 0);                        /* inputs */
    be32(&spec, 0);                        /* outputs */
  }
  scp_buf_put(&m, "\0asm\1\0\0\0", 8);
  scp_buf_putc(&m, 0);
  uleb(&m, 1 + 14 + spec.len);
  uleb(&m, 14);
  scp_buf_put(&m, "contractspecv0", 14);
  scp_buf_put(&m, spec.data, spec.len);
  scp_buf_free(&spec);
  write_scenario("spec.wasm", &m);
  scp_buf b = {0};
  scp_buf_printf(&b, "{\"contracts\":[{\"name\":\"c\",\"wasm\":\"spec.wasm\"}],\"calls\":[");
  for (size_t i = 0; i < N; i++)
    scp_buf_printf(&b, "%s{\"function\":\"f%zu\"}", i ? "," : "", (i * 7919) % N);
  scp_buf_printf(&b, "]}");
  scp_scenario *s = load_within_limit(write_scenario("spec.json", &b), "spec functions");
  assert_int_equal(s->contracts[0].spec->nfns, N);
  assert_int_equal(s->ncalls, N);
  scp_scenario_free(s);
}

/* An object of 100,000 keys: read (jansson hashes its keys) and refused
 * for its first unknown key, or for a duplicate key that is the last. */
static void test_many_keys(void **state) {
  (void)state;
  for (int dup = 0; dup < 2; dup++) {
    scp_buf b = {0};
    scp_buf_printf(&b, "{\"assets\":[{\"name\":\"xlm\",\"asset\":\"native\"}],"
                   "\"calls\":[{\"contract\":\"xlm\",\"function\":\"f\"}],\"ledger\":{\"protocol\":23");
    for (size_t i = 0; i < N; i++)
      scp_buf_printf(&b, ",\"k%zu\":%zu", dup && i == N - 1 ? (size_t)0 : i, i);
    scp_buf_printf(&b, "}}");
    int rc;
    scp_error err = {0};
    double dt;
    assert_null(timed_load(write_scenario("keys.json", &b), &rc, &err, &dt));
    printf("# %s: refused in %.3f s: %s\n", dup ? "duplicate key" : "unknown keys", dt, err.msg);
    assert_int_equal(rc, SCP_ERR_MALFORMED);
    assert_non_null(strstr(err.msg, dup ? "duplicate object key" : "unknown key \"k0\""));
    assert_true(dt < CPU_LIMIT);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_contracts_and_calls),
      cmocka_unit_test(test_signers),
      cmocka_unit_test(test_assets_and_calls),
      cmocka_unit_test(test_accounts_trustlines_storage),
      cmocka_unit_test(test_spec_functions),
      cmocka_unit_test(test_duplicate_last),
      cmocka_unit_test(test_many_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
