/*
 * test_sdk_context.c — --context sdk-test through the library
 * (scp_soroban_opts.sdk_test) on kv_store.wasm's put(k1, v1).
 *
 * Pins of scprof's own output: 114,379 CPU, peak memory 208,691, the fee
 * estimate's total 9,915.  Hand-derived: the network's context on the same
 * call is 18,251 CPU and 642 bytes above (the per-difference deltas of
 * docs/fees.md, none of which depends on the contract's code: the last,
 * +4,546 / +616, the contract's instance read through encoded and decoded
 * by its first get, ValDeser(104) 3,880 / 312, MemAlloc(288) 470 / 304,
 * the key made, MemCpy(48) 48 and MemCpy(96) 54, and compared, MemCmp(48)
 * 50 and MemCmp(4) 44; the test Env's register put it decoded); the fee's
 * instruction part ceil(114,379 x 7 / 10,000) = 81 and its storage and
 * rent parts (1,563 + 2,500 + 69 + 5,702) are the SDK's own test's for an
 * entry of the same shape.  The refusals: what a test Env cannot have.
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
#include "util/scp_util.h"
#include "build_dir.h"

static const char *meta(const scp_profile *p, const char *key) {
  for (size_t i = 0; i < p->nmeta; i++)
    if (!strcmp(scp_prof_str(p, p->meta[i].key), key)) return scp_prof_str(p, p->meta[i].value);
  return "";
}

typedef struct put_run {
  uint8_t *wasm;
  size_t len;
  scp_arg a[2];
  scp_soroban_opts o;
} put_run;

static void put_open(put_run *r, bool sdk_test) {
  scp_error err;
  memset(r, 0, sizeof *r);
  assert_int_equal(scp_read_file(build_path("tests/fixtures/wasm/kv_store.wasm"), &r->wasm, &r->len, &err), SCP_OK);
  assert_int_equal(scp_arg_parse("sym:k1", &r->a[0], &err), SCP_OK);
  assert_int_equal(scp_arg_parse("sym:v1", &r->a[1], &err), SCP_OK);
  r->o = (scp_soroban_opts){.wasm_path = "kv_store.wasm", .wasm = r->wasm, .wasm_len = r->len,
                            .function = "put", .args = r->a, .nargs = 2, .sdk_test = sdk_test};
}

static void test_put_figures(void **state) {
  (void)state;
  put_run r, n;
  put_open(&r, true);
  put_open(&n, false);
  scp_error err;
  scp_profile *p = NULL, *q = NULL;
  assert_int_equal(scp_soroban_profile(&r.o, &p, &err), SCP_OK);
  assert_int_equal(scp_soroban_profile(&n.o, &q, &err), SCP_OK);
  assert_int_equal(scp_profile_total(p, 0), 114379);
  /* the SDK's mem_bytes: the Budget's peak, the figure the limit is checked against */
  assert_int_equal(scp_prof_checked(p, 1), 208691);
  assert_non_null(strstr(meta(p, "memory"), "peak 208,691 of the limit "));
  assert_string_equal(meta(p, "sdk fee estimate"),
                      "total 9915 = instructions 81 + disk_read_entries 1563 + write_entries 2500 + "
                      "disk_read_bytes 0 + write_bytes 69 + contract_events 0 + persistent_entry_rent 5702 + "
                      "temporary_entry_rent 0");
  assert_int_equal(scp_profile_total(q, 0) - scp_profile_total(p, 0), 14285 + 1703 + 525 - 693 - 1837 + 243 - 521 + 4546);
  assert_int_equal(scp_profile_total(q, 1) - scp_profile_total(p, 1), 600 + 32 - 32 - 234 - 324 - 16 + 616);
  assert_string_equal(meta(q, "sdk fee estimate"), "");
  assert_non_null(strstr(meta(q, "context"), "network"));
  assert_non_null(strstr(meta(p, "context"), "sdk-test"));
  scp_profile_destroy(p);
  scp_profile_destroy(q);
  free(r.wasm);
  free(n.wasm);
}

static void refused(put_run *r, const char *what) {
  scp_error err;
  scp_profile *p = NULL;
  assert_int_equal(scp_soroban_profile(&r->o, &p, &err), SCP_ERR_ARG);
  assert_null(p);
  assert_non_null(strstr(err.msg, what));
  free(r->wasm);
}

static void test_refusals(void **state) {
  (void)state;
  put_run r;
  put_open(&r, true);
  r.o.network = "mainnet";
  refused(&r, "context sdk-test: a network");
  put_open(&r, true);
  r.o.auth.enforce = true;
  refused(&r, "--auth enforce");
  put_open(&r, true);
  r.o.ledger.sequence = 5;
  refused(&r, "ledger settings");
  put_open(&r, true);
  r.o.ledger.protocol = 27;
  refused(&r, "a protocol other than 28");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_put_figures),
    cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
